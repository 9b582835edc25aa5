"""Game pages: start a game, enter hands, follow the scores."""

from __future__ import annotations

import sqlalchemy as sa
from flask import flash, redirect, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.games import bp
from companion.games import crapouille as crapouille_web
from companion.games.forms import NewCrapouilleForm, hand_form
from companion.games.kinds import KINDS
from companion.groups.access import group_for
from companion.i18n import current_lang
from companion.models import Game, GamePlayer, GameStatus, Group, Round, Season, utcnow
from companion.rules import crapouille
from companion.rules.cards import RANKS_BY_PIPS, Card, Rank, Suit, parse_cards


def _game(group: Group, game_id: int) -> Game:
    return db.first_or_404(sa.select(Game).join(Season).where(Game.id == game_id, Season.group_id == group.id))


@bp.get("/g/<code>/games/new")
def choose_kind(code: str) -> str:
    """Which game to start."""
    group = group_for(code)
    return render_template("games/choose.html", group=group, kinds=KINDS.values())


@bp.route("/g/<code>/games/new/crapouille", methods=["GET", "POST"])
def new_crapouille(code: str) -> str | Response:
    """Start a crapouille game: players in seat order, Super crapouille or not."""
    group = group_for(code)
    season = group.current_season
    form = NewCrapouilleForm(group.players)
    if season is not None and form.validate_on_submit():
        game = Game(season=season, kind="crapouille", rules=form.rules, status=GameStatus.IN_PROGRESS)
        game.seats = [GamePlayer(seat=i, player=p) for i, p in enumerate(form.chosen)]
        db.session.add(game)
        db.session.commit()
        return redirect(url_for("games.show", code=group.code, game_id=game.id))
    return render_template("games/new_crapouille.html", group=group, season=season, form=form)


@bp.get("/g/<code>/games/<int:game_id>")
def show(code: str, game_id: int) -> str:
    """The game: totals, who is still in, every hand most recent first."""
    group = group_for(code)
    game = _game(group, game_id)
    sheet = crapouille_web.sheet_before(game)
    names = {str(p.id): p.name for p in game.players}
    hands = [
        {
            "round": rnd,
            "cards": {p: parse_cards(c) for p, c in rnd.entry.get("hands", {}).items()},
        }
        for rnd in reversed(game.rounds)
    ]
    return render_template(
        "games/crapouille.html",
        group=group,
        game=game,
        sheet=sheet,
        names=names,
        places=sheet.places(),
        hands=hands,
        winner_names=[names[p] for p in sheet.winners()],
        limit=crapouille.ELIMINATION_TOTAL,
        deal=crapouille.deal(crapouille.Options.from_options(game.rules).super),
    )


@bp.route("/g/<code>/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(code: str, game_id: int) -> str | Response:
    """Enter a hand: who went out, then each other player's cards or total."""
    group = group_for(code)
    game = _game(group, game_id)
    if game.status is not GameStatus.IN_PROGRESS:
        flash(_("This game is over: no more hands to enter."))
        return redirect(url_for("games.show", code=group.code, game_id=game.id))
    sheet = crapouille_web.sheet_before(game)
    number = len(game.rounds) + 1
    form = hand_form(game.players, number, sheet)
    if form.validate_on_submit():
        outcome = form.outcome  # type: ignore[attr-defined]
        entry = crapouille_web.entry_for(form.winner.data, form.hands, form.points)  # type: ignore[attr-defined]
        db.session.add(Round(game=game, number=number, entry=entry, result=crapouille_web.result_for(outcome)))
        if outcome.over:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
        game.updated_at = utcnow()
        try:
            db.session.commit()
        except sa.exc.IntegrityError:
            db.session.rollback()
            flash(_("This hand was already saved from another device; here is the game now."))
            return redirect(url_for("games.show", code=group.code, game_id=game.id))
        return redirect(url_for("games.show", code=group.code, game_id=game.id, _anchor="totals"))
    names = {str(p.id): p.name for p in game.players}
    lang = current_lang()
    return render_template(
        "games/crapouille_hand.html",
        group=group,
        game=game,
        form=form,
        number=number,
        sheet=sheet,
        names=names,
        live=[p for p in game.players if str(p.id) in sheet.in_play],
        copies=crapouille.DECK.limit(Card(rank=Rank.ACE, suit=Suit.SPADES)),
        jokers=crapouille.DECK.joker_limit,
        ranks=[(r.value, r.label(lang)) for r in RANKS_BY_PIPS],
        suits=[(s.value, s.symbol) for s in Suit],
    )


@bp.post("/g/<code>/games/<int:game_id>/hands/last/delete")
def delete_last_hand(code: str, game_id: int) -> Response:
    """Take back the last hand entered (a mistake at the table), reopening the game."""
    group = group_for(code)
    game = _game(group, game_id)
    if game.rounds and game.status is not GameStatus.ABANDONED:
        last = game.rounds[-1]
        game.rounds.remove(last)
        game.status = GameStatus.IN_PROGRESS
        game.finished_at = None
        game.updated_at = utcnow()
        db.session.commit()
        flash(_("Hand %(n)d deleted.", n=last.number))
    return redirect(url_for("games.show", code=group.code, game_id=game.id))


@bp.post("/g/<code>/games/<int:game_id>/abandon")
def abandon(code: str, game_id: int) -> Response:
    """Stop a game without a winner (it stays in the history)."""
    group = group_for(code)
    game = _game(group, game_id)
    if game.status is GameStatus.IN_PROGRESS:
        game.status = GameStatus.ABANDONED
        game.updated_at = utcnow()
        db.session.commit()
        flash(_("Game abandoned."))
    return redirect(url_for("games.show", code=group.code, game_id=game.id))
