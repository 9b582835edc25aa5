"""Président's and Piketty's ``rules``: their options and the conditions between them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from jsonschema import Draft202012Validator

from companion.judge.schemas.common import ABSENT, OFF, merged, option_values, refusal, unknown_option, whole
from companion.judge.schemas.messages import Schema, explained
from companion.rules import president
from companion.rules.cards import Deck
from companion.rules.i18n import RulesError, Text


def _rules_refusal(options: dict[str, Any], option: str, game: str = "president") -> Text:
    return refusal(lambda: president.Rules.from_options(options, game), f"rules.{option}")


def _refused(options: dict[str, Any], option: str) -> bool:
    try:
        president.Rules.from_options(options)
    except RulesError as e:
        return e.field == f"rules.{option}"
    return False


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(president.Rules)}


def _option(option: str, *values: Any) -> Schema:
    """A ``rules`` object whose ``option`` is one of ``values`` (left out: the engine's default)."""
    schema: Schema = {"properties": {option: {"const": values[0]} if len(values) == 1 else {"enum": list(values)}}}
    if _DEFAULTS[option] not in values:
        schema["required"] = [option]
    return schema


def _given(rules: Schema) -> Schema:
    """A request whose ``rules`` meet ``rules`` (a request without rules has the defaults)."""
    schema: Schema = {"properties": {"rules": rules}}
    if not Draft202012Validator(rules).is_valid({}):
        schema["required"] = ["rules"]
    return schema


def _off(*options: str, **context: Any) -> Schema:
    """``options`` switched off, each refused (when on) in the engine's words; ``context``: the
    other options the engine's example needs."""
    return option_values({option: (OFF, _rules_refusal({**context, option: True}, option)) for option in options})


_DECKS = president.DECKS
#: The presets that switch the revolution on (an explicit ``revolution`` overrides them).
_REVOLUTION_PRESETS = [p for p, on in president.PRESET_OPTIONS.items() if on.get("revolution")]
_REVOLUTION_OPTIONS = ("revolution_on_triple_5_6", "revolution_persists", "revolution_swaps_titles")


def _passe_rule() -> Schema:
    """passe_breakers needs the passe."""
    return {
        "description": "passe_breakers needs passe.",
        "if": {"not": _option("passe", True)},
        "then": _off("passe_breakers"),
    }


def _revolution_rule(game: str) -> Schema:
    """The revolution's options (and its size) need the revolution, given or by a preset; a
    revolution of 7 or 8 cards needs several decks (Président; Piketty's is of 4 only)."""
    on: Schema = _option("revolution", True)
    if game != "piketty":
        on = {"anyOf": [on, {"not": {"required": ["revolution"]}, **_option("preset", *_REVOLUTION_PRESETS)}]}
    size = _rules_refusal({"revolution_size": 4}, "revolution_size", game)
    rule: Schema = {
        "description": f"{', '.join(_REVOLUTION_OPTIONS)} and revolution_size need the revolution"
        + ("." if game == "piketty" else f" (revolution, or the presets {', '.join(_REVOLUTION_PRESETS)});"),
        "if": {"not": on},
        "then": merged(_off(*_REVOLUTION_OPTIONS), option_values({"revolution_size": (ABSENT, size)})),
    }
    if game != "piketty":
        rule["description"] += " revolution_size 7 or 8 needs several decks."
        several = _rules_refusal({"revolution": True, "revolution_size": 7}, "revolution_size")
        rule["else"] = {
            "if": {"not": _option("decks", *_DECKS[1:])},
            "then": option_values({"revolution_size": ({"const": 4}, several)}),
        }
    return rule


def _jokers_rule() -> Schema:
    """Président: what the number of jokers allows (a case split on it: 0, 1 or 2)."""
    no_jokers = [p for p in president.PRESETS if _refused({"preset": p, "jokers": 1}, "jokers")]
    with_jokers = {
        "allOf": [
            _off("twos_cut", jokers=1),
            option_values(
                {
                    "preset": (
                        {"not": {"enum": no_jokers}},
                        _rules_refusal({"preset": no_jokers[0], "jokers": 1}, "jokers"),
                    )
                }
            ),
            {"if": _option("jokers", 1), "then": _off("guillotine", jokers=1)},
        ]
    }
    return {
        "description": "joker_no_finish, joker_exchangeable, joker_wild and coup_detat need jokers, guillotine two; "
        "with jokers, no preset and no twos_cut.",
        "if": _option("jokers", 0),
        "then": _off("joker_no_finish", "joker_exchangeable", "joker_wild", "coup_detat", "guillotine"),
        "else": with_jokers,
    }


#: What the engine also refuses between Président's options, which its schemas do not state
#: (see above: a generator's bound), by endpoint; each is refused with a 400 on ``rules.<option>``.
_UNSTATED = {
    "check": ("reduced (the 32-card deck) with several decks or with twos_cut", "twos_cut with the angevin preset"),
    "outcome": ("twos_cut with the angevin preset",),
}


def _president_rules(game: str, dependencies: Iterable[Schema] = (), unstated: Iterable[str] = ()) -> Schema:
    """``rules`` of Président or Piketty: the options of :class:`companion.rules.president.Rules`
    the game has, with ``dependencies`` between them (and ``unstated``: what else the engine
    refuses, said in the description).

    The options and their types come from the engine's dataclass, so a new option is
    published (and accepted) as soon as the engine has it.
    """
    piketty = game == "piketty"
    special: dict[str, Schema] = {
        "preset": explained(
            {"type": "string", "enum": list(president.PRESETS)},
            Text(
                f"Variante inconnue ; les variantes sont : {', '.join(president.PRESETS)}.",
                f"Unknown preset; the presets are: {', '.join(president.PRESETS)}.",
            ),
        ),
        "decks": whole(president.DECKS[0], president.DECKS[-1], f"Number of {Deck.french().size}-card decks."),
        "jokers": whole(president.JOKERS[0], president.JOKERS[-1], "Number of jokers (0, 1 or 2)."),
        "revolution_size": explained(
            {
                "type": "integer",
                "enum": list(president.REVOLUTION_SIZES),
                "description": "Cards of a revolution (7 or 8: several decks); only with the revolution.",
            },
            Text("La révolution se fait à 4, 7 ou 8 cartes.", "A revolution takes 4, 7 or 8 cards."),
        ),
        "target": whole(1, None, "Points that end the game."),
        "schedule": explained(
            {
                "type": "array",
                "items": whole(1),
                "description": "Cards exchanged by each pair, outermost pair first.",
            },
            Text("Une liste de nombres est attendue.", "A list of numbers is expected."),
        ),
        "titles": explained(
            {"type": "string", "enum": list(president.TITLE_NAMINGS)},
            Text("Les titres sont « classic » ou « balayeur ».", "Titles are 'classic' or 'balayeur'."),
        ),
    }
    left_out = {"game"}
    refusals: dict[object, Text] = {}
    if piketty:
        # Piketty's deck follows from the number of players (no preset, no decks, no 32-card
        # deck) and has no joker: what needs one is off.
        left_out |= {"preset", "decks", "reduced"}
        refusals = {
            option: _rules_refusal({option: value}, option, "piketty")
            for option, value in (("preset", president.PRESETS[0]), ("decks", 1), ("reduced", True))
        }
        special["jokers"] = explained(
            {"type": "integer", "const": 0, "description": "Piketty has no joker: 0 only."},
            _rules_refusal({"jokers": 1}, "jokers", "piketty"),
        )
        special["revolution_size"] = explained(
            {"type": "integer", "const": 4, "description": "Cards of a revolution: 4 only, with the revolution."},
            _rules_refusal({"revolution": True, "revolution_size": 7}, "revolution_size", "piketty"),
        )
        for option in ("joker_no_finish", "joker_exchangeable", "joker_wild", "coup_detat", "guillotine"):
            special[option] = explained(
                {"type": "boolean", "const": False, "description": "Needs jokers: false in Piketty."},
                _rules_refusal({option: True}, option, "piketty"),
            )
    else:
        special["piketty_two_decks"] = explained(
            {"type": "boolean", "const": False, "description": "Piketty's own option: false here."},
            _rules_refusal({"piketty_two_decks": True}, "piketty_two_decks"),
        )
    properties: dict[str, Schema] = {}
    for rule in dataclasses.fields(president.Rules):
        if rule.name in left_out:
            continue
        if rule.name in special:
            properties[rule.name] = special[rule.name]
        elif rule.type == "bool":
            properties[rule.name] = {"type": "boolean"}
        else:  # pragma: no cover - caught by the tests as soon as the engine adds one
            raise TypeError(f"no schema for the option {rule.name}: {rule.type}")

    def unknown(key: object) -> Text:
        return refusals.get(key) or unknown_option(key)

    dependencies = list(dependencies)
    description = "House rules: " + ("options" if piketty else "an optional preset and options") + " by their ids"
    description += " (docs/rules.md)."
    if dependencies:
        description += " Between options: " + " ".join(d["description"] for d in dependencies)
    unstated = list(unstated)
    if unstated:
        description += " The engine also refuses (400 on rules.<option>): " + "; ".join(unstated) + "."
    schema: Schema = {
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": False,
    }
    if dependencies:
        schema["allOf"] = dependencies
    return explained(
        schema,
        Text("Les règles doivent être un objet.", "The rules must be an object."),
        additionalProperties=unknown,
    )
