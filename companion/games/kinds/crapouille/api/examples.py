"""La crapouille's examples of shared/API.md, published in the OpenAPI document
(restated exactly: the tests compare them with the file when it is at hand)."""

from __future__ import annotations

from typing import Any

_FOUR = ["Ann", "Bob", "Cid", "Dan"]

#: API.md's ``"state": …, "move": …`` fragment of la crapouille.
CRAPOUILLE: dict[str, Any] = {
    "state": {"players": _FOUR, "direction": 1, "pile": ["9d", "8h"], "asked": "s", "turn": "Bob"},
    "move": {"player": "Bob", "card": "Js"},
}

#: Requests to POST /api/v1/check: (summary, body).
CHECKS: list[tuple[str, dict[str, Any]]] = [
    ("Crapouille: a spade on the 8 that asked for spades", {"game": "crapouille", **CRAPOUILLE}),
    (
        "Crapouille: an 8 that asks for hearts",
        {"game": "crapouille", **CRAPOUILLE} | {"move": {"player": "Bob", "card": "8s", "asked": "h"}},
    ),
    (
        "Crapouille: a last card without saying 'carte'",
        {"game": "crapouille", **CRAPOUILLE}
        | {"move": {"player": "Bob", "card": "Js", "last": True, "announced": False}},
    ),
    (
        "Crapouille: a draw, with the hand",
        {
            "game": "crapouille",
            "state": {**CRAPOUILLE["state"], "hand": ["Kd"]},
            "move": {"player": "Bob", "draw": True},
        },
    ),
    (
        "Crapouille: a draw, with the card drawn",
        {"game": "crapouille", **CRAPOUILLE} | {"move": {"player": "Bob", "draw": True, "drawn": "9h"}},
    ),
]

#: Requests to POST /api/v1/outcome: (summary, body).
OUTCOMES: list[tuple[str, dict[str, Any]]] = [
    (
        "Crapouille: a hand counted from the cards left",
        {
            "game": "crapouille",
            "players": ["Ann", "Bob", "Cid"],
            "totals": {"Ann": 290, "Bob": 10, "Cid": 0},
            "winner": "Cid",
            "hands": {"Ann": ["8h"], "Bob": "Kd 2s", "Cid": []},
        },
    ),
    (
        "Crapouille: a hand from typed totals",
        {"game": "crapouille", "players": ["Ann", "Bob"], "winner": "Bob", "points": {"Ann": 12, "Bob": 0}},
    ),
]
