"""Season standings: games played and won by each player."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.extensions import db
from companion.models import Game, GamePlayer, GameStatus, Player, Season


@dataclass
class Standing:
    """One player's line in a season's standings."""

    player: Player
    played: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> int:
        """Wins as a whole percentage of finished games played."""
        return round(100 * self.wins / self.played) if self.played else 0


def season_standings(season: Season) -> list[Standing]:
    """Players of a season's finished games, most wins first (then fewest games).

    The winners of a game are stored with it when it ends (``Game.outcome``).
    """
    lines: dict[int, Standing] = {}
    for game in season.games:
        if game.status is not GameStatus.FINISHED or not game.outcome:
            continue
        winners = set(game.outcome.get("winners", []))
        for player in game.players:
            line = lines.setdefault(player.id, Standing(player))
            line.played += 1
            line.wins += str(player.id) in winners
    return sorted(lines.values(), key=lambda s: (-s.wins, s.played, s.player.name.casefold()))


def games_of(season_ids: list[int], status: GameStatus | None = None) -> list[Game]:
    """The games of these seasons, latest first, with their players loaded (a fixed
    number of queries however many games)."""
    query = (
        sa.select(Game)
        .where(Game.season_id.in_(season_ids))
        .options(so.selectinload(Game.seats).joinedload(GamePlayer.player), so.joinedload(Game.season))
        .order_by(Game.updated_at.desc(), Game.id.desc())
    )
    if status is not None:
        query = query.where(Game.status == status)
    return list(db.session.scalars(query))


def winner_names(game: Game) -> list[str]:
    """The names of a finished game's winners, in seat order."""
    winners = set((game.outcome or {}).get("winners", []))
    return [p.name for p in game.players if str(p.id) in winners]
