"""Card notation and decks (shared/RULES.md, "Card notation used everywhere")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.cards import (
    Card,
    CardError,
    Deck,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    parse_typed_cards,
    sort_cards,
    typed_notation,
)


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
    assert err.value.text.fr == "Il n’y a que quatre jokers dans le jeu."


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
    assert "n’est pas dans ce jeu" in err.value.text.fr


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


# --- Cards typed on a page follow the page's language ---------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("8c", "8h"),  # c is cœur on a French page, not clubs
        ("8C", "8h"),
        ("Rp", "Ks"),  # roi de pique
        ("VK", "Jd"),  # valet de carreau
        ("dt", "Qc"),  # dame de trèfle
        ("At", "Ac"),
        ("10k", "10d"),
        ("2P", "2s"),
        ("V♠", "Js"),
        ("r♡", "Kh"),
        ("8♥\ufe0f", "8h"),  # an emoji keyboard's heart
        ("joker", "RJ"),
        ("JOKER", "RJ"),
        ("RJ", "RJ"),
        ("bj", "BJ"),
        ("🃏", "RJ"),
    ],
)
def test_french_typing_uses_french_letters(text, canonical):
    assert format_cards(parse_typed_cards(text, "fr")) == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("8c", "8c"),
        ("8h", "8h"),
        ("Ks", "Ks"),
        ("jd", "Jd"),
        ("Q♣", "Qc"),
        ("10♢", "10d"),
        ("Joker", "RJ"),
        ("BJ", "BJ"),
    ],
)
def test_english_typing_uses_english_letters(text, canonical):
    assert format_cards(parse_typed_cards(text, "en")) == canonical


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_symbols_and_the_joker_read_the_same_in_both_languages(lang):
    typed = "8♥ 10♦ A♣ 2♠ Joker"
    assert format_cards(parse_typed_cards(typed, lang)) == "8h 10d Ac 2s RJ"


def test_what_the_picker_writes_reads_back_in_its_own_language():
    # The picker writes the page's rank letters with the suit symbols.
    assert format_cards(parse_typed_cards("8♥ V♠ D♦ R♣ Joker", "fr")) == "8h Js Qd Kc RJ"
    assert format_cards(parse_typed_cards("8♥ J♠ Q♦ K♣ Joker", "en")) == "8h Js Qd Kc RJ"


def test_a_hand_typed_at_a_french_table():
    # Ann went out; Bob counts « 8 de cœur, roi de pique, un joker, 2 de trèfle ».
    assert parse_typed_cards("8c, Rp joker 2t", "fr") == parse_cards("8h Ks RJ 2c")
    assert parse_typed_cards("", "fr") == ()
    assert parse_typed_cards(" 8c\u00a0 Rp ", "fr") == parse_cards("8h Ks")


@pytest.mark.parametrize(
    ("lang", "text", "position", "fr", "en"),
    [
        ("fr", "8C 8h", "[1]", "Carte inconnue : « 8h » (8 de cœur : 8C ou 8♥).", "(8 of hearts: 8C or 8♥)"),
        ("fr", "Js", "[0]", "« Js » (valet de pique : VP ou V♠)", "(jack of spades: VP or V♠)"),
        ("fr", "As", "[0]", "(as de pique : AP ou A♠)", "(ace of spades: AP or A♠)"),
        ("en", "Rp", "[0]", "(roi de pique : Ks ou K♠)", "Unknown card: 'Rp' (king of spades: Ks or K♠)."),
        ("en", "8h 10t", "[1]", "(10 de trèfle : 10c ou 10♣)", "(10 of clubs: 10c or 10♣)"),
        ("fr", "8c 11c", "[1]", "Carte inconnue : « 11c ». Par exemple : 8C RP 10♦ Joker.", "For example: 8C RP"),
        ("en", "x", "[0]", "Par exemple : 8h Ks 10♦ Joker.", "Unknown card: 'x'. For example: 8h Ks 10♦ Joker."),
        ("fr", "T7", "[0]", "Carte inconnue : « T7 »", "Unknown card: 'T7'"),  # no tarot on these pages
        ("fr", "8 c", "[0]", "Carte inconnue : « 8 »", "Unknown card: '8'"),
    ],
)
def test_an_unknown_typed_card_says_where_and_how_to_write_it_here(lang, text, position, fr, en):
    with pytest.raises(CardError) as err:
        parse_typed_cards(text, lang)
    assert err.value.field == position
    assert fr in err.value.text.fr
    assert en in err.value.text.en


def test_a_long_unknown_token_is_cut_in_the_message():
    with pytest.raises(CardError) as err:
        parse_typed_cards("x" * 5000, "fr")
    assert len(err.value.text.fr) < 120 and "…" in err.value.text.fr


def test_the_api_notation_is_unchanged():
    # RULES.md's notation stays the API's: c is clubs there, and "Rp" is no card.
    assert parse_cards("8c") == parse_cards("8♣")
    with pytest.raises(CardError):
        Card.parse("Rp")


@given(st.lists(st.sampled_from(Deck.french(jokers=2).cards()), max_size=20), st.sampled_from(["fr", "en"]))
def test_written_cards_read_back_in_the_same_language(cards, lang):
    notation = typed_notation(lang)
    typed = " ".join(notation.write(c) for c in cards)
    shown = " ".join("Joker" if c.is_joker else c.display(lang) for c in cards)
    colourless = [Card(joker="R") if c.is_joker else c for c in cards]
    assert parse_typed_cards(typed, lang) == parse_typed_cards(shown, lang) == tuple(colourless)
