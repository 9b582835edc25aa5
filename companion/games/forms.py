"""What the forms of every kind of game share: seating the players, and the round
number and game version every round form carries.

The forms only translate: what is legal and what a round scores is the engine's
decision (``companion.rules``); its reasons are shown next to the fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import FieldList, HiddenField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length

from companion.collation import sorted_names
from companion.forms import OnceForm, SafeForm, add_error, plain_int
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Player
from companion.rules.i18n import RulesError

MAX_SEATS = 12
#: The most rounds a game may hold: far more than any evening, and a bound on what a
#: game page and a rescoring may ever cost.
MAX_ROUNDS = 500


class SeatsForm(OnceForm):
    """Players in seat order (tapped in order, or one select per seat without script).

    A kind's setup form derives from it, adds its house rules, and says in
    :meth:`check_players` whether the engine accepts that many players. How many may
    play is read from that same check (:meth:`seat_bounds`): the page offers no more
    seats than the engine accepts, and its tap-to-order list refuses one tap too many
    with the engine's own sentence, before anything is sent.
    """

    seats = FieldList(SelectField(coerce=str, validate_choice=False), min_entries=2)

    def __init__(self, players: list[Player], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        players = sorted_names(players, key=lambda p: p.name)  # each picker offers them in French order
        #: The fewest and the most players the engine accepts (the most never above
        #: MAX_SEATS); ``too_many``: its sentence for one more than the most (None when
        #: only MAX_SEATS stops it); ``seats_rule``: its sentence of how many play.
        self.least, self.most, self.too_many, self.seats_rule = self.seat_bounds()
        seat_count = min(max(len(players), 2), self.most)
        while len(self.seats) < seat_count:
            self.seats.append_entry()
        choices = [SelectChoice("", "—"), *(SelectChoice(str(p.id), p.name) for p in players)]
        for i, seat in enumerate(self.seats):
            seat.choices = choices
            seat.label.text = _("Seat %(n)d", n=i + 1)
        self.players_by_id = {str(p.id): p for p in players}
        #: The players as the tap-to-order widget offers them: (value, label).
        self.seat_choices = [(str(p.id), p.name) for p in players]
        self.chosen: list[Player] = []

    def check_players(self, ids: Sequence[str]) -> None:
        """Raise the engine's RulesError when these players cannot play (kinds override)."""

    def seat_bounds(self) -> tuple[int, int, str | None, str | None]:
        """How many players the engine accepts, asked of :meth:`check_players` itself
        (so that no page or script writes a kind's bounds again, and a house rule that
        changes them is followed): the fewest and the most (from 1 to
        :data:`MAX_SEATS`), the engine's refusal of one player too many (None when it
        accepts :data:`MAX_SEATS` and more) and its sentence of how many play (that
        refusal, else its refusal of one player too few)."""
        lang = current_lang()
        refusals: dict[int, str] = {}
        accepted: list[int] = []
        for count in range(1, MAX_SEATS + 2):
            try:
                self.check_players([f"seat {i + 1}" for i in range(count)])
            except RulesError as e:
                refusals[count] = e.text.get(lang)
            else:
                accepted.append(count)
        if not accepted:  # rules no table can play: the submit says why
            return 2, MAX_SEATS, None, None
        least = most = accepted[0]
        while most + 1 in accepted:
            most += 1
        most = min(most, MAX_SEATS)
        too_many = refusals.get(most + 1)
        return least, most, too_many, too_many or refusals.get(least - 1)

    def validate(self, extra_validators: Any = None) -> bool:
        """Seats name known players, each once, and as many as the engine accepts."""
        if not super().validate(extra_validators):
            return False
        chosen: list[Player] = []
        for seat in self.seats:
            if not seat.data:
                continue
            player = self.players_by_id.get(seat.data)
            if player is None:
                add_error(seat, _("Choose a player of the group."))
                return False
            if player in chosen:
                add_error(seat, _("%(name)s already has a seat.", name=player.name))
                return False
            chosen.append(player)
        try:
            self.check_players([str(p.id) for p in chosen])
        except RulesError as e:
            add_error(self.seats, e.text.get(current_lang()))
            return False
        self.chosen = chosen
        return True

    @property
    def setup(self) -> dict[str, Any]:
        """Kind-specific settings other than house rules (none by default)."""
        return {}


class DealerSeatsForm(SeatsForm):
    """:class:`SeatsForm` and who deals first: one of the seated players, the first seat
    unless another is chosen (kept in the game's setup as ``dealer``)."""

    dealer = RadioField(_l("Who deals first?"), validate_choice=False)

    def __init__(self, players: list[Player], **kwargs: Any) -> None:
        super().__init__(players, **kwargs)
        self.dealer.choices = [SelectChoice(str(p.id), p.name) for p in players]

    def validate(self, extra_validators: Any = None) -> bool:
        """The seats, then a first dealer among the seated players (the first seat if none)."""
        if not super().validate(extra_validators):
            return False
        if self.dealer.data and self.dealer.data not in {str(p.id) for p in self.chosen}:
            add_error(self.dealer, _("The first dealer has to play in this game."))
            return False
        return True

    @property
    def setup(self) -> dict[str, Any]:
        """The first dealer (the first seat unless another was chosen)."""
        chosen = self.dealer.data if self.dealer.data else (str(self.chosen[0].id) if self.chosen else None)
        return {"dealer": chosen}


class RoundForm(SafeForm):
    """The base of every round form: the round's number and the game's version, so that
    a form sent twice, from two phones or from an outdated page saves nothing twice."""

    round = HiddenField()
    version = HiddenField()
    #: The round said in one line (typed or dictated), read back into the fields by the
    #: kind's grammar before anything is saved (:mod:`companion.games.line`).
    line = StringField(_l("In one sentence"), validators=[Length(max=400)])

    def __init__(self, number: int, game_version: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.number = number
        if not self.is_submitted():
            self.round.data = str(number)
        if not self.version.data:  # a client that does not send it is judged on the current game
            self.version.data = str(game_version)

    @property
    def based_on(self) -> int | None:
        """The game version the form was shown at."""
        return plain_int(self.version.data or "", 0, 10**9)

    def validate(self, extra_validators: Any = None) -> bool:
        """The usual validation; a form for another round, or without a version, is refused."""
        ok = super().validate(extra_validators)
        if self.round.data != str(self.number) or self.based_on is None:
            add_error(self.round, _("This hand was already saved from another device; here is the game now."))
            return False
        return ok
