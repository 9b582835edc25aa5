"""The kinds of game a group can start, as the rules engine names them."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l


@dataclass(frozen=True)
class Kind:
    """A kind of game offered on the new-game page."""

    id: str
    name: LazyString
    blurb: LazyString


KINDS = {
    "crapouille": Kind(
        "crapouille",
        _l("La crapouille"),
        _l("Crazy Eights cousin: penalty points, out past 300."),
    ),
}


def kind_name(kind: str) -> str:
    """A game kind's display name (the id itself for a kind this version does not know)."""
    known = KINDS.get(kind)
    return str(known.name) if known else kind


def status_name(status: object) -> str:
    """A game status for display."""
    names = {
        "in_progress": _l("in progress"),
        "finished": _l("finished"),
        "abandoned": _l("abandoned"),
    }
    value = getattr(status, "value", status)
    return str(names.get(str(value), value))
