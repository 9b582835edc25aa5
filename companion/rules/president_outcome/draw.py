"""The first hierarchy of a Président or Piketty group, drawn by cards.

Each player draws a card; :func:`draw_key` orders the cards drawn and
:func:`hierarchy_from_draw` turns the draws into a hierarchy (tied players draw again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules.cards import Card, CardError, Deck, Rank, Suit
from companion.rules.i18n import RulesError, Text

# --------------------------------------------------------------------- first draw

_SUIT_DRAW = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
#: Président's order, low to high (shared/RULES.md §1).
NORMAL_ORDER: tuple[Rank, ...] = (
    *(Rank(r) for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    Rank.TWO,
)


def draw_key(card: Card, order: Sequence[Rank] = NORMAL_ORDER) -> tuple[int, int]:
    """How strong a drawn card is: rank in the game's ``order`` (low to high), then suit ♠ > ♥ > ♦ > ♣.

    Jokers rank above every suit card, the red one higher; tarot trumps above
    them by number, the Excuse above them all.

    # seed 001: « pique / coeur / carrreau / trèfle en cas d’égalité »

    >>> draw_key(Card.parse("2c")) > draw_key(Card.parse("As"))
    True
    >>> draw_key(Card.parse("Ks")) > draw_key(Card.parse("Kh")) > draw_key(Card.parse("Kd"))
    True
    >>> draw_key(Card.parse("RJ")) > draw_key(Card.parse("BJ")) > draw_key(Card.parse("2s"))
    True
    """
    if card.joker is not None:
        return (100, 1 if card.joker == "R" else 0)
    if card.trump is not None:
        return (200 + (card.trump or 100), 0)
    if card.rank is None or card.suit is None or card.rank not in order:
        raise CardError(
            Text(
                f"La carte {card.display('fr')} n’est pas dans ce jeu.",
                f"The card {card.display('en')} is not in this deck.",
            )
        )
    return (list(order).index(card.rank), _SUIT_DRAW[card.suit])


def hierarchy_from_draw(
    draws: Mapping[str, Sequence[Card]],
    order: Sequence[Rank] = NORMAL_ORDER,
    deck: Deck | None = None,
) -> tuple[str, ...]:
    """The first hierarchy from a card draw: the higher card, the better title.

    Each player's entry is the cards he drew, first draw first.  Equal cards (two
    decks) tie: the tied players draw again, and their next cards settle it.
    ``deck`` (if given) checks that each round of draws holds no card more often
    than the deck does.

    # seed 001: « Les rôles se définissent préalablement en tirant au sort une carte
    # (pique / coeur / carrreau / trèfle en cas d’égalité). »

    >>> c = Card.parse
    >>> hierarchy_from_draw({"Ann": [c("9h")], "Bob": [c("9s")], "Cid": [c("2c")], "Dan": [c("6d")]})
    ('Cid', 'Bob', 'Ann', 'Dan')
    >>> hierarchy_from_draw({"Ann": [c("9h"), c("7c")], "Bob": [c("9h"), c("Ks")], "Cid": [c("6d")]})
    ('Bob', 'Ann', 'Cid')
    """
    for name, cards in draws.items():
        if not cards:
            raise RulesError(
                Text(f"{name} n’a pas tiré de carte.", f"{name} drew no card."),
                f"draw.{name}",
            )
    if deck is not None:
        depth = max((len(c) for c in draws.values()), default=0)
        for i in range(depth):
            drawn = [(name, cards[i]) for name, cards in draws.items() if len(cards) > i]
            try:
                deck.check(card for _, card in drawn)
            except CardError as e:
                index = int((e.field or "[0]").strip("[]"))
                where = f"draw.{drawn[index][0]}" + (f"[{i}]" if len(draws[drawn[index][0]]) > 1 else "")
                raise RulesError(e.text, where) from None
    return tuple(_rank_draws(list(draws), draws, 0, order))


def _rank_draws(names: list[str], draws: Mapping[str, Sequence[Card]], depth: int, order: Sequence[Rank]) -> list[str]:
    if len(names) == 1:
        return names
    groups: dict[tuple[int, int], list[str]] = {}
    for name in names:
        cards = draws[name]
        if len(cards) <= depth:
            tied = Text(", ".join(names[:-1]) + " et " + names[-1], ", ".join(names[:-1]) + " and " + names[-1])
            raise RulesError(
                Text(
                    f"Égalité entre {tied.fr} : il faut tirer une nouvelle carte pour les départager.",
                    f"{tied.en} are tied: they must draw another card.",
                ),
                f"draw.{name}",
            )
        groups.setdefault(draw_key(cards[depth], order), []).append(name)
    result: list[str] = []
    for key in sorted(groups, reverse=True):
        result.extend(_rank_draws(groups[key], draws, depth + 1, order))
    return result
