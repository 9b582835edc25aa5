"""The request schemas of :mod:`companion.judge.schemas`, compiled into plain Python tests.

jsonschema's validators are exact but slow: walking a body through them cost as much
as the engine's whole judgement.  :func:`compile_schema` turns a schema, once, into a
function ``valid(instance) -> bool`` that gives the verdict
``Draft202012Validator(schema).is_valid(instance)`` gives, for the keywords the
schemas use (types, properties, required, items, enum and const, patterns, bounds,
oneOf/anyOf/allOf/not, if/then/else, propertyNames…).  Each schema node becomes one
function whose body is a single expression over the value (``isinstance(x, str) and
p1(x) is not None``), calling the functions of the nodes below it.  A node holding
any other keyword, and the rare values a fast test cannot be sure of, are handed to
jsonschema itself, so the verdict stays jsonschema's.  Only the verdict is compiled:
a body it refuses is explained by jsonschema (:func:`companion.judge.reading.check_schema`),
so the errors, their order and their fields are unchanged.

>>> valid = compile_schema({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}},
...                         "required": ["n"]})
>>> valid({"n": 2}), valid({"n": 0}), valid({"n": True}), valid({})
(True, False, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from numbers import Number
from typing import Any

from jsonschema import Draft202012Validator

Schema = dict[str, Any]
Valid = Callable[[Any], bool]

#: Keywords that only describe: jsonschema asserts nothing with them (``format`` neither,
#: without a format checker, as :mod:`companion.judge.reading` builds its validators).
ANNOTATIONS = frozenset(
    {"description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "format"}
)
#: Keywords compiled here; a node with any other one is left to jsonschema whole.
COMPILED = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "additionalProperties",
        "required",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "oneOf",
        "anyOf",
        "allOf",
        "not",
        "if",
        "then",
        "else",
    }
)
#: Keywords that point elsewhere in a document: a node cut out of it cannot be checked alone.
_REFERENCES = frozenset({"$ref", "$dynamicRef", "$id", "$anchor", "$dynamicAnchor", "$defs"})

#: Each JSON type as jsonschema's Draft 2020-12 type checker tells it (``5.0`` is an integer).
_TYPES = {
    "object": "isinstance(x, dict)",
    "array": "isinstance(x, list)",
    "string": "isinstance(x, str)",
    "integer": "(isinstance(x, int) and not isinstance(x, bool) or isinstance(x, float) and x.is_integer())",
    "number": "(isinstance(x, Number) and not isinstance(x, bool))",
    "boolean": "isinstance(x, bool)",
    "null": "x is None",
}
#: The keywords that only look at one type of value, by that type.
_ONLY = {
    "object": ("properties", "additionalProperties", "required", "propertyNames", "minProperties", "maxProperties"),
    "array": ("items", "minItems", "maxItems", "uniqueItems"),
    "string": ("pattern", "minLength", "maxLength"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"),
}


def _always(x: Any) -> bool:
    return True


def _never(x: Any) -> bool:
    return False


def compile_schema(schema: Any) -> Valid:
    """The verdict of ``Draft202012Validator(schema).is_valid`` as a plain function."""
    if schema is True:
        return _always
    if schema is False:
        return _never
    if not isinstance(schema, dict):
        raise TypeError(f"not a schema: {schema!r}")
    if _REFERENCES & schema.keys():
        raise ValueError(f"a compiled schema cannot refer elsewhere: {sorted(_REFERENCES & schema.keys())}")
    if not schema.keys() <= COMPILED | ANNOTATIONS:
        return Draft202012Validator(schema).is_valid
    return _Node(schema).function()


class _Node:
    """One schema node being compiled: the conditions of its expression and the names they use."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.names: dict[str, Any] = {"Number": Number}

    def name(self, value: Any) -> str:
        """A name for ``value`` in the expression."""
        key = f"v{len(self.names)}"
        self.names[key] = value
        return key

    def function(self) -> Valid:
        schema = self.schema
        conditions: list[str] = []
        types = schema.get("type")
        single = types if isinstance(types, str) else None
        if single is not None:
            conditions.append(_TYPES[single])
        elif types is not None:
            conditions.append("(" + " or ".join(_TYPES[t] for t in types) + ")")
        if "const" in schema:
            conditions.append(f"{self.name(_enum([schema['const']]))}(x)")
        if "enum" in schema:
            conditions.append(f"{self.name(_enum(list(schema['enum'])))}(x)")
        for kind, build in (
            ("object", self._object),
            ("array", self._array),
            ("string", self._string),
            ("number", self._number),
        ):
            if not any(keyword in schema for keyword in _ONLY[kind]):
                continue
            inner = " and ".join(build())
            # A keyword of one type holds for any value of another type.
            if single == kind or (kind == "number" and single == "integer"):
                conditions.append(inner)
            else:
                conditions.append(f"(not {_TYPES[kind]} or ({inner}))")
        conditions.extend(self._applicators())
        if not conditions:
            return _always
        # The text is ours: keywords and names made here, never a value from a request.
        valid: Valid = eval(f"lambda x: {' and '.join(conditions)}", self.names)
        return valid

    def _bounds(self, *bounds: tuple[str, str]) -> list[str]:
        """Each ``(keyword, left side)`` the node has, as ``left side`` and its value."""
        return [f"{left} {self.name(self.schema[keyword])}" for keyword, left in bounds if keyword in self.schema]

    def _object(self) -> list[str]:
        schema = self.schema
        found = [f"{k!r} in x" for k in schema.get("required", ())]
        if "properties" in schema or "additionalProperties" in schema:
            known = {k: compile_schema(v) for k, v in schema.get("properties", {}).items()}
            extra = schema.get("additionalProperties", True)
            if known or extra is not True:
                found.append(f"{self.name(_properties(known, None if extra is True else compile_schema(extra)))}(x)")
        if "propertyNames" in schema:
            found.append(f"all({self.name(compile_schema(schema['propertyNames']))}(k) for k in x)")
        found += self._bounds(("minProperties", "len(x) >="), ("maxProperties", "len(x) <="))
        return found or ["True"]

    def _array(self) -> list[str]:
        schema = self.schema
        found = self._bounds(("minItems", "len(x) >="), ("maxItems", "len(x) <="))
        if "items" in schema:
            found.append(f"all({self.name(compile_schema(schema['items']))}(i) for i in x)")
        if schema.get("uniqueItems"):
            found.append(f"{self.name(_unique)}(x)")
        return found or ["True"]

    def _string(self) -> list[str]:
        found = self._bounds(("minLength", "len(x) >="), ("maxLength", "len(x) <="))
        if "pattern" in self.schema:
            found.append(f"{self.name(re.compile(self.schema['pattern']).search)}(x) is not None")
        return found or ["True"]

    def _number(self) -> list[str]:
        return self._bounds(
            ("minimum", "x >="), ("maximum", "x <="), ("exclusiveMinimum", "x >"), ("exclusiveMaximum", "x <")
        )

    def _applicators(self) -> list[str]:
        schema, found = self.schema, []
        for sub in schema.get("allOf", ()):
            found.append(f"{self.name(compile_schema(sub))}(x)")
        if "anyOf" in schema:
            found.append("(" + " or ".join(f"{self.name(compile_schema(s))}(x)" for s in schema["anyOf"]) + ")")
        if "oneOf" in schema:
            found.append(f"{self.name(_one_of([compile_schema(s) for s in schema['oneOf']]))}(x)")
        if "not" in schema:
            found.append(f"not {self.name(compile_schema(schema['not']))}(x)")
        if "if" in schema:
            condition = self.name(compile_schema(schema["if"]))
            then = self.name(compile_schema(schema.get("then", True)))
            otherwise = self.name(compile_schema(schema.get("else", True)))
            found.append(f"({then}(x) if {condition}(x) else {otherwise}(x))")
        return found


def _properties(known: dict[str, Valid], others: Valid | None) -> Valid:
    """``properties`` (and ``additionalProperties``, when it asserts anything) of an object."""

    def valid(x: dict[str, Any]) -> bool:
        for key, value in x.items():
            check = known.get(key, others)
            if check is not None and not check(value):
                return False
        return True

    return valid


def _one_of(choices: list[Valid]) -> Valid:
    def valid(x: Any) -> bool:
        found = False
        for choice in choices:
            if choice(x):
                if found:
                    return False
                found = True
        return found

    return valid


def _enum(members: list[Any]) -> Valid:
    """``enum`` with jsonschema's equality (``True`` is not ``1``; ``1`` is ``1.0``)."""
    exact = Draft202012Validator({"enum": members}).is_valid
    if any(isinstance(m, dict | list) for m in members):
        return exact
    strings = frozenset(m for m in members if isinstance(m, str))
    numbers = frozenset(m for m in members if isinstance(m, int | float) and not isinstance(m, bool))
    singles = [m for m in members if m is None or isinstance(m, bool)]

    def valid(x: Any) -> bool:
        if isinstance(x, str):
            return x in strings
        if x is None or isinstance(x, bool):
            return any(x is m for m in singles)
        if type(x) is int or type(x) is float:
            return x in numbers
        return exact(x)

    return valid


_unique_exact = Draft202012Validator({"uniqueItems": True}).is_valid


def _unique(x: list[Any]) -> bool:
    """``uniqueItems``: texts compared as texts; anything else as jsonschema compares it."""
    if all(type(i) is str for i in x):
        return len(set(x)) == len(x)
    return _unique_exact(x)
