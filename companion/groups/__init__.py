"""Groups of players: creating, joining, players and seasons."""

from flask import Blueprint

bp = Blueprint("groups", __name__)

from companion.groups import routes  # noqa: E402,F401
