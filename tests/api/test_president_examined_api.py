"""The examination's Président cases (issue 7, items 1–9) over the public JSON API."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

FOUR = ["Ann", "Bob", "Cid", "Dan"]


def check(api_client: FlaskClient, state: dict[str, Any], move: dict[str, Any], **rules: Any) -> Any:
    body = {"game": "president", "rules": rules, "state": state, "move": move}
    return api_client.post("/api/v1/check", json=body)


def test_reusing_a_card_of_a_finished_trick_is_a_400(api_client: FlaskClient) -> None:
    # API.md: a card that appears more often than the decks hold, counted over the state and the move
    # together, is a 400 — the issue's own case: Ann 9h, Bob 2c, then Bob leads 2c again.
    state = {"players": FOUR, "trick": [{"player": "Ann", "cards": ["9h"]}, {"player": "Bob", "cards": ["2c"]}]}
    answer = check(api_client, state, {"player": "Bob", "cards": ["2c"]})
    assert answer.status_code == 400 and answer.json["field"] == "move.cards[0]"
    assert check(api_client, state, {"player": "Bob", "cards": ["2d"]}).json["legal"] is True


def test_joker_on_a_locked_trick(api_client: FlaskClient) -> None:
    # seed 000: « On peut autoriser l'utilisation du 2 ou du joker pour casser la passe »
    state = {"players": FOUR, "trick": [{"player": "Ann", "cards": "3h"}, {"player": "Bob", "cards": "3s"}]}
    move = {"player": "Cid", "cards": "RJ"}
    assert check(api_client, state, move, jokers=1, passe=True).json["rule"] == "locked"
    assert check(api_client, state, move, jokers=1, passe=True, passe_breakers=True).json["legal"] is True


def test_title_revolution_keeps_the_card_order(api_client: FlaskClient) -> None:
    # RULES.md §1: `revolution_swaps_titles` — « instead of the cards, the hierarchy is reversed »
    rules = {"revolution": True, "revolution_swaps_titles": True}
    answer = check(api_client, {"players": FOUR, "trick": []}, {"player": "Ann", "cards": "9h 9s 9d 9c"}, **rules)
    assert answer.json["effects"] == ["revolution"] and answer.json["next_player"] is None
    body = {"game": "president", "rules": rules, "players": FOUR, "events": {"revolution": "Ann"}}
    swapped = api_client.post("/api/v1/outcome", json=body).json
    assert [t["player"] for t in swapped["titles"]] == ["Dan", "Cid", "Bob", "Ann"]


def test_coup_detat_on_the_black_joker(api_client: FlaskClient) -> None:
    # seed 000: « Le coup d'État peut être posé n'importe quand lors de la partie. »
    state = {"players": FOUR, "trick": [{"player": "Ann", "cards": "BJ"}]}
    answer = check(api_client, state, {"player": "Bob", "cards": "Kh Ks Kd Kc RJ"}, jokers=2, coup_detat=True)
    assert answer.json["legal"] is True and answer.json["effects"] == ["coup_detat"]


def test_joker_wild_six_of_a_kind_refused(api_client: FlaskClient) -> None:
    # RULES.md §1: `joker_wild` — a joker completes a pair/triple/quad/quint
    move = {"player": "Ann", "cards": "9h 9s 9d 9c 9h RJ"}
    answer = check(api_client, {"players": FOUR, "trick": []}, move, decks=2, jokers=2, joker_wild=True)
    assert answer.json["rule"] == "combination"


def test_wizz_out_skips_each_once(api_client: FlaskClient) -> None:
    # seed 000 (Wizz): « le joueur ne peut se wizzer lui-même »
    state = {"players": ["Ann", "Bob", "Cid"], "trick": [{"player": "Ann", "cards": "6h"}]}
    move = {"player": "Bob", "cards": "6s 6d 6c", "last": True}
    answer = check(api_client, state, move, preset="wizz").json
    assert answer["skipped"] == ["Cid", "Ann"] and answer["next_player"] == "Cid"


def test_angevin_run_to_the_ace(api_client: FlaskClient) -> None:
    # seed 000 (angevin): « l'As reste invariablement la plus forte carte »
    answer = check(api_client, {"players": FOUR, "trick": []}, {"player": "Ann", "cards": "Qh Ks Ad"}, preset="angevin")
    assert answer.json["rule"] == "combination"  # runs are an option
    answer = check(
        api_client, {"players": FOUR, "trick": []}, {"player": "Ann", "cards": "Qh Ks Ad"}, preset="angevin", runs=True
    )
    assert answer.json["legal"] is True


def test_finished_on_counted_across_players(api_client: FlaskClient) -> None:
    # API.md: a card more often than the deck holds is a 400 — here over two players' finishes.
    body = {
        "game": "president",
        "rules": {"twos_cut": True},
        "players": FOUR,
        "finish": ["Ann", "Bob", "Cid"],
        "finished_on": {"Ann": "2h", "Bob": "2h"},
    }
    answer = api_client.post("/api/v1/outcome", json=body)
    assert answer.status_code == 400 and answer.json["field"].startswith("finished_on.Bob")
    body["finished_on"] = {"Ann": "2h", "Bob": "2"}  # a rank alone is any 2: fine
    assert api_client.post("/api/v1/outcome", json=body).json["finished_last"] == ["Ann", "Bob"]


def test_too_many_players_for_the_exchanges(api_client: FlaskClient) -> None:
    # RULES.md §1: n ≥ 6 [⌊n/2⌋, …, 2, 1]: at 11 players one deck deals 4 each and 5 cannot be given.
    names = [f"P{i}" for i in range(11)]
    body = {"game": "president", "players": names, "finish": names[:-1], "first": True}
    answer = api_client.post("/api/v1/outcome", json=body)
    assert answer.status_code == 400 and answer.json["field"] == "rules.decks"
    assert "2 jeux" in answer.json["error"]
    body["rules"] = {"decks": 2}
    assert api_client.post("/api/v1/outcome", json=body).json["exchanges"][0]["count"] == 5
