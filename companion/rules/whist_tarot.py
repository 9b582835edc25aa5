"""Whist avec un jeu de Tarot (seed 002; shared/RULES.md §3): deals, bids, tricks, stakes.

Three or four players play with the 22 trumps of a tarot deck (``T1`` … ``T21`` and
the Excuse ``EX``); each starts with a stake of 14 cards.  Every dealer deals 5, 4,
3, 2, 1 cards and then 1 card *blind* (held to the forehead), then the deal passes
to the left (:func:`next_deal`).  Players bid from the dealer's left, the dealer
last; he may not bid the one value that would make the bids add up to the number of
tricks (:func:`forbidden_bid`).  The player second left of the dealer leads the
first trick; any card may be played; the highest trump wins and its player leads
next; the Excuse is announced as 0 or 22 when played.  After the deal each player
gives up ``|bid − tricks|`` cards of his stake (:func:`settle`); the game ends as
soon as a stake is empty, the largest stake winning.

Seats are given clockwise, so "the left" of a player is the next one in the list.

A :class:`Deal` is the public table of one deal (what the JSON API's ``state``
holds); :meth:`Deal.check` judges a :class:`Bid` or a :class:`Play` and never raises
for an illegal move; :meth:`Deal.apply` makes a legal one.

>>> deal = Deal(("Ann", "Bob", "Cid", "Dan"), dealer="Dan", cards=5, bids={"Ann": 2, "Bob": 1, "Cid": 1})
>>> verdict = deal.check(Bid("Dan", 1))
>>> verdict.legal, verdict.rule, verdict.forbidden_bid
(False, <RuleId.DEALER_BID: 'dealer_bid'>, 1)
>>> print(verdict.reason.get("en"))
Dan deals and may not bid 1: the bids would add up to 5, the number of tricks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.rules.cards import Card, CardError, Deck
from companion.rules.i18n import RulesError, Text, plural

__all__ = [
    "DECK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SERIES",
    "STAKE",
    "Bid",
    "Deal",
    "DealSpec",
    "Effect",
    "Move",
    "Play",
    "RuleId",
    "Settlement",
    "Verdict",
    "bidding_order",
    "check_players",
    "first_deal",
    "first_leader",
    "forbidden_bid",
    "forbidden_bid_text",
    "next_deal",
    "settle",
    "trick_winner",
]

#: The 21 trumps and the Excuse: the only cards in play.
DECK = Deck.tarot_trumps()
#: Every player's stake at the start (one suit of the tarot deck).
STAKE = 14
#: Cards dealt at each deal of a dealer's series; a last deal of 1 card blind follows.
SERIES: tuple[int, ...] = (5, 4, 3, 2, 1)
MIN_PLAYERS = 3
MAX_PLAYERS = 4
#: The two values a player may give the Excuse.
EXCUSE_VALUES = (0, 22)


class RuleId(StrEnum):
    """Why a move is refused (ids of shared/API.md)."""

    TURN = "turn"
    DEALER_BID = "dealer_bid"
    BID_RANGE = "bid_range"
    EXCUSE = "excuse"
    CARD_PLAYED = "card_played"


class Effect(StrEnum):
    """What a legal move triggers.

    ``trick_won``: the card completes the trick; its winner (``trick_winner``)
    leads the next one.
    """

    TRICK_WON = "trick_won"


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players as a tuple, or :class:`RulesError` unless 3 or 4 distinct names.

    # seed 002: 22 trumps and four stakes of 14 cards: the game is for 3 or 4.

    >>> check_players(["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: Le whist au tarot se joue à 3 ou 4 joueurs.
    """
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RulesError(
            Text("Le whist au tarot se joue à 3 ou 4 joueurs.", "Whist with a tarot deck is for 3 or 4 players."),
            "players",
        )
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise RulesError(Text("Un joueur a un nom.", "A player has a name."), f"players[{i}]")
    if len(set(names)) != len(names):
        raise RulesError(Text("Un joueur figure deux fois.", "A player is listed twice."), "players")
    return names


def _seat(players: Sequence[str], name: str, where: str) -> int:
    if name not in players:
        raise RulesError(Text(f"Joueur inconnu : {name}.", f"Unknown player: {name}."), where)
    return players.index(name)


def _whole(value: object, where: str, low: int, high: int, what: Text) -> int:
    """``value`` if it is a whole number in ``low..high``, else a RulesError saying ``what``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesError(what, where)
    return value


@dataclass(frozen=True)
class DealSpec:
    """One deal of the schedule: who deals, how many cards each, and whether blind."""

    dealer: str
    cards: int
    blind: bool = False


def first_deal(players: Sequence[str], dealer: str | None = None) -> DealSpec:
    """The game's first deal: 5 cards, dealt by ``dealer`` (by default the first seat).

    >>> first_deal(["Ann", "Bob", "Cid"])
    DealSpec(dealer='Ann', cards=5, blind=False)
    """
    names = check_players(players)
    chosen = names[0] if dealer is None else names[_seat(names, dealer, "dealer")]
    return DealSpec(chosen, SERIES[0], False)


def _check_size(cards: object, blind: object) -> tuple[int, bool]:
    count = _whole(
        cards,
        "cards",
        1,
        SERIES[0],
        Text(f"On donne de 1 à {SERIES[0]} cartes.", f"A deal is of 1 to {SERIES[0]} cards."),
    )
    if not isinstance(blind, bool):
        raise RulesError(Text("« blind » vaut true ou false.", "'blind' is true or false."), "blind")
    if blind and count != 1:
        raise RulesError(
            Text("Seule la donne d’une carte se joue à l’aveugle.", "Only the one-card deal is played blind."),
            "blind",
        )
    return count, blind


def next_deal(players: Sequence[str], dealer: str, cards: int, blind: bool = False) -> DealSpec:
    """The deal after this one: 5 → 4 → 3 → 2 → 1 → 1 blind, then the next dealer (left) deals 5.

    # seed 002: « premier tour 5 cartes à chacun, puis 4 …, puis 1. Enfin une dernière
    # donne avec 1 carte, mais dans ce tour les joueurs ne regardent pas leur carte. »
    # « … ou passe les cartes au donneur suivant si le tour … est le tour avec les cartes retournées. »

    >>> next_deal(["Ann", "Bob", "Cid"], "Ann", 1)
    DealSpec(dealer='Ann', cards=1, blind=True)
    >>> next_deal(["Ann", "Bob", "Cid"], "Cid", 1, blind=True)
    DealSpec(dealer='Ann', cards=5, blind=False)
    """
    names = check_players(players)
    seat = _seat(names, dealer, "dealer")
    count, blind = _check_size(cards, blind)
    if blind:
        return DealSpec(names[(seat + 1) % len(names)], SERIES[0], False)
    if count == SERIES[-1]:
        return DealSpec(dealer, count, True)
    return DealSpec(dealer, SERIES[SERIES.index(count) + 1], False)


def bidding_order(players: Sequence[str], dealer: str) -> tuple[str, ...]:
    """Who bids, in order: from the dealer's left round to the dealer.

    >>> bidding_order(["Ann", "Bob", "Cid", "Dan"], "Bob")
    ('Cid', 'Dan', 'Ann', 'Bob')
    """
    names = tuple(players)
    seat = _seat(names, dealer, "dealer")
    return names[seat + 1 :] + names[: seat + 1]


def first_leader(players: Sequence[str], dealer: str) -> str:
    """Who leads the first trick: the player second left of the dealer.

    # seed 002: « Ce n’est pas le joueur à gauche du donneur qui commence à jouer, mais encore le suivant. »

    >>> first_leader(["Ann", "Bob", "Cid", "Dan"], "Dan"), first_leader(["Ann", "Bob", "Cid"], "Bob")
    ('Bob', 'Ann')
    """
    return bidding_order(players, dealer)[1]


def forbidden_bid(cards: int, other_bids: Iterable[int]) -> int | None:
    """The dealer's forbidden bid: the one making the total equal ``cards``; None if negative.

    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »

    >>> forbidden_bid(5, [2, 1, 1]), forbidden_bid(2, [2, 1])
    (1, None)
    """
    value = cards - sum(other_bids)
    return value if value >= 0 else None


def forbidden_bid_text(dealer: str, bid: int, cards: int) -> Text:
    """THE sentence of the dealer's forbidden bid, wherever it is said: the refusal of
    that bid, the referee's words once the others have bid, the live screen, the deal
    form and the rules page all say this one (no second wording, no assumed gender).

    >>> print(forbidden_bid_text("Dan", 1, 5).get("en"))
    Dan deals and may not bid 1: the bids would add up to 5, the number of tricks.
    >>> print(forbidden_bid_text("Ann", 0, 1).fr)
    Ann donne et ne peut pas annoncer 0 : les annonces feraient 1, le nombre de plis.
    """
    return Text(
        f"{dealer} donne et ne peut pas annoncer {bid} : les annonces feraient {cards}, le nombre de plis.",
        f"{dealer} deals and may not bid {bid}: the bids would add up to {cards}, the number of tricks.",
    )


@dataclass(frozen=True)
class Bid:
    """A player announces how many tricks he will take."""

    player: str
    bid: int


@dataclass(frozen=True)
class Play:
    """A player lays one card; ``excuse`` is 0 or 22 when the card is the Excuse."""

    player: str
    card: Card
    excuse: int | None = None

    def __post_init__(self) -> None:
        if self.excuse is not None:
            if not self.card.is_excuse:
                raise RulesError(
                    Text("Seule l’Excuse s’annonce 0 ou 22.", "Only the Excuse is announced as 0 or 22."), "excuse"
                )
            if self.excuse not in EXCUSE_VALUES or isinstance(self.excuse, bool):
                raise RulesError(Text("L’Excuse vaut 0 ou 22.", "The Excuse is worth 0 or 22."), "excuse")

    @property
    def value(self) -> int:
        """The card's strength in the trick: the trump's number, the Excuse 0 or 22."""
        if self.card.is_excuse:
            return self.excuse or 0
        return self.card.trump or 0


Move = Bid | Play


def trick_winner(trick: Sequence[Play]) -> str:
    """Who takes a trick: the highest card (the Excuse counting as announced).

    # seed 002: « La carte la plus forte emporte le pli »

    >>> trick_winner([Play("Ann", Card.parse("T3")), Play("Bob", Card.parse("EX"), 22), Play("Cid", Card.parse("T21"))])
    'Bob'
    """
    return max(trick, key=lambda p: p.value).player


@dataclass(frozen=True)
class Verdict:
    """The engine's answer to a move.

    ``forbidden_bid`` is set on bid checks (the dealer's forbidden value when the
    mover is the dealer and has one); ``trick_winner`` when the card completes a trick.
    """

    legal: bool
    rule: RuleId | None = None
    reason: Text | None = None
    effects: tuple[Effect, ...] = ()
    next_player: str | None = None
    forbidden_bid: int | None = None
    trick_winner: str | None = None


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


def _illegal(rule: RuleId, reason: Text, forbidden_bid: int | None = None) -> Verdict:
    return Verdict(False, rule, reason, forbidden_bid=forbidden_bid)


def _bid_range_text(cards: int) -> Text:
    return Text(
        f"On annonce de 0 à {plural(cards, 'pli', 'plis')}.",
        f"A bid is from 0 to {plural(cards, 'trick', 'tricks', 'en')}.",
    )


def _excuse_text() -> Text:
    return Text(
        "L’Excuse s’annonce : 0 (la plus faible) ou 22 (la plus forte).",
        "The Excuse must be announced: 0 (lowest) or 22 (highest).",
    )


# -- settlement ---------------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """What a finished deal leads to.

    ``losses`` per player (``|bid − tricks|``, limited by what his stake holds),
    ``stakes`` after the deal, ``ended`` when a stake is empty, ``winners`` (largest
    stake, ties share) when ended, and ``next`` the following deal of the schedule.
    """

    losses: Mapping[str, int]
    stakes: Mapping[str, int]
    ended: bool
    winners: list[str]
    next: DealSpec


def settle(
    players: Sequence[str],
    dealer: str,
    cards: int,
    blind: bool,
    stakes: Mapping[str, int],
    bids: Mapping[str, int],
    tricks: Mapping[str, int],
) -> Settlement:
    """Settle one deal.

    # seed 002: « le joueur qui a annoncé 1 et qui fait finalement 3 plis, retire 2 cartes de sa mise. »

    >>> s = settle(["Ann", "Bob", "Cid"], "Ann", 5, False, {"Ann": 14, "Bob": 1, "Cid": 14},
    ...            bids={"Ann": 1, "Bob": 0, "Cid": 2}, tricks={"Ann": 3, "Bob": 0, "Cid": 2})
    >>> s.losses, s.stakes, s.ended, s.winners
    ({'Ann': 2, 'Bob': 0, 'Cid': 0}, {'Ann': 12, 'Bob': 1, 'Cid': 14}, False, [])
    >>> s.next
    DealSpec(dealer='Ann', cards=4, blind=False)

    Raises :class:`RulesError` (``field``: ``stakes.Ann``, ``bids.Bob``, ``tricks``…)
    for a missing or impossible entry, a bid that could not have been made (out of
    0..``cards``, or the dealer's forbidden value), tricks not adding up to
    ``cards``, or a game already over (an empty stake).

    >>> settle(["Ann", "Bob", "Cid"], "Ann", 5, False, dict.fromkeys(["Ann", "Bob", "Cid"], 14),
    ...        bids={"Ann": 3, "Bob": 1, "Cid": 1}, tricks={"Ann": 3, "Bob": 1, "Cid": 1})
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: Ann donne et ne peut pas annoncer 3 : les annonces feraient 5, le nombre de plis.
    """
    names = check_players(players)
    count, blind = _check_size(cards, blind)
    following = next_deal(names, dealer, count, blind)
    entries: dict[str, dict[str, int]] = {}
    for source, given, high, what in (
        ("stakes", stakes, STAKE, Text(f"Une mise va de 0 à {STAKE}.", f"A stake is from 0 to {STAKE}.")),
        ("bids", bids, count, _bid_range_text(count)),
        (
            "tricks",
            tricks,
            count,
            Text(f"On fait de 0 à {plural(count, 'pli', 'plis')}.", f"Tricks taken are from 0 to {count}."),
        ),
    ):
        if not isinstance(given, Mapping):
            raise RulesError(Text("Un nombre par joueur est attendu.", "A number per player is expected."), source)
        for name in given:
            _seat(names, name, f"{source}.{name}")
        values = {}
        for name in names:
            if name not in given:
                raise RulesError(Text(f"Il manque {name}.", f"{name} is missing."), f"{source}.{name}")
            values[name] = _whole(given[name], f"{source}.{name}", 0, high, what)
        entries[source] = values
    if any(v == 0 for v in entries["stakes"].values()):
        raise RulesError(
            Text("La partie est finie : une mise est vide.", "The game is over: a stake is empty."), "stakes"
        )
    _check_bidding(names, dealer, count, blind, entries["bids"])
    taken = sum(entries["tricks"].values())
    if taken != count:
        raise RulesError(
            Text(
                f"Les plis font {taken} au total au lieu de {count}.",
                f"The tricks add up to {taken} instead of {count}.",
            ),
            "tricks",
        )
    losses: dict[str, int] = {}
    after: dict[str, int] = {}
    for name in names:
        stake = entries["stakes"][name]
        # A stake never goes below 0: a player loses at most what he still has.
        loss = min(abs(entries["bids"][name] - entries["tricks"][name]), stake)
        losses[name] = loss
        after[name] = stake - loss
    ended = any(v == 0 for v in after.values())
    best = max(after.values())
    winners = [n for n in names if after[n] == best] if ended else []
    return Settlement(losses, after, ended, winners, following)


def _check_bidding(players: tuple[str, ...], dealer: str, cards: int, blind: bool, bids: Mapping[str, int]) -> None:
    """Refuse bids that could not have been made at the table (field ``bids.<player>``).

    The bids are replayed, in bidding order, through :meth:`Deal.check`, so that the
    dealer's forbidden value is judged by the same code as at the table (never a
    second copy of the rule) and the reason is the one the table would have given.
    """
    table = Deal(players, dealer, cards, {}, blind=blind)
    for name in bidding_order(players, dealer):
        bid = Bid(name, bids[name])
        verdict = table.check(bid)
        if not verdict.legal:
            assert verdict.reason is not None
            raise RulesError(verdict.reason, f"bids.{name}")
        table = _bid_made(table, bid)


def _bid_made(table: Deal, bid: Bid) -> Deal:
    """``table.apply(bid)`` for a bid ``table.check`` has just found legal: the same table
    with the bid added, without judging it again nor validating again what the table's
    constructor validated (a legal bid keeps every field valid)."""
    made = object.__new__(Deal)
    made.__dict__.update(table.__dict__, bids={**(table.bids or {}), bid.player: bid.bid})
    return made
