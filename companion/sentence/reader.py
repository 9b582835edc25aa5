"""One line being read (:class:`LineReader`): its words, the players it may name, and
what each grammar makes of it — the fields it fills and the words behind each, the
questions, the notes — so that the :class:`~companion.sentence.Reading` it gives shows
as « not understood » exactly the words nothing used.

Before a grammar reads the line, a correction said within it is applied
(:func:`corrected`): « Benoît 2 non pardon 1 », « Élodie 12 non 13 », « roi de cœur,
pardon, de carreau », « Ann, enfin Zoé » keep the last thing said, and the read-back
says so.

>>> from companion.sentence.people import Roster
>>> from companion.sentence.reading import Person
>>> roster = Roster([Person("1", "Benoît"), Person("2", "Élodie")])
>>> [w.text for w in corrected(words("Benoît 2 non pardon 1, Élodie douze, enfin treize"), roster)[0]]
['Benoît', '1', 'Élodie', 'treize']
>>> [w.text for w in corrected(words("Élodie roi de cœur non de carreau"), roster)[0]]
['Élodie', 'roi', 'de', 'carreau']
>>> [w.text for w in corrected(words("Benoît sort non"), roster)[0]]
['Benoît', 'sort', 'non']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from companion.rules.i18n import Text
from companion.sentence.cards import read_cards, read_suit
from companion.sentence.numbers import read_number
from companion.sentence.people import Named, Roster, span_text
from companion.sentence.reading import Person, Reading
from companion.sentence.unclear import ask, quoted
from companion.sentence.words import Word, span, words

__all__ = ["CORRECTIONS", "Correction", "LineReader", "corrected"]

#: What says « what I just said is wrong, here is what I meant », folded.
CORRECTIONS = {
    "fr": frozenset(
        [
            ("non",),
            ("pardon",),
            ("non", "pardon"),
            ("pardon", "non"),
            ("enfin",),
            ("enfin", "non"),
            ("plutot",),
            ("ou", "plutot"),
            ("non", "plutot"),
            ("je", "veux", "dire"),
            ("non", "je", "veux", "dire"),
            ("pardon", "je", "veux", "dire"),
            ("euh", "non"),
            ("ah", "non"),
            ("oh", "non"),
            ("non", "non"),
            ("oups",),
            ("je", "me", "suis", "trompe"),
            ("je", "me", "suis", "trompee"),
            ("correction",),
            ("je", "corrige"),
            ("rectification",),
            ("attends",),
            ("non", "attends"),
            ("attendez",),
            ("non", "attendez"),
        ]
    ),
    "en": frozenset(
        [
            ("no",),
            ("sorry",),
            ("no", "sorry"),
            ("sorry", "no"),
            ("i", "mean"),
            ("sorry", "i", "mean"),
            ("no", "i", "mean"),
            ("rather",),
            ("or", "rather"),
            ("actually",),
            ("no", "actually"),
            ("oops",),
            ("no", "wait"),
            ("wait",),
            ("correction",),
        ]
    ),
}
_LONGEST = max(len(m) for ms in CORRECTIONS.values() for m in ms)

#: A grammar's own kind of piece a correction may replace (a title: « vice, non,
#: trou »): its kind and how many words it takes from ``said[i]``, or None.
Unit = Callable[[Sequence[Word], int], "tuple[str, int] | None"]


@dataclass(frozen=True)
class Correction:
    """A correction said within a line: ``taken`` (what was said first), ``marker`` (the
    words that take it back), ``kept`` (what replaces it)."""

    taken: tuple[Word, ...]
    marker: tuple[Word, ...]
    kept: tuple[Word, ...]


def _units(said: Sequence[Word], i: int, roster: Roster, unit: Unit | None) -> dict[str, int]:
    """The pieces a correction may replace that start at ``said[i]``: kind → words."""
    found: dict[str, int] = {}
    if i >= len(said):
        return found
    named = roster.at(said, i)
    if named is not None and not named.group:
        found["name"] = named.length
    number = read_number(said, i, roster.lang)
    if number is not None:
        found["number"] = number[1]
    cards = read_cards(said, i, roster.lang)
    if cards is not None:
        found["cards"] = cards.length
    suit = read_suit(said, i, roster.lang)
    if suit is not None:
        found["suit"] = suit[1]
    if unit is not None:
        own = unit(said, i)
        if own is not None:
            found[own[0]] = own[1]
    return found


def _said_of_someone(
    out: Sequence[Word], k: int, marker: int, roster: Roster, unit: Unit | None
) -> tuple[tuple[str, int] | None, dict[str, int]]:
    """A correction of a player and what was said of them at once (« Noémie prez, non
    pardon Gab prez », « Yanis 0 non Yanis 1 »): a name and a piece before the marker, a
    name and a piece of the same kind after it. The piece before (with its name) and the
    kinds after, as :func:`corrected` takes them."""
    named = roster.at(out, k + marker)
    if named is None or named.group:
        return None, {}
    then = _units(out, k + marker + named.length, roster, unit)
    for start in range(max(0, k - 6), k):
        who = roster.at(out, start)
        if who is None or who.group:
            continue
        kinds = _units(out, start + who.length, roster, unit)
        common = [kind for kind, length in kinds.items() if start + who.length + length == k and kind in then]
        if common:
            kind = common[0]
            return (kind, start), {kind: named.length + then[kind]}
    return None, {}


def corrected(said: Sequence[Word], roster: Roster, unit: Unit | None = None) -> tuple[list[Word], list[Correction]]:
    """``said`` with each correction applied: a piece (a name, a number, cards, a suit,
    or the grammar's own ``unit``), then words that take it back (:data:`CORRECTIONS`),
    then a piece of the same kind — the first is dropped. Words that take nothing back
    (« Benoît sort non ») stay for the grammar."""
    lang = roster.lang
    markers = CORRECTIONS[lang]
    out = list(said)
    done: list[Correction] = []
    k = 1
    while k < len(out):
        marker = 0
        for m in range(min(_LONGEST, len(out) - k), 0, -1):
            if tuple(w.key for w in out[k : k + m]) in markers:
                marker = m
                break
        if not marker:
            k += 1
            continue
        after = _units(out, k + marker, roster, unit)
        before: tuple[str, int] | None = None
        for start in range(max(0, k - 6), k):  # the longest piece ending right before the marker
            kinds = _units(out, start, roster, unit)
            common = [kind for kind, length in kinds.items() if start + length == k and kind in after]
            if common:
                before = (common[0], start)
                break
        if before is None:
            before, after = _said_of_someone(out, k, marker, roster, unit)
        if before is None:
            k += 1
            continue
        kind, start = before
        end = k + marker + after[kind]
        if kind == "name":
            # « Hugo, Sophie… euh non Hugo, Thomas, Sophie, Mina »: the list said again from
            # a name said before — all of it taken back, from that name on.
            again = [w.key for w in out[k + marker : end]]
            earlier = next((s for s in range(start) if [w.key for w in out[s : s + len(again)]] == again), None)
            if earlier is not None:
                start = earlier
        taken, kept = out[start:k], out[k + marker : end]
        relation = end < len(out) and out[end].key in _RELATIONS
        if [w.key for w in taken] == [w.key for w in kept] or (kind == "name" and relation):
            # « Noémie, ah non, Noémie avant Lucie », « Thomas… non, Valentin avant Yasmine »:
            # no piece taken back, but an order said again — left unresolved (asked).
            k += 1
            continue
        done.append(Correction(tuple(taken), tuple(out[k : k + marker]), tuple(kept)))
        del out[start : k + marker]
        k = start + 1
    return out, done


#: Words that place one player against another (« Valentin avant Yasmine »).
_RELATIONS = frozenset({"avant", "apres", "devant", "derriere", "before", "after", "behind"})
#: The words that take back what was just said beyond doubt: left in a line once its
#: corrections are applied, with more said after them, the line is not filled at all.
_TAKING_BACK = {
    "fr": frozenset([("non",), ("ah", "non"), ("non", "pardon"), ("pardon",), ("oups",), ("je", "veux", "dire")]),
    "en": frozenset([("sorry",), ("oops",), ("i", "mean"), ("no", "wait")]),
}


def unresolved(said: Sequence[Word], lang: str) -> list[Word]:
    """The words of a correction that took nothing back (« …, Noémie, ah non, Noémie
    avant Lucie »), with something said after them: what the line then means is asked,
    never filled (empty when there are none)."""
    markers = _TAKING_BACK["en" if lang == "en" else "fr"]
    for k in range(len(said)):
        for m in (3, 2, 1):
            piece = said[k : k + m]
            if len(piece) == m and tuple(w.key for w in piece) in markers and k + m < len(said):
                return list(piece)
    return []


class LineReader:
    """A line being read by a grammar: ``all`` its words as written, ``said`` those left
    once its corrections are applied (:func:`corrected`), what is filled, asked and
    noted, and which words were used (for :attr:`Reading.not_understood`)."""

    def __init__(self, line: str, roster: Roster, unit: Unit | None = None) -> None:
        self.line = line
        self.roster = roster
        self.lang = roster.lang
        self.all = words(line)
        self.said, corrections = corrected(self.all, roster, unit)
        self.used: set[int] = set()
        self.fields: dict[str, str] = {}
        self.backing: dict[str, list[tuple[int, int]]] = {}
        self.questions: list[Text] = []
        self.notes: list[Text] = []
        self.me_asked = False
        #: How a name read loosely was read (« Élo » : Élodie), by where it is: said in the
        #: read-back when its words were used.
        self._loose: dict[int, Text] = {}
        for c in corrections:
            self.use(c.taken + c.marker)
            kept, taken = span(line, c.kept), span(line, c.taken)
            self.note(
                ask(
                    f"Corrigé dans la phrase : {quoted(kept)}, et non {quoted(taken)}.",
                    f"Corrected in the line: {quoted(kept, 'en')}, not {quoted(taken, 'en')}.",
                )
            )

    def text(self, text: Text) -> str:
        """``text`` in the page's language."""
        return text.get(self.lang)

    def use(self, pieces: Iterable[Word]) -> None:
        """These words were understood (a field, a question or a note used them)."""
        self.used.update(w.start for w in pieces)

    def fill(self, name: str, value: str, pieces: Iterable[Word]) -> None:
        """Field ``name`` is ``value``, said by ``pieces`` (never empty)."""
        backing = [(w.start, w.end) for w in pieces]
        assert backing, f"{name} filled from no word"
        self.fields[name] = value
        self.backing[name] = sorted(set(backing))
        self.used.update(start for start, _end in backing)

    def unfill(self, name: str) -> None:
        """Field ``name`` is not filled after all (what was said of it is asked)."""
        self.fields.pop(name, None)
        self.backing.pop(name, None)

    def ask(self, text: Text, pieces: Iterable[Word] = ()) -> None:
        """A question (once), about ``pieces``."""
        self.use(pieces)
        if text not in self.questions:
            self.questions.append(text)

    def note(self, text: Text) -> None:
        """Something the read-back says (once)."""
        if text not in self.notes:
            self.notes.append(text)

    def person(self, named: Named, pieces: Sequence[Word], use: bool = True) -> Person | None:
        """The player ``named`` (by ``pieces``) for a field: the question asked when it
        is unclear (« Ma » : Marie ou Mathieu ?, « moi » with no player for this device),
        the read-back told when it was read loosely (« Élo » : Élodie). ``use``: the words
        are understood now (else when a field or a question uses them)."""
        if named.person is None:
            self.use(pieces)
            unclear = named.unclear
            if unclear is not None:
                self.ask(unclear.text)
            if named.me:
                self.me_asked = True
            return None
        if use:
            self.use(pieces)
        if named.loose and pieces:
            said = span_text(pieces)
            self._loose[pieces[0].start] = ask(
                f"{quoted(said)} : {named.person.name}.", f"{quoted(said, 'en')}: {named.person.name}."
            )
        return named.person

    def unused(self) -> list[tuple[int, int]]:
        """Where the runs of words nothing used are (``(start, end)``, in characters)."""
        runs: list[list[Word]] = []
        previous = -2
        for i, w in enumerate(self.all):
            if w.start in self.used:
                continue
            if i == previous + 1 and runs:
                runs[-1].append(w)
            else:
                runs.append([w])
            previous = i
        return [(run[0].start, run[-1].end) for run in runs]

    def reading(self) -> Reading:
        """What the line gave: nothing filled when a correction in it took nothing back
        (what it means is asked)."""
        left = unresolved(self.said, self.lang)
        if left:
            said = span(self.line, left)
            self.ask(
                ask(
                    f"{quoted(said)} : que corrige la phrase ? Dites-la corrigée.",
                    f"{quoted(said, 'en')}: what does the line correct? Say it corrected.",
                ),
                left,
            )
            self.fields.clear()
            self.backing.clear()
        unread = self.unused()
        return Reading(
            fields=dict(self.fields),
            not_understood=[self.line[start:end] for start, end in unread],
            unread=unread,
            questions=[self.text(q) for q in self.questions],
            notes=[
                *(self.text(t) for start, t in sorted(self._loose.items()) if start in self.used),
                *(self.text(n) for n in self.notes),
            ],
            backing={k: list(v) for k, v in self.backing.items()},
            me_asked=self.me_asked,
        )
