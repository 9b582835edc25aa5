"""Whist au tarot: the settlement of a finished deal (:func:`settle`).

Each player gives up ``|bid − tricks|`` cards of his stake; the game ends as soon as
a stake is empty, the largest stake winning.  The bids are judged again by the
table's own code (:class:`~companion.rules.whist_tarot.deal.Deal`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules.i18n import RulesError, Text, plural
from companion.rules.whist_tarot.deal import Deal
from companion.rules.whist_tarot.moves import Bid, _bid_range_text
from companion.rules.whist_tarot.schedule import (
    STAKE,
    DealSpec,
    _check_size,
    _seat,
    _whole,
    bidding_order,
    check_players,
    next_deal,
)


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
