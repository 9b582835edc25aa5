"""The titles of a Président hierarchy, and the points and standing they bring.

A title is the name of a rank (:func:`title_names`: classic or balayeur naming, with
Piketty's and the ``franck`` preset's own); :func:`points_after` scores a manche from
its new hierarchy and :func:`standing` says who leads and who has won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.rules.i18n import RulesError, Text
from companion.rules.president_outcome.events import NO_EVENTS, Events


class Naming(StrEnum):
    """How a group names the titles (the option ``titles``)."""

    CLASSIC = "classic"
    BALAYEUR = "balayeur"


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
