"""Cards, ranks, suits and decks, in the notation of shared/RULES.md.

Canonical notation (always what the engine prints): rank ``2 3 … 10 J Q K A`` and
suit ``c d h s`` (``10h``, ``Qs``, ``Ad``); jokers ``RJ`` (red, "joker couleur") and
``BJ`` (black); tarot trumps ``T1`` … ``T21`` and the Excuse ``EX``.  On input the
French ranks ``V D R`` stand for ``J Q K``, the symbols ``♣ ♦ ♥ ♠`` for the suits,
and case does not matter.

What people type on a page follows the page's language instead
(:func:`parse_typed_cards`): in French ``8C`` is the 8 of hearts (cœur) and ``RP`` the
king of spades (roi de pique).

Nothing here knows a game's order of cards: each game module ranks cards itself.

The package, by concept (each module imports only those above it):

- :mod:`~companion.rules.cards.card` — :class:`Card`, :class:`Rank`, :class:`Suit`;
  card lists read and written in RULES.md's notation (:func:`parse_cards`,
  :func:`format_cards`, :func:`sort_cards`) and :class:`CardError`.
- :mod:`~companion.rules.cards.deck` — :class:`Deck`: how many copies of each card a
  game plays with, and why a card cannot be there once more.
- :mod:`~companion.rules.cards.typed` — cards as people type them on a page, in the
  page's language (:func:`typed_notation`, :func:`parse_typed_cards`).

>>> parse_cards("10h V♠ rj")
(Card.parse('10h'), Card.parse('Js'), Card.parse('RJ'))
>>> format_cards(parse_cards(["Ad", "T21", "EX"]))
'Ad T21 EX'
"""

from __future__ import annotations

from companion.rules.cards.card import (
    JOKERS,
    RANKS_BY_PIPS,
    Card,
    CardError,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    sort_cards,
)
from companion.rules.cards.deck import Deck
from companion.rules.cards.typed import JOKER_WORD, TypedNotation, parse_typed_cards, typed_notation

__all__ = [
    "JOKERS",
    "JOKER_WORD",
    "RANKS_BY_PIPS",
    "Card",
    "CardError",
    "Deck",
    "Rank",
    "Suit",
    "TypedNotation",
    "format_cards",
    "parse_cards",
    "parse_typed_cards",
    "sort_cards",
    "typed_notation",
]
