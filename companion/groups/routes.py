"""Pages of a group: create, join, leave, players, seasons."""

from __future__ import annotations

from datetime import date
from urllib.parse import urlsplit

import sqlalchemy as sa
from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.games.standings import season_standings
from companion.groups import bp
from companion.groups.access import group_for, minutes_blocked, record_failure
from companion.groups.access import join as join_group
from companion.groups.access import leave as leave_group
from companion.groups.forms import GroupForm, JoinForm, PlayerForm, SeasonForm
from companion.models import Game, GameStatus, Group, Player, Season


def _safe_next(default: str) -> str:
    target = request.args.get("next", "")
    if target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return default


@bp.route("/groups/new", methods=["GET", "POST"])
def create() -> str | Response:
    """Anyone may create a group; the creating device joins it."""
    form = GroupForm()
    if form.validate_on_submit():
        code = Group.new_code()
        while db.session.scalar(sa.select(Group.id).where(Group.code == code)) is not None:
            code = Group.new_code()
        group = Group(code=code, name=form.name.data)
        group.set_passphrase(form.passphrase.data)
        season = Season(name=str(date.today().year), starts_on=date.today(), is_current=True)
        group.seasons.append(season)
        db.session.add(group)
        db.session.commit()
        join_group(group)
        flash(_("Group created. Share its code %(code)s and the passphrase with your friends.", code=group.code))
        return redirect(url_for("groups.show", code=group.code))
    return render_template("groups/new.html", form=form)


@bp.route("/join", methods=["GET", "POST"])
def join() -> str | Response:
    """Join a group with its code and passphrase (wrong passphrases are throttled)."""
    form = JoinForm()
    if request.method == "GET" and request.args.get("code"):
        form.code.data = request.args["code"].strip().upper()[:12]
    if form.validate_on_submit():
        code = form.code.data
        wait = minutes_blocked(code)
        if wait:
            form.passphrase.errors = [
                _("Too many wrong tries. Try again in %(minutes)d minutes.", minutes=wait),
            ]
            return render_template("groups/join.html", form=form), 429  # type: ignore[return-value]
        group = db.session.scalar(sa.select(Group).where(Group.code == code))
        if group is None or not group.check_passphrase(form.passphrase.data):
            record_failure(code)
            form.passphrase.errors = [_("Wrong code or passphrase.")]
            return render_template("groups/join.html", form=form), 403  # type: ignore[return-value]
        join_group(group)
        flash(_("Welcome to %(name)s.", name=group.name))
        return redirect(_safe_next(url_for("groups.show", code=group.code)))
    return render_template("groups/join.html", form=form)


@bp.get("/g/<code>")
def show(code: str) -> str:
    """The group's page: games in progress, the current season, shortcuts."""
    group = group_for(code)
    season = group.current_season
    games = season.games if season else []
    return render_template(
        "groups/show.html",
        group=group,
        season=season,
        in_progress=[g for g in games if g.status is GameStatus.IN_PROGRESS],
        recent=[g for g in games if g.status is not GameStatus.IN_PROGRESS][:10],
    )


@bp.post("/g/<code>/leave")
def leave(code: str) -> Response:
    """Forget the group on this device (nothing is deleted)."""
    group = group_for(code)
    leave_group(group)
    flash(_("This device left %(name)s.", name=group.name))
    return redirect(url_for("main.home"))


@bp.route("/g/<code>/players", methods=["GET", "POST"])
def players(code: str) -> str | Response:
    """The group's players, and a form to add one."""
    group = group_for(code)
    form = PlayerForm(group)
    if form.validate_on_submit():
        player = Player(group=group)
        player.rename(form.name.data)
        db.session.add(player)
        db.session.commit()
        flash(_("%(name)s joined the group.", name=player.name))
        return redirect(_safe_next(url_for("groups.players", code=group.code)))
    return render_template("groups/players.html", group=group, form=form)


@bp.route("/g/<code>/players/<int:player_id>", methods=["GET", "POST"])
def rename_player(code: str, player_id: int) -> str | Response:
    """Rename a player; his games and scores follow him."""
    group = group_for(code)
    player = db.first_or_404(sa.select(Player).where(Player.id == player_id, Player.group_id == group.id))
    form = PlayerForm(group, player, data={"name": player.name} if request.method == "GET" else None)
    if form.validate_on_submit():
        player.rename(form.name.data)
        db.session.commit()
        flash(_("Renamed to %(name)s.", name=player.name))
        return redirect(url_for("groups.players", code=group.code))
    return render_template("groups/rename_player.html", group=group, player=player, form=form)


@bp.route("/g/<code>/seasons", methods=["GET", "POST"])
def seasons(code: str) -> str | Response:
    """The group's seasons; starting a new one makes it current."""
    group = group_for(code)
    form = SeasonForm(group)
    if form.validate_on_submit():
        season = Season(name=form.name.data, starts_on=form.starts_on.data)
        group.seasons.append(season)
        season.make_current()
        db.session.commit()
        flash(_("Season %(name)s started.", name=season.name))
        return redirect(url_for("groups.season", code=group.code, season_id=season.id))
    return render_template("groups/seasons.html", group=group, form=form)


@bp.post("/g/<code>/seasons/<int:season_id>/current")
def make_current(code: str, season_id: int) -> Response:
    """Make an earlier season current again."""
    group = group_for(code)
    season = db.first_or_404(sa.select(Season).where(Season.id == season_id, Season.group_id == group.id))
    season.make_current()
    db.session.commit()
    flash(_("%(name)s is now the current season.", name=season.name))
    return redirect(url_for("groups.season", code=group.code, season_id=season.id))


@bp.get("/g/<code>/seasons/<int:season_id>")
def season(code: str, season_id: int) -> str:
    """A season's standings and games."""
    group = group_for(code)
    season = db.first_or_404(sa.select(Season).where(Season.id == season_id, Season.group_id == group.id))
    games = list(
        db.session.scalars(sa.select(Game).where(Game.season_id == season.id).order_by(Game.created_at.desc()))
    )
    return render_template(
        "groups/season.html", group=group, season=season, games=games, standings=season_standings(season)
    )
