"""A group's exports (members of the group only), of the whole group or one season:

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
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import abort, render_template, request
from werkzeug.wrappers import Response

from companion.clock import local_iso, night_of
from companion.collation import sorted_names
from companion.extensions import db
from companion.forms import plain_int
from companion.games.kinds import kind_name, season_of
from companion.groups import bp
from companion.groups.transfer.schema import FORMAT, VERSION
from companion.i18n import gettext as _
from companion.membership.access import group_for
from companion.models import Game, GameChange, GameResult, GameStatus, Group, Player, Round, Season


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
    """A change's data without the device a deleted round was entered from, nor when it
    was played (the file's format is unchanged: an import gives rounds their times)."""
    if data is None:
        return None
    return {k: v for k, v in data.items() if k not in ("device_id", "started_at", "ended_at")}


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
                "outcome": g.ending,  # the file keeps its key: files already exported
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
        season_part = season_of(game.kind)
        places = loaded.places.get(game.id, {}) if game.status is GameStatus.FINISHED else {}
        # The game's evening (one definition: the recap's day) and each round's time, on
        # the group's clock with its offset (« 2026-03-29T01:30:00+01:00 »).
        day = night_of(game.created_at, group.time_zone).isoformat()
        for rnd in rounds:
            entered = local_iso(rnd.created_at, group.time_zone, seconds=True) or ""
            # The kind says each player's figure for the round and their total after it.
            figures, totals = season_part.csv_figures(rnd.result)
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
