"""The forms of le Président and Piketty: the new-game form (the players, the house
rules, the first manche's way) and the manche form (the card draw, or the order players
went out in and what happened), judged by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice

from companion.forms import add_error, plain_int
from companion.games.forms import RoundForm, SeatsForm
from companion.games.kinds.base import Entry, GameKind
from companion.games.kinds.president.options import (
    _PRESET_NAMES,
    DEFAULT_TARGET,
    MAX_TARGET,
    forbidden_cards,
    rules_of,
    toggles_for,
)
from companion.games.kinds.president.scoring import play
from companion.games.kinds.president.state import PresidentState, starts_reversed
from companion.games.kinds.president.widgets import draw_picker
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Game, Player
from companion.rules.cards import parse_cards, parse_typed_cards, typed_notation
from companion.rules.i18n import RulesError
from companion.rules.president import PRESETS, Rules
from companion.rules.president_outcome import exchange_schedule


def new_game_form(game: str, players: list[Player], **form_args: Any) -> SeatsForm:
    """The new-game form of le Président (``game="president"``) or Piketty (``form_args``
    go to its constructor)."""

    class NewPresidentForm(SeatsForm):
        titles = RadioField(
            _l("Title names"),
            choices=[
                SelectChoice("classic", _l("Classic: Président … Trou du cul")),
                SelectChoice("balayeur", _l("Balayeur: Président, Premier Ministre … Balayeur")),
            ],
            default="classic",
        )
        target = StringField(_l("Points to reach"), default=str(DEFAULT_TARGET))
        submit = SubmitField(_l("Start the game"))

        def check_players(self, ids: Sequence[str]) -> None:
            """The engine's limits for these house rules (defaults when they are wrong:
            their own error is placed by :meth:`validate`)."""
            try:
                rules = Rules.from_options(self.rules, game)
            except RulesError:
                rules = Rules(game=game)
            rules.check_players(len(ids))

        def validate(self, extra_validators: Any = None) -> bool:
            seats_ok = super().validate(extra_validators)
            target = plain_int((self.target.data or "").strip(), 1, MAX_TARGET)
            if target is None:
                add_error(self.target, _("A target is a whole number from 1 to %(most)d.", most=MAX_TARGET))
                return False
            try:
                rules = Rules.from_options(self.rules, game)
                if seats_ok:
                    exchange_schedule(rules, len(self.chosen))
            except RulesError as e:
                where = (e.field or "").removeprefix("rules.")
                self._place(where, e.text.get(current_lang()))
                return False
            return seats_ok

        def _place(self, option: str, message: str) -> None:
            field = self._fields.get(f"rule_{option}") or self._fields.get(option)
            add_error(field if field is not None else self.seats, message)

        @property
        def rules(self) -> dict[str, Any]:
            """The house rules as the engine names them: only what differs from the
            defaults (of the chosen preset)."""
            options: dict[str, Any] = {}
            preset = self._fields.get("preset")
            chosen = preset.data if preset is not None and preset.data in PRESETS else None
            if chosen:
                options["preset"] = chosen
            try:
                base = Rules.from_options(options, game)
            except RulesError:
                base = Rules(game=game)
            for option, _label, _hint in toggles_for(game):
                value = bool(self[f"rule_{option}"].data)
                if value != getattr(base, option):
                    options[option] = value
            for option in ("decks", "jokers", "revolution_size"):
                field = self._fields.get(f"rule_{option}")
                if field is not None:
                    value = plain_int(str(field.data or ""), 0, 8)
                    if value is not None and value != getattr(base, option):
                        options[option] = value
            target = plain_int((self.target.data or "").strip(), 1, MAX_TARGET)
            if target is not None and target != base.target:
                options["target"] = target
            if self.titles.data in ("classic", "balayeur") and self.titles.data != base.titles:
                options["titles"] = self.titles.data
            return options

        @property
        def setup(self) -> dict[str, Any]:
            """How the first manche gives the titles: played, or a card draw (Piketty)."""
            first = self._fields.get("first")
            if game == "piketty":
                return {"first": "draw"}
            return {"first": "draw" if first is not None and first.data == "draw" else "played"}

    defaults = Rules(game=game)
    for option, label, _hint in toggles_for(game):
        setattr(NewPresidentForm, f"rule_{option}", BooleanField(label, default=getattr(defaults, option)))
    if game == "president":
        NewPresidentForm.preset = RadioField(
            _l("Variant"),
            choices=[
                SelectChoice("", _l("None: the plain rules")),
                *(SelectChoice(p, _PRESET_NAMES[p][0]) for p in PRESETS),
            ],
            default="",
        )
        NewPresidentForm.rule_decks = SelectField(
            _l("Decks"), choices=[SelectChoice(str(n), str(n)) for n in range(1, 5)], default="1"
        )
        NewPresidentForm.rule_jokers = SelectField(
            _l("Jokers"), choices=[SelectChoice(str(n), str(n)) for n in range(3)], default="0"
        )
        NewPresidentForm.rule_revolution_size = SelectField(
            _l("Cards for a revolution"), choices=[SelectChoice(str(n), str(n)) for n in (4, 7, 8)], default="4"
        )
        NewPresidentForm.first = RadioField(
            _l("The first manche"),
            choices=[
                SelectChoice("played", _l("Played without titles: enter who went out")),
                SelectChoice("draw", _l("A card draw gives the titles")),
            ],
            default="played",
        )
    form = NewPresidentForm(players, **form_args)
    form.toggles = toggles_for(game)
    form.preset_hints = _PRESET_NAMES
    return form


#: The events of a manche, as the form offers them: (value, the option that allows it).
_EVENTS = (
    ("putsch", "putsch"),
    ("jeu_blanc", "jeu_blanc"),
    ("coup_detat", "coup_detat"),
    ("guillotine", "guillotine"),
    ("revolution", "revolution_swaps_titles"),
)


def manche_form(
    kind: GameKind, game: Game, state: PresidentState, number: int, entry: Entry | None = None, **form_args: Any
) -> RoundForm:
    """The form of manche ``number``: the card draw, or the order players went out in,
    who went out on a forbidden card, and the events the house rules allow."""
    rules = rules_of(game)
    players = list(game.players)
    by_id = {str(p.id): p for p in players}
    hierarchy = [by_id[p] for p in state["hierarchy"] if p in by_id]
    draw = bool(state.get("draw")) and bool(state.get("first"))
    choices = [SelectChoice("", "—"), *(SelectChoice(str(p.id), p.name) for p in hierarchy)]
    forbidden_words = forbidden_cards(rules)
    last = hierarchy[-1] if hierarchy else None
    # A lasting revolution: the order the cards are in at the end goes on to the next manche.
    ask_reversed = rules.revolution_persists and not rules.revolution_swaps_titles and not draw
    events_offered: list[tuple[str, str]] = []
    if not state.get("first") and not draw:
        labels = {
            "putsch": _("Putsch by %(name)s", name=last.name if last else ""),
            "jeu_blanc": _("Jeu blanc"),
            "coup_detat": _("Coup d’État"),
            "guillotine": _("Guillotine"),
            "revolution": _("Revolution: the titles are reversed"),
        }
        for value, option in _EVENTS:
            if not getattr(rules, option):
                continue
            if value == "putsch" and last is not None and str(last.id) == state.get("putsch_banned"):
                continue
            events_offered.append((value, labels[value]))

    class MancheForm(RoundForm):
        finish = FieldList(SelectField(coerce=str, validate_choice=False), min_entries=len(players))
        event = RadioField(
            _l("What happened"),
            choices=[SelectChoice("", _l("Nothing special")), *(SelectChoice(v, label) for v, label in events_offered)],
            default="",
            validate_choice=False,
        )
        jeu_blanc_player = SelectField(_l("Who had the jeu blanc"), choices=choices, validate_choice=False)
        coup_detat_player = SelectField(_l("Who made the coup d’État"), choices=choices, validate_choice=False)
        guillotine_player = SelectField(_l("Who laid the guillotine"), choices=choices, validate_choice=False)
        guillotine_vice = SelectField(_l("Named second"), choices=choices, validate_choice=False)
        guillotine_last = SelectField(_l("Named last"), choices=choices, validate_choice=False)
        submit = SubmitField(_l("Save the round"))

        def validate(self, extra_validators: Any = None) -> bool:
            fields_ok = super().validate(extra_validators)
            if self.round.errors:
                return False
            lang = current_lang()
            built: Entry = {}
            if draw:
                cards: dict[str, list[str]] = {}
                for p in hierarchy:
                    field = self[f"draw_{p.id}"]
                    try:
                        drawn = parse_typed_cards((field.data or "").strip(), lang)
                    except RulesError as e:
                        add_error(field, e.text.get(lang))
                        fields_ok = False
                        continue
                    cards[str(p.id)] = [str(c) for c in drawn]
                built = {"draw": cards}
            else:
                finish = [f.data for f in self.finish if f.data]
                if any(p not in by_id for p in finish):
                    add_error(self.finish, _("Choose a player of the game."))
                    fields_ok = False
                forbidden = [str(p.id) for p in hierarchy if self._fields.get(f"forbidden_{p.id}") is not None]
                forbidden = [p for p in forbidden if self[f"forbidden_{p}"].data]
                built = {"finish": finish, "finished_on": forbidden, "events": self._events()}
                if built["events"] is None:
                    fields_ok = False
                if ask_reversed:
                    built["reversed"] = bool(self["order_reversed"].data)
            if not fields_ok:
                return False
            try:
                self.result = play(game, state, built)
            except RulesError as e:
                self._place(e)
                return False
            self.entry = built
            return True

        def _events(self) -> dict[str, Any] | None:
            """The event chosen, as stored (None after placing an error)."""
            chosen = self.event.data or ""
            if not chosen:
                return {}
            if chosen not in dict(events_offered):
                # Without an event offered the page draws no event field: the message
                # goes to the form's summary (a hidden field's message is said there).
                add_error(self.event if events_offered else self.round, _("The house rules do not offer this."))
                return None
            if chosen == "putsch":
                return {"putsch": str(last.id) if last else ""}
            if chosen == "revolution":
                return {"revolution": True}
            if chosen == "guillotine":
                parts = {
                    "player": self.guillotine_player.data,
                    "vice": self.guillotine_vice.data,
                    "last": self.guillotine_last.data,
                }
                if not all(v in by_id for v in parts.values()):
                    add_error(self.event, _("Name the three players of the guillotine."))
                    return None
                return {"guillotine": parts}
            who = self[f"{chosen}_player"].data
            if who not in by_id:
                add_error(self[f"{chosen}_player"], _("Say who it was."))
                return None
            return {chosen: who}

        def _place(self, e: RulesError) -> None:
            """The engine's reason next to the field it names."""
            message = e.text.get(current_lang())
            where = e.field or ""
            id_of = {p.name: str(p.id) for p in players}
            head, _sep, rest = where.partition(".")
            name = rest.split("[")[0]
            if head == "draw" and name in id_of:
                add_error(self[f"draw_{id_of[name]}"], message)
            elif head == "finished_on" and name in id_of and f"forbidden_{id_of[name]}" in self._fields:
                add_error(self[f"forbidden_{id_of[name]}"], message)
            elif head == "events":
                add_error(self.event if events_offered else self.round, message)
            elif draw:
                add_error(self[f"draw_{hierarchy[0].id}"], message)
            else:
                add_error(self.finish, message)

    if draw:
        for p in hierarchy:
            setattr(MancheForm, f"draw_{p.id}", StringField(_("Card drawn by %(name)s", name=p.name)))
    elif forbidden_words:
        for p in hierarchy:
            setattr(MancheForm, f"forbidden_{p.id}", BooleanField(p.name))
    if ask_reversed:
        MancheForm.order_reversed = BooleanField(_l("At the end of the round, the order of the cards is reversed"))
    data: dict[str, Any] | None = None
    if entry is not None:
        notation = typed_notation(current_lang())
        data = {"finish": list(entry.get("finish") or [])}
        for key, cards in (entry.get("draw") or {}).items():
            data[f"draw_{key}"] = " ".join(notation.write(c) for c in parse_cards(cards))
        for key in entry.get("finished_on") or []:
            data[f"forbidden_{key}"] = True
        raw = entry.get("events") or {}
        for value, _option in _EVENTS:
            if value in raw:
                data["event"] = value
        if raw.get("jeu_blanc"):
            data["jeu_blanc_player"] = raw["jeu_blanc"]
        if raw.get("coup_detat"):
            data["coup_detat_player"] = raw["coup_detat"]
        if raw.get("guillotine"):
            for part in ("player", "vice", "last"):
                data[f"guillotine_{part}"] = raw["guillotine"].get(part)
    if ask_reversed:
        # The live manche's final table, the round's own entry, else the order the manche started in.
        data = {} if data is None else data
        data["order_reversed"] = bool((entry or {}).get("reversed", starts_reversed(state)))
    form = MancheForm(number, game.version, data=data, **form_args)
    for i, slot in enumerate(form.finish):
        slot.choices = choices
        slot.label.text = _("Out %(n)d", n=i + 1)
    if draw:  # the button says what it records
        form.submit.label.text = _("Save the card draw")
    lang = current_lang()
    form.draw = draw
    form.hierarchy = hierarchy
    form.finish_choices = [(str(p.id), p.name) for p in hierarchy]
    form.forbidden_words = forbidden_words
    form.ask_reversed = ask_reversed
    form.started_reversed = starts_reversed(state)
    form.events_offered = events_offered
    form.putsch_refused = (
        rules.putsch and last is not None and str(last.id) == state.get("putsch_banned") and not state.get("first")
    )
    form.cards_placeholder = typed_notation(lang).example
    form.picker = draw_picker(lang, rules, len(players))
    return form
