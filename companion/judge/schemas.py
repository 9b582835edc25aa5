"""The JSON Schemas of the rules API: one place for the shape of every request and answer.

:func:`companion.judge.reading.check_schema` validates each request body against
``REQUESTS[game][endpoint]`` before the game's adapter runs, and
:mod:`companion.api.openapi` publishes these very objects, so that the document and
the validation cannot drift apart.  The schemas guard shapes, types, the bounds the
engine enforces (player counts, card notation, number ranges) and the conditions
between fields it checks that a schema can state (an option that needs another, the
cards of the deck the rules make, an event and its option: "what the engine says and
accepts" below).  The engine still decides every rule: a body the schemas allow is
judged, or refused for a relation JSON Schema cannot state (a name that is not one of
the players, a card the deck does not hold twice across fields…), never for a condition
the schemas could have said (tests/api/test_schema_exact.py).

Objects stay open to fields they do not name (shared/API.md: "add fields freely"),
except where a name is itself a choice: ``rules`` options, president ``events``.

Each schema node may carry the sentences that explain a violation to a player
(:func:`explained`); :mod:`companion.judge.reading` looks them up by node.

>>> sorted(REQUESTS)
['crapouille', 'piketty', 'president', 'whist-tarot']
>>> REQUESTS["whist-tarot"]["check"]["properties"]["state"]["properties"]["cards"]
{'type': 'integer', 'minimum': 1, 'maximum': 5, 'description': 'Cards dealt to each player this deal.'}
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from companion.judge import president_outcome as outcome_adapter
from companion.rules import crapouille, crapouille_play, president, president_outcome, whist_tarot
from companion.rules.cards import Card, CardError, Deck, Rank, Suit
from companion.rules.i18n import LANGS, RulesError, Text

Schema = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Located:
    """A sentence and the field it is about, a path from the body's root as the engine names
    it (``events.jeu_blanc``): what a condition between fields says when the engine words it."""

    text: Text
    field: str


#: A sentence for a violation, possibly depending on the offending value; a callable may
#: also return a path below the value (``"[2]"``) where the fault lies, or a :class:`Located`.
Message = Text | Callable[[Any], "Text | tuple[Text, str] | Located"]

GAMES: tuple[str, ...] = ("president", "piketty", "whist-tarot", "crapouille")

# -- sentences attached to schema nodes ----------------------------------------------

#: For each explained node (by identity): the node itself (kept alive) and its sentences
#: by JSON Schema keyword; ``"*"`` is what the value should be, for any other keyword.
_MESSAGES: dict[int, tuple[Schema, dict[str, Message]]] = {}


def explained(schema: Schema, expected: Message | None = None, **by_keyword: Message) -> Schema:
    """``schema``, registered with the sentences that explain a value it refuses.

    ``expected`` says what the value should be (used for a wrong type, pattern, enum
    and any keyword without its own sentence); ``by_keyword`` gives sentences for
    particular keywords (``minItems``, ``uniqueItems``, ``additionalProperties``…).
    A callable sentence receives the offending value (for ``additionalProperties``,
    the unknown key).
    """
    messages: dict[str, Message] = dict(by_keyword)
    if expected is not None:
        messages["*"] = expected
    _MESSAGES[id(schema)] = (schema, messages)
    return schema


def message_for(schema: object, keyword: str) -> Message | None:
    """The sentence registered on ``schema`` for ``keyword`` (or its ``"*"``), if any."""
    entry = _MESSAGES.get(id(schema))
    if entry is None or entry[0] is not schema:
        return None
    messages = entry[1]
    return messages.get(keyword, messages.get("*"))


# -- card notation ---------------------------------------------------------------------
# Patterns are written in the common subset of ECMA 262 and Python regular
# expressions (no inline flags: case-insensitivity is spelt out), so that any JSON
# Schema tool reads them as the engine does.  ``\s`` differs between the two (Python's
# has \x1c-\x1f, ECMA's has U+FEFF), so the spaces are spelt out too: exactly the
# characters Python's ``str.strip`` and ``str.split`` take for spaces, as the engine does.

#: Inside a character class: every character for which ``str.isspace()`` is true.
SPACES = "\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
_S = f"[{SPACES}]*"

_SUIT = "[cdhsCDHS♣♧♦♢♥♡♠♤]"
_FRENCH = f"(?:10|[2-9JQKAVDRjqkavdr]){_SUIT}"
_JOKER = "[RrBb][Jj]"
_TRUMP = "[Tt](?:0?[1-9]|1[0-9]|2[01])"
_EXCUSE = "[Ee][Xx]"
_RANK = "(?:10|[2-9JQKAVDRjqkavdr])"
#: One card of each game's deck (Président: the tarot preset adds trumps and the Excuse).
_TOKENS = {
    "president": f"{_FRENCH}|{_JOKER}|{_TRUMP}|{_EXCUSE}",
    "piketty": _FRENCH,
    "whist-tarot": f"{_TRUMP}|{_EXCUSE}",
    "crapouille": f"{_FRENCH}|{_JOKER}",
}
#: Cards in one string are separated by spaces or commas (docs/rules.md).
SEPARATORS = f"[{SPACES},]+"
#: Most cards a deck of each game holds, as the engine builds them (Président: the most
#: decks and jokers its options allow; Piketty: the deck of nine players).
_DECK_SIZES = {
    "president": president.Rules(decks=4, jokers=2).deck(3).size,
    "piketty": president.Rules(game="piketty").deck(9).size,
    "whist-tarot": whist_tarot.DECK.size,
    "crapouille": crapouille.DECK.size,
}


@cache
def card_token(game: str) -> re.Pattern[str]:
    """The regular expression of one card of ``game``'s decks, surrounding spaces allowed.

    >>> bool(card_token("whist-tarot").match("T21")), bool(card_token("whist-tarot").match("Ah"))
    (True, False)
    """
    return re.compile(f"^{_S}(?:{_TOKENS[game]}){_S}$")


def _not_in_deck(game: str) -> Text:
    if game == "crapouille":
        return Text("Cette carte ne se joue pas à la crapouille.", "This card is not used in la crapouille.")
    if game == "whist-tarot":
        return Text(
            "Au whist au tarot, on joue les atouts (T1 à T21) et l’Excuse (EX).",
            "Whist with a tarot deck is played with the trumps (T1 to T21) and the Excuse (EX).",
        )
    return Text("Cette carte n’est pas dans ce jeu.", "This card is not in this deck.")


def card_problem(text: str, game: str) -> Text:
    """Why ``text`` is not a card of ``game``: the engine's own sentence when it cannot read it.

    >>> card_problem("11h", "president").fr
    'Carte inconnue : « 11h ».'
    >>> card_problem("Qs", "whist-tarot").en
    'Whist with a tarot deck is played with the trumps (T1 to T21) and the Excuse (EX).'
    """
    try:
        Card.parse(text)
    except CardError as e:
        return e.text
    return _not_in_deck(game)


def _card(game: str, description: str) -> Schema:
    if game == "whist-tarot":
        expected = Text("Une carte s’écrit comme « T14 » ou « EX ».", "A card is written like 'T14' or 'EX'.")
    else:
        expected = Text("Une carte s’écrit comme « 10h » ou « Qs ».", "A card is written like '10h' or 'Qs'.")
    return explained(
        {"type": "string", "pattern": card_token(game).pattern, "description": description},
        expected,
        pattern=lambda value: card_problem(value, game),
    )


def _first_bad_card(text: str, game: str) -> Text | tuple[Text, str]:
    """The first card of a card string that ``game`` does not have, and where it is."""
    token = card_token(game)
    words = [w for w in re.split(SEPARATORS, text) if w]
    for i, word in enumerate(words):
        if not token.match(word):
            return card_problem(word, game), f"[{i}]"
    return Text("Il faut au moins une carte.", "At least one card is needed.")


def _card_string(game: str, at_least_one: bool) -> Schema:
    token = f"(?:{_TOKENS[game]})"
    cards = rf"{token}(?:{SEPARATORS}{token})*"
    body = cards if at_least_one else f"(?:{cards})?"
    return explained(
        {"type": "string", "pattern": f"^[{SPACES},]*{body}[{SPACES},]*$"},
        pattern=lambda value: _first_bad_card(value, game),
    )


def cards(game: str, at_least_one: bool = False, description: str = "") -> Schema:
    """A card list of ``game``: a JSON array of cards or one string of cards separated by spaces."""
    most = _DECK_SIZES[game]
    array: Schema = {"type": "array", "items": _card(game, "A card."), "maxItems": most}
    if at_least_one:
        array["minItems"] = 1
    schema = {
        "description": (description + " " if description else "")
        + "A list of cards, or one string of cards separated by spaces.",
        "oneOf": [array, _card_string(game, at_least_one)],
    }
    fewest = Text("Il faut au moins une carte.", "At least one card is needed.")
    explained(array, minItems=fewest, maxItems=_too_many_cards(most))
    return explained(schema, Text("Une liste de cartes est attendue.", "A list of cards is expected."))


def _too_many_cards(most: int) -> Text:
    return Text(f"Le jeu n’a que {most} cartes.", f"The deck has only {most} cards.")


# -- players ---------------------------------------------------------------------------

#: A name holds at least one character that is not a space.
_NAME_PATTERN = f"^{_S}[^{SPACES}\\u0000][^\\u0000]*$"


def name(description: str = "A player's name.", nullable: bool = False) -> Schema:
    """A player's name: any text with something else than spaces in it (or null, if ``nullable``)."""
    return explained(
        {"type": ["string", "null"] if nullable else "string", "pattern": _NAME_PATTERN, "description": description},
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


def _per_player(values: Schema, description: str, expected: Text) -> Schema:
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


def _boolean(description: str = "") -> Schema:
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


def _unknown_option(key: object) -> Text:
    return Text(f"Option inconnue : « {key} ».", f"Unknown option: '{key}'.")


def _no_preset(game: Text) -> Callable[[object], Text]:
    def sentence(key: object) -> Text:
        if key == "preset":
            return Text(f"Pas de variante pour {game.fr}.", f"No preset for {game.en}.")
        return _unknown_option(key)

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


def _refusal(call: Callable[[], object], field: str) -> Text:
    """The sentence the engine (or a game's adapter) refuses ``call`` with, on ``field``."""
    try:
        call()
    except RulesError as e:
        if e.field != field:
            raise AssertionError(f"the engine refuses this on {e.field}, not on {field}: {e.text.en}") from None
        return e.text
    raise AssertionError(f"the engine no longer refuses this on {field}")


def _asked(call: Callable[[], object], fallback: Text) -> Text:
    """What the engine says refusing ``call`` (``fallback`` if it does not refuse it)."""
    try:
        call()
    except RulesError as e:
        return e.text
    return fallback


def _rules_refusal(options: dict[str, Any], option: str, game: str = "president") -> Text:
    return _refusal(lambda: president.Rules.from_options(options, game), f"rules.{option}")


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


_ABSENT: Schema = {"not": {}}
_OFF: Schema = {"const": False}


def _merged(*schemas: Schema) -> Schema:
    """The schemas together: their ``properties`` and ``required`` joined (a property named by
    two of them must hold for both); any other keyword may appear in one of them only."""
    merged: Schema = {}
    for schema in schemas:
        for keyword, value in schema.items():
            if keyword == "properties":
                properties = merged.setdefault("properties", {})
                for name, inner in value.items():
                    properties[name] = {"allOf": [properties[name], inner]} if name in properties else inner
            elif keyword == "required":
                merged["required"] = [
                    *merged.get("required", []),
                    *(k for k in value if k not in merged.get("required", [])),
                ]
            elif keyword in merged:  # pragma: no cover - a mistake in this module
                raise ValueError(f"two schemas give {keyword}")
            else:
                merged[keyword] = value
    return merged


def _set(values: dict[str, tuple[Schema, Message]]) -> Schema:
    """Each option of ``values`` as its schema says, explained by its sentence (on a node of
    its own: sentences are kept by node)."""
    return {"properties": {option: explained(dict(schema), said) for option, (schema, said) in values.items()}}


def _off(*options: str, **context: Any) -> Schema:
    """``options`` switched off, each refused (when on) in the engine's words; ``context``: the
    other options the engine's example needs."""
    return _set({option: (_OFF, _rules_refusal({**context, option: True}, option)) for option in options})


_DECKS = range(1, 5)
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
        "then": _merged(_off(*_REVOLUTION_OPTIONS), _set({"revolution_size": (_ABSENT, size)})),
    }
    if game != "piketty":
        rule["description"] += " revolution_size 7 or 8 needs several decks."
        several = _rules_refusal({"revolution": True, "revolution_size": 7}, "revolution_size")
        rule["else"] = {
            "if": {"not": _option("decks", *_DECKS[1:])},
            "then": _set({"revolution_size": ({"const": 4}, several)}),
        }
    return rule


def _jokers_rule() -> Schema:
    """Président: what the number of jokers allows (a case split on it: 0, 1 or 2)."""
    no_jokers = [p for p in president.PRESETS if _refused({"preset": p, "jokers": 1}, "jokers")]
    with_jokers = {
        "allOf": [
            _off("twos_cut", jokers=1),
            _set(
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
        "decks": whole(1, 4, "Number of 52-card decks."),
        "jokers": whole(0, 2, "Number of jokers (0, 1 or 2)."),
        "revolution_size": explained(
            {
                "type": "integer",
                "enum": [4, 7, 8],
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
    for option in dataclasses.fields(president.Rules):
        if option.name in left_out:
            continue
        if option.name in special:
            properties[option.name] = special[option.name]
        elif option.type == "bool":
            properties[option.name] = {"type": "boolean"}
        else:  # pragma: no cover - caught by the tests as soon as the engine adds one
            raise TypeError(f"no schema for the option {option.name}: {option.type}")

    def unknown(key: object) -> Text:
        return refusals.get(key) or _unknown_option(key)

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


def _crapouille_rules() -> Schema:
    options = [f.name for f in dataclasses.fields(crapouille_play.Options)]
    return explained(
        {
            "type": "object",
            "description": "House rules: super (Super crapouille).",
            "properties": {option: {"type": "boolean"} for option in options},
            "additionalProperties": False,
        },
        Text("« rules » est un objet JSON.", "'rules' is a JSON object."),
        additionalProperties=_no_preset(Text("la crapouille", "la crapouille")),
    )


def _whist_rules() -> Schema:
    return explained(
        {
            "type": "object",
            "description": "Whist with a tarot deck has no option: only an empty object is accepted.",
            "properties": {},
            "additionalProperties": False,
        },
        Text("« rules » est un objet JSON.", "'rules' is a JSON object."),
        additionalProperties=_no_preset(Text("le whist au tarot", "whist with a tarot deck")),
    )


def _request(
    game: str, rules: Schema, properties: dict[str, Schema], required: Iterable[str], conditions: Iterable[Schema] = ()
) -> Schema:
    # "required" comes after "properties": a body with a wrong field and a missing one is
    # told about the wrong one first, as the adapters read them; then the conditions
    # between fields.
    schema: Schema = {
        "type": "object",
        "properties": {"game": _game(game), "lang": LANG, "rules": rules, **properties},
        "required": ["game", *required],
    }
    conditions = list(conditions)
    if conditions:
        schema["allOf"] = conditions
    return schema


def _one_move(schema: Schema, alternatives: list[Schema], sentence: Text) -> Schema:
    schema["oneOf"] = alternatives
    return explained(schema, Text("Un coup est un objet.", "A move must be an object."), oneOf=sentence)


# -- what a table allows: the cards of its deck, the events of its options --------------------------

#: Every spelling of a rank in the card notation, by the rank the engine reads in it.
_RANK_SPELLINGS: dict[Rank, list[str]] = {}
for _spelling in ["10", *"23456789JQKAVDRjqkavdr"]:
    _RANK_SPELLINGS.setdefault(Card.parse(_spelling + "h").rank or Rank.TWO, []).append(_spelling)


def _ranks_pattern(ranks: Iterable[Rank]) -> str:
    spellings = [s for rank in ranks for s in _RANK_SPELLINGS[rank]]
    alternatives = [s for s in spellings if len(s) > 1]
    singles = "".join(s for s in spellings if len(s) == 1)
    if singles:
        alternatives.append(f"[{singles}]")
    return "(?:" + "|".join(alternatives) + ")"


def _deck_token(deck: Deck) -> str:
    """One card of ``deck`` (a deck drops whole ranks, never single cards of a rank)."""
    held = [card for card in deck.counts if deck.limit(card) > 0]
    ranks = [rank for rank in Rank if any(card.rank is rank for card in held)]
    for rank in ranks:
        if sum(1 for card in held if card.rank is rank) != len(Suit):  # pragma: no cover - no such deck today
            raise ValueError(f"a deck with only some {rank.value}s cannot be written as a pattern")
    parts = [_ranks_pattern(ranks) + _SUIT] if ranks else []
    colours = "".join(c.upper() + c.lower() for c in "RB" if deck.limit(Card(joker=c)) > 0)
    if colours:
        parts.append(f"[{colours}][Jj]")
    trumps = {card.trump for card in held if card.trump}
    if trumps == set(range(1, 22)):
        parts.append(_TRUMP)
    elif trumps:  # pragma: no cover - no such deck today
        raise ValueError("a deck with only some trumps cannot be written as a pattern")
    if any(card.trump == 0 for card in held):
        parts.append(_EXCUSE)
    return "|".join(parts)


def _deck_problem(text: object, deck: Deck, game: str) -> Text:
    """Why the card ``text`` cannot be in ``deck``: the engine's sentence."""
    if not isinstance(text, str):
        return _not_in_deck(game)
    try:
        card = Card.parse(text)
    except CardError as e:
        return e.text
    return deck.too_many(card)


def _in_deck(deck: Deck, game: str, ranks: tuple[president.Rules, int] | None = None) -> Schema:
    """Cards (a list, or one string) that ``deck`` holds; with ``ranks`` (the rules and the
    number of players that make the deck), a rank alone too, as ``finished_on`` takes.  Any
    other value passes."""
    token = _deck_token(deck)
    one = re.compile(f"^{_S}(?:{token}){_S}$")
    listed = rf"(?:{token})(?:{SEPARATORS}(?:{token}))*"
    string = f"^[{SPACES},]*(?:{listed})?[{SPACES},]*$"
    if ranks is not None:
        held = [r for r in Rank if any(card.rank is r for card in deck.counts if deck.limit(card))]
        string = f"^{_S}{_ranks_pattern(held)}{_S}$|{string}"

    def first_outside(text: object) -> Text | tuple[Text, str]:
        if ranks is not None and isinstance(text, str) and re.match(f"^{_S}{_RANK}{_S}$", text):
            rules, n = ranks
            names = [f"P{i}" for i in range(n)]
            rank = Card.parse(text.strip() + "h").rank
            return _asked(
                lambda: president_outcome.outcome(rules, names, finished_on={names[0]: rank}), _not_in_deck(game)
            )
        words = [w for w in re.split(SEPARATORS, text) if w] if isinstance(text, str) else []
        for i, word in enumerate(words):
            if not one.match(word):
                return _deck_problem(word, deck, game), f"[{i}]"
        return _not_in_deck(game)

    item = explained({"pattern": one.pattern}, pattern=lambda text: _deck_problem(text, deck, game))
    return explained({"items": item, "pattern": string}, pattern=first_outside)


def _chain(cases: list[tuple[Schema, Schema]], otherwise: Schema | None = None) -> Schema:
    """``if`` the first condition ``then`` its schema, ``else if`` the next…: one alternative per case."""
    schema: Schema = otherwise if otherwise is not None else {}
    for condition, then in reversed(cases):
        schema = {"if": condition, "then": then, **({"else": schema} if schema else {})}
    return schema


#: The presets that choose their own deck (the tarot one).
_DECK_PRESETS = [
    p for p in president.PRESETS if president.Rules.from_options({"preset": p}).deck(4) != president.Rules().deck(4)
]


def _plays_in_deck(rules: president.Rules, n: int, game: str) -> Schema:
    """A check request whose trick and move lay only cards of the deck of ``rules`` at ``n`` players."""
    listed = _in_deck(rules.deck(n), game)
    plays = {"properties": {"cards": listed, "laid": listed}}
    return {"properties": {"state": {"properties": {"trick": {"items": plays}}}, "move": plays}}


def _finishes_in_deck(rules: president.Rules, n: int, game: str) -> Schema:
    """An outcome request whose finishing cards and draw are cards of the deck of ``rules`` at
    ``n`` players."""
    deck = rules.deck(n)
    return {
        "properties": {
            "finished_on": {"additionalProperties": _in_deck(deck, game, (rules, n))},
            "draw": {"additionalProperties": _in_deck(deck, game)},
        }
    }


#: Where a request holds cards: ``(rules, players, game)`` -> the request's cards of that deck.
InDeck = Callable[[president.Rules, int, str], Schema]


def _president_decks(in_deck: InDeck, with_reduced: bool = True) -> Schema:
    """Président: the cards are of the deck the rules choose, as ``in_deck`` places them in a
    request, and what a deck allows of the options.  A case split: a preset's own deck (one
    of them, not the 32-card one), then ``with_reduced`` the 32-card deck (one of them, no
    twos_cut), with jokers or not, then jokers or none.  (A check leaves the 32-card deck
    to the engine: with its trick and move, it would take a generator past its bound.)"""
    cases = []
    for preset in _DECK_PRESETS:
        rules = president.Rules.from_options({"preset": preset})
        only = _set(
            {
                "decks": ({"const": 1}, _rules_refusal({"preset": preset, "decks": 2}, "decks")),
                "reduced": (_OFF, _rules_refusal({"preset": preset, "reduced": True}, "reduced")),
            }
        )
        cases.append((_given(_option("preset", preset)), _merged(in_deck(rules, 4, "president"), _given(only))))
    reduced = _given(
        _set(
            {
                "decks": ({"const": 1}, _rules_refusal({"reduced": True, "decks": 2}, "reduced")),
                "twos_cut": (_OFF, _rules_refusal({"reduced": True, "twos_cut": True}, "twos_cut")),
            }
        )
    )
    for jokers in ((1, 2), (0,)) if with_reduced else ():
        condition = _given({"allOf": [_option("reduced", True), _option("jokers", *jokers)]})
        rules = president.Rules(reduced=True, jokers=jokers[0])
        cases.append((condition, _merged(in_deck(rules, 4, "president"), reduced)))
    cases.append((_given(_option("jokers", 1, 2)), in_deck(president.Rules(jokers=2), 4, "president")))
    return _chain(cases, in_deck(president.Rules(), 4, "president"))


def _piketty_decks(in_deck: InDeck, players: tuple[str, ...]) -> Schema:
    """Piketty: the cards are of the deck the number of players makes (and piketty_two_decks),
    as ``in_deck`` places them in a request whose players are at ``players``: a case split on
    the number of players, most first."""
    plain, two_decks = (president.Rules(game="piketty", piketty_two_decks=two) for two in (False, True))

    def tokens(n: int) -> tuple[str, str]:
        return _deck_token(plain.deck(n)), _deck_token(two_decks.deck(n))

    cases: list[tuple[Schema, Schema]] = []
    n = 9
    while n >= 4:
        fewest = n
        while fewest > 4 and tokens(fewest - 1) == tokens(n):
            fewest -= 1
        one, two = tokens(n)
        if one == two:
            then = in_deck(plain, n, "piketty") if one != _TOKENS["piketty"] else {}
        else:
            then = _chain(
                [(_given(_option("piketty_two_decks", True)), in_deck(two_decks, n, "piketty"))],
                in_deck(plain, n, "piketty"),
            )
        seated: Schema = {"minItems": fewest}
        for key in reversed(players):
            seated = {"properties": {key: seated}}
        cases.append((seated, then))
        n = fewest - 1
    # The last case holds for any count the schema allows (4 and up).
    return _chain(cases[:-1], cases[-1][1])


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
    return _refusal(lambda: outcome_adapter.outcome({"game": "president", "players": _TABLE, **body}, "fr"), field)


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
        then = _set(
            {
                "events": (_set({other: (_QUIET[other], one) for other in _EVENTS if other != event}), one),
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
        "properties": {"events": _set({event: (_QUIET[event], off[event]) for event in _EVENTS})},
        "if": {"required": ["draw"], "properties": {"draw": {"type": "object"}}},
        "then": _set(
            {
                "first": ({"enum": [True]}, _outcome_refusal({"draw": drawn, "first": False}, "first")),
                "finish": ({"maxItems": 0}, _outcome_refusal({"draw": drawn, "finish": ["Ann"]}, "finish")),
            }
        ),
    }

    def said(body: object) -> Text | Located:
        fallback = Text("Ces événements ne sont pas possibles ici.", "These events are not possible here.")
        try:
            outcome_adapter.outcome(body, "fr")  # type: ignore[arg-type]
        except RulesError as e:  # the engine's words, on the engine's field
            return Located(e.text, e.field) if e.field is not None else e.text
        except Exception:  # or these: never a failure of their own
            return fallback
        return fallback

    return explained({"oneOf": [{"allOf": [condition, then]} for condition, then in cases] + [none]}, oneOf=said)


# -- Président and Piketty ---------------------------------------------------------------


def _president_players(game: str, description: str) -> Schema:
    if game == "piketty":
        who = Text("Le Piketty se joue de 4 à 9 joueurs.", "Piketty is played by 4 to 9 players.")
        return players(4, 9, who, description)
    who = Text(
        "Le Président se joue à partir de 3 joueurs, pas plus que de cartes.",
        "Président needs at least 3 players, and no more than cards.",
    )
    return players(3, _DECK_SIZES["president"], who, description)


def _president_play(game: str, description: str) -> Schema:
    schema: Schema = {
        "type": "object",
        "description": description,
        "properties": {
            "player": name(),
            "cards": cards(game, at_least_one=True, description="The cards laid (liar: the announced ones)."),
            "last": _boolean("These are the player's last cards."),
            "pass": _boolean("The player passes."),
            "call": _boolean("liar: a 'menteur' call on the last announced cards."),
            "laid": cards(game, description="liar: the cards really laid, face down."),
        },
        "required": ["player"],
    }
    alternatives: list[Schema] = [
        {"required": ["cards"]},
        {"required": ["pass"], "properties": {"pass": {"const": True}}},
        {"required": ["call"], "properties": {"call": {"const": True}}},
    ]
    return _one_move(
        schema,
        alternatives,
        Text(
            "Un coup pose des cartes (« cards »), passe (« pass »: true) ou appelle (« call »: true), "
            "une seule de ces choses.",
            "A move lays cards ('cards'), passes ('pass': true) or calls ('call': true), only one of them.",
        ),
    )


def _president_check(game: str) -> Schema:
    most = 9 if game == "piketty" else _DECK_SIZES["president"]
    state = explained(
        {
            "type": "object",
            "properties": {
                "players": _president_players(game, "Everyone in the manche, in turn order."),
                "out": players(0, most, Text("Trop de joueurs sortis.", "Too many players out."), "Who went out."),
                "reversed": _boolean("The card order is reversed by an earlier revolution."),
                "leader": name("Who must lead when the trick is empty."),
                "trick": explained(
                    {
                        "type": "array",
                        "items": _president_play(game, "One play of the current trick."),
                        "description": "The current trick, oldest first.",
                    },
                    Text("Le pli est une liste.", "The trick must be a list."),
                ),
            },
            "required": ["players"],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )
    move = _president_play(game, "The move to judge.")
    if game == "piketty":
        rules = _president_rules(game, [_passe_rule(), _revolution_rule(game)])
        conditions = [_piketty_decks(_plays_in_deck, ("state", "players"))]
    else:
        rules = _president_rules(game, [_jokers_rule(), _passe_rule(), _revolution_rule(game)], _UNSTATED["check"])
        conditions = [_president_decks(_plays_in_deck, with_reduced=False)]
    return _request(game, rules, {"state": state, "move": move}, ["state", "move"], conditions)


def _president_outcome(game: str) -> Schema:
    most = 9 if game == "piketty" else _DECK_SIZES["president"]
    rank_or_cards = explained(
        {
            "anyOf": [
                {"type": "boolean"},
                {"type": "string", "pattern": f"^{_S}{_RANK}{_S}$"},
                cards(game, at_least_one=True),
            ],
            "description": "true (the finish was forbidden), a rank ('2': any card of it) or the cards.",
        },
        Text(
            "true, un rang (« 2 ») ou des cartes sont attendus.",
            "true, a rank ('2') or cards are expected.",
        ),
    )
    guillotine = explained(
        {
            "type": "object",
            "properties": {"player": name(), "vice": name(), "last": name()},
            "additionalProperties": False,
            "required": ["player", "vice", "last"],
        },
        Text("Un objet est attendu.", "An object is expected."),
        additionalProperties=Text(
            "La guillotine donne « player », « vice » et « last ».", "A guillotine gives 'player', 'vice' and 'last'."
        ),
    )
    events = explained(
        {
            "type": "object",
            "description": "What happened instead of (or during) the manche.",
            "properties": {
                "putsch": name("Who called a putsch."),
                "jeu_blanc": name("Who showed a jeu blanc."),
                "coup_detat": name("Who made a coup d’État."),
                "guillotine": guillotine,
                "revolution": explained(
                    {"anyOf": [{"type": "boolean"}, name()], "description": "true, or who laid it (false: none)."},
                    Text("true ou un nom de joueur est attendu.", "true or a player's name is expected."),
                ),
            },
            "additionalProperties": False,
        },
        Text("Un objet est attendu.", "An object is expected."),
        additionalProperties=lambda key: Text(f"Événement inconnu : « {key} ».", f"Unknown event: '{key}'."),
    )
    title_names = explained(
        {
            "type": "object",
            "description": 'A group\'s own names for ranks: {"1": "Le Chef", …}.',
            "propertyNames": explained(
                # From 1 (the engine's check that it is at most the number of players ties the
                # key to another field's length: a schema states that only by listing every count).
                {"pattern": "^0*[1-9][0-9]*$"},
                Text("Un rang est un nombre, à partir de 1.", "A rank is a number, from 1."),
            ),
            "additionalProperties": explained(
                {"type": "string", "minLength": 1, "maxLength": 40, "pattern": _NAME_PATTERN},
                Text("Un titre est un nom de 1 à 40 caractères.", "A title is a name of 1 to 40 characters."),
            ),
        },
        Text("Un objet est attendu.", "An object is expected."),
    )
    properties = {
        "players": _president_players(game, "The hierarchy before the manche, best first (first manche: seats)."),
        "finish": players(0, most, Text("Trop de joueurs.", "Too many players."), "Going-out order, first out first."),
        "finished_on": _per_player(
            rank_or_cards, "What players went out on.", Text("Un objet est attendu.", "An object is expected.")
        ),
        "events": events,
        "first": _boolean("The first manche of a game."),
        "draw": _per_player(
            cards(game, at_least_one=True),
            "Piketty's first draw: each player's card(s).",
            Text("Un objet est attendu.", "An object is expected."),
        ),
        # null too: the previous answer's putsch_banned is sent back as it came.
        "putsch_banned": name("Who failed a putsch at the previous manche (null: nobody).", nullable=True),
        "totals": _per_player(
            whole(),
            "Points before the manche.",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
        "title_names": title_names,
    }
    if game == "piketty":
        rules = _president_rules(game, [_passe_rule(), _revolution_rule(game)])
    else:
        rules = _president_rules(game, [_jokers_rule(), _revolution_rule(game), _passe_rule()], _UNSTATED["outcome"])
    decks = (
        _piketty_decks(_finishes_in_deck, ("players",)) if game == "piketty" else _president_decks(_finishes_in_deck)
    )
    return _request(game, rules, properties, ["players"], [decks, _president_events()])


# -- whist with a tarot deck ---------------------------------------------------------------

_WHIST_TABLE = ["Ann", "Bob", "Cid"]


def _settle_refusal(field: str, cards: int = 2, blind: bool = False, **given: dict[str, int]) -> Text:
    entries = {key: dict.fromkeys(_WHIST_TABLE, 1 if key == "stakes" else 0) for key in ("stakes", "bids", "tricks")}
    entries["tricks"]["Ann"] = cards
    for key, values in given.items():
        entries[key].update(values)
    return _refusal(
        lambda: whist_tarot.settle(
            _WHIST_TABLE, "Ann", cards, blind, entries["stakes"], entries["bids"], entries["tricks"]
        ),
        field,
    )


def _whist_deal(counts: tuple[str, ...]) -> Schema:
    """A deal's size bounds the rest: only the one-card deal is blind, and the numbers of
    ``counts`` (bids, tricks) go from 0 to the cards dealt (a case split on the cards dealt)."""
    blind = _settle_refusal("blind", blind=True)
    cases = []
    for dealt in range(1, whist_tarot.SERIES[0]):
        bounds: Schema = {
            key: {
                "additionalProperties": explained(
                    {"maximum": dealt}, _settle_refusal(f"{key}.Bob", dealt, **{key: {"Bob": dealt + 1}})
                )
            }
            for key in counts
        }
        if dealt > 1:
            bounds["blind"] = explained(dict(_OFF), blind)
        cases.append(({"properties": {"cards": {"const": dealt}}}, {"properties": bounds}))
    return _chain(cases, {"properties": {"blind": explained(dict(_OFF), blind)}})


#: The Excuse is the only card announced as 0 or 22.
_EXCUSE_ONLY: Schema = {
    "if": {"required": ["card"], "properties": {"card": {"not": {"pattern": f"^{_S}{_EXCUSE}{_S}$"}}}},
    "then": {
        "properties": {
            "excuse": explained(dict(_ABSENT), _refusal(lambda: whist_tarot.Play("Ann", Card(trump=1), 0), "excuse"))
        }
    },
}


_WHIST_PLAYERS_TEXT = Text(
    "Le whist au tarot se joue à 3 ou 4 joueurs.", "Whist with a tarot deck is for 3 or 4 players."
)
_EXCUSE_VALUE = explained(
    {"type": "integer", "enum": list(whist_tarot.EXCUSE_VALUES), "description": "With EX: the Excuse counts 0 or 22."},
    Text("L’Excuse vaut 0 ou 22.", "The Excuse is worth 0 or 22."),
)


def _whist_state() -> Schema:
    entry = explained(
        {
            "type": "object",
            "properties": {"player": name(), "card": _card("whist-tarot", "The card laid."), "excuse": _EXCUSE_VALUE},
            "required": ["player", "card"],
            # The Excuse in a trick already played must say what it counted.
            "if": {"properties": {"card": {"pattern": f"^{_S}{_EXCUSE}{_S}$"}}, "required": ["card"]},
            "then": {"required": ["excuse"]},
            # and only the Excuse says it.
            "allOf": [_EXCUSE_ONLY],
        },
        Text("Chaque carte du pli est un objet JSON.", "Each card of the trick is a JSON object."),
    )
    cards_dealt = whole(1, whist_tarot.SERIES[0], "Cards dealt to each player this deal.")
    bid = whole(0, whist_tarot.SERIES[0])
    return explained(
        {
            "type": "object",
            "properties": {
                "players": players(
                    whist_tarot.MIN_PLAYERS, whist_tarot.MAX_PLAYERS, _WHIST_PLAYERS_TEXT, "Seat order, clockwise."
                ),
                "dealer": name(),
                "cards": cards_dealt,
                "blind": _boolean("The one-card deal played blind."),
                "bids": explained(
                    {
                        "type": ["object", "null"],
                        "additionalProperties": bid,
                        "maxProperties": whist_tarot.MAX_PLAYERS,
                        "description": "Bids so far, in bidding order; null (or absent) when not tracked.",
                    },
                    Text("Un nombre par joueur est attendu.", "A number per player is expected."),
                ),
                "leader": name("Who led this trick."),
                "played": cards("whist-tarot", description="Cards already out in earlier tricks of this deal."),
                "trick": explained(
                    {
                        "type": "array",
                        "items": entry,
                        "maxItems": whist_tarot.MAX_PLAYERS,
                        "description": "The current trick, oldest first.",
                    },
                    Text("Le pli est une liste.", "The trick is a list."),
                    maxItems=Text("Un pli a une carte par joueur.", "A trick has one card per player."),
                ),
            },
            "required": ["players", "dealer", "cards"],
            "allOf": [_whist_deal(("bids",))],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )


def _whist_check() -> Schema:
    move: Schema = {
        "type": "object",
        "properties": {
            "player": name(),
            "bid": whole(description="A bid (outside 0..cards it is judged illegal: bid_range)."),
            "card": _card("whist-tarot", "The card laid."),
            "excuse": _EXCUSE_VALUE,
        },
        "required": ["player"],
        "allOf": [_EXCUSE_ONLY],
    }
    move = _one_move(
        move,
        [{"required": ["bid"]}, {"required": ["card"]}],
        Text("Un coup est une annonce (« bid ») ou une carte (« card »).", "A move is a 'bid' or a 'card'."),
    )
    return _request("whist-tarot", _whist_rules(), {"state": _whist_state(), "move": move}, ["state", "move"])


def _whist_outcome() -> Schema:
    count = whist_tarot.SERIES[0]

    def per_player(values: Schema, description: str) -> Schema:
        schema = _per_player(
            values, description, Text("Un nombre par joueur est attendu.", "A number per player is expected.")
        )
        schema["maxProperties"] = whist_tarot.MAX_PLAYERS
        return schema

    properties = {
        "players": players(
            whist_tarot.MIN_PLAYERS, whist_tarot.MAX_PLAYERS, _WHIST_PLAYERS_TEXT, "Seat order, clockwise."
        ),
        "dealer": name(),
        "cards": whole(1, count, "Cards dealt to each player this deal."),
        "blind": _boolean("The one-card deal played blind (default false)."),
        "stakes": per_player(
            explained(whole(1, whist_tarot.STAKE), minimum=_settle_refusal("stakes", stakes={"Ann": 0})),
            "Each player's stake before the deal (an empty stake ends the game).",
        ),
        "bids": per_player(
            whole(0, count),
            "Each from 0 to cards, the dealer's never the forbidden value (else 400 on bids.<player>).",
        ),
        "tricks": per_player(whole(0, count), "Tricks taken; they add up to cards."),
    }
    return _request(
        "whist-tarot",
        _whist_rules(),
        properties,
        ["players", "dealer", "cards", "stakes", "bids", "tricks"],
        [_whist_deal(("bids", "tricks"))],
    )


# -- la crapouille ---------------------------------------------------------------------------

_SUIT_SCHEMA_TEXT = Text("Une couleur s’écrit c, d, h ou s.", "A suit is written c, d, h or s.")


def _suit(nullable: bool, description: str) -> Schema:
    # A suit named alone: its letter or its plain symbol (the adapter's reading).
    schema: Schema = {
        "type": ["string", "null"] if nullable else "string",
        "pattern": f"^{_S}[cdhsCDHS♣♦♥♠]{_S}$",
        "description": description,
    }
    return explained(schema, _SUIT_SCHEMA_TEXT)


def _crapouille_players(description: str) -> Schema:
    return players(
        crapouille.MIN_PLAYERS,
        None,
        Text(
            f"Il faut au moins {crapouille.MIN_PLAYERS} joueurs.",
            f"At least {crapouille.MIN_PLAYERS} players are needed.",
        ),
        description,
    )


def _crapouille_check() -> Schema:
    state = explained(
        {
            "type": "object",
            "properties": {
                "players": _crapouille_players("Seat order, clockwise."),
                "direction": explained(
                    {"type": "integer", "enum": [1, -1], "description": "1 clockwise, -1 after an odd number of 10s."},
                    Text("Le sens vaut 1 ou −1.", "The direction is 1 or −1."),
                ),
                "pile": cards(
                    "crapouille", at_least_one=True, description="Played cards, oldest first (the starting card first)."
                ),
                "asked": _suit(True, "The suit named with the 8 on top (null or absent: none)."),
                "turn": name("Whose turn it is."),
                "hand": cards("crapouille", description="The player's hand, so that a draw can be refused."),
            },
            "required": ["players", "pile", "turn"],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )
    move: Schema = {
        "type": "object",
        "properties": {
            "player": name(),
            "card": _card("crapouille", "The card laid."),
            "asked": _suit(
                False,
                "With an 8: the suit asked (optional at check time). An 8 laid as the player's last card ends "
                "the hand and asks no suit: a suit given with it is ignored.",
            ),
            "last": _boolean("The player's last card."),
            "announced": _boolean("false when, left with one card, the player did not say 'carte'."),
            "draw": _boolean("The player draws."),
            "drawn": _card(
                "crapouille",
                "With a draw, the card drawn (optional): without it next_player is null, since a drawn card "
                "that fits is laid at once and may be a 2, a 10 or an 8.",
            ),
        },
        "required": ["player"],
    }
    move = _one_move(
        move,
        [{"required": ["card"]}, {"required": ["draw"], "properties": {"draw": {"const": True}}}],
        Text(
            "Un coup est une carte (« card ») ou une pioche (« draw »: true).",
            "A move is a 'card' or a draw ('draw': true).",
        ),
    )
    return _request("crapouille", _crapouille_rules(), {"state": state, "move": move}, ["state", "move"])


def _crapouille_outcome() -> Schema:
    properties = {
        "players": _crapouille_players("Players still in, seat order."),
        "totals": _per_player(
            whole(0, crapouille.ELIMINATION_TOTAL),
            "Totals before the hand (absent: 0).",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
        "winner": name("Who went out."),
        "hands": _per_player(
            cards("crapouille"),
            "Cards left, per player; the winner may be listed with no card.",
            Text("Les cartes de chaque joueur sont attendues.", "Each player's cards are expected."),
        ),
        "points": _per_player(
            whole(0, crapouille.MAX_HAND_POINTS),
            "Points of the cards left, per player; the winner may be listed with 0.",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
    }
    return _request("crapouille", _crapouille_rules(), properties, ["players", "winner"])


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

#: The request body of each game at each endpoint: what the API validates and publishes.
REQUESTS: dict[str, dict[str, Schema]] = {
    "president": {"check": _president_check("president"), "outcome": _president_outcome("president")},
    "piketty": {"check": _president_check("piketty"), "outcome": _president_outcome("piketty")},
    "whist-tarot": {"check": _whist_check(), "outcome": _whist_outcome()},
    "crapouille": {"check": _crapouille_check(), "outcome": _crapouille_outcome()},
}
_PRESIDENT_ANSWER, _PRESIDENT_RESULT = _president_answer(), _president_result()
#: The 200 answer of each game at each endpoint.
RESPONSES: dict[str, dict[str, Schema]] = {
    "president": {"check": _PRESIDENT_ANSWER, "outcome": _PRESIDENT_RESULT},
    "piketty": {"check": _PRESIDENT_ANSWER, "outcome": _PRESIDENT_RESULT},
    "whist-tarot": {"check": _whist_answer(), "outcome": _whist_result()},
    "crapouille": {"check": _crapouille_answer(), "outcome": _crapouille_result()},
}
