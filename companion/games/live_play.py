"""What the live screen (:mod:`companion.referee.live`) asks of a kind: its live play.

A kind that can be followed move by move sets :attr:`GameKind.live_play
<companion.games.kinds.base.GameKind.live_play>` to a :class:`LivePlay`: how a manche of it
starts, how a form's taps become the API's moves, how the engine advances the table and
what the finished manche enters.  The live screen itself (its pages, its writes, the
engine's verdicts) is shared and knows no kind; this module holds what the live plays
share: the screen's two forms, a :class:`Step`, and the helpers reading typed cards.

Nothing here knows a rule: the engine decides, a live play only translates forms to moves
and engine objects to what the screen shows.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, RadioField, StringField
from wtforms.fields.choices import SelectChoice

from companion.forms import SafeForm
from companion.i18n import gettext as _
from companion.models import Game, LiveManche
from companion.rules.cards import Card, Suit, parse_typed_cards
from companion.rules.i18n import RulesError

State = dict[str, Any]

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


def suit_choices(lang: str) -> list[SelectChoice]:
    """The suits as radio choices (the suit asked with an 8)."""
    return [SelectChoice(s.value, f"{s.symbol} {s.name_in(lang)}") for s in Suit]


class StartForm(SafeForm):
    """Starting the manche, as a kind's start asks it: who dealt (the player after him
    leads; ``leader`` names the leader outright), the card turned up to start a pile and
    who plays first."""

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


class LivePlay(ABC):
    """How the live screen follows one family of games: one subclass per family, which
    must say how a manche starts, reads a form's moves, advances and ends, and which
    templates draw its parts of the screen.  A kind exposes its live play as
    :attr:`GameKind.live_play <companion.games.kinds.base.GameKind.live_play>`.

    The shared screen (``referee/live.html``) never branches on a kind: it includes the
    live play's templates and asks it what differs (its labels, its scripts)."""

    #: The table and its move form while the manche is followed (``referee/live_<kind>.html``,
    #: which may share ``referee/_live_macros.html``: the players, the move form).
    table_template: str
    #: The start form's own questions and what it says first (inside ``referee/live_start.html``).
    start_template: str
    #: What the finished manche decided (inside ``referee/live_end.html``).
    end_template: str
    #: Scripts its parts need, beyond the card picker's (file names under ``static/``).
    scripts: tuple[str, ...] = ()
    #: Whether its end box says what the last move did: the last moves then do not say it again.
    end_says_last_move: bool = False

    def field_labels(self) -> dict[str, str]:
        """How the error summary names the move form's fields that its table labels in
        its own words (by field name; the others by their form label)."""
        return {}

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

    def renamed(self, data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
        """A state or a move of its API body with its players renamed (ids → names), so that
        the judge's reasons name them: the fields :func:`renamed` knows by default; a kind
        whose body names players in other fields renames those too."""
        return renamed(data, names)

    @abstractmethod
    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        """The engine applies a move already judged legal; raises :class:`RulesError`."""

    @abstractmethod
    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        """The round entry a finished manche fills in."""

    def picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        """What the card picker needs (None: no picker)."""
        return None

    def start_picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        """What the start page's card picker needs (None: the start page has none; a kind
        whose start asks the card turned up has one)."""
        return None

    def screen(
        self, game: Game, row: LiveManche, names: Mapping[str, str], lang: str, shown: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What the table's template needs beyond the shared screen's context (``shown``,
        which this adds to or overrides), while the manche is followed."""
        return {}

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


def player_of(form: MoveForm, view: Mapping[str, Any], players: Sequence[str]) -> str:
    """Who moves: the player whose turn it is, else the one chosen in the form."""
    if view.get("to_move"):
        return str(view["to_move"])
    chosen = form.player.data or ""
    if chosen not in players:
        raise Refused(_("Say who plays."), "player")
    return chosen


def one_card(text: str, lang: str, field: str, missing: str) -> Card:
    """The one card typed in ``field`` (``missing``: what to say when there is none)."""
    try:
        cards = typed_cards(text, lang)
    except RulesError as e:
        raise Refused(e.text.get(lang), field) from None
    if not cards:
        raise Refused(missing, field)
    if len(cards) > 1:
        raise Refused(_("One card only."), field)
    return cards[0]


def laid(move: Mapping[str, Any]) -> int:
    """How many cards ``move`` takes out of its player's hand.

    >>> laid({"player": "1", "cards": ["9h", "9s"]}), laid({"player": "1", "card": "8c"}), laid({"pass": True})
    (2, 1, 0)
    """
    return len(move.get("cards") or []) + (1 if move.get("card") else 0)
