"""How the app's database connections behave, set on the app's own engines by
:func:`init_app` (nothing happens when this module is imported).

- SQLite: each connection's settings (:func:`sqlite_settings`), and how a transaction
  begins — ``BEGIN IMMEDIATE`` for a request that may write (:func:`sqlite_begin`; a GET
  only while it says it may: ``writes.write_from_here``).

PostgreSQL needs nothing here: its transactions are SQLAlchemy's, and a pooled
connection is checked before use by SQLAlchemy's own ``pool_pre_ping``
(:mod:`companion.extensions`). Two devices once stood here, GETs in the driver's
autocommit mode and a ping only of connections idle for a second; measured by
``benchmarks/capacity.py`` (issue 26), neither moved the capacity figure.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, g, has_request_context, request
from sqlalchemy import Engine, event
from sqlalchemy.engine import Connection

from companion.extensions import db

#: Set on ``g`` while a writing request reads before taking SQLite's write lock
#: (``writes.read_first``).
READ_FIRST = "companion_read_first"
#: Set on ``g`` while a reading request (a GET) may write, its transactions a writer's
#: (``writes.write_from_here``).
WRITING = "companion_writing"

#: Methods of requests that do not write.
_READING = ("GET", "HEAD", "OPTIONS")


def init_app(app: Flask) -> None:
    """Give each of ``app``'s engines (Flask-SQLAlchemy's binds too) the behaviour of its
    database. Other apps' engines, and engines made elsewhere, are left as they are."""
    with app.app_context():
        engines = list(db.engines.values())
    for engine in engines:
        set_on(engine)


def set_on(engine: Engine) -> None:
    """Set this module's behaviour on ``engine``, according to its database."""
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", sqlite_settings)
        event.listen(engine, "begin", sqlite_begin)


def _writing_request() -> bool:
    """Whether this is a request that may write (False outside a request): not a GET, or
    a GET while it may (``writes.write_from_here``)."""
    return has_request_context() and (request.method not in _READING or bool(g.get(WRITING)))


# --- SQLite ----------------------------------------------------------------------------------


def sqlite_settings(dbapi_connection: object, _record: object) -> None:
    """WAL, foreign keys and a busy timeout on every SQLite connection; transactions
    are begun by :func:`sqlite_begin`, not by the driver."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # A writer waits up to 10 s for another one's transaction to end (SQLite's own waiting).
    cursor.execute("PRAGMA busy_timeout=10000")
    # An in-memory database cannot use WAL; asking is harmless.
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode a commit is safe from a crash of the app (kill -9) without an fsync;
    # only the OS crashing could lose the last commits (benchmarks/faults.py).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def sqlite_begin(conn: Connection) -> None:
    """A request that may write takes SQLite's write lock when its transaction begins
    (``BEGIN IMMEDIATE``).

    A transaction that read first and writes later cannot wait for another writer:
    SQLite refuses it at once ("database is locked"), however long the busy timeout.
    Taking the lock first makes simultaneous writers wait their turn (the busy
    timeout), so each one then reads what the previous one committed (a form token, a
    game version, a name) and decides on it.

    A write whose decision is checked by a version anyway (a hand saved:
    ``writes.claim``) reads first in a reader's transaction (``writes.read_first``),
    then takes the lock only for its writes (``writes.start_writing``): the lock is
    held for the writes, not for reading the forms and asking the engine.
    """
    writing = _writing_request() and not g.get(READ_FIRST)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")
