"""The 200 answers of Président and Piketty (one schema for both) at each endpoint."""

from __future__ import annotations

from companion.judge.schemas.answers import COUNTS, NAMES, check_answer
from companion.judge.schemas.common import whole
from companion.judge.schemas.messages import Schema
from companion.rules import president


def _president_answer() -> Schema:
    return check_answer(
        president.RuleId,
        president.Effect,
        {
            "skipped": {**NAMES, "description": "With skip: who loses a turn."},
            "pile_to": {"type": "string", "description": "liar: who takes the pile after a call."},
        },
    )


def _president_result() -> Schema:
    return {
        "type": "object",
        "properties": {
            "titles": {
                "type": "array",
                "description": "Best first; title in the request's language.",
                "items": {
                    "type": "object",
                    "properties": {"player": {"type": "string"}, "title": {"type": "string"}, "rank": whole(1)},
                    "required": ["player", "title", "rank"],
                },
            },
            "exchanges": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "from": {"type": "string"},
                        "to": {"type": "string"},
                        "count": whole(1),
                        "cards": {"enum": ["best", "choice"]},
                        "jokers": {"type": "boolean"},
                    },
                    "required": ["from", "to", "count", "cards"],
                },
            },
            "points": {**COUNTS, "description": "Points of this manche (empty without points)."},
            "dealer": {"type": "string"},
            "leader": {"type": "string"},
            "deal": {**COUNTS, "description": "Cards dealt to each player at the next manche."},
            "aside": whole(0, description="Cards set aside face up."),
            "seats": {**NAMES, "description": "Clockwise from the Président."},
            "events": {"type": "array", "items": {"type": "string"}},
            "finished_last": NAMES,
            "putsch_banned": {"type": ["string", "null"]},
            "totals": {**COUNTS, "description": "With totals in the request: the totals after the manche."},
            "ended": {"type": "boolean"},
            "losers": NAMES,
        },
        "required": ["titles", "exchanges", "points", "dealer", "leader", "deal"],
    }


#: The check and outcome answers, shared by Président and Piketty.
ANSWERS: dict[str, Schema] = {"check": _president_answer(), "outcome": _president_result()}
