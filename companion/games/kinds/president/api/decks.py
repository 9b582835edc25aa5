"""Président and Piketty: the cards of a request are of the deck its rules and players make."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from companion.games.kinds.president.api.notation import NOTATIONS
from companion.games.kinds.president.api.options import _given, _option, _rules_refusal
from companion.judge.schemas.cards import ANY_SPACES, RANK, SEPARATORS, SPACES, deck_problem, deck_token, ranks_pattern
from companion.judge.schemas.common import OFF, chain, engine_says, merged, option_values
from companion.judge.schemas.messages import Schema, explained
from companion.rules import president, president_outcome
from companion.rules.cards import Card, Deck, Rank
from companion.rules.i18n import Text


def _in_deck(deck: Deck, game: str, ranks: tuple[president.Rules, int] | None = None) -> Schema:
    """Cards (a list, or one string) that ``deck`` holds; with ``ranks`` (the rules and the
    number of players that make the deck), a rank alone too, as ``finished_on`` takes.  Any
    other value passes."""
    token = deck_token(deck)
    one = re.compile(f"^{ANY_SPACES}(?:{token}){ANY_SPACES}$")
    listed = rf"(?:{token})(?:{SEPARATORS}(?:{token}))*"
    string = f"^[{SPACES},]*(?:{listed})?[{SPACES},]*$"
    if ranks is not None:
        held = [r for r in Rank if any(card.rank is r for card in deck.counts if deck.limit(card))]
        string = f"^{ANY_SPACES}{ranks_pattern(held)}{ANY_SPACES}$|{string}"

    def first_outside(text: object) -> Text | tuple[Text, str]:
        if ranks is not None and isinstance(text, str) and re.match(f"^{ANY_SPACES}{RANK}{ANY_SPACES}$", text):
            rules, n = ranks
            names = [f"P{i}" for i in range(n)]
            rank = cast(Rank, Card.parse(text.strip() + "h").rank)  # a rank with a suit: no joker
            return engine_says(
                lambda: president_outcome.outcome(rules, names, finished_on={names[0]: rank}),
                NOTATIONS[game].not_in_deck,
            )
        words = [w for w in re.split(SEPARATORS, text) if w] if isinstance(text, str) else []
        for i, word in enumerate(words):
            if not one.match(word):
                return deck_problem(word, deck, NOTATIONS[game]), f"[{i}]"
        return NOTATIONS[game].not_in_deck

    item = explained({"pattern": one.pattern}, pattern=lambda text: deck_problem(text, deck, NOTATIONS[game]))
    return explained({"items": item, "pattern": string}, pattern=first_outside)


#: The presets that choose their own deck (the tarot one).
_DECK_PRESETS = [
    p for p in president.PRESETS if president.Rules.from_options({"preset": p}).deck(4) != president.Rules().deck(4)
]


def _plays_in_deck(rules: president.Rules, n: int, game: str) -> Schema:
    """A check request whose trick and move lay only cards of the deck of ``rules`` at ``n`` players."""
    listed = _in_deck(rules.deck(n), game)
    plays = {"properties": {"cards": listed, "laid": listed}}
    return {"properties": {"state": {"properties": {"trick": {"items": plays}}}, "move": plays}}


def _finishes_in_deck(rules: president.Rules, n: int, game: str) -> Schema:
    """An outcome request whose finishing cards and draw are cards of the deck of ``rules`` at
    ``n`` players."""
    deck = rules.deck(n)
    return {
        "properties": {
            "finished_on": {"additionalProperties": _in_deck(deck, game, (rules, n))},
            "draw": {"additionalProperties": _in_deck(deck, game)},
        }
    }


#: Where a request holds cards: ``(rules, players, game)`` -> the request's cards of that deck.
InDeck = Callable[[president.Rules, int, str], Schema]


def _president_decks(in_deck: InDeck, with_reduced: bool = True) -> Schema:
    """Président: the cards are of the deck the rules choose, as ``in_deck`` places them in a
    request, and what a deck allows of the options.  A case split: a preset's own deck (one
    of them, not the 32-card one), then ``with_reduced`` the 32-card deck (one of them, no
    twos_cut), with jokers or not, then jokers or none.  (A check leaves the 32-card deck
    to the engine: with its trick and move, it would take a generator past its bound.)"""
    cases = []
    for preset in _DECK_PRESETS:
        rules = president.Rules.from_options({"preset": preset})
        only = option_values(
            {
                "decks": ({"const": 1}, _rules_refusal({"preset": preset, "decks": 2}, "decks")),
                "reduced": (OFF, _rules_refusal({"preset": preset, "reduced": True}, "reduced")),
            }
        )
        cases.append((_given(_option("preset", preset)), merged(in_deck(rules, 4, "president"), _given(only))))
    reduced = _given(
        option_values(
            {
                "decks": ({"const": 1}, _rules_refusal({"reduced": True, "decks": 2}, "reduced")),
                "twos_cut": (OFF, _rules_refusal({"reduced": True, "twos_cut": True}, "twos_cut")),
            }
        )
    )
    for jokers in ((1, 2), (0,)) if with_reduced else ():
        condition = _given({"allOf": [_option("reduced", True), _option("jokers", *jokers)]})
        rules = president.Rules(reduced=True, jokers=jokers[0])
        cases.append((condition, merged(in_deck(rules, 4, "president"), reduced)))
    cases.append((_given(_option("jokers", 1, 2)), in_deck(president.Rules(jokers=2), 4, "president")))
    return chain(cases, in_deck(president.Rules(), 4, "president"))


def _piketty_decks(in_deck: InDeck, players: tuple[str, ...]) -> Schema:
    """Piketty: the cards are of the deck the number of players makes (and piketty_two_decks),
    as ``in_deck`` places them in a request whose players are at ``players``: a case split on
    the number of players, most first."""
    plain, two_decks = (president.Rules(game="piketty", piketty_two_decks=two) for two in (False, True))

    def tokens(n: int) -> tuple[str, str]:
        return deck_token(plain.deck(n)), deck_token(two_decks.deck(n))

    cases: list[tuple[Schema, Schema]] = []
    n = 9
    while n >= 4:
        fewest = n
        while fewest > 4 and tokens(fewest - 1) == tokens(n):
            fewest -= 1
        one, two = tokens(n)
        if one == two:
            then = in_deck(plain, n, "piketty") if one != NOTATIONS["piketty"].token else {}
        else:
            then = chain(
                [(_given(_option("piketty_two_decks", True)), in_deck(two_decks, n, "piketty"))],
                in_deck(plain, n, "piketty"),
            )
        seated: Schema = {"minItems": fewest}
        for key in reversed(players):
            seated = {"properties": {key: seated}}
        cases.append((seated, then))
        n = fewest - 1
    # The last case holds for any count the schema allows (4 and up).
    return chain(cases[:-1], cases[-1][1])
