"""The referee at the table: « Est-ce que je peux jouer ça ? » for every game.

- :mod:`companion.referee.check` — the quick check: what lies on the table, who plays
  what, and the engine's verdict (through ``/api/v1/check`` with JavaScript, through a
  page route without it).
- :mod:`companion.referee.live` — live play-by-play of a manche of a game in progress,
  stored on the server, each move checked by the engine.
- :mod:`companion.referee.house_rules` — a game's house rules in plain words, and a
  page of the rules as Companion applies them, per kind of game.

Every move is judged by :func:`companion.games.judging.judge` (the layer below, shared
with the rules API), which also says what a verdict means at the table, in the table's
words.  Nothing here knows a rule: the engine decides, these pages ask it.
"""

from flask import Blueprint

bp = Blueprint("referee", __name__)

from companion.referee import check, house_rules, live  # noqa: E402,F401
