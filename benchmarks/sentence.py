"""How fast a round said in one line is read: each kind's grammar.

Run with ``.venv/bin/python benchmarks/sentence.py`` (``--runs 5000`` for more). It reads
a typical crapouille line (« Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan
un roi », four players) and a long one (eight players, dictated: no punctuation, numbers in
words, cards by name and in the notation, a dealer), a Président manche said by titles
(five players, house rules with events) and a whist deal's bids, and prints the median
time per line in µs (median of 7 batches of ``--runs`` reads, after a warm-up that builds the
number tables), beside two baselines measured in the same run on the same lines:

- ``split``: ``str.split`` and one dict lookup per word (the least any reader of the
  line's words costs in Python);
- ``words``: :func:`companion.sentence.words` only (cutting and folding the words,
  the toolkit's first step), to show what the grammar itself adds.

Goal: well under a millisecond per line. It asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

# Run as a script, this folder (with its http.py) must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.games.kinds.crapouille.sentence import read_hand
from companion.games.kinds.president.sentence import read_manche
from companion.games.kinds.whist_tarot.sentence import read_deal
from companion.rules.president import Rules
from companion.sentence import Person, words

PEOPLE = [
    Person(str(i), name)
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dan", "Élodie", "Marie", "Mathieu", "Benoît"], start=1)
]
TYPICAL = "Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan un roi"
LONG = (
    "c'est elodie qui sort ann quatre-vingt-dix-neuf bob un as cid huit de coeur dame de pique "
    "et le joker dan vingt et un marie deux rois et un as mathieu 8C RP 10♦ benoit soixante et onze "
    "donné par bob"
)

PRESIDENT = "Chloé présidente, Ann vice, Élodie neutre, Djamel vice-trou du cul, Benoît trou du cul, jeu blanc pour Ann"
#: Before the manche: titles held (Chloé Présidente … Djamel Trou du cul), the house rules.
PRESIDENT_PEOPLE = [Person(str(i), n) for i, n in enumerate(["Chloé", "Ann", "Élodie", "Benoît", "Djamel"], start=1)]
PRESIDENT_STATE = {"hierarchy": ["1", "2", "3", "4", "5"], "first": False, "draw": False}
PRESIDENT_RULES = Rules(game="president", putsch=True, jeu_blanc=True)
WHIST = "annonces : Ann deux, Bob un, Cid zéro, Dan un"
WHIST_STATE = {"players": ["1", "2", "3", "4"], "deal": {"dealer": "4", "cards": 5, "blind": False}, "pending": False}


def _president(line: str) -> object:
    return read_manche(line, PRESIDENT_PEOPLE, PRESIDENT_RULES, PRESIDENT_STATE, "fr")  # type: ignore[arg-type]


def _per_line(read: Callable[[str], object], line: str, runs: int) -> float:
    """Median µs per read of ``line`` over 7 batches of ``runs``."""
    times = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(runs):
            read(line)
        times.append((time.perf_counter() - start) / runs * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000, help="reads per batch (default 2000)")
    args = parser.parse_args()
    names = {p.name.lower(): p.id for p in PEOPLE}

    def split(line: str) -> object:
        return [names.get(w.lower()) for w in line.split()]

    grammars: list[tuple[str, str, Callable[[str], object]]] = [
        ("crapouille", TYPICAL, lambda line: read_hand(line, PEOPLE[:4], None, "fr")),
        ("crapouille long", LONG, lambda line: read_hand(line, PEOPLE, None, "fr")),
        (
            "président",
            PRESIDENT,
            lambda line: read_manche(line, PRESIDENT_PEOPLE, PRESIDENT_RULES, PRESIDENT_STATE, "fr"),
        ),  # type: ignore[arg-type]
        ("whist", WHIST, lambda line: read_deal(line, PEOPLE[:4], WHIST_STATE, "fr")),  # type: ignore[arg-type]
    ]
    for _label, line, grammar in grammars:  # warm-up: the number tables are built at the first read
        reading = grammar(line)
        assert getattr(reading, "complete", False), (line, reading)
    print(f"{'line':<16}{'words':>7}{'split µs':>11}{'words µs':>11}{'read µs':>10}{'read/split':>12}")
    for label, line, grammar in grammars:
        base = _per_line(split, line, args.runs)
        cut = _per_line(words, line, args.runs)
        read = _per_line(grammar, line, args.runs)
        print(f"{label:<16}{len(line.split()):>7}{base:>11.2f}{cut:>11.1f}{read:>10.1f}{read / base:>11.0f}×")
    print("goal: a line read in well under 1000 µs")


if __name__ == "__main__":
    main()
