"""Season standings: games played and won by each player."""

from __future__ import annotations

from dataclasses import dataclass

from companion.models import GameStatus, Player, Season


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

    The winners of a game are those its last round's result names; every kind of
    game stores them under ``winners``.
    """
    lines: dict[int, Standing] = {}
    for game in season.games:
        if game.status is not GameStatus.FINISHED or not game.rounds:
            continue
        winners = set(game.rounds[-1].result.get("winners", []))
        for player in game.players:
            line = lines.setdefault(player.id, Standing(player))
            line.played += 1
            line.wins += str(player.id) in winners
    return sorted(lines.values(), key=lambda s: (-s.wins, s.played, s.player.name.casefold()))
