"""POST /api/v1/check and /api/v1/outcome: read, validate, dispatch to a game's adapter, answer.

A body is read by :func:`companion.judge.reading.read_body` (JSON sent as JSON, within
the size limit, no key twice, no text a database cannot store) and checked against
its game's request schema (the one the OpenAPI document publishes) before the game's
adapter runs.  The games are found by id in :func:`companion.games.judging.api_games` (each
kind gives its own: ``check(body, lang)`` and ``outcome(body, lang)``); adapters translate
JSON to the engine and back and raise :class:`~companion.rules.i18n.RulesError` for
malformed input.  Every refusal becomes ``{"error", "field"}`` here.  Nothing here knows
a rule, nor a game.

:func:`answer` is the whole of it; the Flask views below call it and ``jsonify`` its payload.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, request

from companion.api import bp
from companion.api.openapi import openapi_document
from companion.games.judging import adapter, api_games, check_schema, judge, unknown_game
from companion.judge.reading import BodyError, read_body
from companion.rules.i18n import LANGS, RulesError, Text

#: What each endpoint answers: ``(payload, status)``.
Answer = tuple[dict[str, Any], int]


def _error(text: Text, field: str | None, lang: str, status: int = 400) -> Answer:
    return {"error": text.get(lang), "field": field}, status


def answer(endpoint: str) -> Answer:
    """The payload and status answering the current request at ``/api/v1/<endpoint>``.

    Raises :class:`~werkzeug.exceptions.RequestEntityTooLarge` for a body past
    ``MAX_CONTENT_LENGTH`` (the app's error handler answers it).
    """
    lang = "fr"
    try:
        body = read_body(request)
    except BodyError as e:
        return _error(e.text, e.field, e.lang or lang, e.status)
    if "lang" in body:
        if body["lang"] not in LANGS:
            return _error(
                Text("La langue doit être « fr » ou « en ».", "The language must be 'fr' or 'en'."), "lang", lang
            )
        lang = body["lang"]
    game = body.get("game")
    if game is None:
        return _error(Text("Il manque le jeu (« game »).", "The game ('game') is missing."), "game", lang)
    if not isinstance(game, str) or game not in api_games():
        return _error(unknown_game(), "game", lang)
    try:
        if endpoint == "check":
            return judge(body, lang), 200  # the referee screens' check too
        check_schema(body, game, endpoint)
        return adapter(game, endpoint)(body, lang), 200
    except RulesError as e:
        return _error(e.text, e.field, lang)
    except Exception:
        # An adapter bug must not become a 500 for the caller; it is logged loudly.
        current_app.logger.exception("API adapter failed on %s %s", endpoint, game)
        return _error(Text("Cette requête n’a pas pu être jugée.", "This request could not be judged."), None, lang)


def _respond(endpoint: str) -> tuple[Response, int]:
    payload, status = answer(endpoint)
    return jsonify(payload), status


@bp.post("/check")
def check() -> tuple[Response, int]:
    """Is this move legal here? (shared/API.md)"""
    return _respond("check")


@bp.post("/outcome")
def outcome() -> tuple[Response, int]:
    """What does a finished round lead to? (shared/API.md)"""
    return _respond("outcome")


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 description of this API."""
    return jsonify(openapi_document())
