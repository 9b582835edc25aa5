"""The evening recap and a finished game as images to share (issue 27).

``GET /g/<code>/evenings/<day>.png`` and ``GET /g/<code>/games/<id>/image.png``: a PNG
card (1080 px wide, phone-portrait) drawn on the server from what the pages show —
the evening's games as its recap reads them (:func:`~companion.groups.people.evening_games`),
a finished game's ranking and totals from its stored results and its last stored state,
as its kind reads them (its season part: ``csv_figures``, ``moments``). Laid out by
:mod:`companion.share_image`, written out by ``templates/share/card.svg``, rasterised there.

The card names the group, its players and its games; never the group's code (the key
to the group) nor a device. Only a device of the group gets it, checked as the pages
check it (:func:`~companion.membership.access.group_for`, ``group_and_game``); any other
request gets a 404, as does a day with no game or a game not finished: an image is no
page, and there is nothing to join from it. Each costs a fixed number of queries.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

import sqlalchemy as sa
from flask import Response, abort, render_template
from flask_babel import format_decimal, format_time
from werkzeug.exceptions import HTTPException

from companion.clock import current_zone, night_of
from companion.extensions import db
from companion.games.kinds import KINDS, kind_name, season_of, status_name
from companion.games.kinds.season_base import RecapRound
from companion.games.rounds import names_of
from companion.groups import bp
from companion.groups.people import EveningGame, evening_games
from companion.i18n import current_lang, format_day, ngettext
from companion.i18n import gettext as _
from companion.membership.access import group_and_game, group_for
from companion.models import Game, GameResult, GameStatus, Group, Round
from companion.share_image import COLOURS, FAMILY, Card, Layout, text_width, to_png

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
#: Games an evening's card shows (the others are counted on its last line).
MAX_GAMES = 6
#: Notable moments a game shows on a card.
MAX_MOMENTS = 4

T = TypeVar("T")


def _member(find: Callable[[], T]) -> T:
    """What ``find`` (a membership helper of the pages) finds for this device; a 404
    where the page would send it to the join page or refuse it."""
    try:
        return find()
    except HTTPException:
        abort(404)


def full_day(day: date) -> str:
    """« jeudi 26 novembre 2026 », « dimanche 1er mars 2026 »; « Thursday, November 26, 2026 »:
    a number and the word after it are not parted at the end of a line (no-break space)."""
    text = format_day(day, "full")
    if current_lang() == "fr" and day.day == 1:
        text = re.sub(r"(?<!\d)1 ", "1er ", text, count=1)
    return re.sub(r"(\d(?:er)?,?) ", "\\1\u00a0", text)


def _number(value: Any) -> str:
    return str(format_decimal(value)).replace("-", "−") if isinstance(value, int | float) else str(value)


def _png(card: Card, filename: str) -> Response:
    svg = render_template("share/card.svg", card=card, family=FAMILY, page=COLOURS["page"])
    response = Response(to_png(svg), mimetype="image/png")
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _band(layout: Layout, title: str, *below: str) -> None:
    lines = [("♠ ♥ ♦ ♣", 30, False, "on_band_muted"), (title, 54, True, "on_band")]
    layout.band(lines + [(line, 32, False, "on_band_muted") for line in below])


def _moments(layout: Layout, moments: list[str]) -> None:
    for line in moments[:MAX_MOMENTS]:
        indent = layout.mark("•", 30, "muted")
        layout.text(line, 30, indent=indent, max_lines=2)
    if len(moments) > MAX_MOMENTS:
        layout.text("…", 30, colour="muted")


@dataclass(frozen=True)
class Ranked:
    """A player's line in a game's ranking on a card: their place (« – » without one),
    name, total as written (None: none kept), whether they are out of the game, and
    whether they are drawn strong (the winners, the leaders: bold, their place in gold)."""

    place: int | None
    name: str
    total: str | None = None
    out: bool = False
    strong: bool = False


def _ranking(layout: Layout, lines: list[Ranked], size: int) -> None:
    """The players by place, one a line: the place, the name, then at the right « hors
    jeu » for a player out of the game (the crapouille's past the line: why a lower total
    may rank below a higher one) and the total, aligned."""
    out = _("out")
    totals = max((text_width(line.total, size) for line in lines if line.total is not None), default=0.0)
    tag = text_width(out, size - 6, bold=True) + 24 if any(line.out for line in lines) else 0.0
    room = totals + tag + (24 if totals or tag else 0)
    for line in lines:
        layout.gap(size * 0.15)
        layout.mark(str(line.place) if line.place is not None else "–", size, "gold" if line.strong else "muted")
        layout.text(line.name, size, bold=line.strong, indent=round(size * 1.6), max_lines=2, room=room)
        if line.total is not None:
            layout.beside(line.total, size, "ink")
        if line.out:
            layout.beside(out, size - 6, "red", before=totals + (24 if totals else 0), bold=True)


def _evening_game(layout: Layout, game: EveningGame) -> None:
    layout.panel_start()
    layout.text(kind_name(game.kind), 44, bold=True, colour="title", max_lines=2)
    if game.started:
        layout.beside(str(format_time(game.started, "short")), 30)
    running = game.status == GameStatus.IN_PROGRESS and bool(game.standing)
    if not running:  # (a game in progress names them in its ranking)
        layout.text(", ".join(game.players), 30, colour="muted")
    layout.gap(8)
    if game.status == GameStatus.FINISHED and game.winners:
        names = ", ".join(game.winners)
        indent = layout.mark("★", 34, "gold")
        text = ngettext("Winner: %(names)s", "Winners: %(names)s", len(game.winners), names=names)
        layout.text(text, 34, bold=True, indent=indent)
    elif game.status == GameStatus.ABANDONED:
        layout.text(_("Game abandoned."), 32, colour="muted")
    elif running:
        # The running totals as its stored results give them, and who leads.
        layout.text(_("In progress."), 30, colour="muted")
        layout.text(_("In the lead: %(names)s", names=", ".join(game.leaders)), 34, bold=True)
        layout.gap(4)
        lines = []
        for line in game.standing:
            total = None if line.total is None else _number(line.total)
            lines.append(Ranked(line.place, line.name, total, line.out, strong=line.place == 1))
        _ranking(layout, lines, 32)
    elif game.status == GameStatus.IN_PROGRESS:
        layout.text(_("In progress."), 32, colour="muted")
    else:
        layout.text(status_name(game.status), 32, colour="muted")
    if game.moments:
        layout.gap(8)
        _moments(layout, game.moments)
    layout.panel_end()


def evening_card(group: Group, night: date, games: list[EveningGame]) -> Card:
    """The evening's card: its date, each game (kind, players, winners, notable moments)."""
    title = _("Evening of %(date)s", date=full_day(night))
    layout = Layout(title)
    _band(layout, title, f"{group.name} · {ngettext('%(num)d game', '%(num)d games', len(games))}")
    for game in games[:MAX_GAMES]:
        layout.gap(32)
        _evening_game(layout, game)
    if len(games) > MAX_GAMES:
        layout.gap(32)
        more = len(games) - MAX_GAMES
        layout.text(ngettext("and %(num)d more game", "and %(num)d more games", more), 32, colour="muted")
    return layout.footer("Companion")


def _night(day: str) -> date:
    if not _DAY.fullmatch(day):
        abort(404)
    try:
        return date.fromisoformat(day)
    except ValueError:
        abort(404)


@bp.get("/g/<code>/evenings/<day>.png")
def evening_image(code: str, day: str) -> Response:
    """The evening recap as a PNG card (three queries: the group, the night's results,
    the keys of its rounds' stored states the recap reads)."""
    group = _member(lambda: group_for(code))
    night = _night(day)
    games = evening_games(group.id, night)
    if not games:
        abort(404)
    return _png(evening_card(group, night, games), f"evening-{night.isoformat()}.png")


# ---------------------------------------------------------------------- a finished game


def game_card(group: Group, game: Game) -> Card:
    """A finished game's card: its kind, its night, its players by place with their
    totals (as the kind reads its last stored state), its winners and notable moments
    (three queries: its results, its rounds' recap keys, its last state)."""
    season = season_of(game.kind)
    names = names_of(game)
    r = GameResult
    results = db.session.execute(
        sa.select(r.player_id, r.place, r.won, r.seat, r.eliminated).where(r.game_id == game.id).order_by(r.seat)
    ).all()
    keys = season.recap_keys
    rounds = db.session.execute(
        sa.select(Round.number, *(Round.result[key] for key in keys))
        .where(Round.game_id == game.id)
        .order_by(Round.number)
    ).all()
    last = db.session.scalar(
        sa.select(Round.result).where(Round.game_id == game.id).order_by(Round.number.desc()).limit(1)
    )
    totals = season.csv_figures(last or {})[1] if last else {}
    known = KINDS.get(game.kind)
    moments: list[str] = []
    if known is not None:
        played = [RecapRound(row[0], dict(zip(keys, row[1:], strict=True))) for row in rounds]
        moments = season.moments(played, names, known)

    title = kind_name(game.kind)
    night = night_of(game.created_at, current_zone())
    layout = Layout(title)
    below = [_("Game of %(date)s", date=full_day(night)), group.name]
    _band(layout, title, *below)
    layout.gap(32)
    layout.panel_start()
    layout.text(_("Game finished."), 32, colour="muted", max_lines=1)
    if known is not None and rounds:
        layout.beside(known.round_count(len(rounds), game), 30)
    if totals:
        layout.gap(8)
        layout.at_right(_("Total"), 28)
    ranked = sorted(results, key=lambda row: (row.place is None, row.place or 0, row.seat))
    lines = []
    for row in ranked:
        pid = str(row.player_id)
        total = _number(totals[pid]) if pid in totals else None
        lines.append(Ranked(row.place, names.get(pid, pid), total, bool(row.eliminated), row.won))
    _ranking(layout, lines, 40)
    winners = [names.get(str(row.player_id), "") for row in ranked if row.won]
    if winners:
        layout.gap(16)
        indent = layout.mark("★", 34, "gold")
        text = ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners), names=", ".join(winners))
        layout.text(text, 34, bold=True, indent=indent)
    layout.panel_end()
    if moments:
        layout.gap(32)
        layout.panel_start()
        _moments(layout, moments)
        layout.panel_end()
    return layout.footer("Companion")


@bp.get("/g/<code>/games/<int:game_id>/image.png")
def game_image(code: str, game_id: int) -> Response:
    """A finished game as a PNG card (four queries); a 404 for a game not finished."""
    group, game = _member(lambda: group_and_game(code, game_id))
    if game.status != GameStatus.FINISHED:
        abort(404)
    return _png(game_card(group, game), f"game-{game.id}.png")
