"""The OpenAPI 3.1 document of the rules API (shared/API.md is the contract).

Every schema in it is an object a game of the API gives (:func:`companion.games.judging.api_games`,
in their order) or one of :mod:`companion.judge.schemas`: the request schemas are the
very ones the judge validates bodies against, so the document cannot promise what the
API refuses, nor the reverse.
"""

from __future__ import annotations

from typing import Any

from companion.games.judging import api_games, examples
from companion.judge.game import ENDPOINTS
from companion.judge.narrate import and_
from companion.judge.schemas import ERROR, LANG, Schema

_ENDPOINTS = {"check": "Check", "outcome": "Outcome"}


def component(game: str, endpoint: str, kind: str) -> str:
    """The name under ``components/schemas`` of a game's ``Request`` or ``Answer`` at an endpoint
    (games that share their answers share their name: the document lists them once)."""
    api = api_games()[game]
    prefix = api.answer_component or api.component if kind == "Answer" else api.component
    return f"{prefix}{_ENDPOINTS[endpoint]}{kind}"


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _request_body(endpoint: str) -> Schema:
    """Any game's request: the fields every game shares, then one game's schema by ``game``."""
    mapping = {game: f"#/components/schemas/{component(game, endpoint, 'Request')}" for game in api_games()}
    return {
        "type": "object",
        "properties": {"game": {"type": "string", "enum": list(api_games())}, "lang": LANG},
        "required": ["game"],
        "oneOf": [_ref(component(game, endpoint, "Request")) for game in api_games()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }


def _answer(endpoint: str) -> Schema:
    # Games that share an answer schema list it once.
    names = list(dict.fromkeys(component(g, endpoint, "Answer") for g in api_games()))
    # Check answers of different games may look alike (a refusal is the same everywhere), so
    # any may match; outcome answers differ by their required fields, so exactly one does.
    return {"anyOf" if endpoint == "check" else "oneOf": [_ref(name) for name in names]}


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _examples(endpoint: str) -> dict[str, Any]:
    """shared/API.md's examples, by a name of their own."""
    listed = examples(endpoint)
    named: dict[str, Any] = {}
    for summary, body in listed:
        name = f"{body['game']}-{sum(1 for key in named if key.startswith(body['game'] + '-')) + 1}"
        named[name] = {"summary": summary, "value": body}
    return named


def _operation(endpoint: str, summary: str) -> dict[str, Any]:
    answer: dict[str, Any] = {"schema": _answer(endpoint)}
    if endpoint == "check":
        answer["examples"] = {
            name: example for game in api_games().values() for name, example in game.answer_examples.items()
        }
    return {
        "summary": summary,
        "description": "Each game's request schema (components/schemas/…Request) says in its description what "
        "the engine checks beyond the schema: the relations between fields that JSON Schema cannot state "
        "(a name that must be one of the players, cards counted across fields, numbers that must add up). "
        "A body breaking one is refused with 400, at the field.",
        "operationId": endpoint,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _request_body(endpoint), "examples": _examples(endpoint)}},
        },
        "responses": {
            "200": {"description": "The engine's answer.", "content": {"application/json": answer}},
            "400": _error_response(
                "Malformed request: not JSON, a key twice, text with NUL or a lone surrogate, a field of the "
                "wrong shape, an unknown card or player, more copies of a card than the decks hold…"
            ),
            "411": _error_response(
                "A chunked body the server cannot tell the end of (it did not set wsgi.input_terminated)."
            ),
            "413": _error_response("The body is larger than 256 KiB (with or without Content-Length)."),
            "415": _error_response("The body is not sent as application/json."),
        },
    }


def _components() -> dict[str, Schema]:
    schemas: dict[str, Schema] = {}
    for game, api in api_games().items():
        for endpoint in ENDPOINTS:
            schemas[component(game, endpoint, "Request")] = api.requests[endpoint]
            # Games that share an answer schema list it once, where it first comes.
            schemas.setdefault(component(game, endpoint, "Answer"), api.answers[endpoint])
    schemas["Error"] = ERROR
    return schemas


def openapi_document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Companion rules API",
            "version": "1.1.0",
            "description": f"Stateless referee for {and_([game.title for game in api_games().values()], 'en')}. "
            "See shared/API.md and docs/rules.md. Bodies are JSON "
            "(Content-Type: application/json), at most 256 KiB, without a key twice in an object.",
        },
        "paths": {
            "/api/v1/check": {"post": _operation("check", "Is this move legal here?")},
            "/api/v1/outcome": {"post": _operation("outcome", "What does a finished round lead to?")},
        },
        "components": {"schemas": _components()},
    }
