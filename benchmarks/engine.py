"""Checks per second of the Président engine on typical tricks of each preset.

Run with ``.venv/bin/python benchmarks/engine.py``; it prints one line per case and
asserts nothing.  It imports the engine (companion.rules.president) and builds each
table from API-style states, as the JSON API does.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

# benchmarks/http.py bears the name of the standard library's http package, which Flask imports:
# run as a script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

from companion.rules.president import Play, Rules, Table

FOUR = ["Ann", "Bob", "Cid", "Dan"]
FIVE = [*FOUR, "Eve"]

#: (label, game, rules, state, move)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], Play]] = [
    (
        "plain: pair on a pair",
        "president",
        {},
        {"players": FOUR, "trick": [{"player": "Ann", "cards": "7h 7s"}]},
        Play.parse("Bob", "9c 9d"),
    ),
    (
        "plain: long trick",
        "president",
        {"jokers": 2, "passe": True},
        {
            "players": FOUR,
            "trick": [
                {"player": "Ann", "cards": "3h"},
                {"player": "Bob", "cards": "3s"},
                {"player": "Cid", "pass": True},
                {"player": "Dan", "cards": "3d"},
            ],
        },
        Play.parse("Ann", "3c"),
    ),
    (
        "angevin: chasse d'eau",
        "president",
        {"preset": "angevin"},
        {"players": FOUR, "trick": [{"player": "Ann", "cards": "7h 7s"}]},
        Play.parse("Bob", "3c 3d"),
    ),
    (
        "wizz: double 6 on a 6",
        "president",
        {"preset": "wizz"},
        {"players": FIVE, "trick": [{"player": "Ann", "cards": "6h"}]},
        Play.parse("Bob", "6s 6d"),
    ),
    (
        "franck: flush on a straight",
        "president",
        {"preset": "franck"},
        {"players": FOUR, "trick": [{"player": "Ann", "cards": "5h 6s 7d 8c 9s"}]},
        Play.parse("Bob", "3h 7h 9h Jh Kh"),
    ),
    (
        "tarot: trumps on a pair",
        "president",
        {"preset": "tarot"},
        {"players": FOUR, "trick": [{"player": "Ann", "cards": "9h 9s"}]},
        Play.parse("Bob", "T5 T6"),
    ),
    (
        "piketty: 6 players",
        "piketty",
        {},
        {"players": ["P", "V", "M1", "M2", "VT", "T"], "trick": [{"player": "P", "cards": "9h 9s"}]},
        Play.parse("V", "Kd Kd"),
    ),
]


def rate(function: Any, seconds: float = 0.3) -> float:
    """Calls per second of ``function`` over about ``seconds``."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        function()
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    """Print checks per second: on a built table, and from the JSON state (replaying the trick)."""
    print(f"{'case':32} {'check/s':>10} {'state+check/s':>14}")
    for label, game, options, state, move in CASES:
        rules = Rules.from_options(options, game=game)
        table = Table.from_state(state, rules)
        assert table.check(move).legal, label
        on_table = rate(lambda table=table, move=move: table.check(move))
        from_state = rate(lambda rules=rules, state=state, move=move: Table.from_state(state, rules).check(move))
        print(f"{label:32} {on_table:10.0f} {from_state:14.0f}")


if __name__ == "__main__":
    main()
