"""La crapouille play by play (seed 003; shared/RULES.md §4): which card may go on the pile.

Re-exported by :mod:`companion.rules.crapouille`, which scores the hands.

A :class:`Pile` is the public table of a hand (what the JSON API's ``state``
holds): the players in seat order (clockwise), the pile oldest first (its first
card is the *starting card*, turned up by the dealer, which has no power), the
direction of play, the suit ``asked`` with the last 8 and whose ``turn`` it is
(and, once the hand is over, who went ``out``).
:meth:`Pile.check` judges a :class:`PlayCard` or a :class:`Draw` and returns a
:class:`Verdict` (never raising for an illegal move); :meth:`Pile.apply` makes a
legal move.

What may go on the top card (:meth:`Pile.accepts`):

- a plain card (or the starting card, whatever it is but a joker): a card of the
  same suit or the same rank, or an 8, or a joker;
- a 2 played in the hand: a card of its suit or another 2, nothing else (no 8, no
  joker, even an 8 of the 2's suit: the seed's « sauf là encore sur un 2 »);
- an 8: a card of the suit its player asked, or an 8, or a joker;
- a joker: a 2, a card of the suit asked before it (the suit of the card under
  it, or the suit named with the 8 under it; through several jokers), an 8 or a
  joker; on jokers lying on a starting joker, anything;
- a starting joker: anything.

The package, by concept:

- :mod:`~companion.rules.crapouille_play.moves` — the house rules (:class:`Options`),
  the deck, the moves (:class:`PlayCard`, :class:`Draw`) and the engine's answer
  (:class:`Verdict`, :class:`PlayRule`, :class:`Effect`).
- :mod:`~companion.rules.crapouille_play.pile` — :class:`Pile`, the table of a hand:
  what the top card asks for, moves checked and applied.

>>> pile = Pile(("Ann", "Bob", "Cid", "Dan"), (Card.parse("9d"), Card.parse("8h")), asked=Suit.SPADES, turn="Bob")
>>> pile.check(PlayCard("Bob", Card.parse("Js"))).legal
True
>>> print(pile.check(PlayCard("Bob", Card.parse("9h"))).reason.get("en"))
Spades were asked: play a spade, an 8 or a joker.
"""

from __future__ import annotations

from companion.rules.cards import Card, Suit  # noqa: F401  (read by the doctests)
from companion.rules.crapouille_play.moves import DECK, Draw, Effect, Options, PlayCard, PlayMove, PlayRule, Verdict
from companion.rules.crapouille_play.pile import Pile

__all__ = [
    "DECK",
    "Draw",
    "Effect",
    "Options",
    "Pile",
    "PlayCard",
    "PlayMove",
    "PlayRule",
    "Verdict",
]
