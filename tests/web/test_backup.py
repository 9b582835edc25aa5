"""Backups the app makes itself (issue 24): ``flask backup``, ``flask restore FILE``, and
the copy ``flask db upgrade`` takes on SQLite before it applies a migration
(companion/backup/)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import secrets
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import flask_babel
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask
from flask.testing import FlaskClient

from companion import ROOT, backup, create_app
from companion.extensions import db
from companion.models import Round
from tests.helpers import add_players, create_group, start_crapouille

# --- retention -----------------------------------------------------------------------------


def _name(moment: datetime, reason: str = "") -> str:
    return f"companion-{moment:%Y%m%dT%H%M%SZ}" + (f"-{reason}" if reason else "") + ".sqlite3"


def test_retention_keeps_the_last_seven_days_then_four_weeks(tmp_path: Path) -> None:
    # Sixty nights of backups at 03:00 UTC, two on some days (a manual one at 15:00),
    # a gap of ten days, the copies taken before migrations and restores, and files
    # that are not copies at all.
    last = datetime(2026, 11, 27, 3, 0, tzinfo=UTC)  # a Friday
    taken: list[datetime] = []
    for day in range(60):
        if 20 <= day < 30:
            continue  # the server was off for ten days
        moment = last - timedelta(days=day)
        taken.append(moment)
        if day % 4 == 1:
            taken.append(moment + timedelta(hours=12))
    for moment in taken:
        (tmp_path / _name(moment)).write_bytes(b"x")
    befores = [last - timedelta(days=d, hours=5) for d in (1, 3, 8, 15, 40, 50, 70)]
    for moment in befores:
        (tmp_path / _name(moment, "before-upgrade")).write_bytes(b"x")
    strangers = ["notes.txt", "companion-today.sqlite3", "companion-20261127T030000Z.sqlite3.partial"]
    for name in strangers:
        (tmp_path / name).write_bytes(b"x")

    removed = backup.prune(tmp_path)

    left = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
    days = [last.date() - timedelta(days=d) for d in range(7)]
    # The newest of each of the last 7 days (the later one on a day with two)...
    daily = [max(t for t in taken if t.date() == d) for d in days]
    # ...then the newest of each of the 4 weeks before, whose newest is not already kept.
    # The last 7 days span this ISO week (Mon 23 to Fri 27) and the end of the one before
    # (Sat 21, Sun 22: its newest is kept, the week is covered): then the weeks ending
    # Sun 15 and Sun 8 (only the 8th: the gap began on the 7th), the week of the gap's
    # other end (newest: Wed Oct 28), and the week ending Sun Oct 25.
    weeks = [datetime(2026, 11, 15), datetime(2026, 11, 8), datetime(2026, 10, 28), datetime(2026, 10, 25)]
    weekly = [max(t for t in taken if t.date() == d.date()) for d in weeks]
    expected = sorted(
        [_name(t) for t in daily + weekly]
        + [_name(t, "before-upgrade") for t in befores[: backup.KEEP_BEFORE]]
        + strangers
    )
    assert left == expected
    assert len(removed) == len(taken) + len(befores) - len(daily) - len(weekly) - backup.KEEP_BEFORE
    # The options change the counts; zero of both still keeps the newest.
    assert len(backup.prune(tmp_path, keep_daily=2, keep_weekly=1)) == 7 + 4 - 3
    backup.prune(tmp_path, keep_daily=0, keep_weekly=0)
    assert _name(daily[0]) in {p.name for p in tmp_path.iterdir()}
    assert set(strangers) <= {p.name for p in tmp_path.iterdir()}


def test_two_copies_in_one_second_get_two_names(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/a.db",
            "BACKUP_DIR": str(tmp_path / "backups"),
        }
    )
    moment = datetime(2026, 11, 27, 3, 0, tzinfo=UTC)
    with app.app_context():
        db.create_all()
        first = backup.take(app, now=moment)
        second = backup.take(app, now=moment)
        db.engine.dispose()
    assert first != second and first.parent == second.parent == tmp_path / "backups"
    assert {backup.parse_name(first).taken, backup.parse_name(second).taken} == {moment}


# --- backup and restore on both databases --------------------------------------------------


def _a_table_with_hands(client: FlaskClient, hands: int = 3) -> tuple[str, int, list[int]]:
    """A group with a crapouille game of ``hands`` hands: its code, the game, the players' ids."""
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, players)
    ids = [p.id for p in players]
    for number in range(1, hands + 1):
        assert _hand(client, group.code, game_id, ids, number).status_code == 302
    return group.code, game_id, ids


def _hand(client: FlaskClient, code: str, game_id: int, ids: list[int], number: int):
    ann, bob, cid = ids
    data = {"round": str(number), "winner": str(ann), f"total_{bob}": "3", f"total_{cid}": "2"}
    return client.post(f"/g/{code}/games/{game_id}/rounds/new", data=data)


def _rounds(game_id: int) -> int:
    db.session.rollback()
    return len(db.session.scalars(sa.select(Round).where(Round.game_id == game_id)).all())


def _needs_pg_tools(db_kind: str) -> None:
    if db_kind == "postgresql" and not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump is not installed (its absence has its own test)")


def test_backup_then_restore_brings_the_hands_back(app: Flask, client: FlaskClient, db_kind: str, tmp_path: Path):
    _needs_pg_tools(db_kind)
    folder = tmp_path / "backups"
    app.config["BACKUP_DIR"] = str(folder)
    code, game_id, ids = _a_table_with_hands(client, hands=3)
    runner = app.test_cli_runner()

    done = runner.invoke(args=["backup"])
    assert done.exit_code == 0, done.output
    written = Path(re.search(r"Backup written: (\S+)", done.output)[1])
    assert written.parent == folder and written.suffix == (".sqlite3" if db_kind == "sqlite" else ".pgdump")
    assert stat.S_IMODE(written.stat().st_mode) == 0o600  # it holds passphrase and token hashes
    assert not list(folder.glob("*.partial"))
    if db_kind == "sqlite":
        conn = sqlite3.connect(written)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, whole
        assert conn.execute("SELECT count(*) FROM rounds").fetchone() == (3,)
        conn.close()

    # Two more hands, then the copy comes back: three hands, as at the backup.
    for number in (4, 5):
        assert _hand(client, code, game_id, ids, number).status_code == 302
    assert _rounds(game_id) == 5
    db.session.remove()  # (on PostgreSQL a reading transaction would hold the restore back)

    asked = runner.invoke(args=["restore", str(written)], input="n\n")
    assert asked.exit_code == 1 and "Aborted" in asked.output
    assert "Replace the" in asked.output
    assert _rounds(game_id) == 5  # asked, refused: nothing changed
    db.session.remove()

    done = runner.invoke(args=["restore", written.name, "--yes"])  # a bare name: in the backups folder
    assert done.exit_code == 0, done.output
    assert _rounds(game_id) == 3
    before = [c for c in backup.copies(folder) if c.reason == "before-restore"]
    assert len(before) == 1 and f"The database as it was: {before[0].path}" in done.output
    assert "Restart the app's workers" in done.output
    # The app goes on: a page and a new hand.
    assert client.get(f"/g/{code}/games/{game_id}").status_code == 200
    assert _hand(client, code, game_id, ids, 4).status_code == 302
    assert _rounds(game_id) == 4
    db.session.remove()

    # And the copy taken before the restore holds the five hands.
    done = runner.invoke(args=["restore", str(before[0].path), "--yes"])
    assert done.exit_code == 0, done.output
    assert _rounds(game_id) == 5
    db.session.remove()


def test_restore_refuses_what_is_not_a_copy(app: Flask, client: FlaskClient, db_kind: str, tmp_path: Path) -> None:
    _needs_pg_tools(db_kind)
    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    _code, game_id, _ids = _a_table_with_hands(client, hands=2)
    runner = app.test_cli_runner()
    stranger = tmp_path / "holiday.sqlite3"
    conn = sqlite3.connect(stranger)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    garbage = tmp_path / "garbage.pgdump"
    garbage.write_bytes(b"not a database at all" * 100)
    for path, said in [
        (tmp_path / "missing.sqlite3", "there is no file"),
        (stranger if db_kind == "sqlite" else garbage, "not"),
        (garbage if db_kind == "sqlite" else stranger, "is a "),
    ]:
        done = runner.invoke(args=["restore", str(path), "--yes"])
        assert done.exit_code == 1, done.output
        assert said in done.output and "Traceback" not in done.output
    assert _rounds(game_id) == 2
    assert not backup.copies(backup.backup_dir(app))  # nothing was even copied


# --- PostgreSQL without pg_dump, or with another major version's -------------------------


@pytest.mark.parametrize("db_kind", ["postgresql"])
def test_without_pg_dump_the_message_says_what_to_install(
    app: Flask, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    with app.app_context():
        major = str(int(db.session.execute(sa.text("SHOW server_version_num")).scalar_one()) // 10000)
    done = app.test_cli_runner().invoke(args=["backup"])
    assert done.exit_code == 1
    assert "pg_dump is not installed" in done.output
    assert f"apt install postgresql-client-{major}" in done.output
    assert not backup.copies(tmp_path / "backups")


@pytest.mark.parametrize("db_kind", ["postgresql"])
def test_a_pg_dump_older_than_the_server_says_so(app: Flask, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "pg_dump"
    # What pg_dump 15 prints facing a PostgreSQL 16 server.
    fake.write_text(
        "#!/bin/sh\n"
        "echo 'pg_dump: error: aborting because of server version mismatch' >&2\n"
        "echo 'pg_dump: detail: server version: 16.4 (Debian 16.4-1.pgdg120+1); pg_dump version: 15.20' >&2\n"
        "exit 1\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    done = app.test_cli_runner().invoke(args=["backup"])
    assert done.exit_code == 1
    assert "pg_dump 15.20 is older than the server (PostgreSQL 16.4)" in done.output
    assert "apt install postgresql-client-16" in done.output
    assert {p.name for p in (tmp_path / "backups").iterdir()} <= {".lock"}


# --- flask db upgrade on SQLite ------------------------------------------------------------


FAILING = '''"""a migration that fails halfway (test)

Revision ID: {rev}
Revises: {down}
"""
import sqlalchemy as sa
from alembic import op

revision = "{rev}"
down_revision = "{down}"
branch_labels = None
depends_on = None


def upgrade():
    {body}


def downgrade():
    pass
'''


def test_db_upgrade_takes_a_copy_first_and_a_failed_migration_leaves_it(tmp_path: Path) -> None:
    database = tmp_path / "live.sqlite3"
    folder = tmp_path / "backups"
    app = create_app(
        {
            "SECRET_KEY": "k",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "BACKUP_DIR": str(folder),
        }
    )
    app.before_request(flask_babel.refresh)
    runner = app.test_cli_runner()
    # A fresh database: nothing to protect, no copy, no word of one.
    done = runner.invoke(args=["db", "upgrade"])
    assert done.exit_code == 0, done.output
    assert "copy" not in done.output and not backup.copies(folder)
    with app.app_context():
        client = app.test_client()
        _code, game_id, _ids = _a_table_with_hands(client, hands=4)
        db.session.remove()
        db.engine.dispose()
    # Nothing to apply: no copy either (scripts/serve upgrades at every start).
    done = runner.invoke(args=["db", "upgrade"])
    assert done.exit_code == 0 and not backup.copies(folder), done.output

    # A release with two migrations: the first applied (it drops the rounds' table and
    # a column), the second fails. SQLite's DDL is not transactional here: halfway.
    migrations = tmp_path / "migrations"
    shutil.copytree(ROOT / "migrations", migrations, ignore=shutil.ignore_patterns("__pycache__"))
    with app.app_context():
        config = app.extensions["migrate"].migrate.get_config(str(migrations))
        (head,) = ScriptDirectory.from_config(config).get_heads()
    (migrations / "versions" / "bk0000000001_first.py").write_text(
        FAILING.format(rev="bk0000000001", down=head, body='op.drop_table("rounds")')
    )
    (migrations / "versions" / "bk0000000002_second.py").write_text(
        FAILING.format(rev="bk0000000002", down="bk0000000001", body='raise RuntimeError("the disk is full")')
    )
    done = runner.invoke(args=["db", "upgrade", "--directory", str(migrations)])
    assert done.exit_code != 0
    (copy,) = backup.copies(folder)
    assert copy.reason == "before-upgrade"
    assert f"Before the upgrade, a copy of the database: {copy.path}" in done.output
    assert f"flask --app companion restore {copy.path}" in done.output
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("bk0000000001",)]
    assert "rounds" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()

    # The copy brings the database back as it was before the upgrade.
    done = runner.invoke(args=["restore", str(copy.path), "--yes"])
    assert done.exit_code == 0, done.output
    conn = sqlite3.connect(database)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(head,)]
    assert conn.execute("SELECT count(*) FROM rounds WHERE game_id = ?", (game_id,)).fetchone() == (4,)
    conn.close()
    with app.app_context():
        db.engine.dispose()


# --- a backup taken while eight phones write hands, on a real server -----------------------


def _faults() -> ModuleType:
    """benchmarks/faults.py: how the project runs gunicorn and phones that write hands."""
    name = "companion_benchmarks_faults"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "faults.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules[name]


def _flask(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "companion", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_backup_taken_while_eight_phones_write_holds_every_acknowledged_hand(kind: str, tmp_path: Path) -> None:
    faults = _faults()
    if shutil.which("gunicorn", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("gunicorn is not installed (it is in the 'test' extra)")
    schema = f"companion_backup_{os.getpid()}"
    if kind == "sqlite":
        database = tmp_path / "live.sqlite3"
        url = f"sqlite:///{database}"
    else:
        error = faults.postgresql_error()
        if error is not None:
            if os.environ.get("CI"):
                pytest.fail(f"PostgreSQL must be reachable under CI: {error}")
            pytest.skip(f"PostgreSQL not reachable ({error})")
        if not shutil.which("pg_dump"):
            pytest.skip("pg_dump is not installed")
        faults.postgresql_schema(schema, create=True)
        url = f"{faults.PG_URL}?options=-csearch_path%3D{schema}"
    server = faults.Server(url, faults.free_port(), secrets.token_hex(16), tmp_path / "gunicorn.log")
    server.env["BACKUP_DIR"] = str(tmp_path / "backups")

    def contents():
        return faults.sqlite_contents(database) if kind == "sqlite" else faults.postgresql_contents(schema)

    writers = []
    try:
        server.upgrade()
        server.start()
        server.wait_ready()
        tally = faults.Tally(max_requests=100_000)
        writers = faults.set_up(server, argparse.Namespace(writers=8), tally, faults.Run(kind))
        for writer in writers:
            writer.start()
        deadline = time.monotonic() + 30
        while len(tally.acked) < 16 and time.monotonic() < deadline:
            time.sleep(0.05)
        with tally.lock:
            acknowledged = set(tally.acked)  # before the backup began
        done = _flask(server.env, "backup")
        with tally.lock:
            during = len(tally.acked) - len(acknowledged)
        assert done.returncode == 0, done.stderr
        copy = Path(re.search(r"Backup written: (\S+)", done.stdout)[1])
        time.sleep(0.5)  # more hands after the backup, which the restore takes away
        for writer in writers:
            writer.stop.set()
        for writer in writers:
            writer.join(timeout=30)
            assert writer.failure is None
        assert during > 0, "the phones wrote nothing while the backup ran"
        assert tally.server_errors == 0, tally.samples
        latest = contents()

        if kind == "sqlite":
            saved = faults.sqlite_contents(copy)
            assert "integrity_check ok" in saved.checks and saved.problems == []
            assert acknowledged <= saved.rounds, sorted(acknowledged - saved.rounds)[:5]
        # Restored into the running app's database.
        done = _flask(server.env, "restore", str(copy), "--yes")
        assert done.returncode == 0, done.stderr + done.stdout
        restored = contents()
        assert restored.problems == []
        assert acknowledged <= restored.rounds, sorted(acknowledged - restored.rounds)[:5]
        assert restored.rounds < latest.rounds  # the hands after the backup are gone
        if kind == "sqlite":
            assert restored.rounds == saved.rounds
            assert "integrity_check ok" in restored.checks
        # The running app serves the restored games.
        phone = writers[0].browser
        for game_id in sorted(restored.games)[:3]:
            page = phone.request("GET", f"/g/{writers[0].code}/games/{game_id}")
            assert page.status == 200, page.status
        phone.close()
    finally:
        for writer in writers:
            writer.stop.set()
        server.stop()
        if kind == "postgresql":
            faults.postgresql_schema(schema, create=False)
