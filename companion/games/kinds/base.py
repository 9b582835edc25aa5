"""The interface every kind of game implements on the shared game layer.

A kind is one module of this package, with one :class:`GameKind` subclass registered
in :data:`companion.games.kinds.KINDS`. The shared routes (``companion/games/routes.py``)
know nothing of any kind: they ask the registry, and the kind asks the engine.

**State.** What the engine knows between two rounds is a JSON object (players named by
their id as a string): the kind's :meth:`GameKind.initial_state` before the first round,
and each round's stored ``Round.result`` after it. A page only reads stored states;
the engine runs when a round is saved or edited (:meth:`GameKind.score`). Each kind
types its state (a ``TypedDict`` in its ``state`` module, documenting each key:
``CrapouilleState``, ``PresidentState``, ``WhistState``) and is a ``GameKind`` of it,
so that its key reads are checked; shared code holds a state as the JSON it is
(:data:`State`) and never reads a key of it: it asks the kind (:meth:`GameKind.over`,
:meth:`GameKind.winners`, :meth:`GameKind.state_pending`, its ``season``…).

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
from collections.abc import Mapping
from typing import Any, Generic, NamedTuple, cast

from flask_babel import LazyString
from typing_extensions import TypeVar

from companion.forms import OnceForm, SafeForm
from companion.games.kinds.season_base import KindSeason
from companion.games.live_play import LivePlay
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.i18n import gettext as _
from companion.i18n import ngettext
from companion.judge.game import ApiGame
from companion.models import Game, Group, Player
from companion.sentence import Hint, Reading

#: A stored state as shared code holds it: the JSON of ``Round.result``, whose keys only
#: its kind reads.
State = dict[str, Any]
Entry = dict[str, Any]


def figure_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], names: Mapping[str, str], key: str
) -> list[str]:
    """What an edit changed of each player's figure ``key`` (« Ann : 12 → 20 ») and of
    the winners, for a kind's :meth:`GameKind.summary`."""
    lines = []
    for p in after.get("players", []):
        old, new = (before.get(key) or {}).get(p), (after.get(key) or {}).get(p)
        if old != new:
            lines.append(_("%(name)s: %(old)s → %(new)s", name=names.get(p, p), old=old, new=new))
    if before.get("winners") != after.get("winners"):
        winners = ", ".join(names.get(p, p) for p in after.get("winners", [])) or "—"
        lines.append(_("Winners: %(names)s", names=winners))
    return lines


class Turn(NamedTuple):
    """Who deals the next round (or the round in play) and who starts it: player ids
    (``str``), as the kind's stored state says them."""

    dealer: str
    starter: str


#: A kind's own state type (its ``TypedDict``); a bare ``GameKind`` is any kind.
S = TypeVar("S", bound=Mapping[str, Any], default=Any)


class GameKind(ABC, Generic[S]):
    """One kind of game: its forms, its templates, and how the engine scores a round.

    The abstract methods are what every kind must say; the others have defaults. A
    kind is a ``GameKind`` of its state type (``class Crapouille(GameKind[CrapouilleState])``):
    every method taking or giving a state uses it."""

    #: The engine's game id (``crapouille``, ``president``, ``piketty``, ``whist-tarot``).
    id: str
    #: Display name and a one-line description (new-game page).
    name: LazyString
    blurb: LazyString
    #: Templates: the setup form, the game page, the round entry.
    new_template: str
    game_template: str
    round_template: str

    #: The table display's part for this kind (``templates/display/``): what a screen in
    #: the middle of the table shows of a game, from the game page's context and the
    #: live manche as stored (``companion.display``); None: the display shows the kind's
    #: name, the round and who deals only.
    display_template: str | None = None

    #: Keys the kind's stored states and setups gained after exports were first written:
    #: an import of a file written before compares what the app makes without those the
    #: file lacks (and writes the app's own, with them).
    later_state_keys: frozenset[str] = frozenset()
    later_setup_keys: frozenset[str] = frozenset()

    #: What a round of this kind is called: ``"hand"`` (une donne: the crapouille,
    #: whist) or ``"round"`` (une manche: le Président, Piketty). Shared pages and
    #: routes never write « donne » or « manche » themselves: they ask the kind (below).
    round_word: str = "hand"

    # --- the season (results, standings, player pages, export)

    #: What the kind's stored states give the season's pages: its results, leaderboard,
    #: player-page and recap lines, CSV columns (:mod:`companion.games.kinds.season_base`).
    season: KindSeason

    # --- the referee (quick check, house-rules page, live screen)

    #: How the live screen follows a manche of this kind move by move
    #: (:mod:`companion.games.live_play`); None: it cannot be followed (the screen is a 404).
    live_play: LivePlay | None = None
    #: Its part of the quick check (:mod:`companion.games.quick_check`); None: the quick
    #: check does not know it (its page is a 404).
    check: QuickCheck | None = None
    #: Its rules page and what the house-rules pages say of its options
    #: (:mod:`companion.games.rules_pages`); None: it has no rules page.
    rules_pages: RulesPages | None = None
    #: Its part of the rules API, check and outcome (:mod:`companion.judge.game`); None: the API does not know it.
    api: ApiGame | None = None

    # --- the kind's words for its rounds

    def draws_first(self, game: Any = None) -> bool:
        """Whether ``game``'s first stored round is a card draw (« le tirage »), not a
        round played: then the first round played is round 1 on every page.

        Decided by the kind alone (Piketty), so that a kept page, whose game is plain
        columns without its setup, names rounds as the full page does; ``game`` is there
        for a kind that would need more."""
        return False

    def is_draw(self, number: int, game: Any = None) -> bool:
        """Whether stored round ``number`` of ``game`` is its card draw."""
        return number == 1 and self.draws_first(game)

    def shown_number(self, number: int, game: Any = None) -> int:
        """The number pages show for stored round ``number``: after a card draw the
        first manche played is manche 1 (stored as round 2). Display only: what is
        stored, exported and imported keeps the stored numbers."""
        return number - 1 if self.draws_first(game) else number

    def round_name(self, number: int, game: Any = None) -> str:
        """« Donne 3 », « Manche 3 », « Le tirage » (a title, or the subject of a sentence)."""
        if self.is_draw(number, game):
            return _("The card draw")
        n = self.shown_number(number, game)
        return _("Round %(n)d", n=n) if self.round_word == "round" else _("Hand %(n)d", n=n)

    def the_round(self, number: int, game: Any = None) -> str:
        """« la donne 3 », « la manche 3 », « le tirage » (inside a sentence)."""
        if self.is_draw(number, game):
            return _("the card draw")
        n = self.shown_number(number, game)
        return _("round %(n)d", n=n) if self.round_word == "round" else _("hand %(n)d", n=n)

    def rounds_title(self) -> str:
        """« Manches », « Donnes » (a heading)."""
        return _("Rounds") if self.round_word == "round" else _("Hands")

    def no_round_yet(self) -> str:
        """« Pas encore de manche. », « Aucune donne pour l’instant. »"""
        return _("No round yet.") if self.round_word == "round" else _("No hand yet.")

    def enter_round(self, number: int, game: Any = None) -> str:
        """« Saisir la manche 3 », « Saisir le tirage » (the button to the next round)."""
        return _("Enter %(the_round)s", the_round=self.the_round(number, game))

    def round_count(self, count: int, game: Any = None) -> str:
        """« 3 manches », « 1 donne » for ``count`` stored rounds (a card draw is no manche)."""
        if self.draws_first(game) and count:
            count -= 1
        if self.round_word == "round":
            return ngettext("%(num)d round", "%(num)d rounds", count)
        return ngettext("%(num)d hand", "%(num)d hands", count)

    def no_more_rounds(self) -> str:
        """What a finished game says to a round sent to it."""
        if self.round_word == "round":
            return _("This game is over: no more rounds to enter.")
        return _("This game is over: no more hands to enter.")

    def ended_by_rounds(self) -> str:
        """What a game its rounds have ended says to one more round."""
        if self.round_word == "round":
            return _("The rounds played have ended this game: correct or delete the last one to go on.")
        return _("The hands played have ended this game: correct or delete the last one to go on.")

    def closed_to_corrections(self) -> str:
        """What a closed game says to a correction."""
        if self.round_word == "round":
            return _("This game is closed: reopen it to correct a round.")
        return _("This game is closed: reopen it to correct a hand.")

    def round_done(self, event: str, number: int, game: Any = None) -> str:
        """What happened to a round, its words agreeing with the round's own (« Manche 3
        saisie », « Tirage saisi »): ``event`` is ``entered``, ``corrected``, ``deleted``,
        ``restored``, ``back``, ``completed``, ``already_saved`` or ``not_deleted``."""
        if self.is_draw(number, game):
            draw = {
                "entered": lambda: _("The card draw entered"),
                "corrected": lambda: _("The card draw corrected"),
                "deleted": lambda: _("The card draw deleted"),
                "restored": lambda: _("The card draw restored"),
                "back": lambda: _("The card draw is back."),
                "completed": lambda: _("The card draw entered"),
                "already_saved": lambda: _("The card draw was already saved."),
                "not_deleted": lambda: _(
                    "The card draw was not deleted: the game changed in the meantime. Nothing was changed."
                ),
            }
            return draw[event]()
        name = self.round_name(number, game)
        the = self.the_round(number, game)
        the = the[:1].upper() + the[1:]  # « La donne 3 », at the start of a sentence
        said = {
            "entered": lambda: _("%(round)s entered", round=name),
            "corrected": lambda: _("%(round)s corrected", round=name),
            "deleted": lambda: _("%(round)s deleted", round=name),
            "restored": lambda: _("%(round)s restored", round=name),
            "back": lambda: _("%(round)s is back.", round=the),
            "completed": lambda: _("%(round)s completed", round=name),
            "already_saved": lambda: _("%(round)s was already saved.", round=name),
            "not_deleted": lambda: _(
                "%(round)s was not deleted: the game changed in the meantime. Nothing was changed.", round=the
            ),
        }
        return said[event]()

    # --- setting a game up

    @abstractmethod
    def setup_form(self, group: Group | None, players: list[Player], **form: Any) -> OnceForm:
        """The new-game form. Once validated it has ``chosen`` (the players in seat
        order), ``rules`` (house rules as the engine's options) and ``setup`` (other
        kind-specific settings, JSON: a first dealer…). ``form`` goes to the form's
        constructor (an import gives ``formdata``: :meth:`setup_fields`)."""

    def setup_fields(self, rules: dict[str, Any], setup: dict[str, Any], seats: list[str]) -> dict[str, str]:
        """The new-game form's fields as a phone fills them in to start a game of these
        players (ids, in seat order) with these stored ``rules`` and ``setup``: an
        import sends them through :meth:`setup_form`, so that a game it did not see
        started passes the validation a new game passes, and is stored as that form
        gives it (``companion.groups.transfer``). Raises
        :class:`~companion.rules.i18n.RulesError` for rules the engine does not know.
        Kinds with house rules or settings add their fields to the seats."""
        return {f"seats-{i}": p for i, p in enumerate(seats)}

    @abstractmethod
    def initial_state(self, game: Game) -> S:
        """The state before the first round, from the game's seats, rules and setup
        (no round is read)."""

    # --- rounds

    @abstractmethod
    def round_form(self, game: Game, state: S, number: int, entry: Entry | None = None, **form: Any) -> SafeForm:
        """The form of round ``number`` from ``state``; ``entry`` pre-fills it (an edit).
        Once validated it has ``entry`` and ``result`` (the engine's new state). ``form``
        goes to the form's constructor (a line read back gives ``formdata``:
        :mod:`companion.games.line`)."""

    @abstractmethod
    def score(self, game: Game, state: S, entry: Entry) -> S:
        """The state after a round entered as ``entry`` from ``state`` (the engine
        decides; raises :class:`~companion.rules.i18n.RulesError`)."""

    def read_line(
        self,
        game: Game,
        state: S,
        number: int,
        line: str,
        lang: str,
        me: str | None = None,
        entry: Entry | None = None,
    ) -> Reading | None:
        """Round ``number`` said in one line (typed or dictated, in ``lang``), read from
        ``state`` (the state before it) into the round form's fields
        (:class:`~companion.sentence.Reading`); ``me``: the id of the player this device
        belongs to (« moi »), if any; ``entry``: what the form holds already (a
        correction's, or a round entered in two steps whose second is awaited), which
        says the form's step. None: the kind reads no line. The kind's grammar decides no
        rule: the form and the engine judge what it fills."""
        return None

    def line_hint(self, game: Game, state: S, number: int, lang: str) -> Hint | None:
        """What the page shows under « En une phrase » for round ``number`` from ``state``:
        an example with the game's own players and for the form's own step, in ``lang``,
        and the order numbers said alone are read in (None: the kind reads no line)."""
        return None

    def pending(self, entry: Entry) -> bool:
        """Whether a round still waits for its second step (whist's tricks)."""
        return False

    def state_pending(self, state: S) -> bool:
        """Whether ``state`` is that of a round saved with its first step only (whist's
        bids in, its tricks awaited): the round is still being played."""
        return False

    def over(self, state: S) -> bool:
        """Whether the game ended with this state."""
        return bool(state.get("over"))

    def winners(self, state: S) -> list[str]:
        """The winners' ids (``str``) once the game is over."""
        return [str(p) for p in state.get("winners", [])]

    @abstractmethod
    def leaders(self, state: S) -> list[str]:
        """Who wins if the table stops the game now (it is finished early)."""

    def summary(self, before: S, after: S, names: dict[str, str]) -> list[str]:
        """What differs between two states, in the players' words (an edit's report)."""
        return []

    def turn(self, game: Game, state: S) -> Turn | None:
        """Who deals the round to come (the round in play, for a kind entered in two
        steps) and who starts it, from the stored state and the game's setup; None when
        the game is over or the kind does not say. The game page, the round form and the
        table display show it."""
        return None

    #: Whether the table may give the round to come to another dealer by hand (a misdeal:
    #: « Confier la donne » on the game page, :mod:`companion.games.dealer`). The choice
    #: is kept in the game's setup as ``next_dealer`` (``{"number": n, "dealer": id}``),
    #: which :meth:`turn` and the round form honour while round ``n`` is the next one.
    dealer_by_hand: bool = False

    def dealers(self, game: Game, state: S) -> list[str]:
        """Who may be given the deal of the round to come by hand (ids, in seat order),
        for a kind with :attr:`dealer_by_hand`; empty when it cannot be changed now (the
        game is over, the kind does not know the round to come)."""
        return []

    # --- the game page

    def page_context(self, game: Game, state: S, names: dict[str, str]) -> dict[str, Any]:
        """What the game template needs beyond the game, its state, its rounds."""
        return {}

    # --- reading what is stored

    def state_of(self, stored: Mapping[str, Any]) -> S:
        """A stored state (``Round.result``, JSON) as the kind's own state type: the same
        object, read by the kind's keys (no copy, no check: what is stored is what the
        engine gave)."""
        return cast(S, stored)
