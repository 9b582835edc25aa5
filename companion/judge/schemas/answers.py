"""The 200 answers of each game at each endpoint, and the error answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.judge.schemas.common import name, whole
from companion.judge.schemas.messages import Schema
from companion.rules import crapouille_play, president, whist_tarot
from companion.rules.cards import Suit

# -- the answers --------------------------------------------------------------------------------

_NAMES: Schema = {"type": "array", "items": name()}
_COUNTS: Schema = {"type": "object", "additionalProperties": {"type": "integer"}}


def _values(enum: Iterable[Any]) -> list[str]:
    return [str(member.value) for member in enum]


def _check_answer(rules: Iterable[Any], effects: Iterable[Any], extra: dict[str, Schema]) -> Schema:
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


def _president_answer() -> Schema:
    return _check_answer(
        president.RuleId,
        president.Effect,
        {
            "skipped": {**_NAMES, "description": "With skip: who loses a turn."},
            "pile_to": {"type": "string", "description": "liar: who takes the pile after a call."},
        },
    )


def _whist_answer() -> Schema:
    return _check_answer(
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


def _crapouille_answer() -> Schema:
    return _check_answer(
        crapouille_play.PlayRule,
        crapouille_play.Effect,
        {
            "target": {"type": "string", "description": "Who draws (draw, finish_on_two)."},
            "skipped": {**_NAMES, "description": "With skip: who loses a turn."},
            "direction": {"enum": [1, -1], "description": "When legal: the direction after the move."},
            "asked": {
                "enum": [*(s.value for s in Suit), None],
                "description": "When legal: the suit asked after the move.",
            },
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
            "points": {**_COUNTS, "description": "Points of this manche (empty without points)."},
            "dealer": {"type": "string"},
            "leader": {"type": "string"},
            "deal": {**_COUNTS, "description": "Cards dealt to each player at the next manche."},
            "aside": whole(0, description="Cards set aside face up."),
            "seats": {**_NAMES, "description": "Clockwise from the Président."},
            "events": {"type": "array", "items": {"type": "string"}},
            "finished_last": _NAMES,
            "putsch_banned": {"type": ["string", "null"]},
            "totals": {**_COUNTS, "description": "With totals in the request: the totals after the manche."},
            "ended": {"type": "boolean"},
            "losers": _NAMES,
        },
        "required": ["titles", "exchanges", "points", "dealer", "leader", "deal"],
    }


def _whist_result() -> Schema:
    count = whist_tarot.SERIES[0]
    return {
        "type": "object",
        "properties": {
            "losses": _COUNTS,
            "stakes": {"type": "object", "additionalProperties": whole(0, whist_tarot.STAKE)},
            "ended": {"type": "boolean"},
            "winners": _NAMES,
            "next": {
                "type": "object",
                "properties": {"dealer": {"type": "string"}, "cards": whole(1, count), "blind": {"type": "boolean"}},
                "required": ["dealer", "cards", "blind"],
            },
        },
        "required": ["losses", "stakes", "ended", "winners", "next"],
    }


def _crapouille_result() -> Schema:
    return {
        "type": "object",
        "properties": {
            "points": _COUNTS,
            "totals": _COUNTS,
            "eliminated": {**_NAMES, "description": "Players out this hand, worst first."},
            "over": {"type": "boolean"},
            "ranking": {**_NAMES, "description": "Best first once over, else []."},
            "places": {
                "type": "object",
                "additionalProperties": whole(1),
                "description": "Each player's place once over (equal totals crossing in the same hand share a "
                "place: 1, 2, 2, 4), else {}.",
            },
            "winners": _NAMES,
        },
        "required": ["points", "totals", "eliminated", "over", "ranking", "places", "winners"],
    }


ERROR: Schema = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "What is wrong, in the request's language."},
        "field": {"type": ["string", "null"], "description": "Path of the offending field, e.g. state.trick[2].cards"},
    },
    "required": ["error", "field"],
}

_PRESIDENT_ANSWER, _PRESIDENT_RESULT = _president_answer(), _president_result()
#: The 200 answer of each game at each endpoint.
RESPONSES: dict[str, dict[str, Schema]] = {
    "president": {"check": _PRESIDENT_ANSWER, "outcome": _PRESIDENT_RESULT},
    "piketty": {"check": _PRESIDENT_ANSWER, "outcome": _PRESIDENT_RESULT},
    "whist-tarot": {"check": _whist_answer(), "outcome": _whist_result()},
    "crapouille": {"check": _crapouille_answer(), "outcome": _crapouille_result()},
}
