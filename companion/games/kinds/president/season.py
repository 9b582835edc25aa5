"""Le Président and Piketty at the season level: each manche counts.

Over every manche played (a card draw is not: chance gives the titles, nothing was
played): ``rounds`` manches, ``times_president`` and ``times_last`` (the first and last
titles the manche left), ``rank_sum`` (the player's rank in the hierarchy it left,
1 = Président); ``points`` the total; ``place`` by total points (highest first), or by
the titles held when the game counts no points. Each manche of a finished game is a
rated match (the hierarchy it left), and the leaderboard ranks by points, then times
Président, then average rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from flask_babel import lazy_gettext as _l

from companion.clock import aware
from companion.games.kinds.president.page import event_lines
from companion.games.kinds.president.state import PresidentState
from companion.games.kinds.season_base import (
    LAST,
    BoardLine,
    GameFacts,
    KindSeason,
    Match,
    RecapRound,
    by_player,
    player_ids,
    shared_places,
)
from companion.i18n import gettext as _

if TYPE_CHECKING:
    from companion.games.kinds.base import GameKind


def counted_manche(result: Mapping[str, Any]) -> bool:
    """A manche counts in the figures and the rating unless it was a card draw (chance
    gives the titles: nothing was played)."""
    return "draw" not in (result.get("events") or [])


def places(facts: GameFacts) -> dict[int, int]:
    """Places by total points, or by the titles the last manche left (none after the
    first manche without points, nor before a full hierarchy)."""
    if facts.last is None:
        return {}
    state = cast(PresidentState, facts.last)
    totals = by_player(state.get("totals"), facts.players)
    if totals and len(totals) == len(facts.players):
        return shared_places({p: int(t) for p, t in totals.items()})
    if state.get("first"):
        return {}
    hierarchy = player_ids(state.get("hierarchy"), facts.players)
    return {p: i + 1 for i, p in enumerate(hierarchy)} if len(hierarchy) == len(facts.players) else {}


class PresidentSeason(KindSeason):
    """The Président family's season part."""

    every_round = True
    titles = True
    titles_template = "groups/_player_titles_president.html"
    standings_note = _l("Ranked by points, then times Président, then average rank.")
    recap_keys = ("events", "event", "finished_last")
    total_column = "points"

    def figures(self, facts: GameFacts, rows: dict[int, dict[str, Any]]) -> dict[int, int]:
        players = facts.players
        totals = by_player((facts.last or {}).get("totals"), players)
        manches = [r.result for r in facts.rounds if counted_manche(r.result)]
        for p, row in rows.items():
            row["rounds"] = len(manches)
            row["points"] = int(totals[p]) if p in totals else None
        for result in manches:
            hierarchy = player_ids(result.get("hierarchy"), players)
            for rank, p in enumerate(hierarchy, start=1):
                rows[p]["rank_sum"] += rank
                rows[p]["times_president"] += rank == 1
                rows[p]["times_last"] += rank == len(hierarchy)
        return places(facts)

    def round_matches(self, facts: GameFacts) -> list[Match]:
        """Each counted manche: the hierarchy it left, Président first (a card draw is
        not rated), dated by the round's creation."""
        matches = []
        for rnd in facts.rounds:
            if not counted_manche(rnd.result):
                continue
            hierarchy = player_ids(rnd.result.get("hierarchy"), facts.players)
            if len(hierarchy) == len(facts.players) >= 2:
                matches.append(Match(rnd.number, aware(rnd.created_at), {p: i + 1 for i, p in enumerate(hierarchy)}))
        return matches

    def sort_key(self, line: BoardLine) -> tuple[Any, ...]:
        return (-(line.points or 0), -line.times_president, line.avg_rank or LAST)

    def moments(self, rounds: Sequence[RecapRound], names: dict[str, str], kind: GameKind) -> list[str]:
        """Each manche's events in the game page's words, each manche named as its game
        page names it, but a card draw (a first manche's titles: not a moment)."""
        lines: list[str] = []
        for row in rounds:
            stored = cast(PresidentState, row.state)
            events = [e for e in stored.get("events") or [] if e != "draw"]
            state = cast(
                PresidentState,
                {
                    "events": events,
                    "event": stored.get("event") or {},
                    "finished_last": stored.get("finished_last") or [],
                },
            )
            name = kind.round_name(row.number)
            lines.extend(_("%(round)s: %(what)s", round=name, what=line) for line in event_lines(state, names))
        return lines
