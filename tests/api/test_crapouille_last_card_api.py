"""The rules API on going out at la crapouille (shared/API.md: « A move is a `card` (with
`asked` when it is an 8, except an 8 laid as the last card, which ends the hand …) »),
and what ``said`` tells of a draw and of a finish on a 2, each thing once (issue 23)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.kinds.crapouille.api.adapter import check
from tests.api.openapi_tools import request_validator, response_validator

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def state(**kw: Any) -> dict[str, Any]:
    return {"players": PLAYERS, "direction": 1, "pile": ["4c", "9d"], "turn": "Bob", **kw}


def body(st_: dict[str, Any], move: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": "crapouille", "state": st_, "move": {"player": "Bob", **move}, **extra}


def post(api_client, request: dict[str, Any]) -> dict[str, Any]:
    r = api_client.post("/api/v1/check", json=request)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


@pytest.fixture(scope="module")
def document(api_client):
    return api_client.get("/api/v1/openapi.json").get_json()


# -- an 8 as the last card ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("st_", "move"),
    [
        (state(), {"card": "8h", "last": True}),
        (state(hand=["8h"]), {"card": "8h"}),  # the hand says it is the last card
        (state(pile=["4c", "9d", "8s"], asked="c"), {"card": "8c", "last": True}),
    ],
)
def test_a_last_eight_needs_no_suit_and_ends_the_hand(api_client, document, st_, move):
    # seed 003: « Lorsqu'un joueur s'est débarrassé de toutes ses cartes, le coup se termine. »
    request = body(st_, move)
    request_validator(document, "check").validate(request)  # the published schema accepts it
    answer = post(api_client, request)
    response_validator(document, "check", 200).validate(answer)
    assert answer["legal"] is True and answer["rule"] is None
    assert answer["effects"] == ["out"] and answer["next_player"] is None
    assert answer["asked"] is None and "target" not in answer
    assert answer["said"] == ["Bob n’a plus de cartes\u00a0: la donne est finie."]
    assert "Choisissez une couleur." not in answer["said"]


def test_a_suit_given_with_a_last_eight_is_ignored(api_client):
    # Our choice (docs/rules.md): ignored, not refused; the answer asks nothing of anyone.
    answer = post(api_client, body(state(), {"card": "8h", "asked": "s", "last": True}, lang="en"))
    assert answer["legal"] is True and answer["effects"] == ["out"] and answer["asked"] is None
    assert answer["said"] == ["Bob is out: the hand is over."]
    assert check(body(state(), {"card": "8h", "asked": "♠", "last": True}), "fr")["asked"] is None


def test_an_eight_that_is_not_the_last_card_still_asks(api_client):
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». »
    answer = post(api_client, body(state(hand=["8h", "3s"]), {"card": "8h", "asked": "s"}))
    assert answer["effects"] == ["choose_suit"] and answer["asked"] == "s" and answer["next_player"] == "Cid"
    assert answer["said"] == ["Couleur demandée\u00a0: pique.", "À Cid de jouer."]


@pytest.mark.parametrize(
    ("st_", "move", "rule"),
    [
        (state(pile=["4c", "2d"]), {"card": "8d", "last": True}, "on_two"),
        (state(), {"card": "8h", "last": True, "announced": False}, "announce"),
        (state(), {"card": "8h", "last": True, "player": "Cid"}, "turn"),
    ],
)
def test_a_last_eight_is_still_judged(api_client, st_, move, rule):
    # seed 003: the 8 goes anywhere « sauf là encore sur un 2 »; « S'il ne l'a pas fait, il lui sera
    # interdit de finir au tour suivant. »
    answer = post(api_client, body(st_, move))
    assert answer["legal"] is False and answer["rule"] == rule and answer["said"] == []


def test_last_with_more_cards_in_hand_is_malformed(api_client):
    r = api_client.post("/api/v1/check", json=body(state(hand=["8h", "3s"]), {"card": "8h", "last": True}))
    assert r.status_code == 400 and r.get_json()["field"] == "move.last"


def test_the_document_says_a_last_eight_asks_no_suit(document):
    text = str(document)
    assert "An 8 laid as the player's last card ends the hand and asks no suit" in text


# -- finishing on a 2 ------------------------------------------------------------------------


@pytest.mark.parametrize(("direction", "draws"), [(1, "Cid"), (-1, "Ann")])
def test_finishing_on_a_two_names_who_draws_one_more_card(api_client, direction, draws):
    # seed 003: « Lorsqu'un joueur termine en posant un 2 sur la table, par convention, le joueur suivant
    # prend une carte supplémentaire. »
    answer = post(api_client, body(state(direction=direction, pile=["4c", "7d"]), {"card": "2d", "last": True}))
    assert answer["effects"] == ["out", "finish_on_two"] and answer["target"] == draws
    assert answer["said"] == [
        "Bob n’a plus de cartes\u00a0: la donne est finie.",
        f"Fini sur un 2\u00a0: {draws} pioche encore une carte, qui compte.",
    ]


# -- a draw is told once ------------------------------------------------------------------------


def test_a_draw_is_told_once(api_client):
    # seed 003: « soit, s'il ne le peut pas, tire une carte du talon qu'il met sur la dernière carte posée
    # si elle est de même couleur ou de même rang que celle-ci, sinon dans son jeu. »
    unseen = post(api_client, body(state(), {"draw": True}))
    assert unseen["said"] == [
        "Bob pioche une carte.",
        "Si elle peut aller sur le tas, elle y est posée tout de suite.",
    ]
    kept = post(api_client, body(state(), {"draw": True, "drawn": "Ks"}))
    assert kept["next_player"] == "Cid"
    assert kept["said"] == ["Bob garde la carte piochée.", "À Cid de jouer."]  # the kept card unnamed
    fits = post(api_client, body(state(), {"draw": True, "drawn": "Qd"}))
    assert fits["next_player"] == "Bob"
    assert fits["said"] == ["Bob pioche la D♦, qui va sur le tas\u00a0: à poser tout de suite."]
    english = post(api_client, body(state(), {"draw": True, "drawn": "9s"}, lang="en"))
    assert english["said"] == ["Bob draws the 9♠, which fits: it is laid at once."]
    for answer in (unseen, kept, fits, english):
        assert len(answer["said"]) == len(set(answer["said"]))
        assert sum("pioche" in line or "draws" in line for line in answer["said"]) <= 1
