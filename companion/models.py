"""The database: groups of players, their seasons, games and rounds.

A game's rounds keep what the players entered (``entry``) exactly as entered, and
the engine's result beside it (``result``), so that history can always be shown as
it was and recomputed if needed.  Players are referred to by id everywhere, so a
renamed player keeps his history.
"""

from __future__ import annotations

import enum
import secrets
import unicodedata
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so
from werkzeug.security import check_password_hash, generate_password_hash

from companion.collation import sorted_names
from companion.extensions import db

# Group codes avoid letters and digits that are easily confused when read aloud.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_MAX = 60
#: A group's clock until it chooses another (an IANA name), and the longest name kept.
DEFAULT_TIME_ZONE = "Europe/Paris"
TIME_ZONE_MAX = 64


def utcnow() -> datetime:
    """The current time, timezone-aware (stored as UTC)."""
    return datetime.now(UTC)


def clean_name(name: str) -> str:
    """A name as kept: Unicode NFC, spaces trimmed and folded (non-breaking ones too).

    >>> clean_name("  Zoe\u0301   du\u00a0Bois ")
    'Zoé du Bois'
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


def visible(name: str) -> bool:
    """Whether ``name`` shows anything: not only spaces, controls or invisible marks.

    >>> visible("Ann"), visible("\u200b\u200d"), visible("\u00ad ")
    (True, False, False)
    """
    return any(unicodedata.category(c)[0] not in ("C", "Z", "M") for c in name)


def name_key(name: str) -> str:
    """How names compare for uniqueness: case, accents, invisible marks and spaces ignored,
    so "Zoe" and "Zoé" are one name in a group.

    >>> name_key(" ZOÉ ") == name_key("zoe") == name_key("Zo\u200be")
    True
    """
    decomposed = unicodedata.normalize("NFKD", clean_name(name).casefold())
    kept = (c for c in decomposed if unicodedata.category(c) not in ("Mn", "Cf"))
    return unicodedata.normalize("NFC", "".join(kept))[:NAME_MAX]


class Group(db.Model):
    """A circle of friends who play together; devices join it with its passphrase."""

    __tablename__ = "groups"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    code: so.Mapped[str] = so.mapped_column(sa.String(12), unique=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    passphrase_hash: so.Mapped[str] = so.mapped_column(sa.String(256))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: The group's clock: an IANA time zone name (``zoneinfo``). Every time shown and
    #: every game night (``companion.clock.night_of``) is read on it.
    time_zone: so.Mapped[str] = so.mapped_column(
        sa.String(TIME_ZONE_MAX), default=DEFAULT_TIME_ZONE, server_default=DEFAULT_TIME_ZONE
    )

    #: In the order they were added; shown in French order: :attr:`players_by_name`.
    players: so.Mapped[list[Player]] = so.relationship(
        back_populates="group", order_by="Player.id", cascade="all, delete-orphan"
    )
    seasons: so.Mapped[list[Season]] = so.relationship(
        back_populates="group", order_by="Season.starts_on.desc(), Season.id.desc()", cascade="all, delete-orphan"
    )
    devices: so.Mapped[list[Device]] = so.relationship(
        back_populates="group", order_by="Device.created_at", cascade="all, delete-orphan"
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
    def players_by_name(self) -> list[Player]:
        """The players in a French reader's order (:mod:`companion.collation`), for display."""
        return sorted_names(self.players, key=lambda p: p.name)

    @property
    def current_season(self) -> Season | None:
        """The season new games go into."""
        return next((s for s in self.seasons if s.is_current), None)


class ThrottleEvent(db.Model):
    """A guess or a creation by a client, kept for a while to slow guessing down.

    ``kind`` is ``"guess"`` (a wrong passphrase or an unknown code; ``code`` is what
    was tried) or ``"create"`` (a group created).  Each attempt is recorded *before*
    it is judged, so that simultaneous guesses count one after another.
    """

    __tablename__ = "throttle_events"
    __table_args__ = (sa.Index("ix_throttle_events_client_kind_at", "client", "kind", "at"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    kind: so.Mapped[str] = so.mapped_column(sa.String(16))
    code: so.Mapped[str | None] = so.mapped_column(sa.String(12))
    client: so.Mapped[str] = so.mapped_column(sa.String(64))
    at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow, index=True)


class Device(db.Model):
    """A phone (a browser) that joined a group, under a name its owner chose.

    The device keeps a random token in its session cookie; only the token's hash is
    stored.  One browser has one token for every group it joined, so the cookie
    stays small.  Leaving, or removal from the group page, revokes the device at
    once: a copy of the old cookie opens nothing.
    """

    __tablename__ = "devices"
    __table_args__ = (sa.Index("ix_devices_token_hash_group_id", "token_hash", "group_id"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    token_hash: so.Mapped[str] = so.mapped_column(sa.String(64))
    name: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    revoked_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    group: so.Mapped[Group] = so.relationship(back_populates="devices")


class JoinToken(db.Model):
    """A one-time invitation into a group, shown as a QR code by one of its devices.

    The phone that opens its link joins the group without the passphrase, once, within
    a few minutes (``JOIN_TOKEN_MINUTES``); any device of the group may revoke it before.
    Only the token's hash is stored: the raw token lives in the QR code and, for as long
    as it is shown, in the showing device's session (``companion.groups.invite``).
    """

    __tablename__ = "join_tokens"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    token_hash: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    device_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("devices.id", ondelete="SET NULL"))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    expires_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True))
    used_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    used_by_device_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("devices.id", ondelete="SET NULL"))
    revoked_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    group: so.Mapped[Group] = so.relationship()
    device: so.Mapped[Device | None] = so.relationship(foreign_keys=[device_id])
    used_by: so.Mapped[Device | None] = so.relationship(foreign_keys=[used_by_device_id])


class FormToken(db.Model):
    """A one-time token of a creating form, and what its first submission created.

    A form sent twice (a double tap, a retry, a second phone) finds its token here
    and leads to what the first submission made instead of making it again.
    """

    __tablename__ = "form_tokens"

    token: so.Mapped[str] = so.mapped_column(sa.String(64), primary_key=True)
    url: so.Mapped[str] = so.mapped_column(sa.String(300))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow, index=True)


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
        """Give the player a new name (the history follows: it refers to the id)."""
        self.name = clean_name(name)
        self.name_key = name_key(name)


class Season(db.Model):
    """A period of play of a group; exactly one season of a group is current.

    The database holds both rules: season names are unique in a group (whatever
    their case) and a partial unique index allows one current season per group.
    """

    __tablename__ = "seasons"
    __table_args__ = (
        sa.UniqueConstraint("group_id", "name_key", name="uq_seasons_group_id_name_key"),
        sa.Index(
            "uq_seasons_one_current",
            "group_id",
            unique=True,
            sqlite_where=sa.text("is_current"),
            postgresql_where=sa.text("is_current"),
        ),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    name_key: so.Mapped[str] = so.mapped_column(sa.String(NAME_MAX))
    starts_on: so.Mapped[date] = so.mapped_column(sa.Date)
    is_current: so.Mapped[bool] = so.mapped_column(default=False)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    group: so.Mapped[Group] = so.relationship(back_populates="seasons")
    games: so.Mapped[list[Game]] = so.relationship(
        back_populates="season", order_by="Game.created_at.desc(), Game.id.desc()", cascade="all, delete-orphan"
    )

    def rename(self, name: str) -> None:
        """Name the season (spaces folded) and keep its uniqueness key."""
        self.name = clean_name(name)
        self.name_key = name_key(name)

    def make_current(self) -> None:
        """Make this the group's current season (and no other).

        Two statements in this order, so the one-current index never sees two
        current seasons, whatever order a flush would choose.
        """
        db.session.flush()
        db.session.execute(
            sa.update(Season).where(Season.group_id == self.group_id, Season.id != self.id).values(is_current=False)
        )
        db.session.execute(sa.update(Season).where(Season.id == self.id).values(is_current=True))
        for season in self.group.seasons:
            db.session.expire(season, ["is_current"])


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
    outcome: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)

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
    live: LiveEntry | None
    #: How many of the devices a kept game page names still bear those names.
    named: int | None = None


class LiveEntry(NamedTuple):
    """What a game's live manche says of itself to the round form: the round and the
    game's version it is for, and the entry it decided (None while it goes on)."""

    number: int
    game_version: int
    entry: dict[str, Any] | None

    def filling(self, game: Game | GameShown, number: int) -> dict[str, Any] | None:
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


# --------------------------------------------------------------------------------------
# Standings and ratings (issue 12): derived from the stored states of the games, kept up
# to date by every write to a game (companion.games.saving calls companion.games.results
# in the write's transaction), read by the pages.
# Nothing here is ever entered by a person: every row can be rebuilt from the games.


class GameResult(db.Model):
    """One player's result in one game, as the standings need it (one row per seat).

    Kept for every game, whatever its status; the leaderboards count finished games
    (``status``).  The figures come from the game's stored states only (``Round.result``,
    ``Game.outcome``): see :mod:`companion.games.results` for each kind.

    ``place`` 1 = best, ties sharing a place (1, 2, 2, 4); None while nothing places
    the players (no round yet).  ``won``: named among the winners of the finished game.
    ``rounds``: rounds counted (Président and Piketty: manches played, a card draw is
    not; whist: deals completed; crapouille: hands).  ``points``: the player's total
    (Président/Piketty points, None when the game counts none; crapouille penalty
    points).  ``times_president``, ``times_last`` (the last title: Trou du cul) and
    ``rank_sum`` (sum of the player's rank after each manche, 1 = Président) are
    Président/Piketty's, 0 for the other kinds.  ``stake``: whist's stake left.
    ``eliminated``: crapouille, went over 300.  ``night``: the game night the game
    started on.  ``version``: the game's version these figures were computed at.
    """

    __tablename__ = "game_results"
    __table_args__ = (sa.Index("ix_game_results_season_id_status_kind", "season_id", "status", "kind"),)

    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"))
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    status: so.Mapped[str] = so.mapped_column(sa.String(20))
    night: so.Mapped[date] = so.mapped_column(sa.Date)
    ended_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    seat: so.Mapped[int]
    place: so.Mapped[int | None]
    won: so.Mapped[bool] = so.mapped_column(default=False)
    rounds: so.Mapped[int] = so.mapped_column(default=0)
    points: so.Mapped[int | None]
    times_president: so.Mapped[int] = so.mapped_column(default=0)
    times_last: so.Mapped[int] = so.mapped_column(default=0)
    rank_sum: so.Mapped[int] = so.mapped_column(default=0)
    stake: so.Mapped[int | None]
    eliminated: so.Mapped[bool | None]
    version: so.Mapped[int] = so.mapped_column(default=0)


class RatedMatch(db.Model):
    """A finishing order the season rating learns from: a finished game as a whole
    (``round_number`` 0, its places) or one manche of a finished Président or Piketty
    game (``round_number`` n, the hierarchy it left: Président first).  ``at`` is when
    it was played (the round's ``created_at``; the game's end for the game), ``night``
    the game night of ``at``.  The places are :class:`MatchPlace` rows."""

    __tablename__ = "rated_matches"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "round_number", name="uq_rated_matches_game_id_round_number"),
        sa.Index("ix_rated_matches_season_id_at", "season_id", "at"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"))
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))
    round_number: so.Mapped[int]
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True))
    night: so.Mapped[date] = so.mapped_column(sa.Date)


class MatchPlace(db.Model):
    """A player's place in a rated match: 1 = best, equal places are ties."""

    __tablename__ = "match_places"

    match_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("rated_matches.id", ondelete="CASCADE"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    place: so.Mapped[int]


class PlayerRating(db.Model):
    """A player's season rating now (OpenSkill Plackett–Luce: ``mu``, ``sigma``, and the
    conservative ``ordinal`` mu − 3σ), after ``matches`` rated matches.  ``rank`` is the
    place among players rated on at least :data:`companion.games.rating.MIN_MATCHES`
    matches (ties share it; None before), ``rank_before`` that place at the end of the
    game night before the season's latest one (the page shows the change)."""

    __tablename__ = "player_ratings"

    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    mu: so.Mapped[float]
    sigma: so.Mapped[float]
    ordinal: so.Mapped[float]
    matches: so.Mapped[int]
    rank: so.Mapped[int | None]
    rank_before: so.Mapped[int | None]


class RatingPoint(db.Model):
    """A player's season rating at the end of one game night (the history behind a
    chart): every player rated so far gets a point at every night of the season;
    ``played`` says whether the player played that night."""

    __tablename__ = "rating_history"

    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    night: so.Mapped[date] = so.mapped_column(sa.Date, primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    mu: so.Mapped[float]
    sigma: so.Mapped[float]
    ordinal: so.Mapped[float]
    matches: so.Mapped[int]
    rank: so.Mapped[int | None]
    played: so.Mapped[bool] = so.mapped_column(default=False)


class SeasonTotal(db.Model):
    """A player's totals over the finished games of one kind in one season: what a
    leaderboard shows, kept up to date from ``game_results`` on every write, so the
    season page reads a few rows per player whatever the season holds.

    Sums over those games: ``games``, ``wins``, ``points`` (None when no game counted
    points), ``times_president``, ``times_last``, ``rank_sum`` and ``manches``
    (Président/Piketty's ``rounds``), ``place_sum`` over ``placed`` games,
    ``stake_sum`` over ``staked`` games (whist), ``times_over`` (crapouille's
    eliminations)."""

    __tablename__ = "season_totals"

    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    kind: so.Mapped[str] = so.mapped_column(sa.String(20), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    games: so.Mapped[int]
    wins: so.Mapped[int]
    points: so.Mapped[int | None]
    times_president: so.Mapped[int]
    times_last: so.Mapped[int]
    rank_sum: so.Mapped[int]
    manches: so.Mapped[int]
    place_sum: so.Mapped[int]
    placed: so.Mapped[int]
    stake_sum: so.Mapped[int]
    staked: so.Mapped[int]
    times_over: so.Mapped[int]
