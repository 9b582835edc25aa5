"""The ``crapouille`` adapters of the JSON API, called directly (shared/API.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.crapouille.api.adapter import check, outcome
from companion.rules.i18n import RulesError
from tests.api.mutations import mutate, mutations

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def state(**kw: Any) -> dict[str, Any]:
    return {"players": PLAYERS, "direction": 1, "pile": ["9d", "8h"], "asked": "s", "turn": "Bob", **kw}


def body(st_: dict[str, Any], move: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": "crapouille", "state": st_, "move": move, **extra}


def error_field(request: dict[str, Any], endpoint: Any = check) -> str | None:
    with pytest.raises(RulesError) as e:
        endpoint(request, "fr")
    return e.value.field


# -- /check --------------------------------------------------------------------------------


def test_api_example_spades_asked():
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». Le joueur suivant est tenu
    # de fournir un pique de hauteur quelconque, ou le cas échéant un joker ou un autre 8 »
    answer = check(body(state(), {"player": "Bob", "card": "Js"}), "fr")
    assert answer["legal"] is True and answer["rule"] is None
    assert answer["effects"] == [] and answer["next_player"] == "Cid"
    refused = check(body(state(), {"player": "Bob", "card": "Jh"}), "en")
    assert refused["legal"] is False and refused["rule"] == "asked_suit"
    assert refused["reason"] == "Spades were asked: play a spade, an 8 or a joker."
    assert refused["next_player"] is None and refused["effects"] == []


@pytest.mark.parametrize(
    ("st_", "move", "rule"),
    [
        (state(), {"player": "Cid", "card": "Js"}, "turn"),
        (state(pile=["4c", "9d"], asked=None), {"player": "Bob", "card": "Js"}, "match"),
        (state(pile=["4c", "2d"], asked=None), {"player": "Bob", "card": "8d", "asked": "c"}, "on_two"),
        (state(pile=["4c", "2d"], asked=None), {"player": "Bob", "card": "BJ"}, "on_two"),
        (state(pile=["4c", "9d", "RJ"], asked=None), {"player": "Bob", "card": "9s"}, "after_joker"),
        (state(), {"player": "Bob", "card": "Js", "last": True, "announced": False}, "announce"),
        (state(hand=["Js", "Qd"]), {"player": "Bob", "draw": True}, "must_play"),
    ],
)
def test_rule_ids(st_, move, rule):
    answer = check(body(st_, move), "fr")
    assert answer["legal"] is False and answer["rule"] == rule and answer["reason"]


TWO_PLAYERS = {"players": ["Ann", "Bob"]}
EFFECTS = [
    ({}, {"card": "2d"}, ["draw", "skip"], {"target": "Cid", "next_player": "Dan", "skipped": ["Cid"]}),
    ({}, {"card": "10d"}, ["reverse"], {"next_player": "Ann", "direction": -1}),
    ({}, {"card": "8c", "asked": "♥"}, ["choose_suit"], {"asked": "h"}),
    ({}, {"card": "2d", "last": True}, ["out", "finish_on_two"], {"target": "Cid", "next_player": None}),
    ({"hand": ["Ks"]}, {"draw": True}, ["draw"], {"target": "Bob", "next_player": None}),
    ({}, {"draw": True, "drawn": "9h"}, ["draw"], {"next_player": "Bob"}),
    ({}, {"draw": True, "drawn": "Ks"}, ["draw"], {"next_player": "Cid"}),
    (TWO_PLAYERS, {"card": "2d"}, ["draw", "skip", "play_again"], {"next_player": "Bob", "target": "Ann"}),
    (TWO_PLAYERS, {"card": "10d"}, ["reverse", "play_again"], {"next_player": "Bob"}),
]


@pytest.mark.parametrize(("changes", "move", "effects", "extra"), EFFECTS)
def test_effects(changes, move, effects, extra):
    answer = check(body(state(pile=["4c", "9d"], **changes), {"player": "Bob", **move}), "fr")
    assert answer["legal"] is True and answer["effects"] == effects
    for key, value in extra.items():
        assert answer[key] == value, key


def test_a_draw_without_the_drawn_card_has_next_player_null(api_client):
    # API.md: « optionally the `drawn` card: without it `next_player` is null, since a drawn card that fits
    # is laid at once and may be a 2, a 10 or an 8 »
    request = body(state(pile=["4c", "9d"], asked=None, hand=["Ks", "3h"]), {"player": "Bob", "draw": True})
    r = api_client.post("/api/v1/check", json=request)
    assert r.status_code == 200
    answer = r.get_json()
    assert answer["legal"] is True and answer["effects"] == ["draw"] and answer["target"] == "Bob"
    assert "next_player" in answer and answer["next_player"] is None
    # with the drawn card, as before: a 2 that fits is laid at once by Bob; a card that does not, Cid plays
    for drawn, following in (("2d", "Bob"), ("Qs", "Cid")):
        request["move"]["drawn"] = drawn
        assert check(request, "fr")["next_player"] == following, drawn


def test_super_option():
    # seed 003 (Super crapouille): « lorsqu'on pose un 10 sur la table, on rejoue avant de faire repartir
    # le jeu dans l'autre sens. On rejoue également lorsqu'on pose un 2 sur la table. »
    st_ = state(pile=["4c", "9d"])
    ten = check(body(st_, {"player": "Bob", "card": "10d"}, rules={"super": True}), "fr")
    assert ten["effects"] == ["reverse", "play_again"] and ten["next_player"] == "Bob" and ten["direction"] == -1
    two = check(body(st_, {"player": "Bob", "card": "2d"}, rules={"super": True}), "fr")
    assert two["effects"] == ["draw", "play_again"] and two["target"] == "Cid" and two["next_player"] == "Bob"
    plain = check(body(st_, {"player": "Bob", "card": "2d"}, rules={"super": False}), "fr")
    assert plain["next_player"] == "Dan"


# -- /check: malformed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        (body(state(), {"player": "Bob"}), "move"),
        (body(state(), {"player": "Bob", "card": "Js", "draw": True}), "move"),
        (body(state(), {"player": "Zoe", "card": "Js"}), "move.player"),
        (body(state(), {"player": "Bob", "card": "Zs"}), "move.card"),
        (body(state(), {"player": "Bob", "card": "T3"}), "move.card"),
        (body(state(), {"player": "Bob", "card": "Js Qs"}), "move.card"),
        (body(state(), {"player": "Bob", "card": 7}), "move.card"),
        (body(state(), {"player": "Bob", "card": "8s", "asked": "x"}), "move.asked"),
        (body(state(), {"player": "Bob", "card": "Js", "last": "yes"}), "move.last"),
        (body(state(hand=["Qs", "Ks"]), {"player": "Bob", "card": "Js"}), "move.card"),
        (body(state(hand=["Qs", "Js"]), {"player": "Bob", "card": "Js", "last": True}), "move.last"),
        (body(state(hand=["Qs", "Qs", "Qs"]), {"player": "Bob", "card": "Qs"}), "state.hand[2]"),
        (body(state(pile=["9d", "9d", "8h"], hand=["9d"]), {"player": "Bob", "draw": True}), "state.hand[0]"),
        (body(state(pile=["9d", "9d"], asked=None), {"player": "Bob", "card": "9d"}), "move.card"),
        (body(state(asked=None), {"player": "Bob", "card": "Js"}), "state.asked"),
        (body(state(pile=[]), {"player": "Bob", "card": "Js"}), "state.pile"),
        (body(state(pile="9d 8x"), {"player": "Bob", "card": "Js"}), "state.pile[1]"),
        (body(state(direction=0), {"player": "Bob", "card": "Js"}), "state.direction"),
        (body(state(turn="Zoe"), {"player": "Bob", "card": "Js"}), "state.turn"),
        (body({k: v for k, v in state().items() if k != "turn"}, {"player": "Bob", "card": "Js"}), "state.turn"),
        (body(state(players=["Ann"]), {"player": "Ann", "card": "Js"}), "state.players"),
        (body(state(players=["Ann", 3]), {"player": "Ann", "card": "Js"}), "state.players[1]"),
        (body(state(), {"player": "Bob", "card": "Js"}, rules={"super": "yes"}), "rules.super"),
        (body(state(), {"player": "Bob", "card": "Js"}, rules={"preset": "super"}), "rules.preset"),
        (body(state(), {"player": "Bob", "card": "Js"}, rules={"jokers": 2}), "rules.jokers"),
    ],
)
def test_malformed_check_requests(request_body, field):
    assert error_field(request_body) == field


# -- /outcome -------------------------------------------------------------------------------


def test_outcome_counts_hands_and_eliminates_past_300():
    # seed 003: « le 8 vaut vingt points, le joker, quinze points, le 2, dix points, les figures, cinq
    # points et les autres cartes ont leur valeur »; « Le premier perdant est celui qui dépasse la barre des 300 »
    answer = outcome(
        {
            "game": "crapouille",
            "players": PLAYERS,
            "totals": {"Ann": 290, "Bob": 100, "Cid": 300, "Dan": 0},
            "winner": "Dan",
            "hands": {"Ann": ["8h", "2c"], "Bob": "Kd RJ", "Cid": []},
        },
        "fr",
    )
    assert answer == {
        "points": {"Ann": 30, "Bob": 20, "Cid": 0, "Dan": 0},
        "totals": {"Ann": 320, "Bob": 120, "Cid": 300, "Dan": 0},
        "eliminated": ["Ann"],
        "over": False,
        "ranking": [],
        "places": {},
        "winners": [],
    }


def test_outcome_last_two_players_and_the_ranking():
    answer = outcome(
        {
            "game": "crapouille",
            "players": ["Ann", "Bob", "Cid"],
            "totals": {"Ann": 295, "Bob": 280, "Cid": 10},
            "winner": "Cid",
            "points": {"Ann": 12, "Bob": 30},
        },
        "en",
    )
    assert answer["eliminated"] == ["Bob", "Ann"]  # worst first
    assert answer["over"] is True
    assert answer["ranking"] == ["Cid", "Ann", "Bob"] and answer["winners"] == ["Cid"]
    assert answer["places"] == {"Cid": 1, "Ann": 2, "Bob": 3}


def test_outcome_places_equal_totals_crossing_together_share_a_place(api_client):
    # API.md: « "places": {name: place} (when over; equal totals crossing in the same hand share a place,
    # as 1, 2, 2, 4) »
    # RULES.md §4: « two players crossing in the same hand are ranked by total (higher total = worse; equal
    # totals share the place) »
    request = {
        "game": "crapouille",
        "players": PLAYERS,
        "totals": {"Ann": 0, "Bob": 290, "Cid": 290, "Dan": 280},
        "winner": "Ann",
        "points": {"Bob": 20, "Cid": 20, "Dan": 40},
    }
    r = api_client.post("/api/v1/outcome", json=request)
    assert r.status_code == 200
    answer = r.get_json()
    assert answer["over"] is True and answer["eliminated"] == ["Dan", "Bob", "Cid"]
    assert answer["places"] == {"Ann": 1, "Bob": 2, "Cid": 2, "Dan": 4}
    assert answer["ranking"] == ["Ann", "Bob", "Cid", "Dan"] and answer["winners"] == ["Ann"]
    # not over: no place yet, consistent with ranking []
    request["points"] = {"Bob": 20, "Cid": 1, "Dan": 1}
    answer = api_client.post("/api/v1/outcome", json=request).get_json()
    assert answer["over"] is False and answer["places"] == {} and answer["ranking"] == []


def test_outcome_the_winner_may_be_listed_with_nothing_to_count(api_client):
    # API.md: « The winner may be listed in `hands` with an empty hand, or in `points` with 0 (a screen sends
    # every player); any card or point for the winner is a 400. »
    request = {"game": "crapouille", "players": ["Ann", "Bob", "Cid"], "winner": "Ann"}
    for entries in ({"hands": {"Ann": [], "Bob": ["8h"], "Cid": "Ks"}}, {"points": {"Ann": 0, "Bob": 20, "Cid": 5}}):
        r = api_client.post("/api/v1/outcome", json={**request, **entries})
        assert r.status_code == 200, entries
        assert r.get_json()["points"] == {"Ann": 0, "Bob": 20, "Cid": 5}
    for entries, field in (
        ({"hands": {"Ann": ["3h"], "Bob": ["8h"], "Cid": "Ks"}}, "hands.Ann"),
        ({"points": {"Ann": 3, "Bob": 20, "Cid": 5}}, "points.Ann"),
    ):
        r = api_client.post("/api/v1/outcome", json={**request, **entries, "lang": "en"})
        assert r.status_code == 400 and r.get_json()["field"] == field, entries
        assert r.get_json()["error"].startswith("Ann went out")


def test_outcome_everybody_crossing_lowest_total_wins():
    # RULES.md §4: « if every remaining player crosses in the same hand, the lowest total wins »
    answer = outcome(
        {
            "game": "crapouille",
            "players": ["Ann", "Bob"],
            "totals": {"Ann": 300, "Bob": 290},
            "winner": "Bob",
            "points": {"Ann": 5},
        },
        "fr",
    )
    assert answer["winners"] == ["Bob"] and answer["eliminated"] == ["Ann"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"hands": {"Ann": ["8h", "Zz"]}}, "hands.Ann[1]"),
        ({"hands": {"Ann": "8h 8h 8h"}}, "hands.Ann[2]"),
        ({"hands": {"Ann": ["8h", "8h"], "Bob": ["8h"], "Cid": []}}, "hands.Bob[0]"),
        ({"hands": {"Zoe": ["8h"]}}, "hands.Zoe"),
        ({"hands": {"Ann": ["T3"]}}, "hands.Ann[0]"),
        ({"hands": ["8h"]}, "hands"),
        ({"hands": {"Ann": ["8h"]}, "points": {"Ann": 4}}, "points.Ann"),
        ({"points": {"Ann": "4"}}, "points.Ann"),
        ({"points": {"Ann": -1}}, "points.Ann"),
        ({"points": {"Dan": 4}}, "points.Dan"),
        ({}, "hands.Ann"),
        ({"winner": "Zoe"}, "winner"),
        ({"winner": 1}, "winner"),
        ({"players": ["Ann"]}, "players"),
        ({"players": "Ann Bob"}, "players"),
        ({"totals": {"Ann": 301}}, "totals.Ann"),
        ({"totals": {"Ann": -3}}, "totals.Ann"),
        ({"totals": {"Zoe": 3}}, "totals.Zoe"),
        ({"totals": 3}, "totals"),
        ({"rules": {"preset": "x"}}, "rules.preset"),
    ],
)
def test_malformed_outcome_requests(changes, field):
    request = {"game": "crapouille", "players": PLAYERS, "winner": "Dan"}
    if "hands" not in changes and "points" not in changes and changes != {}:
        request["points"] = {"Ann": 1, "Bob": 2, "Cid": 3}
    request.update(changes)
    assert error_field(request, outcome) == field


# -- fuzz: any JSON gives an answer or a RulesError ----------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 400)
    | st.sampled_from(["Ann", "Bob", "s", "8h", "2d", "RJ", "EX", "x", "", "9d 9d"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["Ann", "Bob", "player"]), inner),
    max_leaves=8,
)


CHECK_TEMPLATE = body(
    state(pile=["RJ", "8h", "BJ"], hand=["Js", "2c"], direction=-1),
    {"player": "Bob", "card": "Js", "asked": "d", "last": False, "announced": True, "draw": None},
    rules={"super": True},
)
OUTCOME_TEMPLATE = {
    "game": "crapouille",
    "players": PLAYERS,
    "totals": {"Ann": 250, "Bob": 10},
    "winner": "Cid",
    "hands": {"Ann": ["8h", "RJ"], "Bob": "2c"},
    "points": {"Dan": 40},
    "rules": {"super": False},
}


@settings(max_examples=150, deadline=None)
@given(mutations(CHECK_TEMPLATE, JSON))
def test_check_fuzz(changes):
    request = mutate(CHECK_TEMPLATE, changes)
    try:
        answer = check(request, "en")
    except RulesError as e:
        assert e.text.get("en") and e.field is not None
    else:
        assert isinstance(answer["legal"], bool) and isinstance(answer["effects"], list)


@settings(max_examples=150, deadline=None)
@given(mutations(OUTCOME_TEMPLATE, JSON))
def test_outcome_fuzz(changes):
    request = mutate(OUTCOME_TEMPLATE, changes)
    try:
        answer = outcome(request, "fr")
    except RulesError as e:
        assert e.text.get("fr") and e.field is not None
    else:
        assert set(answer) == {"points", "totals", "eliminated", "over", "ranking", "places", "winners"}
