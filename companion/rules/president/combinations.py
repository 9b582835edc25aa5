"""Le Président's combinations: what some cards form, and how a refusal names them.

:func:`combination` reads cards as a :class:`Combination` (a set, a run, a joker, the
Excuse, a Franckie, a coup d'État or a guillotine) with its strength in the order in
force; the candidates of a hand are the card groups that might be one (for
:meth:`~companion.rules.president.table.Table.legal_plays`); the sentences at the end
name a combination in the reasons of refusals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import combinations, product

from companion.rules.cards import (
    Card,
    Rank,
    parse_cards,  # noqa: F401  (read by the doctests)
)
from companion.rules.i18n import Text
from companion.rules.president.options import Rules, _franckie, rank_value


class Kind(StrEnum):
    """The families of combinations; a follower must lay the family of the trick."""

    SET = "set"  # n cards of one rank, or n consecutive tarot trumps
    RUN = "run"
    JOKER = "joker"
    EXCUSE = "excuse"
    FRANCKIE = "franckie"
    COUP_DETAT = "coup_detat"
    GUILLOTINE = "guillotine"


@dataclass(frozen=True)
class Combination:
    """What some cards form, and their strength in the order in force.

    ``key`` compares combinations of one kind (higher is stronger); ``rank`` is a set's
    rank (``None`` for tarot trumps); runs have ``width`` cards of each of ``length`` ranks.

    >>> combination(parse_cards("9h 9s"), Rules()).count, combination(parse_cards("9h 8s"), Rules())
    (2, None)
    """

    kind: Kind
    count: int
    key: tuple[int, ...]
    rank: Rank | None = None
    width: int = 1
    length: int = 1


def combination(cards: Sequence[Card], rules: Rules, reversed_: bool = False) -> Combination | None:
    """What ``cards`` form under ``rules`` (``None``: nothing playable).

    >>> combination(parse_cards("RJ"), Rules(jokers=2)).kind
    <Kind.JOKER: 'joker'>
    >>> combination(parse_cards("9h 10h Jh"), Rules(runs=True)).kind
    <Kind.RUN: 'run'>
    """
    if isinstance(cards, tuple):
        return _kept_combination(cards, rules, reversed_)
    return _combination(cards, rules, reversed_)


@lru_cache(maxsize=1024)
def _kept_combination(cards: tuple[Card, ...], rules: Rules, reversed_: bool) -> Combination | None:
    """:func:`combination`, kept: a move is judged against the same few card groups again
    and again (the trick's top, the play itself), and a combination is an immutable value."""
    return _combination(cards, rules, reversed_)


def _combination(cards: Sequence[Card], rules: Rules, reversed_: bool) -> Combination | None:
    n = len(cards)
    if n == 0:
        return None
    jokers = [c for c in cards if c.is_joker]
    trumps = [c for c in cards if c.trump is not None]
    naturals = [c for c in cards if c.rank is not None]
    ranks = {c.rank for c in naturals if c.rank is not None}
    sign = -1 if reversed_ else 1

    def a_set(rank: Rank | None, key: tuple[int, ...]) -> Combination:
        return Combination(Kind.SET, n, tuple(sign * k for k in key), rank)

    if trumps:
        if rules.preset != "tarot":
            return None
        if n == 1 and cards[0].is_excuse:
            return Combination(Kind.EXCUSE, 1, (0,))
        if any(c.is_excuse for c in trumps) or jokers:
            return None
        if not naturals:
            top = _trump_sequence(sorted(t.trump or 0 for t in trumps))
            return None if top is None else a_set(None, (1, top))
        wild = all(t.trump in (1, 21) for t in trumps)
        if len(ranks) == 1 and wild and n <= 4:
            (rank,) = ranks
            return a_set(rank, (0, rank_value(rank, rules)))
        return None
    if jokers:
        if rules.jokers == 0:
            return None
        counts = sorted(Counter(c.rank for c in naturals).values())
        if rules.guillotine and len(jokers) == 2 and counts == [4]:
            return Combination(Kind.GUILLOTINE, n, (0,))
        if rules.coup_detat and ((len(jokers) == 1 and counts == [4]) or (len(jokers) == 2 and counts == [3])):
            return Combination(Kind.COUP_DETAT, n, (0,))
        if rules.joker_wild:
            # RULES.md: a joker only completes a pair/triple/quad/quint of another rank.
            if len(ranks) == 1 and 2 <= n <= 5:
                (rank,) = ranks
                return a_set(rank, (0, rank_value(rank, rules)))
            return None
        if n == 1:
            red = cards[0].joker == "R" and rules.jokers == 2
            return Combination(Kind.JOKER, 1, (2 if red else 1,))
        return None
    if len(ranks) == 1:
        (rank,) = ranks
        most = 3 if rules.preset == "franck" else 4 * rules.decks
        if rules.game == "piketty":
            most = 8
        if n <= most:
            return a_set(rank, (0, rank_value(rank, rules)))
        return None
    if rules.preset == "franck" and n == 5:
        key = _franckie(naturals, rules, reversed_)
        if key is not None:
            return Combination(Kind.FRANCKIE, 5, key)
    if rules.runs:
        return _run(naturals, rules, reversed_)
    return None


def _trump_sequence(numbers: list[int]) -> int | None:
    """The top of the best run of consecutive trumps these make (T1 and T21 stand for any)."""
    n = len(numbers)
    if n == 1:
        return numbers[0]
    if n > 4 or len(set(numbers)) != n:
        return None
    for top in range(21, n - 1, -1):
        window = set(range(top - n + 1, top + 1))
        missing = len(window - set(numbers))
        fillers = sum(1 for t in numbers if t in (1, 21) and t not in window)
        strangers = sum(1 for t in numbers if t not in window and t not in (1, 21))
        if strangers == 0 and missing == fillers:
            return top
    return None


def _run(naturals: list[Card], rules: Rules, reversed_: bool) -> Combination | None:
    """A run of 3 or more consecutive ranks, each laid 1, 2 or 3 times (no 2, nor a power rank)."""
    counts = Counter(c.rank for c in naturals if c.rank is not None)
    widths = set(counts.values())
    if len(widths) != 1 or len(counts) < 3:
        return None
    (width,) = widths
    # RULES.md: 2s and jokers never sit inside a run, nor does the power rank where the
    # deck has one (the 7 of the 32-card deck); angevin has none, so Q K A is a run there.
    if width > 3 or Rank.TWO in counts or (rules.preset != "angevin" and rules.top_rank in counts):
        return None
    values = sorted(rank_value(r, rules, reversed_) for r in counts)
    if values[-1] - values[0] != len(values) - 1:
        return None
    return Combination(Kind.RUN, len(naturals), (values[-1],), None, width, len(values))


def _revolution(combo: Combination, rules: Rules) -> bool:
    """A quad (``revolution_size`` cards), a Franckie quad, or with the option a triple of 5s or 6s."""
    if combo.kind is Kind.SET:
        if combo.count >= rules.revolution_size:
            return True
        return rules.revolution_on_triple_5_6 and combo.count == 3 and combo.rank in (Rank.FIVE, Rank.SIX)
    return combo.kind is Kind.FRANCKIE and combo.key[0] == 4 and rules.revolution_size == 4


# --- the candidates of a hand ---------------------------------------------------------


def _candidates(hand: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Every distinct card multiset of ``hand`` that might be a combination (filtered later)."""
    found: dict[tuple[str, ...], tuple[Card, ...]] = {}

    def add(cards: Iterable[Card]) -> None:
        cards = tuple(sorted(cards, key=Card.sort_key))
        found.setdefault(tuple(str(c) for c in cards), cards)

    by_rank: dict[Rank, list[Card]] = {}
    for c in hand:
        if c.rank is not None:
            by_rank.setdefault(c.rank, []).append(c)
    jokers = [c for c in hand if c.is_joker]
    trumps = [c for c in hand if c.trump is not None]
    wilds = jokers if rules.joker_wild else [t for t in trumps if t.trump in (1, 21)]
    for cards in by_rank.values():
        for k in range(1, len(cards) + 1):
            for group in combinations(cards, k):
                add(group)
                for j in range(1, len(wilds) + 1):
                    for extra in combinations(wilds, j):
                        add(group + extra)
                if (rules.coup_detat or rules.guillotine) and k in (3, 4):
                    for j in (1, 2):
                        for extra in combinations(jokers, j):
                            add(group + extra)
    for joker in jokers:
        add([joker])
    if rules.joker_wild and jokers and len(jokers) == len(hand):
        add(jokers)  # RULES.md §1: nothing but jokers left, shown as the last cards
    for k in range(1, min(4, len(trumps)) + 1):
        for group in combinations(trumps, k):
            add(group)
    if rules.runs:
        order = [r for r in rules.rank_order() if r in by_rank]
        for width in (1, 2, 3):
            for start in range(len(order)):
                chosen: list[list[tuple[Card, ...]]] = []
                for r in order[start:]:
                    index = rules.rank_order().index(r)
                    if chosen and rules.rank_order().index(order[order.index(r) - 1]) != index - 1:
                        break
                    if len(by_rank[r]) < width:
                        break
                    # One choice of cards per rank: suits never matter to a run, and every
                    # choice would make the number of runs explode with several decks.
                    chosen.append([tuple(by_rank[r][:width])])
                    if len(chosen) >= 3:
                        for picks in _product(chosen):
                            add(c for group in picks for c in group)
    if rules.preset == "franck":
        naturals = [c for c in hand if c.rank is not None]
        for five in combinations(naturals, 5):
            if _franckie(five, rules, False) is not None:
                add(five)
    return list(found.values())


def _product(groups: list[list[tuple[Card, ...]]]) -> Iterable[tuple[tuple[Card, ...], ...]]:
    return product(*groups)


# --- sentences ---------------------------------------------------------------------

_FR_RANK_SINGLE = {Rank.JACK: "le valet", Rank.QUEEN: "la dame", Rank.KING: "le roi", Rank.ACE: "l’as"}
_FR_RANK_PLURAL = {Rank.JACK: "valets", Rank.QUEEN: "dames", Rank.KING: "rois", Rank.ACE: "as"}
_FR_RANK_ONE = {Rank.JACK: "un valet", Rank.QUEEN: "une dame", Rank.KING: "un roi", Rank.ACE: "un as"}
_EN_RANK_PLURAL = {Rank.JACK: "jacks", Rank.QUEEN: "queens", Rank.KING: "kings", Rank.ACE: "aces"}
_FR_GROUP = {2: "la paire", 3: "le brelan", 4: "le carré"}
_FR_GROUP_ONE = {2: "une paire", 3: "un brelan", 4: "un carré"}
_EN_GROUP = {2: "the pair of", 3: "the three", 4: "the four"}
_EN_GROUP_ONE = {2: "a pair of", 3: "three", 4: "four"}


def _plural(rank: Rank, lang: str) -> str:
    if lang == "en":
        return _EN_RANK_PLURAL.get(rank, f"{rank.value}s")
    return _FR_RANK_PLURAL.get(rank, rank.value)


def _the(combo: Combination) -> Text:
    """The combination on the table, as in « plus haut que {la paire de 9} »."""
    if combo.kind is Kind.SET and combo.rank is not None:
        rank, n = combo.rank, combo.count
        if n == 1:
            en = f"the {rank.name_in('en')}" if rank.is_face or rank is Rank.ACE else rank.value
            return Text(_FR_RANK_SINGLE.get(rank, rank.value), en)
        if n in _FR_GROUP:
            return Text(f"{_FR_GROUP[n]} de {_plural(rank, 'fr')}", f"{_EN_GROUP[n]} {_plural(rank, 'en')}")
        return Text(f"les {n} {_plural(rank, 'fr')}", f"the {n} {_plural(rank, 'en')}")
    if combo.kind is Kind.SET:
        top = abs(combo.key[-1])
        if combo.count == 1:
            return Text(f"l’atout {top}", f"trump {top}")
        return Text(f"les atouts jusqu’au {top}", f"the trumps up to {top}")
    if combo.kind is Kind.RUN:
        return Text("cette suite", "this run")
    if combo.kind is Kind.FRANCKIE:
        return Text("cette Franckie", "this Franckie")
    return Text("ce joker", "this joker")


def _a(combo: Combination) -> Text:
    """The same combination again, as in « il faut jouer {une paire de 3} »."""
    if combo.kind is Kind.SET and combo.rank is not None:
        rank, n = combo.rank, combo.count
        if n == 1:
            en = f"a {rank.name_in('en')}" if rank.is_face or rank is Rank.ACE else f"a {rank.value}"
            return Text(_FR_RANK_ONE.get(rank, f"un {rank.value}"), en)
        if n in _FR_GROUP_ONE:
            return Text(f"{_FR_GROUP_ONE[n]} de {_plural(rank, 'fr')}", f"{_EN_GROUP_ONE[n]} {_plural(rank, 'en')}")
        return Text(f"{n} {_plural(rank, 'fr')}", f"{n} {_plural(rank, 'en')}")
    return _the(combo)


def _cards(n: int) -> Text:
    if n == 1:
        return Text("une seule carte", "a single card")
    return Text(f"{n} cartes", f"{n} cards")
