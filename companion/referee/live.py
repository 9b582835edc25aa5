"""Live play-by-play: the table follows the current manche of a game move by move.

One :class:`~companion.models.LiveManche` row per game holds the manche on the server,
so it survives a reload and every phone of the group sees it (``static/watch.js`` polls
:func:`live_state` and puts the new table in place when it changed, see
:mod:`companion.watch`; without script the page has a « Rafraîchir » link).  It is
for the next round of the game *as it stood* when the manche was started
(``game_version``): once that round is saved, or the game changes otherwise, the row
is stale and the next visit starts a new manche.

Every move is judged before it is kept: its ``/api/v1/check`` body is built from the
stored state (players named by name, so that reasons name them) and
:func:`companion.games.judging.judge` answers.  An illegal move is refused with the
engine's reason and nothing is stored; a legal one is applied by the engine
(``from_state(…).apply(move).to_state()``), and stored with what the table says about
it, in both languages.  Writes name the live version the page showed: a double tap or
a second phone never applies a move twice (compare-and-set, as
:func:`companion.writes.claim` does for games).

When the engine says the manche is over, the round entry it decided (the finishing
order and the forbidden finishes, the bids and tricks, who went out) is stored with
it, and the game's round form opens pre-filled from it (:meth:`~companion.models.LivePrefill.prefill_for`).

Nothing here knows a rule, nor a kind: each kind's live play
(:attr:`GameKind.live_play <companion.games.kinds.base.GameKind.live_play>`, a
:class:`~companion.games.live_play.LivePlay` in the kind's own ``live_play`` module) translates
forms to moves and engine objects to what the screen shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from companion import watch
from companion.extensions import db
from companion.forms import add_error, plain_int
from companion.games.judging import judge, narration
from companion.games.kinds import kind_for
from companion.games.kinds.base import GameKind, State
from companion.games.live_play import LivePlay, MoveForm, Refused, StartForm, Step, laid, suit_choices
from companion.games.state import round_in_play
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.judge.narrate import whose_turn
from companion.membership.access import GAMES, group_and_game, of_joined_game_tables, poll_rows
from companion.models import Game, GameStatus, Group, LiveManche, utcnow
from companion.offline import OUTBOX_HEADER
from companion.referee import bp
from companion.rules.cards import typed_notation
from companion.rules.i18n import LANGS, RulesError
from companion.undo import confirmation_page, confirmed
from companion.writes import commit, tell_outbox

#: Moves that can be taken back one after another (older states are not kept).
UNDO_DEPTH = 30
#: The most moves a manche may hold: far more than any hand, and a bound on a row.
MAX_MOVES = 2000
#: Moves shown on the screen, most recent first.
MOVES_SHOWN = 12


# ------------------------------------------------------------------ the manche


@dataclass
class Manche:
    """A game's live manche as this request sees it."""

    group: Group
    game: Game
    kind: GameKind
    live_play: LivePlay
    number: int
    stored: State
    row: LiveManche | None
    #: Whether ``row`` is for this round of the game as it stands now.
    current: bool
    names: dict[str, str]

    @property
    def started(self) -> bool:
        return self.current and self.row is not None and self.row.state is not None

    @property
    def version(self) -> int:
        """The live version a form is based on (0 before anything was ever stored)."""
        return self.row.version if self.row is not None else 0

    @property
    def closed(self) -> str | None:
        """Why nothing can be followed now (None: the manche can be)."""
        if self.game.status is not GameStatus.IN_PROGRESS or self.kind.over(self.stored):
            return _("This game is over: there is nothing left to follow.")
        return self.live_play.blocked(self.game, self.stored)


def _manche(code: str, game_id: int) -> Manche:
    """The group, the game, the round to follow and the stored live manche: a fixed
    number of queries, and no engine."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    live_play = kind.live_play
    if live_play is None:  # a kind this screen cannot follow (every kind of KINDS can)
        abort(404)
    # A round entered in two steps (bids, then tricks) is still being played.
    number, stored = round_in_play(kind, game)
    row = db.session.get(LiveManche, game.id)
    current = row is not None and row.number == number and row.game_version == game.version
    names = {str(p.id): p.name for p in game.players}
    return Manche(group, game, kind, live_play, number, stored, row, current, names)


def _claim(manche: Manche, based_on: int | None) -> LiveManche | None:
    """Move the live manche on to its next version if it is still at ``based_on`` (one
    conditional UPDATE, or the first INSERT); None when another write came first."""
    game = manche.game
    if based_on is None:
        return None
    if manche.row is None:
        if based_on != 0:
            return None
        row = LiveManche(
            game_id=game.id, number=manche.number, game_version=game.version, version=1, history=[], moves=[]
        )
        db.session.add(row)
        try:
            db.session.flush()
        except sa.exc.IntegrityError:
            db.session.rollback()
            return None
        return row
    moved = db.session.execute(
        sa.update(LiveManche)
        .where(LiveManche.game_id == game.id, LiveManche.version == based_on)
        .values(version=LiveManche.version + 1)
    )
    if moved.rowcount != 1:
        return None
    db.session.refresh(manche.row)
    return manche.row


def _live_url(manche: Manche, **kwargs: Any) -> str:
    return url_for("referee.live", code=manche.group.code, game_id=manche.game.id, **kwargs)


# ------------------------------------------------------------------ the screen


def _narration(game: str, body: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, list[str]]:
    texts = narration(game, body, answer)
    return {lang: [t.get(lang) for t in texts] for lang in LANGS}


def _move_forms(manche: Manche, form: MoveForm | None = None) -> MoveForm:
    """The move form with its choices (a fresh one shows the current live version)."""
    lang = current_lang()
    if form is None:
        form = MoveForm(formdata=None)
        form.version.data = str(manche.version)
    row = manche.row
    players = row.state["players"] if row is not None and row.state else []
    out = row.state.get("out", []) if row is not None and row.state else []
    form.player.choices = [SelectChoice(p, manche.names.get(p, p)) for p in players if p not in out]
    form.asked.choices = suit_choices(lang)
    return form


def _start_form(manche: Manche, form: StartForm | None = None) -> StartForm:
    """The start form with its choices (a fresh one shows the current live version)."""
    opening = manche.live_play.opening(manche.game, manche.stored)
    if form is None:
        form = StartForm(formdata=None)
        form.version.data = str(manche.version)
        form.dealer.data = opening.get("first_dealer")  # a first manche: the engine's proposal
    order = opening.get("order") or []
    choices = [SelectChoice(p, manche.names.get(p, p)) for p in order]
    form.leader.choices = choices
    form.dealer.choices = choices
    form.first.choices = choices
    return form


def _saved_rounds(manche: Manche) -> int:
    """How many rounds are saved (the round followed is one of them when its first step was)."""
    return manche.number if manche.kind.state_pending(manche.stored) else manche.number - 1


def _round_url(manche: Manche) -> str:
    """Where the round is entered: a round entered in two steps whose first was saved
    is completed on its own page (the second step); any other round is a new one."""
    code, game_id = manche.group.code, manche.game.id
    if manche.number <= _saved_rounds(manche):
        return url_for("games.edit_round", code=code, game_id=game_id, number=manche.number)
    return url_for("games.new_round", code=code, game_id=game_id)


def _page(
    manche: Manche,
    move_form: MoveForm | None = None,
    start_form: StartForm | None = None,
    refused: str | None = None,
    status: int = 200,
    question: dict[str, Any] | None = None,
) -> tuple[str, int]:
    """The live screen: the start page, the table and its move form, or why not (or
    the referee's ``question`` about a move: « Était-ce sa dernière carte ? »)."""
    lang = current_lang()
    row = manche.row if manche.current else None
    game = manche.game
    context: dict[str, Any] = {
        "group": manche.group,
        "game": game,
        "kind": manche.kind,
        "number": manche.number,
        "names": manche.names,
        "closed": manche.closed,
        "started": manche.started,
        "version": manche.version,
        "watch_url": url_for("referee.live_state", code=manche.group.code, game_id=game.id),
        "watch_token": live_token(game.version, manche.version),
        "watch_page": _live_url(manche, _anchor="turn"),
        "refused": refused,
        "question": question,
        "wake": True,
    }
    names = manche.names
    if manche.closed is None and not manche.started:
        opening = manche.live_play.opening(game, manche.stored)
        context.update(
            opening=opening,
            order_names=[names[p] for p in opening.get("order") or []],
            start_form=_start_form(manche, start_form),
            picker=manche.live_play.start_picker(game, lang),
        )
    elif manche.closed is None and row is not None and row.state is not None:
        assert row.view is not None
        entry = row.entry or {}
        context.update(
            state=row.state,
            view=row.view,
            moves=list(reversed(row.moves[-MOVES_SHOWN:])),
            move_count=len(row.moves),
            can_undo=bool(row.history),
            form=_move_forms(manche, move_form),
            picker=None if row.view.get("finished") else manche.live_play.picker(game, lang),
            entry=entry,
            round_url=_round_url(manche),
            # The turn line says whose turn it is: the last move's « À Cid de jouer. » (or
            # « À Cid d’annoncer. ») is not said again below it (live_moves.html).
            turn_said=[t.get(lang) for t in whose_turn(names.get(row.view["to_move"], ""))]
            if row.view.get("to_move")
            else [],
        )
        context.update(manche.live_play.screen(game, row, names, lang, context))
    else:
        context["card_draw"] = manche.closed is not None and manche.live_play.blocked(game, manche.stored) is not None
    if context.get("picker"):
        context["copies"], context["jokers"] = manche.live_play.deck(game)
        context["placeholder"] = typed_notation(lang).example
    return render_template("referee/live.html", **context), status


# ------------------------------------------------------------- the last cards
#
# « Ce sont ses dernières cartes »: when the count says a move lays a player's last cards
# (:meth:`LivePlay.hands` at the start, :meth:`LivePlay.held` after each move, kept in the
# view as ``hands``, so that an undo takes it back too) but the box was not ticked, the
# referee asks before storing anything.  « Oui » posts the same move with the box
# ticked; « Non » posts it with ``not_last``: it is stored as not last and the player
# is no longer counted in this manche (the count was wrong: a misdeal, a card seen
# late).  A ticked box is never refused: the table knows best.


def _may_be_last(view: Mapping[str, Any], move: Mapping[str, Any]) -> bool:
    """Whether, by the count, ``move`` lays its player's last cards though it says it
    does not (a move without a ``last`` to say, such as a drawn card laid, never does)."""
    hands = view.get("hands")
    if not isinstance(hands, Mapping) or "last" not in move or move["last"]:
        return False
    held = hands.get(move.get("player"))
    count = laid(move)
    return isinstance(held, int) and count > 0 and held <= count


def _legal_either_way(named: dict[str, Any], lang: str) -> bool:
    """Whether the engine allows the move of ``named`` as typed or as the player's last
    cards (an 8 laid last asks no suit): only then is the question worth asking."""
    for last in (False, True):
        try:
            if judge({**named, "move": {**named["move"], "last": last}}, lang).get("legal"):
                return True
        except RulesError:
            continue
    return False


def _counted(live_play: LivePlay, before: Mapping[str, Any], step: Step, wrong: bool) -> dict[str, Any]:
    """``step``'s view with the cards each player holds after it (``wrong``: the table
    said the count was wrong for the mover, who is no longer counted)."""
    hands = before.get("hands")
    if not isinstance(hands, Mapping):
        return step.view
    after = live_play.held(dict(hands), step)
    if wrong:
        after.pop(step.move["player"], None)
    return {**step.view, "hands": after}


def _ask_last(manche: Manche, form: MoveForm, move: Mapping[str, Any]) -> ResponseReturnValue:
    """« Était-ce sa dernière carte ? »: nothing is stored; the page keeps the move as
    typed (hidden fields) under the two answers, based on the same live version.  A
    move the phone's outbox sends later is refused with a word saying so instead."""
    tell_outbox("refused")
    name = manche.names.get(move["player"], move["player"])
    cards = list(move.get("cards") or [move["card"]])
    if request.headers.get(OUTBOX_HEADER) == "1":
        flash(_("Nothing was recorded: say on the live screen whether %(name)s laid their last cards.", name=name))
        return redirect(_live_url(manche, _anchor="turn"), 303)
    skipped = {"csrf_token", "version", "last", "not_last"}
    fields = {
        f.name: "y" if f.type == "BooleanField" else str(f.data)
        for f in form
        if f.name not in skipped and f.data not in (None, "", False)
    }
    question = {
        "player": move["player"],
        "name": name,
        "cards": cards,
        "several": len(cards) > 1,
        "version": form.version.data,
        "fields": fields,
        "the_round": manche.kind.the_round(manche.number, manche.game),
    }
    return _page(manche, move_form=form, question=question)


# ------------------------------------------------------------------ the routes


@bp.get("/g/<code>/games/<int:game_id>/live")
def live(code: str, game_id: int) -> tuple[str, int]:
    """The live screen of a game's current manche, as stored (the engine does not run)."""
    return _page(_manche(code, game_id))


def live_token(game_version: int, live_version: int) -> str:
    """What the live screen shows, as a token: the game's version (a round saved makes
    the manche stale) and the live manche's (every move, undo or new start)."""
    return f"{game_version}.{live_version}"


@bp.get("/g/<code>/games/<int:game_id>/live/state")
def live_state(code: str, game_id: int) -> Response:
    """The live screen's token, which changes with every move (polled by
    ``static/watch.js``; answered 304 while it is the one the page has): one query,
    with the device's membership (:func:`~companion.membership.access.poll_rows`)."""
    game_version, version = poll_rows(_LIVE_VERSIONS, code, game_id=game_id)[0]
    version = version or 0
    return watch.answer(live_token(game_version, version), game_version=game_version, version=version)


_LIVE_MANCHES = LiveManche.__table__
#: The versions of a game of a joined group and of its live manche (None without one).
_LIVE_VERSIONS = of_joined_game_tables(
    sa.select(GAMES.c.version, _LIVE_MANCHES.c.version)
    .select_from(GAMES)
    .outerjoin(_LIVE_MANCHES, _LIVE_MANCHES.c.game_id == GAMES.c.id)
)


@bp.post("/g/<code>/games/<int:game_id>/live/start")
def live_start(code: str, game_id: int) -> ResponseReturnValue:
    """Start following the manche (what the kind's start form asks: who deals or leads,
    the card turned up, who plays first)."""
    manche = _manche(code, game_id)
    form = _start_form(manche, StartForm())
    if manche.closed is not None or manche.started:
        if manche.started:
            flash(_("Following had already started on another device; here it is."))
        return redirect(_live_url(manche), 303)
    if not form.validate_on_submit():
        return _page(manche, start_form=form, status=400)
    lang = current_lang()
    try:
        state, view = manche.live_play.start(manche.game, manche.stored, form, lang)
    except Refused as e:
        add_error(form[e.field if e.field in form else "version"], e.message)
        return _page(manche, start_form=form)
    except RulesError as e:
        add_error(form.version, e.text.get(lang))
        return _page(manche, start_form=form)
    row = _claim(manche, plain_int(form.version.data or "", 0, 10**9))
    if row is None:
        db.session.rollback()
        flash(_("Following had already started on another device; here it is."))
        return redirect(_live_url(manche), 303)
    if not manche.current:
        row.started_at = None  # a new manche: it starts at its first move (below)
    row.number, row.game_version = manche.number, manche.game.version
    hands = manche.live_play.hands(manche.game, manche.stored, state)
    if hands is not None:
        view = {**view, "hands": hands}
    row.state, row.view, row.history, row.moves, row.entry = state, view, [], [], None
    commit()
    return redirect(_live_url(manche, _anchor="turn"), 303)


def _refuse(manche: Manche, form: MoveForm, message: str, field: str) -> tuple[str, int]:
    """The screen again, nothing stored, with the reason said once: on the field it is
    about, which the page's summary names (or, when the screen does not draw that field,
    as a ``move`` reason, says itself: templates/_macros.html, ``error_summary``)."""
    if field in form:
        add_error(form[field], message)
    return _page(manche, move_form=form, refused=message)


@bp.post("/g/<code>/games/<int:game_id>/live/move")
def live_move(code: str, game_id: int) -> ResponseReturnValue:
    """One move: judged by the engine on the stored table; kept with what the table says
    if legal, refused with the engine's reason (nothing stored) if not."""
    manche = _manche(code, game_id)
    form = _move_forms(manche, MoveForm())
    if manche.closed is not None or not manche.started:
        tell_outbox("refused")
        flash(_("This round is no longer followed live: here is where things stand."))
        return redirect(_live_url(manche), 303)
    row = manche.row
    assert row is not None and row.state is not None and row.view is not None
    based_on = plain_int(form.version.data or "", 0, 10**9)
    if not form.validate_on_submit():
        return _page(manche, move_form=form, status=400)
    if based_on != row.version:
        return _conflict(manche, form, based_on)
    if len(row.moves) >= MAX_MOVES:
        return _refuse(manche, form, _("Too many moves for one round: start it again."), "move")
    lang = current_lang()
    try:
        moves = manche.live_play.moves(form, row.state, row.view, lang)
    except Refused as e:
        return _refuse(manche, form, e.message, e.field)
    state, view = row.state, row.view
    steps: list[tuple[Step, dict[str, Any], dict[str, Any]]] = []
    for i, move in enumerate(moves):
        if i and view.get("to_move") != move["player"]:
            break  # a drawn card that does not fit stays in hand
        try:
            asked = manche.live_play.judged(manche.game, state, move)
            body = manche.live_play.body(manche.game, state, asked)
            named = {
                **body,
                "state": manche.live_play.renamed(body["state"], manche.names),
                "move": manche.live_play.renamed(asked, manche.names),
            }
            if _may_be_last(view, move) and not form.not_last.data and _legal_either_way(named, lang):
                return _ask_last(manche, form, move)
            answer = judge(named, lang)
            if not answer.get("legal"):
                return _refuse(manche, form, str(answer.get("reason") or _("This move is not allowed.")), "move")
            step = manche.live_play.advance(manche.game, state, asked)
        except Refused as e:
            return _refuse(manche, form, e.message, e.field)
        except RulesError as e:
            return _refuse(manche, form, e.text.get(lang), _field_of(e.field))
        step.move = move
        step.view = _counted(manche.live_play, view, step, wrong=bool(form.not_last.data) and _may_be_last(view, move))
        steps.append((step, _narration(manche.game.kind, named, answer), view))
        state, view = step.state, step.view
    claimed = _claim(manche, based_on)
    if claimed is None:
        db.session.rollback()
        return _conflict(manche, form, based_on)
    history = list(claimed.history)
    records = list(claimed.moves)
    before_state = row.state
    for step, words, before_view in steps:
        history.append([before_state, before_view])
        records.append(
            {
                "player": step.move["player"],
                "move": step.move,
                "effects": step.effects,
                "said": words,
                "based_on": based_on,
                "form": form.fingerprint(),
            }
        )
        before_state = step.state
    claimed.history = history[-UNDO_DEPTH:]
    claimed.moves = records
    # The evening's clock: the round this manche fills in started at its first move, and
    # ended at its last one (the row's last change, once the manche is finished).
    now = utcnow()
    if claimed.started_at is None:
        claimed.started_at = now
    claimed.updated_at = now
    claimed.state, claimed.view = state, view
    claimed.entry = manche.live_play.entry(manche.game, claimed) if view.get("finished") else None
    commit()
    return redirect(_live_url(manche, _anchor="turn"), 303)


def _field_of(path: str | None) -> str:
    """The form field an engine error about the move belongs to."""
    if path and path.startswith("move.asked"):
        return "asked"
    if path and path.startswith(("move.cards", "move.card", "move.drawn")):
        return "cards"
    if path == "asked":
        return "asked"
    return "move"


def _conflict(manche: Manche, form: MoveForm, based_on: int | None) -> ResponseReturnValue:
    """A move based on an earlier version: the same move sent twice leads to the table
    (it was kept once); another one is refused, the table shown as it is now, with
    what was typed still in the form."""
    db.session.expire_all()
    manche = _manche(manche.group.code, manche.game.id)
    row = manche.row
    if row is not None and manche.started and based_on is not None:
        fingerprint = form.fingerprint()
        if any(m.get("based_on") == based_on and m.get("form") == fingerprint for m in row.moves):
            tell_outbox("duplicate")
            flash(_("This move was already recorded."))
            return redirect(_live_url(manche, _anchor="turn"), 303)
    if not manche.started:
        tell_outbox("refused")
        flash(_("This round is no longer followed live: here is where things stand."))
        return redirect(_live_url(manche), 303)
    message = _("The table changed in the meantime (another device): nothing was recorded. Here it is now.")
    kept = _move_forms(manche, form)
    kept.version.data = str(manche.version)
    return _page(manche, move_form=kept, refused=message, status=409)


def _based_on() -> int | None:
    return plain_int(request.form.get("version", ""), 0, 10**9)


@bp.post("/g/<code>/games/<int:game_id>/live/undo")
def live_undo(code: str, game_id: int) -> Response:
    """Take back the last move (only while the table is at the version the page showed)."""
    manche = _manche(code, game_id)
    row = manche.row
    based_on = _based_on()
    claimed = None
    if manche.closed is None and manche.started and row is not None and row.history and based_on == row.version:
        claimed = _claim(manche, based_on)
    if claimed is None or not claimed.history:
        db.session.rollback()
        flash(_("Nothing was undone: the table changed in the meantime."))
        return redirect(_live_url(manche, _anchor="turn"), 303)
    state, view = claimed.history[-1]
    claimed.history = list(claimed.history[:-1])
    claimed.moves = list(claimed.moves[:-1])
    claimed.state, claimed.view, claimed.entry = state, view, None
    commit()
    flash(_("Last move taken back."))
    return redirect(_live_url(manche, _anchor="turn"), 303)


@bp.post("/g/<code>/games/<int:game_id>/live/restart")
def live_restart(code: str, game_id: int) -> ResponseReturnValue:
    """Start the manche again from its beginning (asked once)."""
    manche = _manche(code, game_id)
    if manche.started and not confirmed():
        return confirmation_page(
            _("Start %(the_round)s again?", the_round=manche.kind.the_round(manche.number)),
            _("Every move followed so far is forgotten; it starts again from the beginning."),
            _("Start again"),
            _live_url(manche),
            group=manche.group,
        )
    claimed = _claim(manche, _based_on()) if manche.started else None
    if claimed is None:
        db.session.rollback()
        flash(_("Nothing was changed: the table changed in the meantime."))
        return redirect(_live_url(manche), 303)
    claimed.state, claimed.view, claimed.history, claimed.moves, claimed.entry = None, None, [], [], None
    db.session.commit()
    flash(_("Started again from the beginning."))
    return redirect(_live_url(manche), 303)
