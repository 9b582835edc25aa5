"""A game's history: every change, when and from which device (the name it was given)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from companion.extensions import db
from companion.i18n import gettext as _
from companion.membership.access import current_device
from companion.models import Game, GameChange

if TYPE_CHECKING:
    from companion.games.kinds.base import GameKind

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


def change_text(change: GameChange, kind: GameKind, game: Any = None) -> str:
    """A change as the history shows it, a round named in the game's own words
    (« Manche 3 saisie », « Tirage saisi », « Donne 3 complétée »)."""
    n = change.round_number or 0
    events = {
        "round_added": "entered",
        "round_deleted": "deleted",
        "round_restored": "restored",
        "round_edited": "corrected",
        "round_completed": "completed",
    }
    if change.kind in events:
        return kind.round_done(events[change.kind], n, game)
    if change.kind == "dealer_changed":  # companion.games.dealer: a misdeal
        data = change.data or {}
        names = {str(p.id): p.name for p in getattr(game, "players", None) or []}
        before, chosen = str(data.get("from")), str(data.get("to"))
        return _(
            "Dealer changed: %(before)s → %(chosen)s",
            chosen=names.get(chosen, chosen),
            before=names.get(before, before),
        )
    texts = {
        "finished": lambda: _("Game over"),
        "abandoned": lambda: _("Game abandoned"),
        "reopened": lambda: _("Game reopened"),
    }
    return texts[change.kind]() if change.kind in texts else change.kind
