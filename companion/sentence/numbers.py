"""Numbers as a line says them: digits, or words as dictation writes them, in French and
English, from 0 to 999 (:func:`read_number`, :func:`number`; :func:`spell` writes them).

French: « zéro », « rien », « un »/« une », « douze », « dix-sept », « vingt-deux »,
« vingt et un », « soixante-dix », « soixante et onze », « quatre-vingts »,
« quatre-vingt-dix-neuf », « cent », « cent douze », « deux cents » — hyphens or spaces,
« et » or not (« vingt un »), « vingt »/« cent » with or without their plural s, and the
Belgian and Swiss « septante », « huitante », « octante », « nonante ». English:
« zero », « nothing », « none », « twelve », « twenty-two », « a hundred », « one hundred
and twelve », « two hundred five ». Digits in both. The words of one language only are
read on a page in that language (French « un » is not English, English « a » is French
« has »).

>>> [number(t, "fr") for t in ["zéro", "rien", "douze", "vingt-deux", "vingt et un", "soixante et onze"]]
[0, 0, 12, 22, 21, 71]
>>> [number(t, "fr") for t in ["quatre-vingts", "quatre vingt dix neuf", "cent douze", "deux cents", "42"]]
[80, 99, 112, 200, 42]
>>> [number(t, "en") for t in ["nothing", "twenty-two", "a hundred", "one hundred and twelve", "un"]]
[0, 22, 100, 112, None]
>>> spell(71, "fr"), spell(80, "fr"), spell(99, "fr"), spell(201, "fr"), spell(115, "en")
('soixante et onze', 'quatre-vingts', 'quatre-vingt-dix-neuf', 'deux cent un', 'one hundred fifteen')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from companion.sentence.words import Word, fold, words

__all__ = ["NUMBER_WORDS", "number", "read_number", "spell"]

#: The largest number read in words (digits are read whatever their size).
MOST = 999

_FR_UNITS = [
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
]
_FR_TENS = {20: "vingt", 30: "trente", 40: "quarante", 50: "cinquante", 60: "soixante"}
_EN_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = {
    20: "twenty",
    30: "thirty",
    40: "forty",
    50: "fifty",
    60: "sixty",
    70: "seventy",
    80: "eighty",
    90: "ninety",
}


def _fr_below_100(n: int) -> Iterator[tuple[str, ...]]:
    """Every way of saying ``n`` (0..99) in French, the written one first."""
    if n < 17:
        yield (_FR_UNITS[n],)
        if n == 1:
            yield ("une",)
    elif n < 20:
        yield ("dix", _FR_UNITS[n - 10])
    elif n < 70 or 70 <= n < 80:
        tens = min(n // 10 * 10, 60)
        head, unit = _FR_TENS[tens], n - tens
        if unit == 0:
            yield (head,)
        elif unit in (1, 11):
            # « vingt et un », « soixante et onze » (and dictation's « vingt un »).
            yield from ((head, "et", *rest) for rest in _fr_below_100(unit))
            yield from ((head, *rest) for rest in _fr_below_100(unit))
        else:
            yield from ((head, *rest) for rest in _fr_below_100(unit))
    elif n == 80:
        yield ("quatre", "vingts")
        yield ("quatre", "vingt")
    else:
        for vingt in ("vingt", "vingts"):
            yield from (("quatre", vingt, *rest) for rest in _fr_below_100(n - 80))


def _fr_regional(n: int) -> Iterator[tuple[str, ...]]:
    """70, 80, 90 the Belgian and Swiss way: « septante », « huitante », « octante », « nonante »."""
    for tens, names in ((70, ("septante",)), (80, ("huitante", "octante")), (90, ("nonante",))):
        if tens <= n < tens + 10:
            unit = n - tens
            for name in names:
                if unit == 0:
                    yield (name,)
                elif unit == 1:
                    yield (name, "et", "un")
                    yield (name, "un")
                else:
                    yield (name, _FR_UNITS[unit])


def _fr(n: int) -> Iterator[tuple[str, ...]]:
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        yield from _fr_below_100(n)
        yield from _fr_regional(n)
        return
    heads: list[tuple[str, ...]] = (
        [("cent",)]
        if hundreds == 1
        else [
            (_FR_UNITS[hundreds], "cents" if rest == 0 else "cent"),
            (_FR_UNITS[hundreds], "cent" if rest == 0 else "cents"),
        ]
    )
    if hundreds == 1:
        heads.append(("un", "cent"))
    if rest == 0:
        yield from heads
        return
    for head in heads:
        for tail in [*_fr_below_100(rest), *_fr_regional(rest)]:
            yield (*head, *tail)


def _en_below_100(n: int) -> Iterator[tuple[str, ...]]:
    if n < 20:
        yield (_EN_UNITS[n],)
        return
    tens, unit = divmod(n, 10)
    yield (_EN_TENS[tens * 10],) if unit == 0 else (_EN_TENS[tens * 10], _EN_UNITS[unit])


def _en(n: int) -> Iterator[tuple[str, ...]]:
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        yield from _en_below_100(n)
        return
    heads = [(_EN_UNITS[hundreds], "hundred")] + ([("a", "hundred"), ("hundred",)] if hundreds == 1 else [])
    for head in heads:
        if rest == 0:
            yield head
            continue
        for tail in _en_below_100(rest):
            yield (*head, *tail)
            yield (*head, "and", *tail)


_REGIONAL = ("septante", "huitante", "octante", "nonante")
#: The words meaning « nothing » (0) besides the number zero.
_ZERO = {"fr": ("rien", "aucun", "aucune", "nul", "zero"), "en": ("nothing", "none", "nil", "zero")}


def _trie(lang: str) -> dict[str, Any]:
    root: dict[str, Any] = {}
    spellings = _fr if lang == "fr" else _en
    folded: dict[str, str] = {}
    for n in range(MOST + 1):
        for said in spellings(n):
            node = root
            for atom in said:
                key = folded.get(atom)
                if key is None:
                    key = folded[atom] = fold(atom)
                node = node.setdefault(key, {})
            node.setdefault("", n)
    for zero in _ZERO[lang]:
        root.setdefault(zero, {}).setdefault("", 0)
    return root


_TRIES: dict[str, dict[str, Any]] = {}


def _tree(lang: str) -> dict[str, Any]:
    """The spellings of ``lang`` as a tree of words, built at the first number read."""
    tree = _TRIES.get(lang)
    if tree is None:
        tree = _TRIES[lang] = _trie(lang)
    return tree


#: Every word that is part of a number, in each language (grammars keep them from names).
NUMBER_WORDS: dict[str, frozenset[str]] = {
    "fr": frozenset(
        fold(w)
        for w in [
            *_FR_UNITS,
            *_FR_TENS.values(),
            *_ZERO["fr"],
            "une",
            "vingts",
            "cent",
            "cents",
            "et",
            "moins",
            *_REGIONAL,
        ]
    ),
    "en": frozenset([*_EN_UNITS, *_EN_TENS.values(), *_ZERO["en"], "hundred", "and", "minus"]),
}
_DIGITS = re.compile(r"\d+")
#: A number said below zero: « moins 3 », « minus 3 » (or « -3 », written).
_MINUS = frozenset({"moins", "minus"})


def read_number(said: Sequence[Word], i: int, lang: str = "fr") -> tuple[int, int] | None:
    """The number said from ``said[i]`` on, and how many words it takes; None if none
    starts there. The longest number is read (« vingt et un » is 21, not 20), and only
    whole words (« vingt-deux » is one word, two atoms).

    >>> ws = words("Bob vingt et un, Cid 12")
    >>> read_number(ws, 1), read_number(ws, 5), read_number(ws, 0)
    ((21, 3), (12, 1), None)
    >>> read_number(words("deux huit"), 0)
    (2, 1)
    >>> read_number(words("Ann -5"), 1), read_number(words("moins trois"), 0), read_number(words("vingt-deux"), 0)
    ((-5, 1), (-3, 2), (22, 1))
    """
    if i >= len(said):
        return None
    if said[i].key in _MINUS and i + 1 < len(said) and not said[i + 1].after_stop:
        after = read_number(said, i + 1, lang)
        return None if after is None else (-after[0], after[1] + 1)
    if _DIGITS.fullmatch(said[i].key):
        value = int(said[i].key)
        return (-value if said[i].minus else value), 1
    node = _tree("en" if lang == "en" else "fr")
    best: tuple[int, int] | None = None
    for j in range(i, len(said)):
        if j > i and said[j].after_stop:
            break
        for atom in said[j].parts:
            nxt = node.get(atom)
            if nxt is None:
                return best
            node = nxt
        if "" in node:
            best = (node[""], j - i + 1)
    return best


def number(text: str, lang: str = "fr") -> int | None:
    """``text`` read as one number in ``lang`` (all of it), or None."""
    said = words(text)
    found = read_number(said, 0, lang)
    return found[0] if found is not None and found[1] == len(said) else None


def spell(n: int, lang: str = "fr") -> str:
    """``n`` (0..999) in words as it is written: « soixante et onze », « quatre-vingts »,
    « one hundred fifteen »; the tens and units joined by hyphens as in print."""
    said = next(_fr(n)) if lang != "en" else next(_en(n))
    if lang == "en":
        if len(said) >= 2 and said[-2] in _EN_TENS.values() and said[-1] in _EN_UNITS:
            said = (*said[:-2], f"{said[-2]}-{said[-1]}")
        return " ".join(said)
    # French (1990 spelling kept traditional): hyphens below 100 except around « et ».
    hundreds = [w for w in said[:2] if w in ("cent", "cents")]
    cut = said.index(hundreds[0]) + 1 if hundreds else 0
    head, tail = said[:cut], said[cut:]
    joined = " ".join(head)
    if tail:
        body = "-".join(tail).replace("-et-", " et ")
        joined = f"{joined} {body}" if joined else body
    return joined
