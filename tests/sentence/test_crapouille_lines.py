"""A crapouille hand said in one line (issue 28): the hand form's fields each line gives,
or the question it asks. Players: Ann (1), Bob (2), Cid (3), Dan (4), Élodie (5),
Marie (6), Mathieu (7), Zoé (8, out of the game); this device is Bob's.

Totals counted from ranks use the engine's values — # seed 003: « le 8 vaut vingt
points, le joker, quinze points, le 2, dix points, les figures, cinq points et les autres
cartes ont leur valeur (… l’as vaut 1) ».
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.kinds.crapouille.sentence import read_hand
from companion.rules.cards import Card, Rank, Suit, typed_notation
from companion.sentence import Person, spell

PEOPLE = [
    Person("1", "Ann"),
    Person("2", "Bob"),
    Person("3", "Cid"),
    Person("4", "Dan"),
    Person("5", "Élodie"),
    Person("6", "Marie"),
    Person("7", "Mathieu"),
    Person("8", "Zoé"),
]
IN_PLAY = ["1", "2", "3", "4", "5", "6", "7"]
ME = "2"


def f(**fields: str) -> dict[str, str]:
    """Fields by name (``w`` winner, ``d`` dealer, ``t2`` total_2, ``c3`` cards_3)."""
    names = {"w": "winner", "d": "dealer"}
    return {names.get(k) or ("total_" if k[0] == "t" else "cards_") + k[1:]: v for k, v in fields.items()}


# (line, language, fields, questions asked (start of each), pieces not understood)
LINES = [
    # French, punctuated
    (
        "Ann sort ; Bob 12 ; Cid huit de cœur et un joker ; Dan 3",
        "fr",
        f(w="1", t2="12", c3="8C Joker", t4="3"),
        [],
        [],
    ),
    ("c’est Ann qui sort, Bob douze, Cid un roi et un as", "fr", f(w="1", t2="12", t3="6"), [], []),
    ("Ann a fini", "fr", f(w="1"), [], []),
    # A name not at the table after a stop: what was said before it stands.
    ("Dan sort ; Élo douze ; Xavier huit de cœur", "fr", f(w="4", t5="12"), [], ["Xavier huit de cœur"]),
    ("donné par Bob", "fr", f(d="2"), [], []),
    ("Ann sort, donné par Bob", "fr", f(w="1", d="2"), [], []),
    ("Ann sort, Bob 12, Cid 8, distribué par Dan", "fr", f(w="1", d="4", t2="12", t3="8"), [], []),
    ("Ann est sortie, Bob a 12 points", "fr", f(w="1", t2="12"), [], []),
    ("Ann est sorti. Bob : 30. Cid : 15.", "fr", f(w="1", t2="30", t3="15"), [], []),
    ("sortie : Ann ; Bob : quatre-vingt-dix-neuf", "fr", f(w="1", t2="99"), [], []),
    ("gagnant : Cid, Ann 5, Bob 7", "fr", f(w="3", t1="5", t2="7"), [], []),
    ("donneur : Dan, Ann sort", "fr", f(w="1", d="4"), [], []),
    ("Bob donneur, Ann sort", "fr", f(w="1", d="2"), [], []),
    ("c’est Bob qui a donné, Ann a gagné", "fr", f(w="1", d="2"), [], []),
    ("Ann a gagné la main, Bob a distribué", "fr", f(w="1", d="2"), [], []),
    ("Ann sort, Bob vingt et un, Cid soixante et onze", "fr", f(w="1", t2="21", t3="71"), [], []),
    ("Ann sort, Bob vingt-deux, Cid quatre-vingts", "fr", f(w="1", t2="22", t3="80"), [], []),
    ("Ann sort, Bob cent douze, Cid deux cents", "fr", f(w="1", t2="112", t3="200"), [], []),
    # 0 is no card: who went out. Said of someone else while another went out: asked.
    (
        "Ann sort, Bob zéro, Cid 3",
        "fr",
        f(w="1", t3="3"),
        ["Bob\u00a0: 0 point, mais c’est Ann qui a fini la main"],
        [],
    ),
    ("Ann sort, Bob n’a plus rien", "fr", f(w="1"), ["Bob\u00a0: 0 point"], []),
    (
        "Bob plus de cartes, Ann 3, Cid 5, Dan 1, Élodie 2, Marie 1, Mathieu 4",
        "fr",
        f(w="2", t1="3", t3="5", t4="1", t5="2", t6="1", t7="4"),
        [],
        [],
    ),
    ("Ann sort, Bob quatre vingt dix neuf", "fr", f(w="1", t2="99"), [], []),
    ("Ann sort, Bob soixante dix", "fr", f(w="1", t2="70"), [], []),
    ("Ann sort, Bob dix-sept points", "fr", f(w="1", t2="17"), [], []),
    ("Ann sort, Bob 12 pts", "fr", f(w="1", t2="12"), [], []),
    # French, dictated: no punctuation, no capitals, no accents
    ("ann sort bob 12 cid huit de coeur et un joker dan trois", "fr", f(w="1", t2="12", c3="8C Joker", t4="3"), [], []),
    ("c est ann qui sort bob douze cid trente", "fr", f(w="1", t2="12", t3="30"), [], []),
    ("Ann sort donné par Bob", "fr", f(w="1", d="2"), [], []),
    ("Ann sort donneur Bob Bob 12", "fr", f(w="1", d="2", t2="12"), [], []),
    ("Ann sort Bob douze points Cid trois points", "fr", f(w="1", t2="12", t3="3"), [], []),
    ("elodie sort marie vingt mathieu quinze", "fr", f(w="5", t6="20", t7="15"), [], []),
    ("Ann a fini Bob il lui reste un roi", "fr", f(w="1", t2="5"), [], []),
    # cards
    ("Ann sort, Cid dame de trèfle", "fr", f(w="1", c3="DT"), [], []),
    ("Ann sort, Cid 10 de carreau et l’as de pique", "fr", f(w="1", c3="10K AP"), [], []),
    ("Ann sort, Cid deux de pique", "fr", f(w="1", c3="2P"), [], []),
    ("Ann sort, Cid deux pique", "fr", f(w="1", c3="2P"), [], []),
    # The 2 of spades, or two cards of spades? Asked.
    ("Ann sort, Cid deux piques", "fr", f(w="1"), ["«\u00a0deux piques\u00a0»\u00a0: une carte, ou plusieurs"], []),
    ("Ann sort, Cid le joker", "fr", f(w="1", c3="Joker"), [], []),
    ("Ann sort, Cid huit de cœur, dame de pique", "fr", f(w="1", c3="8C DP"), [], []),
    ("Ann sort, Cid 8C RP 10♦ Joker", "fr", f(w="1", c3="8C RP 10K Joker"), [], []),
    # Two 8s, or a 2 and an 8? Asked.
    ("Ann sort, Cid deux huit", "fr", f(w="1"), ["«\u00a0deux huit\u00a0»\u00a0: autant de cartes"], []),
    ("Ann sort, Cid un huit", "fr", f(w="1", t3="20"), [], []),
    ("Ann sort, Cid deux rois et un valet", "fr", f(w="1", t3="15"), [], []),
    ("Ann sort, Cid un deux et un as", "fr", f(w="1", t3="11"), [], []),
    ("Ann sort, Cid un roi et un sept", "fr", f(w="1", t3="12"), [], []),
    ("Ann sort, Cid huit de cœur et un roi", "fr", f(w="1", t3="25"), [], []),
    ("Ann sort, Cid deux jokers", "fr", f(w="1", c3="Joker Joker"), [], []),
    # names cut short, misspelt, « moi »
    ("Élo sort, Ann 3", "fr", f(w="5", t1="3"), [], []),
    ("Elo sort, Mathieu 4", "fr", f(w="5", t7="4"), [], []),
    ("Elodei sort, Mat 4", "fr", f(w="5", t7="4"), [], []),
    ("Marei sort", "fr", f(w="6"), [], []),
    ("moi je sors, Ann 12", "fr", f(w="2", t1="12"), [], []),
    ("je sors, Ann 12", "fr", f(w="2", t1="12"), [], []),
    ("j’ai fini, Ann deux rois", "fr", f(w="2", t1="10"), [], []),
    ("Ann sort, moi 12", "fr", f(w="1", t2="12"), [], []),
    ("Ann sort, donné par moi", "fr", f(w="1", d="2"), [], []),
    ("ANN SORT, BOB 12", "fr", f(w="1", t2="12"), [], []),
    # asked, not guessed
    ("Ma sort", "fr", {}, ["«\u00a0Ma\u00a0»\u00a0: Marie ou Mathieu\u00a0?"], []),
    ("Ann sort, Ma 12", "fr", f(w="1"), ["«\u00a0Ma\u00a0»\u00a0: Marie ou Mathieu"], []),
    ("Ann sort, Bob sort", "fr", {}, ["Qui a fini la main\u00a0: Ann ou Bob\u00a0?"], []),
    ("Ann et Bob sortent, Cid 5", "fr", f(t3="5"), ["Qui a fini la main\u00a0: Ann ou Bob\u00a0?"], []),
    ("Ann sort, Bob 12, Bob 15", "fr", f(w="1"), ["Bob\u00a0: 12 ou 15\u00a0?"], []),
    ("Ann sort, donné par Bob, donné par Cid", "fr", f(w="1"), ["Qui a distribué\u00a0: Bob ou Cid\u00a0?"], []),
    # Someone out of the game: asked about (the question uses the words: none is left unread).
    ("Ann sort, Zoé 12", "fr", f(w="1"), ["Zoé n’est plus dans la partie."], []),
    ("Zoé sort", "fr", {}, ["Zoé n’est plus dans la partie."], []),
    # not understood, shown as written (a name with nothing understood of it, too)
    ("Ann sort, Cid trucmuche", "fr", f(w="1"), [], ["Cid trucmuche"]),
    ("Annn sort, Bob 12", "fr", f(t2="12"), ["Qui a fini la main"], ["Annn sort"]),
    ("Ann sort, Bob 12 15", "fr", f(w="1"), [], ["Bob 12 15"]),
    ("Ann sort, Bob huit de machin", "fr", f(w="1"), [], ["Bob huit de machin"]),
    ("moi je sors", "fr", {}, ["Qui est «\u00a0moi\u00a0» sur ce téléphone\u00a0?"], []),  # no device player
    # A number after a stop is the last name's: who went out holds no card (asked).
    ("Ann sort, douze", "fr", {}, ["Ann\u00a0: a fini la main ou douze\u00a0?"], []),
    # English
    (
        "Ann out; Bob 12; Cid eight of hearts and a joker; Dan 3",
        "en",
        f(w="1", t2="12", c3="8h Joker", t4="3"),
        [],
        [],
    ),
    (
        "Ann went out, Bob twenty-two, Cid a king and an ace, dealt by Dan",
        "en",
        f(w="1", d="4", t2="22", t3="6"),
        [],
        [],
    ),
    ("ann out bob twelve cid thirty dan one", "en", f(w="1", t2="12", t3="30", t4="1"), [], []),
    ("ann out bob twelve cid zero", "en", f(w="1", t2="12"), ["Cid: 0 points, but Ann went out?"], []),
    ("Ann won, Bob has 12 points, Cid a hundred", "en", f(w="1", t2="12", t3="100"), [], []),
    ("winner: Cid, dealer: Ann, Bob ninety-nine", "en", f(w="3", d="1", t2="99"), [], []),
    ("I went out, Ann two eights and the joker", "en", f(w="2", t1="55"), [], []),
    ("Ann is out, Bob queen of clubs, Cid 8h Ks", "en", f(w="1", c2="Qc", c3="8h Ks"), [], []),
    ("Ann finished, Bob two of spades, Cid ten of diamonds", "en", f(w="1", c2="2s", c3="10d"), [], []),
    ("Ann finished, Bob two spades", "en", f(w="1"), ["“two spades”: one card, or several of that suit?"], []),
    ("Ann out, Bob out", "en", {}, ["Who went out: Ann or Bob?"], []),
    ("Ma out", "en", {}, ["“Ma”: Marie or Mathieu?"], []),
    ("Ann out, Zoé 12", "en", f(w="1"), ["Zoé is no longer in the game."], []),
]


@pytest.mark.parametrize(("line", "lang", "fields", "questions", "unread"), LINES, ids=[x[0] for x in LINES])
def test_crapouille_lines(
    line: str, lang: str, fields: dict[str, str], questions: list[str], unread: list[str]
) -> None:
    me = None if line == "moi je sors" else ME
    reading = read_hand(line, PEOPLE, IN_PLAY, lang, me)
    assert reading.fields == fields
    assert len(reading.questions) == len(questions)
    for asked, start in zip(reading.questions, questions, strict=True):
        assert asked.startswith(start)
    assert reading.not_understood == unread
    assert reading.complete == (not questions and not unread)


def test_enough_lines() -> None:
    assert len(LINES) >= 70


# --- Any hand written back as a sentence reads as the same fields -------------------------

NAMES = [Person("1", "Ann"), Person("2", "Bob"), Person("3", "Chloé"), Person("4", "Djamel"), Person("5", "Élodie")]
_SUITS = {"fr": {Suit.HEARTS: "cœur", Suit.SPADES: "pique", Suit.CLUBS: "trèfle", Suit.DIAMONDS: "carreau"}}
_SUITS["en"] = {s: s.name_in("en") for s in Suit}
_FACES = {
    "fr": {Rank.ACE: "as", Rank.KING: "roi", Rank.QUEEN: "dame", Rank.JACK: "valet"},
    "en": {Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack"},
}


def _rank_said(rank: Rank, lang: str) -> str:
    return _FACES[lang].get(rank) or spell(int(rank.value), lang)


def _card_said(card: Card, lang: str, how: int) -> str:
    if card.is_joker:
        return "le joker" if lang == "fr" else "the joker"
    assert card.rank is not None and card.suit is not None
    if how == 0:
        return typed_notation(lang).write(card)
    of = "de" if lang == "fr" else "of"
    return f"{_rank_said(card.rank, lang)} {of} {_SUITS[lang][card.suit]}"


_cards = st.lists(
    st.one_of(
        st.builds(Card, rank=st.sampled_from(list(Rank)), suit=st.sampled_from(list(Suit))), st.just(Card(joker="R"))
    ),
    min_size=1,
    max_size=4,
)


@st.composite
def hands(draw: st.DrawFn) -> tuple[str, str, dict[str, str]]:
    """A hand entry (winner, others' totals or cards, maybe the dealer) and a sentence saying it."""
    lang = draw(st.sampled_from(["fr", "en"]))
    lower = draw(st.booleans())  # dictation's small letters (the notation typed as it is)
    people = draw(st.permutations(NAMES))
    winner, others = people[0], people[1 : draw(st.integers(1, len(people) - 1)) + 1]
    notation = typed_notation(lang)
    fields = {"winner": winner.id}
    win_said = draw(
        st.sampled_from(["{} sort", "c’est {} qui sort", "{} a fini"] if lang == "fr" else ["{} out", "{} went out"])
    )

    def name(person: Person) -> str:
        return person.name.lower() if lower else person.name

    parts = [win_said.format(name(winner))]
    for person in others:
        if draw(st.booleans()):
            total = draw(st.integers(1, 300))  # seed 003: each other player still holds a card
            fields[f"total_{person.id}"] = str(total)
            said = str(total) if draw(st.booleans()) else spell(total, lang)
        else:
            cards = draw(_cards)
            fields[f"cards_{person.id}"] = " ".join(notation.write(c) for c in cards)
            how = draw(st.integers(0, 1))
            said = (" et " if lang == "fr" else " and ").join(_card_said(c, lang, how) for c in cards)
        parts.append(f"{name(person)} {said}")
    if draw(st.booleans()):
        dealer = draw(st.sampled_from(people))
        fields["dealer"] = dealer.id
        parts.append(("donné par {}" if lang == "fr" else "dealt by {}").format(name(dealer)))
    order = draw(st.permutations(parts))
    separator = draw(st.sampled_from([", ", " ; ", ". ", " "]))
    return separator.join(order), lang, fields


@given(hands())
def test_any_hand_said_reads_back(hand: tuple[str, str, dict[str, str]]) -> None:
    line, lang, fields = hand
    reading = read_hand(line, NAMES, None, lang)
    assert reading.fields == fields, line
    assert reading.complete, line
