"""What a finished manche of Président (seed 000) or Piketty (seed 001) leads to.

shared/RULES.md §1, §2 and §5.  Players enter the finishing order and the events of
the manche; this package computes the new hierarchy and its titles, the exchanges of
the next manche, the points, the dealer and the leader, and (Piketty) the deal.

A *hierarchy* is a tuple of player names, best first: rank 1 is the Président, rank
``n`` the Trou du cul.  Titles are names for ranks (:func:`title_names`); the
structure is the rank alone.

>>> h = titles_after(("Ann", "Bob", "Cid", "Dan"), finish=("Dan", "Cid", "Bob"))
>>> h
('Dan', 'Cid', 'Bob', 'Ann')
>>> [t.get("fr") for t in title_names(4)]
['Président', 'Vice-Président', 'Vice-Trou du cul', 'Trou du cul']
>>> [str(e) for e in exchange_for(h, schedule_for(4))]
['Ann → Dan: 2 best', 'Dan → Ann: 2 choice', 'Bob → Cid: 1 best', 'Cid → Bob: 1 choice']
>>> points_after(h)
{'Dan': 3, 'Cid': 2, 'Bob': 1, 'Ann': 0}
>>> dealer_and_leader(h)
('Ann', 'Dan')

Choices where the seeds are silent (also written in docs/rules.md):

- The Trou du cul deals and the Président leads.  Seats go down the hierarchy
  clockwise, so the Président sits after the Trou du cul: this is at once the
  seed's « Le joueur venant après le joueur qui a distribué commence » and the
  usual table custom (the Trou du cul does the chores).  Piketty: the Trouduc deals,
  starting with himself and going up the hierarchy; the Président leads.
- A revolution under ``revolution_swaps_titles`` reverses the hierarchy held before
  the manche and ends the manche, like a coup d’État; nobody scores.
- A guillotine, like a coup d’État or a jeu blanc, scores no points.
- A putsch succeeds when the putschist is the first player out who did not go out
  on a forbidden card; going out first on a forbidden card fails it.
- A first manche played with no titles scores points like any other.  Titles drawn
  by cards (Piketty, or a Président group that draws) are a hierarchy at once: the
  first manche after the draw has its exchanges.
- Two identical cards drawn (two decks) tie: the tied players draw again.

The package, by concept (each module imports only those above it):

- :mod:`~companion.rules.president_outcome.events` — the events of a manche (putsch,
  jeu blanc, coup d’État, guillotine, revolution), the finishing order and the new
  hierarchy.
- :mod:`~companion.rules.president_outcome.titles` — the names of the titles, and
  the points and standing they bring.
- :mod:`~companion.rules.president_outcome.next_manche` — what the new hierarchy
  means for the next manche: exchanges, dealer and leader, Piketty's deal.
- :mod:`~companion.rules.president_outcome.draw` — the first hierarchy drawn by cards.
- :mod:`~companion.rules.president_outcome.manche` — :func:`outcome`: all of it from
  one finished manche, checked against the rules.
"""

from __future__ import annotations

from companion.rules.president_outcome.draw import NORMAL_ORDER, draw_key, hierarchy_from_draw
from companion.rules.president_outcome.events import (
    NO_EVENTS,
    PUTSCH_PENALTY,
    Event,
    Events,
    Guillotine,
    finishing_order,
    putsch_failed,
    titles_after,
)
from companion.rules.president_outcome.manche import _EVENT_OPTION as _EVENT_OPTION
from companion.rules.president_outcome.manche import Outcome, outcome
from companion.rules.president_outcome.next_manche import (
    Deal,
    Exchange,
    deal_for,
    dealer_and_leader,
    exchange_for,
    exchange_schedule,
    schedule_for,
)
from companion.rules.president_outcome.titles import Naming, Standing, Title, points_after, standing, title_names

__all__ = [
    "NORMAL_ORDER",
    "NO_EVENTS",
    "PUTSCH_PENALTY",
    "Deal",
    "Event",
    "Events",
    "Exchange",
    "Guillotine",
    "Naming",
    "Outcome",
    "Standing",
    "Title",
    "deal_for",
    "dealer_and_leader",
    "draw_key",
    "exchange_for",
    "exchange_schedule",
    "finishing_order",
    "hierarchy_from_draw",
    "outcome",
    "points_after",
    "putsch_failed",
    "schedule_for",
    "standing",
    "title_names",
    "titles_after",
]
