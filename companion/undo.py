"""Destructive actions ask once, and can be undone for a while.

A view that deletes something calls :func:`confirmed`: unless the form says it was
confirmed (the script asked, or the confirmation page was shown), it answers the
confirmation page instead, with the same fields.  Once done, :func:`offer` puts an
"Undo" button on the next page the device shows; the undo itself is checked by the
view that receives it (within :data:`UNDO_MINUTES`, and only if nothing changed since).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import render_template, request, session

from companion.models import utcnow

UNDO_KEY = "undo"
#: How long an undo stays possible.
UNDO_MINUTES = 10


def confirmed() -> bool:
    """Whether the posted form carries the confirmation."""
    return request.form.get("confirmed") == "1"


def confirmation_page(title: str, message: str, button: str, back: str, **context: Any) -> str:
    """The page that asks once, posting the same form again with ``confirmed=1``."""
    fields = {k: v for k, v in request.form.items() if k not in ("csrf_token", "confirmed")}
    return render_template(
        "confirm.html", title=title, message=message, button=button, back=back, fields=fields, **context
    )


def offer(message: str, url: str, **fields: Any) -> None:
    """Show an "Undo" button, once, on the next page this device sees."""
    session[UNDO_KEY] = {"message": message, "url": url, "fields": {k: str(v) for k, v in fields.items()}}


def pending_undo() -> dict[str, Any] | None:
    """The undo offer to show on this page (taken from the session: shown once)."""
    if UNDO_KEY not in session or request.method != "GET":
        return None
    offer_ = session.pop(UNDO_KEY)
    return offer_ if isinstance(offer_, dict) else None


def within_reach(moment: datetime) -> bool:
    """Whether something done at ``moment`` may still be undone."""
    if moment.tzinfo is None:  # SQLite gives back naive UTC times
        moment = moment.replace(tzinfo=utcnow().tzinfo)
    return utcnow() - moment <= timedelta(minutes=UNDO_MINUTES)
