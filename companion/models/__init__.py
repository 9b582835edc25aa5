"""The database: groups of players, their seasons, games and rounds.

A game's rounds keep what the players entered (``entry``) exactly as entered, and
the engine's result beside it (``result``), so that history can always be shown as
it was and recomputed if needed.  Players are referred to by id everywhere, so a
renamed player keeps his history.

The package, by concept (each module imports only those above it, but for the type
checker's :class:`Game` in ``groups``); importing it registers every table with the
metadata (what Alembic and ``flask db`` see):

- :mod:`~companion.models.groups` — groups and access: :class:`Group`,
  :class:`Player`, :class:`Season`, :class:`Device`, :class:`JoinToken`,
  :class:`ThrottleEvent`, :class:`FormToken`; how names are kept and compared.
- :mod:`~companion.models.games` — play: :class:`Game` (:class:`GameStatus`), its
  seats (:class:`GamePlayer`), :class:`Round` and history (:class:`GameChange`), the
  live manche (:class:`LiveManche`); the plain rows of kept pages
  (:class:`GroupShown`, :class:`GameShown`, :class:`LivePrefill`).
- :mod:`~companion.models.display` — the table display's read-only links:
  :class:`DisplayLink`.
- :mod:`~companion.models.results` — standings and ratings, rebuilt from the games:
  :class:`GameResult`, :class:`SeasonTotal`, :class:`RatedMatch`,
  :class:`MatchPlace`, :class:`PlayerRating`, :class:`RatingPoint`.
"""

from __future__ import annotations

from companion.models.display import DISPLAY_CODE_LENGTH, DisplayLink
from companion.models.games import (
    Game,
    GameChange,
    GamePlayer,
    GameShown,
    GameStatus,
    GroupShown,
    LiveManche,
    LivePrefill,
    Round,
)
from companion.models.groups import (
    CODE_ALPHABET,
    CODE_LENGTH,
    DEFAULT_TIME_ZONE,
    NAME_MAX,
    TIME_ZONE_MAX,
    Device,
    FormToken,
    Group,
    JoinToken,
    Player,
    Season,
    ThrottleEvent,
    clean_name,
    name_key,
    utcnow,
    visible,
)
from companion.models.results import (
    GameResult,
    MatchPlace,
    PlayerRating,
    RatedMatch,
    RatingPoint,
    SeasonTotal,
)

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "DEFAULT_TIME_ZONE",
    "DISPLAY_CODE_LENGTH",
    "NAME_MAX",
    "TIME_ZONE_MAX",
    "Device",
    "DisplayLink",
    "FormToken",
    "Game",
    "GameChange",
    "GamePlayer",
    "GameResult",
    "GameShown",
    "GameStatus",
    "Group",
    "GroupShown",
    "JoinToken",
    "LiveManche",
    "LivePrefill",
    "MatchPlace",
    "Player",
    "PlayerRating",
    "RatedMatch",
    "RatingPoint",
    "Round",
    "Season",
    "SeasonTotal",
    "ThrottleEvent",
    "clean_name",
    "name_key",
    "utcnow",
    "visible",
]
