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
device to it. A file is a stranger: it is checked to its last field against what the
app itself writes, and nothing of it is stored that the app would not have written.
It is refused, with a sentence saying why (and where in the file), and nothing is
created, when it is:

- too large (more than :data:`MAX_IMPORT_BYTES`), not UTF-8 JSON, or holds a key
  twice, text a database cannot keep (NUL, control characters, lone surrogates), a
  number the app never writes (a fraction, ``1e400``, ``NaN``, a whole number of more
  than 15 digits) or nesting deeper than :data:`MAX_DEPTH`;
- foreign: not a Companion export (its ``format``), or of another ``version``;
- of the wrong shape (:data:`SCHEMA`), or inconsistent: rounds not numbered 1 to n, a
  status that its rounds and outcome contradict, two players of one name, a history
  out of order or holding a change the app does not record…;
- naming what it does not hold: every id is a reference inside the file (a seat, a
  season, a player named by a setup, an entry or the history) or the file is refused;
- set up as no new game is: each game's house rules and setup go through its kind's
  new-game form (:meth:`GameKind.setup_fields`, :meth:`GameKind.setup_form`: the
  validation a new game gets, the engine's limits included) and must be exactly
  what it gives;
- tampered: every game is replayed from its kind's initial state, each round's entry
  scored by the engine (:meth:`GameKind.score`) and compared with the stored result
  (an entry holding a key the engine does not read is refused); the first round that
  does not follow is named. What is stored is the engine's state, and the outcome the
  app writes.

What an export leaves out is absent after an import, whatever the file says: no
device (a deleted round kept for an undo comes back without one), token or passphrase.

**Speed.** The largest file (some 24,000 rounds) is read, checked and rescored, and
its rows made (every state serialized with the new players' ids), before the writers'
turn (:mod:`companion.config`: SQLite's queue of writers); then it is written as
multi-row inserts, a bounded part per transaction, its standings last
(:func:`write_group`), and the importing device joins it in the last transaction:
until then no one sees the group, and a failure part way removes it.
``benchmarks/import_big.py`` measures it and what it costs another group's writes.

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
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response
from wtforms import SubmitField

from companion.clock import local_iso, night_of, valid_zone
from companion.collation import sorted_names
from companion.extensions import csrf, db
from companion.forms import new_token, plain_int, storable
from companion.games import saving
from companion.games.forms import MAX_ROUNDS, MAX_SEATS
from companion.games.kinds import KINDS, kind_name, season_of
from companion.games.kinds.base import GameKind, State
from companion.groups import bp
from companion.groups.forms import GroupForm
from companion.groups.throttle import before_create, wait_message
from companion.i18n import current_lang, format_day
from companion.i18n import gettext as _
from companion.judge.compiled import compile_schema
from companion.membership.access import group_for
from companion.membership.access import join as join_group
from companion.models import (
    DEFAULT_TIME_ZONE,
    NAME_MAX,
    Game,
    GameChange,
    GamePlayer,
    GameResult,
    GameStatus,
    Group,
    Player,
    Round,
    Season,
    clean_name,
    name_key,
    visible,
)
from companion.rules.i18n import RulesError
from companion.writes import commit_once, done_before, read_first, remember, start_writing

#: What a Companion export says it is, and the version of its layout this code writes and reads.
FORMAT = "companion-group"
VERSION = 1
#: The largest file an import reads: 8 MiB, some 7,000 rounds of Président (the
#: largest states, 1.2 kB each) or 24,000 of la crapouille and whist at small tables.
#: Checking a full file takes a few seconds (every round is scored again):
#: ``benchmarks/import_big.py``.
MAX_IMPORT_BYTES = 8 * 1024 * 1024
#: Room for the form's other fields around the file in the request.
_FORM_ROOM = 64 * 1024
#: The deepest a list or object of a file may lie (the file itself is at 0): an export's
#: deepest is 8 (a title of a state a change of a game keeps:
#: ``games[0].changes[0].data.result.titles[0]``).
MAX_DEPTH = 12
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
#: The same verdict, compiled (jsonschema is slow on a large file): jsonschema then says where.
_VALID = compile_schema(SCHEMA)


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
    #: Each game's places as the stored results hold them (:mod:`companion.games.results`):
    #: ``{game: {player: place}}``.
    places: dict[int, dict[int, int]]


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
    places: dict[int, dict[int, int]] = {}
    place_query = sa.select(GameResult.game_id, GameResult.player_id, GameResult.place).where(
        GameResult.game_id.in_(game_ids), GameResult.place.is_not(None)
    )
    for game_id, player_id, place in db.session.execute(place_query):
        places.setdefault(game_id, {})[player_id] = place
    return _Export(group, season, players, seasons, games, rounds, changes, places)


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
        # Where the kind keeps a round's figure for a player and the total after it.
        figure_key, total_key = season_of(game.kind).csv_figures
        places = loaded.places.get(game.id, {}) if game.status is GameStatus.FINISHED else {}
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
                    str(places[seat.player_id]) if seat.player_id in places else "",
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
    """A JSON object as parsed, remembering the first key given twice (the slow parse,
    which says where a key is given twice)."""

    __slots__ = ("duplicate",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.duplicate: str | None = None
        for key, value in pairs:
            if key in self and self.duplicate is None:
                self.duplicate = key
            self[key] = value


class _Duplicate(Exception):
    """A key given twice: the fast parse stops there, and the slow one says where."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as parsed (the fast parse): a plain dict, unless a key is given twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Duplicate
    return obj


class _Number:
    """A number Companion never writes — a fraction, an exponent, ``NaN``, ``Infinity``,
    or a whole number of more than 15 digits (``1e400`` would be read as infinity, and a
    4,000-digit integer kept) —, held as its text until the check says where it is."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _int(text: str) -> int | _Number:
    """A whole number of the file: up to 15 digits (far above any id, version or score
    the app writes, and exact in every JSON reader), else refused by the check."""
    if len(text) <= 15 or (len(text) == 16 and text[0] == "-"):
        return int(text)
    return _Number(text)


def _loads(text: str, pairs: Any) -> Any:
    return json.loads(text, object_pairs_hook=pairs, parse_float=_Number, parse_int=_int, parse_constant=_Number)


def _path(parts: list[str | int]) -> str:
    """``["games", 2, "rounds", 0]`` → ``games[2].rounds[0]``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "/"


def _malformed(where: str) -> Refused:
    return Refused(_("This file is not a well-formed Companion export: %(where)s is not as expected.", where=where))


def _too_deep(where: str | None = None) -> Refused:
    if where is None:
        return Refused(_("This file nests its data deeper than an export does."))
    return Refused(_("This file nests its data deeper than an export does, at %(where)s.", where=where))


def _stranger(where: str) -> Refused:
    """An id that names no player of the file (a player of another group, or none)."""
    return Refused(_("This file names a player who is not in it, at %(where)s.", where=where))


#: What may hide a text a database cannot keep in a file's JSON text: an escaped control
#: character or surrogate, or a raw DEL (other control characters cannot stand raw in
#: JSON). A file without any is checked without looking at each of its texts.
_MAYBE_UNSTORABLE = re.compile(r"\\u00[01][0-9a-fA-F]|\\u007[fF]|\\u[dD][89a-fA-F]|\x7f")


def _suspect(document: dict[str, Any], texts: bool) -> bool:
    """Whether :func:`_check_values` must look (fast: no path kept): a list or object
    nested deeper than :data:`MAX_DEPTH`, a number Companion never writes, or, when
    ``texts``, a text a database cannot keep."""
    level: list[Any] = [document]
    depth = 0
    while level:
        if depth > MAX_DEPTH:
            return True
        below: list[Any] = []
        for item in level:
            if type(item) is dict:
                if texts and not all(storable(key) for key in item):
                    return True
                children = item.values()
            else:
                children = item
            for child in children:
                kind = type(child)
                if kind is dict or kind is list:
                    below.append(child)
                elif kind is _Number or (texts and kind is str and not storable(child)):
                    return True
        level = below
        depth += 1
    return False


def _check_values(value: Any) -> None:
    """Refuse, naming where, a key given twice, a text a database cannot keep, a number
    Companion never writes, or a list or object nested too deep."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if not storable(item):
                raise Refused(_("This file holds a character that cannot be kept, at %(where)s.", where=_path(where)))
        elif isinstance(item, _Number):
            shown = item.text if len(item.text) <= 20 else item.text[:20] + "…"
            raise Refused(
                _(
                    "This file holds a number that Companion never writes (%(number)s), at %(where)s.",
                    number=shown,
                    where=_path(where),
                )
            )
        elif isinstance(item, dict | list) and len(where) > MAX_DEPTH:
            raise _too_deep(_path(where))
        elif isinstance(item, dict):
            for key in item:
                if not storable(key):
                    raise Refused(
                        _("This file holds a character that cannot be kept, at %(where)s.", where=_path(where))
                    )
            duplicate = getattr(item, "duplicate", None)
            if duplicate is not None:
                raise _malformed(_path([*where, duplicate]))
            stack.extend((inner, [*where, key]) for key, inner in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((inner, [*where, i]) for i, inner in reversed(list(enumerate(item))))


def _shown(value: Any) -> str:
    """A value of the file, briefly, as JSON (a number it should not hold as its text)."""
    return json.dumps(value, default=lambda v: getattr(v, "text", None))[:20]


def parse_file(data: bytes) -> dict[str, Any]:
    """The JSON document of an export file, checked for its marker, its text, its
    numbers, its depth and its shape; :class:`Refused` otherwise.

    Fast for a sound file (the largest in about a second): parsed into plain dicts, its
    texts looked at only when the file escapes a character that may be refused, its
    shape checked by a compiled test; a file found wrong is looked at again, slowly, to
    say where."""
    if len(data) > MAX_IMPORT_BYTES:
        raise Refused(_too_big())
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(_("This file is not a Companion export: it is not JSON text (UTF-8).")) from None
    slow = False
    try:
        try:
            document = _loads(text, _pairs)
        except _Duplicate:
            document, slow = _loads(text, _Object), True  # to say where
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        raise Refused(_("This file is not a Companion export: it is not valid JSON.")) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Refused(_("This file is not a Companion group export."))
    if document.get("version") != VERSION:
        raise Refused(
            _(
                "This export was made by another version of Companion (format %(found)s); "
                "this one reads format %(version)d.",
                found=_shown(document.get("version")),
                version=VERSION,
            )
        )
    if slow or _suspect(document, texts=_MAYBE_UNSTORABLE.search(text) is not None):
        _check_values(document)
    if not _VALID(document):
        error = next(iter(_VALIDATOR.iter_errors(document)), None)
        if error is not None:
            raise _malformed(_path(list(error.absolute_path)))
    return document


def _too_big() -> str:
    return _(
        "This file is too large: an export holds at most %(size)d MB.",
        size=MAX_IMPORT_BYTES // (1024 * 1024),
    )


# ----------------------------------------------------------------- checking a file


@dataclass
class _Game:
    """A game of the file, checked: what will be written (its rules, setup and outcome
    as the app writes them, its rounds' states as the engine gives them, its history
    without any device)."""

    data: dict[str, Any]
    kind: GameKind
    created_at: datetime | None
    updated_at: datetime | None
    finished_at: datetime | None
    round_times: list[datetime | None] = field(default_factory=list)
    change_times: list[datetime | None] = field(default_factory=list)
    results: list[State] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None


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
    """A value as compared where its types matter (``1`` is not ``true``): the same JSON
    text for the same value."""
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


_DIGITS = re.compile(r"[0-9]+")


#: A text of digits in JSON text: how stored values name players.
_QUOTED_DIGITS = re.compile(r'"([0-9]+)"')


def _own_players(value: Any, seats: set[str], where: str) -> None:
    """Every player a stored value names (an id as text: ``"12"``, as a key or a value)
    is one of the game's: a file never brings in another group's player."""
    if seats.issuperset(_QUOTED_DIGITS.findall(json.dumps(value))):
        return  # (every such text is found in the JSON text: no need to walk it)
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if item not in seats and _DIGITS.fullmatch(item):
                raise _stranger(at)
        elif isinstance(item, dict):
            for key, inner in item.items():
                if key not in seats and _DIGITS.fullmatch(key):
                    raise _stranger(f"{at}.{key}")
                stack.append((inner, f"{at}.{key}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{at}[{i}]") for i, inner in enumerate(item))


#: The changes a game's history holds, and the data each keeps (as the game's routes
#: record them: ``companion.games.routes``): a deleted round, for an undo; the round
#: before a correction. The device a change or a deleted round came from is never
#: exported, and never imported whatever the file says.
_CHANGE_DATA: dict[str, tuple[str, ...] | None] = {
    "round_added": None,
    "round_deleted": ("entry", "result", "status"),
    "round_restored": None,
    "round_edited": ("entry", "result"),
    "round_completed": ("entry", "result"),
    "finished": None,
    "abandoned": None,
    "reopened": None,
}
_STATUSES = frozenset(s.value for s in GameStatus)


def _history(checked: _Game, where: str, seats: set[str], now: datetime) -> None:
    """The game's history as the app records it: known changes, in the order of their
    versions, each with the data its kind keeps (and no device)."""
    g = checked.data
    changes = g.get("changes") or []
    versions = [c["version"] for c in changes]
    if any(b < a for a, b in pairwise(versions)) or any(v > g["version"] for v in versions):
        raise _malformed(where + ".changes")
    for j, c in enumerate(changes):
        at = f"{where}.changes[{j}]"
        checked.change_times.append(_when(c.get("at"), at + ".at", now))
        if c["kind"] not in _CHANGE_DATA:
            raise _malformed(at + ".kind")
        if c["kind"].startswith("round_") and c.get("round") is None:
            raise _malformed(at + ".round")
        keys, data = _CHANGE_DATA[c["kind"]], c.get("data")
        kept: dict[str, Any] | None = None
        if keys is None:
            if data is not None:
                raise _malformed(at + ".data")
        else:
            if not isinstance(data, dict):
                raise _malformed(at + ".data")
            extra = sorted(set(data) - set(keys) - {"device_id"})
            if extra:
                raise _malformed(f"{at}.data.{extra[0]}")
            for key in keys:
                wanted = (lambda v: v in _STATUSES) if key == "status" else (lambda v: isinstance(v, dict))
                if not wanted(data.get(key)):
                    raise _malformed(f"{at}.data.{key}")
            kept = {key: data[key] for key in keys}
            _own_players(kept, seats, at + ".data")
        checked.changes.append({"kind": c["kind"], "round": c.get("round"), "data": kept, "version": c["version"]})


def _first_error(errors: Any) -> str | None:
    """The first message of a form's errors (fields, lists of fields, nested)."""
    if isinstance(errors, str):
        return errors
    values = errors.values() if isinstance(errors, dict) else errors if isinstance(errors, list | tuple) else []
    for inner in values:
        found = _first_error(inner)
        if found:
            return found
    return None


def _setup(checked: _Game, where: str, by_id: dict[int, str], known: set[tuple[Any, ...]]) -> None:
    """The game's house rules and setup through its kind's new-game form, as a phone
    sends it: refused where the form refuses them (the engine's limits on the players
    and the rules included), and where the file's are not exactly what that form gives
    (nothing more: no other key, no other type, no player of another game).

    Forms are not cheap (the largest file holds a thousand games): one kind, house
    rules, number of players and setup (its players named by seat, as texts no file can
    hold: they begin with NUL) is judged once."""
    g, kind = checked.data, checked.kind
    seats = [str(p) for p in g["seats"]]
    by_seat = {p: f"\x00{i}" for i, p in enumerate(seats)}
    key = (kind.id, len(seats), _canonical(g["rules"]), _canonical(_remap(g["setup"], by_seat)))
    if key in known:
        return
    _own_players(g["setup"], {str(p) for p in by_id}, where + ".setup")
    label = _game_label(g, checked.created_at)

    def impossible(reason: str) -> Refused:
        return Refused(
            _("In %(game)s, the house rules or the seats are not possible: %(reason)s", game=label, reason=reason)
        )

    try:
        fields = kind.setup_fields(g["rules"], g["setup"], seats)
    except RulesError as e:
        raise impossible(e.text.get(current_lang())) from None
    players = [Player(id=int(p), name=by_id[int(p)]) for p in seats]
    formdata = MultiDict({**fields, "once": new_token()})
    form = kind.setup_form(None, players, formdata=formdata, meta={"csrf": False})
    if not form.validate():
        raise impossible(_first_error(form.errors) or _("the form refuses them."))
    for name in ("rules", "setup"):
        if _canonical(getattr(form, name)) != _canonical(g[name]):
            raise _malformed(f"{where}.{name}")
    known.add(key)


def check_document(document: dict[str, Any]) -> Plan:
    """Check a parsed export from end to end (:func:`parse_file` first): names,
    references, numbering, statuses, every game's setup through its new-game form,
    every round rescored by the engine, the history's shape. :class:`Refused` names the
    first problem, and where it is in the file."""
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
    known: set[tuple[Any, ...]] = set()
    for i, g in enumerate(document["games"]):
        where = f"games[{i}]"
        kind = KINDS.get(g["kind"])
        if kind is None:
            raise Refused(_("This file holds a kind of game this version does not know: %(kind)s.", kind=g["kind"]))
        if g["id"] in game_ids:
            raise _malformed(where + ".id")
        game_ids.add(g["id"])
        if g["season"] not in season_ids:
            raise Refused(_("This file names a season that is not in it, at %(where)s.", where=where + ".season"))
        seats = g["seats"]
        for k, pid in enumerate(seats):
            if pid not in by_id:
                raise _stranger(f"{where}.seats[{k}]")
        if len(set(seats)) != len(seats):
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
        _setup(checked, where, by_id, known)
        _history(checked, where, {str(p) for p in seats}, now)
        _replay(checked, where, by_id)
        games.append(checked)
    return Plan(players, seasons, games, _time_zone(document["group"].get("time_zone")))


def _transient_game(g: dict[str, Any], by_id: dict[int, str]) -> Game:
    """A game as the kinds see it, outside any session (players by the file's ids)."""
    game = Game(kind=g["kind"], rules=g["rules"], setup=g["setup"], version=g["version"])
    game.seats = [GamePlayer(seat=i, player=Player(id=pid, name=by_id[pid])) for i, pid in enumerate(g["seats"])]
    return game


class _Read(dict[str, Any]):
    """A round's entry handed to the engine, noting the keys it reads: a key it never
    reads is none the app writes (the engine reads all of a round form's entry)."""

    __slots__ = ("read",)

    def __init__(self, entry: dict[str, Any]) -> None:
        super().__init__(entry)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def _replay(checked: _Game, where: str, by_id: dict[int, str]) -> None:
    """Score every round of a game from its kind's initial state and compare with what
    the file stores (the engine's states are what is written); then its status, outcome
    and undoable deletion against its states."""
    g, kind = checked.data, checked.kind
    game = _transient_game(g, by_id)
    seats = {str(p) for p in g["seats"]}

    def label() -> str:  # only for a refusal: a thousand games need none
        return _game_label(g, checked.created_at)

    def refused_round(number: int, reason: str) -> Refused:
        return Refused(
            _(
                "In %(game)s, %(the_round)s: %(reason)s Nothing was imported.",
                game=label(),
                the_round=kind.the_round(number),
                reason=reason,
            )
        )

    try:
        state = kind.initial_state(game)
    except Exception:  # house rules or seats the kind cannot start from: the file is not one of ours
        raise Refused(_("In %(game)s, the house rules or the seats are not possible.", game=label())) from None
    rounds = g["rounds"]
    for j, r in enumerate(rounds):
        if r["number"] < len(rounds) and kind.pending(r["entry"]):
            raise refused_round(r["number"], _("only the last round may wait for its second step."))
        entry = _Read(r["entry"])
        try:
            scored = kind.score(game, state, entry)
        except Exception:  # the engine refuses it, or it is not an entry at all
            raise refused_round(r["number"], _("what was entered cannot be scored.")) from None
        if scored != r["result"]:
            raise refused_round(r["number"], _("the stored result does not follow from what was entered."))
        unread = sorted(set(r["entry"]) - entry.read)
        if unread:
            raise _malformed(f"{where}.rounds[{j}].entry.{unread[0]}")
        _own_players(r["entry"], seats, f"{where}.rounds[{j}].entry")
        checked.results.append(scored)
        state = scored

    status, outcome = g["status"], g.get("outcome")

    def inconsistent() -> Refused:
        return Refused(_("In %(game)s, the status does not match the rounds.", game=label()))

    if status == GameStatus.FINISHED.value:
        if checked.finished_at is None or not isinstance(outcome, dict):
            raise inconsistent()
        early = outcome.get("early") is True
        try:
            expected = {"winners": kind.leaders(state), "early": True} if early else {"winners": kind.winners(state)}
        except Exception:
            raise inconsistent() from None
        if (not early and not kind.over(state)) or _canonical(outcome) != _canonical(expected):
            raise inconsistent()
        checked.outcome = expected
    elif outcome is not None or checked.finished_at is not None:
        raise inconsistent()

    # The last change, when it is a deletion nothing followed, can be undone: the round
    # it keeps must be the next one and follow from the state before it.
    last = checked.changes[-1] if checked.changes else None
    if last is not None and last["kind"] == "round_deleted" and last["version"] == g["version"]:
        kept = last["data"]
        number = last["round"]
        entry = _Read(kept["entry"])
        try:
            scored = kind.score(game, state, entry)
            ok = number == len(rounds) + 1 and scored == kept["result"] and not set(kept["entry"]) - entry.read
        except Exception:
            ok = False
        if ok:
            kept["result"] = scored  # the engine's state comes back, as for every round
        else:
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


_GROUPS, _PLAYERS, _SEASONS = Group.__table__, Player.__table__, Season.__table__
_GAMES, _SEATS, _ROUNDS, _CHANGES = Game.__table__, GamePlayer.__table__, Round.__table__, GameChange.__table__
#: The JSON columns an import fills with text it serialized before the writers' turn.
_JSON_COLUMNS = {"games": ("rules", "setup", "outcome"), "rounds": ("entry", "result"), "game_changes": ("data",)}
#: The most rows one transaction of an import inserts (rounds: about 1.5 MB of states),
#: and the most work one transaction of its standings does, counted in rated rounds (of
#: a kind whose every round counts: ``KindSeason.every_round``; a game counts as
#: :data:`GAME_WEIGHT` of them): each part a
#: fraction of a second (``benchmarks/import_big.py``), so that the writers' queue
#: (SQLite) moves on between them.
ROWS_PER_TURN = 4000
STANDINGS_PER_TURN = 1500
GAME_WEIGHT = 5


def _insert(table: sa.Table, dialect: str) -> sa.Insert:
    """An ``INSERT`` of ``table`` for many rows at once, its JSON columns given as the
    text :func:`_serialize` made (``<column>_text``): the same text the column's own
    type would write (SQLite keeps it as it is; PostgreSQL casts it to ``json``)."""
    values: dict[str, Any] = {}
    for name in _JSON_COLUMNS.get(table.name, ()):
        text = sa.bindparam(f"{name}_text", type_=sa.Text)
        values[name] = text if dialect == "sqlite" else sa.cast(text, table.c[name].type)
    return sa.insert(table).values(values) if values else sa.insert(table)


def _serialize(value: Any, ids: dict[str, str]) -> str:
    """A stored JSON value with the new players' ids, as its column's type writes it."""
    return json.dumps(_remap(value, ids))


def _next_player_ids(count: int) -> list[int]:
    """Ids for ``count`` new players. On PostgreSQL taken from the table's sequence (no
    one else will get them); on SQLite the ones after the largest: still free while a
    transaction holds the writers' turn, a guess before it (:func:`write_group` checks it)."""
    if db.session.get_bind().dialect.name == "postgresql":
        taken = db.session.execute(
            sa.text("SELECT nextval(pg_get_serial_sequence('players', 'id')) FROM generate_series(1, :count)"),
            {"count": count},
        )
        return sorted(int(n) for n in taken.scalars())
    largest = db.session.scalar(sa.select(sa.func.max(_PLAYERS.c.id))) or 0
    return list(range(largest + 1, largest + 1 + count))


@dataclass
class Rows:
    """A checked file as the rows that write it, made before the writers' turn (the
    players' ids, which the stored states name, included): in it, only inserts."""

    plan: Plan
    group: dict[str, Any]
    players: list[dict[str, Any]]
    seasons: list[dict[str, Any]]
    #: Each game, then its seats, rounds and changes by the game's place in ``games``.
    games: list[dict[str, Any]]
    seats: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    rounds: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    changes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: Each game's share of the work of its standings (one, and one per rated manche).
    weights: list[int] = field(default_factory=list)


def _players(rows: Rows) -> None:
    """The players' rows with new ids (given in the order they were added: the file
    lists them by name, its ids keep that order), and every stored JSON value
    serialized with them."""
    now = datetime.now(UTC)
    ordered = sorted(rows.plan.players, key=lambda p: p[0])
    new = _next_player_ids(len(ordered)) if ordered else []
    rows.players = [
        {"id": pid, "old": old, "name": name, "name_key": name_key(name), "created_at": at or now}
        for pid, (old, name, at) in zip(new, ordered, strict=True)
    ]
    ids = {str(row["old"]): str(row["id"]) for row in rows.players}
    for row, checked in zip(rows.games, rows.plan.games, strict=True):
        g = checked.data
        row["rules_text"] = _serialize(g["rules"], ids)
        row["setup_text"] = _serialize(g["setup"], ids)
        row["outcome_text"] = _serialize(checked.outcome, ids)
    rounds = (r for checked in rows.plan.games for r in zip(checked.data["rounds"], checked.results, strict=True))
    for (_index, row), (r, result) in zip(rows.rounds, rounds, strict=True):
        row["entry_text"] = _serialize(r["entry"], ids)
        row["result_text"] = _serialize(result, ids)
    changes = (c for checked in rows.plan.games for c in checked.changes)
    for (_index, row), c in zip(rows.changes, changes, strict=True):
        row["data_text"] = _serialize(c["data"], ids)


def prepare(plan: Plan, name: str, passphrase: str) -> Rows:
    """The rows of the group ``plan`` describes, before the writers' turn: the
    passphrase hashed, every state and entry serialized with the players' new ids (on
    SQLite a guess, read in a reader's transaction and checked in the turn)."""
    now = datetime.now(UTC)
    group = Group(name=name, time_zone=plan.time_zone)
    group.set_passphrase(passphrase)
    current = next((s[0] for s in plan.seasons if s[3]), None)
    if current is None:  # a past season exported alone: it becomes the group's current one
        current = max(plan.seasons, key=lambda s: (s[2], plan.seasons.index(s)))[0]
    rows = Rows(
        plan=plan,
        group={"name": name, "passphrase_hash": group.passphrase_hash, "time_zone": plan.time_zone, "created_at": now},
        players=[],
        seasons=[
            {
                "old": old,
                "name": season_name,
                "name_key": name_key(season_name),
                "starts_on": starts_on,
                "is_current": old == current,
                "created_at": at or now,
            }
            for old, season_name, starts_on, _current, at in plan.seasons
        ],
        games=[],
    )
    for index, checked in enumerate(plan.games):
        g = checked.data
        created = checked.created_at or now
        rows.games.append(
            {
                "season": g["season"],
                "kind": g["kind"],
                "status": GameStatus(g["status"]),
                "created_at": created,
                "updated_at": checked.updated_at or created,
                "finished_at": checked.finished_at,
                "version": g["version"],
            }
        )
        rows.seats += [(index, {"seat": i, "player": pid}) for i, pid in enumerate(g["seats"])]
        rows.rounds += [
            (index, {"number": r["number"], "created_at": at or now, "device_id": None})
            for r, at in zip(g["rounds"], checked.round_times, strict=True)
        ]
        rows.changes += [
            (index, {"kind": c["kind"], "round_number": c["round"], "version": c["version"], "at": at or now})
            for c, at in zip(checked.changes, checked.change_times, strict=True)
        ]
        rows.weights.append(GAME_WEIGHT + (len(g["rounds"]) if season_of(g["kind"]).every_round else 0))
    _players(rows)
    return rows


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def write_group(rows: Rows) -> int:
    """Create the group of ``rows``, which no device has joined yet (so that no one sees
    it until it is whole, when the caller joins it); its id. Each transaction holds
    the writers' turn (SQLite) for a bounded part — the group, its players and seasons;
    then games, rounds, history by :data:`ROWS_PER_TURN`; then their standings by
    :data:`STANDINGS_PER_TURN` — and inserts rows made beforehand, nothing else to
    compute. Should one fail, what the others wrote is removed (:func:`discard`).

    Written on the session's connection, as plain SQL: the session's hook on games does
    not see them, the standings are refreshed here, game after game in the order they
    were played (each part replays the rating from its first night only).

    On SQLite the players' ids :func:`prepare` guessed are checked to be still free in
    the first transaction (else, rarely, guessed again outside the turn; at the third
    time, in it)."""
    dialect = db.session.get_bind().dialect.name
    for attempt in range(3):
        if dialect != "sqlite" or not rows.players or _next_player_ids(1)[0] == rows.players[0]["id"]:
            break
        # Someone added a player meanwhile: the guessed ids are taken.
        if attempt < 2:
            db.session.rollback()
            read_first()
        _players(rows)
        if attempt < 2:
            start_writing()
    conn = db.session.connection()
    code = Group.new_code()
    while conn.execute(sa.select(_GROUPS.c.id).where(_GROUPS.c.code == code)).first() is not None:
        code = Group.new_code()
    group_id = conn.execute(sa.insert(_GROUPS).values(code=code, **rows.group).returning(_GROUPS.c.id)).scalar_one()
    try:
        player_of = {row["old"]: row["id"] for row in rows.players}
        if rows.players:
            conn.execute(_PLAYERS.insert(), [_without(row, "old") | {"group_id": group_id} for row in rows.players])
        inserted = conn.execute(
            _SEASONS.insert().returning(_SEASONS.c.id, sort_by_parameter_order=True),
            [_without(s, "old") | {"group_id": group_id} for s in rows.seasons],
        )
        season_of = dict(zip([s["old"] for s in rows.seasons], inserted.scalars(), strict=True))
        db.session.commit()
        games = _insert(_GAMES, dialect).returning(_GAMES.c.id, sort_by_parameter_order=True)
        game_ids: list[int] = []
        for part in _chunks(rows.games, ROWS_PER_TURN):
            made = [_without(g, "season") | {"season_id": season_of[g["season"]]} for g in part]
            game_ids += db.session.connection().execute(games, made).scalars()
            db.session.commit()
        seats = [
            {"game_id": game_ids[i], "seat": s["seat"], "player_id": player_of[s["player"]]} for i, s in rows.seats
        ]
        for table, table_rows in ((_SEATS, seats), (_ROUNDS, rows.rounds), (_CHANGES, rows.changes)):
            statement = _insert(table, dialect)
            for part in _chunks(table_rows, ROWS_PER_TURN):
                made = part if table is _SEATS else [row | {"game_id": game_ids[i]} for i, row in part]
                db.session.connection().execute(statement, made)
                db.session.commit()
        if dialect == "postgresql":
            # The tables the standings read have just grown, maybe from nothing (a new
            # server's first import): without fresh statistics the planner reads them as
            # the empty tables they were, a scan per game (autovacuum would see it later).
            # ANALYZE blocks no reader or writer.
            db.session.connection().exec_driver_sql("ANALYZE games, game_players, rounds")
            db.session.commit()
        _standings(rows, game_ids)
    except Exception:
        db.session.rollback()
        discard(group_id)
        raise
    return int(group_id)


def _without(row: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != key}


def _standings(rows: Rows, game_ids: list[int]) -> None:
    """The stored results and season ratings of the new games (:mod:`companion.games.results`),
    in parts of :data:`STANDINGS_PER_TURN`, in the order the games were played."""
    played = sorted(range(len(game_ids)), key=lambda i: (rows.games[i]["created_at"], i))
    part: list[int] = []
    weight = 0
    for i in played:
        part.append(game_ids[i])
        weight += rows.weights[i]
        if weight >= STANDINGS_PER_TURN:
            saving.refresh(part)
            db.session.commit()
            part, weight = [], 0
    if part:
        saving.refresh(part)
        db.session.commit()


def discard(group_id: int) -> None:
    """Remove an imported group that could not be finished, and everything of it (its
    games first: their seats hold its players)."""
    seasons = sa.select(_SEASONS.c.id).where(_SEASONS.c.group_id == group_id)
    conn = db.session.connection()
    conn.execute(sa.delete(_GAMES).where(_GAMES.c.season_id.in_(seasons)))
    conn.execute(sa.delete(_GROUPS).where(_GROUPS.c.id == group_id))
    db.session.commit()


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
        form.name.errors = [wait_message(wait)]
        return _render(form, 429, {"Retry-After": str(wait)})
    # The try counts whatever the file holds: checking a file costs.
    db.session.commit()
    # Reading, checking, rescoring and making the rows take no turn of the writers
    # (SQLite's queue: companion.config): only the writes do, a bounded part at a time.
    read_first()
    try:
        plan = check_document(parse_file(data))
    except Refused as e:
        db.session.rollback()
        form.file.errors = [e.message]
        return _render(form, 400)
    token = form.once.data
    rows = prepare(plan, form.name.data, form.passphrase.data)
    start_writing()
    db.session.commit()  # (PostgreSQL: the players' ids taken from the sequence stay taken)
    group_id = write_group(rows)
    # The last transaction: this device joins the group, which becomes anyone's to see.
    group = db.session.get(Group, group_id)
    assert group is not None
    code = group.code
    join_group(group, form.device_name.data or _("Device %(n)d", n=1))
    url = url_for("groups.show", code=code)
    remember(token, url)
    try:
        earlier = commit_once(token)
    except Exception:
        db.session.rollback()
        discard(group_id)
        raise
    if earlier is not None:  # the same form sent twice at once: the other import is the group
        discard(group_id)
        return redirect(earlier)
    flash(_("Group imported. Share its code %(code)s and the passphrase with your friends.", code=code))
    return redirect(url)
