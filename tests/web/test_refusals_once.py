"""A refusal is said once (issue 23), on the live play-by-play and on the quick check, for
every game: a refused move's reason by the field it is about when the page draws that
field (the summary names the field, as a link to it), else in the summary only; never
twice, never nowhere. The rule is one widget's (templates/_macros.html, error_summary).

With it, three more things of issue 23: the dealer's forbidden bid in one sentence, the
engine's, wherever it is said; « Reprendre le dernier coup » only once there is a move to
take back; and the quick check's player choosers showing, without script, the names the
request carries on its first render.

Seeds: 000 (le Président), 001 (Piketty), 002 (whist with a tarot deck), 003 (la crapouille)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import LiveManche
from companion.rules import whist_tarot
from companion.rules.cards import Card
from companion.rules.president import Rules
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_standings import draw, start_president, start_whist
from tests.web.test_whist_pages import fr

EN = {"Accept-Language": "en"}
ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ reading a page


def _text(page: str) -> str:
    """The page's words as a reader meets them (hidden ones too): no tags, no attributes,
    no <template>, spaces (no-break ones too) made plain."""
    page = re.sub(r"<template\b.*?</template>", " ", page, flags=re.S)
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)).replace("\u00a0", " "))


def _plain(message: str) -> str:
    return re.sub(r"\s+", " ", message.replace("\u00a0", " ")).strip()


def _summary(page: str) -> str:
    found = re.search(r'<div class="summary[^"]*"[^>]*id="error-summary">(.*?)</div>', page, re.S)
    return found.group(1) if found else ""


def _messages(page: str) -> list[str]:
    """Every message the page says of what was sent: by a field, in the summary (not a
    link), the quick check's verdict reason, a flash."""
    found = re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    summary = _summary(page)
    found += [li for li in re.findall(r"<li>(.*?)</li>", summary, re.S) if "<a " not in li]
    found += re.findall(r'<p class="verdict-reason">(.*?)</p>', page, re.S)
    found += re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, re.S)
    return [_plain(_text(m)) for m in found if _text(m).strip()]


def _links(page: str) -> list[str]:
    return re.findall(r'<a href="#([^"]+)"', _summary(page))


#: A summary naming whichever field the page draws.
ANY = "*"


def said_once(page: str, expected: str, link: str | None) -> None:
    """``expected`` is said, once; so is every other message of the page; the summary
    names the field ``link`` (None: it names none, the message is its own; ``ANY``: any)
    and each of its links leads to something on the page."""
    messages = _messages(page)
    text = _text(page)
    assert any(_plain(expected) in m for m in messages), f"not said: {expected!r} among {messages}"
    for message in messages:
        assert text.count(message) == 1, f"said {text.count(message)} times: {message}"
    if link != ANY:
        assert _links(page) == ([link] if link else [])
    for anchor in _links(page):
        assert f'id="{anchor}"' in page, f"the summary leads to #{anchor}, which is not on the page"


# ------------------------------------------------------------------ the live screen


def _live(group: Any, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}/live{tail}"


def _version(client: FlaskClient, url: str) -> str:
    match = re.search(r'name="version" value="(\d+)"', html(client.get(url)))
    assert match
    return match.group(1)


def _start(client: FlaskClient, group: Any, game_id: int, **data: str) -> None:
    data.setdefault("version", _version(client, _live(group, game_id)))
    r = client.post(_live(group, game_id, "/start"), data=data)
    assert r.status_code == 303, html(r)


def _stored(game_id: int) -> tuple[int, list[Any]]:
    db.session.expire_all()
    row = db.session.get(LiveManche, game_id)
    assert row is not None
    return row.version, list(row.moves)


def _refused(
    client: FlaskClient, group: Any, game_id: int, cases: list[tuple[dict[str, str], str, str | None]]
) -> None:
    """Each move of ``cases`` is refused, nothing stored, its reason said once, by the field named."""
    for data, expected, link in cases:
        before = _stored(game_id)
        sent = {"version": _version(client, _live(group, game_id)), **data}
        r = client.post(_live(group, game_id, "/move"), data=sent)
        assert r.status_code in (200, 400, 409), (data, r.status_code)
        page = html(r)
        said_once(page, expected, link)
        assert _stored(game_id) == before, data


def test_live_president_refusals(app: Flask, client: FlaskClient) -> None:
    # seed 000: « Jouer consiste à poser le même nombre de cartes que le joueur précédent,
    # mais d'un rang supérieur. »
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_president(client, group, "president", players, target=25)
    _start(client, group, game_id, leader=str(players[0].id))
    cases: list[tuple[dict[str, str], str, str | None]] = [
        ({"action": "play", "cards": "zz"}, "zz", "cards"),
        ({"action": "play", "cards": ""}, fr(app, "Pick the cards laid, or pass."), "cards"),
        ({"action": "play", "cards": "3♥ 3♥"}, "Il n’y a qu’un 3♥ dans le jeu.", "cards"),
        ({"action": "pass"}, "Il faut entamer", None),
        # Refused by the form (a character no one types): by the cards, or in the summary
        # for a field this screen never draws.
        ({"action": "play", "cards": "9♥\x01"}, "", "cards"),
        ({"action": "play", "cards": "9♥", "bid": "\x01"}, "", None),
    ]
    _refused(client, group, game_id, cases)
    live = _live(group, game_id)
    assert client.post(live + "/move", data={"version": _version(client, live), "action": "play", "cards": "7♥ 7♠"})
    _refused(client, group, game_id, [({"action": "play", "cards": "5♥ 5♠"}, "Il faut jouer plus haut", None)])
    # A move from a page older than the table: the conflict in the summary only.
    page = html(client.post(live + "/move", data={"version": "1", "action": "play", "cards": "9♥ 9♠"}))
    said_once(
        page, fr(app, "The table changed in the meantime (another device): nothing was recorded. Here it is now."), None
    )


def test_live_piketty_a_card_not_in_the_deck(client: FlaskClient) -> None:
    # seed 001: Piketty is played without the 3s (issue 23: « La carte 3♥ n’est pas dans ce jeu. » said twice).
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_president(client, group, "piketty", players, target=25)
    draw(client, group, game_id, dict(zip(players, ["R♠", "D♥", "9♦", "7♣"], strict=True)))
    _start(client, group, game_id)
    message = Rules(game="piketty").deck(4).too_many(Card.parse("3h")).fr
    assert message == "La carte 3♥ n’est pas dans ce jeu."
    cases: list[tuple[dict[str, str], str, str | None]] = [
        ({"action": "play", "cards": "3♥"}, message, "cards"),
        ({"action": "play", "cards": "3♥", "last": "y"}, message, "cards"),
        ({"action": "play", "cards": "7♥ 8♥"}, "", None),
    ]
    _refused(client, group, game_id, cases)


def test_live_crapouille_refusals(app: Flask, client: FlaskClient) -> None:
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». »
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    which_suit = "Quelle couleur demandez-vous\u00a0?"
    cases: list[tuple[dict[str, str], str, str | None]] = [
        ({"action": "play", "cards": "8♥"}, which_suit, "asked"),
        ({"action": "draw", "cards": "8♣"}, which_suit, "asked"),
        ({"action": "play", "cards": "3♥ 4♥"}, fr(app, "One card only."), "cards"),
        ({"action": "play", "cards": "zz"}, "zz", "cards"),
        ({"action": "play", "cards": "5♠"}, "", None),
        ({"action": "play", "cards": "9♥", "card": "\x01"}, "", None),
    ]
    _refused(client, group, game_id, cases)
    # The summary names each field as the screen labels it.
    page = html(client.post(_live(group, game_id, "/move"), data={"version": "1", "action": "play", "cards": "zz"}))
    assert re.search(r'<a href="#cards">Carte posée \(ou piochée et posée\)</a>', _summary(page))


def test_live_whist_refusals_and_the_forbidden_bid(client: FlaskClient) -> None:
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_whist(client, group, [ann, bob, cid])  # Ann deals 5: Bob, Cid, then Ann bid
    _start(client, group, game_id)
    live = _live(group, game_id)
    for bid in ("2", "1"):
        assert client.post(live + "/move", data={"version": _version(client, live), "bid": bid}).status_code == 303
    sentence = whist_tarot.forbidden_bid_text("Ann", 2, 5).fr
    page = html(client.get(live))
    # Said once, by the flag (not again in Cid's bid's words below it); the chip struck and disabled.
    assert _text(page).count(_plain(sentence)) == 1
    assert re.search(r'<li class="flag-lock" id="forbidden">([^<]*)</li>', page).group(1) == sentence
    chip = re.search(r'<button class="button big forbidden"[^>]*value="2"[^>]*>', page)
    assert chip and " disabled" in chip.group(0) and 'aria-describedby="forbidden"' in chip.group(0)
    # Sent all the same (an old page): refused, the sentence said once, in the summary; the flag waits.
    r = client.post(live + "/move", data={"version": _version(client, live), "bid": "2"})
    page = html(r)
    said_once(page, sentence, None)
    assert 'id="forbidden"' not in page and 'aria-describedby="error-summary"' in page
    cases: list[tuple[dict[str, str], str, str | None]] = [
        ({"bid": "9"}, "Touchez une annonce.", None),
        ({"card": "T3"}, "Les annonces ne sont pas finies.", None),
    ]
    _refused(client, group, game_id, cases)
    assert client.post(live + "/move", data={"version": _version(client, live), "bid": "0"}).status_code == 303
    assert client.post(live + "/move", data={"version": _version(client, live), "card": "T7"}).status_code == 303
    cases = [
        ({"card": "T7"}, "L’atout 7 est déjà sorti dans cette donne.", None),
        ({"card": "EX"}, "L’Excuse s’annonce", None),
    ]
    _refused(client, group, game_id, cases)


def test_live_start_refusals(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    start = _live(group, game_id, "/start")
    page = html(client.post(start, data={"version": "0", "card": "9♦"}))
    said_once(page, fr(app, "Say who plays first."), "first")
    page = html(client.post(start, data={"version": "0", "card": "zz", "first": str(ann.id)}))
    said_once(page, "zz", "card")
    # A field this start page does not draw (la crapouille has no leader to choose).
    page = html(client.post(start, data={"version": "0", "card": "9♦", "first": str(ann.id), "leader": "\x01"}))
    said_once(page, "", None)
    assert db.session.get(LiveManche, game_id) is None


# ------------------------------------------------------------------ the quick check

FOUR = {f"state.players[{i}]": name for i, name in enumerate(("Ann", "Bob", "Cid", "Dan"))}


def _check(client: FlaskClient, game: str, data: dict[str, str]) -> str:
    return html(client.post(f"/check?game={game}", data={"game": game, **data}))


def test_check_refusals_of_every_game(app: Flask, client: FlaskClient) -> None:
    piketty = "La carte 3♥ n’est pas dans ce jeu."
    page = _check(client, "piketty", FOUR | {"move.player": "0", "move.cards": "3♥"})
    said_once(page, piketty, "f-move-cards")
    trick = {"state.trick[0].player": "1", "state.trick[0].cards": "3♥", "move.player": "2", "move.cards": "8♥"}
    said_once(_check(client, "piketty", FOUR | trick), piketty, "f-state-trick-0-cards")
    page = _check(client, "president", FOUR | {"move.player": "0", "move.cards": "3♥ 3♥"})
    said_once(page, "Il n’y a qu’un 3♥ dans le jeu.", "f-move-cards")
    # seed 003: the 8 asks a suit; a table with an 8 on top and no suit asked cannot be judged.
    table = FOUR | {"state.turn": "0", "state.pile": "9♦ 8♦", "move.player": "0", "move.card": "9♦"}
    said_once(_check(client, "crapouille", table), "Quelle couleur a été demandée avec le 8\u00a0?", "f-state-asked")
    said_once(_check(client, "crapouille", table | {"move.card": "zz"}), "zz", "f-move-card")
    # Illegal moves: the verdict says why, once, and there is no summary.
    page = _check(
        client,
        "president",
        FOUR | {"state.trick[0].player": "0", "state.trick[0].cards": "9♥"} | {"move.player": "1", "move.cards": "5♥"},
    )
    said_once(page, "Il faut jouer plus haut", None)
    whist = FOUR | {"state.dealer": "3", "state.cards": "5", "move.player": "3", "move.bid": "1"}
    whist |= {"state.bids.@0": "2", "state.bids.@1": "1", "state.bids.@2": "1"}
    said_once(_check(client, "whist-tarot", whist), whist_tarot.forbidden_bid_text("Dan", 1, 5).fr, None)


def test_check_a_message_about_an_empty_seat_is_shown_by_its_field(app: Flask, client: FlaskClient) -> None:
    # Dan's seat emptied without script, his bid left: its message by the bid, shown.
    table = FOUR | {"state.players[3]": "", "state.dealer": "2", "state.cards": "5", "state.bids.@3": "1"}
    page = _check(client, "whist-tarot", table | {"move.player": "0", "move.bid": "1"})
    said_once(page, fr(app, "This seat has no name."), "f-state-bids-3")
    assert re.search(r'<div data-seat="3">', page)  # not hidden: the message is seen
    # A seat without a name ticked as out (le Président): by its pill, shown.
    page = _check(client, "president", FOUR | {"state.out[5]": "5", "move.player": "0", "move.cards": "9♥"})
    said_once(page, fr(app, "Choose a player who has a name."), "f-state-out-5")
    assert re.search(r'<label class="pill has-error" data-seat="5">', page)


def test_check_of_a_game_in_progress(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_president(client, group, "piketty", players, target=25)
    draw(client, group, game_id, dict(zip(players, ["R♠", "D♥", "9♦", "7♣"], strict=True)))
    url = f"/g/{group.code}/games/{game_id}/check"
    page = html(client.post(url, data={"move.player": "0", "move.cards": "3♥"}))
    said_once(page, "La carte 3♥ n’est pas dans ce jeu.", "f-move-cards")


# ------------------------------------------------------- the dealer's forbidden bid


def test_the_dealers_forbidden_bid_is_one_sentence_everywhere(app: Flask, client: FlaskClient) -> None:
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas
    # dire 1 ». Dan deals 5; Ann, Bob and Cid bid 2, 1 and 1.
    sentence = whist_tarot.forbidden_bid_text("Dan", 1, 5)
    assert sentence.fr == "Dan donne et ne peut pas annoncer 1\u00a0: les annonces feraient 5, le nombre de plis."
    assert sentence.en == "Dan deals and may not bid 1: the bids would add up to 5, the number of tricks."
    players = ("Ann", "Bob", "Cid", "Dan")
    # The engine's refusal.
    deal = whist_tarot.Deal(players, "Dan", 5, {"Ann": 2, "Bob": 1, "Cid": 1})
    assert deal.check(whist_tarot.Bid("Dan", 1)).reason == sentence
    # The rules API: its refusal, and its words once Cid has bid (« said »).
    api = {"game": "whist-tarot", "state": {"players": list(players), "dealer": "Dan", "cards": 5}}
    for lang in ("fr", "en"):
        state = {**api["state"], "bids": {"Ann": 2, "Bob": 1, "Cid": 1}}
        refused = client.post(
            "/api/v1/check", json={**api, "state": state, "move": {"player": "Dan", "bid": 1}, "lang": lang}
        ).json
        assert refused["reason"] == sentence.get(lang)
        state = {**api["state"], "bids": {"Ann": 2, "Bob": 1}}
        said = client.post(
            "/api/v1/check", json={**api, "state": state, "move": {"player": "Cid", "bid": 1}, "lang": lang}
        ).json
        assert said["said"][-1] == sentence.get(lang)
    # The quick check's verdict.
    whist = FOUR | {"state.dealer": "3", "state.cards": "5", "move.player": "3", "move.bid": "1"}
    whist |= {"state.bids.@0": "2", "state.bids.@1": "1", "state.bids.@2": "1"}
    assert sentence.fr in _check(client, "whist-tarot", whist)
    # The deal form: the hint once the others' bids are in, and for the script, the same
    # sentence for every total of the others' bids (2 + 1 + 1 = 4: « pas 1 »).
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, *players)
    r = client.post(
        f"/g/{group.code}/games/new/whist-tarot",
        data={f"seats-{i}": str(p.id) for i, p in enumerate((ann, bob, cid, dan))} | {"dealer": str(dan.id)},
    )
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    url = f"/g/{group.code}/games/{game_id}/rounds/new"
    raw = client.post(url, data={"round": "1", f"bid_{ann.id}": "2", f"bid_{bob.id}": "1", f"bid_{cid.id}": "1"})
    page = html(raw)
    hint = re.search(r'<p class="hint" id="forbidden-hint"[^>]*>(.*?)</p>', page, re.S)
    assert hint and hint.group(1).strip() == sentence.fr
    attribute = re.search(r'data-forbidden-said="([^"]*)"', raw.get_data(as_text=True))
    assert attribute
    said_by_total = json.loads(unescape(attribute.group(1)))
    assert said_by_total[4] == sentence.fr and said_by_total[0] == whist_tarot.forbidden_bid_text("Dan", 5, 5).fr
    assert said_by_total[6] is None  # the bids cannot make 5: nothing is forbidden
    english = html(
        client.post(
            url, data={"round": "1", f"bid_{ann.id}": "2", f"bid_{bob.id}": "1", f"bid_{cid.id}": "1"}, headers=EN
        )
    )
    assert sentence.en in english
    # The live screen, in both languages.
    _start(client, group, game_id)
    live = _live(group, game_id)
    for bid in ("2", "1", "1"):
        assert client.post(live + "/move", data={"version": _version(client, live), "bid": bid}).status_code == 303
    assert _text(html(client.get(live))).count(_plain(sentence.fr)) == 1
    assert _text(html(client.get(live, headers=EN))).count(sentence.en) == 1
    # The rules page gives it as its example.
    assert sentence.fr in html(client.get("/rules/whist-tarot"))
    assert sentence.en in html(client.get("/rules/whist-tarot", headers=EN))
    # No second wording is left: not in the catalog, not in a template, not in a script.
    catalog = (ROOT / "translations/fr/LC_MESSAGES/messages.po").read_text(encoding="utf-8")
    for old in ("The dealer may not bid", "may not bid %(bid)s", "La personne qui donne ne peut pas annoncer"):
        assert old not in catalog
    for path in [*(ROOT / "templates").rglob("*.html"), ROOT / "static/whist.js", *(ROOT / "companion").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "ne peut pas annoncer" not in text or path.parent == ROOT / "companion/rules/whist_tarot", path
        assert not re.search(r"(?i)le donneur (annonce|ne peut)", text), path


# ------------------------------------------------------------- taking a move back


def test_take_back_is_offered_only_once_there_is_a_move(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_president(client, group, "president", players, target=25)
    _start(client, group, game_id, leader=str(players[0].id))
    live = _live(group, game_id)
    undo = f'action="{live}/undo"'
    page = html(client.get(live))
    assert undo not in page and "Reprendre le dernier coup" not in page and "Aucun coup pour l’instant." in page
    assert client.post(live + "/move", data={"version": _version(client, live), "action": "play", "cards": "7♥ 7♠"})
    page = html(client.get(live))
    assert page.count(undo) == 1 and "Reprendre le dernier coup" in page
    assert client.post(live + "/undo", data={"version": _version(client, live)}).status_code == 303
    page = html(client.get(live))
    assert undo not in page and "Reprendre le dernier coup" not in page


# ------------------------------------------------------- the quick check's names


def _options(page: str, name: str) -> list[tuple[str, str, bool, bool]]:
    """A select's options: (value, label, hidden, selected)."""
    select = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert select, f"no select {name}"
    return [
        (value, unescape(label), "hidden" in attrs, "selected" in attrs)
        for attrs, value, label in re.findall(r'<option([^>]*?)value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))
    ]


def _shown(page: str, name: str) -> list[str]:
    return [label for value, label, hidden, _selected in _options(page, name) if value and not hidden]


def _chosen(page: str, name: str) -> str:
    return next((label for _v, label, _h, selected in _options(page, name) if selected), "")


def test_check_first_render_without_names_keeps_its_starting_table(client: FlaskClient) -> None:
    page = html(client.get("/check?game=president"))
    assert _shown(page, "move.player") == ["Ann", "Bob", "Cid", "Dan"] and _chosen(page, "move.player") == "Ann"
    page = html(client.get("/check?game=whist-tarot"))
    assert _chosen(page, "state.dealer") == "Dan" and _chosen(page, "state.cards") == "5"


def test_check_first_render_shows_the_names_the_request_carries(client: FlaskClient) -> None:
    names = ("Eve", "Fay", "Gus", "Hal", "Ivy")
    query = "&".join(f"state.players[{i}]={n}" for i, n in enumerate(names))
    page = html(client.get(f"/check?game=president&{query}"))
    for chooser in ("move.player", "state.leader", "state.trick[0].player"):
        assert _shown(page, chooser) == list(names), chooser
    assert _chosen(page, "move.player") == "Eve"
    assert "Ann" not in _text(page) and all(label != "Place 5" for _v, label, _h, _s in _options(page, "move.player"))
    assert re.search(r'<label class="pill" data-seat="4">.*?<span data-seat-label="4">Ivy</span>', page, re.S)
    # Whist: the dealer Dan (seat 4) is not there; the dealer is the last named seat, the
    # bids named after the seats; la crapouille: the first named seat's turn.
    page = html(client.get("/check?game=whist-tarot&state.players[0]=Eve&state.players[1]=Fay&state.players[2]=Gus"))
    assert _shown(page, "state.dealer") == ["Eve", "Fay", "Gus"] and _chosen(page, "state.dealer") == "Gus"
    assert re.findall(r'<label for="f-state-bids-\d">([^<]*)</label>', page)[:3] == ["Eve", "Fay", "Gus"]
    page = html(client.get("/check?game=crapouille&state.players[1]=Eve&state.players[2]=Fay"))
    assert _chosen(page, "state.turn") == "Eve" and _chosen(page, "move.player") == "Eve"
    assert _shown(page, "state.turn") == ["Eve", "Fay"]


def test_use_these_names_draws_the_page_again_with_them(client: FlaskClient) -> None:
    names = {f"state.players[{i}]": n for i, n in enumerate(("Eve", "Fay", "Gus", "", "Ivy"))}
    page = html(client.get("/check?game=president"))
    assert 'name="names" value="1"' in page
    # Enter presses « Check » (the form's first button), not « Use these names ».
    buttons = re.findall(r'<(?:button|input)[^>]*type="submit"[^>]*>', page)
    assert 'name="names"' not in buttons[0] and "visually-hidden" in buttons[0]
    typed = names | {"game": "president", "move.player": "4", "move.cards": "9♥", "move.announced": "", "names": "1"}
    r = client.post("/check?game=president", data=typed)
    assert r.status_code == 303
    query = parse_qs(urlsplit(r.headers["Location"]).query)
    assert query["state.players[4]"] == ["Ivy"] and query["move.cards"] == ["9♥"] and query["names"] == ["1"]
    assert "csrf_token" not in query and "move.pass" not in query  # nothing empty, nothing of the session
    page = html(client.get(r.headers["Location"]))
    assert _shown(page, "move.player") == ["Eve", "Fay", "Gus", "Ivy"] and _chosen(page, "move.player") == "Ivy"
    assert 'value="9♥"' in page and 'id="error-summary"' not in page
    # What was typed is kept as typed; the page judges nothing until « Check ».
    verdict = re.search(r'<section id="verdict"[^>]*>(.*?)</section>', page, re.S)
    assert verdict and not verdict.group(1).strip()
    # A game in progress has its players: no such button.
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, players)
    assert 'name="names"' not in html(client.get(f"/g/{group.code}/games/{game_id}/check"))


def test_a_carried_chooser_at_an_empty_seat_falls_back(client: FlaskClient) -> None:
    # The table emptied Dan's seat, leaving him the dealer: the page shows a dealer who sits there.
    query = "names=1&state.players[0]=Eve&state.players[1]=Fay&state.players[2]=Gus&state.dealer=3&move.player=3"
    page = html(client.get(f"/check?game=whist-tarot&{query}"))
    assert _chosen(page, "state.dealer") == "Gus" and _chosen(page, "move.player") == "Eve"
    assert _chosen(page, "state.cards") == ""  # the whole form as typed: the deal size left empty
    # Out at an empty seat: nobody.
    page = html(client.get("/check?game=president&names=1&state.players[0]=Eve&state.players[1]=Fay&state.out[3]=3"))
    assert not re.search(r'name="state.out\[3\]"[^>]*checked|checked[^>]*name="state.out\[3\]"', page)


def test_junk_in_the_query_never_breaks_the_page(client: FlaskClient) -> None:
    for query in (
        "state.players[0]=" + "x" * 500,
        "state.players[99]=Eve",
        "state.dealer=abc&state.players[0]=Eve",
        "move.player=-1&state.players[0]=Eve",
        "state.bids.@7=9&state.players[0]=Eve",
        "rules.decks=99&state.players[0]=Eve",
        "state.trick[0].cards=zz&names=1",
    ):
        for game in ("president", "piketty", "whist-tarot", "crapouille"):
            r = client.get(f"/check?game={game}&{query}")
            assert r.status_code == 200, (game, query)


def test_live_president_start_refusals(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_president(client, group, "president", players, target=25)
    start = _live(group, game_id, "/start")
    # Junk in any field of the start form, drawn or not on this page: its message said once
    # (by the field when the page draws it, else in the summary).
    for field in ("leader", "dealer", "card", "first"):
        page = html(client.post(start, data={"version": "0", field: "\x01"}))
        said_once(page, "", ANY)
    assert db.session.get(LiveManche, game_id) is None
