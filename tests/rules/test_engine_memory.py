"""The engine remembers values it has worked out (docs/rules.md, top): a remembered
answer must be the answer it would compute, and an error is never remembered."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card, CardError, parse_cards
from companion.rules.i18n import RulesError
from companion.rules.president import Rules, combination


def test_rules_read_from_equal_looking_options_of_another_type_are_read_again() -> None:
    # True == 1 and hash(True) == hash(1): the remembered rules must still tell them apart.
    assert Rules.from_options({"jokers": 1}).jokers == 1
    with pytest.raises(RulesError):
        Rules.from_options({"jokers": True})
    assert Rules.from_options({"runs": True}).runs is True
    with pytest.raises(RulesError):
        Rules.from_options({"runs": 1})


def test_remembered_rules_are_the_rules_read_afresh() -> None:
    options = {"preset": "wizz", "twos_cut": True}
    first, again = Rules.from_options(options), Rules.from_options(dict(options))
    assert again == first == Rules._from_options(options, "president")
    assert hash(again) == hash(Rules._from_options(options, "president"))


def test_a_card_spelling_is_read_the_same_and_a_bad_one_refused_every_time() -> None:
    assert Card.parse(" 10h ") == Card.parse("10h") == Card._read("10h")
    for _ in range(2):
        with pytest.raises(CardError):
            Card.parse("8x")


def test_a_remembered_combination_is_the_one_computed() -> None:
    rules = Rules.from_options({"runs": True})
    for text in ("9h 10h Jh", "7s 7h", "2c", "Qs Qh Qd Qc"):
        cards = parse_cards(text)
        for reversed_ in (False, True):
            assert combination(cards, rules, reversed_) == combination(list(cards), rules, reversed_)
