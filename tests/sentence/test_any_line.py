"""Whatever is typed or dictated, every kind's grammar answers with a reading — never an
error: any text (control characters, emoji, right-to-left marks, thousands of words,
words of the grammars mixed at random), in French and in English. What it fills names
only the form's own fields and values a field can hold."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.games.kinds.crapouille.sentence import read_hand
from companion.games.kinds.president.sentence import read_manche
from companion.games.kinds.whist_tarot.sentence import read_deal
from companion.rules.president import Rules
from companion.sentence import Person, Reading

PEOPLE = [Person("1", "Ann"), Person("2", "Benoît"), Person("3", "Chloé"), Person("4", "Djamel")]
IDS = {p.id for p in PEOPLE}
#: Words the grammars know, mixed at random with any text.
KNOWN = [
    "Ann",
    "Benoît",
    "Chloé",
    "Djamel",
    "Élo",
    "moi",
    "sort",
    "sortie",
    "a",
    "fini",
    "rien",
    "zéro",
    "douze",
    "vingt-deux",
    "quatre-vingt-dix-neuf",
    "cent",
    "huit",
    "de",
    "cœur",
    "le",
    "joker",
    "deux",
    "piques",
    "un",
    "roi",
    "et",
    "un",
    "as",
    "dame",
    "trèfle",
    "10",
    "8C",
    "RP",
    ";",
    ",",
    ":",
    "présidente",
    "vice",
    "trou",
    "du",
    "cul",
    "putsch",
    "jeu",
    "blanc",
    "pour",
    "sur",
    "un",
    "2",
    "annonces",
    "plis",
    "bids",
    "tricks",
    "out",
    "nothing",
    "twelve",
]
LINES = st.lists(st.one_of(st.sampled_from(KNOWN), st.text(max_size=12)), max_size=40).map(" ".join) | st.text(
    max_size=300
)
HOUSE = Rules(game="president", putsch=True, jeu_blanc=True)
PRESIDENT_STATE: dict[str, Any] = {"hierarchy": ["1", "2", "3", "4"], "first": False, "draw": False}
WHIST_STATE: dict[str, Any] = {
    "players": ["1", "2", "3", "4"],
    "deal": {"dealer": "4", "cards": 5, "blind": False},
    "pending": False,
}
FIELD = re.compile(
    r"winner|dealer|(cards|total)_\d+|finish-\d+|forbidden_\d+|event|\w+_player|guillotine_\w+|draw_\d+|bid_\d+|tricks_\d+|order_reversed"
)


def _sound(reading: Reading) -> None:
    assert isinstance(reading, Reading)
    for name, value in reading.fields.items():
        assert FIELD.fullmatch(name), name
        assert isinstance(value, str) and len(value) < 200
        if name in ("winner", "dealer") or name.startswith(("finish-", "forbidden_")):
            assert value in IDS or value in ("", "y"), (name, value)
    assert all(isinstance(q, str) and q for q in reading.questions)


@given(line=LINES, lang=st.sampled_from(["fr", "en"]))
def test_any_line_gives_a_crapouille_reading(line: str, lang: str) -> None:
    _sound(read_hand(line, PEOPLE, [p.id for p in PEOPLE], lang, "2"))


@given(line=LINES, lang=st.sampled_from(["fr", "en"]))
def test_any_line_gives_a_president_reading(line: str, lang: str) -> None:
    _sound(read_manche(line, PEOPLE, HOUSE, PRESIDENT_STATE, lang, "2"))  # type: ignore[arg-type]


@given(line=LINES, lang=st.sampled_from(["fr", "en"]))
def test_any_line_gives_a_whist_reading(line: str, lang: str) -> None:
    _sound(read_deal(line, PEOPLE, WHIST_STATE, lang, "2"))  # type: ignore[arg-type]
