"""The judge: a move or a round, as the JSON of shared/API.md, judged by the engine.

Shared by the rules API (:mod:`companion.api`, its HTTP face) and the referee's
screens (:mod:`companion.referee`), which never import each other.  It knows no game:
each game of the API is a :class:`~companion.judge.game.ApiGame` that its kind of game
gives (``GameKind.api``), found by id in :func:`companion.games.judging.api_games`.

- :mod:`companion.judge.game` — :class:`~companion.judge.game.ApiGame`, what a game gives
  the API, and :class:`~companion.judge.game.Judge`, THE check (schema, adapter, engine)
  with ``said``, the verdict in the table's words, among the games it is given;
- :mod:`companion.judge.reading` — a request body read and checked against a schema;
- :mod:`companion.judge.schemas` — the building blocks of the request and answer schemas;
- :mod:`companion.judge.fields` — reading JSON fields, for the games' adapters (JSON <->
  engine objects); :mod:`companion.judge.narrate` — the words the games' narrations share.

Above the engine (:mod:`companion.rules`), below the games (:mod:`companion.games`);
no route, no page.
"""
