"""Whist with a tarot deck at the season level: the stake each player has left.

``stake`` left, ``place`` by stake (largest first), ``rounds`` deals completed (a deal
waiting for its tricks is not); the leaderboard ranks by games won, then average stake
left. The CSV's round figure is the stake lost (``losses``), its total the stake left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from flask_babel import lazy_gettext as _l

from companion.games.kinds.season_base import BoardLine, GameFacts, KindSeason, RecapRound, by_player, shared_places
from companion.games.kinds.whist_tarot.state import WhistState
from companion.i18n import gettext as _

if TYPE_CHECKING:
    from companion.games.kinds.base import GameKind


class WhistSeason(KindSeason):
    """Whist's season part."""

    standings_note = _l("Ranked by games won, then average stake left.")
    recap_keys = ("stakes", "pending")
    total_column = "stake"

    def csv_figures(self, state: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        """The stake each player lost in the deal, and the stake left after it."""
        whist = cast(WhistState, state)
        return whist.get("losses") or {}, whist.get("stakes") or {}

    def figures(self, facts: GameFacts, rows: dict[int, dict[str, Any]]) -> dict[int, int]:
        players = facts.players
        state = cast(WhistState, facts.last or {})
        stakes = by_player(state.get("stakes"), players)
        places: dict[int, int] = {}
        if facts.rounds and len(stakes) == len(players):
            places = shared_places({p: int(s) for p, s in stakes.items()})
        for p, row in rows.items():
            row["stake"] = int(stakes[p]) if p in stakes else None
            row["rounds"] = facts.round_count - (1 if state.get("pending") else 0)
        return places

    def sort_key(self, line: BoardLine) -> tuple[Any, ...]:
        return (-line.wins, -(line.avg_stake or 0))

    def moments(self, rounds: Sequence[RecapRound], names: dict[str, str], kind: GameKind) -> list[str]:
        """When each player's stake ran out (the first completed deal that left it empty)."""
        empty: dict[str, int] = {}
        for row in rounds:
            state = cast(WhistState, row.state)
            if state.get("pending"):
                continue
            for p, stake in (state.get("stakes") or {}).items():
                if p not in empty and isinstance(stake, int) and stake <= 0:
                    empty[p] = row.number
        return [
            _("The stake of %(name)s runs out at hand %(n)d.", name=names.get(p, p), n=n)
            for p, n in sorted(empty.items(), key=lambda item: item[1])
        ]
