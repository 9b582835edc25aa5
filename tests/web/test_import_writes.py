"""How an import writes (issue 24): read, checked, rescored and made into rows before
the writers' turn, then written a bounded part at a time, the group seen by no one
until it is whole; a failure part way leaves nothing behind.

The figures (the largest file's time, another group's longest wait) are printed by
``benchmarks/import_big.py``; these tests hold what makes them possible.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.games import results
from companion.groups.transfer import importing
from companion.models import Game, GamePlayer, Group, Player, Round, Season
from tests.web.test_import_roundtrip import _standings
from tests.web.test_import_stranger import _imported, _small_group
from tests.web.test_transfer import _counts, normalised, upload


def test_an_import_written_in_many_small_parts_is_the_same_group(app, client, monkeypatch):
    """Parts of two rows and standings of a game or two at a time: more transactions,
    the same group (the same file exported again, the same standings)."""
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    content = json.dumps(built["document"]).encode()
    monkeypatch.setattr(importing, "ROWS_PER_TURN", 2)
    monkeypatch.setattr(importing, "STANDINGS_PER_TURN", 6)
    began: list[int] = []

    def begin(conn: sa.Connection) -> None:
        began.append(1)

    importer = app.test_client()
    sa.event.listen(db.engine, "begin", begin)
    try:
        group = _imported(importer, content)
    finally:
        sa.event.remove(db.engine, "begin", begin)
    # The throttle's, the reader's, the group's, then parts of two games, seats, rounds
    # and changes, the standings a game or two at a time, and the device joining.
    assert len(began) >= 12
    again = json.loads(client.get(f"/g/{built['group'].code}/export.json").get_data())
    copy = json.loads(importer.get(f"/g/{group.code}/export.json").get_data())
    assert normalised(copy) == normalised(again)
    assert _standings(group.id) == _standings(built["group"].id)


def test_a_player_added_meanwhile_does_not_take_the_ids_the_import_chose(app, client, monkeypatch):
    """The players' ids the stored states name are chosen before the writers' turn (on
    SQLite a guess, checked in it): another group adding a player meanwhile takes the
    next id, and the import's states still name its own players."""
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    neighbour = db.session.scalar(sa.select(Group.id).where(Group.code == built["group"].code))
    prepare = importing.prepare

    def meanwhile(*args: Any, **kwargs: Any) -> importing.Rows:
        rows = prepare(*args, **kwargs)
        with db.engine.begin() as conn:  # another phone, its own connection
            conn.execute(sa.insert(Player.__table__).values(group_id=neighbour, name="Zoé", name_key="zoe"))
        return rows

    monkeypatch.setattr(importing, "prepare", meanwhile)
    group = _imported(app.test_client(), json.dumps(built["document"]).encode())
    db.session.expire_all()
    games = db.session.scalars(sa.select(Game).join(Season).where(Season.group_id == group.id))
    checked = 0
    for game in games:
        seats = [
            str(p)
            for p in db.session.scalars(
                sa.select(GamePlayer.player_id).where(GamePlayer.game_id == game.id).order_by(GamePlayer.seat)
            )
        ]
        mine = {str(p.id) for p in db.session.scalars(sa.select(Player).where(Player.group_id == group.id))}
        assert set(seats) <= mine
        for result in db.session.scalars(sa.select(Round.result).where(Round.game_id == game.id)):
            assert result["players"] == seats
            checked += 1
    assert checked >= 3


def test_a_failure_part_way_leaves_nothing_behind(app, client, monkeypatch):
    """The rounds are written, then the standings fail: the parts already committed are
    removed, and the file can be imported again."""
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    content = json.dumps(built["document"]).encode()
    before = _counts()
    refresh = results.refresh

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(results, "refresh", broken)
    importer = app.test_client()
    with pytest.raises(RuntimeError):
        upload(importer, content)
    db.session.rollback()
    assert _counts() == before
    monkeypatch.setattr(results, "refresh", refresh)
    _imported(importer, content)
    assert _counts()["Group"] == before["Group"] + 1
