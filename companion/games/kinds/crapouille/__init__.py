"""La crapouille on the shared game layer (seed 003): its setup form, its hand form
(:mod:`.forms`), and each hand scored by the engine (``companion.rules.crapouille``).

Players are named by their id (as a string) in what is stored, so a renamed player
keeps the scores; the engine is asked with names when a form is judged, so that its
reasons name the players. A hand's stored result is the whole scoresheet after it
(:class:`~.state.CrapouilleState`: totals, eliminations, places…): a page never replays
the hands.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from companion.games.forms import RoundForm
from companion.games.kinds.base import Entry, GameKind, figure_changes
from companion.games.kinds.crapouille import charts
from companion.games.kinds.crapouille.api import CRAPOUILLE_API
from companion.games.kinds.crapouille.forms import NewCrapouilleForm, hand_form
from companion.games.kinds.crapouille.live_play import CrapouilleLivePlay
from companion.games.kinds.crapouille.referee import CrapouilleCheck
from companion.games.kinds.crapouille.rules_pages import CrapouilleRulesPages
from companion.games.kinds.crapouille.season import CrapouilleSeason
from companion.games.kinds.crapouille.state import CrapouilleState, initial_state, sheet_of, state_of
from companion.games.live_play import LivePlay
from companion.games.quick_check import QuickCheck
from companion.games.rules_pages import RulesPages
from companion.models import Game, Group, Player
from companion.rules import crapouille
from companion.rules.cards import Card, Rank, Suit, parse_cards


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
    round_template = "games/crapouille_hand.html"

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
        return fields

    def initial_state(self, game: Game) -> CrapouilleState:
        return initial_state([str(p.id) for p in game.players])

    def round_form(self, game: Game, state: CrapouilleState, number: int, entry: Entry | None = None) -> RoundForm:
        return hand_form(game.players, number, sheet_of(state), game.version, entry)

    def score(self, game: Game, state: CrapouilleState, entry: Entry) -> CrapouilleState:
        hands = {p: parse_cards(cards) for p, cards in (entry.get("hands") or {}).items()}
        outcome = sheet_of(state).score_hand(entry["winner"], hands=hands, points=entry.get("points"))
        return state_of(outcome)

    def summary(self, before: CrapouilleState, after: CrapouilleState, names: dict[str, str]) -> list[str]:
        return figure_changes(before, after, names, "totals")

    def page_context(self, game: Game, state: CrapouilleState, names: dict[str, str]) -> dict[str, Any]:
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
            "winner_names": [names[p] for p in (game.ending or {}).get("winners", state.get("winners", []))],
            # Drawn only by the game page (one query, when it is called).
            "totals_chart": lambda: charts.totals_chart(game, names, crapouille.ELIMINATION_TOTAL),
        }
