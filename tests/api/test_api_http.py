"""The rules API over HTTP: malformed bodies are 400 with error and field, never 500."""

import json

import pytest

from companion.games.judging import api_games

ADAPTERS = api_games()


@pytest.mark.parametrize("endpoint", ["check", "outcome"])
@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (b"{not json", "", "pas du JSON valide"),
        (b"", "", "objet JSON"),
        (b"[1, 2]", "", "objet JSON"),
        (b'"president"', "", "objet JSON"),
        (b"{}", "game", "Il manque le jeu"),
        (b'{"game": "belote"}', "game", "Jeu inconnu"),
        (b'{"game": 3}', "game", "Jeu inconnu"),
        (b'{"game": "president", "lang": "de"}', "lang", "« fr » ou « en »"),
    ],
)
def test_malformed_bodies_are_400_with_error_and_field(api_client, endpoint, body, field, words):
    r = api_client.post(f"/api/v1/{endpoint}", data=body, content_type="application/json")
    assert r.status_code == 400
    assert r.get_json()["field"] == field
    assert words in r.get_json()["error"]


def test_errors_speak_english_on_request(api_client):
    r = api_client.post("/api/v1/check", json={"game": "belote", "lang": "en"})
    assert r.status_code == 400 and r.get_json()["error"].startswith("Unknown game")


def test_no_csrf_and_no_login_needed(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    r = client.post("/api/v1/check", json={"game": "belote"})
    assert r.status_code == 400 and r.get_json()["field"] == "game"


def test_get_is_405_json(api_client):
    r = api_client.get("/api/v1/check")
    assert r.status_code == 405 and "error" in r.get_json()


def test_openapi_document_describes_both_endpoints(api_client):
    doc = api_client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {"/api/v1/check", "/api/v1/outcome"}
    games = doc["paths"]["/api/v1/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(games["properties"]["game"]["enum"]) == set(ADAPTERS)
    json.dumps(doc)


def test_the_api_neither_reads_nor_sets_the_session_cookie(api_client):
    # A phone of a group calls the API with its session cookie: the API needs none, so it
    # neither verifies it nor signs a refreshed one (no Set-Cookie, no Vary: Cookie).
    with api_client.session_transaction() as session:
        session["device"] = "a token"
        session.permanent = True
    body = {"game": "crapouille", "players": ["Ann", "Bob"], "winner": "Bob", "points": {"Ann": 3}}
    r = api_client.post("/api/v1/outcome", json=body)
    assert r.status_code == 200
    api_client.delete_cookie("session")
    assert "Set-Cookie" not in r.headers and "Cookie" not in r.headers.get("Vary", "")
