"""What every game's 200 answers share (:func:`check_answer`), and the error answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.judge.schemas.common import name
from companion.judge.schemas.messages import Schema

# -- the answers --------------------------------------------------------------------------------

#: A list of player names; a count by player.
NAMES: Schema = {"type": "array", "items": name()}
COUNTS: Schema = {"type": "object", "additionalProperties": {"type": "integer"}}


def _values(enum: Iterable[Any]) -> list[str]:
    return [str(member.value) for member in enum]


def check_answer(rules: Iterable[Any], effects: Iterable[Any], extra: dict[str, Schema]) -> Schema:
    """A check answer whose ``rule`` is one of ``rules`` and ``effects`` of ``effects`` (engine
    enums), with the game's own ``extra`` fields."""
    return {
        "type": "object",
        "properties": {
            "legal": {"type": "boolean"},
            "rule": {
                "enum": [*_values(rules), None],
                "description": "Id of the rule that forbids the move; null when legal.",
            },
            "reason": {"type": "string", "description": "Why, in the request's language (when illegal)."},
            "effects": {
                "type": "array",
                "items": {"enum": _values(effects)},
                "description": "What the legal move triggers (empty when illegal).",
            },
            "next_player": {
                "type": ["string", "null"],
                "description": "Who acts next once the move is made; null when illegal or unknown.",
            },
            "said": {
                "type": "array",
                "items": {"type": "string"},
                "description": "What the legal move leads to, in the table's words and the request's language "
                "(« Le pli est pour vous, vous rejouez. », « À Bob de jouer. »); empty when illegal.",
            },
            **extra,
        },
        "required": ["legal", "rule", "effects", "next_player"],
        # An illegal move always says why, and names the rule.
        "if": {"properties": {"legal": {"const": False}}},
        "then": {"required": ["reason"], "properties": {"rule": {"type": "string"}}},
        "else": {"properties": {"rule": {"type": "null"}}},
    }


ERROR: Schema = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "What is wrong, in the request's language."},
        "field": {"type": ["string", "null"], "description": "Path of the offending field, e.g. state.trick[2].cards"},
    },
    "required": ["error", "field"],
}
