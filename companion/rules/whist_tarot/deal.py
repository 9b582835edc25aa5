"""Whist au tarot: :class:`Deal`, the public table of one deal.

Built from the API's ``state`` (and written back by :meth:`Deal.to_state`); it says
who acts (:attr:`Deal.to_act`), judges a bid or a card (:meth:`Deal.check`, never
raising for an illegal move), makes a legal one (:meth:`Deal.apply`) and lists the
legal moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.cards import Card, CardError
from companion.rules.i18n import RulesError, Text
from companion.rules.whist_tarot.moves import (
    EXCUSE_VALUES,
    Bid,
    Effect,
    Move,
    Play,
    RuleId,
    Verdict,
    _bid_range_text,
    _excuse_text,
    _illegal,
    forbidden_bid,
    forbidden_bid_text,
    trick_winner,
)
from companion.rules.whist_tarot.schedule import (
    DECK,
    _check_size,
    _seat,
    _whole,
    bidding_order,
    check_players,
    first_leader,
)


@dataclass(frozen=True)
class Deal:
    """The public table of one deal.

    - ``players`` clockwise; ``dealer``; ``cards`` dealt to each (1..5); ``blind``.
    - ``bids`` made so far, in bidding order; ``None`` when the bids are not tracked
      (then cards may be judged without them).
    - ``trick``: the current trick, oldest first.  A complete trick is taken by its
      winner, who then leads.
    - ``leader``: who led (or leads) the current trick.  When not given: the first
      trick's leader if nothing was played yet, else the trick's first player; with an
      empty trick after earlier tricks it is unknown and anybody may lead.
    - ``played``: cards out in the earlier tricks of this deal.
    - ``tricks``: tricks taken so far (kept by :meth:`apply`).

    Malformed tables (unknown player, a bid out of turn, a card twice…) raise
    :class:`RulesError` naming the field.
    """

    players: tuple[str, ...]
    dealer: str
    cards: int
    bids: Mapping[str, int] | None = field(default_factory=dict)
    trick: tuple[Play, ...] = ()
    leader: str | None = None
    played: tuple[Card, ...] = ()
    blind: bool = False
    tricks: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = check_players(self.players)
        object.__setattr__(self, "players", names)
        _seat(names, self.dealer, "dealer")
        _check_size(self.cards, self.blind)
        if self.bids is not None:
            order = bidding_order(names, self.dealer)
            for name in self.bids:
                _seat(names, name, f"bids.{name}")
            done = order[: len(self.bids)]
            for name in self.bids:
                if name not in done:
                    missing = next(n for n in done if n not in self.bids)
                    raise RulesError(
                        Text(
                            f"{name} ne peut pas avoir annoncé : {missing} n’a pas encore parlé.",
                            f"{name} cannot have bid: {missing} has not bid yet.",
                        ),
                        f"bids.{name}",
                    )
            out_of_range = _bid_range_text(self.cards)
            for name, value in self.bids.items():
                _whole(value, f"bids.{name}", 0, self.cards, out_of_range)
        for name, won in self.tricks.items():
            _seat(names, name, f"tricks.{name}")
            _whole(won, f"tricks.{name}", 0, self.cards, Text("Nombre de plis impossible.", "Impossible trick count."))
        n = len(names)
        if len(self.trick) > n:
            raise RulesError(Text("Un pli a une carte par joueur.", "A trick has one card per player."), "trick")
        if len(self.played) + len(self.trick) > n * self.cards:
            raise RulesError(
                Text("Plus de cartes jouées que de cartes données.", "More cards played than dealt."), "played"
            )
        if self.leader is not None:
            _seat(names, self.leader, "leader")
        start = self.leader if self.leader is not None else (self.trick[0].player if self.trick else None)
        for i, play in enumerate(self.trick):
            _seat(names, play.player, f"trick[{i}].player")
            if start is not None:
                expected = names[(names.index(start) + i) % n]
                if play.player != expected:
                    raise RulesError(
                        Text(f"Dans ce pli, c’était à {expected} de jouer.", f"In this trick, {expected} was to play."),
                        f"trick[{i}].player",
                    )
            if play.card.is_excuse and play.excuse is None:
                raise RulesError(_excuse_text(), f"trick[{i}].excuse")
        try:
            DECK.check(self.played)
        except CardError as e:
            raise e.at("played") from None
        try:
            DECK.check([*self.played, *(p.card for p in self.trick)])
        except CardError as e:
            index = int((e.field or "[0]").strip("[]")) - len(self.played)
            raise RulesError(e.text, f"trick[{index}].card") from None
        if len(self.played) % n:
            raise RulesError(
                Text(
                    "Les cartes déjà jouées vont par plis entiers, une par joueur.",
                    "The cards already played come in whole tricks, one per player.",
                ),
                "played",
            )

    def to_state(self) -> dict[str, Any]:
        """The API's ``state`` of this table (shared/API.md), plus ``tricks`` taken so far.

        The inverse of the constructor as the API adapter calls it (``bids`` None when
        they are not tracked; ``excuse`` and ``leader`` only when set).

        >>> deal = Deal(("Ann", "Bob", "Cid"), "Ann", 2, {"Bob": 1, "Cid": 0, "Ann": 0})
        >>> deal = deal.apply(Play("Cid", Card.parse("T3"))).apply(Play("Ann", Card.parse("EX"), 22))
        >>> deal.to_state()
        {'players': ['Ann', 'Bob', 'Cid'], 'dealer': 'Ann', 'cards': 2, 'blind': False,
         'bids': {'Bob': 1, 'Cid': 0, 'Ann': 0},
         'trick': [{'player': 'Cid', 'card': 'T3'}, {'player': 'Ann', 'card': 'EX', 'excuse': 22}],
         'played': [], 'tricks': {}, 'leader': 'Cid'}
        """
        trick: list[dict[str, Any]] = []
        for play in self.trick:
            entry: dict[str, Any] = {"player": play.player, "card": str(play.card)}
            if play.excuse is not None:
                entry["excuse"] = play.excuse
            trick.append(entry)
        state: dict[str, Any] = {
            "players": list(self.players),
            "dealer": self.dealer,
            "cards": self.cards,
            "blind": self.blind,
            "bids": None if self.bids is None else dict(self.bids),
            "trick": trick,
            "played": [str(c) for c in self.played],
            "tricks": dict(self.tricks),
        }
        if self.leader is not None:
            state["leader"] = self.leader
        return state

    # -- who acts -------------------------------------------------------------------

    @property
    def bidding(self) -> bool:
        """Whether bids are still being made."""
        return self.bids is not None and len(self.bids) < len(self.players)

    @property
    def over(self) -> bool:
        """Whether every trick of the deal has been played."""
        return len(self.played) + len(self.trick) == len(self.players) * self.cards

    def _collected(self) -> Deal:
        """The same table with a complete trick taken by its winner."""
        if len(self.trick) < len(self.players):
            return self
        winner = trick_winner(self.trick)
        tricks = dict(self.tricks)
        tricks[winner] = tricks.get(winner, 0) + 1
        return Deal(
            self.players,
            self.dealer,
            self.cards,
            self.bids,
            (),
            winner,
            (*self.played, *(p.card for p in self.trick)),
            self.blind,
            tricks,
        )

    def _leader(self) -> str | None:
        if self.leader is not None:
            return self.leader
        if self.trick:
            return self.trick[0].player
        if not self.played:
            return first_leader(self.players, self.dealer)
        return None

    @property
    def to_act(self) -> str | None:
        """Who bids or plays next; None when the deal is over or the leader unknown.

        >>> Deal(("Ann", "Bob", "Cid"), "Ann", 2, bids={"Bob": 1}).to_act
        'Cid'
        >>> Deal(("Ann", "Bob", "Cid"), "Ann", 2, bids={"Bob": 1, "Cid": 0, "Ann": 0}).to_act
        'Cid'
        """
        if self.bidding:
            assert self.bids is not None
            return bidding_order(self.players, self.dealer)[len(self.bids)]
        table = self._collected()
        if table.over:
            return None
        leader = table._leader()
        if leader is None:
            return None
        return self.players[(self.players.index(leader) + len(table.trick)) % len(self.players)]

    def forbidden_bid(self) -> int | None:
        """The dealer's forbidden bid, once everybody else has bid; else None."""
        bids = self.bids or {}
        if len(bids) != len(self.players) - 1 or self.dealer in bids:
            return None
        return forbidden_bid(self.cards, bids.values())

    # -- judging ----------------------------------------------------------------------

    def check(self, move: Move) -> Verdict:
        """Judge a bid or a card: a :class:`Verdict`, never an exception for an illegal move.

        Raises :class:`RulesError` only for a malformed move (unknown player).
        """
        _seat(self.players, move.player, "player")
        if isinstance(move, Bid):
            return self._check_bid(move)
        return self._check_play(move)

    def _check_bid(self, move: Bid) -> Verdict:
        bids = self.bids or {}
        order = bidding_order(self.players, self.dealer)
        forbidden = self.forbidden_bid() if move.player == self.dealer else None
        if len(bids) == len(self.players):
            return _illegal(
                RuleId.TURN, Text("Les annonces sont finies.", "The bidding is over."), forbidden_bid=forbidden
            )
        expected = order[len(bids)]
        if move.player != expected:
            return _illegal(
                RuleId.TURN,
                Text(f"C’est à {expected} d’annoncer.", f"It is {expected}'s turn to bid."),
                forbidden_bid=forbidden,
            )
        if isinstance(move.bid, bool) or not isinstance(move.bid, int) or not 0 <= move.bid <= self.cards:
            return _illegal(RuleId.BID_RANGE, _bid_range_text(self.cards), forbidden_bid=forbidden)
        if forbidden is not None and move.bid == forbidden:
            # seed 002: « Le donneur lui ne peut dire un nombre de plis qui ferait que la
            # somme des annonces serait égale au nombre de plis à faire. »
            return _illegal(
                RuleId.DEALER_BID, forbidden_bid_text(move.player, forbidden, self.cards), forbidden_bid=forbidden
            )
        after = len(bids) + 1
        following = order[after] if after < len(order) else first_leader(self.players, self.dealer)
        return Verdict(True, next_player=following, forbidden_bid=forbidden)

    def _check_play(self, move: Play) -> Verdict:
        if self.bidding:
            return _illegal(RuleId.TURN, Text("Les annonces ne sont pas finies.", "The bidding is not over."))
        table = self._collected()
        if table.over:
            return _illegal(RuleId.TURN, Text("La donne est finie.", "The deal is over."))
        expected = table.to_act
        if expected is not None and move.player != expected:
            return _illegal(RuleId.TURN, Text(f"C’est à {expected} de jouer.", f"It is {expected}'s turn to play."))
        if move.card in table.played or any(p.card == move.card for p in table.trick):
            if move.card.is_excuse:
                gone = Text("L’Excuse est déjà sortie dans cette donne.", "The Excuse is already out in this deal.")
            else:
                number = move.card.trump
                gone = Text(
                    f"L’atout {number} est déjà sorti dans cette donne.", f"Trump {number} is already out in this deal."
                )
            return _illegal(RuleId.CARD_PLAYED, gone)
        if move.card.is_excuse and move.excuse is None:
            # seed 002: « Le joueur qui la joue annonce sa valeur : soit 0 (la plus faible), soit 22 (la plus forte). »
            return _illegal(RuleId.EXCUSE, _excuse_text())
        trick = (*table.trick, move)
        n = len(self.players)
        if len(trick) < n:
            return Verdict(True, next_player=self.players[(self.players.index(move.player) + 1) % n])
        winner = trick_winner(trick)
        last = len(table.played) + n == n * self.cards
        return Verdict(True, effects=(Effect.TRICK_WON,), next_player=None if last else winner, trick_winner=winner)

    def apply(self, move: Move) -> Deal:
        """The table after a legal move; :class:`RulesError` (field ``move``) if it is illegal.

        A card completing a trick is collected at once: the trick is empty and its
        winner leads.
        """
        verdict = self.check(move)
        if not verdict.legal:
            assert verdict.reason is not None
            raise RulesError(verdict.reason, "move")
        if isinstance(move, Bid):
            return Deal(
                self.players,
                self.dealer,
                self.cards,
                {**(self.bids or {}), move.player: move.bid},
                self.trick,
                self.leader,
                self.played,
                self.blind,
                self.tricks,
            )
        table = self._collected()
        after = Deal(
            self.players,
            self.dealer,
            self.cards,
            self.bids,
            (*table.trick, move),
            table._leader() or move.player,
            table.played,
            self.blind,
            table.tricks,
        )
        return after._collected()

    def legal_moves(self, hand: Iterable[Card] = ()) -> list[Move]:
        """Every legal move for the player to act: his bids, or the cards of ``hand``.

        >>> Deal(("Ann", "Bob", "Cid"), "Ann", 2, bids={"Bob": 1, "Cid": 0}).legal_moves()
        [Bid(player='Ann', bid=0), Bid(player='Ann', bid=2)]
        """
        player = self.to_act
        if player is None:
            return []
        moves: list[Move] = []
        if self.bidding:
            moves = [Bid(player, b) for b in range(self.cards + 1)]
        else:
            for card in hand:
                values: tuple[int | None, ...] = EXCUSE_VALUES if card.is_excuse else (None,)
                moves.extend(Play(player, card, v) for v in values)
        return [m for m in moves if self.check(m).legal]
