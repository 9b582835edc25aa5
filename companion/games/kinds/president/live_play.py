"""Le Président and Piketty followed live, move by move (:mod:`companion.referee.live`).

Exposed as :attr:`_PresidentFamily.live_play <companion.games.kinds.president._PresidentFamily.live_play>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from companion.games.kinds.base import State
from companion.games.kinds.president.options import rules_of
from companion.games.kinds.president.state import PresidentState, starts_reversed
from companion.games.kinds.president.widgets import draw_picker
from companion.games.live_play import LivePlay, MoveForm, Refused, StartForm, Step, player_of, typed_cards
from companion.i18n import gettext as _
from companion.models import Game, LiveManche
from companion.rules.i18n import RulesError
from companion.rules.president import Play, Table
from companion.rules.president_outcome import dealer_and_leader


class PresidentLivePlay(LivePlay):
    """Le Président and Piketty: a :class:`~companion.rules.president.Table`, players in
    the order of the hierarchy (the seats go down it), the Président leading."""

    table_template = "referee/live_president.html"
    start_template = "referee/live_president_start.html"
    end_template = "referee/live_president_end.html"
    #: The first manche's start says who leads as the dealer is chosen.
    scripts = ("president.js",)

    def field_labels(self) -> dict[str, str]:
        """The player chosen when nobody has the lead is the one who leads."""
        return {"player": _("Who leads?")}

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
        opening: dict[str, Any] = {"order": order, "reversed": starts_reversed(cast(PresidentState, stored))}
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
        table = Table.start(order, rules, reversed=starts_reversed(cast(PresidentState, stored)), leader=leader)
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
        player = player_of(form, view, still_in)
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

    def screen(
        self, game: Game, row: LiveManche, names: Mapping[str, str], lang: str, shown: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Who went out on a forbidden finish (or showing only jokers) is made last: the
        players list says « dernière place », not the order of going out; once the manche
        is over, the order of going out and who went out on a forbidden card, by name."""
        entry = row.entry or {}
        return {
            "made_last": [m["player"] for m in row.moves if "finish_last" in (m.get("effects") or [])],
            "finish_names": [names.get(p, p) for p in entry.get("finish") or []],
            "forbidden_names": [names.get(p, p) for p in entry.get("finished_on") or []],
        }
