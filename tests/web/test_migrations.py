"""The Alembic migrations build exactly the models' schema, on SQLite and PostgreSQL."""

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from companion import create_app
from companion.extensions import db
from tests.conftest import database_config


@pytest.fixture
def bare_app(db_kind, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "k", **database_config(db_kind, tmp_path)})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        yield app
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def test_upgrade_matches_the_models_and_downgrade_undoes_it(bare_app):
    flask_migrate.upgrade()
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), db.metadata)
    assert diff == [], f"models and migrations differ: run flask db migrate ({diff})"
    flask_migrate.downgrade(revision="base")
    with db.engine.connect() as conn:
        assert set(sa.inspect(conn).get_table_names()) <= {"alembic_version"}
