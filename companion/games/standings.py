"""A season's standings, read from the stored results (:mod:`companion.games.results`).

Nothing here reads a round or runs the engine: the leaderboards read
``season_totals`` (a few rows per player, summed on every write by one ``GROUP BY``
over ``game_results``: finished games only — an abandoned game counts in no
standings, a game in progress once it ends), the rating one read of
``player_ratings``, so the season page costs the same number of queries, and about
the same time, with 100 rounds or 10,000.

- :func:`season_standings` — everything the season page shows: the all-games summary
  (wins and games per player; iterating the result gives it, as before), one
  leaderboard per kind played (:class:`Board`), the rating (:class:`RatingLine`), and
  a page of the season's games.
- :func:`games_of`, :func:`round_counts`, :func:`winner_names` — lists of
  games for other pages.

Ties are ties: players whose figures are all equal share a rank (1, 2, 2, 4), shown
« 2= ».
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import format_decimal

from companion.collation import sort_key
from companion.extensions import db
from companion.forms import plain_int
from companion.games.kinds import KINDS, season_of
from companion.games.rating import MIN_MATCHES, display
from companion.models import Game, GamePlayer, GameStatus, Player, PlayerRating, Round, Season, SeasonTotal

#: Games listed per page of a season.
GAMES_PER_PAGE = 20


@dataclass(frozen=True)
class PlayerRef:
    """A player as the standings name them."""

    id: int
    name: str


@dataclass
class Standing:
    """One player's line in a season's all-games summary."""

    player: PlayerRef
    played: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> int:
        """Wins as a whole percentage of finished games played."""
        return round(100 * self.wins / self.played) if self.played else 0


def _decimal(value: Fraction | None, digits: str = "0.0#") -> str:
    return "—" if value is None else str(format_decimal(float(value), format=digits))


@dataclass
class Line:
    """One player's line in a kind's leaderboard (finished games of the season).

    ``rank`` 1 = best; ``tied`` when another line has the very same figures. The
    averages are exact fractions (so ties are exact); ``*_text`` are for display."""

    player: PlayerRef
    games: int
    wins: int
    points: int | None = None
    times_president: int = 0
    times_last: int = 0
    manches: int = 0
    rank_sum: int = 0
    avg_stake: Fraction | None = None
    avg_place: Fraction | None = None
    times_over: int = 0
    rank: int = 0
    tied: bool = False

    @property
    def avg_rank(self) -> Fraction | None:
        """The average rank after a manche (1 = Président), over the manches played."""
        return Fraction(self.rank_sum, self.manches) if self.manches else None

    @property
    def rank_text(self) -> str:
        """« 1 », or « 2= » for a tie."""
        return f"{self.rank}=" if self.tied else str(self.rank)

    @property
    def avg_rank_text(self) -> str:
        return _decimal(self.avg_rank)

    @property
    def avg_stake_text(self) -> str:
        return _decimal(self.avg_stake, "0.#")

    @property
    def avg_place_text(self) -> str:
        return _decimal(self.avg_place)

    def key(self, kind: str) -> tuple[Any, ...]:
        """What ranks the line in its kind's leaderboard (smaller is better): the kind
        says (``KindSeason.sort_key``)."""
        return season_of(kind).sort_key(self)


@dataclass
class Board:
    """A kind's leaderboard for the season."""

    kind: str
    lines: list[Line]

    @property
    def order(self) -> str:
        """How it is ranked, in words."""
        return str(season_of(self.kind).standings_note)


@dataclass
class RatingLine:
    """A player's season rating as shown: ``figure`` (:func:`~companion.games.rating.display`)
    and ``rank`` only once rated on :data:`~companion.games.rating.MIN_MATCHES` matches;
    ``change`` the places gained (+) or lost (−) since the night before the latest,
    None for a player ranked for the first time (``new``)."""

    player: PlayerRef
    matches: int
    ordinal: float
    rank: int | None
    rank_before: int | None
    tied: bool = False

    @property
    def rated(self) -> bool:
        return self.rank is not None and self.matches >= MIN_MATCHES

    @property
    def figure(self) -> int:
        return display(self.ordinal)

    @property
    def rank_text(self) -> str:
        return "" if self.rank is None else (f"{self.rank}=" if self.tied else str(self.rank))

    @property
    def new(self) -> bool:
        return self.rated and self.rank_before is None

    @property
    def change(self) -> int | None:
        if not self.rated or self.rank_before is None or self.rank is None:
            return None
        return self.rank_before - self.rank


@dataclass
class GameTile:
    """A game as a list shows it: its kind, players in seat order, start and status."""

    id: int
    kind: str
    status: GameStatus
    created_at: datetime
    players: list[PlayerRef] = field(default_factory=list)


@dataclass
class GamesPage:
    """One page of a season's games, latest first (page 1 is the latest)."""

    games: list[GameTile]
    page: int
    pages: int
    total: int

    @property
    def newer(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def older(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None


@dataclass
class SeasonStandings:
    """Everything the season page shows. Iterating it gives the all-games summary
    (most wins first), so ``{% for s in standings %}`` keeps working."""

    season_id: int
    summary: list[Standing] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    rating: list[RatingLine] = field(default_factory=list)

    def __iter__(self) -> Iterator[Standing]:
        return iter(self.summary)

    def __len__(self) -> int:
        return len(self.summary)

    def __bool__(self) -> bool:
        return bool(self.summary)

    @property
    def rated(self) -> list[RatingLine]:
        """Players shown with a rating, best first."""
        return [r for r in self.rating if r.rated]

    @property
    def unrated(self) -> list[RatingLine]:
        """Players not rated yet (fewer than MIN_MATCHES matches), most matches first."""
        return [r for r in self.rating if not r.rated]

    @property
    def min_matches(self) -> int:
        return MIN_MATCHES

    def games_page(self, page: object = None) -> GamesPage:
        """A page of the season's games (``page`` as the address gives it: 1 when absent
        or wrong), latest first, players loaded: a fixed number of queries."""
        total = db.session.scalar(sa.select(sa.func.count(Game.id)).where(Game.season_id == self.season_id)) or 0
        pages = max(1, -(-total // GAMES_PER_PAGE))
        number = plain_int(str(page or ""), 1, pages) or 1
        tiles = [
            GameTile(row.id, row.kind, row.status, row.created_at)
            for row in db.session.execute(
                sa.select(Game.id, Game.kind, Game.status, Game.created_at)
                .where(Game.season_id == self.season_id)
                .order_by(Game.created_at.desc(), Game.id.desc())
                .limit(GAMES_PER_PAGE)
                .offset((number - 1) * GAMES_PER_PAGE)
            )
        ]
        by_id = {tile.id: tile for tile in tiles}
        # Asked even for an empty page: the same queries whatever the season holds.
        seated = db.session.execute(
            sa.select(GamePlayer.game_id, Player.id, Player.name)
            .join(Player, Player.id == GamePlayer.player_id)
            .where(GamePlayer.game_id.in_(list(by_id)))
            .order_by(GamePlayer.game_id, GamePlayer.seat)
        )
        for game_id, player_id, name in seated:
            by_id[game_id].players.append(PlayerRef(player_id, name))
        return GamesPage(tiles, number, pages, total)


def _ranked(lines: list[Line], kind: str) -> list[Line]:
    """Lines best first, equal keys sharing a rank (1, 2, 2, 4)."""
    ordered = sorted(lines, key=lambda line: (line.key(kind), sort_key(line.player.name)))
    for i, line in enumerate(ordered):
        same_as_previous = i > 0 and line.key(kind) == ordered[i - 1].key(kind)
        line.rank = ordered[i - 1].rank if same_as_previous else i + 1
        line.tied = same_as_previous or (i + 1 < len(ordered) and line.key(kind) == ordered[i + 1].key(kind))
    return ordered


def _kind_order(kind: str) -> int:
    order = list(KINDS)
    return order.index(kind) if kind in order else len(order)


def boards_of(season_id: int) -> tuple[list[Board], list[Standing]]:
    """The season's leaderboards (kinds played, in the new-game page's order) and its
    all-games summary, from the totals kept per season, kind and player (one query)."""
    t = SeasonTotal
    rows = db.session.execute(
        sa.select(t, Player.name).join(Player, Player.id == t.player_id).where(t.season_id == season_id)
    ).all()
    by_kind: dict[str, list[Line]] = {}
    summary: dict[int, Standing] = {}
    for total, name in rows:
        player = PlayerRef(total.player_id, name)
        line = Line(
            player=player,
            games=total.games,
            wins=total.wins,
            points=total.points,
            times_president=total.times_president,
            times_last=total.times_last,
            manches=total.manches if season_of(total.kind).every_round else 0,
            rank_sum=total.rank_sum,
            avg_stake=Fraction(total.stake_sum, total.staked) if total.staked else None,
            avg_place=Fraction(total.place_sum, total.placed) if total.placed else None,
            times_over=total.times_over,
        )
        by_kind.setdefault(total.kind, []).append(line)
        standing = summary.setdefault(total.player_id, Standing(player))
        standing.played += total.games
        standing.wins += total.wins
    kinds = sorted(by_kind, key=_kind_order)
    boards = [Board(kind, _ranked(by_kind[kind], kind)) for kind in kinds]
    ordered = sorted(summary.values(), key=lambda s: (-s.wins, s.played, sort_key(s.player.name)))
    return boards, ordered


def rating_of(season_id: int) -> list[RatingLine]:
    """The season's rating, rated players best first, then the others (one query)."""
    rows = db.session.execute(
        sa.select(PlayerRating, Player.name)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(PlayerRating.season_id == season_id)
    ).all()
    lines = [
        RatingLine(PlayerRef(rating.player_id, name), rating.matches, rating.ordinal, rating.rank, rating.rank_before)
        for rating, name in rows
    ]
    lines.sort(key=lambda r: (r.rank is None, r.rank or 0, -r.matches, sort_key(r.player.name)))
    ranks = [r.rank for r in lines if r.rank is not None]
    for line in lines:
        line.tied = line.rank is not None and ranks.count(line.rank) > 1
    return lines


def season_standings(season: Season) -> SeasonStandings:
    """Everything the season page shows, read from stored results: a fixed number of
    queries however many games and rounds the season holds."""
    boards, summary = boards_of(season.id)
    return SeasonStandings(season.id, summary, boards, rating_of(season.id))


def games_of(season_ids: list[int], status: GameStatus | None = None, others: int | None = None) -> list[Game]:
    """The games of these seasons, latest first, with their players loaded (a fixed
    number of queries however many games): those of ``status`` (every one when None),
    and with ``others`` the latest ``others`` games of another status too."""
    latest = sa.select(Game).where(Game.season_id.in_(season_ids))
    query = latest.options(so.joinedload(Game.seats).joinedload(GamePlayer.player), so.joinedload(Game.season))
    if status is not None:
        chosen = Game.status == status
        if others:
            recent = latest.with_only_columns(Game.id).where(Game.status != status)
            recent = recent.order_by(Game.updated_at.desc(), Game.id.desc()).limit(others)
            chosen = sa.or_(chosen, Game.id.in_(recent.scalar_subquery()))
        query = query.where(chosen)
    return list(db.session.scalars(query.order_by(Game.updated_at.desc(), Game.id.desc())).unique())


def round_counts(games: list[Game]) -> dict[int, int]:
    """How many rounds each of these games has, by game id (one query)."""
    if not games:
        return {}
    query = sa.select(Round.game_id, sa.func.count(Round.id)).where(Round.game_id.in_([g.id for g in games]))
    return {game_id: count for game_id, count in db.session.execute(query.group_by(Round.game_id)).all()}


def winner_names(game: Game) -> list[str]:
    """The names of a finished game's winners, in seat order."""
    winners = set((game.ending or {}).get("winners", []))
    return [p.name for p in game.players if str(p.id) in winners]
