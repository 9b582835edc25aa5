"""How Président and Piketty write their cards, as the rules API reads them."""

from __future__ import annotations

from companion.judge.schemas.cards import EXCUSE, FRENCH, JOKER, TRUMP, Notation
from companion.rules import president

#: The cards of each game's decks: Président's French deck and jokers (its tarot preset
#: adds trumps and the Excuse), at most as many as its most decks and jokers make;
#: Piketty's French deck, at most the deck of nine players.
NOTATIONS: dict[str, Notation] = {
    "president": Notation(
        f"{FRENCH}|{JOKER}|{TRUMP}|{EXCUSE}",
        president.Rules(decks=president.DECKS[-1], jokers=president.JOKERS[-1]).deck(3).size,
    ),
    "piketty": Notation(FRENCH, president.Rules(game="piketty").deck(9).size),
}
