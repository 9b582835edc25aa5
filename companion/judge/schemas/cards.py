"""The card notation as patterns, and card lists of a game's decks (:class:`Notation`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from functools import cache

from companion.judge.schemas.messages import Schema, explained
from companion.rules.cards import JOKERS, Card, CardError, Deck, Rank, Suit
from companion.rules.i18n import Text

# -- card notation ---------------------------------------------------------------------
# Patterns are written in the common subset of ECMA 262 and Python regular
# expressions (no inline flags: case-insensitivity is spelt out), so that any JSON
# Schema tool reads them as the engine does.  ``\s`` differs between the two (Python's
# has \x1c-\x1f, ECMA's has U+FEFF), so the spaces are spelt out too: exactly the
# characters Python's ``str.strip`` and ``str.split`` take for spaces, as the engine does.
# Ranks, suits, jokers, trumps and the Excuse are spelt as companion.rules.cards spells them.

#: Inside a character class: every character for which ``str.isspace()`` is true.
SPACES = "\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
ANY_SPACES = f"[{SPACES}]*"


def _either_case(letters: str) -> str:
    """Inside a character class: each of ``letters`` in both cases (the engine ignores case)."""
    return "".join(letter.upper() + letter.lower() for letter in letters)


def _one_of(characters: str) -> str:
    """Inside a character class: ``characters``, each run of three or more that follow one
    another in Unicode written as a range (``2-9``).

    >>> _one_of("23456789JQKA"), _one_of("01")
    ('2-9JQKA', '01')
    """
    parts: list[str] = []
    start = 0
    for end in range(1, len(characters) + 1):
        if end == len(characters) or ord(characters[end]) != ord(characters[end - 1]) + 1:
            run = characters[start:end]
            parts.append(f"{run[0]}-{run[-1]}" if len(run) >= 3 else run)
            start = end
    return "".join(parts)


def _from_one_to(most: int) -> str:
    """The numbers 1 to ``most`` (10 to 99) written with one or two digits, as the engine
    reads a trump's number (``T7``, ``T07``).

    >>> _from_one_to(21)
    '0?[1-9]|1[0-9]|2[01]'
    """
    tens, units = divmod(most, 10)
    if not 1 <= tens <= 9:  # pragma: no cover - no such deck
        raise ValueError(f"no pattern for numbers up to {most}")
    digits = "0123456789"
    parts = [f"0?[{_one_of(digits[1:])}]", *(f"{ten}[{_one_of(digits)}]" for ten in range(1, tens))]
    return "|".join([*parts, f"{tens}[{_one_of(digits[: units + 1])}]"])


#: Every spelling of a rank: its notation (``10``, ``Q``), the French letters (``V D R``),
#: in either case (the engine ignores case).
_RANK_NOTATION = [rank.value for rank in Rank] + [rank.label("fr") for rank in Rank if rank.label("fr") != rank.value]
_RANK_WRITTEN = _RANK_NOTATION + [s.lower() for s in _RANK_NOTATION if s.lower() != s]
#: The outline forms of the suits' symbols, which the engine reads too but does not name
#: (``companion.rules.cards._SUIT_ALIASES``).
_SUIT_OUTLINES = {Suit.CLUBS: "♧", Suit.DIAMONDS: "♢", Suit.HEARTS: "♡", Suit.SPADES: "♤"}


def _symbols(suit: Suit) -> str:
    """The symbols of ``suit`` the engine reads in a card: its own, then its outline form."""
    outline = _SUIT_OUTLINES[suit]
    if Card.parse(Rank.TWO.value + outline).suit is not suit:  # pragma: no cover - the engine changed
        raise ValueError(f"the engine does not read {outline} as {suit.name_in('en')}")
    return suit.symbol + outline


#: A suit's letters, as the notation writes them (``c d h s``).
SUIT_LETTERS = "".join(suit.value for suit in Suit)
#: A suit in a card: its letter in either case, its symbol or the symbol's outline form.
_SUIT = f"[{SUIT_LETTERS}{SUIT_LETTERS.upper()}{''.join(_symbols(suit) for suit in Suit)}]"
_RANK_SINGLES = "".join(s for s in _RANK_WRITTEN if len(s) == 1)
#: A rank in a card, in any of its spellings; a card of the French deck: a rank, then a suit.
RANK = "(?:" + "|".join([*(s for s in _RANK_WRITTEN if len(s) > 1), f"[{_one_of(_RANK_SINGLES)}]"]) + ")"
FRENCH = f"{RANK}{_SUIT}"
#: A joker is written with its colour (``R``, ``B``) then this mark (``RJ``, ``BJ``).
_JOKER_MARK = str(JOKERS[0]).removeprefix(JOKERS[0].joker or "")
JOKER = f"[{_either_case(''.join(joker.joker or '' for joker in JOKERS))}][{_either_case(_JOKER_MARK)}]"
#: The trumps of a tarot deck, by number (the Excuse is 0).
_TRUMPS = {card.trump for card in Deck.tarot_trumps().counts if card.is_trump}
#: A trump of a tarot deck (``T1`` to ``T21``), and the Excuse (``EX``).
TRUMP = f"[{_either_case(str(Card(trump=1)).removesuffix('1'))}](?:{_from_one_to(max(_TRUMPS))})"
EXCUSE = "".join(f"[{_either_case(letter)}]" for letter in str(Card(trump=0)))
#: Cards in one string are separated by spaces or commas (docs/rules.md).
SEPARATORS = f"[{SPACES},]+"

#: What a card of the French deck is written like; what is said of a card a deck does not hold.
_WRITTEN = Text("Une carte s’écrit comme « 10h » ou « Qs ».", "A card is written like '10h' or 'Qs'.")
_NOT_IN_DECK = Text("Cette carte n’est pas dans ce jeu.", "This card is not in this deck.")


@dataclasses.dataclass(frozen=True)
class Notation:
    """The cards of a game's decks as the API reads them: ``token``, the pattern of one card
    (alternatives of :data:`FRENCH`, :data:`JOKER`, :data:`TRUMP`, :data:`EXCUSE`); ``most``,
    the most cards its decks hold, as the engine builds them; what a card is ``written``
    like; and what is said of a card that the game does not use (``not_in_deck``)."""

    token: str
    most: int
    written: Text = _WRITTEN
    not_in_deck: Text = _NOT_IN_DECK


@cache
def card_token(notation: Notation) -> re.Pattern[str]:
    """The regular expression of one card of ``notation``, surrounding spaces allowed.

    >>> tarot = Notation(f"{TRUMP}|{EXCUSE}", 22)
    >>> bool(card_token(tarot).match(" T21")), bool(card_token(tarot).match("Ah"))
    (True, False)
    """
    return re.compile(f"^{ANY_SPACES}(?:{notation.token}){ANY_SPACES}$")


def card_problem(text: str, notation: Notation) -> Text:
    """Why ``text`` is not a card of ``notation``: the engine's own sentence when it cannot read it.

    >>> card_problem("11h", Notation(FRENCH, 52)).fr
    'Carte inconnue : « 11h ».'
    >>> card_problem("T1", Notation(FRENCH, 52)).en
    'This card is not in this deck.'
    """
    try:
        Card.parse(text)
    except CardError as e:
        return e.text
    return notation.not_in_deck


def one_card(notation: Notation, description: str) -> Schema:
    """One card of ``notation``."""
    return explained(
        {"type": "string", "pattern": card_token(notation).pattern, "description": description},
        notation.written,
        pattern=lambda value: card_problem(value, notation),
    )


def _first_bad_card(text: str, notation: Notation) -> Text | tuple[Text, str]:
    """The first card of a card string that ``notation`` does not have, and where it is."""
    token = card_token(notation)
    words = [w for w in re.split(SEPARATORS, text) if w]
    for i, word in enumerate(words):
        if not token.match(word):
            return card_problem(word, notation), f"[{i}]"
    return Text("Il faut au moins une carte.", "At least one card is needed.")


def _card_string(notation: Notation, at_least_one: bool) -> Schema:
    token = f"(?:{notation.token})"
    cards = rf"{token}(?:{SEPARATORS}{token})*"
    body = cards if at_least_one else f"(?:{cards})?"
    return explained(
        {"type": "string", "pattern": f"^[{SPACES},]*{body}[{SPACES},]*$"},
        pattern=lambda value: _first_bad_card(value, notation),
    )


def cards(notation: Notation, at_least_one: bool = False, description: str = "") -> Schema:
    """A card list of ``notation``: a JSON array of cards or one string of cards separated by spaces."""
    most = notation.most
    array: Schema = {"type": "array", "items": one_card(notation, "A card."), "maxItems": most}
    if at_least_one:
        array["minItems"] = 1
    schema = {
        "description": (description + " " if description else "")
        + "A list of cards, or one string of cards separated by spaces.",
        "oneOf": [array, _card_string(notation, at_least_one)],
    }
    fewest = Text("Il faut au moins une carte.", "At least one card is needed.")
    explained(array, minItems=fewest, maxItems=_too_many_cards(most))
    return explained(schema, Text("Une liste de cartes est attendue.", "A list of cards is expected."))


def _too_many_cards(most: int) -> Text:
    return Text(f"Le jeu n’a que {most} cartes.", f"The deck has only {most} cards.")


#: Every spelling of a rank in the card notation, by the rank the engine reads in it.
_RANK_SPELLINGS: dict[Rank, list[str]] = {}
for _spelling in _RANK_WRITTEN:
    _RANK_SPELLINGS.setdefault(Card.parse(_spelling + "h").rank or Rank.TWO, []).append(_spelling)


def ranks_pattern(ranks: Iterable[Rank]) -> str:
    spellings = [s for rank in ranks for s in _RANK_SPELLINGS[rank]]
    alternatives = [s for s in spellings if len(s) > 1]
    singles = "".join(s for s in spellings if len(s) == 1)
    if singles:
        alternatives.append(f"[{singles}]")
    return "(?:" + "|".join(alternatives) + ")"


def deck_token(deck: Deck) -> str:
    """One card of ``deck`` (a deck drops whole ranks, never single cards of a rank)."""
    held = [card for card in deck.counts if deck.limit(card) > 0]
    ranks = [rank for rank in Rank if any(card.rank is rank for card in held)]
    for rank in ranks:
        if sum(1 for card in held if card.rank is rank) != len(Suit):  # pragma: no cover - no such deck today
            raise ValueError(f"a deck with only some {rank.value}s cannot be written as a pattern")
    parts = [ranks_pattern(ranks) + _SUIT] if ranks else []
    colours = "".join(joker.joker or "" for joker in JOKERS if deck.limit(joker) > 0)
    if colours:
        parts.append(f"[{_either_case(colours)}][{_either_case(_JOKER_MARK)}]")
    trumps = {card.trump for card in held if card.trump}
    if trumps == _TRUMPS:
        parts.append(TRUMP)
    elif trumps:  # pragma: no cover - no such deck today
        raise ValueError("a deck with only some trumps cannot be written as a pattern")
    if any(card.trump == 0 for card in held):
        parts.append(EXCUSE)
    return "|".join(parts)


def deck_problem(text: object, deck: Deck, notation: Notation) -> Text:
    """Why the card ``text`` cannot be in ``deck`` (of ``notation``): the engine's sentence."""
    if not isinstance(text, str):
        return notation.not_in_deck
    try:
        card = Card.parse(text)
    except CardError as e:
        return e.text
    return deck.too_many(card)
