"""Whist's examples of shared/API.md, published in the OpenAPI document
(restated exactly: the tests compare them with the file when it is at hand)."""

from __future__ import annotations

from typing import Any

_FOUR = ["Ann", "Bob", "Cid", "Dan"]

#: API.md's ``"state": …, "move": …`` fragment of whist.
WHIST_TAROT: dict[str, Any] = {
    "state": {
        "players": _FOUR,
        "dealer": "Dan",
        "cards": 5,
        "bids": {"Ann": 2, "Bob": 1, "Cid": 1},
        "trick": [{"player": "Bob", "card": "T14"}],
    },
    "move": {"player": "Dan", "bid": 1},
}
#: Requests to POST /api/v1/check: (summary, body).
CHECKS: list[tuple[str, dict[str, Any]]] = [
    ("Whist with a tarot deck: the dealer's bid", {"game": "whist-tarot", **WHIST_TAROT}),
    (
        "Whist with a tarot deck: the Excuse as 22, with leader and played",
        {
            "game": "whist-tarot",
            "state": {**WHIST_TAROT["state"], "bids": {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 0}, "trick": []}
            | {"leader": "Bob", "played": ["T1", "T2", "T3", "T4"]},
            "move": {"player": "Bob", "card": "EX", "excuse": 22},
        },
    ),
]

#: Requests to POST /api/v1/outcome: (summary, body).
OUTCOMES: list[tuple[str, dict[str, Any]]] = [
    (
        "Whist with a tarot deck: a deal settled",
        {
            "game": "whist-tarot",
            "players": _FOUR,
            "dealer": "Dan",
            "cards": 5,
            "blind": False,
            "stakes": dict.fromkeys(_FOUR, 14),
            "bids": {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 0},
            "tricks": {"Ann": 1, "Bob": 3, "Cid": 1, "Dan": 0},
        },
    ),
]
