"""The interface every kind of game implements on the shared game layer.

A kind is one module of this package, with one :class:`GameKind` subclass registered
in :data:`companion.games.kinds.KINDS`. The shared routes (``companion/games/routes.py``)
know nothing of any kind: they ask the registry, and the kind asks the engine.

**State.** What the engine knows between two rounds is a JSON object (players named by
their id as a string): the kind's :meth:`GameKind.initial_state` before the first round,
and each round's stored ``Round.result`` after it. A page only reads stored states;
the engine runs when a round is saved or edited (:meth:`GameKind.score`).

**A round** is entered through the kind's form (:meth:`GameKind.round_form`), which
turns what players typed into the round's ``entry`` (JSON, as entered) and asks the
engine for its ``result`` (the state after the round). A kind whose rounds are entered
in two steps (whist: the bids, then the tricks) says so with :meth:`GameKind.pending`;
the second step edits the same round.

**Editing** round *n* rescoring it and every round after it is the layer's business:
:meth:`GameKind.score` is applied from the state before round *n*.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from flask_babel import LazyString

from companion.forms import OnceForm, SafeForm
from companion.models import Game, Group, Player

State = dict[str, Any]
Entry = dict[str, Any]


class GameKind(ABC):
    """One kind of game: its forms, its templates, and how the engine scores a round.

    The abstract methods are what every kind must say; the others have defaults."""

    #: The engine's game id (``crapouille``, ``president``, ``piketty``, ``whist-tarot``).
    id: str
    #: Display name and a one-line description (new-game page).
    name: LazyString
    blurb: LazyString
    #: Templates: the setup form, the game page, the round entry.
    new_template: str
    game_template: str
    round_template: str

    @abstractmethod
    def round_name(self, number: int) -> str:
        """« Donne 3 », « Manche 3 »… (a title, or the subject of a sentence)."""

    @abstractmethod
    def the_round(self, number: int) -> str:
        """« la donne 3 », « la manche 3 »… (inside a sentence)."""

    # --- setting a game up

    @abstractmethod
    def setup_form(self, group: Group, players: list[Player]) -> OnceForm:
        """The new-game form. Once validated it has ``chosen`` (the players in seat
        order), ``rules`` (house rules as the engine's options) and ``setup`` (other
        kind-specific settings, JSON: a first dealer…)."""

    @abstractmethod
    def initial_state(self, game: Game) -> State:
        """The state before the first round, from the game's seats, rules and setup
        (no round is read)."""

    # --- rounds

    @abstractmethod
    def round_form(self, game: Game, state: State, number: int, entry: Entry | None = None) -> SafeForm:
        """The form of round ``number`` from ``state``; ``entry`` pre-fills it (an edit).
        Once validated it has ``entry`` and ``result`` (the engine's new state)."""

    @abstractmethod
    def score(self, game: Game, state: State, entry: Entry) -> State:
        """The state after a round entered as ``entry`` from ``state`` (the engine
        decides; raises :class:`~companion.rules.i18n.RulesError`)."""

    def pending(self, entry: Entry) -> bool:
        """Whether a round still waits for its second step (whist's tricks)."""
        return False

    def over(self, state: State) -> bool:
        """Whether the game ended with this state."""
        return bool(state.get("over"))

    def winners(self, state: State) -> list[str]:
        """The winners' ids (``str``) once the game is over."""
        return [str(p) for p in state.get("winners", [])]

    @abstractmethod
    def leaders(self, state: State) -> list[str]:
        """Who wins if the table stops the game now (it is finished early)."""

    def summary(self, before: State, after: State, names: dict[str, str]) -> list[str]:
        """What differs between two states, in the players' words (an edit's report)."""
        return []

    # --- the game page

    def page_context(self, game: Game, state: State, names: dict[str, str]) -> dict[str, Any]:
        """What the game template needs beyond the game, its state, its rounds."""
        return {}
