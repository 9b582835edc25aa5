"""La crapouille (seed 003; shared/RULES.md §4): scoring and eliminations.

The play-by-play referee (:class:`Pile`: which card may go on the pile, who plays
next) lives in :mod:`companion.rules.crapouille_play` and is re-exported here.

A game is a series of hands.  When a player has no cards left the hand ends and
every other player still in counts the cards he holds (:func:`card_points`).  Points
add up; a player whose total goes **over 300** (301 or more) is out.  The last
player left wins; the ranking is the reverse order of elimination, players crossing
in the same hand ranked by total (higher is worse; equal totals share the place).

A :class:`Scoresheet` is the whole state of a game between hands;
:meth:`Scoresheet.score_hand` scores one more hand and returns a :class:`HandResult`
holding the new sheet.  Players are plain strings (names in the API, ids on the
web pages).

>>> sheet = Scoresheet.start(["Ann", "Bob", "Cid"])
>>> result = sheet.score_hand("Ann", hands={"Bob": parse_cards("8h RJ"), "Cid": parse_cards("2s Kd 7c")})
>>> result.points
{'Ann': 0, 'Bob': 35, 'Cid': 22}
>>> result.sheet.totals
{'Ann': 0, 'Bob': 35, 'Cid': 22}
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.rules.cards import Card, CardError, Rank, parse_cards
from companion.rules.crapouille_play import DECK, Draw, Effect, Options, Pile, PlayCard, PlayMove, PlayRule, Verdict
from companion.rules.i18n import RulesError, Text

__all__ = [
    "DECK",
    "ELIMINATION_TOTAL",
    "Draw",
    "Effect",
    "HandResult",
    "Opening",
    "Options",
    "Pile",
    "PlayCard",
    "PlayMove",
    "PlayRule",
    "Scoresheet",
    "Verdict",
    "card_points",
    "deal",
    "first_opening",
    "hand_points",
    "next_dealer",
    "next_opening",
    "opening",
    "parse_cards",
    "starter",
]

# DECK (two 52-card decks and four jokers) lives with the play-by-play referee in
# crapouille_play, which cannot import this module; it is re-exported from here.
#: A total strictly above this is out; exactly this stays in.
ELIMINATION_TOTAL = 300
#: Fewest players; two play with the two-player rule.
MIN_PLAYERS = 2


def card_points(card: Card) -> int:
    """What a card left in hand costs: 8 = 20, joker = 15, 2 = 10, J/Q/K = 5, others face value.

    # seed 003: « le 8 vaut vingt points, le joker, quinze points, le 2, dix points,
    # les figures, cinq points et les autres cartes ont leur valeur (… l’as vaut 1) »

    >>> [card_points(Card.parse(c)) for c in ["8h", "BJ", "2c", "Qs", "10d", "9h", "As"]]
    [20, 15, 10, 5, 10, 9, 1]
    """
    if card.is_joker:
        return 15
    if card.rank is None:
        raise CardError(Text("Cette carte ne se joue pas à la crapouille.", "This card is not used in la crapouille."))
    if card.rank is Rank.EIGHT:
        return 20
    if card.rank is Rank.TWO:
        return 10
    if card.rank.is_face:
        return 5
    return card.rank.pips


def hand_points(cards: Iterable[Card]) -> int:
    """The points of a whole hand.

    >>> hand_points(parse_cards("8h 8s RJ"))
    55
    >>> hand_points([])
    0
    """
    return sum(card_points(c) for c in cards)


#: The most points one hand can cost: every card of the deck but the one on the pile.
MAX_HAND_POINTS = hand_points(DECK.cards()) - min(card_points(c) for c in DECK.counts)


@dataclass(frozen=True)
class Deal:
    """How many cards each player is dealt, and how many he keeps."""

    dealt: int
    kept: int


def deal(super_crapouille: bool = False) -> Deal:
    """Cards dealt and kept: 5 and 5, or with Super crapouille 10 dealt and 5 kept.

    # seed 003: « on en distribue dix à chaque joueur, qui en écarte cinq »

    >>> deal(), deal(super_crapouille=True)
    (Deal(dealt=5, kept=5), Deal(dealt=10, kept=5))
    """
    return Deal(10, 5) if super_crapouille else Deal(5, 5)


# --- who deals, who starts
#
# seed 003: « On joue dans le sens des aiguilles d'une montre. Le donneur distribue cinq
# cartes à chacun […] Chaque joueur à son tour, en commençant par le joueur à gauche du
# donneur ». Seats are given clockwise, so "the left" of a player is the next seat in the
# list (wrapping round), as in whist (companion.rules.whist_tarot.bidding_order: the deal
# "passes to the left", to the next seat). The seed does not say who deals the next hand:
# as at most French tables, the deal passes to the left, one seat a hand, skipping the
# players who are out; the first dealer is chosen when the game is set up.


@dataclass(frozen=True)
class Opening:
    """Who deals a hand and who plays first in it (the player on the dealer's left)."""

    dealer: str
    starter: str


def _seat_of(seats: Sequence[str], player: str) -> int:
    try:
        return list(seats).index(player)
    except ValueError:
        raise _unknown_player(player, "dealer") from None


def _left_in_play(seats: Sequence[str], in_play: Collection[str], player: str) -> str | None:
    """The first player still in on ``player``'s left (the next seats, clockwise),
    ``player`` himself coming last; None when nobody is in."""
    seat = _seat_of(seats, player)
    order = [*seats[seat + 1 :], *seats[: seat + 1]]
    return next((p for p in order if p in in_play), None)


def next_dealer(seats: Sequence[str], in_play: Collection[str], dealer: str) -> str:
    """Who deals after ``dealer``: the first seat on his left still in play. A dealer who
    has just gone out still passes the deal to his left.

    >>> seats = ["Ann", "Bob", "Cid", "Dan"]
    >>> next_dealer(seats, seats, "Ann"), next_dealer(seats, seats, "Dan")
    ('Bob', 'Ann')
    >>> next_dealer(seats, ["Ann", "Cid", "Dan"], "Ann")  # Bob is out: skipped
    'Cid'
    >>> next_dealer(seats, ["Ann", "Cid", "Dan"], "Bob")  # Bob dealt and went out
    'Cid'
    >>> next_dealer(seats, ["Ann"], "Ann")
    'Ann'
    >>> next_dealer(seats, [], "Ann")
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: Plus personne n’est en jeu.
    """
    found = _left_in_play(seats, in_play, dealer)
    if found is None:
        raise RulesError(Text("Plus personne n’est en jeu.", "Nobody is still in."), "dealer")
    return found


def starter(seats: Sequence[str], in_play: Collection[str], dealer: str) -> str:
    """Who plays first in a hand dealt by ``dealer`` (who is in play): the first player
    still in on his left.

    # seed 003: « Chaque joueur à son tour, en commençant par le joueur à gauche du donneur »

    >>> seats = ["Ann", "Bob", "Cid", "Dan"]
    >>> starter(seats, seats, "Bob"), starter(seats, ["Ann", "Bob", "Dan"], "Bob")
    ('Cid', 'Dan')
    >>> starter(seats, ["Ann", "Bob"], "Cid")
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: Cid est hors jeu : seule une personne encore en jeu peut donner.
    >>> starter(seats, ["Bob"], "Bob")
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: La partie est finie.
    """
    if dealer not in in_play:
        _seat_of(seats, dealer)
        raise RulesError(
            Text(
                f"{dealer} est hors jeu : seule une personne encore en jeu peut donner.",
                f"{dealer} is out: only a player still in can deal.",
            ),
            "dealer",
        )
    found = _left_in_play(seats, in_play, dealer)
    if found is None or found == dealer:
        raise RulesError(Text("La partie est finie.", "The game is over."), "dealer")
    return found


def opening(seats: Sequence[str], in_play: Collection[str], dealer: str) -> Opening:
    """A hand dealt by ``dealer``, who must be in play (the table may give the deal to
    anyone still in, after a misdeal): he deals, the player on his left starts.

    >>> opening(["Ann", "Bob", "Cid"], ["Ann", "Bob", "Cid"], "Cid")
    Opening(dealer='Cid', starter='Ann')
    """
    return Opening(dealer, starter(seats, in_play, dealer))


def first_opening(seats: Sequence[str], dealer: str | None = None) -> Opening:
    """The first hand: ``dealer`` chosen when the game was set up (the first seat when
    none was), the player on his left starts.

    >>> first_opening(["Ann", "Bob", "Cid"]), first_opening(["Ann", "Bob", "Cid"], "Cid")
    (Opening(dealer='Ann', starter='Bob'), Opening(dealer='Cid', starter='Ann'))
    """
    return opening(seats, seats, seats[0] if dealer is None else dealer)


def next_opening(seats: Sequence[str], in_play: Collection[str], dealt: str) -> Opening | None:
    """The hand after one dealt by ``dealt``, ``in_play`` being the players still in
    after it: the deal passes to the left (:func:`next_dealer`), the player on the new
    dealer's left starts; None when fewer than two players are left (the game is over).

    >>> seats = ["Ann", "Bob", "Cid", "Dan"]
    >>> next_opening(seats, seats, "Dan")
    Opening(dealer='Ann', starter='Bob')
    >>> next_opening(seats, ["Ann", "Cid", "Dan"], "Ann")  # Bob went out in Ann's hand
    Opening(dealer='Cid', starter='Dan')
    >>> next_opening(seats, ["Cid"], "Ann") is None
    True
    """
    _seat_of(seats, dealt)
    if len([p for p in seats if p in in_play]) < 2:
        return None
    return opening(seats, in_play, next_dealer(seats, in_play, dealt))


@dataclass(frozen=True)
class Scoresheet:
    """A crapouille game between two hands.

    ``players`` in seat order; ``totals`` of every player; ``eliminations`` the
    players knocked out at each hand that knocked anyone out, in order, each group
    worst first.
    """

    players: tuple[str, ...]
    totals: Mapping[str, int]
    eliminations: tuple[tuple[str, ...], ...] = ()
    _out: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_out", frozenset(p for group in self.eliminations for p in group))

    @classmethod
    def start(cls, players: Sequence[str], totals: Mapping[str, int] | None = None) -> Scoresheet:
        """A new game (or one resumed from ``totals``, nobody eliminated yet, so no
        total above 300).

        >>> Scoresheet.start(["Ann"])
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Il faut au moins 2 joueurs.
        """
        names = tuple(players)
        if len(names) < MIN_PLAYERS:
            raise RulesError(
                Text(f"Il faut au moins {MIN_PLAYERS} joueurs.", f"At least {MIN_PLAYERS} players are needed."),
                "players",
            )
        if len(set(names)) != len(names):
            raise RulesError(Text("Un joueur figure deux fois.", "A player is listed twice."), "players")
        start = dict.fromkeys(names, 0)
        for name, total in (totals or {}).items():
            if name not in start:
                raise _unknown_player(name, f"totals.{name}")
            if not isinstance(total, int) or isinstance(total, bool) or total < 0:
                raise RulesError(
                    Text("Un total est un nombre entier positif.", "A total is a whole number, 0 or more."),
                    f"totals.{name}",
                )
            if total > ELIMINATION_TOTAL:
                # A player still listed cannot already be past the limit: he would be out.
                raise RulesError(
                    Text(
                        f"{name} a plus de {ELIMINATION_TOTAL} points : déjà hors jeu.",
                        f"{name} has more than {ELIMINATION_TOTAL} points: already out.",
                    ),
                    f"totals.{name}",
                )
            start[name] = total
        return cls(names, start)

    @property
    def in_play(self) -> tuple[str, ...]:
        """Players not eliminated, in seat order."""
        return tuple(p for p in self.players if p not in self._out)

    @property
    def two_player_rule(self) -> bool:
        """Whether the two-player rule applies (exactly two players still in)."""
        return len(self.in_play) == 2

    @property
    def over(self) -> bool:
        """The game ends when at most one player is still in."""
        return len(self.in_play) <= 1

    def places(self) -> dict[str, int]:
        """Each player's place, 1 = best, ties sharing a place (1, 2, 2, 4…).

        Players still in come first, by total; then the eliminated, latest first,
        by total within a hand.  When nobody is left in, the last hand's group
        comes first (lowest total wins).

        >>> s = Scoresheet(("A", "B", "C", "D"), {"A": 120, "B": 310, "C": 305, "D": 305}, (("B",), ("C", "D")))
        >>> s.places()
        {'A': 1, 'C': 2, 'D': 2, 'B': 4}
        """
        groups = [self.in_play, *reversed(self.eliminations)]
        places: dict[str, int] = {}
        for group in groups:
            ordered = sorted(group, key=lambda p: self.totals[p])
            base = len(places) + 1
            for i, player in enumerate(ordered):
                tied = i > 0 and self.totals[player] == self.totals[ordered[i - 1]]
                places[player] = places[ordered[i - 1]] if tied else base + i
        return places

    def ranking(self) -> list[str]:
        """Players best first (see :meth:`places`)."""
        places = self.places()
        return sorted(places, key=places.__getitem__)

    def winners(self) -> list[str]:
        """The winner(s) once the game is over, else an empty list."""
        if not self.over:
            return []
        places = self.places()
        return [p for p in self.ranking() if places[p] == 1]

    def score_hand(
        self,
        winner: str,
        hands: Mapping[str, Iterable[Card] | str] | None = None,
        points: Mapping[str, int] | None = None,
    ) -> HandResult:
        """Score one hand: ``winner`` went out; every other player still in gives
        either his cards left (``hands``) or their points (``points``).  The winner
        may be listed too, with nothing to count (no cards, or 0 points): a screen
        sends every player.

        Raises :class:`RulesError` (with ``field`` naming the entry) when a player
        is unknown, eliminated, missing or given twice, a total is not a whole
        number from 0 up, the winner is given a card or a point, or the cards hold
        more copies than two decks and four jokers do.

        >>> s = Scoresheet.start(["Ann", "Bob"], {"Ann": 290, "Bob": 280})
        >>> r = s.score_hand("Bob", points={"Ann": 11})
        >>> r.eliminated, r.over, r.winners, r.sheet.ranking()
        (('Ann',), True, ['Bob'], ['Bob', 'Ann'])
        >>> s.score_hand("Bob", points={"Ann": 10}).eliminated
        ()
        >>> s.score_hand("Bob", points={"Ann": 10, "Bob": 0}).points
        {'Ann': 10, 'Bob': 0}
        """
        if self.over:
            raise RulesError(Text("La partie est finie.", "The game is over."), "winner")
        live = self.in_play
        if winner not in live:
            if winner in self._out:
                raise RulesError(
                    Text(f"{winner} est déjà hors jeu.", f"{winner} is already out."),
                    "winner",
                )
            raise _unknown_player(winner, "winner")
        hands = hands or {}
        points = points or {}
        for source, entries in (("hands", hands), ("points", points)):
            for name in entries:
                if name in self._out:
                    raise RulesError(
                        Text(f"{name} est déjà hors jeu.", f"{name} is already out."),
                        f"{source}.{name}",
                    )
                if name not in live:
                    raise _unknown_player(name, f"{source}.{name}")
        scored: dict[str, int] = {winner: 0}
        all_cards: list[Card] = []
        origins: list[str] = []
        # The winner first: a screen that lists only him, with a card or a point, is told
        # about that slip rather than about everybody else missing.
        for name in (winner, *(p for p in live if p != winner)):
            if name in hands and name in points:
                raise RulesError(
                    Text(
                        f"Pour {name}, donnez les cartes ou le total, pas les deux.",
                        f"For {name}, give the cards or the total, not both.",
                    ),
                    f"points.{name}",
                )
            if name in hands:
                raw = hands[name]
                try:
                    cards = parse_cards(raw) if isinstance(raw, str) else tuple(raw)
                    for card in cards:
                        card_points(card)
                except RulesError as e:
                    raise e.at(f"hands.{name}") from None
                if name == winner and cards:
                    raise RulesError(
                        Text(
                            f"{winner} a fini : plus aucune carte à compter.",
                            f"{winner} went out: no cards to count.",
                        ),
                        f"hands.{name}",
                    )
                scored[name] = hand_points(cards)
                all_cards.extend(cards)
                origins.extend(f"hands.{name}[{i}]" for i in range(len(cards)))
            elif name in points:
                value = points[name]
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_HAND_POINTS:
                    raise RulesError(
                        Text(
                            f"Le total de {name} doit être un nombre entier de 0 à {MAX_HAND_POINTS}.",
                            f"{name}'s total must be a whole number from 0 to {MAX_HAND_POINTS}.",
                        ),
                        f"points.{name}",
                    )
                if name == winner and value:
                    raise RulesError(
                        Text(
                            f"{winner} a fini : aucun point à compter.",
                            f"{winner} went out: no points to count.",
                        ),
                        f"points.{name}",
                    )
                scored[name] = value
            elif name != winner:
                raise RulesError(
                    Text(
                        f"Il manque les cartes ou le total de {name}.",
                        f"{name}'s cards or total are missing.",
                    ),
                    f"hands.{name}",
                )
        try:
            DECK.check(all_cards)
        except CardError as e:
            index = int((e.field or "[0]").strip("[]"))
            raise RulesError(e.text, origins[index]) from None

        totals = dict(self.totals)
        for name, value in scored.items():
            totals[name] += value
        crossed = [p for p in live if totals[p] > ELIMINATION_TOTAL]
        crossed.sort(key=lambda p: -totals[p])
        eliminations = self.eliminations + ((tuple(crossed),) if crossed else ())
        sheet = Scoresheet(self.players, totals, eliminations)
        return HandResult(
            points={p: scored[p] for p in live},
            eliminated=tuple(crossed),
            sheet=sheet,
        )


@dataclass(frozen=True)
class HandResult:
    """What one hand leads to: its points, who is out, and the sheet after it."""

    points: Mapping[str, int]
    eliminated: tuple[str, ...]
    sheet: Scoresheet

    @property
    def totals(self) -> Mapping[str, int]:
        """Totals after the hand."""
        return self.sheet.totals

    @property
    def over(self) -> bool:
        """Whether this hand ended the game."""
        return self.sheet.over

    @property
    def winners(self) -> list[str]:
        """The game's winner(s), when this hand ended it."""
        return self.sheet.winners()

    @property
    def ranking(self) -> list[str]:
        """The final ranking, best first, when this hand ended the game; else empty.

        Before the end a ranking would only be a standing, which the totals already
        tell: like :attr:`winners`, it is given once the game is over.
        """
        return self.sheet.ranking() if self.over else []

    @property
    def places(self) -> dict[str, int]:
        """Each player's final place (1 = best, equal totals crossing in the same
        hand share a place: 1, 2, 2, 4), when this hand ended the game; else empty.

        >>> s = Scoresheet.start(["Ann", "Bob", "Cid", "Dan"], {"Bob": 290, "Cid": 290, "Dan": 280})
        >>> s.score_hand("Ann", points={"Bob": 20, "Cid": 20, "Dan": 40}).places
        {'Ann': 1, 'Bob': 2, 'Cid': 2, 'Dan': 4}
        >>> s.score_hand("Ann", points={"Bob": 1, "Cid": 1, "Dan": 1}).places
        {}
        """
        return self.sheet.places() if self.over else {}


def _unknown_player(name: str, where: str) -> RulesError:
    return RulesError(Text(f"Joueur inconnu : {name}.", f"Unknown player: {name}."), where)
