"""What a game plays with (:class:`Deck`): how many copies of each card exist, and
why a card cannot be there once more."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from companion.rules.cards.card import (
    JOKERS,
    Card,
    CardError,
    Rank,
    Suit,
    parse_cards,  # noqa: F401  (read by the doctests)
    sort_cards,
)
from companion.rules.i18n import Text, in_words


@dataclass(frozen=True)
class Deck:
    """What a game plays with: how many copies of each card exist.

    ``jokers_any_colour`` makes the joker limit a total over both colours (a
    crapouille deck has four jokers, and a player writing ``RJ`` or ``BJ`` means
    "a joker"); otherwise each colour has its own count.

    >>> deck = Deck.french(decks=2, jokers=4, jokers_any_colour=True)
    >>> deck.size, deck.limit(Card.parse("8h")), deck.joker_limit
    (108, 2, 4)
    >>> deck.check(parse_cards("8h 8h RJ BJ RJ RJ"))
    >>> deck.check(parse_cards("8h 8h 8h"))
    Traceback (most recent call last):
    ...
    companion.rules.cards.CardError: Il n’y a que deux 8♥ dans le jeu.
    """

    counts: Mapping[Card, int]
    jokers_any_colour: bool = False

    @classmethod
    def french(
        cls,
        decks: int = 1,
        jokers: int = 0,
        without: Iterable[Rank] = (),
        jokers_any_colour: bool = False,
    ) -> Deck:
        """``decks`` 52-card decks less the ranks in ``without``, plus ``jokers``.

        Jokers alternate red, black, red… so one deck's two jokers are one of each.
        """
        removed = set(without)
        counts: Counter[Card] = Counter()
        for suit in Suit:
            for rank in Rank:
                if rank not in removed:
                    counts[Card(rank=rank, suit=suit)] = decks
        for i in range(jokers):
            counts[JOKERS[i % 2]] += 1
        return cls(dict(counts), jokers_any_colour)

    @classmethod
    def tarot_trumps(cls) -> Deck:
        """The 21 trumps and the Excuse (whist with a tarot deck)."""
        return cls({Card(trump=t): 1 for t in range(22)})

    @cached_property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(self.counts.values())

    @cached_property
    def joker_limit(self) -> int:
        """Number of jokers in the deck, both colours together."""
        return sum(self.counts.get(j, 0) for j in JOKERS)

    def limit(self, card: Card) -> int:
        """How many copies of ``card`` the deck holds (jokers: see ``jokers_any_colour``)."""
        if card.is_joker and self.jokers_any_colour:
            return self.joker_limit
        return self.counts.get(card, 0)

    def cards(self) -> list[Card]:
        """Every card of the deck, copies included, in display order."""
        return [c for c in sort_cards(self.counts) for _ in range(self.counts[c])]

    def check_together(self, groups: Mapping[str, Sequence[Card]]) -> None:
        """Like :meth:`check`, over several lists together (the hands of a table, the
        cards several players went out on); the error's field is ``<key>[i]``.

        >>> Deck.french().check_together({"Ann": parse_cards("2h 3h"), "Bob": parse_cards("4h 2h")})
        Traceback (most recent call last):
        ...
        companion.rules.cards.CardError: Il n’y a qu’un 2♥ dans le jeu.
        """
        so_far: list[Card] = []
        for key, cards in groups.items():
            try:
                self.check([*so_far, *cards])
            except CardError as e:
                index = int((e.field or "[0]").strip("[]")) - len(so_far)
                raise CardError(e.text, f"{key}[{index}]") from None
            so_far.extend(cards)

    def check(self, cards: Iterable[Card]) -> None:
        """Raise :class:`CardError` if ``cards`` hold a card more often than the deck."""
        seen: dict[Card, int] = {}
        jokers = 0
        for i, card in enumerate(cards):
            seen[card] = seen.get(card, 0) + 1
            if card.is_joker and self.jokers_any_colour:
                jokers += 1
                if jokers > self.joker_limit:
                    raise CardError(self.too_many(card), f"[{i}]")
            elif seen[card] > self.counts.get(card, 0):
                raise CardError(self.too_many(card), f"[{i}]")

    def too_many(self, card: Card) -> Text:
        """Why ``card`` cannot be there once more: the deck has no such card, or has only
        so many (« Il n’y a qu’un 5♥ dans le jeu. », « que deux 8♥ », « qu’un joker »).

        >>> deck = Deck.french(decks=2, jokers=4, jokers_any_colour=True)
        >>> [deck.too_many(Card.parse(c)).fr for c in ("8h", "RJ")]
        ['Il n’y a que deux 8♥ dans le jeu.', 'Il n’y a que quatre jokers dans le jeu.']
        >>> [Deck.french(jokers=2).too_many(Card.parse(c)).fr for c in ("Qs", "As", "RJ")]
        ['Il n’y a qu’une D♠ dans le jeu.', 'Il n’y a qu’un A♠ dans le jeu.', 'Il n’y a qu’un joker rouge dans le jeu.']
        >>> Deck.french(jokers=1, jokers_any_colour=True).too_many(Card.parse("BJ")).en
        'The deck has only one joker.'
        """
        limit = self.limit(card)
        if limit == 0:
            return Text(
                f"La carte {card.display('fr')} n’est pas dans ce jeu.",
                f"The card {card.display('en')} is not in this deck.",
            )
        if card.is_joker and self.jokers_any_colour:
            fr, en, feminine = ("joker", "jokers"), ("joker", "jokers"), False
        elif card.is_joker:
            colour = {"fr": "rouge" if card.joker == "R" else "noir", "en": "red" if card.joker == "R" else "black"}
            fr = (f"joker {colour['fr']}", f"jokers {colour['fr']}s")
            en = (f"{colour['en']} joker", f"{colour['en']} jokers")
            feminine = False
        else:
            fr = (card.display("fr"), card.display("fr"))  # « un 8♥, deux 8♥ »
            en = (card.display("en"), card.display("en"))
            feminine = card.rank is Rank.QUEEN or card.trump == 0
        return Text(
            f"Il n’y a que {in_words(limit, 'fr', feminine)} {fr[limit > 1]} dans le jeu.",
            f"The deck has only {in_words(limit, 'en')} {en[limit > 1]}.",
        )
