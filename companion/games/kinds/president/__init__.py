"""Le Président (seed 000) and its variante Piketty (seed 001) on the shared game layer.

Players enter, per manche, the order in which they went out and what happened (a
putsch, a jeu blanc…); Piketty's first manche is a card draw. The engine
(``companion.rules.president_outcome``) computes the new titles, the exchanges of the
next manche, the seats, the dealer and the leader, the deal, the points and the end.

The kind by concept, each a module of this package:

- :mod:`.options` — the house rules: the toggles and variants offered, the engine's
  rules of a game, the rules in force in words;
- :mod:`.state` — what is stored after each manche (:class:`~.state.PresidentState`);
- :mod:`.scoring` — the state before the first manche and after each, from the engine;
- :mod:`.forms` — the new-game form and the manche form;
- :mod:`.widgets` — the card picker of a card draw;
- :mod:`.page` — what the game page shows (titles, exchanges, events, the chart);
- :mod:`.season`, :mod:`.live_play`, :mod:`.referee`, :mod:`.rules_pages` — its season
  part, its live screen, its quick check and its house-rules pages.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from companion.games.forms import RoundForm, SeatsForm
from companion.games.kinds.base import Entry, GameKind, Turn
from companion.games.kinds.president import page
from companion.games.kinds.president.api import PIKETTY_API, PRESIDENT_API
from companion.games.kinds.president.forms import manche_form, new_game_form
from companion.games.kinds.president.live_play import PresidentLivePlay
from companion.games.kinds.president.options import rules_of, toggles_for
from companion.games.kinds.president.referee import PresidentCheck
from companion.games.kinds.president.rules_pages import PresidentRulesPages
from companion.games.kinds.president.scoring import initial_state, play
from companion.games.kinds.president.season import PresidentSeason
from companion.games.kinds.president.sentence import example, read_manche
from companion.games.kinds.president.state import PresidentState
from companion.games.live_play import LivePlay
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.models import Game, Group, Player
from companion.rules.president import Rules
from companion.sentence import Hint, Person, Reading


class _PresidentFamily(GameKind[PresidentState]):
    """What le Président and Piketty share: everything but their id and names."""

    game_template = "games/president.html"
    display_template = "display/_president.html"
    round_template = "games/president_round.html"
    new_template = "games/new_president.html"

    round_word = "round"

    season = PresidentSeason()

    check: QuickCheck = PresidentCheck()
    rules_pages: RulesPages = PresidentRulesPages()
    live_play: LivePlay = PresidentLivePlay()

    def turn(self, game: Game, state: PresidentState) -> Turn | None:
        """The next manche's dealer and leader, as the engine gave them with the last
        hierarchy (none before the first manche: the table's draw or the live screen
        says it)."""
        if self.over(state) or state.get("dealer") is None or state.get("leader") is None:
            return None
        return Turn(str(state["dealer"]), str(state["leader"]))

    def leaders(self, state: PresidentState) -> list[str]:
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

    def initial_state(self, game: Game) -> PresidentState:
        return initial_state(game)

    def round_form(
        self, game: Game, state: PresidentState, number: int, entry: Entry | None = None, **form: Any
    ) -> RoundForm:
        return manche_form(self, game, state, number, entry, **form)

    def score(self, game: Game, state: PresidentState, entry: Entry) -> PresidentState:
        return play(game, state, entry)

    def summary(self, before: PresidentState, after: PresidentState, names: dict[str, str]) -> list[str]:
        return page.summary(before, after, names)

    def page_context(self, game: Game, state: PresidentState, names: dict[str, str]) -> dict[str, Any]:
        return page.page_context(self, game, state, names)

    def line_hint(self, game: Game, state: PresidentState, number: int, lang: str) -> Hint | None:
        """The manche said by titles, or Piketty's card draw (:func:`.sentence.example`)."""
        people = [Person(str(p.id), p.name) for p in game.players]
        return example(people, rules_of(game), state, lang)

    def read_line(
        self,
        game: Game,
        state: PresidentState,
        number: int,
        line: str,
        lang: str,
        me: str | None = None,
        entry: Entry | None = None,
    ) -> Reading | None:
        """The manche said in one line (:func:`.sentence.read_manche`): titles or the
        finishing order, forbidden finishes, the events the house rules have, or
        Piketty's card draw."""
        people = [Person(str(p.id), p.name) for p in game.players]
        return read_manche(line, people, rules_of(game), state, lang, me)


class President(_PresidentFamily):
    """Le Président / Trou du cul (seed 000)."""

    id = "president"
    api = PRESIDENT_API
    name = _l("Le Président")
    blurb = _l("Titles, exchanges and points: the Trou du cul deals.")


class Piketty(_PresidentFamily):
    """Président, variante Piketty (seed 001): 4 to 9 players, titles drawn by cards."""

    id = "piketty"
    api = PIKETTY_API
    name = _l("Piketty")
    blurb = _l("Président with titles drawn by cards, 4 to 9 players, two decks from 6.")

    def draws_first(self, game: Any = None) -> bool:
        """Piketty's first titles are always drawn by cards: its first stored round is
        « le tirage », and the first manche played is manche 1."""
        return True
