"""Which groups this device has joined, and the passphrase throttle.

A device joins a group by giving its passphrase once; the signed session cookie
then remembers the group's id.  Everything of a group is served only to devices
that joined it.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask import abort, current_app, redirect, request, session, url_for
from werkzeug.exceptions import HTTPException

from companion.extensions import db
from companion.models import Group, PassphraseFailure, utcnow

SESSION_KEY = "groups"


def joined_ids() -> list[int]:
    """Ids of the groups this device joined."""
    ids = session.get(SESSION_KEY, [])
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def joined_groups() -> list[Group]:
    """The groups this device joined, by name."""
    ids = joined_ids()
    if not ids:
        return []
    return list(db.session.scalars(sa.select(Group).where(Group.id.in_(ids)).order_by(Group.name)))


def join(group: Group) -> None:
    """Remember on this device that it joined ``group``."""
    session.permanent = True
    ids = joined_ids()
    if group.id not in ids:
        session[SESSION_KEY] = [*ids, group.id]


def leave(group: Group) -> None:
    """Forget ``group`` on this device."""
    session[SESSION_KEY] = [i for i in joined_ids() if i != group.id]


def group_for(code: str) -> Group:
    """The joined group of that code; a device that did not join it is sent to the
    join page (for a GET) or refused (403), learning nothing of the group."""
    group = db.session.scalar(sa.select(Group).where(Group.code == code.upper()))
    if group is not None and group.id in joined_ids():
        return group
    if request.method == "GET":
        raise HTTPException(response=redirect(url_for("groups.join", code=code.upper(), next=request.path)))
    abort(403)


def _client() -> str:
    return (request.remote_addr or "?")[:64]


def minutes_blocked(code: str) -> int:
    """Minutes this client must wait before trying a passphrase for ``code`` again (0: may try)."""
    window = timedelta(minutes=current_app.config["PASSPHRASE_WINDOW_MINUTES"])
    since = utcnow() - window
    failures = list(
        db.session.scalars(
            sa.select(PassphraseFailure.at)
            .where(PassphraseFailure.code == code.upper(), PassphraseFailure.client == _client())
            .where(PassphraseFailure.at >= since)
            .order_by(PassphraseFailure.at)
        )
    )
    if len(failures) < current_app.config["PASSPHRASE_MAX_FAILURES"]:
        return 0
    oldest = failures[-current_app.config["PASSPHRASE_MAX_FAILURES"]]
    if oldest.tzinfo is None:  # SQLite gives back naive UTC times
        oldest = oldest.replace(tzinfo=utcnow().tzinfo)
    remaining = oldest + window - utcnow()
    return max(1, int(remaining.total_seconds() // 60) + 1)


def record_failure(code: str) -> None:
    """Count one wrong passphrase (or unknown code) for this client."""
    db.session.add(PassphraseFailure(code=code.upper()[:12], client=_client()))
    old = utcnow() - timedelta(days=1)
    db.session.execute(sa.delete(PassphraseFailure).where(PassphraseFailure.at < old))
    db.session.commit()
