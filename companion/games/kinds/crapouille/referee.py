"""La crapouille in the quick check (:mod:`companion.referee.check`).

Exposed as :attr:`Crapouille.check <companion.games.kinds.crapouille.Crapouille.check>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice

from companion.games.kinds.crapouille.widgets import card_picker
from companion.games.quick_check import Builder, QuickCheck
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules import crapouille
from companion.rules.cards import Card, Suit


class CrapouilleCheck(QuickCheck):
    """The pile, the suit asked, the direction and whose turn; the move: a card or a draw."""

    rank = 3
    template = "referee/_check_crapouille.html"
    seats = 8

    def rule_inputs(self, b: Builder, game: str) -> None:
        b.add("rules.super", "flag", BooleanField, _l("Super crapouille (deal 10, keep 5)"))

    def inputs(self, b: Builder, seats: Sequence[str]) -> None:
        suits = [
            SelectChoice("", "—"),
            *(SelectChoice(s.value, f"{s.symbol} {s.name_in(current_lang())}") for s in Suit),
        ]
        b.add("state.pile", "cards", StringField, _l("The pile, from the bottom to the top card"))
        b.add("state.asked", "text", SelectField, _l("Suit asked (after an 8)"), choices=suits, validate_choice=False)
        b.add(
            "state.direction",
            "int",
            RadioField,
            _l("Direction"),
            choices=[SelectChoice("1", _l("Clockwise")), SelectChoice("-1", _l("Reversed (after a 10)"))],
            default="1",
            validate_choice=False,
        )
        b.player("state.turn", _l("Whose turn it is"), seats)
        b.player("move.player", _l("Who plays"), seats)
        b.add("move.card", "card", StringField, _l("Card"))
        b.add("move.asked", "text", SelectField, _l("Suit asked with an 8"), choices=suits, validate_choice=False)
        b.add("move.last", "flag", BooleanField, _l("It is the player’s last card"))
        b.add("move.announced", "bool", BooleanField, _l("« Carte ! » was said"), default=True)
        b.add("move.draw", "flag", BooleanField, _l("Draws instead"))
        b.add("state.hand", "cards", StringField, _l("The player’s hand (optional: may they draw?)"))

    def start_data(self) -> dict[str, Any]:
        return {"move.player": "0", "state.turn": "0"}

    def picker(
        self, game: str, seated: int, options: Callable[[], Mapping[str, Any] | None], lang: str
    ) -> dict[str, Any] | None:
        return {
            "picker": card_picker(lang),
            "copies": crapouille.DECK.limit(Card.parse("As")),
            "jokers": crapouille.DECK.joker_limit,
        }

    def from_game(
        self, game: Game, state: Mapping[str, Any], names: Mapping[str, str], lang: str
    ) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """The players still in, in seat order."""
        order = [p for p in state["players"] if p in state.get("in_play", state["players"])]
        seats = [names.get(p, p) for p in order]
        context: dict[str, Any] = {}
        if crapouille.Options.from_options(game.rules).super:
            context["house_rules"] = [_("Super crapouille (deal 10, keep 5)")]
        return seats, {"state.turn": "0"}, context
