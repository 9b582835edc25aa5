"""Game pages: start a game, enter hands, follow the scores."""

from __future__ import annotations

import sqlalchemy as sa
from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.forms import plain_int
from companion.games import bp
from companion.games import crapouille as crapouille_web
from companion.games.forms import MAX_ROUNDS, NewCrapouilleForm, hand_form
from companion.games.history import change_text, recent, record
from companion.games.kinds import KINDS
from companion.groups.access import current_device, group_for
from companion.models import Game, GameChange, GamePlayer, GameStatus, Group, Round, Season, utcnow
from companion.rules import crapouille
from companion.rules.cards import Card, Rank, Suit, parse_cards
from companion.undo import confirmation_page, confirmed, offer, within_reach
from companion.writes import claim, commit_once, done_before, remember

#: Rounds shown at once on a game page, most recent first; older ones on demand.
ROUNDS_PER_PAGE = 20
#: Changes shown in a game's history (most recent first).
HISTORY_SHOWN = 30


def _game(group: Group, game_id: int) -> Game:
    return db.first_or_404(sa.select(Game).join(Season).where(Game.id == game_id, Season.group_id == group.id))


@bp.get("/g/<code>/games/new")
def choose_kind(code: str) -> str:
    """Which game to start."""
    group = group_for(code)
    return render_template("games/choose.html", group=group, kinds=KINDS.values())


@bp.route("/g/<code>/games/new/crapouille", methods=["GET", "POST"])
def new_crapouille(code: str) -> ResponseReturnValue:
    """Start a crapouille game: players in seat order, Super crapouille or not (sent twice, started once)."""
    group = group_for(code)
    season = group.current_season
    form = NewCrapouilleForm(group.players)
    earlier = form.is_submitted() and done_before(form.once.data)
    if earlier:
        return redirect(earlier)
    if season is not None and form.validate_on_submit():
        token = form.once.data
        game = Game(season=season, kind="crapouille", rules=form.rules, status=GameStatus.IN_PROGRESS)
        game.seats = [GamePlayer(seat=i, player=p) for i, p in enumerate(form.chosen)]
        db.session.add(game)
        db.session.flush()
        url = url_for("games.show", code=group.code, game_id=game.id)
        remember(token, url)
        earlier = commit_once(token)
        return redirect(earlier or url)
    return render_template("games/new_crapouille.html", group=group, season=season, form=form)


@bp.get("/g/<code>/games/<int:game_id>")
def show(code: str, game_id: int) -> str:
    """The game: totals, who is still in, every hand most recent first."""
    group = group_for(code)
    game = _game(group, game_id)
    sheet = crapouille_web.sheet_before(game)
    names = {str(p.id): p.name for p in game.players}
    count = len(game.rounds)
    upto = plain_int(request.args.get("upto", ""), 1, count) or count
    shown = game.rounds[max(0, upto - ROUNDS_PER_PAGE) : upto]
    hands = [
        {
            "round": rnd,
            "cards": {p: parse_cards(c) for p, c in rnd.entry.get("hands", {}).items()},
        }
        for rnd in reversed(shown)
    ]
    older = shown[0].number - 1 if shown and shown[0].number > 1 else None
    newer = upto + ROUNDS_PER_PAGE if upto < count else None
    return render_template(
        "games/crapouille.html",
        group=group,
        game=game,
        sheet=sheet,
        names=names,
        places=sheet.places(),
        hands=hands,
        older=older,
        newer=min(newer, count) if newer else None,
        winner_names=[names[p] for p in sheet.winners()],
        changes=recent(game, HISTORY_SHOWN),
        change_text=change_text,
        wake=True,
        limit=crapouille.ELIMINATION_TOTAL,
        deal=crapouille.deal(crapouille.Options.from_options(game.rules).super),
    )


@bp.route("/g/<code>/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(code: str, game_id: int) -> ResponseReturnValue:
    """Enter a hand: who went out, then each other player's cards or total.

    The form carries the hand's number and the game's version: sent twice, or from
    two phones, it is saved once, and the other submission is told so.
    """
    group = group_for(code)
    game = _game(group, game_id)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    if game.status is not GameStatus.IN_PROGRESS:
        flash(_("This game is over: no more hands to enter."))
        return redirect(game_url)
    if len(game.rounds) >= MAX_ROUNDS:
        flash(_("This game has reached %(n)d hands: start a new one.", n=MAX_ROUNDS))
        return redirect(game_url)
    sheet = crapouille_web.sheet_before(game)
    number = len(game.rounds) + 1
    form = hand_form(game.players, number, sheet, game.version)
    if form.validate_on_submit():
        if not claim(game, plain_int(form.version.data, 0, 10**9)):  # type: ignore[attr-defined]
            db.session.rollback()
            flash(_("This hand was already saved from another device; here is the game now."))
            return redirect(game_url)
        outcome = form.outcome  # type: ignore[attr-defined]
        entry = crapouille_web.entry_for(form.winner.data, form.hands, form.points)  # type: ignore[attr-defined]
        device = current_device()
        db.session.add(
            Round(
                game=game,
                number=number,
                entry=entry,
                result=crapouille_web.result_for(outcome),
                device_id=device.id if device else None,
            )
        )
        record(game, "round_added", number)
        if outcome.over:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
            game.outcome = {"winners": list(outcome.winners)}
            record(game, "finished", number)
        game.updated_at = utcnow()
        try:
            db.session.commit()
        except sa.exc.IntegrityError:
            db.session.rollback()
            flash(_("This hand was already saved from another device; here is the game now."))
            return redirect(game_url)
        return redirect(url_for("games.show", code=group.code, game_id=game.id, _anchor="totals"))
    names = {str(p.id): p.name for p in game.players}
    return render_template(
        "games/crapouille_hand.html",
        wake=True,
        group=group,
        game=game,
        form=form,
        number=number,
        sheet=sheet,
        names=names,
        live=[p for p in game.players if str(p.id) in sheet.in_play],
        copies=crapouille.DECK.limit(Card(rank=Rank.ACE, suit=Suit.SPADES)),
        jokers=crapouille.DECK.joker_limit,
    )


def _based_on() -> int | None:
    """The game version a posted form was shown at (None when missing or malformed)."""
    return plain_int(request.form.get("version", ""), 0, 10**9)


@bp.post("/g/<code>/games/<int:game_id>/hands/<int:number>/delete")
def delete_hand(code: str, game_id: int, number: int) -> ResponseReturnValue:
    """Take back hand ``number`` — only while it is the last one and the game is still
    at the version the page showed — reopening the game.  A repeat or a stale
    request changes nothing and says so.  Asked once; can be undone for a while."""
    group = group_for(code)
    game = _game(group, game_id)
    game_url = url_for("games.show", code=group.code, game_id=game.id)
    last = game.rounds[-1] if game.rounds else None
    fits = last is not None and last.number == number and game.status is not GameStatus.ABANDONED
    if fits and not confirmed():
        return confirmation_page(
            _("Delete hand %(n)d?", n=number),
            _("Hand %(n)d and its scores will be removed. You can undo it for a few minutes.", n=number),
            _("Delete hand %(n)d", n=number),
            game_url,
            group=group,
        )
    if not fits or last is None or not claim(game, _based_on()):
        db.session.rollback()
        flash(_("Hand %(n)d was not deleted: the game changed in the meantime. Nothing was changed.", n=number))
        return redirect(game_url)
    kept = {
        "entry": last.entry,
        "result": last.result,
        "device_id": last.device_id,
        "status": game.status.value,
    }
    game.rounds.remove(last)
    game.status = GameStatus.IN_PROGRESS
    game.finished_at = None
    game.outcome = None
    game.updated_at = utcnow()
    change = record(game, "round_deleted", number, kept)
    db.session.commit()
    offer(
        _("Hand %(n)d deleted.", n=number),
        url_for("games.undo", code=group.code, game_id=game.id, change_id=change.id),
        version=game.version,
    )
    return redirect(game_url)


@bp.post("/g/<code>/games/<int:game_id>/abandon")
def abandon(code: str, game_id: int) -> ResponseReturnValue:
    """Stop a game without a winner (it stays in the history; it can be reopened)."""
    group = group_for(code)
    game = _game(group, game_id)
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
        game.updated_at = utcnow()
        change = record(game, "abandoned")
        db.session.commit()
        offer(
            _("Game abandoned."),
            url_for("games.undo", code=group.code, game_id=game.id, change_id=change.id),
            version=game.version,
        )
    else:
        db.session.rollback()
    return redirect(game_url)


@bp.post("/g/<code>/games/<int:game_id>/reopen")
def reopen(code: str, game_id: int) -> Response:
    """Reopen an abandoned game."""
    group = group_for(code)
    game = _game(group, game_id)
    if game.status is GameStatus.ABANDONED and claim(game, _based_on()):
        _reopen(game)
        db.session.commit()
        flash(_("Game reopened."))
    else:
        db.session.rollback()
    return redirect(url_for("games.show", code=group.code, game_id=game.id))


def _reopen(game: Game) -> None:
    game.status = GameStatus.IN_PROGRESS
    game.updated_at = utcnow()
    record(game, "reopened")


@bp.post("/g/<code>/games/<int:game_id>/changes/<int:change_id>/undo")
def undo(code: str, game_id: int, change_id: int) -> Response:
    """Undo a deletion or an abandon, for a few minutes and only if nothing changed since."""
    group = group_for(code)
    game = _game(group, game_id)
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
        flash(_("This can no longer be undone: the game changed since, or too much time went by."))
        return redirect(game_url)
    if change.kind == "abandoned":
        _reopen(game)
        flash(_("Game reopened."))
    else:
        kept = change.data or {}
        number = change.round_number or len(game.rounds) + 1
        db.session.add(
            Round(
                game=game,
                number=number,
                entry=kept["entry"],
                result=kept["result"],
                device_id=kept.get("device_id"),
            )
        )
        if kept.get("status") == GameStatus.FINISHED.value:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
            game.outcome = {"winners": list(kept["result"].get("winners", []))}
        game.updated_at = utcnow()
        record(game, "round_restored", number)
        flash(_("Hand %(n)d is back.", n=number))
    db.session.commit()
    return redirect(game_url)
