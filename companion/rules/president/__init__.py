"""Le Président / Trou du cul (seed 000) and its variante Piketty (seed 001): the play.

shared/RULES.md §1 and §2.  A :class:`Rules` holds the group's options (named presets
bundle some); a :class:`Table` is the public state of a manche (players, who is out,
the current trick) and judges a :class:`Play` with :meth:`Table.check`, which returns
a :class:`Verdict` and never raises for an illegal move.

The package, by concept (each module imports only those above it):

- :mod:`~companion.rules.president.options` — :class:`Rules`, the presets, the deck
  and the order of ranks (with the strength of a rank and of a Franckie).
- :mod:`~companion.rules.president.moves` — a :class:`Play`, its :class:`Verdict`,
  the ids of refusals (:class:`RuleId`) and of effects (:class:`Effect`), moves read
  from the API's JSON.
- :mod:`~companion.rules.president.combinations` — what cards form
  (:func:`combination`), the candidates of a hand, and how a refusal names them.
- :mod:`~companion.rules.president.trick` — the current trick: what may go on it and
  what a move does to it (the state and the play that :class:`Table` inherits).
- :mod:`~companion.rules.president.table` — :class:`Table`: built from the API's state
  and written back, moves checked and applied, legal plays listed.

>>> rules = Rules.from_options({})
>>> table = Table.start(["Ann", "Bob", "Cid", "Dan"], rules).apply(Play.parse("Ann", "9h"))
>>> table.check(Play.parse("Bob", "8c")).reason.fr
'Il faut jouer plus haut que 9.'
>>> table.check(Play.parse("Bob", "10c")).legal
True
"""

from __future__ import annotations

from companion.rules.president.combinations import Combination, Kind, combination
from companion.rules.president.moves import Effect, IllegalPlayError, Play, RuleId, Verdict
from companion.rules.president.options import (
    DECKS,
    GAMES,
    JOKERS,
    PRESET_OPTIONS,
    PRESETS,
    REVOLUTION_SIZES,
    TITLE_NAMINGS,
    Rules,
    rank_value,
)
from companion.rules.president.table import Table

__all__ = [
    "DECKS",
    "GAMES",
    "JOKERS",
    "PRESETS",
    "PRESET_OPTIONS",
    "REVOLUTION_SIZES",
    "TITLE_NAMINGS",
    "Combination",
    "Effect",
    "IllegalPlayError",
    "Kind",
    "Play",
    "RuleId",
    "Rules",
    "Table",
    "Verdict",
    "combination",
    "rank_value",
]
