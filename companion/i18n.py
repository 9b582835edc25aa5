"""Language of the pages: French by default, English on request."""

from __future__ import annotations

import re
from typing import Any

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


_APOSTROPHE = re.compile(r"(?i)(?<![\w’'])((?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quelqu|presqu|aujourd))'(?=\w)")
_BEFORE_PUNCTUATION = re.compile(r"(?<=[\w\)»”’%}]) ([:;!?])(?=\s|$|[»\"'\)\.,<])")


def typeset_french(text: str) -> str:
    """French as a French table writes it: ’ apostrophes, a non-breaking space before
    : ; ! ? and inside « » (for text from elsewhere, such as WTForms' own messages).

    >>> typeset_french("N'est pas une date valide : « x » ?")
    'N’est pas une date valide\xa0: «\xa0x\xa0»\xa0?'
    """
    text = _APOSTROPHE.sub(lambda m: m.group(1) + "’", text)
    text = _BEFORE_PUNCTUATION.sub(lambda m: "\u00a0" + m.group(1), text)
    return text.replace("« ", "«\u00a0").replace(" »", "\u00a0»")


class TypesetTranslations:
    """WTForms translations whose French is typeset (:func:`typeset_french`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def gettext(self, string: str) -> str:
        return self._typeset(self.inner.gettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._typeset(self.inner.ngettext(singular, plural, n))

    @staticmethod
    def _typeset(text: str) -> str:
        return typeset_french(text) if current_lang() == "fr" else text


def format_day(day: Any, format: str = "medium") -> str:
    """A date for the pages; in French the first of a month is « 1er » (« 1er mars 2026 »).

    Flask-Babel's ``format_date``, whose French writes « 1 mars ».
    """
    from flask_babel import format_date

    text = str(format_date(day, format))
    if current_lang() == "fr" and getattr(day, "day", None) == 1 and text.startswith("1 "):
        return "1er" + text[1:]
    return text
