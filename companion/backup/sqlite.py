"""Backups of a SQLite database: SQLite's online backup API, both ways.

A copy is one step of the backup API (one read transaction: the database as one
moment saw it), checked (``PRAGMA integrity_check``); a restore writes the copy
*into* the live database through the same API; the app's writers wait from the copy
of the current database to the restore (:func:`_writes_held`), so the app may keep running.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from companion.backup.retention import _OURS, BackupError
from companion.extensions import db


def _sqlite_path() -> Path:
    database = db.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        raise BackupError("this SQLite database is not a file (in memory): there is nothing to copy")
    return Path(database).resolve()


def _integrity(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]


def sqlite_copy(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` into the new file ``target`` while others
    read and write it: one step of the online backup API (a snapshot), in rollback-journal
    mode (one self-contained file), checked."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    src = sqlite3.connect(source, timeout=10, isolation_level=None)
    dst = sqlite3.connect(target, isolation_level=None)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
        problems = _integrity(dst)
        if problems != ["ok"]:
            raise BackupError(f"the copy failed SQLite's integrity check: {'; '.join(problems[:5])}")
    finally:
        src.close()


def _sqlite_backup(target: Path) -> None:
    sqlite_copy(_sqlite_path(), target)


#: The groups a summary counts, and their rounds: complete groups only (a group an import
#: is writing, or left part way, is no group yet: ``Group.complete``).
_COMPLETE = "SELECT id FROM groups WHERE complete"
_COMPLETE_ROUNDS = (
    "SELECT count(*) FROM rounds JOIN games ON games.id = rounds.game_id"
    f" JOIN seasons ON seasons.id = games.season_id WHERE seasons.group_id IN ({_COMPLETE})"
)


def _sqlite_summary(path: Path) -> str:
    """« 3 groups, 120 rounds » (complete groups, and their rounds), or what could not be read."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(groups)")}
            if "complete" in columns:
                groups = conn.execute(f"SELECT count(*) FROM ({_COMPLETE})").fetchone()[0]
                rounds = conn.execute(_COMPLETE_ROUNDS).fetchone()[0]
            else:  # a copy from before groups.complete: every group is whole
                groups = conn.execute("SELECT count(*) FROM groups").fetchone()[0]
                rounds = conn.execute("SELECT count(*) FROM rounds").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as e:
        return f"not counted: {e}"
    return f"{groups} groups, {rounds} rounds"


def _sqlite_revision(path: Path) -> str | None:
    """The migration a SQLite Companion database is at (None: made without migrations);
    an error when the file is not a sound Companion database."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            problems = _integrity(conn)
            if problems != ["ok"]:
                raise BackupError(f"{path} fails SQLite's integrity check: {'; '.join(problems[:5])}")
            tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables >= _OURS:
                raise BackupError(f"{path} is not a copy of a Companion database (no groups, no rounds)")
            row = (
                conn.execute("SELECT version_num FROM alembic_version").fetchone()
                if "alembic_version" in tables
                else None
            )
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not a Companion SQLite database ({e})") from None
    return str(row[0]) if row else None


@contextlib.contextmanager
def _writes_held(live: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the live SQLite file holding its write lock (``BEGIN IMMEDIATE``):
    the app's writing requests wait behind it (SQLite's busy timeout). The lock is let go
    at :func:`_sqlite_restore`'s start, which takes it again at once for the restore."""
    live.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(live, timeout=30, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("BEGIN IMMEDIATE")
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


def _sqlite_restore(copy: Path, dst: sqlite3.Connection) -> None:
    """Write the copy into the live database through the backup API, on ``dst`` (from
    :func:`_writes_held`), the app may run meanwhile: its connections see the restored
    database at their next transaction."""
    src = sqlite3.connect(f"file:{copy}?mode=ro", uri=True, timeout=10, isolation_level=None)
    try:
        # The backup API cannot write through a connection in a transaction: the write
        # lock is let go here and taken again by the backup's first step, at once (a
        # writer waiting in SQLite's busy handler sleeps a millisecond or more first).
        dst.execute("COMMIT")
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")
        problems = _integrity(dst)
        if problems != ["ok"]:
            raise BackupError(f"the restored database fails SQLite's integrity check: {'; '.join(problems[:5])}")
    finally:
        src.close()
