"""The kinds of game a group can play, found by their engine id in one registry.

Each kind is a subpackage of this package (``crapouille/``…) with a
:class:`~companion.games.kinds.base.GameKind` of its own state type (its ``state``
module); adding a kind is adding a subpackage and its templates, and a line below: no
other kind, and no route, changes.
"""

from __future__ import annotations

from flask import abort
from flask_babel import lazy_gettext as _l

from companion.games.kinds.base import GameKind
from companion.games.kinds.crapouille import Crapouille
from companion.games.kinds.president import Piketty, President
from companion.games.kinds.season_base import UNKNOWN, KindSeason
from companion.games.kinds.whist_tarot import WhistTarot
from companion.i18n import ngettext

#: Every kind offered, in the order of the new-game page.
_ALL: list[GameKind] = [Crapouille(), President(), Piketty(), WhistTarot()]
KINDS: dict[str, GameKind] = {kind.id: kind for kind in _ALL}


def kind_for(kind_id: str) -> GameKind:
    """The kind of that id (404 for a kind this version does not know)."""
    kind = KINDS.get(kind_id)
    if kind is None:
        abort(404)
    return kind


def kind_name(kind: str) -> str:
    """A game kind's display name (the id itself for a kind this version does not know)."""
    known = KINDS.get(kind)
    return str(known.name) if known else kind


def season_of(kind: str) -> KindSeason:
    """A game kind's season-level part (what a kind this version does not know says,
    :data:`~companion.games.kinds.season_base.UNKNOWN`, for an id not in :data:`KINDS`)."""
    known = KINDS.get(kind)
    return known.season if known else UNKNOWN


def round_count_of(kind: str, count: int) -> str:
    """« 3 manches », « 3 donnes »: ``count`` rounds in a kind's own word (a card draw is
    no manche); « tours » only for a kind this version does not know."""
    known = KINDS.get(kind)
    if known is None:
        return ngettext("%(num)d round played", "%(num)d rounds played", count)
    return known.round_count(count)


def status_name(status: object) -> str:
    """A game status for display."""
    names = {
        "in_progress": _l("in progress"),
        "finished": _l("finished"),
        "abandoned": _l("abandoned"),
    }
    value = getattr(status, "value", status)
    return str(names.get(str(value), value))
