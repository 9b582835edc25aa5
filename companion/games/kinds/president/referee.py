"""Le Président and Piketty in the quick check (:mod:`companion.referee.check`).

Exposed as :attr:`_PresidentFamily.check <companion.games.kinds.president._PresidentFamily.check>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, RadioField, StringField
from wtforms.fields.choices import SelectChoice

from companion.games.kinds.president.options import _PRESET_NAMES, house_rules, rules_of, toggles_for
from companion.games.kinds.president.widgets import draw_picker
from companion.games.quick_check import Builder, QuickCheck
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules.i18n import RulesError
from companion.rules.president import PRESETS, Rules

#: Yes/no house rules of the new-game page that a single move never depends on
#: (scoring, exchanges, the next manches), and ``liar``, whose face-down plays this
#: form cannot express: the standalone check does not offer them.
_NOT_A_MOVE = frozenset({"points", "putsch", "jeu_blanc", "joker_exchangeable", "revolution_persists", "liar"})


class PresidentCheck(QuickCheck):
    """The trick so far (plays and passes), who is out, a revolution; the move: cards or a pass."""

    template = "referee/_check_president.html"
    trick_rows = 8
    #: The chooser's order, and the seats a standalone check offers, per game.
    _RANKS: Mapping[str, int] = {"president": 0, "piketty": 1}
    _SEATS: Mapping[str, int] = {"president": 8, "piketty": 9}

    def chooser_rank(self, game: str) -> int:
        return self._RANKS[game]

    def seat_count(self, game: str) -> int:
        return self._SEATS[game]

    def players_heading(self, game: str) -> str:
        """Piketty's seats go down the hierarchy, from its Président."""
        return _("Hierarchy, from the Président:") if game == "piketty" else super().players_heading(game)

    def rule_inputs(self, b: Builder, game: str) -> None:
        if game == "president":
            b.add(
                "rules.preset",
                "text",
                RadioField,
                _l("Variant"),
                choices=[
                    SelectChoice("", _l("None: the plain rules")),
                    *(SelectChoice(p, _PRESET_NAMES[p][0]) for p in PRESETS if p != "tarot"),
                ],
                default="",
                validate_choice=False,
            )
            b.number("rules.decks", _l("Decks"), range(2, 5), blank="1")
            b.number("rules.jokers", _l("Jokers"), range(1, 3), blank="0")
            b.number("rules.revolution_size", _l("Cards for a revolution"), (7, 8), blank="4")
        for option, label, _hint in toggles_for(game):
            if option not in _NOT_A_MOVE:
                b.add(f"rules.{option}", "flag", BooleanField, label)

    def inputs(self, b: Builder, seats: Sequence[str]) -> None:
        for i in range(len(seats)):
            b.add(
                f"state.out[{i}]", "player", BooleanField, seats[i] or _("Seat %(n)d", n=i + 1), render_kw={"value": i}
            )
        b.add("state.reversed", "flag", BooleanField, _l("Revolution on: the order is reversed"))
        b.player("state.leader", _l("Who must lead (if nobody has played yet)"), seats)
        for k in range(self.trick_rows):
            b.player(f"state.trick[{k}].player", _("Who"), seats)
            b.add(f"state.trick[{k}].pass", "flag", BooleanField, _l("Passed"))
            b.add(f"state.trick[{k}].cards", "cards", StringField, _l("Cards"))
        b.player("move.player", _l("Who plays"), seats)
        b.add("move.cards", "cards", StringField, _l("Cards"))
        b.add("move.last", "flag", BooleanField, _l("These are the player’s last cards"))
        b.add("move.pass", "flag", BooleanField, _l("Passes"))

    def picker(
        self, game: str, seated: int, options: Callable[[], Mapping[str, Any] | None], lang: str
    ) -> dict[str, Any] | None:
        rules = Rules(game=game)
        try:
            rules = Rules.from_options(options(), game)
            deck = rules.deck(seated)
            picker = draw_picker(lang, rules, seated)
        except RulesError:
            rules = Rules(game=game)
            deck = rules.deck(seated)
            picker = draw_picker(lang, rules, seated)
        return {"picker": picker, "copies": rules.deck_count(seated), "jokers": deck.joker_limit}

    def from_game(
        self, game: Game, state: Mapping[str, Any], names: Mapping[str, str], lang: str
    ) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """Seats go round the hierarchy, Président first (the game page's « Clockwise: … »);
        before the first manche it is the seating the game was started with."""
        data: dict[str, Any] = {}
        order = list(state.get("hierarchy") or state.get("players") or [])
        seats = [names.get(p, p) for p in order]
        titles = sorted(state.get("titles") or [], key=lambda t: t["rank"])
        context = {
            "titles": [(t["en"] if lang == "en" else t["fr"], names.get(t["player"], "")) for t in titles],
            "house_rules": house_rules(rules_of(game)),
        }
        leader = state.get("leader")
        if leader in order:
            data["state.leader"] = data["move.player"] = str(order.index(leader))
        return seats, data, context
