"""What is stored of a game of le Président or Piketty after each manche
(:class:`PresidentState`, ``Round.result``; players named by their id, a string).

The whole state after the manche, as the engine's outcome gives it
(:func:`~companion.games.kinds.president.scoring.state_after`): the hierarchy, the
titles, the totals, what the next manche needs (who may not putsch, whether it is the
first), what the page shows of the last one (exchanges, dealer, leader, deal, events,
points), the end (over, winners, losers), and whether the next manche starts with the
card order reversed (``reversed``, only when it does: :func:`starts_reversed`).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

#: An exchange of the next manche: ``from`` gives ``count`` cards to ``to`` (``cards``
#: ``"best"`` or ``"choice"``; ``jokers``: whether jokers count among the best).
Exchange = TypedDict("Exchange", {"from": str, "to": str, "count": int, "cards": str, "jokers": bool})


class TitleHeld(TypedDict):
    """A player's title after the manche, in both languages (``rank`` 1 = Président)."""

    player: str
    rank: int
    fr: str
    en: str


class Guillotine(TypedDict):
    """Who laid the guillotine, and whom it named second and last."""

    player: str
    vice: str
    last: str


class MancheEvent(TypedDict, total=False):
    """The event of a manche as entered (at most one key): who putsched, who had the jeu
    blanc or made the coup d’État, the guillotine, or a revolution of the titles."""

    putsch: str
    jeu_blanc: str
    coup_detat: str
    guillotine: Guillotine
    revolution: bool


class PresidentState(TypedDict):
    """The state after a manche (or before the first), as stored."""

    #: The seats, in the order of the game's setup.
    players: list[str]
    #: The players best first (Président first): also the seating order.
    hierarchy: list[str]
    #: The titles the manche left, best first (empty before the first).
    titles: list[TitleHeld]
    #: Each player's points total (empty when the game counts no points).
    totals: dict[str, int]
    #: The failed putschist who may not putsch at the next manche.
    putsch_banned: str | None
    #: Whether the next manche is the first (no titles yet).
    first: bool
    #: Whether the first manche is a card draw (still to come).
    draw: bool
    #: The exchanges of the next manche, outermost pair first.
    exchanges: list[Exchange]
    #: Who deals and who leads the next manche (None before the first).
    dealer: str | None
    leader: str | None
    #: How many cards each player gets at the next manche, and how many are set aside.
    deal: dict[str, int]
    aside: int
    #: What happened in the manche (``putsch_failed``, ``jeu_blanc``, ``draw``…).
    events: list[str]
    #: The event as entered (:class:`MancheEvent`).
    event: MancheEvent
    #: Who went out on a forbidden card (so ranked last).
    finished_last: list[str]
    #: Each player's points for the manche.
    points: dict[str, int]
    #: The end: whether the game is over, its winners and its losers.
    over: bool
    winners: list[str]
    losers: list[str]
    #: Only when true: the next manche starts with the card order reversed (a lasting
    #: revolution); states stored before it was kept have no such key.
    reversed: NotRequired[bool]


def starts_reversed(state: PresidentState) -> bool:
    """Whether the manche after ``state`` starts with the card order reversed: the
    engine's outcome carries a lasting revolution (``revolution_persists``) over.

    A state holds ``reversed`` only when it is true, so that states stored before the
    order was kept read as not reversed and still follow from their rounds (an
    imported export is checked by scoring its rounds again)."""
    return bool(state.get("reversed"))
