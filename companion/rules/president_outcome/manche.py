"""The outcome of a finished Président manche: :func:`outcome` and its :class:`Outcome`.

From the hierarchy before the manche, its finishing order and events, checked against
the group's :class:`~companion.rules.president.Rules`: the new hierarchy and titles,
the points, the exchanges, the dealer and leader of the next manche.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.rules.cards import Card, Rank, Suit
from companion.rules.i18n import RulesError, Text
from companion.rules.president import Rules
from companion.rules.president_outcome.draw import hierarchy_from_draw
from companion.rules.president_outcome.events import (
    NO_EVENTS,
    PUTSCH_PENALTY,
    Event,
    Events,
    _check_finish,
    _check_forbidden,
    _check_hierarchy,
    _unknown_player,
    putsch_failed,
    titles_after,
)
from companion.rules.president_outcome.next_manche import (
    Deal,
    Exchange,
    deal_for,
    dealer_and_leader,
    exchange_for,
    exchange_schedule,
)
from companion.rules.president_outcome.titles import Standing, Title, points_after, standing, title_names

# ------------------------------------------------------------------------ outcome


_EVENT_OPTION = {
    Event.PUTSCH: "putsch",
    Event.JEU_BLANC: "jeu_blanc",
    Event.COUP_DETAT: "coup_detat",
    Event.GUILLOTINE: "guillotine",
    Event.REVOLUTION: "revolution_swaps_titles",
}
_EVENT_NAMES = {
    Event.PUTSCH: Text("le putsch", "the putsch"),
    Event.JEU_BLANC: Text("le jeu blanc", "the jeu blanc"),
    Event.COUP_DETAT: Text("le coup d’État", "the coup d’État"),
    Event.GUILLOTINE: Text("la guillotine", "the guillotine"),
    Event.REVOLUTION: Text("la révolution qui inverse les titres", "the revolution that swaps titles"),
}


@dataclass(frozen=True)
class Outcome:
    """Everything a finished manche (or a first draw) leads to.

    ``titles`` best first; ``exchanges`` of the next manche; ``points`` of this
    manche (empty when the group plays without points); ``dealer`` and
    ``leader`` of the next manche; ``deal`` its card counts; ``events`` what
    happened (``putsch_failed``, ``putsch_succeeded``, ``jeu_blanc``,
    ``coup_detat``, ``guillotine``, ``revolution``, ``finish_last``, ``draw``);
    ``finished_last`` who went out on a forbidden card; ``putsch_banned`` the
    failed putschist who may not putsch at the next manche; ``reversed`` whether
    the next manche starts with the card order reversed (``revolution_persists``).
    """

    titles: tuple[Title, ...]
    exchanges: tuple[Exchange, ...]
    points: Mapping[str, int]
    dealer: str
    leader: str
    deal: Deal
    events: tuple[str, ...] = ()
    finished_last: tuple[str, ...] = ()
    putsch_banned: str | None = None
    standing: Standing | None = field(default=None)
    reversed: bool = False

    @property
    def hierarchy(self) -> tuple[str, ...]:
        """The players best first (also the seating order, clockwise from the Président)."""
        return tuple(t.player for t in self.titles)


def outcome(
    rules: Rules,
    players: Sequence[str],
    finish: Sequence[str] = (),
    finished_on: Mapping[str, Sequence[Card] | Rank | bool] | None = None,
    events: Events = NO_EVENTS,
    first: bool = False,
    draw: Mapping[str, Sequence[Card]] | None = None,
    putsch_banned: str | None = None,
    totals: Mapping[str, int] | None = None,
    renames: Mapping[int, str] | None = None,
    reversed_at_end: bool = False,
) -> Outcome:
    """The outcome of one manche under ``rules``.

    ``players`` is the hierarchy before the manche, best first (for a first
    manche, the players in seat order).  ``finished_on`` gives, for players who
    went out on cards that may be forbidden, those cards (``rules.forbidden_finish``
    decides; the cards of all players together must fit in the deck), a :class:`Rank`
    (any card of that rank, not counted against the deck), or ``True`` when the
    players already know the finish was forbidden.
    ``draw`` replaces the manche by a first card draw.
    ``putsch_banned`` is a player who failed a putsch at the previous manche.
    ``totals`` (points before the manche) adds a :class:`Standing`.
    ``reversed_at_end`` is the card order when the manche ended (reversed by a
    revolution, or started reversed and never turned back): with
    ``revolution_persists`` the next manche starts in it (:attr:`Outcome.reversed`);
    without it, or when revolutions swap the titles instead of the cards, or after a
    draw, the next manche starts in the normal order.

    RULES.md §1: `revolution_persists`, the order stays reversed into the next
    manches until another revolution.

    >>> rules = Rules(revolution=True, revolution_persists=True)
    >>> outcome(rules, ("A", "B", "C"), ("B", "A"), reversed_at_end=True).reversed
    True
    >>> outcome(Rules(revolution=True), ("A", "B", "C"), ("B", "A"), reversed_at_end=True).reversed
    False

    Raises :class:`RulesError` for anything that cannot be judged: unknown or
    repeated players, an event whose option is off, an event in a first manche,
    a putsch by anyone but the Trou du cul…
    """
    hierarchy = tuple(players)
    _check_hierarchy(hierarchy)
    n = len(hierarchy)
    outcome_events: list[str] = []
    finished_last: tuple[str, ...] = ()
    failed = False
    if draw is not None:
        if finish:
            raise RulesError(
                Text("Un tirage remplace la manche : pas d’ordre d’arrivée.", "A draw replaces the manche: no finish."),
                "finish",
            )
        for name in draw:
            if name not in hierarchy:
                raise _unknown_player(name, f"draw.{name}")
        for name in hierarchy:
            if name not in draw:
                raise RulesError(
                    Text(f"{name} n’a pas tiré de carte.", f"{name} drew no card."),
                    f"draw.{name}",
                )
        first = True
        if events.kinds():
            raise _event_in_first(events)
        after = hierarchy_from_draw(draw, rules.rank_order(), rules.deck(n))
        points: dict[str, int] = dict.fromkeys(after, 0)
        outcome_events.append("draw")
    else:
        for kind in events.kinds():
            if not getattr(rules, _EVENT_OPTION[kind]):
                raise RulesError(
                    Text(
                        f"Les règles choisies ne prévoient pas {_EVENT_NAMES[kind].fr}.",
                        f"The rules chosen do not include {_EVENT_NAMES[kind].en}.",
                    ),
                    f"events.{kind.value}",
                )
        if first and events.kinds():
            raise _event_in_first(events)
        if events.putsch is not None and events.putsch == putsch_banned:
            raise RulesError(
                Text(
                    f"{events.putsch} a raté un putsch à la manche précédente : pas de nouveau putsch à celle-ci.",
                    f"{events.putsch} failed a putsch at the previous manche: no new putsch at this one.",
                ),
                "events.putsch",
            )
        _check_finish(hierarchy, finish)
        if events.jeu_blanc is not None and finish:
            # a jeu blanc is shown before the exchange: the manche is never played
            raise RulesError(
                Text(
                    "Avec un jeu blanc, la manche ne se joue pas : l’ordre d’arrivée doit être vide.",
                    "With a jeu blanc the manche is not played: the finish must be empty.",
                ),
                "finish",
            )
        forbidden = _forbidden_finishers(rules, hierarchy, finished_on or {})
        if not events.ends_unplayed:
            _check_forbidden(finish, forbidden)
        forbidden.sort(key=lambda p: list(finish).index(p) if p in finish else n)
        after = titles_after(hierarchy, finish, forbidden, events)
        failed = putsch_failed(hierarchy, finish, forbidden, events)
        points = points_after(after, events, failed)
        if not events.ends_unplayed and not failed:
            finished_last = tuple(forbidden)
        if events.putsch is not None:
            outcome_events.append("putsch_failed" if failed else "putsch_succeeded")
        outcome_events.extend(k.value for k in events.kinds() if k is not Event.PUTSCH)
        if finished_last:
            outcome_events.append("finish_last")
    if not rules.points:
        points = {}
    names = title_names(n, rules.game, rules.titles, renames, rules.preset)
    titles = tuple(Title(p, i + 1, names[i]) for i, p in enumerate(after))
    banned = events.putsch if failed else None
    deal = deal_for(after, rules.deck(n).size, rules.game)
    exchanges = exchange_for(
        after,
        exchange_schedule(rules, n),
        penalty=banned,
        jokers=rules.joker_exchangeable,
        penalty_count=min(PUTSCH_PENALTY, min(deal.counts.values())),
    )
    dealer, leader = dealer_and_leader(after)
    # Revolutions that swap the titles never reverse the cards; a draw replaces the manche.
    carried = reversed_at_end and draw is None and rules.revolution_persists and not rules.revolution_swaps_titles
    result_standing = None
    if totals is not None and rules.points:
        result_standing = standing(totals, points, rules.target)
    return Outcome(
        titles=titles,
        exchanges=exchanges,
        points=points,
        dealer=dealer,
        leader=leader,
        deal=deal,
        events=tuple(outcome_events),
        finished_last=finished_last,
        putsch_banned=banned,
        standing=result_standing,
        reversed=carried,
    )


def _forbidden_finishers(
    rules: Rules, hierarchy: Sequence[str], finished_on: Mapping[str, Sequence[Card] | Rank | bool]
) -> list[str]:
    """The players of ``finished_on`` who went out on a forbidden card.

    The cards named are counted across players against the deck (API.md: a card
    that appears more often than the decks hold is malformed), so two players cannot
    both have finished on the only 2♥.

    >>> two_h = (Card.parse("2h"),)
    >>> _forbidden_finishers(Rules(game="piketty"), ("A", "B", "C", "D"), {"A": two_h, "B": Rank.TWO, "C": False})
    ['A', 'B']
    >>> _forbidden_finishers(Rules(twos_cut=True), ("A", "B", "C"), {"A": two_h, "B": two_h})
    Traceback (most recent call last):
    ...
    companion.rules.cards.CardError: Il n’y a qu’un 2♥ dans le jeu.
    """
    deck = rules.deck(len(hierarchy))
    for name in finished_on:
        if name not in hierarchy:
            raise _unknown_player(name, f"finished_on.{name}")
    listed = {f"finished_on.{name}": cards for name, cards in finished_on.items() if not isinstance(cards, bool | Rank)}
    deck.check_together(listed)
    forbidden: list[str] = []
    for name, cards in finished_on.items():
        if isinstance(cards, Rank):
            if not any(card.rank is cards for card in deck.counts):
                raise RulesError(
                    Text(f"Il n’y a pas de {cards.value} dans ce jeu.", f"There is no {cards.value} in this deck."),
                    f"finished_on.{name}",
                )
            cards = (Card(rank=cards, suit=Suit.SPADES),)  # any card of the rank: only the rank matters
        if cards is True or (not isinstance(cards, bool) and rules.forbidden_finish(cards)):
            forbidden.append(name)
    return forbidden


def _event_in_first(events: Events) -> RulesError:
    kind = events.kinds()[0]
    return RulesError(
        Text(
            f"À la première manche il n’y a pas encore de titres : {_EVENT_NAMES[kind].fr} est impossible.",
            f"In the first manche nobody holds a title yet: {_EVENT_NAMES[kind].en} is impossible.",
        ),
        f"events.{kind.value}",
    )
