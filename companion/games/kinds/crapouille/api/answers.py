"""The 200 answers of la crapouille at each endpoint."""

from __future__ import annotations

from companion.judge.schemas.answers import COUNTS, NAMES, check_answer
from companion.judge.schemas.common import whole
from companion.judge.schemas.messages import Schema
from companion.rules import crapouille_play
from companion.rules.cards import Suit


def _crapouille_answer() -> Schema:
    return check_answer(
        crapouille_play.PlayRule,
        crapouille_play.Effect,
        {
            "target": {"type": "string", "description": "Who draws (draw, finish_on_two)."},
            "skipped": {**NAMES, "description": "With skip: who loses a turn."},
            "direction": {"enum": [1, -1], "description": "When legal: the direction after the move."},
            "asked": {
                "enum": [*(s.value for s in Suit), None],
                "description": "When legal: the suit asked after the move.",
            },
        },
    )


def _crapouille_result() -> Schema:
    return {
        "type": "object",
        "properties": {
            "points": COUNTS,
            "totals": COUNTS,
            "eliminated": {**NAMES, "description": "Players out this hand, worst first."},
            "over": {"type": "boolean"},
            "ranking": {**NAMES, "description": "Best first once over, else []."},
            "places": {
                "type": "object",
                "additionalProperties": whole(1),
                "description": "Each player's place once over (equal totals crossing in the same hand share a "
                "place: 1, 2, 2, 4), else {}.",
            },
            "winners": NAMES,
        },
        "required": ["points", "totals", "eliminated", "over", "ranking", "places", "winners"],
    }


#: The check and outcome answers.
ANSWERS: dict[str, Schema] = {"check": _crapouille_answer(), "outcome": _crapouille_result()}
