"""Configuration from the environment and the instance folder."""

from __future__ import annotations

import fcntl
import os
import secrets
import sqlite3
import time
from pathlib import Path

from sqlalchemy import event, exc
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import Pool


def database_url(instance_path: str) -> str:
    """``DATABASE_URL`` (``postgres://`` and ``postgresql://`` go through psycopg 3),
    or a SQLite file in the instance folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "companion.sqlite3")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str) -> str:
    """``SECRET_KEY``, or one generated on first start and kept in the instance folder."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    # Created with owner-only permissions: the key signs every device's group membership.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: object, connection_record: object) -> None:
    """WAL, foreign keys and a busy timeout on every SQLite connection; transactions
    are begun by :func:`_sqlite_begin`, not by the driver."""
    import sqlite3

    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        # An in-memory database cannot use WAL; asking is harmless.
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode a commit is safe from a crash of the app (kill -9) without an fsync;
        # only the OS crashing could lose the last commits (benchmarks/faults.py).
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


#: Set on ``g`` while a writing request reads before taking its turn (``writes.read_first``).
READ_FIRST = "companion_read_first"


@event.listens_for(Engine, "begin")
def _sqlite_begin(conn: Connection) -> None:
    """On SQLite, a request that may write takes the write lock when its transaction
    begins (``BEGIN IMMEDIATE``).

    A transaction that read first and writes later cannot wait for another writer:
    SQLite refuses it at once ("database is locked"), however long the busy
    timeout.  Taking the lock first makes simultaneous writers wait their turn, so
    each one then reads what the previous one committed (a form token, a game
    version, a name) and decides on it.

    A write whose decision is checked by a version anyway (a hand saved:
    ``writes.claim``) reads first in a reader's transaction (``writes.read_first``),
    then takes its turn only for its writes (``writes.start_writing``): the lock is
    held for the writes, not for reading the forms and asking the engine.
    """
    from flask import g, has_request_context, request

    in_request = has_request_context()
    writing = not in_request or request.method not in ("GET", "HEAD", "OPTIONS")
    if conn.dialect.name == "postgresql":
        _postgresql_reads(conn, reading=not writing)
        return
    if conn.dialect.name != "sqlite":
        return
    writing = in_request and writing and not g.get(READ_FIRST)
    if writing:
        _wait_turn(conn)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


def _postgresql_reads(conn: Connection, reading: bool) -> None:
    """A GET's statements on PostgreSQL run in the driver's autocommit mode: no ``BEGIN``
    before the first, no ``ROLLBACK`` at the request's end — two round trips of a page's
    four or five. Nothing changes for what a page reads: under PostgreSQL's default
    isolation (read committed) each statement sees what was committed when it began,
    within a transaction or not. Every other transaction (a request that may write, a
    command, a test) is a transaction: the mode is set again at each one's start, before
    any statement (the driver cannot change it inside a transaction)."""
    dbapi = conn.connection.dbapi_connection
    if dbapi is not None and getattr(dbapi, "autocommit", reading) != reading:
        dbapi.autocommit = reading


#: The writers' queue: a lock file beside the database, held from a writing
#: transaction's start to its end (by the connection's ``info``).
_TURN = "companion.writer_turn"
#: How long a writer waits in that queue; then SQLite's own busy timeout takes over.
TURN_WAIT = 10.0
TURN_POLL = 0.0005


def _wait_turn(conn: Connection) -> None:
    """Wait until no other writer of this SQLite file holds the writers' lock, then take it.

    Without it, writers wait in SQLite's busy handler, which sleeps 1, 2, 5… up to
    100 ms between tries: a writer that just finished takes the lock again before the
    sleeping one wakes up, and under a burst of hands some wait seconds. The lock file
    is polled every half millisecond instead, and is released by the OS if the process
    dies. It only orders the writers: ``BEGIN IMMEDIATE`` still takes SQLite's lock.
    """
    database = conn.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:") or _TURN in conn.info:
        return
    try:
        fd = os.open(database + "-writers", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return  # no lock file possible here (a read-only folder): SQLite's own waiting
    deadline = time.monotonic() + TURN_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() < deadline:
                time.sleep(TURN_POLL)
                continue
            os.close(fd)
            return
        conn.info[_TURN] = fd
        return


def _end_turn(info: dict[str, object]) -> None:
    fd = info.pop(_TURN, None)
    if isinstance(fd, int):
        os.close(fd)  # closing the file releases its lock


@event.listens_for(Engine, "commit")
@event.listens_for(Engine, "rollback")
def _sqlite_end(conn: Connection) -> None:
    """A writing transaction ends: the next writer's turn (it then waits a millisecond in
    SQLite's busy handler for this commit to finish, as commit events come first)."""
    if conn.dialect.name == "sqlite" and not conn.invalidated and _TURN in conn.info:
        _end_turn(conn.info)


@event.listens_for(Pool, "checkin")
@event.listens_for(Pool, "invalidate")
def _sqlite_end_anyway(dbapi_connection: object, record: object, *_exception: object) -> None:
    """A connection back in its pool (or thrown away) never keeps the writers' turn."""
    info = getattr(record, "info", None)
    if isinstance(info, dict) and _TURN in info:
        _end_turn(info)


#: A pooled connection that has waited in its pool this long (seconds) is asked
#: ``SELECT 1`` before a request uses it; a dead one is replaced there. See
#: :func:`_ping_when_idle`.
PING_AFTER_IDLE = 1.0
_RETURNED = "companion.returned_at"


@event.listens_for(Pool, "checkin")
def _note_returned(dbapi_connection: object, record: object) -> None:
    info = getattr(record, "info", None)
    if isinstance(info, dict):
        info[_RETURNED] = time.monotonic()


@event.listens_for(Pool, "checkout")
def _ping_when_idle(dbapi_connection: object, record: object, _proxy: object) -> None:
    """A connection idle in its pool for :data:`PING_AFTER_IDLE` is checked before use;
    a dead one (the server restarted, a proxy dropped it) is replaced by a new one
    before the request sends anything, so it never becomes an error page.

    SQLAlchemy's ``pool_pre_ping`` checks *every* checkout: on PostgreSQL a round trip
    per request, as long as a page's own query. A connection handed back a moment ago
    was working a moment ago; a restarted server has been away longer than that (and a
    request sent while it is away fails whatever is checked). SQLite files are not asked.
    """
    info = getattr(record, "info", None)
    returned = info.get(_RETURNED) if isinstance(info, dict) else None
    if returned is None or time.monotonic() - returned < PING_AFTER_IDLE:
        return
    if isinstance(dbapi_connection, sqlite3.Connection):
        return
    if not _alive(dbapi_connection):
        raise exc.DisconnectionError("the connection did not answer: the pool replaces it")


def _alive(dbapi_connection: object) -> bool:
    """Whether the connection answers ``SELECT 1`` (outside a transaction: in the driver's
    autocommit mode, as it was before)."""
    before = getattr(dbapi_connection, "autocommit", None)
    try:
        if before is False:
            dbapi_connection.autocommit = True  # type: ignore[attr-defined]
        cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
        if before is False:
            dbapi_connection.autocommit = False  # type: ignore[attr-defined]
    except Exception:
        return False
    return True
