"""Live play-by-play: the table follows the current manche of a game move by move.

One :class:`~companion.models.LiveManche` row per game holds the manche on the server,
so it survives a reload and every phone of the group sees it (``static/watch.js`` polls
:func:`live_state` and puts the new table in place when it changed, see
:mod:`companion.watch`; without script the page has a « Rafraîchir » link).  It is
for the next round of the game *as it stood* when the manche was started
(``game_version``): once that round is saved, or the game changes otherwise, the row
is stale and the next visit starts a new manche.

Every move is judged before it is kept: its ``/api/v1/check`` body is built from the
stored state (players named by name, so that reasons name them) and
:func:`companion.judge.narrate.judge` answers.  An illegal move is refused with the
engine's reason and nothing is stored; a legal one is applied by the engine
(``from_state(…).apply(move).to_state()``), and stored with what the table says about
it, in both languages.  Writes name the live version the page showed: a double tap or
a second phone never applies a move twice (compare-and-set, as
:func:`companion.writes.claim` does for games).

When the engine says the manche is over, the round entry it decided (the finishing
order and the forbidden finishes, the bids and tricks, who went out) is stored with
it, and the game's round form opens pre-filled from it (:meth:`~companion.models.LiveEntry.filling`).

Nothing here knows a rule: the per-game classes only translate forms to moves and
engine objects to what the screen shows.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response
from wtforms import BooleanField, HiddenField, RadioField, StringField
from wtforms.fields.choices import SelectChoice

from companion import watch
from companion.extensions import db
from companion.forms import SafeForm, add_error, plain_int
from companion.games.kinds import kind_for
from companion.games.kinds.base import GameKind, State
from companion.games.kinds.crapouille import card_picker as crapouille_picker
from companion.games.kinds.president import draw_picker, rules_of, starts_reversed
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.judge.narrate import judge, said, whose_turn
from companion.membership.access import group_and_game, group_for
from companion.models import Game, GameStatus, Group, LiveManche, Round, Season
from companion.offline import OUTBOX_HEADER
from companion.referee import bp
from companion.rules import whist_tarot
from companion.rules.cards import Card, Suit, parse_cards, parse_typed_cards, typed_notation
from companion.rules.crapouille import DECK as CRAPOUILLE_DECK
from companion.rules.crapouille import Draw, Options, Pile, PlayCard
from companion.rules.crapouille import deal as crapouille_deal
from companion.rules.i18n import LANGS, RulesError
from companion.rules.president import Play, Table
from companion.rules.president_outcome import dealer_and_leader
from companion.undo import confirmation_page, confirmed
from companion.writes import commit, outcome

#: Moves that can be taken back one after another (older states are not kept).
UNDO_DEPTH = 30
#: The most moves a manche may hold: far more than any hand, and a bound on a row.
MAX_MOVES = 2000
#: Moves shown on the screen, most recent first.
MOVES_SHOWN = 12
#: La crapouille: the pile keeps its last cards only (the engine reads the top card, the
#: jokers on it and the card under them); cards under them go back to the draw pile at
#: the table, and must not count twice against the deck when they come out again.
PILE_KEPT = 12

_TRUMP_TOKEN = re.compile(r"T\d{1,2}|EX", re.IGNORECASE)


class Refused(Exception):
    """A start or a move that the form or the engine refuses: the reason, and the
    form field it belongs to (``move`` for the move as a whole)."""

    def __init__(self, message: str, field: str = "move") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def typed_cards(text: str, lang: str) -> tuple[Card, ...]:
    """Cards typed on a page in ``lang`` (the picker's notation), tarot trumps as ``T14``/``EX``."""
    cards: list[Card] = []
    for token in (t for t in re.split(r"[\s,]+", text) if t):
        if _TRUMP_TOKEN.fullmatch(token):
            cards.append(Card.parse(token))
        else:
            cards.extend(parse_typed_cards(token, lang))
    return tuple(cards)


def renamed(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A state or a move of the API with its players renamed (ids → names, or back).

    Only the fields that name players are touched (never a card): ``players``,
    ``out``, ``leader``, ``dealer``, ``turn``, ``player``, the keys of ``bids`` and
    ``tricks``, and the players of ``trick``.

    >>> renamed({"players": ["1", "2"], "turn": "2", "pile": ["2h"], "bids": {"1": 0}}, {"1": "Ann", "2": "Bob"})
    {'players': ['Ann', 'Bob'], 'turn': 'Bob', 'pile': ['2h'], 'bids': {'Ann': 0}}
    """

    def one(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    out = dict(data)
    for key in ("players", "out"):
        if isinstance(out.get(key), list):
            out[key] = [one(p) for p in out[key]]
    for key in ("leader", "dealer", "turn", "player"):
        if key in out:
            out[key] = one(out[key])
    for key in ("bids", "tricks"):
        if isinstance(out.get(key), dict):
            out[key] = {one(k): v for k, v in out[key].items()}
    if isinstance(out.get("trick"), list):
        out["trick"] = [renamed(e, names) if isinstance(e, Mapping) else e for e in out["trick"]]
    return out


# --------------------------------------------------------------------- the forms


def _suit_choices(lang: str) -> list[SelectChoice]:
    return [SelectChoice(s.value, f"{s.symbol} {s.name_in(lang)}") for s in Suit]


class StartForm(SafeForm):
    """Starting the manche: who dealt a first manche of Président (the player after him
    leads; ``leader`` names the leader outright), the starting card and who plays first
    (la crapouille)."""

    version = HiddenField()
    dealer = RadioField(_l("Who dealt?"), validate_choice=False)
    leader = RadioField(_l("Who leads?"), validate_choice=False)
    first = RadioField(_l("Who plays first?"), validate_choice=False)
    card = StringField(_l("Card turned up to start the pile"))


class MoveForm(SafeForm):
    """One move: cards (the picker), a pass, a draw, a bid or a trump.

    ``action``, ``bid`` and ``card`` come from the button tapped (never rendered as
    inputs of their own, so that only the tapped button sends them)."""

    version = HiddenField()
    player = RadioField(_l("Who plays?"), validate_choice=False)
    cards = StringField(_l("Cards laid"))
    last = BooleanField(_l("These are their last cards"))
    unannounced = BooleanField(_l("Without having said « carte »"))
    asked = RadioField(_l("Suit asked with the 8"), validate_choice=False)
    action = StringField()
    bid = StringField()
    card = StringField()
    #: « Non » to « Était-ce sa dernière carte ? »: not their last cards, the count was wrong.
    not_last = BooleanField()

    def fingerprint(self) -> str:
        """What was tapped, to recognise the same move sent twice."""
        parts = [self.player.data, self.cards.data, self.last.data, self.unannounced.data, self.asked.data]
        parts += [self.action.data, self.bid.data, self.card.data]
        return "|".join(str(p or "") for p in parts)


# ----------------------------------------------------------- following each kind


@dataclass
class Step:
    """One accepted move: the move as stored (ids), the state and view after it, its effects."""

    move: dict[str, Any]
    state: dict[str, Any]
    view: dict[str, Any]
    effects: list[str]


class Follow(ABC):
    """How the live screen follows one family of games: one subclass per family, which
    must say how a manche starts, reads a form's moves, advances and ends."""

    family = ""

    def blocked(self, game: Game, stored: State) -> str | None:
        """Why this round cannot be followed live (None: it can)."""
        return None

    def opening(self, game: Game, stored: State) -> dict[str, Any]:
        """What the start page shows and asks."""
        return {}

    @abstractmethod
    def start(self, game: Game, stored: State, form: StartForm, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The engine's table at the start of the manche, and its view; raises :class:`Refused`."""

    @abstractmethod
    def moves(self, form: MoveForm, state: dict[str, Any], view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
        """The moves (API shape, ids) a form asks for; raises :class:`Refused`."""

    def judged(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        """The move as the engine is asked about it (a kept draw needs a card)."""
        return move

    def body(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        """The ``/api/v1/check`` body of ``move`` on ``state`` (ids; renamed by the caller)."""
        body: dict[str, Any] = {"game": game.kind, "state": state, "move": move}
        if game.rules:
            body["rules"] = dict(game.rules)
        return body

    @abstractmethod
    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        """The engine applies a move already judged legal; raises :class:`RulesError`."""

    @abstractmethod
    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        """The round entry a finished manche fills in."""

    def picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        """What the card picker needs (None: no picker)."""
        return None

    def deck(self, game: Game) -> tuple[int, int]:
        """Copies of each card and jokers in the deck (what the picker greys out)."""
        return 1, 0

    # The cards each player holds, counted (« Était-ce sa dernière carte ? »): the
    # engine's deal says how many each player starts the manche with, the moves what
    # leaves and enters a hand.  None: the screen cannot know (it never asks).

    def hands(self, game: Game, stored: State, state: Mapping[str, Any]) -> dict[str, int] | None:
        """How many cards each player of ``state`` holds as the manche starts."""
        return None

    def held(self, hands: dict[str, int], step: Step) -> dict[str, int]:
        """The cards each counted player holds after ``step`` (from ``hands``, before it):
        the cards laid leave the hand; a family with draws adds them."""
        player = step.move.get("player")
        if player in hands:
            hands[player] -= laid(step.move)
        return hands


def _player(form: MoveForm, view: Mapping[str, Any], players: Sequence[str]) -> str:
    """Who moves: the player whose turn it is, else the one chosen in the form."""
    if view.get("to_move"):
        return str(view["to_move"])
    chosen = form.player.data or ""
    if chosen not in players:
        raise Refused(_("Say who plays."), "player")
    return chosen


def _one_card(text: str, lang: str, field: str, missing: str) -> Card:
    try:
        cards = typed_cards(text, lang)
    except RulesError as e:
        raise Refused(e.text.get(lang), field) from None
    if not cards:
        raise Refused(missing, field)
    if len(cards) > 1:
        raise Refused(_("One card only."), field)
    return cards[0]


class PresidentFollow(Follow):
    """Le Président and Piketty: a :class:`~companion.rules.president.Table`, players in
    the order of the hierarchy (the seats go down it), the Président leading."""

    family = "president"

    def blocked(self, game: Game, stored: State) -> str | None:
        if stored.get("first") and stored.get("draw"):
            return _("This round is a card draw: there is no play to follow. Enter the cards drawn.")
        return None

    def opening(self, game: Game, stored: State) -> dict[str, Any]:
        """The turn order (the hierarchy: the seats go down it), who leads (the stored
        state's; at the first manche, the table says who dealt, and the engine proposes
        the last seat, as it deals every later manche: ``first_dealer``, and each
        dealer's ``leads``), and whether the order of the cards starts reversed."""
        order = list(stored["hierarchy"])
        opening: dict[str, Any] = {"order": order, "reversed": starts_reversed(stored)}
        if stored.get("first"):
            opening["first_dealer"] = dealer_and_leader(order)[0]
            opening["leads"] = {p: dealer_and_leader(order, dealer=p)[1] for p in order}
            opening["leader"] = None
        else:
            opening["leader"] = stored.get("leader")
        return opening

    def start(self, game: Game, stored: State, form: StartForm, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
        rules = rules_of(game)
        order = list(stored["hierarchy"])
        if not stored.get("first"):
            leader = stored.get("leader")
        elif form.dealer.data:
            # seed 000: « Le joueur venant après le joueur qui a distribué commence. »
            if form.dealer.data not in order:
                raise Refused(_("Choose a player of the game."), "dealer")
            leader = dealer_and_leader(order, dealer=form.dealer.data)[1]
        else:
            leader = form.leader.data or None  # named outright; nobody: anyone may lead
        if leader is not None and leader not in order:
            raise Refused(_("Choose a player of the game."), "leader")
        # A lasting revolution carries over: the engine's outcome of the last manche says so.
        table = Table.start(order, rules, reversed=starts_reversed(stored), leader=leader)
        return table.to_state(), self._view(table, ())

    @staticmethod
    def _view(table: Table, skipped: Sequence[str]) -> dict[str, Any]:
        return {
            "to_move": table.to_move,
            "over": table.over,
            "leading": table.leading,
            "finished": table.finished,
            "passed": [p for p in table.players if p in table.passed and p not in skipped],
            "skipped": list(skipped),
            "lock": table.lock,
            "reversed": table.reversed,
            "out": list(table.out),
            # Jokers shown by a player left with nothing else (joker_wild): not laid on the trick.
            "shown": [i for i, p in enumerate(table.trick) if p.cards and table.rules.jokers_shown(p.cards)],
        }

    def moves(self, form: MoveForm, state: dict[str, Any], view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
        still_in = [p for p in state["players"] if p not in state.get("out", [])]
        player = _player(form, view, still_in)
        if form.action.data == "pass":
            return [{"player": player, "pass": True}]
        text = (form.cards.data or "").strip()
        if not text:
            raise Refused(_("Pick the cards laid, or pass."), "cards")
        try:
            cards = typed_cards(text, lang)
        except RulesError as e:
            raise Refused(e.text.get(lang), "cards") from None
        return [{"player": player, "cards": [str(c) for c in cards], "last": bool(form.last.data)}]

    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        table = Table.from_state(state, rules_of(game))
        play = Play.from_json(move, table.players)
        verdict = table.check(play)
        after = table.apply(play)
        return Step(move, after.to_state(), self._view(after, verdict.skipped), [e.value for e in verdict.effects])

    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        """The order players went out in (the one left last), who went out on a forbidden
        card, and what ended the manche early (coup d'État, guillotine, revolution of titles)."""
        assert row.state is not None and row.view is not None
        out = list(row.view["out"])
        rest = [p for p in row.state["players"] if p not in out]
        events: dict[str, Any] = {}
        for m in row.moves:
            effects = m.get("effects") or []
            if "coup_detat" in effects:
                events = {"coup_detat": m["player"]}
            elif "guillotine" in effects:
                events = {"guillotine": {"player": m["player"], "vice": "", "last": ""}}
            elif "revolution" in effects and rules_of(game).revolution_swaps_titles:
                events = {"revolution": True}
        entry: dict[str, Any] = {
            "finish": out + rest if len(rest) <= 1 else out,
            "finished_on": [m["player"] for m in row.moves if "finish_last" in (m.get("effects") or [])],
            "events": events,
        }
        if rules_of(game).revolution_persists:
            entry["reversed"] = bool(row.view.get("reversed"))  # the order at the end goes on
        return entry

    def picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        return draw_picker(lang, rules_of(game), len(game.seats))

    def deck(self, game: Game) -> tuple[int, int]:
        rules = rules_of(game)
        return rules.deck_count(len(game.seats)), rules.jokers

    def hands(self, game: Game, stored: State, state: Mapping[str, Any]) -> dict[str, int] | None:
        """The engine's deal for this manche (``deal_for``: even for Président, Piketty's
        extra cards to the Trouduc's end); the exchanges keep the counts.  Président-Menteur
        is not counted: a « menteur » call gives the pile to someone, off this screen."""
        deal = stored.get("deal")
        if rules_of(game).liar or not isinstance(deal, Mapping):
            return None
        counts = {p: deal.get(p) for p in state["players"]}
        if not all(isinstance(n, int) and n > 0 for n in counts.values()):
            return None
        return {p: int(n or 0) for p, n in counts.items()}


def read_deal(state: Mapping[str, Any]) -> whist_tarot.Deal:
    """The engine's deal from its stored state (:meth:`whist_tarot.Deal.to_state`)."""
    trick = tuple(whist_tarot.Play(e["player"], Card.parse(e["card"]), e.get("excuse")) for e in state["trick"])
    bids = state.get("bids")
    return whist_tarot.Deal(
        tuple(state["players"]),
        state["dealer"],
        int(state["cards"]),
        None if bids is None else dict(bids),
        trick,
        state.get("leader"),
        parse_cards(state.get("played") or []),
        bool(state.get("blind")),
        dict(state.get("tricks") or {}),
    )


class WhistFollow(Follow):
    """Whist with a tarot deck: the bids from the dealer's left, then the tricks (a
    :class:`~companion.rules.whist_tarot.Deal`).  A deal whose bids were already saved
    is followed from its first trick."""

    family = "whist"

    @staticmethod
    def _spec(stored: State) -> Mapping[str, Any]:
        return stored["played"] if stored.get("pending") else stored["deal"]

    def opening(self, game: Game, stored: State) -> dict[str, Any]:
        spec = self._spec(stored)
        players = list(stored["players"])
        return {
            "dealer": spec["dealer"],
            "cards": int(spec["cards"]),
            "blind": bool(spec["blind"]),
            "first_bidder": whist_tarot.bidding_order(players, spec["dealer"])[0],
            "leader": whist_tarot.first_leader(players, spec["dealer"]),
            "bids_in": bool(stored.get("pending")),
        }

    def start(self, game: Game, stored: State, form: StartForm, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
        spec = self._spec(stored)
        bids = dict(stored.get("bids") or {}) if stored.get("pending") else {}
        deal = whist_tarot.Deal(
            tuple(stored["players"]), spec["dealer"], int(spec["cards"]), bids, blind=bool(spec["blind"])
        )
        return deal.to_state(), self._view(deal, None, None)

    @staticmethod
    def _view(deal: whist_tarot.Deal, last_trick: list[dict[str, Any]] | None, winner: str | None) -> dict[str, Any]:
        to_act = deal.to_act
        return {
            "to_move": to_act,
            "bidding": deal.bidding,
            "forbidden": deal.forbidden_bid() if deal.bidding and to_act == deal.dealer else None,
            "finished": deal.over and not deal.trick,
            "last_trick": last_trick,
            "trick_winner": winner,
        }

    def moves(self, form: MoveForm, state: dict[str, Any], view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
        player = view.get("to_move")
        if not player:
            raise Refused(_("The deal is over."))
        if form.bid.data:
            bid = plain_int(form.bid.data, 0, whist_tarot.SERIES[0])
            if bid is None:
                raise Refused(_("Tap a bid."), "bid")
            return [{"player": player, "bid": bid}]
        if form.card.data:
            code, _sep, value = form.card.data.partition(":")
            try:
                card = Card.parse(code)
            except RulesError as e:
                raise Refused(e.text.get(lang), "card") from None
            move: dict[str, Any] = {"player": player, "card": str(card)}
            if value:
                excuse = plain_int(value, 0, 22)
                if excuse is None:
                    raise Refused(_("Tap a card."), "card")
                move["excuse"] = excuse
            return [move]
        raise Refused(_("Tap a bid.") if view.get("bidding") else _("Tap a card."))

    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        deal = read_deal(state)
        engine_move: whist_tarot.Move
        if "bid" in move:
            engine_move = whist_tarot.Bid(move["player"], int(move["bid"]))
        else:
            engine_move = whist_tarot.Play(move["player"], Card.parse(move["card"]), move.get("excuse"))
        verdict = deal.check(engine_move)
        after = deal.apply(engine_move)
        last_trick = None
        if verdict.trick_winner is not None:
            last_trick = [*state["trick"], {k: v for k, v in move.items() if k in ("player", "card", "excuse")}]
        return Step(move, after.to_state(), self._view(after, last_trick, verdict.trick_winner), [])

    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        """The bids and the tricks each player took."""
        assert row.state is not None
        tricks = row.state.get("tricks") or {}
        return {
            "bids": dict(row.state.get("bids") or {}),
            "tricks": {p: int(tricks.get(p, 0)) for p in row.state["players"]},
        }


class CrapouilleFollow(Follow):
    """La crapouille: a :class:`~companion.rules.crapouille.Pile` from the card turned up,
    with the players still in."""

    family = "crapouille"

    def opening(self, game: Game, stored: State) -> dict[str, Any]:
        return {"order": list(stored["in_play"])}

    def start(self, game: Game, stored: State, form: StartForm, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
        players = list(stored["in_play"])
        card = _one_card(form.card.data or "", lang, "card", _("Pick the card turned up to start the pile."))
        first = form.first.data or ""
        if first not in players:
            raise Refused(_("Say who plays first."), "first")
        try:
            pile = Pile(tuple(players), (card,), 1, None, first, Options.from_options(game.rules))
        except RulesError as e:
            raise Refused(e.text.get(lang), "card") from None
        return pile.to_state(), self._view(pile, None, (), [])

    @staticmethod
    def _view(pile: Pile, target: str | None, skipped: Sequence[str], effects: Sequence[str]) -> dict[str, Any]:
        """What the screen shows: whose turn, who must draw now (``target``: the player a
        2 makes draw, or who draws one more card when the hand ended on a 2; never the
        player who drew on his own turn, which is his move, not news), who loses a turn."""
        return {
            "to_move": pile.turn,
            "finished": "out" in effects,
            "target": target,
            "skipped": list(skipped),
            "drew": "draw" in effects and target is not None,
        }

    @staticmethod
    def read(state: Mapping[str, Any], game: Game | None) -> Pile:
        """The engine's pile from its stored state (:meth:`Pile.to_state`); without the
        game, under the plain rules (which card fits does not depend on them)."""
        asked = state.get("asked")
        return Pile(
            tuple(state["players"]),
            parse_cards(state["pile"]),
            int(state["direction"]),
            None if asked is None else Suit(asked),
            state.get("turn"),
            Options.from_options(None if game is None else game.rules),
            state.get("out"),
        )

    def moves(self, form: MoveForm, state: dict[str, Any], view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
        if view.get("finished"):
            raise Refused(_("The hand is over."))
        player = _player(form, view, state["players"])
        text = (form.cards.data or "").strip()
        asked = form.asked.data if form.asked.data in {s.value for s in Suit} else None
        if form.action.data == "draw":
            if not text:
                return [{"player": player, "draw": True}]
            # The drawn card, when it fits, is laid at once (seed 003: « qu'il met sur la
            # dernière carte posée si elle est de même couleur ou de même rang »): one move,
            # told once (« Ann pioche et pose 7♥ »), taken back at once.  Whether it fits is
            # the engine's to say (``Pile.accepts``); one that does not stays in hand, unseen.
            card = _one_card(text, lang, "cards", "")
            drawn: dict[str, Any] = {"player": player, "draw": True, "drawn": str(card)}
            if self.read(state, None).accepts(card):
                drawn["card"] = str(card)
                if asked:
                    drawn["asked"] = asked
            return [drawn]
        card = _one_card(text, lang, "cards", _("Pick the card laid, or draw."))
        move: dict[str, Any] = {"player": player, "card": str(card), "last": bool(form.last.data)}
        if asked:
            move["asked"] = asked
        if form.unannounced.data:
            move["announced"] = False
        return [move]

    def judged(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        """A drawn card laid at once is judged as the card laid (its turn, its suit with
        an 8, what it does).  A draw whose card stays in hand is judged as the draw of a
        card that does not fit (whichever: the engine only needs to know it is not laid),
        so that the engine names who plays next."""
        if move.get("draw") and move.get("card"):
            return {k: v for k, v in move.items() if k in ("player", "card", "asked")}
        if not move.get("draw") or move.get("drawn"):
            return move
        pile = self.read(state, game)
        laid = parse_cards(state["pile"])
        for card in dict.fromkeys(CRAPOUILLE_DECK.cards()):
            if not pile.accepts(card) and laid.count(card) < CRAPOUILLE_DECK.limit(card):
                return {**move, "drawn": str(card)}
        raise Refused(_("Any card fits on this pile: pick the card drawn, it is laid at once."), "cards")

    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        pile = self.read(state, game)
        engine_move: Draw | PlayCard
        if move.get("draw"):
            drawn = move.get("drawn")
            engine_move = Draw(move["player"], None if drawn is None else Card.parse(drawn))
        else:
            asked = move.get("asked")
            engine_move = PlayCard(
                move["player"],
                Card.parse(move["card"]),
                None if asked is None else Suit(asked),
                bool(move.get("last")),
                bool(move.get("announced", True)),
            )
        verdict = pile.check(engine_move)
        after = pile.apply(engine_move)
        effects = [e.value for e in verdict.effects]
        if len(after.pile) > 2 * PILE_KEPT:
            after = Pile(
                after.players,
                after.pile[-PILE_KEPT:],
                after.direction,
                after.asked,
                after.turn,
                after.options,
                after.out,
            )
        # A player's own draw is his move, not news: only someone else made to draw is shown.
        target = None if isinstance(engine_move, Draw) else verdict.target
        return Step(move, after.to_state(), self._view(after, target, verdict.skipped, effects), effects)

    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        """Who went out, and when he finished on a 2, who draws one more card, which counts
        (the engine's ``target``: seed 003, « Lorsqu'un joueur termine en posant un 2 sur la
        table, par convention, le joueur suivant prend une carte supplémentaire. »)."""
        out = next((m for m in reversed(row.moves) if "out" in (m.get("effects") or [])), None)
        entry: dict[str, Any] = {"winner": None if out is None else out["player"]}
        if out is not None and "finish_on_two" in out["effects"] and row.view and row.view.get("target"):
            entry["extra_card"] = row.view["target"]
        return entry

    def picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        return crapouille_picker(lang)

    def deck(self, game: Game) -> tuple[int, int]:
        return 2, CRAPOUILLE_DECK.joker_limit

    def hands(self, game: Game, stored: State, state: Mapping[str, Any]) -> dict[str, int] | None:
        """Five cards each (seed 003: « Le donneur distribue cinq cartes à chacun »), or with
        Super crapouille ten dealt and five discarded: five kept."""
        kept = crapouille_deal(Options.from_options(game.rules).super).kept
        return dict.fromkeys(state["players"], kept)

    def held(self, hands: dict[str, int], step: Step) -> dict[str, int]:
        """A draw adds a card to its player's hand (a drawn card laid at once leaves it
        again); a 2, even one drawn and laid, makes ``target`` draw one."""
        hands = super().held(hands, step)
        drawers = [step.move.get("player")] if step.move.get("draw") else []
        if "draw" in step.effects and step.view.get("target"):
            drawers.append(step.view["target"])
        for drawer in drawers:
            if drawer in hands:
                hands[drawer] += 1
        return hands


FOLLOWS: dict[str, Follow] = {
    "president": PresidentFollow(),
    "piketty": PresidentFollow(),
    "whist-tarot": WhistFollow(),
    "crapouille": CrapouilleFollow(),
}


# ------------------------------------------------------------------ the manche


@dataclass
class Manche:
    """A game's live manche as this request sees it."""

    group: Group
    game: Game
    kind: GameKind
    follow: Follow
    number: int
    stored: State
    row: LiveManche | None
    #: Whether ``row`` is for this round of the game as it stands now.
    current: bool
    names: dict[str, str]

    @property
    def started(self) -> bool:
        return self.current and self.row is not None and self.row.state is not None

    @property
    def version(self) -> int:
        """The live version a form is based on (0 before anything was ever stored)."""
        return self.row.version if self.row is not None else 0

    @property
    def closed(self) -> str | None:
        """Why nothing can be followed now (None: the manche can be)."""
        if self.game.status is not GameStatus.IN_PROGRESS or self.kind.over(self.stored):
            return _("This game is over: there is nothing left to follow.")
        return self.follow.blocked(self.game, self.stored)


def _manche(code: str, game_id: int) -> Manche:
    """The group, the game, the round to follow and the stored live manche: a fixed
    number of queries, and no engine."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    follow = FOLLOWS.get(game.kind)
    if follow is None:  # a kind this screen cannot follow (every kind of KINDS can)
        abort(404)
    last = db.session.execute(
        sa.select(Round.number, Round.entry, Round.result)
        .where(Round.game_id == game.id)
        .order_by(Round.number.desc())
        .limit(1)
    ).first()
    row = db.session.get(LiveManche, game.id)
    if last is None:
        number, stored = 1, kind.initial_state(game)
    else:
        # A round entered in two steps (whist's bids, then its tricks) is still being played.
        number = last.number if kind.pending(last.entry) else last.number + 1
        stored = last.result
    current = row is not None and row.number == number and row.game_version == game.version
    names = {str(p.id): p.name for p in game.players}
    return Manche(group, game, kind, follow, number, stored, row, current, names)


def _claim(manche: Manche, based_on: int | None) -> LiveManche | None:
    """Move the live manche on to its next version if it is still at ``based_on`` (one
    conditional UPDATE, or the first INSERT); None when another write came first."""
    game = manche.game
    if based_on is None:
        return None
    if manche.row is None:
        if based_on != 0:
            return None
        row = LiveManche(
            game_id=game.id, number=manche.number, game_version=game.version, version=1, history=[], moves=[]
        )
        db.session.add(row)
        try:
            db.session.flush()
        except sa.exc.IntegrityError:
            db.session.rollback()
            return None
        return row
    moved = db.session.execute(
        sa.update(LiveManche)
        .where(LiveManche.game_id == game.id, LiveManche.version == based_on)
        .values(version=LiveManche.version + 1)
    )
    if moved.rowcount != 1:
        return None
    db.session.refresh(manche.row)
    return manche.row


def _live_url(manche: Manche, **kwargs: Any) -> str:
    return url_for("referee.live", code=manche.group.code, game_id=manche.game.id, **kwargs)


# ------------------------------------------------------------------ the screen


def _said(game: str, body: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, list[str]]:
    texts = said(game, body, answer)
    return {lang: [t.get(lang) for t in texts] for lang in LANGS}


def _move_forms(manche: Manche, form: MoveForm | None = None) -> MoveForm:
    """The move form with its choices (a fresh one shows the current live version)."""
    lang = current_lang()
    if form is None:
        form = MoveForm(formdata=None)
        form.version.data = str(manche.version)
    row = manche.row
    players = row.state["players"] if row is not None and row.state else []
    out = row.state.get("out", []) if row is not None and row.state else []
    form.player.choices = [SelectChoice(p, manche.names.get(p, p)) for p in players if p not in out]
    form.asked.choices = _suit_choices(lang)
    return form


def _start_form(manche: Manche, form: StartForm | None = None) -> StartForm:
    """The start form with its choices (a fresh one shows the current live version)."""
    opening = manche.follow.opening(manche.game, manche.stored)
    if form is None:
        form = StartForm(formdata=None)
        form.version.data = str(manche.version)
        form.dealer.data = opening.get("first_dealer")  # Président's first manche: the engine's proposal
    order = opening.get("order") or []
    choices = [SelectChoice(p, manche.names.get(p, p)) for p in order]
    form.leader.choices = choices
    form.dealer.choices = choices
    form.first.choices = choices
    return form


def _saved_rounds(manche: Manche) -> int:
    """How many rounds are saved (the round followed is one of them when its first step was)."""
    return manche.number if manche.stored.get("pending") else manche.number - 1


def _round_url(manche: Manche) -> str:
    """Where the round is entered: whist's deal whose bids were saved is completed on
    its own page (the second step); any other round is a new one."""
    code, game_id = manche.group.code, manche.game.id
    if manche.number <= _saved_rounds(manche):
        return url_for("games.edit_round", code=code, game_id=game_id, number=manche.number)
    return url_for("games.new_round", code=code, game_id=game_id)


def _page(
    manche: Manche,
    move_form: MoveForm | None = None,
    start_form: StartForm | None = None,
    refused: str | None = None,
    status: int = 200,
    question: dict[str, Any] | None = None,
) -> tuple[str, int]:
    """The live screen: the start page, the table and its move form, or why not (or
    the referee's ``question`` about a move: « Était-ce sa dernière carte ? »)."""
    lang = current_lang()
    row = manche.row if manche.current else None
    game = manche.game
    context: dict[str, Any] = {
        "group": manche.group,
        "game": game,
        "kind": manche.kind,
        "family": manche.follow.family,
        "number": manche.number,
        "names": manche.names,
        "closed": manche.closed,
        "started": manche.started,
        "version": manche.version,
        "watch_url": url_for("referee.live_state", code=manche.group.code, game_id=game.id),
        "watch_token": live_token(game.version, manche.version),
        "watch_page": _live_url(manche, _anchor="turn"),
        "refused": refused,
        "question": question,
        "wake": True,
    }
    names = manche.names
    if manche.closed is None and not manche.started:
        opening = manche.follow.opening(game, manche.stored)
        context.update(
            opening=opening,
            order_names=[names[p] for p in opening.get("order") or []],
            start_form=_start_form(manche, start_form),
            picker=manche.follow.picker(game, lang) if manche.follow.family == "crapouille" else None,
        )
    elif manche.closed is None and row is not None and row.state is not None:
        assert row.view is not None
        entry = row.entry or {}
        context.update(
            state=row.state,
            view=row.view,
            moves=list(reversed(row.moves[-MOVES_SHOWN:])),
            move_count=len(row.moves),
            can_undo=bool(row.history),
            form=_move_forms(manche, move_form),
            picker=None if row.view.get("finished") else manche.follow.picker(game, lang),
            entry=entry,
            finish_names=[names.get(p, p) for p in entry.get("finish") or []],
            forbidden_names=[names.get(p, p) for p in entry.get("finished_on") or []],
            round_url=_round_url(manche),
            # The turn line says whose turn it is: the last move's « À Cid de jouer. » (or
            # « À Cid d’annoncer. ») is not said again below it (live_moves.html).
            turn_said=[t.get(lang) for t in whose_turn(names.get(row.view["to_move"], ""))]
            if row.view.get("to_move")
            else [],
            suit_names={s.value: f"{s.symbol} {s.name_in(lang)}" for s in Suit},
        )
        if manche.follow.family == "president":
            # Who went out on a forbidden finish (or showing only jokers) is made last: the
            # players list says « dernière place », not the order of going out.
            context["made_last"] = [m["player"] for m in row.moves if "finish_last" in (m.get("effects") or [])]
        if manche.follow.family == "whist":
            context["trumps"] = [Card(trump=t) for t in range(1, 22)]
            out = {*row.state.get("played", []), *(e["card"] for e in row.state.get("trick", []))}
            context["out_cards"] = out
            context["order"] = list(whist_tarot.bidding_order(row.state["players"], row.state["dealer"]))
            # The dealer's forbidden bid, in the engine's one sentence (its refusal's): the
            # flag says it, so the last bid's words do not say it again below it.
            forbidden = row.view.get("forbidden")
            if forbidden is not None:
                dealer = names.get(row.state["dealer"], row.state["dealer"])
                said = whist_tarot.forbidden_bid_text(dealer, int(forbidden), int(row.state["cards"])).get(lang)
                context["forbidden_said"] = said
                context["turn_said"] = [*context["turn_said"], said]
    else:
        context["card_draw"] = manche.closed is not None and manche.follow.blocked(game, manche.stored) is not None
    if context.get("picker"):
        context["copies"], context["jokers"] = manche.follow.deck(game)
        context["placeholder"] = typed_notation(lang).example
    return render_template("referee/live.html", **context), status


# ------------------------------------------------------------- the last cards
#
# « Ce sont ses dernières cartes »: when the count says a move lays a player's last cards
# (:meth:`Follow.hands` at the start, :meth:`Follow.held` after each move, kept in the
# view as ``hands``, so that an undo takes it back too) but the box was not ticked, the
# referee asks before storing anything.  « Oui » posts the same move with the box
# ticked; « Non » posts it with ``not_last``: it is stored as not last and the player
# is no longer counted in this manche (the count was wrong: a misdeal, a card seen
# late).  A ticked box is never refused: the table knows best.


def laid(move: Mapping[str, Any]) -> int:
    """How many cards ``move`` takes out of its player's hand.

    >>> laid({"player": "1", "cards": ["9h", "9s"]}), laid({"player": "1", "card": "8c"}), laid({"pass": True})
    (2, 1, 0)
    """
    return len(move.get("cards") or []) + (1 if move.get("card") else 0)


def _may_be_last(view: Mapping[str, Any], move: Mapping[str, Any]) -> bool:
    """Whether, by the count, ``move`` lays its player's last cards though it says it
    does not (a move without a ``last`` to say, such as a drawn card laid, never does)."""
    hands = view.get("hands")
    if not isinstance(hands, Mapping) or "last" not in move or move["last"]:
        return False
    held = hands.get(move.get("player"))
    count = laid(move)
    return isinstance(held, int) and count > 0 and held <= count


def _legal_either_way(named: dict[str, Any], lang: str) -> bool:
    """Whether the engine allows the move of ``named`` as typed or as the player's last
    cards (an 8 laid last asks no suit): only then is the question worth asking."""
    for last in (False, True):
        try:
            if judge({**named, "move": {**named["move"], "last": last}}, lang).get("legal"):
                return True
        except RulesError:
            continue
    return False


def _counted(follow: Follow, before: Mapping[str, Any], step: Step, wrong: bool) -> dict[str, Any]:
    """``step``'s view with the cards each player holds after it (``wrong``: the table
    said the count was wrong for the mover, who is no longer counted)."""
    hands = before.get("hands")
    if not isinstance(hands, Mapping):
        return step.view
    after = follow.held(dict(hands), step)
    if wrong:
        after.pop(step.move["player"], None)
    return {**step.view, "hands": after}


def _ask_last(manche: Manche, form: MoveForm, move: Mapping[str, Any]) -> ResponseReturnValue:
    """« Était-ce sa dernière carte ? »: nothing is stored; the page keeps the move as
    typed (hidden fields) under the two answers, based on the same live version.  A
    move the phone's outbox sends later is refused with a word saying so instead."""
    outcome("refused")
    name = manche.names.get(move["player"], move["player"])
    cards = list(move.get("cards") or [move["card"]])
    if request.headers.get(OUTBOX_HEADER) == "1":
        flash(_("Nothing was recorded: say on the live screen whether %(name)s laid their last cards.", name=name))
        return redirect(_live_url(manche, _anchor="turn"), 303)
    skipped = {"csrf_token", "version", "last", "not_last"}
    fields = {
        f.name: "y" if f.type == "BooleanField" else str(f.data)
        for f in form
        if f.name not in skipped and f.data not in (None, "", False)
    }
    question = {
        "player": move["player"],
        "name": name,
        "cards": cards,
        "several": len(cards) > 1,
        "version": form.version.data,
        "fields": fields,
        "the_round": manche.kind.the_round(manche.number, manche.game),
    }
    return _page(manche, move_form=form, question=question)


# ------------------------------------------------------------------ the routes


@bp.get("/g/<code>/games/<int:game_id>/live")
def live(code: str, game_id: int) -> tuple[str, int]:
    """The live screen of a game's current manche, as stored (the engine does not run)."""
    return _page(_manche(code, game_id))


def live_token(game_version: int, live_version: int) -> str:
    """What the live screen shows, as a token: the game's version (a round saved makes
    the manche stale) and the live manche's (every move, undo or new start)."""
    return f"{game_version}.{live_version}"


@bp.get("/g/<code>/games/<int:game_id>/live/state")
def live_state(code: str, game_id: int) -> Response:
    """The live screen's token, which changes with every move (polled by
    ``static/watch.js``; answered 304 while it is the one the page has): one query
    after the group's."""
    group = group_for(code)
    found = db.session.execute(
        sa.select(Game.version, LiveManche.version)
        .join(Season, Season.id == Game.season_id)
        .outerjoin(LiveManche, LiveManche.game_id == Game.id)
        .where(Game.id == game_id, Season.group_id == group.id)
    ).first()
    if found is None:
        abort(404)
    game_version, version = found[0], found[1] or 0
    return watch.answer(live_token(game_version, version), game_version=game_version, version=version)


@bp.post("/g/<code>/games/<int:game_id>/live/start")
def live_start(code: str, game_id: int) -> ResponseReturnValue:
    """Start following the manche (its starting card and first player for la
    crapouille, its leader for a first manche of Président)."""
    manche = _manche(code, game_id)
    form = _start_form(manche, StartForm())
    if manche.closed is not None or manche.started:
        if manche.started:
            flash(_("Following had already started on another device; here it is."))
        return redirect(_live_url(manche), 303)
    if not form.validate_on_submit():
        return _page(manche, start_form=form, status=400)
    lang = current_lang()
    try:
        state, view = manche.follow.start(manche.game, manche.stored, form, lang)
    except Refused as e:
        target = form._fields.get(e.field)
        add_error(target if target is not None else form.version, e.message)
        return _page(manche, start_form=form)
    except RulesError as e:
        add_error(form.version, e.text.get(lang))
        return _page(manche, start_form=form)
    row = _claim(manche, plain_int(form.version.data or "", 0, 10**9))
    if row is None:
        db.session.rollback()
        flash(_("Following had already started on another device; here it is."))
        return redirect(_live_url(manche), 303)
    row.number, row.game_version = manche.number, manche.game.version
    hands = manche.follow.hands(manche.game, manche.stored, state)
    if hands is not None:
        view = {**view, "hands": hands}
    row.state, row.view, row.history, row.moves, row.entry = state, view, [], [], None
    commit()
    return redirect(_live_url(manche, _anchor="turn"), 303)


def _refuse(manche: Manche, form: MoveForm, message: str, field: str) -> tuple[str, int]:
    """The screen again, nothing stored, with the reason said once: on the field it is
    about, which the page's summary names (or, when the screen does not draw that field,
    as a ``move`` reason, says itself: templates/_macros.html, ``error_summary``)."""
    target = form._fields.get(field)
    if target is not None:
        add_error(target, message)
    return _page(manche, move_form=form, refused=message)


@bp.post("/g/<code>/games/<int:game_id>/live/move")
def live_move(code: str, game_id: int) -> ResponseReturnValue:
    """One move: judged by the engine on the stored table; kept with what the table says
    if legal, refused with the engine's reason (nothing stored) if not."""
    manche = _manche(code, game_id)
    form = _move_forms(manche, MoveForm())
    if manche.closed is not None or not manche.started:
        outcome("refused")
        flash(_("This round is no longer followed live: here is where things stand."))
        return redirect(_live_url(manche), 303)
    row = manche.row
    assert row is not None and row.state is not None and row.view is not None
    based_on = plain_int(form.version.data or "", 0, 10**9)
    if not form.validate_on_submit():
        return _page(manche, move_form=form, status=400)
    if based_on != row.version:
        return _conflict(manche, form, based_on)
    if len(row.moves) >= MAX_MOVES:
        return _refuse(manche, form, _("Too many moves for one round: start it again."), "move")
    lang = current_lang()
    try:
        moves = manche.follow.moves(form, row.state, row.view, lang)
    except Refused as e:
        return _refuse(manche, form, e.message, e.field)
    state, view = row.state, row.view
    steps: list[tuple[Step, dict[str, Any], dict[str, Any]]] = []
    for i, move in enumerate(moves):
        if i and view.get("to_move") != move["player"]:
            break  # a drawn card that does not fit stays in hand
        try:
            asked = manche.follow.judged(manche.game, state, move)
            body = manche.follow.body(manche.game, state, asked)
            named = {**body, "state": renamed(body["state"], manche.names), "move": renamed(asked, manche.names)}
            if _may_be_last(view, move) and not form.not_last.data and _legal_either_way(named, lang):
                return _ask_last(manche, form, move)
            answer = judge(named, lang)
            if not answer.get("legal"):
                return _refuse(manche, form, str(answer.get("reason") or _("This move is not allowed.")), "move")
            step = manche.follow.advance(manche.game, state, asked)
        except Refused as e:
            return _refuse(manche, form, e.message, e.field)
        except RulesError as e:
            return _refuse(manche, form, e.text.get(lang), _field_of(e.field))
        step.move = move
        step.view = _counted(manche.follow, view, step, wrong=bool(form.not_last.data) and _may_be_last(view, move))
        steps.append((step, _said(manche.game.kind, named, answer), view))
        state, view = step.state, step.view
    claimed = _claim(manche, based_on)
    if claimed is None:
        db.session.rollback()
        return _conflict(manche, form, based_on)
    history = list(claimed.history)
    records = list(claimed.moves)
    before_state = row.state
    for step, words, before_view in steps:
        history.append([before_state, before_view])
        records.append(
            {
                "player": step.move["player"],
                "move": step.move,
                "effects": step.effects,
                "said": words,
                "based_on": based_on,
                "form": form.fingerprint(),
            }
        )
        before_state = step.state
    claimed.history = history[-UNDO_DEPTH:]
    claimed.moves = records
    claimed.state, claimed.view = state, view
    claimed.entry = manche.follow.entry(manche.game, claimed) if view.get("finished") else None
    commit()
    return redirect(_live_url(manche, _anchor="turn"), 303)


def _field_of(path: str | None) -> str:
    """The form field an engine error about the move belongs to."""
    if path and path.startswith("move.asked"):
        return "asked"
    if path and path.startswith(("move.cards", "move.card", "move.drawn")):
        return "cards"
    if path == "asked":
        return "asked"
    return "move"


def _conflict(manche: Manche, form: MoveForm, based_on: int | None) -> ResponseReturnValue:
    """A move based on an earlier version: the same move sent twice leads to the table
    (it was kept once); another one is refused, the table shown as it is now, with
    what was typed still in the form."""
    db.session.expire_all()
    manche = _manche(manche.group.code, manche.game.id)
    row = manche.row
    if row is not None and manche.started and based_on is not None:
        fingerprint = form.fingerprint()
        if any(m.get("based_on") == based_on and m.get("form") == fingerprint for m in row.moves):
            outcome("duplicate")
            flash(_("This move was already recorded."))
            return redirect(_live_url(manche, _anchor="turn"), 303)
    if not manche.started:
        outcome("refused")
        flash(_("This round is no longer followed live: here is where things stand."))
        return redirect(_live_url(manche), 303)
    message = _("The table changed in the meantime (another device): nothing was recorded. Here it is now.")
    kept = _move_forms(manche, form)
    kept.version.data = str(manche.version)
    return _page(manche, move_form=kept, refused=message, status=409)


def _based_on() -> int | None:
    return plain_int(request.form.get("version", ""), 0, 10**9)


@bp.post("/g/<code>/games/<int:game_id>/live/undo")
def live_undo(code: str, game_id: int) -> Response:
    """Take back the last move (only while the table is at the version the page showed)."""
    manche = _manche(code, game_id)
    row = manche.row
    based_on = _based_on()
    claimed = None
    if manche.closed is None and manche.started and row is not None and row.history and based_on == row.version:
        claimed = _claim(manche, based_on)
    if claimed is None or not claimed.history:
        db.session.rollback()
        flash(_("Nothing was undone: the table changed in the meantime."))
        return redirect(_live_url(manche, _anchor="turn"), 303)
    state, view = claimed.history[-1]
    claimed.history = list(claimed.history[:-1])
    claimed.moves = list(claimed.moves[:-1])
    claimed.state, claimed.view, claimed.entry = state, view, None
    commit()
    flash(_("Last move taken back."))
    return redirect(_live_url(manche, _anchor="turn"), 303)


@bp.post("/g/<code>/games/<int:game_id>/live/restart")
def live_restart(code: str, game_id: int) -> ResponseReturnValue:
    """Start the manche again from its beginning (asked once)."""
    manche = _manche(code, game_id)
    if manche.started and not confirmed():
        return confirmation_page(
            _("Start %(the_round)s again?", the_round=manche.kind.the_round(manche.number)),
            _("Every move followed so far is forgotten; it starts again from the beginning."),
            _("Start again"),
            _live_url(manche),
            group=manche.group,
        )
    claimed = _claim(manche, _based_on()) if manche.started else None
    if claimed is None:
        db.session.rollback()
        flash(_("Nothing was changed: the table changed in the meantime."))
        return redirect(_live_url(manche), 303)
    claimed.state, claimed.view, claimed.history, claimed.moves, claimed.entry = None, None, [], [], None
    db.session.commit()
    flash(_("Started again from the beginning."))
    return redirect(_live_url(manche), 303)
