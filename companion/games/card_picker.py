"""What the card picker script (``static/picker.js``, the ``card_picker`` widget of
``templates/_widgets.html``) needs, from the engine: the same for every kind, which
says only which ranks its deck holds and what each card costs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules.cards import JOKER_WORD, Rank, Suit, typed_notation


def picker_data(lang: str, ranks: Iterable[Rank], points: Mapping[str, int]) -> dict[str, Any]:
    """The picker's data for a page in ``lang``: ``ranks`` and ``suits`` are its buttons
    (canonical code, label); ``joker`` is what it writes for a joker; ``read`` is how
    typed text reads in ``lang`` (:func:`companion.rules.cards.typed_notation`);
    ``points`` what each rank (by its code) and ``joker`` cost.

    >>> data = picker_data("en", [Rank.ACE], {"A": 1, "joker": 0})
    >>> data["ranks"], data["points"]
    ([['A', 'A']], {'A': 1, 'joker': 0})
    """
    notation = typed_notation(lang)
    return {
        "ranks": [[r.value, r.label(lang)] for r in ranks],
        "suits": [[s.value, s.symbol, s.name_in(lang)] for s in Suit],
        "joker": JOKER_WORD,
        "read": {
            "ranks": {k: r.value for k, r in notation.ranks.items()},
            "suits": {k: s.value for k, s in notation.suits.items()},
            "jokers": sorted(notation.jokers),
        },
        "points": dict(points),
    }
