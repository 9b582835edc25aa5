"""Perft-style counts: the number of legal plays of fixed hands on fixed tables.

The cases live in ``data/president_counts.json`` (``state`` and ``rules`` as in the
API, the ``player`` to judge, his ``hand`` and the pinned ``count``, a pass included).
A changed count means the rules changed: check the case by hand before re-pinning it.
For instance "on a single 9": pass, J, Q, K, A, and the two 2s = 7; "runs lead"
with 5h 5s 6h 6s 7d 8c: 8 sets and the runs 5-6-7, 5-6-7-8, 6-7-8 (runs are listed once per
run of ranks, whatever the suits) = 11.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.rules.cards import parse_cards
from companion.rules.president import Rules, Table

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "data" / "president_counts.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_legal_play_counts(case: dict[str, Any]) -> None:
    rules = Rules.from_options(case["rules"], game=case["game"])
    table = Table.from_state(case["state"], rules)
    plays = table.legal_plays(parse_cards(case["hand"]), case["player"])
    assert len(plays) == case["count"]
    assert len({tuple(sorted(map(str, p.cards))) for p in plays}) == len(plays)  # all distinct
