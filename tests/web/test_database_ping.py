"""A pooled connection the database dropped while it waited is replaced before a page
uses it (SQLAlchemy's ``pool_pre_ping``, companion.extensions): the player sees the page,
never an error."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from tests.conftest import PG_URL
from tests.helpers import create_group


def _pooled_backend() -> int:
    """The server process of the pool's only connection (the pool emptied first)."""
    db.session.remove()
    db.engine.dispose()
    raw = db.engine.raw_connection()
    try:
        return int(raw.driver_connection.info.backend_pid)  # type: ignore[union-attr]
    finally:
        raw.close()  # back in the pool


def _drop(pid: int) -> None:
    admin = sa.create_engine(PG_URL, poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            assert conn.scalar(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(100):  # the server ends it at once; wait until it is gone
                if not conn.scalar(sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}):
                    break
                time.sleep(0.02)
    finally:
        admin.dispose()


@pytest.fixture
def group_page(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """A group's page this client joined: its address and the group's name."""
    group = create_group(client)
    return f"/g/{group.code}", group.name


@pytest.mark.parametrize("db_kind", ["postgresql"], indirect=True)
def test_a_connection_dropped_while_idle_is_replaced_before_the_page_is_read(
    client: FlaskClient, group_page: tuple[str, str]
) -> None:
    url, name = group_page
    pid = _pooled_backend()
    _drop(pid)
    r = client.get(url)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    assert name in r.get_data(as_text=True)
    assert _pooled_backend() != pid  # replaced
