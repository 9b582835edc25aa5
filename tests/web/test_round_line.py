"""A round said in one line (issue 28) through the pages: « Lire la phrase » fills each
kind's form and saves nothing; the usual button then saves what was read back; a
correction through a line; the dealer's forbidden bid refused with its usual reason;
an ambiguity asked; « moi »; the script's endpoint (its fields, its read-back, its
queries)."""

from __future__ import annotations

import re

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Round
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille

EN = {"Accept-Language": "en"}


def _rounds(game_id: int) -> int:
    db.session.expire_all()
    return db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.game_id == game_id)) or 0


def _read(client, group, game_id, line, number=1, edit=False, **fields):
    where = f"rounds/{number}/edit" if edit else "rounds/new"
    data = {"round": str(number), "line": line, "read": "1", **fields}
    return client.post(f"/g/{group.code}/games/{game_id}/{where}", data=data)


def _form_fields(page: str) -> dict[str, str]:
    """What a form page holds, as a browser would send it (text inputs, checked boxes
    and radios, selected options), but the buttons."""
    held: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="submit"' in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) in ("radio", "checkbox") and "checked" not in tag:
            continue
        held[name.group(1)] = value.group(1) if value else ("y" if kind and kind.group(1) == "checkbox" else "")
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option[^>]*selected[^>]*value="([^"]*)"|<option[^>]*value="([^"]*)"[^>]*selected', body)
        if chosen:
            held[name] = chosen.group(1) or chosen.group(2) or ""
    return held


def test_a_crapouille_line_fills_the_hand_and_saves_nothing_until_saved(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    r = _read(client, group, game_id, "Ann sort ; Bob douze ; Cid huit de cœur et un joker")
    page = html(r)
    assert r.status_code == 200 and _rounds(game_id) == 0  # read back: nothing saved
    held = _form_fields(page)
    assert held["winner"] == str(ann.id) and held[f"total_{bob.id}"] == "12"
    assert held["line"] == "Ann sort ; Bob douze ; Cid huit de cœur et un joker"
    assert "vérifiez les champs, puis enregistrez" in page
    # The usual button saves what was read back (the line itself is not read again).
    saved = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=held)
    assert saved.status_code == 302, html(saved)
    db.session.expire_all()
    last = db.session.scalar(sa.select(Round).where(Round.game_id == game_id))
    assert last.entry["winner"] == str(ann.id) and last.result["totals"][str(bob.id)] == 12
    assert last.result["totals"][str(cid.id)] == 35  # seed 003: 8 = 20, joker = 15


def test_what_is_not_understood_is_shown_and_an_ambiguity_is_asked(client: FlaskClient) -> None:
    group = create_group(client)
    marie, mathieu, ann = add_players(client, group, "Marie", "Mathieu", "Ann")
    game_id = start_crapouille(client, group, [marie, mathieu, ann])
    page = html(_read(client, group, game_id, "Ma sort ; Ann 12"))
    assert "Marie" in page and "Mathieu" in page and 'class="line-questions"' in page
    held = _form_fields(page)
    assert "winner" not in held  # asked, never guessed
    assert held[f"total_{ann.id}"] == "12"
    page = html(_read(client, group, game_id, "Ann sort ; Marie blablabla"))
    assert "<mark>" in page and "blablabla" in page
    assert _rounds(game_id) == 0


def test_a_president_line_fills_the_finishing_order(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Benoît", "Chloé", "Djamel")
    data = {f"seats-{i}": str(p.id) for i, p in enumerate((ann, bob, cid, dan))}
    data.update({"target": "25", "titles": "classic", "rule_points": "y"})
    r = client.post(f"/g/{group.code}/games/new/president", data=data)
    game_id = int(r.headers["Location"].rsplit("/", 1)[-1])
    # seed 000: the first out is Président, the last Trou du cul.
    page = html(_read(client, group, game_id, "Chloé présidente, Ann vice, Djamel vice-trou, Benoît trou du cul"))
    held = _form_fields(page)
    assert [held.get(f"finish-{i}") for i in range(3)] == [str(cid.id), str(ann.id), str(dan.id)]
    assert _rounds(game_id) == 0
    saved = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=held)
    assert saved.status_code == 302, html(saved)
    assert _rounds(game_id) == 1


def test_the_dealers_forbidden_bid_read_from_a_line_is_refused_with_its_reason(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    data = {f"seats-{i}": str(p.id) for i, p in enumerate((ann, bob, cid))}
    r = client.post(f"/g/{group.code}/games/new/whist-tarot", data=data)
    game_id = int(r.headers["Location"].rsplit("/", 1)[-1])
    # seed 002: Ann deals 5 cards; Bob and Cid bid 2 each: Ann may not bid 1 (2 + 2 + 1 = 5).
    page = html(_read(client, group, game_id, "annonces : Bob 2, Cid deux, Ann un"))
    held = _form_fields(page)
    assert held[f"bid_{bob.id}"] == "2" and held[f"bid_{cid.id}"] == "2"
    # The form refuses it as it refuses a tap on it, with the engine's reason; the
    # forbidden value stays unchosen.
    assert f"bid_{ann.id}" not in held
    assert "Ann donne et ne peut pas annoncer 1" in page and "où le formulaire dit ce qui" in page
    assert _rounds(game_id) == 0


def test_a_correction_through_a_line(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    first = {"round": "1", "winner": str(ann.id), f"total_{bob.id}": "10", f"total_{cid.id}": "4"}
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=first).status_code == 302
    page = html(_read(client, group, game_id, "Bob sort, Ann 7, Cid 3", edit=True))
    held = _form_fields(page)
    assert held["winner"] == str(bob.id) and held[f"total_{ann.id}"] == "7"
    db.session.expire_all()
    assert db.session.scalar(sa.select(Round.entry).where(Round.game_id == game_id))["winner"] == str(ann.id)
    saved = client.post(f"/g/{group.code}/games/{game_id}/rounds/1/edit", data=held)
    assert saved.status_code == 302, html(saved)
    db.session.expire_all()
    assert db.session.scalar(sa.select(Round.entry).where(Round.game_id == game_id))["winner"] == str(bob.id)


def test_the_scripts_endpoint_reads_a_line_in_a_fixed_number_of_queries(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    url = f"/g/{group.code}/games/{game_id}/rounds/{{n}}/line"
    answer = client.get(url.format(n=1), query_string={"q": "Ann sort ; Bob 12 ; Cid 3"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["fields"]["winner"] == str(ann.id) and body["complete"] is True
    assert 'id="line-reading"' in body["html"]
    english = client.get(url.format(n=1), query_string={"q": "Ann out; Bob twelve; Cid 3"}, headers=EN).get_json()
    assert english["fields"][f"total_{bob.id}"] == "12"
    with count_queries() as few:
        client.get(url.format(n=1), query_string={"q": "Ann sort ; Bob 12 ; Cid 3"})
    for n in range(1, 6):
        data = {"round": str(n), "winner": str(ann.id), f"total_{bob.id}": "10", f"total_{cid.id}": "4"}
        assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    with count_queries() as many:
        client.get(url.format(n=6), query_string={"q": "Ann sort ; Bob 12 ; Cid 3"})
    assert len(few) == len(many)
    stranger = app.test_client()
    assert stranger.get(url.format(n=1), query_string={"q": "Ann sort"}).status_code in (302, 404)


def test_the_enter_key_of_a_field_still_saves_when_no_line_is_said(client: FlaskClient) -> None:
    """« Lire la phrase » is the form's first button, so a browser sends it for the Enter
    key of any field: with no line, the hand is saved as it always was."""
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    data = {
        "round": "1",
        "read": "1",
        "line": " ",
        "winner": str(ann.id),
        f"total_{bob.id}": "3",
        f"total_{cid.id}": "2",
    }
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    assert _rounds(game_id) == 1
