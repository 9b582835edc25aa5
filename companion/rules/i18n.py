"""Bilingual sentences for the rules engine.

The engine is pure Python and knows nothing of Flask-Babel, yet its verdicts and
errors are read by players in French (the default) or English.  Every sentence it
produces is therefore a :class:`Text` holding both languages; the web layer picks
one with :meth:`Text.get`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")


@dataclass(frozen=True)
class Text:
    """One sentence in French and English.

    >>> Text("Bonjour.", "Hello.").get("en")
    'Hello.'
    >>> Text("Bonjour.", "Hello.").get("de")
    'Bonjour.'
    >>> Text("Le tour de Ann.", "Ann's turn.").fr
    'Le tour d’Ann.'
    """

    fr: str
    en: str

    def __post_init__(self) -> None:
        # The French is elided where a name or a card meets « de », « que »… (« Plis d’Ann »),
        # whatever f-string built it: one rule for every sentence of the engine.
        object.__setattr__(self, "fr", elide_sentence(self.fr))

    def get(self, lang: str = "fr") -> str:
        """The sentence in ``lang``; French for any language not known."""
        return self.en if lang == "en" else self.fr

    def __str__(self) -> str:
        return self.fr


class RulesError(ValueError):
    """Input the engine cannot judge: a bad card, a wrong count, an unknown player.

    ``field`` names the offending input as a dotted path (``hands.Bob``,
    ``state.trick[2].cards``) so that a form or the JSON API can point at it.

    >>> e = RulesError(Text("Carte inconnue.", "Unknown card."), field="move.cards")
    >>> e.field, e.text.get("en"), str(e)
    ('move.cards', 'Unknown card.', 'Carte inconnue.')
    """

    def __init__(self, text: Text, field: str | None = None) -> None:
        super().__init__(text.fr)
        self.text = text
        self.field = field

    def at(self, field: str) -> RulesError:
        """The same error placed under ``field`` (prefixing any field it had).

        >>> RulesError(Text("x", "x"), "cards[1]").at("hands.Bob").field
        'hands.Bob.cards[1]'
        """
        inner = self.field
        if inner is None:
            path = field
        elif inner.startswith("["):
            path = field + inner
        else:
            path = f"{field}.{inner}"
        return RulesError(self.text, path)


# --- French elision and contraction -----------------------------------------------
#
# One place decides how « de », « que », « le »… meet the word after them, from the word
# itself: « d’Ann », « de Bob », « la paire d’as », « qu’un 5♥ », « au Président ».
# Engine sentences, templates (through the web layer's gettext) and the API's French
# text all go through it.

_VOWELS = frozenset("aeiouæœ")
#: Words whose h is aspirated (no elision: « le huit », « de haut ») and words that
#: begin with a vowel yet refuse elision (« le onze », « de oui »).
_NO_ELISION = (
    "haut",
    "hors",
    "huit",
    "héros",
    "hasard",
    "hache",
    "hall",
    "hamac",
    "hameau",
    "hanche",
    "handicap",
    "hangar",
    "hareng",
    "haricot",
    "harpe",
    "hâte",
    "hausse",
    "hérisson",
    "hêtre",
    "hibou",
    "hiérarchie",
    "hockey",
    "hollande",
    "homard",
    "hongr",
    "honte",
    "hoquet",
    "hublot",
    "hutte",
    "onze",
    "onzième",
    "oui",
    "ouistiti",
)
#: Letters whose French name starts with a vowel sound (« d’H », « d’F », « l’S »).
_VOWEL_LETTERS = frozenset("aefhilmnorsuxy")


def _base(char: str) -> str:
    """A letter without its accents, in lower case (« É » → « e »)."""
    return unicodedata.normalize("NFD", char)[0].lower()


def vowel_sound(word: str) -> bool:
    """Whether a French word (a name, a card, a title) starts with a vowel sound, so that
    « de », « que », « le »… elide before it.

    Vowels with or without accents, a mute h (names: « Hélène »; not the aspirated h of
    « huit », « haut »), y before a consonant (« Yves », not « Yann »), a letter said
    alone (« H » is « ache »). Digits, symbols and emoji never elide.

    >>> [vowel_sound(w) for w in ("Ann", "Élodie", "ÉLISE", "Œdipe", "as", "Ines", "Ugo")]
    [True, True, True, True, True, True, True]
    >>> [vowel_sound(w) for w in ("Bob", "Zoé", "huit", "haut", "Yann", "onze", "8", "🎲", "")]
    [False, False, False, False, False, False, False, False, False]
    >>> [vowel_sound(w) for w in ("Hélène", "H", "Yves", "Y", "Henri", "HUGO")]
    [True, True, True, True, True, True]
    """
    if not word:
        return False
    first = word[0]
    if not first.isalpha():
        return False
    letter = _base(first)
    letters = [c for c in word if c.isalpha()]
    if len(letters) == 1 and len(word.strip(".’'")) == 1:
        return letter in _VOWEL_LETTERS
    lowered = word.lower()
    if lowered.startswith(_NO_ELISION):
        return False
    if letter in _VOWELS:
        return True
    if letter == "h":
        return len(word) > 1 and _base(word[1]) in _VOWELS | {"y"}
    if letter == "y":
        return len(word) > 1 and word[1].isalpha() and _base(word[1]) not in _VOWELS
    return False


#: Particles that elide before a vowel sound, and their elided form.
_ELIDING = {
    "de": "d’",
    "que": "qu’",
    "le": "l’",
    "la": "l’",
    "ne": "n’",
    "me": "m’",
    "te": "t’",
    "se": "s’",
    "jusque": "jusqu’",
    "lorsque": "lorsqu’",
    "puisque": "puisqu’",
}


def elide(particle: str, word: str) -> str:
    """``particle`` followed by ``word``, elided when the word asks for it.

    >>> elide("de", "Ann"), elide("de", "Bob"), elide("que", "un 5♥"), elide("la", "as")
    ('d’Ann', 'de Bob', 'qu’un 5♥', 'l’as')
    >>> elide("De", "Élodie")
    'D’Élodie'
    """
    elided = _ELIDING.get(particle.lower())
    if elided is None or not vowel_sound(word):
        return f"{particle} {word}"
    if particle[0].isupper():
        elided = elided[0].upper() + elided[1:]
    return elided + word


def of(phrase: str) -> str:
    """« de » before a name, a card or a title with its article: « d’Ann », « de Bob »,
    « du Trou du cul » (le → du), « des as » (les → des), « de la dame », « de l’as ».

    Only a lower-case article contracts: a name such as « Le Gall » keeps its own
    (« de Le Gall »).

    >>> [of(w) for w in ("Ann", "Bob", "le Trou du cul", "les as", "la dame", "l’as", "Le Gall", "8")]
    ['d’Ann', 'de Bob', 'du Trou du cul', 'des as', 'de la dame', 'de l’as', 'de Le Gall', 'de 8']
    """
    if phrase.startswith("le "):
        return "du " + phrase[3:]
    if phrase.startswith("les "):
        return "des " + phrase[4:]
    if phrase.startswith(("la ", "l’")):
        return "de " + phrase
    return elide("de", phrase)


def to(phrase: str) -> str:
    """« à » before a name, a card or a title with its article: « à Ann », « au Président »
    (à le → au), « aux as » (à les → aux), « à la dame ».

    >>> [to(w) for w in ("Ann", "le Président", "les as", "la dame", "Le Gall")]
    ['à Ann', 'au Président', 'aux as', 'à la dame', 'à Le Gall']
    """
    if phrase.startswith("le "):
        return "au " + phrase[3:]
    if phrase.startswith("les "):
        return "aux " + phrase[4:]
    return "à " + phrase


_PARTICLE = re.compile(
    r"(?<![\w’'\-])(" + "|".join(_ELIDING) + r"|" + "|".join(p.capitalize() for p in _ELIDING) + r")"
    r" ((?:<[^<>]*>)*)([^\s<>]+)"
)

#: A cheap first look: every particle ends in « e » or « a », and elides only before a
#: letter that may be a vowel sound.
_MAYBE = re.compile(r"[ea] (?:<[^<>]*>)*[aeiouyhàâäéèêëîïôöùûüÿæœAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜŸÆŒ]")


def elide_sentence(text: str) -> str:
    """A French sentence whose « de », « que », « le »… elide before the word that follows
    them, as :func:`vowel_sound` decides (« Plis de Ann » → « Plis d’Ann »). Markup between
    the particle and the word is kept (« de <b>Ann</b> » → « d’<b>Ann</b> »).

    A capitalised particle is elided only where a sentence starts, so that a name such as
    « De Oliveira » or « Le Anh » after another word is left as written.

    >>> elide_sentence("Statistiques de Élodie, plus haut que la paire de as.")
    'Statistiques d’Élodie, plus haut que la paire d’as.'
    >>> elide_sentence("Il n’y a que un joker ; annonce de <strong>Ann</strong>.")
    'Il n’y a qu’un joker ; annonce d’<strong>Ann</strong>.'
    >>> elide_sentence("De Ann à Bob ; plis de De Oliveira, de 8, de huit, de Yann.")
    'D’Ann à Bob ; plis de De Oliveira, de 8, de huit, de Yann.'
    """
    if _MAYBE.search(text) is None:  # most sentences: no particle before a vowel sound
        return text

    def replace(m: re.Match[str]) -> str:
        particle, tags, word = m.group(1), m.group(2), m.group(3)
        if particle[0].isupper():
            before = text[: m.start()].rstrip(' \u00a0«“"(')
            if before and not before.endswith((".", "!", "?", ":", ">", "\n", "—", "–")):
                return m.group(0)
        if not vowel_sound(word.rstrip(".,;:!?»)…\u00a0")):
            return m.group(0)
        elided = _ELIDING[particle.lower()]
        if particle[0].isupper():
            elided = elided[0].upper() + elided[1:]
        return f"{elided}{tags}{word}"

    return _PARTICLE.sub(replace, text)


# --- Numbers and counts ------------------------------------------------------------
#
# A negative number is written with the minus sign (−1), not a hyphen, in French as in
# careful English; a count takes the plural from 2 in French (« 0 joker », « 1 pli »,
# « 2 plis ») and at any number but one in English; the few small counts a sentence
# says in words (« il n’y a qu’un 5♥ », « que deux 8♥ ») are spelled from one list.

MINUS = "\u2212"


def number(n: int) -> str:
    """A whole number for a sentence: a negative one with the minus sign (−1).

    Only for text: a JSON field or an ``<input>``'s value keeps the number itself.

    >>> number(-3), number(0), number(12)
    ('−3', '0', '12')
    """
    return f"{MINUS}{-n}" if n < 0 else str(n)


def plural(n: int, one: str, many: str, lang: str = "fr") -> str:
    """``n`` and the noun it counts, singular or plural as ``lang`` wants it.

    French takes the plural from 2 on (« 0 joker », « 1 point », « −1 point », « 2 plis »,
    « −2 points »: the Académie's rule, the same as gettext's ``plural=(n > 1)`` for
    French); English at any number but 1 (« 0 jokers », « 1 trick »).

    >>> [plural(n, "joker", "jokers") for n in (0, 1, 2, -1, -2)]
    ['0 joker', '1 joker', '2 jokers', '−1 joker', '−2 jokers']
    >>> [plural(n, "trick", "tricks", "en") for n in (0, 1, 2)]
    ['0 tricks', '1 trick', '2 tricks']
    """
    single = abs(n) == 1 if lang == "en" else abs(n) < 2
    return f"{number(n)} {one if single else many}"


_FR_WORDS = ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix")
_EN_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def in_words(n: int, lang: str = "fr", feminine: bool = False) -> str:
    """A small count in words, as a sentence says it (« qu’un 5♥ », « qu’une dame »,
    « que deux 8♥ »); from 11 on, and below 0, in figures.

    >>> in_words(1), in_words(1, feminine=True), in_words(4), in_words(12), in_words(2, "en")
    ('un', 'une', 'quatre', '12', 'two')
    """
    words = _EN_WORDS if lang == "en" else _FR_WORDS
    if not 0 <= n < len(words):
        return number(n)
    return "une" if n == 1 and feminine and lang != "en" else words[n]
