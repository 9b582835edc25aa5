"""A deal of whist with a tarot deck said in one line (issue 28), read into the deal
form's fields (:func:`read_deal`): the bids, then the tricks, as the form's two steps
take them — « annonces : Ann 2, Benoît 1, Chloé 0, Djamel 1 », « Ann deux, Benoît un,
Chloé rien », « plis : Ann 2, Benoît zéro… », « bids: Ann 2… », « tricks: … ».

It decides no rule: a bid the dealer may not make (seed 002: « Le donneur lui ne peut
dire un nombre de plis qui ferait que la somme des annonces serait égale au nombre de
plis à faire ») is filled like any other, and the form refuses it with the engine's
reason. What could be two things is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.kinds.whist_tarot.state import WhistState
from companion.rules.i18n import Text
from companion.sentence import FUNCTION_WORDS, Person, Reading, Roster, Word, alternatives, ask, read_number, words

#: Words that say the bids follow (or that a player bids).
_BIDS = frozenset(
    [
        "annonce",
        "annonces",
        "annonced",
        "annoncé",
        "enchere",
        "encheres",
        "contrat",
        "contrats",
        "pari",
        "paris",
        "parie",
        "demande",
        "demandes",
        "dit",
        "bid",
        "bids",
        "bidding",
        "bet",
        "bets",
        "calls",
        "call",
        "said",
        "says",
    ]
)
#: Words that say the tricks follow (or that a player took them).
_TRICKS = frozenset(
    [
        "pli",
        "plis",
        "levee",
        "levees",
        "fait",
        "faits",
        "fais",
        "realise",
        "realises",
        "gagne",
        "gagnes",
        "remporte",
        "remportes",
        "trick",
        "tricks",
        "made",
        "makes",
        "took",
        "takes",
        "won",
        "wins",
        "got",
    ]
)
#: Words that carry nothing here (« Ann a fait », « pour Ann », « Ann : »).
_FILLERS = (
    FUNCTION_WORDS["fr"]
    | FUNCTION_WORDS["en"]
    | frozenset(["pour", "ensuite", "puis", "then", "et", "and", "tour", "donne", "hand", "deal"])
)


def _said(line: str, pieces: Sequence[Word]) -> str:
    return line[pieces[0].start : pieces[-1].end]


def read_deal(
    line: str, people: Sequence[Person], state: WhistState, lang: str = "fr", me: str | None = None
) -> Reading:
    """The deal form's fields said in ``line``: ``bid_<id>`` and ``tricks_<id>``.
    Numbers after « annonces » / « bids » are bids, after « plis » / « tricks » tricks;
    without either word, the step the deal is at (its tricks once the bids are in)."""
    lang = "en" if lang == "en" else "fr"
    by_id = {p.id: p for p in people}
    seated = [by_id[p] for p in state.get("players") or [] if p in by_id] or list(people)
    roster = Roster(seated, me=me, lang=lang, reserved=_BIDS | _TRICKS)
    said = words(line)
    reading = Reading()
    questions: list[Text] = []
    mode = "tricks" if state.get("pending") else "bids"
    given: dict[str, dict[str, list[int]]] = {"bids": {}, "tricks": {}}
    who: Person | None = None
    who_words: Sequence[Word] = ()
    number_first: int | None = None
    run: list[Word] = []

    def flush() -> None:
        if run:
            reading.not_understood.append(_said(line, run))
            run.clear()

    def missing() -> None:
        """A player named with no number after them."""
        if who is not None:
            reading.not_understood.append(_said(line, who_words))

    i = 0
    while i < len(said):
        word = said[i]
        if word.key in _BIDS or word.key in _TRICKS:
            flush()
            # « Ann 2 plis » / « Ann annonce deux plis »: the unit after a number says nothing more.
            after_number = i > 0 and not word.after_stop and read_number(said, i - 1, lang) is not None
            # … and ends its piece (« Benoît 1 plis Ann 1 »: « plis » starts the tricks).
            after_number = after_number and (i + 1 == len(said) or said[i + 1].after_stop)
            if not (after_number and word.key in ("pli", "plis", "trick", "tricks", "levee", "levees")):
                mode = "bids" if word.key in _BIDS else "tricks"
            i += 1
            continue
        found = read_number(said, i, lang)
        named = None
        if found is None or who is None:
            named = roster.at(said, i)
        if named is not None:
            flush()
            missing()
            if named.unclear is not None:
                questions.append(named.unclear.text)
                who, who_words = None, ()
            else:
                who, who_words = named.person, said[i : i + named.length]
                if number_first is not None:
                    assert who is not None
                    given[mode].setdefault(who.id, []).append(number_first)
                    number_first, who, who_words = None, None, ()
            i += named.length
            continue
        if found is not None:
            value, length = found
            if who is not None:
                flush()
                given[mode].setdefault(who.id, []).append(value)
                who, who_words = None, ()
            elif i + length < len(said) and said[i + length].key in ("pour", "for"):
                # « deux pour Ann »
                flush()
                number_first = value
            else:
                # A number for no one: shown with what came before it (« Zoé 3 »).
                run.extend(said[i : i + length])
            i += length
            continue
        if word.key in _FILLERS:
            i += 1
            continue
        run.append(word)
        i += 1
    flush()
    missing()
    for step, field in (("bids", "bid"), ("tricks", "tricks")):
        for pid, values in given[step].items():
            distinct = list(dict.fromkeys(values))
            if len(distinct) > 1:
                said_values = [str(v) for v in distinct]
                name = by_id[pid].name
                what = Text("L’annonce", "Bid") if step == "bids" else Text("Les plis", "Tricks")
                questions.append(
                    ask(
                        f"{what.fr} de {name} : {alternatives(said_values, 'fr')} ?",
                        f"{what.en} of {name}: {alternatives(said_values, 'en')}?",
                    )
                )
                continue
            reading.fields[f"{field}_{pid}"] = str(distinct[0])
    reading.questions = [q.get(lang) for q in questions]
    return reading
