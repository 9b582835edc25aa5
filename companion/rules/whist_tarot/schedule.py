"""Whist au tarot: the game's numbers, its players and the schedule of deals.

The deck (the 21 trumps and the Excuse), the stake, the series of deals; who may
play (:func:`check_players`); who deals next and how many cards (:func:`first_deal`,
:func:`next_deal`); who bids first and who leads the first trick
(:func:`bidding_order`, :func:`first_leader`), and each player's role in a deal
(:func:`roles`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from companion.rules.cards import Deck
from companion.rules.i18n import RulesError, Text

#: The 21 trumps and the Excuse: the only cards in play.
DECK = Deck.tarot_trumps()
#: Every player's stake at the start (one suit of the tarot deck).
STAKE = 14
#: Cards dealt at each deal of a dealer's series; a last deal of 1 card blind follows.
SERIES: tuple[int, ...] = (5, 4, 3, 2, 1)
MIN_PLAYERS = 3
MAX_PLAYERS = 4


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


class Roles(NamedTuple):
    """Who does what in a deal (seed 002): the dealer, the first to bid, the first to
    play and, at four, the one who cuts before the dealer (None at three)."""

    dealer: str
    first_bidder: str
    first_leader: str
    cutter: str | None


def roles(players: Sequence[str], dealer: str) -> Roles:
    """Each player's role in a deal dealt by ``dealer``: the player on the dealer's left
    bids first, the next one plays first, and at four the last one, on the dealer's
    right, cuts before the dealer.

    # seed 002: « Ce n’est pas le joueur à gauche du donneur qui commence à jouer, mais encore
    # le suivant. (Ainsi chacun à un rôle : le donneur, le premier à parler, le premier à
    # jouer, et à 4, celui qui coupe avant le donneur) »

    >>> roles(["Ann", "Bob", "Cid", "Dan"], "Dan")
    Roles(dealer='Dan', first_bidder='Ann', first_leader='Bob', cutter='Cid')
    >>> roles(["Ann", "Bob", "Cid"], "Bob")
    Roles(dealer='Bob', first_bidder='Cid', first_leader='Ann', cutter=None)
    """
    order = bidding_order(players, dealer)
    cutter = order[-2] if len(order) == MAX_PLAYERS else None
    return Roles(dealer, order[0], first_leader(players, dealer), cutter)
