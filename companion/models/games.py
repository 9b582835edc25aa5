"""The tables of play: a game, its seats, rounds and history, and the live manche.

Also the plain rows kept pages are written from (:class:`GroupShown`,
:class:`GameShown`, :class:`LivePrefill`: columns, no objects).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.extensions import db
from companion.models.groups import DEFAULT_TIME_ZONE, Device, Player, Season, utcnow


class GameStatus(enum.StrEnum):
    """Where a game stands."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Game(db.Model):
    """One game of a season: its kind, house rules, players in seat order and rounds.

    ``kind`` is a game id of the rules engine (``crapouille``, later ``president``,
    ``piketty``, ``whist-tarot``) and ``rules`` its options as the engine accepts
    them, so every kind fits the same tables.
    """

    __tablename__ = "games"
    #: A season's games, latest first (the season page's games, a page at a time): read
    #: in index order, not sorted whole, however many games the season holds.
    __table_args__ = (sa.Index("ix_games_season_id_created_at", "season_id", "created_at", "id"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"))
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    rules: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON, default=dict)
    #: Other settings of the kind (a first dealer…), as its setup form gives them.
    setup: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON, default=dict, server_default="{}")
    status: so.Mapped[GameStatus] = so.mapped_column(
        sa.Enum(GameStatus, native_enum=False, length=20, values_callable=lambda e: [m.value for m in e]),
        default=GameStatus.IN_PROGRESS,
    )
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    finished_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    #: Grows by one with every change to the game (a round saved or deleted, a status
    #: change): a write names the version it was based on, and a stale one changes nothing.
    version: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    #: What a finished game ended with (``{"winners": [player ids]}``), stored when it
    #: ends so that lists of games never read their rounds.
    ending: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)

    season: so.Mapped[Season] = so.relationship(back_populates="games")
    seats: so.Mapped[list[GamePlayer]] = so.relationship(
        back_populates="game", order_by="GamePlayer.seat", cascade="all, delete-orphan"
    )
    rounds: so.Mapped[list[Round]] = so.relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    changes: so.Mapped[list[GameChange]] = so.relationship(
        order_by="GameChange.id.desc()", cascade="all, delete-orphan", passive_deletes=True
    )

    @property
    def players(self) -> list[Player]:
        """The players in seat order."""
        return [seat.player for seat in self.seats]


class GameChange(db.Model):
    """One change to a game, kept for its history: what, when, from which device.

    ``kind`` is ``round_added``, ``round_deleted``, ``round_restored``, ``finished``,
    ``abandoned`` or ``reopened``; ``data`` keeps what an undo needs (a deleted
    round's entry and result); ``version`` is the game's version after the change.
    """

    __tablename__ = "game_changes"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    device_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("devices.id", ondelete="SET NULL"), index=True)
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    round_number: so.Mapped[int | None]
    data: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    version: so.Mapped[int]

    device: so.Mapped[Device | None] = so.relationship(lazy="joined")


class GamePlayer(db.Model):
    """A player's seat in a game (seats numbered from 0, clockwise)."""

    __tablename__ = "game_players"
    __table_args__ = (sa.UniqueConstraint("game_id", "player_id", name="uq_game_players_game_id_player_id"),)

    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: so.Mapped[int] = so.mapped_column(primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id", ondelete="RESTRICT"), index=True)

    game: so.Mapped[Game] = so.relationship(back_populates="seats")
    player: so.Mapped[Player] = so.relationship()


class Round(db.Model):
    """One round of a game (a hand, a manche, a deal), numbered from 1."""

    __tablename__ = "rounds"
    __table_args__ = (sa.UniqueConstraint("game_id", "number", name="uq_rounds_game_id_number"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: so.Mapped[int]
    entry: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON)
    result: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: When it was played, for the evening's clock: it started when the round before it
    #: ended (the game's start for the first; a live manche's first move), and ended
    #: when it was saved whole (a live manche's last move; a whist deal's tricks). None:
    #: not ended yet (a deal whose tricks are awaited).
    started_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    ended_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    #: The device it was entered from (the game page says so); kept when the device is removed.
    device_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("devices.id", ondelete="SET NULL"), index=True)

    game: so.Mapped[Game] = so.relationship(back_populates="rounds")
    device: so.Mapped[Device | None] = so.relationship(lazy="joined")


class GroupShown(NamedTuple):
    """A group as a kept page writes it out (its crumb): plain columns, no object."""

    id: int
    code: str
    name: str
    time_zone: str = DEFAULT_TIME_ZONE


class GameShown(NamedTuple):
    """A game as a kept page is found and written out from: plain columns, no object
    (building the game, its seats and players as objects costs a page more than its
    query). ``names``: ``(player id as text, name)`` in seat order."""

    id: int
    kind: str
    status: GameStatus
    created_at: datetime
    version: int
    names: tuple[tuple[str, str], ...]
    group: GroupShown
    live: LivePrefill | None
    #: How many of the devices a kept game page names still bear those names.
    named: int | None = None


class LivePrefill(NamedTuple):
    """What a game's live manche says of itself to the round form: the round and the
    game's version it is for, and the entry it decided (None while it goes on)."""

    number: int
    game_version: int
    entry: dict[str, Any] | None

    def prefill_for(self, game: Game | GameShown, number: int) -> dict[str, Any] | None:
        """The round entry the finished manche decided for round ``number`` of ``game``
        as it stands (None when it is for another round or version, or goes on): the
        round form opens pre-filled with it."""
        if self.number != number or self.game_version != game.version or self.entry is None:
            return None
        return dict(self.entry)


class LiveManche(db.Model):
    """The manche a game's table follows move by move (the referee's live screen): one
    row per game, shared by every phone of the group.

    It is for round ``number`` of the game as it stood at ``game_version``: once the
    game changes (that round saved, an earlier one corrected or deleted), the row is
    stale and the next manche starts afresh.  ``state`` is the engine's table in the
    shape of the API's ``state`` (players named by id; None until the manche is
    started), ``view`` what the screen shows of it (whose turn, passes, the lock…),
    computed by the engine when a move is made; ``history`` the earlier ``[state,
    view]`` pairs (undo pops one); ``moves`` each accepted move with what the engine
    said; ``entry`` the round entry the finished manche fills in (None while it goes
    on).  ``version`` grows with every change: a write names the version it was based
    on, and a stale or repeated one changes nothing.
    """

    __tablename__ = "live_manches"

    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: so.Mapped[int]
    game_version: so.Mapped[int]
    state: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    view: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    history: so.Mapped[list[Any]] = so.mapped_column(sa.JSON, default=list)
    moves: so.Mapped[list[Any]] = so.mapped_column(sa.JSON, default=list)
    entry: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    version: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    updated_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    #: When the manche's first move was made (None before): the round it fills in
    #: started then (the evening's clock).
    started_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
