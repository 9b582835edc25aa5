"""Reading a request body of the rules API, before any adapter sees it.

In order: the body must be sent as JSON (else 415), fit in ``MAX_CONTENT_LENGTH``
even when it comes chunked without a length (else 413), be UTF-8 JSON without
``NaN``/``Infinity`` and without a key twice in one object, hold no text a database
cannot store (NUL, lone surrogates), and match its game's request schema
(:class:`SchemaCheck`).  Each refusal is a :class:`BodyError`: a status, a
sentence in French and English, and the path of the field at fault.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from companion.judge.schemas import Located, Message, Schema, message_for
from companion.rules.i18n import LANGS, RulesError, Text, number


class BodyError(RulesError):
    """A body refused before the adapter: ``status`` (400, 411 or 415), the sentence, the field, and
    the body's language when it could be read (``None``: not known, French)."""

    def __init__(self, text: Text, field: str | None, status: int = 400, lang: str | None = None) -> None:
        super().__init__(text, field)
        self.status = status
        self.lang = lang


class _Object(dict[str, Any]):
    """A JSON object that was given a key twice, remembering the first such key (the
    last value given wins, as in a plain dict); other objects are plain dicts."""

    __slots__ = ("duplicate",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.duplicate: str | None = None
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                self.duplicate = key
                break
            seen.add(key)


def _number(text: str) -> int | float:
    """A JSON number with a fraction or exponent: a whole one (``5.0``, ``1e2``) is the integer
    JSON Schema says it is; anything else stays a float."""
    try:
        value = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the JSON scanner only passes numbers
        return float(text)
    # adjusted() bounds the size of the integer built: 1e999999999 must not become one.
    if value.is_finite() and value.adjusted() < 30 and value == value.to_integral_value():
        return int(value)
    return float(text)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes) -> Any:
    """The JSON value of ``data`` (strict UTF-8, no NaN/Infinity); an object given a key twice
    is an :class:`_Object`.

    Raises :class:`BodyError` when ``data`` is not JSON.

    >>> parse_json(b'{"cards": 5.0, "bid": 1.5}')
    {'cards': 5, 'bid': 1.5}
    >>> parse_json(b'{"a": NaN}')
    Traceback (most recent call last):
    ...
    companion.judge.reading.BodyError: Le corps de la requête n’est pas du JSON valide.
    """
    return _parse(data)[0]


def _parse(data: bytes) -> tuple[Any, bool]:
    """:func:`parse_json`, and whether :func:`text_problem` may find anything in the value.

    Only an escape (``\\u0000``, ``\\ud800``) puts a NUL or a lone surrogate in JSON text
    (raw control characters are not JSON, and strict UTF-8 holds no surrogate), and a
    key given twice is seen while parsing: a body with neither is not walked again.
    """
    not_json = Text("Le corps de la requête n’est pas du JSON valide.", "The body is not valid JSON.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyError(
            Text("Le corps de la requête doit être du JSON en UTF-8.", "The body must be JSON in UTF-8."), ""
        ) from None
    _parsing.twice = False
    try:
        if text.startswith("\ufeff"):  # as json.loads: a byte order mark is not JSON
            raise ValueError("Unexpected UTF-8 BOM")
        value = _DECODER.decode(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError; so is a 5000-digit integer
        raise BodyError(not_json, "") from None
    return value, _parsing.twice or "\\u" in text


#: ``twice``: whether the text this thread is parsing gave an object a key twice.
_parsing = threading.local()


def _an_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    _parsing.twice = True
    return _Object(pairs)


#: Built once (json.loads builds a decoder at every call given a hook).
_DECODER = json.JSONDecoder(object_pairs_hook=_an_object, parse_float=_number, parse_constant=_no_constant)


def read_body(request: Request) -> dict[str, Any]:
    """The JSON object a rules API request carries, or :class:`BodyError`.

    Raises :class:`~werkzeug.exceptions.RequestEntityTooLarge` (413) for a body past
    ``MAX_CONTENT_LENGTH``, with or without a ``Content-Length``.
    """
    data = _data(request)
    if not request.is_json:
        # The language is in the body; read it if we can, French otherwise.
        try:
            lang = _lang_of(parse_json(data))
        except BodyError:
            lang = "fr"
        raise BodyError(
            Text(
                "Le corps de la requête doit être du JSON (Content-Type: application/json).",
                "The body must be JSON (Content-Type: application/json).",
            ),
            None,
            415,
            lang,
        )
    body, suspect = _parse(data) if data else (None, False)
    if not isinstance(body, dict):
        raise BodyError(Text("Le corps de la requête doit être un objet JSON.", "The body must be a JSON object."), "")
    problem = text_problem(body) if suspect else None
    if problem is not None:
        raise BodyError(*problem, lang=_lang_of(body))
    return body


def _data(request: Request) -> bytes:
    if (
        request.content_length is None
        and "chunked" in request.headers.get("Transfer-Encoding", "").lower()
        and "wsgi.input_terminated" not in request.environ
    ):
        # Werkzeug reads such a body as empty: the server did not say where it ends.
        raise BodyError(
            Text(
                "Ce serveur ne lit pas un corps envoyé par morceaux : indiquez sa longueur (Content-Length).",
                "This server cannot read a chunked body: send its length (Content-Length).",
            ),
            None,
            411,
        )
    data = request.get_data(cache=True)
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(data) >= limit:
        # A body without a length (chunked) is cut at the limit by Werkzeug, silently: read
        # one byte more from the server's stream to tell a body of exactly the limit from
        # a longer one, which is refused as a sized one would be.
        stream = request.environ.get("wsgi.input")
        if stream is not None and stream.read(1):
            raise RequestEntityTooLarge()
    return data


def _lang_of(body: Any) -> str:
    if isinstance(body, dict) and body.get("lang") in LANGS:
        return str(body["lang"])
    return "fr"


def _path(parts: Iterator[str | int] | list[str | int]) -> str:
    """``["state", "trick", 2, "cards"]`` → ``state.trick[2].cards``."""
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path


def text_problem(value: Any) -> tuple[Text, str] | None:
    """The first key given twice, or text a database cannot store, in ``value``: (sentence, path).

    PostgreSQL refuses NUL characters in text and neither database can encode half of a
    UTF-16 surrogate pair, so such text is refused here, wherever it is.

    >>> text_problem({"players": ["Ann", "B\\u0000b"]})[1]
    'players[1]'
    >>> text_problem(parse_json(b'{"move": {"card": "9h", "card": "9s"}}'))[1]
    'move.card'
    """
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:  # iterative: a body may nest deeper than Python's recursion allows
        item, where = stack.pop()
        if isinstance(item, str):
            problem = _bad_text(item)
            if problem is not None:
                return problem, _path(where)
        elif isinstance(item, dict):
            for key in item:
                problem = _bad_text(key)
                if problem is not None:
                    # The path names the key escaped: the answer must not carry the bad text.
                    return problem, _path([*where, json.dumps(key)[1:-1]])
            duplicate = getattr(item, "duplicate", None)
            if duplicate is not None:
                return (
                    Text(f"La clé « {duplicate} » figure deux fois.", f"The key '{duplicate}' is given twice."),
                    _path([*where, duplicate]),
                )
            stack.extend((inner, [*where, key]) for key, inner in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((inner, [*where, i]) for i, inner in reversed(list(enumerate(item))))
    return None


def _bad_text(text: str) -> Text | None:
    if "\x00" in text:
        return Text("Un texte ne peut pas contenir le caractère NUL (\\u0000).", "Text cannot hold a NUL (\\u0000).")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return Text(
            "Un texte contient une moitié de paire de substitution UTF-16 (\\ud800 à \\udfff) seule.",
            "Text holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) alone.",
        )
    return None


# -- the schemas -------------------------------------------------------------------------


class SchemaCheck:
    """One request schema, checked by jsonschema's validator of it, built once; a body it
    refuses is explained by its first error.

    >>> check = SchemaCheck({"type": "object", "properties": {"points": {"type": "integer",
    ...                      "minimum": 0, "maximum": 779}}})
    >>> check({"points": 12})
    >>> check({"points": -1})
    Traceback (most recent call last):
    ...
    companion.judge.reading.BodyError: Un nombre entier de 0 à 779 est attendu.
    """

    def __init__(self, schema: Schema) -> None:
        self._validator = Draft202012Validator(schema)

    def __call__(self, body: dict[str, Any]) -> None:
        """Raise :class:`BodyError` (400) if ``body`` does not match the schema.

        The validator's first error names the field and the sentence.
        """
        error = next(iter(self._validator.iter_errors(body)), None)
        if error is not None:
            text, field = explain(error)
            raise BodyError(text, field)


def _chosen(error: ValidationError) -> ValidationError | None:
    """For a failed ``oneOf``/``anyOf``: the first error of the one alternative the value was
    meant for (its type fits and it names nothing missing), if exactly one was."""
    branches: dict[int, list[ValidationError]] = {}
    for inner in error.context or ():
        branches.setdefault(int(inner.relative_schema_path[0]), []).append(inner)
    # An alternative is not the one meant when the value has the wrong type for it, lacks
    # what it requires, or has a flag set the other way (``"pass": false``).
    meant = [
        errors
        for errors in branches.values()
        if not any(
            e.validator == "const" or (not e.relative_path and e.validator in ("type", "required")) for e in errors
        )
    ]
    if len(meant) == 1:
        return meant[0][0]
    return None


def explain(error: ValidationError) -> tuple[Text, str]:
    """A player's sentence for a schema violation, and the path of the field at fault."""
    while error.validator in ("oneOf", "anyOf"):
        own = message_for(error.schema, str(error.validator))
        inner = _chosen(error)
        if inner is None:
            found = own(error.instance) if callable(own) else own
            if isinstance(found, Located):  # a condition between fields, worded by the engine
                return found.text, found.field
            return _sentence(found, error.instance, _generic(error)), _path(list(error.absolute_path))
        error = inner
    where: list[str | int] = list(error.absolute_path)
    keyword = str(error.validator)
    schema = error.schema
    if "propertyNames" in error.absolute_schema_path:
        # the key itself is at fault: point at it
        where.append(error.instance)
    if keyword == "required":
        missing = next(k for k in error.validator_value if k not in error.instance)
        where.append(missing)
        return Text(f"Il manque « {missing} ».", f"'{missing}' is missing."), _path(where)
    if keyword == "additionalProperties":
        known = set(schema.get("properties", {}))
        extra = next(k for k in error.instance if k not in known)
        where.append(extra)
        own = message_for(schema, keyword)
        unknown = Text(f"Champ inconnu : « {extra} ».", f"Unknown field: '{extra}'.")
        return _sentence(own, extra, unknown, where), _path(where)
    own = message_for(schema, keyword)
    return _sentence(own, error.instance, _generic(error), where), _path(where)


def _sentence(own: Message | None, value: Any, default: Text, where: list[str | int] | None = None) -> Text:
    """``own`` (a node's sentence, maybe depending on ``value``) or ``default``; a sentence that
    points below the value extends ``where``."""
    if own is None:
        return default
    if isinstance(own, Text):
        return own
    found = own(value)
    if isinstance(found, Located):
        return found.text
    if isinstance(found, tuple):
        text, below = found
        if where is not None:
            where.append(int(below.strip("[]")))
        return text
    return found


def _generic(error: ValidationError) -> Text:
    """The sentence of a violation no node explains, from its keyword."""
    keyword, schema = error.validator, error.schema
    if keyword == "type":
        return _expected_type(error.validator_value)
    if keyword in ("minimum", "maximum"):
        low, high = (_number(schema.get(bound)) for bound in ("minimum", "maximum"))
        if low is not None and high is not None:
            return Text(
                f"Un nombre entier de {low} à {high} est attendu.", f"A whole number from {low} to {high} is expected."
            )
        if low is not None:
            return Text(
                f"Un nombre entier d’au moins {low} est attendu.", f"A whole number of at least {low} is expected."
            )
        return Text(f"Un nombre entier d’au plus {high} est attendu.", f"A whole number of at most {high} is expected.")
    if keyword in ("minItems", "maxItems", "maxProperties"):
        return Text("Le nombre d’éléments n’est pas possible ici.", "That many items are not possible here.")
    if keyword == "uniqueItems":
        return Text("Une même valeur figure deux fois.", "A value is listed twice.")
    if keyword in ("enum", "const"):
        allowed = schema.get("enum", [schema.get("const")])
        shown = ", ".join(json.dumps(v, ensure_ascii=False) for v in allowed)
        return Text(f"Valeur impossible ; valeurs possibles : {shown}.", f"Impossible value; possible values: {shown}.")
    return Text("Cette valeur n’a pas la forme attendue.", "This value does not have the expected form.")


def _number(value: object) -> object:
    """A schema's bound for a sentence: a negative whole number with the minus sign (−1)."""
    return number(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _expected_type(types: str | list[str]) -> Text:
    names = {
        "integer": ("un nombre entier", "a whole number"),
        "boolean": ("true ou false", "true or false"),
        "string": ("un texte", "a text"),
        "object": ("un objet JSON", "a JSON object"),
        "array": ("une liste", "a list"),
        "null": ("null", "null"),
        "number": ("un nombre", "a number"),
    }
    wanted = [types] if isinstance(types, str) else types
    fr = " ou ".join(names[t][0] for t in wanted)
    en = " or ".join(names[t][1] for t in wanted)
    return Text(f"Il faut ici {fr}.", f"Expected here: {en}.")
