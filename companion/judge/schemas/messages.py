"""Schema nodes and the sentences that explain a value they refuse (:func:`explained`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from companion.rules.i18n import Text

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
