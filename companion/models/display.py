"""The table display's links: a read-only screen for the middle of the table.

A :class:`DisplayLink` lets a device that has not joined the group (a tablet lying on
the table, a TV) show one game, or the group's evening, read-only, through a short
link (``/t/<code>``) or its QR code, until the end of the evening it was made in or
until a device of the group revokes it (``companion.display``).
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.extensions import db
from companion.models.games import Game
from companion.models.groups import Device, Group, utcnow

#: The short code's length, in :data:`~companion.models.groups.CODE_ALPHABET` letters
#: (32): 50 bits, read aloud or typed on a TV's keyboard.
DISPLAY_CODE_LENGTH = 10


class DisplayLink(db.Model):
    """A read-only link to one game's display (``game_id``) or to the group's evening
    (``game_id`` None). Its ``code`` is kept as it is (not hashed): any device of the
    group may show it again, and it opens only what it shows, read-only, for one
    evening, which anyone with the database already reads."""

    __tablename__ = "display_links"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    game_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    code: so.Mapped[str] = so.mapped_column(sa.String(16), unique=True)
    device_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("devices.id", ondelete="SET NULL"))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: The end of the evening it was made in (the group's clock: the next 6:00).
    expires_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True))
    revoked_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    group: so.Mapped[Group] = so.relationship()
    game: so.Mapped[Game | None] = so.relationship()
    device: so.Mapped[Device | None] = so.relationship()
