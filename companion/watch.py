"""Live pages: every phone of a group sees a change within seconds, without a reload.

A watched page (the game page, the group page, the live play-by-play) is rendered with
the address of its *watch endpoint* and a *token* of what it shows (``watch_url`` and
``watch_token``, which ``templates/base.html`` puts on ``<body>``).  ``static/watch.js``
asks that address every 1.5 s (the app's ``WATCH_EVERY_MS``, also put on ``<body>``)
while the page is in sight, sending the token back as ``If-None-Match``: while nothing
changed the answer is an empty 304; once the token moved, the script fetches the page
again and puts its new ``<main>`` in place.  A form (the round form, the correction
form: ``watch_form``) is never replaced: it polls the game pages' own
``games.form_watch`` (:func:`answer` with the token of the version it was shown at),
whose answer says what changed since, which the script shows above what was typed.

A token is read from the database in one query, with the device's membership, from
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

from companion.membership.access import game_version, joined_group_rows, of_joined_group
from companion.models import Device, Game, Group, Player, Season

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


#: The current season of the group of code ``code`` and its games: how many, the sum of
#: their versions, the last change (one row, or none without a current season).
_SEASON_GAMES = (
    sa.select(
        Season.id.label("season_id"),
        Season.name.label("season_name"),
        sa.func.count(Game.id).label("games"),
        sa.func.coalesce(sa.func.sum(Game.version), 0).label("versions"),
        sa.func.max(Game.updated_at).label("changed"),
    )
    .join(Group, Group.id == Season.group_id)
    .outerjoin(Game, Game.season_id == Season.id)
    .where(Group.code == sa.bindparam("code"), Season.is_current)
    .group_by(Season.id, Season.name)
    .subquery()
)
#: What the group page shows, in one statement built once, with the group and this
#: device's record (:func:`~companion.membership.access.of_joined_group`): the above beside
#: each of the group's players (id and name), one row per player (one for a group without).
_GROUP_STATE = (
    of_joined_group(sa.select(Group, Device, *_SEASON_GAMES.c, Player.id, Player.name))
    .outerjoin(_SEASON_GAMES, sa.true())
    .outerjoin(Player, Player.group_id == Group.id)
    .order_by(Player.id)
)


def group_state(code: str) -> tuple[Group, str, int]:
    """The joined group of that code (as :func:`~companion.membership.access.group_for`),
    what its page shows, as a token, and its number of players, in one query: the
    group's name, its current season, its players' names, and the games of that season
    (how many, the sum of their versions, the last change).  A new game adds one, any
    change to a game moves its version on, a finished game moves its version and its
    time; a player added or renamed changes the names; a new clock, the dates shown."""
    rows = joined_group_rows(_GROUP_STATE, code)
    group = rows[0][0]
    season = tuple(rows[0][2:7]) if rows[0][2] is not None else ()
    players = tuple((row[7], row[8]) for row in rows if row[7] is not None)
    digest = hashlib.blake2s(repr((group.name, group.time_zone, season, players)).encode(), digest_size=8).hexdigest()
    return group, f"s{digest}", len(players)


@bp.get("/g/<code>/watch")
def group(code: str) -> Response:
    """The group page's token (polled by ``static/watch.js``; 304 while unchanged)."""
    return answer(group_state(code)[1])


@bp.get("/g/<code>/games/<int:game_id>/watch")
def game(code: str, game_id: int) -> Response:
    """A game page's token (polled by ``static/watch.js``; 304 while unchanged)."""
    return answer(game_token(game_version(code, game_id)))
