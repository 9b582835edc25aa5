"""What a line leaves open: :class:`Unclear`, raised or kept by the toolkit with the
question to ask, in both languages (a :class:`~companion.rules.i18n.Text`); a grammar
adds ``unclear.text.get(lang)`` to :attr:`~companion.sentence.Reading.questions`.

The questions follow French typography (’, a non-breaking space before ? ! : ; and
inside « »), say « vous », and assume no one's gender.

>>> quoted("Ma"), alternatives(["Marie", "Mathieu", "Manon"], "fr")
('«\\xa0Ma\\xa0»', 'Marie, Mathieu ou Manon')
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.i18n import Text

__all__ = ["Unclear", "alternatives", "ask", "quoted"]

NBSP = "\u00a0"


class Unclear(Exception):
    """A piece of a line read two ways, or read as something that cannot be: ``text``
    is the question (or the reason) in both languages, ``said`` the piece as written."""

    def __init__(self, text: Text, said: str = "") -> None:
        super().__init__(text.fr)
        self.text = text
        self.said = said


def quoted(said: str, lang: str = "fr") -> str:
    """``said`` between quotation marks: « Ma » in French (non-breaking spaces inside),
    "Ma" in English."""
    return f"«{NBSP}{said}{NBSP}»" if lang != "en" else f"“{said}”"


def alternatives(names: Sequence[str], lang: str = "fr") -> str:
    """« Marie, Mathieu ou Manon » / “Marie, Mathieu or Manon”."""
    if len(names) < 2:
        return "".join(names)
    word = "or" if lang == "en" else "ou"
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def ask(fr: str, en: str) -> Text:
    """A question in both languages, with French spacing made non-breaking before
    ? ! : ; (« Marie ou Mathieu ? » → « Marie ou Mathieu\u00a0? »).

    >>> ask("Marie ou Mathieu ?", "Marie or Mathieu?").fr
    'Marie ou Mathieu\\xa0?'
    """
    for mark in "?!:;":
        fr = fr.replace(f" {mark}", f"{NBSP}{mark}")
    return Text(fr, en)
