"""Game pages, shared by every kind of game: start a game, enter and edit rounds,
follow the scores. Nothing here knows a kind: it asks the registry
(``companion.games.kinds``), and the kind asks the engine."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple

import sqlalchemy as sa
from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from companion.clock import current_zone
from companion.extensions import db
from companion.forms import plain_int
from companion.games import bp
from companion.games.forms import MAX_ROUNDS
from companion.games.history import change_text, recent, record
from companion.games.kinds import KINDS, kind_for
from companion.games.kinds.base import GameKind, State
from companion.games.saving import refresh, save
from companion.games.state import read_live, stored_state
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.membership.access import (
    LAST_ROUND,
    LAST_ROUND_JOIN,
    current_device,
    game_shown,
    game_version,
    group_and_game,
    group_for,
    group_game_and_live,
    group_game_live_and_last,
)
from companion.models import (
    Device,
    Game,
    GameChange,
    GamePlayer,
    GameShown,
    GameStatus,
    Group,
    GroupShown,
    Round,
    utcnow,
)
from companion.pagecache import Entry, Fragments, device_names, page_cache, same_devices
from companion.rules.i18n import RulesError
from companion.undo import confirmation_page, confirmed, offer, within_reach
from companion.watch import answer as watch_answer
from companion.watch import game_token
from companion.writes import claim, commit_once, done_before, outcome, read_first, remember, start_writing

#: Rounds shown at once on a game page, most recent first; older ones on demand.
ROUNDS_PER_PAGE = 20
#: Changes shown in a game's history (most recent first).
HISTORY_SHOWN = 30


# The queries every game page runs, built once (with parameters): SQLAlchemy then
# neither builds nor keys a statement at each request.
_LAST_ROUND = sa.select(Round).where(Round.game_id == sa.bindparam("game_id")).order_by(Round.number.desc()).limit(1)
_ROUND_COUNT = sa.select(sa.func.count(Round.id)).where(Round.game_id == sa.bindparam("game_id"))
#: A game's last round (its number, entry and result: no object, no device) and its
#: number of rounds: the round form's second query.
_LAST_ROUND_AND_COUNT = (
    sa.select(*LAST_ROUND).select_from(Game).outerjoin(*LAST_ROUND_JOIN).where(Game.id == sa.bindparam("game_id"))
)
#: A round saved (its time: the table's default).
_ADD_ROUND = sa.insert(Round.__table__)


def _last_round(game: Game) -> Round | None:
    return db.session.scalar(_LAST_ROUND, {"game_id": game.id})


def _round_count(game: Game) -> int:
    return db.session.scalar(_ROUND_COUNT, {"game_id": game.id}) or 0


class LastRound(NamedTuple):
    """What the round form reads of a game's last round."""

    number: int
    entry: dict[str, Any]
    result: State | None


def _last_round_and_count(game: Game) -> tuple[LastRound | None, int]:
    """The game's last round and its number of rounds (one query)."""
    found = db.session.execute(_LAST_ROUND_AND_COUNT, {"game_id": game.id}).first()
    if found is None:  # the game was deleted meanwhile
        return None, 0
    return _last_of(*found)


def _last_of(number: int | None, entry: Any, result: Any, count: int) -> tuple[LastRound | None, int]:
    """The last round read as columns (``LAST_ROUND``), and the number of rounds."""
    return (LastRound(number, entry, result) if number is not None else None), count


def _stamp(game: Game | GameShown) -> tuple[int, tuple[tuple[str, str], ...], str]:
    """What a kept page of ``game`` was drawn from: its version and its players' names
    in seat order, read as objects or as plain columns (``GameShown``) alike, and its
    group's clock (read with the game: the times its history shows)."""
    names = game.names if isinstance(game, GameShown) else tuple(_names(game).items())
    return game.version, names, current_zone()


def _names(game: Game) -> dict[str, str]:
    return {str(p.id): p.name for p in game.players}


def _end_or_reopen(kind: GameKind, game: Game, state: State, number: int) -> None:
    """After a round is saved: the game ends when the engine says so (its winners
    stored with it), and is in progress again when an edit undoes its end."""
    if kind.over(state):
        if game.status is not GameStatus.FINISHED:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
            record(game, "finished", number)
        game.outcome = {"winners": kind.winners(state)}
    elif game.status is GameStatus.FINISHED:
        game.status = GameStatus.IN_PROGRESS
        game.finished_at = None
        game.outcome = None
        record(game, "reopened", number)


@bp.get("/g/<code>/games/new")
def choose_kind(code: str) -> str:
    """Which game to start."""
    group = group_for(code)
    return render_template("games/choose.html", group=group, kinds=KINDS.values())


@bp.route("/g/<code>/games/new/<kind_id>", methods=["GET", "POST"])
def new_game(code: str, kind_id: str) -> ResponseReturnValue:
    """Start a game of any kind: players in seat order and house rules (sent twice, started once)."""
    group = group_for(code)
    kind = kind_for(kind_id)
    season = group.current_season
    form = kind.setup_form(group, group.players)
    earlier = form.is_submitted() and done_before(form.once.data)
    if earlier:
        return redirect(earlier)
    if season is not None and form.validate_on_submit():
        token = form.once.data
        game = Game(
            season=season,
            kind=kind.id,
            rules=form.rules,  # type: ignore[attr-defined]
            setup=form.setup,  # type: ignore[attr-defined]
            status=GameStatus.IN_PROGRESS,
        )
        game.seats = [GamePlayer(seat=i, player=p) for i, p in enumerate(form.chosen)]  # type: ignore[attr-defined]
        db.session.add(game)
        db.session.flush()
        refresh([game.id])  # its stored results, before the token (a twin collides at commit)
        url = url_for("games.show", code=group.code, game_id=game.id)
        remember(token, url)
        earlier = commit_once(token)
        return redirect(earlier or url)
    return render_template(kind.new_template, group=group, season=season, form=form, kind=kind)


@bp.get("/g/<code>/games/<int:game_id>")
def show(code: str, game_id: int) -> str:
    """The game as stored: the state after its last round, its rounds most recent
    first (older ones on demand), its history. The engine does not run here.

    What it shows of the game is kept (``companion.pagecache``) per game version,
    language and page of rounds, with the players' names: the next phone to open the
    same version reads one query (the game and its players as plain columns, the device,
    and whether the devices it names still bear those names) and writes out the kept
    parts."""

    wanted = plain_int(request.args.get("upto", ""), 1, MAX_ROUNDS)
    key = ("game", game_id, current_lang(), wanted, request.script_root)
    cache = page_cache()
    peeked = cache.peek(key)
    if peeked is not None:
        kept = _kept_game_page(code, game_id, key, peeked)
        if kept is not None:
            return kept
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    names = _names(game)
    stamp = _stamp(game)
    page = _game_page(group, game, kind)
    count = _round_count(game)
    upto = wanted if wanted is not None and wanted <= count else count
    shown = list(
        db.session.scalars(
            sa.select(Round)
            .where(Round.game_id == game.id, Round.number <= upto, Round.number > upto - ROUNDS_PER_PAGE)
            .order_by(Round.number.desc())
        )
    )
    state = stored_state(kind, game)
    changes = recent(game, HISTORY_SHOWN)
    keep = Fragments()
    html = render_template(
        kind.game_template,
        keep=keep,
        state=state,
        names=names,
        rounds=shown,
        round_count=count,
        pending=bool(shown) and shown[0].number == count and kind.pending(shown[0].entry),
        older=shown[-1].number - 1 if shown and shown[-1].number > 1 else None,
        newer=min(upto + ROUNDS_PER_PAGE, count) if upto < count else None,
        changes=changes,
        change_text=lambda change: change_text(change, kind, game),
        **kind.page_context(game, state, names),
        **page,
    )
    devices = device_names([rnd.device for rnd in shown] + [change.device for change in changes])
    cache.put(key, Entry(stamp, keep.made, devices, {"round_count": count}))
    return html


def _game_page(group: Group | GroupShown, game: Game | GameShown, kind: GameKind) -> dict[str, Any]:
    """What a game page shows outside its kept parts: the game, its group, the watch."""
    return {
        "group": group,
        "game": game,
        "kind": kind,
        "wake": True,
        "watch_url": url_for("watch.game", code=group.code, game_id=game.id),
        "watch_token": game_token(game.version),
    }


def _kept_game_page(code: str, game_id: int, key: Hashable, peeked: Entry) -> str | None:
    """The game page as kept under ``key`` (``peeked``: the entry found there), written
    out again from the game read as plain columns, with whether the devices the entry
    names still bear those names, in one query; None when it no longer stands (another
    version, other names) or the game is not to be found here (the full path answers)."""
    game = game_shown(code, game_id, peeked.devices)
    if game is None:
        return None
    entry = page_cache().get(key, _stamp(game))
    if entry is None:
        return None
    if entry.devices and not (game.named == len(entry.devices) if entry is peeked else same_devices(entry.devices)):
        return None  # a device renamed since
    kind = kind_for(game.kind)
    return render_template(
        kind.game_template, keep=Fragments(entry), **entry.extra, **_game_page(game.group, game, kind)
    )


def _round_page(
    kind: GameKind,
    group: Group,
    game: Game,
    form: object,
    number: int,
    state: State,
    keep: Fragments | None = None,
    **extra: object,
) -> str:
    based_on = getattr(form, "based_on", None)
    return render_template(
        kind.round_template,
        keep=keep or Fragments(),
        wake=True,
        changed=extra.get("changed"),
        **_form_watch(group, game, based_on if based_on is not None else game.version),
        group=group,
        game=game,
        kind=kind,
        form=form,
        number=number,
        state=state,
        names=_names(game),
        **kind.page_context(game, state, _names(game)),
    )


def _form_watch(group: Group | GroupShown, game: Game | GameShown, version: int) -> dict[str, Any]:
    """A round or correction form is watched (``companion.watch``) at the version it was
    shown at — the one its hidden ``version`` carries: once the game moves on (another
    phone saved this round, or changed the game), ``static/watch.js`` tells what changed
    since (:func:`form_watch`) and never replaces the form (``watch_form``)."""
    return {
        "watch_url": url_for("games.form_watch", code=group.code, game_id=game.id, since=version),
        "watch_token": game_token(version),
        "watch_form": True,
    }


@bp.get("/g/<code>/games/<int:game_id>/changes")
def form_watch(code: str, game_id: int) -> Response:
    """The watch endpoint of a round or correction form shown at version ``?since=``
    (polled by ``static/watch.js``, as the game page's ``watch.game``; 304 while the
    game is still at that version).  Once it moved, the answer also carries ``notice``:
    what changed since, the conflict page's list (:func:`meanwhile`) drawn by
    ``games/_form_notice.html`` in this request's language and the group's clock; the
    script adds it above the form, never replacing it.  A 304 is one query; a notice
    a few more, however long the game."""
    version = game_version(code, game_id)
    token = game_token(version)
    since = plain_int(request.args.get("since", ""), 0, 10**9)
    if since is None or since == version or request.if_none_match.contains(token):
        return watch_answer(token)
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    notice = render_template("games/_form_notice.html", changed=meanwhile(kind, game, since), group=group, game=game)
    return watch_answer(token, notice=notice)


def _round_form_kept(game: Game | GameShown) -> tuple[Hashable, Hashable]:
    """The page cache's key and stamp of the empty form of the game's next round (what
    a GET of the round page shows but the CSRF token): the game (its id and creation,
    never reused together), the language and the app root; the game's version and its
    players' names, which are all it is drawn from besides the game's fixed rules. The
    version also stands for its rounds: their number and the state they left."""
    key = ("round form", game.id, game.created_at, current_lang(), request.script_root)
    return key, _stamp(game)


def _kept_round_form(code: str, game_id: int) -> str | None:
    """The next round's empty form as kept for this version of the game, written out
    again (None when none is kept, or when a live manche has filled it in since, or
    when the game is not to be found here: the full path answers then).

    Kept only when this version of the game could take a round — in progress, its last
    round complete, not ended by its rounds, under the most rounds — so a kept form at
    the same version needs no round read: only the live manche, which is no part of the
    version, is asked (in the game's own query, of plain columns: no object is built)."""
    game = game_shown(code, game_id)
    if game is None or game.status is not GameStatus.IN_PROGRESS:
        return None
    key, stamp = _round_form_kept(game)
    entry = page_cache().get(key, stamp)
    if entry is None:
        return None
    number = int(entry.extra["number"])
    if game.live is not None and game.live.filling(game, number) is not None:
        return None
    outcome("refused")  # as on the full path: nothing is saved by a GET
    kind = kind_for(game.kind)
    return render_template(
        kind.round_template,
        keep=Fragments(entry),
        wake=True,
        group=game.group,
        game=game,
        kind=kind,
        number=number,
        **_form_watch(game.group, game, game.version),
    )


@bp.route("/g/<code>/games/<int:game_id>/rounds/new", methods=["GET", "POST"])
def new_round(code: str, game_id: int) -> ResponseReturnValue:
    """Enter the next round. The form carries its number and the game's version: sent
    twice, or from two phones, it is saved once, and the other submission is told so."""
    last_and_count = None
    if request.method == "POST":
        read_first()  # the writers' turn is taken for the writes only (claim checks the version)
        group, game, live, columns = group_game_live_and_last(code, game_id)
        last_and_count = _last_of(*columns)
    else:
        page = _kept_round_form(code, game_id)
        if page is not None:
            return page
        group, game, live = group_game_and_live(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    outcome("refused")  # unless it is saved below
    if game.status is not GameStatus.IN_PROGRESS:
        flash(kind.no_more_rounds())
        return redirect(game_url)
    last, count = last_and_count or _last_round_and_count(game)
    if count >= MAX_ROUNDS:
        flash(_("This game has reached %(count)s: start a new one.", count=kind.round_count(MAX_ROUNDS, game)))
        return redirect(game_url)
    number = count + 1
    posted = plain_int(request.form.get("round", ""), 1, MAX_ROUNDS + 1) if request.method == "POST" else None
    if posted is not None and posted != number:
        # A form shown before other rounds were saved (or deleted): the same hand sent
        # again is recognised; another one is shown beside what was saved meanwhile.
        return _stale_round(kind, group, game, number, posted, last)
    if last is not None and kind.pending(last.entry):
        return redirect(url_for("games.edit_round", code=group.code, game_id=game.id, number=last.number))
    # The stored state after the last round (stored_state's, already read).
    state = last.result if last is not None and last.result is not None else kind.initial_state(game)
    if kind.over(state):
        flash(kind.ended_by_rounds())
        return redirect(game_url)
    # A manche followed live to its end fills the form in (to be checked, then saved); the
    # form posted is built the same way, so that whist's bids and tricks are one step.
    live_entry = live.filling(game, number) if live is not None else None
    # The empty form of this version is kept (companion.pagecache; _kept_round_form
    # writes it out again); one filled in from the live play-by-play is built every time.
    kept_form = request.method == "GET" and live_entry is None
    form = kind.round_form(game, state, number, live_entry)
    if live_entry is not None and request.method == "GET":
        flash(_("Filled in from the live play-by-play: check it, then save."))
    if form.validate_on_submit():
        based_on = form.based_on  # type: ignore[attr-defined]
        start_writing()
        if not claim(game, based_on):
            # The game changed meanwhile (another phone): nothing is written, and what
            # was typed stays in the form, beside what changed, ready to be sent again.
            db.session.rollback()
            if _saved_as(game, number, form.entry):  # type: ignore[attr-defined]
                return _already_saved(kind, group, game, number)
            return _conflict(kind, group, game, form, number, stored_state(kind, game), based_on)
        result = form.result  # type: ignore[attr-defined]
        device = current_device()
        # One INSERT, sent now: no object is kept for the round (the redirect reads nothing).
        db.session.execute(
            _ADD_ROUND,
            {
                "game_id": game.id,
                "number": number,
                "entry": form.entry,  # type: ignore[attr-defined]
                "result": result,
                "device_id": device.id if device else None,
            },
        )
        record(game, "round_added", number)
        _end_or_reopen(kind, game, result, number)
        try:
            save(game)
        except sa.exc.IntegrityError:
            db.session.rollback()
            outcome("conflict")
            flash(_("This hand was already saved from another device; here is the game now."))
            return redirect(game_url)
        outcome("sent")
        return redirect(url_for("games.show", code=group.code, game_id=game.id, _anchor="totals"))
    if kept_form:
        keep = Fragments()
        page = _round_page(kind, group, game, form, number, state, keep)
        key, stamp = _round_form_kept(game)
        page_cache().put(key, Entry(stamp, keep.made, extra={"number": number}))
        return page
    return _round_page(kind, group, game, form, number, state)


def _stale_round(
    kind: GameKind, group: Group, game: Game, number: int, posted: int, last: LastRound | None
) -> ResponseReturnValue:
    """A round form for round ``posted`` while the next round is ``number``: if round
    ``posted`` was saved with exactly this entry, this is the same submission again (a
    retry, a phone's outbox): nothing more is written. Otherwise it is a conflict."""
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    if posted < number:
        mine = kind.round_form(game, stored_state(kind, game, before=posted), posted)
        if mine.validate() and _saved_as(game, posted, getattr(mine, "entry", None)):
            return _already_saved(kind, group, game, posted)
    outcome("conflict")
    if last is not None and kind.pending(last.entry):
        flash(_("The game changed in the meantime: nothing was changed. Here it is now."))
        return redirect(game_url)
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
    return _conflict(kind, group, game, form, number, state, based_on)


def _saved_as(game: Game, number: int, entry: object) -> bool:
    """Whether round ``number`` of ``game`` is saved with exactly ``entry``."""
    saved = db.session.scalar(sa.select(Round.entry).where(Round.game_id == game.id, Round.number == number))
    return saved is not None and saved == entry


def _already_saved(kind: GameKind, group: Group, game: Game, number: int) -> Response:
    """The same round sent again (a double tap, a retry, a phone's outbox): written once."""
    outcome("duplicate")
    flash(kind.round_done("already_saved", number, game))
    return redirect(url_for("games.show", code=group.code, game_id=game.id, _anchor="totals"))


#: The changes listed on a conflict page, at most.
CONFLICT_CHANGES = 8


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
    names = _names(game)
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


def _conflict(
    kind: GameKind, group: Group, game: Game, form: object, number: int, state: State, based_on: int | None
) -> tuple[str, int]:
    """The round form as it was sent, beside what changed in the game since the form was
    shown: both versions, nothing thrown away. The form now names the next round and the
    game's version, so that sending it again saves it as the next round."""
    outcome("conflict")
    form.round.data = str(number)  # type: ignore[attr-defined]
    form.version.data = str(game.version)  # type: ignore[attr-defined]
    form.round.errors = [  # type: ignore[attr-defined]
        _(
            "Nothing was saved: the game changed on another device first. Save your version as %(the_round)s, "
            "or keep what was saved.",
            the_round=kind.the_round(number, game),
        )
    ]
    page = _round_page(kind, group, game, form, number, state, changed=meanwhile(kind, game, based_on))
    return page, 409


@bp.route("/g/<code>/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(code: str, game_id: int, number: int) -> ResponseReturnValue:
    """Correct round ``number``: the engine rescores it and every round after it. If a
    later round no longer fits the new history, nothing changes and the page says which."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    target = db.session.scalar(sa.select(Round).where(Round.game_id == game.id, Round.number == number))
    outcome("refused")  # unless it is saved below
    if target is None:
        flash(_("There is no %(the_round)s to correct.", the_round=kind.the_round(number, game)))
        return redirect(game_url)
    if game.status is not GameStatus.IN_PROGRESS:
        flash(kind.closed_to_corrections())
        return redirect(game_url)
    state = stored_state(kind, game, before=number)
    # Whist's second step followed live to its end: its bids and tricks fill the form in.
    live = read_live(game) if kind.pending(target.entry) else None
    live_entry = live.filling(game, number) if live is not None else None
    form = kind.round_form(game, state, number, live_entry or target.entry)
    if live_entry is not None and request.method == "GET":
        flash(_("Filled in from the live play-by-play: check it, then save."))
    if form.validate_on_submit():
        later = list(
            db.session.scalars(
                sa.select(Round).where(Round.game_id == game.id, Round.number > number).order_by(Round.number)
            )
        )
        final_before = later[-1].result if later else target.result
        results = [form.result]  # type: ignore[attr-defined]
        for rnd in later:
            try:
                results.append(kind.score(game, results[-1], rnd.entry))
            except RulesError as e:
                form.round.errors = [  # type: ignore[attr-defined]
                    _(
                        "%(round)s no longer fits this correction: %(reason)s Nothing was changed.",
                        round=kind.round_name(rnd.number, game),
                        reason=e.text.get(current_lang()),
                    )
                ]
                return _round_page(kind, group, game, form, number, state)
        based_on = form.based_on  # type: ignore[attr-defined]
        if not claim(game, based_on):
            # Another phone changed the game since this form was shown: nothing is
            # written. The same correction sent again (a retry, a phone's outbox) is
            # recognised; another is shown with what changed, based on the current game.
            db.session.rollback()
            if target.entry == form.entry:  # type: ignore[attr-defined]
                outcome("duplicate")
                flash(kind.round_done("already_saved", number, game))
                return redirect(game_url)
            outcome("conflict")
            form.round.errors = [_("The game changed in the meantime: nothing was changed. Here it is now.")]  # type: ignore[attr-defined]
            form.version.data = str(game.version)  # type: ignore[attr-defined]
            page = _round_page(
                kind,
                group,
                game,
                form,
                number,
                stored_state(kind, game, before=number),
                changed=meanwhile(kind, game, based_on),
            )
            return page, 409
        previous = {"entry": target.entry, "result": target.result}
        second_step = kind.pending(target.entry)
        target.entry = form.entry  # type: ignore[attr-defined]
        for rnd, result in zip([target, *later], results, strict=True):
            rnd.result = result
        record(game, "round_completed" if second_step else "round_edited", number, previous)
        _end_or_reopen(kind, game, results[-1], (later[-1] if later else target).number)
        save(game)
        outcome("sent")
        if second_step:  # the second step of a round entered in two (whist's tricks), not a correction
            flash(kind.round_done("entered", number, game) + ".")
            return redirect(url_for("games.show", code=group.code, game_id=game.id, _anchor="totals"))
        changed = kind.summary(final_before, results[-1], _names(game))
        flash(kind.round_done("corrected", number, game) + "." + (" " + " · ".join(changed) if changed else ""))
        return redirect(game_url)
    return _round_page(kind, group, game, form, number, state)


def _based_on() -> int | None:
    """The game version a posted form was shown at (None when missing or malformed)."""
    return plain_int(request.form.get("version", ""), 0, 10**9)


def _not_done(game: Game, based_on: int | None, *asked: tuple[str, int | None]) -> str:
    """What became of a delete, an undo or a status change that changed nothing (called
    after the rollback), said to the phone's outbox (:func:`outcome`) and returned:
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
    outcome(word)
    return word


@bp.post("/g/<code>/games/<int:game_id>/rounds/<int:number>/delete")
def delete_round(code: str, game_id: int, number: int) -> ResponseReturnValue:
    """Take back round ``number`` — only while it is the last one and the game is still
    at the version the page showed — reopening the game.  A repeat or a stale
    request changes nothing and says so.  Asked once; can be undone for a while."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    last = _last_round(game)
    fits = last is not None and last.number == number and game.status is not GameStatus.ABANDONED
    if fits and not confirmed():
        return confirmation_page(
            _("Delete %(the_round)s?", the_round=kind.the_round(number, game)),
            _(
                "%(round)s and its scores will be removed. You can undo it for a few minutes.",
                round=kind.round_name(number, game),
            ),
            _("Delete %(the_round)s", the_round=kind.the_round(number, game)),
            game_url,
            group=group,
        )
    if not fits or last is None or not claim(game, _based_on()):
        db.session.rollback()
        if _not_done(game, _based_on(), ("round_deleted", number)) == "duplicate":
            flash(kind.round_done("deleted", number, game) + ".")
        else:
            flash(kind.round_done("not_deleted", number, game))
        return redirect(game_url)
    kept = {
        "entry": last.entry,
        "result": last.result,
        "device_id": last.device_id,
        "status": game.status.value,
    }
    db.session.delete(last)
    game.status = GameStatus.IN_PROGRESS
    game.finished_at = None
    game.outcome = None
    change_id = record(game, "round_deleted", number, kept)
    save(game)
    offer(
        kind.round_done("deleted", number, game) + ".",
        url_for("games.undo", code=group.code, game_id=game.id, change_id=change_id),
        version=game.version,
        outbox=_("Undo") + " · " + kind.round_done("deleted", number, game),  # how the outbox names it
    )
    return redirect(game_url)


@bp.post("/g/<code>/games/<int:game_id>/abandon")
def abandon(code: str, game_id: int) -> ResponseReturnValue:
    """Stop a game without a winner (it stays in the history; it can be reopened)."""
    group, game = group_and_game(code, game_id)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    if game.status is GameStatus.IN_PROGRESS and not confirmed():
        return confirmation_page(
            _("Abandon the game?"),
            _("The game stays in the history, without a winner, and counts in no standings."),
            _("Abandon the game"),
            game_url,
            group=group,
        )
    if game.status is GameStatus.IN_PROGRESS and claim(game, _based_on()):
        game.status = GameStatus.ABANDONED
        change_id = record(game, "abandoned")
        save(game)
        offer(
            _("Game abandoned."),
            url_for("games.undo", code=group.code, game_id=game.id, change_id=change_id),
            version=game.version,
            outbox=_("Undo") + " · " + _("Game abandoned"),  # how the outbox names it
        )
    else:
        db.session.rollback()
        if _not_done(game, _based_on(), ("abandoned", None)) == "duplicate":
            flash(_("Game abandoned."))
        else:
            flash(_("The game was not abandoned: it changed in the meantime. Nothing was changed."))
    return redirect(game_url)


@bp.post("/g/<code>/games/<int:game_id>/finish")
def finish(code: str, game_id: int) -> ResponseReturnValue:
    """Finish a game early: the players leading now win (asked once; it can be reopened)."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    if game.status is GameStatus.IN_PROGRESS and not confirmed():
        return confirmation_page(
            _("Finish the game now?"),
            _("Whoever leads now wins. The game can be reopened."),
            _("Finish the game"),
            game_url,
            group=group,
        )
    if game.status is GameStatus.IN_PROGRESS and claim(game, _based_on()):
        game.status = GameStatus.FINISHED
        game.finished_at = utcnow()
        game.outcome = {"winners": kind.leaders(stored_state(kind, game)), "early": True}
        record(game, "finished")
        save(game)
        flash(_("Game finished."))
    else:
        db.session.rollback()
        if _not_done(game, _based_on(), ("finished", None)) == "duplicate":
            flash(_("Game finished."))
        else:
            flash(_("The game was not finished: it changed in the meantime. Nothing was changed."))
    return redirect(game_url)


@bp.post("/g/<code>/games/<int:game_id>/reopen")
def reopen(code: str, game_id: int) -> Response:
    """Reopen a finished or abandoned game (a finished game is read-only until then)."""
    group, game = group_and_game(code, game_id)
    if game.status is not GameStatus.IN_PROGRESS and claim(game, _based_on()):
        _reopen(game)
        save(game)
        flash(_("Game reopened."))
    else:
        db.session.rollback()
        if _not_done(game, _based_on(), ("reopened", None)) == "duplicate":
            flash(_("Game reopened."))
        else:
            flash(_("The game was not reopened: it changed in the meantime. Nothing was changed."))
    return redirect(url_for("games.show", code=group.code, game_id=game.id))


def _reopen(game: Game) -> None:
    game.status = GameStatus.IN_PROGRESS
    game.finished_at = None
    game.outcome = None
    record(game, "reopened")


def _own_device(group: Group, kept: object) -> int | None:
    """The device a deleted round was entered from, when it is still one of ``group``'s:
    a history stored before imports were checked may name anything (another group's
    device, a text, a number no column holds), which a restored round does not keep."""
    if type(kept) is not int or not 0 < kept < 2**31:
        return None
    return db.session.scalar(sa.select(Device.id).where(Device.id == kept, Device.group_id == group.id))


@bp.post("/g/<code>/games/<int:game_id>/changes/<int:change_id>/undo")
def undo(code: str, game_id: int, change_id: int) -> Response:
    """Undo a deletion or an abandon, for a few minutes and only if nothing changed since."""
    group, game = group_and_game(code, game_id)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    change = db.session.scalar(sa.select(GameChange).where(GameChange.id == change_id, GameChange.game_id == game.id))
    undoable = (
        change is not None
        and change.kind in ("round_deleted", "abandoned")
        and change.version == game.version
        and within_reach(change.at)
        and claim(game, _based_on())
    )
    if not undoable or change is None:
        db.session.rollback()
        if change is None:
            outcome("refused")
        elif change.kind == "abandoned":
            if _not_done(game, _based_on(), ("reopened", None)) == "duplicate":
                flash(_("Game reopened."))
                return redirect(game_url)
        elif _not_done(game, _based_on(), ("round_restored", change.round_number)) == "duplicate":
            flash(kind_for(game.kind).round_done("back", change.round_number or 0, game))
            return redirect(game_url)
        flash(_("This can no longer be undone: the game changed since, or too much time went by."))
        return redirect(game_url)
    if change.kind == "abandoned":
        _reopen(game)
        flash(_("Game reopened."))
    else:
        kept = change.data or {}
        number = change.round_number or _round_count(game) + 1
        db.session.add(
            Round(
                game=game,
                number=number,
                entry=kept["entry"],
                result=kept["result"],
                device_id=_own_device(group, kept.get("device_id")),
            )
        )
        if kept.get("status") == GameStatus.FINISHED.value:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
            game.outcome = {"winners": kind_for(game.kind).winners(kept["result"])}
        record(game, "round_restored", number)
        flash(kind_for(game.kind).round_done("back", number, game))
    save(game)
    return redirect(game_url)
