"""The 200 answers of whist with a tarot deck at each endpoint."""

from __future__ import annotations

from companion.judge.schemas.answers import COUNTS, NAMES, check_answer
from companion.judge.schemas.common import whole
from companion.judge.schemas.messages import Schema
from companion.rules import whist_tarot


def _whist_answer() -> Schema:
    return check_answer(
        whist_tarot.RuleId,
        whist_tarot.Effect,
        {
            "forbidden_bid": {
                "type": ["integer", "null"],
                "description": "On every bid check: the dealer's forbidden bid, if any.",
            },
            "trick_winner": {"type": "string", "description": "When the card completes a trick."},
        },
    )


def _whist_result() -> Schema:
    count = whist_tarot.SERIES[0]
    return {
        "type": "object",
        "properties": {
            "losses": COUNTS,
            "stakes": {"type": "object", "additionalProperties": whole(0, whist_tarot.STAKE)},
            "ended": {"type": "boolean"},
            "winners": NAMES,
            "next": {
                "type": "object",
                "properties": {"dealer": {"type": "string"}, "cards": whole(1, count), "blind": {"type": "boolean"}},
                "required": ["dealer", "cards", "blind"],
            },
        },
        "required": ["losses", "stakes", "ended", "winners", "next"],
    }


#: The check and outcome answers.
ANSWERS: dict[str, Schema] = {"check": _whist_answer(), "outcome": _whist_result()}
