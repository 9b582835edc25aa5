"""Whist with a tarot deck on the house-rules pages (:mod:`companion.referee.house_rules`).

Exposed as :attr:`WhistTarot.rules_pages <companion.games.kinds.whist_tarot.WhistTarot.rules_pages>`.
The game has no house rules: its pages say its deck, its stakes and its deals.
"""

from __future__ import annotations

from typing import Any

from companion.games.rules_pages import RulesPages
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules import whist_tarot


class WhistRulesPages(RulesPages):
    """Whist's pages: no option; the deck, the stakes, the deals, the dealer's forbidden bid."""

    def stem(self, kind_id: str) -> str:
        return "whist_tarot"

    def rank(self, kind_id: str) -> int:
        return 2

    def game_context(self, game: Game) -> dict[str, Any]:
        return {
            "on": [],
            "off": [],
            "settings": [
                _(
                    "The %(num)d cards: the 21 trumps and the Excuse; a stake of %(stake)d cards each.",
                    num=whist_tarot.DECK.size,
                    stake=whist_tarot.STAKE,
                ),
                _(
                    "Each dealer deals %(series)s cards, then 1 card blind; then the deal passes to the left.",
                    series=", ".join(str(n) for n in whist_tarot.SERIES),
                ),
            ],
            "no_options": True,
        }

    def page_context(self, kind_id: str, lang: str) -> dict[str, Any]:
        return {
            "stake": whist_tarot.STAKE,
            # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra
            # pas dire 1 »: said as the referee says it (the engine's one sentence).
            "forbidden_example": whist_tarot.forbidden_bid_text("Dan", 1, 5).get(lang),
            # seed 002: « chacun à un rôle : le donneur, le premier à parler, le premier à
            # jouer, et à 4, celui qui coupe avant le donneur »: the roles of a deal at four
            # and at three, as the engine gives them.
            "roles_four": whist_tarot.roles(["Ann", "Bob", "Cid", "Dan"], "Dan"),
            "roles_three": whist_tarot.roles(["Ann", "Bob", "Cid"], "Cid"),
        }
