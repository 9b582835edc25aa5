"""Le Président / Trou du cul (seed 000) and its variante Piketty (seed 001): the play.

shared/RULES.md §1 and §2.  A :class:`Rules` holds the group's options (named presets
bundle some); a :class:`Table` is the public state of a manche (players, who is out,
the current trick) and judges a :class:`Play` with :meth:`Table.check`, which returns
a :class:`Verdict` and never raises for an illegal move.

>>> rules = Rules.from_options({})
>>> table = Table.start(["Ann", "Bob", "Cid", "Dan"], rules).apply(Play.parse("Ann", "9h"))
>>> table.check(Play.parse("Bob", "8c")).reason.fr
'Il faut jouer plus haut que 9.'
>>> table.check(Play.parse("Bob", "10c")).legal
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import lru_cache
from itertools import combinations, product
from typing import Any, TypedDict, Unpack

from companion.rules.cards import Card, Deck, Rank, Suit, format_cards, parse_cards
from companion.rules.i18n import RulesError, Text

__all__ = [
    "PRESETS",
    "Combination",
    "Effect",
    "IllegalPlayError",
    "Kind",
    "Play",
    "RuleId",
    "Rules",
    "Table",
    "Verdict",
    "combination",
    "rank_value",
]

PRESETS: tuple[str, ...] = ("angevin", "wizz", "franck", "tarot")
GAMES: tuple[str, ...] = ("president", "piketty")
TITLE_NAMINGS: tuple[str, ...] = ("classic", "balayeur")

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

        need(1 <= self.decks <= 4, "decks", "On joue avec 1 à 4 jeux.", "Play with 1 to 4 decks.")
        need(0 <= self.jokers <= 2, "jokers", "On joue avec 0, 1 ou 2 jokers.", "Play with 0, 1 or 2 jokers.")
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
                self.revolution_size == 4 or (self.revolution_size in (7, 8) and self.decks >= 2),
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
        if self.jokers_shown(cards):
            return True
        has = {c.rank for c in cards if c.rank is not None}
        if self.joker_no_finish and any(c.is_joker for c in cards):
            return True
        if self.preset == "angevin" and Rank.ACE in has:
            return True
        if self.preset == "franck" and Rank.TWO in has:
            return _franckie(list(cards), self, False) is None
        return (self.twos_cut or self.game == "piketty") and Rank.TWO in has

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


# --- moves and verdicts ----------------------------------------------------------------


class RuleId(StrEnum):
    """Why a move is refused: the ids of shared/API.md, plus the variants' own.

    ``lead`` (the player who leads may not pass) and ``call`` (``liar``: a "menteur"
    call with nothing to call) are this engine's additions.
    """

    TURN = "turn"
    COMBINATION = "combination"
    COUNT = "count"
    RANK = "rank"
    LOCKED = "locked"
    CLOSED = "closed"
    ACE = "ace"
    LEAD = "lead"
    CALL = "call"


class Effect(StrEnum):
    """What a legal move triggers (shared/API.md)."""

    TRICK_WON = "trick_won"
    REVOLUTION = "revolution"
    COUNTER_REVOLUTION = "counter_revolution"
    LOCK = "lock"
    SKIP = "skip"
    OUT = "out"
    FINISH_LAST = "finish_last"
    COUP_DETAT = "coup_detat"
    GUILLOTINE = "guillotine"


@dataclass(frozen=True)
class Play:
    """One player's move: cards laid (``last`` when they are his last ones), a pass, or a call.

    ``liar``: ``cards`` are the announced cards and ``laid`` the real ones (face down);
    ``call`` is a "menteur!" call on the last announced cards.

    >>> Play.parse("Ann", "9h 9s"), Play.passes("Bob")
    (Play.parse('Ann', '9h 9s'), Play.passes('Bob'))
    >>> str(Play.parse("Ann", "9h", last=True))
    'Ann: 9h (last)'
    """

    player: str
    cards: tuple[Card, ...] = ()
    last: bool = False
    laid: tuple[Card, ...] | None = None
    call: bool = False

    @classmethod
    def parse(
        cls, player: str, cards: str | Sequence[str], last: bool = False, laid: str | Sequence[str] | None = None
    ) -> Play:
        """A play from card notation (a space-separated string or a list)."""
        return cls(player, parse_cards(cards), last, None if laid is None else parse_cards(laid))

    @classmethod
    def from_json(cls, entry: object, players: Sequence[str], where: str = "move") -> Play:
        """A move (or trick entry) of the API: ``{"player", "cards", "last"?, "laid"?}``,
        ``{"player", "pass": true}`` or ``{"player", "call": true}``; RulesError under ``where``.

        >>> Play.from_json({"player": "Ann", "cards": "9h 9s"}, ["Ann", "Bob"])
        Play.parse('Ann', '9h 9s')
        >>> Play.from_json({"player": "Zoe", "pass": True}, ["Ann", "Bob"])
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Joueur inconnu : « Zoe ».
        """
        return _play_from_json(entry, players, where)

    @classmethod
    def passes(cls, player: str) -> Play:
        """``player`` passes."""
        return cls(player)

    @property
    def is_pass(self) -> bool:
        """No card laid and no call: a pass."""
        return not self.cards and not self.call

    def __str__(self) -> str:
        if self.call:
            return f"{self.player}: menteur"
        if self.is_pass:
            return f"{self.player}: pass"
        return f"{self.player}: {format_cards(self.cards)}{' (last)' if self.last else ''}"

    def __repr__(self) -> str:
        if self.is_pass:
            return f"Play.passes({self.player!r})"
        return f"Play.parse({self.player!r}, {format_cards(self.cards)!r})"


@dataclass(frozen=True)
class Verdict:
    """The judgement of a move: legal or not, why, and what it triggers.

    ``next_player`` is who acts once the move is made (``None`` when illegal or when
    the manche is over); ``skipped`` names the players who lose their turn (``skip``);
    ``pile_to`` (``liar``) names who takes the pile after a call.
    """

    legal: bool
    rule: RuleId | None = None
    reason: Text | None = None
    effects: tuple[Effect, ...] = ()
    next_player: str | None = None
    skipped: tuple[str, ...] = ()
    pile_to: str | None = None


class IllegalPlayError(RulesError):
    """:meth:`Table.apply` was given a move that :meth:`Table.check` refuses."""


# --- combinations ------------------------------------------------------------------


class Kind(StrEnum):
    """The families of combinations; a follower must lay the family of the trick."""

    SET = "set"  # n cards of one rank, or n consecutive tarot trumps
    RUN = "run"
    JOKER = "joker"
    EXCUSE = "excuse"
    FRANCKIE = "franckie"
    COUP_DETAT = "coup_detat"
    GUILLOTINE = "guillotine"


@dataclass(frozen=True)
class Combination:
    """What some cards form, and their strength in the order in force.

    ``key`` compares combinations of one kind (higher is stronger); ``rank`` is a set's
    rank (``None`` for tarot trumps); runs have ``width`` cards of each of ``length`` ranks.

    >>> combination(parse_cards("9h 9s"), Rules()).count, combination(parse_cards("9h 8s"), Rules())
    (2, None)
    """

    kind: Kind
    count: int
    key: tuple[int, ...]
    rank: Rank | None = None
    width: int = 1
    length: int = 1


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


def combination(cards: Sequence[Card], rules: Rules, reversed_: bool = False) -> Combination | None:
    """What ``cards`` form under ``rules`` (``None``: nothing playable).

    >>> combination(parse_cards("RJ"), Rules(jokers=2)).kind
    <Kind.JOKER: 'joker'>
    >>> combination(parse_cards("9h 10h Jh"), Rules(runs=True)).kind
    <Kind.RUN: 'run'>
    """
    if isinstance(cards, tuple):
        return _kept_combination(cards, rules, reversed_)
    return _combination(cards, rules, reversed_)


@lru_cache(maxsize=1024)
def _kept_combination(cards: tuple[Card, ...], rules: Rules, reversed_: bool) -> Combination | None:
    """:func:`combination`, kept: a move is judged against the same few card groups again
    and again (the trick's top, the play itself), and a combination is an immutable value."""
    return _combination(cards, rules, reversed_)


def _combination(cards: Sequence[Card], rules: Rules, reversed_: bool) -> Combination | None:
    n = len(cards)
    if n == 0:
        return None
    jokers = [c for c in cards if c.is_joker]
    trumps = [c for c in cards if c.trump is not None]
    naturals = [c for c in cards if c.rank is not None]
    ranks = {c.rank for c in naturals if c.rank is not None}
    sign = -1 if reversed_ else 1

    def a_set(rank: Rank | None, key: tuple[int, ...]) -> Combination:
        return Combination(Kind.SET, n, tuple(sign * k for k in key), rank)

    if trumps:
        if rules.preset != "tarot":
            return None
        if n == 1 and cards[0].is_excuse:
            return Combination(Kind.EXCUSE, 1, (0,))
        if any(c.is_excuse for c in trumps) or jokers:
            return None
        if not naturals:
            top = _trump_sequence(sorted(t.trump or 0 for t in trumps))
            return None if top is None else a_set(None, (1, top))
        wild = all(t.trump in (1, 21) for t in trumps)
        if len(ranks) == 1 and wild and n <= 4:
            (rank,) = ranks
            return a_set(rank, (0, rank_value(rank, rules)))
        return None
    if jokers:
        if rules.jokers == 0:
            return None
        counts = sorted(Counter(c.rank for c in naturals).values())
        if rules.guillotine and len(jokers) == 2 and counts == [4]:
            return Combination(Kind.GUILLOTINE, n, (0,))
        if rules.coup_detat and ((len(jokers) == 1 and counts == [4]) or (len(jokers) == 2 and counts == [3])):
            return Combination(Kind.COUP_DETAT, n, (0,))
        if rules.joker_wild:
            # RULES.md: a joker only completes a pair/triple/quad/quint of another rank.
            if len(ranks) == 1 and 2 <= n <= 5:
                (rank,) = ranks
                return a_set(rank, (0, rank_value(rank, rules)))
            return None
        if n == 1:
            red = cards[0].joker == "R" and rules.jokers == 2
            return Combination(Kind.JOKER, 1, (2 if red else 1,))
        return None
    if len(ranks) == 1:
        (rank,) = ranks
        most = 3 if rules.preset == "franck" else 4 * rules.decks
        if rules.game == "piketty":
            most = 8
        if n <= most:
            return a_set(rank, (0, rank_value(rank, rules)))
        return None
    if rules.preset == "franck" and n == 5:
        key = _franckie(naturals, rules, reversed_)
        if key is not None:
            return Combination(Kind.FRANCKIE, 5, key)
    if rules.runs:
        return _run(naturals, rules, reversed_)
    return None


def _trump_sequence(numbers: list[int]) -> int | None:
    """The top of the best run of consecutive trumps these make (T1 and T21 stand for any)."""
    n = len(numbers)
    if n == 1:
        return numbers[0]
    if n > 4 or len(set(numbers)) != n:
        return None
    for top in range(21, n - 1, -1):
        window = set(range(top - n + 1, top + 1))
        missing = len(window - set(numbers))
        fillers = sum(1 for t in numbers if t in (1, 21) and t not in window)
        strangers = sum(1 for t in numbers if t not in window and t not in (1, 21))
        if strangers == 0 and missing == fillers:
            return top
    return None


def _run(naturals: list[Card], rules: Rules, reversed_: bool) -> Combination | None:
    """A run of 3 or more consecutive ranks, each laid 1, 2 or 3 times (no 2, nor a power rank)."""
    counts = Counter(c.rank for c in naturals if c.rank is not None)
    widths = set(counts.values())
    if len(widths) != 1 or len(counts) < 3:
        return None
    (width,) = widths
    # RULES.md: 2s and jokers never sit inside a run, nor does the power rank where the
    # deck has one (the 7 of the 32-card deck); angevin has none, so Q K A is a run there.
    if width > 3 or Rank.TWO in counts or (rules.preset != "angevin" and rules.top_rank in counts):
        return None
    values = sorted(rank_value(r, rules, reversed_) for r in counts)
    if values[-1] - values[0] != len(values) - 1:
        return None
    return Combination(Kind.RUN, len(naturals), (values[-1],), None, width, len(values))


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


# --- sentences ---------------------------------------------------------------------

_FR_RANK_SINGLE = {Rank.JACK: "le valet", Rank.QUEEN: "la dame", Rank.KING: "le roi", Rank.ACE: "l’as"}
_FR_RANK_PLURAL = {Rank.JACK: "valets", Rank.QUEEN: "dames", Rank.KING: "rois", Rank.ACE: "as"}
_FR_RANK_ONE = {Rank.JACK: "un valet", Rank.QUEEN: "une dame", Rank.KING: "un roi", Rank.ACE: "un as"}
_EN_RANK_PLURAL = {Rank.JACK: "jacks", Rank.QUEEN: "queens", Rank.KING: "kings", Rank.ACE: "aces"}
_FR_GROUP = {2: "la paire", 3: "le brelan", 4: "le carré"}
_FR_GROUP_ONE = {2: "une paire", 3: "un brelan", 4: "un carré"}
_EN_GROUP = {2: "the pair of", 3: "the three", 4: "the four"}
_EN_GROUP_ONE = {2: "a pair of", 3: "three", 4: "four"}


def _plural(rank: Rank, lang: str) -> str:
    if lang == "en":
        return _EN_RANK_PLURAL.get(rank, f"{rank.value}s")
    return _FR_RANK_PLURAL.get(rank, rank.value)


def _the(combo: Combination) -> Text:
    """The combination on the table, as in « plus haut que {la paire de 9} »."""
    if combo.kind is Kind.SET and combo.rank is not None:
        rank, n = combo.rank, combo.count
        if n == 1:
            en = f"the {rank.name_in('en')}" if rank.is_face or rank is Rank.ACE else rank.value
            return Text(_FR_RANK_SINGLE.get(rank, rank.value), en)
        if n in _FR_GROUP:
            return Text(f"{_FR_GROUP[n]} de {_plural(rank, 'fr')}", f"{_EN_GROUP[n]} {_plural(rank, 'en')}")
        return Text(f"les {n} {_plural(rank, 'fr')}", f"the {n} {_plural(rank, 'en')}")
    if combo.kind is Kind.SET:
        top = abs(combo.key[-1])
        if combo.count == 1:
            return Text(f"l’atout {top}", f"trump {top}")
        return Text(f"les atouts jusqu’au {top}", f"the trumps up to {top}")
    if combo.kind is Kind.RUN:
        return Text("cette suite", "this run")
    if combo.kind is Kind.FRANCKIE:
        return Text("cette Franckie", "this Franckie")
    return Text("ce joker", "this joker")


def _a(combo: Combination) -> Text:
    """The same combination again, as in « il faut jouer {une paire de 3} »."""
    if combo.kind is Kind.SET and combo.rank is not None:
        rank, n = combo.rank, combo.count
        if n == 1:
            en = f"a {rank.name_in('en')}" if rank.is_face or rank is Rank.ACE else f"a {rank.value}"
            return Text(_FR_RANK_ONE.get(rank, f"un {rank.value}"), en)
        if n in _FR_GROUP_ONE:
            return Text(f"{_FR_GROUP_ONE[n]} de {_plural(rank, 'fr')}", f"{_EN_GROUP_ONE[n]} {_plural(rank, 'en')}")
        return Text(f"{n} {_plural(rank, 'fr')}", f"{n} {_plural(rank, 'en')}")
    return _the(combo)


def _cards(n: int) -> Text:
    if n == 1:
        return Text("une seule carte", "a single card")
    return Text(f"{n} cartes", f"{n} cards")


# --- the table ---------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The public state of a manche: who plays, who is out, the current trick.

    ``players`` are in turn order (Piketty: the hierarchy, Président first).  ``to_move``
    is who acts next (``None`` only before the first lead when anyone may lead, and
    once the manche is over).  ``over`` says the trick in ``trick`` is finished and
    ``to_move`` leads the next one.  ``top`` is the combination to beat, laid by
    ``last_player``; ``passed`` are the players who passed (or were skipped) since.

    Build one with :meth:`start` or :meth:`from_state`; :meth:`apply` returns a new one.

    >>> t = Table.start(["Ann", "Bob", "Cid"], Rules(), leader="Ann")
    >>> t = t.apply(Play.parse("Ann", "Qh")).apply(Play.passes("Bob"))
    >>> t.to_move, t.check(Play.passes("Cid")).effects
    ('Cid', (<Effect.TRICK_WON: 'trick_won'>,))
    """

    rules: Rules
    players: tuple[str, ...]
    out: tuple[str, ...] = ()
    reversed: bool = False
    trick: tuple[Play, ...] = ()
    to_move: str | None = None
    over: bool = False
    finished: bool = False
    last_player: str | None = None
    top: tuple[Card, ...] = ()
    lock: bool = False
    passed: frozenset[str] = frozenset()
    deck: Deck = field(default_factory=Deck.french, compare=False, repr=False)

    @classmethod
    def start(
        cls,
        players: Sequence[str],
        rules: Rules,
        *,
        out: Sequence[str] = (),
        reversed: bool = False,
        leader: str | None = None,
    ) -> Table:
        """A table about to lead a trick (``leader`` leads; by default whoever plays first).

        Raises :class:`RulesError` for an impossible player list.
        """
        players = tuple(players)
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise RulesError(
                Text("Chaque joueur a un nom, différent des autres.", "Each player needs a distinct name."),
                field="state.players",
            )
        rules.check_players(len(players))
        for i, p in enumerate(out):
            if p not in players or p in out[:i]:
                raise RulesError(Text(f"Joueur inconnu : « {p} ».", f"Unknown player: '{p}'."), field=f"state.out[{i}]")
        if leader is not None and (leader not in players or leader in out):
            raise RulesError(
                Text(f"« {leader} » ne peut pas entamer.", f"'{leader}' cannot lead."), field="state.leader"
            )
        table = cls(rules, players, tuple(out), reversed, to_move=leader, deck=rules.deck(len(players)))
        return _changed(table, finished=len(table.still_in) <= 1, to_move=None if len(table.still_in) <= 1 else leader)

    @classmethod
    def from_state(cls, state: object, rules: Rules) -> Table:
        """The table of the API's ``state`` (shared/API.md), the trick replayed and checked.

        Malformed or impossible states raise :class:`RulesError` naming the field
        (``state.trick[2].cards``…).  A player listed in ``out`` who lays cards in the
        trick went out with his last cards there.

        >>> state = {"players": ["Ann", "Bob", "Cid", "Dan"], "out": [], "reversed": False,
        ...          "trick": [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}]}
        >>> Table.from_state(state, Rules()).to_move
        'Cid'
        >>> Table.from_state(dict(state, trick=[{"player": "Ann", "cards": "7h 7h"}]), Rules())
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Il n’y a qu’un 7♥ dans le jeu.
        """
        if not isinstance(state, Mapping):
            raise RulesError(Text("L’état de la table est un objet.", "The state must be an object."), field="state")
        players = state.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RulesError(
                Text("La liste des joueurs est attendue.", "The list of players is expected."), field="state.players"
            )
        out = state.get("out", [])
        if not isinstance(out, list):
            raise RulesError(Text("Une liste de joueurs est attendue.", "A list of players is expected."), "state.out")
        for i, p in enumerate(out):
            if not isinstance(p, str) or p not in players or p in out[:i]:
                raise RulesError(Text(f"Joueur inconnu : « {p} ».", f"Unknown player: '{p}'."), f"state.out[{i}]")
        reversed_ = state.get("reversed", False)
        if not isinstance(reversed_, bool):
            raise RulesError(
                Text("Oui ou non (true / false) est attendu.", "true or false is expected."), "state.reversed"
            )
        leader = state.get("leader")
        if leader is not None and (not isinstance(leader, str) or leader not in players):
            raise RulesError(Text(f"Joueur inconnu : « {leader} ».", f"Unknown player: '{leader}'."), "state.leader")
        entries = state.get("trick", [])
        if not isinstance(entries, list):
            raise RulesError(Text("Le pli est une liste.", "The trick must be a list."), field="state.trick")
        plays = [_play_from_json(e, players, f"state.trick[{i}]") for i, e in enumerate(entries)]
        # Players of `out` who lay cards in this trick went out with their last play in it.
        last_play = {p.player: i for i, p in enumerate(plays) if p.cards}
        out_before = [p for p in out if p not in last_play]
        table = _started(tuple(players), rules, tuple(out_before), reversed_, leader)
        seen: Counter[object] = Counter()
        for i, play in enumerate(plays):
            for k, card in enumerate(_real_cards(play)):
                key = _count_key(card, table.deck)
                seen[key] += 1
                if seen[key] > table.deck.limit(card):
                    where = "laid" if play.laid is not None else "cards"
                    raise RulesError(table.deck.too_many(card), field=f"state.trick[{i}].{where}[{k}]")
            if play.player in out and last_play.get(play.player) == i:
                play = replace(play, last=True)
            if play.last and play.player not in out:
                raise RulesError(
                    Text(
                        f"{play.player} a posé ses dernières cartes mais ne figure pas dans « out ».",
                        f"{play.player} went out but is not in 'out'.",
                    ),
                    field=f"state.trick[{i}].last",
                )
            problem = table._problem(play)
            if problem is not None:
                raise RulesError(
                    Text(f"Ce pli est impossible : {problem[1].fr}", f"This trick is impossible: {problem[1].en}"),
                    field=f"state.trick[{i}]",
                )
            table = table._advance(play)[0]
        return _changed(table, out=tuple(out))

    def to_state(self) -> dict[str, Any]:
        """The API's ``state`` of this table (shared/API.md): :meth:`from_state` reads it back.

        ``trick`` is the current trick (the one just over, while nobody has led the next);
        ``reversed`` is the order as it stood when that trick began, since replaying its
        plays lays its revolutions again; ``leader`` is given when the trick is empty and
        someone must lead; a player of ``out`` who went out in this trick has ``last`` on
        that play.

        >>> t = Table.start(["Ann", "Bob", "Cid"], Rules(revolution=True), leader="Bob")
        >>> t.to_state()
        {'players': ['Ann', 'Bob', 'Cid'], 'out': [], 'reversed': False, 'trick': [], 'leader': 'Bob'}
        >>> t = t.apply(Play.parse("Bob", "9h 9s 9c 9d"))
        >>> t.reversed, t.to_state()["reversed"], t.to_state()["trick"]
        (True, False, [{'player': 'Bob', 'cards': ['9h', '9s', '9c', '9d']}])
        >>> Table.from_state(t.to_state(), t.rules) == t
        True
        """
        flips = 0
        if self.rules.revolution and not self.rules.revolution_swaps_titles:
            for play in self.trick:
                combo = combination(play.cards, self.rules) if play.cards and not play.call else None
                if combo is not None and _revolution(combo, self.rules):
                    flips += 1
        went_out = {p.player: i for i, p in enumerate(self.trick) if p.cards and p.player in self.out}
        trick: list[dict[str, Any]] = []
        for i, play in enumerate(self.trick):
            entry: dict[str, Any] = {"player": play.player}
            if play.call:
                entry["call"] = True
            elif play.is_pass:
                entry["pass"] = True
            else:
                entry["cards"] = [str(c) for c in play.cards]
                if play.laid is not None:
                    entry["laid"] = [str(c) for c in play.laid]
                if went_out.get(play.player) == i:
                    entry["last"] = True
            trick.append(entry)
        state: dict[str, Any] = {
            "players": list(self.players),
            "out": list(self.out),
            "reversed": self.reversed != (flips % 2 == 1),
            "trick": trick,
        }
        if not self.trick and self.to_move is not None and not self.finished:
            state["leader"] = self.to_move
        return state

    # --- reading the state

    @property
    def still_in(self) -> tuple[str, ...]:
        """The players still holding cards, in turn order."""
        out = self.out
        return tuple(p for p in self.players if p not in out) if out else self.players

    @property
    def leading(self) -> bool:
        """Whether the next card play leads a new trick."""
        return self.over or not self.top

    def top_combination(self) -> Combination | None:
        """The combination to beat, in the order now in force (``None`` when leading)."""
        if self.leading:
            return None
        return combination(self.top, self.rules, self.reversed)

    def power_rank(self) -> Rank | None:
        """The rank that ends a trick at once: 2 (3 after a revolution; 7/8 in the 32-card game).

        None for ``angevin`` (an A is merely unbeatable) and ``tarot`` (trumps are higher).
        """
        if self.rules.preset in ("angevin", "tarot"):
            return None
        return _power_rank(self.rules, len(self.players), self.reversed)

    def copies(self, rank: Rank) -> int:
        """How many cards of ``rank`` the deck holds."""
        return _rank_copies(self.rules, len(self.players)).get(rank, 0)

    def _next_in(self, player: str, out: Sequence[str] | None = None) -> str | None:
        """The next player after ``player`` (clockwise) still holding cards."""
        out = self.out if out is None else out
        i = self.players.index(player)
        n = len(self.players)
        for k in range(1, n + 1):
            q = self.players[(i + k) % n]
            if q not in out:
                return q
        return None

    def _successor(self, winner: str, out: Sequence[str]) -> str | None:
        """Who leads when the trick's winner is out: the next player still in, or in
        Piketty the highest-titled player still in."""
        if winner not in out:
            return winner
        if self.rules.game == "piketty":
            return next((p for p in self.players if p not in out), None)
        return self._next_in(winner, out)

    # --- judging

    def check(self, play: Play) -> Verdict:
        """Judge ``play`` here; never raises for an illegal move (malformed input raises RulesError).

        >>> t = Table.start(["Ann", "Bob", "Cid"], Rules(), leader="Ann").apply(Play.parse("Ann", "2h"))
        >>> v = t.check(Play.parse("Bob", "3s"))
        >>> v.rule, v.reason.en
        (<RuleId.TURN: 'turn'>, 'The trick is over: Ann leads.')
        """
        self._validate(play)
        problem = self._problem(play)
        if problem is not None:
            return Verdict(False, problem[0], problem[1])
        table, effects, skipped, pile_to = self._advance(play)
        return Verdict(True, None, None, tuple(effects), table.to_move, skipped, pile_to)

    def is_legal(self, play: Play) -> bool:
        """Whether :meth:`check` accepts ``play``."""
        return self.check(play).legal

    def apply(self, play: Play) -> Table:
        """The table once ``play`` is made; :class:`IllegalPlayError` if it is not legal."""
        self._validate(play)
        problem = self._problem(play)
        if problem is not None:
            raise IllegalPlayError(problem[1], field="move")
        return self._advance(play)[0]

    def legal_plays(self, hand: Iterable[Card], player: str | None = None) -> list[Play]:
        """Every legal move of ``player`` (default: the one to move) holding ``hand``.

        Plays are distinct card multisets (a pair of 9s counts once per choice of suits),
        except runs, listed once per run of ranks (with the first cards of each rank in ``hand``);
        a pass comes first when it is legal.  For another player than the one to move,
        only the ``rapidity`` plays (and calls are never listed).

        >>> t = Table.start(["Ann", "Bob", "Cid"], Rules()).apply(Play.parse("Ann", "Kh"))
        >>> [str(p) for p in t.legal_plays(parse_cards("9s As 2c 2d"))]
        ['Bob: pass', 'Bob: As', 'Bob: 2c', 'Bob: 2d']
        """
        hand = list(hand)
        who = player if player is not None else self.to_move
        if who is None:
            raise ValueError("legal_plays needs a player when anyone may lead")
        plays = [Play.passes(who)] if self._problem(Play.passes(who)) is None else []
        for cards in _candidates(hand, self.rules):
            play = Play(who, cards, last=len(cards) == len(hand))
            if self._problem(play) is None:
                plays.append(play)
        return plays

    def _validate(self, play: Play) -> None:
        """Malformed moves: unknown player, or more copies of a card than the deck holds."""
        if play.player not in self.players:
            raise RulesError(
                Text(f"Joueur inconnu : « {play.player} ».", f"Unknown player: '{play.player}'."), field="move.player"
            )
        # Cards of a finished trick are still on the table (or in the discard): they
        # count, unless a "menteur" call sent the pile back into someone's hand.
        taken = bool(self.trick) and self.trick[-1].call
        on_table = [] if taken else [c for p in self.trick for c in _real_cards(p)]
        seen = Counter(_count_key(c, self.deck) for c in on_table)
        for i, card in enumerate(_real_cards(play)):
            key = _count_key(card, self.deck)
            seen[key] += 1
            if seen[key] > self.deck.limit(card):
                raise RulesError(self.deck.too_many(card), field=f"move.{'laid' if play.laid else 'cards'}[{i}]")

    def _problem(self, play: Play) -> tuple[RuleId, Text] | None:
        """The rule that forbids ``play`` with its reason, or ``None``; ``turn`` comes first."""
        if self.finished:
            return RuleId.TURN, Text("La manche est finie.", "The manche is over.")
        if play.player in self.out:
            return RuleId.TURN, Text(f"{play.player} n’a plus de cartes.", f"{play.player} has no cards left.")
        if play.call:
            return self._call_problem(play)
        if self._is_rapidity(play):
            return None
        if self.to_move is not None and play.player != self.to_move:
            if self.over:
                return RuleId.TURN, Text(
                    f"Le pli est fini : c’est à {self.to_move} d’entamer.", f"The trick is over: {self.to_move} leads."
                )
            return RuleId.TURN, Text(f"C’est à {self.to_move} de jouer.", f"It is {self.to_move}'s turn.")
        if self._shows_jokers(play):
            if play.last:
                return None  # RULES.md §1: left with only jokers, he shows them and is out
            return RuleId.COMBINATION, Text(
                "Un joker ne se joue pas seul : il complète une paire, un brelan, un carré ou un poker.",
                "A joker is not played alone: it completes a pair, three, four or five of a kind.",
            )
        if play.is_pass:
            if self.leading:
                return RuleId.LEAD, Text("Il faut entamer : on ne peut pas passer.", "You lead: you cannot pass.")
            return None
        combo = combination(play.cards, self.rules, self.reversed)
        if combo is None:
            return RuleId.COMBINATION, Text(
                "Ces cartes ne forment pas une combinaison jouable.", "These cards are not a playable combination."
            )
        top = self.top_combination()
        if top is None:
            return None
        return self._follow_problem(combo, top)

    def _follow_problem(self, combo: Combination, top: Combination) -> tuple[RuleId, Text] | None:
        """Why ``combo`` may not go on ``top`` (the trick goes on), or ``None``."""
        rules = self.rules
        if combo.kind in (Kind.COUP_DETAT, Kind.GUILLOTINE):
            return None  # seed 000: « Le coup d'État peut être posé n'importe quand »
        if top.kind is Kind.JOKER:
            if combo.kind is Kind.JOKER and combo.key > top.key:
                return None
            return RuleId.CLOSED, Text(
                "Seul le joker rouge se joue sur le joker noir.", "Only the red joker goes on the black joker."
            )
        if self.lock and combo.kind is Kind.JOKER and not rules.passe_breakers:
            return self._locked(top)
        if combo.kind in (Kind.EXCUSE, Kind.JOKER):
            return None
        power = self.power_rank()
        if top.kind is Kind.SET and top.rank is not None and top.rank is power:
            return RuleId.CLOSED, Text(
                f"Sur des {_plural(power, 'fr')}, seul un joker peut se jouer.",
                f"Only a joker goes on {_plural(power, 'en')}.",
            )
        if self.lock:
            if combo.kind is Kind.SET and combo.rank is top.rank and combo.count == top.count:
                return None
            breaker = combo.kind is Kind.SET and combo.rank is power and combo.count == top.count
            if rules.passe_breakers and breaker:
                return None
            return self._locked(top)
        grow = rules.more_cards or rules.preset == "wizz"
        same_shape = combo.kind is top.kind and (combo.width, combo.length) == (top.width, top.length)
        if not same_shape or (combo.kind is Kind.SET and (combo.rank is None) != (top.rank is None)):
            if combo.count != top.count and not (grow and combo.kind is Kind.SET is top.kind):
                return RuleId.COUNT, Text(f"Il faut jouer {_cards(top.count).fr}.", f"Play {_cards(top.count).en}.")
            if combo.kind is not Kind.SET or top.kind is not Kind.SET:
                return RuleId.COMBINATION, Text(
                    "Il faut jouer le même genre de combinaison.", "Play the same kind of combination."
                )
        if combo.kind is Kind.SET:
            if grow and combo.count < top.count:
                return RuleId.COUNT, Text(
                    f"Il faut jouer au moins {_cards(top.count).fr}.", f"Play at least {_cards(top.count).en}."
                )
            if not grow and combo.count != top.count:
                return RuleId.COUNT, Text(f"Il faut jouer {_cards(top.count).fr}.", f"Play {_cards(top.count).en}.")
        angevin = rules.preset == "angevin"
        if combo.key == top.key and combo.kind is Kind.SET and combo.rank is not None:
            if angevin and top.rank is Rank.ACE:
                return RuleId.ACE, Text("On ne peut pas mettre un as sur un as.", "No ace may go on an ace.")
            if rules.preset == "wizz" or ((rules.passe or rules.tabula_rasa or angevin) and combo.count == top.count):
                return None
        if angevin and top.kind is Kind.SET and top.rank is Rank.SEVEN:
            return None  # la chasse d'eau: anything of the count goes on 7s
        if combo.key > top.key:
            return None
        if self.reversed:
            return RuleId.RANK, Text(
                f"Révolution : il faut jouer plus bas que {_the(top).fr}.",
                f"Revolution: you must play lower than {_the(top).en}.",
            )
        return RuleId.RANK, Text(
            f"Il faut jouer plus haut que {_the(top).fr}.", f"You must play higher than {_the(top).en}."
        )

    @staticmethod
    def _locked(top: Combination) -> tuple[RuleId, Text]:
        """``passe``: the trick is locked on ``top``."""
        return RuleId.LOCKED, Text(
            f"Règle de la passe : il faut jouer {_a(top).fr} ou passer.",
            f"Passe rule: play {_a(top).en} or pass.",
        )

    def _shows_jokers(self, play: Play) -> bool:
        """``joker_wild``: ``play`` is nothing but jokers, shown face up (:meth:`Rules.jokers_shown`)."""
        if not self.rules.jokers_shown(play.cards):
            return False
        return play.laid is None or Counter(play.laid) == Counter(play.cards)

    def _is_rapidity(self, play: Play) -> bool:
        """``rapidity``: out of turn, the copies left of the rank just laid, before anyone covers it."""
        if not self.rules.rapidity or self.leading or not play.cards or play.player == self.last_player:
            return False
        top = self.top_combination()
        if top is None or top.kind is not Kind.SET or top.rank is None:
            return False
        if any(c.rank is not top.rank for c in play.cards):
            return False
        laid = sum(1 for p in self.trick for c in p.cards if c.rank is top.rank)
        return laid + len(play.cards) == self.copies(top.rank)

    def _call_problem(self, play: Play) -> tuple[RuleId, Text] | None:
        if not self.rules.liar:
            return RuleId.CALL, Text("On ne joue pas au Président-Menteur.", "This is not Président-Menteur.")
        if not self.top or self.last_player is None:
            return RuleId.CALL, Text("Il n’y a rien à contester.", "There is nothing to call.")
        if play.player == self.last_player:
            return RuleId.CALL, Text("On ne se traite pas soi-même de menteur.", "You cannot call yourself a liar.")
        return None

    # --- moving on

    def _advance(self, play: Play) -> tuple[Table, list[Effect], tuple[str, ...], str | None]:
        """The table after a legal ``play``, its effects, the players skipped, the pile's taker."""
        if play.call:
            return self._advance_call(play)
        if play.cards and self._shows_jokers(play):
            return self._after_jokers(play)
        table = self
        if table.leading and not play.is_pass:
            table = _changed(table, trick=(), over=False, top=(), last_player=None, lock=False, passed=frozenset())
        trick = (*table.trick, play)
        if play.is_pass:
            table = table._after_pass(play, trick)
            return table, [Effect.TRICK_WON] if table.over else [], (), None
        return table._after_cards(play, trick)

    def _after_pass(self, play: Play, trick: tuple[Play, ...]) -> Table:
        passed = self.passed | {play.player}
        last = self.last_player
        assert last is not None
        if self.rules.preset == "wizz":
            # The trick ends when the turn comes back to its last player.
            i, n = self.players.index(play.player), len(self.players)
            for k in range(1, n + 1):
                q = self.players[(i + k) % n]
                if q == last:
                    return self._won(trick, passed)
                if q not in self.out:
                    return _changed(self, trick=trick, passed=passed, to_move=q)
        if all(q in passed for q in self.still_in if q != last):
            return self._won(trick, passed)
        return _changed(self, trick=trick, passed=passed, to_move=self._next_in(play.player))

    def _after_jokers(self, play: Play) -> tuple[Table, list[Effect], tuple[str, ...], str | None]:
        """``joker_wild``: a player left holding only jokers shows them (RULES.md §1).

        He is out at once and ranked last, as with a forbidden finish (``out``,
        ``finish_last``).  His jokers do not go on the trick: its top and its last
        player stay as they were, and the turn moves on as after the pass of a player
        who leaves.  When he was to lead, the next player still in leads; when he was
        following, the trick goes on, and ends as usual when every other player still
        in has passed since its last play.
        """
        player = play.player
        out = (*self.out, player)
        effects = [Effect.OUT, Effect.FINISH_LAST]
        table = _changed(self, trick=(*self.trick, play), out=out)
        if len(table.still_in) <= 1:
            return _changed(table, over=True, finished=True, to_move=None), effects, (), None
        if self.leading:
            return _changed(table, to_move=self._next_in(player, out)), effects, (), None
        last = self.last_player
        assert last is not None
        if all(q in self.passed for q in table.still_in if q != last):
            effects.append(Effect.TRICK_WON)
            return _changed(table, over=True, to_move=self._successor(last, out)), effects, (), None
        return _changed(table, to_move=self._next_in(player, out)), effects, (), None

    def _won(self, trick: tuple[Play, ...], passed: frozenset[str]) -> Table:
        assert self.last_player is not None
        leader = self._successor(self.last_player, self.out)
        return _changed(self, trick=trick, passed=passed, over=True, to_move=leader)

    def _after_cards(
        self, play: Play, trick: tuple[Play, ...]
    ) -> tuple[Table, list[Effect], tuple[str, ...], str | None]:
        rules, player = self.rules, play.player
        combo = combination(play.cards, rules, self.reversed)
        assert combo is not None
        previous = self.top_combination()
        effects: list[Effect] = []
        out = self.out
        if play.last:
            out = (*out, player)
            effects.append(Effect.OUT)
            if rules.forbidden_finish(play.cards):
                effects.append(Effect.FINISH_LAST)
        table = _changed(self, trick=trick, out=out, top=play.cards, last_player=player, passed=frozenset())
        if combo.kind in (Kind.COUP_DETAT, Kind.GUILLOTINE):
            effects.insert(0, Effect(combo.kind.value))
            return _changed(table, over=True, finished=True, to_move=None), effects, (), None
        power = self.power_rank()
        ends = combo.kind is Kind.EXCUSE or (combo.kind is Kind.JOKER and (combo.key[0] == 2 or rules.jokers == 1))
        if combo.kind is Kind.SET and combo.rank is not None:
            cut_by_jokers = rules.jokers > 0 and not rules.joker_wild and not rules.twos_cut
            ends = ends or (combo.rank is power and not cut_by_jokers)
            ends = ends or (rules.eight_clears and combo.rank is Rank.EIGHT)
            if rules.tabula_rasa:
                laid = sum(1 for p in trick for c in p.cards if c.rank is combo.rank)
                at_once = sum(1 for c in play.cards if c.rank is combo.rank)
                ends = ends or (laid == self.copies(combo.rank) and at_once < laid)
        if rules.revolution and _revolution(combo, rules):
            if rules.revolution_swaps_titles:
                # RULES.md: *instead of* the cards, the hierarchy is reversed. The cards keep
                # their order; the titles swap at once, which ends the manche (as a coup
                # d'État does): what was left to play could no longer change them.
                effects.insert(0, Effect.REVOLUTION)
                return _changed(table, over=True, finished=True, to_move=None), effects, (), None
            table = _changed(table, reversed=not self.reversed)
            effects.append(Effect.REVOLUTION if table.reversed else Effect.COUNTER_REVOLUTION)
        same = (
            previous is not None
            and previous.kind is Kind.SET is combo.kind
            and previous.rank is not None
            and previous.rank is combo.rank
        )
        skips = 0
        locked = False
        if same and previous is not None:
            if rules.passe and combo.count == previous.count:
                locked = True
                effects.append(Effect.LOCK)
            if rules.preset == "angevin" and combo.count == previous.count:
                skips = 1
            if rules.preset == "wizz":
                skips = 1 + combo.count - previous.count
        table = _changed(table, lock=locked)
        if len(table.still_in) <= 1:
            return _changed(table, over=True, finished=True, to_move=None), effects, (), None
        if ends:
            effects.append(Effect.TRICK_WON)
            return _changed(table, over=True, to_move=self._successor(player, out)), effects, (), None
        skipped: list[str] = []
        nxt = table._next_in(player)
        # A player never skips himself, and each other player at most once (when the
        # player of the wizz just went out, the turn would otherwise keep coming round).
        while skips and nxt is not None and nxt != player and nxt not in skipped:
            skipped.append(nxt)
            skips -= 1
            nxt = table._next_in(nxt)
        if skipped:
            effects.append(Effect.SKIP)
        others = [q for q in table.still_in if q != player]
        if nxt == player or nxt is None or all(q in skipped for q in others):
            # Everyone else lost his turn: the turn comes back to the player who laid.
            effects.append(Effect.TRICK_WON)
            table = _changed(table, over=True, to_move=self._successor(player, out))
            return table, effects, tuple(skipped), None
        passed = frozenset(skipped) if rules.preset == "angevin" else frozenset()
        return _changed(table, to_move=nxt, passed=passed), effects, tuple(skipped), None

    def _advance_call(self, play: Play) -> tuple[Table, list[Effect], tuple[str, ...], str | None]:
        """``liar``: the last announced cards are turned over; whoever was wrong takes the pile."""
        liar = self.last_player
        assert liar is not None
        announced = next(p for p in reversed(self.trick) if p.cards and not self._shows_jokers(p))
        laid = announced.laid if announced.laid is not None else announced.cards
        lied = Counter(laid) != Counter(announced.cards)
        right, wrong = (play.player, liar) if lied else (liar, play.player)
        out = tuple(p for p in self.out if p != wrong)  # taking the pile brings a player back
        table = _changed(self, trick=(*self.trick, play), out=out, over=True)
        table = _changed(table, to_move=table._successor(right, out))
        return table, [Effect.TRICK_WON], (), wrong


class _TableChanges(TypedDict, total=False):
    out: tuple[str, ...]
    reversed: bool
    trick: tuple[Play, ...]
    to_move: str | None
    over: bool
    finished: bool
    last_player: str | None
    top: tuple[Card, ...]
    lock: bool
    passed: frozenset[str]


def _changed(table: Table, **changes: Unpack[_TableChanges]) -> Table:
    """``dataclasses.replace(table, **changes)`` without its generic cost: a table is
    copied several times per judged move (Table has no ``__post_init__`` to run)."""
    new = object.__new__(type(table))
    new.__dict__.update(table.__dict__)
    new.__dict__.update(changes)
    return new


@lru_cache(maxsize=256)
def _started(
    players: tuple[str, ...], rules: Rules, out: tuple[str, ...], reversed_: bool, leader: str | None
) -> Table:
    """:meth:`Table.start` (cached: a table is immutable, and a table of friends plays
    with the same players and rules all evening; an impossible one raises every time)."""
    return Table.start(players, rules, out=out, reversed=reversed_, leader=leader)


@lru_cache(maxsize=256)
def _rank_copies(rules: Rules, n_players: int) -> dict[Rank, int]:
    """How many cards of each rank the deck of ``n_players`` holds (cached: decks are fixed)."""
    deck = rules.deck(n_players)
    return {r: n for r in Rank if (n := sum(deck.limit(Card(rank=r, suit=s)) for s in Suit))}


@lru_cache(maxsize=256)
def _power_rank(rules: Rules, n_players: int, reversed_: bool) -> Rank:
    """:meth:`Table.power_rank` of a deck that has it (cached: fixed by the rules and player count)."""
    copies = _rank_copies(rules, n_players)
    order = [r for r in rules.rank_order() if copies.get(r)]
    return order[0] if reversed_ else order[-1]


def _revolution(combo: Combination, rules: Rules) -> bool:
    """A quad (``revolution_size`` cards), a Franckie quad, or with the option a triple of 5s or 6s."""
    if combo.kind is Kind.SET:
        if combo.count >= rules.revolution_size:
            return True
        return rules.revolution_on_triple_5_6 and combo.count == 3 and combo.rank in (Rank.FIVE, Rank.SIX)
    return combo.kind is Kind.FRANCKIE and combo.key[0] == 4 and rules.revolution_size == 4


def _real_cards(play: Play) -> tuple[Card, ...]:
    """The cards physically laid (``liar``: the face-down ones when known)."""
    return play.laid if play.laid is not None else play.cards


def _count_key(card: Card, deck: Deck) -> object:
    return "joker" if card.is_joker and deck.jokers_any_colour else card


def _candidates(hand: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Every distinct card multiset of ``hand`` that might be a combination (filtered later)."""
    found: dict[tuple[str, ...], tuple[Card, ...]] = {}

    def add(cards: Iterable[Card]) -> None:
        cards = tuple(sorted(cards, key=Card.sort_key))
        found.setdefault(tuple(str(c) for c in cards), cards)

    by_rank: dict[Rank, list[Card]] = {}
    for c in hand:
        if c.rank is not None:
            by_rank.setdefault(c.rank, []).append(c)
    jokers = [c for c in hand if c.is_joker]
    trumps = [c for c in hand if c.trump is not None]
    wilds = jokers if rules.joker_wild else [t for t in trumps if t.trump in (1, 21)]
    for cards in by_rank.values():
        for k in range(1, len(cards) + 1):
            for group in combinations(cards, k):
                add(group)
                for j in range(1, len(wilds) + 1):
                    for extra in combinations(wilds, j):
                        add(group + extra)
                if (rules.coup_detat or rules.guillotine) and k in (3, 4):
                    for j in (1, 2):
                        for extra in combinations(jokers, j):
                            add(group + extra)
    for joker in jokers:
        add([joker])
    if rules.joker_wild and jokers and len(jokers) == len(hand):
        add(jokers)  # RULES.md §1: nothing but jokers left, shown as the last cards
    for k in range(1, min(4, len(trumps)) + 1):
        for group in combinations(trumps, k):
            add(group)
    if rules.runs:
        order = [r for r in rules.rank_order() if r in by_rank]
        for width in (1, 2, 3):
            for start in range(len(order)):
                chosen: list[list[tuple[Card, ...]]] = []
                for r in order[start:]:
                    index = rules.rank_order().index(r)
                    if chosen and rules.rank_order().index(order[order.index(r) - 1]) != index - 1:
                        break
                    if len(by_rank[r]) < width:
                        break
                    # One choice of cards per rank: suits never matter to a run, and every
                    # choice would make the number of runs explode with several decks.
                    chosen.append([tuple(by_rank[r][:width])])
                    if len(chosen) >= 3:
                        for picks in _product(chosen):
                            add(c for group in picks for c in group)
    if rules.preset == "franck":
        naturals = [c for c in hand if c.rank is not None]
        for five in combinations(naturals, 5):
            if _franckie(five, rules, False) is not None:
                add(five)
    return list(found.values())


def _product(groups: list[list[tuple[Card, ...]]]) -> Iterable[tuple[tuple[Card, ...], ...]]:
    return product(*groups)


def _play_from_json(entry: object, players: Sequence[str], where: str) -> Play:
    """One trick entry or move of the API: ``{"player", "cards", "last"?, "laid"?}``,
    ``{"player", "pass": true}`` or ``{"player", "call": true}`` (``liar``)."""
    if not isinstance(entry, Mapping):
        raise RulesError(Text("Un coup est un objet.", "A move must be an object."), field=where)
    player = entry.get("player")
    if not isinstance(player, str) or player not in players:
        raise RulesError(Text(f"Joueur inconnu : « {player} ».", f"Unknown player: '{player}'."), f"{where}.player")
    flags = {}
    for name in ("pass", "last", "call"):
        value = entry.get(name, False)
        if not isinstance(value, bool):
            raise RulesError(
                Text("Oui ou non (true / false) est attendu.", "true or false is expected."), f"{where}.{name}"
            )
        flags[name] = value
    cards_json = entry.get("cards")
    if flags["call"]:
        if cards_json or flags["pass"]:
            raise RulesError(
                Text("Un appel « menteur » se fait sans cartes.", "A liar call has no cards."), field=f"{where}.call"
            )
        return Play(player, call=True)
    if flags["pass"]:
        if cards_json:
            raise RulesError(Text("On passe sans poser de cartes.", "A pass lays no cards."), field=f"{where}.cards")
        return Play(player)
    if cards_json is None:
        raise RulesError(Text("Il faut des cartes ou passer.", "Cards or a pass are expected."), f"{where}.cards")
    cards = _cards_from_json(cards_json, f"{where}.cards")
    if not cards:
        raise RulesError(Text("Il faut des cartes ou passer.", "Cards or a pass are expected."), f"{where}.cards")
    laid_json = entry.get("laid")
    laid = None if laid_json is None else _cards_from_json(laid_json, f"{where}.laid")
    return Play(player, cards, flags["last"], laid)


def _cards_from_json(value: object, where: str) -> tuple[Card, ...]:
    if not isinstance(value, str | list):
        raise RulesError(Text("Une liste de cartes est attendue.", "A list of cards is expected."), field=where)
    try:
        return parse_cards(value)
    except RulesError as e:
        raise e.at(where) from None
