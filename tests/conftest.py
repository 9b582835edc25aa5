"""Fixtures: an app over a throw-away database, on SQLite and (when reachable) PostgreSQL.

Every test that uses ``app`` (or ``client``) runs once per database.  PostgreSQL is
the one given by ``TEST_DATABASE_URL`` (default: the CI server, 127.0.0.1:5432,
database ``test``, trust auth); the tests use a schema of their own in it.  When it
cannot be reached the PostgreSQL runs are skipped, except under CI (``CI`` set),
where they fail: CI must prove both databases.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import flask_babel
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings

from companion import create_app
from companion.extensions import db

# Under CI, property tests are derandomized (same examples every run, so a red CI
# is always reproducible) and not failed for being slow on a busy machine.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
if os.environ.get("CI"):
    settings.load_profile("ci")

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_SCHEMA = f"companion_test_{os.getpid()}"
_pg_state: dict[str, Any] = {}


def _postgres_available() -> str | None:
    """None when PostgreSQL answers, else why not."""
    if "error" not in _pg_state:
        try:
            engine = sa.create_engine(PG_URL, connect_args={"connect_timeout": 3})
            with engine.begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE'))
                conn.execute(sa.text(f'CREATE SCHEMA "{PG_SCHEMA}"'))
            engine.dispose()
            _pg_state["error"] = None
        except Exception as e:  # any failure to connect means "not reachable"
            _pg_state["error"] = f"{type(e).__name__}: {e}"
    return _pg_state["error"]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _pg_state.get("error", "unused") is None:
        engine = sa.create_engine(PG_URL)
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE'))
        engine.dispose()


def database_config(kind: str, tmp_path: Any) -> dict[str, Any]:
    """The SQLAlchemy settings of one test database."""
    if kind == "sqlite":
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}"}
    error = _postgres_available()
    if error is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL must be reachable under CI ({PG_URL}): {error}")
        pytest.skip(f"PostgreSQL not reachable ({error})")
    return {
        "SQLALCHEMY_DATABASE_URI": PG_URL,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={PG_SCHEMA}"}},
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def db_kind(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on."""
    return str(request.param)


@pytest.fixture
def app(db_kind: str, tmp_path: Any) -> Iterator[Flask]:
    """The app over an empty database (tables from the models; migrations are tested apart)."""
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        **database_config(db_kind, tmp_path),
    }
    app = create_app(config)
    # The test keeps one app context open so it can read the database between
    # requests; requests then share its ``g``, so the locale Flask-Babel caches
    # there must be recomputed per request, as it is in production.
    app.before_request(flask_babel.refresh)
    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A French-speaking phone."""
    return app.test_client()


@pytest.fixture(scope="session")
def api_client() -> FlaskClient:
    """A client for the stateless rules API (which touches no database)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client()
