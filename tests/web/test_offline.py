"""Working offline (issue 13), on the server's side: the service worker and its offline
page, the outbox's fresh CSRF token, its JSON answers, and how a form sent late is judged
— the same hand sent again is recognised (saved once), another one saved meanwhile is a
conflict shown with both versions, nothing is lost."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask, g
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Round
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_referee_live import _move, _president, _row, _version

OUTBOX = {"X-Companion-Outbox": "1"}


def _hand(game: Game, number: int, version: int, winner: Any, other: Any, total: int) -> dict[str, str]:
    return {
        "round": str(number),
        "version": str(version),
        "winner": str(winner.id),
        f"total_{other.id}": str(total),
        "outbox": f"Donne {number} · La crapouille",
    }


@pytest.fixture
def table(client: FlaskClient) -> tuple[Any, Any, Any, int]:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    return group, ann, bob, start_crapouille(client, group, [ann, bob])


def _url(group: Any, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}{tail}"


def _rounds(game_id: int) -> list[Round]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(Round).where(Round.game_id == game_id).order_by(Round.number)))


def test_the_worker_is_served_from_the_root_with_the_app_shell(client: FlaskClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Service-Worker-Allowed"] == "/" and r.headers["Cache-Control"] == "no-cache"
    head = r.get_data(as_text=True).split("\n", 2)
    version = json.loads(head[0].removeprefix("var VERSION = ").rstrip(";"))
    assets = json.loads(head[1].removeprefix("var ASSETS = ").rstrip(";"))
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    names = {asset.split("?v=")[0] for asset in assets}  # fingerprinted: /static/app.js?v=<hash>
    assert {"/static/style.css", "/static/app.js", "/static/outbox.js", "/static/offline.js"} <= names
    assert "/static/sw.js" not in names
    assert client.get("/sw.js").get_data() == r.get_data()  # the same files, the same worker


def test_every_page_installs_the_worker_and_has_the_outbox(client: FlaskClient, table: Any) -> None:
    group, _ann, _bob, game_id = table
    for url in ("/", f"/g/{group.code}", _url(group, game_id), _url(group, game_id, "/rounds/new")):
        page = html(client.get(url))
        assert 'id="outbox"' in page and 'data-worker="/sw.js"' in page, url
        assert re.search(r'<script src="/static/offline\.js\?v=[0-9a-f]+" defer></script>', page)
        assert "1 envoi en attente" in page  # the words of the outbox, in French


def test_the_offline_page_and_a_fresh_token(client: FlaskClient) -> None:
    page = html(client.get("/offline"))
    assert "Pas de réseau" in page and "partent d’eux-mêmes au retour du réseau" in page
    r = client.get("/offline/token")
    assert r.headers["Cache-Control"] == "no-store"
    assert isinstance(r.json["csrf_token"], str) and r.json["csrf_token"]


def test_a_kept_form_is_judged_with_a_fresh_token_whatever_its_age(app: Flask, table: Any) -> None:
    group, ann, bob, game_id = table
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    # The test keeps one app context, whose ``g`` would keep a CSRF token across requests.
    g.pop("csrf_token", None)
    # This client must belong to the group: join it again with CSRF on.
    page = html(client.get("/join"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = client.post(
        "/join", data={"csrf_token": token, "code": group.code, "passphrase": "trou du cul", "device_name": "B"}
    )
    assert r.status_code == 302
    g.pop("csrf_token", None)
    game = db.session.get(Game, game_id)
    data = _hand(game, 1, game.version, ann, bob, 12)
    stale = client.post(_url(group, game_id, "/rounds/new"), data={**data, "csrf_token": "an-hour-old"}, headers=OUTBOX)
    assert stale.json["outcome"] == "refused" and stale.json["status"] == 400  # as any stale form
    assert _rounds(game_id) == []
    g.pop("csrf_token", None)
    fresh = client.get("/offline/token").json["csrf_token"]
    sent = client.post(_url(group, game_id, "/rounds/new"), data={**data, "csrf_token": fresh}, headers=OUTBOX)
    assert sent.json == {"outcome": "sent", "status": 302, "messages": []}
    assert [r.entry["winner"] for r in _rounds(game_id)] == [str(ann.id)]


def test_the_same_hand_sent_again_is_saved_once(client: FlaskClient, table: Any) -> None:
    group, ann, bob, game_id = table
    game = db.session.get(Game, game_id)
    data = _hand(game, 1, game.version, ann, bob, 12)
    first = client.post(_url(group, game_id, "/rounds/new"), data=data, headers=OUTBOX)
    assert first.json["outcome"] == "sent"
    # The answer was lost on the way back (the network dropped): the outbox sends it again.
    again = client.post(_url(group, game_id, "/rounds/new"), data=data, headers=OUTBOX)
    assert again.json["outcome"] == "duplicate"
    assert again.json["messages"] == ["Donne 1 était déjà enregistrée."]
    # Without the outbox: the game, saying so (and still once).
    page = client.post(_url(group, game_id, "/rounds/new"), data=data, follow_redirects=True)
    assert "Donne 1 était déjà enregistrée." in html(page)
    assert len(_rounds(game_id)) == 1


def test_a_hand_saved_meanwhile_is_a_conflict_with_both_versions(client: FlaskClient, table: Any) -> None:
    group, ann, bob, game_id = table
    game = db.session.get(Game, game_id)
    version = game.version
    theirs = _hand(game, 1, version, bob, ann, 40)
    assert client.post(_url(group, game_id, "/rounds/new"), data=theirs).status_code == 302
    mine = _hand(game, 1, version, ann, bob, 12)
    answer = client.post(_url(group, game_id, "/rounds/new"), data=mine, headers=OUTBOX)
    assert answer.json == {"outcome": "conflict", "status": 409, "messages": []}
    r = client.post(_url(group, game_id, "/rounds/new"), data=mine)
    assert r.status_code == 409
    page = html(r)
    # What was saved meanwhile, from which device, and what it did…
    assert "Enregistré entre-temps sur un autre appareil" in page
    assert "Donne 1 saisie" in page and "Ann\u00a0: 0 → 40" in page
    # …and this version, in the form, now for hand 2 on the current game.
    assert "<h1>Donne 2</h1>" in page
    assert re.search(rf'name="total_{bob.id}"[^>]*value="12"', page)
    assert re.search(r'name="round" type="hidden" value="2"', page)
    db.session.expire_all()
    assert re.search(rf'name="version" type="hidden" value="{db.session.get(Game, game_id).version}"', page)
    assert [r.entry["winner"] for r in _rounds(game_id)] == [str(bob.id)]  # nothing written
    # Sent again from that page: saved as hand 2.
    again = {**mine, "round": "2", "version": str(db.session.get(Game, game_id).version)}
    assert client.post(_url(group, game_id, "/rounds/new"), data=again).status_code == 302
    assert [r.entry["winner"] for r in _rounds(game_id)] == [str(bob.id), str(ann.id)]


def test_a_stale_correction_is_a_conflict_and_the_same_one_again_is_recognised(client: FlaskClient, table: Any) -> None:
    group, ann, bob, game_id = table
    game = db.session.get(Game, game_id)
    client.post(_url(group, game_id, "/rounds/new"), data=_hand(game, 1, game.version, ann, bob, 12))
    db.session.expire_all()
    version = db.session.get(Game, game_id).version
    fix = _hand(game, 1, version, ann, bob, 20)
    edit = _url(group, game_id, "/rounds/1/edit")
    assert client.post(edit, data=fix, headers=OUTBOX).json["outcome"] == "sent"
    # Sent again (the answer was lost): recognised, nothing more changes.
    again = client.post(edit, data=fix, headers=OUTBOX).json
    assert again["outcome"] == "duplicate" and again["messages"] == ["Donne 1 était déjà enregistrée."]
    # Another correction based on the version before: a conflict, shown with what changed.
    other = _hand(game, 1, version, ann, bob, 33)
    assert client.post(edit, data=other, headers=OUTBOX).json["outcome"] == "conflict"
    r = client.post(edit, data=other)
    assert r.status_code == 409
    page = html(r)
    assert "Enregistré entre-temps sur un autre appareil" in page and "Donne 1 corrigée" in page
    assert [r.result["totals"][str(bob.id)] for r in _rounds(game_id)] == [20]


def test_what_the_server_refuses_says_why(client: FlaskClient, table: Any) -> None:
    group, ann, bob, game_id = table
    game = db.session.get(Game, game_id)
    bad = {**_hand(game, 1, game.version, ann, bob, 12), f"total_{bob.id}": "douze"}
    r = client.post(_url(group, game_id, "/rounds/new"), data=bad, headers=OUTBOX)
    assert r.json["outcome"] == "refused" and r.json["status"] == 200
    client.post(_url(group, game_id, "/abandon"), data={"version": str(game.version), "confirmed": "1"})
    db.session.expire_all()
    late = _hand(game, 1, db.session.get(Game, game_id).version, ann, bob, 12)
    answer = client.post(_url(group, game_id, "/rounds/new"), data=late, headers=OUTBOX).json
    assert answer["outcome"] == "refused"
    assert answer["messages"] == ["Cette partie est terminée\u00a0: plus de donne à saisir."]
    # A device no longer in the group: refused, with the status the outbox explains.
    other = client.application.test_client()
    answer = other.post(_url(group, game_id, "/rounds/new"), data=late, headers=OUTBOX).json
    assert answer == {"outcome": "refused", "status": 403, "messages": []}
    assert _rounds(game_id) == []


def test_the_outbox_header_changes_nothing_for_a_page_or_the_api(client: FlaskClient) -> None:
    assert client.get("/", headers=OUTBOX).mimetype == "text/html"
    r = client.post("/api/v1/check", data="{}", headers={**OUTBOX, "Content-Type": "application/json"})
    assert r.status_code == 400 and "error" in r.json


def test_a_live_move_kept_offline_is_sent_once_or_is_a_conflict(client: FlaskClient) -> None:

    group, (_ann, bob, cid, _dan), game_id = _president(client)
    version = _version(client, group, game_id)
    move = {"action": "play", "cards": "7♥ 7♠", "outbox": "Coup en direct · Le Président"}
    url = f"/g/{group.code}/games/{game_id}/live/move"
    first = client.post(url, data={**move, "version": version}, headers=OUTBOX)
    assert first.json == {"outcome": "sent", "status": 303, "messages": []}
    again = client.post(url, data={**move, "version": version}, headers=OUTBOX)
    assert again.json["outcome"] == "duplicate"
    assert len(_row(game_id).moves) == 1
    # Another move based on the same table: a conflict, nothing stored.
    other = client.post(url, data={"action": "pass", "version": version, "player": str(bob.id)}, headers=OUTBOX)
    assert other.json["outcome"] == "conflict" and other.json["status"] == 409, other.json
    assert len(_row(game_id).moves) == 1
    # An illegal move: refused, nothing stored.
    now = _version(client, group, game_id)
    illegal = client.post(url, data={"action": "play", "cards": "3♥", "version": now}, headers=OUTBOX)
    assert illegal.json["outcome"] == "refused"
    assert len(_row(game_id).moves) == 1
    assert _move(client, group, game_id, action="pass").status_code == 303  # the table goes on
    assert cid is not None
