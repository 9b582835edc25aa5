"""Saving a change to a game: the one place where a write to a game's rounds or state ends.

Every page that changes a game — a game started, a round added, corrected (later rounds
rescored), deleted or restored by an undo, a game finished (early or not), abandoned or
reopened — ends with :func:`save`; the import, which writes its games in parts on the
session's connection, calls :func:`refresh` after each part. Both recompute, in the
write's own transaction and before it commits, what the standings read of those games
(:func:`companion.games.results.refresh`: their stored results, their seasons' totals
and ratings).

Nothing listens to the session: a write that does not come through here changes no
standing (:func:`companion.games.results.rebuild` repairs them). A failure in the
refresh is not caught: it fails the write, which is rolled back whole (the app's error
page says nothing half-saved was kept), and the standings are never silently stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from companion.extensions import db
from companion.games import results
from companion.models import Game
from companion.writes import commit


def refresh(game_ids: Iterable[int], seasons: dict[int, date | None] | None = None) -> None:
    """Recompute the standings of these games (and the rating of ``seasons``: season id →
    first night to replay from, None for all) in the current transaction, after sending
    what the session holds of the change."""
    session = db.session()
    session.flush()
    # On the session's connection: plain SQL, in the same transaction.
    results.refresh(session.connection(), game_ids, seasons or {})


def save(game: Game) -> None:
    """Recompute the standings of ``game``, then commit its change, keeping what the
    request loaded (:func:`companion.writes.commit`)."""
    refresh([game.id])
    commit()
