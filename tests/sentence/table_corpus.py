"""Lines of a real table, written by someone who never saw the grammars, and how each is
judged: read **right** (the fields a careful reader fills, nothing asked), **asked** (a
question, words shown as not understood, or a player said as not mentioned — and
nothing filled that the line does not say), or **wrong** (a field filled with another
value than the line says, filled from nothing, or a field the line says left empty with
no word of it in the read-back: a silent gap).

The lines are in ``data/table_lines.json``: each names its table (below), the phone's
player (« moi »), the page's language, the line, what it says (``expect``, the players
by name), whether a careful reader must ask (``must_ask``) and whether the rules make
what it says impossible (``warn``: filled, and the form says why — judged by the page
tests, not here).

Run ``python -m tests.sentence.table_corpus`` to print the figures and every line not
read right.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.kinds.crapouille.sentence import read_hand
from companion.games.kinds.president.sentence import read_manche
from companion.games.kinds.whist_tarot.sentence import read_deal
from companion.rules import crapouille
from companion.rules.cards import Card, Rank, Suit, typed_notation
from companion.rules.president import Rules
from companion.sentence import Person, Reading

_DATA = Path(__file__).parent / "data"
#: The first table of lines (the grammars were mended with it), then a second one written
#: after, by another hand, for tables of their own (its figures measure the grammars).
FIRST = json.loads((_DATA / "table_lines.json").read_text(encoding="utf-8"))
SECOND = json.loads((_DATA / "table_lines_2.json").read_text(encoding="utf-8"))
#: A third, by a third hand; then a fourth, read as it came: the grammars' figure.
THIRD = json.loads((_DATA / "table_lines_3.json").read_text(encoding="utf-8"))
FOURTH = json.loads((_DATA / "table_lines_4.json").read_text(encoding="utf-8"))
FIFTH = json.loads((_DATA / "table_lines_5.json").read_text(encoding="utf-8"))
SIXTH = json.loads((_DATA / "table_lines_6.json").read_text(encoding="utf-8"))
SEVENTH = json.loads((_DATA / "table_lines_7.json").read_text(encoding="utf-8"))
LINES = FIRST + SECOND + THIRD + FOURTH + FIFTH + SIXTH + SEVENTH

IDS = {"Ann": "1", "Benoît": "2", "Élodie": "3", "Hélène": "4", "Marc": "5", "Zoé": "6"}
IDS |= {"Gabriel": "7", "Inès": "8", "Lucie": "9", "Mathis": "10", "Noémie": "11", "Paul": "12", "Romane": "13"}
IDS |= {"Antoine": "14", "Clémence": "15", "Farid": "16", "Juliette": "17", "Sacha": "18", "Yanis": "19"}
IDS |= {"Hugo": "20", "Mina": "21", "Sophie": "22", "Thomas": "23", "Valentin": "24", "Yasmine": "25"}
IDS |= {"Adèle": "26", "Bastien": "27", "Léo": "28", "Nora": "29", "Quentin": "30"}
IDS |= {"Bérénice": "31", "Cyril": "32", "Inès": "8", "Marius": "33", "Odile": "34"}
IDS |= {"Capucine": "35", "Damien": "36", "Éloïse": "37", "Rémi": "38", "Samuel": "39"}
NAMES = {v: k for k, v in IDS.items()}


def _people(*names: str) -> list[Person]:
    return [Person(IDS[n], n) for n in names]


def _ids(*names: str) -> list[str]:
    return [IDS[n] for n in names]


PRESIDENT_RULES = Rules(
    game="president",
    revolution=True,
    revolution_swaps_titles=True,
    putsch=True,
    jeu_blanc=True,
    coup_detat=True,
    twos_cut=True,
)


@dataclass(frozen=True)
class Table:
    """One table of the lines: its kind, players (seat order) and the state before the round."""

    kind: str
    people: list[Person]
    state: dict[str, Any]
    rules: Rules | None = None


def _president(names: tuple[str, ...], rules: Rules, first: bool = False, draw: bool = False) -> dict[str, Any]:
    return {"players": _ids(*names), "hierarchy": _ids(*names), "first": first, "draw": draw, "putsch_banned": None}


def _whist(names: tuple[str, ...], dealer: str, cards: int, bids: dict[str, int] | None = None) -> dict[str, Any]:
    state: dict[str, Any] = {
        "players": _ids(*names),
        "deal": {"dealer": IDS[dealer], "cards": cards, "blind": False},
        "pending": bids is not None,
        "bids": {IDS[n]: v for n, v in (bids or {}).items()},
    }
    return state


def _crapouille(names: tuple[str, ...], in_play: tuple[str, ...], dealer: str) -> dict[str, Any]:
    return {"in_play": _ids(*in_play), "dealer": IDS[dealer], "players": _ids(*names)}


_C4 = ("Ann", "Benoît", "Élodie", "Zoé")
_C5 = ("Ann", "Benoît", "Élodie", "Hélène", "Zoé")
_P4 = ("Zoé", "Ann", "Benoît", "Élodie")  # titles before the manche, best first
_P5 = ("Ann", "Benoît", "Élodie", "Marc", "Zoé")
_K6 = ("Marc", "Ann", "Zoé", "Élodie", "Hélène", "Benoît")
_K6_SEATS = ("Ann", "Benoît", "Élodie", "Hélène", "Marc", "Zoé")
_W4 = ("Ann", "Benoît", "Élodie", "Zoé")
_W3 = ("Ann", "Benoît", "Zoé")

_CR4 = ("Gabriel", "Lucie", "Mathis", "Noémie")
_CR6 = ("Gabriel", "Lucie", "Mathis", "Noémie", "Paul", "Inès")
_PR5 = ("Noémie", "Gabriel", "Inès", "Lucie", "Mathis")  # titles before the manche, best first
_PR3 = ("Gabriel", "Lucie", "Mathis")
_PK7_SEATS = ("Gabriel", "Inès", "Lucie", "Mathis", "Noémie", "Paul", "Romane")
_PK7 = ("Romane", "Paul", "Inès", "Gabriel", "Noémie", "Lucie", "Mathis")
_WH4 = ("Gabriel", "Lucie", "Mathis", "Noémie")
_WH3 = ("Lucie", "Noémie", "Paul")
_CX5 = ("Antoine", "Clémence", "Farid", "Juliette", "Sacha")
_CX3 = ("Antoine", "Clémence", "Sacha")
_PX4 = ("Juliette", "Sacha", "Antoine", "Farid")  # titles before the manche, best first
_PX6 = ("Antoine", "Clémence", "Farid", "Juliette", "Sacha", "Yanis")
_KX5_SEATS = ("Antoine", "Clémence", "Farid", "Juliette", "Sacha")
_KX5 = ("Clémence", "Sacha", "Antoine", "Juliette", "Farid")
_WX4 = ("Antoine", "Clémence", "Farid", "Juliette")
_WX3 = ("Clémence", "Sacha", "Yanis")
_CY4 = ("Hugo", "Mina", "Sophie", "Thomas")
_CY6 = ("Hugo", "Mina", "Sophie", "Thomas", "Valentin", "Yasmine")
_PY5 = ("Thomas", "Yasmine", "Hugo", "Mina", "Sophie")  # titles before the manche, best first
_PY4 = ("Hugo", "Mina", "Sophie", "Thomas")
_KY6_SEATS = ("Hugo", "Mina", "Sophie", "Thomas", "Valentin", "Yasmine")
_KY6 = ("Yasmine", "Hugo", "Valentin", "Mina", "Thomas", "Sophie")
_WY4 = ("Hugo", "Mina", "Sophie", "Thomas")
_WY3 = ("Mina", "Sophie", "Valentin")
_CZ4 = ("Adèle", "Bastien", "Léo", "Nora")
_CZ5 = ("Adèle", "Bastien", "Léo", "Nora", "Quentin")
_PZ4 = ("Nora", "Léo", "Adèle", "Bastien")  # titles before the manche, best first
_KZ5 = ("Quentin", "Adèle", "Nora", "Bastien", "Léo")
_WZ4 = ("Adèle", "Bastien", "Léo", "Nora")
_WZ3 = ("Bastien", "Nora", "Quentin")
_CW4 = ("Bérénice", "Cyril", "Inès", "Marius")
_CW5 = ("Bérénice", "Cyril", "Inès", "Marius", "Odile")
_PW4 = ("Inès", "Marius", "Bérénice", "Cyril")  # titles before the manche, best first
_KW5 = ("Odile", "Bérénice", "Cyril", "Marius", "Inès")
_WW3 = ("Cyril", "Inès", "Odile")
_CV4 = ("Capucine", "Damien", "Éloïse", "Rémi")
_CV5 = ("Capucine", "Damien", "Éloïse", "Rémi", "Samuel")
_PV4 = ("Rémi", "Capucine", "Samuel", "Damien")  # titles before the manche, best first
_KV5 = ("Éloïse", "Samuel", "Damien", "Capucine", "Rémi")
_WV3 = ("Damien", "Rémi", "Samuel")

TABLES = {
    "C4": Table("crapouille", _people(*_C4), _crapouille(_C4, _C4, "Élodie")),
    "C5": Table("crapouille", _people(*_C5), _crapouille(_C5, ("Ann", "Benoît", "Élodie", "Zoé"), "Benoît")),
    "P4": Table("president", _people(*_P4), _president(_P4, PRESIDENT_RULES), PRESIDENT_RULES),
    "P5": Table("president", _people(*_P5), _president(_P5, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "K6draw": Table(
        "president",
        _people(*_K6_SEATS),
        _president(_K6_SEATS, Rules(game="piketty"), True, True),
        Rules(game="piketty"),
    ),
    "K6": Table("president", _people(*_K6), _president(_K6, Rules(game="piketty")), Rules(game="piketty")),
    "W4b": Table("whist", _people(*_W4), _whist(_W4, "Benoît", 5)),
    "W4t": Table("whist", _people(*_W4), _whist(_W4, "Benoît", 5, {"Élodie": 2, "Zoé": 1, "Ann": 0, "Benoît": 1})),
    "W3b": Table("whist", _people(*_W3), _whist(_W3, "Zoé", 7)),
    "CR4": Table("crapouille", _people(*_CR4), _crapouille(_CR4, _CR4, "Lucie")),
    "CR6": Table(
        "crapouille", _people(*_CR6), _crapouille(_CR6, ("Gabriel", "Lucie", "Mathis", "Noémie", "Inès"), "Inès")
    ),
    "PR5": Table("president", _people(*_PR5), _president(_PR5, PRESIDENT_RULES), PRESIDENT_RULES),
    "PR3": Table("president", _people(*_PR3), _president(_PR3, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "PK7draw": Table(
        "president",
        _people(*_PK7_SEATS),
        _president(_PK7_SEATS, Rules(game="piketty"), True, True),
        Rules(game="piketty"),
    ),
    "PK7": Table("president", _people(*_PK7), _president(_PK7, Rules(game="piketty")), Rules(game="piketty")),
    "WH4b": Table("whist", _people(*_WH4), _whist(_WH4, "Mathis", 3)),
    "WH4t": Table(
        "whist", _people(*_WH4), _whist(_WH4, "Mathis", 3, {"Noémie": 1, "Gabriel": 0, "Lucie": 1, "Mathis": 0})
    ),
    "WH3b": Table("whist", _people(*_WH3), _whist(_WH3, "Paul", 6)),
    "CX5": Table("crapouille", _people(*_CX5), _crapouille(_CX5, _CX5, "Farid")),
    "CX3": Table("crapouille", _people(*_CX3), _crapouille(_CX3, _CX3, "Sacha")),
    "PX4": Table("president", _people(*_PX4), _president(_PX4, PRESIDENT_RULES), PRESIDENT_RULES),
    "PX6": Table("president", _people(*_PX6), _president(_PX6, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "KX5draw": Table(
        "president",
        _people(*_KX5_SEATS),
        _president(_KX5_SEATS, Rules(game="piketty"), True, True),
        Rules(game="piketty"),
    ),
    "KX5": Table("president", _people(*_KX5), _president(_KX5, Rules(game="piketty")), Rules(game="piketty")),
    "WX4b": Table("whist", _people(*_WX4), _whist(_WX4, "Juliette", 4)),
    "WX4t": Table(
        "whist", _people(*_WX4), _whist(_WX4, "Juliette", 4, {"Antoine": 1, "Clémence": 2, "Farid": 0, "Juliette": 0})
    ),
    "WX3b": Table("whist", _people(*_WX3), _whist(_WX3, "Yanis", 2)),
    "CY4": Table("crapouille", _people(*_CY4), _crapouille(_CY4, _CY4, "Mina")),
    "CY6": Table(
        "crapouille", _people(*_CY6), _crapouille(_CY6, ("Hugo", "Mina", "Sophie", "Thomas", "Yasmine"), "Hugo")
    ),
    "PY5": Table("president", _people(*_PY5), _president(_PY5, PRESIDENT_RULES), PRESIDENT_RULES),
    "PY4": Table("president", _people(*_PY4), _president(_PY4, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "KY6draw": Table(
        "president",
        _people(*_KY6_SEATS),
        _president(_KY6_SEATS, Rules(game="piketty"), True, True),
        Rules(game="piketty"),
    ),
    "KY6": Table("president", _people(*_KY6), _president(_KY6, Rules(game="piketty")), Rules(game="piketty")),
    "WY4b": Table("whist", _people(*_WY4), _whist(_WY4, "Thomas", 5)),
    "WY4t": Table("whist", _people(*_WY4), _whist(_WY4, "Thomas", 5, {"Hugo": 2, "Mina": 1, "Sophie": 0, "Thomas": 1})),
    "WY3b": Table("whist", _people(*_WY3), _whist(_WY3, "Valentin", 3)),
    "CZ4": Table("crapouille", _people(*_CZ4), _crapouille(_CZ4, _CZ4, "Nora")),
    "CZ5": Table("crapouille", _people(*_CZ5), _crapouille(_CZ5, _CZ4, "Léo")),
    "PZ4": Table("president", _people(*_PZ4), _president(_PZ4, PRESIDENT_RULES), PRESIDENT_RULES),
    "PZ5": Table("president", _people(*_CZ5), _president(_CZ5, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "KZ5draw": Table(
        "president", _people(*_CZ5), _president(_CZ5, Rules(game="piketty"), True, True), Rules(game="piketty")
    ),
    "KZ5": Table("president", _people(*_KZ5), _president(_KZ5, Rules(game="piketty")), Rules(game="piketty")),
    "WZ4b": Table("whist", _people(*_WZ4), _whist(_WZ4, "Adèle", 4)),
    "WZ4t": Table("whist", _people(*_WZ4), _whist(_WZ4, "Adèle", 4, {"Bastien": 1, "Léo": 0, "Nora": 2, "Adèle": 0})),
    "WZ3b": Table("whist", _people(*_WZ3), _whist(_WZ3, "Quentin", 5)),
    "CW4": Table("crapouille", _people(*_CW4), _crapouille(_CW4, _CW4, "Cyril")),
    "CW5": Table("crapouille", _people(*_CW5), _crapouille(_CW5, _CW4, "Marius")),
    "PW4": Table("president", _people(*_PW4), _president(_PW4, PRESIDENT_RULES), PRESIDENT_RULES),
    "PW5": Table("president", _people(*_CW5), _president(_CW5, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "KW5draw": Table(
        "president", _people(*_CW5), _president(_CW5, Rules(game="piketty"), True, True), Rules(game="piketty")
    ),
    "KW5": Table("president", _people(*_KW5), _president(_KW5, Rules(game="piketty")), Rules(game="piketty")),
    "WW4b": Table("whist", _people(*_CW4), _whist(_CW4, "Cyril", 3)),
    "WW4t": Table(
        "whist", _people(*_CW4), _whist(_CW4, "Cyril", 3, {"Inès": 1, "Marius": 0, "Bérénice": 1, "Cyril": 0})
    ),
    "WW3b": Table("whist", _people(*_WW3), _whist(_WW3, "Odile", 4)),
    "CV4": Table("crapouille", _people(*_CV4), _crapouille(_CV4, _CV4, "Éloïse")),
    "CV5": Table("crapouille", _people(*_CV5), _crapouille(_CV5, _CV4, "Damien")),
    "PV4": Table("president", _people(*_PV4), _president(_PV4, PRESIDENT_RULES), PRESIDENT_RULES),
    "PV5": Table("president", _people(*_CV5), _president(_CV5, PRESIDENT_RULES, first=True), PRESIDENT_RULES),
    "KV5draw": Table(
        "president", _people(*_CV5), _president(_CV5, Rules(game="piketty"), True, True), Rules(game="piketty")
    ),
    "KV5": Table("president", _people(*_KV5), _president(_KV5, Rules(game="piketty")), Rules(game="piketty")),
    "WV4b": Table("whist", _people(*_CV4), _whist(_CV4, "Rémi", 2)),
    "WV4t": Table(
        "whist", _people(*_CV4), _whist(_CV4, "Rémi", 2, {"Capucine": 1, "Damien": 0, "Éloïse": 0, "Rémi": 0})
    ),
    "WV3b": Table("whist", _people(*_WV3), _whist(_WV3, "Samuel", 5)),
}


def read(entry: dict[str, Any]) -> Reading:
    """The reading of one line of the corpus, as its table's kind reads it."""
    table = TABLES[entry["table"]]
    me = IDS.get(entry.get("me") or "")
    lang = entry.get("lang", "fr")
    line = entry["line"]
    if table.kind == "crapouille":
        return read_hand(line, table.people, table.state["in_play"], lang, me, table.state["dealer"])
    if table.kind == "president":
        assert table.rules is not None
        return read_manche(line, table.people, table.rules, table.state, lang, me)  # type: ignore[arg-type]
    step = "tricks" if table.state["pending"] else "bids"  # what the deal's form shows
    return read_deal(line, table.people, table.state, lang, me, step)  # type: ignore[arg-type]


# --- what a line says, as the form's fields


def _points(said: dict[str, Any]) -> int | None:
    if "total" in said:
        return int(said["total"])
    total = 0
    for card in said["cards"]:
        total += crapouille.card_points(_card(card))
    return total


_SYMBOLS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}


def _card(text: str) -> Card:
    if text == "Joker":
        return Card(joker="R")
    rank, suit = text[:-1], text[-1]
    if suit not in _SYMBOLS:
        rank, suit = text, "♠"  # a rank said alone: every suit of a rank counts the same
    return Card(rank=Rank(rank), suit=_SYMBOLS[suit])


def expected(entry: dict[str, Any]) -> dict[str, Any]:
    """What the line says, keyed as the reading's fields are compared (:func:`filled`)."""
    table = TABLES[entry["table"]]
    said = entry["expect"]
    out: dict[str, Any] = {}
    if table.kind == "crapouille":
        if "winner" in said:
            out["winner"] = IDS[said["winner"]]
        if "dealer" in said:
            out["dealer"] = IDS[said["dealer"]]
        for name, hand in (said.get("hands") or {}).items():
            if name != said.get("winner"):
                out[f"points_{IDS[name]}"] = _points(hand)
    elif table.kind == "president":
        for place, name in enumerate(said.get("order") or []):
            out[f"finish-{place}"] = IDS[name]
        event = said.get("event")
        if event:
            out["event"] = event["type"]
            if "player" in event:
                out[f"{event['type']}_player"] = IDS[event["player"]]
        for name in said.get("forbidden_finish") or []:
            out[f"forbidden_{IDS[name]}"] = "y"
        for name, card in (said.get("draw") or {}).items():
            out[f"draw_{IDS[name]}"] = str(_card(card)) if card[-1] in _SYMBOLS or card == "Joker" else card
        out = _ranked(out)
    else:
        for step, field in (("bids", "bid"), ("tricks", "tricks")):
            for name, value in (said.get(step) or {}).items():
                out[f"{field}_{IDS[name]}"] = str(value)
    return out


def filled(entry: dict[str, Any], reading: Reading) -> dict[str, Any]:
    """The reading's fields as :func:`expected` keys them: crapouille hands as points,
    a finishing order completed by the one player left, the draw's cards as cards."""
    table = TABLES[entry["table"]]
    out: dict[str, Any] = {}
    notation = typed_notation(entry.get("lang", "fr"))
    for name, value in reading.fields.items():
        if name.startswith("total_"):
            out[f"points_{name[6:]}"] = int(value) if value.lstrip("-").isdigit() else value
        elif name.startswith("cards_"):
            cards = [notation.read(w) for w in value.split()]
            out[f"points_{name[6:]}"] = (
                sum(crapouille.card_points(c) for c in cards) if all(c is not None for c in cards) else value
            )
        elif name.startswith("draw_"):
            cards = [notation.read(w) for w in value.split()]
            out[name] = " ".join(str(c) for c in cards) if all(c is not None for c in cards) else value
        else:
            out[name] = value
    if table.kind == "president":
        n = len(table.people)
        places = [out.get(f"finish-{i}") for i in range(n)]
        if all(places[: n - 1]) and not places[n - 1]:
            left = {p.id for p in table.people} - set(places[: n - 1])  # type: ignore[arg-type]
            if len(left) == 1:
                out[f"finish-{n - 1}"] = left.pop()
    return _ranked(out)


def _ranked(fields: dict[str, Any]) -> dict[str, Any]:
    """A finishing order as the engine ranks it: who went out on a forbidden card moves
    to the end, in the order they went out (the form takes the order they went out in,
    the test set's author wrote the ranking: both mean the same manche)."""
    order = [fields[f"finish-{i}"] for i in range(len(fields)) if f"finish-{i}" in fields]
    last = [p for p in order if fields.get(f"forbidden_{p}") == "y"]
    if not last:
        return fields
    out = {k: v for k, v in fields.items() if not k.startswith("finish-")}
    for i, p in enumerate([p for p in order if p not in last] + last):
        out[f"finish-{i}"] = p
    return out


def _mentioned(reading: Reading) -> bool:
    return bool(reading.questions or reading.not_understood or getattr(reading, "notes", None))


def verdict(entry: dict[str, Any], reading: Reading) -> str:
    """``right``, ``asked`` or ``wrong`` (see the module's docstring)."""
    want = expected(entry)
    got = filled(entry, reading)
    if any(want.get(k) != v for k, v in got.items()):
        return "wrong"  # filled with another value, or filled from nothing
    said_something = _mentioned(reading)
    if got == want and not entry["must_ask"] and not reading.questions and not reading.not_understood:
        return "right"
    if said_something:
        return "asked"
    return "wrong"  # a gap (or a line that must be asked about) with no word said


def judge(
    lines: list[dict[str, Any]] | None = None, reader: Callable[[dict[str, Any]], Reading] = read
) -> Counter[str]:
    """How many lines of each verdict."""
    return Counter(verdict(e, reader(e)) for e in (LINES if lines is None else lines))


def main(lines: list[dict[str, Any]] | None = None) -> None:
    by_table: dict[str, Counter[str]] = {}
    shown = []
    for entry in LINES if lines is None else lines:
        reading = read(entry)
        v = verdict(entry, reading)
        by_table.setdefault(entry["table"], Counter())[v] += 1
        if v != "right":
            shown.append((v, entry, reading))
    for v, entry, reading in sorted(shown, key=lambda x: x[0], reverse=True):
        print(f"[{v}] {entry['table']} me={entry.get('me')} {entry['lang']}: {entry['line']}")
        print(f"    want {expected(entry)}{'  (must ask)' if entry['must_ask'] else ''}")
        print(f"    got  {filled(entry, reading)}")
        if reading.questions or reading.not_understood:
            print(f"    asked {reading.questions} · not understood {reading.not_understood}")
        if getattr(reading, "notes", None):
            print(f"    notes {reading.notes}")
    total = Counter[str]()
    for table, counts in by_table.items():
        total.update(counts)
        print(f"{table:7} {dict(counts)}")
    n = sum(total.values())
    shares = ", ".join(f"{v} {total[v] / n:.0%}" for v in ("right", "asked", "wrong"))
    readable = [e for e in (LINES if lines is None else lines) if not e["must_ask"]]
    right = sum(verdict(e, read(e)) == "right" for e in readable)
    whole = f"of the {len(readable)} a careful reader reads whole, {right / len(readable):.0%} right"
    print(f"all     {n} lines: {shares}; {whole}")


BY_NAME = {
    "first": FIRST,
    "second": SECOND,
    "third": THIRD,
    "fourth": FOURTH,
    "fifth": FIFTH,
    "sixth": SIXTH,
    "seventh": SEVENTH,
}

if __name__ == "__main__":
    import sys

    main(BY_NAME[sys.argv[1]] if len(sys.argv) > 1 else None)
