"""Fixtures: an app over a throw-away database, on SQLite and (when reachable) PostgreSQL.

Every test that uses ``app`` (or ``client``) runs once per database.  PostgreSQL is
the one given by ``TEST_DATABASE_URL`` (default: the CI server, 127.0.0.1:5432,
database ``test``, trust auth); the tests use a schema of their own in it.  When it
cannot be reached the PostgreSQL runs are skipped, except under CI (``CI`` set),
where they fail: CI must prove both databases.

The tables are built once, not per test: on SQLite each test gets a copy of a file
built once per session; on PostgreSQL the tables stay in the schema and their rows
(and ids) are emptied after each test.  Passphrases are hashed with a fast method
(``TEST_CONFIG``); ``tests/web/test_passphrase_hash.py`` proves the default is scrypt.
The apps' templates are compiled once per test process (:data:`COMPILED_TEMPLATES`).
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, has_app_context
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from companion import create_app
from companion.extensions import db

# Under CI, property tests are derandomized (same examples every run, so a red CI
# is always reproducible) and not failed for being slow on a busy machine.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
# The developer loop's quick subset (``scripts/test --quick``) tries fewer examples.
settings.register_profile("quick", max_examples=10, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_SCHEMA = f"companion_test_{os.getpid()}"
#: "error": None once PostgreSQL answered (else why not); "ready": the schema holds the
#: models' tables, empty, ids from 1 (what the ``app`` fixture starts from).
_pg_state: dict[str, Any] = {}

#: The configuration of the ``app`` fixture, but for its database.  Passphrases are
#: hashed fast: scrypt costs about 0.13 s a hash or check, and most tests create a group.
TEST_CONFIG: dict[str, Any] = {
    "TESTING": True,
    "SECRET_KEY": "test-secret",
    "WTF_CSRF_ENABLED": False,
    "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000",
}


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


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test has a node id of its own: pytest-xdist (``scripts/test``) runs one test
    per node id, so a second test under the same id would silently never run."""
    counts = Counter(item.nodeid for item in items)
    twice = sorted(nodeid for nodeid, count in counts.items() if count > 1)
    if twice:
        raise pytest.UsageError(f"tests sharing a node id (only one would run): {twice}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _pg_state.get("error", "unused") is None:
        engine = sa.create_engine(PG_URL)
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE'))
        engine.dispose()


def _postgres_config() -> dict[str, Any]:
    """The SQLAlchemy settings of the tests' PostgreSQL schema (skips when unreachable)."""
    error = _postgres_available()
    if error is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL must be reachable under CI ({PG_URL}): {error}")
        pytest.skip(f"PostgreSQL not reachable ({error})")
    return {
        "SQLALCHEMY_DATABASE_URI": PG_URL,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={PG_SCHEMA}"}},
    }


def database_config(kind: str, tmp_path: Any) -> dict[str, Any]:
    """The SQLAlchemy settings of one test database, for a test that builds its own app
    and tables (or migrates them): the ``app`` fixture rebuilds the schema after it."""
    if kind == "sqlite":
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}"}
    config = _postgres_config()
    _pg_state["ready"] = False
    return config


def _rebuild_postgres_schema() -> None:
    """The schema emptied of everything, then the models' tables created (in the app context)."""
    _pg_state["ready"] = False
    with db.engine.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE'))
        conn.execute(sa.text(f'CREATE SCHEMA "{PG_SCHEMA}"'))
    db.create_all()
    _pg_state["ready"] = True


#: Every id counter of the schema that moved back to its start (``TRUNCATE … RESTART
#: IDENTITY`` does the same but costs 0.3 s for the 18 tables, against 0.01 s to delete).
_RESTART_IDS = sa.text(
    "SELECT setval(format('%I.%I', schemaname, sequencename), start_value, false)"
    " FROM pg_sequences WHERE schemaname = current_schema() AND last_value IS NOT NULL"
)


def _empty_postgres_tables() -> None:
    """Every row deleted (children first) and every id counter back to its start, the
    tables kept; after a test that dropped or replaced them (or called
    :func:`database_config`), the schema is rebuilt instead."""
    if _pg_state.get("ready"):
        try:
            with db.engine.begin() as conn:
                for table in reversed(db.metadata.sorted_tables):
                    conn.execute(table.delete())
                conn.execute(_RESTART_IDS)
            return
        except sa.exc.DBAPIError:
            pass
    _rebuild_postgres_schema()


class _CompiledTemplates(BytecodeCache):
    """Jinja's bytecode cache, in this process's memory: each test builds an app, and each
    app compiled every template it rendered afresh (27% of the page tests' time, for the
    same code each time). A template whose source changed is compiled again: Jinja
    checks each kept code against its source's checksum."""

    def __init__(self) -> None:
        self._kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._kept.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._kept[bucket.key] = bucket.bytecode_to_string()


#: The templates the ``app`` fixture's apps compiled (their Jinja settings are all alike).
COMPILED_TEMPLATES = _CompiledTemplates()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the models' tables, built once: each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    assert not path.with_name(path.name + "-wal").exists(), "the template must be one whole file"
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def db_kind(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on."""
    return str(request.param)


@pytest.fixture
def app(db_kind: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """The app over an empty database (tables from the models; migrations are tested apart):
    on SQLite a copy of the session's template file, on PostgreSQL the schema's tables,
    emptied after the test."""
    if db_kind == "sqlite":
        database = tmp_path / "test.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), database)
        config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
    else:
        config = {**TEST_CONFIG, **_postgres_config()}
    app = create_app(config)
    app.test_client_class = PhoneClient
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    with app.app_context():
        if db_kind == "postgresql" and not _pg_state.get("ready"):
            _rebuild_postgres_schema()
        yield app
        db.session.remove()
        if db_kind == "postgresql":
            _empty_postgres_tables()
        db.engine.dispose()


class PhoneClient(FlaskClient):
    """Flask's test client, each request in an app context of its own, as under a server.

    The test itself reads and writes the database in the app context the ``app`` fixture
    opens; a request never shares it (nor its ``g``, nor its session): what the test's
    session did is committed before the request, and the test's next read sees what the
    request committed.
    """

    def run_wsgi_app(self, environ: Any, buffered: bool = False) -> Any:
        if has_app_context():
            db.session.commit()
        with self.application.app_context():
            return super().run_wsgi_app(environ, buffered)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A French-speaking phone."""
    return app.test_client()


@pytest.fixture(scope="session")
def api_client() -> FlaskClient:
    """A client for the stateless rules API (which touches no database)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client()
