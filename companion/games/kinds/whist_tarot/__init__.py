"""Whist avec un jeu de Tarot on the shared game layer (seed 002): its setup form (the
players and the first dealer), its deal form in two steps, and each deal settled by the
engine (``companion.rules.whist_tarot``).

A deal is entered as it is played: the bids first, saved at once (the round's entry is
``{"bids": …}``, :meth:`WhistTarot.pending` is true and its result is the state with
the deal in progress), then the tricks, on the same round (``{"bids": …, "tricks": …}``).

The stored state (``Round.result``; players named by their id as a string) is a
:class:`~.state.WhistState` (each key documented there).

The engine is asked with the players' names, so that its reasons name them; its fields
(``bids.Ann``) are mapped back to the form's fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, RadioField, SubmitField
from wtforms.fields.choices import SelectChoice

from companion.forms import add_error, plain_int
from companion.games.forms import DealerSeatsForm, RoundForm
from companion.games.kinds.base import Entry, GameKind, Turn, figure_changes
from companion.games.kinds.whist_tarot import charts
from companion.games.kinds.whist_tarot.api import WHIST_TAROT_API
from companion.games.kinds.whist_tarot.live_play import WhistLivePlay
from companion.games.kinds.whist_tarot.referee import WhistCheck
from companion.games.kinds.whist_tarot.rules_pages import WhistRulesPages
from companion.games.kinds.whist_tarot.season import WhistSeason
from companion.games.kinds.whist_tarot.sentence import example, read_deal
from companion.games.kinds.whist_tarot.state import DealSpec, WhistState
from companion.games.live_play import LivePlay
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Game, Group, Player
from companion.rules import whist_tarot
from companion.rules.i18n import RulesError, Text
from companion.sentence import Hint, Person, Reading


class NewWhistForm(DealerSeatsForm):
    """Players in seat order (3 or 4) and who deals first."""

    submit = SubmitField(_l("Start the game"))
    #: The stake each player starts with (the new-game page says it).
    stake = whist_tarot.STAKE

    def check_players(self, ids: Sequence[str]) -> None:
        """The engine's limits (3 or 4 players)."""
        whist_tarot.check_players(list(ids))

    @property
    def rules(self) -> dict[str, Any]:
        """No house rules: the engine takes none."""
        return {}


# --- the engine, asked with names


def _spec(spec: whist_tarot.DealSpec, key_of: Mapping[str, str]) -> DealSpec:
    return {"dealer": key_of[spec.dealer], "cards": spec.cards, "blind": spec.blind}


def _moved(error: RulesError, key_of: Mapping[str, str]) -> RulesError:
    """The engine's error with its field naming the player by id (``bids.12``)."""
    source, _dot, name = (error.field or "").partition(".")
    if name in key_of:
        return RulesError(error.text, f"{source}.{key_of[name]}")
    return error


_GAME_OVER = Text("La partie est finie : une mise est vide.", "The game is over: a stake is empty.")


def play_deal(state: WhistState, entry: Entry, name_of: Mapping[str, str]) -> WhistState:
    """The state after a deal entered as ``entry`` (bids, and tricks once played) from a
    state where no deal is pending; :class:`RulesError` (fields by player id) otherwise."""
    players = list(state["players"])
    key_of = {name_of[p]: p for p in players}
    named = [name_of[p] for p in players]
    deal = state["deal"]
    dealer, cards, blind = name_of[deal["dealer"]], int(deal["cards"]), bool(deal["blind"])
    bids = entry.get("bids") or {}
    try:
        if state.get("over"):
            raise RulesError(_GAME_OVER, "bids")
        # The bids as they were made at the table, each judged by the engine in turn.
        table = whist_tarot.Deal(tuple(named), dealer, cards, {}, blind=blind)
        for name in whist_tarot.bidding_order(named, dealer):
            # A missing or malformed bid is the engine's to refuse (its check reads any value).
            bid = whist_tarot.Bid(name, cast(int, bids.get(key_of[name])))
            verdict = table.check(bid)
            if not verdict.legal:
                assert verdict.reason is not None
                raise RulesError(verdict.reason, f"bids.{name}")
            table = table.apply(bid)
        if "tricks" not in entry:
            return {
                **state,
                "pending": True,
                "played": deal.copy(),
                "bids": {p: bids[p] for p in players},
                "tricks": {},
                "losses": {},
            }
        tricks = entry.get("tricks") or {}
        settled = whist_tarot.settle(
            named,
            dealer,
            cards,
            blind,
            {name_of[p]: v for p, v in state["stakes"].items()},
            {name_of[p]: v for p, v in bids.items() if p in name_of},
            {name_of[p]: v for p, v in tricks.items() if p in name_of},
        )
    except RulesError as e:
        raise _moved(e, key_of) from None
    return {
        "players": players,
        "stakes": {key_of[n]: v for n, v in settled.stakes.items()},
        "deal": _spec(settled.next, key_of),
        "pending": False,
        "played": deal.copy(),
        "bids": {p: bids[p] for p in players},
        "tricks": {p: tricks[p] for p in players},
        "losses": {key_of[n]: v for n, v in settled.losses.items()},
        "over": settled.ended,
        "winners": [key_of[n] for n in settled.winners],
    }


#: The largest number of tricks a bid or a trick count is read as (the engine then says
#: what a deal allows: a line may say « Élodie 9 » on a deal of 5 cards).
_MOST_SAID = 99


def order_of(state: WhistState) -> list[str]:
    """Who bids, in order, in the deal of ``state`` (from the dealer's left, the dealer last)."""
    return list(whist_tarot.bidding_order(state["players"], state["deal"]["dealer"]))


def deal_form(game: Game, state: WhistState, number: int, entry: Entry | None = None, **form_args: Any) -> RoundForm:
    """The form of deal ``number`` from ``state`` (no deal pending in it): the bids only
    for a new deal, the tricks too once the bids are in (``entry`` pre-fills it)."""
    name_of = {str(p.id): p.name for p in game.players}
    deal = state["deal"]
    cards = int(deal["cards"])
    order = order_of(state)
    dealer = deal["dealer"]
    step = "bids" if entry is None else ("tricks" if "tricks" not in entry else "all")
    values = [SelectChoice(str(n), str(n)) for n in range(cards + 1)]

    class DealForm(RoundForm):
        tricks_total = HiddenField(_l("Tricks"))
        submit = SubmitField(
            {"bids": _l("Save the bids"), "tricks": _l("Save the tricks"), "all": _l("Save the hand")}[step]
        )

        def validate(self, extra_validators: Any = None) -> bool:
            """Every player's bid (and tricks) chosen, then the engine's judgement."""
            ok = super().validate(extra_validators)
            if self.round.errors:
                return False
            bids: dict[str, int] = {}
            for p in order:
                # Any whole number reaches the engine, whose refusal says why (« On annonce de 0 à 5 plis. »).
                value = plain_int(self[f"bid_{p}"].data or "", 0, _MOST_SAID)
                if value is None:
                    add_error(self[f"bid_{p}"], _("Choose the bid of %(name)s.", name=name_of[p]))
                    ok = False
                else:
                    bids[p] = value
            tricks: dict[str, int] | None = None
            if step != "bids":
                given = {p: (self[f"tricks_{p}"].data or "") for p in order}
                if step == "all" or any(given.values()):
                    tricks = {}
                    for p in order:
                        value = plain_int(given[p], 0, _MOST_SAID)
                        if value is None:
                            add_error(self[f"tricks_{p}"], _("Choose the tricks of %(name)s.", name=name_of[p]))
                            ok = False
                        else:
                            tricks[p] = value
            if not ok:
                return False
            entry: Entry = {"bids": bids} if tricks is None else {"bids": bids, "tricks": tricks}
            try:
                self.result = play_deal(state, entry, name_of)
            except RulesError as e:
                source, _dot, key = (e.field or "").partition(".")
                field_name = f"bid_{key}" if source == "bids" else f"tricks_{key}"
                target = self[field_name] if key in name_of and field_name in self else None
                if target is None:
                    target = self.tricks_total if source == "tricks" else self[f"bid_{dealer}"]
                add_error(target, e.text.get(current_lang()))
                return False
            self.entry = entry
            return True

    for p in order:
        setattr(
            DealForm,
            f"bid_{p}",
            RadioField(_("Bid of %(name)s", name=name_of[p]), choices=values, validate_choice=False),
        )
        setattr(
            DealForm,
            f"tricks_{p}",
            RadioField(_("Tricks of %(name)s", name=name_of[p]), choices=values, validate_choice=False),
        )
    data = None
    if entry is not None:
        data = {f"bid_{p}": str(v) for p, v in (entry.get("bids") or {}).items()}
        data |= {f"tricks_{p}": str(v) for p, v in (entry.get("tricks") or {}).items()}
    form = DealForm(number, game.version, data=data, **form_args)
    form.step = step
    form.order = order
    others = [plain_int(form[f"bid_{p}"].data or "", 0, cards) for p in order if p != dealer]
    known = [v for v in others if v is not None]
    #: Whether every other player's bid is in the form, and then the dealer's forbidden
    #: bid (the engine's :func:`~companion.rules.whist_tarot.forbidden_bid`; None: none).
    form.others_bid = len(known) == len(others)
    form.forbidden = whist_tarot.forbidden_bid(cards, known) if form.others_bid else None
    #: The same, for the page's script as the other bids are tapped: the engine's answer
    #: for every total the others' bids can make (index: that total), so that the script
    #: only adds up and reads, and decides nothing.
    form.forbidden_by_total = [whist_tarot.forbidden_bid(cards, [total]) for total in range(cards * len(others) + 1)]
    #: What is said of that bid: the engine's one sentence (its refusal's), now and for
    #: every total, so that neither the page nor its script words it again.
    lang = current_lang()

    def said(bid: int | None) -> str | None:
        return None if bid is None else whist_tarot.forbidden_bid_text(name_of[dealer], bid, cards).get(lang)

    form.forbidden_said = said(form.forbidden)
    form.forbidden_said_by_total = [said(bid) for bid in form.forbidden_by_total]
    return form


class WhistTarot(GameKind[WhistState]):
    """Whist with a tarot deck: bids, tricks, stakes of 14 cards (seed 002)."""

    id = "whist-tarot"
    api = WHIST_TAROT_API
    name = _l("Whist with a tarot deck")
    blurb = _l("Bid your tricks exactly: every trick off costs a card of your stake.")

    season = WhistSeason()

    check: QuickCheck = WhistCheck()
    rules_pages: RulesPages = WhistRulesPages()
    live_play: LivePlay = WhistLivePlay()
    new_template = "games/new_whist_tarot.html"
    game_template = "games/whist_tarot.html"
    display_template = "display/_whist_tarot.html"
    round_template = "games/whist_tarot_round.html"

    def turn(self, game: Game, state: WhistState) -> Turn | None:
        """The deal in play or the next one: its dealer, and the first to bid (on the
        dealer's left)."""
        if self.over(state):
            return None
        return Turn(str(state["deal"]["dealer"]), str(order_of(state)[0]))

    def leaders(self, state: WhistState) -> list[str]:
        """The largest stake (the rule of the end, seed 002), ties sharing."""
        best = max(state["stakes"].values())
        return [p for p in state["players"] if state["stakes"][p] == best]

    def setup_form(self, group: Group | None, players: list[Player], **form: Any) -> NewWhistForm:
        return NewWhistForm(players, **form)

    def setup_fields(self, rules: dict[str, Any], setup: dict[str, Any], seats: list[str]) -> dict[str, str]:
        fields = super().setup_fields(rules, setup, seats)
        dealer = setup.get("dealer")
        if dealer is not None:
            fields["dealer"] = str(dealer)
        return fields

    def initial_state(self, game: Game) -> WhistState:
        players = [str(p.id) for p in game.players]
        chosen = (game.setup or {}).get("dealer")
        first = whist_tarot.first_deal(players, chosen if chosen in players else None)
        return {
            "players": players,
            "stakes": dict.fromkeys(players, whist_tarot.STAKE),
            "deal": {"dealer": first.dealer, "cards": first.cards, "blind": first.blind},
            "pending": False,
            "played": None,
            "bids": {},
            "tricks": {},
            "losses": {},
            "over": False,
            "winners": [],
        }

    def round_form(
        self, game: Game, state: WhistState, number: int, entry: Entry | None = None, **form: Any
    ) -> RoundForm:
        return deal_form(game, state, number, entry, **form)

    def score(self, game: Game, state: WhistState, entry: Entry) -> WhistState:
        return play_deal(state, entry, {str(p.id): p.name for p in game.players})

    def pending(self, entry: Entry) -> bool:
        return "tricks" not in (entry or {})

    def state_pending(self, state: WhistState) -> bool:
        return bool(state.get("pending"))

    def summary(self, before: WhistState, after: WhistState, names: dict[str, str]) -> list[str]:
        return figure_changes(before, after, names, "stakes")

    def line_hint(self, game: Game, state: WhistState, number: int, lang: str) -> Hint | None:
        """The bids, or the tricks once they are in, in the form's order
        (:func:`.sentence.example`)."""
        people = [Person(str(p.id), p.name) for p in game.players]
        return example(people, state, lang)

    def read_line(
        self,
        game: Game,
        state: WhistState,
        number: int,
        line: str,
        lang: str,
        me: str | None = None,
        entry: Entry | None = None,
    ) -> Reading | None:
        """The deal said in one line (:func:`.sentence.read_deal`): the bids, then the
        tricks; a bid the dealer may not make is filled, and the form refuses it."""
        people = [Person(str(p.id), p.name) for p in game.players]
        step = "bids" if entry is None else ("tricks" if "tricks" not in entry else "all")
        return read_deal(line, people, state, lang, me, step)

    def page_context(self, game: Game, state: WhistState, names: dict[str, str]) -> dict[str, Any]:
        stakes = state["stakes"]
        ranking = sorted(state["players"], key=lambda p: -stakes[p])
        places = {p: 1 + sum(1 for q in state["players"] if stakes[q] > stakes[p]) for p in ranking}
        deal = state["deal"]
        # Who does what in the deal in play (or the next one), as the engine says it.
        roles = whist_tarot.roles(state["players"], deal["dealer"])
        return {
            "ranking": ranking,
            "places": places,
            "stake": whist_tarot.STAKE,
            "order": order_of(state),
            "dealer": deal["dealer"],
            "first_bidder": roles.first_bidder,
            "leader": roles.first_leader,
            "cutter": roles.cutter,
            "winner_names": [names[p] for p in (game.ending or {}).get("winners", state.get("winners", []))],
            # Drawn only by the game page (one query, when it is called).
            "stakes_chart": lambda: charts.stakes_chart(game, names, whist_tarot.STAKE),
        }
