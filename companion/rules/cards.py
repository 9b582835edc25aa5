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

>>> parse_cards("10h V♠ rj")
(Card.parse('10h'), Card.parse('Js'), Card.parse('RJ'))
>>> format_cards(parse_cards(["Ad", "T21", "EX"]))
'Ad T21 EX'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache

from companion.rules.i18n import Lang, RulesError, Text, in_words


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


# --- Cards as people type them on a page --------------------------------------------
#
# RULES.md's notation mixes languages (English suit letters, French V D R accepted), so
# on a French page "8c" would be the 8 of clubs when every French player means 8 de
# cœur.  Typed cards are therefore read in the page's language only: each language
# has its own letters, and the suit symbols and the word "joker" work in both.

#: Symbols of the suits, filled and outlined, read in every language.
_SYMBOL_SUITS = {k: v for k, v in _SUIT_ALIASES.items() if len(k) == 1 and not k.isascii()}
#: Emoji keyboards add a variation selector after ♠ ♥ ♦ ♣ (``♥️``): it is not part of the card.
_VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f"))
_DIGIT_RANKS = {r.value: r for r in Rank if r.value.isdigit()}
#: What the picker and the examples write for a joker (a word of both languages).
JOKER_WORD = "Joker"


@dataclass(frozen=True)
class TypedNotation:
    """How cards are typed on a page in one language (see :func:`typed_notation`).

    ``ranks`` and ``suits`` map what may be typed (upper case) to ranks and suits;
    ``jokers`` are the words that mean "a joker".  A card is a rank then a suit,
    ``10`` and the symbols included, case ignored.

    >>> fr = typed_notation("fr")
    >>> fr.read("8c"), fr.read("Rp"), fr.read("10♦"), fr.read("joker")
    (Card.parse('8h'), Card.parse('Ks'), Card.parse('10d'), Card.parse('RJ'))
    >>> fr.read("8h") is None
    True
    >>> fr.write(Card.parse("Ks")), typed_notation("en").write(Card.parse("Ks"))
    ('RP', 'Ks')
    """

    lang: Lang
    ranks: Mapping[str, Rank]
    suits: Mapping[str, Suit]
    jokers: frozenset[str]

    def read(self, text: str) -> Card | None:
        """The card ``text`` stands for in this language, or None."""
        key = text.strip().translate(_VARIATION_SELECTORS).upper()
        if key in self.jokers:
            # Only the red and black jokers' own codes name a colour; "joker" is the
            # red one, in games where a joker's colour matters, RJ or BJ says which.
            return Card(joker="B" if key == "BJ" else "R")
        if len(key) < 2:
            return None
        rank, suit = self.ranks.get(key[:-1]), self.suits.get(key[-1])
        if rank is None or suit is None:
            return None
        return Card(rank=rank, suit=suit)

    def write(self, card: Card) -> str:
        """``card`` in this language's letters: ``8C``, ``RP``, ``Joker`` (French), ``8h``, ``Ks`` (English)."""
        if card.is_joker:
            return JOKER_WORD
        if card.rank is None or card.suit is None:
            return str(card)
        suit = next(k for k, v in self.suits.items() if v is card.suit and k.isascii())
        return card.rank.label(self.lang) + (suit if self.lang == "fr" else suit.lower())

    @property
    def example(self) -> str:
        """A few cards as typed here: ``8C RP 10♦ Joker`` (French), ``8h Ks 10♦ Joker`` (English)."""
        eight, king, ten = (Card.parse(c) for c in ("8h", "Ks", "10d"))
        return f"{self.write(eight)} {self.write(king)} {ten.display(self.lang)} {JOKER_WORD}"


def _notation(lang: Lang, faces: Mapping[str, Rank], suits: Mapping[str, Suit]) -> TypedNotation:
    return TypedNotation(
        lang,
        {**_DIGIT_RANKS, **faces},
        {**suits, **_SYMBOL_SUITS},
        frozenset({JOKER_WORD.upper(), "RJ", "BJ", "🃏"}),
    )


_TYPED = {
    "fr": _notation(
        "fr",
        {"V": Rank.JACK, "D": Rank.QUEEN, "R": Rank.KING, "A": Rank.ACE},
        {"P": Suit.SPADES, "C": Suit.HEARTS, "K": Suit.DIAMONDS, "T": Suit.CLUBS},
    ),
    "en": _notation(
        "en",
        {"J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE},
        {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS},
    ),
}


def typed_notation(lang: str = "fr") -> TypedNotation:
    """The letters of ``lang`` (French for any other language).

    French: ranks ``2``…``10 V D R A``, suits ``P`` pique, ``C`` cœur, ``K`` carreau,
    ``T`` trèfle.  English: ranks ``2``…``10 J Q K A``, suits ``s h d c``.  Both: the
    symbols ``♠ ♥ ♦ ♣`` (and ``♤ ♡ ♢ ♧``), ``Joker``, ``RJ``, ``BJ`` and ``🃏``.

    >>> " ".join(k for k in typed_notation("fr").ranks if not k.isdigit()), typed_notation("fr").example
    ('V D R A', '8C RP 10♦ Joker')
    >>> " ".join(k for k in typed_notation("en").suits if k.isascii()), typed_notation("en").example
    ('S H D C', '8h Ks 10♦ Joker')
    """
    return _TYPED["en" if lang == "en" else "fr"]


def parse_typed_cards(text: str, lang: str = "fr") -> tuple[Card, ...]:
    """Read the cards typed on a page in ``lang`` (see :func:`typed_notation`).

    Cards are separated by spaces or commas.  An unreadable card raises
    :class:`CardError` at its position (``[1]``), saying how to write the card meant
    when it reads in the other language.  :func:`parse_cards` (RULES.md's notation,
    for the API) is not affected.

    >>> parse_typed_cards("8c Rp V♠ joker", "fr")
    (Card.parse('8h'), Card.parse('Ks'), Card.parse('Js'), Card.parse('RJ'))
    >>> parse_typed_cards("8c Ks, J♠️ 🃏", "en")
    (Card.parse('8c'), Card.parse('Ks'), Card.parse('Js'), Card.parse('RJ'))
    >>> try:
    ...     parse_typed_cards("8C 8h", "fr")
    ... except CardError as e:
    ...     print(e.field, e.text.fr)
    [1] Carte inconnue : « 8h » (8 de cœur : 8C ou 8♥).
    >>> try:
    ...     parse_typed_cards("Rp", "en")
    ... except CardError as e:
    ...     print(e.text.en)
    Unknown card: 'Rp' (king of spades: Ks or K♠).
    >>> try:
    ...     parse_typed_cards("11h", "en")
    ... except CardError as e:
    ...     print(e.text.en)
    Unknown card: '11h'. For example: 8h Ks 10♦ Joker.
    """
    if not isinstance(text, str):
        raise CardError(Text("Une liste de cartes est attendue.", "A list of cards is expected."))
    notation = typed_notation(lang)
    result = []
    for i, token in enumerate(t for t in re.split(r"[\s,]+", text) if t):
        card = notation.read(token)
        if card is None:
            raise CardError(_unknown_typed(token, notation), f"[{i}]")
        result.append(card)
    return tuple(result)


def _unknown_typed(token: str, notation: TypedNotation) -> Text:
    """Why ``token`` is no card here, with how to write the card it reads as elsewhere."""
    shown_token = token if len(token) <= 12 else token[:12] + "…"
    other = typed_notation("fr" if notation.lang == "en" else "en")
    meant = other.read(token)
    if meant is not None and meant.rank is not None and meant.suit is not None:
        how, shown = notation.write(meant), meant.display(notation.lang)
        fr_name = f"{meant.rank.name_in('fr')} de {meant.suit.name_in('fr')}"
        en_name = f"{meant.rank.name_in('en')} of {meant.suit.name_in('en')}"
        return Text(
            f"Carte inconnue : « {shown_token} » ({fr_name} : {how} ou {shown}).",
            f"Unknown card: '{shown_token}' ({en_name}: {how} or {shown}).",
        )
    return Text(
        f"Carte inconnue : « {shown_token} ». Par exemple : {notation.example}.",
        f"Unknown card: '{shown_token}'. For example: {notation.example}.",
    )
