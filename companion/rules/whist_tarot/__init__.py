"""Whist avec un jeu de Tarot (seed 002; shared/RULES.md §3): deals, bids, tricks, stakes.

Three or four players play with the 22 trumps of a tarot deck (``T1`` … ``T21`` and
the Excuse ``EX``); each starts with a stake of 14 cards.  Every dealer deals 5, 4,
3, 2, 1 cards and then 1 card *blind* (held to the forehead), then the deal passes
to the left (:func:`next_deal`).  Players bid from the dealer's left, the dealer
last; he may not bid the one value that would make the bids add up to the number of
tricks (:func:`forbidden_bid`).  The player second left of the dealer leads the
first trick; any card may be played; the highest trump wins and its player leads
next; the Excuse is announced as 0 or 22 when played.  After the deal each player
gives up ``|bid − tricks|`` cards of his stake (:func:`settle`); the game ends as
soon as a stake is empty, the largest stake winning.

Seats are given clockwise, so "the left" of a player is the next one in the list.

A :class:`Deal` is the public table of one deal (what the JSON API's ``state``
holds); :meth:`Deal.check` judges a :class:`Bid` or a :class:`Play` and never raises
for an illegal move; :meth:`Deal.apply` makes a legal one.

The package, by concept (each module imports only those above it):

- :mod:`~companion.rules.whist_tarot.schedule` — the deck, the stake and the series
  of deals; the players (:func:`check_players`); who deals what next
  (:class:`DealSpec`, :func:`first_deal`, :func:`next_deal`); who bids first and who
  leads the first trick (:func:`bidding_order`, :func:`first_leader`); each player's
  role in a deal (:class:`Roles`, :func:`roles`).
- :mod:`~companion.rules.whist_tarot.moves` — a :class:`Bid`, a :class:`Play` (the
  Excuse's value), who takes a trick (:func:`trick_winner`), the dealer's forbidden
  bid and its sentence (:func:`forbidden_bid`, :func:`forbidden_bid_text`), the ids
  of refusals (:class:`RuleId`) and effects (:class:`Effect`), the :class:`Verdict`.
- :mod:`~companion.rules.whist_tarot.deal` — :class:`Deal`: the table of one deal,
  moves checked and applied, legal moves listed.
- :mod:`~companion.rules.whist_tarot.settlement` — :func:`settle`: stakes after a
  deal, the end of the game and its winners (:class:`Settlement`).

>>> deal = Deal(("Ann", "Bob", "Cid", "Dan"), dealer="Dan", cards=5, bids={"Ann": 2, "Bob": 1, "Cid": 1})
>>> verdict = deal.check(Bid("Dan", 1))
>>> verdict.legal, verdict.rule, verdict.forbidden_bid
(False, <RuleId.DEALER_BID: 'dealer_bid'>, 1)
>>> print(verdict.reason.get("en"))
Dan deals and may not bid 1: the bids would add up to 5, the number of tricks.
"""

from __future__ import annotations

from companion.rules.whist_tarot.deal import Deal
from companion.rules.whist_tarot.moves import (
    EXCUSE_VALUES,
    Bid,
    Effect,
    Move,
    Play,
    RuleId,
    Verdict,
    forbidden_bid,
    forbidden_bid_text,
    trick_winner,
)
from companion.rules.whist_tarot.schedule import (
    DECK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SERIES,
    STAKE,
    DealSpec,
    Roles,
    bidding_order,
    check_players,
    first_deal,
    first_leader,
    next_deal,
    roles,
)
from companion.rules.whist_tarot.settlement import Settlement, settle

__all__ = [
    "DECK",
    "EXCUSE_VALUES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SERIES",
    "STAKE",
    "Bid",
    "Deal",
    "DealSpec",
    "Effect",
    "Move",
    "Play",
    "Roles",
    "RuleId",
    "Settlement",
    "Verdict",
    "bidding_order",
    "check_players",
    "first_deal",
    "first_leader",
    "forbidden_bid",
    "forbidden_bid_text",
    "next_deal",
    "roles",
    "settle",
    "trick_winner",
]
