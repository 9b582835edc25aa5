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

from companion.forms import OnceForm, SafeForm, add_error, plain_int
from companion.i18n import current_lang
from companion.models import Player
from companion.rules import crapouille
from companion.rules.cards import JOKER_WORD, JOKERS, RANKS_BY_PIPS, Card, Rank, Suit, parse_typed_cards, typed_notation
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
        #: The players as the tap-to-order widget offers them: (value, label).
        self.seat_choices = [(str(p.id), p.name) for p in players]
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
                add_error(seat, _("Choose a player of the group."))
                return False
            if player in chosen:
                add_error(seat, _("%(name)s already has a seat.", name=player.name))
                return False
            chosen.append(player)
        try:
            crapouille.Scoresheet.start([str(p.id) for p in chosen])
        except RulesError as e:
            add_error(self.seats, e.text.get(current_lang()))
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
            """Every field checked at once; then the engine, with players named by name."""
            fields_ok = super().validate(extra_validators)
            if self.round.data != str(number) or plain_int(self.version.data or "", 0, 10**9) is None:
                add_error(self.round, _("This hand was already saved from another device; here is the game now."))
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
            self.outcome = sheet.score_hand(self.winner.data, hands=hands, points=points)
            self.hands, self.points = hands, points
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
    form = HandForm()
    lang = current_lang()
    form.picker = card_picker(lang)  # type: ignore[attr-defined]
    form.card_values = card_values(lang)  # type: ignore[attr-defined]
    form.cards_placeholder = typed_notation(lang).example  # type: ignore[attr-defined]
    return form


def _points(rank: Rank) -> int:
    # Every suit of a rank costs the same in la crapouille.
    return crapouille.card_points(Card(rank=rank, suit=Suit.SPADES))


def card_picker(lang: str) -> dict[str, Any]:
    """What the card picker script needs, all from the engine, for a page in ``lang``.

    ``ranks`` and ``suits`` are its buttons (canonical code, label); ``joker`` is what
    it writes for a joker; ``read`` is how typed text reads in ``lang``
    (:func:`companion.rules.cards.typed_notation`); ``points`` what each rank and the
    joker cost (:func:`companion.rules.crapouille.card_points`).
    """
    notation = typed_notation(lang)
    return {
        "ranks": [[r.value, r.label(lang)] for r in RANKS_BY_PIPS],
        "suits": [[s.value, s.symbol, s.name_in(lang)] for s in Suit],
        "joker": JOKER_WORD,
        "read": {
            "ranks": {k: r.value for k, r in notation.ranks.items()},
            "suits": {k: s.value for k, s in notation.suits.items()},
            "jokers": sorted(notation.jokers),
        },
        "points": {r.value: _points(r) for r in Rank} | {"joker": crapouille.card_points(JOKERS[0])},
    }


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
