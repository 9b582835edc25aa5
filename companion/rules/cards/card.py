"""One card (:class:`Card`, :class:`Rank`, :class:`Suit`) and card lists in the notation
of shared/RULES.md: read (:func:`parse_cards`, :class:`CardError`), written
(:func:`format_cards`) and sorted for display (:func:`sort_cards`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from companion.rules.i18n import RulesError, Text


class Suit(StrEnum):
    """The four French suits, by their notation letter.

    >>> Suit("h").symbol, Suit.SPADES.name_in("fr")
    ('♥', 'pique')
    """

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def name_in(self, lang: str = "fr") -> str:
        """The suit's name: ``trèfle``, ``carreau``… or ``clubs``, ``diamonds``…"""
        return _SUIT_NAMES["en" if lang == "en" else "fr"][self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_NAMES = {
    "fr": {Suit.CLUBS: "trèfle", Suit.DIAMONDS: "carreau", Suit.HEARTS: "cœur", Suit.SPADES: "pique"},
    "en": {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"},
}


class Rank(StrEnum):
    """The thirteen ranks of a French deck, by their notation.

    ``pips`` is the face value with the ace low (A = 1, J = 11, Q = 12, K = 13),
    used only for sorting and for games that count faces; game order lives in
    each game module.

    >>> Rank("10").pips, Rank.ACE.pips, Rank.JACK.label("fr")
    (10, 1, 'V')
    """

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def pips(self) -> int:
        """Face value, ace low: 2 … 10, J = 11, Q = 12, K = 13, A = 1."""
        return _PIPS[self]

    @property
    def is_face(self) -> bool:
        """J, Q and K (the "figures")."""
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)

    def label(self, lang: str = "fr") -> str:
        """The rank as players write it: French ``V D R`` for J Q K."""
        if lang != "en" and self in _FRENCH_FACES:
            return _FRENCH_FACES[self]
        return self.value

    def name_in(self, lang: str = "fr") -> str:
        """The rank as a word in a sentence (``as``, ``valet``, ``9``…)."""
        names = _RANK_WORDS["en" if lang == "en" else "fr"]
        return names.get(self, self.value)


_PIPS = {r: i for i, r in enumerate(Rank, start=2)} | {Rank.ACE: 1}
_FRENCH_FACES = {Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"}
_RANK_WORDS = {
    "fr": {Rank.JACK: "valet", Rank.QUEEN: "dame", Rank.KING: "roi", Rank.ACE: "as"},
    "en": {Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king", Rank.ACE: "ace"},
}
#: Ranks from low to high by face value (ace first).
RANKS_BY_PIPS: tuple[Rank, ...] = tuple(sorted(Rank, key=lambda r: r.pips))

_RANK_ALIASES = {r.value.upper(): r for r in Rank} | {"V": Rank.JACK, "D": Rank.QUEEN, "R": Rank.KING}
_SUIT_ALIASES = {s.value: s for s in Suit} | {
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
}
#: What separates the cards of a list written as one string.
_SEPARATORS = re.compile(r"[\s,]+")
_CARD_RE = re.compile(r"^(10|[2-9JQKAVDR])(.)$", re.IGNORECASE)
_TRUMP_RE = re.compile(r"^T(\d{1,2})$", re.IGNORECASE)


@dataclass(frozen=True, order=False)
class Card:
    """One card: a suit card, a joker, a tarot trump or the Excuse.

    Exactly one of these holds: ``rank`` and ``suit`` are set (a suit card);
    ``joker`` is ``"R"`` or ``"B"``; ``trump`` is 1..21; ``trump`` is 0 (the Excuse).

    >>> Card.parse("V♥")
    Card.parse('Jh')
    >>> str(Card.parse("ex")), Card.parse("T7").trump, Card.parse("BJ").is_joker
    ('EX', 7, True)
    >>> Card.parse("Qs").display("fr"), Card.parse("RJ").display("en")
    ('D♠', 'Red joker')
    """

    rank: Rank | None = None
    suit: Suit | None = None
    joker: str | None = None
    trump: int | None = None
    _code: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rank is not None and self.suit is not None and self.joker is None and self.trump is None:
            code = f"{self.rank.value}{self.suit.value}"
        elif self.joker in ("R", "B") and self.rank is None and self.suit is None and self.trump is None:
            code = f"{self.joker}J"
        elif self.trump is not None and 0 <= self.trump <= 21 and self.rank is None and self.suit is None:
            code = "EX" if self.trump == 0 else f"T{self.trump}"
        else:
            raise ValueError(f"not a card: {self!r}")
        object.__setattr__(self, "_code", code)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in the notation of RULES.md; raise :class:`CardError`.

        >>> Card.parse(" 10♦ ")
        Card.parse('10d')
        >>> Card.parse("11h")
        Traceback (most recent call last):
        ...
        companion.rules.cards.CardError: Carte inconnue : « 11h ».
        """
        if not isinstance(text, str):
            raise CardError(Text("Une carte s’écrit comme « 10h » ou « Qs ».", "A card is written like '10h' or 'Qs'."))
        if cls is Card and len(text) <= _KEPT_LENGTH:
            return _read_card(text)  # a card is a value: each short spelling is read once
        return cls._read(text)

    @classmethod
    def _read(cls, text: str) -> Card:
        raw = text.strip()
        key = raw.upper()
        if key in ("RJ", "BJ"):
            return cls(joker=key[0])
        if key == "EX":
            return cls(trump=0)
        if m := _TRUMP_RE.match(raw):
            number = int(m.group(1))
            if 1 <= number <= 21:
                return cls(trump=number)
        elif m := _CARD_RE.match(raw):
            suit = _SUIT_ALIASES.get(m.group(2).lower())
            if suit is not None:
                return cls(rank=_RANK_ALIASES[m.group(1).upper()], suit=suit)
        raise CardError(Text(f"Carte inconnue : « {raw} ».", f"Unknown card: '{raw}'."))

    @property
    def is_joker(self) -> bool:
        """A red or black joker."""
        return self.joker is not None

    @property
    def is_trump(self) -> bool:
        """A tarot trump T1..T21 (not the Excuse)."""
        return self.trump is not None and self.trump > 0

    @property
    def is_excuse(self) -> bool:
        """The tarot Excuse."""
        return self.trump == 0

    def display(self, lang: str = "fr") -> str:
        """How a screen shows the card: ``10♥``, ``V♠`` (French), ``Joker rouge``…"""
        if self.rank is not None and self.suit is not None:
            return f"{self.rank.label(lang)}{self.suit.symbol}"
        if self.joker is not None:
            if lang == "en":
                return "Red joker" if self.joker == "R" else "Black joker"
            return "Joker rouge" if self.joker == "R" else "Joker noir"
        if self.trump == 0:
            return "Excuse"
        return f"{'Trump' if lang == 'en' else 'Atout'} {self.trump}"

    def spoken(self, lang: str = "fr") -> str:
        """The card's name in words, for screen readers: ``roi de cœur``, ``10 of spades``.

        >>> Card.parse("Kh").spoken("fr"), Card.parse("As").spoken("en"), Card.parse("T21").spoken("fr")
        ('roi de cœur', 'ace of spades', 'atout 21')
        """
        if self.rank is not None and self.suit is not None:
            if lang == "en":
                return f"{self.rank.name_in('en')} of {self.suit.name_in('en')}"
            return f"{self.rank.name_in('fr')} de {self.suit.name_in('fr')}"
        if self.trump is not None and self.trump > 0:
            return f"{'trump' if lang == 'en' else 'atout'} {self.trump}"
        return self.display(lang).lower()

    def __str__(self) -> str:
        return self._code

    def __hash__(self) -> int:
        # Cards are hashed all the time (counted, looked up in decks, cache keys): their code
        # names them as the fields do, and a string keeps its hash.
        return hash(self._code)

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def sort_key(self) -> tuple[int, int, int]:
        """A stable display order: suit cards by suit then face, jokers, trumps."""
        if self.rank is not None and self.suit is not None:
            return (0, list(Suit).index(self.suit), self.rank.pips)
        if self.joker is not None:
            return (1, 0 if self.joker == "B" else 1, 0)
        return (2, self.trump or 0, 0)


class CardError(RulesError):
    """A card, or a list of cards, that cannot be read or cannot exist."""

    # Named where it is imported from, as before the package was split: tracebacks (and
    # the doctests that show them) say ``companion.rules.cards.CardError``.
    __module__ = "companion.rules.cards"


#: Spellings up to this long are kept once read (a card, a few spaces around it).
_KEPT_LENGTH = 8


@lru_cache(maxsize=1024)
def _read_card(text: str) -> Card:
    """:meth:`Card.parse` of a string, kept (bounded): cards are immutable; errors are not kept."""
    return Card._read(text)


JOKERS: tuple[Card, Card] = (Card(joker="R"), Card(joker="B"))


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read a card list: a JSON-style list of strings or one space-separated string.

    Cards already read are kept as they are.

    Commas are accepted as separators too.  Errors name the position (``[2]``).

    >>> parse_cards("8h, 8s")
    (Card.parse('8h'), Card.parse('8s'))
    >>> parse_cards(["8h", 3])
    Traceback (most recent call last):
    ...
    companion.rules.cards.CardError: Une carte s’écrit comme « 10h » ou « Qs ».
    >>> try:
    ...     parse_cards("8h 8x")
    ... except CardError as e:
    ...     print(e.field, e.text.get("en"))
    [1] Unknown card: '8x'.
    """
    if isinstance(cards, str):
        items: Sequence[object] = [c for c in _SEPARATORS.split(cards) if c]
    elif isinstance(cards, list | tuple):  # JSON's lists: no abstract type to ask
        items = cards
    elif isinstance(cards, Iterable) and not isinstance(cards, Mapping):
        items = list(cards)
    else:
        raise CardError(Text("Une liste de cartes est attendue.", "A list of cards is expected."))
    result = []
    for i, item in enumerate(items):
        if isinstance(item, Card):
            result.append(item)
            continue
        try:
            result.append(Card.parse(item))  # type: ignore[arg-type]
        except CardError as e:
            raise CardError(e.text, f"[{i}]") from None
    return tuple(result)


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical space-separated notation of a card list.

    >>> format_cards([Card.parse("v♣"), Card.parse("10h")])
    'Jc 10h'
    """
    return " ".join(str(c) for c in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order (suit, then face value, then jokers and trumps)."""
    return sorted(cards, key=Card.sort_key)
