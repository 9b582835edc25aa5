"""A player left holding only jokers (`joker_wild`) over the public API: POST /api/v1/check
answers the move of API.md (``cards`` + ``last: true``) with ``out`` and ``finish_last``, who
plays next, the reason in French and English, and ``said``; /api/v1/outcome ranks him last.

seed 000: « il ne peut être joué seul, il doit être utilisé en complément d'une ou plusieurs
cartes pour former une paire »; RULES.md §1: « a player left holding only jokers can never play
them, so he is out of the manche at once and finishes last — after anyone already made last —
as with a forbidden finish; when he was to lead, the lead passes to the next player still in »."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

FOUR = ["Ann", "Bob", "Cid", "Dan"]
WILD = {"jokers": 2, "joker_wild": True}


def check(client: FlaskClient, state: dict[str, Any], move: dict[str, Any], lang: str = "fr") -> dict[str, Any]:
    body = {"game": "president", "rules": WILD, "lang": lang, "state": state, "move": move}
    r = client.post("/api/v1/check", json=body)
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert isinstance(answer, dict)
    return answer


def test_the_leader_shows_his_jokers_the_next_player_leads(api_client: FlaskClient) -> None:
    state = {"players": FOUR, "trick": [], "leader": "Ann"}
    move = {"player": "Ann", "cards": ["RJ", "BJ"], "last": True}
    answer = check(api_client, state, move)
    assert answer["legal"] is True and answer["rule"] is None
    assert answer["effects"] == ["out", "finish_last"] and answer["next_player"] == "Bob"
    assert answer["said"] == ["Ann ne peut plus jouer ses jokers\u00a0: dernière place.", "À Bob de jouer."]
    english = check(api_client, state, move, "en")
    assert english["said"] == ["Ann can no longer play their jokers: last place.", "Bob plays next."]


def test_a_follower_shows_his_jokers_the_trick_goes_on_and_ends_as_usual(api_client: FlaskClient) -> None:
    trick: list[dict[str, Any]] = [{"player": "Ann", "cards": "9h"}, {"player": "Bob", "pass": True}]
    answer = check(api_client, {"players": FOUR, "trick": trick}, {"player": "Cid", "cards": "BJ", "last": True})
    assert answer["effects"] == ["out", "finish_last"] and answer["next_player"] == "Dan"
    # The shown jokers are in the state's trick (with `last`, the player in `out`): the 9 is still to beat.
    shown = {"players": FOUR, "out": ["Cid"], "trick": [*trick, {"player": "Cid", "cards": "BJ", "last": True}]}
    refused = check(api_client, shown, {"player": "Dan", "cards": "8c"})
    assert refused["rule"] == "rank" and refused["reason"] == "Il faut jouer plus haut que 9."
    # Dan passes: every other player still in has passed, the trick is Ann's (not Cid's).
    won = check(api_client, shown, {"player": "Dan", "pass": True}, "en")
    assert won["effects"] == ["trick_won"] and won["next_player"] == "Ann"
    assert won["said"] == ["The trick goes to Ann, who leads again."]


def test_the_last_to_speak_shows_his_jokers_the_trick_is_won(api_client: FlaskClient) -> None:
    trick = [{"player": "Ann", "cards": "9h"}, {"player": "Bob", "pass": True}, {"player": "Cid", "pass": True}]
    answer = check(api_client, {"players": FOUR, "trick": trick}, {"player": "Dan", "cards": "RJ", "last": True})
    assert answer["effects"] == ["out", "finish_last", "trick_won"] and answer["next_player"] == "Ann"
    assert answer["said"] == [
        "Dan ne peut plus jouer ses jokers\u00a0: dernière place.",
        "Le pli est pour Ann, qui rejoue.",
    ]


def test_a_joker_alone_is_refused_in_both_languages(api_client: FlaskClient) -> None:
    state = {"players": FOUR, "trick": [{"player": "Ann", "cards": "9h"}]}
    move = {"player": "Bob", "cards": "RJ"}
    answer = check(api_client, state, move)
    assert answer["legal"] is False and answer["rule"] == "combination" and answer["effects"] == []
    assert (
        answer["reason"]
        == "Un joker ne se joue pas seul\u00a0: il complète une paire, un brelan, un carré ou un poker."
    )
    english = check(api_client, state, move, "en")
    assert english["reason"] == "A joker is not played alone: it completes a pair, three, four or five of a kind."


def test_the_outcome_ranks_him_last_after_anyone_already_made_last(api_client: FlaskClient) -> None:
    body = {
        "game": "president",
        "rules": {**WILD, "joker_no_finish": True},
        "players": FOUR,
        "first": True,
        "finish": ["Bob", "Ann", "Cid"],
        "finished_on": {"Bob": ["9h", "RJ"], "Cid": ["BJ"]},
    }
    r = api_client.post("/api/v1/outcome", json=body)
    assert r.status_code == 200, r.get_json()
    assert [t["player"] for t in r.get_json()["titles"]] == ["Ann", "Dan", "Bob", "Cid"]
