"""Fields every game shares (players, names, numbers, ``lang``) and the tools of conditions between fields."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from companion.judge.schemas.cards import ANY_SPACES, SPACES
from companion.judge.schemas.messages import Message, Schema, explained
from companion.rules.i18n import LANGS, RulesError, Text

# -- players ---------------------------------------------------------------------------

#: A name holds at least one character that is not a space.
NAME_PATTERN = f"^{ANY_SPACES}[^{SPACES}\\u0000][^\\u0000]*$"


def name(description: str = "A player's name.", nullable: bool = False) -> Schema:
    """A player's name: any text with something else than spaces in it (or null, if ``nullable``)."""
    return explained(
        {"type": ["string", "null"] if nullable else "string", "pattern": NAME_PATTERN, "description": description},
        Text("Un nom de joueur est attendu.", "A player's name is expected."),
    )


def players(fewest: int, most: int | None, who: Text, description: str = "") -> Schema:
    """A list of distinct player names, ``fewest`` to ``most`` long; ``who`` words the count's error."""
    schema: Schema = {"type": "array", "items": name(), "minItems": fewest, "uniqueItems": True}
    if most is not None:
        schema["maxItems"] = most
    if description:
        schema["description"] = description
    twice = Text("Un joueur figure deux fois.", "A player is listed twice.")
    return explained(
        schema,
        Text("Une liste de joueurs est attendue.", "A list of players is expected."),
        minItems=who,
        maxItems=who,
        uniqueItems=twice,
    )


def per_player(values: Schema, description: str, expected: Text) -> Schema:
    return explained(
        {"type": "object", "additionalProperties": values, "description": description},
        expected,
    )


def whole(low: int | None = None, high: int | None = None, description: str = "") -> Schema:
    """A whole number, from ``low`` to ``high`` when given."""
    schema: Schema = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    if description:
        schema["description"] = description
    return schema


def boolean(description: str = "") -> Schema:
    schema: Schema = {"type": "boolean"}
    if description:
        schema["description"] = description
    return schema


# -- common fields ---------------------------------------------------------------------


def _game(game: str) -> Schema:
    return {"type": "string", "const": game}


LANG = explained(
    {"type": "string", "enum": list(LANGS), "default": "fr", "description": "The language of reason and error."},
    Text("La langue doit être « fr » ou « en ».", "The language must be 'fr' or 'en'."),
)


def unknown_option(key: object) -> Text:
    return Text(f"Option inconnue : « {key} ».", f"Unknown option: '{key}'.")


def no_preset(game: Text) -> Callable[[object], Text]:
    def sentence(key: object) -> Text:
        if key == "preset":
            return Text(f"Pas de variante pour {game.fr}.", f"No preset for {game.en}.")
        return unknown_option(key)

    return sentence


# -- what the engine says and accepts -----------------------------------------------------
# Beyond each field's own shape, the schemas state conditions between fields that the engine
# checks (an option that needs another, the cards a deck holds, an event that needs its
# option), so that a body they allow is judged rather than refused.  Their sentences are the
# engine's own: each is taken from the engine refusing an example at import (a change of
# field in the engine fails at once), or asked of the engine when it depends on the value.
#
# What they cannot state: that a name is one of the players, that a list names every player,
# copies of a card counted across fields, the order of play and sums; nor, but by listing
# every count, a bound tied to the number of players (a rank of title_names, the exchange).
# And what they do not state, to stay within what a schema-driven generator can model:
# Schemathesis (the project's, tests/api/test_api_schemathesis.py) gives up on a schema
# whose conditions expand to more than about 24 alternatives, so each request states its
# conditions in as few alternatives as possible (a case split on one option rather than a
# condition per option; a oneOf of cases that exclude one another, which it draws case by
# case), and leaves to the engine the few that do not fit (_UNSTATED, said in the rules'
# description).  tests/api/test_schema_exact.py checks that every request stays within that
# bound, that the conditions are the engine's, and what share of generated bodies is kept.


def refusal(call: Callable[[], object], field: str) -> Text:
    """The sentence the engine (or a game's adapter) refuses ``call`` with, on ``field``."""
    try:
        call()
    except RulesError as e:
        if e.field != field:
            raise AssertionError(f"the engine refuses this on {e.field}, not on {field}: {e.text.en}") from None
        return e.text
    raise AssertionError(f"the engine no longer refuses this on {field}")


def engine_says(call: Callable[[], object], fallback: Text) -> Text:
    """What the engine says refusing ``call`` (``fallback`` if it does not refuse it)."""
    try:
        call()
    except RulesError as e:
        return e.text
    return fallback


ABSENT: Schema = {"not": {}}
OFF: Schema = {"const": False}


def merged(*schemas: Schema) -> Schema:
    """The schemas together: their ``properties`` and ``required`` joined (a property named by
    two of them must hold for both); any other keyword may appear in one of them only."""
    joined: Schema = {}
    for schema in schemas:
        for keyword, value in schema.items():
            if keyword == "properties":
                properties = joined.setdefault("properties", {})
                for name, inner in value.items():
                    properties[name] = {"allOf": [properties[name], inner]} if name in properties else inner
            elif keyword == "required":
                joined["required"] = [
                    *joined.get("required", []),
                    *(k for k in value if k not in joined.get("required", [])),
                ]
            elif keyword in joined:  # pragma: no cover - a mistake in this module
                raise ValueError(f"two schemas give {keyword}")
            else:
                joined[keyword] = value
    return joined


def option_values(values: dict[str, tuple[Schema, Message]]) -> Schema:
    """Each option of ``values`` as its schema says, explained by its sentence (on a node of
    its own: sentences are kept by node)."""
    return {"properties": {option: explained(dict(schema), said) for option, (schema, said) in values.items()}}


def request(
    game: str,
    rules: Schema,
    properties: dict[str, Schema],
    required: Iterable[str],
    conditions: Iterable[Schema] = (),
    relations: Iterable[str] = (),
) -> Schema:
    """A game's request body. ``relations``: what the engine also checks and JSON Schema
    cannot state (a name that must be one of the players, cards counted across fields…),
    said in the schema's description so that a client reading the document knows."""
    # "required" comes after "properties": a body with a wrong field and a missing one is
    # told about the wrong one first, as the adapters read them; then the conditions
    # between fields.
    schema: Schema = {
        "type": "object",
        "properties": {"game": _game(game), "lang": LANG, "rules": rules, **properties},
        "required": ["game", *required],
    }
    relations = list(relations)
    if relations:
        schema["description"] = (
            "Beyond this schema, a body is refused with 400 (at the field) when it breaks a relation "
            "between fields that JSON Schema cannot state: " + "; ".join(relations) + "."
        )
    conditions = list(conditions)
    if conditions:
        schema["allOf"] = conditions
    return schema


def one_move(schema: Schema, alternatives: list[Schema], sentence: Text) -> Schema:
    schema["oneOf"] = alternatives
    return explained(schema, Text("Un coup est un objet.", "A move must be an object."), oneOf=sentence)


def chain(cases: list[tuple[Schema, Schema]], otherwise: Schema | None = None) -> Schema:
    """``if`` the first condition ``then`` its schema, ``else if`` the next…: one alternative per case."""
    schema: Schema = otherwise if otherwise is not None else {}
    for condition, then in reversed(cases):
        schema = {"if": condition, "then": then, **({"else": schema} if schema else {})}
    return schema
