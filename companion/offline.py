"""At the table with a weak network: the service worker, its offline page, and the
outbox's way of sending what a phone kept while it was offline.

- ``/sw.js`` is ``static/sw.js`` served from the root, so that its scope is the whole
  site: it keeps the pages this phone opened readable offline (the last known state,
  marked as such) and keeps a round, an edit or a live move posted offline in the
  phone's IndexedDB outbox (``static/outbox.js``), sending it on its own when the
  network returns.
- ``/offline`` is the page it shows for a page never opened on this phone.
- ``/offline/token`` gives the outbox a fresh CSRF token just before it sends: a form
  kept for an hour (or a day) carries a token that may no longer be this session's
  (joining a group renews it); the outbox swaps it, so a replay is judged on what it
  says, never refused for its age.
- A POST the outbox sends carries ``X-Companion-Outbox: 1``. Its answer, whatever
  the page would have been, becomes ``{"outcome", "status", "messages"}``: ``sent``
  (saved), ``duplicate`` (it had been saved already: a retry of a post whose answer
  was lost), ``conflict`` (another phone changed the game first: nothing was saved),
  or ``refused`` (nothing was saved; the page it would have shown says why). Views say
  which with :func:`companion.writes.outcome`; without a word from the view, a redirect
  is ``sent``, a 409 ``conflict`` and anything else ``refused``. The flashed messages
  of that answer go into it instead of waiting for the next page.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Flask, jsonify, render_template, request, session, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from companion.writes import OUTCOME

bp = Blueprint("offline", __name__)

WORKER = Path(__file__).resolve().parent.parent / "static" / "sw.js"
OUTBOX_HEADER = "X-Companion-Outbox"


#: The static files a phone keeps from its first visit (the app shell).
SHELL = (".css", ".js", ".svg", ".png")


def _shell() -> tuple[str, list[str]]:
    """The static files of the app shell and a version that changes with any of them."""
    digest = hashlib.sha256(WORKER.read_bytes())
    names = sorted(p.name for p in WORKER.parent.iterdir() if p.suffix in SHELL and p.name != WORKER.name)
    for name in names:
        digest.update(name.encode() + b"\0" + (WORKER.parent / name).read_bytes())
    return digest.hexdigest()[:16], [url_for("static", filename=name) for name in names]


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker, from the root so that it may serve every page. Its first
    lines name the app shell and its version: a new static file is a new worker."""
    version, assets = _shell()
    head = f"var VERSION = {json.dumps(version)};\nvar ASSETS = {json.dumps(assets)};\n"
    response = Response(head.encode() + WORKER.read_bytes(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def page() -> str:
    """What the phone shows offline for a page it never opened."""
    return render_template("offline.html")


@bp.get("/offline/token")
def token() -> Response:
    """A CSRF token of this session, for the outbox to send a kept form with."""
    response = jsonify({"csrf_token": generate_csrf()})
    response.headers["Cache-Control"] = "no-store"
    return response


def _outcome_of(response: Response) -> str:
    said = request.environ.get(OUTCOME)
    if isinstance(said, str):
        return said
    if 300 <= response.status_code < 400:
        return "sent"
    return "conflict" if response.status_code == 409 else "refused"


def init_app(app: Flask) -> None:
    """Register the routes and the outbox's answers."""
    app.register_blueprint(bp)

    @app.after_request
    def outbox_answer(response: Response) -> Response:
        if request.method != "POST" or request.headers.get(OUTBOX_HEADER) != "1" or request.path.startswith("/api/"):
            return response
        flashes = session.pop("_flashes", None) or []
        answer = jsonify(
            {
                "outcome": _outcome_of(response),
                "status": response.status_code,
                "messages": [str(message) for _category, message in flashes],
            }
        )
        answer.headers["Cache-Control"] = "no-store"
        return answer
