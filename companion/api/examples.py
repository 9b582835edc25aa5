"""The examples of shared/API.md, published in the OpenAPI document.

The ```json fragments of API.md are restated exactly (the tests compare them with the
file when it is at hand); the outcome requests, written in prose there, are the
bodies the prose describes.  Every one of them is judged 200 by the API.
"""

from __future__ import annotations

from typing import Any

_FOUR = ["Ann", "Bob", "Cid", "Dan"]

#: API.md's answer to POST /api/v1/check.
CHECK_ANSWER: dict[str, Any] = {
    "legal": False,
    "rule": "rank",
    "reason": "Il faut jouer plus haut que 9.",
    "effects": [],
    "next_player": None,
}
#: API.md's ``"state": …, "move": …`` fragment of each game family.
PRESIDENT: dict[str, Any] = {
    "state": {
        "players": _FOUR,
        "out": [],
        "reversed": False,
        "trick": [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}],
    },
    "move": {"player": "Cid", "cards": ["9c", "9d"], "last": False},
}
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
CRAPOUILLE: dict[str, Any] = {
    "state": {"players": _FOUR, "direction": 1, "pile": ["9d", "8h"], "asked": "s", "turn": "Bob"},
    "move": {"player": "Bob", "card": "Js"},
}

#: Requests to POST /api/v1/check: (summary, body).
CHECKS: list[tuple[str, dict[str, Any]]] = [
    ("Président: a pair of 9s on a pair of 7s", {"game": "president", **PRESIDENT}),
    ("Piketty: the same table", {"game": "piketty", **PRESIDENT}),
    (
        "Président, Wizz preset, in English, cards as one string",
        {"game": "president", "rules": {"preset": "wizz"}, "lang": "en", **PRESIDENT}
        | {"move": {"player": "Cid", "cards": "9c 9d"}},
    ),
    (
        "Président: a pass by the player who must lead",
        {
            "game": "president",
            "state": {"players": _FOUR, "trick": [], "leader": "Bob"},
            "move": {"player": "Bob", "pass": True},
        },
    ),
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
    ("Président: a manche", {"game": "president", "players": _FOUR, "finish": ["Dan", "Cid", "Bob", "Ann"]}),
    (
        "Président: a player went out on a 2 (twos cut)",
        {
            "game": "president",
            "rules": {"twos_cut": True},
            "players": _FOUR,
            "finish": _FOUR,
            "finished_on": {"Ann": "2"},
        },
    ),
    (
        "Président: a putsch",
        {
            "game": "president",
            "rules": {"putsch": True},
            "players": _FOUR,
            "finish": ["Bob"],
            "events": {"putsch": "Dan"},
        },
    ),
    (
        "Président: a jeu blanc",
        {"game": "president", "rules": {"jeu_blanc": True}, "players": _FOUR, "events": {"jeu_blanc": "Bob"}},
    ),
    (
        "Président: a coup d’État",
        {
            "game": "president",
            "rules": {"jokers": 2, "coup_detat": True},
            "players": _FOUR,
            "events": {"coup_detat": "Cid"},
        },
    ),
    (
        "Président: a guillotine",
        {
            "game": "president",
            "rules": {"jokers": 2, "guillotine": True},
            "players": _FOUR,
            "events": {"guillotine": {"player": "Dan", "vice": "Cid", "last": "Bob"}},
        },
    ),
    (
        "Président: a first manche",
        {"game": "president", "players": _FOUR, "first": True, "finish": ["Cid", "Ann", "Dan"]},
    ),
    (
        "Piketty: the first draw",
        {
            "game": "piketty",
            "players": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"],
            "first": True,
            "draw": {"Ann": "Ks", "Bob": "Kh", "Cid": "2c", "Dan": "7d", "Eve": "9s", "Fay": "Ad"},
        },
    ),
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
