"""A Président outcome's events: each only with its option, one at most."""

from __future__ import annotations

from typing import Any, cast

from companion.games.kinds.president.api.options import _given, _option
from companion.games.kinds.president.api.outcome_adapter import outcome as outcome_adapter
from companion.judge.schemas.common import option_values, refusal
from companion.judge.schemas.messages import Located, Schema, explained
from companion.rules import president_outcome
from companion.rules.i18n import RulesError, Text

_TABLE = ["Ann", "Bob", "Cid", "Dan"]
#: Every event switched on (Président), and who each one names (Dan is last: only he may putsch).
_ALL_EVENTS_ON = {
    "putsch": True,
    "jeu_blanc": True,
    "coup_detat": True,
    "guillotine": True,
    "jokers": 2,
    "revolution": True,
    "revolution_swaps_titles": True,
}
_EVENT_VALUES: dict[str, Any] = {
    "putsch": "Dan",
    "jeu_blanc": "Ann",
    "coup_detat": "Bob",
    "guillotine": {"player": "Cid", "vice": "Ann", "last": "Dan"},
    "revolution": True,
}
_EVENTS = [event.value for event in president_outcome.Event]
#: An event that did not happen: left out (null is refused as a wrong type, though the engine
#: reads it as none: null is accepted only where shared/API.md says), or false for the revolution.
_QUIET: dict[str, Schema] = {event: {"type": "null"} for event in _EVENTS}
_QUIET["revolution"] = {"enum": [None, False]}


def _outcome_refusal(body: dict[str, Any], field: str) -> Text:
    return refusal(lambda: outcome_adapter({"game": "president", "players": _TABLE, **body}, "fr"), field)


def _president_events() -> Schema:
    """An outcome's events and draw: an event only with its option, one at most, none at a
    first manche (a draw makes one), no finish after a draw or a jeu blanc.

    A case split on the event that happened, with its option on (each case wants every
    other event quiet), then none: a oneOf of cases that exclude one another, which a
    generator such as Schemathesis draws case by case (an if/else chain it would expand with
    the conditions between options, past what it models).  A body no case admits is worded
    by the engine when no single case explains it.
    """
    one = _outcome_refusal(
        {"rules": _ALL_EVENTS_ON, "events": {"putsch": "Dan", "jeu_blanc": "Ann"}}, "events.jeu_blanc"
    )
    unplayed = _outcome_refusal(
        {"rules": {"jeu_blanc": True}, "events": {"jeu_blanc": "Ann"}, "finish": ["Ann", "Bob", "Cid"]}, "finish"
    )
    cases = []
    for event in _EVENTS:
        option = president_outcome._EVENT_OPTION[president_outcome.Event(event)]
        happened = {
            "required": ["events"],
            "properties": {"events": {"required": [event], "properties": {event: {"not": _QUIET[event]}}}},
        }
        in_first = _outcome_refusal(
            {"rules": _ALL_EVENTS_ON, "first": True, "events": {event: _EVENT_VALUES[event]}}, f"events.{event}"
        )
        then = option_values(
            {
                "events": (option_values({other: (_QUIET[other], one) for other in _EVENTS if other != event}), one),
                "first": ({"not": {"const": True}}, in_first),
                "draw": ({"type": "null"}, in_first),
                **({"finish": ({"maxItems": 0}, unplayed)} if event == "jeu_blanc" else {}),
            }
        )
        cases.append(({"allOf": [happened, _given(_option(option, True))]}, then))
    # No event with its option on: any event given is one whose option is off.
    off = {event: _outcome_refusal({"events": {event: _EVENT_VALUES[event]}}, f"events.{event}") for event in _EVENTS}
    drawn = dict(zip(_TABLE, ["2h", "2s", "2d", "2c"], strict=True))
    none: Schema = {
        "properties": {"events": option_values({event: (_QUIET[event], off[event]) for event in _EVENTS})},
        "if": {"required": ["draw"], "properties": {"draw": {"type": "object"}}},
        "then": option_values(
            {
                "first": ({"enum": [True]}, _outcome_refusal({"draw": drawn, "first": False}, "first")),
                "finish": ({"maxItems": 0}, _outcome_refusal({"draw": drawn, "finish": ["Ann"]}, "finish")),
            }
        ),
    }

    def said(body: object) -> Text | Located:
        fallback = Text("Ces événements ne sont pas possibles ici.", "These events are not possible here.")
        try:
            outcome_adapter(cast("dict[str, Any]", body), "fr")  # any value: what it raises is caught below
        except RulesError as e:  # the engine's words, on the engine's field
            return Located(e.text, e.field) if e.field is not None else e.text
        except Exception:  # or these: never a failure of their own
            return fallback
        return fallback

    return explained({"oneOf": [{"allOf": [condition, then]} for condition, then in cases] + [none]}, oneOf=said)
