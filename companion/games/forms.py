"""Forms for games: a new game, and a crapouille hand.

The forms only translate: what is legal and what a hand scores is the engine's
decision (``companion.rules``); its reasons are shown next to the fields.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, HiddenField, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from companion.forms import OnceForm, SafeForm, plain_int
from companion.i18n import current_lang
from companion.models import Player
from companion.rules import crapouille
from companion.rules.cards import parse_cards
from companion.rules.i18n import RulesError

MAX_SEATS = 12
#: The most rounds a game may hold: far more than any evening, and a bound on what a
#: game page and its replay may ever cost.
MAX_ROUNDS = 500


class NewCrapouilleForm(OnceForm):
    """Players in seat order and the house rules of a crapouille game."""

    seats = FieldList(SelectField(coerce=str, validate_choice=False), min_entries=2)
    super_crapouille = BooleanField(_l("Super crapouille (deal 10, keep 5)"))
    submit = SubmitField(_l("Start the game"))

    def __init__(self, players: list[Player], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        seat_count = min(max(len(players), 2), MAX_SEATS)
        while len(self.seats) < seat_count:
            self.seats.append_entry()
        choices = [SelectChoice("", "—"), *(SelectChoice(str(p.id), p.name) for p in players)]
        for i, seat in enumerate(self.seats):
            seat.choices = choices
            seat.label.text = _("Seat %(n)d", n=i + 1)
        self.players_by_id = {str(p.id): p for p in players}
        self.chosen: list[Player] = []

    def validate(self, extra_validators: Any = None) -> bool:
        """Seats name known players, each once, and enough of them for the engine."""
        if not super().validate(extra_validators):
            return False
        chosen: list[Player] = []
        for seat in self.seats:
            if not seat.data:
                continue
            player = self.players_by_id.get(seat.data)
            if player is None:
                seat.errors.append(_("Choose a player of the group."))
                return False
            if player in chosen:
                seat.errors.append(_("%(name)s already has a seat.", name=player.name))
                return False
            chosen.append(player)
        try:
            crapouille.Scoresheet.start([str(p.id) for p in chosen])
        except RulesError as e:
            self.seats.errors.append(e.text.get(current_lang()))
            return False
        self.chosen = chosen
        return True

    @property
    def rules(self) -> dict[str, Any]:
        """The house rules, as the engine names them."""
        return crapouille.Options(super=bool(self.super_crapouille.data)).to_options()


def hand_form(players: list[Player], number: int, sheet: crapouille.Scoresheet, game_version: int) -> SafeForm:
    """A form for hand ``number`` of a game at ``game_version``, asking only the players still in."""
    live = [p for p in players if str(p.id) in sheet.in_play]
    most = crapouille.MAX_HAND_POINTS

    class HandForm(SafeForm):
        round = HiddenField(default=str(number))
        version = HiddenField(default=str(game_version))
        winner = RadioField(
            _l("Who went out?"),
            choices=[SelectChoice(str(p.id), p.name) for p in live],
            validators=[InputRequired(_l("Say who went out."))],
        )
        submit = SubmitField(_l("Save the hand"))

        def validate(self, extra_validators: Any = None) -> bool:
            if not super().validate(extra_validators):
                return False
            if self.round.data != str(number) or plain_int(self.version.data or "", 0, 10**9) is None:
                self.round.errors.append(_("This hand was already saved from another device; here is the game now."))
                return False
            hands: dict[str, Any] = {}
            points: dict[str, int] = {}
            ok = True
            for player in live:
                key = str(player.id)
                if key == self.winner.data:
                    continue
                cards_field = self[f"cards_{key}"]
                total_field = self[f"total_{key}"]
                cards_text = (cards_field.data or "").strip()
                total_text = (total_field.data or "").strip()
                if cards_text:
                    try:
                        hands[key] = parse_cards(cards_text)
                    except RulesError as e:
                        cards_field.errors.append(e.text.get(current_lang()))
                        ok = False
                elif total_text:
                    value = plain_int(total_text, 0, most)
                    if value is None:
                        total_field.errors.append(_("A total is a whole number from 0 to %(most)d.", most=most))
                        ok = False
                    else:
                        points[key] = value
            if not ok:
                return False
            try:
                self.outcome = sheet.score_hand(self.winner.data, hands=hands, points=points)
            except RulesError as e:
                self._place(e)
                return False
            self.hands, self.points = hands, points
            return True

        def _place(self, error: RulesError) -> None:
            message = error.text.get(current_lang())
            where = (error.field or "").split(".")
            if where[0] in ("hands", "points") and len(where) > 1:
                key = where[1].split("[")[0]
                name = f"cards_{key}" if where[0] == "hands" else f"total_{key}"
                if name in self:
                    self[name].errors.append(message)
                    return
            self.winner.errors.append(message)

    for player in live:
        setattr(HandForm, f"cards_{player.id}", StringField(_l("Cards left")))
        setattr(HandForm, f"total_{player.id}", StringField(_l("or total")))
    return HandForm()
