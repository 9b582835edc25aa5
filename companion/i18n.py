"""Language of the pages: French by default, English on request."""

from __future__ import annotations

import re
from typing import Any

from babel import Locale, support
from flask import Flask, g, request
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup
from wtforms.i18n import messages_path as wtforms_messages

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


def _chosen() -> tuple[Any, Locale | None]:
    """Flask-Babel's state of this request and the locale it chose (None when not yet)."""
    state = g.get("_flask_babel") if g else None
    return state, getattr(state, "babel_locale", None)


def current_locale() -> Locale | None:
    """Flask-Babel's ``get_locale()``, without its lookups once the locale is chosen."""
    return _chosen()[1] or get_locale()


def current_lang() -> str:
    """The language of the current request, as the rules engine names it."""
    locale = current_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else "fr"


def translations() -> Any:
    """This request's catalog, as Flask-Babel's ``get_translations()`` gives it, kept
    with the locale it is for: looked up once a request, not at every sentence (a game
    page has hundreds). A new locale (``flask_babel.refresh``, ``force_locale``) is a
    new lookup."""
    state, locale = _chosen()
    kept = getattr(state, "companion_translations", None)
    if locale is not None and kept is not None and kept[0] is locale:
        return kept[1]
    found = get_translations()
    state, locale = _chosen()
    if state is not None and locale is not None:
        state.companion_translations = (locale, found)
    return found


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext``, the same text, through :func:`translations` (for code
    that names many things on one page: rounds, changes, charts)."""
    text = translations().ugettext(string)
    return text % variables if variables else text  # type: ignore[no-any-return]


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext``, the same text, through :func:`translations`."""
    variables.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % variables  # type: ignore[no-any-return]


@pass_context
def _template_gettext(context: Any, string: str, **variables: Any) -> str:
    text = translations().ugettext(string)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    # As Jinja's own "newstyle" gettext: escaped values, and always formatted ("%%" is "%").
    return text % variables if variables or "%" in text else text  # type: ignore[no-any-return]


@pass_context
def _template_ngettext(context: Any, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    text = translations().ungettext(singular, plural, num)
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables  # type: ignore[no-any-return]


def init_app(app: Flask) -> None:
    """Templates' ``_()``, ``gettext()`` and ``ngettext()`` read :func:`translations`
    (after Flask-Babel's ``init_app``, whose callables look the catalog up at every call
    through two more layers of Jinja's): the same sentences, a fraction of the cost."""
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)


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


_WTFORMS_CATALOGS: dict[str, Any] = {}


def _wtforms_catalog() -> Any:
    """WTForms' own catalog in this request's language, read once per process
    (Flask-WTF's ``translations`` reads the file again at every request)."""
    lang = current_lang()
    catalog = _WTFORMS_CATALOGS.get(lang)
    if catalog is None:
        catalog = _WTFORMS_CATALOGS.setdefault(
            lang, support.Translations.load(wtforms_messages(), [lang], domain="wtforms")
        )
    return catalog


class TypesetTranslations:
    """WTForms translations (Flask-WTF's messages, given as ``inner``) whose French is
    typeset (:func:`typeset_french`), from catalogs read once per language."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def gettext(self, string: str) -> str:
        return self._typeset(_wtforms_catalog().ugettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._typeset(_wtforms_catalog().ungettext(singular, plural, n))

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
