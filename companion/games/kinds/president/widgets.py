"""Le Président's widgets, from the engine: what the card picker script needs for a
card draw (``static/picker.js``), shared by the manche form, the live screen and the
quick check.
"""

from __future__ import annotations

from typing import Any

from companion.games.card_picker import picker_data
from companion.rules.cards import RANKS_BY_PIPS
from companion.rules.president import Rules


def draw_picker(lang: str, rules: Rules, n_players: int) -> dict[str, Any]:
    """What the card picker script needs for a draw (static/picker.js): the ranks and
    suits of this deck; no card is worth points here."""
    deck = rules.deck(n_players)
    ranks = [r for r in RANKS_BY_PIPS if any(c.rank is r for c in deck.counts)]
    return picker_data(lang, ranks, {r.value: 0 for r in ranks} | {"joker": 0})
