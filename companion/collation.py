"""Names in a French reader's order: the one place that decides how names are sorted
for people (players page, seating pickers, leaderboards' ties, player pages, exports,
the home page's groups).

The order is the Unicode Collation Algorithm's (``pyuca``, pure Python, DUCET), which
*is* French order: CLDR gives French (fr-FR) no tailoring of the root collation.  The
old "backwards secondary" rule (accents compared from the end of the word, ``cote <
côte < coté < côté``) survives only in Canadian French (fr-CA) and is no longer used for
fr-FR, so plain DUCET is right here.  What it gives:

- letters first, accents second, case third: ``elise < Elise < élise < ÉLISE <
  Élodie < Émile < Zoé`` (É sorts with E, never after Z as code points do);
- ligatures expand: ``Œdipe`` sorts as ``OEdipe``, ``Æsa`` as ``AEsa``;
- spaces and punctuation count (non-ignorable): ``Jean Paul < Jean-Paul < Jeanne``.

Two names equal at every level (the same text, composed or decomposed, or differing
only by an ignorable mark) are then ordered by their raw text, so the order is total
and does not depend on the order the database returned rows in.

Never ``ORDER BY name``: SQLite orders by code point and PostgreSQL by the database's
collation ("C" or en_US), both put ``Zoé`` before ``Élodie`` somewhere.  Sort in
Python after the query, with :func:`sort_key`: no extra query, a key per name (cached).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from typing import TypeVar

from pyuca import Collator  # type: ignore[import-untyped]

T = TypeVar("T")

#: Names whose keys are kept (a name's key costs some 30 µs to compute).
KEYS_KEPT = 4096


@cache
def _collator() -> Collator:
    """The collator, built once per process (it reads the DUCET table: about 0.2 s)."""
    return Collator()


@lru_cache(maxsize=KEYS_KEPT)
def sort_key(name: str) -> tuple[tuple[int, ...], str]:
    """The key that sorts ``name`` in French order (UCA; ties broken by the raw text).

    >>> sorted(["Zoé", "Œdipe", "Élodie", "ÉLISE", "elise", "Émile"], key=sort_key)
    ['elise', 'ÉLISE', 'Élodie', 'Émile', 'Œdipe', 'Zoé']
    """
    return tuple(_collator().sort_key(name)), name


def sorted_names(items: Iterable[T], key: Callable[[T], str] | None = None) -> list[T]:
    """``items`` in French order of their names: ``key(item)`` is an item's name (the
    item itself when ``key`` is None).

    >>> sorted_names(["Zoé", "Élodie", "Ann"])
    ['Ann', 'Élodie', 'Zoé']
    >>> [p[0] for p in sorted_names([("Zoé", 1), ("Émile", 2)], key=lambda p: p[0])]
    ['Émile', 'Zoé']
    """
    if key is None:
        return sorted(items, key=sort_key)
    name_of = key
    return sorted(items, key=lambda item: sort_key(name_of(item)))
