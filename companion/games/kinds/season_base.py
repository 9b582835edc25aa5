"""What a kind says at the season level: its results, its leaderboard, its lines on the
player page and the evening recap, its CSV columns.

Shared season code (``companion.games.results``, ``companion.games.standings``,
``companion.groups.people``, ``companion.groups.transfer``) names no kind: it asks the
game's kind for its :class:`KindSeason` (``GameKind.season``, or :data:`UNKNOWN` for a
kind this version does not know: :func:`companion.games.kinds.season_of`), and each
kind's ``season`` module answers from the stored states only, never running the engine.

Also here, for those modules: what results read of a game (:class:`GameFacts`, its
rounds as :class:`RoundFacts`), a finishing order to rate (:class:`Match`), and the
small readers of stored states every kind uses (:func:`shared_places`,
:func:`by_player`, :func:`player_ids`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from companion.models import DEFAULT_TIME_ZONE

if TYPE_CHECKING:
    from companion.games.kinds.base import GameKind

#: Ranks after every real one (a line with no average yet).
LAST = Fraction(10**9)


@dataclass(frozen=True)
class RoundFacts:
    """A stored round, as results read it."""

    number: int
    result: dict[str, Any]
    created_at: datetime


@dataclass
class GameFacts:
    """What results read of a game: its row, its seats, and its rounds.

    ``rounds`` holds every round for a kind whose every round counts
    (:attr:`KindSeason.every_round`), and only the last one for the other kinds (their
    figures are the last state's); ``round_count`` is the number of rounds either way."""

    id: int
    season_id: int
    kind: str
    status: str
    ending: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None
    version: int
    players: list[int]
    rounds: list[RoundFacts] = field(default_factory=list)
    round_count: int = 0
    #: Its group's clock (an IANA name): its night is its start's night there.
    zone: str = DEFAULT_TIME_ZONE
    #: Whether its stored results say it was finished, and whether it has rated
    #: matches stored: when neither, what is stored of it counts in no total or rating.
    was_finished: bool = True
    was_rated: bool = True

    @property
    def last(self) -> dict[str, Any] | None:
        """The state after the last round (None before the first)."""
        return self.rounds[-1].result if self.rounds else None


@dataclass(frozen=True)
class RecapRound:
    """A stored round as the evening recap reads it: its number, and only the keys of its
    stored state the kind asks for (:attr:`KindSeason.recap_keys`; None where a state
    has no such key)."""

    number: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Match:
    """A finishing order to rate: ``round_number`` 0 is the game as a whole."""

    round_number: int
    at: datetime
    places: dict[int, int]


def shared_places(scores: dict[int, Any], best_high: bool = True) -> dict[int, int]:
    """Places from scores, equal scores sharing a place (1, 2, 2, 4).

    >>> shared_places({1: 10, 2: 7, 3: 7, 4: 3})
    {1: 1, 2: 2, 3: 2, 4: 4}
    >>> shared_places({1: 10, 2: 7}, best_high=False)
    {2: 1, 1: 2}
    """
    order = sorted(scores, key=lambda p: -scores[p] if best_high else scores[p])
    places: dict[int, int] = {}
    for i, player in enumerate(order):
        tied = i > 0 and scores[player] == scores[order[i - 1]]
        places[player] = places[order[i - 1]] if tied else i + 1
    return places


def by_player(mapping: Any, players: Sequence[int]) -> dict[int, Any]:
    """A stored ``{"<player id>": value}`` as ``{player id: value}`` (seated players only)."""
    if not isinstance(mapping, dict):
        return {}
    seated = set(players)
    out: dict[int, Any] = {}
    for key, value in mapping.items():
        try:
            pid = int(key)
        except (TypeError, ValueError):
            continue
        if pid in seated:
            out[pid] = value
    return out


def player_ids(values: Any, players: Sequence[int]) -> list[int]:
    """A stored list of player ids (strings) as ints (seated players only)."""
    seated = set(players)
    out = []
    for value in values or []:
        try:
            pid = int(value)
        except (TypeError, ValueError):
            continue
        if pid in seated:
            out.append(pid)
    return out


class BoardLine(Protocol):
    """What a leaderboard line offers a kind's :meth:`KindSeason.sort_key`
    (``companion.games.standings.Line``)."""

    @property
    def wins(self) -> int: ...
    @property
    def points(self) -> int | None: ...
    @property
    def times_president(self) -> int: ...
    @property
    def times_over(self) -> int: ...
    @property
    def avg_rank(self) -> Fraction | None: ...
    @property
    def avg_stake(self) -> Fraction | None: ...
    @property
    def avg_place(self) -> Fraction | None: ...


class KindSeason(ABC):
    """A kind's season-level part: what its stored states give the season's pages.

    The abstract methods are what every kind must say; the others have defaults, which
    are also what a kind this version does not know gets (:data:`UNKNOWN`)."""

    #: Whether every round counts (the Président family's manches): results read each
    #: round of a game, rate each counted one, and the leaderboard counts them
    #: (``manches``); an import weighs such a game by its rounds.
    every_round: bool = False
    #: Whether the player page counts the player's titles (times first and times last in
    #: the hierarchy a manche left), and the template that shows them there (``stats``: the
    #: player's figures, summed over the kinds that count titles).
    titles: bool = False
    titles_template: str | None = None
    #: How the kind's leaderboard is ranked, in words (shown under it).
    standings_note: Any = ""
    #: The keys of a round's stored state :meth:`moments` reads (the recap reads only these).
    recap_keys: tuple[str, ...] = ()
    #: The ``game_results`` column of a player's running total, which its :meth:`figures`
    #: fills (``points``, ``stake``): what a game in progress is summed up by, beside the
    #: players in their places (the evening's shared image); None when it keeps none.
    total_column: str | None = None

    @abstractmethod
    def figures(self, facts: GameFacts, rows: dict[int, dict[str, Any]]) -> dict[int, int]:
        """Fill the kind's figures in a game's ``game_results`` rows (by player id: their
        shared columns are filled already, the kind's at their defaults) from its
        stored states, and return the places (1 = best, ties share; empty when there
        are none yet)."""

    def round_matches(self, facts: GameFacts) -> list[Match]:
        """The rated matches of a finished game's rounds (the game as a whole is
        rated by the shared code): none by default."""
        return []

    @abstractmethod
    def sort_key(self, line: BoardLine) -> tuple[Any, ...]:
        """What ranks a line in the kind's leaderboard (smaller is better)."""

    def csv_figures(self, state: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        """What a round's stored state says of each player (by id, a string) for the CSV:
        their figure for the round (« round score ») and their total after it (« total
        after »); a player missing from either has an empty cell. By default the
        ``points`` and ``totals`` a state holds (what a kind this version does not know
        is read for)."""
        return state.get("points") or {}, state.get("totals") or {}

    def moments(self, rounds: Sequence[RecapRound], names: dict[str, str], kind: GameKind) -> list[str]:
        """A game's notable moments for the evening recap, from its rounds (each with
        its number and the keys of its stored state :attr:`recap_keys` names);
        ``names`` by player id (a string)."""
        return []


class UnknownSeason(KindSeason):
    """A kind this version does not know: no figures, no places, ranked by games won."""

    def figures(self, facts: GameFacts, rows: dict[int, dict[str, Any]]) -> dict[int, int]:
        return {}

    def sort_key(self, line: BoardLine) -> tuple[Any, ...]:
        return (-line.wins, line.avg_place or LAST, line.times_over)


#: What a kind this version does not know says.
UNKNOWN = UnknownSeason()
