"""The building blocks of the rules API's JSON Schemas: one place for the shapes every game shares.

Each game of the API (:class:`companion.judge.game.ApiGame`) builds its request and answer
schemas from these blocks; :mod:`companion.judge.reading` validates each request body
against its game's request schema before the game's adapter runs, and
:mod:`companion.api.openapi` publishes these very objects, so that the document and the
validation cannot drift apart.  The schemas guard shapes, types, the bounds the engine
enforces (player counts, card notation, number ranges) and the conditions between fields
it checks that a schema can state (an option that needs another, the cards of the deck
the rules make, an event and its option: "what the engine says and accepts" in
:mod:`~companion.judge.schemas.common`).  The engine still decides every rule: a body the
schemas allow is judged, or refused for a relation JSON Schema cannot state (a name that
is not one of the players, a card the deck does not hold twice across fields…), never for
a condition the schemas could have said (tests/api/test_schema_exact.py).

Objects stay open to fields they do not name (shared/API.md: "add fields freely"),
except where a name is itself a choice: ``rules`` options, a game's ``events``.

Each schema node may carry the sentences that explain a violation to a player
(:func:`explained`); :mod:`companion.judge.reading` looks them up by node.

The package, by concept:

- :mod:`~companion.judge.schemas.messages` — :func:`explained`, :func:`message_for`: the
  sentences attached to schema nodes;
- :mod:`~companion.judge.schemas.cards` — the card notation as patterns, a game's
  :class:`~companion.judge.schemas.cards.Notation`, card lists, the cards of a deck;
- :mod:`~companion.judge.schemas.common` — players, names, numbers, ``lang``, a request's
  frame, and the tools of conditions between fields;
- :mod:`~companion.judge.schemas.answers` — what every check answer holds, and
  :data:`ERROR`.

>>> LANG["enum"]
['fr', 'en']
"""

from __future__ import annotations

from companion.judge.schemas.answers import ERROR
from companion.judge.schemas.cards import SPACES
from companion.judge.schemas.common import LANG
from companion.judge.schemas.messages import Located, Message, Schema, explained, message_for

#: What other modules use: the shared schemas and what explains a refusal.
__all__ = ["ERROR", "LANG", "SPACES", "Located", "Message", "Schema", "explained", "message_for"]
