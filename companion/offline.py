"""At the table with a weak network: the service worker, its offline page, and the
outbox's way of sending what a phone kept while it was offline.

- ``/sw.js`` is ``static/sw.js`` served from the root, so that its scope is the whole
  site: it keeps the pages this phone opened readable offline (the last known state,
  marked as such) and keeps a round, an edit, a live move, a delete, a status change
  or an undo posted offline in the phone's IndexedDB outbox (``static/outbox.js``),
  sending it on its own when the network returns.
- ``/offline`` is the page it shows for a page never opened on this phone.
- ``/offline/token`` gives the outbox a fresh CSRF token just before it sends: a form
  kept for an hour (or a day) carries a token that may no longer be this session's
  (joining a group renews it); the outbox swaps it, so a replay is judged on what it
  says, never refused for its age.
- A POST the outbox sends carries ``X-Companion-Outbox: 1``. Its answer, whatever
  the page would have been, becomes ``{"outcome", "status", "messages"}`` (the outbox
  word under the key phones' cached ``sw.js`` read: the code calls it the outbox word,
  « outcome » being the rules API's): ``sent``
  (saved), ``duplicate`` (it had been saved already: a retry of a post whose answer
  was lost), ``conflict`` (another phone changed the game first: nothing was saved),
  or ``refused`` (nothing was saved; the page it would have shown says why). Views say
  which with :func:`companion.writes.tell_outbox`; without a word from the view, a redirect
  is ``sent``, a 409 ``conflict`` and anything else ``refused`` — so a view that
  redirects after changing nothing (a delete, a status change or an undo the game's
  version refuses: ``games.rounds.not_done``) must say what became of it. The flashed
  messages of that answer go into it instead of waiting for the next page.
- Every page of a group says, in the header ``X-Companion-State``, which state of
  the group it shows, so that the service worker never shows offline a copy older
  than what the phone has seen since (``static/sw.js``, ``stale``): ``CODE/ID N`` for
  a page of game ID (the game page, its round form, live screen, rules…) at version
  N, which orders them; ``CODE sTOKEN`` for the group's other pages, TOKEN being the
  group page's watch token (its name, current season and games, players' names),
  ordered by when the phone received them. The group page and the game pages have
  it at hand; the others read it in one more query.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, before_render_template, g, jsonify, render_template, request, session, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion.watch import group_state
from companion.writes import OUTBOX_WORD

bp = Blueprint("offline", __name__)

WORKER = Path(__file__).resolve().parent.parent / "static" / "sw.js"
OUTBOX_HEADER = "X-Companion-Outbox"
STATE_HEADER = "X-Companion-State"
_SHOWN = "companion.offline.shown"


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


def _outbox_word(response: Response) -> str:
    said = request.environ.get(OUTBOX_WORD)
    if isinstance(said, str):
        return said
    if 300 <= response.status_code < 400:
        return "sent"
    return "conflict" if response.status_code == 409 else "refused"


def _remember_shown(_app: Flask, template: Any, context: dict[str, Any], **_extra: Any) -> None:
    """What a page of a group shows, read as it is drawn (its objects may be expired
    once it is): its group's code, its game and version, its watch token. Kept in the
    request's environ (``g`` may outlive a request: a test's app context)."""
    if _SHOWN in request.environ:
        return
    code = getattr(context.get("group"), "code", None)
    if not isinstance(code, str):
        return
    game = context.get("game")
    game_id, version = getattr(game, "id", None), getattr(game, "version", None)
    if isinstance(game_id, int) and isinstance(version, int):
        request.environ[_SHOWN] = f"{code}/{game_id} {version}"
        return
    token = context.get("watch_token")
    request.environ[_SHOWN] = f"{code} {token}" if isinstance(token, str) and token.startswith("s") else code


def page_state() -> str | None:
    """The state of the group this page shows, as ``X-Companion-State`` says it (None
    when it shows no group, or none this device is in)."""
    shown: str | None = request.environ.get(_SHOWN)
    if shown is None or " " in shown:
        return shown
    if g.get("device") is None:
        return None
    try:
        token = group_state(shown)[1]
    except HTTPException:  # no longer in the group, since the page was drawn
        return None
    return f"{shown} {token}"


def init_app(app: Flask) -> None:
    """Register the routes, the outbox's answers and the pages' states."""
    app.register_blueprint(bp)
    before_render_template.connect(_remember_shown, app)

    @app.after_request
    def state_header(response: Response) -> Response:
        if request.method == "GET" and response.status_code == 200 and response.mimetype == "text/html":
            state = page_state()
            if state is not None:
                response.headers[STATE_HEADER] = state
        return response

    @app.after_request
    def outbox_answer(response: Response) -> Response:
        if request.method != "POST" or request.headers.get(OUTBOX_HEADER) != "1" or request.path.startswith("/api/"):
            return response
        flashes = session.pop("_flashes", None) or []
        answer = jsonify(
            {
                "outcome": _outbox_word(response),
                "status": response.status_code,
                "messages": [str(message) for _category, message in flashes],
            }
        )
        answer.headers["Cache-Control"] = "no-store"
        return answer
