"""``said``: what a legal move leads to, in the table's words, on every check answer.

The same words are shown by the referee screens (companion.games.judging.judge)."""

import pytest

from companion.games.judging import judge
from companion.rules.i18n import RulesError

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def check(client, body):
    r = client.post("/api/v1/check", json=body)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_a_2_wins_the_trick_and_its_player_leads_again(api_client):
    # seed 000: « Le 2 est la carte la plus forte » — laid, it ends the trick; its player leads.
    state = {"players": PLAYERS, "trick": [{"player": "Ann", "cards": ["9h"]}, {"player": "Bob", "cards": ["Kd"]}]}
    answer = check(api_client, {"game": "president", "state": state, "move": {"player": "Cid", "cards": ["2c"]}})
    assert answer["effects"] == ["trick_won"] and answer["said"] == ["Le pli est pour vous, vous rejouez."]
    answer = check(
        api_client, {"game": "president", "lang": "en", "state": state, "move": {"player": "Cid", "cards": ["2c"]}}
    )
    assert answer["said"] == ["The trick is yours: you lead again."]


def test_everyone_passes_the_trick_goes_to_the_last_to_lay_cards(api_client):
    # seed 000: when every other player passes, the last to have laid cards leads the next trick.
    state = {
        "players": ["Ann", "Bob", "Cid"],
        "trick": [{"player": "Ann", "cards": ["Qh"]}, {"player": "Bob", "pass": True}],
    }
    answer = check(api_client, {"game": "president", "state": state, "move": {"player": "Cid", "pass": True}})
    assert answer["said"] == ["Le pli est pour Ann, qui rejoue."]


def test_a_quad_is_a_revolution(api_client):
    # seed 000: « Si un joueur pose un carré, il y a une révolution et la valeur des cartes est inversée. »
    body = {
        "game": "president",
        "rules": {"revolution": True},
        "state": {"players": PLAYERS, "trick": []},
        "move": {"player": "Ann", "cards": ["7h", "7s", "7d", "7c"]},
    }
    answer = check(api_client, body)
    assert "revolution" in answer["effects"]
    assert answer["said"][0] == "Révolution ! L’ordre des cartes s’inverse."
    swapped = check(api_client, dict(body, rules={"revolution": True, "revolution_swaps_titles": True}))
    assert swapped["said"][0].startswith("Révolution ! Les titres s’inversent")
    assert swapped["said"][-1] == "La manche est finie."


def test_a_plain_play_names_who_plays_next(api_client):
    state = {"players": PLAYERS, "trick": [{"player": "Ann", "cards": ["7h"]}]}
    answer = check(api_client, {"game": "president", "state": state, "move": {"player": "Bob", "pass": True}})
    assert answer["said"] == ["À Cid de jouer."]


def test_an_illegal_move_says_nothing_but_its_reason(api_client):
    state = {"players": PLAYERS, "trick": [{"player": "Ann", "cards": ["9h"]}]}
    answer = check(api_client, {"game": "president", "state": state, "move": {"player": "Bob", "cards": ["8c"]}})
    assert answer["legal"] is False and answer["said"] == [] and answer["reason"] == "Il faut jouer plus haut que 9."


def test_crapouille_a_2_makes_the_next_player_draw_and_skip(api_client):
    # seed 003: « le 2, qui oblige le joueur suivant à prendre une carte et à passer son tour »
    body = {
        "game": "crapouille",
        "state": {"players": PLAYERS, "pile": ["9h"], "turn": "Bob"},
        "move": {"player": "Bob", "card": "2h"},
    }
    answer = check(api_client, body)
    assert answer["said"] == ["Cid pioche une carte et passe son tour.", "À Dan de jouer."]


def test_crapouille_an_8_asks_for_a_suit_and_a_10_reverses(api_client):
    # seed 003: the 8 lets its player name the suit; the 10 changes the direction of play.
    state = {"players": PLAYERS, "pile": ["9h"], "turn": "Bob"}
    eight = check(api_client, {"game": "crapouille", "state": state, "move": {"player": "Bob", "card": "8c"}})
    assert "Choisissez une couleur." in eight["said"]
    asked = check(
        api_client, {"game": "crapouille", "state": state, "move": {"player": "Bob", "card": "8c", "asked": "s"}}
    )
    assert "Couleur demandée : pique." in asked["said"]
    ten = check(api_client, {"game": "crapouille", "state": state, "move": {"player": "Bob", "card": "10h"}})
    assert ten["said"] == ["Le sens du jeu s’inverse.", "À Ann de jouer."]


FORBIDDEN = "Dan donne et ne peut pas annoncer 1\u00a0: les annonces feraient 5, le nombre de plis."


def test_whist_the_dealer_s_forbidden_bid_is_announced_before_the_dealer_bids(api_client):
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    state = {"players": PLAYERS, "dealer": "Dan", "cards": 5, "bids": {"Ann": 2, "Bob": 1}}
    answer = check(api_client, {"game": "whist-tarot", "state": state, "move": {"player": "Cid", "bid": 1}})
    assert answer["said"] == ["Cid annonce 1.", "À Dan d’annoncer.", FORBIDDEN]
    state["bids"]["Cid"] = 1
    refused = check(api_client, {"game": "whist-tarot", "state": state, "move": {"player": "Dan", "bid": 1}})
    # The same sentence as its refusal (issue 23: one wording of the dealer's forbidden bid).
    assert refused["legal"] is False and refused["rule"] == "dealer_bid" and refused["reason"] == FORBIDDEN
    last = check(api_client, {"game": "whist-tarot", "state": state, "move": {"player": "Dan", "bid": 2}})
    # seed 002: « Ce n’est pas le joueur à gauche du donneur qui commence à jouer, mais encore le suivant. »
    assert last["said"] == ["Dan annonce 2.", "Les annonces sont faites : Bob entame."]


def test_whist_a_completed_trick_goes_to_its_winner():
    body = {
        "game": "whist-tarot",
        "state": {
            "players": ["Ann", "Bob", "Cid"],
            "dealer": "Cid",
            "cards": 1,
            "bids": {"Ann": 0, "Bob": 0, "Cid": 0},
            "trick": [{"player": "Bob", "card": "T3"}, {"player": "Cid", "card": "T20"}],
        },
        "move": {"player": "Ann", "card": "T7"},
    }
    answer = judge(body, "fr")
    assert answer["trick_winner"] == "Cid"
    assert answer["said"] == ["Le pli est pour Cid.", "La donne est finie."]


def test_judge_refuses_a_malformed_body_with_its_field():
    with pytest.raises(RulesError) as e:
        judge({"game": "president", "state": {"players": PLAYERS}, "move": {"player": "Zoe", "pass": True}})
    assert e.value.field == "move.player"
    with pytest.raises(RulesError) as e:
        judge({"game": "belote"})
    assert e.value.field == "game"
