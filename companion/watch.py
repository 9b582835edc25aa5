"""Live pages: every phone of a group sees a change within seconds, without a reload.

A watched page (the game page, the group page, the live play-by-play) is rendered with
the address of its *watch endpoint* and a *token* of what it shows (``watch_url`` and
``watch_token``, which ``templates/base.html`` puts on ``<body>``).  ``static/watch.js``
asks that address every 1.5 s while the page is in sight, sending the token back as
``If-None-Match``: while nothing changed the answer is an empty 304; once the token
moved, the script fetches the page again and puts its new ``<main>`` in place.

A token is read from the database in one query (after :func:`group_for`'s own), from
versions that every write moves on (``Game.version``, ``LiveManche.version``), so any
number of app processes on one database agree on it without telling each other
anything, whatever their workers.  Why short polling and not Server-Sent Events:
docs/architecture.md, "Live updates"; what it costs: ``benchmarks/live_poll.py``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, g, jsonify, request
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.groups.access import game_version, group_for
from companion.models import Game, Group, Player, Season

bp = Blueprint("watch", __name__)


def answer(token: str, **extra: Any) -> Response:
    """A watch endpoint's answer: 304 when ``If-None-Match`` already holds ``token``,
    else ``{"token": …}`` (and ``extra``); always with the token as ``ETag`` and
    ``Cache-Control: no-cache`` (a cache must ask every time).  The session cookie is
    not sent again: pages renew it, a poll every 1.5 s need not."""
    g.quiet_session = True  # the cookie is not renewed by a poll (companion.security)
    fresh = not request.if_none_match.contains(token)
    response = jsonify({"token": token, **extra}) if fresh else Response(status=304)
    response.set_etag(token)
    response.headers["Cache-Control"] = "no-cache"
    return response


def game_token(version: int) -> str:
    """What a game page shows, as a token: the game's version, which every change to
    the game moves on (a round saved, corrected or deleted, a status change, an undo)."""
    return f"g{version}"


def group_token(group: Group) -> str:
    """What the group page shows, as a token, in one query: the group's name, its
    current season, how many players it has, and the games of that season (how many,
    the sum of their versions, the last change).  A new game adds one, any change to a
    game moves its version on, a finished game moves its version and its time."""
    players = sa.select(sa.func.count(Player.id)).where(Player.group_id == group.id).scalar_subquery()
    row = db.session.execute(
        sa.select(
            Season.id,
            Season.name,
            sa.func.count(Game.id),
            sa.func.coalesce(sa.func.sum(Game.version), 0),
            sa.func.max(Game.updated_at),
            players,
        )
        .select_from(Group)
        .outerjoin(Season, sa.and_(Season.group_id == Group.id, Season.is_current))
        .outerjoin(Game, Game.season_id == Season.id)
        .where(Group.id == group.id)
        .group_by(Season.id, Season.name)
    ).one()
    digest = hashlib.blake2s(repr((group.name, *row)).encode(), digest_size=8).hexdigest()
    return f"s{digest}"


@bp.get("/g/<code>/watch")
def group(code: str) -> Response:
    """The group page's token (polled by ``static/watch.js``; 304 while unchanged)."""
    return answer(group_token(group_for(code)))


@bp.get("/g/<code>/games/<int:game_id>/watch")
def game(code: str, game_id: int) -> Response:
    """A game page's token (polled by ``static/watch.js``; 304 while unchanged)."""
    return answer(game_token(game_version(code, game_id)))
