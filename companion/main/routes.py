"""Home page, language switch and the web manifest."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from companion.groups.access import joined_groups
from companion.groups.forms import JoinForm
from companion.i18n import LANG_COOKIE, LANGUAGES
from companion.main import bp


@bp.get("/")
def home() -> str:
    """The groups this device has joined, and ways to create or join one."""
    return render_template("home.html", groups=joined_groups(), join_form=JoinForm())


@bp.post("/lang/<lang>")
def set_language(lang: str) -> BaseResponse:
    """Switch the pages' language and go back where the player was (a POST: it changes state)."""
    target = request.form.get("next", "")
    # Only ever go back to a path of this site.
    if not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc:
        target = url_for("main.home")
    response = redirect(target)
    if lang in LANGUAGES:
        response.set_cookie(
            LANG_COOKIE, lang, max_age=60 * 60 * 24 * 400, samesite="Lax", httponly=True, secure=request.is_secure
        )
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Lets a phone add Companion to its home screen."""
    response = jsonify(
        {
            "name": "Companion",
            "short_name": "Companion",
            "description": _("Referee and scorekeeper for French card games"),
            "start_url": url_for("main.home"),
            "display": "standalone",
            "background_color": "#f6f3ea",
            "theme_color": "#1d5c3f",
            "lang": "fr",
            "icons": [
                {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response
