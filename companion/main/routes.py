"""Home page, language switch and the web manifest."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.games.kinds import KINDS
from companion.i18n import LANG_COOKIE, LANGUAGES, THEME_COOKIE, THEMES
from companion.i18n import gettext as _
from companion.main import bp
from companion.membership.access import joined_groups
from companion.membership.forms import JoinForm


@bp.get("/")
def home() -> str:
    """The groups this device has joined with their games in progress, and ways to
    create or join one."""
    return render_template("home.html", groups=joined_groups(), join_form=JoinForm(), kinds=list(KINDS.values()))


def _back() -> str:
    """Where to go back after a switch: a path of this site only."""
    target = request.form.get("next", "")
    if not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc:
        return url_for("main.home")
    return target


def _keep(response: BaseResponse, name: str, value: str) -> None:
    response.set_cookie(
        name, value, max_age=60 * 60 * 24 * 400, samesite="Lax", httponly=True, secure=request.is_secure
    )


@bp.post("/lang/<lang>")
def set_language(lang: str) -> BaseResponse:
    """Switch the pages' language and go back where the player was (a POST: it changes state)."""
    response = redirect(_back())
    if lang in LANGUAGES:
        _keep(response, LANG_COOKIE, lang)
    return response


@bp.post("/theme")
def set_theme() -> BaseResponse:
    """Choose the light or dark theme on this device, or follow the phone's setting."""
    response = redirect(_back())
    theme = request.form.get("theme", "")
    if theme in THEMES:
        _keep(response, THEME_COOKIE, theme)
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Lets a phone add Companion to its home screen."""
    response = jsonify(
        {
            "name": "Companion",
            "short_name": "Companion",
            "description": _("Referee and scorekeeper for French card games"),
            "id": url_for("main.home"),
            "start_url": url_for("main.home"),
            "scope": url_for("main.home"),
            "display": "standalone",
            "background_color": "#f6f3ea",
            "theme_color": "#1d5c3f",
            "lang": "fr",
            "icons": [
                {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png"},
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response
