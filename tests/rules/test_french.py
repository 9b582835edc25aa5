"""French as a French table speaks it (issue 22, « Grammar that follows the word it meets »):
the one elision helper of companion/rules/i18n.py fed every kind of first letter, and
the engine's sentences that put a card, a count or a player into French.

The rules cited are those of the Grevisse (Le Bon Usage) and the Académie française:
elision of « de », « que », « le », « la », « ne »… before a vowel sound (§ 44–45), not
before an aspirated h (§ 48), a y that is a vowel (« d’Yves ») against a y that is a
consonant (« de Yann »); the contracted articles « du », « des », « au », « aux » (§ 580);
the plural from 2 (« 1,5 kilo », « 0 joker »: § 507); the minus sign of typography (−1).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion.rules.cards import JOKERS, Card, Deck, parse_cards
from companion.rules.crapouille_play import Pile
from companion.rules.i18n import (
    MINUS,
    RulesError,
    Text,
    elide,
    elide_sentence,
    in_words,
    number,
    of,
    plural,
    to,
    vowel_sound,
)
from companion.rules.president import Play, Rules, Table
from companion.rules.president_outcome import exchange_schedule, hierarchy_from_draw, schedule_for
from companion.rules.whist_tarot import Bid, Deal

FOUR = ["Ann", "Bob", "Cid", "Dan"]

# -- which words start with a vowel sound ------------------------------------------

#: (word, elides?) — the table of issue 22: every vowel, accented or not, in capitals
#: too, the ligatures, « H » alone, mute and aspirated h, the two y, digits, emoji.
VOWEL_SOUNDS = [
    # the vowels a e i o u (and y as a vowel, below)
    ("Ann", True),
    ("Eve", True),
    ("Ines", True),
    ("Odile", True),
    ("Ugo", True),
    ("as", True),
    ("un 5♥", True),
    # accented capitals and small letters: the accent does not change the sound
    ("Élodie", True),
    ("ÉLISE", True),
    ("élise", True),
    ("Èva", True),
    ("Ève", True),
    ("Êve", True),
    ("Àlex", True),
    ("Âme", True),
    ("Îlona", True),
    ("Ïsa", True),
    ("Ôscar", True),
    ("Ûrsula", True),
    ("Üwe", True),
    # the ligatures œ and æ are vowels (« l’œuf », « d’Œdipe »)
    ("Œdipe", True),
    ("œuvre", True),
    ("Ædan", True),
    # a letter said alone is its name: « H » is « ache », so « d’H » (Grevisse § 44 b)
    ("H", True),
    ("A", True),
    ("É", True),
    ("B", False),
    # mute h elides (« d’Hélène », « l’homme »); aspirated h does not (« le huit », « de haut »)
    ("Hélène", True),
    ("Hugo", True),
    ("huit", False),
    ("haut", False),
    ("hors", False),
    # y: a vowel before a consonant (« d’Yves », [iv]); a consonant before a vowel (« de Yann », [jan])
    ("Yves", True),
    ("Ysé", True),
    ("Y", True),
    ("Yann", False),
    ("Yolande", False),
    ("yaourt", False),
    # words that begin with a vowel yet refuse elision (« le onze », « de oui », Grevisse § 50)
    ("onze", False),
    ("oui", False),
    # consonants, digits, symbols, emoji and nothing at all never elide
    ("Bob", False),
    ("Zoé", False),
    ("8", False),
    ("1er", False),
    ("♥", False),
    ("🎲", False),
    ("🎲Ann", False),
    ("", False),
]


@pytest.mark.parametrize(("word", "elides"), VOWEL_SOUNDS)
def test_vowel_sound_knows_every_first_letter(word: str, elides: bool) -> None:
    assert vowel_sound(word) is elides


@pytest.mark.parametrize(("word", "elides"), [(w, e) for w, e in VOWEL_SOUNDS if w])
def test_de_and_que_elide_exactly_before_a_vowel_sound(word: str, elides: bool) -> None:
    assert elide("de", word) == (f"d’{word}" if elides else f"de {word}")
    assert elide("que", word) == (f"qu’{word}" if elides else f"que {word}")
    assert elide("De", word) == (f"D’{word}" if elides else f"De {word}")  # a capital stays a capital


@pytest.mark.parametrize(
    ("particle", "word", "said"),
    [
        ("le", "as", "l’as"),
        ("la", "Excuse", "l’Excuse"),
        ("ne", "est", "n’est"),
        ("jusque", "au bout", "jusqu’au bout"),
        ("le", "huit", "le huit"),
        ("à", "Ann", "à Ann"),  # « à » never elides
    ],
)
def test_the_other_particles(particle: str, word: str, said: str) -> None:
    assert elide(particle, word) == said


@pytest.mark.parametrize(
    ("phrase", "of_it", "to_it"),
    [
        # a name: elided « de », plain « à »
        ("Ann", "d’Ann", "à Ann"),
        ("Élodie", "d’Élodie", "à Élodie"),
        ("Hélène", "d’Hélène", "à Hélène"),
        ("Bob", "de Bob", "à Bob"),
        ("Yann", "de Yann", "à Yann"),
        ("8", "de 8", "à 8"),
        ("🎲", "de 🎲", "à 🎲"),
        # a title or a card with its article: « de le » → « du », « à le » → « au »,
        # « de les » → « des », « à les » → « aux »; « la » and « l’ » do not contract
        ("le Président", "du Président", "au Président"),
        ("le Trou du cul", "du Trou du cul", "au Trou du cul"),
        ("les as", "des as", "aux as"),
        ("la dame", "de la dame", "à la dame"),
        ("l’as", "de l’as", "à l’as"),
        # a name that begins with « Le » keeps it (« de Le Gall »)
        ("Le Gall", "de Le Gall", "à Le Gall"),
    ],
)
def test_of_and_to_contract_the_article_of_a_title(phrase: str, of_it: str, to_it: str) -> None:
    assert of(phrase) == of_it
    assert to(phrase) == to_it


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        ("Statistiques de Élodie", "Statistiques d’Élodie"),
        ("Annonce de Ann", "Annonce d’Ann"),
        ("Plis de Œdipe et de Hélène", "Plis d’Œdipe et d’Hélène"),
        ("La mise de Ann est épuisée.", "La mise d’Ann est épuisée."),
        ("plus haut que la paire de as", "plus haut que la paire d’as"),
        ("Il n’y a que un joker", "Il n’y a qu’un joker"),
        ("le as et la Excuse", "l’as et l’Excuse"),
        ("Annonce de <strong>Ann</strong>", "Annonce d’<strong>Ann</strong>"),
        ("De Ann à Bob.", "D’Ann à Bob."),  # a capital particle that starts the sentence
        # left as written: consonants, aspirated h, y as a consonant, digits, emoji,
        # a name spelt with a capital « De » inside the sentence
        ("Plis de Bob, de huit, de Yann, de 8, de 🎲", "Plis de Bob, de huit, de Yann, de 8, de 🎲"),
        ("Plis de De Oliveira", "Plis de De Oliveira"),
        ("", ""),
        ("de", "de"),
    ],
)
def test_elide_sentence_mends_a_whole_sentence(written: str, printed: str) -> None:
    assert elide_sentence(written) == printed


def test_every_engine_sentence_is_elided_whatever_built_it() -> None:
    name = "Élodie"
    assert Text(f"Le tour de {name}.", f"{name}'s turn.").fr == "Le tour d’Élodie."
    assert Text(f"Le tour de {name}.", f"{name}'s turn.").en == "Élodie's turn."  # English untouched


# -- numbers and counts ------------------------------------------------------------


def test_a_negative_number_is_written_with_the_minus_sign() -> None:
    assert number(-1) == "\u22121" and MINUS == "\u2212"
    assert number(0) == "0" and number(25) == "25"
    assert "-" not in number(-12)


@pytest.mark.parametrize(
    ("n", "fr", "en"),
    [
        (0, "0 joker", "0 jokers"),  # French: singular below 2 (« 0 joker »), never « 0 jokers »
        (1, "1 joker", "1 joker"),
        (2, "2 jokers", "2 jokers"),
        (-1, "\u22121 joker", "\u22121 joker"),
        (-2, "\u22122 jokers", "\u22122 jokers"),
    ],
)
def test_plural_from_two_in_french(n: int, fr: str, en: str) -> None:
    assert plural(n, "joker", "jokers") == fr
    assert plural(n, "joker", "jokers", "en") == en


def test_small_counts_in_words() -> None:
    assert [in_words(n) for n in (1, 2, 4, 10, 11)] == ["un", "deux", "quatre", "dix", "11"]
    assert in_words(1, feminine=True) == "une" and in_words(2, feminine=True) == "deux"
    assert in_words(-1) == "\u22121"


# -- the engine's sentences --------------------------------------------------------


def test_a_lower_play_after_a_pair_of_aces_is_refused_with_an_elided_reason() -> None:
    table = Table.start(FOUR, Rules()).apply(Play.parse("Ann", ["Ah", "As"]))
    verdict = table.check(Play.parse("Bob", ["Kh", "Ks"]))
    assert not verdict.legal and verdict.reason is not None
    assert verdict.reason.fr == "Il faut jouer plus haut que la paire d’as."
    table = Table.start(FOUR, Rules()).apply(Play.parse("Ann", ["Ah"]))
    assert table.check(Play.parse("Bob", ["Kh"])).reason == Text(
        "Il faut jouer plus haut que l’as.", "You must play higher than the ace."
    )


def _too_many(state_trick: list[dict[str, object]], rules: Rules) -> str:
    with pytest.raises(RulesError) as e:
        Table.from_state({"players": FOUR, "trick": state_trick}, rules)
    return e.value.text.fr


def test_the_deck_count_error_says_how_many_in_words() -> None:
    # « il n’y a qu’un 5♥ », not « Il n’y a que 1 × 5♥ »
    assert _too_many([{"player": "Ann", "cards": ["5h", "5h"]}], Rules()) == "Il n’y a qu’un 5♥ dans le jeu."
    assert _too_many([{"player": "Ann", "cards": ["Qs", "Qs"]}], Rules()) == "Il n’y a qu’une D♠ dans le jeu."
    assert (
        _too_many([{"player": "Ann", "cards": ["5h", "5h", "5h"]}], Rules(decks=2))
        == "Il n’y a que deux 5♥ dans le jeu."
    )
    # one joker, written RJ or BJ: it is « a joker », whatever its colour
    assert _too_many([{"player": "Ann", "cards": ["RJ", "BJ"]}], Rules(jokers=1)) == "Il n’y a qu’un joker dans le jeu."


def test_the_deck_counts_of_jokers_and_trumps() -> None:
    red, _black = JOKERS
    assert Deck.french(jokers=2).too_many(red).fr == "Il n’y a qu’un joker rouge dans le jeu."
    assert Deck.french(jokers=4).too_many(red).fr == "Il n’y a que deux jokers rouges dans le jeu."
    crapouille = Deck.french(decks=2, jokers=4, jokers_any_colour=True)
    with pytest.raises(RulesError) as e:
        crapouille.check(parse_cards("RJ BJ RJ BJ RJ"))
    assert e.value.text == Text("Il n’y a que quatre jokers dans le jeu.", "The deck has only four jokers.")
    tarot = Deck.tarot_trumps()
    assert tarot.too_many(Card(trump=0)).fr == "Il n’y a qu’une Excuse dans le jeu."
    assert tarot.too_many(Card(trump=5)).fr == "Il n’y a qu’un Atout 5 dans le jeu."
    assert Deck.french().too_many(red).fr == "La carte Joker rouge n’est pas dans ce jeu."


def test_whist_bids_range_in_the_singular_for_a_one_card_deal() -> None:
    # « de 0 à 1 pli » (plural from 2), « de 0 à 5 plis »
    one = Deal(tuple(FOUR), "Dan", 1, {}, blind=True)
    assert one.check(Bid("Ann", 2)).reason == Text("On annonce de 0 à 1 pli.", "A bid is from 0 to 1 trick.")
    five = Deal(tuple(FOUR), "Dan", 5, {})
    assert five.check(Bid("Ann", 6)).reason == Text("On annonce de 0 à 5 plis.", "A bid is from 0 to 5 tricks.")


def test_exchange_counts_are_singular_or_plural_never_hedged() -> None:
    # no « paire(s) »: one pair at 3 players, two at 4 or 5
    with pytest.raises(RulesError) as e:
        schedule_for(3, own=[2, 1])
    assert e.value.text.fr == "À 3 joueurs, il n’y a qu’une paire pour échanger."
    assert e.value.text.en == "With 3 players there is only one pair to exchange."
    with pytest.raises(RulesError) as e:
        schedule_for(5, own=[3, 2, 1])
    assert e.value.text.fr == "À 5 joueurs, il n’y a que deux paires pour échanger."
    with pytest.raises(RulesError) as e:
        exchange_schedule(Rules(), 11)
    assert e.value.text.fr.startswith("À 11 joueurs, la donne est de 4 cartes par personne\u00a0:")


def test_a_tied_draw_names_the_players_without_a_gender() -> None:
    c = Card.parse
    with pytest.raises(RulesError) as e:
        hierarchy_from_draw({"Ann": [c("9h")], "Bob": [c("9h")], "Cid": [c("2c")]})
    assert e.value.text.fr == "Égalité entre Ann et Bob\u00a0: il faut tirer une nouvelle carte pour les départager."


def test_the_crapouille_direction_is_written_with_the_minus_sign() -> None:
    with pytest.raises(RulesError) as e:
        Pile(("Ann", "Bob"), parse_cards("9h"), direction=2)
    assert e.value.text.fr == "Le sens vaut 1 ou \u22121."


# -- one register: « vous » --------------------------------------------------------

_SECOND_PERSON_SINGULAR = re.compile(
    r"\b(tu|toi|ton|ta|tes|te|t’)\b|\b(Choisis|Joue|Pose|Passe|Pioche|Dis|Touche|Annonce)\b(?! ?[:(])"
)


def _french_sentences() -> list[tuple[str, int, str]]:
    """Every French literal given to ``Text(...)`` in the engine, the API, the referee and the kinds."""
    root = Path(__file__).resolve().parents[2] / "companion"
    found = []
    for path in sorted(
        [
            *root.glob("rules/**/*.py"),
            *root.glob("api/**/*.py"),
            *root.glob("referee/**/*.py"),
            *root.glob("judge/**/*.py"),
            *root.glob("games/kinds/**/*.py"),
        ]
    ):
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text" and node.args:
                segment = ast.get_source_segment(source, node.args[0]) or ""
                found.append((path.name, node.lineno, segment))
    return found


def test_no_engine_sentence_says_tu() -> None:
    sentences = _french_sentences()
    assert len(sentences) > 300
    assert [s for s in sentences if _SECOND_PERSON_SINGULAR.search(s[2])] == []


def test_the_referee_speaks_to_the_mover_as_vous() -> None:
    from companion.games.judging import judge

    won = {
        "game": "president",
        "state": {"players": ["Ann", "Bob", "Cid"], "trick": [{"player": "Ann", "cards": ["9h"]}]},
        "move": {"player": "Bob", "cards": ["2c"]},
    }
    assert judge(won)["said"] == ["Le pli est pour vous, vous rejouez."]
    eight = {
        "game": "crapouille",
        "state": {"players": ["Ann", "Bob", "Cid"], "pile": ["9h"], "turn": "Ann"},
        "move": {"player": "Ann", "card": "8c"},
    }
    assert "Choisissez une couleur." in judge(eight)["said"]
    ten = {
        "game": "crapouille",
        "rules": {"super": True},
        "state": {"players": ["Ann", "Bob", "Cid"], "pile": ["9h"], "turn": "Ann"},
        "move": {"player": "Ann", "card": "10h"},
    }
    assert "Vous rejouez." in judge(ten)["said"]
    dealer = {
        "game": "whist-tarot",
        "state": {"players": FOUR, "dealer": "Dan", "cards": 5, "bids": {"Ann": 2, "Bob": 1}},
        "move": {"player": "Cid", "bid": 1},
    }
    # the dealer is named, not « le donneur »: no gender assumed
    assert judge(dealer)["said"][-1] == (
        "Dan donne et ne peut pas annoncer 1\u00a0: les annonces feraient 5, le nombre de plis."
    )
