"""What is stored of a whist game after each step of a deal (:class:`WhistState`,
``Round.result``; players named by their id as a string).

A deal is entered as it is played: the bids first, saved at once (the state has the deal
``pending``), then the tricks, on the same round (the state after the deal settled).
"""

from __future__ import annotations

from typing import TypedDict


class DealSpec(TypedDict):
    """A deal as the engine specifies it."""

    #: Who deals (a player id).
    dealer: str
    #: How many cards each player gets.
    cards: int
    #: Whether the deal is blind (players bid without looking at their cards).
    blind: bool


class WhistState(TypedDict):
    """The state after a deal's bids (``pending``) or after the deal, as stored."""

    #: The seats, clockwise.
    players: list[str]
    #: Each player's stake (14 at the start).
    stakes: dict[str, int]
    #: The deal in progress (pending) or the next one.
    deal: DealSpec
    #: Whether the bids of ``deal`` are in and its tricks awaited.
    pending: bool
    #: The deal ``bids``/``tricks``/``losses`` belong to (None before the first).
    played: DealSpec | None
    #: Each player's bid in that deal.
    bids: dict[str, int]
    #: Each player's tricks in that deal (empty while it is pending).
    tricks: dict[str, int]
    #: What each player's stake lost in that deal (empty while it is pending).
    losses: dict[str, int]
    #: Whether the game ended with it (a stake is empty).
    over: bool
    #: The winners once it is over (the largest stakes).
    winners: list[str]
