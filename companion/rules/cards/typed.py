"""Cards as people type them on a page, in the page's language (:func:`parse_typed_cards`).

RULES.md's notation mixes languages (English suit letters, French V D R accepted), so
on a French page "8c" would be the 8 of clubs when every French player means 8 de
cœur.  Typed cards are therefore read in the page's language only: each language
has its own letters, and the suit symbols and the word "joker" work in both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules.cards.card import _SUIT_ALIASES, Card, CardError, Rank, Suit
from companion.rules.i18n import Lang, Text

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
