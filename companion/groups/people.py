"""A player's page and an evening's recap, read from the stored results.

Neither page replays a game. The player page reads ``game_results`` (the player's rows
of the season: one query), a self-join of ``game_results`` on the game for the
head-to-head (one query, aggregated in SQL), and the stored rating and its history
(``player_ratings``, ``rating_history``); the evening recap reads the ``game_results``
rows of one game night and, for its notable moments, only the needed keys of the
stored states of that night's rounds (one query). Each page costs a fixed number of
queries, whatever the history holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import abort, render_template, request
from flask_babel import format_decimal

from companion.charts import Chart, line_chart
from companion.clock import (
    aware,
    current_zone,
    duration_text,
    game_clock,
    game_end,
    last_round_end,
    length_between,
    night_of,
    seconds_between,
)
from companion.collation import sort_key
from companion.extensions import db
from companion.forms import plain_int
from companion.games.kinds import KINDS, season_of
from companion.games.kinds.season_base import RecapRound
from companion.games.rating import MIN_MATCHES, display
from companion.groups import bp
from companion.i18n import format_day, ngettext
from companion.i18n import gettext as _
from companion.membership.access import group_for
from companion.models import Game, GameResult, Player, PlayerRating, RatingPoint, Round, Season

#: Finished games two players need together before one can be the other's nemesis.
NEMESIS_MIN_GAMES = 3
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _kind_order(kind: str) -> int:
    order = list(KINDS)
    return order.index(kind) if kind in order else len(order)


def _average(value: Fraction | None) -> str:
    return "—" if value is None else str(format_decimal(float(value), format="0.0#"))


# ---------------------------------------------------------------------- player page


@dataclass
class KindLine:
    """A player's finished games of one kind in the season."""

    kind: str
    games: int = 0
    wins: int = 0
    times_president: int = 0
    times_last: int = 0


@dataclass
class Evening:
    """A player's finished games of one game night."""

    night: date
    games: int = 0
    wins: int = 0
    place_sum: int = 0
    placed: int = 0

    @property
    def avg_place(self) -> Fraction | None:
        return Fraction(self.place_sum, self.placed) if self.placed else None

    @property
    def avg_place_text(self) -> str:
        return _average(self.avg_place)

    def key(self) -> tuple[int, Fraction]:
        """Better evenings sort higher: more games won, then a better (smaller) average place."""
        return (self.wins, -(self.avg_place or Fraction(10**6)))


@dataclass
class HeadToHead:
    """Finished games both players played: how often each finished ahead (by place)."""

    id: int
    name: str
    games: int
    ahead: int  # this page's player finished ahead
    behind: int  # the other finished ahead
    ties: int


@dataclass
class PlayerStats:
    """What the player page shows (finished games of the season only)."""

    kinds: list[KindLine] = field(default_factory=list)
    games: int = 0
    wins: int = 0
    in_progress: int = 0
    times_president: int = 0
    times_last: int = 0
    #: Finished games of a kind that counts titles, and the templates that show them.
    titled_games: int = 0
    titles_templates: list[str] = field(default_factory=list)
    longest_streak: int = 0
    current_wins: int = 0  # games won in a row up to the latest (0 when it was lost)
    current_dry: int = 0  # games without a win up to the latest
    evenings: list[Evening] = field(default_factory=list)
    best: Evening | None = None
    worst: Evening | None = None
    rivals: list[HeadToHead] = field(default_factory=list)
    nemesis: HeadToHead | None = None


def player_stats(player_id: int, season_id: int) -> PlayerStats:
    """A player's figures over the season, from ``game_results`` (two queries)."""
    r = GameResult
    rows = db.session.execute(
        sa.select(r.game_id, r.kind, r.status, r.night, r.place, r.won, r.times_president, r.times_last)
        .where(r.player_id == player_id, r.season_id == season_id)
        .order_by(r.ended_at, r.game_id)
    ).all()
    stats = PlayerStats()
    kinds: dict[str, KindLine] = {}
    evenings: dict[date, Evening] = {}
    streak = 0
    for row in rows:
        if row.status != "finished":
            stats.in_progress += row.status == "in_progress"
            continue
        line = kinds.setdefault(row.kind, KindLine(row.kind))
        line.games += 1
        line.wins += row.won
        stats.games += 1
        stats.wins += row.won
        kind_season = season_of(row.kind)
        if kind_season.titles:
            if kind_season.titles_template and kind_season.titles_template not in stats.titles_templates:
                stats.titles_templates.append(kind_season.titles_template)
            line.times_president += row.times_president
            line.times_last += row.times_last
            stats.times_president += row.times_president
            stats.times_last += row.times_last
            stats.titled_games += 1
        streak = streak + 1 if row.won else 0
        stats.longest_streak = max(stats.longest_streak, streak)
        stats.current_wins = streak
        stats.current_dry = 0 if row.won else stats.current_dry + 1
        evening = evenings.setdefault(row.night, Evening(row.night))
        evening.games += 1
        evening.wins += row.won
        if row.place is not None:
            evening.place_sum += row.place
            evening.placed += 1
    stats.kinds = sorted(kinds.values(), key=lambda k: _kind_order(k.kind))
    stats.evenings = sorted(evenings.values(), key=lambda e: e.night)
    if stats.evenings:
        # Ties: the latest of the best, the earliest of the worst.
        stats.best = max(reversed(stats.evenings), key=Evening.key)
        if len(stats.evenings) > 1:
            stats.worst = min(stats.evenings, key=Evening.key)
            if stats.worst.key() == stats.best.key():
                stats.worst = None  # every evening alike: none is the worst
    stats.rivals = head_to_head(player_id, season_id)
    stats.nemesis = nemesis(stats.rivals)
    return stats


def head_to_head(player_id: int, season_id: int) -> list[HeadToHead]:
    """Against each other player, over the season's finished games both played and
    both were placed in: who finished ahead how often (one query: a self-join of
    ``game_results`` on the game, counted in SQL). Most games together first."""
    me, other = so.aliased(GameResult), so.aliased(GameResult)

    def count(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
        return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)

    rows = db.session.execute(
        sa.select(
            other.player_id,
            Player.name,
            sa.func.count(),
            count(me.place < other.place),
            count(other.place < me.place),
            count(me.place == other.place),
        )
        .join(other, sa.and_(other.game_id == me.game_id, other.player_id != me.player_id))
        .join(Player, Player.id == other.player_id)
        .where(
            me.player_id == player_id,
            me.season_id == season_id,
            me.status == "finished",
            me.place.is_not(None),
            other.place.is_not(None),
        )
        .group_by(other.player_id, Player.name)
    ).all()
    lines = [HeadToHead(pid, name, int(n), int(a), int(b), int(t)) for pid, name, n, a, b, t in rows]
    return sorted(lines, key=lambda h: (-h.games, sort_key(h.name)))


def nemesis(rivals: Sequence[HeadToHead]) -> HeadToHead | None:
    """The player who most often finished ahead of this one, among those met in at
    least :data:`NEMESIS_MIN_GAMES` finished games and ahead more often than behind
    (equal counts: the better balance, then the name). None when nobody qualifies."""
    candidates = [h for h in rivals if h.games >= NEMESIS_MIN_GAMES and h.behind > h.ahead]
    if not candidates:
        return None
    return min(candidates, key=lambda h: (-h.behind, -(h.behind - h.ahead), sort_key(h.name)))


@dataclass(frozen=True)
class TimePlayed:
    """How long a player played in a season: every game of theirs that has an end so
    far (abandoned and in progress included: time at the table), and how long their
    finished games lasted on average."""

    seconds: float = 0.0
    games: int = 0
    finished_seconds: float = 0.0
    finished: int = 0

    @property
    def total(self) -> timedelta | None:
        return timedelta(seconds=self.seconds) if self.games else None

    @property
    def average_game(self) -> timedelta | None:
        return timedelta(seconds=self.finished_seconds / self.finished) if self.finished else None


def time_played(player_id: int, season_id: int) -> TimePlayed:
    """A player's :class:`TimePlayed` over a season, in one aggregate query: each of
    their games (``game_results``) from its start to its end (its last round's end, or
    when it was finished: :func:`companion.clock.game_end`), summed in SQL."""
    r = GameResult
    end = sa.func.coalesce(last_round_end(Game.id), Game.finished_at)
    length = seconds_between(Game.created_at, end)
    finished = r.status == "finished"
    row = db.session.execute(
        sa.select(
            sa.func.coalesce(sa.func.sum(length), 0.0),
            sa.func.count(end),
            sa.func.coalesce(sa.func.sum(sa.case((finished, length))), 0.0),
            sa.func.count(sa.case((finished, end))),
        )
        .select_from(r)
        .join(Game, Game.id == r.game_id)
        .where(r.player_id == player_id, r.season_id == season_id)
    ).one()
    return TimePlayed(float(row[0] or 0.0), int(row[1] or 0), float(row[2] or 0.0), int(row[3] or 0))


def rating_chart(player_id: int, season_id: int, name: str) -> tuple[PlayerRating | None, Chart | None]:
    """The player's rating now and, once rated, its chart over the game nights the
    player played (two queries): the evenings the page counts, a point each (on a
    night the player did not play the rating does not move)."""
    rating = db.session.get(PlayerRating, (season_id, player_id))
    points = db.session.execute(
        sa.select(RatingPoint.night, RatingPoint.ordinal, RatingPoint.rank)
        .where(RatingPoint.season_id == season_id, RatingPoint.player_id == player_id, RatingPoint.played)
        .order_by(RatingPoint.night)
    ).all()
    if rating is None or rating.matches < MIN_MATCHES or not points:
        return rating, None
    series = [(float(i), float(display(p.ordinal))) for i, p in enumerate(points, start=1)]
    names = {float(i): format_day(p.night, "short") for i, p in enumerate(points, start=1)}
    figures = [y for _x, y in series]
    summary = [
        _("Rating of %(name)s at the end of each game night.", name=name),
        _(
            "Now %(figure)d; highest %(high)d, lowest %(low)d.",
            figure=display(rating.ordinal),
            high=int(max(figures)),
            low=int(min(figures)),
        ),
    ]
    chart = line_chart(
        [(name, series)],
        x_label=_("Game night"),
        y_label=_("Rating"),
        title=_("Rating over the season"),
        summary=" ".join(summary),
        chart_id="rating-chart",
        x_names=names,
    )
    return rating, chart


@bp.get("/g/<code>/players/<int:player_id>/stats")
def player(code: str, player_id: int) -> str:
    """A player's season: games, titles, streaks, evenings, rating, head-to-head."""
    group = group_for(code)
    player = db.first_or_404(sa.select(Player).where(Player.id == player_id, Player.group_id == group.id))
    seasons = list(group.seasons)
    if "season" in request.args:
        wanted = plain_int(request.args.get("season", ""), 1, 2**31 - 1)
        season = next((s for s in seasons if s.id == wanted), None)
        if season is None:
            abort(404)
    else:
        season = group.current_season or (seasons[0] if seasons else None)
    if season is None:
        abort(404)
    stats = player_stats(player.id, season.id)
    played = time_played(player.id, season.id)
    rating, chart = rating_chart(player.id, season.id, player.name)
    return render_template(
        "groups/player.html",
        group=group,
        player=player,
        season=season,
        seasons=seasons,
        stats=stats,
        played=played,
        rating=rating,
        chart=chart,
        figure=display,
        min_matches=MIN_MATCHES,
        nemesis_min=NEMESIS_MIN_GAMES,
    )


# ---------------------------------------------------------------------- evening recap


@dataclass(frozen=True)
class Standing:
    """A player's line in a game's standing, from its stored results: their place (1 =
    best, ties share), their running total (the column its kind names,
    :attr:`~companion.games.kinds.season_base.KindSeason.total_column`; None when it keeps
    none) and whether they are out of the game (``eliminated``)."""

    name: str
    place: int
    total: int | None = None
    out: bool = False


@dataclass
class EveningGame:
    """A game of the evening as the recap shows it."""

    id: int
    kind: str
    status: str
    #: When it started (shown on the group's clock, as every time).
    started: datetime | None = None
    players: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    moments: list[str] = field(default_factory=list)
    #: When it was finished, if it was; when play stopped (:func:`companion.clock.game_end`).
    finished_at: datetime | None = None
    ended: datetime | None = None
    #: The players by place, as its stored results place them (empty before they do).
    standing: list[Standing] = field(default_factory=list)

    @property
    def length(self) -> timedelta | None:
        """From its start to its end (None before anything was played)."""
        return length_between(self.started, self.ended)

    @property
    def leaders(self) -> list[str]:
        """Who is first so far (ties share the place)."""
        return [line.name for line in self.standing if line.place == 1]


def _total_columns() -> list[str]:
    """The ``game_results`` columns the known kinds keep their running totals in."""
    return sorted({kind.season.total_column for kind in KINDS.values() if kind.season.total_column})


@dataclass(frozen=True)
class EveningClock:
    """How long an evening lasted: from its first game's start to the last end of its
    games; its longest game (when more than one has a length), the games in the order
    they started."""

    started: datetime
    ended: datetime
    games: list[EveningGame]
    longest: EveningGame | None

    @property
    def length(self) -> timedelta:
        return self.ended - self.started


def evening_clock(games: Sequence[EveningGame]) -> EveningClock | None:
    """The :class:`EveningClock` of an evening's games (from :func:`evening_games`: no
    query); None while none of them has an end."""
    timed = [g for g in games if g.started is not None and g.length is not None]
    if not timed:
        return None
    started = min(aware(g.started) for g in games if g.started is not None)
    ended = max(aware(g.ended) for g in timed if g.ended is not None)
    # The longest; equal lengths: the one started first.
    longest = max(reversed(timed), key=lambda g: g.length or timedelta()) if len(timed) > 1 else None
    return EveningClock(started, max(started, ended), timed, longest)


def evening_games(group_id: int, night: date) -> list[EveningGame]:
    """The games of a game night, in the order they started, with players, winners,
    their standing and notable moments (two queries: the results of the night, the
    needed keys of its rounds' stored states)."""
    r = GameResult
    totals = _total_columns()
    rows = db.session.execute(
        sa.select(
            r.game_id,
            r.kind,
            r.status,
            r.won,
            r.player_id,
            Player.name,
            Season.id,
            Game.created_at,
            Game.finished_at,
            r.place,
            r.eliminated,
            *(getattr(r, column).label(f"total_{column}") for column in totals),
        )
        .join(Season, Season.id == r.season_id)
        .join(Player, Player.id == r.player_id)
        .join(Game, Game.id == r.game_id)
        .where(Season.group_id == group_id, r.night == night)
        .order_by(r.game_id, r.seat)
    ).all()
    games: dict[int, EveningGame] = {}
    names: dict[int, dict[str, str]] = {}
    for row in rows:
        game = games.setdefault(
            row.game_id, EveningGame(row.game_id, row.kind, row.status, row.created_at, finished_at=row.finished_at)
        )
        game.players.append(row.name)
        if row.won:
            game.winners.append(row.name)
        if row.place is not None:
            column = season_of(row.kind).total_column
            total = row._mapping.get(f"total_{column}") if column else None
            game.standing.append(Standing(row.name, row.place, total, bool(row.eliminated)))
        names.setdefault(row.game_id, {})[str(row.player_id)] = row.name
    # Only the keys of the stored states each kind's recap reads (its season says which).
    keys = sorted({key for game in games.values() for key in season_of(game.kind).recap_keys})
    # (With when each round ended: a game's end is its last round's.)
    rounds = db.session.execute(
        sa.select(Round.game_id, Round.number, Round.ended_at, *(Round.result[key] for key in keys))
        .where(Round.game_id.in_(list(games)))
        .order_by(Round.game_id, Round.number)
    ).all()
    by_game: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    last_end: dict[int, datetime] = {}
    for row in rounds:
        by_game.setdefault(row[0], []).append((row[1], dict(zip(keys, row[3:], strict=True))))
        if row[2] is not None and (row[0] not in last_end or aware(row[2]) > last_end[row[0]]):
            last_end[row[0]] = aware(row[2])
    for game in games.values():
        game.ended = game_end(last_end.get(game.id), game.finished_at)
        game.standing.sort(key=lambda line: line.place)  # (stable: seat order within a place)
    for game in games.values():
        known = KINDS.get(game.kind)
        if known is not None:
            wanted = known.season.recap_keys
            played = [RecapRound(n, {k: state[k] for k in wanted}) for n, state in by_game.get(game.id, [])]
            game.moments = known.season.moments(played, names[game.id], known)
    return sorted(games.values(), key=lambda g: g.id)


# The evening's clock in every template (the game page's kept part asks ``game_clock``).
bp.app_template_global("game_clock")(game_clock)
bp.app_template_filter("duration")(duration_text)


@bp.app_template_global()
def evening_of(started: datetime) -> str:
    """The game night (``YYYY-MM-DD``) of a game started at ``started``, on the clock of
    the group this request is about: the day of its recap
    (``url_for('groups.evening', code=…, day=evening_of(game.created_at))``), the night
    its stored results carry (:func:`~companion.clock.night_of`, one definition)."""
    return night_of(started, current_zone()).isoformat()


@bp.get("/g/<code>/evenings/<day>")
def evening(code: str, day: str) -> str:
    """Every game of one game night: players, winners, notable moments."""
    group = group_for(code)
    if not _DAY.fullmatch(day):
        abort(404)
    try:
        night = date.fromisoformat(day)
    except ValueError:
        abort(404)
    games = evening_games(group.id, night)
    if not games:
        abort(404)
    r = GameResult
    in_group = sa.select(Season.id).where(Season.group_id == group.id).scalar_subquery()
    seasons = sa.select(r.season_id).where(r.night == night, r.season_id.in_(in_group))
    around = db.session.execute(
        sa.select(
            sa.select(sa.func.max(r.night)).where(r.season_id.in_(seasons), r.night < night).scalar_subquery(),
            sa.select(sa.func.min(r.night)).where(r.season_id.in_(seasons), r.night > night).scalar_subquery(),
        )
    ).one()
    count = len(games)
    return render_template(
        "groups/evening.html",
        group=group,
        night=night,
        games=games,
        previous=around[0],
        next=around[1],
        heading=ngettext("%(num)d game", "%(num)d games", count),
        clock=evening_clock(games),
    )
