"""A crapouille hand said in one line (issue 28), read into the hand form's fields.

« Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan rien », « c’est Ann qui sort,
Bob douze, Cid un roi et un as, donné par Dan », English « Ann out; Bob 12; Cid eight of
hearts and a joker; Dan nothing; dealt by Bob ».

What it fills (the fields of :func:`~companion.games.kinds.crapouille.forms.hand_form`):

- ``winner``: who went out (« Ann sort », « Ann a fini », « c’est Ann qui sort »,
  « sortie : Ann », « Ann out », « Ann went out »);
- ``dealer``: who dealt (« donné par Bob », « Bob a distribué », « donneur : Bob »,
  « dealt by Bob »);
- ``cards_<id>``: the cards a player kept, when every one is said with its suit (or is
  a joker), in the page's own notation (« 8C Joker »), as the form reads typed cards;
- ``total_<id>``: a player's total, said as a number (« 12 », « douze », « rien »), or
  counted from cards said by rank only (« un roi et un as ») with the engine's
  :func:`~companion.rules.crapouille.card_points` (a rank costs the same in every suit).

A number alone is a total (« Bob huit » is 8 points); cards are said with a card word
(« un huit », « deux huit », « huit de cœur »). Nothing is decided here: the form and the
engine judge what is filled. What could be two things is asked, never filled: two
players said to go out or to have dealt, a player named twice, a name that could be two
players. A player no longer in the game is not filled either (the form does not ask
about them): the line says so.

>>> people = [Person("1", "Ann"), Person("2", "Bob"), Person("3", "Cid"), Person("4", "Dan")]
>>> read_hand("Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan rien", people).fields
{'winner': '1', 'total_2': '12', 'cards_3': '8C Joker', 'total_4': '0'}
>>> read_hand("c'est Ann qui sort, Bob douze, Cid un roi et un as, donné par Dan", people).fields
{'winner': '1', 'dealer': '4', 'total_2': '12', 'total_3': '6'}
>>> read_hand("Ann out; Bob 12; Cid eight of hearts and a joker; Dan nothing", people, lang="en").fields
{'winner': '1', 'total_2': '12', 'cards_3': '8h Joker', 'total_4': '0'}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules import crapouille
from companion.rules.cards import Card, Suit, typed_notation
from companion.sentence import Person, Reading
from companion.sentence.cards import read_cards
from companion.sentence.numbers import read_number
from companion.sentence.people import Named, Roster
from companion.sentence.unclear import alternatives, ask
from companion.sentence.words import AND, Word, fold, span, words

__all__ = ["read_hand"]

# What a piece of the line says of a player, by kind:
WIN = "win"  # went out (« sort », « a fini », « out »)
DEALT = "dealt"  # dealt (« a donné », « dealt »), after the name
DEALT_BY = "dealt_by"  # « donné par », « dealt by »: said before the name, always
WIN_LABEL = "win_label"  # « sortie : », « gagnant », « winner »: before or after the name
DEAL_LABEL = "deal_label"  # « donneur : », « dealer »: before or after the name
FILLER = "filler"  # words that say nothing here (« c’est », « qui », « points »)

_PHRASES: dict[str, dict[str, Sequence[str]]] = {
    "fr": {
        WIN: (
            "sort",
            "sors",
            "sortie",
            "sorti",
            "est sorti",
            "est sortie",
            "qui sort",
            "qui est sorti",
            "qui est sortie",
            "a fini",
            "ai fini",
            "qui a fini",
            "fini",
            "finit",
            "finis",
            "a termine",
            "ai termine",
            "termine",
            "a gagne",
            "ai gagne",
            "qui a gagne",
            "gagne",
            "gagne la main",
            "a gagne la main",
            "est dehors",
            "a pose sa derniere carte",
            "a pose toutes ses cartes",
        ),
        DEALT: (
            "a donne",
            "ai donne",
            "a distribue",
            "ai distribue",
            "qui a donne",
            "qui a distribue",
            "qui donne",
            "qui distribue",
            "donne",
            "distribue",
            "a fait la donne",
        ),
        DEALT_BY: ("donne par", "donnee par", "distribue par", "distribuee par", "donne par", "la donne de"),
        WIN_LABEL: ("sortie", "sortant", "sortante", "gagnant", "gagnante", "qui sort"),
        DEAL_LABEL: ("donneur", "donneuse", "donne", "la donne", "distributeur", "distributrice"),
        FILLER: (
            "c'",
            "c' est",
            "est",
            "qui",
            "a",
            "ai",
            "avait",
            "il",
            "elle",
            "lui",
            "reste",
            "restent",
            "il reste",
            "il lui reste",
            "encore",
            "garde",
            "avec",
            "points",
            "point",
            "pts",
            "pt",
            "et",
            "puis",
            "alors",
            "ensuite",
            "pour",
            "n'",
            "n' a",
            "n' ai",
            "plus",
            "main",
            "en main",
            "dans la main",
            "dans sa main",
            "total",
        ),
    },
    "en": {
        WIN: (
            "out",
            "is out",
            "went out",
            "goes out",
            "go out",
            "went out first",
            "won",
            "wins",
            "win",
            "won the hand",
            "wins the hand",
            "finished",
            "finishes",
            "is done",
            "done",
            "who went out",
        ),
        DEALT: ("dealt", "deals", "deal", "has dealt", "who dealt", "was dealer", "was the dealer", "is dealer"),
        DEALT_BY: ("dealt by", "deal by", "deal from"),
        WIN_LABEL: ("out", "winner", "went out"),
        DEAL_LABEL: ("dealer", "the dealer", "deal"),
        FILLER: (
            "it's",
            "it",
            "is",
            "was",
            "has",
            "have",
            "had",
            "with",
            "holds",
            "held",
            "left",
            "still",
            "points",
            "point",
            "pts",
            "pt",
            "and",
            "then",
            "in hand",
            "total",
            "for",
            "who",
        ),
    },
}


def _phrase_tree(lang: str) -> dict[str, Any]:
    """The phrases of ``lang`` as a tree of folded words (``""`` ends a phrase: its kinds)."""
    root: dict[str, Any] = {}
    for kind, phrases in _PHRASES[lang].items():
        for phrase in phrases:
            node = root
            for atom in fold(phrase).replace("'", "' ").split():
                node = node.setdefault(atom.rstrip("'"), {})
            node.setdefault("", []).append(kind)
    return root


_TREES = {lang: _phrase_tree(lang) for lang in ("fr", "en")}
#: The grammar's words, which no player's name is read from by a start or a typo.
VOCABULARY = {
    lang: frozenset(
        atom for phrases in _PHRASES[lang].values() for p in phrases for atom in fold(p).replace("'", " ").split()
    )
    for lang in ("fr", "en")
}
#: What says « no card left » besides zero (« plus de cartes », « aucune carte », « no cards »).
_NO_CARDS = {
    "fr": {
        ("de", "cartes"),
        ("de", "carte"),
        ("aucune", "carte"),
        ("aucune", "cartes"),
        ("zero", "carte"),
        ("zero", "cartes"),
    },
    "en": {("no", "cards"), ("no", "card"), ("zero", "cards"), ("none", "left")},
}


@dataclass
class _Piece:
    """One thing read from the line: a name, a phrase of :data:`_PHRASES`, or a word."""

    kind: str  # "name", one of the phrase kinds, or "word"
    said: list[Word]
    named: Named | None = None
    kinds: tuple[str, ...] = ()


@dataclass
class _Segment:
    """What the line says of one player: the name, then the pieces that go with it."""

    name: _Piece
    pieces: list[_Piece] = field(default_factory=list)
    #: How many of ``pieces`` were said before the name (« c’est », « donné par »).
    lead: int = 0


def _pieces(said: Sequence[Word], roster: Roster, lang: str) -> list[_Piece]:
    tree = _TREES[lang]
    found: list[_Piece] = []
    i = 0
    while i < len(said):
        named = roster.at(said, i)
        if named is not None:
            found.append(_Piece("name", list(said[i : i + named.length]), named))
            i += named.length
            continue
        node, best, j = tree, None, i
        while j < len(said) and (j == i or not said[j].after_stop) and said[j].key in node:
            node = node[said[j].key]
            j += 1
            if "" in node:
                best = (j, tuple(node[""]))
        if best is not None:
            end, kinds = best
            kind = next((k for k in (WIN, DEALT, DEALT_BY, FILLER) if k in kinds), kinds[0])
            found.append(_Piece(kind, list(said[i:end]), kinds=kinds))
            i = end
            continue
        found.append(_Piece("word", [said[i]]))
        i += 1
    return found


#: What may be said before a name and go with it: « c’est », « donné par », « donneur : ».
_PRELUDES = frozenset({FILLER, DEALT_BY, WIN_LABEL, DEAL_LABEL})


def _segments(pieces: list[_Piece]) -> tuple[list[_Segment], list[list[_Piece]]]:
    """Each name with what goes with it: what follows it up to the next name, what comes
    before it in its clause (« c’est Ann qui sort », « donné par Bob »), and a label said
    last before the next name (« Ann sort donneur Bob »). Also the groups of pieces that
    go with no name (said before a name, yet not what is said before one)."""
    segments: list[_Segment] = []
    loose: list[list[_Piece]] = []
    waiting: list[_Piece] = []  # pieces said after a stop, before a name
    for piece in pieces:
        if piece.kind == "name":
            # What waits goes with this name from the last piece that is no prelude on
            # (« Bob : 30, donné par : Cid »); before it, with the name before (« Bob : 30 »).
            cut = len(waiting)
            while cut and (waiting[cut - 1].kind in _PRELUDES or any(k in _PRELUDES for k in waiting[cut - 1].kinds)):
                cut -= 1
            segment = _Segment(piece, waiting[cut:], len(waiting) - cut)
            if cut and segments:
                segments[-1].pieces.extend(waiting[:cut])
            elif cut:
                loose.append(waiting[:cut])
            waiting = []
            if segments:
                previous, lead = segments[-1].pieces, segments[-1].lead
                # A « donné par » (always) or a label (when something came between it and
                # its own name) said last goes with the name that follows it, within a clause.
                while len(previous) > lead and not piece.said[0].after_stop:
                    last = previous[-1]
                    forward = DEALT_BY in last.kinds or (
                        (WIN_LABEL in last.kinds or DEAL_LABEL in last.kinds)
                        and any(p.kind != FILLER for p in previous[lead:-1])
                    )
                    if last.kind == FILLER and len(previous) > lead + 1 and DEALT_BY in previous[-2].kinds:
                        forward = True
                    if not forward:
                        break
                    segment.pieces.insert(0, previous.pop())
                    segment.lead += 1
            segments.append(segment)
        elif segments and not piece.said[0].after_stop and not waiting:
            segments[-1].pieces.append(piece)
        else:
            # After a stop (« , » « ; » « : »), what comes before a name waits for it.
            waiting.append(piece)
    if waiting:
        # Said last, after a stop: it goes with the last name (« Ann 12, points »).
        if segments:
            segments[-1].pieces.extend(waiting)
        else:
            loose.append(waiting)
    return segments, loose


@dataclass
class _Said:
    """What the line says of one player."""

    person: Person
    text: list[str] = field(default_factory=list)  # what was said of the hand, as written
    wins: bool = False
    dealt: bool = False
    cards: list[Card] | None = None
    total: int | None = None


def _hand(said: list[Word], lang: str) -> tuple[list[Card] | None, int | None] | None:
    """A player's hand from the words said of it: the cards (all with suits) or a total;
    None when the words are not a hand."""
    keys = tuple(w.key for w in said)
    if keys in _NO_CARDS[lang] or keys == ("rien",):
        return None, 0
    number = read_number(said, 0, lang)
    if number is not None and number[1] == len(said):
        return None, number[0]
    cards = read_cards(said, 0, lang)
    if cards is None or cards.length != len(said):
        return None
    if cards.complete:
        return list(cards.cards), None
    # Cards by rank only: counted with the engine's values (every suit of a rank costs the same).
    points = sum(crapouille.card_points(c) for c in cards.cards)
    points += sum(crapouille.card_points(Card(rank=r, suit=Suit.SPADES)) for r in cards.ranks)
    return None, points


def read_hand(
    line: str,
    people: Sequence[Person],
    in_play: Collection[str] | None = None,
    lang: str = "fr",
    me: str | None = None,
) -> Reading:
    """The hand form's fields said by ``line`` (see the module's docstring).

    ``people``: the game's players; ``in_play``: the ids of those still in (all, if
    None); ``me``: the id of this device's player (« moi »), if any. Questions are in
    ``lang``.
    """
    lang = "en" if lang == "en" else "fr"
    said = words(line)
    roster = Roster(people, me, lang, VOCABULARY[lang])
    playing = {p.id for p in people} if in_play is None else set(in_play)
    reading = Reading()
    segments, loose = _segments(_pieces(said, roster, lang))
    unread: list[list[Word]] = [[w for p in group for w in p.said] for group in loose if group]

    by_person: dict[str, _Said] = {}
    twice: dict[str, list[str]] = {}
    for segment in segments:
        named = segment.name.named
        assert named is not None
        if named.person is None:
            unclear = named.unclear
            if unclear is not None:
                reading.questions.append(unclear.text.get(lang))
            continue
        person = named.person
        if person.id not in playing:
            reading.questions.append(
                ask(f"{person.name} n’est plus dans la partie.", f"{person.name} is no longer in the game.").get(lang)
            )
            reading.not_understood.append(
                span(line, [*segment.name.said, *(w for p in segment.pieces for w in p.said)])
            )
            continue
        entry = by_person.setdefault(person.id, _Said(person))
        hand_words: list[Word] = []
        for piece in segment.pieces:
            if piece.kind in (WIN, WIN_LABEL):
                entry.wins = True
            elif piece.kind in (DEALT, DEALT_BY, DEAL_LABEL):
                entry.dealt = True
            elif piece.kind == "word":
                hand_words.append(piece.said[0])
        while hand_words and hand_words[0].key in AND:
            hand_words.pop(0)
        while hand_words and hand_words[-1].key in AND:
            hand_words.pop()
        if not hand_words:
            continue
        hand = _hand(hand_words, lang)
        if hand is None:
            # Words after a stop that are no one's (« Élo douze ; Ma huit de cœur », with no
            # Ma at the table): the hand said before the stop stands, the rest is shown.
            cut = next((k for k, w in enumerate(hand_words) if k and w.after_stop), None)
            head = _hand(hand_words[:cut], lang) if cut is not None else None
            if head is not None:
                unread.append(hand_words[cut:])
                hand_words, hand = hand_words[:cut], head
        if hand is None or (entry.wins and hand != (None, 0)):
            # Not a hand, or a hand for who went out (who keeps no card).
            unread.append(hand_words)
            continue
        text = span(line, hand_words)
        if entry.cards is not None or entry.total is not None:
            twice.setdefault(person.id, entry.text[:]).append(text)
        entry.cards, entry.total = hand
        entry.text.append(text)

    winners = [s for s in by_person.values() if s.wins]
    dealers = [s for s in by_person.values() if s.dealt]
    if len(winners) == 1:
        reading.fields["winner"] = winners[0].person.id
    elif winners:
        names = [s.person.name for s in winners]
        reading.questions.append(
            ask(
                f"Qui est sorti de la main : {alternatives(names, 'fr')} ?",
                f"Who went out: {alternatives(names, 'en')}?",
            ).get(lang)
        )
    if len(dealers) == 1:
        reading.fields["dealer"] = dealers[0].person.id
    elif dealers:
        names = [s.person.name for s in dealers]
        reading.questions.append(
            ask(f"Qui a distribué : {alternatives(names, 'fr')} ?", f"Who dealt: {alternatives(names, 'en')}?").get(
                lang
            )
        )
    notation = typed_notation(lang)
    for key, entry in by_person.items():
        if key in twice:
            name, options = entry.person.name, twice[key]
            reading.questions.append(
                ask(f"{name} : {alternatives(options, 'fr')} ?", f"{name}: {alternatives(options, 'en')}?").get(lang)
            )
            continue
        if entry.cards is not None:
            reading.fields[f"cards_{key}"] = " ".join(notation.write(c) for c in entry.cards)
        elif entry.total is not None:
            reading.fields[f"total_{key}"] = str(entry.total)
    reading.not_understood.extend(span(line, piece) for piece in unread if piece)
    return reading
