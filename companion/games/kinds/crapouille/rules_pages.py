"""La crapouille on the house-rules pages (:mod:`companion.referee.house_rules`).

Exposed as :attr:`Crapouille.rules_pages <companion.games.kinds.crapouille.Crapouille.rules_pages>`.
An option's label is the setup form's; this module adds its explanations.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from flask_babel import lazy_gettext as _l

from companion.games.kinds.crapouille.forms import NewCrapouilleForm
from companion.games.kinds.crapouille.widgets import card_values
from companion.games.rules_pages import RulesPages, option_entry
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules import crapouille

#: La crapouille's options (the fields of :class:`companion.rules.crapouille.Options`):
#: (one-line explanation, longer explanation with the seed's example). The label is
#: the setup form's.
CRAPOUILLE_DETAILS: dict[str, tuple[Any, Any]] = {
    "super": (
        _l("After a 10 or a 2, its player plays again."),
        _l(
            "A 10: play again, then the direction reverses. A 2: the next player draws a card without "
            "losing their turn. Example: Bob lays two 2s in a row: Cid, who had five cards, has seven."
        ),
    ),
}


def _crapouille_label(option: str) -> Any:
    """The label of a crapouille option on its setup form (an unbound WTForms field)."""
    unbound = getattr(NewCrapouilleForm, f"{option}_crapouille", None)
    if unbound is None:
        return option
    return unbound.args[0] if unbound.args else unbound.kwargs.get("label", option)


def crapouille_options() -> list[dict[str, Any]]:
    """Every option of la crapouille."""
    return [
        option_entry(option, _crapouille_label(option), *CRAPOUILLE_DETAILS[option])
        for option in (f.name for f in fields(crapouille.Options))
    ]


def _game_context(game: Game) -> dict[str, Any]:
    """The options on and off, and the deck, the deal and the scoring of one game."""
    options = crapouille.Options.from_options(game.rules)
    offered = crapouille_options()
    deal = crapouille.deal(options.super)
    settings = [
        _(
            "%(num)d cards: two 52-card decks and %(jokers)d jokers.",
            num=crapouille.DECK.size,
            jokers=crapouille.DECK.joker_limit,
        ),
        _("Super crapouille: %(dealt)d cards dealt, %(kept)d kept.", dealt=deal.dealt, kept=deal.kept)
        if deal.dealt != deal.kept
        else _("%(dealt)d cards each.", dealt=deal.dealt),
        _("Out past %(limit)d.", limit=crapouille.ELIMINATION_TOTAL),
        _(
            "Cards left count: %(values)s; the others their face value.",
            values=", ".join(f"{cards} = {points}" for cards, points in card_values(current_lang())),
        ),
    ]
    if len(game.seats) == 2:
        settings.append(
            _("Two-player rule.")
            + " "
            + _("A 2 makes the other player draw a card and its player plays again; a 10 lets its player play again.")
        )
    return {
        "on": [o for o in offered if getattr(options, o["id"])],
        "off": [o for o in offered if not getattr(options, o["id"])],
        "settings": settings,
    }


class CrapouilleRulesPages(RulesPages):
    """La crapouille's pages: its options, what the cards left count, the elimination."""

    def stem(self, kind_id: str) -> str:
        return "crapouille"

    def rank(self, kind_id: str) -> int:
        return 3

    def game_context(self, game: Game) -> dict[str, Any]:
        return _game_context(game)

    def page_context(self, kind_id: str, lang: str) -> dict[str, Any]:
        return {
            "options": crapouille_options(),
            "card_values": card_values(lang),
            "limit": crapouille.ELIMINATION_TOTAL,
        }
