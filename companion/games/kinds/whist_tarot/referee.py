"""Whist with a tarot deck in the quick check (:mod:`companion.referee.check`).

Exposed as :attr:`WhistTarot.check <companion.games.kinds.whist_tarot.WhistTarot.check>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import SelectField
from wtforms.fields.choices import SelectChoice

from companion.games.quick_check import Builder, QuickCheck
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules.cards import Card

#: The most tricks a whist deal has (a bid is 0..cards).
WHIST_MOST_CARDS = 5


def _trumps() -> list[SelectChoice]:
    lang = current_lang()
    cards = [Card(trump=n) for n in range(1, 22)] + [Card(trump=0)]
    return [SelectChoice("", "—"), *(SelectChoice(str(c), c.display(lang)) for c in cards)]


class WhistCheck(QuickCheck):
    """The deal (dealer, cards, bids) and the trick so far; the move: a bid or a card."""

    rank = 2
    template = "referee/_check_whist.html"
    seats = 4
    trick_rows = 3

    def inputs(self, b: Builder, seats: Sequence[str]) -> None:
        excuse = [SelectChoice("", "—"), SelectChoice("0", _l("0 (lowest)")), SelectChoice("22", _l("22 (highest)"))]
        b.player("state.dealer", _l("Dealer"), seats)
        b.number("state.cards", _l("Cards dealt to each"), range(1, WHIST_MOST_CARDS + 1))
        for i, name in enumerate(seats):
            b.number(f"state.bids.@{i}", name or _("Seat %(n)d", n=i + 1), range(WHIST_MOST_CARDS + 1))
        for k in range(self.trick_rows):
            b.player(f"state.trick[{k}].player", _("Who"), seats)
            b.add(f"state.trick[{k}].card", "text", SelectField, _l("Card"), choices=_trumps(), validate_choice=False)
            b.add(f"state.trick[{k}].excuse", "int", SelectField, _l("Excuse"), choices=excuse, validate_choice=False)
        b.player("move.player", _l("Who plays"), seats)
        b.number("move.bid", _l("Bid"), range(WHIST_MOST_CARDS + 1))
        b.add("move.card", "text", SelectField, _l("Or a card"), choices=_trumps(), validate_choice=False)
        b.add("move.excuse", "int", SelectField, _l("Excuse"), choices=excuse, validate_choice=False)

    def start_data(self) -> dict[str, Any]:
        return {"state.dealer": "3", "state.cards": "5", "move.player": "0"}

    def row_label(self, n: int) -> str:
        return _("Card %(n)d", n=n)

    def from_game(
        self, game: Game, state: Mapping[str, Any], names: Mapping[str, str], lang: str
    ) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """The deal being played (its bids saved, its tricks not yet), else the next one."""
        data: dict[str, Any] = {}
        order = list(state["players"])
        seats = [names.get(p, p) for p in order]
        pending = bool(state.get("pending") and state.get("played"))
        deal: Mapping[str, Any] = (state.get("played") if pending else state.get("deal")) or {}
        if deal.get("dealer") in order:
            data["state.dealer"] = str(order.index(deal["dealer"]))
        if deal.get("cards"):
            data["state.cards"] = str(deal["cards"])
        bids: Mapping[str, Any] = (state.get("bids") if pending else None) or {}
        for i, p in enumerate(order):
            if p in bids:
                data[f"state.bids.@{i}"] = str(bids[p])
        return seats, data, {}
