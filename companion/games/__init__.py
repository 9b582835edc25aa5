"""Games of a season: creating them, entering rounds, showing scores."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from companion.games import dealer, routes  # noqa: E402,F401
