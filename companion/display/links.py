"""Display links: made, found, revoked; when an evening ends.

A link's code is :data:`~companion.models.DISPLAY_CODE_LENGTH` letters of the group
codes' alphabet (no letter or digit easily confused when read aloud). It is valid
until the end of the evening it was made in, on the group's clock: the next
:data:`~companion.clock.NIGHT_STARTS_AT` o'clock (the one definition of a soirée,
:func:`~companion.clock.night_of`).
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime, time, timedelta
from typing import Literal

import sqlalchemy as sa

from companion.clock import NIGHT_STARTS_AT, aware, night_of, zone_named
from companion.extensions import db
from companion.models import CODE_ALPHABET, DISPLAY_CODE_LENGTH, Device, DisplayLink, Game, Group, utcnow

#: What a display code looks like (checked before any query).
CODE = re.compile(f"[{CODE_ALPHABET}]{{{DISPLAY_CODE_LENGTH}}}")


def evening_ends(moment: datetime, zone: str) -> datetime:
    """When the evening ``moment`` belongs to ends on the clock ``zone``: the next
    6:00 local time after its night's date (UTC, aware).

    >>> from datetime import UTC
    >>> str(evening_ends(datetime(2026, 3, 6, 22, tzinfo=UTC), "Europe/Paris"))
    '2026-03-07 05:00:00+00:00'
    >>> str(evening_ends(datetime(2026, 3, 7, 3, tzinfo=UTC), "Europe/Paris"))
    '2026-03-07 05:00:00+00:00'
    """
    local = zone_named(zone)
    night = night_of(moment, local)
    end = datetime.combine(night + timedelta(days=1), time(NIGHT_STARTS_AT), tzinfo=local)
    return end.astimezone(utcnow().tzinfo)


def new_code() -> str:
    """A fresh display code (random, :data:`CODE`)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(DISPLAY_CODE_LENGTH))


def valid() -> sa.ColumnElement[bool]:
    """The SQL condition of a link that still opens its display."""
    return sa.and_(DisplayLink.revoked_at.is_(None), DisplayLink.expires_at > utcnow())


#: Why a link no longer opens its display: revoked by a device of the group, or its
#: evening over.
Ended = Literal["revoked", "over"]


def ended(revoked_at: datetime | None, expires_at: datetime, now: datetime) -> Ended | None:
    """Why a link (revoked at ``revoked_at``, expiring at ``expires_at``) no longer opens
    its display at ``now``, whichever came first; None while it still does (:func:`valid`).

    >>> from datetime import UTC
    >>> ten, eleven = datetime(2026, 3, 6, 22, tzinfo=UTC), datetime(2026, 3, 6, 23, tzinfo=UTC)
    >>> end = datetime(2026, 3, 7, 5, tzinfo=UTC)
    >>> ended(None, end, ten), ended(ten, end, eleven), ended(None, end, end)
    (None, 'revoked', 'over')
    >>> ended(end + timedelta(hours=1), end, end + timedelta(hours=2))  # revoked once over
    'over'
    """
    expires = aware(expires_at)
    if revoked_at is not None and aware(revoked_at) < expires:
        return "revoked"
    if expires <= aware(now):
        return "over"
    return None


def active_links(group: Group) -> list[DisplayLink]:
    """The group's links still valid, newest first, with their games (one query)."""
    query = (
        sa.select(DisplayLink)
        .where(DisplayLink.group_id == group.id, valid())
        .options(sa.orm.joinedload(DisplayLink.game))
        .order_by(DisplayLink.created_at.desc(), DisplayLink.id.desc())
    )
    return list(db.session.scalars(query))


def link_for(group: Group, game: Game | None) -> DisplayLink | None:
    """The valid link of that game (or of the evening, ``game`` None), if there is one."""
    query = sa.select(DisplayLink).where(DisplayLink.group_id == group.id, valid())
    query = query.where(DisplayLink.game_id.is_(None) if game is None else DisplayLink.game_id == game.id)
    return db.session.scalars(query.order_by(DisplayLink.id.desc()).limit(1)).first()


def make_link(group: Group, game: Game | None, device: Device | None) -> DisplayLink:
    """The valid link of that game or evening, made if there is none (a double tap, a
    second phone: one link)."""
    found = link_for(group, game)
    if found is not None:
        return found
    link = DisplayLink(
        group_id=group.id,
        game_id=None if game is None else game.id,
        code=new_code(),
        device_id=None if device is None else device.id,
        expires_at=evening_ends(utcnow(), group.time_zone),
    )
    db.session.add(link)
    db.session.flush()
    return link
