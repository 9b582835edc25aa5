"""What a hierarchy means for the next Président manche: exchanges, dealer, leader, deal.

:func:`exchange_for` lists the cards given between titles (by the schedule of
:func:`schedule_for` or the group's own, :func:`exchange_schedule`);
:func:`dealer_and_leader` and :func:`deal_for` (Piketty) say who deals, who leads and
how many cards each player gets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules.i18n import RulesError, Text, in_words, plural
from companion.rules.president import Rules
from companion.rules.president_outcome.events import PUTSCH_PENALTY, _unknown_player

# ---------------------------------------------------------------------- exchanges


@dataclass(frozen=True)
class Exchange:
    """One hand-over of cards: ``giver`` gives ``count`` cards to ``receiver``.

    ``cards`` is ``"best"`` (the giver's highest cards in the game's order; jokers
    among them only when ``jokers`` is true) or ``"choice"`` (cards of his choice).
    """

    giver: str
    receiver: str
    count: int
    cards: str
    jokers: bool = False

    def __str__(self) -> str:
        return f"{self.giver} → {self.receiver}: {self.count} {self.cards}"


def schedule_for(n: int, own: Sequence[int] | None = None) -> tuple[int, ...]:
    """How many cards each pair exchanges, outermost pair (Trou du cul ↔ Président) first.

    3 players [2]; 4–5 [2, 1]; n ≥ 6 [⌊n/2⌋, …, 2, 1] (the middle player sits out
    when n is odd).  Piketty's schedules are the same: 4–5 [2, 1], 6–7 [3, 2, 1],
    8–9 [4, 3, 2, 1].  ``own`` is the group's schedule; it may not have more
    counts than there are pairs (inner pairs it leaves out do not exchange).

    # seed 000: « Le Balayeur donne au Président ses deux meilleures cartes »
    # seed 001: « Le trouduc donne ses 3 meilleurs cartes au président, le vice-trouduc ses 2
    # meilleurs cartes au vice-président et le ministre sa meilleur carte au 1er ministre. »

    >>> schedule_for(3), schedule_for(5), schedule_for(6), schedule_for(9)
    ((2,), (2, 1), (3, 2, 1), (4, 3, 2, 1))
    >>> schedule_for(4, own=[3, 1])
    (3, 1)
    """
    pairs = n // 2
    if own is not None:
        if len(own) > pairs:
            raise RulesError(
                Text(
                    f"À {n} joueurs, il n’y a que {in_words(pairs, 'fr', feminine=True)} "
                    f"{'paire' if pairs == 1 else 'paires'} pour échanger.",
                    f"With {n} players there {'is' if pairs == 1 else 'are'} only {in_words(pairs, 'en')} "
                    f"{'pair' if pairs == 1 else 'pairs'} to exchange.",
                ),
                "rules.schedule",
            )
        return tuple(own)
    if n == 3:
        return (2,)
    return tuple(range(pairs, 0, -1))


def exchange_schedule(rules: Rules, n: int) -> tuple[int, ...]:
    """The schedule of ``rules`` at ``n`` players, refused when it asks a player for more
    cards than he is dealt.

    With one deck, the usual [⌊n/2⌋ … 1] outgrows the hands from 11 players on (52
    cards: 4 each, but 5 to give): such a table needs more decks (``field``
    ``rules.decks``, the reason saying how many), or, when even four decks would not
    do or the deck is fixed, fewer players (``players``).  A group's own schedule
    that is too large is refused on ``rules.schedule``.

    >>> exchange_schedule(Rules(), 10)
    (5, 4, 3, 2, 1)
    >>> exchange_schedule(Rules(), 11)
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: À 11 joueurs, la donne est de 4 cartes par personne : impossible d’en donner 5.
    Il faut 2 jeux.
    >>> exchange_schedule(Rules(decks=2), 11)
    (5, 4, 3, 2, 1)
    """
    schedule = schedule_for(n, rules.schedule)
    dealt = min(deal_for(tuple(map(str, range(n))), rules.deck(n).size, rules.game).counts.values())
    most = max(schedule, default=0)
    if most <= dealt:
        return schedule
    each = plural(dealt, "carte", "cartes")
    fr = f"À {n} joueurs, la donne est de {each} par personne : impossible d’en donner {most}."
    en = f"With {n} players each is dealt {plural(dealt, 'card', 'cards', 'en')}: {most} cannot be given."
    if rules.schedule is not None:
        raise RulesError(Text(fr, en), "rules.schedule")
    if rules.game != "piketty" and not rules.reduced and rules.preset != "tarot":
        enough = [d for d in range(rules.decks + 1, 5) if (52 * d + rules.jokers) // n >= most]
        if enough:
            raise RulesError(
                Text(f"{fr} Il faut {enough[0]} jeux.", f"{en} It takes {enough[0]} decks."), "rules.decks"
            )
    raise RulesError(
        Text(f"{fr} Il y a trop de joueurs pour ce jeu.", f"{en} Too many players for this deck."), "players"
    )


def exchange_for(
    hierarchy: Sequence[str],
    schedule: Sequence[int],
    penalty: str | None = None,
    jokers: bool = False,
    putsch_called: bool = False,
    penalty_count: int = PUTSCH_PENALTY,
) -> tuple[Exchange, ...]:
    """The exchanges of a manche, outermost pair first, each giver's "best" then the "choice" back.

    Each player of the bottom half gives his best cards to his mirror in the top
    half (rank r ↔ rank n+1−r), who gives back as many cards of his choice.
    ``penalty`` names a failed putschist: he gives 4 best to the Président instead
    of the usual count.  When the Trou du cul calls a putsch (``putsch_called``)
    there is no exchange at all.  ``jokers``: jokers count among the best cards
    (option ``joker_exchangeable``).  ``penalty_count`` is the putschist's count
    (4, or fewer when the hands are smaller: nobody gives cards he was not dealt).

    # seed 000: « il est ainsi condamné à donner ses 4 meilleures cartes au Président, et ce
    # dernier lui donne les 4 cartes de son choix »

    >>> [str(e) for e in exchange_for(("P", "V", "N", "W", "T"), (2, 1), penalty="T")]
    ['T → P: 4 best', 'P → T: 4 choice', 'W → V: 1 best', 'V → W: 1 choice']
    >>> exchange_for(("P", "N", "T"), (2,), putsch_called=True)
    ()
    """
    if putsch_called:
        return ()
    n = len(hierarchy)
    result: list[Exchange] = []
    for i, count in enumerate(schedule):
        high, low = hierarchy[i], hierarchy[n - 1 - i]
        if i == 0 and penalty is not None and penalty == low:
            count = penalty_count
        if count <= 0 or i >= n - 1 - i:
            continue
        result.append(Exchange(low, high, count, "best", jokers))
        result.append(Exchange(high, low, count, "choice", True))
    return tuple(result)


# ------------------------------------------------------------ dealer, leader, deal


def dealer_and_leader(hierarchy: Sequence[str], dealer: str | None = None) -> tuple[str, str]:
    """Who deals and who leads the next manche: the Trou du cul deals, the Président leads.

    ``hierarchy`` is also the seating order, clockwise (the Président sits after the
    Trou du cul).  ``dealer`` is who dealt when the table says it (a first manche,
    played without titles, where ``hierarchy`` is the players in seat order): the
    player after him leads.

    # seed 000: « Le joueur venant après le joueur qui a distribué commence. »
    # seed 001: « Après les échanges, c’est le président qui commence. »

    >>> dealer_and_leader(("P", "V", "T"))
    ('T', 'P')
    >>> dealer_and_leader(("Ann", "Bob", "Cid", "Dan"), dealer="Dan")
    ('Dan', 'Ann')
    """
    if dealer is None:
        return hierarchy[-1], hierarchy[0]
    if dealer not in hierarchy:
        raise _unknown_player(dealer, "dealer")
    return dealer, hierarchy[(list(hierarchy).index(dealer) + 1) % len(hierarchy)]


@dataclass(frozen=True)
class Deal:
    """Cards each player is dealt (``counts``) and the cards set aside face up."""

    counts: Mapping[str, int]
    aside: int = 0


def deal_for(hierarchy: Sequence[str], deck_size: int, game: str = "president") -> Deal:
    """How many cards each player gets.

    Président: an even deal, the leftover cards set aside face up.  Piketty: the
    deal starts with the Trouduc and goes up the hierarchy, and ends so that the
    leftover cards go one each to the Trouduc, then the Vice-Trouduc…

    # seed 001: « La distribution doit se terminer par le trouduc et le vice-trouduc qui se
    # retrouve avec une carte supplémentaire chacun. »

    >>> deal_for(("P", "V", "M", "N", "W", "T"), 80, "piketty").counts
    {'P': 13, 'V': 13, 'M': 13, 'N': 13, 'W': 14, 'T': 14}
    >>> deal_for(("P", "N", "T"), 52)
    Deal(counts={'P': 17, 'N': 17, 'T': 17}, aside=1)
    """
    n = len(hierarchy)
    each, left = divmod(deck_size, n)
    if game != "piketty":
        return Deal(dict.fromkeys(hierarchy, each), left)
    return Deal({p: each + (1 if n - 1 - i < left else 0) for i, p in enumerate(hierarchy)})
