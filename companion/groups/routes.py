"""Pages of a group: create, join, leave, players, seasons."""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache
from urllib.parse import urlsplit

import sqlalchemy as sa
from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from companion.clock import NIGHT_STARTS_AT, use_zone, zone_place_here
from companion.extensions import db
from companion.forms import storable
from companion.games.results import rebuild
from companion.games.standings import games_of, round_counts, season_standings
from companion.groups import bp
from companion.groups.forms import (
    ClockForm,
    DeviceForm,
    GroupForm,
    PassphraseForm,
    PlayerForm,
    SeasonForm,
    WhoForm,
    typed_passphrases,
)
from companion.groups.invite import after_joining
from companion.groups.throttle import Verdict, before_create, before_guess, guessed_right, wait_message
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.membership.access import LEFT_KEY, current_device, device_name, group_for, owns, revoke
from companion.membership.access import join as join_group
from companion.membership.forms import JoinForm
from companion.models import Device, GameStatus, Group, Player, Season, name_key, utcnow
from companion.pagecache import Fragments, KeptPage, page_cache
from companion.undo import confirmation_page, confirmed, offer, within_reach
from companion.watch import group_state
from companion.writes import commit_once, done_before, remember

#: Finished or abandoned games listed on the group page (the latest).
RECENT_GAMES = 10


@cache
def _decoy_hash(method: str) -> str:
    """Checked when a code is unknown, so that it costs what a wrong passphrase costs:
    hashed with the method passphrases are hashed with (``PASSPHRASE_HASH_METHOD``)."""
    return generate_password_hash("not a passphrase", method=method)


def _safe_next(default: str) -> str:
    target = request.args.get("next", "")
    if target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return default


def _too_many_tries(form: JoinForm, verdict: Verdict) -> ResponseReturnValue:
    """The join page, saying when to try again — a time on this phone's clock (its latest
    group's; else the default one, which ``static/local-time.js`` turns into the phone's
    own) — and that a QR code shown by a phone of the group needs no passphrase."""
    use_zone(verdict.guesser.zone)
    page = render_template(
        "groups/join.html",
        form=form,
        wait=verdict.wait,
        wait_until=utcnow() + timedelta(seconds=verdict.wait),
        own_allowance=verdict.guesser.own is not None,
    )
    return page, 429, {"Retry-After": str(verdict.wait)}


@bp.route("/groups/new", methods=["GET", "POST"])
def create() -> ResponseReturnValue:
    """Anyone may create a group (a few an hour per client); the creating device joins it."""
    form = GroupForm()
    earlier = form.is_submitted() and done_before(form.once.data)
    if earlier:
        return redirect(earlier)
    if form.validate_on_submit():
        token = form.once.data
        wait = before_create()
        if wait:
            form.name.errors = [wait_message(wait)]
            return render_template("groups/new.html", form=form), 429, {"Retry-After": str(wait)}
        code = Group.new_code()
        while db.session.scalar(sa.select(Group.id).where(Group.code == code)) is not None:
            code = Group.new_code()
        group = Group(code=code, name=form.name.data)
        group.set_passphrase(form.passphrase.data)
        season = Season(starts_on=date.today(), is_current=True)
        season.rename(str(date.today().year))
        group.seasons.append(season)
        db.session.add(group)
        join_group(group, device_name(form.device_name.data, group))
        url = url_for("groups.show", code=group.code)
        remember(token, url)
        earlier = commit_once(token)
        if earlier is not None:
            return redirect(earlier)
        flash(_("Group created. Share its code %(code)s and the passphrase with your friends.", code=group.code))
        return redirect(url)
    return render_template("groups/new.html", form=form)


@bp.route("/join", methods=["GET", "POST"])
def join() -> ResponseReturnValue:
    """Join a group with its code and passphrase (guesses are slowed down per client).

    An unknown code and a wrong passphrase get the same answer, after the same work
    (a passphrase hash is checked either way), so codes cannot be told apart; the code of
    a group an import has not finished (``Group.complete``) is an unknown one.
    """
    form = JoinForm()
    if request.method == "GET" and request.args.get("code"):
        code = request.args["code"].strip().upper()[:12]
        form.code.data = code if storable(code) else ""
    if form.validate_on_submit():
        code = form.code.data
        verdict = before_guess(code)
        if verdict.wait:
            return _too_many_tries(form, verdict)
        # A group an import is still writing (or left part way) is no group yet: its code
        # gets the answer of an unknown one.
        group = db.session.scalar(sa.select(Group).where(Group.code == code, Group.complete))
        typed = typed_passphrases(form.passphrase)
        if group is None:
            for passphrase in typed:  # the same work as a wrong passphrase
                check_password_hash(_decoy_hash(current_app.config["PASSPHRASE_HASH_METHOD"]), passphrase)
            right = False
        else:
            right = any([group.check_passphrase(passphrase) for passphrase in typed])
        if group is None or not right:
            form.passphrase.errors = [_("Wrong code or passphrase.")]
            return render_template("groups/join.html", form=form), 403
        guessed_right(code, verdict)
        join_group(group, device_name(form.device_name.data, group))
        db.session.commit()
        flash(_("Welcome to %(name)s.", name=group.name))
        return redirect(after_joining(group, _safe_next(url_for("groups.show", code=group.code))))
    return render_template("groups/join.html", form=form)


@bp.get("/g/<code>")
def show(code: str) -> str:
    """The group's page: games in progress, the current season, shortcuts.

    What it shows of the group is kept (``companion.pagecache``) while the group's watch
    token (its name, current season, games and their versions, players' names) stays the
    same: then the page costs two small queries."""
    # The token is read before what it stands for: a change meanwhile shows at the next poll.
    group, token, player_count = group_state(code)
    key = ("group", group.id, current_lang(), request.script_root)
    stamp = token
    cache = page_cache()
    kept = cache.get(key, stamp)
    page = {
        "group": group,
        "player_count": player_count,
        "watch_url": url_for("watch.group", code=group.code),
        "watch_token": token,
    }
    if kept is not None:
        return render_template("groups/show.html", cached=Fragments(kept), **page)
    season = group.current_season
    games = games_of([season.id], GameStatus.IN_PROGRESS, others=RECENT_GAMES) if season else []
    in_progress = [g for g in games if g.status is GameStatus.IN_PROGRESS]
    cached = Fragments()
    html = render_template(
        "groups/show.html",
        cached=cached,
        season=season,
        in_progress=in_progress,
        round_counts=round_counts(in_progress),
        recent=[g for g in games if g.status is not GameStatus.IN_PROGRESS],
        **page,
    )
    cache.put(key, KeptPage(stamp, cached.made))
    return html


@bp.post("/g/<code>/leave")
def leave(code: str) -> ResponseReturnValue:
    """This device leaves the group: its record is revoked at once (nothing else is
    deleted).  Asked once; can be undone for a few minutes from this device."""
    group = group_for(code)
    if not confirmed():
        return confirmation_page(
            _("Forget %(name)s on this device?", name=group.name),
            _("This device will need the passphrase to come back. Nothing of the group is deleted."),
            _("Forget the group"),
            url_for("groups.show", code=group.code),
            group=group,
        )
    device = current_device()
    if device is not None:
        revoke(device)
        session[LEFT_KEY] = device.id
    db.session.commit()
    offer(_("This device left %(name)s.", name=group.name), url_for("groups.rejoin", code=group.code))
    return redirect(url_for("main.home"))


@bp.post("/g/<code>/rejoin")
def rejoin(code: str) -> Response:
    """Undo leaving: the device this browser just revoked comes back, for a few minutes."""
    device_id = session.get(LEFT_KEY)
    device = db.session.get(Device, device_id) if isinstance(device_id, int) else None
    group = db.session.scalar(sa.select(Group).where(Group.code == code.upper()[:12]))
    if (
        device is None
        or group is None
        or device.group_id != group.id
        or device.revoked_at is None
        or not within_reach(device.revoked_at)
        or not owns(device)
    ):
        flash(_("This can no longer be undone: join the group again with its passphrase."))
        return redirect(url_for("groups.join", code=code.upper()[:12]))
    device.revoked_at = None
    session.pop(LEFT_KEY, None)
    db.session.commit()
    flash(_("Welcome back to %(name)s.", name=group.name))
    return redirect(url_for("groups.show", code=group.code))


@bp.route("/g/<code>/me", methods=["GET", "POST"])
def who(code: str) -> ResponseReturnValue:
    """Which player this device belongs to (« Qui êtes-vous ? »): « moi », « je » and
    « j’ai » in a round said in one line are that player. Offered once after joining,
    and from the devices page or a line that said « moi »."""
    group = group_for(code)
    device = current_device()
    then = _safe_next(url_for("groups.devices", code=group.code))
    if device is None:
        return redirect(then)
    players = list(db.session.scalars(sa.select(Player).where(Player.group_id == group.id)))
    guess = (
        None
        if device.player_id is not None
        else next((p for p in players if p.name_key == name_key(device.name)), None)
    )
    chosen = device.player_id if guess is None else guess.id
    form = WhoForm(players, data={"player": str(chosen or "")} if request.method == "GET" else None)
    if form.validate_on_submit():
        player = form.chosen
        device.player_id = player.id if player is not None else None
        db.session.commit()
        if player is not None:
            flash(_("On this device, “me” is %(name)s.", name=player.name))
        else:
            flash(_("This device belongs to nobody of the list: “me” will be asked."))
        return redirect(then)
    return render_template("groups/who.html", group=group, form=form, then=then), 400 if form.errors else 200


@bp.route("/g/<code>/devices", methods=["GET", "POST"])
def devices(code: str) -> ResponseReturnValue:
    """The devices of the group: rename this one, remove others, change the passphrase."""
    group = group_for(code)
    device = current_device()
    form = DeviceForm(prefix="device", data={"name": device.name} if device and request.method == "GET" else None)
    passphrase_form = PassphraseForm(group, prefix="pass")
    if device is not None and form.submit.data and form.validate_on_submit():
        device.name = form.name.data
        db.session.commit()
        flash(_("This device is now called %(name)s.", name=device.name))
        return redirect(url_for("groups.devices", code=group.code))
    if passphrase_form.submit.data and passphrase_form.validate_on_submit():
        group.set_passphrase(passphrase_form.passphrase.data)
        if passphrase_form.sign_out_others.data:
            db.session.execute(
                sa.update(Device)
                .where(Device.group_id == group.id, Device.revoked_at.is_(None), Device.id != getattr(device, "id", 0))
                .values(revoked_at=utcnow())
            )
        db.session.commit()
        if passphrase_form.sign_out_others.data:
            flash(_("Passphrase changed. Every other device is signed out."))
        else:
            flash(_("Passphrase changed."))
        return redirect(url_for("groups.devices", code=group.code))
    listed = list(
        db.session.scalars(
            sa.select(Device)
            .where(Device.group_id == group.id, Device.revoked_at.is_(None))
            .order_by(Device.created_at)
        )
    )
    owner = db.session.get(Player, device.player_id) if device is not None and device.player_id else None
    return render_template(
        "groups/devices.html",
        group=group,
        device=device,
        owner=owner,
        devices=listed,
        form=form,
        passphrase_form=passphrase_form,
    )


def _clock_page() -> dict[str, object]:
    return {"night_starts_at": NIGHT_STARTS_AT, "now": utcnow}


@bp.route("/g/<code>/clock", methods=["GET", "POST"])
def clock(code: str) -> ResponseReturnValue:
    """The group's time zone: every time its pages show, and the game night (soirée) each
    game belongs to. A change recomputes the group's stored results (their nights) in the
    same transaction. The form names the zone it was shown with: a change made meanwhile
    from another phone is not overwritten; sending the same change twice changes once."""
    group = group_for(code)
    form = ClockForm(
        current=group.time_zone,
        data={"time_zone": group.time_zone, "shown": group.time_zone} if request.method == "GET" else None,
    )
    if form.validate_on_submit():
        wanted, shown = form.time_zone.data, form.shown.data
        moved = db.session.execute(
            sa.update(Group)
            .where(Group.id == group.id, Group.time_zone == shown)
            .values(time_zone=wanted)
            .execution_options(synchronize_session=False)
        ).rowcount
        if not moved and group.time_zone != wanted:
            db.session.rollback()
            form.time_zone.errors = [
                _(
                    "The time zone was changed meanwhile from another device, to %(zone)s.",
                    zone=zone_place_here(group.time_zone),
                )
            ]
            form.shown.data = group.time_zone
            return render_template("groups/clock.html", group=group, form=form, **_clock_page()), 409
        if moved and wanted != shown:
            # Every game's night, rating and totals on the new clock (one definition).
            rebuild(db.session, [season.id for season in group.seasons])
        db.session.commit()
        flash(_("The group's time zone is %(zone)s.", zone=zone_place_here(wanted)))
        return redirect(url_for("groups.show", code=group.code))
    return render_template("groups/clock.html", group=group, form=form, **_clock_page())


@bp.post("/g/<code>/devices/<int:device_id>/remove")
def remove_device(code: str, device_id: int) -> ResponseReturnValue:
    """Remove a device from the group (asked once): its cookie opens nothing any more."""
    group = group_for(code)
    target = db.session.scalar(
        sa.select(Device).where(Device.id == device_id, Device.group_id == group.id, Device.revoked_at.is_(None))
    )
    if target is not None and not confirmed():
        return confirmation_page(
            _("Remove %(name)s?", name=target.name),
            _("This device will need the passphrase to come back."),
            _("Remove"),
            url_for("groups.devices", code=group.code),
            group=group,
        )
    if target is not None:
        revoke(target)
        db.session.commit()
        flash(_("%(name)s was removed from the group.", name=target.name))
    if target is not None and target is current_device():
        return redirect(url_for("main.home"))
    return redirect(url_for("groups.devices", code=group.code))


@bp.route("/g/<code>/players", methods=["GET", "POST"])
def players(code: str) -> ResponseReturnValue:
    """The group's players, and a form to add one."""
    group = group_for(code)
    form = PlayerForm(group)
    url = _safe_next(url_for("groups.players", code=group.code, added=1))
    if form.is_submitted() and done_before(form.once.data):
        return redirect(url)
    if form.validate_on_submit():
        token = form.once.data
        player = Player(group=group)
        player.rename(form.name.data)
        db.session.add(player)
        remember(token, url)
        try:
            if commit_once(token) is not None:
                return redirect(url)
        except sa.exc.IntegrityError:  # the same name, added a moment ago from another phone
            form.name.errors = [_("This group already has a player named %(name)s.", name=form.name.data)]
            return render_template("groups/players.html", group=group, form=form), 409
        flash(_("%(name)s joined the group.", name=player.name))
        return redirect(url)
    return render_template("groups/players.html", group=group, form=form)


@bp.route("/g/<code>/players/<int:player_id>", methods=["GET", "POST"])
def rename_player(code: str, player_id: int) -> ResponseReturnValue:
    """Rename a player; his games and scores follow him."""
    group = group_for(code)
    player = db.first_or_404(sa.select(Player).where(Player.id == player_id, Player.group_id == group.id))
    form = PlayerForm(group, player, data={"name": player.name} if request.method == "GET" else None)
    if form.validate_on_submit():
        player.rename(form.name.data)
        try:
            db.session.commit()
        except sa.exc.IntegrityError:  # the same name, given a moment ago from another phone
            db.session.rollback()
            form.name.errors = [_("This group already has a player named %(name)s.", name=form.name.data)]
            return render_template("groups/rename_player.html", group=group, player=player, form=form), 409
        flash(_("Renamed to %(name)s.", name=player.name))
        return redirect(url_for("groups.players", code=group.code))
    return render_template("groups/rename_player.html", group=group, player=player, form=form)


@bp.route("/g/<code>/seasons", methods=["GET", "POST"])
def seasons(code: str) -> ResponseReturnValue:
    """The group's seasons; starting a new one makes it current."""
    group = group_for(code)
    form = SeasonForm(group)
    earlier = form.is_submitted() and done_before(form.once.data)
    if earlier:
        return redirect(earlier)
    if form.validate_on_submit():
        token = form.once.data
        season = Season(starts_on=form.starts_on.data, is_current=False)
        season.rename(form.name.data)
        group.seasons.append(season)
        try:
            season.make_current()
            remember(token, url_for("groups.season", code=group.code, season_id=season.id))
            earlier = commit_once(token)
        except sa.exc.IntegrityError:  # the same name, or another season, started a moment ago
            db.session.rollback()
            taken = sa.select(Season.id).where(Season.group_id == group.id, Season.name_key == name_key(form.name.data))
            if db.session.scalar(taken) is not None:
                form.name.errors = [_("This group already has a season named %(name)s.", name=form.name.data)]
            else:
                form.name.errors = [_("Another season was just started from another device; reload the page.")]
            return render_template("groups/seasons.html", group=group, form=form), 409
        if earlier is not None:
            return redirect(earlier)
        flash(_("Season %(name)s started.", name=season.name))
        return redirect(url_for("groups.season", code=group.code, season_id=season.id))
    return render_template("groups/seasons.html", group=group, form=form)


@bp.post("/g/<code>/seasons/<int:season_id>/current")
def make_current(code: str, season_id: int) -> Response:
    """Make an earlier season current again."""
    group = group_for(code)
    season = db.first_or_404(sa.select(Season).where(Season.id == season_id, Season.group_id == group.id))
    try:
        season.make_current()
        db.session.commit()
    except sa.exc.IntegrityError:  # another phone made another season current at the same moment
        db.session.rollback()
        flash(_("Another season was just made current from another device; try again."))
        return redirect(url_for("groups.season", code=group.code, season_id=season.id))
    flash(_("%(name)s is now the current season.", name=season.name))
    return redirect(url_for("groups.season", code=group.code, season_id=season.id))


@bp.get("/g/<code>/seasons/<int:season_id>")
def season(code: str, season_id: int) -> str:
    """A season's standings and a page of its games (read from stored results)."""
    group = group_for(code)
    season = db.first_or_404(sa.select(Season).where(Season.id == season_id, Season.group_id == group.id))
    return render_template("groups/season.html", group=group, season=season, standings=season_standings(season))
