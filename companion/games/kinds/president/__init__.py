"""Le Président (seed 000) and its variante Piketty (seed 001) on the shared game layer.

Players enter, per manche, the order in which they went out and what happened (a
putsch, a jeu blanc…); Piketty's first manche is a card draw. The engine
(``companion.rules.president_outcome``) computes the new titles, the exchanges of the
next manche, the seats, the dealer and the leader, the deal, the points and the end.

What is stored names players by their id (a string); the engine is always asked with
the players' names, so that its reasons name them, and its answer is turned back into
ids. A manche's stored result is the whole state after it (:func:`state_after`):
the hierarchy, the titles, the totals, what the next manche needs (who may not putsch,
whether it is the first) and what the page shows of the last one (exchanges, dealer,
leader, deal, events, points), and the end (over, winners, losers), and whether the next
manche starts with the card order reversed (``reversed``, only when it does, after a
lasting revolution: :func:`starts_reversed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice

from companion import charts
from companion.forms import add_error, plain_int
from companion.games.follow import Follow
from companion.games.forms import RoundForm, SeatsForm
from companion.games.kinds.base import Entry, GameKind, State
from companion.games.kinds.president.season import PresidentSeason
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.i18n import current_lang, ngettext
from companion.i18n import gettext as _
from companion.models import Game, Group, Player
from companion.rules.cards import JOKER_WORD, RANKS_BY_PIPS, Card, Suit, parse_cards, parse_typed_cards, typed_notation
from companion.rules.i18n import RulesError
from companion.rules.president import PRESETS, Rules
from companion.rules.president_outcome import (
    Events,
    Guillotine,
    Outcome,
    deal_for,
    exchange_schedule,
    outcome,
)

DEFAULT_TARGET = 25
MAX_TARGET = 1000

#: The yes/no house rules, in the order of the new-game page: (option, label, one-line explanation).
_TOGGLES: tuple[tuple[str, Any, Any], ...] = (
    ("putsch", _l("Putsch"), _l("The Trou du cul may bet on going out first: no exchange that manche.")),
    ("jeu_blanc", _l("Jeu blanc"), _l("A hand without any card from the jack up takes the presidency unplayed.")),
    ("revolution", _l("Revolution"), _l("A quad reverses the order of the cards for the rest of the manche.")),
    ("revolution_on_triple_5_6", _l("Revolution on three 5s or 6s"), _l("A triple of 5s or 6s is a revolution too.")),
    ("revolution_persists", _l("Lasting revolution"), _l("The reversed order carries into the next manches.")),
    (
        "revolution_swaps_titles",
        _l("Revolution of the titles"),
        _l("Instead of the cards, the titles are reversed and the manche ends, without points."),
    ),
    ("twos_cut", _l("2s cut"), _l("Nothing goes on 2s; going out on a 2 ranks last.")),
    ("more_cards", _l("More cards"), _l("A player may lay more cards than the trick's count, of a higher rank.")),
    ("passe", _l("La passe"), _l("The same rank and count may be laid again; twice in a row locks the trick.")),
    ("passe_breakers", _l("Breaking the passe"), _l("2s (or a joker) of the right count break a locked trick.")),
    ("joker_no_finish", _l("No going out on a joker"), _l("Going out on a joker ranks last.")),
    ("joker_exchangeable", _l("Jokers are given"), _l("In the exchange, jokers count among the best cards.")),
    (
        "joker_wild",
        _l("Wild jokers"),
        _l("A joker only completes a set of another rank, never alone: left with only jokers, one finishes last."),
    ),
    (
        "coup_detat",
        _l("Coup d’État"),
        _l("A quad and a joker (or a triple and two jokers) takes the presidency; the manche ends."),
    ),
    (
        "guillotine",
        _l("Guillotine"),
        _l("A quad and two jokers takes the presidency and names the second and the last."),
    ),
    ("runs", _l("Runs"), _l("Three or more consecutive ranks may be led.")),
    (
        "tabula_rasa",
        _l("Tabula rasa"),
        _l("Equal ranks allowed; whoever completes every copy of a rank wins the trick (5 players and more)."),
    ),
    ("eight_clears", _l("8s clear"), _l("Laying 8s ends the trick.")),
    ("rapidity", _l("Rapidity"), _l("Out of turn, a player may complete the rank just laid.")),
    ("liar", _l("Président-Menteur"), _l("Cards are laid face down and announced; anyone may call the bluff.")),
    ("reduced", _l("32-card deck"), _l("7 to ace, for 3 or 4 players; the 7 is the highest card.")),
    (
        "piketty_two_decks",
        _l("Two decks at 4 or 5 players"),
        _l("Two decks without the 3s to 7s, instead of one without the 3s, 4s and 5s."),
    ),
    ("points", _l("Count points"), _l("The Président scores one less than the number of players, down to 0.")),
)
#: The toggles Piketty offers (its deck and order are fixed, and it has no jokers).
_PIKETTY_TOGGLES = ("putsch", "jeu_blanc", "revolution", "revolution_swaps_titles", "piketty_two_decks", "points")
#: The toggles only Piketty offers.
_PIKETTY_ONLY = ("piketty_two_decks",)

_PRESET_NAMES = {
    "angevin": (_l("Angevin"), _l("The ace is the highest card; 7s let the next player go lower.")),
    "wizz": (_l("Wizz"), _l("Laying the same rank skips players.")),
    "franck": (_l("Franck"), _l("Five-card poker plays; the last is called le Franck.")),
    "tarot": (_l("Tarot"), _l("Played with a tarot deck: trumps above the suits.")),
}
_FORBIDDEN_CARDS = {
    "two": _l("a 2"),
    "joker": _l("a joker"),
    "ace": _l("an ace"),
    "franck": _l("a 2 outside a Franckie"),
    "jokers": _l("only jokers left"),
}


def toggles_for(game: str) -> list[tuple[str, Any, Any]]:
    """The yes/no options of ``game`` the new-game page offers, as (option, label, explanation)."""
    if game == "piketty":
        return [t for t in _TOGGLES if t[0] in _PIKETTY_TOGGLES]
    return [t for t in _TOGGLES if t[0] not in _PIKETTY_ONLY]


def rules_of(game: Game) -> Rules:
    """The engine's rules of a game, from its stored options."""
    return Rules.from_options(game.rules or {}, game.kind)


def starts_reversed(state: State) -> bool:
    """Whether the manche after ``state`` starts with the card order reversed: the
    engine's outcome carries a lasting revolution (``revolution_persists``) over.

    A state holds ``reversed`` only when it is true, so that states stored before the
    order was kept read as not reversed and still follow from their rounds (an
    imported export is checked by scoring its rounds again)."""
    return bool(state.get("reversed"))


# --------------------------------------------------------------------- new game


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
        NewPresidentForm.preset = RadioField(  # type: ignore[attr-defined]
            _l("Variant"),
            choices=[
                SelectChoice("", _l("None: the plain rules")),
                *(SelectChoice(p, _PRESET_NAMES[p][0]) for p in PRESETS),
            ],
            default="",
        )
        NewPresidentForm.rule_decks = SelectField(  # type: ignore[attr-defined]
            _l("Decks"), choices=[SelectChoice(str(n), str(n)) for n in range(1, 5)], default="1"
        )
        NewPresidentForm.rule_jokers = SelectField(  # type: ignore[attr-defined]
            _l("Jokers"), choices=[SelectChoice(str(n), str(n)) for n in range(3)], default="0"
        )
        NewPresidentForm.rule_revolution_size = SelectField(  # type: ignore[attr-defined]
            _l("Cards for a revolution"), choices=[SelectChoice(str(n), str(n)) for n in (4, 7, 8)], default="4"
        )
        NewPresidentForm.first = RadioField(  # type: ignore[attr-defined]
            _l("The first manche"),
            choices=[
                SelectChoice("played", _l("Played without titles: enter who went out")),
                SelectChoice("draw", _l("A card draw gives the titles")),
            ],
            default="played",
        )
    form = NewPresidentForm(players, **form_args)
    form.toggles = toggles_for(game)  # type: ignore[attr-defined]
    form.preset_hints = _PRESET_NAMES  # type: ignore[attr-defined]
    return form


# ------------------------------------------------------------------------ state


def initial_state(game: Game) -> State:
    """Before the first manche: the players in seat order, nobody titled, no points."""
    rules = rules_of(game)
    seats = [str(p.id) for p in game.players]
    deal = deal_for(seats, rules.deck(len(seats)).size, rules.game)
    return {
        "players": seats,
        "hierarchy": seats,
        "titles": [],
        "totals": dict.fromkeys(seats, 0) if rules.points else {},
        "putsch_banned": None,
        "first": True,
        "draw": (game.setup or {}).get("first") == "draw" or game.kind == "piketty",
        "exchanges": [],
        "dealer": None,
        "leader": None,
        "deal": dict(deal.counts),
        "aside": deal.aside,
        "events": [],
        "event": {},
        "finished_last": [],
        "points": {},
        "over": False,
        "winners": [],
        "losers": [],
    }


def state_after(rules: Rules, before: State, entry: Entry, result: Outcome, id_of: dict[str, str]) -> State:
    """The state after a manche, from the engine's outcome (players named by name)."""

    def ids(names: Sequence[str]) -> list[str]:
        return [id_of[n] for n in names]

    hierarchy = ids(result.hierarchy)
    points = {id_of[n]: p for n, p in result.points.items()}
    totals = dict(before.get("totals") or {})
    over, losers, winners = False, [], []
    if result.standing is not None:
        totals = {id_of[n]: t for n, t in result.standing.totals.items()}
        over = result.standing.ended
        if over:
            losers = ids(result.standing.losers)
            high = max(totals.values())
            winners = [p for p in hierarchy if totals[p] == high]
    state: State = {
        "players": list(before["players"]),
        "hierarchy": hierarchy,
        "titles": [
            {"player": id_of[t.player], "rank": t.rank, "fr": t.name.fr, "en": t.name.en} for t in result.titles
        ],
        "totals": totals,
        "putsch_banned": id_of[result.putsch_banned] if result.putsch_banned else None,
        "first": False,
        "draw": False,
        "exchanges": [
            {"from": id_of[x.giver], "to": id_of[x.receiver], "count": x.count, "cards": x.cards, "jokers": x.jokers}
            for x in result.exchanges
        ],
        "dealer": id_of[result.dealer],
        "leader": id_of[result.leader],
        "deal": {id_of[n]: c for n, c in result.deal.counts.items()},
        "aside": result.deal.aside,
        "events": list(result.events),
        "event": dict(entry.get("events") or {}),
        "finished_last": ids(result.finished_last),
        "points": points,
        "over": over,
        "winners": winners,
        "losers": losers,
    }
    if result.reversed:
        # Only when it is: a state without it (every state stored before) is in the usual order.
        state["reversed"] = True
    return state


def play(game: Game, state: State, entry: Entry) -> State:
    """The state after the manche ``entry`` from ``state``: the engine asked with the
    players' names (its reasons name them). Raises :class:`RulesError`."""
    rules = rules_of(game)
    name_of = {str(p.id): p.name for p in game.players}
    id_of = {name: key for key, name in name_of.items()}

    def named(key: object) -> str:
        return name_of.get(str(key), str(key))

    hierarchy = [named(p) for p in state["hierarchy"]]
    totals = {named(p): int(t) for p, t in (state.get("totals") or {}).items()} if rules.points else None
    banned = state.get("putsch_banned")
    if "draw" in entry:
        draw = {named(p): parse_cards(cards) for p, cards in (entry.get("draw") or {}).items()}
        result = outcome(rules, hierarchy, draw=draw, totals=totals)
    else:
        raw = entry.get("events") or {}
        guillotine = raw.get("guillotine")
        events = Events(
            putsch=named(raw["putsch"]) if raw.get("putsch") else None,
            jeu_blanc=named(raw["jeu_blanc"]) if raw.get("jeu_blanc") else None,
            coup_detat=named(raw["coup_detat"]) if raw.get("coup_detat") else None,
            guillotine=Guillotine(named(guillotine["player"]), named(guillotine["vice"]), named(guillotine["last"]))
            if guillotine
            else None,
            revolution=bool(raw.get("revolution")),
        )
        result = outcome(
            rules,
            hierarchy,
            finish=[named(p) for p in entry.get("finish") or []],
            finished_on={named(p): True for p in entry.get("finished_on") or []},
            events=events,
            first=bool(state.get("first")),
            putsch_banned=named(banned) if banned else None,
            totals=totals,
            # Without the order typed (entries saved before it was asked), it is the one the manche started in.
            reversed_at_end=bool(entry.get("reversed", starts_reversed(state))),
        )
    return state_after(rules, state, entry, result, id_of)


# ------------------------------------------------------------------------ manche


def _forbidden_cards(rules: Rules) -> list[str]:
    """What going out on ranks last under ``rules``, in words (the engine says which)."""
    return [str(_FORBIDDEN_CARDS[finish]) for finish in rules.forbidden_finishes()]


#: The events of a manche, as the form offers them: (value, the option that allows it).
_EVENTS = (
    ("putsch", "putsch"),
    ("jeu_blanc", "jeu_blanc"),
    ("coup_detat", "coup_detat"),
    ("guillotine", "guillotine"),
    ("revolution", "revolution_swaps_titles"),
)


def manche_form(kind: GameKind, game: Game, state: State, number: int, entry: Entry | None = None) -> RoundForm:
    """The form of manche ``number``: the card draw, or the order players went out in,
    who went out on a forbidden card, and the events the house rules allow."""
    rules = rules_of(game)
    players = list(game.players)
    by_id = {str(p.id): p for p in players}
    hierarchy = [by_id[p] for p in state["hierarchy"] if p in by_id]
    draw = bool(state.get("draw")) and bool(state.get("first"))
    choices = [SelectChoice("", "—"), *(SelectChoice(str(p.id), p.name) for p in hierarchy)]
    forbidden_words = _forbidden_cards(rules)
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
        MancheForm.order_reversed = BooleanField(  # type: ignore[attr-defined]
            _l("At the end of the round, the order of the cards is reversed")
        )
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
    form = MancheForm(number, game.version, data=data)
    for i, slot in enumerate(form.finish):
        slot.choices = choices
        slot.label.text = _("Out %(n)d", n=i + 1)
    if draw:  # the button says what it records
        form.submit.label.text = _("Save the card draw")
    lang = current_lang()
    form.draw = draw  # type: ignore[attr-defined]
    form.hierarchy = hierarchy  # type: ignore[attr-defined]
    form.finish_choices = [(str(p.id), p.name) for p in hierarchy]  # type: ignore[attr-defined]
    form.forbidden_words = forbidden_words  # type: ignore[attr-defined]
    form.ask_reversed = ask_reversed  # type: ignore[attr-defined]
    form.started_reversed = starts_reversed(state)  # type: ignore[attr-defined]
    form.events_offered = events_offered  # type: ignore[attr-defined]
    form.putsch_refused = (  # type: ignore[attr-defined]
        rules.putsch and last is not None and str(last.id) == state.get("putsch_banned") and not state.get("first")
    )
    form.cards_placeholder = typed_notation(lang).example  # type: ignore[attr-defined]
    form.picker = draw_picker(lang, rules, len(players))  # type: ignore[attr-defined]
    return form


def draw_picker(lang: str, rules: Rules, n_players: int) -> dict[str, Any]:
    """What the card picker script needs for a draw (static/picker.js): the ranks and
    suits of this deck; no card is worth points here."""
    deck = rules.deck(n_players)
    ranks = [r for r in RANKS_BY_PIPS if any(c.rank is r for c in deck.counts)]
    notation = typed_notation(lang)
    return {
        "ranks": [[r.value, r.label(lang)] for r in ranks],
        "suits": [[s.value, s.symbol, s.name_in(lang)] for s in Suit],
        "joker": JOKER_WORD,
        "read": {
            "ranks": {k: r.value for k, r in notation.ranks.items()},
            "suits": {k: s.value for k, s in notation.suits.items()},
            "jokers": sorted(notation.jokers),
        },
        "points": {r.value: 0 for r in ranks} | {"joker": 0},
    }


# ------------------------------------------------------------------- the page


def _title(state: State, player: str, lang: str) -> str:
    for t in state.get("titles") or []:
        if t["player"] == player:
            return str(t["fr"] if lang == "fr" else t["en"])
    return ""


def exchange_lines(state: State, names: dict[str, str]) -> list[str]:
    """The exchanges of the next manche in plain words, outermost pair first."""
    lines = []
    for x in state.get("exchanges") or []:
        if x["cards"] != "best":
            continue
        lines.append(
            ngettext(
                "%(giver)s gives their best card to %(receiver)s, who gives back a card of their choice.",
                "%(giver)s gives their %(num)d best cards to %(receiver)s, "
                "who gives back %(num)d cards of their choice.",
                x["count"],
                giver=names.get(x["from"], x["from"]),
                receiver=names.get(x["to"], x["to"]),
            )
        )
    return lines


def event_lines(state: State, names: dict[str, str]) -> list[str]:
    """What happened in the manche that led to ``state``, in words."""
    raw = state.get("event") or {}
    lines = []
    for event in state.get("events") or []:
        if event == "draw":
            lines.append(_("Titles drawn by cards."))
        elif event == "putsch_succeeded":
            lines.append(_("Putsch succeeded: %(name)s.", name=names.get(raw.get("putsch", ""), "")))
        elif event == "putsch_failed":
            lines.append(
                _(
                    "Putsch failed: %(name)s loses a point and may not try again at the next manche.",
                    name=names.get(raw.get("putsch", ""), ""),
                )
            )
        elif event == "jeu_blanc":
            lines.append(_("Jeu blanc: %(name)s takes the presidency; no points.", name=names.get(raw["jeu_blanc"])))
        elif event == "coup_detat":
            lines.append(_("Coup d’État: %(name)s takes the presidency; no points.", name=names.get(raw["coup_detat"])))
        elif event == "guillotine":
            g = raw["guillotine"]
            lines.append(
                _(
                    "Guillotine: %(name)s takes the presidency, %(vice)s comes second and %(last)s last; no points.",
                    name=names.get(g["player"]),
                    vice=names.get(g["vice"]),
                    last=names.get(g["last"]),
                )
            )
        elif event == "revolution":
            lines.append(_("Revolution: the titles are reversed; no points."))
        elif event == "finish_last":
            lines.append(
                _(
                    "Went out on a forbidden card, so ranked last: %(names)s.",
                    names=", ".join(names.get(p, p) for p in state.get("finished_last") or []),
                )
            )
    return lines


def house_rules(rules: Rules) -> list[str]:
    """The house rules in force, in words (for the game page)."""
    lines = []
    if rules.preset:
        lines.append(str(_PRESET_NAMES[rules.preset][0]))
    for option, label, _hint in _TOGGLES:
        if option != "points" and getattr(rules, option, False):
            lines.append(str(label))
    if rules.game == "president" and rules.decks > 1:
        lines.append(ngettext("%(num)d deck", "%(num)d decks", rules.decks))
    if rules.jokers:
        lines.append(ngettext("%(num)d joker", "%(num)d jokers", rules.jokers))
    if rules.points:
        lines.append(ngettext("Game to %(num)d point", "Game to %(num)d points", rules.target))
    return lines


# ------------------------------------------------------------------- the kinds


# The referee's parts read this module's helpers above: imported once they are defined.
from companion.games.kinds.president.follow import PresidentFollow  # noqa: E402
from companion.games.kinds.president.referee import PresidentCheck  # noqa: E402
from companion.games.kinds.president.rules_pages import PresidentRulesPages  # noqa: E402


class _PresidentFamily(GameKind):
    """What le Président and Piketty share: everything but their id and names."""

    game_template = "games/president.html"
    round_template = "games/president_round.html"
    new_template = "games/new_president.html"

    round_word = "round"

    season = PresidentSeason(event_lines)

    check: QuickCheck = PresidentCheck()
    rules_pages: RulesPages = PresidentRulesPages()
    follow: Follow = PresidentFollow()

    def leaders(self, state: State) -> list[str]:
        """The highest total (with points), else the sitting Président."""
        totals = state.get("totals") or {}
        hierarchy = list(state.get("hierarchy") or [])
        if totals:
            best = max(totals.values())
            return [p for p in hierarchy if totals.get(p) == best]
        return hierarchy[:1] if not state.get("first") else []

    def setup_form(self, group: Group | None, players: list[Player], **form: Any) -> SeatsForm:
        return new_game_form(self.id, players, **form)

    def setup_fields(self, rules: dict[str, Any], setup: dict[str, Any], seats: list[str]) -> dict[str, str]:
        """The new-game form as filled in for these house rules: each option as the
        engine reads them (a preset's bundle included), the first manche's way."""
        chosen = Rules.from_options(rules, self.id)
        fields = super().setup_fields(rules, setup, seats)
        fields |= {"target": str(chosen.target), "titles": chosen.titles}
        fields |= {f"rule_{option}": "y" for option, _label, _hint in toggles_for(self.id) if getattr(chosen, option)}
        if self.id == "president":
            fields |= {f"rule_{n}": str(getattr(chosen, n)) for n in ("decks", "jokers", "revolution_size")}
            fields |= {"preset": chosen.preset or "", "first": str(setup.get("first", ""))}
        return fields

    def initial_state(self, game: Game) -> State:
        return initial_state(game)

    def round_form(self, game: Game, state: State, number: int, entry: Entry | None = None) -> RoundForm:
        return manche_form(self, game, state, number, entry)

    def score(self, game: Game, state: State, entry: Entry) -> State:
        return play(game, state, entry)

    def summary(self, before: State, after: State, names: dict[str, str]) -> list[str]:
        lines = []
        if before.get("hierarchy") != after.get("hierarchy"):
            order = ", ".join(names.get(p, p) for p in after.get("hierarchy", []))
            lines.append(_("Titles now, best first: %(names)s", names=order))
        for p in after.get("players", []):
            old, new = (before.get("totals") or {}).get(p), (after.get("totals") or {}).get(p)
            if old != new:
                lines.append(_("%(name)s: %(old)s → %(new)s", name=names.get(p, p), old=old, new=new))
        if before.get("winners") != after.get("winners"):
            winners = ", ".join(names.get(p, p) for p in after.get("winners", [])) or "—"
            lines.append(_("Winners: %(names)s", names=winners))
        return lines

    def page_context(self, game: Game, state: State, names: dict[str, str]) -> dict[str, Any]:
        rules = rules_of(game)
        lang = current_lang()
        hierarchy = list(state.get("hierarchy") or [])
        last = hierarchy[-1] if hierarchy else None
        putsch_possible = (
            rules.putsch and not state.get("first") and last is not None and last != state.get("putsch_banned")
        )
        deal = state.get("deal") or {}
        return {
            "rules": rules,
            "board": hierarchy,
            "title_of": {p: _title(state, p, lang) for p in hierarchy},
            "exchanges": exchange_lines(state, names),
            "jokers_kept": rules.jokers > 0 and not rules.joker_exchangeable,
            "putsch_note": names.get(last or "", "") if putsch_possible and state.get("exchanges") else None,
            "events": event_lines(state, names),
            "reversed_next": starts_reversed(state),
            "house_rules": house_rules(rules),
            "even_deal": len(set(deal.values())) == 1,
            "deal_each": next(iter(deal.values()), 0),
            "winner_names": [names.get(p, p) for p in (game.outcome or {}).get("winners", state.get("winners") or [])],
            "loser_names": [names.get(p, p) for p in state.get("losers") or []],
            "manche_events": lambda result: event_lines(result, names),
            "draw_cards": lambda cards: [Card.parse(c) for c in cards],
            "names_of": lambda ids: [names.get(p, p) for p in ids],
            # Drawn only by the game page (one query, when it is called), when points are counted.
            "points_chart": (lambda: charts.president_chart(game, names, self.draws_first(game)))
            if rules.points
            else None,
        }


class President(_PresidentFamily):
    """Le Président / Trou du cul (seed 000)."""

    id = "president"
    name = _l("Le Président")
    blurb = _l("Titles, exchanges and points: the Trou du cul deals.")


class Piketty(_PresidentFamily):
    """Président, variante Piketty (seed 001): 4 to 9 players, titles drawn by cards."""

    id = "piketty"
    name = _l("Piketty")
    blurb = _l("Président with titles drawn by cards, 4 to 9 players, two decks from 6.")

    def draws_first(self, game: Any = None) -> bool:
        """Piketty's first titles are always drawn by cards: its first stored round is
        « le tirage », and the first manche played is manche 1."""
        return True
