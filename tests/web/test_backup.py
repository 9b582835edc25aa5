"""Backups the app makes itself: ``flask backup``, ``flask restore FILE``, and the copy
``flask db upgrade`` takes on SQLite before it applies a migration (companion/backup/);
and how each fails: one line on stderr, nothing left behind."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import secrets
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
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
    written = Path(re.search(r"Sauvegarde écrite\xa0: (\S+)", done.output)[1])
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
    assert asked.exit_code == 1 and "Rien n’a été restauré\xa0: la réponse était non." in asked.output
    assert "Remplacer la base" in asked.output or "Remplacer les tables" in asked.output
    assert _rounds(game_id) == 5  # asked, refused: nothing changed
    db.session.remove()

    done = runner.invoke(args=["restore", written.name, "--yes"])  # a bare name: in the backups folder
    assert done.exit_code == 0, done.output
    assert _rounds(game_id) == 3
    before = [c for c in backup.copies(folder) if c.reason == "before-restore"]
    assert len(before) == 1 and f"La base telle qu’elle était\xa0: {before[0].path}" in done.output
    assert "Redémarrez les processus de l’application" in done.output
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
        (tmp_path / "missing.sqlite3", "il n’y a pas de fichier"),
        (stranger if db_kind == "sqlite" else garbage, "n’est pas"),
        (garbage if db_kind == "sqlite" else stranger, "est une copie"),
    ]:
        done = runner.invoke(args=["restore", str(path), "--yes"])
        assert done.exit_code == 1, done.output
        assert said in done.output and "Traceback" not in done.output
        assert done.stderr.startswith("La restauration a échoué\xa0: ") and len(done.stderr.splitlines()) == 1
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
    assert "pg_dump n’est pas installé" in done.output
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
    assert "pg_dump 15.20 est plus ancien que le serveur (PostgreSQL 16.4)" in done.output
    assert "apt install postgresql-client-16" in done.output
    assert list((tmp_path / "backups").iterdir()) == []


# --- failures: one line on stderr naming the place, nothing left behind ---------------------
#
# Each runs the real command in a process of its own (tests/web/backup_child.py), with a
# umask of 0: a file the command created without a mode of its own would be readable by
# all, and the child records the mode of every file it removes, every chmod, and what is
# left in the backups folder.

CHILD = Path(__file__).with_name("backup_child.py")
BACKUP_FAILED = "La sauvegarde a échoué\xa0: "
RESTORE_FAILED = "La restauration a échoué\xa0: "


@dataclass
class ChildRun:
    status: int
    out: str
    err: str
    removed: list[tuple[str, int | None]]  # name, mode when removed
    chmod: list[tuple[str, int]]
    left: dict[str, int] | None  # name: mode; None when the folder is not there


def _child_env(database_url: str, folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "BACKUP_DIR", "SECRET_KEY")}
    env.update(DATABASE_URL=database_url, BACKUP_DIR=str(folder), SECRET_KEY="k", PYTHONPATH=str(ROOT))
    return env


def _child(env: dict[str, str], *args: str, log: Path, prefix: tuple[str, ...] = (), **setup: object) -> ChildRun:
    """``flask --app companion ARGS`` run as backup_child.py sets it up (watching BACKUP_DIR)."""
    config = {"watch": env["BACKUP_DIR"], "log": str(log), **setup}
    done = subprocess.run(
        [*prefix, sys.executable, str(CHILD), json.dumps(config), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode == 97 and setup.get("drop_dac"):
        pytest.skip("root's capabilities cannot be dropped here")
    record = json.loads(log.read_text()) if log.exists() else {"removed": [], "chmod": [], "left": None}
    removed = [(name, mode) for name, mode in record["removed"]]
    chmod = [(name, mode) for name, mode in record["chmod"]]
    return ChildRun(done.returncode, done.stdout, done.stderr, removed, chmod, record["left"])


def _one_line(run: ChildRun, starts: str, *places: object) -> str:
    """The run failed with one line on stderr, starting so and naming every place."""
    assert run.status == 1, (run.status, run.out, run.err)
    assert run.err.endswith("\n") and len(run.err.splitlines()) == 1, run.err
    line = run.err.rstrip("\n")
    assert line.startswith(starts), line
    for place in places:
        assert str(place) in line, (place, line)
    return line


def _nothing_left(run: ChildRun, allowed: frozenset[str] = frozenset()) -> None:
    """Nothing the command wrote is left but ``allowed``; whatever it created and removed
    was owner-only (0600), and no mode was changed after the fact."""
    assert set(run.left or {}) == set(allowed), run.left
    assert all(mode == 0o600 for mode in (run.left or {}).values()), run.left
    assert all(mode in (0o600, None) for _name, mode in run.removed), run.removed
    assert run.chmod == [], run.chmod


@pytest.fixture
def live(tmp_path: Path, sqlite_template: Path) -> Path:
    """A SQLite database with the app's tables, in WAL mode as the app keeps it."""
    path = tmp_path / "live.sqlite3"
    shutil.copyfile(sqlite_template, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    return path


def _database_url(app: Flask, db_kind: str) -> str:
    """The ``app`` fixture's database as DATABASE_URL says it (its schema, on PostgreSQL)."""
    url = sa.engine.make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if db_kind == "postgresql":
        options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]["options"]
        url = url.update_query_dict({"options": options})
    return url.render_as_string(hide_password=False)


def test_a_backup_creates_its_files_owner_only_and_leaves_nothing_else(
    app: Flask, db_kind: str, tmp_path: Path
) -> None:
    _needs_pg_tools(db_kind)
    folder = tmp_path / "backups"
    run = _child(_child_env(_database_url(app, db_kind), folder), "backup", log=tmp_path / "log")
    assert run.status == 0 and run.err == "", run.err
    (copy,) = backup.copies(folder)
    # Created 0600 whatever the umask (0 here), not made so afterwards; no lock file,
    # no partial copy, no journal beside it.
    _nothing_left(run, frozenset({copy.path.name}))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert run.out.startswith(f"Sauvegarde écrite\xa0: {copy.path} (")


@pytest.mark.parametrize("where", ["a file", "under a file", "missing, in a read-only folder", "read-only"])
def test_a_backups_folder_that_cannot_be_written_is_said_in_one_line(live: Path, tmp_path: Path, where: str) -> None:
    parent = tmp_path / "srv"
    parent.mkdir()
    folder = parent / "backups"
    if where == "a file":
        folder.write_text("notes")
        said = f"{folder} n’est pas un dossier\xa0: un fichier porte ce nom"
    elif where == "under a file":
        (parent / "data").write_text("notes")
        folder = parent / "data" / "backups"
        said = f"le dossier {folder} ne peut pas être créé\xa0: {parent / 'data'} est un fichier"
    elif where == "missing, in a read-only folder":
        parent.chmod(0o500)
        said = f"le dossier {folder} ne peut pas être créé\xa0: permission refusée"
    else:
        folder.mkdir()
        folder.chmod(0o500)
        said = f"{folder} n’est pas un dossier accessible en écriture\xa0: permission refusée"
    try:
        # As root, the command runs without the capabilities that ignore permissions.
        run = _child(
            _child_env(f"sqlite:///{live}", folder), "backup", log=tmp_path / "log", drop_dac="read-only" in where
        )
    finally:
        parent.chmod(0o700)
    assert _one_line(run, BACKUP_FAILED, said) == BACKUP_FAILED + said
    if where == "read-only":
        _nothing_left(run)
    else:
        assert not folder.is_dir() and run.removed == []
    if where == "a file":
        assert folder.read_text() == "notes"  # the file in the way is left as it was


@pytest.mark.parametrize("db_kind", ["sqlite", "postgresql"])
def test_a_disk_full_while_writing_is_said_in_one_line_and_leaves_nothing(
    app: Flask, db_kind: str, tmp_path: Path
) -> None:
    _needs_pg_tools(db_kind)
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o700)
    # No file may grow past 64 KiB on SQLite (room for the database's shared-memory file
    # of 32 KiB, not for the copy of some 260 KiB), 8 KiB on PostgreSQL (pg_dump's copy
    # is larger): a write past it fails with EFBIG.
    limit = 64 * 1024 if db_kind == "sqlite" else 8 * 1024
    run = _child(_child_env(_database_url(app, db_kind), folder), "backup", log=tmp_path / "log", fsize=limit)
    line = _one_line(run, BACKUP_FAILED + f"la copie ne peut pas être écrite dans {folder}\xa0: ")
    if db_kind == "postgresql":
        assert line.endswith(
            "le fichier dépasserait la taille maximale permise (limite du système ou de cet utilisateur)"
        )
    else:
        assert line.endswith("erreur d’entrée-sortie (disque plein ou défaillant\xa0?)")
    _nothing_left(run)
    assert run.removed, "the partial copy was written, then removed"


def _unshare() -> tuple[str, ...]:
    """A command prefix that runs a command in a mount namespace of its own (as root, or
    as root of a user namespace), or () when this machine does not allow it."""
    tool = shutil.which("unshare")
    if tool is None or sys.platform != "linux":
        return ()
    prefix = (tool, "--mount", "--propagation", "private") + (() if os.geteuid() == 0 else ("--map-root-user",))
    probe = subprocess.run([*prefix, "true"], capture_output=True, check=False)
    return prefix if probe.returncode == 0 else ()


def test_a_real_full_disk_leaves_no_journal_beside_the_copy(live: Path, tmp_path: Path) -> None:
    # A file system just large enough for the copy's pages and a little more: SQLite
    # fills it while finishing the copy, when it opens the copy's WAL files (the copy's
    # header says WAL, as the database's). A tmpfs mounted in the child's own mount
    # namespace: gone with it, whatever happens.
    unshare = _unshare()
    if not unshare:
        pytest.skip("this machine lets no test mount a small file system")
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o700)
    size = (live.stat().st_size // 4096 + 2) * 4096
    mount = ("sh", "-c", f'mount -t tmpfs -o size={size},mode=0700 tmpfs "$0" && exec "$@"', str(folder))
    run = _child(_child_env(f"sqlite:///{live}", folder), "backup", log=tmp_path / "log", prefix=(*unshare, *mount))
    _one_line(run, BACKUP_FAILED + f"la copie ne peut pas être écrite dans {folder}\xa0: ")
    _nothing_left(run)


def test_a_database_that_cannot_be_reached_is_said_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    nowhere = tmp_path / "nowhere.sqlite3"
    run = _child(_child_env(f"sqlite:///{nowhere}", folder), "backup", log=tmp_path / "log")
    said = f"{nowhere} n’existe pas\xa0: il n’y a pas de base de données à copier"
    assert _one_line(run, BACKUP_FAILED, said) == BACKUP_FAILED + said
    _nothing_left(run)
    # PostgreSQL where no server listens (a port just found free).
    port = _faults().free_port()
    url = f"postgresql://companion@127.0.0.1:{port}/companion"
    run = _child(_child_env(url, folder), "backup", log=tmp_path / "log")
    _one_line(run, BACKUP_FAILED + f"la base {url} est injoignable\xa0: ", "Connection refused")
    _nothing_left(run)


@pytest.mark.parametrize("db_kind", ["postgresql"])
def test_a_database_that_does_not_exist_on_the_server_is_said_in_one_line(
    app: Flask, db_kind: str, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    url = sa.engine.make_url(_database_url(app, db_kind)).set(database="companion_no_such_database")
    run = _child(_child_env(url.render_as_string(hide_password=False), folder), "backup", log=tmp_path / "log")
    shown = url.set(drivername="postgresql").render_as_string(hide_password=True)
    _one_line(run, BACKUP_FAILED + f"la base {shown} est injoignable\xa0: ", "companion_no_such_database")
    _nothing_left(run)


def test_an_unexpected_error_is_one_line_and_verbose_shows_where(live: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    env = _child_env(f"sqlite:///{live}", folder)
    run = _child(env, "backup", log=tmp_path / "log", fault="a fault the test put there")
    line = _one_line(run, BACKUP_FAILED + "erreur inattendue\xa0: RuntimeError: a fault the test put there")
    assert line.endswith("(--verbose montre où)")
    _nothing_left(run)
    run = _child(env, "backup", "--verbose", log=tmp_path / "log", fault="a fault the test put there")
    assert run.status == 1
    assert "Traceback (most recent call last)" in run.err and 'raise RuntimeError(setup["fault"])' in run.err
    assert run.err.splitlines()[-1].startswith(BACKUP_FAILED + "erreur inattendue")
    _nothing_left(run)


def _bigger_copy(live: Path, tmp_path: Path) -> Path:
    """A copy of ``live`` (a Companion database) holding a megabyte more, in a table of its own."""
    copy = tmp_path / "bigger.sqlite3"
    shutil.copyfile(live, copy)
    conn = sqlite3.connect(copy)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("CREATE TABLE filler (data BLOB)")
    conn.execute("INSERT INTO filler VALUES (zeroblob(1048576))")
    conn.commit()
    conn.close()
    return copy


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()


def test_a_restore_that_cannot_copy_the_database_first_changes_nothing(live: Path, tmp_path: Path) -> None:
    copy = _bigger_copy(live, tmp_path)
    folder = tmp_path / "backups"
    folder.write_text("notes")
    run = _child(_child_env(f"sqlite:///{live}", folder), "restore", str(copy), "--yes", log=tmp_path / "log")
    said = (
        "rien n’a changé, la base actuelle n’ayant pas pu être copiée d’abord\xa0: "
        f"{folder} n’est pas un dossier\xa0: un fichier porte ce nom"
    )
    assert _one_line(run, RESTORE_FAILED, said) == RESTORE_FAILED + said
    assert "filler" not in _tables(live)


def test_a_disk_full_while_restoring_leaves_the_database_as_it_was(live: Path, tmp_path: Path) -> None:
    copy = _bigger_copy(live, tmp_path)
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o700)
    # Room for the copy of the current database, not for the megabyte more.
    limit = live.stat().st_size + 256 * 1024
    run = _child(
        _child_env(f"sqlite:///{live}", folder), "restore", str(copy), "--yes", log=tmp_path / "log", fsize=limit
    )
    (before,) = backup.copies(folder)
    assert before.reason == "before-restore"
    line = _one_line(
        run,
        RESTORE_FAILED + f"la base {live} n’a pas pu être écrite et est restée telle quelle\xa0: ",
        f"la base telle qu’elle était avant est gardée dans {before.path}",
    )
    assert "erreur d’entrée-sortie" in line
    assert "filler" not in _tables(live)
    _nothing_left(run, frozenset({before.path.name}))


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
    assert "copie" not in done.output and not backup.copies(folder)
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
    assert f"Avant la mise à niveau, une copie de la base\xa0: {copy.path}" in done.output
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
        copy = Path(re.search(r"Sauvegarde écrite\xa0: (\S+)", done.stdout)[1])
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
