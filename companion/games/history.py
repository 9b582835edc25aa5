"""A game's history: every change, when and from which device (the name it was given)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from companion.extensions import db
from companion.groups.access import current_device
from companion.i18n import gettext as _
from companion.models import Game, GameChange

#: A change recorded, built once (the table's own defaults: its time).
_RECORD = sa.insert(GameChange.__table__)


def record(game: Game, kind: str, round_number: int | None = None, data: dict[str, Any] | None = None) -> int:
    """Record a change made by this request's device, at the game's new version (which
    ``writes.claim`` has just set, or the database gives if it was not loaded); its id.

    One ``INSERT``, sent now, in the request's transaction: no object is kept for it
    in the session (a change is never changed, and the page after the write reads the
    history again)."""
    device = current_device()
    written = db.session.execute(
        _RECORD,
        {
            "game_id": game.id,
            "kind": kind,
            "round_number": round_number,
            "data": data,
            "version": game.version,
            "device_id": device.id if device is not None else None,
        },
    )
    return int(written.inserted_primary_key[0])


def recent(game: Game, limit: int) -> list[GameChange]:
    """The game's latest changes, most recent first (one query)."""
    query = sa.select(GameChange).where(GameChange.game_id == game.id).order_by(GameChange.id.desc()).limit(limit)
    return list(db.session.scalars(query))


def change_text(change: GameChange, round_name: Callable[[int], str]) -> str:
    """A change as the history shows it; ``round_name`` names a round in the game's words."""
    n = change.round_number or 0
    texts = {
        "round_added": lambda: _("%(round)s entered", round=round_name(n)),
        "round_deleted": lambda: _("%(round)s deleted", round=round_name(n)),
        "round_restored": lambda: _("%(round)s restored", round=round_name(n)),
        "round_edited": lambda: _("%(round)s corrected", round=round_name(n)),
        "round_completed": lambda: _("%(round)s completed", round=round_name(n)),
        "finished": lambda: _("Game over"),
        "abandoned": lambda: _("Game abandoned"),
        "reopened": lambda: _("Game reopened"),
    }
    return texts[change.kind]() if change.kind in texts else change.kind
