"""Whist au tarot: the moves (a :class:`Bid`, a :class:`Play`) and the engine's answer.

The dealer's forbidden bid (:func:`forbidden_bid`) and THE sentence that says it
(:func:`forbidden_bid_text`); who takes a trick (:func:`trick_winner`); the ids of
refusals (:class:`RuleId`) and effects (:class:`Effect`), the :class:`Verdict`, and
the refusal texts shared by the deal and the settlement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.rules.cards import Card
from companion.rules.i18n import RulesError, Text, plural

#: The two values a player may give the Excuse.
EXCUSE_VALUES = (0, 22)


class RuleId(StrEnum):
    """Why a move is refused (ids of shared/API.md)."""

    TURN = "turn"
    DEALER_BID = "dealer_bid"
    BID_RANGE = "bid_range"
    EXCUSE = "excuse"
    CARD_PLAYED = "card_played"


class Effect(StrEnum):
    """What a legal move triggers.

    ``trick_won``: the card completes the trick; its winner (``trick_winner``)
    leads the next one.
    """

    TRICK_WON = "trick_won"


def forbidden_bid(cards: int, other_bids: Iterable[int]) -> int | None:
    """The dealer's forbidden bid: the one making the total equal ``cards``; None if negative.

    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »

    >>> forbidden_bid(5, [2, 1, 1]), forbidden_bid(2, [2, 1])
    (1, None)
    """
    value = cards - sum(other_bids)
    return value if value >= 0 else None


def forbidden_bid_text(dealer: str, bid: int, cards: int) -> Text:
    """THE sentence of the dealer's forbidden bid, wherever it is said: the refusal of
    that bid, the referee's words once the others have bid, the live screen, the deal
    form and the rules page all say this one (no second wording, no assumed gender).

    >>> print(forbidden_bid_text("Dan", 1, 5).get("en"))
    Dan deals and may not bid 1: the bids would add up to 5, the number of tricks.
    >>> print(forbidden_bid_text("Ann", 0, 1).fr)
    Ann donne et ne peut pas annoncer 0 : les annonces feraient 1, le nombre de plis.
    """
    return Text(
        f"{dealer} donne et ne peut pas annoncer {bid} : les annonces feraient {cards}, le nombre de plis.",
        f"{dealer} deals and may not bid {bid}: the bids would add up to {cards}, the number of tricks.",
    )


@dataclass(frozen=True)
class Bid:
    """A player announces how many tricks he will take."""

    player: str
    bid: int


@dataclass(frozen=True)
class Play:
    """A player lays one card; ``excuse`` is 0 or 22 when the card is the Excuse."""

    player: str
    card: Card
    excuse: int | None = None

    def __post_init__(self) -> None:
        if self.excuse is not None:
            if not self.card.is_excuse:
                raise RulesError(
                    Text("Seule l’Excuse s’annonce 0 ou 22.", "Only the Excuse is announced as 0 or 22."), "excuse"
                )
            if self.excuse not in EXCUSE_VALUES or isinstance(self.excuse, bool):
                raise RulesError(Text("L’Excuse vaut 0 ou 22.", "The Excuse is worth 0 or 22."), "excuse")

    @property
    def value(self) -> int:
        """The card's strength in the trick: the trump's number, the Excuse 0 or 22."""
        if self.card.is_excuse:
            return self.excuse or 0
        return self.card.trump or 0


Move = Bid | Play


def trick_winner(trick: Sequence[Play]) -> str:
    """Who takes a trick: the highest card (the Excuse counting as announced).

    # seed 002: « La carte la plus forte emporte le pli »

    >>> trick_winner([Play("Ann", Card.parse("T3")), Play("Bob", Card.parse("EX"), 22), Play("Cid", Card.parse("T21"))])
    'Bob'
    """
    return max(trick, key=lambda p: p.value).player


@dataclass(frozen=True)
class Verdict:
    """The engine's answer to a move.

    ``forbidden_bid`` is set on bid checks (the dealer's forbidden value when the
    mover is the dealer and has one); ``trick_winner`` when the card completes a trick.
    """

    legal: bool
    rule: RuleId | None = None
    reason: Text | None = None
    effects: tuple[Effect, ...] = ()
    next_player: str | None = None
    forbidden_bid: int | None = None
    trick_winner: str | None = None


def _illegal(rule: RuleId, reason: Text, forbidden_bid: int | None = None) -> Verdict:
    return Verdict(False, rule, reason, forbidden_bid=forbidden_bid)


def _bid_range_text(cards: int) -> Text:
    return Text(
        f"On annonce de 0 à {plural(cards, 'pli', 'plis')}.",
        f"A bid is from 0 to {plural(cards, 'trick', 'tricks', 'en')}.",
    )


def _excuse_text() -> Text:
    return Text(
        "L’Excuse s’annonce : 0 (la plus faible) ou 22 (la plus forte).",
        "The Excuse must be announced: 0 (lowest) or 22 (highest).",
    )
