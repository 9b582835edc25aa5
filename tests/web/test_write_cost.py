"""What a saved hand costs the database (issue 14): its writes in one transaction,
the game's row written once, as many statements for the tenth hand as for the second,
and no reading of what a game in progress does not count in (totals, ratings).

A hand saved is the write every table makes most. After its commit, the redirect
names the group and the game: read again from the database, they would open another
transaction (on SQLite a writer's one, queued behind every other phone's save). On
SQLite its reads come first, in a reader's transaction, so that the writers' turn is
held for the writes only.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Round
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille


@contextmanager
def statements_and_commits() -> Iterator[list[str]]:
    """The SQL statements run inside the block, with ``COMMIT`` where a transaction was
    committed (SQLAlchemy's ``before_cursor_execute`` and ``commit`` events)."""
    with count_queries() as statements:

        def committed(conn: object) -> None:
            statements.append("COMMIT")

        sa.event.listen(db.engine, "commit", committed)
        try:
            yield statements
        finally:
            sa.event.remove(db.engine, "commit", committed)


def _game(game_id: int) -> tuple[int, datetime]:
    row = db.session.execute(sa.select(Game.version, Game.updated_at).where(Game.id == game_id)).one()
    db.session.rollback()
    return row.version, row.updated_at


def _writes_in_one_transaction(statements: list[str], db_kind: str) -> None:
    """Every write after the last transaction's start; on SQLite the reads before it in
    a reader's transaction (``BEGIN``), the writes in the one writer's (``BEGIN IMMEDIATE``)."""
    writes = [i for i, s in enumerate(statements) if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    if db_kind == "sqlite":
        assert statements[0] == "BEGIN" and statements.count("BEGIN IMMEDIATE") == 1
        assert statements.count("COMMIT") == 2
        assert writes and min(writes) > statements.index("BEGIN IMMEDIATE") > statements.index("COMMIT")
    else:
        assert statements.count("COMMIT") == 1


def test_a_hand_is_saved_in_one_transaction_writing_the_game_once(
    app: Flask, client: FlaskClient, db_kind: str
) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    url = f"/g/{group.code}/games/{game_id}/rounds"
    code, ann_id, bob_id = group.code, ann.id, bob.id  # read now: the test shares the requests' session
    counted: list[list[str]] = []
    for number in range(1, 11):
        version, updated_at = _game(game_id)
        data = {"round": str(number), "version": str(version), "winner": str(ann_id), f"total_{bob_id}": "3"}
        with statements_and_commits() as statements:
            r = client.post(f"{url}/new", data=data)
        assert r.status_code == 302, html(r)
        assert r.headers["Location"].endswith(f"/g/{code}/games/{game_id}#totals")
        assert statements[-1] == "COMMIT", "the redirect must not read the group or the game again"
        _writes_in_one_transaction(statements, db_kind)
        updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE GAMES")]
        assert len(updates) == 1, updates  # the version claimed and the time, together
        # A game in progress is in no total and no rating: its stored results are written
        # again without reading what was stored of it or waiting for its season's lock;
        # the claim names its game, so no other game's results are looked at.
        # Before it claims the version, one read: the game (its seats, group and device)
        # with its live manche, its last round and its number of rounds.
        claimed = next(i for i, s in enumerate(statements) if s.lstrip().upper().startswith("UPDATE GAMES"))
        reads = [s for s in statements[:claimed] if s not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT")]
        assert len(reads) == 1, reads
        extra = [
            s
            for s in statements
            if s.lstrip().upper().startswith(("SELECT RATED_MATCHES", "SELECT GAME_RESULTS"))
            or "FOR NO KEY UPDATE" in s.upper()
            or "WHERE NOT (EXISTS" in " ".join(s.upper().split())  # every game's results checked
        ]
        assert not extra, extra
        new_version, new_updated_at = _game(game_id)
        assert new_version == version + 1 and new_updated_at > updated_at
        counted.append(statements)
    assert len(counted[1]) == len(counted[-1]), "a hand must not cost more as the game grows"

    # A correction too: one transaction, the game's row written once.
    version, updated_at = _game(game_id)
    data = {"round": "3", "version": str(version), "winner": str(bob_id), f"total_{ann_id}": "7"}
    with statements_and_commits() as statements:
        r = client.post(f"{url}/3/edit", data=data)
    assert r.status_code == 302, html(r)
    assert statements.count("COMMIT") == 1 and statements[-1] == "COMMIT"  # a correction: one transaction
    assert len([s for s in statements if s.lstrip().upper().startswith("UPDATE GAMES")]) == 1
    new_version, new_updated_at = _game(game_id)
    assert new_version == version + 1 and new_updated_at > updated_at


def test_on_postgresql_a_get_reads_without_a_transaction_and_a_write_has_one(
    app: Flask, client: FlaskClient, db_kind: str
) -> None:
    """A GET's statements run in the driver's autocommit mode (no BEGIN, no ROLLBACK:
    two round trips less); every write is one transaction, even on a connection a GET
    used just before (companion.config._postgresql_reads)."""
    if db_kind != "postgresql":
        pytest.skip("SQLite's transactions are begun by config._sqlite_begin")
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    page, new = f"/g/{group.code}/games/{game_id}", f"/g/{group.code}/games/{game_id}/rounds/new"
    winner, loser = ann.id, bob.id
    modes: list[bool] = []

    def listen(conn: sa.Connection, *args: object) -> None:
        modes.append(bool(conn.connection.dbapi_connection.autocommit))  # type: ignore[union-attr]

    sa.event.listen(db.engine, "before_cursor_execute", listen)
    try:
        for _ in range(3):
            # The test's own reads (helpers, _game) end first: the session is shared with
            # the requests here (the test holds the app context), and a GET must begin its own.
            db.session.rollback()
            modes.clear()
            assert client.get(page).status_code == 200
            assert modes and all(modes)
            modes.clear()
            version, _updated_at = _game(game_id)
            assert modes == [False]  # outside a request: a transaction
            modes.clear()
            number = len(db.session.scalars(sa.select(Round.id).where(Round.game_id == game_id)).all()) + 1
            db.session.rollback()
            modes.clear()
            data = {"round": str(number), "version": str(version), "winner": str(winner), f"total_{loser}": "3"}
            assert client.post(new, data=data).status_code == 302
            assert modes and not any(modes)
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", listen)
