"""How much of what the OpenAPI document allows the rules API judges, game by game.

Run with ``.venv/bin/python benchmarks/api_schema_share.py [--bodies N] [--seed S]``.  For
each game and endpoint it has Schemathesis (the project's schema-driven generator) make N
request bodies from the document the app serves (``GET /api/v1/openapi.json``), seeded, sends
each to the app in process, and prints what became of them.  It asserts nothing; the
measuring is tests/api/schema_share.py's, and tests/api/test_schema_exact.py holds the
figures to their bounds.

What it measures, plainly:

- ``judged``: the share of bodies answered 200.  A schema cannot bring it near 100 %: JSON
  Schema cannot say that ``dealer`` is one of ``players``, so a generator gives each name a
  random text and most bodies name someone who is not at the table (a 400 the API must
  give).  So each body is sent twice: **raw**, as generated, and **bound**, with every name
  that refers to a player rewritten to one of the body's players (nothing else changed; the
  bound body still matches the schema).
- ``kept``: the share of bodies *not* refused for a broken promise, i.e. for a condition the
  schema could state (an option that needs another, a card outside the deck the rules make,
  an event without its option…).  The other 400s are relations JSON Schema cannot state
  (``name``: a name that is not a player; ``everyone``: a list that must name every player;
  ``count``: a bound tied to the number of players; ``copies``: cards counted across
  fields; ``history``: the order of play, sums) and are listed by kind.

``--show K`` prints K broken promises per game and endpoint (field and sentence).
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package, which Flask imports:
# run as a script, this folder must not come first on the path; the project's root must be on
# it (the measuring lives in tests/api/schema_share.py).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import argparse
import time

from companion import create_app
from tests.api.schema_share import ENDPOINTS, GAMES, RELATIONS, Share, measure


def _percent(share: float) -> str:
    return f"{share * 100:5.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bodies", type=int, default=300, help="bodies generated per game and endpoint (300)")
    parser.add_argument("--seed", type=int, default=24, help="the generator's seed (24)")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    parser.add_argument("--show", type=int, default=0, help="broken promises to print per game and endpoint")
    args = parser.parse_args()

    app = create_app({"TESTING": True, "SECRET_KEY": "benchmark", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    pairs = [(g, e) for g in args.game or GAMES for e in ENDPOINTS]
    started = time.perf_counter()
    shares = measure(app.test_client(), args.bodies, args.seed, pairs, keep=args.show)
    kinds = [f"relation:{kind}" for kind in RELATIONS]
    print(f"{args.bodies} bodies per game and endpoint, seed {args.seed}: judged = answered 200; kept = not refused")
    print("for a condition the schema could state. Bound: each name rewritten to one of the body's players.")
    print()
    names = ["promise", *(k.split(":")[1] for k in kinds)]
    header = f"{'game':12} {'endpoint':8} {'judged raw':>10} {'judged bound':>12} {'kept raw':>9} {'kept bound':>10}"
    print(f"{'':64} | bound bodies by class")
    print(header + " | " + " ".join(f"{name:>8}" for name in names))
    for share in shares:
        bound = share.bound
        counts = " ".join(f"{bound[k]:>8}" for k in ["promise", *kinds])
        print(
            f"{share.game:12} {share.endpoint:8} {_percent(Share.judged(share.raw)):>10} "
            f"{_percent(Share.judged(bound)):>12} {_percent(Share.kept(share.raw)):>9} "
            f"{_percent(Share.kept(bound)):>10} | {counts}"
        )
        if share.unbindable:
            print(f"{'':22}({share.unbindable} bodies no longer matched the schema once bound: left out)")
        for _body, field, error in share.promises:
            print(f"{'':22}broken promise: {field}: {error}")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
