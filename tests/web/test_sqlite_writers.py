"""SQLite's writers take turns through a lock file (companion.config), not by sleeping
in SQLite's busy handler: a writing request holds the turn from its transaction's start
to its end; reading requests never queue."""

from __future__ import annotations

import fcntl
import os
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


def _free(lock: Path) -> bool:
    """Whether another process could take the writers' turn now."""
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def test_a_writing_request_holds_the_turn_until_it_commits(sqlite_app: Flask, tmp_path: Path) -> None:
    lock = tmp_path / "w.sqlite3-writers"
    with sqlite_app.test_request_context("/", method="POST"):
        db.session.execute(sa.text("SELECT 1"))
        assert not _free(lock)
        db.session.commit()
        assert _free(lock)
        db.session.execute(sa.text("SELECT 1"))
        assert not _free(lock)
        db.session.rollback()
        assert _free(lock)


def test_a_reading_request_does_not_queue(sqlite_app: Flask, tmp_path: Path) -> None:
    with sqlite_app.test_request_context("/", method="GET"):
        db.session.execute(sa.text("SELECT 1"))
        assert _free(tmp_path / "w.sqlite3-writers")
        db.session.rollback()


def test_a_writer_waits_for_the_turn_then_writes(sqlite_app: Flask, tmp_path: Path) -> None:
    fd = os.open(tmp_path / "w.sqlite3-writers", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another process's writer has the turn
    threading.Timer(0.2, os.close, [fd]).start()
    start = time.monotonic()
    with sqlite_app.test_request_context("/", method="POST"):
        db.session.execute(sa.text("SELECT 1"))
        waited = time.monotonic() - start
        db.session.commit()
    assert waited >= 0.15


def test_a_connection_back_in_its_pool_gives_the_turn_back(sqlite_app: Flask, tmp_path: Path) -> None:
    with sqlite_app.test_request_context("/", method="POST"):
        connection = db.engine.connect()
        connection.begin()
        assert not _free(tmp_path / "w.sqlite3-writers")
        connection.invalidate()  # no commit, no rollback: thrown away
        assert _free(tmp_path / "w.sqlite3-writers")
        connection.rollback()
        connection.close()


def test_without_a_lock_file_writers_still_write(sqlite_app: Flask, tmp_path: Path) -> None:
    (tmp_path / "w.sqlite3-writers").mkdir()  # the lock file's name is taken: it cannot be opened
    with sqlite_app.test_request_context("/", method="POST"):
        db.session.execute(sa.text("CREATE TABLE t (x INTEGER)"))
        db.session.commit()
