"""The OpenAPI 3.1 document of the rules API (shared/API.md is the contract)."""

from __future__ import annotations

from typing import Any

CARD = {"type": "string", "description": "A card: 10h, Qs, Ad, RJ, BJ, T1..T21, EX (V/D/R and ♣♦♥♠ accepted)."}
CARDS = {
    "description": "A list of cards, or one space-separated string.",
    "oneOf": [{"type": "array", "items": CARD}, {"type": "string"}],
}
NAME = {"type": "string", "description": "A player's name."}
NAMES = {"type": "array", "items": NAME}
COUNTS = {"type": "object", "additionalProperties": {"type": "integer"}}
GAME = {"type": "string", "enum": ["president", "piketty", "whist-tarot", "crapouille"]}
RULES = {
    "type": "object",
    "description": "House rules: an optional preset and options by their ids (docs/rules.md).",
    "properties": {"preset": {"type": "string", "enum": ["angevin", "wizz", "franck", "tarot"]}},
    "additionalProperties": True,
}
LANG = {"type": "string", "enum": ["fr", "en"], "default": "fr"}

PRESIDENT_STATE = {
    "type": "object",
    "required": ["players", "trick"],
    "properties": {
        "players": NAMES,
        "out": NAMES,
        "reversed": {"type": "boolean"},
        "leader": NAME,
        "trick": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"player": NAME, "cards": CARDS, "pass": {"type": "boolean"}},
                "required": ["player"],
            },
        },
    },
}
PRESIDENT_MOVE = {
    "type": "object",
    "required": ["player"],
    "properties": {"player": NAME, "cards": CARDS, "last": {"type": "boolean"}, "pass": {"type": "boolean"}},
}
WHIST_STATE = {
    "type": "object",
    "required": ["players", "dealer", "cards"],
    "properties": {
        "players": NAMES,
        "dealer": NAME,
        "cards": {"type": "integer", "minimum": 1, "maximum": 5},
        "bids": COUNTS,
        "leader": NAME,
        "played": CARDS,
        "trick": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"player": NAME, "card": CARD, "excuse": {"enum": [0, 22]}},
            },
        },
    },
}
WHIST_MOVE = {
    "type": "object",
    "required": ["player"],
    "properties": {"player": NAME, "bid": {"type": "integer"}, "card": CARD, "excuse": {"enum": [0, 22]}},
}
CRAPOUILLE_STATE = {
    "type": "object",
    "required": ["players", "pile", "turn"],
    "properties": {
        "players": NAMES,
        "direction": {"enum": [1, -1]},
        "pile": CARDS,
        "asked": {"type": "string", "enum": ["c", "d", "h", "s"]},
        "turn": NAME,
        "hand": CARDS,
    },
}
CRAPOUILLE_MOVE = {
    "type": "object",
    "required": ["player"],
    "properties": {
        "player": NAME,
        "card": CARD,
        "asked": {"type": "string", "enum": ["c", "d", "h", "s"]},
        "last": {"type": "boolean"},
        "announced": {"type": "boolean"},
        "draw": {"type": "boolean"},
        "drawn": {
            **CARD,
            "description": "With a draw, the card drawn (optional): without it next_player is null, since a "
            "drawn card that fits is laid at once and may be a 2, a 10 or an 8.",
        },
    },
}

CHECK_REQUEST = {
    "type": "object",
    "required": ["game", "state", "move"],
    "properties": {
        "game": GAME,
        "rules": RULES,
        "lang": LANG,
        "state": {"oneOf": [PRESIDENT_STATE, WHIST_STATE, CRAPOUILLE_STATE]},
        "move": {"oneOf": [PRESIDENT_MOVE, WHIST_MOVE, CRAPOUILLE_MOVE]},
    },
}
CHECK_RESPONSE = {
    "type": "object",
    "required": ["legal", "rule", "effects", "next_player"],
    "properties": {
        "legal": {"type": "boolean"},
        "rule": {"type": ["string", "null"], "description": "Id of the rule that forbids the move."},
        "reason": {"type": "string", "description": "Why, in the request's language (when illegal)."},
        "effects": {"type": "array", "items": {"type": "string"}},
        "next_player": {
            "type": ["string", "null"],
            "description": "Who acts next once the move is made; null when illegal or unknown (e.g. a crapouille "
            "draw without drawn).",
        },
        "skipped": NAMES,
        "target": NAME,
        "trick_winner": NAME,
        "forbidden_bid": {"type": ["integer", "null"]},
    },
}
PRESIDENT_OUTCOME = {
    "type": "object",
    "required": ["game", "players"],
    "properties": {
        "game": {"enum": ["president", "piketty"]},
        "rules": RULES,
        "lang": LANG,
        "players": NAMES,
        "finish": NAMES,
        "finished_on": {"type": "object", "additionalProperties": CARDS},
        "events": {"type": "object"},
        "first": {"type": "boolean"},
        "draw": {"type": "object", "additionalProperties": CARD},
    },
}
WHIST_OUTCOME = {
    "type": "object",
    "required": ["game", "players", "dealer", "cards", "stakes", "bids", "tricks"],
    "properties": {
        "game": {"enum": ["whist-tarot"]},
        "lang": LANG,
        "players": NAMES,
        "dealer": NAME,
        "cards": {"type": "integer"},
        "blind": {"type": "boolean"},
        "stakes": COUNTS,
        "bids": {
            **COUNTS,
            "description": "Each from 0 to cards, the dealer's never the forbidden value (else 400 on bids.<player>).",
        },
        "tricks": COUNTS,
    },
}
CRAPOUILLE_OUTCOME = {
    "type": "object",
    "required": ["game", "players", "winner"],
    "properties": {
        "game": {"enum": ["crapouille"]},
        "rules": RULES,
        "lang": LANG,
        "players": NAMES,
        "totals": COUNTS,
        "winner": NAME,
        "hands": {
            "type": "object",
            "additionalProperties": CARDS,
            "description": "Cards left, per player; the winner may be listed with no card.",
        },
        "points": {**COUNTS, "description": "Points of the cards left, per player; the winner may be listed with 0."},
    },
}
WHIST_RESULT = {
    "losses": COUNTS,
    "stakes": COUNTS,
    "ended": {"type": "boolean"},
    "next": {
        "type": "object",
        "properties": {"dealer": NAME, "cards": {"type": "integer"}, "blind": {"type": "boolean"}},
    },
}
CRAPOUILLE_RESULT = {
    "totals": COUNTS,
    "eliminated": {**NAMES, "description": "Crapouille: players out this hand, worst first."},
    "over": {"type": "boolean"},
    "ranking": {**NAMES, "description": "Crapouille: best first once over, else []."},
    "places": {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 1},
        "description": "Crapouille: each player's place once over (equal totals crossing in the same hand "
        "share a place: 1, 2, 2, 4), else {}.",
    },
    "winners": NAMES,
}
OUTCOME_RESPONSE = {
    "type": "object",
    "description": "Président family: titles, exchanges, points, dealer, leader, deal. "
    "Whist tarot: losses, stakes, ended, winners, next. Crapouille: points, totals, eliminated, over, "
    "ranking, places, winners.",
    "properties": {**WHIST_RESULT, **CRAPOUILLE_RESULT},
    "additionalProperties": True,
}
ERROR = {
    "type": "object",
    "required": ["error", "field"],
    "properties": {
        "error": {"type": "string", "description": "What is wrong, in the request's language."},
        "field": {"type": ["string", "null"], "description": "Path of the offending field, e.g. state.trick[2].cards"},
    },
}


def _operation(summary: str, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    return {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": request}}},
        "responses": {
            "200": {"description": "The engine's answer.", "content": {"application/json": {"schema": response}}},
            "400": {"description": "Malformed request.", "content": {"application/json": {"schema": ERROR}}},
        },
    }


def openapi_document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Companion rules API",
            "version": "1.0.0",
            "description": "Stateless referee for le Président (and variants), Piketty, whist with a tarot "
            "deck and la crapouille. See shared/API.md and docs/rules.md.",
        },
        "paths": {
            "/api/v1/check": {"post": _operation("Is this move legal here?", CHECK_REQUEST, CHECK_RESPONSE)},
            "/api/v1/outcome": {
                "post": _operation(
                    "What does a finished round lead to?",
                    {"oneOf": [PRESIDENT_OUTCOME, WHIST_OUTCOME, CRAPOUILLE_OUTCOME]},
                    OUTCOME_RESPONSE,
                )
            },
        },
    }
