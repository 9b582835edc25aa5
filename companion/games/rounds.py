"""Writing a game's rounds and its status, shared by every kind: enter the next round,
correct one, delete the last one, undo, finish, abandon, reopen.

Each write is checked against the version of the game the form was shown at
(:func:`companion.writes.claim`), scored through the game's kind, stored with its
change in the history (:func:`companion.games.history.record`) and saved
(:func:`companion.games.saving.save`). Nothing here speaks HTTP: the views of
``companion.games.routes`` read the request, call these functions and turn what they
return into an answer — :class:`Back` (a redirect to the game, with a message),
:class:`Again` (the round form shown again, with its errors or, 409, beside what changed
since) or :class:`Ready` (the form of a round that can be written)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa

from companion.clock import aware
from companion.extensions import db
from companion.forms import plain_int
from companion.games.forms import MAX_ROUNDS
from companion.games.history import change_text, record
from companion.games.kinds import kind_for
from companion.games.kinds.base import GameKind, State
from companion.games.saving import save
from companion.games.state import read_live, stored_state
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.membership.access import LAST_ROUND, LAST_ROUND_JOIN, current_device
from companion.models import Device, Game, GameChange, GameStatus, Group, LiveManche, Round, utcnow
from companion.rules.i18n import RulesError
from companion.undo import within_reach
from companion.writes import claim, start_writing

#: The changes listed on a conflict page, at most.
CONFLICT_CHANGES = 8

# The queries of the round form, built once (with parameters): SQLAlchemy then
# neither builds nor keys a statement at each request.
_LAST_ROUND = sa.select(Round).where(Round.game_id == sa.bindparam("game_id")).order_by(Round.number.desc()).limit(1)
_ROUND_COUNT = sa.select(sa.func.count(Round.id)).where(Round.game_id == sa.bindparam("game_id"))
#: A game's last round (its number, entry and result: no object, no device) and its
#: number of rounds: the round form's second query.
_LAST_ROUND_AND_COUNT = (
    sa.select(*LAST_ROUND).select_from(Game).outerjoin(*LAST_ROUND_JOIN).where(Game.id == sa.bindparam("game_id"))
)
_ROUNDS, _LIVE = Round.__table__, LiveManche.__table__
_BEFORE = _ROUNDS.alias("before")
#: The live manche that followed round ``number`` of the game as the form saw it
#: (``based_on``), once its first move was made.
_FOLLOWED = sa.and_(
    _LIVE.c.game_id == sa.bindparam("of_game"),
    _LIVE.c.number == sa.bindparam("round_number"),
    _LIVE.c.game_version == sa.bindparam("based_on"),
    _LIVE.c.started_at.is_not(None),
)
#: When a round saved now started: at its live manche's first move; else when the round
#: before it ended (saved, for a round stored without its end); else at the game's start.
_STARTED = sa.func.coalesce(
    sa.select(_LIVE.c.started_at).where(_FOLLOWED).scalar_subquery(),
    sa.select(sa.func.coalesce(_BEFORE.c.ended_at, _BEFORE.c.created_at))
    .where(_BEFORE.c.game_id == sa.bindparam("of_game"), _BEFORE.c.number == sa.bindparam("round_number") - 1)
    .scalar_subquery(),
    sa.bindparam("game_started", type_=sa.DateTime(timezone=True)),
)
#: When a round saved now ended: at its live manche's last move when the manche was
#: followed to its end (a finished manche is written to no more: its last change is
#: that move), else now.
_ENDED = sa.func.coalesce(
    sa.select(_LIVE.c.updated_at).where(_FOLLOWED, _LIVE.c.view["finished"].as_boolean()).scalar_subquery(),
    sa.bindparam("now", type_=sa.DateTime(timezone=True)),
)
#: A round saved, with when it was played, in the one INSERT (its creation: the table's
#: default; a round entered in two steps has no end until its second).
_ADD_PENDING_ROUND = sa.insert(_ROUNDS).values(started_at=_STARTED)
_ADD_ROUND = sa.insert(_ROUNDS).values(started_at=_STARTED, ended_at=_ENDED)


class LastRound(NamedTuple):
    """What the round form reads of a game's last round."""

    number: int
    entry: dict[str, Any]
    result: State | None


@dataclass(frozen=True)
class Back:
    """Back to the game page (at ``anchor``), or to the correction of round ``edit``,
    saying ``message``; ``word``: what became of the write, for the phone's outbox
    (None: left unsaid); ``undo``: the change that can be undone for a while."""

    word: str | None
    message: str | None = None
    anchor: str | None = None
    edit: int | None = None
    undo: int | None = None


@dataclass(frozen=True)
class Again:
    """The round form shown again for round ``number`` (from ``state``): with its
    errors, or, with ``changed`` (what changed since it was shown), as a conflict (409)."""

    word: str
    form: Any
    number: int
    state: State
    changed: list[dict[str, object]] | None = None


@dataclass(frozen=True)
class Ready:
    """Round ``number`` can be written from ``state``: its form, filled in with ``entry``
    (``live``: from the live play-by-play); ``target``: the round corrected, if any."""

    number: int
    state: State
    entry: dict[str, Any] | None
    live: bool


@dataclass(frozen=True)
class Correction(Ready):
    """Round ``target`` can be corrected (its number, the state before it, its entry)."""

    target: Round


def last_round(game: Game) -> Round | None:
    return db.session.scalar(_LAST_ROUND, {"game_id": game.id})


def round_count(game: Game) -> int:
    return db.session.scalar(_ROUND_COUNT, {"game_id": game.id}) or 0


def last_round_and_count(game: Game) -> tuple[LastRound | None, int]:
    """The game's last round and its number of rounds (one query)."""
    found = db.session.execute(_LAST_ROUND_AND_COUNT, {"game_id": game.id}).first()
    if found is None:  # the game was deleted meanwhile
        return None, 0
    return last_of(*found)


def last_of(number: int | None, entry: Any, result: Any, count: int) -> tuple[LastRound | None, int]:
    """The last round read as columns (``LAST_ROUND``), and the number of rounds."""
    return (LastRound(number, entry, result) if number is not None else None), count


def names_of(game: Game) -> dict[str, str]:
    """The game's players' names, by id (as text)."""
    return {str(p.id): p.name for p in game.players}


def end_or_reopen(kind: GameKind, game: Game, state: State, number: int) -> None:
    """After a round is saved: the game ends when the engine says so (its winners
    stored with it), and is in progress again when an edit undoes its end."""
    if kind.over(state):
        if game.status is not GameStatus.FINISHED:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
            record(game, "finished", number)
        game.ending = {"winners": kind.winners(state)}
    elif game.status is GameStatus.FINISHED:
        game.status = GameStatus.IN_PROGRESS
        game.finished_at = None
        game.ending = None
        record(game, "reopened", number)


def next_round(
    kind: GameKind,
    game: Game,
    live: Any,
    last_and_count: tuple[LastRound | None, int] | None,
    posted: str | None,
) -> Back | Again | Ready:
    """Whether the next round of ``game`` can be entered (``last_and_count``: its last
    round and number of rounds when already read; ``posted``: the round number a posted
    form carries, None on a GET). A form shown before other rounds were saved (or
    deleted) is the same hand sent again, or a conflict."""
    if game.status is not GameStatus.IN_PROGRESS:
        return Back("refused", kind.no_more_rounds())
    last, count = last_and_count or last_round_and_count(game)
    if count >= MAX_ROUNDS:
        return Back(
            "refused", _("This game has reached %(count)s: start a new one.", count=kind.round_count(MAX_ROUNDS, game))
        )
    number = count + 1
    sent = plain_int(posted, 1, MAX_ROUNDS + 1) if posted is not None else None
    if sent is not None and sent != number:
        return _stale_round(kind, game, number, sent, last)
    if last is not None and kind.pending(last.entry):
        return Back("refused", edit=last.number)
    # The stored state after the last round (stored_state's, already read).
    state = last.result if last is not None and last.result is not None else kind.initial_state(game)
    if kind.over(state):
        return Back("refused", kind.ended_by_rounds())
    # A manche followed live to its end fills the form in (to be checked, then saved); the
    # form posted is built the same way, so that whist's bids and tricks are one step.
    prefill = live.prefill_for(game, number) if live is not None else None
    return Ready(number, state, prefill, prefill is not None)


def add_round(kind: GameKind, game: Game, form: Any, number: int) -> Back | Again:
    """Save round ``number`` as ``form`` (validated) enters it, if the game is still at
    the version the form was shown at."""
    based_on = form.based_on
    start_writing()
    if not claim(game, based_on):
        # The game changed meanwhile (another phone): nothing is written, and what
        # was typed stays in the form, beside what changed, ready to be sent again.
        db.session.rollback()
        if saved_as(game, number, form.entry):
            return already_saved(kind, game, number)
        return _conflict(kind, game, form, number, stored_state(kind, game), based_on)
    result = form.result
    device = current_device()
    # One INSERT, sent now: no object is kept for the round (the redirect reads nothing);
    # when it was played is worked out in it (companion.clock: the evening's clock).
    pending = kind.pending(form.entry)
    db.session.execute(
        _ADD_PENDING_ROUND if pending else _ADD_ROUND,
        {
            "game_id": game.id,
            "number": number,
            "entry": form.entry,
            "result": result,
            "device_id": device.id if device else None,
            "of_game": game.id,
            "round_number": number,
            "based_on": based_on,
            "game_started": game.created_at,
        }
        | ({} if pending else {"now": utcnow()}),
    )
    record(game, "round_added", number)
    end_or_reopen(kind, game, result, number)
    try:
        save(game)
    except sa.exc.IntegrityError:
        db.session.rollback()
        return Back("conflict", _("This hand was already saved from another device; here is the game now."))
    return Back("sent", anchor="totals")


def _stale_round(kind: GameKind, game: Game, number: int, posted: int, last: LastRound | None) -> Back | Again:
    """A round form for round ``posted`` while the next round is ``number``: if round
    ``posted`` was saved with exactly this entry, this is the same submission again (a
    retry, a phone's outbox): nothing more is written. Otherwise it is a conflict."""
    if posted < number:
        mine = kind.round_form(game, stored_state(kind, game, before=posted), posted)
        if mine.validate() and saved_as(game, posted, getattr(mine, "entry", None)):
            return already_saved(kind, game, posted)
    if last is not None and kind.pending(last.entry):
        return Back("conflict", _("The game changed in the meantime: nothing was changed. Here it is now."))
    state = stored_state(kind, game)
    form = kind.round_form(game, state, number)
    # What changed since the form was shown, and at least since round ``posted`` was added.
    added = db.session.scalar(
        sa.select(sa.func.min(GameChange.version)).where(
            GameChange.game_id == game.id, GameChange.kind == "round_added", GameChange.round_number >= posted
        )
    )
    based_on = form.based_on  # type: ignore[attr-defined]
    if added is not None:
        based_on = min(added - 1, based_on if based_on is not None else added - 1)
    return _conflict(kind, game, form, number, state, based_on)


def saved_as(game: Game, number: int, entry: object) -> bool:
    """Whether round ``number`` of ``game`` is saved with exactly ``entry``."""
    saved = db.session.scalar(sa.select(Round.entry).where(Round.game_id == game.id, Round.number == number))
    return saved is not None and saved == entry


def already_saved(kind: GameKind, game: Game, number: int) -> Back:
    """The same round sent again (a double tap, a retry, a phone's outbox): written once."""
    return Back("duplicate", kind.round_done("already_saved", number, game), anchor="totals")


def meanwhile(kind: GameKind, game: Game, based_on: int | None) -> list[dict[str, object]]:
    """What changed in ``game`` since version ``based_on``: each change with its device,
    and for a round that is still there, what it did (the kind's summary). A few queries."""
    query = sa.select(GameChange).where(GameChange.game_id == game.id)
    if based_on is not None:
        query = query.where(GameChange.version > based_on)
    changes = list(db.session.scalars(query.order_by(GameChange.id.desc()).limit(CONFLICT_CHANGES)))
    numbers = {c.round_number for c in changes if c.round_number and c.kind.startswith("round_")}
    results = dict(
        db.session.execute(
            sa.select(Round.number, Round.result).where(
                Round.game_id == game.id, Round.number.in_(numbers | {n - 1 for n in numbers})
            )
        ).all()
    )
    names = names_of(game)
    shown = []
    for change in reversed(changes):
        n = change.round_number
        lines: list[str] = []
        if n in results and change.kind != "round_deleted":
            before = results.get(n - 1) if n > 1 else kind.initial_state(game)
            if before is not None:
                lines = kind.summary(before, results[n], names)
        shown.append(
            {
                "text": change_text(change, kind, game),
                "device": change.device.name if change.device else None,
                "lines": lines,
            }
        )
    return shown


def _conflict(kind: GameKind, game: Game, form: Any, number: int, state: State, based_on: int | None) -> Again:
    """The round form as it was sent, beside what changed in the game since the form was
    shown: both versions, nothing thrown away. The form now names the next round and the
    game's version, so that sending it again saves it as the next round."""
    form.round.data = str(number)
    form.version.data = str(game.version)
    form.round.errors = [
        _(
            "Nothing was saved: the game changed on another device first. Save your version as %(the_round)s, "
            "or keep what was saved.",
            the_round=kind.the_round(number, game),
        )
    ]
    return Again("conflict", form, number, state, meanwhile(kind, game, based_on))


def correction(kind: GameKind, game: Game, number: int) -> Back | Correction:
    """Whether round ``number`` of ``game`` can be corrected, and from what: the state
    before it, its entry (or the one whist's second step followed live to its end)."""
    target = db.session.scalar(sa.select(Round).where(Round.game_id == game.id, Round.number == number))
    if target is None:
        return Back("refused", _("There is no %(the_round)s to correct.", the_round=kind.the_round(number, game)))
    if game.status is not GameStatus.IN_PROGRESS:
        return Back("refused", kind.closed_to_corrections())
    state = stored_state(kind, game, before=number)
    # Whist's second step followed live to its end: its bids and tricks fill the form in.
    live = read_live(game) if kind.pending(target.entry) else None
    prefill = live.prefill_for(game, number) if live is not None else None
    return Correction(number, state, prefill or target.entry, prefill is not None, target)


def correct(kind: GameKind, game: Game, target: Round, form: Any, state: State) -> Back | Again:
    """Save ``target`` as ``form`` (validated) corrects it, from ``state`` (before it):
    the engine rescores it and every round after it. If a later round no longer fits
    the new history, nothing changes and the form says which."""
    number = target.number
    later = list(
        db.session.scalars(
            sa.select(Round).where(Round.game_id == game.id, Round.number > number).order_by(Round.number)
        )
    )
    final_before = later[-1].result if later else target.result
    results = [form.result]
    for rnd in later:
        try:
            results.append(kind.score(game, results[-1], rnd.entry))
        except RulesError as e:
            form.round.errors = [
                _(
                    "%(round)s no longer fits this correction: %(reason)s Nothing was changed.",
                    round=kind.round_name(rnd.number, game),
                    reason=e.text.get(current_lang()),
                )
            ]
            return Again("refused", form, number, state)
    based_on = form.based_on
    if not claim(game, based_on):
        # Another phone changed the game since this form was shown: nothing is
        # written. The same correction sent again (a retry, a phone's outbox) is
        # recognised; another is shown with what changed, based on the current game.
        db.session.rollback()
        if target.entry == form.entry:
            return Back("duplicate", kind.round_done("already_saved", number, game))
        form.round.errors = [_("The game changed in the meantime: nothing was changed. Here it is now.")]
        form.version.data = str(game.version)
        before = stored_state(kind, game, before=number)
        return Again("conflict", form, number, before, meanwhile(kind, game, based_on))
    previous = {"entry": target.entry, "result": target.result}
    second_step = kind.pending(target.entry)
    target.entry = form.entry
    if second_step and not kind.pending(form.entry):
        # The round ends now (at its live manche's last move, when it was followed to its
        # end), in the UPDATE that saves it; a correction keeps when it was played.
        target.ended_at = _ENDED.params(of_game=game.id, round_number=number, based_on=based_on, now=utcnow())
    for rnd, result in zip([target, *later], results, strict=True):
        rnd.result = result
    record(game, "round_completed" if second_step else "round_edited", number, previous)
    end_or_reopen(kind, game, results[-1], (later[-1] if later else target).number)
    save(game)
    if second_step:  # the second step of a round entered in two (whist's tricks), not a correction
        return Back("sent", kind.round_done("entered", number, game) + ".", anchor="totals")
    changed = kind.summary(final_before, results[-1], names_of(game))
    return Back(
        "sent", kind.round_done("corrected", number, game) + "." + (" " + " · ".join(changed) if changed else "")
    )


def not_done(game: Game, based_on: int | None, *asked: tuple[str, int | None]) -> str:
    """What became of a delete, an undo or a status change that changed nothing (called
    after the rollback), for the phone's outbox (``companion.writes.tell_outbox``):
    ``duplicate`` when the change it asked for — ``asked``, as the history records it
    (its kind and round number) — is the very one that moved the game on from the version
    the form was shown at (the outbox sent it again after its answer was lost, or another
    phone did the same at the same moment: done, once); ``conflict`` when something else
    came first; ``refused`` when the game is where the form left it (no version, or
    nothing to do)."""
    word = "refused"
    if based_on is not None and game.version != based_on:
        made = db.session.execute(
            sa.select(GameChange.kind, GameChange.round_number).where(
                GameChange.game_id == game.id, GameChange.version == based_on + 1
            )
        )
        word = "duplicate" if {tuple(row) for row in made} == set(asked) else "conflict"
    return word


def delete_round(kind: GameKind, game: Game, number: int, last: Round | None, based_on: int | None) -> Back:
    """Take back round ``number`` — ``last``: the game's last round when it is that one
    and the game is not abandoned, else None — if the game is still at ``based_on``,
    reopening the game; ``undo`` names the change."""
    if last is None or not claim(game, based_on):
        db.session.rollback()
        word = not_done(game, based_on, ("round_deleted", number))
        if word == "duplicate":
            return Back(word, kind.round_done("deleted", number, game) + ".")
        return Back(word, kind.round_done("not_deleted", number, game))
    kept = {
        "entry": last.entry,
        "result": last.result,
        "device_id": last.device_id,
        "status": game.status.value,
        # When it was played, which an undo gives back with it.
        "started_at": _stored_time(last.started_at),
        "ended_at": _stored_time(last.ended_at),
    }
    db.session.delete(last)
    game.status = GameStatus.IN_PROGRESS
    game.finished_at = None
    game.ending = None
    change_id = record(game, "round_deleted", number, kept)
    save(game)
    return Back(None, undo=change_id)


def abandon(game: Game, based_on: int | None) -> Back:
    """Stop a game in progress without a winner, if it is still at ``based_on``;
    ``undo`` names the change."""
    if game.status is GameStatus.IN_PROGRESS and claim(game, based_on):
        game.status = GameStatus.ABANDONED
        change_id = record(game, "abandoned")
        save(game)
        return Back(None, undo=change_id)
    db.session.rollback()
    word = not_done(game, based_on, ("abandoned", None))
    if word == "duplicate":
        return Back(word, _("Game abandoned."))
    return Back(word, _("The game was not abandoned: it changed in the meantime. Nothing was changed."))


def finish(kind: GameKind, game: Game, based_on: int | None) -> Back:
    """Finish a game in progress early, if it is still at ``based_on``: the players
    leading now win."""
    if game.status is GameStatus.IN_PROGRESS and claim(game, based_on):
        game.status = GameStatus.FINISHED
        game.finished_at = utcnow()
        game.ending = {"winners": kind.leaders(stored_state(kind, game)), "early": True}
        record(game, "finished")
        save(game)
        return Back(None, _("Game finished."))
    db.session.rollback()
    word = not_done(game, based_on, ("finished", None))
    if word == "duplicate":
        return Back(word, _("Game finished."))
    return Back(word, _("The game was not finished: it changed in the meantime. Nothing was changed."))


def reopen(game: Game, based_on: int | None) -> Back:
    """Reopen a finished or abandoned game, if it is still at ``based_on``."""
    if game.status is not GameStatus.IN_PROGRESS and claim(game, based_on):
        _reopen(game)
        save(game)
        return Back(None, _("Game reopened."))
    db.session.rollback()
    word = not_done(game, based_on, ("reopened", None))
    if word == "duplicate":
        return Back(word, _("Game reopened."))
    return Back(word, _("The game was not reopened: it changed in the meantime. Nothing was changed."))


def _reopen(game: Game) -> None:
    game.status = GameStatus.IN_PROGRESS
    game.finished_at = None
    game.ending = None
    record(game, "reopened")


def own_device(group: Group, kept: object) -> int | None:
    """The device a deleted round was entered from, when it is still one of ``group``'s:
    a history stored before imports were checked may name anything (another group's
    device, a text, a number no column holds), which a restored round does not keep."""
    if type(kept) is not int or not 0 < kept < 2**31:
        return None
    return db.session.scalar(sa.select(Device.id).where(Device.id == kept, Device.group_id == group.id))


def _stored_time(moment: datetime | None) -> str | None:
    """A round's time as a deleted round's history keeps it (ISO 8601, UTC)."""
    return None if moment is None else aware(moment).isoformat()


def _time_kept(kept: object) -> datetime | None:
    """A time a deleted round's history kept, read back (None: not kept, as in a history
    written before rounds said when they were played, or not a time).

    >>> _time_kept("2026-03-06T21:04:00+00:00").isoformat(), _time_kept(None), _time_kept("soon")
    ('2026-03-06T21:04:00+00:00', None, None)
    """
    if not isinstance(kept, str) or len(kept) > 40:
        return None
    try:
        return aware(datetime.fromisoformat(kept))
    except ValueError:
        return None


def undo(group: Group, game: Game, change_id: int, based_on: int | None) -> Back:
    """Undo a deletion or an abandon, for a few minutes and only if nothing changed since."""
    change = db.session.scalar(sa.select(GameChange).where(GameChange.id == change_id, GameChange.game_id == game.id))
    undoable = (
        change is not None
        and change.kind in ("round_deleted", "abandoned")
        and change.version == game.version
        and within_reach(change.at)
        and claim(game, based_on)
    )
    if not undoable or change is None:
        db.session.rollback()
        word = "refused"
        if change is not None and change.kind == "abandoned":
            word = not_done(game, based_on, ("reopened", None))
            if word == "duplicate":
                return Back(word, _("Game reopened."))
        elif change is not None:
            word = not_done(game, based_on, ("round_restored", change.round_number))
            if word == "duplicate":
                return Back(word, kind_for(game.kind).round_done("back", change.round_number or 0, game))
        return Back(word, _("This can no longer be undone: the game changed since, or too much time went by."))
    if change.kind == "abandoned":
        _reopen(game)
        message = _("Game reopened.")
    else:
        kept = change.data or {}
        number = change.round_number or round_count(game) + 1
        db.session.add(
            Round(
                game=game,
                number=number,
                entry=kept["entry"],
                result=kept["result"],
                device_id=own_device(group, kept.get("device_id")),
                started_at=_time_kept(kept.get("started_at")),
                ended_at=_time_kept(kept.get("ended_at")),
            )
        )
        if kept.get("status") == GameStatus.FINISHED.value:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
            game.ending = {"winners": kind_for(game.kind).winners(kept["result"])}
        record(game, "round_restored", number)
        message = kind_for(game.kind).round_done("back", number, game)
    save(game)
    return Back(None, message)
