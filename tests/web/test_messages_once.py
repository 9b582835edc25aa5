"""Each message said once (issue 22): a refusal by its field, with the form's summary
leading there by the field's name; a message without a field (a conflict) in the
summary only; whose turn said once on the referee's screens. And the whist dealer's
forbidden bid struck out and disabled among the chips, drawn by the server."""

from __future__ import annotations

import json
import re
from html import unescape

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Round
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_standings import manche, start_president, start_whist


def _text(page: str) -> str:
    """The page's words as a reader meets them: no tags, no attributes, no <template>."""
    page = re.sub(r"<template\b.*?</template>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)).replace("\u00a0", " "))


def _messages(page: str) -> list[str]:
    """Every message the page shows: by the fields, in a summary not as a link, refusals."""
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    for summary in re.findall(r'<div class="summary[^"]*"[^>]*>(.*?)</div>', page, re.S):
        found += [li for li in re.findall(r"<li>(.*?)</li>", summary, re.S) if "<a " not in li]
        found += re.findall(r"<p>(.*?)</p>", summary, re.S)
    return [_text(m).strip() for m in found if _text(m).strip()]


def _said_once(page: str) -> list[str]:
    messages = _messages(page)
    assert messages, "no message on the page"
    text = _text(page)
    for message in messages:
        assert text.count(message) == 1, f"said {text.count(message)} times: {message}"
    return messages


def _summary_links(page: str) -> list[str]:
    summary = re.search(r'<div class="summary[^"]*"[^>]*>(.*?)</div>', page, re.S)
    assert summary, "no summary"
    return re.findall(r'<a href="#([^"]+)"', summary.group(1))


# ------------------------------------------------------------------ the forms


def test_a_refusal_is_said_by_its_field_and_the_summary_leads_there(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    url = f"/g/{group.code}/games/{game_id}/rounds/new"
    page = html(client.post(url, data={"round": "1", "winner": str(ann.id), f"cards_{bob.id}": "ZZ"}))
    [message] = _said_once(page)
    assert "ZZ" in message and _summary_links(page) == [f"cards_{bob.id}"]
    assert re.search(rf'<div id="cards_{bob.id}-err"><p class="error"', page)
    # Nobody went out: the message by the winner's choice, its name in the summary.
    page = html(client.post(url, data={"round": "1"}))
    _said_once(page)
    assert _summary_links(page) == ["winner"]


def test_a_conflict_is_said_once_in_the_summary(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    url = f"/g/{group.code}/games/{game_id}/rounds/new"
    first = {"round": "1", "version": "0", "winner": str(ann.id), f"total_{bob.id}": "12"}
    assert client.post(url, data=first).status_code == 302
    r = client.post(url, data=first | {f"total_{bob.id}": "13"})  # another hand 1, from an older page
    assert r.status_code == 409
    page = html(r)
    [message] = _said_once(page)
    assert "autre appareil" in message and _summary_links(page) == []


def test_a_message_whose_field_is_not_drawn_is_in_the_summary(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_president(client, group, "president", [ann, bob, cid], target=25)
    manche(client, group, game_id, 1, [ann, bob])
    data = {"round": "2", "event": "putsch", "finish-0": str(cid.id)}
    page = html(client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data))
    assert 'name="event"' not in page  # no event offered: no field to say it by
    [message] = _said_once(page)
    assert "règles" in message


def test_a_seat_taken_twice_is_in_the_summary(client: FlaskClient) -> None:
    group = create_group(client)
    ann, _bob = add_players(client, group, "Ann", "Bob")
    r = client.post(f"/g/{group.code}/games/new/crapouille", data={"seats-0": str(ann.id), "seats-1": str(ann.id)})
    page = html(r)
    [message] = _said_once(page)
    assert "Ann" in message and _summary_links(page) == ["seats-1"]
    page = html(client.post(f"/g/{group.code}/games/new/crapouille", data={"seats-0": str(ann.id)}))
    _said_once(page)
    assert _summary_links(page) == ["seats"] and 'id="seats"' in page


def test_a_wrong_passphrase_is_said_once(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    page = html(app.test_client().post("/join", data={"code": group.code, "passphrase": "nope"}))
    _said_once(page)
    assert _summary_links(page) == ["passphrase"]


# ------------------------------------------------------------ whist: the forbidden bid


def _whist(client: FlaskClient):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_whist(client, group, [ann, bob, cid])  # Ann deals 5 cards: Bob, Cid, then Ann bid
    return (ann, bob, cid), f"/g/{group.code}/games/{game_id}/rounds"


def _chip(page: str, name: str, value: int) -> str:
    match = re.search(rf'<label class="([^"]*)"><input ([^>]*)name="{name}" type="radio" value="{value}">', page)
    assert match, f"no chip {name}={value}"
    return f"{match.group(1)}|{match.group(2)}"


def test_the_dealers_forbidden_bid_is_struck_and_disabled_and_still_refused(client: FlaskClient) -> None:
    (ann, bob, cid), url = _whist(client)
    dealer = f"bid_{ann.id}"
    # Before the others bid, nothing is struck out (the script does it as they are chosen).
    page = html(client.get(f"{url}/new"))
    assert "forbidden" not in _chip(page, dealer, 2) and "disabled" not in _chip(page, dealer, 2)
    # The script decides nothing: for every total of the two others' bids (0 to 10) it
    # reads the engine's forbidden value (seed 002: the dealer may not make the bids 5).
    table = re.search(r'data-forbidden-bids="([^"]*)"', page)
    assert table and json.loads(unescape(table.group(1))) == [5, 4, 3, 2, 1, 0] + [None] * 5
    # Sent without script: 2 + 1 + 2 = 5 cards. The engine refuses, with its reason.
    r = client.post(f"{url}/new", data={"round": "1", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", dealer: "2"})
    assert r.status_code == 200
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    page = html(r)
    chip = _chip(page, dealer, 2)
    assert chip.startswith("pill forbidden|") and "disabled" in chip and "checked" not in chip
    assert f'aria-describedby="{dealer}-err"' in chip
    reason = re.search(rf'<div id="{dealer}-err"><p class="error"[^>]*>(.*?)</p>', page, re.S)
    assert reason and "ne peut pas annoncer 2" in reason.group(1)
    assert re.search(r'<p class="hint" id="forbidden-hint" aria-live="polite" hidden', page)  # said once
    _said_once(page)
    for value in (0, 1, 3, 4, 5):
        assert "forbidden" not in _chip(page, dealer, value) and "disabled" not in _chip(page, dealer, value)


def test_the_forbidden_bid_struck_when_the_bids_are_corrected(client: FlaskClient) -> None:
    (ann, bob, cid), url = _whist(client)
    dealer = f"bid_{ann.id}"
    assert (
        client.post(
            f"{url}/new", data={"round": "1", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", dealer: "1"}
        ).status_code
        == 302
    )
    page = html(client.get(f"{url}/1/edit"))
    chip = _chip(page, dealer, 2)
    assert chip.startswith("pill forbidden|") and 'aria-describedby="forbidden-hint"' in chip and "disabled" in chip
    assert "checked" in _chip(page, dealer, 1)
    hint = re.search(r'<p class="hint" id="forbidden-hint"([^>]*)>(.*?)</p>', page, re.S)
    assert hint and "hidden" not in hint.group(1) and "ne peut pas annoncer 2" in hint.group(2)


# ---------------------------------------------------------------- the referee


def _live_president(client: FlaskClient):
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_president(client, group, "president", players, target=25)
    live = f"/g/{group.code}/games/{game_id}/live"

    def version() -> str:
        match = re.search(r'name="version" value="(\d+)"', html(client.get(live)))
        assert match
        return match.group(1)

    r = client.post(live + "/start", data={"version": version(), "leader": str(players[0].id)})
    assert r.status_code == 303, html(r)
    return live, version


def test_live_whose_turn_is_said_once_and_a_refusal_once(client: FlaskClient) -> None:
    live, version = _live_president(client)
    assert (
        client.post(live + "/move", data={"version": version(), "action": "play", "cards": "7♥ 7♠"}).status_code == 303
    )
    text = _text(html(client.get(live)))
    assert text.count("À Bob de jouer.") == 1
    # Cards the table cannot read: refused, the reason by the cards' field, once.
    page = html(client.post(live + "/move", data={"version": version(), "action": "play", "cards": "zz"}))
    [message] = _said_once(page)
    assert "zz" in message.lower() and _summary_links(page) == ["cards"]
    # An illegal move has no field: its reason is the summary's.
    page = html(client.post(live + "/move", data={"version": version(), "action": "play", "cards": "5♥ 5♠"}))
    [message] = _said_once(page)
    assert "7" in message and _summary_links(page) == []


def test_check_whose_turn_is_said_once(client: FlaskClient) -> None:
    table = {
        "game": "president",
        "state.players[0]": "Ann",
        "state.players[1]": "Bob",
        "state.players[2]": "Cid",
        "state.trick[0].player": "0",
        "state.trick[0].cards": "7C 7P",
        "move.player": "1",
        "move.cards": "9T 9K",
    }
    page = html(client.post("/check?game=president", data=table))
    verdict = re.search(r'<section id="verdict"[^>]*>(.*?)</section>', page, re.S)
    assert verdict and "À Cid de jouer." in _text(verdict.group(1))
    assert re.search(r'<p class="verdict-next" hidden>', verdict.group(1))
