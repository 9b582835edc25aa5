"""SQLite's writers take turns on its write lock (companion.database): a writing request
takes it when its transaction begins (``BEGIN IMMEDIATE``) and holds it until it ends, a
second writer waits for it (SQLite's busy timeout), reading requests never take it; and
this is set on the app's own engines when the app is created, on no other engine."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from companion import create_app
from companion.extensions import db


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/w.sqlite3"})
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


def _free(database: Path) -> bool:
    """Whether another process could take SQLite's write lock now."""
    conn = sqlite3.connect(database, timeout=0, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        assert "locked" in str(e)
        return False
    finally:
        conn.close()  # rolls back
    return True


def test_a_writing_request_holds_the_write_lock_until_it_ends(sqlite_app: Flask, tmp_path: Path) -> None:
    database = tmp_path / "w.sqlite3"
    with sqlite_app.test_request_context("/", method="POST"):
        db.session.execute(sa.text("SELECT 1"))
        assert not _free(database)
        db.session.commit()
        assert _free(database)
        db.session.execute(sa.text("SELECT 1"))
        assert not _free(database)
        db.session.rollback()
        assert _free(database)


def test_a_reading_request_does_not_take_the_write_lock(sqlite_app: Flask, tmp_path: Path) -> None:
    with sqlite_app.test_request_context("/", method="GET"):
        db.session.execute(sa.text("SELECT 1"))
        assert _free(tmp_path / "w.sqlite3")
        db.session.rollback()


def test_a_writer_waits_for_another_then_writes(sqlite_app: Flask, tmp_path: Path) -> None:
    other = sqlite3.connect(tmp_path / "w.sqlite3", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process's writer holds the lock
    other.execute("CREATE TABLE first (x INTEGER)")
    threading.Timer(0.2, other.execute, ["COMMIT"]).start()
    start = time.monotonic()
    with sqlite_app.test_request_context("/", method="POST"):
        db.session.execute(sa.text("INSERT INTO first VALUES (1)"))  # sees the other's commit
        waited = time.monotonic() - start
        db.session.commit()
    other.close()
    assert waited >= 0.15
    with sqlite_app.app_context():
        assert db.session.scalar(sa.text("SELECT count(*) FROM first")) == 1


def test_writers_at_once_each_write_and_none_is_refused(sqlite_app: Flask) -> None:
    """Eight writers that read, then write what they read: none is told "database is
    locked", none loses another's write (each one reads what the previous one committed)."""
    with sqlite_app.app_context():
        db.session.execute(sa.text("CREATE TABLE counter (n INTEGER)"))
        db.session.execute(sa.text("INSERT INTO counter VALUES (0)"))
        db.session.commit()
    errors: list[BaseException] = []

    def write() -> None:
        try:
            for _ in range(10):
                with sqlite_app.test_request_context("/", method="POST"):
                    n = db.session.scalar(sa.text("SELECT n FROM counter"))
                    time.sleep(0.001)  # as a request does between its read and its write
                    db.session.execute(sa.text("UPDATE counter SET n = :n"), {"n": n + 1})
                    db.session.commit()
                    db.session.remove()
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=write) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with sqlite_app.app_context():
        assert db.session.scalar(sa.text("SELECT n FROM counter")) == 80


def test_every_engine_of_the_app_and_no_other_is_set(tmp_path: Path) -> None:
    """Set on the app's engines (binds too) when it is created; an engine made elsewhere
    keeps SQLAlchemy's defaults (nothing is set because a module was imported)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/main.sqlite3",
            "SQLALCHEMY_BINDS": {"other": f"sqlite:///{tmp_path}/other.sqlite3"},
        }
    )
    elsewhere = sa.create_engine(f"sqlite:///{tmp_path}/elsewhere.sqlite3")
    try:
        with app.app_context():
            for engine in db.engines.values():
                with engine.connect() as conn:
                    assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
                    assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            with app.test_request_context("/", method="POST"), db.engines["other"].connect() as conn:
                conn.exec_driver_sql("SELECT 1")
                assert not _free(tmp_path / "other.sqlite3")
                conn.rollback()
            for engine in db.engines.values():
                engine.dispose()
        with elsewhere.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 0
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "delete"
    finally:
        elsewhere.dispose()
        # The bind's tables' metadata, made by Flask-SQLAlchemy for the bind, is not the
        # other tests' (they have no such bind).
        db.metadatas.pop("other", None)
