"""Le Président's moves: a :class:`Play`, its :class:`Verdict`, and why or what.

:class:`RuleId` names why a move is refused and :class:`Effect` what a legal one
triggers (shared/API.md); a move is read from the API's JSON with :meth:`Play.from_json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.rules.cards import Card, format_cards, parse_cards
from companion.rules.i18n import RulesError, Text


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


# --- moves read from JSON --------------------------------------------------------------


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
