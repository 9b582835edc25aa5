"""What a finished manche of Président (seed 000) or Piketty (seed 001) leads to.

shared/RULES.md §1, §2 and §5.  Players enter the finishing order and the events of
the manche; this module computes the new hierarchy and its titles, the exchanges of
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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from companion.rules.cards import Card, CardError, Deck, Rank, Suit
from companion.rules.i18n import RulesError, Text, in_words, plural
from companion.rules.president import Rules

__all__ = [
    "NORMAL_ORDER",
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

#: Cards the failed putschist gives the Président at the next manche (seed 000:
#: « il est ainsi condamné à donner ses 4 meilleures cartes au Président »).
PUTSCH_PENALTY = 4


class Naming(StrEnum):
    """How a group names the titles (the option ``titles``)."""

    CLASSIC = "classic"
    BALAYEUR = "balayeur"


class Event(StrEnum):
    """What can happen to a manche besides its finishing order; values are the API's keys."""

    PUTSCH = "putsch"
    JEU_BLANC = "jeu_blanc"
    COUP_DETAT = "coup_detat"
    GUILLOTINE = "guillotine"
    REVOLUTION = "revolution"


# --------------------------------------------------------------------------- titles

_TOP = {
    Naming.CLASSIC: (
        Text("Président", "President"),
        Text("Vice-Président", "Vice-President"),
        Text("Premier ministre", "Prime Minister"),
        Text("Ministre", "Minister"),
        Text("Secrétaire d’État", "Secretary of State"),
        Text("Député", "Deputy"),
        Text("Sénateur", "Senator"),
        Text("Maire", "Mayor"),
        Text("Conseiller", "Councillor"),
    ),
    # seed 000: « Le second ayant terminé devient le Premier Ministre (ou Vice-Président) »
    Naming.BALAYEUR: (
        Text("Président", "President"),
        Text("Premier Ministre", "Prime Minister"),
        Text("Ministre", "Minister"),
        Text("Secrétaire d’État", "Secretary of State"),
        Text("Député", "Deputy"),
        Text("Sénateur", "Senator"),
        Text("Maire", "Mayor"),
        Text("Conseiller", "Councillor"),
    ),
}
_MIDDLE = {
    Naming.CLASSIC: Text("Neutre", "Neutral"),
    # seed 000: « le Neutre, parfois appelé le Concierge »
    Naming.BALAYEUR: Text("Concierge", "Concierge"),
}
_BOTTOM = {
    # last first
    (Naming.CLASSIC, "president"): (Text("Trou du cul", "Asshole"), Text("Vice-Trou du cul", "Vice-Asshole")),
    (Naming.CLASSIC, "piketty"): (Text("Trouduc", "Asshole"), Text("Vice-Trouduc", "Vice-Asshole")),
    (Naming.BALAYEUR, "president"): (Text("Balayeur", "Sweeper"), Text("Balayeur en Chef", "Head Sweeper")),
    (Naming.BALAYEUR, "piketty"): (Text("Balayeur", "Sweeper"), Text("Balayeur en Chef", "Head Sweeper")),
}
_FRANCK = Text("Franck", "Franck")
_EXTRA = Text("Citoyen", "Citizen")


def title_names(
    n: int,
    game: str = "president",
    naming: str = Naming.CLASSIC,
    renames: Mapping[int, str] | None = None,
    preset: str | None = None,
) -> tuple[Text, ...]:
    """The display names of ranks 1..n, best first.

    The last two ranks are the Trou du cul and the Vice-Trou du cul (one of them
    only at 3 players), a middle Neutre when ``n`` is odd, and every other rank
    takes the next name down from Président: Vice-Président, Premier ministre,
    Ministre, Secrétaire d’État, Député, Sénateur, Maire, Conseiller, then
    Citoyen 1, 2…  Piketty spells the bottom titles Trouduc (seed 001).  The
    ``balayeur`` naming is the seed's other one.  ``renames`` (rank → name) lets a
    group call a rank what it likes, in both languages; the preset ``franck``
    calls the last player « le Franck ».

    # seed 001: « Président, Vice-Président, 1er ministre, Ministre, Vice-Trouduc, Trouduc »

    >>> [t.get("fr") for t in title_names(6, "piketty")]
    ['Président', 'Vice-Président', 'Premier ministre', 'Ministre', 'Vice-Trouduc', 'Trouduc']
    >>> [t.get("en") for t in title_names(5)]
    ['President', 'Vice-President', 'Neutral', 'Vice-Asshole', 'Asshole']
    >>> [t.get("fr") for t in title_names(3, naming="balayeur", renames={1: "Chef"})]
    ['Chef', 'Concierge', 'Balayeur']
    """
    key = Naming(naming)
    half = n // 2
    bottom = _BOTTOM[key, "piketty" if game == "piketty" else "president"]
    names: list[Text] = []
    top = iter(_TOP[key])
    extra = 0
    for rank in range(1, n + 1):
        from_bottom = n - rank
        if n % 2 == 1 and rank == half + 1:
            names.append(_MIDDLE[key])
        elif from_bottom < min(2, half):
            names.append(bottom[from_bottom])
        else:
            upper = next(top, None)
            if upper is None:
                extra += 1
                upper = Text(f"{_EXTRA.fr} {extra}", f"{_EXTRA.en} {extra}")
            names.append(upper)
    if preset == "franck" and names:
        names[-1] = _FRANCK
    for rank, renamed in (renames or {}).items():
        if not 1 <= rank <= n:
            raise RulesError(
                Text(f"Il n’y a pas de rang {rank} à {n} joueurs.", f"There is no rank {rank} with {n} players."),
                f"title_names.{rank}",
            )
        names[rank - 1] = Text(renamed, renamed)
    return tuple(names)


@dataclass(frozen=True)
class Title:
    """A player's place in the hierarchy: ``rank`` 1 = Président, and its display name."""

    player: str
    rank: int
    name: Text


# ------------------------------------------------------------------ events and order


@dataclass(frozen=True)
class Guillotine:
    """A guillotine: ``player`` becomes Président and names his ``vice`` and the ``last``."""

    player: str
    vice: str
    last: str


@dataclass(frozen=True)
class Events:
    """The events of one manche (at most one of them; see :func:`titles_after`).

    ``revolution``: a revolution under ``revolution_swaps_titles`` was laid.
    """

    putsch: str | None = None
    jeu_blanc: str | None = None
    coup_detat: str | None = None
    guillotine: Guillotine | None = None
    revolution: bool = False

    def kinds(self) -> tuple[Event, ...]:
        """The events that happened, in :class:`Event` order.

        >>> Events(putsch="Dan").kinds()
        (<Event.PUTSCH: 'putsch'>,)
        """
        present = {
            Event.PUTSCH: self.putsch is not None,
            Event.JEU_BLANC: self.jeu_blanc is not None,
            Event.COUP_DETAT: self.coup_detat is not None,
            Event.GUILLOTINE: self.guillotine is not None,
            Event.REVOLUTION: self.revolution,
        }
        return tuple(kind for kind, on in present.items() if on)

    @property
    def ends_unplayed(self) -> bool:
        """Events that end the manche by themselves: no finishing order counts, no points."""
        return any(k is not Event.PUTSCH for k in self.kinds())


NO_EVENTS = Events()


def _unknown_player(name: object, where: str) -> RulesError:
    return RulesError(Text(f"Joueur inconnu : {name}.", f"Unknown player: {name}."), where)


def _check_hierarchy(hierarchy: Sequence[str]) -> None:
    if len(set(hierarchy)) != len(hierarchy):
        raise RulesError(Text("Un joueur figure deux fois.", "A player is listed twice."), "players")


def _check_finish(hierarchy: Sequence[str], finish: Sequence[str]) -> None:
    seen: set[str] = set()
    for i, name in enumerate(finish):
        if name not in hierarchy:
            raise _unknown_player(name, f"finish[{i}]")
        if name in seen:
            raise RulesError(
                Text(f"{name} figure deux fois dans l’ordre d’arrivée.", f"{name} is listed twice in the finish."),
                f"finish[{i}]",
            )
        seen.add(name)


def _check_forbidden(finish: Sequence[str], forbidden: Iterable[str]) -> None:
    for name in forbidden:
        if name not in finish:
            raise RulesError(
                Text(
                    f"{name} ne figure pas dans l’ordre d’arrivée : impossible d’avoir fini sur une carte interdite.",
                    f"{name} is not in the finish, so cannot have gone out on a forbidden card.",
                ),
                f"finished_on.{name}",
            )


def finishing_order(
    players: Sequence[str],
    finish: Sequence[str],
    forbidden: Iterable[str] = (),
) -> tuple[str, ...]:
    """The ranking a manche played to its end gives, best first.

    ``finish`` is the going-out order; the one player left holding cards may be
    left out.  Players in ``forbidden`` went out on a forbidden card: they come
    last, the latest one to go out on it very last.

    # seed 001: « Si quelqu’un termine avec un 2, il devient trouduc. »

    >>> finishing_order(("A", "B", "C", "D"), ("B", "A", "D"))
    ('B', 'A', 'D', 'C')
    >>> finishing_order(("A", "B", "C", "D"), ("B", "A", "D"), forbidden={"B", "A"})
    ('D', 'C', 'B', 'A')
    >>> finishing_order(("A", "B", "C", "D"), ("B", "A"))
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: L’ordre d’arrivée est incomplet : il manque C, D.
    """
    _check_finish(players, finish)
    forbidden = set(forbidden)
    _check_forbidden(finish, forbidden)
    missing = [p for p in players if p not in finish]
    if len(missing) > 1:
        names = ", ".join(missing)
        raise RulesError(
            Text(
                f"L’ordre d’arrivée est incomplet : il manque {names}.", f"The finish is incomplete: {names} missing."
            ),
            "finish",
        )
    order = [p for p in finish if p not in forbidden] + missing + [p for p in finish if p in forbidden]
    return tuple(order)


def _putsch_decided(hierarchy: Sequence[str], finish: Sequence[str], forbidden: Iterable[str], putschist: str) -> bool:
    """Whether the putsch failed; raise when the finish does not tell yet."""
    forbidden = set(forbidden)
    if putschist in forbidden:
        return True
    first = next((p for p in finish if p not in forbidden), None)
    if first is None:
        if len(hierarchy) - len(finish) == 1:
            first = next(p for p in hierarchy if p not in finish)
        else:
            raise RulesError(
                Text(
                    "Il faut savoir qui sort en premier pour dire si le putsch a réussi.",
                    "The first player out is needed to know whether the putsch succeeded.",
                ),
                "finish",
            )
    return first != putschist


def putsch_failed(
    hierarchy: Sequence[str],
    finish: Sequence[str],
    forbidden: Iterable[str] = (),
    events: Events = NO_EVENTS,
) -> bool:
    """Whether a putsch was called and failed (someone else became Président).

    # seed 000: « La partie peut donc être arrêtée dès lors que le premier joueur à se
    # débarrasser de toutes ses cartes n’est pas le putschiste lui-même »

    >>> putsch_failed(("A", "B", "C"), ("B",), events=Events(putsch="C"))
    True
    >>> putsch_failed(("A", "B", "C"), ("C", "A"), events=Events(putsch="C"))
    False
    """
    if events.putsch is None:
        return False
    _check_finish(hierarchy, finish)
    return _putsch_decided(hierarchy, finish, forbidden, events.putsch)


def _check_events(hierarchy: Sequence[str], events: Events) -> None:
    kinds = events.kinds()
    if len(kinds) > 1:
        raise RulesError(
            Text("Un seul événement par manche.", "Only one event per manche."),
            f"events.{kinds[1].value}",
        )
    for kind, name in (
        (Event.PUTSCH, events.putsch),
        (Event.JEU_BLANC, events.jeu_blanc),
        (Event.COUP_DETAT, events.coup_detat),
    ):
        if name is not None and name not in hierarchy:
            raise _unknown_player(name, f"events.{kind.value}")
    if events.putsch is not None and events.putsch != hierarchy[-1]:
        raise RulesError(
            Text("Seul le Trou du cul peut lancer un putsch.", "Only the Trou du cul may call a putsch."),
            "events.putsch",
        )
    if (g := events.guillotine) is not None:
        for part, name in (("player", g.player), ("vice", g.vice), ("last", g.last)):
            if name not in hierarchy:
                raise _unknown_player(name, f"events.guillotine.{part}")
        if len({g.player, g.vice, g.last}) != 3:
            raise RulesError(
                Text(
                    "La guillotine nomme trois joueurs différents : le Président, son second et le Trou du cul.",
                    "A guillotine names three different players: the Président, the vice and the Trou du cul.",
                ),
                "events.guillotine",
            )


def titles_after(
    hierarchy: Sequence[str],
    finish: Sequence[str] = (),
    forbidden: Iterable[str] = (),
    events: Events = NO_EVENTS,
) -> tuple[str, ...]:
    """The hierarchy after a manche, best first.

    ``hierarchy`` is the one before the manche (for a first manche, the players
    in any order); ``finish`` the going-out order; ``forbidden`` the players who
    went out on a forbidden card (ranked last, the latest very last).

    Events: a successful putsch keeps the finishing order; a failed one keeps
    every title.  A jeu blanc makes its player Président, those above him moving
    down one.  A coup d’État makes its player Président and the sitting
    Président takes his old title.  A guillotine makes its player Président, with
    his vice second and his victim last, the others in their old order.  A
    revolution that swaps titles reverses the hierarchy.

    # seed 000: « si le Balayeur a un jeu blanc, il devient président, le président devient
    # Premier Ministre, le Premier Ministre prend le rang qui le précède »

    >>> h = ("P", "V", "N", "W", "T")
    >>> titles_after(h, events=Events(jeu_blanc="W"))
    ('W', 'P', 'V', 'N', 'T')
    >>> titles_after(h, events=Events(coup_detat="W"))
    ('W', 'V', 'N', 'P', 'T')
    >>> titles_after(h, events=Events(guillotine=Guillotine("T", "W", "P")))
    ('T', 'W', 'V', 'N', 'P')
    >>> titles_after(h, events=Events(revolution=True))
    ('T', 'W', 'N', 'V', 'P')
    >>> titles_after(h, ("V",), events=Events(putsch="T"))
    ('P', 'V', 'N', 'W', 'T')
    """
    hierarchy = tuple(hierarchy)
    _check_hierarchy(hierarchy)
    _check_events(hierarchy, events)
    _check_finish(hierarchy, finish)
    if events.ends_unplayed:
        return _after_event(hierarchy, events)
    if events.putsch is not None and _putsch_decided(hierarchy, finish, forbidden, events.putsch):
        return hierarchy
    return finishing_order(hierarchy, finish, forbidden)


def _after_event(hierarchy: tuple[str, ...], events: Events) -> tuple[str, ...]:
    if events.jeu_blanc is not None:
        return (events.jeu_blanc, *(p for p in hierarchy if p != events.jeu_blanc))
    if events.coup_detat is not None:
        rebel, president = events.coup_detat, hierarchy[0]
        swapped = {rebel: president, president: rebel}
        return tuple(swapped.get(p, p) for p in hierarchy)
    if (g := events.guillotine) is not None:
        rest = (p for p in hierarchy if p not in (g.player, g.vice, g.last))
        return (g.player, g.vice, *rest, g.last)
    # a revolution that swaps titles
    return hierarchy[::-1]


# ------------------------------------------------------------------------- points


def points_after(
    after: Sequence[str],
    events: Events = NO_EVENTS,
    failed: bool = False,
) -> dict[str, int]:
    """Points scored in a manche: with ``n`` players, n−1 for the Président down to 0.

    ``after`` is the hierarchy the manche gives (:func:`titles_after`).  A
    successful putsch gives the putschist n; a failed one (``failed``) costs him 1
    and nobody else scores.  A jeu blanc, a coup d’État, a guillotine or a
    revolution that swaps titles scores nothing.

    # seed 000: « Lors d’un putsch réussi, le putschiste récolte alors 1 point de plus qu’un
    # Président dit normal […] tandis que s’il est raté, le putschiste en perd 1. »

    >>> points_after(("T", "P", "V", "W"), Events(putsch="T"))
    {'T': 4, 'P': 2, 'V': 1, 'W': 0}
    >>> points_after(("P", "V", "W", "T"), Events(putsch="T"), failed=True)
    {'P': 0, 'V': 0, 'W': 0, 'T': -1}
    """
    n = len(after)
    if failed and events.putsch is not None:
        return {p: -1 if p == events.putsch else 0 for p in after}
    if events.ends_unplayed:
        return dict.fromkeys(after, 0)
    scored = {p: n - 1 - i for i, p in enumerate(after)}
    if events.putsch is not None and after and after[0] == events.putsch:
        scored[events.putsch] = n
    return scored


@dataclass(frozen=True)
class Standing:
    """Running totals of a points game: ``ended`` once a total reaches the target."""

    totals: Mapping[str, int]
    ended: bool
    losers: tuple[str, ...]


def standing(totals: Mapping[str, int], points: Mapping[str, int], target: int = 25) -> Standing:
    """Add a manche's ``points`` to the ``totals``; the game ends when a total reaches ``target``.

    The lowest total loses (equal lowest totals lose together).

    # seed 000: « La partie se termine lorsqu’un joueur atteint un nombre de points
    # prédéterminé, par exemple 25. Le perdant est celui qui aura récolté le plus petit
    # nombre de points »

    >>> standing({"A": 22, "B": 10, "C": 10}, {"A": 2, "B": 1, "C": 0}).ended
    False
    >>> standing({"A": 23, "B": 10, "C": 11}, {"A": 2, "B": 1, "C": 0})
    Standing(totals={'A': 25, 'B': 11, 'C': 11}, ended=True, losers=('B', 'C'))
    """
    names = list(dict.fromkeys([*totals, *points]))
    new = {p: totals.get(p, 0) + points.get(p, 0) for p in names}
    ended = any(t >= target for t in new.values())
    losers: tuple[str, ...] = ()
    if ended:
        low = min(new.values())
        losers = tuple(p for p in names if new[p] == low)
    return Standing(new, ended, losers)


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


# --------------------------------------------------------------------- first draw

_SUIT_DRAW = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
#: Président's order, low to high (shared/RULES.md §1).
NORMAL_ORDER: tuple[Rank, ...] = (
    *(Rank(r) for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    Rank.TWO,
)


def draw_key(card: Card, order: Sequence[Rank] = NORMAL_ORDER) -> tuple[int, int]:
    """How strong a drawn card is: rank in the game's ``order`` (low to high), then suit ♠ > ♥ > ♦ > ♣.

    Jokers rank above every suit card, the red one higher; tarot trumps above
    them by number, the Excuse above them all.

    # seed 001: « pique / coeur / carrreau / trèfle en cas d’égalité »

    >>> draw_key(Card.parse("2c")) > draw_key(Card.parse("As"))
    True
    >>> draw_key(Card.parse("Ks")) > draw_key(Card.parse("Kh")) > draw_key(Card.parse("Kd"))
    True
    >>> draw_key(Card.parse("RJ")) > draw_key(Card.parse("BJ")) > draw_key(Card.parse("2s"))
    True
    """
    if card.joker is not None:
        return (100, 1 if card.joker == "R" else 0)
    if card.trump is not None:
        return (200 + (card.trump or 100), 0)
    if card.rank is None or card.suit is None or card.rank not in order:
        raise CardError(
            Text(
                f"La carte {card.display('fr')} n’est pas dans ce jeu.",
                f"The card {card.display('en')} is not in this deck.",
            )
        )
    return (list(order).index(card.rank), _SUIT_DRAW[card.suit])


def hierarchy_from_draw(
    draws: Mapping[str, Sequence[Card]],
    order: Sequence[Rank] = NORMAL_ORDER,
    deck: Deck | None = None,
) -> tuple[str, ...]:
    """The first hierarchy from a card draw: the higher card, the better title.

    Each player's entry is the cards he drew, first draw first.  Equal cards (two
    decks) tie: the tied players draw again, and their next cards settle it.
    ``deck`` (if given) checks that each round of draws holds no card more often
    than the deck does.

    # seed 001: « Les rôles se définissent préalablement en tirant au sort une carte
    # (pique / coeur / carrreau / trèfle en cas d’égalité). »

    >>> c = Card.parse
    >>> hierarchy_from_draw({"Ann": [c("9h")], "Bob": [c("9s")], "Cid": [c("2c")], "Dan": [c("6d")]})
    ('Cid', 'Bob', 'Ann', 'Dan')
    >>> hierarchy_from_draw({"Ann": [c("9h"), c("7c")], "Bob": [c("9h"), c("Ks")], "Cid": [c("6d")]})
    ('Bob', 'Ann', 'Cid')
    """
    for name, cards in draws.items():
        if not cards:
            raise RulesError(
                Text(f"{name} n’a pas tiré de carte.", f"{name} drew no card."),
                f"draw.{name}",
            )
    if deck is not None:
        depth = max((len(c) for c in draws.values()), default=0)
        for i in range(depth):
            drawn = [(name, cards[i]) for name, cards in draws.items() if len(cards) > i]
            try:
                deck.check(card for _, card in drawn)
            except CardError as e:
                index = int((e.field or "[0]").strip("[]"))
                where = f"draw.{drawn[index][0]}" + (f"[{i}]" if len(draws[drawn[index][0]]) > 1 else "")
                raise RulesError(e.text, where) from None
    return tuple(_rank_draws(list(draws), draws, 0, order))


def _rank_draws(names: list[str], draws: Mapping[str, Sequence[Card]], depth: int, order: Sequence[Rank]) -> list[str]:
    if len(names) == 1:
        return names
    groups: dict[tuple[int, int], list[str]] = {}
    for name in names:
        cards = draws[name]
        if len(cards) <= depth:
            tied = Text(", ".join(names[:-1]) + " et " + names[-1], ", ".join(names[:-1]) + " and " + names[-1])
            raise RulesError(
                Text(
                    f"Égalité entre {tied.fr} : il faut tirer une nouvelle carte pour les départager.",
                    f"{tied.en} are tied: they must draw another card.",
                ),
                f"draw.{name}",
            )
        groups.setdefault(draw_key(cards[depth], order), []).append(name)
    result: list[str] = []
    for key in sorted(groups, reverse=True):
        result.extend(_rank_draws(groups[key], draws, depth + 1, order))
    return result


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
