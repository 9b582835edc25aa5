"""The sentence toolkit (issue 28): words, numbers, players by name, cards as said."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.cards import Card, Rank
from companion.sentence import Person, Roster, Unclear, number, said_cards, spell, words

NUMBERS = [
    # (said, language, value)
    ("0", "fr", 0),
    ("zéro", "fr", 0),
    ("zero", "fr", 0),
    ("rien", "fr", 0),
    ("un", "fr", 1),
    ("une", "fr", 1),
    ("douze", "fr", 12),
    ("Douze", "fr", 12),
    ("seize", "fr", 16),
    ("dix-sept", "fr", 17),
    ("dix sept", "fr", 17),
    ("vingt", "fr", 20),
    ("vingt-deux", "fr", 22),
    ("vingt deux", "fr", 22),
    ("vingt et un", "fr", 21),
    ("vingt-et-un", "fr", 21),
    ("trente-neuf", "fr", 39),
    ("quarante et une", "fr", 41),
    ("soixante-dix", "fr", 70),
    ("soixante dix", "fr", 70),
    ("soixante et onze", "fr", 71),
    ("soixante-douze", "fr", 72),
    ("soixante-dix-neuf", "fr", 79),
    ("quatre-vingts", "fr", 80),
    ("quatre vingt", "fr", 80),
    ("quatre-vingt-un", "fr", 81),
    ("quatre-vingt-onze", "fr", 91),
    ("quatre-vingt-dix-neuf", "fr", 99),
    ("quatre vingt dix neuf", "fr", 99),
    ("septante-cinq", "fr", 75),
    ("nonante", "fr", 90),
    ("cent", "fr", 100),
    ("cent douze", "fr", 112),
    ("cent-douze", "fr", 112),
    ("deux cents", "fr", 200),
    ("deux cent", "fr", 200),
    ("deux cent un", "fr", 201),
    ("trois cent quatre-vingts", "fr", 380),
    ("neuf cent quatre-vingt-dix-neuf", "fr", 999),
    ("ZÉRO", "fr", 0),
    ("42", "fr", 42),
    ("zero", "en", 0),
    ("nothing", "en", 0),
    ("none", "en", 0),
    ("one", "en", 1),
    ("twelve", "en", 12),
    ("nineteen", "en", 19),
    ("twenty", "en", 20),
    ("twenty-two", "en", 22),
    ("twenty two", "en", 22),
    ("ninety-nine", "en", 99),
    ("a hundred", "en", 100),
    ("one hundred", "en", 100),
    ("hundred and five", "en", 105),
    ("one hundred and twelve", "en", 112),
    ("two hundred", "en", 200),
    ("three hundred forty-one", "en", 341),
    ("12", "en", 12),
]


@pytest.mark.parametrize(("said", "lang", "value"), NUMBERS)
def test_numbers_in_digits_and_words(said: str, lang: str, value: int) -> None:
    assert number(said, lang) == value


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        ("deux huit", "fr"),  # two numbers, not one (a grammar reads « two 8s »)
        ("vingt et", "fr"),
        ("twelve", "fr"),  # the other language's words are not read
        ("douze", "en"),
        ("un", "en"),
        ("a", "en"),
        ("cent cent", "fr"),
        ("quatre-vingt-dix-dix", "fr"),
        ("", "fr"),
    ],
)
def test_not_numbers(said: str, lang: str) -> None:
    assert number(said, lang) is None


@given(st.integers(0, 999), st.sampled_from(["fr", "en"]))
def test_every_number_spelled_reads_back(n: int, lang: str) -> None:
    assert number(spell(n, lang), lang) == n
    assert number(spell(n, lang).replace("-", " "), lang) == n


def test_words_keep_the_line_as_written() -> None:
    said = words("C’est  Élodie\u00a0qui sort ; l’as")
    assert [w.key for w in said] == ["c", "est", "elodie", "qui", "sort", "l", "as"]
    assert [w.text for w in said][2] == "Élodie"
    assert [w.after_stop for w in said] == [True, False, False, False, False, True, False]


PLAYERS = [
    Person("1", "Élodie"),
    Person("2", "Marie"),
    Person("3", "Mathieu"),
    Person("4", "Ann"),
    Person("5", "Anne"),
    Person("6", "Benoît"),
    Person("7", "Jean-Pierre"),
]


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Élodie", "Élodie"),  # exact
        ("elodie", "Élodie"),  # case and accents
        ("ELODIE", "Élodie"),
        ("Elodi", "Élodie"),  # a letter missing
        ("Elodiee", "Élodie"),  # one more
        ("Elodue", "Élodie"),  # one wrong
        ("Elodei", "Élodie"),  # two swapped
        ("Élo", "Élodie"),  # a first name's start
        ("benoit", "Benoît"),
        ("Ben", "Benoît"),
        ("Ann", "Ann"),  # exact wins over Anne's start
        ("Anne", "Anne"),  # exact wins over Ann one letter off
        ("Mari", "Marie"),  # Marie's start, one letter off Marie (not Mathieu's)
        ("Mat", "Mathieu"),
        ("Jean-Pierre", "Jean-Pierre"),
        ("jean pierre", "Jean-Pierre"),
        ("Jean", "Jean-Pierre"),
        ("moi", "Marie"),  # this device's player
    ],
)
def test_players_by_name(said: str, name: str) -> None:
    assert Roster(PLAYERS, me="2").person(said).name == name


@pytest.mark.parametrize(
    ("said", "fr", "en"),
    [
        ("Ma", "«\u00a0Ma\u00a0»\u00a0: Marie ou Mathieu\u00a0?", "“Ma”: Marie or Mathieu?"),
        ("An", "«\u00a0An\u00a0»\u00a0: Ann ou Anne\u00a0?", "“An”: Ann or Anne?"),
    ],
)
def test_ambiguous_names_are_asked(said: str, fr: str, en: str) -> None:
    with pytest.raises(Unclear) as caught:
        Roster(PLAYERS).person(said)
    assert (caught.value.text.fr, caught.value.text.en) == (fr, en)


def test_two_players_one_letter_off_are_asked() -> None:
    roster = Roster([Person("1", "Marie"), Person("2", "Mario")])
    with pytest.raises(Unclear):
        roster.person("Marii")
    assert roster.person("Mario").id == "2"


@pytest.mark.parametrize("said", ["moi", "Bob", "le", "a", "de", "Ab", "E", "Mzrtieu", "Annnn"])
def test_not_players(said: str) -> None:
    """« moi » with no device player; unknown names; short words never read as a name's start."""
    with pytest.raises(Unclear):
        Roster(PLAYERS, lang="fr").person(said)


def test_me_in_english() -> None:
    roster = Roster(PLAYERS, me="4", lang="en")
    assert roster.person("me").name == roster.person("I").name == "Ann"


CARDS = [
    # (said, language, cards with suits, ranks only)
    ("huit de cœur", "fr", "8h", ""),
    ("huit de coeur", "fr", "8h", ""),
    ("Huit De Cœurs", "fr", "8h", ""),
    ("le joker", "fr", "RJ", ""),
    ("un joker noir", "fr", "BJ", ""),
    ("deux pique", "fr", "2s", ""),  # a number before a suit is the rank: the 2 of spades
    ("deux de pique", "fr", "2s", ""),
    ("dame de trèfle", "fr", "Qc", ""),
    ("dame de trefle", "fr", "Qc", ""),
    ("10 de carreau", "fr", "10d", ""),
    ("dix carreau", "fr", "10d", ""),
    ("as de pique", "fr", "As", ""),
    ("l’as de pique", "fr", "As", ""),
    ("valet de cœur et roi de carreau", "fr", "Jh Kd", ""),
    ("un roi et un as", "fr", "", "K A"),  # ranks only (the crapouille counts by rank)
    ("deux rois", "fr", "", "K K"),  # a number before a rank is a count
    ("deux as de pique", "fr", "As As", ""),
    ("un roi, une dame et un sept", "fr", "", "K Q 7"),
    ("8C RP 10♦ Joker", "fr", "8h Ks 10d RJ", ""),
    ("huit de cœur et un roi", "fr", "8h", "K"),
    ("eight of hearts", "en", "8h", ""),
    ("the joker", "en", "RJ", ""),
    ("two of spades", "en", "2s", ""),
    ("queen of clubs", "en", "Qc", ""),
    ("a king and an ace", "en", "", "K A"),
    ("two eights", "en", "", "8 8"),
    ("8h Ks 10♦ Joker", "en", "8h Ks 10d RJ", ""),
]


@pytest.mark.parametrize(("said", "lang", "full", "ranks"), CARDS)
def test_cards_as_said(said: str, lang: str, full: str, ranks: str) -> None:
    found = said_cards(said, lang)
    assert " ".join(str(c) for c in found.cards) == full
    assert " ".join(r.value for r in found.ranks) == ranks
    assert found.complete == (not ranks)


@pytest.mark.parametrize(
    ("said", "lang"),
    [
        ("huit de machin", "fr"),
        ("onze de cœur", "fr"),
        ("as", "en"),
        ("8h", "fr"),
        ("deux piques", "fr"),  # the 2 of spades, or two spades? (a grammar asks)
        ("deux huit", "fr"),  # two 8s, or a 2 and an 8? (asked too)
        ("two spades", "en"),
    ],
)
def test_not_cards(said: str, lang: str) -> None:
    with pytest.raises(Unclear):
        said_cards(said, lang)


def test_rank_only_cards_are_ranks() -> None:
    assert said_cards("un roi").ranks == (Rank.KING,)
    assert said_cards("le joker").cards == (Card(joker="R"),)
