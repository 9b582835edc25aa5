"""Each manche of le Président or Piketty scored by the engine
(``companion.rules.president_outcome``): the state before the first manche, and the
state after each (:class:`~.state.PresidentState`).

What is stored names players by their id (a string); the engine is always asked with
the players' names, so that its reasons name them, and its answer is turned back into
ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from companion.games.kinds.base import Entry
from companion.games.kinds.president.options import rules_of
from companion.games.kinds.president.state import MancheEvent, PresidentState, starts_reversed
from companion.models import Game
from companion.rules.cards import parse_cards
from companion.rules.president import Rules
from companion.rules.president_outcome import Events, Guillotine, Outcome, deal_for, outcome


def initial_state(game: Game) -> PresidentState:
    """Before the first manche: the players in seat order, nobody titled, no points."""
    rules = rules_of(game)
    seats = [str(p.id) for p in game.players]
    deal = deal_for(seats, rules.deck(len(seats)).size, rules.game)
    return {
        "players": seats,
        "hierarchy": seats,
        "titles": [],
        "totals": dict.fromkeys(seats, 0) if rules.points else {},
        "putsch_banned": None,
        "first": True,
        "draw": (game.setup or {}).get("first") == "draw" or game.kind == "piketty",
        "exchanges": [],
        "dealer": None,
        "leader": None,
        "deal": dict(deal.counts),
        "aside": deal.aside,
        "events": [],
        "event": {},
        "finished_last": [],
        "points": {},
        "over": False,
        "winners": [],
        "losers": [],
    }


def state_after(
    rules: Rules, before: PresidentState, entry: Entry, result: Outcome, id_of: dict[str, str]
) -> PresidentState:
    """The state after a manche, from the engine's outcome (players named by name)."""

    def ids(names: Sequence[str]) -> list[str]:
        return [id_of[n] for n in names]

    hierarchy = ids(result.hierarchy)
    points = {id_of[n]: p for n, p in result.points.items()}
    totals = dict(before.get("totals") or {})
    over, losers, winners = False, [], []
    if result.standing is not None:
        totals = {id_of[n]: t for n, t in result.standing.totals.items()}
        over = result.standing.ended
        if over:
            losers = ids(result.standing.losers)
            high = max(totals.values())
            winners = [p for p in hierarchy if totals[p] == high]
    state: PresidentState = {
        "players": list(before["players"]),
        "hierarchy": hierarchy,
        "titles": [
            {"player": id_of[t.player], "rank": t.rank, "fr": t.name.fr, "en": t.name.en} for t in result.titles
        ],
        "totals": totals,
        "putsch_banned": id_of[result.putsch_banned] if result.putsch_banned else None,
        "first": False,
        "draw": False,
        "exchanges": [
            {"from": id_of[x.giver], "to": id_of[x.receiver], "count": x.count, "cards": x.cards, "jokers": x.jokers}
            for x in result.exchanges
        ],
        "dealer": id_of[result.dealer],
        "leader": id_of[result.leader],
        "deal": {id_of[n]: c for n, c in result.deal.counts.items()},
        "aside": result.deal.aside,
        "events": list(result.events),
        "event": cast(MancheEvent, dict(entry.get("events") or {})),
        "finished_last": ids(result.finished_last),
        "points": points,
        "over": over,
        "winners": winners,
        "losers": losers,
    }
    if result.reversed:
        # Only when it is: a state without it (every state stored before) is in the usual order.
        state["reversed"] = True
    return state


def play(game: Game, state: PresidentState, entry: Entry) -> PresidentState:
    """The state after the manche ``entry`` from ``state``: the engine asked with the
    players' names (its reasons name them). Raises :class:`RulesError`."""
    rules = rules_of(game)
    name_of: dict[str, str] = {str(p.id): p.name for p in game.players}
    id_of = {name: key for key, name in name_of.items()}

    def named(key: object) -> str:
        return name_of.get(str(key), str(key))

    hierarchy = [named(p) for p in state["hierarchy"]]
    totals = {named(p): int(t) for p, t in (state.get("totals") or {}).items()} if rules.points else None
    banned = state.get("putsch_banned")
    if "draw" in entry:
        draw = {named(p): parse_cards(cards) for p, cards in (entry.get("draw") or {}).items()}
        result = outcome(rules, hierarchy, draw=draw, totals=totals)
    else:
        raw = entry.get("events") or {}
        guillotine = raw.get("guillotine")
        events = Events(
            putsch=named(raw["putsch"]) if raw.get("putsch") else None,
            jeu_blanc=named(raw["jeu_blanc"]) if raw.get("jeu_blanc") else None,
            coup_detat=named(raw["coup_detat"]) if raw.get("coup_detat") else None,
            guillotine=Guillotine(named(guillotine["player"]), named(guillotine["vice"]), named(guillotine["last"]))
            if guillotine
            else None,
            revolution=bool(raw.get("revolution")),
        )
        result = outcome(
            rules,
            hierarchy,
            finish=[named(p) for p in entry.get("finish") or []],
            finished_on={named(p): True for p in entry.get("finished_on") or []},
            events=events,
            first=bool(state.get("first")),
            putsch_banned=named(banned) if banned else None,
            totals=totals,
            # Without the order typed (entries saved before it was asked), it is the one the manche started in.
            reversed_at_end=bool(entry.get("reversed", starts_reversed(state))),
        )
    return state_after(rules, state, entry, result, id_of)
