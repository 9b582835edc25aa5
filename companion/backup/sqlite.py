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

from companion.backup.failures import BackupError, os_why, sqlite_why
from companion.backup.retention import _OURS, _create_private
from companion.extensions import db
from companion.i18n import gettext as _
from companion.i18n import ngettext


def _sqlite_path() -> Path:
    database = db.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        raise BackupError(_("this SQLite database is not a file (it is in memory): there is nothing to copy"))
    return Path(database).resolve()


def _integrity(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]


#: SQLite's errors that come from reading a database (the others, in a copy, come from
#: writing it).
_READING = (
    "SQLITE_IOERR_READ",
    "SQLITE_IOERR_SHORT_READ",
    "SQLITE_CORRUPT",
    "SQLITE_NOTADB",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
)


def _problems(problems: list[str]) -> str:
    return "; ".join(problems[:5])


def sqlite_copy(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` into ``target`` (a new file, or an empty one:
    created owner-only when missing) while others read and write it: one step of the
    online backup API (a snapshot), in rollback-journal mode (one self-contained file),
    checked. Files SQLite writes beside ``target`` meanwhile take its permissions."""
    if not source.is_file():
        raise BackupError(_("%(path)s does not exist: there is no database to copy", path=source))
    if not target.exists():
        _create_private(target)
    src: sqlite3.Connection | None = None
    try:
        src = sqlite3.connect(source, timeout=10, isolation_level=None)
        src.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as e:
        if src is not None:
            src.close()
        raise BackupError(_("the database %(path)s cannot be read: %(why)s", path=source, why=sqlite_why(e))) from None
    try:
        dst = sqlite3.connect(target, isolation_level=None)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            problems = _integrity(dst)
        finally:
            dst.close()
    except sqlite3.Error as e:
        if str(getattr(e, "sqlite_errorname", "")).startswith(_READING):
            raise BackupError(
                _("the database %(path)s cannot be read: %(why)s", path=source, why=sqlite_why(e))
            ) from None
        raise BackupError(
            _("the copy cannot be written in %(path)s: %(why)s", path=target.parent, why=sqlite_why(e))
        ) from None
    finally:
        src.close()
    if problems != ["ok"]:
        raise BackupError(
            _(
                "the copy of %(path)s fails SQLite's integrity check: %(problems)s",
                path=source,
                problems=_problems(problems),
            )
        )


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
    """« 3 groupes, 120 manches ou donnes » (complete groups, and their rounds), or what could not be read."""
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
        return _("not counted: %(why)s", why=sqlite_why(e))
    return (
        ngettext("%(num)s group", "%(num)s groups", groups) + ", " + ngettext("%(num)s round", "%(num)s rounds", rounds)
    )


def _sqlite_revision(path: Path) -> str | None:
    """The migration a SQLite Companion database is at (None: made without migrations);
    an error when the file is not a sound Companion database."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            problems = _integrity(conn)
            if problems != ["ok"]:
                raise BackupError(
                    _("%(path)s fails SQLite's integrity check: %(problems)s", path=path, problems=_problems(problems))
                )
            tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables >= _OURS:
                raise BackupError(_("%(path)s is not a copy of a Companion database (no groups, no rounds)", path=path))
            row = (
                conn.execute("SELECT version_num FROM alembic_version").fetchone()
                if "alembic_version" in tables
                else None
            )
        finally:
            conn.close()
    except sqlite3.Error as e:
        name = str(getattr(e, "sqlite_errorname", ""))
        if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
            raise BackupError(
                _("%(path)s is not a Companion SQLite database: %(why)s", path=path, why=sqlite_why(e))
            ) from None
        raise BackupError(_("the copy %(path)s cannot be read: %(why)s", path=path, why=sqlite_why(e))) from None
    return str(row[0]) if row else None


@contextlib.contextmanager
def _writes_held(live: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the live SQLite file holding its write lock (``BEGIN IMMEDIATE``):
    the app's writing requests wait behind it (SQLite's busy timeout). The lock is let go
    at :func:`_sqlite_restore`'s start, which takes it again at once for the restore.
    A database that is not there yet is created owner-only, as a copy is."""
    try:
        live.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BackupError(
            _("the folder %(path)s cannot be created: %(why)s", path=live.parent, why=os_why(e))
        ) from None
    if not live.exists():
        _create_private(live)
    try:
        conn = sqlite3.connect(live, timeout=30, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as e:
        raise BackupError(
            _("the database %(path)s cannot be locked for writing: %(why)s", path=live, why=sqlite_why(e))
        ) from None
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


def _sqlite_restore(copy: Path, dst: sqlite3.Connection, live: Path) -> None:
    """Write the copy into the live database through the backup API, on ``dst`` (from
    :func:`_writes_held`), the app may run meanwhile: its connections see the restored
    database at their next transaction. When the backup API fails, the live database
    is as it was (the backup writes in one transaction)."""
    try:
        src = sqlite3.connect(f"file:{copy}?mode=ro", uri=True, timeout=10, isolation_level=None)
    except sqlite3.Error as e:
        raise BackupError(_("the copy %(path)s cannot be read: %(why)s", path=copy, why=sqlite_why(e))) from None
    try:
        # The backup API cannot write through a connection in a transaction: the write
        # lock is let go here and taken again by the backup's first step, at once (a
        # writer waiting in SQLite's busy handler sleeps a millisecond or more first).
        dst.execute("COMMIT")
        try:
            src.backup(dst)
        except sqlite3.Error as e:
            raise BackupError(
                _(
                    "the database %(path)s could not be written, and was left as it was: %(why)s",
                    path=live,
                    why=sqlite_why(e),
                )
            ) from None
        try:
            dst.execute("PRAGMA journal_mode=WAL")
            problems = _integrity(dst)
        except sqlite3.Error as e:
            raise BackupError(
                _("the database %(path)s was restored, then failed: %(why)s", path=live, why=sqlite_why(e))
            ) from None
        if problems != ["ok"]:
            raise BackupError(
                _(
                    "the restored database %(path)s fails SQLite's integrity check: %(problems)s",
                    path=live,
                    problems=_problems(problems),
                )
            )
    finally:
        src.close()
