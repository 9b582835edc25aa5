"""Président's and Piketty's examples of shared/API.md, published in the OpenAPI document
(restated exactly: the tests compare them with the file when it is at hand)."""

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
#: API.md's ``"state": …, "move": …`` fragment of Président.
PRESIDENT: dict[str, Any] = {
    "state": {
        "players": _FOUR,
        "out": [],
        "reversed": False,
        "trick": [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}],
    },
    "move": {"player": "Cid", "cards": ["9c", "9d"], "last": False},
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
]
