"""What the game layer reads of a game's state, for its pages and the referee's.

- :func:`stored_state` — the state after the last round (or before a round), as the
  engine left it: stored with each round, never replayed; given as the kind's own state
  type (:meth:`~companion.games.kinds.base.GameKind.state_of`), whose keys only the
  kind reads;
- :func:`round_in_play` — the round to come (or still being played) and the stored
  state it starts from, for the live screen and the table display;
- :func:`round_to_read` — what a line said of a round is read from and judged by: the
  states and the entry its form starts from;
- :func:`read_live` — what the game's live manche (:mod:`companion.referee.live`, which
  writes it) says of itself: the round it decided pre-fills the round form.
"""

from __future__ import annotations

import sqlalchemy as sa

from companion.extensions import db
from companion.games.kinds.base import Entry, GameKind, S
from companion.models import Game, LiveManche, LivePrefill, Round

_STATE = sa.select(Round.result).where(Round.game_id == sa.bindparam("game_id")).order_by(Round.number.desc()).limit(1)
_STATE_BEFORE = _STATE.where(Round.number < sa.bindparam("before"))


def stored_state(kind: GameKind[S], game: Game, before: int | None = None) -> S:
    """The stored state after the last round (or before round ``before``): no replay."""
    if before is None:
        result = db.session.scalar(_STATE, {"game_id": game.id})
    else:
        result = db.session.scalar(_STATE_BEFORE, {"game_id": game.id, "before": before})
    return kind.state_of(result) if result is not None else kind.initial_state(game)


_LAST = (
    sa.select(Round.number, Round.entry, Round.result)
    .where(Round.game_id == sa.bindparam("game_id"))
    .order_by(Round.number.desc())
    .limit(1)
)


def round_in_play(kind: GameKind[S], game: Game) -> tuple[int, S]:
    """The number of the round to come, or of the round still being played (one entered
    in two steps whose second is awaited), and the stored state it starts from (one
    query: the last round)."""
    last = db.session.execute(_LAST, {"game_id": game.id}).first()
    if last is None:
        return 1, kind.initial_state(game)
    number = last.number if kind.pending(last.entry) else last.number + 1
    return number, kind.state_of(last.result)


_ENTRY = sa.select(Round.entry).where(Round.game_id == sa.bindparam("game_id"), Round.number == sa.bindparam("number"))


def round_to_read(kind: GameKind[S], game: Game, number: int) -> tuple[S, S, Entry | None]:
    """For a line said of round ``number`` (the round to come, one still being played,
    or a correction): the state the line is read from (a deal whose second step is
    awaited: its own, so that its first step is known), the state its form starts from,
    and the entry the form holds already (a correction's, or the awaited deal's first
    step). Two queries at most, whatever the game's length."""
    in_play, state = round_in_play(kind, game)
    if number == in_play and not kind.state_pending(state):
        return state, state, None
    before = stored_state(kind, game, before=number)
    entry = db.session.scalar(_ENTRY, {"game_id": game.id, "number": number})
    if number != in_play:
        return before, before, entry
    return state, before, entry


def read_live(game: Game) -> LivePrefill | None:
    """What ``game``'s live manche says of itself (None without one): its
    :meth:`~companion.models.LivePrefill.prefill_for` pre-fills the round form."""
    row = db.session.get(LiveManche, game.id)
    return None if row is None else LivePrefill(row.number, row.game_version, row.entry)
