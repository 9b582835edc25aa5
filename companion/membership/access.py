"""Which groups this device has joined, as revocable devices recorded on the server.

A browser keeps one random token in its signed session cookie, whatever the number
of groups it joined; the server keeps the token's hash in one :class:`Device` row
per group joined, with the name the device was given.  Everything of a group is
served only to a device whose row is there and not revoked: leaving, or removal
from the group page, revokes it at once, and a copy of the old cookie then opens
nothing.  The token is renewed at every join (and the CSRF token with it), so a
cookie copied before a join does not follow the device into its new group.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import abort, g, redirect, render_template, request, session, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion.clock import use_zone
from companion.collation import sorted_names
from companion.extensions import db
from companion.i18n import gettext as _
from companion.membership.forms import JoinForm
from companion.models import (
    Device,
    Game,
    GamePlayer,
    GameShown,
    GameStatus,
    Group,
    GroupShown,
    LiveManche,
    LivePrefill,
    Player,
    Round,
    Season,
    utcnow,
)
from companion.pagecache import STILL_NAMED

SESSION_KEY = "device"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")


def _token() -> str | None:
    token = session.get(SESSION_KEY)
    return token if isinstance(token, str) and _TOKEN.fullmatch(token) else None


def token_hash(token: str) -> str:
    """What the server keeps of a device token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _active(hash_: str | sa.BindParameter[str]) -> sa.ColumnElement[bool]:
    return sa.and_(Device.token_hash == hash_, Device.revoked_at.is_(None))


# The queries of every group page and of the home page, built once (SQLAlchemy then
# neither builds nor keys a statement at each request): a joined group with this
# device's record in it; every group this device joined.
_JOINED = (
    sa.select(Group, Device)
    .join(Device, Device.group_id == Group.id)
    .where(Group.code == sa.bindparam("code"), _active(sa.bindparam("token_hash")))
)
#: Every group this device joined (by id: :func:`joined_groups` puts them in French order
#: of their names), each with the games in progress of its current season (latest first)
#: and their players in seat order: one row per seat, one for a group without such a game.
#: Joins one after the other (a nested join would be read whole, every group's games,
#: before the device's groups pick theirs).
_JOINED_TABLES = (
    sa.select(Group.id, Group.code, Group.name, Game.id, Game.kind, Player.name)
    .select_from(Group)
    .join(Device, Device.group_id == Group.id)
    .outerjoin(Season, sa.and_(Season.group_id == Group.id, Season.is_current))
    .outerjoin(Game, sa.and_(Game.season_id == Season.id, Game.status == GameStatus.IN_PROGRESS))
    .outerjoin(GamePlayer, GamePlayer.game_id == Game.id)
    .outerjoin(Player, Player.id == GamePlayer.player_id)
    .where(_active(sa.bindparam("token_hash")))
    .order_by(Group.id, Game.updated_at.desc(), Game.id.desc(), GamePlayer.seat)
)


@dataclass(frozen=True)
class GameInProgress:
    """A game in progress as the home page lists it: its kind and its players' names."""

    id: int
    kind: str
    names: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class JoinedGroup:
    """A group this device joined, as the home page lists it, with its games in progress."""

    id: int
    code: str
    name: str
    playing: list[GameInProgress] = field(default_factory=list)


def joined_groups() -> list[JoinedGroup]:
    """The groups this device joined and still belongs to, in French order of their names
    (:mod:`companion.collation`), with the games in progress of their current seasons,
    latest first (one query of plain columns)."""
    token = _token()
    if token is None:
        return []
    groups: list[JoinedGroup] = []
    for group_id, code, name, game_id, kind, player in db.session.execute(
        _JOINED_TABLES, {"token_hash": token_hash(token)}
    ):
        if not groups or groups[-1].id != group_id:
            groups.append(JoinedGroup(group_id, code, name))
        playing = groups[-1].playing
        if game_id is None:
            continue
        if not playing or playing[-1].id != game_id:
            playing.append(GameInProgress(game_id, kind))
        if player is not None:
            playing[-1].names.append(player)
    return sorted_names(groups, key=lambda g: g.name)


def join(group: Group, name: str) -> Device:
    """Record this device in ``group`` under ``name`` (in the current transaction).

    The browser gets a new token, which its other groups' devices take over, and a
    new CSRF token.
    """
    old = _token()
    new = secrets.token_urlsafe(32)
    new_hash = token_hash(new)
    if old is not None:
        db.session.execute(sa.update(Device).where(_active(token_hash(old))).values(token_hash=new_hash))
        db.session.execute(
            sa.update(Device)
            .where(_active(new_hash), Device.group_id == group.id)
            .values(revoked_at=utcnow())  # joining again replaces the earlier record
        )
    device = Device(group=group, token_hash=new_hash, name=name)
    db.session.add(device)
    session.permanent = True
    session[SESSION_KEY] = new
    session.pop("csrf_token", None)
    return device


def devices_ever() -> list[tuple[int, str]]:
    """Every device this browser's token was recorded as, in any group, revoked or not,
    oldest first: its id and its group's time zone (empty for a browser that never
    joined a group). Who a phone is for the guess throttle (``groups.throttle``)."""
    token = _token()
    if token is None:
        return []
    query = (
        sa.select(Device.id, Group.time_zone)
        .join(Group, Group.id == Device.group_id)
        .where(Device.token_hash == token_hash(token))
        .order_by(Device.id)
    )
    return [(int(id_), str(zone)) for id_, zone in db.session.execute(query)]


def device_name(given: object, group: Group) -> str:
    """The name a joining device was given, or « Appareil n » when none was."""
    if given:
        return str(given)
    count = db.session.scalar(sa.select(sa.func.count(Device.id)).where(Device.group_id == group.id)) or 0
    return _("Device %(n)d", n=count + 1)


def device_for(group: Group) -> Device | None:
    """This device's record in ``group`` (None when it has not joined it)."""
    token = _token()
    if token is None:
        return None
    return db.session.scalar(sa.select(Device).where(_active(token_hash(token)), Device.group_id == group.id))


def revoke(device: Device) -> None:
    """Revoke ``device`` (in the current transaction): its cookie opens nothing any more."""
    device.revoked_at = utcnow()


def group_for(code: str) -> Group:
    """The joined group of that code (its device is ``g.device``); a device that did
    not join it is sent to the join page (for a GET) or refused (403), learning
    nothing of the group; one that was in it and no longer is gets the page that
    says so (:func:`removed`)."""
    token = _token()
    found = None
    if token is not None:
        found = db.session.execute(_JOINED, {"code": code.upper(), "token_hash": token_hash(token)}).first()
    if found is not None:
        g.device = found[1]
        use_zone(found[0].time_zone)  # the group's clock, for every time this request shows
        return found[0]  # type: ignore[no-any-return]
    if token is not None:
        removed(code, token)
    if request.method == "GET":
        raise HTTPException(response=redirect(url_for("groups.join", code=code.upper()[:12], next=request.path)))
    abort(403)


#: Session key: the device this browser revoked by leaving a group (for the undo).
LEFT_KEY = "left"

#: This browser's latest record in the group of code ``code``, when it is revoked (the
#: group's pages were found closed to it: it was removed, or it left).
_REVOKED = (
    sa.select(Group, Device)
    .join(Device, Device.group_id == Group.id)
    .where(
        Group.code == sa.bindparam("code"),
        Device.token_hash == sa.bindparam("token_hash"),
        Device.revoked_at.is_not(None),
    )
    .order_by(Device.revoked_at.desc(), Device.id.desc())
    .limit(1)
)


def removed(code: str, token: str) -> None:
    """When this browser was in the group of code ``code`` and no longer is — removed
    from the group's devices page, signed out by a passphrase change, or gone by
    leaving — answer its page with one that says so, and the join form to come back
    (403: the group's page is closed to it; the address stays, so joining again
    leads back to it). It held the group's token: naming the group tells it nothing
    new. A request that does not take a page (a live page's poll) gets a bare 403."""
    found = db.session.execute(_REVOKED, {"code": code.upper(), "token_hash": token_hash(token)}).first()
    if found is None:
        return
    if request.accept_mimetypes.accept_json and not request.accept_mimetypes.accept_html:
        abort(403)
    group, device = found
    back = request.path if request.method == "GET" else url_for("groups.show", code=group.code)
    form = JoinForm(formdata=None, data={"code": group.code, "device_name": device.name})
    page = render_template(
        "groups/removed.html", gone=group, form=form, left=session.get(LEFT_KEY) == device.id, back=back
    )
    raise HTTPException(
        response=Response(page, status=403, mimetype="text/html", headers={"X-Companion-Gone": group.code})
    )


def of_joined_group(query: sa.Select[Any]) -> sa.Select[Any]:
    """``query`` (its first two entities ``Group``, ``Device``) from the group of code
    ``code`` this device joined, joined to this device's record."""
    return (
        query.select_from(Group)
        .join(Device, Device.group_id == Group.id)
        .where(Group.code == sa.bindparam("code"), _active(sa.bindparam("token_hash")))
    )


def joined_group_rows(query: sa.Select[Any], code: str) -> list[sa.Row[Any]]:
    """Every row of ``query`` (built by :func:`of_joined_group`) for the group of code
    ``code``; its device is ``g.device``. A device that did not join the group is
    treated as by :func:`group_for`."""
    token = _token()
    if token is not None:
        rows = db.session.execute(query, {"code": code.upper(), "token_hash": token_hash(token)}).all()
        if rows:
            g.device = rows[0][1]
            use_zone(rows[0][0].time_zone)
            return rows
    group_for(code)  # not joined: sent to the join page, or refused
    abort(404)


def _of_joined_game(query: sa.Select[Any]) -> sa.Select[Any]:
    """``query`` of game ``game_id`` in the group of code ``code`` this device joined."""
    return (
        query.join(Season, Season.id == Game.season_id)
        .join(Group, Group.id == Season.group_id)
        .join(Device, Device.group_id == Group.id)
        .where(
            Game.id == sa.bindparam("game_id"),
            Group.code == sa.bindparam("code"),
            _active(sa.bindparam("token_hash")),
        )
    )


#: A game's players in seat order, loaded with it.
_SEATS = so.joinedload(Game.seats).joinedload(GamePlayer.player)
#: A game of a joined group, its players in seat order, the group and this device's record.
_JOINED_GAME = _of_joined_game(sa.select(Game, Group, Device)).options(_SEATS)
#: The same, with what the game's live manche says of itself (the round form's query).
_JOINED_GAME_AND_LIVE = _of_joined_game(
    sa.select(Game, LiveManche.number, LiveManche.game_version, LiveManche.entry, Group, Device).outerjoin(
        LiveManche, LiveManche.game_id == Game.id
    )
).options(_SEATS)
_LAST, _OTHER = so.aliased(Round), so.aliased(Round)
#: A game's last round (its number, entry and state, as columns: no object, no device)
#: and its number of rounds; joined by :data:`LAST_ROUND_JOIN`.
LAST_ROUND = (
    _LAST.number,
    _LAST.entry,
    _LAST.result,
    sa.select(sa.func.count(_OTHER.id)).where(_OTHER.game_id == Game.id).scalar_subquery(),
)
LAST_ROUND_JOIN = (
    _LAST,
    sa.and_(
        _LAST.game_id == Game.id,
        _LAST.number == sa.select(sa.func.max(_OTHER.number)).where(_OTHER.game_id == Game.id).scalar_subquery(),
    ),
)
#: The same, with the game's last round and its number of rounds (a round form sent).
_JOINED_GAME_LIVE_AND_LAST = _of_joined_game(
    sa.select(Game, LiveManche.number, LiveManche.game_version, LiveManche.entry, *LAST_ROUND, Group, Device)
    .outerjoin(LiveManche, LiveManche.game_id == Game.id)
    .outerjoin(*LAST_ROUND_JOIN)
).options(_SEATS)
#: What a kept page (a game page, a round form) is found and written out from, as
#: plain columns: the game, its players in seat order (one row per seat), its live
#: manche, its group; then how many devices still bear the names a kept game page shows
#: (:data:`~companion.pagecache.STILL_NAMED`; in ``_SHOWN_GAME_NAMED`` only).
_SHOWN_COLUMNS = (
    Game.id,
    Game.kind,
    Game.status,
    Game.created_at,
    Game.version,
    Player.id,
    Player.name,
    LiveManche.number,
    LiveManche.game_version,
    LiveManche.entry,
    Group.id,
    Group.code,
    Group.name,
    Group.time_zone,
)


def _shown(*columns: Any) -> sa.Select[Any]:
    return _of_joined_game(
        sa.select(*_SHOWN_COLUMNS, *columns)
        .select_from(Game)
        .outerjoin(LiveManche, LiveManche.game_id == Game.id)
        .outerjoin(GamePlayer, GamePlayer.game_id == Game.id)
        .outerjoin(Player, Player.id == GamePlayer.player_id)
        .order_by(GamePlayer.seat)
    )


_SHOWN_GAME_AND_LIVE = _shown()
_SHOWN_GAME_NAMED = _shown(STILL_NAMED)


#: The tables themselves, for the live pages' polls (:func:`poll_rows`).
GAMES, SEASONS, GROUPS, DEVICES = (model.__table__ for model in (Game, Season, Group, Device))


def of_joined_tables(query: sa.Select[Any]) -> sa.Select[Any]:
    """``query`` (in SQLAlchemy Core, its tables joined up to :data:`GROUPS`) from the
    group of code ``code`` this device joined: :func:`of_joined_group`'s rows, as columns."""
    return query.join(DEVICES, DEVICES.c.group_id == GROUPS.c.id).where(
        GROUPS.c.code == sa.bindparam("code"),
        DEVICES.c.token_hash == sa.bindparam("token_hash"),
        DEVICES.c.revoked_at.is_(None),
    )


def of_joined_game_tables(query: sa.Select[Any]) -> sa.Select[Any]:
    """``query`` (Core, from :data:`GAMES`) of game ``game_id`` in the group of code
    ``code`` this device joined (:func:`_of_joined_game`'s rows, as columns)."""
    return of_joined_tables(
        query.join(SEASONS, SEASONS.c.id == GAMES.c.season_id)
        .join(GROUPS, GROUPS.c.id == SEASONS.c.group_id)
        .where(GAMES.c.id == sa.bindparam("game_id"))
    )


#: Only the version of such a game (a game page's poll).
_JOINED_VERSION = of_joined_game_tables(sa.select(GAMES.c.version).select_from(GAMES))


def _joined_game(query: sa.Select[Any], code: str, game_id: int) -> sa.Row[Any]:
    """The row of ``query`` (built by :func:`_of_joined_game`, this device's record last)
    for game ``game_id`` of the group of code ``code``; its device is ``g.device``. A
    device that did not join the group is treated as by :func:`group_for`; a game of
    another group, or none, is a 404."""
    token = _token()
    if token is not None:
        values = {"game_id": game_id, "code": code.upper(), "token_hash": token_hash(token)}
        found = db.session.execute(query, values).unique().first()
        if found is not None:
            g.device = found[-1]
            if len(found) > 2 and isinstance(found[-2], Group):
                use_zone(found[-2].time_zone)
            return found
    group_for(code)  # not joined: sent to the join page, or refused
    abort(404)


def group_and_game(code: str, game_id: int) -> tuple[Group, Game]:
    """:func:`group_for` and that group's game ``game_id`` with its players in seat
    order, in one query (every game page, form and live screen asks for both)."""
    game, group, _device = _joined_game(_JOINED_GAME, code, game_id)
    return group, game


def group_game_and_live(code: str, game_id: int) -> tuple[Group, Game, LivePrefill | None]:
    """:func:`group_and_game`, and what the game's live manche says of itself (None
    without one), in the same query."""
    game, number, version, entry, group, _device = _joined_game(_JOINED_GAME_AND_LIVE, code, game_id)
    return group, game, LivePrefill(number, version, entry) if number is not None else None


def group_game_live_and_last(
    code: str, game_id: int
) -> tuple[Group, Game, LivePrefill | None, tuple[int | None, Any, Any, int]]:
    """:func:`group_game_and_live`, and the game's last round (its number, entry and
    state; None for each before the first) with its number of rounds, in the same query."""
    game, number, version, entry, *last, group, _device = _joined_game(_JOINED_GAME_LIVE_AND_LAST, code, game_id)
    live = LivePrefill(number, version, entry) if number is not None else None
    return group, game, live, (last[0], last[1], last[2], int(last[3] or 0))


def game_shown(code: str, game_id: int, devices: dict[int, str] | None = None) -> GameShown | None:
    """Game ``game_id`` of the group of code ``code`` this device joined, with its live
    manche, as plain columns in one query (what a kept page is written out from), and
    how many of ``devices`` (id → name) still bear that name (``named``; None without
    devices). None when the device did not join the group or there is no such game: the
    page's full path then answers as ever (the join page, a refusal, a 404)."""
    token = _token()
    if token is None:
        return None
    values: dict[str, Any] = {"game_id": game_id, "code": code.upper(), "token_hash": token_hash(token)}
    if devices:
        rows = db.session.execute(_SHOWN_GAME_NAMED, values | {"named": list(devices.items())}).all()
    else:
        rows = db.session.execute(_SHOWN_GAME_AND_LIVE, values).all()
    if not rows:
        return None
    first = rows[0]
    names = tuple((str(row[5]), row[6]) for row in rows if row[5] is not None)
    live = LivePrefill(first[7], first[8], first[9]) if first[7] is not None else None
    group = GroupShown(first[10], first[11], first[12], first[13])
    use_zone(group.time_zone)
    named = int(first[14]) if devices else None
    return GameShown(first[0], first[1], first[2], first[3], first[4], names, group, live, named)


def poll_rows(query: sa.Select[Any], code: str, **values: Any) -> list[sa.Row[Any]]:
    """Every row of ``query`` for the group of code ``code`` this device joined (built by
    :func:`of_joined_tables`, bound by ``values`` besides), for a live page's poll: it comes
    from every watching phone every 1.5 s and is almost always answered 304, so it reads
    plain columns on a connection of its own (no ORM object, no session to end after it),
    and sets neither ``g.device`` nor the group's clock (a token shows neither). No row
    (the device did not join the group: :func:`group_for`'s answer; else a 404) is
    answered as the pages answer it."""
    token = _token()
    if token is not None:
        with db.engine.connect() as connection:
            rows = connection.execute(query, {**values, "code": code.upper(), "token_hash": token_hash(token)}).all()
        if rows:
            return rows
    group_for(code)  # not joined: sent to the join page, or refused
    abort(404)


def game_version(code: str, game_id: int) -> int:
    """The version of game ``game_id`` of a group this device joined, in one query (a
    game page's poll: :func:`poll_rows`); otherwise as :func:`group_and_game`."""
    return int(poll_rows(_JOINED_VERSION, code, game_id=game_id)[0][0])


def current_device() -> Device | None:
    """The device of the group :func:`group_for` opened in this request."""
    device: Device | None = g.get("device")
    return device


def owns(device: Device) -> bool:
    """Whether this browser holds ``device``'s token (revoked or not)."""
    token = _token()
    return token is not None and token_hash(token) == device.token_hash
