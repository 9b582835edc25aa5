"""Groups of players: creating, joining, players and seasons."""

from flask import Blueprint

bp = Blueprint("groups", __name__)

from companion.groups import invite, people, routes, share, transfer  # noqa: E402,F401
