"""Language of the pages: French by default, English on request."""

from __future__ import annotations

import re
from typing import Any

from babel import Locale, support
from flask import Flask, has_request_context, request
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup
from wtforms.i18n import messages_path as wtforms_messages

from companion.rules.i18n import elide_sentence, of, to

LANGUAGES = ("fr", "en")
LANG_COOKIE = "lang"
THEMES = ("light", "dark", "auto")
THEME_COOKIE = "theme"


def select_locale() -> str:
    """The language switch's cookie, else the browser's preference, else French (and
    French outside a request: a command, or a test reading between requests)."""
    if not has_request_context():
        return "fr"
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "fr"


def current_locale() -> Locale | None:
    """This request's locale: Flask-Babel's ``get_locale()`` (None outside a request)."""
    return get_locale()


def current_lang() -> str:
    """The language of the current request, as the rules engine names it."""
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else "fr"


def _filled(text: Any, variables: dict[str, Any]) -> Any:
    """A sentence with its values put in; in French, elided where a value meets « de »,
    « que »… (« Plis d’Ann »: :func:`companion.rules.i18n.elide_sentence`, the one rule of
    the engine's sentences too). Markup stays Markup (only a space becomes ’)."""
    filled = text % variables
    typeset = _HYPHEN_MINUS.sub(MINUS, filled)
    if current_lang() == "fr":
        typeset = elide_sentence(typeset)
    if typeset == filled:
        return filled
    return Markup(typeset) if isinstance(filled, Markup) else typeset


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext``, the same text, elided and typeset (:func:`_filled`)."""
    text = get_translations().ugettext(string)
    return _filled(text, variables) if variables else text  # type: ignore[no-any-return]


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext``, the same text, elided and typeset (:func:`_filled`)."""
    variables.setdefault("num", num)
    return _filled(get_translations().ungettext(singular, plural, num), variables)  # type: ignore[no-any-return]


@pass_context
def _template_gettext(context: Any, string: str, **variables: Any) -> str:
    text = get_translations().ugettext(string)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    # As Jinja's own "newstyle" gettext: escaped values, and always formatted ("%%" is "%").
    return _filled(text, variables) if variables or "%" in text else text  # type: ignore[no-any-return]


@pass_context
def _template_ngettext(context: Any, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    text = get_translations().ungettext(singular, plural, num)
    return _filled(Markup(text) if context.eval_ctx.autoescape else text, variables)  # type: ignore[no-any-return]


MINUS = "\u2212"
#: A hyphen standing for a minus: before a digit, not inside a word or a range (« 2025-2026 »).
_HYPHEN_MINUS = re.compile(r"(?<![\w\-−.,/:])-(?=\d)")


def minus(value: Any) -> Any:
    """A negative number as French (and careful English) typography writes it, with the
    minus sign (−1), not a hyphen; anything else as it is. Every ``{{ … }}`` of the
    templates goes through it (Jinja's ``finalize``), and so does every value put into a
    translated sentence; a number meant for a machine (an ``<input>``'s value, an SVG
    coordinate) is written with ``|plain``.

    >>> minus(-3), minus(2), minus(-0.5), minus("-1"), minus(True)
    ('\u22123', 2, '\u22120.5', '-1', True)
    """
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        return MINUS + str(-value)
    return value


def plain(value: Any) -> str:
    """A number for a machine (an attribute), kept from :func:`minus`."""
    return str(value)


def _of(phrase: Any) -> str:
    return of(str(phrase)) if current_lang() == "fr" else f"of {phrase}"


def _to(phrase: Any) -> str:
    return to(str(phrase)) if current_lang() == "fr" else f"to {phrase}"


def init_app(app: Flask) -> None:
    """Templates' ``_()``, ``gettext()`` and ``ngettext()`` are this module's (after
    Flask-Babel's ``init_app``, which installs its own): the same sentences as
    Flask-Babel's, elided and typeset in French as the Python side's.

    Every value a template writes goes through :func:`minus` (−1), and the filters
    ``of`` and ``to`` put « de » and « à » before a name or a title, elided or contracted
    (« d’Ann », « au Président »)."""
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)
    app.jinja_env.finalize = minus
    app.jinja_env.filters.update(plain=plain, of=_of, to=_to)


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
