"""Slowing down passphrase guessing and group creation, per client.

The client is the address the request came from; behind trusted reverse proxies
(``TRUSTED_PROXIES``, see the README) it is the address they forwarded, so that
the people of one table behind one proxy are not one client.

**Guesses.** Every try of a code and passphrase is recorded *before* it is judged,
inside a lock on that client (a transaction-scoped advisory lock on PostgreSQL; on
SQLite a writing request holds the write lock from its first statement), so that
simultaneous guesses are counted one after another.  A right passphrase wipes the
client's record for that code.  After a few wrong tries each new one must wait a
delay that doubles with every failure (2 s, 4 s, 8 s… up to 15 minutes), rather
than a fixed wall: whoever knows the passphrase waits seconds, not a quarter of an
hour.  Tries across many codes from one client grow a delay of their own, so codes
cannot be swept.

**Creations.** A client may create a few groups an hour.
"""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app, request

from companion.extensions import db
from companion.models import ThrottleEvent, utcnow

GUESS = "guess"
CREATE = "create"


def client() -> str:
    """The client's address (the real one behind trusted proxies: ProxyFix)."""
    return (request.remote_addr or "?")[:64]


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


def delay(failures: int, free: int) -> int:
    """Seconds a client must wait after ``failures`` wrong tries, ``free`` of them free.

    >>> [delay(n, 4) for n in (0, 4, 5, 6, 10, 30)]
    [0, 0, 2, 4, 64, 900]
    """
    if failures <= free:
        return 0
    return int(min(900, 2 ** (failures - free)))


def _lock(key: str) -> None:
    """Serialise this client's attempts until the transaction ends."""
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": zlib.crc32(key.encode())})


def _wait_after(events: list[datetime], free: int) -> int:
    if not events:
        return 0
    needed = delay(len(events), free)
    elapsed = (utcnow() - _aware(max(events))).total_seconds()
    return max(0, int(needed - elapsed + 0.999))


def before_guess(code: str) -> int:
    """Record a try of ``code`` by this client and commit; 0 when it may be judged,
    else the seconds to wait (nothing is recorded then)."""
    who, code = client(), code.upper()[:12]
    config = current_app.config
    _lock(f"guess:{who}")
    now = utcnow()
    same_code = list(
        db.session.scalars(
            sa.select(ThrottleEvent.at).where(
                ThrottleEvent.kind == GUESS,
                ThrottleEvent.client == who,
                ThrottleEvent.code == code,
                ThrottleEvent.at >= now - timedelta(days=1),
            )
        )
    )
    any_code = list(
        db.session.scalars(
            sa.select(ThrottleEvent.at).where(
                ThrottleEvent.kind == GUESS, ThrottleEvent.client == who, ThrottleEvent.at >= now - timedelta(hours=1)
            )
        )
    )
    wait = max(
        _wait_after(same_code, config["GUESS_FREE_TRIES"]),
        _wait_after(any_code, config["GUESS_FREE_TRIES_ANY_CODE"]),
    )
    if wait:
        db.session.rollback()
        return wait
    db.session.add(ThrottleEvent(kind=GUESS, code=code, client=who, at=now))
    db.session.execute(sa.delete(ThrottleEvent).where(ThrottleEvent.at < now - timedelta(days=1)))
    db.session.commit()
    return 0


def guessed_right(code: str) -> None:
    """Wipe this client's tries of ``code`` (in the current transaction)."""
    db.session.execute(
        sa.delete(ThrottleEvent).where(
            ThrottleEvent.kind == GUESS, ThrottleEvent.client == client(), ThrottleEvent.code == code.upper()[:12]
        )
    )


def before_create() -> int:
    """0 when this client may create a group now (recorded in the current
    transaction), else the seconds until it may."""
    who = client()
    _lock(f"create:{who}")
    now = utcnow()
    window = timedelta(hours=1)
    recent = list(
        db.session.scalars(
            sa.select(ThrottleEvent.at)
            .where(ThrottleEvent.kind == CREATE, ThrottleEvent.client == who, ThrottleEvent.at >= now - window)
            .order_by(ThrottleEvent.at)
        )
    )
    most = current_app.config["GROUPS_PER_HOUR"]
    if len(recent) >= most:
        oldest = _aware(recent[-most])
        return max(1, int((oldest + window - now).total_seconds() + 0.999))
    db.session.add(ThrottleEvent(kind=CREATE, code=None, client=who, at=now))
    return 0
