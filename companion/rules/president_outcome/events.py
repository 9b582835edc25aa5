"""The events of a Président manche, its finishing order and the new hierarchy.

:class:`Events` are what can happen to a manche besides its finishing order (a putsch,
a jeu blanc, a coup d’État, a guillotine, a revolution that swaps the titles);
:func:`finishing_order` and :func:`titles_after` turn them, with the players who went
out on a forbidden card, into the hierarchy of the next manche.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.rules.i18n import RulesError, Text

#: Cards the failed putschist gives the Président at the next manche (seed 000:
#: « il est ainsi condamné à donner ses 4 meilleures cartes au Président »).
PUTSCH_PENALTY = 4


class Event(StrEnum):
    """What can happen to a manche besides its finishing order; values are the API's keys."""

    PUTSCH = "putsch"
    JEU_BLANC = "jeu_blanc"
    COUP_DETAT = "coup_detat"
    GUILLOTINE = "guillotine"
    REVOLUTION = "revolution"

    @property
    def ends_unplayed(self) -> bool:
        """Whether it ends the manche by itself: no finishing order counts, no points.

        >>> Event.COUP_DETAT.ends_unplayed, Event.PUTSCH.ends_unplayed
        (True, False)
        """
        return self is not Event.PUTSCH


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
        return any(k.ends_unplayed for k in self.kinds())


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
