"""What a JSON export is: its marker (:data:`FORMAT`), the version of its layout this
code writes and reads (:data:`VERSION`), and that layout (:data:`SCHEMA`), which an
import checks a file against (:func:`companion.groups.transfer.reading.parse_file`)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from companion.games.forms import MAX_ROUNDS, MAX_SEATS
from companion.models import GameStatus

#: What a Companion export says it is, and the version of its layout this code writes and reads.
FORMAT = "companion-group"
VERSION = 1
_ID = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
_TEXT = {"type": "string", "maxLength": 200}
_WHEN = {"type": "string", "maxLength": 40}
_OBJECT = {"type": "object"}

#: The layout of a JSON export (version 1). Unknown fields are ignored.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "version", "group", "players", "seasons", "games"],
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "scope": {"enum": ["group", "season"]},
        "exported_at": _WHEN,
        "group": {
            "type": "object",
            "required": ["name"],
            "properties": {"name": _TEXT, "time_zone": {"type": "string", "maxLength": 64}},
        },
        "players": {
            "type": "array",
            "maxItems": 1000,
            "items": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": _ID, "name": _TEXT, "created_at": _WHEN},
            },
        },
        "seasons": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1000,
            "items": {
                "type": "object",
                "required": ["id", "name", "starts_on", "is_current"],
                "properties": {
                    "id": _ID,
                    "name": _TEXT,
                    "starts_on": {"type": "string", "maxLength": 10},
                    "is_current": {"type": "boolean"},
                    "created_at": _WHEN,
                },
            },
        },
        "games": {
            "type": "array",
            "maxItems": 20000,
            "items": {
                "type": "object",
                "required": ["id", "season", "kind", "rules", "setup", "status", "version", "seats", "rounds"],
                "properties": {
                    "id": _ID,
                    "season": _ID,
                    "kind": {"type": "string", "maxLength": 20},
                    "rules": _OBJECT,
                    "setup": _OBJECT,
                    "status": {"enum": [s.value for s in GameStatus]},
                    "created_at": _WHEN,
                    "updated_at": _WHEN,
                    "finished_at": {"type": ["string", "null"], "maxLength": 40},
                    "version": {"type": "integer", "minimum": 0, "maximum": 10**9},
                    "outcome": {"type": ["object", "null"]},
                    "seats": {"type": "array", "minItems": 2, "maxItems": MAX_SEATS, "items": _ID},
                    "rounds": {
                        "type": "array",
                        "maxItems": MAX_ROUNDS,
                        "items": {
                            "type": "object",
                            "required": ["number", "entry", "result"],
                            "properties": {
                                "number": {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS},
                                "entry": _OBJECT,
                                "result": _OBJECT,
                                "created_at": _WHEN,
                            },
                        },
                    },
                    "changes": {
                        "type": "array",
                        "maxItems": 10 * MAX_ROUNDS,
                        "items": {
                            "type": "object",
                            "required": ["kind", "version"],
                            "properties": {
                                "at": _WHEN,
                                "kind": {"type": "string", "pattern": "^[a-z_]{1,20}$"},
                                "round": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_ROUNDS},
                                "data": {"type": ["object", "null"]},
                                "version": {"type": "integer", "minimum": 0, "maximum": 10**9},
                            },
                        },
                    },
                },
            },
        },
    },
}
_VALIDATOR = Draft202012Validator(SCHEMA)
