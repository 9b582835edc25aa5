"""The ``whist-tarot`` adapters of the JSON API, called directly (shared/API.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.whist_tarot.api.adapter import check, outcome
from companion.rules.i18n import RulesError
from tests.api.mutations import mutate, mutations

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def body(state: dict[str, Any], move: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": "whist-tarot", "state": state, "move": move, **extra}


def bid_state(**kw: Any) -> dict[str, Any]:
    return {"players": PLAYERS, "dealer": "Dan", "cards": 5, "bids": {"Ann": 2, "Bob": 1, "Cid": 1}, **kw}


def play_state(**kw: Any) -> dict[str, Any]:
    return {"players": PLAYERS, "dealer": "Dan", "cards": 5, "bids": {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 0}, **kw}


def error_field(request: dict[str, Any], endpoint: Any = check) -> str | None:
    with pytest.raises(RulesError) as e:
        endpoint(request, "fr")
    return e.value.field


# -- /check --------------------------------------------------------------------------------


def test_api_example_dealer_forbidden_bid():
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    state = bid_state(trick=[{"player": "Bob", "card": "T14"}])
    answer = check(body(state, {"player": "Dan", "bid": 1}), "fr")
    assert answer["legal"] is False
    assert answer["rule"] == "dealer_bid"
    assert answer["forbidden_bid"] == 1
    assert answer["effects"] == [] and answer["next_player"] is None
    assert answer["reason"].startswith("Dan donne et ne peut pas annoncer 1")
    english = check(body(state, {"player": "Dan", "bid": 1}), "en")
    assert english["reason"].startswith("Dan deals and may not bid 1")


def test_bid_checks_always_carry_forbidden_bid():
    answer = check(body(bid_state(), {"player": "Dan", "bid": 2}), "fr")
    assert answer == {"legal": True, "rule": None, "effects": [], "next_player": "Bob", "forbidden_bid": 1}
    first = check(body(bid_state(bids={}), {"player": "Ann", "bid": 0}), "fr")
    assert first["forbidden_bid"] is None and first["next_player"] == "Bob"


@pytest.mark.parametrize(
    ("state", "move", "rule"),
    [
        (bid_state(bids={}), {"player": "Bob", "bid": 1}, "turn"),
        (bid_state(bids={}), {"player": "Ann", "bid": 6}, "bid_range"),
        (bid_state(bids={}), {"player": "Ann", "bid": -1}, "bid_range"),
        (play_state(), {"player": "Ann", "card": "T3"}, "turn"),
        (play_state(), {"player": "Bob", "card": "EX"}, "excuse"),
        (play_state(played=["T3", "T4", "T5", "T6"], leader="Bob"), {"player": "Bob", "card": "T4"}, "card_played"),
        (bid_state(), {"player": "Bob", "card": "T4"}, "turn"),
    ],
)
def test_rule_ids(state, move, rule):
    answer = check(body(state, move), "en")
    assert answer["legal"] is False and answer["rule"] == rule
    assert answer["reason"] and answer["next_player"] is None


def test_card_completing_a_trick_returns_its_winner():
    # seed 002: « La carte la plus forte emporte le pli, et c'est le joueur qui remporte le pli qui rejoue. »
    state = play_state(
        trick=[
            {"player": "Bob", "card": "T14"},
            {"player": "Cid", "card": "EX", "excuse": 22},
            {"player": "Dan", "card": "T21"},
        ]
    )
    answer = check(body(state, {"player": "Ann", "card": "T1"}), "fr")
    assert answer["legal"] is True
    assert answer["trick_winner"] == "Cid" and answer["next_player"] == "Cid"
    assert answer["effects"] == ["trick_won"]


def test_excuse_with_its_value_and_french_input():
    answer = check(body(play_state(), {"player": "Bob", "card": "ex", "excuse": 0}), "fr")
    assert answer["legal"] and answer["next_player"] == "Cid"
    assert "trick_winner" not in answer


def test_bids_may_be_left_out_when_only_play_is_refereed():
    state = {"players": PLAYERS, "dealer": "Dan", "cards": 2, "trick": [{"player": "Bob", "card": "T2"}]}
    assert check(body(state, {"player": "Cid", "card": "T3"}), "fr")["legal"]


# -- /check: malformed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        (body(bid_state(), {"player": "Dan"}), "move"),
        (body(bid_state(), {"player": "Dan", "bid": 1, "card": "T1"}), "move"),
        (body(bid_state(), {"player": "Zoe", "bid": 1}), "move.player"),
        (body(bid_state(), {"player": "Dan", "bid": "1"}), "move.bid"),
        (body(bid_state(), {"player": "Dan", "bid": True}), "move.bid"),
        (body(play_state(), {"player": "Bob", "card": "Ah"}), "move.card"),
        (body(play_state(), {"player": "Bob", "card": "T22"}), "move.card"),
        (body(play_state(), {"player": "Bob", "card": "EX", "excuse": 5}), "move.excuse"),
        (body(play_state(), {"player": "Bob", "card": "T5", "excuse": 22}), "move.excuse"),
        (body(bid_state(players=["Ann", "Bob"]), {"player": "Ann", "bid": 1}), "state.players"),
        (body(bid_state(players="Ann Bob Cid"), {"player": "Ann", "bid": 1}), "state.players"),
        (body(bid_state(dealer="Zoe"), {"player": "Ann", "bid": 1}), "state.dealer"),
        (body(bid_state(cards=6), {"player": "Ann", "bid": 1}), "state.cards"),
        (body(bid_state(cards="5"), {"player": "Ann", "bid": 1}), "state.cards"),
        (body(bid_state(bids={"Bob": 1}), {"player": "Ann", "bid": 1}), "state.bids.Bob"),
        (body(bid_state(bids={"Ann": 9}), {"player": "Bob", "bid": 1}), "state.bids.Ann"),
        (body(bid_state(bids={"Zoe": 1}), {"player": "Bob", "bid": 1}), "state.bids.Zoe"),
        (
            body(play_state(trick=[{"player": "Bob", "card": "Qs"}]), {"player": "Cid", "card": "T1"}),
            "state.trick[0].card",
        ),
        (body(play_state(trick=[{"player": "Bob"}]), {"player": "Cid", "card": "T1"}), "state.trick[0].card"),
        (
            body(play_state(trick=[{"player": "Bob", "card": "EX"}]), {"player": "Cid", "card": "T1"}),
            "state.trick[0].excuse",
        ),
        (body(play_state(trick=["T1"]), {"player": "Cid", "card": "T1"}), "state.trick[0]"),
        (body(play_state(played="T1 T1"), {"player": "Bob", "card": "T2"}), "state.played[1]"),
        (body(play_state(played=["T1", "Zz"]), {"player": "Bob", "card": "T2"}), "state.played[1]"),
        (
            body(play_state(trick=[{"player": "Bob", "card": "T1"}], played=["T1"]), {"player": "Cid", "card": "T2"}),
            "state.trick[0].card",
        ),
        (body(bid_state(), {"player": "Dan", "bid": 1}, rules={"preset": "x"}), "rules.preset"),
        (body(bid_state(), {"player": "Dan", "bid": 1}, rules={"super": True}), "rules.super"),
        (body(bid_state(), {"player": "Dan", "bid": 1}, rules=[]), "rules"),
        ({"game": "whist-tarot", "move": {"player": "Dan", "bid": 1}}, "state"),
        (body(bid_state(), "bid 1"), "move"),  # type: ignore[arg-type]
    ],
)
def test_malformed_check_requests(request_body, field):
    assert error_field(request_body) == field


# -- /outcome -------------------------------------------------------------------------------


def outcome_body(**kw: Any) -> dict[str, Any]:
    base = {
        "game": "whist-tarot",
        "players": PLAYERS,
        "dealer": "Dan",
        "cards": 5,
        "blind": False,
        "stakes": dict.fromkeys(PLAYERS, 14),
        "bids": {"Ann": 1, "Bob": 2, "Cid": 1, "Dan": 0},
        "tricks": {"Ann": 3, "Bob": 2, "Cid": 0, "Dan": 0},
    }
    base.update(kw)
    return base


def test_outcome_bid_one_took_three_gives_back_two():
    # seed 002: « le joueur qui a annoncé 1 et qui fait finalement 3 plis, retire 2 cartes de sa mise. »
    answer = outcome(outcome_body(), "fr")
    assert answer == {
        "losses": {"Ann": 2, "Bob": 0, "Cid": 1, "Dan": 0},
        "stakes": {"Ann": 12, "Bob": 14, "Cid": 13, "Dan": 14},
        "ended": False,
        "winners": [],
        "next": {"dealer": "Dan", "cards": 4, "blind": False},
    }


def test_outcome_blind_deal_passes_the_deal_left_and_can_end_the_game():
    answer = outcome(
        outcome_body(
            cards=1,
            blind=True,
            stakes={"Ann": 1, "Bob": 3, "Cid": 3, "Dan": 2},
            bids={"Ann": 1, "Bob": 0, "Cid": 0, "Dan": 1},
            tricks={"Ann": 0, "Bob": 0, "Cid": 1, "Dan": 0},
        ),
        "fr",
    )
    assert answer["stakes"] == {"Ann": 0, "Bob": 3, "Cid": 2, "Dan": 1}
    assert answer["ended"] is True and answer["winners"] == ["Bob"]
    assert answer["next"] == {"dealer": "Ann", "cards": 5, "blind": False}


def test_outcome_blind_defaults_to_false():
    request = outcome_body()
    del request["blind"]
    assert outcome(request, "fr")["next"]["cards"] == 4


def test_outcome_refuses_the_dealers_forbidden_bid(api_client):
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 car la
    # somme des annonces ferait alors 5 »
    # API.md: « the dealer's bid never the forbidden value (else 400, `field` = `bids.<dealer>`, the reason
    # naming the forbidden value) »
    request = outcome_body(
        bids={"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 1}, tricks={"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 1}
    )
    for lang, words in (("fr", "Dan donne et ne peut pas annoncer 1"), ("en", "Dan deals and may not bid 1")):
        r = api_client.post("/api/v1/outcome", json={**request, "lang": lang})
        assert r.status_code == 400, lang
        assert r.get_json()["field"] == "bids.Dan" and words in r.get_json()["error"], lang
    # « Il peut dire 0 ou 2 (ou plus) si il le désire. »
    r = api_client.post("/api/v1/outcome", json={**request, "bids": {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 2}})
    assert r.status_code == 200 and r.get_json()["losses"] == {"Ann": 0, "Bob": 0, "Cid": 0, "Dan": 1}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"bids": {"Ann": 1, "Bob": 2, "Cid": 1, "Dan": 1}}, "bids.Dan"),
        ({"bids": {"Ann": 1, "Bob": 6, "Cid": 1, "Dan": 0}}, "bids.Bob"),
        ({"bids": {"Ann": -1, "Bob": 2, "Cid": 1, "Dan": 0}}, "bids.Ann"),
        ({"tricks": {"Ann": 3, "Bob": 2, "Cid": 1, "Dan": 0}}, "tricks"),
        ({"tricks": {"Ann": 3, "Bob": 2, "Cid": 0}}, "tricks.Dan"),
        ({"tricks": [3, 2, 0, 0]}, "tricks"),
        ({"bids": {"Ann": "1", "Bob": 2, "Cid": 1, "Dan": 0}}, "bids.Ann"),
        ({"stakes": {"Ann": 15, "Bob": 14, "Cid": 14, "Dan": 14}}, "stakes.Ann"),
        ({"stakes": {"Ann": 14, "Bob": 14, "Cid": 14, "Dan": 14, "Zoe": 3}}, "stakes.Zoe"),
        ({"players": ["Ann", "Bob"]}, "players"),
        ({"dealer": 3}, "dealer"),
        ({"dealer": "Zoe"}, "dealer"),
        ({"cards": 0}, "cards"),
        ({"blind": "no"}, "blind"),
        ({"blind": True}, "blind"),
        ({"rules": {"x": 1}}, "rules.x"),
    ],
)
def test_malformed_outcome_requests(changes, field):
    assert error_field(outcome_body(**changes), outcome) == field


# -- fuzz: any JSON gives an answer or a RulesError ----------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(["Ann", "Dan", "T1", "EX", "Ah", "", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["Ann", "Bob", "player"]), inner),
    max_leaves=8,
)


CHECK_TEMPLATE = body(
    play_state(trick=[{"player": "Bob", "card": "T2"}], played=["T9", "T8", "T7", "T6"], leader="Bob"),
    {"player": "Cid", "card": "EX", "excuse": 22},
)


@settings(max_examples=150, deadline=None)
@given(mutations(CHECK_TEMPLATE, JSON))
def test_check_fuzz(changes):
    request = mutate(CHECK_TEMPLATE, changes)
    try:
        answer = check(request, "en")
    except RulesError as e:
        assert e.text.get("en") and e.field is not None
    else:
        assert isinstance(answer["legal"], bool)


@settings(max_examples=150, deadline=None)
@given(mutations(outcome_body(), JSON))
def test_outcome_fuzz(changes):
    request = mutate(outcome_body(), changes)
    try:
        answer = outcome(request, "fr")
    except RulesError as e:
        assert e.text.get("fr") and e.field is not None
    else:
        assert set(answer) == {"losses", "stakes", "ended", "winners", "next"}
