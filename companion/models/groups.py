"""The tables of groups and access: a group, its players and seasons, its devices.

Also who may get in (:class:`Device`, :class:`JoinToken`), what slows guessing down
(:class:`ThrottleEvent`), the one-time tokens of creating forms (:class:`FormToken`),
and how names are kept and compared (:func:`clean_name`, :func:`name_key`).
"""

from __future__ import annotations

import secrets
import unicodedata
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import current_app
from werkzeug.security import check_password_hash, generate_password_hash

from companion.collation import sorted_names
from companion.extensions import db

if TYPE_CHECKING:
    from companion.models.games import Game

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
    #: Whether the group is whole. An import writes a group over many transactions
    #: (``companion.groups.transfer.importing``) and sets this in its last one, with the
    #: importing device: until then no page finds the group (``/join`` looks for complete
    #: groups only; every other page reaches a group through a device, a QR invitation
    #: or a display link of it, which only a complete group has). What an import killed
    #: part way left is removed by ``flask clean-imports``
    #: (``companion.groups.transfer.unfinished``). Every other group is complete from
    #: its first row.
    complete: so.Mapped[bool] = so.mapped_column(default=True, server_default=sa.true())

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
        """Store the passphrase hashed with the app's ``PASSPHRASE_HASH_METHOD`` (werkzeug's
        scrypt unless configured otherwise; a hash of any method keeps being checked)."""
        self.passphrase_hash = generate_password_hash(passphrase, method=current_app.config["PASSPHRASE_HASH_METHOD"])

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
    was tried; ``T-<code>`` for a display link's code that is no link's) or
    ``"create"`` (a group created).  Each attempt is recorded *before* it is judged,
    so that simultaneous guesses count one after another (a display code: before its
    « not found » is sent).
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
    #: The player this device belongs to, as its owner said (« Qui êtes-vous ? »): who
    #: « moi », « je » and « j’ai » are in a round said in one line. None until said.
    player_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("players.id", ondelete="SET NULL"))

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
