"""What the API refuses before any rule is looked at (items 11 and 12 of the hardening
issue): bodies not sent as JSON, keys given twice, oversized chunked bodies, nulls and
wrong types where the schema says otherwise, text a database cannot store, and the
``Allow`` header of a 405."""

from __future__ import annotations

import io
import json
import logging

import pytest

from companion.judge.reading import text_problem

FOUR = ["Ann", "Bob", "Cid", "Dan"]
CRAPOUILLE = {
    "game": "crapouille",
    "state": {"players": FOUR, "pile": ["9d", "8h"], "asked": "s", "turn": "Bob"},
    "move": {"player": "Bob", "card": "Js"},
}
LIMIT = 256 * 1024


def post_raw(client, data: bytes, endpoint: str = "check", **kwargs):
    kwargs.setdefault("content_type", "application/json")
    return client.post(f"/api/v1/{endpoint}", data=data, **kwargs)


# -- 415 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "text/json"])
def test_a_body_not_sent_as_json_is_415_in_french(api_client, content_type):
    r = api_client.post("/api/v1/check", data=json.dumps(CRAPOUILLE), content_type=content_type)
    assert r.status_code == 415
    assert r.get_json() == {
        "error": "Le corps de la requête doit être du JSON (Content-Type: application/json).",
        "field": None,
    }


def test_415_speaks_the_body_s_language(api_client):
    r = api_client.post("/api/v1/outcome", data=json.dumps({**CRAPOUILLE, "lang": "en"}), content_type="text/plain")
    assert r.status_code == 415 and r.get_json()["error"].startswith("The body must be JSON")


def test_json_with_a_charset_is_json(api_client):
    r = post_raw(api_client, json.dumps(CRAPOUILLE).encode(), content_type="application/json; charset=utf-8")
    assert r.status_code == 200 and r.get_json()["legal"] is True


# -- keys given twice ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (b'{"game": "crapouille", "game": "president"}', "game"),
        (
            b'{"game": "crapouille", "state": {"players": ["Ann", "Bob"], "pile": "9d", "turn": "Ann"},'
            b' "move": {"player": "Ann", "card": "9s", "card": "9h"}}',
            "move.card",
        ),
        (b'{"game": "president", "players": ["A", "B", "C"], "events": [{"x": 1, "x": 1}]}', "events[0].x"),
    ],
)
def test_a_key_given_twice_is_400(api_client, data, field):
    r = post_raw(api_client, data, "outcome" if b"events" in data else "check")
    assert r.status_code == 400
    assert r.get_json()["field"] == field and "figure deux fois" in r.get_json()["error"]


# -- 413 and chunked bodies ------------------------------------------------------------------


def padded(size: int) -> bytes:
    """A valid body of exactly ``size`` bytes (spaces after the object)."""
    body = json.dumps({**CRAPOUILLE, "lang": "en"}).encode()
    return body + b" " * (size - len(body))


def post_chunked(client, data: bytes):
    # What a server that dechunks sets (Werkzeug's, gunicorn, waitress): the stream ends
    # where the body does, and there is no Content-Length.
    return client.post(
        "/api/v1/check",
        input_stream=io.BytesIO(data),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_an_oversized_sized_body_is_413_json(api_client):
    r = post_raw(api_client, padded(LIMIT + 1))
    assert r.status_code == 413 and r.get_json()["field"] is None


def test_an_oversized_chunked_body_is_413_like_a_sized_one(api_client):
    r = post_chunked(api_client, padded(LIMIT + 1))
    assert r.status_code == 413
    assert r.get_json() == post_raw(api_client, padded(LIMIT + 1)).get_json()


def test_a_chunked_body_up_to_the_limit_is_judged(api_client):
    assert post_chunked(api_client, padded(LIMIT)).get_json()["legal"] is True
    assert post_chunked(api_client, padded(300)).get_json()["legal"] is True


def test_a_chunked_body_the_server_cannot_end_is_411(api_client):
    # Without wsgi.input_terminated Werkzeug reads such a body as empty: say so rather
    # than answer "the body must be a JSON object".
    r = api_client.post(
        "/api/v1/check",
        input_stream=io.BytesIO(padded(300)),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
    )
    assert r.status_code == 411 and "Content-Length" in r.get_json()["error"]


# -- null and wrong types --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({**CRAPOUILLE, "move": {"player": "Bob", "draw": None}}, "move.draw", "true ou false"),
        ({**CRAPOUILLE, "move": {"player": "Bob", "card": "Js", "last": None}}, "move.last", "true ou false"),
        ({**CRAPOUILLE, "move": {"player": None, "card": "Js"}}, "move.player", "nom de joueur"),
        ({**CRAPOUILLE, "rules": None}, "rules", "objet"),
        ({**CRAPOUILLE, "state": {**CRAPOUILLE["state"], "direction": None}}, "state.direction", "1 ou \u22121"),
        ({**CRAPOUILLE, "state": {**CRAPOUILLE["state"], "pile": None}}, "state.pile", "liste de cartes"),
        (
            {
                "game": "president",
                "state": {"players": FOUR, "reversed": None},
                "move": {"player": "Ann", "pass": True},
            },
            "state.reversed",
            "true ou false",
        ),
        (
            {"game": "whist-tarot", "state": {"players": FOUR, "dealer": "Dan", "cards": None}, "move": {}},
            "state.cards",
            "nombre entier",
        ),
        (
            {"game": "whist-tarot", "state": {"players": FOUR, "dealer": "Dan", "cards": 2.5}, "move": {}},
            "state.cards",
            "nombre entier",
        ),
        (
            {"game": "whist-tarot", "state": {"players": FOUR, "dealer": "Dan", "cards": 6}, "move": {}},
            "state.cards",
            "de 1 à 5",
        ),
        (
            {"game": "whist-tarot", "state": {"players": FOUR[:2], "dealer": "Dan", "cards": 5}, "move": {}},
            "state.players",
            "3 ou 4 joueurs",
        ),
        (
            {
                "game": "whist-tarot",
                "state": {"players": FOUR, "dealer": "Dan", "cards": 2, "trick": [{"player": "Bob", "card": "EX"}]},
                "move": {"player": "Cid", "card": "T1"},
            },
            "state.trick[0].excuse",
            "Il manque « excuse »",
        ),
        (
            {"game": "president", "state": {"players": FOUR}, "move": {"player": "Ann", "cards": "9h 9x"}},
            "move.cards[1]",
            "Carte inconnue : « 9x »",
        ),
        (
            {"game": "president", "state": {"players": FOUR}, "move": {"player": "Ann"}},
            "move",
            "passe (« pass »: true)",
        ),
        ({"game": "president", "players": FOUR, "draw": None}, "draw", "objet"),
        ({"game": "president", "players": FOUR, "events": {"putsch": None}}, "events.putsch", "nom de joueur"),
        ({"game": "piketty", "players": [f"P{i}" for i in range(10)]}, "players", "de 4 à 9 joueurs"),
        (
            {"game": "crapouille", "players": ["Ann", "Bob"], "winner": "Ann", "points": {"Bob": 780}},
            "points.Bob",
            "779",
        ),
    ],
)
def test_null_or_a_wrong_type_is_400_with_the_field(api_client, body, field, words):
    endpoint = "check" if "move" in body else "outcome"
    r = api_client.post(f"/api/v1/{endpoint}", json=body)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["field"] == field and words in r.get_json()["error"], r.get_json()


def test_null_is_accepted_where_api_md_allows_it(api_client):
    # whist bids: null when the bids are not tracked; crapouille asked: null when no suit is asked
    state = {"players": FOUR, "dealer": "Dan", "cards": 2, "bids": None, "trick": [{"player": "Bob", "card": "T2"}]}
    r = api_client.post(
        "/api/v1/check", json={"game": "whist-tarot", "state": state, "move": {"player": "Cid", "card": "T3"}}
    )
    assert r.status_code == 200 and r.get_json()["legal"] is True
    body = {**CRAPOUILLE, "state": {**CRAPOUILLE["state"], "pile": ["9d", "7d"], "asked": None}}
    r = api_client.post("/api/v1/check", json={**body, "move": {"player": "Bob", "card": "7s"}})
    assert r.status_code == 200 and r.get_json()["legal"] is True


def test_schema_errors_speak_english_on_request(api_client):
    body = {**CRAPOUILLE, "lang": "en", "move": {"player": "Bob", "draw": None}}
    assert api_client.post("/api/v1/check", json=body).get_json()["error"] == "Expected here: true or false."


def test_unknown_fields_are_tolerated(api_client):
    # API.md: "add fields freely" — a newer client's extra fields do not break an older server.
    body = {**CRAPOUILLE, "client": {"version": 2}, "state": {**CRAPOUILLE["state"], "note": "x"}}
    assert api_client.post("/api/v1/check", json=body).get_json()["legal"] is True


def test_whole_numbers_with_a_point_are_whole_numbers(api_client):
    # JSON Schema counts 5.0 as an integer, and so does the API.
    data = json.dumps(CRAPOUILLE).replace('"asked": "s"', '"asked": "s", "direction": 1.0').encode()
    assert post_raw(api_client, data).get_json()["legal"] is True


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_nan_and_infinity_are_not_json(api_client, constant):
    r = post_raw(api_client, b'{"game": "whist-tarot", "state": {"cards": ' + constant + b"}}")
    assert r.status_code == 400 and r.get_json() == {
        "error": "Le corps de la requête n’est pas du JSON valide.",
        "field": "",
    }


def test_a_body_not_in_utf8_is_400(api_client):
    r = post_raw(api_client, json.dumps(CRAPOUILLE).encode("utf-16"))
    assert r.status_code == 400 and "UTF-8" in r.get_json()["error"]


def test_deep_nesting_is_400_not_500(api_client):
    assert post_raw(api_client, b"[" * 100_000).status_code == 400
    deep = b'{"game": "crapouille", "x": ' + b"[" * 900 + b"]" * 900 + b"}"
    assert post_raw(api_client, deep).status_code == 400


# -- text a database cannot store ----------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (b'{"game": "crapouille", "players": ["Ann", "B\\u0000b"], "winner": "Ann"}', "players[1]", "NUL"),
        (b'{"game": "crapouille", "players": ["Ann", "B\\ud800b"], "winner": "Ann"}', "players[1]", "substitution"),
        (
            b'{"game": "crapouille", "players": ["Ann", "Bob"], "winner": "Ann", "points": {"\\udfff": 1}}',
            "points.\\udfff",
            "substitution",
        ),
        (b'{"game": "crapouille", "players": ["Ann", "Bob"], "winner": "Ann", "x\\u0000": 1}', "x\\u0000", "NUL"),
        (b'{"game": "crapouille", "note": {"deep": ["\\u0000"]}}', "note.deep[0]", "NUL"),
    ],
)
def test_text_a_database_cannot_store_is_400(api_client, data, field, words):
    r = post_raw(api_client, data, "outcome")
    assert r.status_code == 400
    assert r.get_json()["field"] == field and words in r.get_json()["error"]
    # the answer itself is clean text
    r.get_data().decode("utf-8").encode("utf-8")


def test_a_valid_surrogate_pair_is_text(api_client):
    body = {"game": "crapouille", "players": ["Ann", "B😀b"], "winner": "Ann", "points": {"B😀b": 4}}
    r = post_raw(api_client, json.dumps(body).encode(), "outcome")  # sent as \ud83d\ude00
    assert r.status_code == 200 and r.get_json()["totals"] == {"Ann": 0, "B😀b": 4}


def test_text_problem_walks_any_depth():
    value: object = "ok"
    for _ in range(5000):
        value = [value]
    assert text_problem(value) is None


# -- 405 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_405_says_which_methods_are_allowed(api_client, method):
    r = api_client.open("/api/v1/check", method=method)
    assert r.status_code == 405 and r.get_json()["field"] is None
    assert r.headers["Allow"] == "OPTIONS, POST"
    r = api_client.open("/api/v1/openapi.json", method=method if method != "GET" else "POST")
    assert r.status_code == 405 and r.headers["Allow"] == "GET, HEAD, OPTIONS"


def test_the_safety_net_stays_unused(api_client, caplog):
    with caplog.at_level(logging.ERROR):
        api_client.post("/api/v1/check", json=CRAPOUILLE)
    assert "API adapter failed" not in caplog.text
