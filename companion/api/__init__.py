"""The JSON rules API (shared/API.md): stateless, no login, no CSRF."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from companion.api import routes  # noqa: E402,F401
