"""Game pages, shared by every kind of game: start a game, enter and edit rounds,
follow the scores. Nothing here knows a kind: it asks the registry
(``companion.games.kinds``), and the kind asks the engine."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from flask import abort, flash, get_template_attribute, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from companion.clock import current_zone
from companion.extensions import db
from companion.forms import plain_int
from companion.games import bp, line, rounds
from companion.games.forms import MAX_ROUNDS
from companion.games.history import change_text, recent
from companion.games.kinds import KINDS, kind_for
from companion.games.kinds.base import GameKind, State
from companion.games.saving import refresh
from companion.games.state import round_to_read, stored_state
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.membership.access import (
    game_shown,
    game_version,
    group_and_game,
    group_for,
    group_game_and_live,
    group_game_live_and_last,
)
from companion.models import Game, GamePlayer, GameShown, GameStatus, Group, GroupShown, Round
from companion.pagecache import Fragments, KeptPage, device_names, page_cache, same_devices
from companion.security import SPEAKING
from companion.undo import confirmation_page, confirmed, offer
from companion.watch import answer as watch_answer
from companion.watch import game_token
from companion.writes import commit_once, done_before, read_first, remember, tell_outbox

#: Rounds shown at once on a game page, most recent first; older ones on demand.
ROUNDS_PER_PAGE = 20
#: Changes shown in a game's history (most recent first).
HISTORY_SHOWN = 30


def _drawn_from(game: Game | GameShown) -> tuple[int, tuple[tuple[str, str], ...], str]:
    """What a kept page of ``game`` was drawn from: its version and its players' names
    in seat order, read as objects or as plain columns (``GameShown``) alike, and its
    group's clock (read with the game: the times its history shows)."""
    names = game.names if isinstance(game, GameShown) else tuple(rounds.names_of(game).items())
    return game.version, names, current_zone()


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
    names = rounds.names_of(game)
    stamp = _drawn_from(game)
    page = _game_page(group, game, kind)
    count = rounds.round_count(game)
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
    cached = Fragments()
    html = render_template(
        kind.game_template,
        cached=cached,
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
    cache.put(key, KeptPage(stamp, cached.made, devices, {"round_count": count}))
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


def _kept_game_page(code: str, game_id: int, key: Hashable, peeked: KeptPage) -> str | None:
    """The game page as kept under ``key`` (``peeked``: the kept page found there), written
    out again from the game read as plain columns, with whether the devices the kept page
    names still bear those names, in one query; None when it no longer stands (another
    version, other names) or the game is not to be found here (the full path answers)."""
    game = game_shown(code, game_id, peeked.devices)
    if game is None:
        return None
    kept = page_cache().get(key, _drawn_from(game))
    if kept is None:
        return None
    if kept.devices and not (game.named == len(kept.devices) if kept is peeked else same_devices(kept.devices)):
        return None  # a device renamed since
    kind = kind_for(game.kind)
    return render_template(
        kind.game_template, cached=Fragments(kept), **kept.extra, **_game_page(game.group, game, kind)
    )


def _round_page(
    kind: GameKind,
    group: Group,
    game: Game,
    form: object,
    number: int,
    state: State,
    cached: Fragments | None = None,
    **extra: object,
) -> str:
    based_on = getattr(form, "based_on", None)
    return render_template(
        kind.round_template,
        cached=cached or Fragments(),
        wake=True,
        changed=extra.get("changed"),
        reading=extra.get("reading"),
        refused=extra.get("refused") or [],
        line_hint=line.hint(kind, game, state, number),
        who_url=url_for("groups.who", code=group.code, next=request.path),
        **_form_watch(group, game, based_on if based_on is not None else game.version),
        group=group,
        game=game,
        kind=kind,
        form=form,
        number=number,
        state=state,
        names=rounds.names_of(game),
        **kind.page_context(game, state, rounds.names_of(game)),
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
    notice = render_template(
        "games/_form_notice.html", changed=rounds.meanwhile(kind, game, since), group=group, game=game
    )
    return watch_answer(token, notice=notice)


def _round_form_kept(game: Game | GameShown) -> tuple[Hashable, Hashable]:
    """The page cache's key and stamp of the empty form of the game's next round (what
    a GET of the round page shows but the CSRF token): the game (its id and creation,
    never reused together), the language and the app root; the game's version and its
    players' names, which are all it is drawn from besides the game's fixed rules. The
    version also stands for its rounds: their number and the state they left."""
    key = ("round form", game.id, game.created_at, current_lang(), request.script_root)
    return key, _drawn_from(game)


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
    kept = page_cache().get(key, stamp)
    if kept is None:
        return None
    number = int(kept.extra["number"])
    if game.live is not None and game.live.prefill_for(game, number) is not None:
        return None
    tell_outbox("refused")  # as on the full path: nothing is saved by a GET
    kind = kind_for(game.kind)
    return render_template(
        kind.round_template,
        cached=Fragments(kept),
        wake=True,
        group=game.group,
        game=game,
        kind=kind,
        number=number,
        **_form_watch(game.group, game, game.version),
    )


def _answer(
    kind: GameKind, group: Group, game: Game, done: rounds.Back | rounds.Again, game_url: str
) -> ResponseReturnValue:
    """What a write of the game layer came to (``companion.games.rounds``), as an answer:
    its word said to the phone's outbox, its message flashed, then back to the game page
    (``game_url``, read before any rollback; at ``anchor``), to a round's correction, or
    the round form shown again (409 beside what changed since)."""
    if done.word is not None:
        tell_outbox(done.word)
    if isinstance(done, rounds.Again):
        page = _round_page(kind, group, game, done.form, done.number, done.state, changed=done.changed)
        return (page, 409) if done.changed is not None else page
    if done.message is not None:
        flash(done.message)
    if done.edit is not None:
        return redirect(url_for("games.edit_round", code=group.code, game_id=game.id, number=done.edit))
    if done.anchor is not None:
        return redirect(url_for("games.show", code=group.code, game_id=game.id, _anchor=done.anchor))
    return redirect(game_url)


@bp.after_request
def _speaking(response: Response) -> Response:
    """The round forms let the app's own page use the microphone (« En une phrase »
    dictated, where the browser has speech recognition); every other page keeps it off."""
    if request.endpoint in ("games.new_round", "games.edit_round"):
        response.headers["Permissions-Policy"] = SPEAKING
    return response


@bp.route("/g/<code>/games/<int:game_id>/rounds/new", methods=["GET", "POST"])
def new_round(code: str, game_id: int) -> ResponseReturnValue:
    """Enter the next round. The form carries its number and the game's version: sent
    twice, or from two phones, it is saved once, and the other submission is told so."""
    last_and_count = None
    if request.method == "POST":
        read_first()  # the writers' turn is taken for the writes only (claim checks the version)
        group, game, live, columns = group_game_live_and_last(code, game_id)
        last_and_count = rounds.last_of(*columns)
    else:
        page = _kept_round_form(code, game_id)
        if page is not None:
            return page
        group, game, live = group_game_and_live(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    tell_outbox("refused")  # unless it is saved below
    posted = request.form.get("round", "") if request.method == "POST" else None
    ready = rounds.next_round(kind, game, live, last_and_count, posted)
    if not isinstance(ready, rounds.Ready):
        return _answer(kind, group, game, ready, game_url)
    number, state = ready.number, ready.state
    if line.wants_reading(request):  # a line read back: nothing saved
        form, reading, refused = line.read_back(kind, game, state, number, ready.entry, request.form)
        return _round_page(kind, group, game, form, number, state, reading=reading, refused=refused)
    # The empty form of this version is kept (companion.pagecache; _kept_round_form
    # writes it out again); one filled in from the live play-by-play is built every time.
    kept_form = request.method == "GET" and not ready.live
    form = kind.round_form(game, state, number, ready.entry)
    if ready.live and request.method == "GET":
        flash(_("Filled in from the live play-by-play: check it, then save."))
    if form.validate_on_submit():
        return _answer(kind, group, game, rounds.add_round(kind, game, form, number), game_url)
    if kept_form:
        cached = Fragments()
        page = _round_page(kind, group, game, form, number, state, cached)
        key, stamp = _round_form_kept(game)
        page_cache().put(key, KeptPage(stamp, cached.made, extra={"number": number}))
        return page
    return _round_page(kind, group, game, form, number, state)


@bp.route("/g/<code>/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(code: str, game_id: int, number: int) -> ResponseReturnValue:
    """Correct round ``number``: the engine rescores it and every round after it. If a
    later round no longer fits the new history, nothing changes and the page says which."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    tell_outbox("refused")  # unless it is saved below
    ready = rounds.correction(kind, game, number)
    if isinstance(ready, rounds.Back):
        return _answer(kind, group, game, ready, game_url)
    if line.wants_reading(request):  # a line read back: nothing saved
        form, reading, refused = line.read_back(kind, game, ready.state, number, ready.entry, request.form)
        return _round_page(kind, group, game, form, number, ready.state, reading=reading, refused=refused)
    form = kind.round_form(game, ready.state, number, ready.entry)
    if ready.live and request.method == "GET":
        flash(_("Filled in from the live play-by-play: check it, then save."))
    if form.validate_on_submit():
        return _answer(kind, group, game, rounds.correct(kind, game, ready.target, form, ready.state), game_url)
    return _round_page(kind, group, game, form, number, ready.state)


@bp.get("/g/<code>/games/<int:game_id>/rounds/<int:number>/line")
def read_line(code: str, game_id: int, number: int) -> Response:
    """What a line (``q``) says of round ``number``, as ``static/line.js`` fills the
    form with it while the person types or dictates: the fields, what was not
    understood, the questions, the notes, what the form refuses of what was filled (the
    engine's reasons: the fields are judged as a save would judge them), and the
    read-back drawn by the page's macro. Nothing is saved."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    state, form_state, entry = round_to_read(kind, game, number)
    reading = line.read(kind, game, state, number, request.args.get("q", ""), entry)
    if reading is None:
        abort(404)
    refused = line.checked(kind, game, form_state, number, entry, reading)[1]
    said = get_template_attribute("games/_line.html", "reading_box")(
        reading, refused=refused, who_url=_who_url(group, game, number)
    )
    return jsonify(
        fields=reading.fields,
        not_understood=reading.not_understood,
        questions=reading.questions,
        notes=reading.notes,
        refused=refused,
        complete=reading.complete,
        html=str(said),
    )


def _who_url(group: Group, game: Game, number: int) -> str:
    """Where this device says which player it is (« Qui êtes-vous ? »), then comes back
    to the round's form it was reading a line on (the page that asked, when it is this
    site's; else the form of the round to come, or of the correction)."""
    back = url_for("games.edit_round", code=group.code, game_id=game.id, number=number)
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path.startswith(f"{request.script_root}/g/"):
        back = referrer.path
    return url_for("groups.who", code=group.code, next=back)


def _based_on() -> int | None:
    """The game version a posted form was shown at (None when missing or malformed)."""
    return plain_int(request.form.get("version", ""), 0, 10**9)


@bp.post("/g/<code>/games/<int:game_id>/rounds/<int:number>/delete")
def delete_round(code: str, game_id: int, number: int) -> ResponseReturnValue:
    """Take back round ``number`` — only while it is the last one and the game is still
    at the version the page showed — reopening the game.  A repeat or a stale
    request changes nothing and says so.  Asked once; can be undone for a while."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    last = rounds.last_round(game)
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
    done = rounds.delete_round(kind, game, number, last if fits else None, _based_on())
    if done.undo is not None:
        offer(
            kind.round_done("deleted", number, game) + ".",
            url_for("games.undo", code=group.code, game_id=game.id, change_id=done.undo),
            version=game.version,
            outbox=_("Undo") + " · " + kind.round_done("deleted", number, game),  # how the outbox names it
        )
    return _back(done, game_url)


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
    done = rounds.abandon(game, _based_on())
    if done.undo is not None:
        offer(
            _("Game abandoned."),
            url_for("games.undo", code=group.code, game_id=game.id, change_id=done.undo),
            version=game.version,
            outbox=_("Undo") + " · " + _("Game abandoned"),  # how the outbox names it
        )
    return _back(done, game_url)


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
    return _back(rounds.finish(kind, game, _based_on()), game_url)


@bp.post("/g/<code>/games/<int:game_id>/reopen")
def reopen(code: str, game_id: int) -> Response:
    """Reopen a finished or abandoned game (a finished game is read-only until then)."""
    group, game = group_and_game(code, game_id)
    done = rounds.reopen(game, _based_on())
    return _back(done, url_for("games.show", code=group.code, game_id=game.id))


@bp.post("/g/<code>/games/<int:game_id>/changes/<int:change_id>/undo")
def undo(code: str, game_id: int, change_id: int) -> Response:
    """Undo a deletion or an abandon, for a few minutes and only if nothing changed since."""
    group, game = group_and_game(code, game_id)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    return _back(rounds.undo(group, game, change_id, _based_on()), game_url)


def _back(done: rounds.Back, game_url: str) -> Response:
    """A status change or an undo (``companion.games.rounds``) as an answer: its word
    said to the phone's outbox, its message flashed, back to the game page."""
    if done.word is not None:
        tell_outbox(done.word)
    if done.message is not None:
        flash(done.message)
    return redirect(game_url)
