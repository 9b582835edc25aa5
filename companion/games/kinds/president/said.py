"""How a manche of le Président or Piketty is said (issue 28): the words of the line's
grammar (:mod:`.sentence`) — titles as a table says them beside the engine's own names,
ordinals, the words of the finishing order, the events, the forbidden finishes — and
where each title stands (:func:`title_places`: the engine's title list says it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from companion.rules.cards import Rank
from companion.rules.i18n import Text
from companion.rules.president import Rules
from companion.rules.president_outcome import title_names
from companion.sentence import FUNCTION_WORDS, Word, fold

# ----------------------------------------------------------------------------- words

#: How titles are said besides the engine's own names (folded, hyphens as spaces): the
#: feminine forms, the short forms, the other family's spelling. Keyed by the engine's
#: name, folded; only the engine says which place a title is.
SAID_TOO: dict[str, tuple[str, ...]] = {
    "president": ("presidente", "prez", "presidant", "presidente de la republique", "pdt", "pres"),
    "vice president": ("vice presidente", "vice", "vp", "vice prez", "vice presidant", "vice pdt", "vpdt"),
    "premier ministre": (
        "premiere ministre",
        "1er ministre",
        "1re ministre",
        "1ere ministre",
        "pm",
        "premier sinistre",
    ),
    "secretaire d etat": ("secretaire", "secretaire detat", "secretaire de etat"),
    "depute": ("deputee",),
    "senateur": ("senatrice",),
    "maire": ("mairesse",),
    "conseiller": ("conseillere",),
    "trou du cul": ("trou", "trouduc", "trou de cul", "tdc", "troudcul", "trou d cul", "trouduque"),
    "vice trou du cul": ("vice trou", "vice trouduc", "vice tdc", "vice trou de cul", "vtdc", "vice troudcul"),
    "trouduc": ("trou du cul", "trou", "trou de cul", "tdc", "troudcul", "trouduque"),
    "vice trouduc": ("vice trou du cul", "vice trou", "vice tdc", "vtdc", "vice troudcul"),
    "balayeur": ("balayeuse",),
    "balayeur en chef": ("balayeuse en chef", "chef balayeur", "chef balayeuse"),
    "vice president#en": ("vice",),
    "prime minister": ("pm",),
    "secretary of state": ("secretary",),
    "councillor": ("councilor",),
    "asshole": ("arsehole", "ahole", "scum"),
    "vice asshole": ("vice arsehole", "vice scum"),
}
ORDINALS = {
    **dict.fromkeys(("premier", "premiere", "1er", "1re", "1ere", "1e", "first", "1st"), 1),
    **dict.fromkeys(("deuxieme", "second", "seconde", "2e", "2eme", "2nd"), 2),
    **dict.fromkeys(("troisieme", "third", "3e", "3eme", "3rd"), 3),
    **dict.fromkeys(("quatrieme", "fourth", "4e", "4eme", "4th"), 4),
    **dict.fromkeys(("cinquieme", "fifth", "5e", "5eme", "5th"), 5),
    **dict.fromkeys(("sixieme", "sixth", "6e", "6eme", "6th"), 6),
    **dict.fromkeys(("septieme", "seventh", "7e", "7eme", "7th"), 7),
    **dict.fromkeys(("huitieme", "eighth", "8e", "8eme", "8th"), 8),
    **dict.fromkeys(("neuvieme", "ninth", "9e", "9eme", "9th"), 9),
}
#: The last place, and the one before it (counted from the end: 1, 2).
FROM_END = {
    ("dernier",): 1,
    ("derniere",): 1,
    ("last",): 1,
    ("avant", "dernier"): 2,
    ("avant", "derniere"): 2,
    ("second", "to", "last"): 2,
    ("next", "to", "last"): 2,
    ("penultimate",): 2,
}
#: The words that say a finishing order follows (a list of names, in order).
ORDER_WORDS = frozenset(
    [
        "ordre",
        "order",
        "sortis",
        "sorties",
        "sortie",
        "sorti",
        "arrivee",
        "arrivees",
        "classement",
        "finish",
        "finishing",
        "out",
        "went",
        "gone",
        "dans",
        "in",
        "went",
        "sont",
        "ont",
        "finished",
    ]
)
#: Words that join the things said, read as a new piece (« Chloé puis Ann »).
JOINS = frozenset({"puis", "ensuite", "then", "et", "and", "suivi", "suivie", "suivis", "suivies", "followed", "apres"})
#: Words that carry nothing here (« Chloé est présidente », « en tant que »…).
FILLERS = (
    FUNCTION_WORDS["fr"]
    | FUNCTION_WORDS["en"]
    | frozenset(
        [
            "devient",
            "deviennent",
            "devenu",
            "devenue",
            "finit",
            "comme",
            "tant",
            "titre",
            "title",
            "place",
            "position",
            "rang",
            "rank",
            "sort",
            "becomes",
            "became",
            "got",
            "gets",
        ]
    )
)
EVENT_WORDS: dict[tuple[str, ...], str] = {
    ("putsch",): "putsch",
    ("putch",): "putsch",
    ("putsh",): "putsch",
    ("putschs",): "putsch",
    ("putsches",): "putsch",
    ("jeu", "blanc"): "jeu_blanc",
    ("jeux", "blanc"): "jeu_blanc",
    ("main", "blanche"): "jeu_blanc",
    ("blank", "hand"): "jeu_blanc",
    ("coup", "d", "etat"): "coup_detat",
    ("coup", "detat"): "coup_detat",
    ("coup", "de", "etat"): "coup_detat",
    ("guillotine",): "guillotine",
    ("guilotine",): "guillotine",
    ("revolution",): "revolution",
}
EVENT_NAMES = {
    "putsch": Text("de putsch", "a putsch"),
    "jeu_blanc": Text("de jeu blanc", "a jeu blanc"),
    "coup_detat": Text("de coup d’État", "a coup d’État"),
    "guillotine": Text("de guillotine", "a guillotine"),
    "revolution": Text("de révolution des titres", "a revolution of the titles"),
}
EVENT_SHORT = {
    "putsch": Text("putsch", "putsch"),
    "jeu_blanc": Text("jeu blanc", "jeu blanc"),
    "coup_detat": Text("coup d’État", "coup d’État"),
    "guillotine": Text("guillotine", "guillotine"),
    "revolution": Text("révolution", "revolution"),
}
#: « a fini sur un 2 »: the verb, then the word before the card.
FINISH_VERBS = frozenset(
    [
        "fini",
        "finit",
        "finie",
        "finis",
        "finies",
        "termine",
        "terminee",
        "termines",
        "sorti",
        "sortie",
        "sortis",
        "sort",
        "finished",
        "ended",
        "went",
        "goes",
        "gone",
        "out",
    ]
)
ON = frozenset({"sur", "avec", "par", "on", "with"})
FORBIDDEN_SAID = (("carte", "interdite"), ("forbidden", "card"), ("interdit",), ("interdite",))
#: What each forbidden finish of the engine (:meth:`Rules.forbidden_finishes`) is said as.
FORBIDDEN_RANK = {"two": Rank.TWO, "franck": Rank.TWO, "ace": Rank.ACE}
FORBIDDEN_JOKER = frozenset({"joker", "jokers"})


def phrase_atoms(text: str) -> tuple[str, ...]:
    """A phrase as the line's words' atoms: folded, cut at spaces, hyphens, apostrophes."""
    return tuple(a for a in fold(text).replace("-", " ").replace("'", " ").split() if a)


def said_atoms(said: Sequence[Word], i: int, j: int) -> tuple[str, ...]:
    return tuple(a.replace("'", "") for w in said[i:j] for a in w.parts)


#: Each collection of phrases :func:`match` was asked about (by identity: the grammar's
#: own tables and the titles of a game, kept for the process) as a set, and the atoms its
#: phrases start with.
_INDEXED: dict[int, tuple[object, frozenset[tuple[str, ...]], frozenset[str]]] = {}


def _indexed(phrases: Iterable[tuple[str, ...]]) -> tuple[frozenset[tuple[str, ...]], frozenset[str]]:
    known = _INDEXED.get(id(phrases))
    if known is None or known[0] is not phrases:
        wanted = frozenset(phrases)
        known = _INDEXED[id(phrases)] = (phrases, wanted, frozenset(p[0].replace("'", "") for p in wanted if p))
    return known[1], known[2]


def match(
    said: Sequence[Word], i: int, phrases: Iterable[tuple[str, ...]], longest: int = 5
) -> tuple[tuple[str, ...], int] | None:
    """The longest phrase of ``phrases`` said from ``said[i]`` on (whole words, none after
    a stop but the first), and how many words it takes."""
    wanted, firsts = _indexed(phrases)
    if i >= len(said) or not firsts.intersection(said[i].parts[:1] or (said[i].key,)):
        return None
    best = None
    for j in range(i + 1, min(len(said), i + longest) + 1):
        if j - 1 > i and said[j - 1].after_stop:
            break
        atoms = said_atoms(said, i, j)
        if atoms in wanted:
            best = (atoms, j - i)
    return best


# ---------------------------------------------------------------------------- titles


@lru_cache(maxsize=64)
def title_places(n: int, rules: Rules) -> tuple[dict[tuple[str, ...], int], dict[int, Text], set[tuple[str, ...]]]:
    """How each title is said → its place (0 = the first out), for ``n`` players: the
    engine's names for this game first, then the other naming's where they do not clash
    (seed 000: « Premier Ministre (ou Vice-Président) », « Balayeur (ou Trou du Cul) »);
    the engine's names by place; and every title said at other sizes (so that « ministre »
    at 4 players is a title this game does not have, not a name)."""

    def spellings(name: Text) -> list[tuple[str, ...]]:
        out = []
        for lang in ("fr", "en"):
            key = " ".join(phrase_atoms(name.get(lang)))
            out.append(phrase_atoms(key))
            extra = SAID_TOO.get(key + ("#en" if lang == "en" else ""), ()) or SAID_TOO.get(key, ())
            out.extend(phrase_atoms(s) for s in extra)
            if key.startswith("citoyen "):
                out.append(phrase_atoms(key.replace("citoyen", "citoyenne")))
        return out

    own = title_names(n, rules.game, rules.titles, None, rules.preset)
    places: dict[tuple[str, ...], int] = {}
    layers = [own]
    for naming in ("classic", "balayeur"):
        for game in (rules.game, "piketty" if rules.game != "piketty" else "president"):
            layers.append(title_names(n, game, naming))
    for layer in layers:
        found: dict[tuple[str, ...], int] = {}
        for place, name in enumerate(layer):
            for atoms in spellings(name):
                if atoms not in places:
                    found.setdefault(atoms, place)
        places |= found
    every: set[tuple[str, ...]] = set()
    for m in range(3, 13):
        for naming in ("classic", "balayeur"):
            for game in ("president", "piketty"):
                for name in title_names(m, game, naming):
                    every.update(spellings(name))
    return places, dict(enumerate(own)), every
