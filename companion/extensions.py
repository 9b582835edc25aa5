"""Flask extensions, created unbound and initialised in :func:`companion.create_app`."""

from __future__ import annotations

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Named constraints, so that Alembic migrations can drop and alter them on every backend.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every model."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Each pooled connection is checked before use (SQLAlchemy's pre-ping): one the database
# dropped meanwhile (a restart, a proxy's timeout) is replaced, never an error page.
db = SQLAlchemy(model_class=Base, engine_options={"pool_pre_ping": True})
migrate = Migrate(render_as_batch=True, compare_type=True)
csrf = CSRFProtect()
babel = Babel()
