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
from functools import lru_cache

from companion.rules.i18n import Text
from companion.sentence.cards import CARD_WORDS
from companion.sentence.numbers import NUMBER_WORDS, read_number
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
#: « chacun », « chacune »: everyone — but after a value, each of the players just named.
_EACH = frozenset({"chacun", "chacune", "each"})
#: Most words a name spans (« Jean Pierre », « Marie Claire de la Tour »).
_MOST_WORDS = 4


#: What names several players at once, or the one dealing: ``all`` (« tout le monde »),
#: ``others`` (« tous les autres »: those the line gives nothing else), ``dealer``
#: (« le donneur »). Each grammar says what they stand for in its round.
GROUPS: dict[str, dict[tuple[str, ...], str]] = {
    "fr": {
        **dict.fromkeys(
            [("tout", "le", "monde"), ("tous",), ("toutes",), ("chacun",), ("chacune",), ("pour", "tous")], "all"
        ),
        **dict.fromkeys(
            [
                ("tous", "les", "autres"),
                ("toutes", "les", "autres"),
                ("les", "autres"),
                ("le", "reste"),
                ("les", "trois", "autres"),
                ("les", "deux", "autres"),
                ("tous", "les", "trois"),
                ("tous", "les", "deux"),
                ("toutes", "les", "deux"),
            ],
            "others",
        ),
        **dict.fromkeys(
            [("le", "donneur"), ("la", "donneuse"), ("donneur",), ("donneuse",), ("celui", "qui", "donne")], "dealer"
        ),
    },
    "en": {
        **dict.fromkeys([("everyone",), ("everybody",), ("all",), ("each",), ("all", "of", "us")], "all"),
        **dict.fromkeys(
            [
                ("everyone", "else"),
                ("everybody", "else"),
                ("the", "others"),
                ("all", "the", "others"),
                ("the", "rest"),
                ("others",),
            ],
            "others",
        ),
        **dict.fromkeys([("the", "dealer"), ("dealer",)], "dealer"),
    },
}


#: The words a group's name starts with.
_GROUP_STARTS = {lang: frozenset(phrase[0] for phrase in GROUPS[lang]) for lang in GROUPS}


@dataclass(frozen=True)
class Named:
    """A player read from ``length`` words of a line: ``person``, or, when the words
    could be several players, ``person`` None and the ``candidates`` (:attr:`unclear`
    is then the question to ask). ``said``: the words as written. ``loose``: the words
    name the player loosely (« Élo » for Élodie: :func:`likeness`), and the read-back
    says how they were read. ``me``: « moi », « je »…, this device's player — or, when
    no player is known for this device (``person`` None), a question. ``group``: the
    words name several players at once (:data:`GROUPS`), ``person`` None."""

    person: Person | None
    length: int
    said: str
    candidates: tuple[Person, ...] = ()
    loose: bool = False
    me: bool = False
    group: str = ""

    @property
    def unclear(self) -> Unclear | None:
        """The question « “Ma” : Marie ou Mathieu ? », « Qui est « moi » sur ce
        téléphone ? », when this is ambiguous (None for a player or a group)."""
        if self.person is not None or self.group:
            return None
        if self.me:
            return Unclear(
                ask(f"Qui est {quoted('moi')} sur ce téléphone ?", f"Who is {quoted('me', 'en')} on this phone?"),
                self.said,
            )
        names = [p.name for p in self.candidates]
        return Unclear(
            ask(
                f"{quoted(self.said)} : {alternatives(names, 'fr')} ?",
                f"{quoted(self.said, 'en')}: {alternatives(names, 'en')}?",
            ),
            self.said,
        )


@lru_cache(maxsize=4096)
def _key(text: str) -> str:
    """A name as compared: folded, with no space, hyphen, apostrophe or dot (kept once
    made, bounded: a table's words come back all evening)."""
    return "".join(c for c in fold(text) if c.isalnum())


def close(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by at most one letter added, dropped or changed, or
    two neighbours swapped (the commonest typos).

    >>> close("elodie", "elodi"), close("elodie", "elodiee"), close("elodie", "elodue"), close("elodie", "elodei")
    (True, True, True, True)
    >>> close("ann", "bob"), close("marie", "mario"), close("marie", "mirae")
    (False, True, False)
    """
    return _edit(a, b) is not None


def _edit(a: str, b: str) -> tuple[str, int] | None:
    """The one typo that turns ``b`` (a name) into ``a`` (what was said): ``("same", -1)``,
    ``("changed", i)``, ``("swapped", i)``, ``("added", i)`` or ``("dropped", i)``, ``i``
    where it happened; None when it takes more than one."""
    if a == b:
        return "same", -1
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return None
    short, long = (a, b) if la <= lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long[i]:
        i += 1
    if la == lb:
        if i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]:
            return "swapped", i
        return ("changed", i) if a[i + 1 :] == b[i + 1 :] else None
    if short[i:] != long[i + 1 :]:
        return None
    return ("added" if la > lb else "dropped"), i


#: How a name may be said besides exactly, and still be that player (:func:`likeness`).
EXACT, LOOSE, ASK = "exact", "loose", "ask"


def likeness(said: str, name: str) -> str | None:
    """:func:`_likeness`, and again as the names sound (« th » said « t », « ph » « f »:
    « Tom » for Thomas): never closer than loosely.

    >>> likeness("tom", "thomas"), likeness("sofie", "sophie"), likeness("tim", "thomas")
    ('loose', 'loose', None)
    """
    found = _likeness(said, name)
    if found is None:
        sound = _likeness(_sounded(said), _sounded(name))
        if sound is not None:
            return LOOSE if sound in (EXACT, LOOSE) else sound
    return found


def _sounded(key: str) -> str:
    """A name's key as it sounds: « th » is « t », « ph » is « f »."""
    return key.replace("th", "t").replace("ph", "f")


def _likeness(said: str, name: str) -> str | None:
    """Whether ``said`` (as :func:`_key` compares: folded, letters and digits only) may
    name the player called ``name`` (its key, or its first name's): the one rule of what
    is close enough, on every kind's line (:func:`likeness` asks it as the names are
    written, then as they sound).

    - :data:`EXACT`: the name itself (case, accents, spaces and hyphens aside);
    - :data:`LOOSE` — that player, said the way a table says it (the read-back says how
      it was read):

      - the name with a trailing *e* or *s* (« Anne » for Ann, « Zoés »);
      - a short form: the name's first three letters or more (« Élo », « Ben »), the
        same with a vowel of its own to end it (or its last letter twice), shorter than
        the name (« Gabi » for Gabriel, « Lucy » for Lucie, « Matt » for Mathis — « Marc »
        is not Marie), or its first syllable said twice (« Zozo » for Zoé,
        « Juju » for Julie);
      - the name without its first syllable (three letters at most), what is left
        starting with a consonant and four letters long at least (« Toine » for Antoine,
        « Lène » for Hélène — « Anne » is not Jeanne);
      - one typo, never in the first letter, and only in a name long enough to still be
        recognised: two neighbours swapped (4 letters or more: « Élodei »), a letter
        dropped or added (5 or more: « Élodi »), a letter changed (6 or more: « Élodue »);

    - :data:`ASK`: the name's first two letters (« Ma »): asked, even if only one player's
      name starts so;
    - None: not that player — whatever else is near (« Mario » is not Marie, « Léo » not
      Léa, « Anna » not Ann, « Paula » not Paul, « Jeanne » not Jean).

    >>> [likeness(s, "elodie") for s in ["elodie", "elo", "elodiee", "elodei", "elodue", "el", "lodie", "kelodie"]]
    ['exact', 'loose', 'loose', 'loose', 'loose', 'ask', 'loose', None]
    >>> [likeness(s, "ann") for s in ["anne", "anns", "anna", "annie", "an"]]
    ['loose', 'loose', None, None, 'ask']
    >>> likeness("zozo", "zoe"), likeness("mario", "marie"), likeness("leo", "lea")
    ('loose', None, None)
    """
    if not said or not name:
        return None
    if said == name:
        return EXACT
    if len(said) >= 4 and said[0] not in "aeiouy" and name.endswith(said) and 1 <= len(name) - len(said) <= 3:
        return LOOSE  # the first syllable dropped: « Toine » for Antoine, « Lène » for Hélène
    if said[0] != name[0]:
        return None
    if said in (name + "e", name + "s", name + "es"):
        return LOOSE
    if name.startswith(said):
        return LOOSE if len(said) >= 3 else ASK if len(said) == 2 else None
    half = len(said) // 2
    if len(said) in (4, 6) and said[:half] == said[half:] and name.startswith(said[:half]):
        return LOOSE
    if 4 <= len(said) < len(name) and name.startswith(said[:-1]) and (said[-1] in "aeiouy" or said[-1] == said[-2]):
        return LOOSE  # a short form's own ending: « Gabi », « Gabe » for Gabriel, « Lucy », « Matt »
    typo = _edit(said, name)
    if typo is None or typo[1] == 0:
        return None
    least = {"swapped": 4, "dropped": 5, "added": 5, "changed": 6}[typo[0]]
    return LOOSE if len(name) >= least else None


class Roster:
    """The players a line may name (``people``: the game's players, in order), ``me``
    the id of this device's player (« moi »), or None (then « moi » is asked),
    ``lang`` the page's language (« moi » or « me »), ``reserved`` the words of the
    grammar itself (« sort », « vice », « plis »…) never read as a loose name — the
    toolkit's number and card words and :data:`FUNCTION_WORDS` already are —, and
    ``dealer`` the id of who deals the round (« le donneur »), when the grammar reads
    it as a player (else those words are left to the grammar)."""

    def __init__(
        self,
        people: Iterable[Person],
        me: str | None = None,
        lang: str = "fr",
        reserved: Collection[str] = (),
        dealer: str | None = None,
        groups: bool = False,
    ) -> None:
        self.people: tuple[Person, ...] = tuple(people)
        self.lang = "en" if lang == "en" else "fr"
        self.me = next((p for p in self.people if p.id == me), None) if me is not None else None
        self.dealer = next((p for p in self.people if p.id == dealer), None) if dealer is not None else None
        self.groups = groups
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

        The longest exact name wins (« Marie Claire » over « Marie »); then « moi »
        (this device's player, or the question of who that is), a group (when the
        grammar reads them: « tout le monde », « le donneur »), then a single word
        naming one player loosely (:func:`likeness`) — two players so named, or a name's
        first two letters, are asked."""
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
            whole = [p for k, p in self._keys if k == joined]
            if whole:
                best = self._named(whole, said[i : j + 1])
        if best is not None:
            return best
        if word.key in ME_WORDS[self.lang] and (word.key != "j" or word.text.endswith("'")):
            return Named(self.me, 1, word.text, me=True)  # (« J: », an initial, is no « j’ »)
        if self.groups:
            group = self._group(said, i)
            if group is not None:
                return group
        key = _key(word.key)
        if not key or word.key in self.reserved or not key.isalpha() or not word.text.replace("-", "").isalpha():
            return None  # a number, a card (« A♣ »), or a word of the grammar: no name
        exact: list[Person] = []
        loose: list[Person] = []
        asked: list[Person] = []
        for (full, person), (first, _person) in zip(self._keys, self._first, strict=True):
            found = {likeness(key, full), likeness(key, first) if first != full else None}
            if EXACT in found:
                exact.append(person)  # a first name said exactly (« Ann » for « Ann Dupont »)
            elif LOOSE in found:
                loose.append(person)
            elif ASK in found:
                asked.append(person)
        if exact:
            return self._named(exact, [word])
        if len(loose) == 1 and not asked:
            return Named(loose[0], 1, word.text, loose=True)
        if loose or asked:
            return Named(None, 1, word.text, tuple(loose + asked))
        return None

    def _group(self, said: Sequence[Word], i: int) -> Named | None:
        if said[i].key not in _GROUP_STARTS[self.lang]:
            return None
        if said[i].key in _EACH and i > 0 and read_number(said, i - 1, self.lang) is not None:
            return None  # « 10 chacune »: each of the players just named, no group of its own
        best: Named | None = None
        for phrase, group in GROUPS[self.lang].items():
            n = len(phrase)
            if i + n > len(said) or any(said[i + k].key != phrase[k] for k in range(n)):
                continue
            if any(said[i + k].after_stop for k in range(1, n)):
                continue
            if best is None or n > best.length:
                if group == "dealer":
                    if self.dealer is None:
                        continue
                    best = Named(self.dealer, n, span_text(said[i : i + n]), group=group)
                else:
                    best = Named(None, n, span_text(said[i : i + n]), group=group)
        return best

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


def span_text(pieces: Sequence[Word]) -> str:
    """Words as written, one space between them."""
    return " ".join(w.text for w in pieces)


def unknown(said: Sequence[Word], line: str) -> Text:
    """« Not understood: “…” », for words of ``line`` no grammar could read."""
    piece = span(line, said)
    return Text(f"Pas compris : {quoted(piece)}.".replace(" :", "\u00a0:"), f"Not understood: {quoted(piece, 'en')}.")
