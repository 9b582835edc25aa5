"""Whist with a tarot deck said in one line (issue 28): the bids, then the tricks, read
into the deal form's fields (companion/games/kinds/whist_tarot/sentence.py).

The grammar is called directly with the players (:class:`Person`) and the state before
the deal; the forbidden dealer's bid goes through the real deal form.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.whist_tarot import WhistTarot, deal_form
from companion.games.kinds.whist_tarot.sentence import read_deal
from companion.models import Game, GamePlayer, Player
from companion.sentence import Person, spell

PEOPLE = [Person("1", "Ann"), Person("2", "Benoît"), Person("3", "Chloé"), Person("4", "Djamel")]
# seed 002: « premier tour 5 cartes à chacun »; Djamel deals, Ann bids first.
STATE: dict[str, Any] = {
    "players": ["1", "2", "3", "4"],
    "deal": {"dealer": "4", "cards": 5, "blind": False},
    "pending": False,
}
PENDING = {**STATE, "pending": True, "bids": {"1": 2, "2": 1, "3": 0, "4": 1}}

B = "bid_"
T = "tricks_"
ALL_BIDS = {"bid_1": "2", "bid_2": "1", "bid_3": "0", "bid_4": "1"}

# (line, page language, fields it must give, questions it must ask (their start), not understood)
LINES: list[tuple[str, str, dict[str, str], list[str], list[str]]] = [
    # bids, French, several phrasings
    ("annonces : Ann 2, Benoît 1, Chloé 0, Djamel 1", "fr", ALL_BIDS, [], []),
    ("Annonces: Ann 2, Benoit 1, Chloe 0, Djamel 1", "fr", ALL_BIDS, [], []),
    ("annonces Ann 2 Benoît 1 Chloé 0 Djamel 1", "fr", ALL_BIDS, [], []),
    ("Ann deux, Benoît un, Chloé rien, Djamel un", "fr", ALL_BIDS, [], []),
    ("Ann deux, Benoît une, Chloé zéro, Djamel 1", "fr", ALL_BIDS, [], []),
    ("ann 2 benoit 1 chloe 0 djamel 1", "fr", ALL_BIDS, [], []),
    ("ANN 2, BENOÎT 1, CHLOÉ 0, DJAMEL 1", "fr", ALL_BIDS, [], []),
    ("Ann annonce 2, Benoît annonce 1, Chloé annonce 0, Djamel annonce 1", "fr", ALL_BIDS, [], []),
    ("Ann dit deux, Benoît dit un, Chloé dit rien, Djamel dit un", "fr", ALL_BIDS, [], []),
    ("Ann demande 2, Benoît 1, Chloé 0, Djamel 1", "fr", ALL_BIDS, [], []),
    ("enchères : Ann 2, Benoît 1, Chloé aucun, Djamel 1", "fr", ALL_BIDS, [], []),
    ("Ann annonce deux plis, Benoît un pli, Chloé aucun pli, Djamel un pli", "fr", ALL_BIDS, [], []),
    ("Anne 2, Ben 1, Chlo 0, Dja 1", "fr", ALL_BIDS, [], []),
    ("Ann 2, Benoï 1, Chloée 0, Djamal 1", "fr", ALL_BIDS, [], []),
    ("Ann : 2 ; Benoît : 1 ; Chloé : 0 ; Djamel : 1", "fr", ALL_BIDS, [], []),
    ("deux pour Ann, un pour Benoît", "fr", {B + "1": "2", B + "2": "1"}, [], []),
    ("moi 2, Benoît 1", "fr", {B + "1": "2", B + "2": "1"}, [], []),
    ("Ann 2", "fr", {B + "1": "2"}, [], []),
    ("Ann 2 Benoît 1", "fr", {B + "1": "2", B + "2": "1"}, [], []),
    ("Ann cinq, Benoît quatre", "fr", {B + "1": "5", B + "2": "4"}, [], []),
    ("Ann trois, Benoît trois", "fr", {B + "1": "3", B + "2": "3"}, [], []),
    (
        "annonces Ann 2, Benoît 1, plis Ann 1, Benoît 1",
        "fr",
        {B + "1": "2", B + "2": "1", T + "1": "1", T + "2": "1"},
        [],
        [],
    ),
    # tricks, French
    (
        "plis : Ann 2, Benoît zéro, Chloé 3, Djamel 0",
        "fr",
        {T + "1": "2", T + "2": "0", T + "3": "3", T + "4": "0"},
        [],
        [],
    ),
    (
        "plis Ann deux Benoît rien Chloé trois Djamel rien",
        "fr",
        {T + "1": "2", T + "2": "0", T + "3": "3", T + "4": "0"},
        [],
        [],
    ),
    ("Ann a fait deux plis, Benoît un pli", "fr", {T + "1": "2", T + "2": "1"}, [], []),
    ("Ann a fait 2, Benoît a fait 0", "fr", {T + "1": "2", T + "2": "0"}, [], []),
    (
        "levées : Ann 1, Benoît 1, Chloé 1, Djamel 2",
        "fr",
        {T + "1": "1", T + "2": "1", T + "3": "1", T + "4": "2"},
        [],
        [],
    ),
    ("Ann a gagné 2 plis, Chloé a remporté 3 plis", "fr", {T + "1": "2", T + "3": "3"}, [], []),
    ("plis: ann 5 benoit 0 chloe 0 djamel 0", "fr", {T + "1": "5", T + "2": "0", T + "3": "0", T + "4": "0"}, [], []),
    ("plis : moi 2, Benoît 1", "fr", {T + "1": "2", T + "2": "1"}, [], []),
    # English, on an English page
    ("bids: Ann 2, Benoit 1, Chloe 0, Djamel 1", "en", ALL_BIDS, [], []),
    ("Bids: Ann two, Benoît one, Chloé nothing, Djamel one", "en", ALL_BIDS, [], []),
    ("Ann bids 2, Benoit bids 1, Chloe bids zero, Djamel bids 1", "en", ALL_BIDS, [], []),
    ("Ann says two, Benoit one, Chloe none, Djamel one", "en", ALL_BIDS, [], []),
    ("Ann 2 Benoit 1 Chloe 0 Djamel 1", "en", ALL_BIDS, [], []),
    (
        "tricks: Ann 2, Benoit 0, Chloe 3, Djamel 0",
        "en",
        {T + "1": "2", T + "2": "0", T + "3": "3", T + "4": "0"},
        [],
        [],
    ),
    ("Ann made two tricks, Benoit took one", "en", {T + "1": "2", T + "2": "1"}, [], []),
    ("Ann won 2, Benoit won nothing", "en", {T + "1": "2", T + "2": "0"}, [], []),
    ("tricks: me 1, Chloe 4", "en", {T + "1": "1", T + "3": "4"}, [], []),
    ("bids: Ann 2, tricks: Ann 3", "en", {B + "1": "2", T + "1": "3"}, [], []),
    ("two for Ann, one for Benoit", "en", {B + "1": "2", B + "2": "1"}, [], []),
    ("Ann un", "en", {}, [], ["Ann"]),
    # the dealer's forbidden bid is filled: the form refuses it (see below)
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    (
        "annonces : Ann 2, Benoît 1, Chloé 1, Djamel 1",
        "fr",
        {B + "1": "2", B + "2": "1", B + "3": "1", B + "4": "1"},
        [],
        [],
    ),
    ("Ann deux Benoît un Chloé un Djamel un", "fr", {B + "1": "2", B + "2": "1", B + "3": "1", B + "4": "1"}, [], []),
    # a bid larger than the deal is filled too: the form says what is wrong
    ("Ann 9", "fr", {B + "1": "9"}, [], []),
    ("Ann douze", "fr", {B + "1": "12"}, [], []),
    # asked, never guessed
    ("Ann 2, Ann 3", "fr", {}, ["L’annonce d’Ann"], []),
    ("plis Benoît 1, Benoît 2", "fr", {}, ["Les plis de Benoît"], []),
    ("bids: Ann 2, Ann 3", "en", {}, ["Bid of Ann"], []),
    ("Ann 2, Ann 2", "fr", {B + "1": "2"}, [], []),
    # not understood, shown in the line's own words
    ("Ann 2, Zoé 3", "fr", {B + "1": "2"}, [], ["Zoé 3"]),
    ("Ann, Benoît 2", "fr", {B + "2": "2"}, [], ["Ann"]),
    ("3", "fr", {}, [], ["3"]),
    ("Ann 2 banane", "fr", {B + "1": "2"}, [], ["banane"]),
    ("", "fr", {}, [], []),
    ("Ann", "fr", {}, [], ["Ann"]),
    ("bonjour", "fr", {}, [], ["bonjour"]),
    ("Ann deux, Benoît", "fr", {B + "1": "2"}, [], ["Benoît"]),
    ("bids: Ann 2, Zed 1", "en", {B + "1": "2"}, [], ["Zed 1"]),
    ("Chlo rien, Dja un", "fr", {B + "3": "0", B + "4": "1"}, [], []),
    # A name's first two letters only: asked.
    ("Chlo rien, Dj un", "fr", {B + "3": "0"}, ["«\u00a0Dj\u00a0»\u00a0: Djamel\u00a0?"], []),
]


@pytest.mark.parametrize(
    ("line", "lang", "fields", "questions", "unknown"), LINES, ids=[f"{i}:{x[0]}" for i, x in enumerate(LINES)]
)
def test_a_line_gives_the_deal_form(
    line: str, lang: str, fields: dict[str, str], questions: list[str], unknown: list[str]
) -> None:
    reading = read_deal(line, PEOPLE, STATE, lang, me="1")  # type: ignore[arg-type]
    assert reading.fields == fields
    assert len(reading.questions) == len(questions)
    for asked, start in zip(reading.questions, questions, strict=True):
        assert asked.startswith(start), asked
    assert reading.not_understood == unknown


def test_without_a_word_the_pending_deal_takes_tricks() -> None:
    """Once the bids are in (the deal pending), a line of numbers is the tricks."""
    reading = read_deal("Ann 2, Benoît 1, Chloé 1, Djamel 1", PEOPLE, PENDING)  # type: ignore[arg-type]
    assert reading.fields == {"tricks_1": "2", "tricks_2": "1", "tricks_3": "1", "tricks_4": "1"}
    assert read_deal("annonces Ann 3", PEOPLE, PENDING).fields == {"bid_1": "3"}  # type: ignore[arg-type]


def test_two_players_starting_alike_are_asked() -> None:
    people = [Person("1", "Marie"), Person("2", "Mathieu"), Person("3", "Ann")]
    state = {"players": ["1", "2", "3"], "deal": {"dealer": "3", "cards": 5, "blind": False}, "pending": False}
    reading = read_deal("Ma 2, Ann 1", people, state)  # type: ignore[arg-type]
    assert reading.fields == {"bid_3": "1"}
    assert reading.questions == ["«\u00a0Ma\u00a0»\u00a0: Marie ou Mathieu\u00a0?"]


def _written(bids: dict[str, int], tricks: dict[str, int] | None, lang: str, words: bool) -> str:
    said = {p.id: p.name for p in PEOPLE}

    def n(v: int) -> str:
        return spell(v, lang) if words else str(v)

    head = ("annonces", "plis") if lang == "fr" else ("bids", "tricks")
    line = f"{head[0]} : " + ", ".join(f"{said[p]} {n(v)}" for p, v in bids.items())
    if tricks is not None:
        line += f" ; {head[1]} : " + ", ".join(f"{said[p]} {n(v)}" for p, v in tricks.items())
    return line


@settings(max_examples=60, deadline=None)
@given(
    bids=st.fixed_dictionaries({p.id: st.integers(0, 5) for p in PEOPLE}),
    tricks=st.one_of(st.none(), st.fixed_dictionaries({p.id: st.integers(0, 5) for p in PEOPLE})),
    lang=st.sampled_from(["fr", "en"]),
    in_words=st.booleans(),
)
def test_any_entry_written_back_reads_the_same(
    bids: dict[str, int], tricks: dict[str, int] | None, lang: str, in_words: bool
) -> None:
    line = _written(bids, tricks, lang, in_words)
    reading = read_deal(line, PEOPLE, STATE, lang)  # type: ignore[arg-type]
    expected = {f"bid_{p}": str(v) for p, v in bids.items()}
    expected |= {f"tricks_{p}": str(v) for p, v in (tricks or {}).items()}
    assert reading.fields == expected, line
    assert reading.complete, line


def _game() -> Game:
    game = Game(kind="whist-tarot", rules={}, setup={"dealer": "4"}, version=0)
    game.seats = [GamePlayer(seat=i, player=Player(id=int(p.id), name=p.name)) for i, p in enumerate(PEOPLE)]
    return game


def test_the_forbidden_bid_read_from_a_line_is_refused_by_the_form(app: Flask) -> None:
    """The grammar fills the dealer's forbidden bid; the deal form refuses it with the
    engine's reason, next to the dealer's bid. # seed 002: « Le donneur lui ne peut dire
    un nombre de plis qui ferait que la somme des annonces serait égale au nombre de plis
    à faire »"""
    game = _game()
    state = WhistTarot().initial_state(game)
    assert state["deal"] == {"dealer": "4", "cards": 5, "blind": False}
    reading = WhistTarot().read_line(game, state, 1, "annonces : Ann 2, Benoît 1, Chloé 1, Djamel 1", "fr")
    assert reading is not None and reading.complete
    posted = {**reading.fields, "round": "1", "version": "0"}
    with app.test_request_context("/", method="POST", data=posted):
        form = deal_form(game, state, 1)
        assert not form.validate()
        assert form["bid_4"].errors and "Djamel" in form["bid_4"].errors[0]
    # Any other bid of the dealer's passes.
    with app.test_request_context("/", method="POST", data={**posted, "bid_4": "2"}):
        form = deal_form(game, state, 1)
        assert form.validate(), form.errors
