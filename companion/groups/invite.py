"""Joining by QR code: a device of the group shows a code that another phone scans.

- ``GET /g/<code>/invite`` explains, lists the codes still valid (each revocable), and
  offers « Montrer un code QR » (a POST: a GET never writes).
- ``POST /g/<code>/invite`` makes a :class:`JoinToken`: a random 256-bit token of which
  only the hash is stored, valid ``JOIN_TOKEN_MINUTES`` and once.  The raw token cannot
  be read back from the database, so the creating device keeps it in its own session
  (:data:`INVITES_KEY`, by token id) and is sent (303) to ``GET /g/<code>/invite/<id>``,
  which draws it as a QR code for as long as it is valid — reloading the page, or
  switching language or theme, shows the same code again.  The session cookie is
  signed, not encrypted, but it goes only to that device, which is already in the
  group: the token gives it nothing it has not got.  Other devices of the group see
  that the code exists (and may revoke it) but cannot show it.
- ``GET /join/t/<token>`` (the link in the QR code) asks the new phone its name;
  ``POST`` spends the token with one conditional ``UPDATE`` (unused, unrevoked,
  unexpired: of two phones only one joins) and joins the group.  A GET never spends
  it (link previewers open links too).  A token expired, used, revoked, made by a
  device no longer in the group, unknown or malformed leads to the normal join page
  (the group's code filled in when the token is known); a device already in the group
  goes to the group's page, leaving the token for the phone it was meant for.  Pages
  that carry a live token are sent ``Cache-Control: no-store``.
"""

from __future__ import annotations

import math
import re
import secrets
from datetime import datetime, timedelta

import segno
import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import current_app, flash, redirect, render_template, session, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.groups import bp
from companion.groups.forms import TokenJoinForm
from companion.i18n import gettext as _
from companion.membership.access import current_device, device_for, device_name, group_for, token_hash
from companion.membership.access import join as join_group
from companion.models import Device, Group, JoinToken, Player, utcnow

#: Session key: the raw tokens this device created and may still show, by token id.
INVITES_KEY = "invites"
#: Session key: the invitation (a token's id) whose link this browser opened while it
#: was valid. While it stays valid the phone guesses passphrases on its own allowance,
#: not its address's (``companion.groups.throttle``).
INVITED_KEY = "invited"
#: At most this many raw tokens are kept in the session (the cookie stays small).
INVITES_KEPT = 4
#: What ``secrets.token_urlsafe(32)`` gives: 43 URL-safe characters.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
#: Used and expired tokens are forgotten this long after they expire.
_KEPT_AFTER_EXPIRY = timedelta(days=1)
#: A page that carries a live token is kept by no cache (it is good once, for minutes).
_NOT_KEPT = {"Cache-Control": "no-store"}


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


def _valid(now: datetime) -> sa.ColumnElement[bool]:
    """The SQL condition of a token that can still be used (see :func:`is_valid`)."""
    return sa.and_(
        JoinToken.used_at.is_(None),
        JoinToken.revoked_at.is_(None),
        JoinToken.expires_at > now,
        sa.exists().where(Device.id == JoinToken.device_id, Device.revoked_at.is_(None)),
    )


def is_valid(token: JoinToken, now: datetime | None = None) -> bool:
    """Whether ``token`` can still be used: not used, not revoked, not expired, and made
    by a device still in the group (a phone removed from the group takes its codes along)."""
    now = now or utcnow()
    return (
        token.used_at is None
        and token.revoked_at is None
        and _aware(token.expires_at) > now
        and token.device is not None
        and token.device.revoked_at is None
    )


def minutes_left(token: JoinToken) -> int:
    """Whole minutes (rounded up) before ``token`` expires."""
    return max(0, math.ceil((_aware(token.expires_at) - utcnow()).total_seconds() / 60))


def _lifetime() -> int:
    return int(current_app.config.get("JOIN_TOKEN_MINUTES", 10))


def _active_tokens(group: Group) -> list[JoinToken]:
    """The group's tokens still valid, newest first, with the device showing each (one query)."""
    query = (
        sa.select(JoinToken)
        .where(JoinToken.group_id == group.id, _valid(utcnow()))
        .options(so.joinedload(JoinToken.device))
    )
    return list(db.session.scalars(query.order_by(JoinToken.created_at.desc(), JoinToken.id.desc())))


def _shown() -> dict[str, str]:
    """The raw tokens this device may show, by token id (as the session keeps them)."""
    kept = session.get(INVITES_KEY)
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str) and _TOKEN.fullmatch(v)}


def _keep(token_id: int, raw: str, still_valid: set[int]) -> None:
    """Keep ``raw`` in the session for display, with the other tokens still valid (a few)."""
    kept = {k: v for k, v in _shown().items() if k.isascii() and k.isdigit() and int(k) in still_valid}
    kept[str(token_id)] = raw
    newest = sorted(kept.items(), key=lambda item: int(item[0]))[-INVITES_KEPT:]  # the session sorts its keys as text
    session[INVITES_KEY] = dict(newest)


def _drop(token_id: int) -> None:
    kept = _shown()
    if kept.pop(str(token_id), None) is not None:
        session[INVITES_KEY] = kept


def qr_svg(url: str) -> Markup:
    """``url`` as an inline SVG QR code (no style attribute: the CSP has no unsafe-inline).

    Dark modules on a white square with its quiet zone, in both themes: scanners read
    dark-on-light codes best.  Sized by CSS (``.qr``), from the SVG's viewBox.
    """
    code = segno.make(url, error="m", micro=False)
    return Markup(code.svg_inline(scale=1, omitsize=True, dark="#000", light="#fff"))


def _expired_or_used(group: Group | None = None) -> Response:
    """The normal join page, saying why the QR code did not open the group."""
    flash(
        _("This QR code has expired or has already been used: ask for a new one, or enter the code and the passphrase.")
    )
    if group is None:
        return redirect(url_for("groups.join"))
    return redirect(url_for("groups.join", code=group.code))


@bp.get("/g/<code>/invite")
def invite(code: str) -> str:
    """How to invite a phone, the codes still valid, and the button that makes one."""
    group = group_for(code)
    return render_template(
        "groups/invite.html", group=group, tokens=_active_tokens(group), minutes=_lifetime(), minutes_left=minutes_left
    )


@bp.post("/g/<code>/invite")
def new_invite(code: str) -> Response:
    """Make a single-use token and show it as a QR code (a double tap makes two: harmless)."""
    group = group_for(code)
    now = utcnow()
    raw = secrets.token_urlsafe(32)
    token = JoinToken(
        group=group,
        token_hash=token_hash(raw),
        device=current_device(),
        created_at=now,
        expires_at=now + timedelta(minutes=_lifetime()),
    )
    db.session.add(token)
    db.session.execute(
        sa.delete(JoinToken).where(JoinToken.expires_at < now - _KEPT_AFTER_EXPIRY),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    _keep(token.id, raw, {t.id for t in _active_tokens(group)})
    return redirect(url_for("groups.show_invite", code=group.code, token_id=token.id), 303)


@bp.get("/g/<code>/invite/<int:token_id>")
def show_invite(code: str, token_id: int) -> ResponseReturnValue:
    """The QR code this device made, while it is valid; else back to the invite page."""
    group = group_for(code)
    token = db.session.scalar(sa.select(JoinToken).where(JoinToken.id == token_id, JoinToken.group_id == group.id))
    raw = _shown().get(str(token_id))
    if token is None or raw is None or token_hash(raw) != token.token_hash:
        flash(_("This QR code can no longer be shown: show a new one."))
        return redirect(url_for("groups.invite", code=group.code))
    if not is_valid(token):
        if token.used_at is not None and token.used_by is not None:
            flash(_("%(name)s joined the group with this QR code.", name=token.used_by.name))
        else:
            flash(_("This QR code is no longer valid: show a new one."))
        return redirect(url_for("groups.invite", code=group.code))
    url = url_for("groups.join_by_token", token=raw, _external=True)
    page = render_template(
        "groups/invite_qr.html",
        group=group,
        token=token,
        url=url,
        qr=qr_svg(url),
        tokens=_active_tokens(group),
        minutes=_lifetime(),
        minutes_left=minutes_left,
    )
    return page, 200, _NOT_KEPT


@bp.post("/g/<code>/invite/<int:token_id>/revoke")
def revoke_invite(code: str, token_id: int) -> Response:
    """Revoke a QR code of the group: its link opens nothing any more (any device may)."""
    group = group_for(code)
    revoked = db.session.execute(
        sa.update(JoinToken)
        .where(JoinToken.id == token_id, JoinToken.group_id == group.id, JoinToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    db.session.commit()
    _drop(token_id)
    if revoked.rowcount:
        flash(_("QR code revoked: it no longer lets anyone in."))
    return redirect(url_for("groups.invite", code=group.code), 303)


def _known(token: str) -> JoinToken | None:
    """The token of that link (any state), or None; malformed text is never queried."""
    if not _TOKEN.fullmatch(token):
        return None
    return db.session.scalar(sa.select(JoinToken).where(JoinToken.token_hash == token_hash(token)))


@bp.route("/join/t/<path:token>", methods=["GET", "POST"])
def join_by_token(token: str) -> ResponseReturnValue:
    """The link of a QR code: name this device, then join (the POST spends the token)."""
    found = _known(token)
    if found is None:
        return _expired_or_used()
    group = found.group
    if device_for(group) is not None:
        flash(_("This device is already in %(name)s.", name=group.name))
        return redirect(url_for("groups.show", code=group.code))
    if not is_valid(found):
        return _expired_or_used(group)
    session[INVITED_KEY] = found.id
    form = TokenJoinForm()
    if form.validate_on_submit():
        now = utcnow()
        spent = db.session.execute(
            sa.update(JoinToken).where(JoinToken.id == found.id, _valid(now)).values(used_at=now),
            execution_options={"synchronize_session": False},  # SQLite's naive times cannot be compared here
        )
        if spent.rowcount != 1:  # another phone was quicker, or it was revoked meanwhile
            db.session.rollback()
            return _expired_or_used(group)
        device = join_group(group, device_name(form.device_name.data, group))
        db.session.flush()
        db.session.execute(sa.update(JoinToken).where(JoinToken.id == found.id).values(used_by_device_id=device.id))
        db.session.commit()
        flash(_("Welcome to %(name)s.", name=group.name))
        return redirect(after_joining(group, url_for("groups.show", code=group.code)))
    return render_template("groups/join_token.html", invited_to=group, form=form), 200, _NOT_KEPT


def after_joining(group: Group, then: str) -> str:
    """Where a device that just joined ``group`` goes: asked once which player it is
    (« Qui êtes-vous ? ») when the group has players, then ``then``."""
    if db.session.scalar(sa.select(Player.id).where(Player.group_id == group.id).limit(1)) is None:
        return then
    return url_for("groups.who", code=group.code, next=then)
