"""Reading an imported file (:func:`parse_file`). A file is a stranger: it is checked
to its last field against what the app itself writes — here its text, its numbers, its
depth and its shape; the rest by :mod:`companion.groups.transfer.checking`. It is
refused (:class:`Refused`), with a sentence saying why (and where in the file), and
nothing is created, when it is:

- too large (more than :data:`MAX_IMPORT_BYTES`), not UTF-8 JSON, or holds a key
  twice, text a database cannot keep (NUL, control characters, lone surrogates), a
  number the app never writes (a fraction, ``1e400``, ``NaN``, a whole number of more
  than 15 digits) or nesting deeper than :data:`MAX_DEPTH`;
- foreign: not a Companion export (its ``format``), or of another ``version``;
- of the wrong shape (:data:`SCHEMA`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.forms import storable
from companion.groups.transfer.schema import _VALIDATOR, FORMAT, VERSION
from companion.i18n import gettext as _

#: The largest file an import reads: 8 MiB, some 7,000 rounds of Président (the
#: largest states, 1.2 kB each) or 24,000 of la crapouille and whist at small tables.
#: Checking a full file takes a few seconds (every round is scored again):
#: ``benchmarks/import_big.py``.
MAX_IMPORT_BYTES = 8 * 1024 * 1024
#: The deepest a list or object of a file may lie (the file itself is at 0): an export's
#: deepest is 8 (a title of a state a change of a game keeps:
#: ``games[0].changes[0].data.result.titles[0]``).
MAX_DEPTH = 12


class Refused(Exception):
    """A file refused by the import, with the sentence that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _Object(dict[str, Any]):
    """A JSON object as parsed, remembering the first key given twice (the slow parse,
    which says where a key is given twice)."""

    __slots__ = ("duplicate",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.duplicate: str | None = None
        for key, value in pairs:
            if key in self and self.duplicate is None:
                self.duplicate = key
            self[key] = value


class _Duplicate(Exception):
    """A key given twice: the fast parse stops there, and the slow one says where."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as parsed (the fast parse): a plain dict, unless a key is given twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Duplicate
    return obj


class _Number:
    """A number Companion never writes — a fraction, an exponent, ``NaN``, ``Infinity``,
    or a whole number of more than 15 digits (``1e400`` would be read as infinity, and a
    4,000-digit integer kept) —, held as its text until the check says where it is."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _int(text: str) -> int | _Number:
    """A whole number of the file: up to 15 digits (far above any id, version or score
    the app writes, and exact in every JSON reader), else refused by the check."""
    if len(text) <= 15 or (len(text) == 16 and text[0] == "-"):
        return int(text)
    return _Number(text)


def _loads(text: str, pairs: Any) -> Any:
    return json.loads(text, object_pairs_hook=pairs, parse_float=_Number, parse_int=_int, parse_constant=_Number)


def _path(parts: list[str | int]) -> str:
    """``["games", 2, "rounds", 0]`` → ``games[2].rounds[0]``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "/"


def _malformed(where: str) -> Refused:
    return Refused(_("This file is not a well-formed Companion export: %(where)s is not as expected.", where=where))


def _too_deep(where: str | None = None) -> Refused:
    if where is None:
        return Refused(_("This file nests its data deeper than an export does."))
    return Refused(_("This file nests its data deeper than an export does, at %(where)s.", where=where))


def _stranger(where: str) -> Refused:
    """An id that names no player of the file (a player of another group, or none)."""
    return Refused(_("This file names a player who is not in it, at %(where)s.", where=where))


#: What may hide a text a database cannot keep in a file's JSON text: an escaped control
#: character or surrogate, or a raw DEL (other control characters cannot stand raw in
#: JSON). A file without any is checked without looking at each of its texts.
_MAYBE_UNSTORABLE = re.compile(r"\\u00[01][0-9a-fA-F]|\\u007[fF]|\\u[dD][89a-fA-F]|\x7f")


def _suspect(document: dict[str, Any], texts: bool) -> bool:
    """Whether :func:`_check_values` must look (fast: no path kept): a list or object
    nested deeper than :data:`MAX_DEPTH`, a number Companion never writes, or, when
    ``texts``, a text a database cannot keep."""
    level: list[Any] = [document]
    depth = 0
    while level:
        if depth > MAX_DEPTH:
            return True
        below: list[Any] = []
        for item in level:
            if type(item) is dict:
                if texts and not all(storable(key) for key in item):
                    return True
                children = item.values()
            else:
                children = item
            for child in children:
                kind = type(child)
                if kind is dict or kind is list:
                    below.append(child)
                elif kind is _Number or (texts and kind is str and not storable(child)):
                    return True
        level = below
        depth += 1
    return False


def _check_values(value: Any) -> None:
    """Refuse, naming where, a key given twice, a text a database cannot keep, a number
    Companion never writes, or a list or object nested too deep."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if not storable(item):
                raise Refused(_("This file holds a character that cannot be kept, at %(where)s.", where=_path(where)))
        elif isinstance(item, _Number):
            shown = item.text if len(item.text) <= 20 else item.text[:20] + "…"
            raise Refused(
                _(
                    "This file holds a number that Companion never writes (%(number)s), at %(where)s.",
                    number=shown,
                    where=_path(where),
                )
            )
        elif isinstance(item, dict | list) and len(where) > MAX_DEPTH:
            raise _too_deep(_path(where))
        elif isinstance(item, dict):
            for key in item:
                if not storable(key):
                    raise Refused(
                        _("This file holds a character that cannot be kept, at %(where)s.", where=_path(where))
                    )
            duplicate = getattr(item, "duplicate", None)
            if duplicate is not None:
                raise _malformed(_path([*where, duplicate]))
            stack.extend((inner, [*where, key]) for key, inner in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((inner, [*where, i]) for i, inner in reversed(list(enumerate(item))))


def _shown(value: Any) -> str:
    """A value of the file, briefly, as JSON (a number it should not hold as its text)."""
    return json.dumps(value, default=lambda v: getattr(v, "text", None))[:20]


def parse_file(data: bytes) -> dict[str, Any]:
    """The JSON document of an export file, checked for its marker, its text, its
    numbers, its depth and its shape; :class:`Refused` otherwise.

    Fast for a sound file (the largest in about a second): parsed into plain dicts, its
    texts looked at only when the file escapes a character that may be refused, its
    shape checked by jsonschema; a file found wrong is looked at again, slowly, to
    say where."""
    if len(data) > MAX_IMPORT_BYTES:
        raise Refused(_too_big())
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(_("This file is not a Companion export: it is not JSON text (UTF-8).")) from None
    slow = False
    try:
        try:
            document = _loads(text, _pairs)
        except _Duplicate:
            document, slow = _loads(text, _Object), True  # to say where
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        raise Refused(_("This file is not a Companion export: it is not valid JSON.")) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Refused(_("This file is not a Companion group export."))
    if document.get("version") != VERSION:
        raise Refused(
            _(
                "This export was made by another version of Companion (format %(found)s); "
                "this one reads format %(version)d.",
                found=_shown(document.get("version")),
                version=VERSION,
            )
        )
    if slow or _suspect(document, texts=_MAYBE_UNSTORABLE.search(text) is not None):
        _check_values(document)
    error = next(iter(_VALIDATOR.iter_errors(document)), None)
    if error is not None:
        raise _malformed(_path(list(error.absolute_path)))
    return document


def _too_big() -> str:
    return _(
        "This file is too large: an export holds at most %(size)d MB.",
        size=MAX_IMPORT_BYTES // (1024 * 1024),
    )
