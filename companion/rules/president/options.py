"""Le Président's options: :class:`Rules`, the named presets, the deck and the order of ranks.

A :class:`Rules` is read from the API's ``rules`` object (:meth:`Rules.from_options`,
checked and remembered); it knows the cards in play for a number of players, the order
of the ranks, and which last cards rank a player last.  The strength of a rank in that
order (:func:`rank_value`) and of a five-card Franckie (``franck``) live here too: the
forbidden finishes read them, and :mod:`~companion.rules.president.combinations` builds
on them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from companion.rules.cards import (
    Card,
    Deck,
    Rank,
    Suit,
    parse_cards,  # noqa: F401  (read by the doctests)
)
from companion.rules.i18n import RulesError, Text

PRESETS: tuple[str, ...] = ("angevin", "wizz", "franck", "tarot")
GAMES: tuple[str, ...] = ("president", "piketty")
TITLE_NAMINGS: tuple[str, ...] = ("classic", "balayeur")
#: How many 52-card decks and jokers a table may play with.
DECKS: range = range(1, 5)
JOKERS: range = range(0, 3)
#: How many cards make a revolution: 4, or with several decks 7 or 8.
REVOLUTION_SIZES: tuple[int, ...] = (4, 7, 8)

#: What each preset switches on (explicit options override it).
PRESET_OPTIONS: Mapping[str, Mapping[str, object]] = {
    "angevin": {"revolution": True},
    "wizz": {"revolution": True},
    "franck": {},
    "tarot": {"revolution": True},
}

#: Ranks removed from the 32-card deck (the 30 cards of three players are the 32 less
#: two leftovers set aside, see :meth:`Rules.deck`).
_REDUCED_WITHOUT = (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX)
_PIKETTY_WITHOUT = (Rank.THREE, Rank.FOUR, Rank.FIVE)
_PIKETTY_TWO_DECKS_WITHOUT = (Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN)

_ORDER_PRESIDENT = (
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
    Rank.TWO,
)
_ORDER_ANGEVIN = (Rank.TWO, *_ORDER_PRESIDENT[:-1])
_ORDER_REDUCED = (Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.SEVEN)


def _option_error(option: str, fr: str, en: str) -> RulesError:
    return RulesError(Text(fr, en), field=f"rules.{option}")


@dataclass(frozen=True)
class Rules:
    """The options of a Président (or Piketty) table; field names are RULES.md's option ids.

    ``jokers`` is the number of jokers in the game (0, 1 or 2, whatever the number of
    decks): with one joker, ``RJ`` or ``BJ`` may be written for it; with two, there is
    one red and one black.  ``points``, ``target``, ``schedule`` and ``titles`` are the
    group's scoring settings (used by :mod:`companion.rules.president_outcome`).

    >>> Rules.from_options({"preset": "wizz"}).revolution
    True
    >>> Rules.from_options({"twos_cut": True, "jokers": 2}).game
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: Les 2 qui coupent ne se jouent pas avec des jokers.
    """

    game: str = "president"
    preset: str | None = None
    decks: int = 1
    reduced: bool = False
    jokers: int = 0
    more_cards: bool = False
    passe: bool = False
    passe_breakers: bool = False
    joker_no_finish: bool = False
    joker_exchangeable: bool = False
    joker_wild: bool = False
    runs: bool = False
    tabula_rasa: bool = False
    twos_cut: bool = False
    revolution: bool = False
    revolution_size: int = 4
    revolution_on_triple_5_6: bool = False
    revolution_persists: bool = False
    revolution_swaps_titles: bool = False
    coup_detat: bool = False
    guillotine: bool = False
    putsch: bool = False
    jeu_blanc: bool = False
    eight_clears: bool = False
    rapidity: bool = False
    liar: bool = False
    piketty_two_decks: bool = False
    points: bool = True
    target: int = 25
    schedule: tuple[int, ...] | None = None
    titles: str = "classic"

    @classmethod
    def from_options(cls, options: Mapping[str, object] | None, game: str = "president") -> Rules:
        """From the API's ``rules`` object (``{"preset": name, option: value}``).

        A preset sets its bundle and explicit options override it.  An unknown option or
        preset, a value of the wrong type, or a combination that is incompatible or means
        nothing raises :class:`RulesError` with ``field="rules.<option>"``.

        >>> Rules.from_options({"preset": "angevin", "revolution": False}).revolution
        False
        >>> Rules.from_options({"passe_breakers": True})
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Les cartes qui cassent la passe demandent la règle de la passe.
        >>> Rules.from_options({"colour": True}).game
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Option inconnue : « colour ».
        """
        key = _options_key(options, game) if cls is Rules else None
        if key is not None:
            known = _KNOWN_RULES.get(key)
            if known is not None:
                return known
        rules = cls._from_options(options, game)
        if key is not None:
            if len(_KNOWN_RULES) >= _KNOWN_RULES_MAX:
                _KNOWN_RULES.clear()
            _KNOWN_RULES[key] = rules
        return rules

    @classmethod
    def _from_options(cls, options: Mapping[str, object] | None, game: str) -> Rules:
        if game not in GAMES:
            raise RulesError(Text(f"Jeu inconnu : « {game} ».", f"Unknown game: '{game}'."), field="game")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RulesError(Text("Les règles doivent être un objet.", "The rules must be an object."), field="rules")
        values: dict[str, Any] = {"game": game}
        preset = options.get("preset")
        if preset is not None:
            if not isinstance(preset, str) or preset not in PRESETS:
                shown = preset if isinstance(preset, str) else repr(preset)
                raise _option_error("preset", f"Variante inconnue : « {shown} ».", f"Unknown preset: '{shown}'.")
            if game == "piketty":
                raise _option_error(
                    "preset", "Le Piketty ne se joue pas avec une variante.", "Piketty is played without a preset."
                )
            values["preset"] = preset
            values.update(PRESET_OPTIONS[preset])
        known = {f.name: f for f in fields(cls)}
        for name, value in options.items():
            if name == "preset":
                continue
            if not isinstance(name, str) or name not in known or name == "game":
                raise _option_error(str(name), f"Option inconnue : « {name} ».", f"Unknown option: '{name}'.")
            values[name] = _option_value(name, value)
        rules = cls(**values)
        rules._validate(set(options))
        return rules

    def _validate(self, given: set[str]) -> None:
        """Refuse combinations that are incompatible or mean nothing."""

        def need(ok: bool, option: str, fr: str, en: str) -> None:
            if not ok:
                raise _option_error(option, fr, en)

        need(self.decks in DECKS, "decks", "On joue avec 1 à 4 jeux.", "Play with 1 to 4 decks.")
        need(self.jokers in JOKERS, "jokers", "On joue avec 0, 1 ou 2 jokers.", "Play with 0, 1 or 2 jokers.")
        need(self.target >= 1, "target", "Le score à atteindre doit être positif.", "The target must be positive.")
        need(
            self.titles in TITLE_NAMINGS,
            "titles",
            "Les titres sont « classic » ou « balayeur ».",
            "Titles are 'classic' or 'balayeur'.",
        )
        if self.schedule is not None:
            need(
                all(k >= 1 for k in self.schedule),
                "schedule",
                "Chaque échange porte sur au moins une carte.",
                "Each exchange is of at least one card.",
            )
        piketty = self.game == "piketty"
        if piketty:
            for option in ("decks", "reduced"):
                need(
                    option not in given,
                    option,
                    "Au Piketty, le jeu dépend du nombre de joueurs.",
                    "In Piketty the deck follows from the number of players.",
                )
            need(self.jokers == 0, "jokers", "Le Piketty se joue sans joker.", "Piketty is played without jokers.")
        else:
            need(
                not self.piketty_two_decks,
                "piketty_two_decks",
                "Cette option est celle du Piketty.",
                "This option belongs to Piketty.",
            )
        if self.preset in ("angevin", "wizz", "franck", "tarot"):
            need(self.jokers == 0, "jokers", "Cette variante se joue sans joker.", "This preset has no jokers.")
        if self.preset == "tarot":
            need(
                self.decks == 1 and not self.reduced,
                "decks" if self.decks != 1 else "reduced",
                "Le Président au tarot se joue avec un seul jeu de tarot.",
                "Tarot Président is played with one tarot deck.",
            )
        if self.reduced:
            need(self.decks == 1, "reduced", "Le jeu de 32 cartes est un seul jeu.", "The 32-card deck is one deck.")
        need(
            not (self.twos_cut and self.jokers),
            "twos_cut",
            "Les 2 qui coupent ne se jouent pas avec des jokers.",
            "Twos cut cannot be played with jokers.",
        )
        need(
            not (self.twos_cut and (self.preset == "angevin" or self.reduced)),
            "twos_cut",
            "Ici le 2 n’est pas la plus forte carte.",
            "Here the 2 is not the highest card.",
        )
        need(
            not self.passe_breakers or self.passe,
            "passe_breakers",
            "Les cartes qui cassent la passe demandent la règle de la passe.",
            "Passe breakers need the passe rule.",
        )
        for option in ("joker_no_finish", "joker_exchangeable", "joker_wild"):
            need(
                not getattr(self, option) or self.jokers > 0,
                option,
                "Cette option demande des jokers.",
                "This option needs jokers.",
            )
        need(
            not self.coup_detat or self.jokers > 0,
            "coup_detat",
            "Le coup d’État demande des jokers.",
            "The coup d’État needs jokers.",
        )
        need(
            not self.guillotine or self.jokers == 2,
            "guillotine",
            "La guillotine demande deux jokers.",
            "The guillotine needs two jokers.",
        )
        for option in ("revolution_on_triple_5_6", "revolution_persists", "revolution_swaps_titles"):
            need(
                not getattr(self, option) or self.revolution,
                option,
                "Cette option demande la révolution.",
                "This option needs the revolution.",
            )
        if self.revolution_size != 4 or "revolution_size" in given:
            need(
                self.revolution or "revolution_size" not in given,
                "revolution_size",
                "Cette option demande la révolution.",
                "This option needs the revolution.",
            )
            need(
                self.revolution_size == REVOLUTION_SIZES[0]
                or (self.revolution_size in REVOLUTION_SIZES and self.decks >= 2),
                "revolution_size",
                "La révolution se fait à 4 cartes, ou à 7 ou 8 avec plusieurs jeux.",
                "The revolution takes 4 cards, or 7 or 8 with several decks.",
            )

    def __hash__(self) -> int:
        # Rules key the engine's caches (decks, rank counts), looked up several times for
        # each move: the hash of the fields (what == compares) is computed once.
        kept: int | None = self.__dict__.get("_hash")
        if kept is None:
            kept = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", kept)
        return kept

    def __getstate__(self) -> dict[str, Any]:
        # A kept hash is this process's: strings hash differently in another one.
        return {key: value for key, value in self.__dict__.items() if key != "_hash"}

    # --- the cards -------------------------------------------------------------------

    def check_players(self, n: int) -> None:
        """Raise :class:`RulesError` (``field="state.players"``) when ``n`` players cannot play.

        Président: 3 and up (the 32-card deck: 3 or 4; ``tabula_rasa``: 5 and up;
        never more players than cards).  Piketty: 4 to 9.

        >>> Rules(reduced=True).check_players(5)
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Le jeu de 32 cartes se joue à 3 ou 4.
        """

        def need(ok: bool, fr: str, en: str) -> None:
            if not ok:
                raise RulesError(Text(fr, en), field="state.players")

        if self.game == "piketty":
            need(4 <= n <= 9, "Le Piketty se joue de 4 à 9 joueurs.", "Piketty is played by 4 to 9 players.")
            return
        need(n >= 3, "Le Président se joue à partir de 3 joueurs.", "Président needs at least 3 players.")
        if self.reduced:
            need(n in (3, 4), "Le jeu de 32 cartes se joue à 3 ou 4.", "The 32-card deck is for 3 or 4 players.")
        if self.tabula_rasa:
            need(n >= 5, "Le tabula rasa se joue à partir de 5 joueurs.", "Tabula rasa needs at least 5 players.")
        need(
            n <= self.deck(n).size,
            "Il y a plus de joueurs que de cartes.",
            "There are more players than cards.",
        )

    def deck_count(self, n_players: int) -> int:
        """How many decks are shuffled together (Piketty: two from 6 players, or with ``piketty_two_decks``)."""
        if self.game == "piketty":
            return 2 if n_players >= 6 or self.piketty_two_decks else 1
        return self.decks

    def deck(self, n_players: int) -> Deck:
        """The cards in play for ``n_players`` players.

        Président: ``decks`` 52-card decks (7 to A only with ``reduced``: 32 cards; at three
        players two of them are the leftovers set aside, leaving the seed's 30), plus
        ``jokers``; the ``tarot`` preset: the 52 suit cards of a tarot deck (the
        Cavaliers cannot be written in the notation), the 21 trumps and the Excuse.
        Piketty: 4–5 players one deck without 3, 4, 5 (40 cards), or with
        ``piketty_two_decks`` two decks without 3 to 7 (64); 6–7 two decks without 3, 4,
        5 (80); 8–9 two full decks (104).

        >>> [Rules(game="piketty").deck(n).size for n in (4, 6, 8)]
        [40, 80, 104]
        >>> Rules(reduced=True).deck(3).size, Rules(preset="tarot").deck(4).size
        (32, 74)
        """
        return _build_deck(self, n_players)

    def _deck(self, n_players: int) -> Deck:
        if self.game == "piketty":
            if n_players >= 8:
                return Deck.french(decks=2)
            if n_players >= 6:
                return Deck.french(decks=2, without=_PIKETTY_WITHOUT)
            if self.piketty_two_decks:
                return Deck.french(decks=2, without=_PIKETTY_TWO_DECKS_WITHOUT)
            return Deck.french(decks=1, without=_PIKETTY_WITHOUT)
        if self.preset == "tarot":
            counts = dict(Deck.french().counts)
            counts.update({Card(trump=t): 1 for t in range(22)})
            return Deck(counts)
        return Deck.french(
            decks=self.decks,
            jokers=self.jokers,
            without=_REDUCED_WITHOUT if self.reduced else (),
            jokers_any_colour=self.jokers == 1,
        )

    def rank_order(self) -> tuple[Rank, ...]:
        """The ranks from lowest to highest before any revolution.

        >>> Rules(reduced=True).rank_order()[-1], Rules(preset="angevin").rank_order()[-1]
        (<Rank.SEVEN: '7'>, <Rank.ACE: 'A'>)
        """
        if self.reduced:
            return _ORDER_REDUCED
        if self.preset == "angevin":
            return _ORDER_ANGEVIN
        return _ORDER_PRESIDENT

    @property
    def top_rank(self) -> Rank:
        """The highest rank in the normal order (2; 7 with ``reduced``; A for ``angevin``)."""
        return self.rank_order()[-1]

    def forbidden_finish(self, cards: Sequence[Card]) -> bool:
        """Whether going out by laying ``cards`` ranks the player last.

        ``twos_cut``: a 2; ``joker_no_finish``: a joker; ``angevin``: an A; ``franck``: a 2
        unless inside a Franckie (a five-card poker play); Piketty: a 2; ``joker_wild``:
        jokers shown as one's last cards (:meth:`jokers_shown`).

        >>> Rules(game="piketty").forbidden_finish([Card.parse("2h")])
        True
        >>> Rules(preset="franck").forbidden_finish([Card.parse(c) for c in "2h 2s 2c 9d 9h".split()])
        False
        >>> Rules().forbidden_finish([Card.parse("2h")])
        False
        >>> Rules(jokers=2, joker_wild=True).forbidden_finish([Card.parse("RJ"), Card.parse("BJ")])
        True
        """
        finishes = self.forbidden_finishes()
        if "jokers" in finishes and self.jokers_shown(cards):
            return True
        has = {c.rank for c in cards if c.rank is not None}
        if "joker" in finishes and any(c.is_joker for c in cards):
            return True
        if "ace" in finishes and Rank.ACE in has:
            return True
        if "franck" in finishes and Rank.TWO in has:
            return _franckie(list(cards), self, False) is None
        return "two" in finishes and Rank.TWO in has

    def forbidden_finishes(self) -> tuple[str, ...]:
        """What going out on ranks the player last under these rules (:meth:`forbidden_finish`),
        by id, for a screen to word: ``two`` (a 2: ``twos_cut``, Piketty), ``franck`` (a 2
        outside a Franckie), ``ace`` (angevin), ``joker`` (``joker_no_finish``), ``jokers``
        (``joker_wild``: only jokers left).

        >>> Rules(game="piketty").forbidden_finishes(), Rules().forbidden_finishes()
        (('two',), ())
        >>> Rules(preset="angevin", jokers=2, joker_no_finish=True).forbidden_finishes()
        ('ace', 'joker')
        """
        finishes = []
        if self.twos_cut or self.game == "piketty":
            finishes.append("two")
        if self.preset == "franck":
            finishes.append("franck")
        if self.preset == "angevin":
            finishes.append("ace")
        if self.joker_no_finish:
            finishes.append("joker")
        if self.joker_wild:
            finishes.append("jokers")
        return tuple(finishes)

    def jokers_shown(self, cards: Sequence[Card]) -> bool:
        """Whether laying ``cards`` is the ``joker_wild`` dead end: nothing but jokers.

        RULES.md §1: with ``joker_wild`` a joker never plays alone, so a player left
        holding only jokers can never play them: he shows them as his last cards (a
        :class:`Play` of only jokers with ``last``), is out at once and finishes last,
        as with a forbidden finish.  The jokers do not go on the trick.

        >>> rules = Rules(jokers=2, joker_wild=True)
        >>> rules.jokers_shown(parse_cards("RJ")), rules.jokers_shown(parse_cards("9h RJ"))
        (True, False)
        >>> Rules(jokers=2).jokers_shown(parse_cards("RJ"))
        False
        """
        return self.joker_wild and bool(cards) and all(c.is_joker for c in cards)


@lru_cache(maxsize=256)
def _build_deck(rules: Rules, n_players: int) -> Deck:
    """:meth:`Rules.deck`, cached: a deck is an immutable value fixed by the rules and player count."""
    return rules._deck(n_players)


_INT_OPTIONS = ("decks", "jokers", "revolution_size", "target")

#: Rules already read from an options object, by :func:`_options_key` (bounded): a
#: table's rules come back with every move, and a Rules is an immutable value.
_KNOWN_RULES: dict[tuple[object, ...], Rules] = {}
_KNOWN_RULES_MAX = 256


def _options_key(options: object, game: object) -> tuple[object, ...] | None:
    """What :meth:`Rules.from_options` reads of ``options`` and ``game``, as a key that
    tells ``True`` from ``1`` (None when a value is not a plain scalar: not kept)."""
    if type(game) is not str:
        return None
    if options is None:
        return (game,)
    if not isinstance(options, dict):
        return None
    key: list[object] = [game]
    for name, value in options.items():
        if type(name) is not str or (value is not None and type(value) not in (str, bool, int)):
            return None
        key.append((name, type(value), value))
    return tuple(key)


def _option_value(name: str, value: object) -> object:
    """Type-check one option's value as read from JSON."""
    if name in _INT_OPTIONS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _option_error(name, "Un nombre entier est attendu.", "A whole number is expected.")
        return value
    if name == "schedule":
        if value is None:
            return None
        if not isinstance(value, list | tuple) or any(isinstance(k, bool) or not isinstance(k, int) for k in value):
            raise _option_error(name, "Une liste de nombres est attendue.", "A list of numbers is expected.")
        return tuple(value)
    if name == "titles":
        if not isinstance(value, str):
            raise _option_error(name, "Un nom de titres est attendu.", "A title naming is expected.")
        return value
    if not isinstance(value, bool):
        raise _option_error(name, "Oui ou non (true / false) est attendu.", "true or false is expected.")
    return value


# --- the strength of ranks -----------------------------------------------------------

_SUIT_INDEX = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}


def rank_value(rank: Rank, rules: Rules, reversed_: bool = False) -> int:
    """A rank's strength: its place in the order, negated after a revolution.

    >>> rank_value(Rank.TWO, Rules()) > rank_value(Rank.ACE, Rules())
    True
    >>> rank_value(Rank.TWO, Rules(), reversed_=True) > rank_value(Rank.THREE, Rules(), reversed_=True)
    False
    """
    order = rules.rank_order()
    value = order.index(rank) if rank in order else -1
    return -value if reversed_ else value


def _franckie(cards: Sequence[Card], rules: Rules, reversed_: bool) -> tuple[int, ...] | None:
    """The strength of a five-card poker play (``franck``), or ``None``.

    Straight flush 5 > quad + any card 4 > full house 3 > flush 2 > straight 1; then
    the category's ranking; the suit order ♣ < ♦ < ♥ < ♠ settles exact ties.
    """
    if len(cards) != 5 or any(c.rank is None or c.suit is None for c in cards):
        return None

    def value(c: Card) -> int:
        return rank_value(c.rank, rules, reversed_) if c.rank is not None else 0

    def suit(c: Card) -> int:
        return _SUIT_INDEX[c.suit] if c.suit is not None else 0

    by_value = sorted(cards, key=lambda c: (value(c), suit(c)), reverse=True)
    values = [value(c) for c in by_value]
    counts = Counter(values)
    flush = len({c.suit for c in cards}) == 1
    straight = len(counts) == 5 and values[0] - values[-1] == 4
    top = by_value[0]
    if straight and flush:
        return (5, values[0], suit(top))
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        quad = max(counts, key=lambda v: counts[v])
        return (4, quad, max(suit(c) for c in cards if value(c) == quad))
    if shape == [3, 2]:
        triple = max(counts, key=lambda v: counts[v])
        pair = min(counts, key=lambda v: counts[v])
        return (3, triple, pair, max(suit(c) for c in cards if value(c) == triple))
    if flush:
        return (2, *values, suit(top))
    if straight:
        return (1, values[0], suit(top))
    return None
