"""The table's clock: every time a group's pages show is on the group's own time zone.

A group keeps an IANA zone name (``Group.time_zone``, Europe/Paris by default). The
request that opens a group (``companion.membership.access``, where the group's row is read,
with no query of its own) calls :func:`use_zone`; Flask-Babel's time zone selector
(:func:`select_timezone`) then gives that zone to every ``format_datetime``,
``format_time`` and ``format_date`` of a datetime on every page, with no code per page.
The game night (« la soirée ») a time belongs to is :func:`night_of` on the same
zone: the one definition every page, figure and export reads.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import flask_babel
import pytz  # type: ignore[import-untyped]  # (Flask-Babel's time zones)
from flask import g, has_request_context

from companion.models import DEFAULT_TIME_ZONE

#: A game night starts at this hour (the group's clock) and runs until the same hour next day.
NIGHT_STARTS_AT = 6


def zone_named(name: str | None) -> ZoneInfo:
    """The zone of that IANA name; the default zone (Europe/Paris) for a name unknown
    here or missing (a group's zone is checked when it is chosen: this only guards).

    >>> zone_named("America/Montreal").key, zone_named("Nowhere/Else").key, zone_named(None).key
    ('America/Montreal', 'Europe/Paris', 'Europe/Paris')
    """
    try:
        return ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


def aware(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite gives them back naive)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def night_of(moment: datetime, zone: ZoneInfo | str | None) -> date:
    """THE definition of a soirée: the game night a moment belongs to on a group's clock
    (``zone``, a ZoneInfo or an IANA name): its local date, the night running until
    6:00 local time (:data:`NIGHT_STARTS_AT`). A game's night is ``night_of`` its start.

    >>> paris = ZoneInfo("Europe/Paris")
    >>> [str(night_of(datetime(2026, 3, d, h, tzinfo=UTC), paris)) for d, h in ((6, 18), (7, 4), (7, 6))]
    ['2026-03-06', '2026-03-06', '2026-03-07']
    >>> str(night_of(datetime(2026, 3, 7, 4, tzinfo=UTC), "America/Montreal"))
    '2026-03-06'
    """
    if not isinstance(zone, ZoneInfo):
        zone = zone_named(zone)
    local = aware(moment).astimezone(zone)
    return (local.replace(tzinfo=None) - timedelta(hours=NIGHT_STARTS_AT)).date()


#: Zones a French table most likely sits in, offered first (then every zone).
COMMON_ZONES = (
    "Europe/Paris",
    "Europe/Brussels",
    "Europe/Luxembourg",
    "Europe/Zurich",
    "Europe/Monaco",
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Madrid",
    "Europe/Berlin",
    "Europe/Rome",
    "America/Montreal",
    "America/Guadeloupe",
    "America/Martinique",
    "America/Cayenne",
    "Indian/Reunion",
    "Indian/Mayotte",
    "Pacific/Noumea",
    "Pacific/Tahiti",
    "Africa/Dakar",
    "Africa/Abidjan",
    "Africa/Casablanca",
    "Africa/Algiers",
    "Africa/Tunis",
    "UTC",
)


@cache
def known_zones() -> frozenset[str]:
    """The zone names a group may choose: those both ``zoneinfo`` (nights) and
    Flask-Babel's pytz (times shown) know, by place (``Europe/Paris``) or ``UTC``:
    without the legacy abbreviations (``CET``) and the ``posix/``, ``right/``, ``Etc/``
    copies."""
    names = available_timezones() & set(pytz.all_timezones_set)
    return frozenset(n for n in names if n == "UTC" or ("/" in n and not n.startswith(("posix/", "right/", "Etc/"))))


@cache
def zone_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The zones as a select lists them: the common ones first, then all, A to Z."""
    known = known_zones()
    common = [(n, n.replace("_", " ")) for n in COMMON_ZONES if n in known]
    every = [(n, n.replace("_", " ")) for n in sorted(known)]
    return [("common", common), ("all", every)]


def valid_zone(name: object) -> bool:
    """Whether ``name`` is a zone a group may choose."""
    return isinstance(name, str) and name in known_zones()


def use_zone(name: str | None) -> None:
    """This request is about a group on that clock (called where the group is read)."""
    if not has_request_context():
        return
    zone = name or DEFAULT_TIME_ZONE
    if g.get("group_time_zone") != zone:
        g.group_time_zone = zone
        flask_babel.refresh()  # a time zone chosen before the group was read: choose again


def current_zone() -> str:
    """The zone of the group this request is about (the default zone before any)."""
    zone = g.get("group_time_zone") if has_request_context() else None
    return zone if isinstance(zone, str) else DEFAULT_TIME_ZONE


def select_timezone() -> Any:
    """Flask-Babel's time zone selector: the group's zone (pytz, as Flask-Babel wants it)."""
    try:
        return pytz.timezone(current_zone())
    except pytz.UnknownTimeZoneError:
        return pytz.timezone(DEFAULT_TIME_ZONE)


def local_iso(moment: datetime | None, zone: str, seconds: bool = False) -> str | None:
    """A stored time as ISO 8601 on a group's clock, with its offset (to the second
    with ``seconds``); None stays None.

    >>> from datetime import UTC
    >>> local_iso(datetime(2026, 3, 29, 1, 30, 5, 120, tzinfo=UTC), "Europe/Paris", seconds=True)
    '2026-03-29T03:30:05+02:00'
    >>> local_iso(datetime(2026, 3, 29, 0, 30, tzinfo=UTC), "Europe/Paris")
    '2026-03-29T01:30:00+01:00'
    """
    if moment is None:
        return None
    return aware(moment).astimezone(zone_named(zone)).isoformat(timespec="seconds" if seconds else "auto")


def local_iso_here(moment: datetime | None) -> str | None:
    """:func:`local_iso` on the clock of the group this request is about (templates'
    ``local_iso``: a ``<time datetime>`` that says the offset the page's times are in)."""
    return local_iso(moment, current_zone())
