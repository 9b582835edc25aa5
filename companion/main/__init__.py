"""Home page, language switch, web manifest."""

from flask import Blueprint

bp = Blueprint("main", __name__)

from companion.main import routes  # noqa: E402,F401
