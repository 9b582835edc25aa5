"""La crapouille on the shared game layer (seed 003): its setup form, its hand form
(:mod:`.forms`), and each hand scored by the engine (``companion.rules.crapouille``).

Players are named by their id (as a string) in what is stored, so a renamed player
keeps the scores; the engine is asked with names when a form is judged, so that its
reasons name the players. A hand's stored result is the whole scoresheet after it
(:class:`~.state.CrapouilleState`: totals, eliminations, places…): a page never replays
the hands.

**Who deals.** The first dealer is chosen at set-up (``game.setup["dealer"]``, the
first seat by default); each hand's entry says who dealt it (``"dealer"``: the form
pre-fills the rotation's, which can be changed), and the deal passes to the left of
that player, skipping players who are out; the player on the dealer's left starts
(seed 003; :func:`companion.rules.crapouille.next_opening`). The state after a hand
says who deals and starts the next one. The table may also give the next deal to
someone else before it is entered (a misdeal): :attr:`Crapouille.dealer_by_hand`, kept
as ``game.setup["next_dealer"]`` (``{"number": n, "dealer": id}``) and honoured while
hand ``n`` is the next one.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from companion.games.forms import RoundForm
from companion.games.kinds.base import Entry, GameKind, Turn, figure_changes
from companion.games.kinds.crapouille import charts
from companion.games.kinds.crapouille.api import CRAPOUILLE_API
from companion.games.kinds.crapouille.forms import NewCrapouilleForm, hand_form
from companion.games.kinds.crapouille.live_play import CrapouilleLivePlay
from companion.games.kinds.crapouille.referee import CrapouilleCheck
from companion.games.kinds.crapouille.rules_pages import CrapouilleRulesPages
from companion.games.kinds.crapouille.season import CrapouilleSeason
from companion.games.kinds.crapouille.sentence import example, read_hand
from companion.games.kinds.crapouille.state import CrapouilleState, after_hand, dealt_by, initial_state, sheet_of
from companion.games.live_play import LivePlay
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.models import Game, Group, Player
from companion.rules import crapouille
from companion.rules.cards import Card, Rank, Suit, parse_cards
from companion.sentence import Hint, Person, Reading


class Crapouille(GameKind[CrapouilleState]):
    """La crapouille: penalty points, out past 300 (seed 003)."""

    id = "crapouille"
    api = CRAPOUILLE_API
    name = _l("La crapouille")
    blurb = _l("Crazy Eights cousin: penalty points, out past 300.")

    season = CrapouilleSeason()

    check: QuickCheck = CrapouilleCheck()
    rules_pages: RulesPages = CrapouilleRulesPages()
    live_play: LivePlay = CrapouilleLivePlay()
    new_template = "games/new_crapouille.html"
    game_template = "games/crapouille.html"
    display_template = "display/_crapouille.html"
    round_template = "games/crapouille_hand.html"
    #: The table may give the next deal to another player (a misdeal).
    dealer_by_hand = True
    #: Exports written before dealers were kept have none (issue 27).
    later_state_keys = frozenset({"dealer", "starter", "hand"})
    later_setup_keys = frozenset({"dealer"})

    def leaders(self, state: CrapouilleState) -> list[str]:
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
        dealer = setup.get("dealer")
        if dealer is not None:
            fields["dealer"] = str(dealer)
        return fields

    def initial_state(self, game: Game) -> CrapouilleState:
        players = [str(p.id) for p in game.players]
        chosen = (game.setup or {}).get("dealer")
        return initial_state(players, chosen if chosen in players else None)

    def round_form(
        self, game: Game, state: CrapouilleState, number: int, entry: Entry | None = None, **form: Any
    ) -> RoundForm:
        dealer = self._dealer_for(game, state, number)
        return hand_form(game.players, number, state, game.version, entry, dealer, **form)

    def score(self, game: Game, state: CrapouilleState, entry: Entry) -> CrapouilleState:
        hands = {p: parse_cards(cards) for p, cards in (entry.get("hands") or {}).items()}
        dealt = dealt_by(state, entry)
        outcome = sheet_of(state).score_hand(entry["winner"], hands=hands, points=entry.get("points"))
        return after_hand(state, outcome, dealt)

    def line_hint(self, game: Game, state: CrapouilleState, number: int, lang: str) -> Hint | None:
        """A hand said with the players still in (:func:`.sentence.example`)."""
        people = [Person(str(p.id), p.name) for p in game.players if str(p.id) in state["in_play"]]
        return example(people, lang)

    def read_line(
        self,
        game: Game,
        state: CrapouilleState,
        number: int,
        line: str,
        lang: str,
        me: str | None = None,
        entry: Entry | None = None,
    ) -> Reading | None:
        """A hand said in one line: who went out, who dealt, each player's cards or total
        (:func:`~companion.games.kinds.crapouille.sentence.read_hand`), among the players
        still in."""
        people = [Person(str(p.id), p.name) for p in game.players]
        return read_hand(line, people, state["in_play"], lang, me, self._dealer_for(game, state, number))

    def _dealer_for(self, game: Game, state: CrapouilleState, number: int | None) -> str | None:
        """Who deals hand ``number`` from ``state`` (the state before it): the player the
        table gave the deal to by hand, while that hand is the next one and that player
        is still in; else the rotation's (None when not known)."""
        if state.get("over"):
            return None
        given = (game.setup or {}).get("next_dealer")
        if (
            isinstance(given, dict)
            and number is not None
            and given.get("number") == number == state.get("hand")
            and given.get("dealer") in state["in_play"]
        ):
            return str(given["dealer"])
        return state.get("dealer")

    def turn(self, game: Game, state: CrapouilleState) -> Turn | None:
        """The next hand's dealer (the rotation's, or the one the table chose by hand)
        and the player on his left, who starts; None once the game is over, or when no
        dealer is known (a game whose hands were stored before dealers were kept)."""
        dealer = self._dealer_for(game, state, state.get("hand"))
        if dealer is None or len(state["in_play"]) < 2:
            return None
        return Turn(dealer, crapouille.starter(state["players"], state["in_play"], dealer))

    def dealers(self, game: Game, state: CrapouilleState) -> list[str]:
        """The players still in, while the next hand's number and dealer are known."""
        if state.get("hand") is None or self.turn(game, state) is None:
            return []
        return list(state["in_play"])

    def summary(self, before: CrapouilleState, after: CrapouilleState, names: dict[str, str]) -> list[str]:
        return figure_changes(before, after, names, "totals")

    def page_context(self, game: Game, state: CrapouilleState, names: dict[str, str]) -> dict[str, Any]:
        options = crapouille.Options.from_options(game.rules)
        ranking = state.get("ranking") or sorted(
            state["players"], key=lambda p: (p not in state["in_play"], state["totals"].get(p, 0))
        )
        return {
            "live": [p for p in game.players if str(p.id) in state["in_play"]],
            "turn": self.turn(game, state),
            # Who the game page's « Confier la donne » offers (none: no such form).
            "dealers": self.dealers(game, state),
            "copies": crapouille.DECK.limit(Card(rank=Rank.ACE, suit=Suit.SPADES)),
            "jokers": crapouille.DECK.joker_limit,
            "cards": parse_cards,
            "limit": crapouille.ELIMINATION_TOTAL,
            "deal": crapouille.deal(options.super),
            "two_player_rule": len(state["in_play"]) == 2,
            "ranking": ranking,
            "places": state.get("places", {}),
            "winner_names": [names[p] for p in (game.ending or {}).get("winners", state.get("winners", []))],
            # Drawn only by the game page (one query, when it is called).
            "totals_chart": lambda: charts.totals_chart(game, names, crapouille.ELIMINATION_TOTAL),
        }
