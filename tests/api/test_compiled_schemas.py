"""The compiled request schemas give jsonschema's verdict, body for body.

:mod:`companion.judge.compiled` lets a valid body through without jsonschema; if it
ever accepted a body jsonschema refuses, the API would judge what it must refuse.
These tests compare both verdicts on the published examples changed at any depth
(every field replaced by each of many telling values, then random changes), and on
the corners of JSON Schema's equality and types.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from companion.judge.compiled import compile_schema
from tests.api.examples import CHECKS, OUTCOMES
from tests.api.schemas import GAMES, REQUESTS

Path = tuple[str | int, ...]

#: Values that sit on a boundary of some schema: types, bounds, enums, card and name patterns.
TELLING: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    4,
    5,
    5.0,
    1.5,
    22,
    60,
    300,
    780,
    10**6,
    "",
    " ",
    "Ann",
    "Zoe",
    " Bob ",
    "\u00a0",
    "9h",
    "10H",
    "11h",
    "RJ",
    "T21",
    "T22",
    "EX",
    "ex",
    "Qs Kd",
    "9h,9s",
    "s",
    "♠",
    "x",
    "fr",
    "en",
    "wizz",
    "president",
    [],
    [None],
    ["Ann", "Ann"],
    ["Ann", "Bob", "Cid"],
    ["9h", "9s"],
    ["9h", 9],
    [1, True],
    [[1], [True], [1]],
    {},
    {"player": "Ann", "pass": True},
    {"player": "Ann", "cards": ["9h"]},
    {"Ann": 1},
    {"Ann": True},
    {"1": "Chef"},
    {"x": "Chef"},
]

SCHEMAS = [(game, endpoint) for game in GAMES for endpoint in ("check", "outcome")]
_COMPILED = {key: compile_schema(REQUESTS[key[0]][key[1]]) for key in SCHEMAS}
_EXACT = {key: Draft202012Validator(REQUESTS[key[0]][key[1]]) for key in SCHEMAS}


def _examples(game: str, endpoint: str) -> list[dict[str, Any]]:
    listed = CHECKS if endpoint == "check" else OUTCOMES
    return [body for _, body in listed if body["game"] == game]


def _paths(value: Any, where: Path = ()) -> Iterator[Path]:
    """Every place in ``value`` (the root excluded), outermost first."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*where, key)
            yield from _paths(inner, (*where, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield (*where, i)
            yield from _paths(inner, (*where, i))


def _replaced(body: dict[str, Any], path: Path, value: Any, *, delete: bool = False) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    target: Any = changed
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = copy.deepcopy(value)
    return changed


def _agree(key: tuple[str, str], body: Any) -> None:
    assert _COMPILED[key](body) == _EXACT[key].is_valid(body), body


@pytest.mark.parametrize(("game", "endpoint"), SCHEMAS)
def test_every_field_replaced_or_removed(game, endpoint):
    key = (game, endpoint)
    for body in _examples(game, endpoint):
        _agree(key, body)
        for path in _paths(body):
            _agree(key, _replaced(body, path, None, delete=True))
            for value in TELLING:
                _agree(key, _replaced(body, path, value))
        for name in ("rules", "lang", "state", "move", "events", "finished_on", "title_names", "putsch_banned"):
            for value in TELLING:
                _agree(key, {**body, name: value})


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 800)
    | st.sampled_from([x for x in TELLING if not isinstance(x, list | dict)]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["player", "cards", "pass", "Ann", "1", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_changes_at_any_depth(data):
    key = data.draw(st.sampled_from(SCHEMAS))
    body = data.draw(st.sampled_from(_examples(*key)))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(body))
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        if data.draw(st.booleans()):
            body = _replaced(body, path, data.draw(_json))
        elif isinstance(path[-1], str):
            body = _replaced(body, path, None, delete=True)
    _agree(key, body)


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ({"type": "integer"}, 5.0),
        ({"type": "integer"}, 5.5),
        ({"type": "integer"}, True),
        ({"type": ["string", "null"]}, None),
        ({"type": "number"}, False),
        ({"enum": [1, -1]}, True),
        ({"enum": [1, -1]}, 1.0),
        ({"enum": [0, 22]}, False),
        ({"enum": [True]}, 1),
        ({"enum": ["a", None]}, None),
        ({"enum": [[1]]}, [True]),
        ({"const": True}, 1),
        ({"const": False}, False),
        ({"minimum": 1}, True),
        ({"maximum": 5}, 5.0),
        ({"uniqueItems": True}, [1, 1.0]),
        ({"uniqueItems": True}, [1, True]),
        ({"uniqueItems": True}, [[1], [True], [1]]),
        ({"uniqueItems": True}, ["a", "a"]),
        ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 2}),
        ({"additionalProperties": {"type": "integer"}}, {"a": 1, "b": "2"}),
        ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 1),
        ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, "x"),
        ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"a": 1}),
        ({"if": {"required": ["a"]}, "else": {"required": ["b"]}}, {}),
        ({"propertyNames": {"pattern": "^[0-9]+$"}}, {"12": 1, "x": 2}),
        ({"minLength": 1, "maxLength": 2}, "abc"),
        ({"maxProperties": 1}, {"a": 1, "b": 2}),
        ({"dependentRequired": {"a": ["b"]}}, {"a": 1}),  # not compiled: jsonschema's own verdict
        ({"properties": {"a": False}}, {"a": 1}),
        ({"not": {"type": "string"}}, "x"),
        ({"type": ["object", "null"], "additionalProperties": {"type": "integer"}}, None),
        ({"type": ["object", "null"], "additionalProperties": {"type": "integer"}}, {"a": "1"}),
        ({"type": ["integer", "null"], "minimum": 1}, 0),
        ({"minimum": 1, "pattern": "^a"}, "b"),
        ({"minimum": 1, "pattern": "^a"}, 0.5),
        ({"type": "integer", "maximum": 3}, 3.0),
        ({"required": ["a"], "minItems": 1}, []),
        ({"required": ["a"], "minItems": 1}, {}),
        ({"anyOf": [{"type": "boolean"}, {"pattern": "^x$"}]}, "y"),
        ({"allOf": [{"minLength": 1}, {"maxLength": 1}]}, "ab"),
        ({"type": "string", "enum": ["a", 1]}, 1),
    ],
)
def test_corners_of_json_schema(schema, instance):
    assert compile_schema(schema)(instance) == Draft202012Validator(schema).is_valid(instance)


def test_a_reference_cannot_be_compiled():
    with pytest.raises(ValueError):
        compile_schema({"$ref": "#/components/schemas/Error"})
