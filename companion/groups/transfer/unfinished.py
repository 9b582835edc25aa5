"""What an import killed part way leaves, and how it is removed.

An import writes its group over many transactions and marks it complete in its last one
(``Group.complete``, :mod:`~companion.groups.transfer.importing`). Killed part way (``kill
-9``, a worker timed out, the machine stopping), it leaves an incomplete group that no page
finds. ``flask --app companion clean-imports`` removes such groups (:func:`remove_unfinished`);
``scripts/serve`` and the README's way of starting the app run it before serving.

**Never an import still running.** From its first transaction to its last, an import holds
a lock on its group (:class:`ImportLock`) that ends with its process, however the process
ends: on PostgreSQL a session advisory lock, keyed by the schema and the group's id, on a
connection of its own; on SQLite an exclusive ``flock`` of a file beside the database
(``companion.sqlite3-imports/<id>.lock``). The cleanup removes an incomplete group only
while it holds that lock itself, taken without waiting: a lock it cannot take is an import
still being written (in this process or another; on PostgreSQL, on any machine), and its
group is left alone. So the cleanup may run while other processes serve, and it removes
what a killed import left at once, however recent.

A complete group is never removed, whether or not any device is still in it.

Nothing happens when this module is imported: the command (registered by :func:`init_app`)
calls :func:`remove_unfinished`.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

import click
import sqlalchemy as sa
from flask import Flask, current_app

from companion.extensions import db
from companion.i18n import gettext as _
from companion.i18n import ngettext
from companion.models import Game, Group, Season

_GROUPS, _SEASONS, _GAMES = Group.__table__, Season.__table__, Game.__table__

#: The most games one transaction of a removal deletes, with their rounds, history and
#: standings (a fraction of a second: the other writers get their turn between parts).
GAMES_PER_TURN = 500

#: PostgreSQL: the first key of an import's advisory lock (the two-key form; the second is
#: the group's id), one per schema: several Companions may share a database, each in its own
#: schema, and their groups' ids overlap. The one-key form (the guess throttle's) is
#: another space of keys.
_PG_SPACE = "hashtext('companion import ' || current_schema())"
_PG_LOCK = sa.text(f"SELECT pg_advisory_lock({_PG_SPACE}, :group_id)")
_PG_TRY_LOCK = sa.text(f"SELECT pg_try_advisory_lock({_PG_SPACE}, :group_id)")
_PG_UNLOCK = sa.text(f"SELECT pg_advisory_unlock({_PG_SPACE}, :group_id)")


def _lock_path(group_id: int) -> Path:
    """SQLite: the file whose ``flock`` is the lock of ``group_id``'s import, in a folder
    beside the database file (the instance folder for a database in memory)."""
    database = db.engine.url.database
    in_memory = not database or database == ":memory:"
    base = Path(current_app.instance_path) / "memory.sqlite3" if in_memory else Path(str(database))
    return base.with_name(f"{base.name}-imports") / f"{group_id}.lock"


def _flock(path: Path, wait: bool) -> int | None:
    """An open descriptor of ``path`` holding its exclusive ``flock`` (None when another
    holds it and ``wait`` is False). A holder removes the file before letting go: a lock
    taken on a file no longer at ``path`` is let go and the one now there is taken."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        except BaseException:
            os.close(fd)
            raise
        held = os.fstat(fd)
        try:
            named = os.stat(path)
        except FileNotFoundError:
            named = None
        if named is not None and (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino):
            return fd
        os.close(fd)


class ImportLock:
    """The lock of one group's import: held by the import from the transaction that
    inserts its group to the end of its last one, and by the cleanup while it removes a
    group an import left (see the module). Let go by :meth:`release` (the end of a ``with``
    block), or by its process ending."""

    def __init__(self) -> None:
        self._group_id: int | None = None
        self._conn: sa.Connection | None = None  # PostgreSQL
        self._fd: int | None = None  # SQLite
        self._path: Path | None = None

    def __enter__(self) -> ImportLock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()

    def hold(self, group_id: int) -> None:
        """Take the lock of ``group_id``'s import, waiting for it: an import, on the group
        it has just inserted. No one else holds that lock but, for a moment, a cleanup
        that has just removed an earlier group of the same id (SQLite may give an id
        again)."""
        self._take(group_id, wait=True)

    def try_hold(self, group_id: int) -> bool:
        """Take the lock of ``group_id``'s import if no one holds it (the cleanup): False
        when its import is still running."""
        return self._take(group_id, wait=False)

    def _take(self, group_id: int, wait: bool) -> bool:
        assert self._group_id is None, "one lock, one group"
        if db.engine.dialect.name == "postgresql":
            conn = db.engine.connect()
            try:
                taken = conn.scalar(_PG_LOCK if wait else _PG_TRY_LOCK, {"group_id": group_id})
                conn.commit()  # the lock outlives the transaction: the connection holds it
            except BaseException:
                conn.invalidate()
                conn.close()
                raise
            if not wait and not taken:
                conn.close()
                return False
            self._conn = conn
        else:
            path = _lock_path(group_id)
            fd = _flock(path, wait)
            if fd is None:
                return False
            self._fd, self._path = fd, path
        self._group_id = group_id
        return True

    def release(self) -> None:
        """Let go of the lock (nothing when none is held)."""
        group_id, self._group_id = self._group_id, None
        if group_id is None:
            return
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                conn.execute(_PG_UNLOCK, {"group_id": group_id})
                conn.commit()
            except Exception:
                conn.invalidate()  # closed, not pooled: it may still hold the lock
            finally:
                conn.close()
        if self._fd is not None and self._path is not None:
            fd, path, self._fd, self._path = self._fd, self._path, None, None
            try:
                path.unlink(missing_ok=True)  # before letting go: see _flock
            finally:
                os.close(fd)


def discard(group_id: int) -> None:
    """Remove a group an import could not finish, and everything of it: its games first
    (their seats hold its players), :data:`GAMES_PER_TURN` a transaction, then the group
    with its players and seasons. Each transaction begins with a write (on SQLite it waits
    for the writers' turn, where a transaction that read first would be refused). The
    caller holds the group's :class:`ImportLock`."""
    seasons = sa.select(_SEASONS.c.id).where(_SEASONS.c.group_id == group_id)
    part = sa.select(_GAMES.c.id).where(_GAMES.c.season_id.in_(seasons)).limit(GAMES_PER_TURN)
    while db.session.connection().execute(sa.delete(_GAMES).where(_GAMES.c.id.in_(part))).rowcount:
        db.session.commit()
    db.session.connection().execute(sa.delete(_GROUPS).where(_GROUPS.c.id == group_id))
    db.session.commit()


def _remove_if_left(group_id: int) -> bool:
    """Remove ``group_id`` if it is an incomplete group whose import no longer runs."""
    with ImportLock() as lock:
        if not lock.try_hold(group_id):
            return False  # its import is still being written
        left = db.session.scalar(sa.select(_GROUPS.c.id).where(_GROUPS.c.id == group_id, ~_GROUPS.c.complete))
        db.session.commit()
        if left is None:
            return False  # finished (or removed) since it was listed
        discard(group_id)
        return True


def remove_unfinished() -> list[int]:
    """Remove every group an import left part way and no import is still writing; their
    ids. Complete groups are never touched (see the module)."""
    listed = list(db.session.scalars(sa.select(_GROUPS.c.id).where(~_GROUPS.c.complete).order_by(_GROUPS.c.id)))
    db.session.commit()
    return [group_id for group_id in listed if _remove_if_left(group_id)]


def init_app(app: Flask) -> None:
    """Register ``flask clean-imports``."""

    @app.cli.command("clean-imports")
    def clean_imports_command() -> None:
        """Remove what imports killed part way left (never an import still running: safe
        while the app serves)."""
        removed = remove_unfinished()
        if removed:
            ids = ", ".join(map(str, removed))
            click.echo(
                ngettext(
                    "Removed %(num)s group left by an unfinished import: id %(ids)s.",
                    "Removed %(num)s groups left by unfinished imports: ids %(ids)s.",
                    len(removed),
                    ids=ids,
                )
            )
        else:
            click.echo(_("No unfinished import to remove."))
