"""A crapouille hand said in one line, read into the hand form's fields.

« Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan 3 », « c’est Ann qui sort,
Bob douze, Cid un roi et un as, donné par Dan », English « Ann out; Bob 12; Cid eight of
hearts and a joker; Dan 3; dealt by Bob ».

What it fills (the fields of :func:`~companion.games.kinds.crapouille.forms.hand_form`):

- ``winner``: who went out (« Ann sort », « Ann a fini », « c’est Ann qui sort »,
  « sortie : Ann », « Ann out », « Ann went out »);
- ``dealer``: who dealt (« donné par Bob », « Bob a distribué », « donneur : Bob »,
  « dealt by Bob »);
- ``cards_<id>``: the cards a player kept, when every one is said with its suit (or is
  a joker), in the page's own notation (« 8C Joker »), as the form reads typed cards;
- ``total_<id>``: a player's total, said as a number (« 12 », « douze »), or counted from
  cards said by rank only (« un roi et un as ») with the engine's
  :func:`~companion.rules.crapouille.card_points` (a rank costs the same in every suit).
  No card costs nothing: who is said to have 0 (« rien », « plus de cartes ») is who
  went out — said so when no one else is, asked when someone else is.

A number alone is a total (« Bob huit » is 8 points); cards are said with a card word
(« un huit », « deux huit », « huit de cœur »). Nothing is decided here: the form and the
engine judge what is filled. What could be two things is asked, never filled: two
players said to go out or to have dealt, a player named twice, a name that could be two
players. A player no longer in the game is not filled either (the form does not ask
about them): the line says so.

>>> people = [Person("1", "Ann"), Person("2", "Bob"), Person("3", "Cid"), Person("4", "Dan")]
>>> read_hand("Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan 3", people).fields
{'winner': '1', 'total_2': '12', 'cards_3': '8C Joker', 'total_4': '3'}
>>> read_hand("c'est Ann qui sort, Bob douze, Cid un roi et un as, donné par Dan", people).fields
{'winner': '1', 'dealer': '4', 'total_2': '12', 'total_3': '6'}
>>> read_hand("Ann out; Bob 12; Cid eight of hearts and a joker; Dan 3", people, lang="en").fields
{'winner': '1', 'total_2': '12', 'cards_3': '8h Joker', 'total_4': '3'}
>>> read_hand("Bob 12, Cid 5, Dan rien, Ann 3", people).fields["winner"]
'4'

"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules import crapouille
from companion.rules.cards import Card, Suit, typed_notation
from companion.rules.i18n import Text
from companion.sentence import Hint, Person, Reading
from companion.sentence.cards import CARD_WORDS, read_cards, suit_count_question
from companion.sentence.numbers import NUMBER_WORDS, read_number
from companion.sentence.people import Named, Roster
from companion.sentence.reader import LineReader
from companion.sentence.unclear import alternatives, ask, quoted
from companion.sentence.words import AND, Word, fold, span

__all__ = ["example", "read_hand"]

# What a piece of the line says of a player, by kind:
WIN = "win"  # went out (« sort », « a fini », « out »)
DEALT = "dealt"  # dealt (« a donné », « dealt »), after the name
DEALT_BY = "dealt_by"  # « donné par », « dealt by »: said before the name, always
WIN_LABEL = "win_label"  # « sortie : », « gagnant », « winner »: before or after the name
DEAL_LABEL = "deal_label"  # « donneur : », « dealer »: before or after the name
FILLER = "filler"  # words that say nothing here (« c’est », « qui », « points »)
OUT = "out"  # out of the game already (« hors jeu »): said of a player who no longer plays

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
            "sortent",
            "sont sortis",
            "sont sorties",
            "ont fini",
            "a gagne la donne",
            "gagne la donne",
            "a gagne la manche",
            "gagne la manche",
            "a gagne le coup",
            "gagne le coup",
            "remporte",
            "remporte la main",
            "remporte la donne",
            "remporte le coup",
            "suis sorti",
            "suis sortie",
            "me suis vide",
            "sort sur un 2",
            "sort sur un deux",
            "sorti sur un 2",
            "sortie sur un 2",
            "sorti sur un deux",
            "sortie sur un deux",
            "a fini sur un 2",
            "a fini sur un deux",
            "vide sa main",
            "a vide sa main",
            "pose sa derniere carte",
            "out",
            "est out",
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
            "donnait",
            "qui donnait",
            "distribuait",
            "qui distribuait",
            "a donne les cartes",
        ),
        DEALT_BY: (
            "donne par",
            "donnee par",
            "distribue par",
            "distribuee par",
            "la donne de",
            "la donne etait a",
            "la donne est a",
            "la donne a",
            "c' est a",
        ),
        WIN_LABEL: ("sortie", "sortie de", "sortant", "sortante", "gagnant", "gagnante", "qui sort"),
        DEAL_LABEL: ("donneur", "donneuse", "donne", "distributeur", "distributrice"),
        OUT: (
            "hors jeu",
            "est hors jeu",
            "suis hors jeu",
            "est deja hors jeu",
            "elimine",
            "eliminee",
            "est elimine",
            "est eliminee",
            "ne joue plus",
        ),
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
            "rien qu'",
            "juste",
            "seulement",
            "que",
            "qu'",
            "bien sur",
            "evidemment",
            "la manche",
            "le coup",
            "la donne",
            "la partie",
            "la main",
            "il me reste",
            "me reste",
            "en fait",
            "a commence",
            "commence",
            "a ouvert",
            "cette fois",
            "du tout",
            "sauf",
            "chacun",
            "chacune",
            "a part",
            "au total",
            "a pioche",
            "pioche",
            "avec la carte piochee",
            "avec la pioche",
            "la carte piochee",
            "carte piochee",
            "compris",
            "y compris",
            "euh",
            "alors",
            "voila",
            "les autres",
            "sinon",
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
        DEALT: ("dealt", "deals", "has dealt", "who dealt", "was dealer", "was the dealer", "is dealer"),
        DEALT_BY: ("dealt by", "deal by", "deal from"),
        WIN_LABEL: ("out", "winner", "went out"),
        DEAL_LABEL: ("dealer", "the dealer"),
        OUT: ("out of the game", "is out of the game", "eliminated", "is eliminated"),
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
            "m",
            "'m",
            "am",
            "only",
            "just",
            "of course",
            "except",
            "but",
            "s",
            "each",
            "this time",
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
    """What the line says of one player (or of a group: « tous les autres »): the name,
    then the pieces that go with it."""

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
        if named is not None and named.group == "dealer":
            following = roster.at(said, i + named.length)
            if following is not None and not following.group:
                # « le donneur : Ann »: a label, not the dealer's own hand.
                found.append(_Piece(DEAL_LABEL, list(said[i : i + named.length]), kinds=(DEAL_LABEL,)))
                i += named.length
                continue
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
            kind = next((k for k in (WIN, OUT, DEALT, DEALT_BY, FILLER) if k in kinds), kinds[0])
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


#: « 10 chacune »: the value is each one's of the players just named.
_EACH = frozenset({"chacun", "chacune", "each", "apiece"})


def following_each(segments: list[_Segment], segment: _Segment) -> bool:
    """Whether the segment after ``segment`` ends its hand with « chacun(e) »."""
    at = segments.index(segment)
    if at + 1 >= len(segments):
        return False
    pieces = segments[at + 1].pieces
    return any(w.key in _EACH for p in pieces for w in p.said)


def _shared(segments: list[_Segment]) -> list[list[_Segment]]:
    """The segments as said together: names joined by « et » with nothing else said of
    the first (« Ann et Zoé sortent », « Ben et Anne 8 ») share what is said of the last."""
    groups: list[list[_Segment]] = []
    joined = False
    for segment in segments:
        if joined and groups:
            groups[-1].append(segment)
        else:
            groups.append([segment])
        rest = segment.pieces[segment.lead :]
        joined = bool(rest) and all(p.kind == FILLER and p.said[-1].key in AND for p in rest)
        if not rest and following_each(segments, segment):
            joined = True  # « Mina Sophie 10 chacune »: one hand said for both
    return groups


@dataclass
class _Said:
    """What the line says of one player."""

    person: Person
    words: list[Word] = field(default_factory=list)  # the name's words, each time named
    wins: list[Word] | None = None  # the words saying they went out
    dealt: list[Word] | None = None  # the words saying they dealt
    out: list[Word] | None = None  # the words saying they are out of the game
    hands: list[tuple[list[Card] | None, int | None, list[Word]]] = field(default_factory=list)


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


def _points(hand: tuple[list[Card] | None, int | None]) -> int | None:
    cards, total = hand
    return total if cards is None else sum(crapouille.card_points(c) for c in cards)


#: What the cheapest card costs: a hand of no point is a hand of no card — who went out.
_LEAST = min(crapouille.card_points(c) for c in crapouille.DECK.counts)


#: Words that put dealing in the hand to come (« c'est Sacha qui donne maintenant »).
_NEXT = {
    "fr": frozenset({"maintenant", "ensuite", "apres", "prochaine", "suivante"}),
    "en": frozenset({"now", "next"}),
}
#: « Sacha aussi »: the hand said just before, for this player too.
_TOO = {"fr": frozenset({"aussi", "pareil", "idem", "egalement"}), "en": frozenset({"too", "also", "same"})}
#: What says the contrary of what follows (« c'est pas Cyril qui a distribué »).
_NOT = {"fr": frozenset({"pas", "non", "jamais"}), "en": frozenset({"not", "never", "isn't", "wasn't", "didn't"})}


def negated(reader: LineReader, name_words: Sequence[Word], lang: str) -> bool:
    """Whether a negation is said right before the name (« c'est pas Cyril qui… »)."""
    if not name_words:
        return False
    at = next((k for k, w in enumerate(reader.said) if w.start == name_words[0].start), 0)
    return at > 0 and reader.said[at - 1].key in _NOT[lang]


#: « sort sur un 8 »: the card a player went out on.
_ON = {"fr": frozenset({"sur", "avec"}), "en": frozenset({"on", "with"})}
#: « 3 cartes : roi, dame, 7 »: how many cards, then which.
_CARDS_WORD = {"fr": frozenset({"cartes", "carte"}), "en": frozenset({"cards", "card"})}
#: « 12 pour Lucie », « il reste un 2 à Mathis »: a hand said before its player.
_FOR = {"fr": frozenset({"pour"}), "en": frozenset({"for", "to"})}
_LEFT_TO = {"fr": frozenset({"a"}), "en": frozenset()}
_LEFT = {"fr": frozenset({"reste", "restent"}), "en": frozenset({"left"})}
#: Words a hand said before its player is made of (numbers, cards, their joins).
_HAND_WORDS = {lang: CARD_WORDS[lang] | NUMBER_WORDS[lang] | AND for lang in ("fr", "en")}


def _fronted(said: Sequence[Word], roster: Roster, lang: str) -> list[Word]:
    """The line's words with each hand said before its player (« 12 pour Lucie », « il
    reste un 2 à Mathis ») put after them, as a hand is said most (« Lucie 12 »): the
    words keep their places in the line (what is shown and what backs a field)."""
    out = list(said)
    k = 1
    while k < len(out) - 1:
        word = out[k]
        if word.key not in _FOR[lang] and word.key not in _LEFT_TO[lang]:
            k += 1
            continue
        named = roster.at(out, k + 1)
        if named is None or out[k + 1].after_stop:
            k += 1
            continue
        start = k
        while start > 0 and (out[start - 1].key in _HAND_WORDS[lang] or out[start - 1].key.isdigit()):
            start -= 1
            if out[start].after_stop:
                break
        if word.key in _LEFT_TO[lang] and not (start > 0 and out[start - 1].key in _LEFT[lang]):
            k += 1
            continue
        if start == k:
            k += 1
            continue
        name = out[k + 1 : k + 1 + named.length]
        hand = out[start:k]
        moved = [replace(name[0], after_stop=hand[0].after_stop), *name[1:]]
        out[start : k + 1 + named.length] = [*moved, replace(hand[0], after_stop=False), *hand[1:], word]
        k += 1 + named.length
    return out


def read_hand(
    line: str,
    people: Sequence[Person],
    in_play: Collection[str] | None = None,
    lang: str = "fr",
    me: str | None = None,
    dealer: str | None = None,
) -> Reading:
    """The hand form's fields said by ``line`` (see the module's docstring).

    ``people``: the game's players; ``in_play``: the ids of those still in (all, if
    None); ``me``: the id of this device's player (« moi »), if any; ``dealer``: who
    deals this hand (« le donneur sort »), if known. Questions are in ``lang``.
    """
    lang = "en" if lang == "en" else "fr"
    roster = Roster(people, me, lang, VOCABULARY[lang], dealer=dealer, groups=True)
    reader = LineReader(line, roster)
    playing = {p.id for p in people} if in_play is None else set(in_play)
    segments, loose = _segments(_pieces(_fronted(reader.said, roster, lang), roster, lang))
    for group in loose:
        # Words said before any name: only what says nothing is understood.
        reader.use(w for p in group if p.kind == FILLER for w in p.said)

    by_person: dict[str, _Said] = {}
    groups: list[tuple[str, list[Word], tuple[list[Card] | None, int | None], list[Word]]] = []
    asked: set[str] = set()  # the players asked about (never « rien dit »)
    previous: list[tuple[str, list[Word]]] = []  # what was said of each player, in turn (« aussi »)
    for together in _shared(segments):
        last = together[-1]
        for segment in together:
            pieces = segment.pieces if segment is last else [*segment.pieces, *last.pieces]
            _read_segment(reader, segment, pieces, playing, by_person, groups, asked, previous, lang)

    _settle(reader, people, playing, by_person, groups, asked, lang)
    return reader.reading()


def _bracketed(line: str, word: Word) -> bool:
    """Whether ``word`` is said inside brackets (« 8 (un huit) »)."""
    return line.count("(", 0, word.start) > line.count(")", 0, word.start)


def _read_segment(
    reader: LineReader,
    segment: _Segment,
    pieces: list[_Piece],
    playing: set[str],
    by_person: dict[str, _Said],
    groups: list[tuple[str, list[Word], tuple[list[Card] | None, int | None], list[Word]]],
    asked: set[str],
    previous: list[tuple[str, list[Word]]],
    lang: str,
) -> None:
    """What one segment says of its player (or group), gathered in ``by_person``; the
    players asked about, in ``asked``; a hand said (``"hand"``, its words) or going out
    (``WIN``), in ``previous`` (« aussi »)."""
    named = segment.name.named
    assert named is not None
    name_words = segment.name.said
    hand_words: list[Word] = []
    said: dict[str, list[Word]] = {}
    if negated(reader, name_words, lang) or any(
        piece.kind == "word" and piece.said[0].key in _NOT[lang] for piece in pieces
    ):
        # « c'est pas Cyril qui a distribué »: nothing said of them is taken (shown as not understood).
        return
    for piece in pieces:
        if piece.kind in (WIN, WIN_LABEL):
            said.setdefault(WIN, []).extend(piece.said)
        elif piece.kind in (DEALT, DEALT_BY, DEAL_LABEL):
            said.setdefault(DEALT, []).extend(piece.said)
        elif piece.kind == OUT:
            said.setdefault(OUT, []).extend(piece.said)
        elif (
            piece.kind == FILLER
            and len(piece.said) == 1
            and piece.said[0].key in _ON[lang]
            and WIN in said
            and not hand_words
        ):
            hand_words.append(piece.said[0])  # « Sophie sort avec un 8 »: the card gone out on
        elif piece.kind == FILLER and all(w.key in AND for w in piece.said):
            hand_words.extend(piece.said)  # « un roi et un as »: the join stays in the hand
        elif piece.kind == FILLER:
            reader.use(piece.said)
        elif piece.kind == "word":
            hand_words.append(piece.said[0])
    following = [w for w in hand_words if w.key in _NEXT[lang]]
    if DEALT in said and following:
        # « c'est Sacha qui donne maintenant »: this hand's dealer, or the next one's? Asked.
        deals = quoted(span(reader.line, [*said[DEALT], following[-1]]))
        reader.ask(
            ask(f"{deals} : qui a distribué cette donne ?", f"{deals}: who dealt this hand?"),
            [*said.pop(DEALT), *following],
        )
        hand_words = [w for w in hand_words if w not in following]
    if hand_words and all(w.key in _TOO[lang] for w in hand_words) and previous:
        kind, before = previous[-1]
        if kind == WIN:
            # « Damien a fini et Rémi aussi »: gone out too (two gone out is asked).
            said.setdefault(WIN, []).extend(hand_words)
            hand_words = []
        else:
            # « Farid 10, Sacha aussi »: the hand said just before.
            hand_words = [*before, *hand_words]
            reader.use(w for w in hand_words if w.key in _TOO[lang])
            hand_words = [w for w in hand_words if w.key not in _TOO[lang]]
    if WIN in said and len(hand_words) >= 2 and hand_words[0].key in _ON[lang]:
        # « Gab sort sur un 8 »: the card gone out on, no card left.
        on = read_cards(hand_words, 1, lang)
        if on is not None:
            reader.use(hand_words[: 1 + on.length])
            del hand_words[: 1 + on.length]
    if len(hand_words) > 2 and hand_words[0].key.isdigit() and hand_words[1].key in _CARDS_WORD[lang]:
        rest = read_cards(hand_words, 2, lang)
        if rest is not None and rest.length == len(hand_words) - 2:
            reader.use(hand_words[:2])  # « Gab 3 cartes : roi, dame, 7 »: the cards follow
            del hand_words[:2]
    while hand_words and hand_words[0].key in AND:
        reader.use(hand_words[:1])
        hand_words.pop(0)
    while hand_words and hand_words[-1].key in AND:
        reader.use(hand_words[-1:])
        hand_words.pop()
    hand: tuple[list[Card] | None, int | None] | None = None
    extra: list[Word] = []
    if hand_words:
        # « Capucine 8 (un huit) »: what is said in brackets says the hand again — read apart.
        aside = next((k for k, w in enumerate(hand_words) if k and _bracketed(reader.line, w)), None)
        hand = _hand(hand_words, lang) if aside is None else None
        if hand is None:
            # Words after a stop that are no one's (« Élo douze ; Xavier huit de cœur », with
            # no Xavier at the table): the hand said before the stop stands, the rest is shown.
            cut = (
                aside if aside is not None else next((k for k, w in enumerate(hand_words) if k and w.after_stop), None)
            )
            head = _hand(hand_words[:cut], lang) if cut is not None else None
            if head is not None and cut is not None:
                tail = _hand(hand_words[cut:], lang)
                if tail is not None and _points(tail) != _points(head):
                    # Two hands said for one player (« Ann 15 : un roi et un 7 »): asked.
                    text = [span(reader.line, hand_words[:cut]), span(reader.line, hand_words[cut:])]
                    name = named.person.name if named.person is not None else named.said
                    if named.person is not None:
                        asked.add(named.person.id)
                    reader.ask(
                        ask(f"{name} : {alternatives(text, 'fr')} ?", f"{name}: {alternatives(text, 'en')}?"),
                        [*name_words, *hand_words],
                    )
                    return
                someone_else = hand_words[cut].text[:1].isupper() and hand_words[cut].key not in _HAND_WORDS[lang]
                if (
                    tail is None
                    and not someone_else  # (« ; Xavier huit de cœur »: someone not at the table)
                    and any(read_number(hand_words, k, lang) for k in range(cut, len(hand_words)))
                ):
                    # « Inès a un 8 et un joker, donc 30 »: another value said after it? Asked.
                    text = [span(reader.line, hand_words[:cut]), span(reader.line, hand_words[cut:])]
                    name = named.person.name if named.person is not None else named.said
                    if named.person is not None:
                        asked.add(named.person.id)
                    reader.ask(
                        ask(f"{name} : {alternatives(text, 'fr')} ?", f"{name}: {alternatives(text, 'en')}?"),
                        [*name_words, *hand_words],
                    )
                    return
                if tail is not None:
                    reader.use(hand_words[cut:])
                else:
                    extra = hand_words[cut:]
                hand_words, hand = hand_words[:cut], head
    if named.group and named.person is None:
        if hand is not None:
            groups.append((named.group, name_words, hand, hand_words))
        elif not hand_words:
            reader.use(name_words)  # « les autres : Ann 5… »: a word that announces the list
        return
    person = reader.person(named, name_words, use=False)  # used with what is said of them
    if person is None:
        # Asked (who « moi » is, which of two players): what was said of them goes with the question.
        reader.use([*(w for ws in said.values() for w in ws), *hand_words, *extra])
        return
    if person.id not in playing:
        # Someone out of the game already: saying so (or that they hold nothing) is
        # understood; anything else of them is asked.
        if not said.get(WIN) and not said.get(DEALT) and (hand is None or _points(hand) == 0):
            reader.use([*name_words, *said.get(OUT, []), *hand_words])
            reader.note(ask(f"{person.name} : hors jeu.", f"{person.name}: out of the game."))
        else:
            reader.ask(
                ask(f"{person.name} n’est plus dans la partie.", f"{person.name} is no longer in the game."),
                [*name_words, *(w for ws in said.values() for w in ws), *hand_words],
            )
        return
    if hand_words and hand is None:
        unclear = suit_count_question(hand_words, lang)
        if unclear is not None:  # « deux piques »: the 2 of spades, or two spades?
            reader.ask(unclear.text, [*name_words, *hand_words])
            asked.add(person.id)
        hand_words = []  # not a hand: its words are shown as not understood
    entry = by_person.setdefault(person.id, _Said(person))
    entry.words.extend(name_words)
    if WIN in said:
        entry.wins = (entry.wins or []) + said[WIN]
    if DEALT in said:
        entry.dealt = (entry.dealt or []) + said[DEALT]
    if OUT in said:
        entry.out = said[OUT]
    if hand is not None:
        entry.hands.append((hand[0], hand[1], hand_words))
        previous.append(("hand", hand_words))
    elif WIN in said:
        previous.append((WIN, said[WIN]))
    # ``extra``: words after a hand that are no hand, shown as not understood.


def _settle(
    reader: LineReader,
    people: Sequence[Person],
    playing: set[str],
    by_person: dict[str, _Said],
    groups: list[tuple[str, list[Word], tuple[list[Card] | None, int | None], list[Word]]],
    asked: set[str],
    lang: str,
) -> None:
    """The fields from what was said of each player: who went out, who dealt, each hand;
    what is said twice or cannot be is asked, and the players left unsaid are named."""
    winners = [s for s in by_person.values() if s.wins is not None]
    # One who went out holds nothing: a hand said of them too is asked.
    for s in winners:
        said_points = {_points((c, t)) for c, t, _w in s.hands}
        if said_points - {0}:
            text = [reader.text(Text("a fini la main", "went out")), *(span(reader.line, w) for _c, _t, w in s.hands)]
            name = s.person.name
            asked.add(s.person.id)
            reader.ask(
                ask(f"{name} : {alternatives(text, 'fr')} ?", f"{name}: {alternatives(text, 'en')}?"),
                [*s.words, *s.wins, *(w for _c, _t, ws in s.hands for w in ws)],  # type: ignore[misc]
            )
            s.wins = None
            s.hands = []
            s.words = []
        else:
            reader.use(w for _c, _t, ws in s.hands for w in ws)
            s.hands = []
    winners = [s for s in by_person.values() if s.wins is not None]
    if len(winners) > 1:
        names = [s.person.name for s in winners]
        reader.ask(
            ask(f"Qui a fini la main : {alternatives(names, 'fr')} ?", f"Who went out: {alternatives(names, 'en')}?"),
            [w for s in winners for w in [*s.words, *(s.wins or [])]],
        )
    winner = winners[0] if len(winners) == 1 else None
    if winner is not None:
        reader.fill("winner", winner.person.id, [*winner.words, *(winner.wins or [])])
    dealers = [s for s in by_person.values() if s.dealt is not None]
    if len(dealers) == 1:
        dealer = dealers[0]
        reader.fill("dealer", dealer.person.id, [*dealer.words, *(dealer.dealt or [])])
        reader.note(
            ask(
                f"Distribué par {dealer.person.name}, d’après la phrase.",
                f"Dealt by {dealer.person.name}, as the line says.",
            )
        )
    elif dealers:
        names = [s.person.name for s in dealers]
        reader.ask(
            ask(f"Qui a distribué : {alternatives(names, 'fr')} ?", f"Who dealt: {alternatives(names, 'en')}?"),
            [w for s in dealers for w in [*s.words, *(s.dealt or [])]],
        )
    notation = typed_notation(lang)
    given: dict[str, tuple[list[Card] | None, int | None, list[Word]]] = {}
    for key, entry in by_person.items():
        if not entry.hands:
            continue  # a name said alone is shown as not understood (and as « rien dit »)
        hands = {(tuple(map(str, c)) if c is not None else None, t) for c, t, _w in entry.hands}
        if len(hands) > 1:
            options = [span(reader.line, w) for _c, _t, w in entry.hands]
            name = entry.person.name
            asked.add(key)
            reader.ask(
                ask(f"{name} : {alternatives(options, 'fr')} ?", f"{name}: {alternatives(options, 'en')}?"),
                [*entry.words, *(w for _c, _t, ws in entry.hands for w in ws)],
            )
            continue
        given[key] = entry.hands[-1]
        given[key] = (given[key][0], given[key][1], [*entry.words, *(w for _c, _t, ws in entry.hands for w in ws)])
    # « Élodie 0 » with no one said to go out: no point is no card — Élodie went out.
    if winner is None and len(winners) == 0 and not groups and set(given) >= playing:
        # (only when every player still in was given a hand: a player left unsaid, or words
        # not understood, could be who went out)
        empty = [k for k, (c, t, _w) in given.items() if _points((c, t)) == 0 and _LEAST > 0]
        said_of = {w.start for _c, _t, ws in given.values() for w in ws}
        if len(empty) == 1 and all(w.start in reader.used or w.start in said_of for w in reader.all):
            key = empty[0]
            reader.fill("winner", key, given[key][2])
            name = by_person[key].person.name
            reader.note(
                ask(f"{name} : 0 point, donc la sortie de la main.", f"{name}: 0 points, so the one who went out.")
            )
            winner = by_person[key]
            del given[key]
    for kind, name_words, hand, hand_words in groups:
        if winner is None:
            # « tout le monde 10 » is said of everyone but who went out: asked first.
            reader.use([*name_words, *hand_words])
            continue
        left = [
            p
            for p in people
            if p.id in playing
            and p.id not in given
            and p.id != winner.person.id
            and p.id not in by_person
            and p.id not in asked
        ]  # (a player named with nothing understood of them gets no group's value)
        if not left:
            reader.use([*name_words, *hand_words])
            continue
        for p in left:
            given[p.id] = (hand[0], hand[1], [*name_words, *hand_words])
        del kind
    for key, (cards, total, backing) in list(given.items()):
        if winner is not None and key != winner.person.id and _points((cards, total)) == 0 and _LEAST > 0:
            # Only who went out has no card left: « Farid 0 » when Juliette went out is asked.
            name = next(p.name for p in people if p.id == key)
            reader.ask(
                ask(
                    f"{name} : 0 point, mais c’est {winner.person.name} qui a fini la main ?",
                    f"{name}: 0 points, but {winner.person.name} went out?",
                ),
                backing,
            )
            asked.add(key)
            del given[key]
    for key, (cards, total, backing) in given.items():
        if winner is not None and key == winner.person.id:
            continue
        if cards is not None:
            reader.fill(f"cards_{key}", " ".join(notation.write(c) for c in cards), backing)
        elif total is not None:
            reader.fill(f"total_{key}", str(total), backing)
    if (given or groups) and winner is None and not winners:
        reader.ask(ask("Qui a fini la main ?", "Who went out?"))
    if given or winners or groups:
        # Who plays this hand and was given nothing (a name said alone, or not said).
        for p in people:
            if p.id in playing and p.id not in given and p.id not in asked:
                if winner is not None and p.id == winner.person.id:
                    continue
                if any(s.person.id == p.id for s in winners):
                    continue
                reader.note(ask(f"{p.name} : rien dit.", f"{p.name}: nothing said."))


#: What the example says of each player, in turn: out, a total, cards, nothing.
_SAID = {
    "fr": ("{} sort", "{} 12", "{} huit de cœur et un joker", "{} un roi"),
    "en": ("{} out", "{} 12", "{} eight of hearts and a joker", "{} a king"),
}


def example(people: Sequence[Person], lang: str = "fr") -> Hint:
    """A hand said with this game's players still in (the first four): the hint under
    the line, which the grammar reads whole.

    >>> example([Person("1", "Ann"), Person("2", "Bob"), Person("3", "Cid")]).example
    'Ann sort\xa0; Bob 12\xa0; Cid huit de cœur et un joker'
    """
    lang = "en" if lang == "en" else "fr"
    said = [form.format(p.name) for form, p in zip(_SAID[lang], people, strict=False)]
    return Hint(("\u00a0; " if lang == "fr" else "; ").join(said))
