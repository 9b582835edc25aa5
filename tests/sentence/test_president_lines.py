"""Le Président and Piketty said in one line (issue 28): titles, the finishing order,
forbidden finishes, the events the house rules have, Piketty's card draw — read into the
manche form's fields (companion/games/kinds/president/sentence.py).

The grammar is called directly with the players (:class:`Person`), the engine's rules
and the state before the manche: no database.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.president.sentence import read_manche
from companion.rules.president import Rules
from companion.sentence import Person

PEOPLE = [Person("1", "Chloé"), Person("2", "Ann"), Person("3", "Élodie"), Person("4", "Benoît"), Person("5", "Djamel")]
FOUR = PEOPLE[:4]
SIX = [*PEOPLE, Person("6", "Fanny")]
#: Before the manche: Chloé Présidente … Djamel Trou du cul.
AFTER_ONE: dict[str, Any] = {"hierarchy": ["1", "2", "3", "4", "5"], "first": False, "draw": False}
FIRST: dict[str, Any] = {"hierarchy": ["1", "2", "3", "4", "5"], "first": True, "draw": False}
# seed 000: « putsch », « jeu blanc »; « Il n'est pas autorisé que le joueur gagnant finisse avec un 2 »
HOUSE = Rules(game="president", putsch=True, jeu_blanc=True, twos_cut=True)
PLAIN = Rules(game="president")
# seed 001: « Si quelqu'un termine avec un 2, il devient trouduc. »
PIKETTY = Rules(game="piketty")
ALL_EVENTS = Rules(game="president", putsch=True, jeu_blanc=True, coup_detat=True, guillotine=True, jokers=2)
BALAYEUR = Rules(game="president", titles="balayeur")


def order(*ids: str) -> dict[str, str]:
    return {f"finish-{i}": p for i, p in enumerate(ids)}


FULL = order("1", "2", "3", "4", "5")
#: (line, rules, players, state, language, fields, questions (their start), not understood)
Case = tuple[str, Rules, list[Person], dict[str, Any], str, dict[str, str], list[str], list[str]]
C, A, E, B, D = "1", "2", "3", "4", "5"
LINES: list[Case] = [
    # titles, feminine and masculine, short forms — seed 000 (5 players: P, VP, Neutre, VTdC, TdC)
    (
        "Chloé présidente, Ann vice-présidente, Élodie neutre, Benoît vice-trou du cul, Djamel trou du cul",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    (
        "Chloé président, Ann vice, Élodie neutre, Benoît vice trou, Djamel trou",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    (
        "Chloé présidente, Ann vice, Élodie neutre, Djamel trouduc",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        order(C, A, E, B, D),
        [],
        [],
    ),
    (
        "Chloé présidente, Ann vice-présidente, Djamel trou du cul",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        order(C, A),
        ["Neutre"],
        [],
    ),
    ("présidente Chloé, vice Ann, neutre Élodie, vice-trouduc Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    (
        "Chloé est présidente, Ann est vice, Élodie est neutre, Benoît est vice-trou",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    ("Chloé prez, Ann VP, Élodie neutre, Benoît vice tdc, Djamel tdc", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    (
        "chloe presidente, ann vice presidente, elodie neutre, benoit vice trou du cul",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    ("CHLOÉ PRÉSIDENTE ANN VICE ÉLODIE NEUTRE BENOÎT VICE-TROU", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    (
        "Djamel trou du cul, Benoît vice-trou du cul, Élodie neutre, Ann vice, Chloé présidente",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    ("Chlo présidente, Ann vice, Élo neutre, Ben vice-trou", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    # A name's first two letters only: asked, even when one player's name starts so.
    ("Chloé présidente, An vice", HOUSE, PEOPLE, AFTER_ONE, "fr", order(C), ["«\u00a0An\u00a0»\u00a0: Ann\u00a0?"], []),
    (
        "Chloé présidente Ann vice Élodie neutre Benoît vice-trou Djamel trou",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    ("moi présidente, Ann vice, Élodie neutre, Benoît vice-trou", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    # Fewer players than the table: the first place left is asked, naming who is left.
    (
        "Chloé présidente",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        order(C),
        ["Vice-Président\u00a0: Ann, Élodie, Benoît ou Djamel\u00a0?"],
        [],
    ),
    (
        "Chloé présidente, Ann vice",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        order(C, A),
        ["Neutre\u00a0: Élodie, Benoît ou Djamel\u00a0?"],
        [],
    ),
    # 4 players: P, VP, VTdC, TdC
    (
        "Chloé présidente, Ann vice, Benoît trou du cul",
        HOUSE,
        FOUR,
        {"hierarchy": ["1", "2", "3", "4"], "first": False},
        "fr",
        order(C, A, E, B),
        [],
        [],
    ),
    (
        "Benoît trou du cul, Élodie vice-trou du cul, Ann vice-présidente, Chloé présidente",
        HOUSE,
        FOUR,
        {"hierarchy": ["1", "2", "3", "4"], "first": False},
        "fr",
        order(C, A, E, B),
        [],
        [],
    ),
    (
        "Chloé neutre",
        HOUSE,
        FOUR,
        {"hierarchy": ["1", "2", "3", "4"], "first": False},
        "fr",
        {},
        ["Pas de titre «\u00a0neutre\u00a0» à 4 joueurs"],
        [],
    ),
    ("Chloé ministre", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, ["Pas de titre «\u00a0ministre\u00a0» à 5 joueurs"], []),
    # the balayeur naming, and its other names (seed 000: « Premier Ministre (ou Vice-Président) »)
    (
        "Chloé présidente, Ann première ministre, Élodie concierge, Benoît balayeur en chef",
        BALAYEUR,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    (
        "Chloé présidente, Ann vice-présidente, Élodie neutre, Benoît balayeuse en chef",
        BALAYEUR,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    (
        "Chloé présidente, Ann premier ministre, Élodie concierge, Djamel balayeuse",
        BALAYEUR,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    (
        "Chloé présidente, Ann PM, Élodie neutre, Benoît vice-trou du cul",
        BALAYEUR,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    # Piketty's six and more (seed 001: « Président, Vice-Président, 1er ministre, Ministre, Vice-Trouduc, Trouduc »)
    (
        "Chloé présidente, Ann vice, Élodie 1er ministre, Benoît ministre, Djamel vice-trouduc, Fanny trouduc",
        PIKETTY,
        SIX,
        {"hierarchy": ["1", "2", "3", "4", "5", "6"], "first": False},
        "fr",
        order(C, A, E, B, D, "6"),
        [],
        [],
    ),
    (
        "Fanny trou du cul, Djamel vice-trou, Benoît ministre, Élodie première ministre, Ann vice-présidente",
        PIKETTY,
        SIX,
        {"hierarchy": ["1", "2", "3", "4", "5", "6"], "first": False},
        "fr",
        order(C, A, E, B, D, "6"),
        [],
        [],
    ),
    (
        "Chloé présidente, Ann vice, Élodie premier ministre, Benoît ministre, Fanny trouduc",
        PIKETTY,
        SIX,
        {"hierarchy": ["1", "2", "3", "4", "5", "6"], "first": False},
        "fr",
        order(C, A, E, B, D, "6"),
        [],
        [],
    ),
    # finishing order
    ("sortis dans l’ordre : Chloé, Ann, Élodie, Benoît, Djamel", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("sortis dans l'ordre : Chloé, Ann, Élodie, Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("ordre : Chloé, Ann, Élodie, Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Chloé puis Ann puis Élodie puis Benoît puis Djamel", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    (
        "Chloé puis Ann puis Élodie",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        order(C, A, E),
        ["Vice-Trou du cul\u00a0: Benoît ou Djamel"],
        [],
    ),
    ("Chloé, Ann, Élodie, Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Chloé Ann Élodie Benoît Djamel", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("chloe ann elodie benoit", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Chloé et Ann et Élodie et Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Djamel, Benoît, Élodie, Ann, Chloé", HOUSE, PEOPLE, AFTER_ONE, "fr", order(D, B, E, A, C), [], []),
    ("premier Chloé, deuxième Ann, troisième Élodie, quatrième Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    (
        "première Chloé, deuxième Ann, troisième Élodie, quatrième Benoît, dernier Djamel",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        FULL,
        [],
        [],
    ),
    ("1er Chloé, 2e Ann, 3e Élodie, 4e Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Chloé première, Ann deuxième, Élodie troisième, Benoît quatrième", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Chloé 1re, Ann 2e, Élodie 3e, Djamel dernier", HOUSE, PEOPLE, AFTER_ONE, "fr", order(C, A, E, B, D), [], []),
    (
        "Chloé première, Djamel dernière, Benoît avant-dernier, Ann deuxième",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        order(C, A, E, B, D),
        [],
        [],
    ),
    ("premier Chloé puis Ann puis Élodie puis Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("Chloé présidente, puis Ann, Élodie, Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("moi, Ann, Élodie, Benoît", HOUSE, PEOPLE, AFTER_ONE, "fr", FULL, [], []),
    ("troisième Élodie, premier Chloé", HOUSE, PEOPLE, AFTER_ONE, "fr", order(C), ["Vice-Président"], []),
    # forbidden finishes (seed 000: « Il n'est pas autorisé que le joueur gagnant finisse avec un 2 »)
    ("Benoît a fini sur un 2", HOUSE, PEOPLE, AFTER_ONE, "fr", {"forbidden_4": "y"}, [], []),
    ("Benoît a fini sur un deux", HOUSE, PEOPLE, AFTER_ONE, "fr", {"forbidden_4": "y"}, [], []),
    ("Benoit a termine avec un 2", HOUSE, PEOPLE, AFTER_ONE, "fr", {"forbidden_4": "y"}, [], []),
    ("Benoît est sorti sur un 2 de pique", HOUSE, PEOPLE, AFTER_ONE, "fr", {"forbidden_4": "y"}, [], []),
    ("Benoît a fini sur une carte interdite", HOUSE, PEOPLE, AFTER_ONE, "fr", {"forbidden_4": "y"}, [], []),
    (
        "Chloé, Ann, Élodie, Benoît, Benoît a fini sur un 2",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {**FULL, "forbidden_4": "y"},
        [],
        [],
    ),
    ("Chloé a fini sur un 2", PIKETTY, PEOPLE, AFTER_ONE, "fr", {"forbidden_1": "y"}, [], []),
    (
        "Benoît a fini sur un as",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Finir sur «\u00a0as\u00a0» n’est pas interdit"],
        [],
    ),
    (
        "Benoît a fini sur un 2",
        PLAIN,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Dans cette partie, aucune carte n’est interdite"],
        [],
    ),
    # events the rules have (seed 000: putsch, jeu blanc, coup d'État, guillotine)
    ("putsch de Djamel", HOUSE, PEOPLE, AFTER_ONE, "fr", {"event": "putsch"}, [], []),
    ("putsch", HOUSE, PEOPLE, AFTER_ONE, "fr", {"event": "putsch"}, [], []),
    (
        "Djamel fait un putsch, Chloé, Ann, Élodie, Benoît",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {"event": "putsch", **FULL},
        [],
        [],
    ),
    (
        "putsch de moi",
        HOUSE,
        PEOPLE,
        {**AFTER_ONE, "hierarchy": ["2", "3", "4", "5", "1"]},
        "fr",
        {"event": "putsch"},
        [],
        [],
    ),
    ("jeu blanc pour Élodie", HOUSE, PEOPLE, AFTER_ONE, "fr", {"event": "jeu_blanc", "jeu_blanc_player": "3"}, [], []),
    ("Élodie a un jeu blanc", HOUSE, PEOPLE, AFTER_ONE, "fr", {"event": "jeu_blanc", "jeu_blanc_player": "3"}, [], []),
    ("jeu blanc", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, ["jeu blanc\u00a0: qui"], []),
    (
        "coup d’État de Ann",
        ALL_EVENTS,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {"event": "coup_detat", "coup_detat_player": "2"},
        [],
        [],
    ),
    (
        "coup d'etat d'Ann",
        ALL_EVENTS,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {"event": "coup_detat", "coup_detat_player": "2"},
        [],
        [],
    ),
    (
        "guillotine de Djamel, Benoît vice, Chloé trou du cul",
        ALL_EVENTS,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {"event": "guillotine", "guillotine_player": "5", "guillotine_vice": "4", "guillotine_last": "1"},
        [],
        [],
    ),
    (
        "guillotine : Djamel Benoît Chloé",
        ALL_EVENTS,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {"event": "guillotine", "guillotine_player": "5", "guillotine_vice": "4", "guillotine_last": "1"},
        [],
        [],
    ),
    ("guillotine de Djamel", ALL_EVENTS, PEOPLE, AFTER_ONE, "fr", {}, ["Guillotine\u00a0: qui"], []),
    # events the rules do not have: never filled
    (
        "coup d’État de Ann",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Les règles de la partie ne prévoient pas de coup d’État"],
        [],
    ),
    (
        "putsch de Djamel",
        PLAIN,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Les règles de la partie ne prévoient pas de putsch"],
        [],
    ),
    (
        "guillotine de Djamel, Benoît, Chloé",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Les règles de la partie ne prévoient pas de guillotine"],
        [],
    ),
    ("révolution", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, ["Les règles de la partie ne prévoient pas de révolution"], []),
    ("putsch de Djamel", HOUSE, PEOPLE, FIRST, "fr", {}, ["À la première manche"], []),
    ("putsch de Ann", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, ["Putsch d’Ann\u00a0?"], []),
    (
        "putsch de Djamel, jeu blanc pour Élodie",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Un seul événement par manche"],
        [],
    ),
    # ambiguities asked
    (
        "Chloé présidente, Ann présidente",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Président\u00a0: Chloé ou Ann\u00a0?"],
        [],
    ),
    (
        "Chloé présidente, Chloé vice",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Chloé\u00a0: Président ou Vice-Président\u00a0?"],
        [],
    ),
    ("Chloé, Ann, Chloé", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, ["Chloé\u00a0: Président ou Neutre\u00a0?"], []),
    ("Chloé présidente, Chloé présidente, Ann vice", HOUSE, PEOPLE, AFTER_ONE, "fr", order(C, A), ["Neutre"], []),
    ("présidente", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, ["Président\u00a0: qui\u00a0?"], []),
    (
        "Chloé, Ann, Élodie, Benoît, Djamel, Chloé",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "fr",
        {},
        ["Chloé\u00a0: 5 joueurs seulement"],
        [],
    ),
    # not understood, in the line's own words
    ("Chloé présidente, Zoé vice", HOUSE, PEOPLE, AFTER_ONE, "fr", order(C), ["Vice-Président"], ["Zoé"]),
    ("bonjour", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, [], ["bonjour"]),
    ("", HOUSE, PEOPLE, AFTER_ONE, "fr", {}, [], []),
    # English, on an English page
    (
        "Chloé president, Ann vice-president, Élodie neutral, Benoît vice-asshole, Djamel asshole",
        HOUSE,
        PEOPLE,
        AFTER_ONE,
        "en",
        FULL,
        [],
        [],
    ),
    ("president Chloe, vice Ann, neutral Elodie, vice asshole Benoit", HOUSE, PEOPLE, AFTER_ONE, "en", FULL, [], []),
    ("in order: Chloé, Ann, Élodie, Benoît", HOUSE, PEOPLE, AFTER_ONE, "en", FULL, [], []),
    ("Chloe then Ann then Elodie then Benoit", HOUSE, PEOPLE, AFTER_ONE, "en", FULL, [], []),
    ("first Chloé, second Ann, third Élodie, fourth Benoît", HOUSE, PEOPLE, AFTER_ONE, "en", FULL, [], []),
    ("1st Chloe, 2nd Ann, 3rd Elodie, last Djamel, 4th Benoit", HOUSE, PEOPLE, AFTER_ONE, "en", FULL, [], []),
    ("Benoit went out on a 2", HOUSE, PEOPLE, AFTER_ONE, "en", {"forbidden_4": "y"}, [], []),
    ("Benoit finished on a two", HOUSE, PEOPLE, AFTER_ONE, "en", {"forbidden_4": "y"}, [], []),
    ("putsch by Djamel", HOUSE, PEOPLE, AFTER_ONE, "en", {"event": "putsch"}, [], []),
    ("jeu blanc for Élodie", HOUSE, PEOPLE, AFTER_ONE, "en", {"event": "jeu_blanc", "jeu_blanc_player": "3"}, [], []),
    ("Chloe president, Ann president", HOUSE, PEOPLE, AFTER_ONE, "en", {}, ["President: Chloé or Ann?"], []),
    ("coup d'état by Ann", HOUSE, PEOPLE, AFTER_ONE, "en", {}, ["The rules of this game have no coup d’État"], []),
]


@pytest.mark.parametrize(
    ("line", "rules", "people", "state", "lang", "fields", "questions", "unknown"),
    LINES,
    ids=[f"{i}:{x[0][:40]}" for i, x in enumerate(LINES)],
)
def test_a_line_gives_the_manche_form(
    line: str,
    rules: Rules,
    people: list[Person],
    state: dict[str, Any],
    lang: str,
    fields: dict[str, str],
    questions: list[str],
    unknown: list[str],
) -> None:
    reading = read_manche(line, people, rules, state, lang, me="1")  # type: ignore[arg-type]
    assert reading.fields == fields
    assert len(reading.questions) == len(questions), reading.questions
    for asked, start in zip(reading.questions, questions, strict=True):
        assert asked.startswith(start), asked
    assert reading.not_understood == unknown


def test_two_players_starting_alike_are_asked() -> None:
    people = [Person("1", "Marie"), Person("2", "Mathieu"), Person("3", "Ann")]
    state = {"hierarchy": ["1", "2", "3"], "first": False, "draw": False}
    reading = read_manche("Ma présidente, Ann neutre", people, HOUSE, state)  # type: ignore[arg-type]
    assert reading.questions == ["«\u00a0Ma\u00a0»\u00a0: Marie ou Mathieu\u00a0?"]
    assert reading.fields == {}


def test_the_title_places_are_the_engines() -> None:
    """Piketty at 7 players puts the Neutre fourth (the engine's title_names)."""
    seven = [*SIX, Person("7", "Gaby")]
    state = {"hierarchy": [p.id for p in seven], "first": False, "draw": False}
    reading = read_manche("Gaby neutre", seven, PIKETTY, state)  # type: ignore[arg-type]
    assert reading.fields == {} and reading.questions[0].startswith("Président\u00a0: Chloé, Ann")
    assert reading.notes == ["Gaby\u00a0: Neutre, à remplir une fois les places d’avant connues."]
    reading = read_manche("Chloé présidente, Ann vice, Élodie premier ministre, Gaby neutre", seven, PIKETTY, state)  # type: ignore[arg-type]
    assert reading.fields == order(C, A, E, "7")


def test_piketty_first_round_is_a_card_draw() -> None:
    """seed 001: « on tire au sort la position de chacun en tirant une carte »"""
    state = {"hierarchy": [p.id for p in FOUR], "first": True, "draw": True}
    reading = read_manche(
        "Chloé roi de cœur, Ann huit de pique, Élodie as de trèfle, Benoît 10 de carreau", FOUR, PIKETTY, state
    )  # type: ignore[arg-type]
    assert reading.fields == {"draw_1": "RC", "draw_2": "8P", "draw_3": "AT", "draw_4": "10K"}
    reading = read_manche("Chloé roi", FOUR, PIKETTY, state)  # type: ignore[arg-type]
    assert reading.fields == {} and reading.questions[0].startswith("Chloé\u00a0:")
    english = read_manche("Chloe king of hearts, Ann eight of spades", FOUR, PIKETTY, state, "en")  # type: ignore[arg-type]
    assert english.fields == {"draw_1": "Kh", "draw_2": "8s"}


_TITLES = {
    "fr": ["présidente", "vice-présidente", "neutre", "vice-trou du cul", "trou du cul"],
    "en": ["president", "vice-president", "neutral", "vice-asshole", "asshole"],
}


@settings(max_examples=60, deadline=None)
@given(
    finish=st.permutations([p.id for p in PEOPLE]),
    keep=st.sampled_from([4, 5]),
    style=st.sampled_from(["list", "then", "titles", "ordinals"]),
    lang=st.sampled_from(["fr", "en"]),
)
def test_any_order_written_back_reads_the_same(finish: list[str], keep: int, style: str, lang: str) -> None:
    names = {p.id: p.name for p in PEOPLE}
    said = [names[p] for p in finish[:keep]]
    if style == "list":
        line = ("sortis dans l’ordre : " if lang == "fr" else "in order: ") + ", ".join(said)
    elif style == "then":
        line = (" puis " if lang == "fr" else " then ").join(said)
    elif style == "titles":
        line = ", ".join(f"{n} {_TITLES[lang][i]}" for i, n in enumerate(said))
    else:
        words = {
            "fr": ["premier", "deuxième", "troisième", "quatrième", "cinquième"],
            "en": ["first", "second", "third", "fourth", "fifth"],
        }
        line = ", ".join(f"{words[lang][i]} {n}" for i, n in enumerate(said))
    reading = read_manche(line, PEOPLE, HOUSE, AFTER_ONE, lang)  # type: ignore[arg-type]
    assert reading.fields == order(*finish), line
    assert reading.complete, line
