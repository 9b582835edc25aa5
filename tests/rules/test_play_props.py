"""Random full-information playouts with invariants checked at every step.

Whist with a tarot deck (seed 002): whole games of deals, bids and tricks.
La crapouille (seed 003): whole games of hands, with and without Super crapouille.
The players are simulated with all hands known, so the engine's verdicts can be
compared with what the cards allow at each step.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.crapouille.api import adapter as crapouille_api
from companion.games.kinds.whist_tarot.api import adapter as whist_api
from companion.rules.cards import Card, Rank, Suit
from companion.rules.crapouille import (
    DECK as CRAPOUILLE_DECK,
)
from companion.rules.crapouille import (
    ELIMINATION_TOTAL,
    Draw,
    Effect,
    Options,
    Pile,
    PlayCard,
    PlayRule,
    Scoresheet,
    deal,
)
from companion.rules.whist_tarot import (
    DECK as TAROT_DECK,
)
from companion.rules.whist_tarot import (
    STAKE,
    Bid,
    Deal,
    Play,
    RuleId,
    first_deal,
    forbidden_bid,
    next_deal,
    settle,
)

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fox")

# -- whist --------------------------------------------------------------------------------


def _whist_deal(
    rng: random.Random, players: tuple[str, ...], dealer: str, cards: int, blind: bool
) -> tuple[dict[str, int], dict[str, int]]:
    """Play one deal at random; check the invariants at every step; return the bids and the tricks taken."""
    n = len(players)
    deck = TAROT_DECK.cards()
    rng.shuffle(deck)
    hands = {p: deck[i * cards : (i + 1) * cards] for i, p in enumerate(players)}
    table = Deal(players, dealer, cards, blind=blind)
    while table.bidding:
        player = table.to_act
        assert player is not None
        # exactly one player to act
        for other in players:
            if other != player:
                assert table.check(Bid(other, 0)).rule is RuleId.TURN
        legal = table.legal_moves()
        assert legal, "a player always has a legal bid"
        bids_done = table.bids or {}
        if player == dealer:
            forbidden = forbidden_bid(cards, bids_done.values())
            assert {m.bid for m in legal if isinstance(m, Bid)} == set(range(cards + 1)) - {forbidden}
        else:
            assert len(legal) == cards + 1
        table = table.apply(rng.choice(legal))
    assert table.bids is not None and sum(table.bids.values()) != cards  # the dealer's rule holds
    for _ in range(n * cards):
        player = table.to_act
        assert player is not None
        hand = hands[player]
        legal = table.legal_moves(hand)
        # any card of the hand may be played (the Excuse in two ways)
        assert len(legal) == len(hand) + (1 if Card(trump=0) in hand else 0)
        for other in players:
            if other != player and hands[other]:
                assert table.check(Play(other, hands[other][0], 0 if hands[other][0].is_excuse else None)).rule is (
                    RuleId.TURN
                )
        move = rng.choice(legal)
        assert isinstance(move, Play)
        verdict = table.check(move)
        assert verdict.legal
        if rng.random() < 0.2:
            _same_as_api_whist(table, move, verdict.next_player, verdict.trick_winner)
        table = table.apply(move)
        hand.remove(move.card)
        # cards conserved, none twice
        out = [*table.played, *(p.card for p in table.trick)]
        assert len(out) + sum(len(h) for h in hands.values()) == n * cards
        assert len(set(out)) == len(out)
        if verdict.trick_winner is not None:
            assert table.trick == ()
            assert table.to_act == (None if table.over else verdict.trick_winner)
    assert table.over and table.to_act is None
    assert all(not h for h in hands.values())
    tricks = {p: table.tricks.get(p, 0) for p in players}
    assert sum(tricks.values()) == cards
    return dict(table.bids), tricks


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([3, 4]))
def test_whist_random_games(seed, n):
    rng = random.Random(seed)
    players = NAMES[:n]
    spec = first_deal(players, rng.choice(players))
    stakes = dict.fromkeys(players, STAKE)
    for _ in range(60):
        bids, tricks = _whist_deal(rng, players, spec.dealer, spec.cards, spec.blind)
        result = settle(players, spec.dealer, spec.cards, spec.blind, stakes, bids, tricks)
        for p in players:
            assert result.stakes[p] == max(0, stakes[p] - abs(bids[p] - tricks[p]))
            assert 0 <= result.stakes[p] <= stakes[p]
        assert result.ended == (0 in result.stakes.values())
        stakes = dict(result.stakes)
        if result.ended:
            best = max(stakes.values())
            assert result.winners == [p for p in players if stakes[p] == best]
            break
        assert result.winners == []
        assert result.next == next_deal(players, spec.dealer, spec.cards, spec.blind)
        spec = result.next


def _same_as_api_whist(table: Deal, move: Play, next_player: str | None, winner: str | None) -> None:
    """The JSON API, given this table in its own terms, says the same (a serialisation round trip)."""
    state = {
        "players": list(table.players),
        "dealer": table.dealer,
        "cards": table.cards,
        "blind": table.blind,
        "bids": dict(table.bids or {}),
        "trick": [{"player": p.player, "card": str(p.card), "excuse": p.excuse} for p in table.trick],
        "leader": table.leader,
        "played": [str(c) for c in table.played],
    }
    raw_move = {"player": move.player, "card": str(move.card), "excuse": move.excuse}
    answer = whist_api.check({"game": "whist-tarot", "state": state, "move": raw_move}, "fr")
    assert answer["legal"] and answer["next_player"] == next_player
    assert answer.get("trick_winner") == winner


# -- crapouille ------------------------------------------------------------------------------

#: Cards kept on the pile when the draw pile is rebuilt (more than any joker chain needs).
KEEP_ON_PILE = 10


class _Hand:
    """One simulated crapouille hand with every card known."""

    def __init__(self, rng: random.Random, players: tuple[str, ...], dealer: int, options: Options) -> None:
        self.rng = rng
        self.players = players
        self.stock = CRAPOUILLE_DECK.cards()
        rng.shuffle(self.stock)
        sizes = deal(options.super)
        self.hands: dict[str, list[Card]] = {p: [self.stock.pop() for _ in range(sizes.dealt)] for p in players}
        for p in players:
            # Super crapouille: « qui en écarte cinq en les remettant sur le talon »
            while len(self.hands[p]) > sizes.kept:
                self.stock.insert(0, self.hands[p].pop(rng.randrange(len(self.hands[p]))))
        start = self.stock.pop()
        self.table = Pile(players, (start,), turn=players[(dealer + 1) % len(players)], options=options)
        self.unannounced: set[str] = set()

    def total(self) -> int:
        return len(self.stock) + len(self.table.pile) + sum(len(h) for h in self.hands.values())

    def draw(self, player: str) -> Card | None:
        if not self.stock and len(self.table.pile) > KEEP_ON_PILE:
            # The pile under the last cards becomes the new draw pile; the kept cards still carry
            # everything the engine reads (the top, the jokers on it and the card under them).
            self.stock = list(self.table.pile[:-KEEP_ON_PILE])
            self.rng.shuffle(self.stock)
            t = self.table
            self.table = Pile(t.players, t.pile[-KEEP_ON_PILE:], t.direction, t.asked, t.turn, t.options)
        if not self.stock:
            return None
        card = self.stock.pop()
        self.hands[player].append(card)
        self.unannounced.discard(player)
        return card

    def lay(self, player: str, card: Card) -> PlayCard | None:
        """Lay ``card`` (legal by construction); return the move, or None when the hand ends."""
        hand = self.hands[player]
        asked = self.rng.choice(list(Suit)) if card.rank is Rank.EIGHT else None
        move = PlayCard(player, card, asked, last=len(hand) == 1, announced=player not in self.unannounced)
        verdict = self.table.check(move, hand)
        assert verdict.legal, (self.table, move, verdict)
        if self.rng.random() < 0.1:
            _same_as_api_crapouille(self.table, move, hand, verdict.effects, verdict.next_player)
        self.table = self.table.apply(move, hand)
        hand.remove(card)
        self.unannounced.discard(player)
        if len(hand) == 1 and self.rng.random() < 0.2:
            self.unannounced.add(player)  # forgot to say « carte »
        if Effect.OUT in verdict.effects:
            assert not hand and self.table.turn is None
            if Effect.FINISH_ON_TWO in verdict.effects:
                assert card.rank is Rank.TWO and verdict.target is not None
                self.draw(verdict.target)
            return None
        if Effect.DRAW in verdict.effects:
            assert card.rank is Rank.TWO and verdict.target is not None and verdict.target != player
            self.draw(verdict.target)
        if Effect.PLAY_AGAIN in verdict.effects:
            assert self.table.turn == player
        return move

    def step(self) -> str | None:
        """One turn; the winner's name when the hand ends."""
        table = self.table
        player = table.turn
        assert player in self.players
        hand = self.hands[player]
        for other in self.players:
            if other != player and self.hands[other]:
                assert table.check(PlayCard(other, self.hands[other][0], Suit.CLUBS), self.hands[other]).rule is (
                    PlayRule.TURN
                )
        playable = [c for c in hand if table.accepts(c)]
        for c in hand:
            if c not in playable:
                refused = table.check(PlayCard(player, c, Suit.CLUBS), hand)
                assert refused.rule in (PlayRule.MATCH, PlayRule.ON_TWO, PlayRule.ASKED_SUIT, PlayRule.AFTER_JOKER)
        blocked = len(hand) == 1 and player in self.unannounced
        if playable and not blocked:
            assert table.check(Draw(player), hand).rule is PlayRule.MUST_PLAY
            card = self.rng.choice(playable)
            return player if self.lay(player, card) is None else None
        if blocked and playable:
            refused = table.check(PlayCard(player, hand[0], Suit.CLUBS, last=True, announced=False), hand)
            assert refused.rule is PlayRule.ANNOUNCE
        held = list(hand)
        drawn = self.draw(player)
        move = Draw(player, drawn, announced=not blocked)
        verdict = self.table.check(move, held)
        assert verdict.legal and verdict.target == player
        self.table = self.table.apply(move)
        if drawn is None:
            # Nothing left to draw: the engine, not told of any drawn card, cannot know who plays next
            # (API.md: without `drawn`, `next_player` is null); the simulation knows the turn passes.
            assert verdict.next_player is None and self.table.turn is None
            t = self.table
            following = t.players[(t.players.index(player) + t.direction) % len(t.players)]
            self.table = Pile(t.players, t.pile, t.direction, t.asked, following, t.options)
        if drawn is not None and self.table.accepts(drawn):
            # « tire une carte du talon qu'il met sur la dernière carte posée si elle est de même couleur
            # ou de même rang » : the drawn card goes on the pile at once.
            assert self.table.turn == player
            return player if self.lay(player, drawn) is None else None
        return None


def _same_as_api_crapouille(
    table: Pile, move: PlayCard, hand: list[Card], effects: tuple[Effect, ...], next_player: str | None
) -> None:
    """The JSON API, given this table in its own terms, says the same (a serialisation round trip)."""
    state = {
        "players": list(table.players),
        "direction": table.direction,
        "pile": " ".join(str(c) for c in table.pile),
        "asked": None if table.asked is None else table.asked.value,
        "turn": table.turn,
        "hand": [str(c) for c in hand],
    }
    raw_move = {
        "player": move.player,
        "card": str(move.card),
        "asked": None if move.asked is None else move.asked.value,
        "last": move.last,
        "announced": move.announced,
    }
    request = {"game": "crapouille", "rules": {"super": table.options.super}, "state": state, "move": raw_move}
    answer = crapouille_api.check(request, "en")
    assert answer["legal"] and answer["effects"] == [e.value for e in effects]
    assert answer["next_player"] == next_player


def _play_game(rng: random.Random, n: int, options: Options) -> None:
    players = NAMES[:n]
    sheet = Scoresheet.start(players)
    for dealer in range(200):
        if sheet.over:
            break
        live = sheet.in_play
        hand = _Hand(rng, live, dealer % len(live), options)
        size = CRAPOUILLE_DECK.size
        winner = None
        for _ in range(5000):
            winner = hand.step()
            assert hand.total() == size  # cards conserved
            if winner is not None:
                break
        assert winner is not None, "a hand ends"
        before = dict(sheet.totals)
        result = sheet.score_hand(winner, hands={p: hand.hands[p] for p in live if p != winner})
        # totals only grow; eliminations only past 300, never twice
        for p in players:
            assert result.totals[p] >= before[p]
        for p in result.eliminated:
            assert result.totals[p] > ELIMINATION_TOTAL and before[p] <= ELIMINATION_TOTAL
        for p in result.sheet.in_play:
            assert result.totals[p] <= ELIMINATION_TOTAL
        assert Counter(result.sheet.in_play) + Counter(result.eliminated) == Counter(live)
        sheet = result.sheet
    assert sheet.over
    assert sheet.winners() and set(sheet.ranking()) == set(players)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=6), st.booleans())
def test_crapouille_random_games(seed, n, super_crapouille):
    _play_game(random.Random(seed), n, Options(super=super_crapouille))
