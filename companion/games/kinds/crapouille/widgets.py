"""The crapouille's widgets, from the engine: what the card picker script needs
(``static/picker.js``) and the legend of card values, shared by the hand form, the
live screen, the quick check and the rules page.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from companion.games.card_picker import picker_data
from companion.i18n import gettext as _
from companion.rules import crapouille
from companion.rules.cards import JOKERS, RANKS_BY_PIPS, Card, Rank, Suit


def _points(rank: Rank) -> int:
    # Every suit of a rank costs the same in la crapouille.
    return crapouille.card_points(Card(rank=rank, suit=Suit.SPADES))


@cache
def card_picker(lang: str) -> dict[str, Any]:
    """What the card picker script needs, all from the engine, for a page in ``lang``.

    ``ranks`` and ``suits`` are its buttons (canonical code, label); ``joker`` is what
    it writes for a joker; ``read`` is how typed text reads in ``lang``
    (:func:`companion.rules.cards.typed_notation`); ``points`` what each rank and the
    joker cost (:func:`companion.rules.crapouille.card_points`).
    """
    points = {r.value: _points(r) for r in Rank} | {"joker": crapouille.card_points(JOKERS[0])}
    return picker_data(lang, RANKS_BY_PIPS, points)


@cache
def card_values(lang: str) -> list[tuple[str, int]]:
    """The legend of card values: the cards that do not score their face value (and
    the ace, which could be 1 or 11), grouped, dearest first; every other card scores
    its face value.

    >>> from flask import Flask
    >>> from flask_babel import Babel
    >>> app = Flask(__name__); babel = Babel(app)
    >>> with app.test_request_context():
    ...     card_values("fr")
    [('8', 20), ('Joker', 15), ('2', 10), ('V D R', 5), ('A', 1)]
    """
    grouped: dict[int, list[str]] = {crapouille.card_points(JOKERS[0]): [_("Joker")]}
    for rank in RANKS_BY_PIPS:
        points = _points(rank)
        if points != rank.pips or rank is Rank.ACE:
            grouped.setdefault(points, []).append(rank.label(lang))
    return [(" ".join(labels), points) for points, labels in sorted(grouped.items(), reverse=True)]
