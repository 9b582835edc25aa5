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
from companion.rules import whist_tarot
from companion.rules.i18n import Text
from companion.sentence import FUNCTION_WORDS, Hint, Person, Reading, Roster, Word, alternatives, ask, read_number
from companion.sentence.reader import LineReader

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
        "dis",
        "disons",
        "dire",
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
        "pris",
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
    | frozenset(
        [
            "pour",
            "ensuite",
            "puis",
            "then",
            "et",
            "and",
            "tour",
            "donne",
            "hand",
            "deal",
            "alors",
            "donc",
            "so",
            "euh",
            "voila",
            "m",
            "am",
            "en",
            "suis",
            "dans",
            "l",
            "ordre",
            "order",
            "seat",
            "sauf",
            "a",
            "part",
            "except",
            "but",
            "who",
            "qui",
            "tout",
        ]
    )
)
#: « passe »: a bid of nothing.
_PASS = frozenset({"passe", "passes", "passent", "pass"})
#: « Noémie aussi »: the value said just before, for this player too.
_TOO = frozenset({"aussi", "pareil", "idem", "egalement", "too", "also", "same"})
#: « a réussi », « fait son contrat »: the tricks made are the bid.
_MADE = {
    "fr": (
        ("reussi",),
        ("a", "reussi"),
        ("ont", "reussi"),
        ("reussit",),
        ("fait", "son", "contrat"),
        ("a", "fait", "son", "contrat"),
        ("ont", "fait", "leur", "contrat"),
        ("contrat", "rempli"),
        ("reussis",),
        ("a", "fait", "son", "annonce"),
        ("fait", "son", "annonce"),
        ("ont", "fait", "leur", "annonce"),
        ("juste",),
        ("comme", "annonce"),
        ("comme", "annonces"),
        ("comme", "prevu"),
        ("bon",),
        ("bons",),
        ("a", "juste"),
        ("ont", "juste"),
        ("est", "juste"),
    ),
    "en": (
        ("made", "it"),
        ("made", "their", "bid"),
        ("made", "his", "bid"),
        ("made", "her", "bid"),
        ("made", "the", "bid"),
    ),
}
#: « ne peut pas dire 2 »: a value said not to be the bid (its number is no bid).
_NOT = {
    "fr": (
        ("ne", "peut", "pas", "dire"),
        ("peut", "pas", "dire"),
        ("ne", "peux", "pas", "dire"),
        ("peux", "pas", "dire"),
        ("ne", "peut", "pas", "annoncer"),
        ("peut", "pas", "annoncer"),
        ("ne", "peux", "pas", "annoncer"),
        ("peux", "pas", "annoncer"),
        ("pas", "le", "droit", "de", "dire"),
        ("n", "a", "pas", "le", "droit", "de", "dire"),
    ),
    "en": (
        ("can't", "say"),
        ("cannot", "say"),
        ("can't", "bid"),
        ("cannot", "bid"),
        ("can", "t", "bid"),
        ("can", "t", "say"),
    ),
}
#: The words of a count of tricks (« 2 plis »).
_UNITS = frozenset({"pli", "plis", "trick", "tricks", "levee", "levees"})
#: « un de plus », « one more »: a number said against another (never the value itself).
_MORE = {
    "fr": (("de", "plus"), ("de", "moins"), ("de", "trop")),
    "en": (("more",), ("less",), ("fewer",), ("too", "many"), ("extra",)),
}
#: Verbs of taking said in the present: while the bids are said, a bid (« Léo prend 1 »).
_TAKES = frozenset({"prend", "prends", "prennent", "takes", "take"})
#: « sauf Farid »: the player said next is no part of the group said before.
_EXCEPT = frozenset({"sauf", "except", "but"})
#: « tous les plis »: every trick of the deal.
_ALL = {
    "fr": (("tous", "les", "plis"), ("toutes", "les", "levees"), ("tout",)),
    "en": (("all", "the", "tricks"), ("every", "trick"), ("all", "tricks")),
}
#: « 2 chacun »: a value said for each of the players just named.
_EACH = frozenset({"chacun", "chacune", "each", "apiece"})
#: « 1 ou 2 »: two values, one to be asked.
_OR = frozenset({"ou", "or"})


def _match(said: Sequence[Word], i: int, phrases: Sequence[tuple[str, ...]]) -> int:
    """How many words of the longest of ``phrases`` start at ``said[i]`` (0: none)."""
    best = 0
    for phrase in phrases:
        n = len(phrase)
        if n > best and i + n <= len(said) and all(said[i + k].key == phrase[k] for k in range(n)):
            best = n
    return best


def read_deal(
    line: str,
    people: Sequence[Person],
    state: WhistState,
    lang: str = "fr",
    me: str | None = None,
    step: str | None = None,
) -> Reading:
    """The deal form's fields said in ``line``: ``bid_<id>`` and ``tricks_<id>``.
    Numbers after « annonces » / « bids » are bids, after « plis » / « tricks » tricks;
    without either word, the step the deal is at (its tricks once the bids are in).
    ``step``: what the form shows (``bids`` only, its ``tricks`` once the bids are in, or
    ``all``: a correction); tricks said while only the bids are asked are asked about,
    never filled where the page shows no field for them."""
    lang = "en" if lang == "en" else "fr"
    by_id = {p.id: p for p in people}
    seated = [by_id[p] for p in state.get("players") or [] if p in by_id] or list(people)
    deal = state.get("deal") or {}
    dealer = str(deal.get("dealer")) if deal.get("dealer") is not None else None
    # The form's order: the bidding order, from the dealer's left (the dealer last).
    order = (
        [by_id[p] for p in whist_tarot.bidding_order([p.id for p in seated], dealer) if p in by_id]
        if dealer in {p.id for p in seated}
        else seated
    )
    roster = Roster(seated, me=me, lang=lang, reserved=_BIDS | _TRICKS | _PASS, dealer=dealer, groups=True)
    reader = LineReader(line, roster)
    said = reader.said
    mode = "tricks" if state.get("pending") else "bids"
    # What was said of whom: step → person id → [(value, words)]; groups: (step, kind, value, words).
    given: dict[str, dict[str, list[tuple[int, list[Word]]]]] = {"bids": {}, "tricks": {}}
    group_values: list[tuple[str, str, int | None, list[Word]]] = []
    alternatives_of: dict[tuple[str, str], list[str]] = {}
    who: list[Person] | None = None  # the players the next value is for
    who_group = ""
    who_words: list[Word] = []
    number_first: tuple[int, list[Word]] | None = None
    bare: list[tuple[int, list[Word]]] = []
    number_given = False  # a value was just given (« Élodie et Zoé 2 chacune »)
    last_value: int | None = None  # the value given last (« Noémie aussi »)
    excluded: set[str] = set()  # the players said after « sauf » (no group's value is theirs)
    excluded_named: set[str] = set()  # every player the line named
    unheard = False  # words not understood since the player the next value would be for

    def give(value: int | None, words: list[Word]) -> None:
        nonlocal who, who_group, who_words, last_value, unheard
        unheard = False
        last_value = value if value is not None else last_value
        reader.use(words)  # asked when its player is (« moi » on a phone of no one)
        if who_group:
            group_values.append((mode, who_group, value, [*who_words, *words]))
        elif who is not None and value is not None:
            for person in who:
                given[mode].setdefault(person.id, []).append((value, [*who_words, *words]))
        who, who_group, who_words = None, "", []

    i = 0
    while i < len(said):
        word = said[i]
        negated = _match(said, i, _NOT[lang])
        if negated:
            # « ne peut pas dire 2 »: that number is no bid; what follows may be.
            found = read_number(said, i + negated, lang)
            length = negated + (found[1] if found is not None else 0)
            reader.use(said[i : i + length])
            i += length
            continue
        made = _match(said, i, _MADE[lang])
        if made and (who is not None or who_group):
            reader.use(said[i : i + made])
            mode = "tricks"
            give(None, said[i : i + made]) if who_group else _made(
                reader, who, who_words, said[i : i + made], state, given
            )
            who, who_group, who_words = None, "", []
            i += made
            continue
        if word.key in _TAKES:
            reader.use([word])  # « Léo prend 1 »: no word of the step (the tricks taken are « a pris »)
            i += 1
            continue
        if word.key in _BIDS or word.key in _TRICKS:
            reader.use([word])
            # « Ann 2 plis » / « Ann annonce deux plis »: the unit after a number says nothing more.
            after_number = i > 0 and not word.after_stop and read_number(said, i - 1, lang) is not None
            # … and ends its piece (« Benoît 1 plis Ann 1 »: « plis » starts the tricks).
            after_number = after_number and (i + 1 == len(said) or said[i + 1].after_stop)
            if not (after_number and word.key in ("pli", "plis", "trick", "tricks", "levee", "levees")):
                mode = "bids" if word.key in _BIDS else "tricks"
            i += 1
            continue
        if word.key in _TOO and (who is not None or who_group) and last_value is not None:
            give(last_value, [word])  # « Noémie aussi »
            i += 1
            continue
        if word.key in _PASS and (who is not None or who_group) and mode == "bids":
            give(0, [word])
            i += 1
            continue
        every = _match(said, i, _ALL[lang])
        if every and (who is not None or who_group):
            # « Élodie a fait tous les plis »: as many as the cards dealt.
            mode = "tricks"
            give(int(deal.get("cards") or 0), list(said[i : i + every]))
            i += every
            continue
        if word.key in _EACH and number_given:
            reader.use([word])  # « 2 chacune »
            i += 1
            continue
        number_given = False
        found = read_number(said, i, lang)
        named = None
        if found is None or (who is None and not who_group):
            named = roster.at(said, i)
        if named is not None:
            pieces = said[i : i + named.length]
            i += named.length
            unheard = False
            if named.group:
                if number_first is not None and named.person is None:
                    value, words = number_first  # « rien pour les autres »
                    who, who_group, who_words = None, named.group, list(pieces)
                    give(value, words)
                    number_first = None
                    continue
                if named.person is not None and who == [named.person]:
                    who_words = [*who_words, *pieces]  # « Paul, le donneur, 4 »: one player
                    reader.use(pieces)
                    continue
                who, who_group, who_words = None, named.group, list(pieces)
                reader.use(pieces)
                if named.person is not None:  # « le donneur »: one player
                    who, who_group = [named.person], ""
                continue
            person = reader.person(named, pieces, use=False)  # used with the value said of them
            if person is not None:
                excluded_named.add(person.id)
            if person is not None and i - named.length > 0 and said[i - named.length - 1].key in _EXCEPT:
                excluded.add(person.id)  # « tout le monde bon sauf Farid »: not Farid
                reader.use(pieces)
            if who is not None and person is not None and who == [person]:
                who_words = [*who_words, *pieces]  # « moi je … »: one player, said twice
                continue
            joined = who is not None and not who_group and i - named.length - 1 >= 0
            joined = joined and said[i - named.length - 1].key in ("et", "and") and bool(who_words)
            if joined and who is not None:
                # « Élodie et Zoé 2 »: the value goes to both.
                who = [*who, *([person] if person is not None else [])]
                who_words = [*who_words, said[i - named.length - 1], *pieces]
                continue
            who, who_group, who_words = ([person] if person is not None else []), "", list(pieces)
            if number_first is not None and person is not None:
                value, words = number_first
                given[mode].setdefault(person.id, []).append((value, [*pieces, *words]))
                number_first, who, who_words = None, None, []
            continue
        if found is not None:
            value, length = found
            pieces = list(said[i : i + length])
            i += length
            if (who is not None or who_group) and i + 1 < len(said) and said[i].key in _OR:
                other = read_number(said, i + 1, lang)
                if other is not None:
                    # « Benoît 1 ou 2 »: asked, not filled.
                    more = list(said[i : i + 1 + other[1]])
                    names = [p.name for p in who or []] or [" ".join(w.text for w in who_words)]
                    for name in names:
                        alternatives_of[(mode, name)] = [str(value), str(other[0])]
                    reader.use([*who_words, *pieces, *more])
                    who, who_group, who_words = None, "", []
                    i += 1 + other[1]
                    continue
            joined_number = (
                i + 1 < len(said) and said[i].key in ("et", "and") and read_number(said, i + 1, lang) is not None
            )
            if who_group and joined_number:
                # « les autres 2 et 0 »: two values for a group — whose is which? Not filled.
                who, who_group, who_words = None, "", []
                continue
            unit = 1 if i < len(said) and said[i].key in _UNITS else 0
            if i + unit < len(said) and said[i + unit].key in ("pour", "for"):
                # « deux pour Ann », « 2 plis pour Marius »: the value said before its player.
                number_first = (value, [*pieces, *said[i : i + unit + 1]])
                if unit:
                    mode = "tricks" if said[i].key not in _BIDS else "bids"
                reader.use(said[i : i + unit + 1])
                who, who_group, who_words = None, "", []
                i += unit + 1
            elif (who is not None or who_group) and _match(said, i + unit, _MORE[lang]):
                # « un pli de plus que prévu »: a number said against another, not the value.
                who, who_group, who_words = None, "", []
            elif (who is not None or who_group) and unheard:
                # « Benoît voulait 2 mais a dit 3 »: words not understood between a player and
                # a number: the number may not be theirs — nothing filled, the words shown.
                who, who_group, who_words, unheard = None, "", [], False
            elif who is not None or who_group:
                give(value, pieces)
                number_given = True
            else:
                bare.append((value, pieces))
            continue
        if word.key in _FILLERS:
            reader.use([word])
        elif who is not None or who_group:
            unheard = True
        i += 1

    _bare(reader, bare, given, mode, order, lang)
    # A group's value is for the players the line gave none and did not name (a player
    # named with a value not understood — « Cyril veut 2, les autres rien » — gets none).
    unvalued_named = {pid for pid in excluded_named if pid not in given["bids"] and pid not in given["tricks"]}
    _groups(reader, group_values, given, [p for p in seated if p.id not in excluded | unvalued_named], state)
    for (step, name), options in alternatives_of.items():
        what = Text("L’annonce", "Bid") if step == "bids" else Text("Les plis", "Tricks")
        reader.ask(
            ask(
                f"{what.fr} de {name} : {alternatives(options, 'fr')} ?",
                f"{what.en} of {name}: {alternatives(options, 'en')}?",
            )
        )
    asked = {name for _step, name in alternatives_of}
    if step == "bids" and given["tricks"]:
        # The page asks for the bids only: the tricks are said once the bids are saved.
        reader.ask(
            ask(
                "Les plis se disent une fois les annonces enregistrées : annonces ?",
                "The tricks come once the bids are saved: bids?",
            ),
            [w for values in given["tricks"].values() for _v, ws in values for w in ws],
        )
        given["tricks"] = {}
    for step_said, field in (("bids", "bid"), ("tricks", "tricks")):
        for pid, values in given[step_said].items():
            distinct = list(dict.fromkeys(v for v, _w in values))
            name = by_id[pid].name
            if len(distinct) > 1:
                said_values = [str(v) for v in distinct]
                what = Text("L’annonce", "Bid") if step_said == "bids" else Text("Les plis", "Tricks")
                reader.ask(
                    ask(
                        f"{what.fr} de {name} : {alternatives(said_values, 'fr')} ?",
                        f"{what.en} of {name}: {alternatives(said_values, 'en')}?",
                    ),
                    [w for _v, ws in values for w in ws],
                )
                asked.add(name)
                continue
            reader.fill(f"{field}_{pid}", str(distinct[0]), [w for _v, ws in values for w in ws])
    shown = "tricks" if any(k.startswith("tricks_") for k in reader.fields) else mode
    if reader.fields:
        prefix = "bid_" if shown == "bids" else "tricks_"
        for person in order:
            if f"{prefix}{person.id}" not in reader.fields and person.name not in asked:
                reader.note(ask(f"{person.name} : rien dit.", f"{person.name}: nothing said."))
    return reader.reading()


def _made(
    reader: LineReader,
    who: list[Person] | None,
    who_words: list[Word],
    words: Sequence[Word],
    state: WhistState,
    given: dict[str, dict[str, list[tuple[int, list[Word]]]]],
) -> None:
    """« Ann a réussi »: Ann's tricks are her bid (the deal's bids, once saved)."""
    bids = state.get("bids") or {}
    for person in who or []:
        if person.id in bids:
            given["tricks"].setdefault(person.id, []).append((int(bids[person.id]), [*who_words, *words]))


def _bare(
    reader: LineReader,
    bare: list[tuple[int, list[Word]]],
    given: dict[str, dict[str, list[tuple[int, list[Word]]]]],
    mode: str,
    order: list[Person],
    lang: str,
) -> None:
    """Numbers said for no one: one for each player in the form's order (« 2, 1, 0, 1 »,
    the order the page shows beside the line) when the line names no one and says as
    many numbers as the form has players; else they are not understood."""
    if not bare:
        return
    if len(bare) != len(order) or any(given[s] for s in given):
        return
    for (value, words), person in zip(bare, order, strict=True):
        given[mode].setdefault(person.id, []).append((value, words))
    names = ", ".join(p.name for p in order)
    reader.note(ask(f"Dans l’ordre du formulaire : {names}.", f"In the form's order: {names}."))
    del lang


def _groups(
    reader: LineReader,
    group_values: list[tuple[str, str, int | None, list[Word]]],
    given: dict[str, dict[str, list[tuple[int, list[Word]]]]],
    seated: list[Person],
    state: WhistState,
) -> None:
    """« tout le monde 1 », « tous les autres 0 », « tout le monde a réussi »: a value for
    every player the line gives none (« tout le monde » only when it names no one else)."""
    bids = state.get("bids") or {}
    for step, _kind, value, words in group_values:
        left = [p for p in seated if p.id not in given[step]]
        if value is None:
            # « tout le monde a réussi »: each player's tricks are their bid.
            left = [p for p in left if p.id in bids]
            for p in left:
                given["tricks"].setdefault(p.id, []).append((int(bids[p.id]), words))
        else:
            for p in left:
                given[step].setdefault(p.id, []).append((value, words))
        if not left:
            reader.use(words)


def example(people: Sequence[Person], state: WhistState, lang: str = "fr") -> Hint:
    """The deal's bids (or, once they are in, its tricks) said with this game's players
    in the form's order: the hint under the line, which the grammar reads whole, and
    that order, in which numbers said alone are read.

    >>> people = [Person("1", "Ann"), Person("2", "Bob"), Person("3", "Cid")]
    >>> state = {"players": ["1", "2", "3"], "deal": {"dealer": "1", "cards": 5}, "pending": False}
    >>> example(people, state)
    Hint(example='annonces\xa0: Bob 2, Cid 1, Ann 0', order=('Bob', 'Cid', 'Ann'))
    """
    lang = "en" if lang == "en" else "fr"
    by_id = {p.id: p for p in people}
    deal = state.get("deal") or {}
    seats = [p for p in state.get("players") or [] if p in by_id]
    dealer = str(deal.get("dealer"))
    order = [by_id[p] for p in whist_tarot.bidding_order(seats, dealer)] if dealer in seats else list(people)
    cards = int(deal.get("cards") or 0)
    values = [min(v, cards) for v in (2, 1, 0, 1, 0, 1, 0, 0, 0)]
    head = ("plis" if lang == "fr" else "tricks") if state.get("pending") else ("annonces" if lang == "fr" else "bids")
    said = ", ".join(f"{p.name} {v}" for p, v in zip(order, values, strict=False))
    return Hint(f"{head}\u00a0: {said}" if lang == "fr" else f"{head}: {said}", tuple(p.name for p in order))
