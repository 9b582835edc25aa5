"""A line as dictation and keyboards write it, cut into words (:func:`words`).

Each :class:`Word` keeps its original text (for « not understood » highlighting, in the
line's own spelling) and a comparison key (:func:`fold`: lower case, accents and
ligatures dropped, ’ read as '). Punctuation « , ; : . ! ? » and dashes between words
are separators: a word after one has :attr:`Word.after_stop` set, so that a grammar
can keep what a comma separates apart. « et » / « and » stay words (« vingt et un »,
« un roi et un as »): each grammar decides what they join.

Elided articles are cut off the word they lean on: « l’as » → ``l'`` ``as``,
« c’est » → ``c'`` ``est``, « d’Ann » → ``d'`` ``Ann``. Hyphens inside a word stay
(« vingt-deux », « Jean-Pierre », « vice-présidente »).

>>> [w.key for w in words("C’est Élodie qui sort ; Bob : douze,  l’AS de cœur.")]
['c', 'est', 'elodie', 'qui', 'sort', 'bob', 'douze', 'l', 'as', 'de', 'coeur']
>>> [w.after_stop for w in words("Ann sort ; Bob 12")]
[True, False, True, False]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["AND", "Word", "fold", "span", "words"]

#: The words that join two things said: « et », « and », « & », « plus ».
AND = frozenset({"et", "and", "&", "plus"})

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "’": "'", "‘": "'", "ʼ": "'", "`": "'"})
#: A word: letters, digits, suit symbols, joined by inner hyphens or dots of a number;
#: an apostrophe ends a word (« l' », « c' »).
_WORD = re.compile(
    r"[^\W_]+'|[\w♠♥♦♣♤♡♢♧🃏&\ufe0e\ufe0f]+(?:[-‐‑][\w♠♥♦♣♤♡♢♧]+)*|[,;:.!?…—–()\[\]«»\"“”/]+", re.UNICODE
)
#: Apostrophes and odd spaces, made plain without moving any character.
_SAME_LENGTH = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "\u00a0": " ", "\u202f": " ", "\u2009": " "})
_STOPS = frozenset(',;:.!?…—–()[]«»"“”/')


@dataclass(frozen=True)
class Word:
    """One word of a line: ``text`` as written, ``key`` as compared (:func:`fold`),
    ``start``/``end`` its place in the line, ``after_stop`` whether punctuation (or the
    line's start) comes right before it."""

    text: str
    key: str
    start: int
    end: int
    after_stop: bool = False
    #: A minus sign written right before it (« -5 », « −5 »).
    minus: bool = False
    #: The punctuation right before it, if any (« : » after a label: « président : Sacha »).
    stop: str = ""

    @property
    def parts(self) -> tuple[str, ...]:
        """The key cut at its hyphens: ``("quatre", "vingt", "dix")``."""
        return _parts(self.key)


@lru_cache(maxsize=4096)
def _parts(key: str) -> tuple[str, ...]:
    return tuple(p for p in re.split(r"[-‐‑]", key) if p)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """``text`` as compared: lower case, no accents, œ → oe, any apostrophe → ',
    spaces (non-breaking ones too) squeezed. Kept once folded (bounded): a table's
    words and names come back all evening.

    >>> fold("  Chloé  ŒUVRE\u00a0l’As ")
    "chloe oeuvre l'as"
    """
    text = text.translate(_LIGATURES)
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.lower().split())


def words(line: str) -> list[Word]:
    """The words of ``line`` (see the module's docstring); punctuation is not a word."""
    result: list[Word] = []
    stop = True
    plain = line.translate(_SAME_LENGTH)
    mark = ""
    for m in _WORD.finditer(plain):
        text = m.group()
        if text[0] in _STOPS:
            stop = True
            mark = text.strip()[:1]
            continue
        key = fold(text).rstrip("'") or text
        at = m.start()
        minus = at > 0 and plain[at - 1] in "-−" and (at == 1 or not plain[at - 2].isalnum())
        result.append(Word(text, key, at, m.end(), stop, minus, mark))
        stop = False
        mark = ""
    return result


def span(line: str, pieces: Sequence[Word]) -> str:
    """The original text of ``line`` from the first to the last of ``pieces`` (words in
    order), as the person wrote it."""
    if not pieces:
        return ""
    return line[pieces[0].start : pieces[-1].end]
