"""What is stored of a crapouille game after each hand: the whole scoresheet
(:class:`CrapouilleState`, ``Round.result``), players named by their id (a string), so
that a renamed player keeps the scores and a page never replays the hands.
"""

from __future__ import annotations

from typing import TypedDict

from companion.rules import crapouille


class CrapouilleState(TypedDict):
    """The scoresheet after a hand (or before the first), as stored."""

    #: The seats, in order.
    players: list[str]
    #: Each player's penalty points for the hand that led here (empty before the first).
    points: dict[str, int]
    #: Each player's total after it.
    totals: dict[str, int]
    #: Who went out (past the engine's limit) at that hand.
    eliminated: list[str]
    #: Who went out, hand after hand: one group per hand that put players out.
    eliminations: list[list[str]]
    #: The players still in, in seat order.
    in_play: list[str]
    #: Whether the game ended with it.
    over: bool
    #: The scoresheet's places (1 = best, ties share).
    places: dict[str, int]
    #: The final order once the game is over (empty before).
    ranking: list[str]
    #: The winners (the last player in, or the lowest totals).
    winners: list[str]


def state_of(outcome: crapouille.HandResult) -> CrapouilleState:
    """The scoresheet after a hand, as stored (``Round.result``), with the hand's points."""
    sheet = outcome.sheet
    return {
        "players": list(sheet.players),
        "points": dict(outcome.points),
        "totals": dict(sheet.totals),
        "eliminated": list(outcome.eliminated),
        "eliminations": [list(group) for group in sheet.eliminations],
        "in_play": list(sheet.in_play),
        "over": sheet.over,
        "places": sheet.places(),
        "ranking": sheet.ranking() if sheet.over else [],
        "winners": sheet.winners(),
    }


def initial_state(players: list[str]) -> CrapouilleState:
    """The scoresheet before the first hand of these players (ids, in seat order)."""
    sheet = crapouille.Scoresheet.start(players)
    return {
        "players": list(sheet.players),
        "points": {},
        "totals": dict(sheet.totals),
        "eliminated": [],
        "eliminations": [],
        "in_play": list(sheet.in_play),
        "over": False,
        "places": sheet.places(),
        "ranking": [],
        "winners": [],
    }


def sheet_of(state: CrapouilleState) -> crapouille.Scoresheet:
    """The engine's scoresheet from a stored state (no hand replayed)."""
    return crapouille.Scoresheet(
        tuple(state["players"]),
        {p: int(t) for p, t in state["totals"].items()},
        tuple(tuple(group) for group in state.get("eliminations", [])),
    )
