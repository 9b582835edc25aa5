"""Whist's verdicts in the table's words (:mod:`companion.judge.narrate`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.judge.narrate import bids_next, won_by, your_turn
from companion.rules import whist_tarot
from companion.rules.i18n import Text


def narration(body: Mapping[str, Any], move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    """What the legal ``move`` of ``body`` leads to at the table, from the engine's ``answer``."""
    mover = str(move.get("player"))
    nxt = answer.get("next_player")
    state = got if isinstance(got := body.get("state"), Mapping) else {}
    lines: list[Text] = []
    if "bid" in move:
        bid = move.get("bid")
        lines.append(Text(f"{mover} annonce {bid}.", f"{mover} bids {bid}."))
        bids = got if isinstance(got := state.get("bids"), Mapping) else {}
        players = got if isinstance(got := state.get("players"), list) else []
        if nxt is not None and len(bids) + 1 >= len(players):
            lines.append(Text(f"Les annonces sont faites : {nxt} entame.", f"Bidding is over: {nxt} leads."))
        elif nxt is not None:
            forbidden = _forbidden_next(state, move, nxt)
            lines.append(bids_next(nxt))
            if forbidden is not None:
                lines.append(whist_tarot.forbidden_bid_text(nxt, forbidden, int(state["cards"])))
        return lines
    winner = answer.get("trick_winner")
    if winner:
        lines.append(won_by(str(winner), mover, nxt))
        if nxt is None:
            lines.append(Text("La donne est finie.", "The deal is over."))
    elif nxt is not None:
        lines.append(your_turn(nxt))
    return lines


def _forbidden_next(state: Mapping[str, Any], move: Mapping[str, Any], nxt: str) -> int | None:
    """When the next bidder is the dealer: the total the dealer may not bid (from the engine)."""
    if nxt != state.get("dealer"):
        return None
    cards = state.get("cards")
    bids = got if isinstance(got := state.get("bids"), Mapping) else {}
    others = [b for b in bids.values() if isinstance(b, int)]
    if not isinstance(cards, int) or not isinstance(move.get("bid"), int):
        return None
    return whist_tarot.forbidden_bid(cards, [*others, move["bid"]])
