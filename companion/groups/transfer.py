"""A group's data in and out: CSV and JSON exports, and importing a JSON export as a
new group.

**Exports** (members of the group only) cover the whole group or one season:

- CSV, for a spreadsheet: one row per player per round (season, game, kind, the
  game's evening — its game night on the group's clock, as the recap dates it —,
  round, player, the round's figure for that player, the total after it, the final
  place once the game is finished, the round's time on the group's clock with its
  offset). Written for French spreadsheets: UTF-8 with a
  byte order mark (so that accents survive), ``;`` between fields (the comma is the
  French decimal separator), CRLF line ends, ISO dates, and the headers in the page's
  language. A text cell that a spreadsheet would read as a formula (``=``, ``+``,
  ``-``, ``@``) is prefixed with ``'``.
- JSON (:data:`FORMAT`, version :data:`VERSION`): everything needed to rebuild the
  group: its name and time zone, players, seasons (and which is current), games (kind,
  house rules, setup, status, timestamps in UTC, version, outcome, seats) with their
  rounds (number, entry, result, time) and their history. Players are named by their id, as the
  stored states name them. Never a device, a token or a passphrase.

**Importing** a JSON export creates a new group (new code, the passphrase given on the
form) with the same players, seasons, games, rounds and history, and joins this
device to it, in one transaction. The file is refused, with a sentence saying why,
and nothing is created, when it is:

- too large (more than :data:`MAX_IMPORT_BYTES`), not UTF-8 JSON, or holds a key
  twice, text a database cannot keep (NUL, control characters, lone surrogates) or
  nesting deeper than :data:`MAX_DEPTH`;
- foreign: not a Companion export (its ``format``), or of another ``version``;
- of the wrong shape (:data:`SCHEMA`), or inconsistent: a game seating someone who is
  not a player of the file, rounds not numbered 1 to n, a status that its rounds and
  outcome contradict, two players of one name…;
- tampered: every game is replayed from its kind's initial state, each round's entry
  scored by the engine (:meth:`GameKind.score`) and compared with the stored result;
  the first round that does not follow is named.

Refused tries still count as group creations for the throttle (a file is costly to
check), which is recorded and committed before the file is read.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired
from jsonschema import Draft202012Validator
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response
from wtforms import SubmitField

from companion.clock import local_iso, night_of, valid_zone
from companion.collation import sorted_names
from companion.extensions import csrf, db
from companion.forms import plain_int, storable
from companion.games.forms import MAX_ROUNDS, MAX_SEATS
from companion.games.kinds import KINDS, kind_name
from companion.games.kinds.base import GameKind, State
from companion.groups import bp
from companion.groups.access import group_for
from companion.groups.access import join as join_group
from companion.groups.forms import GroupForm
from companion.groups.throttle import before_create
from companion.i18n import format_day, ngettext
from companion.i18n import gettext as _
from companion.models import (
    DEFAULT_TIME_ZONE,
    NAME_MAX,
    Game,
    GameChange,
    GamePlayer,
    GameStatus,
    Group,
    Player,
    Round,
    Season,
    clean_name,
    name_key,
    visible,
)
from companion.rules import crapouille, whist_tarot
from companion.rules.president import Rules
from companion.rules.president_outcome import exchange_schedule
from companion.writes import commit_once, done_before, remember

#: What a Companion export says it is, and the version of its layout this code writes and reads.
FORMAT = "companion-group"
VERSION = 1
#: The largest file an import reads: 8 MiB, some 7,000 rounds of Président (the
#: largest states, 1.2 kB each) or 15,000 of la crapouille, years of evenings. Checking
#: a full file takes some seconds (every round is scored again).
MAX_IMPORT_BYTES = 8 * 1024 * 1024
#: Room for the form's other fields around the file in the request.
_FORM_ROOM = 64 * 1024
#: The deepest nesting of objects and lists a file may have (a stored state has 4).
MAX_DEPTH = 32
#: How far in the future a timestamp may be (clocks of two servers differ).
_CLOCK_SKEW = timedelta(days=1)
_ID = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
_TEXT = {"type": "string", "maxLength": 200}
_WHEN = {"type": "string", "maxLength": 40}
_OBJECT = {"type": "object"}

#: The layout of a JSON export (version 1). Unknown fields are ignored.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "version", "group", "players", "seasons", "games"],
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "scope": {"enum": ["group", "season"]},
        "exported_at": _WHEN,
        "group": {
            "type": "object",
            "required": ["name"],
            "properties": {"name": _TEXT, "time_zone": {"type": "string", "maxLength": 64}},
        },
        "players": {
            "type": "array",
            "maxItems": 1000,
            "items": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": _ID, "name": _TEXT, "created_at": _WHEN},
            },
        },
        "seasons": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1000,
            "items": {
                "type": "object",
                "required": ["id", "name", "starts_on", "is_current"],
                "properties": {
                    "id": _ID,
                    "name": _TEXT,
                    "starts_on": {"type": "string", "maxLength": 10},
                    "is_current": {"type": "boolean"},
                    "created_at": _WHEN,
                },
            },
        },
        "games": {
            "type": "array",
            "maxItems": 20000,
            "items": {
                "type": "object",
                "required": ["id", "season", "kind", "rules", "setup", "status", "version", "seats", "rounds"],
                "properties": {
                    "id": _ID,
                    "season": _ID,
                    "kind": {"type": "string", "maxLength": 20},
                    "rules": _OBJECT,
                    "setup": _OBJECT,
                    "status": {"enum": [s.value for s in GameStatus]},
                    "created_at": _WHEN,
                    "updated_at": _WHEN,
                    "finished_at": {"type": ["string", "null"], "maxLength": 40},
                    "version": {"type": "integer", "minimum": 0, "maximum": 10**9},
                    "outcome": {"type": ["object", "null"]},
                    "seats": {"type": "array", "minItems": 2, "maxItems": MAX_SEATS, "items": _ID},
                    "rounds": {
                        "type": "array",
                        "maxItems": MAX_ROUNDS,
                        "items": {
                            "type": "object",
                            "required": ["number", "entry", "result"],
                            "properties": {
                                "number": {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS},
                                "entry": _OBJECT,
                                "result": _OBJECT,
                                "created_at": _WHEN,
                            },
                        },
                    },
                    "changes": {
                        "type": "array",
                        "maxItems": 10 * MAX_ROUNDS,
                        "items": {
                            "type": "object",
                            "required": ["kind", "version"],
                            "properties": {
                                "at": _WHEN,
                                "kind": {"type": "string", "pattern": "^[a-z_]{1,20}$"},
                                "round": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_ROUNDS},
                                "data": {"type": ["object", "null"]},
                                "version": {"type": "integer", "minimum": 0, "maximum": 10**9},
                            },
                        },
                    },
                },
            },
        },
    },
}
_VALIDATOR = Draft202012Validator(SCHEMA)

#: Where each kind keeps a round's figure for a player and the total after it (CSV).
_FIGURES = {"whist-tarot": ("losses", "stakes")}
_DEFAULT_FIGURES = ("points", "totals")


# ----------------------------------------------------------------- helpers


def _iso(moment: datetime | None) -> str | None:
    """A stored time as ISO 8601 in UTC (SQLite gives it back without its zone)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def slug(text: str, default: str) -> str:
    """``text`` as a piece of a file name: ASCII letters, digits and dashes.

    >>> slug("Les Amis d’Éloïse", "x"), slug("♠♠", "group")
    ('les-amis-d-eloise', 'group')
    """
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c if unicodedata.category(c)[0] in "LNM" else " " for c in decomposed)
    ascii_text = kept.encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40].strip("-")
    return cleaned or default


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula.

    >>> _cell("=1+1"), _cell("Ann")
    ("'=1+1", 'Ann')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def final_places(kind: str, state: State) -> dict[str, int]:
    """Each player's place at the end of a game, from its last stored state (ties share).

    La crapouille ranks itself (``places``); whist ranks by stake left; Président and
    Piketty by points when counted, else by the final titles.
    """
    if kind == "crapouille":
        return {str(p): int(v) for p, v in (state.get("places") or {}).items()}
    if kind == "whist-tarot":
        stakes = state.get("stakes") or {}
        return {p: 1 + sum(1 for q in stakes.values() if q > v) for p, v in stakes.items()}
    totals = state.get("totals") or {}
    if totals:
        return {p: 1 + sum(1 for q in totals.values() if q > v) for p, v in totals.items()}
    return {p: i + 1 for i, p in enumerate(state.get("hierarchy") or [])}


@dataclass
class _Export:
    """What an export reads, in a fixed number of queries."""

    group: Group
    season: Season | None
    players: list[Player]
    seasons: list[Season]
    games: list[Game]
    rounds: dict[int, list[Round]]
    changes: dict[int, list[GameChange]]


def _load(group: Group, season: Season | None, with_changes: bool) -> _Export:
    players = list(db.session.scalars(sa.select(Player).where(Player.group_id == group.id).order_by(Player.id)))
    season_query = sa.select(Season).where(Season.group_id == group.id)
    if season is not None:
        season_query = season_query.where(Season.id == season.id)
    seasons = list(db.session.scalars(season_query.order_by(Season.starts_on, Season.id)))
    season_ids = [s.id for s in seasons]
    games = list(
        db.session.scalars(
            sa.select(Game)
            .where(Game.season_id.in_(season_ids))
            .options(so.selectinload(Game.seats))
            .order_by(Game.created_at, Game.id)
        )
    )
    game_ids = sa.select(Game.id).where(Game.season_id.in_(season_ids))
    rounds: dict[int, list[Round]] = {}
    # lazyload: a round's device is never exported (and need not be joined).
    round_query = sa.select(Round).options(so.lazyload(Round.device)).where(Round.game_id.in_(game_ids))
    for rnd in db.session.scalars(round_query.order_by(Round.game_id, Round.number)):
        rounds.setdefault(rnd.game_id, []).append(rnd)
    changes: dict[int, list[GameChange]] = {}
    if with_changes:
        change_query = (
            sa.select(GameChange).options(so.lazyload(GameChange.device)).where(GameChange.game_id.in_(game_ids))
        )
        for change in db.session.scalars(change_query.order_by(GameChange.game_id, GameChange.id)):
            changes.setdefault(change.game_id, []).append(change)
    return _Export(group, season, players, seasons, games, rounds, changes)


def _without_device(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """A change's data without the device a deleted round was entered from."""
    if data is None:
        return None
    return {k: v for k, v in data.items() if k != "device_id"}


def export_document(group: Group, season: Season | None = None) -> dict[str, Any]:
    """The JSON export of ``group`` (or of one of its seasons): see :data:`SCHEMA`."""
    loaded = _load(group, season, with_changes=True)
    return {
        "format": FORMAT,
        "version": VERSION,
        "scope": "season" if season is not None else "group",
        "exported_at": _iso(datetime.now(UTC)),
        "group": {"name": group.name, "time_zone": group.time_zone},
        "players": [
            {"id": p.id, "name": p.name, "created_at": _iso(p.created_at)}
            for p in sorted_names(loaded.players, key=lambda p: p.name)
        ],
        "seasons": [
            {
                "id": s.id,
                "name": s.name,
                "starts_on": s.starts_on.isoformat(),
                "is_current": bool(s.is_current),
                "created_at": _iso(s.created_at),
            }
            for s in loaded.seasons
        ],
        "games": [
            {
                "id": g.id,
                "season": g.season_id,
                "kind": g.kind,
                "rules": g.rules or {},
                "setup": g.setup or {},
                "status": g.status.value,
                "created_at": _iso(g.created_at),
                "updated_at": _iso(g.updated_at),
                "finished_at": _iso(g.finished_at),
                "version": g.version,
                "outcome": g.outcome,
                "seats": [seat.player_id for seat in g.seats],
                "rounds": [
                    {"number": r.number, "entry": r.entry, "result": r.result, "created_at": _iso(r.created_at)}
                    for r in loaded.rounds.get(g.id, [])
                ],
                "changes": [
                    {
                        "at": _iso(c.at),
                        "kind": c.kind,
                        "round": c.round_number,
                        "data": _without_device(c.data),
                        "version": c.version,
                    }
                    for c in loaded.changes.get(g.id, [])
                ],
            }
            for g in loaded.games
        ],
    }


def csv_rows(group: Group, season: Season | None = None) -> Iterator[list[str]]:
    """The CSV export's rows, headers first: one row per player per round."""
    loaded = _load(group, season, with_changes=False)
    names = {p.id: p.name for p in loaded.players}
    season_names = {s.id: s.name for s in loaded.seasons}
    yield [
        _("Season"),
        _("Game"),
        _("Game kind"),
        _("Evening"),
        _("Round number"),
        _("Player"),
        _("Round score"),
        _("Total after"),
        _("Final place"),
        _("Entered at"),
    ]
    for game in loaded.games:
        rounds = loaded.rounds.get(game.id, [])
        figure_key, total_key = _FIGURES.get(game.kind, _DEFAULT_FIGURES)
        places = final_places(game.kind, rounds[-1].result) if rounds and game.status is GameStatus.FINISHED else {}
        # The game's evening (one definition: the recap's day) and each round's time, on
        # the group's clock with its offset (« 2026-03-29T01:30:00+01:00 »).
        day = night_of(game.created_at, group.time_zone).isoformat()
        for rnd in rounds:
            entered = local_iso(rnd.created_at, group.time_zone, seconds=True) or ""
            figures = rnd.result.get(figure_key) or {}
            totals = rnd.result.get(total_key) or {}
            for seat in game.seats:
                key = str(seat.player_id)
                yield [
                    _cell(season_names.get(game.season_id, "")),
                    str(game.id),
                    _cell(kind_name(game.kind)),
                    day,
                    str(rnd.number),
                    _cell(names.get(seat.player_id, key)),
                    str(figures[key]) if key in figures else "",
                    str(totals[key]) if key in totals else "",
                    str(places[key]) if key in places else "",
                    entered,
                ]


def export_csv_text(group: Group, season: Season | None = None) -> str:
    """The CSV export as text: byte order mark, ``;`` separators, CRLF line ends."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerows(csv_rows(group, season))
    return out.getvalue()


def _season_of(group: Group) -> Season | None:
    """The season named by ``?season=`` (404 when it is not the group's), else None."""
    raw = request.args.get("season")
    if raw is None:
        return None
    season_id = plain_int(raw, 1, 2**31 - 1)
    if season_id is None:
        abort(404)
    return db.first_or_404(sa.select(Season).where(Season.id == season_id, Season.group_id == group.id))  # type: ignore[no-any-return]


def _download(body: str | bytes, mimetype: str, group: Group, season: Season | None, ext: str) -> Response:
    parts = ["companion", slug(group.name, group.code.lower())]
    if season is not None:
        parts.append(slug(season.name, f"season-{season.id}"))
    parts.append(date.today().isoformat())
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{"-".join(parts)}.{ext}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


# ----------------------------------------------------------------- export routes


@bp.get("/g/<code>/export")
def export_page(code: str) -> str:
    """The exports of the group: the whole group or a season, as CSV or JSON."""
    group = group_for(code)
    seasons = list(
        db.session.scalars(
            sa.select(Season).where(Season.group_id == group.id).order_by(Season.starts_on.desc(), Season.id.desc())
        )
    )
    return render_template("groups/export.html", group=group, seasons=seasons)


@bp.get("/g/<code>/export.csv")
def export_csv(code: str) -> Response:
    """The group (or ``?season=<id>``) as CSV, one row per player per round."""
    group = group_for(code)
    season = _season_of(group)
    return _download(export_csv_text(group, season), "text/csv", group, season, "csv")


@bp.get("/g/<code>/export.json")
def export_json(code: str) -> Response:
    """The group (or ``?season=<id>``) as JSON, everything needed to rebuild it."""
    group = group_for(code)
    season = _season_of(group)
    body = json.dumps(export_document(group, season), ensure_ascii=False, separators=(",", ":"))
    return _download(body, "application/json", group, season, "json")


# ----------------------------------------------------------------- reading a file


class Refused(Exception):
    """A file refused by the import, with the sentence that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _Object(dict[str, Any]):
    """A JSON object as parsed, remembering the first key given twice."""

    __slots__ = ("duplicate",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.duplicate: str | None = None
        for key, value in pairs:
            if key in self and self.duplicate is None:
                self.duplicate = key
            self[key] = value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _path(parts: list[str | int]) -> str:
    """``["games", 2, "rounds", 0]`` → ``games[2].rounds[0]``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "/"


def _malformed(where: str) -> Refused:
    return Refused(_("This file is not a well-formed Companion export: %(where)s is not as expected.", where=where))


def _check_text(value: Any) -> None:
    """Refuse a key given twice, text a database cannot keep, or nesting too deep."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        item, where = stack.pop()
        if len(where) > MAX_DEPTH:
            raise _malformed(_path(where[:MAX_DEPTH]))
        if isinstance(item, str):
            if not storable(item):
                raise Refused(_("This file holds a character that cannot be kept, at %(where)s.", where=_path(where)))
        elif isinstance(item, dict):
            for key in item:
                if not storable(key):
                    raise Refused(
                        _("This file holds a character that cannot be kept, at %(where)s.", where=_path(where))
                    )
            duplicate = getattr(item, "duplicate", None)
            if duplicate is not None:
                raise _malformed(_path([*where, duplicate]))
            stack.extend((inner, [*where, key]) for key, inner in item.items())
        elif isinstance(item, list):
            stack.extend((inner, [*where, i]) for i, inner in enumerate(item))


def parse_file(data: bytes) -> dict[str, Any]:
    """The JSON document of an export file, checked for its marker, its text and its
    shape; :class:`Refused` otherwise."""
    if len(data) > MAX_IMPORT_BYTES:
        raise Refused(_too_big())
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(_("This file is not a Companion export: it is not JSON text (UTF-8).")) from None
    try:
        document = json.loads(text, object_pairs_hook=_Object, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Refused(_("This file is not a Companion export: it is not valid JSON.")) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Refused(_("This file is not a Companion group export."))
    if document.get("version") != VERSION:
        raise Refused(
            _(
                "This export was made by another version of Companion (format %(found)s); "
                "this one reads format %(version)d.",
                found=json.dumps(document.get("version"))[:20],
                version=VERSION,
            )
        )
    _check_text(document)
    error = next(iter(_VALIDATOR.iter_errors(document)), None)
    if error is not None:
        raise _malformed(_path(list(error.absolute_path)))
    return document


def _wait_message(seconds: int) -> str:
    """As the group creation page says it (the same sentences)."""
    if seconds >= 90:
        return _("Too many tries. Try again in %(minutes)d minutes.", minutes=(seconds + 59) // 60)
    return ngettext(
        "Too many tries. Try again in %(num)d second.", "Too many tries. Try again in %(num)d seconds.", seconds
    )


def _too_big() -> str:
    return _(
        "This file is too large: an export holds at most %(size)d MB.",
        size=MAX_IMPORT_BYTES // (1024 * 1024),
    )


# ----------------------------------------------------------------- checking a file


@dataclass
class _Game:
    """A game of the file, checked: what will be written."""

    data: dict[str, Any]
    kind: GameKind
    created_at: datetime | None
    updated_at: datetime | None
    finished_at: datetime | None
    round_times: list[datetime | None] = field(default_factory=list)
    change_times: list[datetime | None] = field(default_factory=list)


@dataclass
class Plan:
    """A file checked from end to end: the group it describes, ready to be written."""

    players: list[tuple[int, str, datetime | None]]
    seasons: list[tuple[int, str, date, bool, datetime | None]]
    games: list[_Game]
    #: The group's clock (the file's, or the default zone for a file without one).
    time_zone: str = DEFAULT_TIME_ZONE


def _when(value: Any, where: str, now: datetime) -> datetime | None:
    """A timestamp of the file (UTC when it says no zone), or None when absent."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _malformed(where) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    if moment > now + _CLOCK_SKEW or moment.year < 2000:
        raise _malformed(where)
    return moment


def _name(value: str, where: str) -> str:
    name = clean_name(value)
    if not name or len(name) > NAME_MAX or not visible(name):
        raise _malformed(where)
    return name


def _canonical(value: Any) -> str:
    """A state as compared: the same JSON text for the same state."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _game_label(data: dict[str, Any], created_at: datetime | None) -> str:
    day = format_day(created_at.date()) if created_at is not None else "?"
    return _("game %(id)d (%(kind)s, %(day)s)", id=data["id"], kind=kind_name(data["kind"]), day=day)


def _time_zone(value: Any) -> str:
    """The file's time zone: a name of the IANA database (the default zone when the file
    names none, as files written before groups had one)."""
    if value is None:
        return DEFAULT_TIME_ZONE
    if not valid_zone(value):
        raise Refused(_("The time zone of this file, %(zone)s, is not one this server knows.", zone=value))
    return str(value)


def check_document(document: dict[str, Any]) -> Plan:
    """Check a parsed export from end to end (:func:`parse_file` first): names,
    references, numbering, statuses, and every round rescored by the engine.
    :class:`Refused` names the first problem."""
    now = datetime.now(UTC)
    players: list[tuple[int, str, datetime | None]] = []
    keys: set[str] = set()
    ids: set[int] = set()
    for i, p in enumerate(document["players"]):
        where = f"players[{i}]"
        name = _name(p["name"], where + ".name")
        if p["id"] in ids:
            raise _malformed(where + ".id")
        if name_key(name) in keys:
            raise Refused(_("Two players of this file have the same name: %(name)s.", name=name))
        ids.add(p["id"])
        keys.add(name_key(name))
        players.append((p["id"], name, _when(p.get("created_at"), where + ".created_at", now)))
    by_id = {pid: name for pid, name, _at in players}

    seasons: list[tuple[int, str, date, bool, datetime | None]] = []
    keys, season_ids = set(), set()
    for i, s in enumerate(document["seasons"]):
        where = f"seasons[{i}]"
        name = _name(s["name"], where + ".name")
        try:
            starts_on = date.fromisoformat(s["starts_on"])
        except ValueError:
            raise _malformed(where + ".starts_on") from None
        if not 2000 <= starts_on.year <= now.year + 1:
            raise _malformed(where + ".starts_on")
        if s["id"] in season_ids or name_key(name) in keys:
            raise Refused(_("Two seasons of this file have the same name: %(name)s.", name=name))
        season_ids.add(s["id"])
        keys.add(name_key(name))
        seasons.append((s["id"], name, starts_on, s["is_current"], _when(s.get("created_at"), where, now)))
    if sum(1 for s in seasons if s[3]) > 1:
        raise _malformed("seasons[].is_current")

    games: list[_Game] = []
    game_ids: set[int] = set()
    for i, g in enumerate(document["games"]):
        where = f"games[{i}]"
        kind = KINDS.get(g["kind"])
        if kind is None:
            raise Refused(_("This file holds a kind of game this version does not know: %(kind)s.", kind=g["kind"]))
        if g["id"] in game_ids:
            raise _malformed(where + ".id")
        game_ids.add(g["id"])
        if g["season"] not in season_ids:
            raise _malformed(where + ".season")
        seats = g["seats"]
        if len(set(seats)) != len(seats) or any(p not in by_id for p in seats):
            raise _malformed(where + ".seats")
        checked = _Game(
            data=g,
            kind=kind,
            created_at=_when(g.get("created_at"), where + ".created_at", now),
            updated_at=_when(g.get("updated_at"), where + ".updated_at", now),
            finished_at=_when(g.get("finished_at"), where + ".finished_at", now),
        )
        for j, r in enumerate(g["rounds"]):
            if r["number"] != j + 1:
                raise Refused(
                    _(
                        "In %(game)s, the rounds are not numbered from 1 to %(n)d.",
                        game=_game_label(g, checked.created_at),
                        n=len(g["rounds"]),
                    )
                )
            checked.round_times.append(_when(r.get("created_at"), f"{where}.rounds[{j}].created_at", now))
        versions = [c["version"] for c in g.get("changes") or []]
        if any(b < a for a, b in pairwise(versions)) or any(v > g["version"] for v in versions):
            raise _malformed(where + ".changes")
        for j, c in enumerate(g.get("changes") or []):
            checked.change_times.append(_when(c.get("at"), f"{where}.changes[{j}].at", now))
        _replay(checked, by_id)
        games.append(checked)
    return Plan(players, seasons, games, _time_zone(document["group"].get("time_zone")))


def _transient_game(g: dict[str, Any], by_id: dict[int, str]) -> Game:
    """A game as the kinds see it, outside any session (players by the file's ids)."""
    game = Game(kind=g["kind"], rules=g["rules"], setup=g["setup"], version=g["version"])
    game.seats = [GamePlayer(seat=i, player=Player(id=pid, name=by_id[pid])) for i, pid in enumerate(g["seats"])]
    return game


def _seats_fit(game: Game) -> None:
    """The engine's limits on the players of a game, as its new-game form asks them
    (:class:`RulesError` otherwise)."""
    ids = [str(p.id) for p in game.players]
    if game.kind == "whist-tarot":
        whist_tarot.check_players(ids)
    elif game.kind in ("president", "piketty"):
        rules = Rules.from_options(game.rules or {}, game.kind)
        rules.check_players(len(ids))
        exchange_schedule(rules, len(ids))
    else:
        crapouille.Scoresheet.start(ids)


def _replay(checked: _Game, by_id: dict[int, str]) -> None:
    """Score every round of a game from its kind's initial state and compare with what
    the file stores; then its status, outcome and undoable deletion against its states."""
    g, kind = checked.data, checked.kind
    label = _game_label(g, checked.created_at)
    game = _transient_game(g, by_id)

    def refused_round(number: int, reason: str) -> Refused:
        return Refused(
            _(
                "In %(game)s, %(the_round)s: %(reason)s Nothing was imported.",
                game=label,
                the_round=kind.the_round(number),
                reason=reason,
            )
        )

    try:
        _seats_fit(game)
        state = kind.initial_state(game)
    except Exception:  # house rules or seats the kind cannot start from: the file is not one of ours
        raise Refused(_("In %(game)s, the house rules or the seats are not possible.", game=label)) from None
    rounds = g["rounds"]
    for r in rounds:
        if r["number"] < len(rounds) and kind.pending(r["entry"]):
            raise refused_round(r["number"], _("only the last round may wait for its second step."))
        try:
            scored = kind.score(game, state, r["entry"])
        except Exception:  # the engine refuses it, or it is not an entry at all
            raise refused_round(r["number"], _("what was entered cannot be scored.")) from None
        if _canonical(scored) != _canonical(r["result"]):
            raise refused_round(r["number"], _("the stored result does not follow from what was entered."))
        state = r["result"]

    status, outcome = g["status"], g.get("outcome")
    inconsistent = Refused(_("In %(game)s, the status does not match the rounds.", game=label))
    if status == GameStatus.FINISHED.value:
        if checked.finished_at is None or not isinstance(outcome, dict):
            raise inconsistent
        try:
            expected = kind.leaders(state) if outcome.get("early") else kind.winners(state)
        except Exception:
            raise inconsistent from None
        if (not outcome.get("early") and not kind.over(state)) or outcome.get("winners") != expected:
            raise inconsistent
    elif outcome is not None or checked.finished_at is not None:
        raise inconsistent

    # The last change, when it is a deletion nothing followed, can be undone: the round
    # it keeps must be the next one and follow from the state before it.
    changes = g.get("changes") or []
    last = changes[-1] if changes else None
    if last is not None and last["kind"] == "round_deleted" and last["version"] == g["version"]:
        kept = last.get("data") or {}
        number = last.get("round")
        try:
            ok = (
                number == len(rounds) + 1
                and isinstance(kept.get("entry"), dict)
                and _canonical(kind.score(game, state, kept["entry"])) == _canonical(kept.get("result"))
            )
        except Exception:
            ok = False
        if not ok:
            raise refused_round(
                int(number) if isinstance(number, int) else len(rounds) + 1,
                _("the deleted round kept for an undo does not follow from the rounds before it."),
            )


# ----------------------------------------------------------------- writing it


def _remap(value: Any, ids: dict[str, str]) -> Any:
    """``value`` with every player id of the file (a string, as states name players)
    replaced by the new player's id, in keys and values alike."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [_remap(v, ids) for v in value]
    if isinstance(value, dict):
        return {ids.get(k, k): _remap(v, ids) for k, v in value.items()}
    return value


def write_group(plan: Plan, name: str, passphrase: str) -> Group:
    """Create the group of ``plan`` (in the current transaction, not committed)."""
    code = Group.new_code()
    while db.session.scalar(sa.select(Group.id).where(Group.code == code)) is not None:
        code = Group.new_code()
    group = Group(code=code, name=name, time_zone=plan.time_zone)
    group.set_passphrase(passphrase)
    db.session.add(group)
    players: dict[int, Player] = {}
    # Created in the order they were added (the file lists them by name): ids keep that order.
    for old_id, player_name, created_at in sorted(plan.players, key=lambda p: p[0]):
        player = Player(created_at=created_at) if created_at else Player()
        player.rename(player_name)
        group.players.append(player)
        players[old_id] = player
    current = next((s[0] for s in plan.seasons if s[3]), None)
    if current is None:  # a past season exported alone: it becomes the group's current one
        current = max(plan.seasons, key=lambda s: (s[2], plan.seasons.index(s)))[0]
    seasons: dict[int, Season] = {}
    for old_id, season_name, starts_on, _current, created_at in plan.seasons:
        season = Season(starts_on=starts_on, is_current=old_id == current)
        if created_at:
            season.created_at = created_at
        season.rename(season_name)
        group.seasons.append(season)
        seasons[old_id] = season
    db.session.flush()
    ids = {str(old): str(player.id) for old, player in players.items()}

    games: list[tuple[Game, _Game]] = []
    for checked in plan.games:
        g = checked.data
        game = Game(
            season=seasons[g["season"]],
            kind=g["kind"],
            rules=_remap(g["rules"], ids),
            setup=_remap(g["setup"], ids),
            status=GameStatus(g["status"]),
            finished_at=checked.finished_at,
            version=g["version"],
            outcome=_remap(g.get("outcome"), ids),
        )
        if checked.created_at:
            game.created_at = checked.created_at
        game.updated_at = checked.updated_at or game.created_at or datetime.now(UTC)
        game.seats = [GamePlayer(seat=i, player=players[pid]) for i, pid in enumerate(g["seats"])]
        for r, created_at in zip(g["rounds"], checked.round_times, strict=True):
            rnd = Round(number=r["number"], entry=_remap(r["entry"], ids), result=_remap(r["result"], ids))
            if created_at:
                rnd.created_at = created_at
            game.rounds.append(rnd)
        db.session.add(game)
        games.append((game, checked))
    db.session.flush()
    # The history, in its order (ids grow with it), once the games have theirs.
    for game, checked in games:
        for c, at in zip(checked.data.get("changes") or [], checked.change_times, strict=True):
            change = GameChange(
                game_id=game.id,
                kind=c["kind"],
                round_number=c.get("round"),
                data=_remap(c.get("data"), ids),
                version=c["version"],
            )
            if at:
                change.at = at
            db.session.add(change)
    return group


# ----------------------------------------------------------------- the import page


class ImportForm(GroupForm):
    """Import a group from a JSON export: the file, and the new group's name and passphrase."""

    file = FileField(_l("Export file (JSON)"), validators=[FileRequired(_l("Choose the file to import."))])
    submit = SubmitField(_l("Import the group"))


def _render(form: ImportForm, status: int = 200, headers: dict[str, str] | None = None) -> ResponseReturnValue:
    page = render_template("groups/import.html", form=form, limit=MAX_IMPORT_BYTES // (1024 * 1024))
    return page, status, headers or {}


def _read_upload(form: ImportForm) -> bytes:
    stream = form.file.data.stream
    data = stream.read(MAX_IMPORT_BYTES + 1)
    if len(data) > MAX_IMPORT_BYTES:
        raise Refused(_too_big())
    return bytes(data)


@bp.route("/import", methods=["GET", "POST"])
@csrf.exempt  # checked below, once the request may be as large as a file
def import_group() -> ResponseReturnValue:
    """Import a group's JSON export as a new group (new code and passphrase), which
    this device joins. A file refused says why; nothing is created then."""
    if request.method == "POST":
        request.max_content_length = MAX_IMPORT_BYTES + _FORM_ROOM
    try:
        if request.method == "POST" and current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = ImportForm()
        earlier = form.is_submitted() and done_before(form.once.data)
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        form.file.errors = [_too_big()]
        return _render(form, 413)
    if earlier:
        return redirect(earlier)
    if not form.validate_on_submit():
        return _render(form)
    try:
        data = _read_upload(form)
    except Refused as e:
        form.file.errors = [e.message]
        return _render(form, 413)
    wait = before_create()
    if wait:
        db.session.rollback()
        form.name.errors = [_wait_message(wait)]
        return _render(form, 429, {"Retry-After": str(wait)})
    # The try counts whatever the file holds: checking a file costs.
    db.session.commit()
    try:
        plan = check_document(parse_file(data))
    except Refused as e:
        db.session.rollback()
        form.file.errors = [e.message]
        return _render(form, 400)
    token = form.once.data
    group = write_group(plan, form.name.data, form.passphrase.data)
    join_group(group, form.device_name.data or _("Device %(n)d", n=1))
    url = url_for("groups.show", code=group.code)
    remember(token, url)
    earlier = commit_once(token)
    if earlier is not None:
        return redirect(earlier)
    flash(_("Group imported. Share its code %(code)s and the passphrase with your friends.", code=group.code))
    return redirect(url)
