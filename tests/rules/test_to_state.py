"""``to_state()`` is the inverse of reading the API's ``state``: at every step of random
playouts, the table written out and read back is the same table, and the JSON API
judges the next move on it exactly as the engine does.

The live play-by-play (companion/referee/live.py) stores a manche this way between two
taps, so a table that did not survive the round trip would change the game.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.crapouille.api import adapter as crapouille_api
from companion.games.kinds.president.api import adapter as president_api
from companion.games.kinds.whist_tarot.api import adapter as whist_api
from companion.rules.cards import Card, Suit, parse_cards
from companion.rules.crapouille import Options, Pile, PlayCard
from companion.rules.president import Play, Rules, Table
from companion.rules.whist_tarot import DECK as TAROT_DECK
from companion.rules.whist_tarot import Bid, Deal, bidding_order
from companion.rules.whist_tarot import Play as WhistPlay
from tests.rules.test_play_props import _Hand
from tests.rules.test_president_props import NAMES, PRESET_CASES, deal

# -- le Président and Piketty -------------------------------------------------------------


def _president_round_trip(table: Table) -> dict[str, Any]:
    state = table.to_state()
    assert json.loads(json.dumps(state)) == state  # plain JSON
    again = Table.from_state(state, table.rules)
    assert again == table, (state, table, again)
    assert again.to_state() == state
    return state


def _president_playout(options: dict[str, object], n: int, seed: int, game: str = "president") -> int:
    """A random manche, the table written out and read back before every move; the API
    judges each move on the written-out state as the engine does on the table."""
    rules = Rules.from_options(options, game)
    rng = random.Random(seed)
    players = NAMES[:n]
    hands, _aside = deal(rules, n, rng)
    table = Table.start(players, rules, leader=None if seed % 2 else players[0])
    steps = 0
    while not table.finished:
        state = _president_round_trip(table)
        mover = table.to_move if table.to_move is not None else rng.choice(list(table.still_in))
        choice = rng.choice(table.legal_plays(hands[mover], mover))
        move: dict[str, Any] = {"player": mover, "pass": True}
        if choice.cards:
            move = {"player": mover, "cards": [str(c) for c in choice.cards], "last": choice.last}
        body = {"game": game, "rules": options, "state": state, "move": move}
        answer = president_api.check(body, "en")
        verdict = table.check(choice)
        assert answer["legal"] and answer["effects"] == [e.value for e in verdict.effects]
        assert answer["next_player"] == verdict.next_player
        table = table.apply(choice)
        for card in choice.cards:
            hands[mover].remove(card)
        steps += 1
    _president_round_trip(table)
    return steps


@pytest.mark.parametrize(("options", "n"), [*PRESET_CASES, ({"revolution": True, "passe": True}, 4)])
def test_president_tables_survive_the_round_trip(options: dict[str, object], n: int) -> None:
    for seed in range(3):
        assert _president_playout(options, n, seed) > 0


@pytest.mark.parametrize("n", [4, 6])
def test_piketty_tables_survive_the_round_trip(n: int) -> None:
    for seed in range(2):
        _president_playout({}, n, seed, "piketty")


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 10_000),
    st.fixed_dictionaries(
        {
            "revolution": st.booleans(),
            "passe": st.booleans(),
            "more_cards": st.booleans(),
            "jokers": st.sampled_from([0, 2]),
        }
    ),
)
def test_random_option_sets_survive_the_round_trip(seed: int, options: dict[str, object]) -> None:
    _president_playout(options, 4, seed)


def test_a_revolution_inside_the_trick_is_written_as_the_order_before_it() -> None:
    # seed 000: « Si un joueur pose un carré, il y a une révolution … Il est possible de
    # faire une contre-révolution en posant sur la table un autre carré »
    rules = Rules(revolution=True, decks=2)
    table = Table.start(["Ann", "Bob", "Cid"], rules, leader="Ann")
    table = table.apply(Play.parse("Ann", "5h 5s 5c 5d"))
    assert table.reversed and table.to_state()["reversed"] is False
    table = table.apply(Play.parse("Bob", "4h 4s 4c 4d"))
    assert not table.reversed and table.to_state()["reversed"] is False
    _president_round_trip(table)
    # Once a new trick is led, the revolution belongs to an earlier trick.
    table = table.apply(Play.passes("Cid")).apply(Play.passes("Ann"))
    assert table.over and table.to_move == "Bob"
    table = table.apply(Play.parse("Bob", "9h 9s 9c 9d"))
    assert table.reversed and table.to_state()["reversed"] is False
    assert table.to_state()["trick"] == [{"player": "Bob", "cards": ["9h", "9s", "9c", "9d"]}]
    _president_round_trip(table)


def test_a_finished_manche_and_a_liar_call_survive_the_round_trip() -> None:
    table = Table.start(["Ann", "Bob", "Cid"], Rules(), out=["Cid"], leader="Ann")
    table = table.apply(Play.parse("Ann", "2h", last=True))
    assert table.finished and table.to_move is None
    assert _president_round_trip(table)["trick"] == [{"player": "Ann", "cards": ["2h"], "last": True}]
    liar = Rules(liar=True)
    table = Table.start(["Ann", "Bob", "Cid"], liar, leader="Ann")
    table = table.apply(Play(player="Ann", cards=parse_cards("Kh"), laid=parse_cards("4c")))
    _president_round_trip(table)
    table = table.apply(Play(player="Bob", call=True))
    state = _president_round_trip(table)
    assert state["trick"][-1] == {"player": "Bob", "call": True}


def test_anyone_may_lead_when_no_leader_is_written() -> None:
    table = Table.start(["Ann", "Bob", "Cid"], Rules())
    assert "leader" not in table.to_state()
    assert Table.from_state(table.to_state(), Rules()).to_move is None


# -- whist with a tarot deck ------------------------------------------------------------------


def _read_deal(state: dict[str, Any]) -> Deal:
    """The table as the API adapter reads ``state``, with the tricks taken (not an API field)."""
    table = whist_api._deal(state)
    return replace(table, tricks=dict(state["tricks"]))


def _whist_round_trip(table: Deal) -> dict[str, Any]:
    state = table.to_state()
    assert json.loads(json.dumps(state)) == state
    again = _read_deal(state)
    assert again == table, (state, table, again)
    return state


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 4]), st.integers(1, 5), st.booleans())
def test_whist_deals_survive_the_round_trip(seed: int, n: int, cards: int, bids_tracked: bool) -> None:
    rng = random.Random(seed)
    players = tuple(NAMES[:n])
    dealer = rng.choice(players)
    deck = TAROT_DECK.cards()
    rng.shuffle(deck)
    hands = {p: [deck.pop() for _ in range(cards)] for p in players}
    table = Deal(players, dealer, cards, {} if bids_tracked else None, blind=cards == 1 and rng.random() < 0.5)
    if bids_tracked:
        for _bidder in bidding_order(players, dealer):
            _whist_round_trip(table)
            table = table.apply(rng.choice(table.legal_moves()))
    while not table.over or table.trick:
        state = _whist_round_trip(table)
        mover = table.to_act
        assert mover is not None
        move = rng.choice(table.legal_moves(hands[mover]))
        assert isinstance(move, WhistPlay)
        raw = {"player": mover, "card": str(move.card)}
        if move.excuse is not None:
            raw["excuse"] = move.excuse
        answer = whist_api.check({"game": "whist-tarot", "state": state, "move": raw}, "en")
        verdict = table.check(move)
        assert answer["legal"] and answer["next_player"] == verdict.next_player
        hands[mover].remove(move.card)
        table = table.apply(move)
        if table.over and not table.trick:
            break
    assert sum(_whist_round_trip(table)["tricks"].values()) == cards


def test_bids_not_tracked_are_written_as_null() -> None:
    table = Deal(("Ann", "Bob", "Cid"), "Ann", 3, None)
    assert table.to_state()["bids"] is None
    assert _read_deal(table.to_state()).bids is None
    bid = Deal(("Ann", "Bob", "Cid"), "Ann", 3).apply(Bid("Bob", 2))
    assert _whist_round_trip(bid)["bids"] == {"Bob": 2}


# -- la crapouille ------------------------------------------------------------------------------


def _read_pile(state: dict[str, Any], options: Options) -> Pile:
    asked = None if state["asked"] is None else Suit(state["asked"])
    # A hand that is over names who went out (RULES.md §4: a last 8 asks no suit).
    return Pile(
        tuple(state["players"]),
        parse_cards(state["pile"]),
        state["direction"],
        asked,
        state["turn"],
        options,
        state.get("out"),
    )


def _pile_round_trip(table: Pile) -> dict[str, Any]:
    state = table.to_state()
    assert json.loads(json.dumps(state)) == state
    assert _read_pile(state, table.options) == table
    return state


class _WrittenHand(_Hand):
    """A simulated hand whose table is written out and read back before every card laid,
    the API judging the card on the written-out state."""

    def lay(self, player: str, card: Card) -> PlayCard | None:
        state = _pile_round_trip(self.table)
        hand = self.hands[player]
        raw = {"player": player, "card": str(card), "last": len(hand) == 1}
        if card.rank is not None and card.rank.value == "8":
            raw["asked"] = "s"
        request = {"game": "crapouille", "rules": self.table.options.to_options(), "state": state, "move": raw}
        answer = crapouille_api.check(request, "en")
        if player not in self.unannounced:
            assert answer["legal"], (state, raw, answer)
        return super().lay(player, card)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6), st.booleans())
def test_crapouille_piles_survive_the_round_trip(seed: int, n: int, super_: bool) -> None:
    rng = random.Random(seed)
    hand = _WrittenHand(rng, tuple(NAMES[:n]), 0, Options(super=super_))
    for _ in range(3000):
        _pile_round_trip(hand.table)
        if hand.step() is not None:
            break
    _pile_round_trip(hand.table)


def test_a_pile_with_an_eight_and_a_reversed_direction() -> None:
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». »
    table = Pile(("Ann", "Bob", "Cid"), (Card.parse("9d"),), turn="Ann")
    table = table.apply(PlayCard("Ann", Card.parse("8h"), Suit.SPADES))
    table = table.apply(PlayCard("Bob", Card.parse("10s")))
    state = _pile_round_trip(table)
    assert state == {
        "players": ["Ann", "Bob", "Cid"],
        "pile": ["9d", "8h", "10s"],
        "direction": -1,
        "asked": None,
        "turn": "Ann",
    }
