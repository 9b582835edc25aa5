"""Language of the pages: French by default, English on request."""

from __future__ import annotations

from flask import request
from flask_babel import get_locale

LANGUAGES = ("fr", "en")
LANG_COOKIE = "lang"
THEMES = ("light", "dark", "auto")
THEME_COOKIE = "theme"


def select_locale() -> str:
    """The language switch's cookie, else the browser's preference, else French."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "fr"


def current_lang() -> str:
    """The language of the current request, as the rules engine names it."""
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else "fr"


def current_theme() -> str:
    """The theme this device chose (``light`` or ``dark``), or ``auto``: follow the phone."""
    chosen = request.cookies.get(THEME_COOKIE)
    return chosen if chosen in THEMES else "auto"
