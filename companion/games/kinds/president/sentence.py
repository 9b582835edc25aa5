"""A manche of le Président or Piketty said in one line (issue 28), read into the manche
form's fields (:func:`read_manche`): « Chloé présidente, Ann vice, Benoît trou du cul »,
« sortis dans l’ordre : Chloé, Ann, Élodie », « premier Chloé, deuxième Ann »,
« Benoît a fini sur un 2 », « putsch de Djamel », « jeu blanc pour Élodie », and
Piketty's card draw « Chloé roi de cœur, Ann huit de pique ».

It decides no rule. A title is the finishing place the engine gives it for this game's
number of players and naming (:func:`~companion.rules.president_outcome.title_names`:
rank 1 = the first out, ``finish-0``); an event is read only when the house rules have
it (the form's own list, :data:`~.forms._EVENTS`), and the engine then judges the
manche as if the fields had been tapped. What could be two things is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.games.kinds.president.forms import _EVENTS
from companion.games.kinds.president.said import (
    EVENT_NAMES,
    EVENT_SHORT,
    EVENT_WORDS,
    FILLERS,
    FINISH_VERBS,
    FORBIDDEN_JOKER,
    FORBIDDEN_RANK,
    FORBIDDEN_SAID,
    FROM_END,
    JOINS,
    ON,
    ORDER_WORDS,
    ORDINALS,
    match,
    title_places,
)
from companion.games.kinds.president.state import PresidentState
from companion.rules.cards import typed_notation
from companion.rules.i18n import RulesError, Text
from companion.rules.president import Rules
from companion.rules.president_outcome import Event, Events, Guillotine, titles_after
from companion.sentence import (
    AND,
    Hint,
    Person,
    Reading,
    Roster,
    Word,
    alternatives,
    ask,
    quoted,
    read_cards,
    read_number,
)
from companion.sentence.people import Named, span_text
from companion.sentence.reader import LineReader

# ----------------------------------------------------------------------------- tokens

#: A pronoun for the player just named (« putsch d’Élodie, elle sort en premier »).
_PRONOUNS = frozenset({"il", "elle", "lui", "he", "she", "they", "them"})
#: Said of players together: no order between them (asked).
_TIE = (("en", "meme", "temps"), ("ex", "aequo"), ("exaequo",), ("at", "the", "same", "time"), ("together",))
#: Everyone as in the manche before (« rien ne change », « pareil »): the players not
#: placed otherwise keep their order.
_SAME = (
    ("rien", "ne", "change"),
    ("rien", "change"),
    ("pareil",),
    ("pareil", "que", "la", "derniere", "fois"),
    ("meme", "ordre", "que", "la", "derniere", "fois"),
    ("meme", "ordre", "qu", "avant"),
    ("comme", "avant"),
    ("pareil", "qu", "avant"),
    ("rien", "n", "a", "bouge"),
    ("rien", "ne", "bouge"),
    ("personne", "n", "a", "bouge"),
    ("inchange",),
    ("le", "reste", "inchange"),
    ("meme", "classement"),
    ("meme", "classement", "que", "la", "derniere", "fois"),
    ("descendent", "d", "une", "place"),
    ("descendent", "tous", "d", "une", "place"),
    ("comme", "la", "derniere", "fois"),
    ("meme", "ordre"),
    ("garde", "son", "titre"),
    ("gardent", "leur", "titre"),
    ("gardent", "leurs", "titres"),
    ("gardent", "leur", "ordre"),
    ("gardent", "leur", "place"),
    ("gardent", "leurs", "places"),
    ("no", "change"),
    ("nothing", "changes"),
    ("same", "as", "last", "time"),
    ("same", "order"),
    ("keep", "their", "titles"),
    ("keeps", "their", "title"),
    ("keep", "their", "order"),
)
#: Said of the players just named together (« Zoé et Ann ont fini toutes les deux sur un 2 »).
_BOTH = (("tous", "les", "deux"), ("toutes", "les", "deux"), ("les", "deux"), ("both",), ("both", "of", "them"))
#: The order before the manche, reversed (« tout s'est inversé »).
_REVERSED = (
    ("tout", "s", "est", "inverse"),
    ("tout", "est", "inverse"),
    ("ordre", "inverse"),
    ("tout", "a", "l", "envers"),
    ("a", "l", "envers"),
    ("everything", "reversed"),
    ("reversed", "order"),
)
#: « au milieu », « entre les deux »: the places the line left between those it gave.
_MIDDLE = (("au", "milieu"), ("entre", "les", "deux"), ("in", "between"), ("in", "the", "middle"))
#: Sets of cards of one rank (« une paire de 2 »).
_SETS = frozenset({"paire", "brelan", "carre", "pair", "triple"})
#: « sauf », « except »: the players after it are the exception to what is said.
_EXCEPT = frozenset({"sauf", "except", "but"})
#: « donc », « so »: what follows says what the line said before it means.
_SO = frozenset({"donc", "so", "therefore"})
#: Said of players together: one verb for several (« Gab et Lucie finissent sur un 2 »).
_PLURAL = frozenset({"finissent", "ont", "sont", "sortent", "terminent", "have", "were"})
#: Two players swap their places (« sauf Ann et Zoé qui échangent »).
_SWAP = frozenset(
    {"echangent", "echange", "echanges", "echangee", "echangees", "inversent", "permutent", "swap", "swapped", "switch"}
)
#: « je sais plus »: what follows was not known (its places are asked).
_DUNNO = (
    ("je", "sais", "plus"),
    ("je", "ne", "sais", "plus"),
    ("je", "sais", "pas"),
    ("je", "ne", "sais", "pas"),
    ("on", "sait", "plus"),
    ("sais", "plus"),
    ("le", "reste", "je", "sais", "plus"),
    ("i", "don't", "know"),
    ("don't", "know"),
    ("not", "sure"),
)
#: Winning a manche is going out first (« Zoé gagne »).
_WINS = frozenset({"gagne", "gagnee", "gagnant", "gagnante", "wins", "won", "winner"})
#: Words that say nothing here, besides the grammar's fillers.
_MORE_FILLERS = frozenset(
    [
        "reste",
        "restent",
        "monte",
        "montent",
        "passe",
        "tombe",
        "tombent",
        "descend",
        "descendent",
        "suis",
        "sont",
        "sortent",
        "fini",
        "finie",
        "finis",
        "finit",
        "sortie",
        "sorti",
        "cet",
        "sinon",
        "mais",
        "aussi",
        "inverse",
        "tout",
        "fait",
        "fais",
        "rate",
        "ratee",
        "reussi",
        "echoue",
        "oui",
        "voila",
        "euh",
        "alors",
        "donc",
        "m",
        "am",
        "sauf",
        "except",
        "but",
        "too",
        "also",
        "wins",
        "en",
        "qui",
        "le",
        "la",
        "ont",
        "toutes",
        "tous",
        "les",
        "monde",
        "autres",
        "pas",
        "seule",
        "seul",
        "figure",
        "figures",
        "aucune",
        "son",
        "leur",
        "leurs",
        "tente",
        "reussit",
        "juste",
        "derriere",
        "milieu",
        "au",
        "sors",
        "again",
        "tete",
        "tetes",
        "position",
        "s",
        "ainsi",
        "suite",
        "remonte",
        "redevient",
        "finissent",
        "terminent",
        "places",
        "entre",
        "final",
        "enfin",
        "finalement",
        "carre",
        "filles",
        "garcons",
        "paire",
        "brelan",
        "fois",
    ]
)


@dataclass
class _Token:
    #: player, place, number, pronoun, tie, same, swap, dunno, both, unknown_title, event,
    #: forbidden, order, filler or unknown
    kind: str
    words: Sequence[Word]
    place: int | None = None
    person: Person | None = None
    question: Text | None = None
    event: str = ""
    said: str = ""
    named: Named | None = None
    value: int | None = None
    #: A place said by a title (« trouduc »), not by its rank (« premier »).
    title: bool = False


@dataclass
class _Manche:
    """What the line said so far."""

    #: (place, player id or None: asked, the words that placed them)
    placed: list[tuple[int, str | None, list[Word]]] = field(default_factory=list)
    forbidden: dict[str, list[Word]] = field(default_factory=dict)
    events: list[tuple[str, list[_Token]]] = field(default_factory=list)
    #: The guillotine's tokens, which the next pieces of the line go on naming.
    guillotine: list[_Token] | None = None
    #: A place said beyond the players: no finishing order is filled.
    beyond: bool = False
    #: The player the line spoke of last (« elle », or a place said without a name).
    subject: _Token | None = None
    #: « rien ne change »: the players placed nowhere else keep the order before.
    same: list[Word] | None = None
    #: « sauf Ann et Zoé qui échangent »: two players who swap their places.
    swap: list[_Token] = field(default_factory=list)
    #: The players named alone in the piece before (« Ann » in « Ann et Zoé en même temps »).
    bare: list[_Token] = field(default_factory=list)
    #: Players said as exceptions to « tout le monde garde son titre, sauf Ann… ».
    exceptions: list[_Token] = field(default_factory=list)
    #: « tout s'est inversé »: the order before, from the last.
    reverse: bool = False
    #: Titles said of no one name who held them before the manche (« le trou sort premier »).
    holders: bool = False


class _Reader:
    def __init__(
        self, people: Sequence[Person], rules: Rules, state: PresidentState, lang: str, me: str | None
    ) -> None:
        self.lang = "en" if lang == "en" else "fr"
        by_id = {p.id: p for p in people}
        # The form's order: the hierarchy before the manche.
        self.people = [by_id[p] for p in state.get("hierarchy") or [] if p in by_id] or list(people)
        self.n = len(self.people)
        self.rules = rules
        self.state = state
        self.places, self.title_of, self.every_title = title_places(self.n, rules)
        reserved = {a for t in self.every_title for a in t} | set(ORDINALS) | ORDER_WORDS | FINISH_VERBS
        reserved |= {a for t in EVENT_WORDS for a in t} | JOINS | {a for t in FROM_END for a in t}
        reserved |= _MORE_FILLERS | _WINS | _SWAP | _PRONOUNS
        reserved |= {a for t in (*_SAME, *_TIE, *_DUNNO, *_BOTH) for a in t}
        self.roster = Roster(self.people, me=me, lang=self.lang, reserved=reserved)
        self.me = me

    def text(self, t: Text) -> str:
        return t.get(self.lang)

    def _title_unit(self, said: Sequence[Word], i: int) -> tuple[str, int] | None:
        """A title, as a correction may replace it (« vice, non, trou »)."""
        title = match(said, i, self.every_title) or match(said, i, FROM_END, 3)
        if title is None and i < len(said) and said[i].key in ORDINALS:
            return ("title", 1)
        return ("title", title[1]) if title is not None else None

    # -- one piece at a time

    def token(self, said: Sequence[Word], i: int) -> _Token:
        forbidden = self._forbidden(said, i)
        if forbidden is not None:
            return forbidden
        for phrases, kind in (
            (_TIE, "tie"),
            (_SAME, "same"),
            (_DUNNO, "dunno"),
            (_MIDDLE, "middle"),
            (_BOTH, "both"),
            (_REVERSED, "same"),
        ):
            found = match(said, i, phrases, 6)
            if found is not None:
                return _Token(kind, said[i : i + found[1]], event="reverse" if phrases is _REVERSED else "")
        event = match(said, i, EVENT_WORDS)
        if event is not None:
            return _Token("event", said[i : i + event[1]], event=EVENT_WORDS[event[0]])
        title = match(said, i, self.every_title)
        if title is not None:
            atoms, length = title
            pieces = said[i : i + length]
            if atoms in self.places:
                return _Token("place", pieces, place=self.places[atoms], said=span_text(pieces), title=True)
            name = quoted(" ".join(w.text for w in pieces), self.lang)
            question = ask(f"Pas de titre {name} à {self.n} joueurs.", f"No title {name} with {self.n} players.")
            return _Token("unknown_title", pieces, question=question)
        end = match(said, i, FROM_END, 3)
        if end is not None:
            return _Token("place", said[i : i + end[1]], place=self.n - FROM_END[end[0]])
        ordinal = ORDINALS.get(said[i].key)
        if ordinal is not None:
            return _Token("place", said[i : i + 1], place=ordinal - 1)
        if said[i].key in _WINS:
            return _Token("place", said[i : i + 1], place=0)
        named = self.roster.at(said, i)
        if named is not None and not named.group:
            pieces = said[i : i + named.length]
            return _Token("player", pieces, person=named.person, named=named)
        number = read_number(said, i, self.lang)
        if number is not None and said[i].key.isdigit():
            return _Token("number", said[i : i + number[1]], value=number[0])
        if said[i].key in _PRONOUNS:
            return _Token("pronoun", said[i : i + 1])
        if said[i].key in _SWAP:
            return _Token("swap", said[i : i + 1])
        if said[i].key in ORDER_WORDS:
            return _Token("order", said[i : i + 1])
        if said[i].key in FILLERS or said[i].key in JOINS or said[i].key in _MORE_FILLERS:
            return _Token("filler", said[i : i + 1])
        return _Token("unknown", said[i : i + 1])

    def _forbidden(self, said: Sequence[Word], i: int) -> _Token | None:
        """« (a fini) sur un 2 », « terminé avec un as », « went out on a joker »."""
        j = i
        if said[j].key in FINISH_VERBS:
            j += 1
            if j < len(said) and said[j].key in ("out", "en"):
                j += 1
        if j >= len(said) or said[j].key not in ON:
            return None
        j += 1
        article = 1 if j < len(said) and said[j].key in ("un", "une", "le", "la", "les", "des", "a", "an") else 0
        if j + article + 1 < len(said) and said[j + article].key in _SETS and said[j + article + 1].key in ("de", "of"):
            article += 2  # « sur une paire de 2 »: the cards are 2s
        plain = match(said, j + article, FORBIDDEN_SAID, 2)
        if plain is not None:
            return _Token("forbidden", said[i : j + article + plain[1]], event="any")
        cards = read_cards(said, j + article, self.lang)
        if cards is None:
            return None
        pieces = said[i : j + article + cards.length]
        offered = self.rules.forbidden_finishes()
        ranks = [c.rank for c in cards.cards if not c.is_joker] + list(cards.ranks)
        jokers = any(c.is_joker for c in cards.cards)
        fits = any(
            (f in FORBIDDEN_RANK and FORBIDDEN_RANK[f] in ranks) or (f in FORBIDDEN_JOKER and jokers) for f in offered
        )
        card = span_text(said[j + article : j + article + cards.length])
        return _Token("forbidden", pieces, event="any" if fits else "", said=card)

    # -- the line

    def read(self, line: str) -> Reading:
        reader = LineReader(line, self.roster, unit=self._title_unit)
        if self.state.get("first") and self.state.get("draw"):
            return self._draw(reader)
        manche = _Manche()
        cursor = 0
        reader.use(w for w in reader.said if w.key in JOINS)  # what cuts the line into pieces
        clauses = [(self._tokens(clause), joined) for clause, joined in _clauses(reader.said, self._label)]
        for k, (tokens, joined) in enumerate(clauses):
            if any(t.kind == "order" for t in tokens) and self._whole_order_from(clauses, k):
                cursor = 0  # « … ; ordre de sortie : Lucie, Gab, … »: the whole order, from the first
            alone = all(t.kind in ("player", "filler") for t in tokens)
            bare = [t for t in tokens if t.kind == "player"] if alone else []
            following = clauses[k + 1] if k + 1 < len(clauses) else None
            if bare and following is not None and following[1] and _said_together(following[0]):
                # « Ann et Zoé en même temps », « Paul et Inès pareil »: said of the next piece too.
                reader.use(w for t in tokens if t.kind == "filler" for w in t.words)
                manche.bare = [*manche.bare, *bare]
                continue
            cursor = self._clause(reader, tokens, manche, cursor, joined)
        return self._reading(reader, manche)

    def _label(self, words: Sequence[Word]) -> bool:
        """Whether ``words`` are a title and nothing else (« président », « vice-trou »)."""
        title = match(words, 0, self.every_title)
        return title is not None and title[1] == len(words)

    def _tokens(self, clause: Sequence[Word]) -> list[_Token]:
        tokens: list[_Token] = []
        i = 0
        while i < len(clause):
            tok = self.token(clause, i)
            tokens.append(tok)
            i += len(tok.words)
        return tokens

    def _whole_order_from(self, clauses: list[tuple[list[_Token], bool]], k: int) -> bool:
        """Whether the pieces from ``k`` on name every player, one each: a whole
        finishing order, said after something else (« Inès finit sur un 2 ; ordre : … »)."""
        named = [t.person.id for tokens, _j in clauses[k:] for t in tokens if t.kind == "player" and t.person]
        return len(named) == self.n and len(set(named)) == self.n

    def _player(self, reader: LineReader, tok: _Token) -> Person | None:
        """The player of a token (the question asked when unclear)."""
        if tok.named is not None:
            return reader.person(tok.named, tok.words)
        return tok.person

    def _clause(
        self, reader: LineReader, tokens: list[_Token], manche: _Manche, cursor: int, joined: bool = False
    ) -> int:
        reader.use(w for t in tokens if t.kind in ("filler", "order") for w in t.words)
        if joined and manche.bare and _said_together(tokens):
            # « Ann et Zoé en même temps », « Ben et Anne je sais plus »: the players named
            # alone before « et » are of this piece (they were not placed on their own).
            tokens = [*manche.bare, *tokens]
        manche.bare = []
        # « elle » is the player spoken of last: in this piece, else before it.
        for k, t in enumerate(tokens):
            if t.kind != "pronoun":
                continue
            before = next((b for b in reversed(tokens[:k]) if b.kind == "player"), manche.subject)
            if before is not None:
                tokens[k] = _Token("player", t.words, person=before.person, named=None)
                reader.use(t.words)
        if any(t.kind == "middle" for t in tokens):
            cursor = self._middle(manche)
            reader.use(w for t in tokens if t.kind == "middle" for w in t.words)
        kept = [t for t in tokens if t.kind not in ("unknown", "filler", "order", "pronoun")]
        unknown = [t for t in tokens if t.kind == "unknown"]
        if not kept and unknown and all(w.text[:1].isupper() for t in unknown for w in t.words[:1]):
            # A name the table does not have, in a list (« Ann, Marc, Xavier, Zoé »): its place
            # is kept for it (asked), never closed up by the names after it.
            manche.placed.append((cursor, None, []))
            return cursor + 1
        for t in kept:
            if t.kind == "unknown_title" and t.question is not None:
                reader.ask(t.question, t.words)
        if any(t.kind == "unknown_title" for t in kept):
            # A title this game does not have: its player is placed nowhere (asked).
            reader.use(w for t in kept for w in t.words)
            return cursor
        players = [t for t in kept if t.kind == "player"]
        if players:
            manche.subject = players[-1]
        if any(t.kind == "same" for t in kept):
            same = [w for t in kept if t.kind == "same" for w in t.words]
            reader.use(same)
            if any(w.key in _EXCEPT for t in tokens for w in t.words):
                # « tout le monde garde son titre sauf Ann »: Ann is no one placed here.
                manche.same = [*(manche.same or []), *same]
                manche.exceptions = players
                reader.use(w for t in players for w in t.words)
                return cursor
            if players:
                # « Paul et Inès pareil »: they keep their places.
                seats = [p.id for p in self.people]
                for t in players:
                    person = self._player(reader, t)
                    if person is not None:
                        cursor = self._place(reader, t, seats.index(person.id), manche, same)
                return cursor
            manche.same = [*(manche.same or []), *same]
            manche.reverse = manche.reverse or any(t.kind == "same" and t.event == "reverse" for t in kept)
        if any(t.kind == "swap" for t in kept):
            manche.swap = [*manche.exceptions, *(t for t in players if t not in manche.exceptions)]
            reader.use(w for t in [*kept, *manche.swap] for w in t.words)
            return cursor
        if any(t.kind == "both" for t in kept):
            reader.use(w for t in kept if t.kind == "both" for w in t.words)
            kept = [t for t in kept if t.kind != "both"]
        if any(t.kind == "dunno" for t in kept):
            reader.use(w for t in kept if t.kind == "dunno" for w in t.words)
            for t in players:
                self._player(reader, t)  # said, not placed: their places are asked
            return cursor
        if any(t.kind == "tie" for t in kept):
            names = [p.name for t in players if (p := self._player(reader, t)) is not None]
            reader.ask(
                ask(
                    f"{alternatives(names, 'fr').replace(' ou ', ' et ')} en même temps : dans quel ordre ?",
                    f"{alternatives(names, 'en').replace(' or ', ' and ')} at the same time: in which order?",
                ),
                [w for t in kept for w in t.words],
            )
            for k in range(len(players)):
                manche.placed.append((cursor + k, None, []))
            return cursor + len(players)
        if any(t.kind == "event" for t in kept):
            event = next(t.event for t in kept if t.kind == "event")
            titles = [t for t in kept if t.kind == "place" and t.title]
            if not players and titles and not self.state.get("first"):
                # « jeu blanc pour le trou du cul »: who held that title before the manche.
                holder = self._holder(reader, titles[0])
                kept = [*(t for t in kept if t is not titles[0]), _Token("player", titles[0].words, person=holder)]
                players = [kept[-1]]
            elif not players and event in ("jeu_blanc", "coup_detat") and manche.subject is not None:
                # « Toine n'avait que des petites cartes… : jeu blanc »: the player just spoken of.
                kept = [*kept, _Token("player", (), person=manche.subject.person, named=manche.subject.named)]
                players = [kept[-1]]
            manche.events.append((event, kept))
            # « guillotine de Djamel, Benoît vice, Chloé dernière »: the next pieces name its players.
            manche.guillotine = kept if event == "guillotine" else None
            places = [t for t in kept if t.kind == "place"]
            if places and len(players) == 1:
                # « Benoît fait un putsch et sort premier » said in one piece.
                cursor = self._place(reader, players[0], places[0].place, manche)
            return cursor
        if manche.guillotine is not None:
            manche.guillotine.extend(kept)
            return cursor
        finishing = [t for t in kept if t.kind == "forbidden"]
        if finishing:
            if not players and manche.subject is not None:
                players = [manche.subject]
            self._forbidden_finish(reader, finishing, players, manche)
            kept = [t for t in kept if t.kind != "forbidden"]
            # « Zoé, Ann, Élodie, et Benoît a fini sur un 2 »: in a list, the player's place
            # is the next one; said alone, it says no place.
            in_list = cursor > 0 and len(kept) == 1 and kept[0].kind == "player" and not _listed(kept[0], manche)
            if not any(t.kind in ("place", "number") for t in kept) and not in_list:
                return cursor
        places = [t for t in kept if t.kind == "place"]
        if (
            not players
            and places
            and places[0].title
            and not self.state.get("first")
            and (len(places) >= 2 or manche.holders)
        ):
            # « le trou du cul sort premier », « le trouduc est président », then « puis le
            # prez, le vice… »: a title said of no one names who held it before the manche.
            holder = self._holder(reader, places[0])
            manche.holders = True
            stand_in = _Token("player", places[0].words, person=holder)
            kept = [stand_in, *(t for t in kept if t is not places[0])]
            players = [stand_in]
        explained = [t for k, t in enumerate(tokens) if t.kind == "place" and k and tokens[k - 1].words[-1].key in _SO]
        if tokens and tokens[0].words and tokens[0].words[0].key in _SO:
            explained += [t for t in tokens if t.kind == "place" and t not in explained]  # « so he's president »
        if explained:
            # « …sur un 2, donc trou du cul », « so he's president »: what the line said
            # before it means — no place of its own.
            reader.use(w for t in explained for w in t.words)
            kept = [t for t in kept if t not in explained]
            places = [t for t in places if t not in explained]
            if not kept or (tokens[0].words and tokens[0].words[0].key in _SO):
                return cursor
        subject = manche.subject
        if (
            not players
            and any(t.kind == "place" for t in kept)
            and subject is not None
            and not _listed(subject, manche)
        ):
            # « Benoît fait un putsch et sort premier »: the place is the one just named.
            kept = [subject, *kept]
        numbers_first = bool(kept) and kept[0].kind == "number"
        i = 0
        while i < len(kept):
            tok = kept[i]
            nxt = kept[i + 1] if i + 1 < len(kept) else None
            if tok.kind == "player" and nxt is not None and nxt.kind == "place":
                cursor = self._place(reader, tok, nxt.place, manche, nxt.words)
                i += 2
            elif tok.kind == "place" and nxt is not None and nxt.kind == "player":
                cursor = self._place(reader, nxt, tok.place, manche, tok.words)
                i += 2
            elif tok.kind == "number" and nxt is not None and nxt.kind == "player" and numbers_first:
                cursor = self._place(reader, nxt, (tok.value or 0) - 1, manche, tok.words)
                i += 2
            elif tok.kind == "player" and nxt is not None and nxt.kind == "number" and not numbers_first:
                cursor = self._place(reader, tok, (nxt.value or 0) - 1, manche, nxt.words)
                i += 2
            elif tok.kind == "player" and unknown:
                # « Toine avait que des petites cartes… »: words not understood said of them —
                # their place is not taken from the list (asked, never closed up).
                person = self._player(reader, tok)
                if person is not None:
                    manche.subject = tok
                manche.placed.append((self._free(cursor, manche, tok), None, []))
                cursor = self._free(cursor, manche, tok) + 1
                i += 1
            elif tok.kind == "player":
                cursor = self._place(reader, tok, self._free(cursor, manche, tok), manche)
                i += 1
            elif tok.kind == "place":
                name = self._place_name(tok.place)
                reader.ask(ask(f"{name} : qui ?", f"{name}: who?"), tok.words)
                manche.placed.append((tok.place if tok.place is not None else -1, None, []))
                i += 1
            else:
                i += 1
        return cursor

    def _holder(self, reader: LineReader, title: _Token) -> Person:
        """Who held ``title`` (a place said by its title) before the manche, said so."""
        held = title.place or 0
        holder = self.people[held]
        name = self.text(self._title_text(held))
        reader.note(
            ask(
                f"{quoted(title.said)} : {holder.name} ({name} avant la manche).",
                f"{quoted(title.said, 'en')}: {holder.name} ({name} before the manche).",
            )
        )
        return holder

    def _free(self, cursor: int, manche: _Manche, tok: _Token) -> int:
        """Where a player named in a list goes: the next place, unless the line gave it
        to someone else already (« Noémie reste présidente, Mathis trou du cul, et au milieu
        Lucie, Gab puis Inès »): then the first place the line left."""
        mine = tok.person.id if tok.person is not None else None
        others = {place for place, pid, _w in manche.placed if pid is None or pid != mine}
        if cursor >= self.n or cursor not in others:
            return cursor  # (the place the line gave this player already; or none left: asked)
        taken = {place for place, _pid, _w in manche.placed}
        return next((p for p in range(cursor, self.n) if p not in taken), cursor)

    def _middle(self, manche: _Manche) -> int:
        """« au milieu », « entre les deux »: the first place the line left."""
        taken = {place for place, _pid, _w in manche.placed}
        return next((p for p in range(self.n) if p not in taken), self.n)

    def _place_name(self, place: int | None) -> str:
        if place is not None and place in self.title_of:
            return self.text(self.title_of[place])
        return self.text(Text(f"Place {1 + (place or 0)}", f"Place {1 + (place or 0)}"))

    def _place(
        self, reader: LineReader, tok: _Token, place: int | None, manche: _Manche, how: Sequence[Word] = ()
    ) -> int:
        place = 0 if place is None else place
        person = self._player(reader, tok)
        reader.use(how)
        if person is None:
            manche.placed.append((place, None, []))
        elif not 0 <= place < self.n:
            manche.beyond = True
            reader.ask(
                ask(
                    f"{person.name} : {self.n} joueurs seulement, pas de place {place + 1}.",
                    f"{person.name}: only {self.n} players, no place {place + 1}.",
                ),
                [*tok.words, *how],
            )
        else:
            manche.placed.append((place, person.id, [*tok.words, *how]))
        manche.subject = tok
        return place + 1

    def _forbidden_finish(
        self, reader: LineReader, finishing: list[_Token], players: list[_Token], manche: _Manche
    ) -> None:
        offered = self.rules.forbidden_finishes()
        reader.use(w for t in [*finishing, *players] for w in t.words)  # filled, or asked about
        if not offered:
            reader.ask(
                ask(
                    "Dans cette partie, aucune carte n’est interdite pour finir.",
                    "In this game no card is forbidden to go out on.",
                )
            )
            return
        for tok in finishing:
            if tok.event != "any":
                said = quoted(tok.said, self.lang)
                reader.ask(
                    ask(
                        f"Finir sur {said} n’est pas interdit dans cette partie.",
                        f"Going out on {said} is not forbidden in this game.",
                    )
                )
                return
        if not players:
            reader.ask(ask("Qui a fini sur une carte interdite ?", "Who went out on a forbidden card?"))
        for tok in players:
            person = self._player(reader, tok)
            if person is not None:
                manche.forbidden[person.id] = [*tok.words, *(w for t in finishing for w in t.words)]

    # -- what the line gives

    def _reading(self, reader: LineReader, manche: _Manche) -> Reading:
        kinds = list(dict.fromkeys(e for e, _tokens in manche.events))
        if len(kinds) == 1 and Event(kinds[0]).ends_unplayed and self._offered()[kinds[0]]:
            return self._unplayed(reader, manche)
        by_place: dict[int, list[tuple[str, list[Word]]]] = {}
        asked: set[int] = set()
        for place, pid, words in manche.placed:
            if pid is None:
                asked.add(place)
            else:
                by_place.setdefault(place, []).append((pid, words))
        names = {p.id: p.name for p in self.people}
        order = {p.id: i for i, p in enumerate(self.people)}
        by_player: dict[str, set[int]] = {}
        for place, entries in by_place.items():
            for pid, _words in entries:
                by_player.setdefault(pid, set()).add(place)
        doubtful: set[str] = set()
        for place in sorted(by_place):
            at_place = sorted({pid for pid, _w in by_place[place]}, key=order.__getitem__)
            if len(at_place) > 1:
                both = [names[p] for p in at_place]
                title = self._place_name(place)
                reader.ask(ask(f"{title} : {alternatives(both, 'fr')} ?", f"{title}: {alternatives(both, 'en')}?"))
                asked.add(place)
                doubtful.update(at_place)
        for pid in sorted(by_player, key=order.__getitem__):
            places = sorted(by_player[pid])
            if len(places) > 1:
                titles = [self._place_name(p) for p in places]
                reader.ask(
                    ask(
                        f"{names[pid]} : {alternatives(titles, 'fr')} ?",
                        f"{names[pid]}: {alternatives(titles, 'en')}?",
                    )
                )
                asked.update(places)
                doubtful.add(pid)
        sure = {
            p: entries[0] for p, entries in by_place.items() if len({e[0] for e in entries}) == 1 and p not in asked
        }
        sure = {p: (pid, words) for p, (pid, words) in sure.items() if pid not in doubtful}
        self._same(reader, manche, sure, asked)
        if sure and not asked:
            empty = [p for p in range(self.n) if p not in sure]
            left = [p.id for p in self.people if p.id not in {pid for pid, _w in sure.values()}]
            if len(empty) == 1 and len(left) == 1:
                # Only one place and one player left: no one else can be there — said so.
                backing = [w for _pid, ws in sure.values() for w in ws]
                sure[empty[0]] = (left[0], backing)
                reader.note(
                    ask(
                        f"{names[left[0]]} : rien dit, donc {self.text(self._title_text(empty[0]))}.",
                        f"{names[left[0]]}: nothing said, so {self.text(self._title_text(empty[0]))}.",
                    )
                )
        gap = next((p for p in range(self.n) if p not in sure), self.n)
        placed_ids = {pid for pid, _w in sure.values()}
        if gap < self.n and (sure or asked or manche.placed) and gap not in asked:
            undecided = [p.name for p in self.people if p.id not in placed_ids and p.id not in doubtful]
            gap_name = self._place_name(gap)
            if len(undecided) > 1 or not undecided:
                who = alternatives(undecided, "fr") if undecided else "qui"
                reader.ask(
                    ask(
                        f"{gap_name} : {who} ?",
                        f"{gap_name}: {alternatives(undecided, 'en') if undecided else 'who'}?",
                    )
                )
        filled_upto = 0 if manche.beyond else gap
        for place in range(filled_upto):
            pid, words = sure[place]
            reader.fill(f"finish-{place}", pid, words)
        for place, (pid, words) in sorted(sure.items()):
            if place >= filled_upto:
                reader.use(words)
                title = self._place_name(place)
                reader.note(
                    ask(
                        f"{names[pid]} : {title}, à remplir une fois les places d’avant connues.",
                        f"{names[pid]}: {title}, to fill in once the places before it are known.",
                    )
                )
        if (manche.events or manche.forbidden) and not manche.placed and not sure:
            reader.note(ask("Ordre de sortie : rien dit.", "Finishing order: nothing said."))
        self._events(reader, manche)
        for pid, words in manche.forbidden.items():
            reader.fill(f"forbidden_{pid}", "y", words)
        return reader.reading()

    def _unplayed(self, reader: LineReader, manche: _Manche) -> Reading:
        """« Coup d’État de Samuel, il passe président »: an event that ends the manche by
        itself — no finishing order counts, so none is filled or asked; the titles said
        are those the engine gives after it, or asked."""
        self._events(reader, manche)
        said = [(place, pid, words) for place, pid, words in manche.placed if pid is not None]
        reader.use(w for _place, _pid, words in said for w in words)
        fields = reader.fields
        event = fields.get("event")
        if event is None:
            return reader.reading()  # asked
        guillotine = None
        if event == "guillotine":
            guillotine = Guillotine(fields["guillotine_player"], fields["guillotine_vice"], fields["guillotine_last"])
        events = Events(
            jeu_blanc=fields.get("jeu_blanc_player"),
            coup_detat=fields.get("coup_detat_player"),
            guillotine=guillotine,
            revolution=event == "revolution",
        )
        try:
            after = titles_after([p.id for p in self.people], events=events)
        except RulesError:
            return reader.reading()  # the form says why
        names = {p.id: p.name for p in self.people}
        short = EVENT_SHORT[event]
        reader.note(
            ask(
                f"Ordre de sortie : sans objet, l’événement {quoted(short.fr)} arrête la manche.",
                f"Finishing order: none, the {short.en} ends the manche.",
            )
        )
        for place, pid, _words in said:
            if place >= len(after) or after[place] == pid:
                continue  # (a place beyond the table's is asked where it is read)
            title = self._place_name(place)
            holder = names[after[place]]
            reader.ask(
                ask(
                    f"{names[pid]} : {title} ? Après l’événement {quoted(short.fr)}, {title} revient à {holder}.",
                    f"{names[pid]}: {title}? After the {short.en}, {title} goes to {holder}.",
                )
            )
        return reader.reading()

    def _title_text(self, place: int) -> Text:
        return self.title_of.get(place) or Text(f"place {place + 1}", f"place {place + 1}")

    def _same(
        self, reader: LineReader, manche: _Manche, sure: dict[int, tuple[str, list[Word]]], asked: set[int]
    ) -> None:
        """« rien ne change », « les autres gardent leur ordre », « sauf Ann et Zoé qui
        échangent »: the players placed nowhere else, in the order before the manche
        (two who swap, swapped), in the places left; said in the read-back."""
        if manche.same is None or self.state.get("first"):
            if manche.same is not None:
                reader.ask(
                    ask(
                        "À la première manche, il n’y a pas d’ordre d’avant.",
                        "In the first manche there is no order from before.",
                    )
                )
            return
        before = [p.id for p in self.people][:: -1 if manche.reverse else 1]
        swap = [t for t in manche.swap if t.person is not None]
        if len(swap) == 2:
            a, b = before.index(swap[0].person.id), before.index(swap[1].person.id)  # type: ignore[union-attr]
            before[a], before[b] = before[b], before[a]
        placed = {pid for pid, _w in sure.values()}
        free = [p for p in range(self.n) if p not in sure and p not in asked]
        rest = [pid for pid in before if pid not in placed]
        if len(free) != len(rest):
            return
        words = [*manche.same, *(w for t in swap for w in t.words)]
        for place, pid in zip(free, rest, strict=True):
            sure[place] = (pid, words)
        names = {p.id: p.name for p in self.people}
        listed = ", ".join(names[p] for p in rest)
        if manche.reverse:
            reader.note(
                ask(f"Dans l’ordre d’avant, inversé : {listed}.", f"In the order from before, reversed: {listed}.")
            )
        else:
            reader.note(ask(f"Dans l’ordre d’avant : {listed}.", f"In the order from before: {listed}."))

    def _offered(self) -> dict[str, bool]:
        first = bool(self.state.get("first"))
        return {value: bool(getattr(self.rules, option)) and not first for value, option in _EVENTS}

    def _events(self, reader: LineReader, manche: _Manche) -> None:
        if not manche.events:
            return
        tokens = [t for _e, ts in manche.events for t in ts]
        reader.use(w for t in tokens for w in t.words)  # what is filled, or asked about
        kinds = list(dict.fromkeys(e for e, _tokens in manche.events))
        if len(kinds) > 1:
            named = [self.text(EVENT_SHORT[k]) for k in kinds]
            reader.ask(
                ask(
                    f"Un seul événement par manche : {alternatives(named, 'fr')} ?",
                    f"One event a manche: {alternatives(named, 'en')}?",
                )
            )
            return
        event = kinds[0]
        name = EVENT_NAMES[event]
        if not getattr(self.rules, dict(_EVENTS)[event]):
            reader.ask(
                ask(
                    f"Les règles de la partie ne prévoient pas {name.fr}.",
                    f"The rules of this game have no {name.en.removeprefix('a ')}.",
                )
            )
            return
        if self.state.get("first"):
            reader.ask(
                ask(
                    f"À la première manche, personne n’a encore de titre : pas {name.fr}.",
                    f"In the first manche nobody holds a title yet: no {name.en.removeprefix('a ')}.",
                )
            )
            return
        event_words = [w for t in tokens if t.kind == "event" for w in t.words]
        players = [t for t in tokens if t.kind == "player"]
        people = [self._player(reader, t) for t in players]
        if any(p is None for p in people):
            return  # asked
        ids = list(dict.fromkeys(p.id for p in people if p is not None))
        names = {p.id: p.name for p in self.people}
        short = self.text(EVENT_SHORT[event])
        backing = [*event_words, *(w for t in players for w in t.words)]
        if event == "revolution":
            reader.fill("event", "revolution", backing)
        elif event == "putsch":
            last = self.people[-1]
            if ids and ids != [last.id]:
                who = alternatives([names[p] for p in ids], self.lang)
                reader.ask(
                    ask(
                        f"Putsch de {who} ? Le formulaire ne connaît que le putsch de {last.name}.",
                        f"A putsch by {who}? The form only has the putsch by {last.name}.",
                    )
                )
                return
            reader.fill("event", "putsch", backing)
        elif event in ("jeu_blanc", "coup_detat"):
            if len(ids) != 1:
                who = alternatives([names[p] for p in ids], self.lang)
                reader.ask(
                    ask(f"{short} : {who} ?", f"{short}: {who}?") if ids else ask(f"{short} : qui ?", f"{short}: who?")
                )
                return
            reader.fill("event", event, backing)
            reader.fill(f"{event}_player", ids[0], backing)
        elif event == "guillotine":
            self._guillotine(reader, tokens)

    def _guillotine(self, reader: LineReader, tokens: list[_Token]) -> None:
        """« guillotine de Ann, Benoît vice, Chloé trou du cul » or « guillotine : Ann,
        Benoît, Chloé » (who laid it, who is named second, who last)."""
        roles: dict[str, tuple[str, list[Word]]] = {}
        plain: list[tuple[str, list[Word]]] = []
        rest = [t for t in tokens if t.kind in ("player", "place")]
        i = 0
        while i < len(rest):
            tok = rest[i]
            nxt = rest[i + 1] if i + 1 < len(rest) else None
            if tok.kind == "player" and tok.person is not None:
                if nxt is not None and nxt.kind == "place":
                    roles.setdefault(_role(nxt.place, self.n), (tok.person.id, [*tok.words, *nxt.words]))
                    i += 2
                    continue
                plain.append((tok.person.id, list(tok.words)))
            elif tok.kind == "place" and nxt is not None and nxt.kind == "player" and nxt.person is not None:
                roles.setdefault(_role(tok.place, self.n), (nxt.person.id, [*tok.words, *nxt.words]))
                i += 2
                continue
            i += 1
        for part in ("player", "vice", "last"):
            if part not in roles and plain:
                roles[part] = plain.pop(0)
        event_words = [w for t in tokens if t.kind == "event" for w in t.words]
        if set(roles) != {"player", "vice", "last"} or "" in roles:
            reader.ask(
                ask(
                    "Guillotine : qui l’a posée, qui vient en second, et qui en dernier ?",
                    "Guillotine: who laid it, who comes second, and who last?",
                ),
                [w for t in tokens for w in t.words],
            )
            return
        reader.fill("event", "guillotine", event_words)
        for part, (pid, words) in roles.items():
            reader.fill(f"guillotine_{part}", pid, words)

    # -- Piketty's card draw

    def _draw(self, reader: LineReader) -> Reading:
        """« Ann roi de cœur, Benoît 7 de pique… » or « R pique pour Anne, D cœur pour
        Ben… »: each player with the card drawn, before or after the name (as the line
        begins); a card with no suit is asked."""
        said = reader.said
        notation = typed_notation(self.lang)
        drawn: dict[str, list[tuple[str, list[Word]]]] = {}
        first_named = next((k for k in range(len(said)) if self.roster.at(said, k) is not None), len(said))
        first_card = next((k for k in range(len(said)) if read_cards(said, k, self.lang) is not None), len(said))
        cards_first = first_card < first_named
        who: Person | None = None
        who_words: list[Word] = []
        waiting: tuple[list[str], list[Word], bool] | None = None  # cards said before their player
        named_since: list[tuple[Person, list[Word]]] = []  # the players named since the last card
        together = False  # « Paul et Romane ont tiré tous les deux le valet de carreau »
        i = 0
        while i < len(said):
            word = said[i]
            named = self.roster.at(said, i)
            if named is not None and (read_cards(said, i, self.lang) is None or named.length > 1):
                pieces = list(said[i : i + named.length])
                i += named.length
                person = reader.person(named, pieces)
                who, who_words = person, pieces
                if person is not None:
                    named_since.append((person, pieces))
                if cards_first and waiting is not None:
                    waited, words, complete = waiting
                    waiting = None
                    if person is not None and complete:
                        drawn.setdefault(person.id, []).append((" ".join(waited), [*words, *pieces]))
                    elif person is not None:
                        self._no_suit(reader, person, words)
                    who = None
                elif named.person is None and named.unclear is None:
                    who = None
                continue
            both = match(said, i, _BOTH)
            if both is not None and len(named_since) > 1:
                reader.use(said[i : i + both[1]])  # « tous les deux » (not the 2 of a card)
                together = True
                i += both[1]
                continue
            cards = read_cards(said, i, self.lang)
            if cards is not None and (who is not None or cards_first):
                pieces = list(said[i : i + cards.length])
                i += cards.length
                written = [notation.write(c) for c in cards.cards]
                if cards_first and who is None:
                    waiting = (written, pieces, not cards.ranks)
                    continue
                assert who is not None
                sharing = named_since if together and len(named_since) > 1 else [(who, who_words)]
                for person, words in sharing:
                    if cards.ranks:
                        self._no_suit(reader, person, pieces)
                    else:
                        drawn.setdefault(person.id, []).append((" ".join(written), [*words, *pieces]))
                named_since, together = [], False
                if cards_first:
                    who = None
                continue
            if word.key in _TOGETHER and len(named_since) > 1:
                together = True
            if word.key in FILLERS or word.key in JOINS or word.key in _DRAW_WORDS:
                reader.use([word])
            else:
                who = None  # a word no one's: what follows it is no longer that player's
            i += 1
        for pid, said_cards in drawn.items():
            reader.fill(f"draw_{pid}", " ".join(c for c, _w in said_cards), [w for _c, ws in said_cards for w in ws])
        names = {p.id: p.name for p in self.people}
        if drawn:
            for p in self.people:
                if p.id not in drawn and not any(q.fr.startswith(p.name) for q in reader.questions):
                    reader.note(ask(f"{names[p.id]} : rien dit.", f"{names[p.id]}: nothing said."))
        return reader.reading()

    def _no_suit(self, reader: LineReader, person: Person, pieces: Sequence[Word]) -> None:
        card = quoted(span_text(pieces), self.lang)
        reader.ask(ask(f"{person.name} : {card} de quelle couleur ?", f"{person.name}: {card} of which suit?"), pieces)


#: Words of the card draw that say nothing more (« Ann tire le roi de cœur »).
_DRAW_WORDS = frozenset(
    {
        "tire",
        "tiree",
        "tires",
        "drew",
        "draws",
        "tirage",
        "draw",
        "pour",
        "for",
        "a",
        "pioche",
        "ont",
        "tous",
        "toutes",
        "deux",
    }
)
#: Said of the players just named, all of them (« Paul et Romane ont tiré tous les deux… »).
_TOGETHER = frozenset({"ont", "tous", "toutes", "deux", "both", "all"})


def _said_together(tokens: Sequence[_Token]) -> bool:
    """Whether a piece says something of the players named alone before it with « et »
    (« Ann et Zoé en même temps », « Paul et Inès pareil », « Gab et Lucie finissent
    sur un 2 », « Lucie et Noémie échangent »)."""
    if any(t.kind in ("tie", "dunno", "both", "swap", "same", "unknown") for t in tokens):
        return True  # (words not understood said of them too: « Mina et Thomas deuxièmes »)
    return any(t.kind == "forbidden" for t in tokens) and any(w.key in _PLURAL for t in tokens for w in t.words)


def _listed(tok: _Token, manche: _Manche) -> bool:
    """Whether the player of ``tok`` already has a place in what the line said."""
    return tok.person is not None and any(pid == tok.person.id for _p, pid, _w in manche.placed)


def _role(place: int | None, n: int) -> str:
    if place == 1:
        return "vice"
    if place == n - 1:
        return "last"
    if place == 0:
        return "player"
    return ""


def _clauses(said: Sequence[Word], label: Callable[[Sequence[Word]], bool]) -> list[tuple[list[Word], bool]]:
    """The line cut at its punctuation and at « puis », « et », « then »…: each piece,
    and whether « et » / « and » joins it to the one before (« Ann et Zoé … »). A colon
    after a ``label`` (a title: « président : Sacha ») names what follows: no cut."""
    out: list[tuple[list[Word], bool]] = [([], False)]
    for w in said:
        if w.key in JOINS:
            out.append(([], w.key in AND))
            continue
        if w.after_stop and out[-1][0] and not (w.stop == ":" and label(out[-1][0])):
            out.append(([], False))
        out[-1][0].append(w)
    return [c for c in out if c[0]]


def read_manche(
    line: str, people: Sequence[Person], rules: Rules, state: PresidentState, lang: str = "fr", me: str | None = None
) -> Reading:
    """The manche form's fields said in ``line`` (see the module's docstring): ``people``
    the game's players, ``rules`` its house rules (the engine's), ``state`` the state
    before the manche (its hierarchy, whether it is the first, a card draw)."""
    return _Reader(people, rules, state, lang, me).read(line)


#: The cards the example of a card draw says each player drew.
_DRAWN = {
    "fr": ("roi de cœur", "huit de pique", "as de trèfle"),
    "en": ("king of hearts", "eight of spades", "ace of clubs"),
}


def example(people: Sequence[Person], rules: Rules, state: PresidentState, lang: str = "fr") -> Hint:
    """The manche said with this game's players, by the engine's titles (the first
    three, then the last: « Chloé Président, Ann Vice-Président, … Benoît Trou du cul »),
    or Piketty's card draw: the hint under the line, which the grammar reads.

    >>> people = [Person("1", "Ann"), Person("2", "Bob"), Person("3", "Cid"), Person("4", "Dan")]
    >>> example(people, Rules(), {"hierarchy": ["1", "2", "3", "4"]}).example
    'Bob Président, Ann Vice-Président, Cid Vice-Trou du cul, Dan Trou du cul'
    """
    lang = "en" if lang == "en" else "fr"
    by_id = {p.id: p for p in people}
    ranked = [by_id[p] for p in state.get("hierarchy") or [] if p in by_id] or list(people)
    if state.get("first") and state.get("draw"):
        drawn = [f"{p.name} {card}" for p, card in zip(ranked, _DRAWN[lang], strict=False)]
        return Hint(", ".join(drawn) + (", …" if len(ranked) > len(drawn) else ""))
    _places, title_of, _every = title_places(len(ranked), rules)
    # The players of the manche before, the first two swapped: a manche with a change.
    order = ranked[:]
    if len(order) >= 2:
        order[0], order[1] = order[1], order[0]
    said = [f"{p.name} {title_of[i].get(lang)}" for i, p in enumerate(order)]
    if len(said) > 4:
        said = [*said[:3], f"… {said[-1]}"]
    return Hint(", ".join(said))
