"""The crapouille's forms: the new-game form (players, house rules, who deals first)
and the hand form, which asks the engine with the players' names (so that its reasons
name them) and gives what is stored of the hand (its entry — who went out, the cards or
totals, who dealt — and the scoresheet after it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired

from companion.forms import add_error, plain_int
from companion.games.forms import DealerSeatsForm, RoundForm
from companion.games.kinds.base import Entry
from companion.games.kinds.crapouille.state import CrapouilleState, after_hand, sheet_of
from companion.games.kinds.crapouille.widgets import card_picker, card_values
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Player
from companion.rules import crapouille
from companion.rules.cards import format_cards, parse_cards, parse_typed_cards, typed_notation
from companion.rules.i18n import RulesError


class NewCrapouilleForm(DealerSeatsForm):
    """Players in seat order, the house rules of a crapouille game and who deals first."""

    super_crapouille = BooleanField(_l("Super crapouille (deal 10, keep 5)"))
    submit = SubmitField(_l("Start the game"))

    def check_players(self, ids: Sequence[str]) -> None:
        """The engine's limits (2 players and more)."""
        crapouille.Scoresheet.start(list(ids))

    @property
    def rules(self) -> dict[str, Any]:
        """The house rules, as the engine names them."""
        return crapouille.Options(super=bool(self.super_crapouille.data)).to_options()


def hand_form(
    players: list[Player],
    number: int,
    state: CrapouilleState,
    game_version: int,
    entry: Entry | None = None,
    dealer: str | None = None,
    **form_args: Any,
) -> RoundForm:
    """A form for hand ``number`` of a game at ``game_version`` from ``state`` (before
    it), asking only the players still in; ``entry`` (a hand already entered) pre-fills
    it for an edit. Its « Donneur » is pre-filled with the entry's dealer, else
    ``dealer`` (the rotation's, or the one the table chose after a misdeal), and can be
    changed; a form sent without it keeps that one. ``form.turn`` is who deals and who
    starts, as pre-filled (None when no dealer is known)."""
    sheet = sheet_of(state)
    live = [p for p in players if str(p.id) in sheet.in_play]
    most = crapouille.MAX_HAND_POINTS

    class HandForm(RoundForm):
        winner = RadioField(
            _l("Who went out?"),
            choices=[SelectChoice(str(p.id), p.name) for p in live],
            validators=[InputRequired(_l("Say who went out."))],
        )
        dealer = RadioField(
            _l("Who dealt?"),
            choices=[SelectChoice(str(p.id), p.name) for p in live],
            validators=[DataRequired(_l("Say who dealt."))],
        )
        submit = SubmitField(_l("Save the hand"))

        def validate(self, extra_validators: Any = None) -> bool:
            """Every field checked at once; then the engine, with players named by name."""
            fields_ok = super().validate(extra_validators)
            if self.round.errors:
                return False
            lang = current_lang()
            hands: dict[str, Any] = {}
            points: dict[str, int] = {}
            for player in live:
                key = str(player.id)
                if key == self.winner.data:
                    continue
                cards_field, total_field = self[f"cards_{key}"], self[f"total_{key}"]
                cards_text = (cards_field.data or "").strip()
                total_text = (total_field.data or "").strip()
                if cards_text:
                    try:
                        hands[key] = parse_typed_cards(cards_text, lang)
                    except RulesError as e:
                        add_error(cards_field, e.text.get(lang))
                        fields_ok = False
                if total_text:
                    value = plain_int(total_text, 0, most)
                    if value is None:
                        add_error(total_field, _("A total is a whole number from 0 to %(most)d.", most=most))
                        fields_ok = False
                    else:
                        points[key] = value
            if not fields_ok:
                return False
            if not self._judged_by_name(hands, points):
                return False
            self.scored = sheet.score_hand(self.winner.data, hands=hands, points=points)
            self.entry = entry_for(self.winner.data, hands, points, self.dealer.data)
            self.result = after_hand(state, self.scored, self.dealer.data)
            return True

        def _judged_by_name(self, hands: dict[str, Any], points: dict[str, int]) -> bool:
            """Ask the engine with the players' names, so that its reasons name them, and
            collect every player's fault (each faulty entry is set aside and the engine
            asked again), placing each next to its field."""
            name_of = {str(p.id): p.name for p in players}
            key_of = {name: key for key, name in name_of.items()}
            named = crapouille.Scoresheet(
                tuple(name_of[p] for p in sheet.players),
                {name_of[p]: t for p, t in sheet.totals.items()},
                tuple(tuple(name_of[p] for p in group) for group in sheet.eliminations),
            )
            pending_hands = {name_of[k]: v for k, v in hands.items()}
            pending_points = {name_of[k]: v for k, v in points.items()}
            faulty = False
            for _attempt in range(len(live) + 1):
                try:
                    named.score_hand(name_of[self.winner.data], hands=pending_hands, points=pending_points)
                    break
                except RulesError as e:
                    faulty = True
                    where = (e.field or "").split(".", 1)
                    name = where[1].split("[")[0] if len(where) > 1 else None
                    key = key_of.get(name or "")
                    if where[0] not in ("hands", "points") or key is None or key == self.winner.data:
                        add_error(self.winner, e.text.get(current_lang()))
                        break
                    field = f"cards_{key}" if where[0] == "hands" and key in hands else f"total_{key}"
                    add_error(self[field], e.text.get(current_lang()))
                    # Set this player's entry aside (a neutral 0) and look for the next fault.
                    pending_hands.pop(name or "", None)
                    pending_points[name or ""] = 0
            return not faulty

    for player in live:
        # The labels name the player: an error summary then says whose entry is wrong.
        setattr(HandForm, f"cards_{player.id}", StringField(_("Cards left by %(name)s", name=player.name)))
        setattr(HandForm, f"total_{player.id}", StringField(_("Total of %(name)s", name=player.name)))
    prefilled = (entry or {}).get("dealer") or dealer
    if prefilled not in sheet.in_play:
        prefilled = None
    data: dict[str, Any] = {"dealer": prefilled}
    if entry is not None:
        data["winner"] = entry.get("winner")
        notation = typed_notation(current_lang())
        for key, cards in (entry.get("hands") or {}).items():
            data[f"cards_{key}"] = " ".join(notation.write(c) for c in parse_cards(cards))
        for key, value in (entry.get("points") or {}).items():
            data[f"total_{key}"] = str(value)
    form = HandForm(number, game_version, data=data, **form_args)
    form.turn = None if prefilled is None else crapouille.opening(sheet.players, sheet.in_play, prefilled)
    # A hand followed live that ended on a 2: who drew one more card, which counts (the
    # engine named him; seed 003: « le joueur suivant prend une carte supplémentaire »).
    extra = None if entry is None else entry.get("extra_card")
    form.extra_card = extra if any(str(p.id) == extra for p in live) else None
    lang = current_lang()
    form.picker = card_picker(lang)
    form.card_values = card_values(lang)
    form.cards_placeholder = typed_notation(lang).example
    return form


def entry_for(winner: str, hands: dict[str, Any], points: dict[str, int], dealer: str) -> Entry:
    """What is stored of a hand as entered: the winner, cards (canonical) or totals, and
    who dealt it."""
    return {
        "winner": winner,
        "hands": {p: format_cards(cards).split() for p, cards in hands.items()},
        "points": dict(points),
        "dealer": dealer,
    }
