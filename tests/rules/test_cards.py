"""Card notation and decks (shared/RULES.md, "Card notation used everywhere")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.cards import Card, CardError, Deck, Rank, Suit, format_cards, parse_cards, sort_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10h", "10h"),
        ("Qs", "Qs"),
        ("Ad", "Ad"),
        ("V♠", "Js"),  # French V D R accepted on input for J Q K
        ("D♥", "Qh"),
        ("r♣", "Kc"),
        ("10♦", "10d"),
        ("rj", "RJ"),
        ("BJ", "BJ"),
        ("t21", "T21"),
        ("T1", "T1"),
        ("Ex", "EX"),
    ],
)
def test_parse_accepts_every_input_form_and_prints_canonical_ascii(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "1h", "11h", "10x", "T0", "T22", "JJ", "Joker", "h10", "10 h"])
def test_parse_refuses_what_is_not_a_card_with_a_french_reason(text):
    with pytest.raises(CardError) as err:
        Card.parse(text)
    assert "Carte inconnue" in err.value.text.fr
    assert "Unknown card" in err.value.text.en


def test_card_list_as_array_or_string_and_position_of_a_bad_card():
    assert parse_cards(["8h", "RJ"]) == parse_cards("8h RJ") == parse_cards("8h,RJ")
    with pytest.raises(CardError) as err:
        parse_cards(["8h", "RJ", "ZZ"])
    assert err.value.field == "[2]"
    with pytest.raises(CardError):
        parse_cards({"8h": 1})  # type: ignore[arg-type]
    with pytest.raises(CardError):
        parse_cards(["8h", None])  # type: ignore[list-item]


def test_display_uses_french_faces_and_symbols():
    assert [c.display("fr") for c in parse_cards("Js Qh Kc Ad 10d")] == ["V♠", "D♥", "R♣", "A♦", "10♦"]
    assert [c.display("en") for c in parse_cards("Js Qh")] == ["J♠", "Q♥"]
    assert Card.parse("EX").display() == "Excuse"
    assert Card.parse("T7").display("fr") == "Atout 7"


def test_two_decks_and_four_jokers_hold_two_copies_and_four_jokers_of_any_colour():
    deck = Deck.french(decks=2, jokers=4, jokers_any_colour=True)
    assert deck.size == 108
    deck.check(parse_cards("8h 8h RJ RJ RJ RJ"))  # "RJ" or "BJ": a joker is a joker
    with pytest.raises(CardError) as err:
        deck.check(parse_cards("RJ BJ RJ BJ RJ"))
    assert err.value.field == "[4]"
    assert "4 jokers" in err.value.text.fr


def test_one_deck_with_two_jokers_has_one_of_each_colour():
    deck = Deck.french(decks=1, jokers=2)
    deck.check(parse_cards("RJ BJ"))
    with pytest.raises(CardError):
        deck.check(parse_cards("RJ RJ"))


def test_reduced_deck_lacks_the_removed_ranks():
    deck = Deck.french(without=[Rank.THREE, Rank.FOUR, Rank.FIVE])
    assert deck.size == 40
    with pytest.raises(CardError) as err:
        deck.check(parse_cards("3h"))
    assert "n'est pas dans ce jeu" in err.value.text.fr


def test_tarot_trumps():
    deck = Deck.tarot_trumps()
    assert deck.size == 22
    assert sorted(c.trump for c in deck.cards()) == list(range(22))


@given(st.lists(st.sampled_from(Deck.french(jokers=2).cards()), max_size=20))
def test_format_then_parse_round_trips(cards):
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert eval(repr(cards[0]) if cards else "None", {"Card": Card}) == (cards[0] if cards else None)


def test_sort_cards_orders_by_suit_then_face():
    assert format_cards(sort_cards(parse_cards("Kh 2c RJ Ac"))) == "Ac 2c Kh RJ"
    assert Suit.HEARTS.red and not Suit.SPADES.red
