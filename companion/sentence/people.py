"""Players named in a line (:class:`Roster`): forgiving case, accents, a letter missing,
added or wrong (names of 4 letters or more), the start of a name (« Élo » for Élodie
when no other player's name starts so), and « moi » / « me » for this device's player.

What two players could be is asked, never guessed (:class:`Named.unclear`); an exact
match always wins over a start or a typo.

>>> roster = Roster([Person("1", "Élodie"), Person("2", "Marie"), Person("3", "Mathieu"),
...                  Person("4", "Ann"), Person("5", "Anne")], me="4")
>>> [roster.person(t).name for t in ["elodie", "ELO", "Élodei", "ann", "Anne", "moi"]]
['Élodie', 'Élodie', 'Élodie', 'Ann', 'Anne', 'Ann']
>>> try:
...     roster.person("Ma")
... except Unclear as e:
...     print(e.text.fr)
«\xa0Ma\xa0»\xa0: Marie ou Mathieu\xa0?
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from companion.rules.i18n import Text
from companion.sentence.cards import CARD_WORDS
from companion.sentence.numbers import NUMBER_WORDS
from companion.sentence.reading import Person
from companion.sentence.unclear import Unclear, alternatives, ask, quoted
from companion.sentence.words import Word, fold, span, words

__all__ = ["FUNCTION_WORDS", "ME_WORDS", "Named", "Roster", "close"]

#: What means « this device's player »: « moi », « je », « j’ », « me », « I », « myself ».
ME_WORDS = {"fr": frozenset({"moi", "je", "j"}), "en": frozenset({"me", "i", "myself"})}
#: Short words of each language never read as a name's start or a typo of one (« le »
#: is not Léa, « a » is not Ann, « dans » is not Dana); a name said exactly still counts.
FUNCTION_WORDS = {
    "fr": frozenset(
        [
            "a",
            "à",
            "ai",
            "as",
            "au",
            "aux",
            "avec",
            "c",
            "ce",
            "ces",
            "cet",
            "cette",
            "d",
            "de",
            "des",
            "du",
            "en",
            "est",
            "et",
            "il",
            "ils",
            "elle",
            "elles",
            "j",
            "l",
            "la",
            "le",
            "les",
            "lui",
            "mais",
            "me",
            "mes",
            "moi",
            "mon",
            "ne",
            "ni",
            "nous",
            "on",
            "ou",
            "par",
            "pas",
            "plus",
            "pour",
            "puis",
            "qu",
            "que",
            "qui",
            "sa",
            "se",
            "ses",
            "son",
            "sur",
            "ta",
            "te",
            "tes",
            "ton",
            "tu",
            "un",
            "une",
            "vous",
            "y",
            "dans",
            "donc",
            "car",
            "encore",
            "reste",
            "fait",
            "avait",
        ]
    ),
    "en": frozenset(
        [
            "a",
            "an",
            "and",
            "at",
            "be",
            "but",
            "by",
            "for",
            "from",
            "had",
            "has",
            "have",
            "he",
            "her",
            "him",
            "his",
            "in",
            "is",
            "it",
            "its",
            "my",
            "no",
            "not",
            "of",
            "on",
            "or",
            "our",
            "she",
            "so",
            "than",
            "that",
            "the",
            "their",
            "them",
            "then",
            "they",
            "this",
            "to",
            "up",
            "was",
            "we",
            "were",
            "with",
            "you",
        ]
    ),
}
#: Most words a name spans (« Jean Pierre », « Marie Claire de la Tour »).
_MOST_WORDS = 4


@dataclass(frozen=True)
class Named:
    """A player read from ``length`` words of a line: ``person``, or, when the words
    could be several players, ``person`` None and the ``candidates`` (:attr:`unclear`
    is then the question to ask). ``said``: the words as written."""

    person: Person | None
    length: int
    said: str
    candidates: tuple[Person, ...] = ()

    @property
    def unclear(self) -> Unclear | None:
        """The question « “Ma” : Marie ou Mathieu ? », when this is ambiguous."""
        if self.person is not None:
            return None
        names = [p.name for p in self.candidates]
        return Unclear(
            ask(
                f"{quoted(self.said)} : {alternatives(names, 'fr')} ?",
                f"{quoted(self.said, 'en')}: {alternatives(names, 'en')}?",
            ),
            self.said,
        )


def _key(text: str) -> str:
    """A name as compared: folded, with no space, hyphen, apostrophe or dot."""
    return "".join(c for c in fold(text) if c.isalnum())


def close(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by at most one letter added, dropped or changed, or
    two neighbours swapped (the commonest typos).

    >>> close("elodie", "elodi"), close("elodie", "elodiee"), close("elodie", "elodue"), close("elodie", "elodei")
    (True, True, True, True)
    >>> close("ann", "bob"), close("marie", "mario"), close("marie", "mirae")
    (False, True, False)
    """
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        swapped = i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
        return swapped or a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


class Roster:
    """The players a line may name (``people``: the game's players, in order), ``me``
    the id of this device's player (« moi »), or None (then « moi » is not a player),
    ``lang`` the page's language (« moi » or « me »), ``reserved`` the words of the
    grammar itself (« sort », « vice », « plis »…) never read as a start or a typo of a
    name — the toolkit's number and card words and :data:`FUNCTION_WORDS` already are."""

    def __init__(
        self,
        people: Iterable[Person],
        me: str | None = None,
        lang: str = "fr",
        reserved: Collection[str] = (),
    ) -> None:
        self.people: tuple[Person, ...] = tuple(people)
        self.lang = "en" if lang == "en" else "fr"
        self.me = next((p for p in self.people if p.id == me), None) if me is not None else None
        self._keys = [(_key(p.name), p) for p in self.people]
        self._first = [(_key(p.name.replace("-", " ").split()[0]) if p.name.split() else "", p) for p in self.people]
        self.reserved = (
            frozenset(fold(w) for w in reserved)
            | FUNCTION_WORDS[self.lang]
            | NUMBER_WORDS[self.lang]
            | CARD_WORDS[self.lang]
            | ME_WORDS[self.lang]
        )

    def at(self, said: Sequence[Word], i: int) -> Named | None:
        """The player named from ``said[i]`` on, or None when no player is.

        The longest exact name wins (« Marie Claire » over « Marie »), then a single
        word: exact, the start of one name, or one letter off (names of 4+ letters)."""
        if i >= len(said):
            return None
        word = said[i]
        # Exact, over one or more words (a name said in pieces: « Jean Pierre »).
        joined = ""
        best: Named | None = None
        for j in range(i, min(len(said), i + _MOST_WORDS)):
            if j > i and said[j].after_stop:
                break
            joined += _key(said[j].key)
            exact = [p for k, p in self._keys if k == joined]
            if exact:
                best = self._named(exact, said[i : j + 1])
        if best is not None:
            return best
        key = _key(word.key)
        if self.me is not None and word.key in ME_WORDS[self.lang]:
            return Named(self.me, 1, word.text)
        if not key or word.key in self.reserved or key.isdigit():
            return None
        loose = []
        for (full, person), (first, _person) in zip(self._keys, self._first, strict=True):
            if (len(key) >= 2 and (full.startswith(key) or first.startswith(key))) or (
                len(key) >= 3 and len(full) >= 4 and (close(key, full) or (len(first) >= 4 and close(key, first)))
            ):
                loose.append(person)
        # A first name said exactly (« Ann » for « Ann Dupont ») wins over a start or a typo.
        firsts = [p for p in loose if any(f == key and q is p for f, q in self._first)]
        return self._named(firsts or loose, [word]) if loose else None

    def _named(self, found: list[Person], pieces: Sequence[Word]) -> Named:
        text = " ".join(w.text for w in pieces)
        if len(found) == 1:
            return Named(found[0], len(pieces), text)
        return Named(None, len(pieces), text, tuple(found))

    def person(self, text: str) -> Person:
        """The one player ``text`` names (all of it); raises :class:`Unclear` when it
        names several or none."""
        said = words(text)
        named = self.at(said, 0)
        if named is None or named.length != len(said):
            raise Unclear(
                ask(
                    f"Personne ne s’appelle {quoted(text.strip())} ici.",
                    f"No one here is called {quoted(text.strip(), 'en')}.",
                ),
                text,
            )
        if named.person is None:
            raise named.unclear  # type: ignore[misc]
        return named.person


def unknown(said: Sequence[Word], line: str) -> Text:
    """« Not understood: “…” », for words of ``line`` no grammar could read."""
    piece = span(line, said)
    return Text(f"Pas compris : {quoted(piece)}.".replace(" :", "\u00a0:"), f"Not understood: {quoted(piece, 'en')}.")
