"""shared/API.md over HTTP, game by game: the documented examples, and no input ever
reaching the adapters' safety net (which would mean a bug)."""

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def post(client, endpoint, body):
    r = client.post(f"/api/v1/{endpoint}", json=body)
    assert r.status_code in (200, 400), r.status_code
    return r.status_code, r.get_json()


def test_president_check_example_of_api_md(api_client):
    # seed 000: « Jouer consiste à poser le même nombre de cartes que le joueur précédent, mais d'un rang supérieur. »
    state = {
        "players": PLAYERS,
        "out": [],
        "reversed": False,
        "trick": [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}],
    }
    status, body = post(
        api_client,
        "check",
        {"game": "president", "state": state, "move": {"player": "Cid", "cards": ["9c", "9d"], "last": False}},
    )
    assert status == 200 and body == {
        "legal": True,
        "rule": None,
        "effects": [],
        "next_player": "Dan",
        "said": ["À Dan de jouer."],
    }
    status, body = post(
        api_client, "check", {"game": "president", "state": state, "move": {"player": "Cid", "cards": "6c 6d"}}
    )
    assert body["legal"] is False and body["rule"] == "rank" and body["reason"] and body["next_player"] is None
    status, body = post(
        api_client, "check", {"game": "president", "state": state, "move": {"player": "Dan", "cards": "9c 9d"}}
    )
    assert body["rule"] == "turn"


def test_president_outcome_titles_exchanges_points(api_client):
    # seed 000: « Le Balayeur donne au Président ses deux meilleures cartes ; en retour, celui-ci lui donne deux
    # cartes au choix »
    status, body = post(
        api_client, "outcome", {"game": "president", "players": PLAYERS, "finish": ["Dan", "Cid", "Bob", "Ann"]}
    )
    assert status == 200
    assert [t["player"] for t in body["titles"]] == ["Dan", "Cid", "Bob", "Ann"]
    assert body["titles"][0]["title"] == "Président" and body["titles"][-1]["title"] == "Trou du cul"
    assert {"from": "Ann", "to": "Dan", "count": 2, "cards": "best"}.items() <= body["exchanges"][0].items()
    assert body["points"] == {"Dan": 3, "Cid": 2, "Bob": 1, "Ann": 0}
    assert {"dealer", "leader"} <= set(body)


def test_piketty_draw_and_deal(api_client):
    # seed 001: « La distribution doit se terminer par le trouduc et le vice-trouduc qui se retrouve avec une
    # carte supplémentaire chacun. »
    draw = {"A": "Ks", "B": "Kh", "C": "2c", "D": "7d", "E": "9s", "F": "Ad"}
    status, body = post(api_client, "outcome", {"game": "piketty", "players": list(draw), "first": True, "draw": draw})
    assert status == 200
    assert [t["player"] for t in body["titles"]] == ["C", "F", "A", "B", "E", "D"]
    assert body["deal"] == {"A": 13, "B": 13, "C": 13, "D": 14, "E": 14, "F": 13}


def test_whist_tarot_dealer_bid_and_settlement(api_client):
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    state = {"players": PLAYERS, "dealer": "Dan", "cards": 5, "bids": {"Ann": 2, "Bob": 1, "Cid": 1}, "trick": []}
    status, body = post(
        api_client, "check", {"game": "whist-tarot", "state": state, "move": {"player": "Dan", "bid": 1}}
    )
    assert body["legal"] is False and body["rule"] == "dealer_bid" and body["forbidden_bid"] == 1
    status, body = post(
        api_client, "check", {"game": "whist-tarot", "state": state, "move": {"player": "Dan", "bid": 2}}
    )
    assert body["legal"] is True and body["forbidden_bid"] == 1
    # seed 002: « le joueur qui a annoncé 1 et qui fait finalement 3 plis, retire 2 cartes de sa mise »
    request = {
        "game": "whist-tarot",
        "players": PLAYERS,
        "dealer": "Dan",
        "cards": 5,
        "blind": False,
        "stakes": dict.fromkeys(PLAYERS, 14),
        "bids": {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 0},
        "tricks": {"Ann": 1, "Bob": 3, "Cid": 1, "Dan": 0},
    }
    status, body = post(api_client, "outcome", request)
    assert body["losses"] == {"Ann": 1, "Bob": 2, "Cid": 0, "Dan": 0}
    assert body["ended"] is False and body["next"] == {"dealer": "Dan", "cards": 4, "blind": False}
    request["tricks"] = {"Ann": 1, "Bob": 1, "Cid": 1, "Dan": 0}
    status, body = post(api_client, "outcome", request)
    assert status == 400 and body["field"].startswith("tricks")


def test_crapouille_check_and_outcome(api_client):
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». Le joueur suivant est tenu de
    # fournir un pique de hauteur quelconque, ou le cas échéant un joker ou un autre 8 »
    state = {"players": PLAYERS, "direction": 1, "pile": ["9d", "8h"], "asked": "s", "turn": "Bob"}
    status, body = post(
        api_client, "check", {"game": "crapouille", "state": state, "move": {"player": "Bob", "card": "Js"}}
    )
    assert body["legal"] is True and body["next_player"] == "Cid"
    status, body = post(
        api_client, "check", {"game": "crapouille", "state": state, "move": {"player": "Bob", "card": "Jh"}}
    )
    assert body["legal"] is False and body["rule"] == "asked_suit"
    request = {
        "game": "crapouille",
        "players": ["Ann", "Bob", "Cid"],
        "totals": {"Ann": 290, "Bob": 10, "Cid": 0},
        "winner": "Cid",
        "hands": {"Ann": ["8h"], "Bob": "Kd 2s"},
    }
    status, body = post(api_client, "outcome", request)
    assert body["points"] == {"Ann": 20, "Bob": 15, "Cid": 0}
    assert body["eliminated"] == ["Ann"] and body["over"] is False
    request["hands"] = {"Ann": ["8h", "8h", "8h"], "Bob": "Kd"}
    status, body = post(api_client, "outcome", request)
    assert status == 400 and body["field"] == "hands.Ann[2]"


def test_unknown_option_or_preset_is_400_for_every_game(api_client):
    for game in ("president", "piketty", "whist-tarot", "crapouille"):
        status, body = post(api_client, "check", {"game": game, "rules": {"nope": True}, "state": {}, "move": {}})
        assert status == 400 and body["field"] == "rules.nope", game
        status, body = post(api_client, "outcome", {"game": game, "rules": {"preset": "nope"}})
        assert status == 400 and body["field"] in ("rules.preset", "rules"), game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(["Ann", "Bob", "9h", "EX", "8s 8s", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["player", "cards", "card", "bid", "pass", "last", "trick", "Ann"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("endpoint", ["check", "outcome"])
@pytest.mark.parametrize("game", ["president", "piketty", "whist-tarot", "crapouille"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_bodies_never_reach_the_safety_net(api_client, caplog, endpoint, game, data):
    keys = [
        "players",
        "state",
        "move",
        "finish",
        "winner",
        "hands",
        "points",
        "totals",
        "dealer",
        "cards",
        "bids",
        "tricks",
        "stakes",
        "rules",
        "draw",
        "events",
    ]
    body = {"game": game, **data.draw(st.dictionaries(st.sampled_from(keys), json_values, max_size=6))}
    with caplog.at_level(logging.ERROR):
        r = api_client.post(f"/api/v1/{endpoint}", json=body)
    assert r.status_code in (200, 400)
    assert "API adapter failed" not in caplog.text, body
    if r.status_code == 400:
        assert set(r.get_json()) >= {"error", "field"}
