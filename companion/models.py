"""The database: groups of players, their seasons, games and rounds.

A game's rounds keep what the players entered (``entry``) exactly as entered, and
the engine's result beside it (``result``), so that history can always be shown as
it was and recomputed if needed.  Players are referred to by id everywhere, so a
renamed player keeps his history.
"""

from __future__ import annotations

import enum
import secrets
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from werkzeug.security import check_password_hash, generate_password_hash

from companion.extensions import db

# Group codes avoid letters and digits that are easily confused when read aloud.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_MAX = 60


def utcnow() -> datetime:
    """The current time, timezone-aware (stored as UTC)."""
    return datetime.now(UTC)


def name_key(name: str) -> str:
    """How names compare for uniqueness: case and surrounding space ignored."""
    return " ".join(name.split()).casefold()


class Group(db.Model):
    """A circle of friends who play together; devices join it with its passphrase."""

    __tablename__ = "groups"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    code: so.Mapped[str] = so.mapped_column(sa.String(12), unique=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    passphrase_hash: so.Mapped[str] = so.mapped_column(sa.String(256))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    players: so.Mapped[list[Player]] = so.relationship(
        back_populates="group", order_by="Player.name", cascade="all, delete-orphan"
    )
    seasons: so.Mapped[list[Season]] = so.relationship(
        back_populates="group", order_by="Season.starts_on.desc(), Season.id.desc()", cascade="all, delete-orphan"
    )

    @staticmethod
    def new_code() -> str:
        """A fresh random code (the caller checks it is not taken)."""
        return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))

    def set_passphrase(self, passphrase: str) -> None:
        """Store the passphrase hashed."""
        self.passphrase_hash = generate_password_hash(passphrase)

    def check_passphrase(self, passphrase: str) -> bool:
        """Whether ``passphrase`` is this group's."""
        return check_password_hash(self.passphrase_hash, passphrase)

    @property
    def current_season(self) -> Season | None:
        """The season new games go into."""
        return next((s for s in self.seasons if s.is_current), None)


class PassphraseFailure(db.Model):
    """A wrong passphrase, kept for a while to throttle guessing."""

    __tablename__ = "passphrase_failures"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    code: so.Mapped[str] = so.mapped_column(sa.String(12), index=True)
    client: so.Mapped[str] = so.mapped_column(sa.String(64))
    at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow, index=True)


class Player(db.Model):
    """A member of a group."""

    __tablename__ = "players"
    __table_args__ = (sa.UniqueConstraint("group_id", "name_key", name="uq_players_group_id_name_key"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    name_key: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    group: so.Mapped[Group] = so.relationship(back_populates="players")

    def rename(self, name: str) -> None:
        """Give the player a new name (his history follows: it refers to his id)."""
        self.name = " ".join(name.split())
        self.name_key = name_key(name)


class Season(db.Model):
    """A period of play of a group; exactly one season of a group is current."""

    __tablename__ = "seasons"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    starts_on: so.Mapped[date] = so.mapped_column(sa.Date)
    is_current: so.Mapped[bool] = so.mapped_column(default=False)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    group: so.Mapped[Group] = so.relationship(back_populates="seasons")
    games: so.Mapped[list[Game]] = so.relationship(
        back_populates="season", order_by="Game.created_at.desc(), Game.id.desc()", cascade="all, delete-orphan"
    )

    def make_current(self) -> None:
        """Make this the group's current season (and no other)."""
        for season in self.group.seasons:
            season.is_current = season is self


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

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), index=True)
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    rules: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON, default=dict)
    status: so.Mapped[GameStatus] = so.mapped_column(
        sa.Enum(GameStatus, native_enum=False, length=20, values_callable=lambda e: [m.value for m in e]),
        default=GameStatus.IN_PROGRESS,
    )
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    finished_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    season: so.Mapped[Season] = so.relationship(back_populates="games")
    seats: so.Mapped[list[GamePlayer]] = so.relationship(
        back_populates="game", order_by="GamePlayer.seat", cascade="all, delete-orphan"
    )
    rounds: so.Mapped[list[Round]] = so.relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )

    @property
    def players(self) -> list[Player]:
        """The players in seat order."""
        return [seat.player for seat in self.seats]


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

    game: so.Mapped[Game] = so.relationship(back_populates="rounds")
