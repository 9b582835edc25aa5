"""La crapouille at the season level: penalty points, out past the engine's limit.

``place`` as the scoresheet gives it (else by total, lowest first), ``points`` the
penalty total, ``eliminated`` whether the player went over the engine's
``ELIMINATION_TOTAL``, ``rounds`` hands; the leaderboard ranks by games won, then
average place, then fewest times over the limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from flask_babel import lazy_gettext as _l

from companion.games.kinds.crapouille.state import CrapouilleState
from companion.games.kinds.season_base import (
    LAST,
    BoardLine,
    GameFacts,
    KindSeason,
    RecapRound,
    by_player,
    player_ids,
    shared_places,
)
from companion.i18n import gettext as _
from companion.rules.crapouille import ELIMINATION_TOTAL

if TYPE_CHECKING:
    from companion.games.kinds.base import GameKind


class CrapouilleSeason(KindSeason):
    """The crapouille's season part."""

    standings_note = _l("Ranked by games won, then average place, then fewest times over 300.")
    recap_keys = ("totals",)
    total_column = "points"

    def figures(self, facts: GameFacts, rows: dict[int, dict[str, Any]]) -> dict[int, int]:
        players = facts.players
        state = cast(CrapouilleState, facts.last or {})
        totals = by_player(state.get("totals"), players)
        stored = by_player(state.get("places"), players)
        places: dict[int, int] = {}
        if facts.rounds:
            places = {p: int(v) for p, v in stored.items()} if len(stored) == len(players) else {}
            if not places and len(totals) == len(players):
                places = shared_places({p: int(t) for p, t in totals.items()}, best_high=False)
        out = {p for group in state.get("eliminations") or [] for p in player_ids(group, players)}
        out |= {p for p, t in totals.items() if int(t) > ELIMINATION_TOTAL}
        for p, row in rows.items():
            row["points"] = int(totals[p]) if p in totals else None
            row["eliminated"] = p in out
        return places

    def sort_key(self, line: BoardLine) -> tuple[Any, ...]:
        return (-line.wins, line.avg_place or LAST, line.times_over)

    def moments(self, rounds: Sequence[RecapRound], names: dict[str, str], kind: GameKind) -> list[str]:
        """When each player went past the limit (the first hand that took them over)."""
        out: dict[str, int] = {}
        for row in rounds:
            state = cast(CrapouilleState, row.state)
            for p, total in (state.get("totals") or {}).items():
                if p not in out and isinstance(total, int) and total > ELIMINATION_TOTAL:
                    out[p] = row.number
        return [
            _("%(name)s goes past %(limit)d at hand %(n)d.", name=names.get(p, p), limit=ELIMINATION_TOTAL, n=n)
            for p, n in sorted(out.items(), key=lambda item: item[1])
        ]
