"""The JSON Schemas of the rules API: one place for the shape of every request and answer.

:func:`companion.judge.reading.check_schema` validates each request body against
``REQUESTS[game][endpoint]`` before the game's adapter runs, and
:mod:`companion.api.openapi` publishes these very objects, so that the document and
the validation cannot drift apart.  The schemas guard shapes, types, the bounds the
engine enforces (player counts, card notation, number ranges) and the conditions
between fields it checks that a schema can state (an option that needs another, the
cards of the deck the rules make, an event and its option: "what the engine says and
accepts" in :mod:`~companion.judge.schemas.common`).  The engine still decides every rule: a body the schemas allow is
judged, or refused for a relation JSON Schema cannot state (a name that is not one of
the players, a card the deck does not hold twice across fields…), never for a condition
the schemas could have said (tests/api/test_schema_exact.py).

Objects stay open to fields they do not name (shared/API.md: "add fields freely"),
except where a name is itself a choice: ``rules`` options, president ``events``.

Each schema node may carry the sentences that explain a violation to a player
(:func:`explained`); :mod:`companion.judge.reading` looks them up by node.

The package, by concept:

- :mod:`~companion.judge.schemas.messages` — :func:`explained`, :func:`message_for`: the
  sentences attached to schema nodes;
- :mod:`~companion.judge.schemas.cards` — the card notation as patterns, card lists, the
  cards of a deck;
- :mod:`~companion.judge.schemas.common` — players, names, numbers, ``lang``, a request's
  frame, and the tools of conditions between fields;
- :mod:`~companion.judge.schemas.president_rules`, ``president_decks``, ``president_events``
  and :mod:`~companion.judge.schemas.president` — Président's and Piketty's options, the
  cards of their decks, an outcome's events, and their requests;
- :mod:`~companion.judge.schemas.whist_tarot`, :mod:`~companion.judge.schemas.crapouille` —
  the other games' requests;
- :mod:`~companion.judge.schemas.requests` (:data:`REQUESTS`) and
  :mod:`~companion.judge.schemas.answers` (:data:`RESPONSES`, :data:`ERROR`).

>>> sorted(REQUESTS)
['crapouille', 'piketty', 'president', 'whist-tarot']
>>> REQUESTS["whist-tarot"]["check"]["properties"]["state"]["properties"]["cards"]
{'type': 'integer', 'minimum': 1, 'maximum': 5, 'description': 'Cards dealt to each player this deal.'}
"""

from __future__ import annotations

from companion.judge.schemas.answers import ERROR, RESPONSES
from companion.judge.schemas.cards import SPACES
from companion.judge.schemas.common import GAMES, LANG
from companion.judge.schemas.messages import Located, Message, Schema, message_for
from companion.judge.schemas.requests import REQUESTS

#: What other modules use: the schemas, the games, and what explains a refusal.
__all__ = ["ERROR", "GAMES", "LANG", "REQUESTS", "RESPONSES", "SPACES", "Located", "Message", "Schema", "message_for"]
