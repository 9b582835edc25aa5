"""What is stored of a crapouille game after each hand: the whole scoresheet
(:class:`CrapouilleState`, ``Round.result``), players named by their id (a string), so
that a renamed player keeps the scores and a page never replays the hands.

It also says who deals the next hand and who starts it: the deal passes to the left
from whoever dealt the hand just scored (the hand's entry says who did, and the
rotation goes on from there: :func:`companion.rules.crapouille.next_opening`).
States stored before dealers were kept have no ``dealer``, ``starter`` nor ``hand``:
they are ``NotRequired``, read with ``.get``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

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
    #: Who deals the next hand (the rotation: on the left of whoever dealt the hand that
    #: led here, skipping players out); None once the game is over, or when nobody knows
    #: (a hand stored before dealers were kept, with no dealer known before it).
    dealer: NotRequired[str | None]
    #: Who plays first in the next hand: the first player still in on the dealer's left
    #: (seed 003); None with ``dealer``.
    starter: NotRequired[str | None]
    #: The number of the next hand (1 before the first); None when not known (a game
    #: whose earlier hands were stored before it was kept).
    hand: NotRequired[int | None]


def state_of(outcome: crapouille.HandResult, dealt: str | None, number: int | None) -> CrapouilleState:
    """The scoresheet after hand ``number`` (None: not known), dealt by ``dealt`` (None:
    not known), as stored (``Round.result``), with the hand's points and who deals and
    starts the next one."""
    sheet = outcome.sheet
    turn = None if dealt is None else crapouille.next_opening(sheet.players, sheet.in_play, dealt)
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
        "dealer": None if turn is None else turn.dealer,
        "starter": None if turn is None else turn.starter,
        "hand": None if number is None else number + 1,
    }


def initial_state(players: list[str], dealer: str | None = None) -> CrapouilleState:
    """The scoresheet before the first hand of these players (ids, in seat order),
    ``dealer`` dealing it (the first seat when None)."""
    sheet = crapouille.Scoresheet.start(players)
    first = crapouille.first_opening(sheet.players, dealer)
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
        "dealer": first.dealer,
        "starter": first.starter,
        "hand": 1,
    }


def sheet_of(state: CrapouilleState) -> crapouille.Scoresheet:
    """The engine's scoresheet from a stored state (no hand replayed)."""
    return crapouille.Scoresheet(
        tuple(state["players"]),
        {p: int(t) for p, t in state["totals"].items()},
        tuple(tuple(group) for group in state.get("eliminations", [])),
    )


def dealt_by(state: CrapouilleState, entry: Mapping[str, Any]) -> str | None:
    """Who dealt the hand entered as ``entry`` from ``state``: the entry's ``dealer``, a
    player still in; for an entry stored before dealers were kept (it has none), the
    dealer the state says (None when it says none either). The engine refuses a dealer
    who is not in play (:class:`~companion.rules.i18n.RulesError`)."""
    if "dealer" not in entry:
        return state.get("dealer")
    dealt = str(entry["dealer"])
    crapouille.opening(state["players"], state["in_play"], dealt)
    return dealt


def after_hand(state: CrapouilleState, outcome: crapouille.HandResult, dealt: str | None) -> CrapouilleState:
    """The state after the hand that led from ``state`` to ``outcome``, dealt by
    ``dealt``: the deal passes to the left of ``dealt``."""
    return state_of(outcome, dealt, state.get("hand"))
