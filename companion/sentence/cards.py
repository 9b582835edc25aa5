"""Cards as a line says them, in French and English (:func:`read_cards`,
:func:`said_cards`): « huit de cœur », « le joker », « dame de trèfle », « 10 de
carreau », « as de pique », « deux rois », « un roi et un as », English « eight of hearts »,
« a joker », « two kings » — and the project's own notation for the page's language
(« 8C RP 10♦ Joker », :func:`~companion.rules.cards.typed_notation`).

What is said gives :class:`SaidCards`: the ``cards`` said in full (a suit, or a joker)
and the ``ranks`` said without a suit (« un roi et un as »: two ranks), which a game that
counts by rank only (the crapouille) can still count.

How a number before a card word is read (a French table's way of naming cards):

- a number right before a **suit** is the card's rank: « deux de pique », « deux pique »,
  « dix carreau » are one card, the 2 of spades, the 10 of diamonds (dictation drops the
  « de »); before a suit said in the plural, it could be the card or that many cards of
  the suit (« deux piques », « two spades »): no card is read, and a grammar asks
  (:func:`suit_count`);
- a number right before a **rank** is a count: « deux rois » (two kings), « deux as de
  pique » (two aces of spades: the crapouille plays two decks); before a rank said as a
  number it could be a count or two cards (« deux huit »: two 8s, or a 2 and an 8?): no
  card is read, and a grammar asks (:func:`count_pair`);
- a number alone is a rank only inside a list of cards (« un roi et un sept »); alone
  in a grammar that also reads totals, the grammar decides (a total, for the crapouille).

>>> print(said_cards("huit de cœur et un joker"))
8h RJ
>>> print(said_cards("deux de pique, 10 de carreau, l'as de trèfle"))
2s 10d Ac
>>> print(said_cards("un roi et un as")), print(said_cards("deux rois et une dame de pique"))
K A
Qs K K
(None, None)
>>> print(said_cards("eight of hearts and two kings", "en")), print(said_cards("8C RP 10♦ Joker"))
8h K K
8h Ks 10d RJ
(None, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.cards import Card, Rank, Suit, typed_notation
from companion.sentence.numbers import read_number
from companion.sentence.unclear import Unclear, ask, quoted
from companion.sentence.words import AND, Word, words

__all__ = [
    "CARD_WORDS",
    "SaidCards",
    "count_pair",
    "read_cards",
    "read_suit",
    "said_cards",
    "suit_count",
    "suit_count_question",
]

_SUITS = {
    "fr": {
        **dict.fromkeys(("coeur", "coeurs", "cour", "choeur"), Suit.HEARTS),
        **dict.fromkeys(("carreau", "carreaux", "carro"), Suit.DIAMONDS),
        **dict.fromkeys(("pique", "piques", "pic", "pics"), Suit.SPADES),
        **dict.fromkeys(("trefle", "trefles"), Suit.CLUBS),
    },
    "en": {
        **dict.fromkeys(("heart", "hearts"), Suit.HEARTS),
        **dict.fromkeys(("diamond", "diamonds"), Suit.DIAMONDS),
        **dict.fromkeys(("spade", "spades"), Suit.SPADES),
        **dict.fromkeys(("club", "clubs"), Suit.CLUBS),
    },
}
_FACES = {
    "fr": {
        **dict.fromkeys(("as",), Rank.ACE),
        **dict.fromkeys(("roi", "rois"), Rank.KING),
        **dict.fromkeys(("dame", "dames", "reine", "reines"), Rank.QUEEN),
        **dict.fromkeys(("valet", "valets"), Rank.JACK),
        **dict.fromkeys(("huits",), Rank.EIGHT),
    },
    "en": {
        **dict.fromkeys(("ace", "aces"), Rank.ACE),
        **dict.fromkeys(("king", "kings"), Rank.KING),
        **dict.fromkeys(("queen", "queens"), Rank.QUEEN),
        **dict.fromkeys(("jack", "jacks", "knave", "knaves"), Rank.JACK),
        **{
            w: Rank(str(n))
            for n, w in enumerate(
                ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens"], start=2
            )
        },
    },
}
_JOKERS = {"fr": frozenset({"joker", "jokers", "jocker", "jokeur"}), "en": frozenset({"joker", "jokers"})}
_COLOURS = {"fr": {"rouge": "R", "noir": "B", "couleur": "R"}, "en": {"red": "R", "black": "B"}}
_ARTICLES = {"fr": frozenset({"un", "une", "le", "la", "l"}), "en": frozenset({"a", "an", "the"})}
_OF = {"fr": frozenset({"de", "d", "a"}), "en": frozenset({"of"})}
#: Words a card list may hold besides cards: « et », « avec », « puis »…
_JOINS = {"fr": AND | {"avec", "puis"}, "en": AND | {"with", "then"}}
#: English words that the English notation would read as cards, read as words when written
#: in lower case (« as »; « As » or « AS » is the ace of spades).
_NOT_NOTATION = frozenset({"as", "ah"})
#: Every word of a card said, in each language (grammars keep them from names).
CARD_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(_SUITS[lang]) | frozenset(_FACES[lang]) | _JOKERS[lang] | frozenset(_COLOURS[lang]) | _OF[lang]
    for lang in ("fr", "en")
}
#: The most cards of one rank one count may say (two decks: 8; jokers: 4).
_MOST_OF_A_KIND = 8


@dataclass(frozen=True)
class SaidCards:
    """Cards said: ``cards`` named in full (with a suit, or jokers), ``ranks`` named
    by rank only (« un roi »), ``length`` the words they took."""

    cards: tuple[Card, ...] = ()
    ranks: tuple[Rank, ...] = ()
    length: int = 0

    @property
    def complete(self) -> bool:
        """Whether every card was said with its suit (or is a joker)."""
        return not self.ranks

    def __str__(self) -> str:
        return " ".join([*(str(c) for c in self.cards), *(r.value for r in self.ranks)])


#: A rank said by its letter before a suit (« R pique », « D de cœur », « K spades »):
#: the page's language's letters, and the English ones everywhere (« K♠ »).
_LETTERS = {
    "fr": {"r": Rank.KING, "d": Rank.QUEEN, "v": Rank.JACK, "k": Rank.KING, "q": Rank.QUEEN, "j": Rank.JACK},
    "en": {"k": Rank.KING, "q": Rank.QUEEN, "j": Rank.JACK},
}
_SYMBOLS = frozenset("♠♥♦♣♤♡♢♧")


#: The suits said in the plural, which after a number may mean that many cards of it.
_PLURAL_SUITS = {"fr": frozenset({"piques", "coeurs", "carreaux", "trefles", "pics"}), "en": frozenset()}
_PLURAL_SUITS["en"] = frozenset({"spades", "hearts", "diamonds", "clubs"})


def suit_count(said: Sequence[Word], i: int, lang: str = "fr") -> int | None:
    """How many words « deux piques » takes from ``said[i]`` on — a number, then a suit
    in the plural: the 2 of spades, or two cards of spades? (asked, never read) — or None.

    >>> suit_count(words("deux piques"), 0), suit_count(words("deux de pique"), 0), suit_count(words("2 pique"), 0)
    (2, None, None)
    """
    lang = "en" if lang == "en" else "fr"
    number = read_number(said, i, lang)
    if number is None or not 2 <= number[0] <= 10:
        return None
    j = i + number[1]
    if j < len(said) and said[j].key in _PLURAL_SUITS[lang]:
        return number[1] + 1
    return None


def count_pair(said: Sequence[Word], i: int, lang: str = "fr") -> int | None:
    """How many words « deux huit » takes from ``said[i]`` on — a number, then another
    from 2 to 10, one of them said in words (two 8s, or a 2 and an 8? asked, never
    read) — or None.

    >>> count_pair(words("deux huit"), 0), count_pair(words("2 huit"), 0), count_pair(words("2 8"), 0)
    (2, 2, None)
    """
    lang = "en" if lang == "en" else "fr"
    number = read_number(said, i, lang)
    if number is None or not 2 <= number[0] <= _MOST_OF_A_KIND:
        return None
    at = i + number[1]
    then = read_number(said, at, lang)
    if then is None or not 2 <= then[0] <= 10 or said[at].after_stop:
        return None
    if said[i].key.isdigit() and said[at].key.isdigit():
        return None  # « 2 8 » in digits lists a 2 and an 8
    return number[1] + then[1]


def suit_count_question(said: Sequence[Word], lang: str = "fr") -> Unclear | None:
    """The question to ask of the first « deux piques » or « deux huit » in ``said``
    (None without one).

    >>> suit_count_question(words("Ann deux piques")).text.fr
    '«\\xa0deux piques\\xa0»\\xa0: une carte, ou plusieurs de cette couleur\\xa0?'
    >>> suit_count_question(words("Ann deux huit")).text.fr
    '«\\xa0deux huit\\xa0»\\xa0: autant de cartes de ce rang, ou deux cartes\\xa0?'
    """
    for i in range(len(said)):
        for length, fr, en in (
            (
                suit_count(said, i, lang),
                "une carte, ou plusieurs de cette couleur",
                "one card, or several of that suit",
            ),
            (
                count_pair(said, i, lang),
                "autant de cartes de ce rang, ou deux cartes",
                "that many cards of that rank, or two cards",
            ),
        ):
            if length is not None:
                piece = " ".join(w.text for w in said[i : i + length])
                return Unclear(ask(f"{quoted(piece)} : {fr} ?", f"{quoted(piece, 'en')}: {en}?"), piece)
    return None


def read_suit(said: Sequence[Word], i: int, lang: str = "fr") -> tuple[Suit, int] | None:
    """A suit said from ``said[i]`` on (« pique », « de cœur », « of spades », « ♠ »)
    and how many words it takes, or None.

    >>> read_suit(words("de cœur"), 0), read_suit(words("spades"), 0, "en"), read_suit(words("roi"), 0)
    ((<Suit.HEARTS: 'h'>, 2), (<Suit.SPADES: 's'>, 1), None)
    """
    lang = "en" if lang == "en" else "fr"
    if i < len(said) and said[i].key in _SUITS[lang]:
        return _SUITS[lang][said[i].key], 1
    if i + 1 < len(said) and said[i].key in _OF[lang] and said[i + 1].key in _SUITS[lang]:
        return _SUITS[lang][said[i + 1].key], 2
    if i < len(said) and len(said[i].text) == 1 and said[i].text in _SYMBOLS:
        card = typed_notation("en").read(f"A{said[i].text}")
        if card is not None and card.suit is not None:
            return card.suit, 1
    return None


def _notation(word: Word, lang: str) -> Card | None:
    """A card written in the notation (« 8C », « RP », « K♠ »): the page's language's;
    written with a suit symbol, the other language's letters too (« K♠ » on a French
    page is the king of spades, there being no other way to read it)."""
    if word.key in _NOT_NOTATION and word.text.islower():
        return None
    if (word.text.isalpha() and len(word.text) != 2) or word.key in CARD_WORDS[lang]:
        return None
    card = typed_notation(lang).read(word.text)
    if card is None and any(c in _SYMBOLS for c in word.text):
        card = typed_notation("en" if lang == "fr" else "fr").read(word.text)
    return card


def _one(said: Sequence[Word], i: int, lang: str) -> tuple[tuple[Card, ...], tuple[Rank, ...], int] | None:
    """One item of a list from ``said[i]``: a card, or a count of cards (« deux rois »)."""
    j = i
    word = said[j]
    card = _notation(word, lang)
    if card is not None:
        return (card,), (), 1
    letter = _LETTERS[lang].get(word.key) if len(word.key) == 1 and word.text.isalpha() else None
    if letter is None and word.text == "A":
        letter = Rank.ACE
    if letter is not None:
        after_letter = read_suit(said, j + 1, lang)
        if after_letter is not None:
            return (Card(rank=letter, suit=after_letter[0]),), (), 1 + after_letter[1]
        if word.text.isupper():
            return (), (letter,), 1  # « Antoine R, D » (a king and a queen), written in capitals
    count = 1
    rank: Rank | None = None
    joker: str | None = None
    if word.key in _ARTICLES[lang] and j + 1 < len(said):
        j += 1
    number = read_number(said, j, lang)
    if number is not None and number[0] > 0:
        value, length = number
        after = said[j + length] if j + length < len(said) else None
        # A count of one card only: right before a rank or a joker (« deux rois », « 5
        # jokers »); « 3 et 4 de pique » is two cards. « deux huit » could be two 8s, or a 2
        # and an 8: no card is read (a grammar asks: :func:`count_pair`).
        spelled = not said[j].key.isdigit()
        many = after is not None and (spelled or after.key.endswith(("s", "x")))  # « 2 rois », not « 8 joker »
        if many and after is not None and (after.key in _FACES[lang] or after.key in _JOKERS[lang]):
            count, j = value, j + length
        elif count_pair(said, j, lang) is not None:
            return None
        elif 2 <= value <= 10 and suit_count(said, j, lang) is None:
            rank, j = Rank(str(value)), j + length
        else:
            return None
    if not 1 <= count <= _MOST_OF_A_KIND:
        return None
    if rank is None:
        if j >= len(said):
            return None
        key = said[j].key
        if key in _FACES[lang]:
            rank, j = _FACES[lang][key], j + 1
        elif key in _JOKERS[lang]:
            joker, j = "R", j + 1
            if j < len(said) and said[j].key in _COLOURS[lang]:
                joker, j = _COLOURS[lang][said[j].key], j + 1
        else:
            number = read_number(said, j, lang)
            if number is None or not 2 <= number[0] <= 10:
                return None
            rank, j = Rank(str(number[0])), j + number[1]
    if joker is not None:
        return (Card(joker=joker),) * count, (), j - i
    assert rank is not None
    suit: Suit | None = None
    found = read_suit(said, j, lang)
    if found is not None:
        suit, j = found[0], j + found[1]
    if suit is None:
        return (), (rank,) * count, j - i
    return (Card(rank=rank, suit=suit),) * count, (), j - i


def read_cards(said: Sequence[Word], i: int, lang: str = "fr") -> SaidCards | None:
    """The cards said from ``said[i]`` on (items joined by « et », « and », commas…),
    or None if no card starts there. The list ends at the first word that is neither a
    card nor a join.

    >>> ws = words("Cid huit de cœur et un joker, Dan rien")
    >>> found = read_cards(ws, 1)
    >>> str(found), found.length, ws[1 + found.length].text
    ('8h RJ', 6, 'Dan')
    """
    lang = "en" if lang == "en" else "fr"
    cards: list[Card] = []
    ranks: list[Rank] = []
    j = i
    end = i
    while j < len(said):
        item = _one(said, j, lang)
        if item is None:
            break
        cards.extend(item[0])
        ranks.extend(item[1])
        j += item[2]
        end = j
        if j < len(said) and said[j].key in _JOINS[lang]:
            j += 1
    if end == i:
        return None
    return SaidCards(tuple(cards), tuple(ranks), end - i)


def said_cards(text: str, lang: str = "fr") -> SaidCards:
    """All of ``text`` read as cards; raises :class:`Unclear` on what is not a card."""
    said = words(text)
    found = read_cards(said, 0, lang) if said else SaidCards()
    if found is None or found.length != len(said):
        at = found.length if found is not None else 0
        rest = text[said[at].start :] if said else text
        raise Unclear(ask(f"Pas une carte : {quoted(rest)}.", f"Not a card: {quoted(rest, 'en')}."), rest)
    return found
