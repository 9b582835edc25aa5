"""La crapouille on the shared game layer (seed 003): its setup form, its hand form,
and each hand scored by the engine (``companion.rules.crapouille``).

Players are named by their id (as a string) in what is stored, so a renamed player
keeps the scores; the engine is asked with names when a form is judged, so that its
reasons name the players. A hand's stored result is the whole scoresheet after it
(totals, eliminations, places…): a page never replays the hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from companion import charts
from companion.forms import add_error, plain_int
from companion.games.follow import Follow
from companion.games.forms import RoundForm, SeatsForm
from companion.games.kinds.base import Entry, GameKind, State
from companion.games.kinds.crapouille.season import CrapouilleSeason
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.models import Game, Group, Player
from companion.rules import crapouille
from companion.rules.cards import (
    JOKER_WORD,
    JOKERS,
    RANKS_BY_PIPS,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    parse_typed_cards,
    typed_notation,
)
from companion.rules.i18n import RulesError


class NewCrapouilleForm(SeatsForm):
    """Players in seat order and the house rules of a crapouille game."""

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
    players: list[Player], number: int, sheet: crapouille.Scoresheet, game_version: int, entry: Entry | None = None
) -> RoundForm:
    """A form for hand ``number`` of a game at ``game_version``, asking only the players
    still in; ``entry`` (a hand already entered) pre-fills it for an edit."""
    live = [p for p in players if str(p.id) in sheet.in_play]
    most = crapouille.MAX_HAND_POINTS

    class HandForm(RoundForm):
        winner = RadioField(
            _l("Who went out?"),
            choices=[SelectChoice(str(p.id), p.name) for p in live],
            validators=[InputRequired(_l("Say who went out."))],
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
            self.outcome = sheet.score_hand(self.winner.data, hands=hands, points=points)
            self.entry = entry_for(self.winner.data, hands, points)
            self.result = state_of(self.outcome)
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
    data = None
    if entry is not None:
        data = {"winner": entry.get("winner")}
        notation = typed_notation(current_lang())
        for key, cards in (entry.get("hands") or {}).items():
            data[f"cards_{key}"] = " ".join(notation.write(c) for c in parse_cards(cards))
        for key, value in (entry.get("points") or {}).items():
            data[f"total_{key}"] = str(value)
    form = HandForm(number, game_version, data=data)
    # A hand followed live that ended on a 2: who drew one more card, which counts (the
    # engine named him; seed 003: « le joueur suivant prend une carte supplémentaire »).
    extra = None if entry is None else entry.get("extra_card")
    form.extra_card = extra if any(str(p.id) == extra for p in live) else None  # type: ignore[attr-defined]
    lang = current_lang()
    form.picker = card_picker(lang)  # type: ignore[attr-defined]
    form.card_values = card_values(lang)  # type: ignore[attr-defined]
    form.cards_placeholder = typed_notation(lang).example  # type: ignore[attr-defined]
    return form


def _points(rank: Rank) -> int:
    # Every suit of a rank costs the same in la crapouille.
    return crapouille.card_points(Card(rank=rank, suit=Suit.SPADES))


@cache
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


@cache
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


def entry_for(winner: str, hands: dict[str, Any], points: dict[str, int]) -> Entry:
    """What is stored of a hand as entered: the winner, cards (canonical) or totals."""
    return {
        "winner": winner,
        "hands": {p: format_cards(cards).split() for p, cards in hands.items()},
        "points": dict(points),
    }


def state_of(outcome: crapouille.HandResult) -> State:
    """The scoresheet after a hand, as stored (``Round.result``), with the hand's points."""
    sheet = outcome.sheet
    return {
        "players": list(sheet.players),
        "points": dict(outcome.points),
        "totals": dict(sheet.totals),
        "eliminated": list(outcome.eliminated),
        "eliminations": [list(group) for group in sheet.eliminations],
        "in_play": list(sheet.in_play),
        "over": sheet.over,
        "places": sheet.places(),
        "ranking": sheet.ranking() if sheet.over else [],
        "winners": sheet.winners(),
    }


def sheet_of(state: State) -> crapouille.Scoresheet:
    """The engine's scoresheet from a stored state (no hand replayed)."""
    return crapouille.Scoresheet(
        tuple(state["players"]),
        {p: int(t) for p, t in state["totals"].items()},
        tuple(tuple(group) for group in state.get("eliminations", [])),
    )


# The referee's parts read this module's card picker, card values and setup form above: imported once it is defined.
from companion.games.kinds.crapouille.follow import CrapouilleFollow  # noqa: E402
from companion.games.kinds.crapouille.referee import CrapouilleCheck  # noqa: E402
from companion.games.kinds.crapouille.rules_pages import CrapouilleRulesPages  # noqa: E402


class Crapouille(GameKind):
    """La crapouille: penalty points, out past 300 (seed 003)."""

    id = "crapouille"
    name = _l("La crapouille")
    blurb = _l("Crazy Eights cousin: penalty points, out past 300.")

    season = CrapouilleSeason()

    check: QuickCheck = CrapouilleCheck()
    rules_pages: RulesPages = CrapouilleRulesPages()
    follow: Follow = CrapouilleFollow()
    new_template = "games/new_crapouille.html"
    game_template = "games/crapouille.html"
    round_template = "games/crapouille_hand.html"

    def leaders(self, state: State) -> list[str]:
        """The lowest total among the players still in."""
        live = state["in_play"]
        best = min(state["totals"][p] for p in live)
        return [p for p in live if state["totals"][p] == best]

    def setup_form(self, group: Group | None, players: list[Player], **form: Any) -> NewCrapouilleForm:
        return NewCrapouilleForm(players, **form)

    def setup_fields(self, rules: dict[str, Any], setup: dict[str, Any], seats: list[str]) -> dict[str, str]:
        fields = super().setup_fields(rules, setup, seats)
        if crapouille.Options.from_options(rules).super:
            fields["super_crapouille"] = "y"
        return fields

    def initial_state(self, game: Game) -> State:
        sheet = crapouille.Scoresheet.start([str(p.id) for p in game.players])
        return {
            "players": list(sheet.players),
            "points": {},
            "totals": dict(sheet.totals),
            "eliminated": [],
            "eliminations": [],
            "in_play": list(sheet.in_play),
            "over": False,
            "places": sheet.places(),
            "ranking": [],
            "winners": [],
        }

    def round_form(self, game: Game, state: State, number: int, entry: Entry | None = None) -> RoundForm:
        return hand_form(game.players, number, sheet_of(state), game.version, entry)

    def score(self, game: Game, state: State, entry: Entry) -> State:
        hands = {p: parse_cards(cards) for p, cards in (entry.get("hands") or {}).items()}
        outcome = sheet_of(state).score_hand(entry["winner"], hands=hands, points=entry.get("points"))
        return state_of(outcome)

    def summary(self, before: State, after: State, names: dict[str, str]) -> list[str]:
        lines = []
        for p in after.get("players", []):
            old, new = before.get("totals", {}).get(p), after.get("totals", {}).get(p)
            if old != new:
                lines.append(_("%(name)s: %(old)s → %(new)s", name=names.get(p, p), old=old, new=new))
        if before.get("winners") != after.get("winners"):
            winners = ", ".join(names.get(p, p) for p in after.get("winners", [])) or "—"
            lines.append(_("Winners: %(names)s", names=winners))
        return lines

    def page_context(self, game: Game, state: State, names: dict[str, str]) -> dict[str, Any]:
        options = crapouille.Options.from_options(game.rules)
        ranking = state.get("ranking") or sorted(
            state["players"], key=lambda p: (p not in state["in_play"], state["totals"].get(p, 0))
        )
        return {
            "live": [p for p in game.players if str(p.id) in state["in_play"]],
            "copies": crapouille.DECK.limit(Card(rank=Rank.ACE, suit=Suit.SPADES)),
            "jokers": crapouille.DECK.joker_limit,
            "cards": parse_cards,
            "limit": crapouille.ELIMINATION_TOTAL,
            "deal": crapouille.deal(options.super),
            "two_player_rule": len(state["in_play"]) == 2,
            "ranking": ranking,
            "places": state.get("places", {}),
            "winner_names": [names[p] for p in (game.outcome or {}).get("winners", state.get("winners", []))],
            # Drawn only by the game page (one query, when it is called).
            "totals_chart": lambda: charts.crapouille_chart(game, names, crapouille.ELIMINATION_TOTAL),
        }
