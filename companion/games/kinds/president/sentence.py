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

from collections.abc import Sequence
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
from companion.rules.i18n import Text
from companion.rules.president import Rules
from companion.sentence import (
    Person,
    Reading,
    Roster,
    Word,
    alternatives,
    ask,
    quoted,
    read_cards,
    words,
)

# ----------------------------------------------------------------------------- tokens


@dataclass
class _Token:
    kind: str  # player, place, unknown_title, event, forbidden, order, unknown
    words: Sequence[Word]
    place: int | None = None
    person: Person | None = None
    question: Text | None = None
    event: str = ""
    said: str = ""


@dataclass
class _Manche:
    """What the line said so far."""

    placed: list[tuple[int, str | None, str]] = field(default_factory=list)  # (place, id or None: asked, said)
    forbidden: dict[str, str] = field(default_factory=dict)
    events: list[tuple[str, list[_Token]]] = field(default_factory=list)
    questions: list[Text] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)
    #: The guillotine's tokens, which the next pieces of the line go on naming.
    guillotine: list[_Token] | None = None
    #: A place said beyond the players: no finishing order is filled.
    beyond: bool = False


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
        self.roster = Roster(self.people, me=me, lang=self.lang, reserved=reserved)
        self.me = me

    def text(self, t: Text) -> str:
        return t.get(self.lang)

    # -- one piece at a time

    def token(self, said: Sequence[Word], i: int) -> _Token:
        forbidden = self._forbidden(said, i)
        if forbidden is not None:
            return forbidden
        event = match(said, i, EVENT_WORDS)
        if event is not None:
            return _Token("event", said[i : i + event[1]], event=EVENT_WORDS[event[0]])
        title = match(said, i, self.every_title)
        if title is not None:
            atoms, length = title
            pieces = said[i : i + length]
            if atoms in self.places:
                return _Token("place", pieces, place=self.places[atoms], said=span_text(pieces))
            name = quoted(" ".join(w.text for w in pieces), self.lang)
            question = ask(f"Pas de titre {name} à {self.n} joueurs.", f"No title {name} with {self.n} players.")
            return _Token("unknown_title", pieces, question=question)
        end = match(said, i, FROM_END, 3)
        if end is not None:
            return _Token("place", said[i : i + end[1]], place=self.n - FROM_END[end[0]])
        ordinal = ORDINALS.get(said[i].key)
        if ordinal is not None:
            return _Token("place", said[i : i + 1], place=ordinal - 1)
        named = self.roster.at(said, i)
        if named is not None:
            pieces = said[i : i + named.length]
            unclear = named.unclear
            return _Token("player", pieces, person=named.person, question=unclear.text if unclear else None)
        if said[i].key in ORDER_WORDS:
            return _Token("order", said[i : i + 1])
        if said[i].key in FILLERS or said[i].key in JOINS:
            return _Token("filler", said[i : i + 1])
        return _Token("unknown", said[i : i + 1])

    def _forbidden(self, said: Sequence[Word], i: int) -> _Token | None:
        """« fini sur un 2 », « terminé avec un as », « went out on a joker »."""
        if said[i].key not in FINISH_VERBS:
            return None
        j = i + 1
        if j < len(said) and said[j].key in ("out", "en"):
            j += 1
        if j >= len(said) or said[j].key not in ON:
            return None
        j += 1
        article = 1 if j < len(said) and said[j].key in ("un", "une", "a", "an") else 0
        plain = match(said, j + article, FORBIDDEN_SAID, 2)
        if plain is not None:
            return _Token("forbidden", said[i : j + article + plain[1]], event="any")
        cards = read_cards(said, j, self.lang)
        if cards is None:
            return None
        pieces = said[i : j + cards.length]
        offered = self.rules.forbidden_finishes()
        ranks = [c.rank for c in cards.cards if not c.is_joker] + list(cards.ranks)
        jokers = any(c.is_joker for c in cards.cards)
        fits = any(
            (f in FORBIDDEN_RANK and FORBIDDEN_RANK[f] in ranks) or (f in FORBIDDEN_JOKER and jokers) for f in offered
        )
        card = span_text(said[j : j + cards.length])
        return _Token("forbidden", pieces, event="any" if fits else "", said=card)

    # -- the line

    def read(self, line: str) -> Reading:
        said = words(line)
        if self.state.get("first") and self.state.get("draw"):
            return self._draw(line, said)
        manche = _Manche()
        cursor = 0
        for clause in _clauses(said):
            tokens: list[_Token] = []
            i = 0
            while i < len(clause):
                tok = self.token(clause, i)
                tokens.append(tok)
                i += len(tok.words)
            cursor = self._clause(line, tokens, manche, cursor)
        return self._reading(manche)

    def _unknown(self, line: str, tokens: Sequence[_Token], manche: _Manche) -> None:
        run: list[Word] = []
        for tok in [*tokens, None]:
            if tok is not None and tok.kind == "unknown":
                run.extend(tok.words)
            elif run:
                manche.not_understood.append(line[run[0].start : run[-1].end])
                run = []

    def _clause(self, line: str, tokens: list[_Token], manche: _Manche, cursor: int) -> int:
        self._unknown(line, tokens, manche)
        kept = [t for t in tokens if t.kind not in ("unknown", "filler", "order")]
        for t in kept:
            if t.kind == "unknown_title" and t.question is not None:
                manche.questions.append(t.question)
        if any(t.kind == "unknown_title" for t in kept):
            # A title this game does not have: its player is placed nowhere (asked).
            return cursor
        if any(t.kind == "event" for t in kept):
            event = next(t.event for t in kept if t.kind == "event")
            manche.events.append((event, kept))
            # « guillotine de Djamel, Benoît vice, Chloé dernière »: the next pieces name its players.
            manche.guillotine = kept if event == "guillotine" else None
            return cursor
        if manche.guillotine is not None:
            manche.guillotine.extend(kept)
            return cursor
        finishing = [t for t in kept if t.kind == "forbidden"]
        if finishing:
            self._forbidden_finish(finishing, kept, manche)
            kept = [t for t in kept if t.kind != "forbidden"]
            if not any(t.kind == "place" for t in kept):
                return cursor
        i = 0
        while i < len(kept):
            tok = kept[i]
            nxt = kept[i + 1] if i + 1 < len(kept) else None
            if tok.kind == "player" and nxt is not None and nxt.kind == "place":
                cursor = self._place(tok, nxt.place, manche)
                i += 2
            elif tok.kind == "place" and nxt is not None and nxt.kind == "player":
                cursor = self._place(nxt, tok.place, manche)
                i += 2
            elif tok.kind == "player":
                cursor = self._place(tok, cursor, manche)
                i += 1
            elif tok.kind == "place":
                name = self._place_name(tok.place)
                manche.questions.append(ask(f"{name} : qui ?", f"{name}: who?"))
                manche.placed.append((tok.place if tok.place is not None else -1, None, ""))
                i += 1
            else:
                i += 1
        return cursor

    def _place_name(self, place: int | None) -> str:
        if place is not None and place in self.title_of:
            return self.text(self.title_of[place])
        return self.text(Text(f"Place {1 + (place or 0)}", f"Place {1 + (place or 0)}"))

    def _place(self, tok: _Token, place: int | None, manche: _Manche) -> int:
        place = 0 if place is None else place
        if tok.question is not None:
            manche.questions.append(tok.question)
            manche.placed.append((place, None, ""))
        elif not 0 <= place < self.n:
            assert tok.person is not None
            manche.beyond = True
            manche.questions.append(
                ask(
                    f"{tok.person.name} : {self.n} joueurs seulement, pas de place {place + 1}.",
                    f"{tok.person.name}: only {self.n} players, no place {place + 1}.",
                )
            )
        else:
            assert tok.person is not None
            manche.placed.append((place, tok.person.id, tok.person.name))
        return place + 1

    def _forbidden_finish(self, finishing: list[_Token], kept: list[_Token], manche: _Manche) -> None:
        players = [t for t in kept if t.kind == "player"]
        offered = self.rules.forbidden_finishes()
        if not offered:
            manche.questions.append(
                ask(
                    "Dans cette partie, aucune carte n’est interdite pour finir.",
                    "In this game no card is forbidden to go out on.",
                )
            )
            return
        for tok in finishing:
            if tok.event != "any":
                said = quoted(tok.said, self.lang)
                manche.questions.append(
                    ask(
                        f"Finir sur {said} n’est pas interdit dans cette partie.",
                        f"Going out on {said} is not forbidden in this game.",
                    )
                )
                return
        if not players:
            manche.questions.append(ask("Qui a fini sur une carte interdite ?", "Who went out on a forbidden card?"))
        for tok in players:
            if tok.question is not None:
                manche.questions.append(tok.question)
            elif tok.person is not None:
                manche.forbidden[tok.person.id] = tok.person.name

    # -- what the line gives

    def _reading(self, manche: _Manche) -> Reading:
        reading = Reading(not_understood=list(manche.not_understood))
        questions = list(manche.questions)
        by_place: dict[int, set[str]] = {}
        asked: set[int] = set()
        for place, pid, _said in manche.placed:
            if pid is None:
                asked.add(place)
            else:
                by_place.setdefault(place, set()).add(pid)
        names = {p.id: p.name for p in self.people}
        order = {p.id: i for i, p in enumerate(self.people)}
        by_player: dict[str, set[int]] = {}
        for place, ids in by_place.items():
            for pid in ids:
                by_player.setdefault(pid, set()).add(place)
        for place in sorted(by_place):
            at_place = sorted(by_place[place], key=order.__getitem__)
            if len(at_place) > 1:
                who = [names[p] for p in at_place]
                title = self._place_name(place)
                questions.append(ask(f"{title} : {alternatives(who, 'fr')} ?", f"{title}: {alternatives(who, 'en')}?"))
                asked.add(place)
        for pid in sorted(by_player, key=order.__getitem__):
            places = sorted(by_player[pid])
            if len(places) > 1:
                titles = [self._place_name(p) for p in places]
                questions.append(
                    ask(
                        f"{names[pid]} : {alternatives(titles, 'fr')} ?",
                        f"{names[pid]}: {alternatives(titles, 'en')}?",
                    )
                )
                asked.update(places)
        sure = {p: next(iter(ids)) for p, ids in by_place.items() if len(ids) == 1 and p not in asked}
        if sure and not asked:
            empty = [p for p in range(self.n) if p not in sure]
            left = [p.id for p in self.people if p.id not in sure.values()]
            if len(empty) == 1 and len(left) == 1:
                # Only one place and one player left: no one else can be there.
                sure[empty[0]] = left[0]
        gap = next((p for p in range(self.n) if p not in sure), self.n)
        if not asked and any(p > gap for p in sure):
            name = self._place_name(gap)
            questions.append(ask(f"{name} : qui ?", f"{name}: who?"))
        for place in range(0 if manche.beyond else gap):
            reading.fields[f"finish-{place}"] = sure[place]
        self._events(manche, reading, questions)
        if manche.forbidden:
            for pid in manche.forbidden:
                reading.fields[f"forbidden_{pid}"] = "y"
        reading.questions = [self.text(q) for q in questions]
        return reading

    def _offered(self) -> dict[str, bool]:
        first = bool(self.state.get("first"))
        return {value: bool(getattr(self.rules, option)) and not first for value, option in _EVENTS}

    def _events(self, manche: _Manche, reading: Reading, questions: list[Text]) -> None:
        if not manche.events:
            return
        kinds = list(dict.fromkeys(e for e, _tokens in manche.events))
        if len(kinds) > 1:
            named = [self.text(EVENT_SHORT[k]) for k in kinds]
            questions.append(
                ask(
                    f"Un seul événement par manche : {alternatives(named, 'fr')} ?",
                    f"One event a manche: {alternatives(named, 'en')}?",
                )
            )
            return
        event = kinds[0]
        name = EVENT_NAMES[event]
        if not getattr(self.rules, dict(_EVENTS)[event]):
            questions.append(
                ask(
                    f"Les règles de la partie ne prévoient pas {name.fr}.",
                    f"The rules of this game have no {name.en.removeprefix('a ')}.",
                )
            )
            return
        if self.state.get("first"):
            questions.append(
                ask(
                    f"À la première manche, personne n’a encore de titre : pas {name.fr}.",
                    f"In the first manche nobody holds a title yet: no {name.en.removeprefix('a ')}.",
                )
            )
            return
        tokens = [t for _e, ts in manche.events for t in ts]
        players = [t for t in tokens if t.kind == "player"]
        for t in players:
            if t.question is not None:
                questions.append(t.question)
                return
        ids = list(dict.fromkeys(t.person.id for t in players if t.person is not None))
        names = {p.id: p.name for p in self.people}
        short = self.text(EVENT_SHORT[event])
        if event == "revolution":
            reading.fields["event"] = "revolution"
        elif event == "putsch":
            last = self.people[-1]
            if ids and ids != [last.id]:
                who = alternatives([names[p] for p in ids], self.lang)
                questions.append(
                    ask(
                        f"Putsch de {who} ? Le formulaire ne connaît que le putsch de {last.name}.",
                        f"A putsch by {who}? The form only has the putsch by {last.name}.",
                    )
                )
                return
            reading.fields["event"] = "putsch"
        elif event in ("jeu_blanc", "coup_detat"):
            if len(ids) != 1:
                who = alternatives([names[p] for p in ids], self.lang)
                questions.append(
                    ask(f"{short} : {who} ?", f"{short}: {who}?") if ids else ask(f"{short} : qui ?", f"{short}: who?")
                )
                return
            reading.fields["event"] = event
            reading.fields[f"{event}_player"] = ids[0]
        elif event == "guillotine":
            self._guillotine(tokens, reading, questions)

    def _guillotine(self, tokens: list[_Token], reading: Reading, questions: list[Text]) -> None:
        """« guillotine de Ann, Benoît vice, Chloé trou du cul » or « guillotine : Ann,
        Benoît, Chloé » (who laid it, who is named second, who last)."""
        roles: dict[str, str] = {}
        plain: list[str] = []
        rest = [t for t in tokens if t.kind in ("player", "place")]
        i = 0
        while i < len(rest):
            tok = rest[i]
            nxt = rest[i + 1] if i + 1 < len(rest) else None
            if tok.kind == "player" and tok.person is not None:
                if nxt is not None and nxt.kind == "place":
                    roles.setdefault(_role(nxt.place, self.n), tok.person.id)
                    i += 2
                    continue
                plain.append(tok.person.id)
            elif tok.kind == "place" and nxt is not None and nxt.kind == "player" and nxt.person is not None:
                roles.setdefault(_role(tok.place, self.n), nxt.person.id)
                i += 2
                continue
            i += 1
        for part in ("player", "vice", "last"):
            if part not in roles and plain:
                roles[part] = plain.pop(0)
        if set(roles) != {"player", "vice", "last"} or "" in roles:
            questions.append(
                ask(
                    "Guillotine : qui l’a posée, qui vient en second, et qui en dernier ?",
                    "Guillotine: who laid it, who comes second, and who last?",
                )
            )
            return
        reading.fields["event"] = "guillotine"
        for part, pid in roles.items():
            reading.fields[f"guillotine_{part}"] = pid

    # -- Piketty's card draw

    def _draw(self, line: str, said: Sequence[Word]) -> Reading:
        reading = Reading()
        questions: list[Text] = []
        notation = typed_notation(self.lang)
        drawn: dict[str, list[str]] = {}
        who: Person | None = None
        run: list[Word] = []
        i = 0

        def flush() -> None:
            if run:
                reading.not_understood.append(line[run[0].start : run[-1].end])
                run.clear()

        while i < len(said):
            word = said[i]
            named = self.roster.at(said, i)
            if named is not None and (read_cards(said, i, self.lang) is None or named.length > 1):
                flush()
                if named.unclear is not None:
                    questions.append(named.unclear.text)
                    who = None
                else:
                    who = named.person
                i += named.length
                continue
            cards = read_cards(said, i, self.lang) if who is not None else None
            if cards is not None:
                flush()
                assert who is not None
                if cards.ranks:
                    card = quoted(" ".join(w.text for w in said[i : i + cards.length]), self.lang)
                    questions.append(
                        ask(f"{who.name} : {card} de quelle couleur ?", f"{who.name}: {card} of which suit?")
                    )
                else:
                    drawn.setdefault(who.id, []).extend(notation.write(c) for c in cards.cards)
                i += cards.length
                continue
            if (
                word.key in FILLERS
                or word.key in JOINS
                or word.key in ("tire", "tiree", "drew", "draws", "tirage", "draw")
            ):
                i += 1
                continue
            run.append(word)
            i += 1
        flush()
        for pid, written in drawn.items():
            reading.fields[f"draw_{pid}"] = " ".join(written)
        reading.questions = [self.text(q) for q in questions]
        return reading


def _role(place: int | None, n: int) -> str:
    if place == 1:
        return "vice"
    if place == n - 1:
        return "last"
    if place == 0:
        return "player"
    return ""


def span_text(pieces: Sequence[Word]) -> str:
    return " ".join(w.text for w in pieces)


def _clauses(said: Sequence[Word]) -> list[list[Word]]:
    """The line cut at its punctuation and at « puis », « et », « then »…"""
    out: list[list[Word]] = [[]]
    for w in said:
        if w.key in JOINS:
            out.append([])
            continue
        if w.after_stop and out[-1]:
            out.append([])
        out[-1].append(w)
    return [c for c in out if c]


def read_manche(
    line: str, people: Sequence[Person], rules: Rules, state: PresidentState, lang: str = "fr", me: str | None = None
) -> Reading:
    """The manche form's fields said in ``line`` (see the module's docstring): ``people``
    the game's players, ``rules`` its house rules (the engine's), ``state`` the state
    before the manche (its hierarchy, whether it is the first, a card draw)."""
    return _Reader(people, rules, state, lang, me).read(line)
