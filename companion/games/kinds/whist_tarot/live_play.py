"""Whist with a tarot deck followed live, trick by trick (:mod:`companion.referee.live`).

Exposed as :attr:`WhistTarot.live_play <companion.games.kinds.whist_tarot.WhistTarot.live_play>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from companion.forms import plain_int
from companion.games.kinds.base import State
from companion.games.live_play import LivePlay, MoveForm, Refused, StartForm, Step
from companion.i18n import gettext as _
from companion.models import Game, LiveManche
from companion.rules import whist_tarot
from companion.rules.cards import Card, parse_cards
from companion.rules.i18n import RulesError


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


class WhistLivePlay(LivePlay):
    """Whist with a tarot deck: the bids from the dealer's left, then the tricks (a
    :class:`~companion.rules.whist_tarot.Deal`).  A deal whose bids were already saved
    is followed from its first trick."""

    table_template = "referee/live_whist.html"
    start_template = "referee/live_whist_start.html"
    end_template = "referee/live_whist_end.html"

    @staticmethod
    def _spec(stored: State) -> Mapping[str, Any]:
        return cast("Mapping[str, Any]", stored["played"] if stored.get("pending") else stored["deal"])

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

    def screen(
        self, game: Game, row: LiveManche, names: Mapping[str, str], lang: str, shown: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The trumps to tap, the cards already out, the bidding order, and the dealer's
        forbidden bid in the engine's one sentence (its refusal's): the flag says it, so
        the last bid's words do not say it again below it."""
        assert row.state is not None and row.view is not None
        out = {*row.state.get("played", []), *(e["card"] for e in row.state.get("trick", []))}
        extra: dict[str, Any] = {
            "trumps": [Card(trump=t) for t in range(1, 22)],
            "out_cards": out,
            "order": list(whist_tarot.bidding_order(row.state["players"], row.state["dealer"])),
        }
        forbidden = row.view.get("forbidden")
        if forbidden is not None:
            dealer = names.get(row.state["dealer"], row.state["dealer"])
            said = whist_tarot.forbidden_bid_text(dealer, int(forbidden), int(row.state["cards"])).get(lang)
            extra["forbidden_said"] = said
            extra["turn_said"] = [*shown["turn_said"], said]
        return extra
