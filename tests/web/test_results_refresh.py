"""The stored results are refreshed by an explicit call, not by importing a module
(issue 25): every write to a game ends in ``companion.games.saving``, which recomputes
the standings in the write's own transaction. After each kind of write they are what a
rebuild computes from scratch; a failure in the refresh fails the write; no session
listener is installed by any module.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.games import results
from companion.models import (
    Game,
    GameChange,
    GameResult,
    GameStatus,
    MatchPlace,
    PlayerRating,
    RatedMatch,
    RatingPoint,
    Round,
    SeasonTotal,
)
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_import_stranger import _imported, _small_group

TABLES = (GameResult, SeasonTotal, RatedMatch, MatchPlace, PlayerRating, RatingPoint)


def _snapshot() -> list[list[tuple[Any, ...]]]:
    db.session.expire_all()
    out = []
    for model in TABLES:
        columns = [c for c in model.__table__.columns if c.name not in ("id", "match_id")]
        rows = db.session.execute(sa.select(*columns)).all()
        out.append(sorted(tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in rows))
    return out


def _assert_fresh(what: str) -> None:
    """What the writes kept is what a rebuild computes, and no game's results are older
    than the game."""
    assert results.stale_games(db.session) == [], what
    kept = _snapshot()
    results.rebuild(db.session)
    db.session.commit()
    assert _snapshot() == kept, what


def _version(game_id: int) -> int:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return int(game.version)


def _post(client: FlaskClient, code: str, game_id: int, action: str, **data: str) -> Any:
    data = {"confirmed": "1", "version": str(_version(game_id))} | data
    return client.post(f"/g/{code}/games/{game_id}/{action}", data=data)


def _rounds(game_id: int) -> int:
    db.session.expire_all()
    return int(db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.game_id == game_id)) or 0)


def test_every_kind_of_write_leaves_the_standings_fresh(app: Flask, client: FlaskClient) -> None:
    app.config["GROUPS_PER_HOUR"] = 100
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    code, a, b = group.code, ann.id, bob.id
    game = start_crapouille(client, group, [ann, bob])
    _assert_fresh("a game started")
    url = f"/g/{code}/games/{game}/rounds"
    assert client.post(f"{url}/new", data={"round": "1", "winner": str(a), f"total_{b}": "40"}).status_code == 302
    _assert_fresh("a hand added")
    data = {"round": "2", "winner": str(a), f"total_{b}": "301"}
    assert client.post(f"{url}/new", data=data).status_code == 302
    assert db.session.get(GameResult, (game, a)).won  # the hand ended the game
    _assert_fresh("a hand ending the game")
    assert _post(client, code, game, "rounds/2/delete").status_code == 302
    assert not db.session.get(GameResult, (game, a)).won
    _assert_fresh("a hand deleted")
    change = db.session.scalar(
        sa.select(GameChange.id).where(GameChange.game_id == game, GameChange.kind == "round_deleted")
    )
    assert _post(client, code, game, f"changes/{change}/undo").status_code == 302
    assert db.session.get(GameResult, (game, a)).won
    _assert_fresh("a deleted hand restored")
    assert _post(client, code, game, "reopen").status_code == 302
    _assert_fresh("a game reopened")
    data = {"round": "1", "version": str(_version(game)), "winner": str(b), f"total_{a}": "15"}
    assert client.post(f"{url}/1/edit", data=data).status_code == 302
    _assert_fresh("a hand corrected (the next one rescored)")
    other = start_crapouille(client, group, [bob, ann])
    assert (
        client.post(
            f"/g/{code}/games/{other}/rounds/new", data={"round": "1", "winner": str(b), f"total_{a}": "9"}
        ).status_code
        == 302
    )
    assert _post(client, code, other, "finish").status_code == 302
    _assert_fresh("a game finished early")
    assert _post(client, code, other, "reopen").status_code == 302
    assert _post(client, code, other, "abandon").status_code == 302
    assert {db.session.get(GameResult, (other, p)).status for p in (a, b)} == {"abandoned"}
    _assert_fresh("a game abandoned")
    built = _small_group(client)
    imported = _imported(app.test_client(), json.dumps(built["document"]).encode())
    seasons = [season.id for season in imported.seasons]
    written = sa.select(sa.func.count()).select_from(GameResult).where(GameResult.season_id.in_(seasons))
    assert db.session.scalar(written)
    _assert_fresh("a group imported")


@pytest.mark.parametrize("write", ["hand", "correction", "delete", "finish"])
def test_a_failing_refresh_fails_the_write(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, write: str
) -> None:
    """The refresh raising: the write is rolled back whole (the app's error page, which
    says nothing half-saved was kept), and the standings are still those of the game
    as it stays."""
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    code, a, b = group.code, ann.id, bob.id
    game = start_crapouille(client, group, [ann, bob])
    url = f"/g/{code}/games/{game}/rounds"
    assert client.post(f"{url}/new", data={"round": "1", "winner": str(a), f"total_{b}": "12"}).status_code == 302
    version, rounds, kept = _version(game), _rounds(game), _snapshot()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug in the standings")

    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the app's error page
    monkeypatch.setattr(results, "refresh_games", broken)
    if write == "hand":
        r = client.post(f"{url}/new", data={"round": "2", "winner": str(a), f"total_{b}": "7"})
    elif write == "correction":
        r = client.post(
            f"{url}/1/edit", data={"round": "1", "version": str(version), "winner": str(b), f"total_{a}": "5"}
        )
    elif write == "delete":
        r = _post(client, code, game, "rounds/1/delete")
    else:
        r = _post(client, code, game, "finish")
    assert r.status_code == 500, html(r)
    db.session.rollback()
    assert (_version(game), _rounds(game)) == (version, rounds)
    game_row = db.session.get(Game, game)
    assert game_row is not None and game_row.status is GameStatus.IN_PROGRESS
    result = db.session.scalar(sa.select(Round.result).where(Round.game_id == game, Round.number == 1))
    assert result["totals"][str(b)] == 12
    assert _snapshot() == kept
    monkeypatch.undo()
    # Nothing was left stale: the same write, sent again, goes through.
    assert client.post(f"{url}/new", data={"round": "2", "winner": str(a), f"total_{b}": "7"}).status_code == 302
    _assert_fresh("the write after a failed one")


def test_a_failing_refresh_fails_a_new_game(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    games = db.session.scalar(sa.select(sa.func.count(Game.id)))

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug in the standings")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    monkeypatch.setattr(results, "refresh_games", broken)
    r = client.post(f"/g/{group.code}/games/new/crapouille", data={"seats-0": str(ann.id), "seats-1": str(bob.id)})
    assert r.status_code == 500
    db.session.rollback()
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == games


def test_no_module_installs_a_session_listener(app: Flask) -> None:
    """Importing the modules that read or write the standings changes no session's
    behaviour: no listener of the app's on any session event."""
    for name in (
        "companion.games.results",
        "companion.games.saving",
        "companion.games.standings",
        "companion.groups.people",
        "companion.games.routes",
        "companion.groups.transfer",
    ):
        importlib.import_module(name)
    for session in (so.Session(), db.session()):
        for event_name in so.Session.dispatch._event_names:
            listeners = list(getattr(session.dispatch, event_name))
            mine = [f for f in listeners if getattr(f, "__module__", "").startswith("companion")]
            assert not mine, (event_name, mine)
    # A write made outside the app's write paths refreshes nothing by itself.
    group = create_group(app.test_client())
    assert group.current_season is not None
    db.session.add(
        Game(season=group.current_season, kind="crapouille", rules={}, setup={}, status=GameStatus.IN_PROGRESS)
    )
    db.session.commit()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(GameResult)) == 0
    assert results.stale_games(db.session)
