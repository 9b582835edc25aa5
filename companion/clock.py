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

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import flask_babel
import pytz  # type: ignore[import-untyped]  # (Flask-Babel's time zones)
import sqlalchemy as sa
from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from flask import g, has_request_context
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from companion.collation import sorted_names
from companion.extensions import db
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import DEFAULT_TIME_ZONE, Game, Round

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


#: Babel's territory codes that name no country (« the world », « unknown region »).
_NO_COUNTRY = frozenset({"001", "ZZ"})


@cache
def zone_place(name: str, lang: str) -> str:
    """A zone as a reader finds it, in ``lang``: Babel's name of its place (the city
    of :func:`babel.dates.get_timezone_location`, ``return_city=True``), with the
    country when the place is not the country itself. The stored value stays the IANA
    id: this is only what a page shows.

    >>> [zone_place(n, "fr") for n in ("Europe/Paris", "Indian/Reunion", "Europe/London", "UTC")]
    ['Paris (France)', 'La Réunion', 'Londres (Royaume-Uni)', 'UTC']
    >>> zone_place("America/Argentina/Buenos_Aires", "en")
    'Buenos Aires (Argentina)'

    An id the tz database keeps for an old name is shown as Babel shows the zone it is
    now (America/Montreal keeps Toronto's clock, and Babel names it Toronto):

    >>> zone_place("America/Montreal", "fr")
    'Toronto (Canada)'
    """
    locale = Locale.parse(lang)
    city = str(get_timezone_location(name, locale=locale, return_city=True))
    canonical = get_global("zone_aliases").get(name, name)
    territory = get_global("zone_territories").get(canonical)
    country = locale.territories.get(territory) if territory and territory not in _NO_COUNTRY else None
    return f"{city} ({country})" if country and country != city else city


def zone_place_here(name: str | None) -> str:
    """:func:`zone_place` in the language of this request (templates' ``zone_place``)."""
    return zone_place(name or DEFAULT_TIME_ZONE, current_lang())


@cache
def listed_zones() -> dict[str, str]:
    """The id under which each known zone is listed: itself, or for an id the tz
    database keeps for an old name (Asia/Calcutta, US/Eastern), the zone it leads to as
    Babel names it (Asia/Kolkata, America/New_York), so that every zone is listed once.

    >>> zones = listed_zones()
    >>> zones["Europe/Paris"], zones["US/Eastern"], zones["America/Montreal"]
    ('Europe/Paris', 'America/New_York', 'America/Toronto')
    """
    known = known_zones()
    aliases = get_global("zone_aliases")
    by_zone: dict[str, str] = {}
    for n in sorted(known):
        canonical = aliases.get(n, n)
        if canonical not in by_zone or n == canonical:
            by_zone[canonical] = n
    return {n: by_zone[aliases.get(n, n)] for n in known}


@cache
def zone_choices(lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The zones as a select lists them, each by its place in ``lang``
    (:func:`zone_place`), sorted as a French reader sorts: the common ones first, then
    every zone once (:func:`listed_zones`)."""
    known = known_zones()
    common = [(n, zone_place(n, lang)) for n in COMMON_ZONES if n in known]
    every = [(n, zone_place(n, lang)) for n in sorted(set(listed_zones().values()))]
    return [
        ("common", sorted_names(common, key=lambda choice: choice[1])),
        ("all", sorted_names(every, key=lambda choice: choice[1])),
    ]


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


# ---------------------------------------------------------------------- the evening's clock
#
# How long things took (issue 27): rounds say when they were played (``Round.started_at``,
# ``Round.ended_at``, written by companion.games.rounds), games when they started
# (``Game.created_at``). A game ends with its last round's end (or, without one, when it
# was finished); a round lasts from its start to its end. Pages read these stored
# columns in the queries they already run, or in one more of a fixed count.


def seconds_of(length: timedelta | float | int) -> float:
    """A length as seconds (a ``timedelta`` or a number of seconds).

    >>> seconds_of(timedelta(minutes=2)), seconds_of(90)
    (120.0, 90.0)
    """
    return length.total_seconds() if isinstance(length, timedelta) else float(length)


def duration_text(length: timedelta | float | int) -> str:
    """A length as the table says it, to the nearest minute: « 1 h 12 », « 2 h »,
    « 6 min », « moins d’une minute » (English: « 1 h 12 », « 6 min », « under a
    minute »), a non-breaking space between a number and its unit. A negative length
    (clocks put back) is said as none.

    >>> [duration_text(s) for s in (0, 59.6, 60, 89, 90, 359, 509.9999)]
    ['under a minute', '1\\xa0min', '1\\xa0min', '1\\xa0min', '2\\xa0min', '6\\xa0min', '9\\xa0min']
    >>> [duration_text(s) for s in (3599, 3600, 4320, 7260)]
    ['1\\xa0h', '1\\xa0h', '1\\xa0h\\xa012', '2\\xa0h\\xa001']
    >>> duration_text(timedelta(hours=25, minutes=3))
    '25\\xa0h\\xa003'
    """
    seconds = max(0, round(seconds_of(length)))  # (a sum of SQLite's julianday is a hair off)
    if seconds < 60:
        return _("under a minute")
    minutes = (seconds + 30) // 60
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return _("%(minutes)d\u00a0min", minutes=minutes)
    if not minutes:
        return _("%(hours)d\u00a0h", hours=hours)
    return _("%(hours)d\u00a0h\u00a0%(minutes)02d", hours=hours, minutes=minutes)


def length_between(start: datetime | None, end: datetime | None) -> timedelta | None:
    """How long from ``start`` to ``end`` (stored times, naive or aware alike); None
    when either is unknown.

    >>> length_between(datetime(2026, 3, 6, 21, 4), datetime(2026, 3, 6, 22, 16, tzinfo=UTC))
    datetime.timedelta(seconds=4320)
    >>> length_between(None, datetime(2026, 3, 6, 22, 16)) is None
    True
    """
    if start is None or end is None:
        return None
    return aware(end) - aware(start)


def game_end(last_round_end: datetime | None, finished_at: datetime | None) -> datetime | None:
    """When a game's play stopped: its last round's end; without a round ended, when it
    was finished (None: nothing played yet). A game finished with the button long after
    its last round (the next morning) did not last until then.

    >>> game_end(datetime(2026, 3, 6, 22, 16), datetime(2026, 3, 7, 9, 0)).hour
    22
    >>> game_end(None, datetime(2026, 3, 7, 9, 0)).hour, game_end(None, None)
    (9, None)
    """
    return last_round_end if last_round_end is not None else finished_at


class seconds_between(FunctionElement[float]):
    """SQL: the seconds from one stored time to another (``seconds_between(a, b)`` is
    b − a), on SQLite (``julianday``) and PostgreSQL (``EXTRACT(EPOCH …)``) alike: what
    an aggregate of lengths sums."""

    type = sa.Float()
    name = "seconds_between"
    inherit_cache = True


@compiles(seconds_between)
def _seconds_between(element: seconds_between, compiler: Any, **kw: Any) -> str:
    start, end = (compiler.process(arg, **kw) for arg in element.clauses)
    return f"EXTRACT(EPOCH FROM ({end} - {start}))"


@compiles(seconds_between, "sqlite")
def _seconds_between_sqlite(element: seconds_between, compiler: Any, **kw: Any) -> str:
    start, end = (compiler.process(arg, **kw) for arg in element.clauses)
    return f"((julianday({end}) - julianday({start})) * 86400.0)"


def last_round_end(game_id: Any) -> sa.ScalarSelect[Any]:
    """SQL: the end of the last round ended of the game ``game_id`` (a column or a value)."""
    return sa.select(sa.func.max(Round.ended_at)).where(Round.game_id == game_id).scalar_subquery()


def round_seconds() -> sa.ColumnElement[float]:
    """SQL: a round's length in seconds (NULL while it has not ended)."""
    return seconds_between(Round.started_at, Round.ended_at)


@dataclass(frozen=True)
class GameClock:
    """What a game page says of its time: when the game started, when its play stopped
    (its last round's end, or when it was finished; None before), and its rounds ended
    with their total length (``round_seconds``, over ``rounds_timed``)."""

    started: datetime
    ended: datetime | None
    rounds_timed: int = 0
    round_seconds: float = 0.0

    @property
    def length(self) -> timedelta | None:
        """From the start to the last round's end (so far, while it goes on)."""
        return length_between(self.started, self.ended)

    @property
    def average_round(self) -> timedelta | None:
        """A round's average length (None before a round ended).

        >>> GameClock(datetime(2026, 3, 6, 21), None, 3, 1080.0).average_round
        datetime.timedelta(seconds=360)
        """
        return timedelta(seconds=self.round_seconds / self.rounds_timed) if self.rounds_timed else None


def game_clock(game: Any, kind: Any) -> GameClock:
    """The clock of ``game`` (a ``Game`` or a kept page's ``GameShown``: only its id is
    read) of kind ``kind``, in one aggregate query of its rounds, whatever their number.
    A card draw (« le tirage ») is no round played: it is not in the average (its end
    is when play began). Templates' ``game_clock``: called inside the game page's kept
    part, so that a kept page does not run it."""
    first = 2 if kind.draws_first(game) else 1
    timed = sa.and_(Round.started_at.is_not(None), Round.ended_at.is_not(None))
    row = db.session.execute(
        sa.select(
            Game.created_at,
            Game.finished_at,
            sa.func.max(Round.ended_at),
            sa.func.count(sa.case((timed, Round.id))),
            sa.func.coalesce(sa.func.sum(sa.case((timed, round_seconds()))), 0.0),
        )
        .select_from(Game)
        .outerjoin(Round, sa.and_(Round.game_id == Game.id, Round.number >= first))
        .where(Game.id == game.id)
        .group_by(Game.id, Game.created_at, Game.finished_at)
    ).one()
    started, finished_at, last_end, timed_count, total = row
    return GameClock(started, game_end(last_end, finished_at), int(timed_count or 0), float(total or 0.0))
