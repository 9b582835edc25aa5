"""The Alembic migrations build exactly the models' schema, on SQLite and PostgreSQL."""

import json

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from companion import create_app
from companion.extensions import db
from tests.conftest import database_config


@pytest.fixture
def bare_app(db_kind, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "k", **database_config(db_kind, tmp_path)})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        yield app
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def test_upgrade_matches_the_models_and_downgrade_undoes_it(bare_app):
    flask_migrate.upgrade()
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), db.metadata)
    assert diff == [], f"models and migrations differ: run flask db migrate ({diff})"
    flask_migrate.downgrade(revision="base")
    with db.engine.connect() as conn:
        assert set(sa.inspect(conn).get_table_names()) <= {"alembic_version"}


def test_upgrade_settles_duplicate_and_doubly_current_seasons(bare_app):
    # Before be0634305d94 simultaneous creations could leave two seasons of one name,
    # or several current ones: the upgrade renames and keeps the latest current.
    flask_migrate.upgrade(revision="dc91cdebfd1c")
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO groups (id, code, name, passphrase_hash, created_at) "
                "VALUES (1, 'ABCDEF', 'G', 'x', CURRENT_TIMESTAMP)"
            )
        )
        for sid, name, day in [(1, "2026", "2026-01-01"), (2, "2026", "2026-02-01"), (3, "Été", "2026-07-01")]:
            conn.execute(
                sa.text(
                    "INSERT INTO seasons (id, group_id, name, starts_on, is_current, created_at) "
                    "VALUES (:id, 1, :name, :day, :cur, CURRENT_TIMESTAMP)"
                ),
                {"id": sid, "name": name, "day": day, "cur": True},
            )
    flask_migrate.upgrade()
    with db.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT id, name, name_key, is_current FROM seasons ORDER BY id")).all()
    assert [(r.name, r.name_key) for r in rows] == [("2026 (2)", "2026 (2)"), ("2026", "2026"), ("Été", "ete")]
    assert [bool(r.is_current) for r in rows] == [False, False, True]
    flask_migrate.downgrade(revision="base")


def test_upgrade_makes_name_keys_accent_insensitive(bare_app):
    # « Zoe » and « Zoé » are now one name in a group: the later one gets a number.
    flask_migrate.upgrade(revision="be0634305d94")
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO groups (id, code, name, passphrase_hash, created_at) "
                "VALUES (1, 'ABCDEF', 'G', 'x', CURRENT_TIMESTAMP)"
            )
        )
        for pid, name, key in [(1, "Zoe", "zoe"), (2, "Zoé", "zoé"), (3, "Ann", "ann")]:
            conn.execute(
                sa.text(
                    "INSERT INTO players (id, group_id, name, name_key, created_at) "
                    "VALUES (:id, 1, :name, :key, CURRENT_TIMESTAMP)"
                ),
                {"id": pid, "name": name, "key": key},
            )
    flask_migrate.upgrade()
    with db.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT name, name_key FROM players ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [("Zoe", "zoe"), ("Zoé (2)", "zoe (2)"), ("Ann", "ann")]
    flask_migrate.downgrade(revision="base")


def test_upgrade_keeps_a_crapouille_game_and_completes_its_states(bare_app):
    # Issue 10: a database holding a crapouille game from the earlier schema upgrades
    # with its games and rounds intact, and the game page reads the stored states.
    flask_migrate.upgrade(revision="dc91cdebfd1c")  # the schema of the first release
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO groups (id, code, name, passphrase_hash, created_at) "
                "VALUES (1, 'ABCDEF', 'G', 'x', CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO seasons (id, group_id, name, starts_on, is_current, created_at) "
                "VALUES (1, 1, '2026', '2026-01-01', :t, CURRENT_TIMESTAMP)"
            ),
            {"t": True},
        )
        for pid, name in [(1, "Ann"), (2, "Bob"), (3, "Cid")]:
            conn.execute(
                sa.text(
                    "INSERT INTO players (id, group_id, name, name_key, created_at) "
                    "VALUES (:id, 1, :n, :k, CURRENT_TIMESTAMP)"
                ),
                {"id": pid, "n": name, "k": name.lower()},
            )
        conn.execute(
            sa.text(
                "INSERT INTO games (id, season_id, kind, rules, status, created_at, updated_at) "
                "VALUES (1, 1, 'crapouille', '{}', 'in_progress', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )
        for seat, pid in enumerate([3, 1, 2]):
            conn.execute(
                sa.text("INSERT INTO game_players (game_id, seat, player_id) VALUES (1, :s, :p)"), {"s": seat, "p": pid}
            )
        results = [
            {
                "points": {"1": 0, "2": 301, "3": 5},
                "totals": {"1": 0, "2": 301, "3": 5},
                "eliminated": ["2"],
                "in_play": ["3", "1"],
                "over": False,
                "places": {},
                "ranking": [],
                "winners": [],
            },
            {
                "points": {"1": 0, "3": 7},
                "totals": {"1": 0, "2": 301, "3": 12},
                "eliminated": [],
                "in_play": ["3", "1"],
                "over": False,
                "places": {},
                "ranking": [],
                "winners": [],
            },
        ]
        for number, result in enumerate(results, start=1):
            conn.execute(
                sa.text(
                    "INSERT INTO rounds (game_id, number, entry, result, created_at) "
                    "VALUES (1, :n, '{}', :r, CURRENT_TIMESTAMP)"
                ),
                {"n": number, "r": json.dumps(result)},
            )
    flask_migrate.upgrade()
    with db.engine.connect() as conn:
        stored = [
            json.loads(r) if isinstance(r, str) else r
            for r in conn.execute(sa.text("SELECT result FROM rounds ORDER BY number")).scalars()
        ]
        assert conn.execute(sa.text("SELECT setup FROM games")).scalar() in ("{}", {})
    assert [s["players"] for s in stored] == [["3", "1", "2"]] * 2
    assert [s["eliminations"] for s in stored] == [[["2"]], [["2"]]]
    assert stored[1]["totals"] == {"1": 0, "2": 301, "3": 12}
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version, status FROM games")).one() == (0, "in_progress")
        assert conn.execute(sa.text("SELECT name_key, is_current FROM seasons")).one()[0] == "2026"
    flask_migrate.downgrade(revision="base")


def test_upgrade_gives_rounds_already_stored_when_they_were_played(bare_app):
    # Issue 27: before 0d5e13543991 rounds said only when they were saved. Each ends
    # then, and starts when the round before it in its game ended (the game's start for
    # the first); another game's rounds are no part of it.
    flask_migrate.upgrade(revision="7d2f5e8a1c44")
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO groups (id, code, name, passphrase_hash, created_at) "
                "VALUES (1, 'ABCDEF', 'G', 'x', CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO seasons (id, group_id, name, name_key, starts_on, is_current, created_at) "
                "VALUES (1, 1, '2026', '2026', '2026-01-01', :t, CURRENT_TIMESTAMP)"
            ),
            {"t": True},
        )
        for game_id, start in ((1, "2026-03-06 20:00:00"), (2, "2026-03-06 20:30:00")):
            conn.execute(
                sa.text(
                    "INSERT INTO games (id, season_id, kind, rules, status, created_at, updated_at) "
                    "VALUES (:id, 1, 'crapouille', '{}', 'in_progress', :at, :at)"
                ),
                {"id": game_id, "at": start},
            )
        saved = [(1, 1, "2026-03-06 20:06:00"), (1, 2, "2026-03-06 20:20:00"), (2, 1, "2026-03-06 20:45:00")]
        for game_id, number, at in saved:
            conn.execute(
                sa.text(
                    "INSERT INTO rounds (game_id, number, entry, result, created_at) VALUES (:g, :n, '{}', '{}', :at)"
                ),
                {"g": game_id, "n": number, "at": at},
            )
    flask_migrate.upgrade()
    with db.engine.connect() as conn:
        games = dict(conn.execute(sa.text("SELECT id, created_at FROM games")).all())
        rows = conn.execute(
            sa.text("SELECT game_id, number, created_at, started_at, ended_at FROM rounds ORDER BY game_id, number")
        ).all()
        assert conn.execute(sa.text("SELECT COUNT(*) FROM live_manches")).scalar() == 0
    (g1r1, g1r2, g2r1) = rows
    assert (g1r1.started_at, g1r1.ended_at) == (games[1], g1r1.created_at)
    assert (g1r2.started_at, g1r2.ended_at) == (g1r1.created_at, g1r2.created_at)
    assert (g2r1.started_at, g2r1.ended_at) == (games[2], g2r1.created_at)
    assert g1r2.ended_at != g1r1.ended_at
    flask_migrate.downgrade(revision="base")


def test_upgrade_makes_every_stored_group_complete_and_downgrade_removes_unfinished_imports(bare_app):
    # 74711a4c436e: groups.complete, false while an import writes the group. A group
    # stored before it is complete (an import then had no such mark). Downgraded, the
    # code of before would show a group an import left part way: it is removed, its game
    # and players with it; a complete group stays.
    flask_migrate.upgrade(revision="a753af025971")
    with db.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO groups (id, code, name, passphrase_hash, created_at) "
                "VALUES (1, 'ABCDEF', 'G', 'x', CURRENT_TIMESTAMP)"
            )
        )
    flask_migrate.upgrade()
    with db.engine.begin() as conn:
        assert conn.execute(sa.text("SELECT id, complete FROM groups")).all() == [(1, True)]
        for group_id, complete in ((2, False), (3, True)):
            conn.execute(
                sa.text(
                    "INSERT INTO groups (id, code, name, passphrase_hash, created_at, complete) "
                    "VALUES (:id, :code, 'G', 'x', CURRENT_TIMESTAMP, :complete)"
                ),
                {"id": group_id, "code": f"ABCDE{group_id}", "complete": complete},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO players (id, group_id, name, name_key, created_at) "
                    "VALUES (:id, :id, 'Ann', 'ann', CURRENT_TIMESTAMP)"
                ),
                {"id": group_id},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO seasons (id, group_id, name, name_key, starts_on, is_current, created_at) "
                    "VALUES (:id, :id, '2026', '2026', '2026-01-01', :t, CURRENT_TIMESTAMP)"
                ),
                {"id": group_id, "t": True},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO games (id, season_id, kind, rules, status, created_at, updated_at) "
                    "VALUES (:id, :id, 'crapouille', '{}', 'in_progress', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"id": group_id},
            )
            conn.execute(
                sa.text("INSERT INTO game_players (game_id, seat, player_id) VALUES (:id, 0, :id)"), {"id": group_id}
            )
    flask_migrate.downgrade(revision="a753af025971")
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT id FROM groups ORDER BY id")).scalars().all() == [1, 3]
        assert conn.execute(sa.text("SELECT id FROM players ORDER BY id")).scalars().all() == [3]
        assert conn.execute(sa.text("SELECT id FROM games ORDER BY id")).scalars().all() == [3]
        assert conn.execute(sa.text("SELECT id FROM seasons ORDER BY id")).scalars().all() == [3]
        assert conn.execute(sa.text("SELECT game_id FROM game_players")).scalars().all() == [3]
    flask_migrate.downgrade(revision="base")
