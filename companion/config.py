"""Configuration from the environment and the instance folder."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine


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
        cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(conn: Connection) -> None:
    """On SQLite, a request that may write takes the write lock when its transaction
    begins (``BEGIN IMMEDIATE``).

    A transaction that read first and writes later cannot wait for another writer:
    SQLite refuses it at once ("database is locked"), however long the busy
    timeout.  Taking the lock first makes simultaneous writers wait their turn, so
    each one then reads what the previous one committed (a form token, a game
    version, a name) and decides on it.
    """
    if conn.dialect.name != "sqlite":
        return
    from flask import has_request_context, request

    writing = has_request_context() and request.method not in ("GET", "HEAD", "OPTIONS")
    conn.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")
