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

A token is read from the database in one query, with the device's membership, in plain
columns on a connection of its own (:func:`~companion.membership.access.poll_rows`: a
poll loads no ORM object and leaves no session to end), from versions that every write
moves on (``Game.version``, ``LiveManche.version``), so any number of app processes on
one database agree on it without telling each other anything, whatever their workers.
Why short polling and not Server-Sent Events: docs/architecture.md, "Live updates"; what
it costs: ``benchmarks/live_poll.py``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, g, jsonify, request
from werkzeug.wrappers import Response

from companion.membership.access import (
    GAMES,
    GROUPS,
    SEASONS,
    game_version,
    joined_group_rows,
    of_joined_group,
    of_joined_tables,
    poll_rows,
)
from companion.models import Device, Group, Player

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
#: their versions, the last change (one row, or none without a current season); in plain
#: columns, for the group page and its poll alike.
_SEASON_GAMES = (
    sa.select(
        SEASONS.c.id.label("season_id"),
        SEASONS.c.name.label("season_name"),
        sa.func.count(GAMES.c.id).label("games"),
        sa.func.coalesce(sa.func.sum(GAMES.c.version), 0).label("versions"),
        sa.func.max(GAMES.c.updated_at).label("changed"),
    )
    .join(GROUPS, GROUPS.c.id == SEASONS.c.group_id)
    .outerjoin(GAMES, GAMES.c.season_id == SEASONS.c.id)
    .where(GROUPS.c.code == sa.bindparam("code"), SEASONS.c.is_current)
    .group_by(SEASONS.c.id, SEASONS.c.name)
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


def _group_token(name: str, time_zone: str, season: tuple[Any, ...], players: tuple[tuple[int, str], ...]) -> str:
    digest = hashlib.blake2s(repr((name, time_zone, season, players)).encode(), digest_size=8).hexdigest()
    return f"s{digest}"


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
    return group, _group_token(group.name, group.time_zone, season, players), len(players)


#: :data:`_GROUP_STATE` for the group page's poll, in plain columns (:func:`~companion.
#: membership.access.poll_rows`): the group's name and clock instead of the group and
#: device, the rest the same.
_PLAYERS = Player.__table__
_GROUP_POLL = (
    of_joined_tables(
        sa.select(GROUPS.c.name, GROUPS.c.time_zone, *_SEASON_GAMES.c, _PLAYERS.c.id, _PLAYERS.c.name).select_from(
            GROUPS
        )
    )
    .outerjoin(_SEASON_GAMES, sa.true())
    .outerjoin(_PLAYERS, _PLAYERS.c.group_id == GROUPS.c.id)
    .order_by(_PLAYERS.c.id)
)


def group_token(code: str) -> str:
    """What the group page shows, as :func:`group_state` tells it, for the page's poll:
    the same query in plain columns, on a connection of its own."""
    rows = poll_rows(_GROUP_POLL, code)
    name, time_zone = rows[0][0], rows[0][1]
    season = tuple(rows[0][2:7]) if rows[0][2] is not None else ()
    players = tuple((row[7], row[8]) for row in rows if row[7] is not None)
    return _group_token(name, time_zone, season, players)


@bp.get("/g/<code>/watch")
def group(code: str) -> Response:
    """The group page's token (polled by ``static/watch.js``; 304 while unchanged)."""
    return answer(group_token(code))


@bp.get("/g/<code>/games/<int:game_id>/watch")
def game(code: str, game_id: int) -> Response:
    """A game page's token (polled by ``static/watch.js``; 304 while unchanged)."""
    return answer(game_token(game_version(code, game_id)))
