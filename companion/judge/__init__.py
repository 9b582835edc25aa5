"""The judge: a move or a round, as the JSON of shared/API.md, judged by the engine.

Shared by the rules API (:mod:`companion.api`, its HTTP face) and the referee's
screens (:mod:`companion.referee`), which never import each other:

- :mod:`companion.judge.narrate` — :func:`~companion.judge.narrate.judge`, THE check
  (schema, adapter, engine) with ``said``, the verdict in the table's words;
- :mod:`companion.judge.reading` — a request body read and checked against its schema;
- :mod:`companion.judge.schemas`, :mod:`companion.judge.compiled` — the request and
  answer schemas, and the same compiled into plain Python tests;
- :mod:`companion.judge.adapters` — which adapter module answers which game, one
  module per game (``president``, ``president_outcome``, ``whist_tarot``,
  ``crapouille``; ``fields`` for what they share): JSON <-> engine objects.

Above the engine (:mod:`companion.rules`); no route, no page.
"""
