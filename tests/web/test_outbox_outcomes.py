"""Refused deletes, undos and status changes answer the outbox with what became of them
(issue 24): a delete, an abandon, a finish, a reopen or an undo sent late from the phone's
outbox (``X-Companion-Outbox: 1``) that changed nothing is « duplicate » (it had been done:
its answer was lost, and the outbox sent it again), « conflict » (another phone changed the
game first) or « refused » — never « sent » — with the sentence that says so."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, GameChange, GameStatus, Round
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_offline import OUTBOX, _hand, _url


@pytest.fixture
def table(client: FlaskClient) -> tuple[Any, Any, Any, int]:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    return group, ann, bob, start_crapouille(client, group, [ann, bob])


def _version(game_id: int) -> int:
    db.session.expire_all()
    return db.session.get(Game, game_id).version


def _post(client: FlaskClient, url: str, version: int | None, **extra: str) -> dict[str, Any]:
    data = {"confirmed": "1", **extra}
    if version is not None:
        data["version"] = str(version)
    answer = client.post(url, data=data, headers=OUTBOX)
    assert answer.mimetype == "application/json", answer.status_code
    return answer.json


def _two_hands(client: FlaskClient, table: Any) -> None:
    group, ann, bob, game_id = table
    game = db.session.get(Game, game_id)
    for number in (1, 2):
        r = client.post(_url(group, game_id, "/rounds/new"), data=_hand(game, number, _version(game_id), ann, bob, 5))
        assert r.status_code == 302


def test_a_delete_sent_twice_is_a_duplicate_and_a_stale_one_a_conflict(client: FlaskClient, table: Any) -> None:
    group, _ann, _bob, game_id = table
    _two_hands(client, table)
    version = _version(game_id)
    delete = _url(group, game_id, "/rounds/2/delete")
    assert _post(client, delete, version)["outcome"] == "sent"
    # The answer was lost: the outbox sends the same delete again.
    again = _post(client, delete, version)
    assert again == {"outcome": "duplicate", "status": 302, "messages": ["Donne 2 supprimée."]}
    # A delete of hand 1 shown before another phone saved a hand: nothing deleted.
    stale = _post(client, _url(group, game_id, "/rounds/1/delete"), version)
    assert stale["outcome"] == "conflict"
    assert stale["messages"] == [
        "La donne 1 n’a pas été supprimée\u00a0: la partie a changé entre-temps. Rien n’a été modifié."
    ]
    # Without a version (a form from elsewhere): refused.
    assert _post(client, _url(group, game_id, "/rounds/1/delete"), None)["outcome"] == "refused"
    db.session.expire_all()
    assert [r.number for r in db.session.scalars(sa.select(Round).where(Round.game_id == game_id))] == [1]


def test_status_changes_say_what_became_of_them(client: FlaskClient, table: Any) -> None:
    group, _ann, _bob, game_id = table
    _two_hands(client, table)
    version = _version(game_id)
    abandon, finish, reopen = (_url(group, game_id, tail) for tail in ("/abandon", "/finish", "/reopen"))
    assert _post(client, abandon, version)["outcome"] == "sent"
    assert _post(client, abandon, version) == {
        "outcome": "duplicate",
        "status": 302,
        "messages": ["Partie abandonnée."],
    }
    # Finishing the game as it was before the abandon: another change came first.
    late = _post(client, finish, version)
    assert late["outcome"] == "conflict"
    assert late["messages"] == [
        "La partie n’a pas été terminée\u00a0: elle a changé entre-temps. Rien n’a été modifié."
    ]
    abandoned = _version(game_id)
    assert _post(client, reopen, abandoned)["outcome"] == "sent"
    assert _post(client, reopen, abandoned) == {"outcome": "duplicate", "status": 302, "messages": ["Partie rouverte."]}
    reopened = _version(game_id)
    assert _post(client, finish, reopened)["outcome"] == "sent"
    assert _post(client, finish, reopened)["outcome"] == "duplicate"
    # The reopen sent again much later is still the one done: a duplicate, not a second reopen…
    assert _post(client, reopen, abandoned)["outcome"] == "duplicate"
    # …but a reopen shown before the abandon was done in between: a conflict.
    stale = _post(client, reopen, version)
    assert stale["outcome"] == "conflict"
    assert stale["messages"] == [
        "La partie n’a pas été rouverte\u00a0: elle a changé entre-temps. Rien n’a été modifié."
    ]
    late = _post(client, abandon, reopened)
    assert late["outcome"] == "conflict"
    assert late["messages"] == [
        "La partie n’a pas été abandonnée\u00a0: elle a changé entre-temps. Rien n’a été modifié."
    ]
    db.session.expire_all()
    assert db.session.get(Game, game_id).status is GameStatus.FINISHED


def _undo_of(client: FlaskClient, group: Any, game_id: int, kind: str) -> tuple[str, int]:
    change = db.session.scalar(
        sa.select(GameChange)
        .where(GameChange.game_id == game_id, GameChange.kind == kind)
        .order_by(GameChange.id.desc())
    )
    return _url(group, game_id, f"/changes/{change.id}/undo"), change.version


def test_an_undo_sent_twice_is_a_duplicate_and_a_late_one_is_not_sent(client: FlaskClient, table: Any) -> None:
    group, ann, bob, game_id = table
    _two_hands(client, table)
    assert _post(client, _url(group, game_id, "/rounds/2/delete"), _version(game_id))["outcome"] == "sent"
    undo, version = _undo_of(client, group, game_id, "round_deleted")
    assert _post(client, undo, version)["outcome"] == "sent"
    again = _post(client, undo, version)
    assert again == {"outcome": "duplicate", "status": 302, "messages": ["La donne 2 est rétablie."]}
    # The undo of an abandon, after another phone reopened the game itself: what it asked
    # for is done, once.
    assert _post(client, _url(group, game_id, "/abandon"), _version(game_id))["outcome"] == "sent"
    undo, version = _undo_of(client, group, game_id, "abandoned")
    assert _post(client, _url(group, game_id, "/reopen"), version)["outcome"] == "sent"
    assert _post(client, undo, version) == {"outcome": "duplicate", "status": 302, "messages": ["Partie rouverte."]}
    # The undo of a delete after another phone saved a hand in its place: not undone.
    assert _post(client, _url(group, game_id, "/rounds/2/delete"), _version(game_id))["outcome"] == "sent"
    undo, version = _undo_of(client, group, game_id, "round_deleted")
    game = db.session.get(Game, game_id)
    client.post(_url(group, game_id, "/rounds/new"), data=_hand(game, 2, version, bob, ann, 7))
    late = _post(client, undo, version)
    assert late["outcome"] == "conflict"
    assert late["messages"] == ["Ce n’est plus annulable\u00a0: la partie a changé depuis, ou trop de temps a passé."]
    # An undo of something that cannot be undone, or of no change at all: refused.
    finished = _version(game_id)
    assert _post(client, _url(group, game_id, "/finish"), finished)["outcome"] == "sent"
    undo, version = _undo_of(client, group, game_id, "finished")
    assert _post(client, undo, version)["outcome"] == "refused"
    assert _post(client, _url(group, game_id, "/changes/999999/undo"), version)["outcome"] == "refused"
    db.session.expire_all()
    assert len(list(db.session.scalars(sa.select(Round).where(Round.game_id == game_id)))) == 2


def test_without_the_outbox_the_game_page_says_so_too(client: FlaskClient, table: Any) -> None:
    group, _ann, _bob, game_id = table
    _two_hands(client, table)
    version = _version(game_id)
    client.post(_url(group, game_id, "/finish"), data={"version": str(version), "confirmed": "1"})
    r = client.post(
        _url(group, game_id, "/abandon"), data={"version": str(version), "confirmed": "1"}, follow_redirects=True
    )
    page = html(r)
    assert "La partie n’a pas été abandonnée\u00a0: elle a changé entre-temps." in page
    assert re.search(r"Partie terminée", page)
