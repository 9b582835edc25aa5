"""Slowing down passphrase guessing and group creation, per client.

The client is the address the request came from; behind trusted reverse proxies
(``TRUSTED_PROXIES``, see the README) it is the address they forwarded, so that
the people of one table behind one proxy are not one client.

**Guesses.** Every try of a code and passphrase is recorded *before* it is judged,
inside a lock on that client (a transaction-scoped advisory lock on PostgreSQL; on
SQLite a writing request holds the write lock from its first statement), so that
simultaneous guesses are counted one after another.  A right passphrase wipes the
guesser's record for that code.  ``GUESS_FREE_TRIES`` tries of a code are free (four:
the fifth is the first to wait); after them each new one must wait a delay that
doubles with every failure (2 s, 4 s, 8 s… up to 15 minutes), rather than a fixed
wall: whoever knows the passphrase waits seconds, not a quarter of an hour.  Tries
across many codes grow a delay of their own after ``GUESS_FREE_TRIES_ANY_CODE`` an
hour (twenty), so codes cannot be swept.

**Whose allowance.** A café's Wi-Fi is one address for everyone in it: counted by
address alone, a stranger's wrong guesses would lock a whole table out of its own
group.  So a phone that has joined a group before (its device token is on a device
record, in any group, revoked or not) and a phone holding a valid QR invitation it
opened are each judged on their **own** allowance — the same free tries and delays,
counted for that phone (``device:<first device id>``, ``invite:<invitation id>``), not for the
address.  What they try is not counted on the address's allowance either, which stays
that of every other client behind it: a new client guesses exactly as slowly as ever.

Joining a group of one's own makes a phone known, so an address could make itself
many such phones; all the known phones behind one address therefore also share a
pool (``known:<address>``) with a larger free allowance (``GUESS_FREE_TRIES_KNOWN`` per
code and ``GUESS_FREE_TRIES_ANY_CODE_KNOWN`` across codes) and the same doubling
delays after it.  A table's own mistakes never reach it; someone guessing through
phones made for the purpose gets one more slow allowance, not one per phone.

**Codes that open something by themselves.** A table display's link (``/t/<code>``:
:mod:`companion.display.guard`) opens its display with its code alone. Its wrong codes
are guesses on the same allowances, under the same locks (:func:`judge`, then
:func:`record` for a code that is no link's, as ``T-<code>``); a display's own polls are
never judged and never write.

**Creations.** A client may create a few groups an hour.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app, request, session

from companion.extensions import db
from companion.groups.invite import INVITED_KEY, is_valid
from companion.i18n import gettext as _
from companion.i18n import ngettext
from companion.membership.access import devices_ever
from companion.models import JoinToken, ThrottleEvent, utcnow

GUESS = "guess"
CREATE = "create"


def client() -> str:
    """The client's address (the real one behind trusted proxies: ProxyFix)."""
    return (request.remote_addr or "?")[:64]


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


def delay(failures: int, free: int) -> int:
    """Seconds a client must wait after ``failures`` wrong tries when ``free`` tries are
    free: none while fewer have failed; once they all have, 2 s before the next try,
    doubling with each further failure, up to 15 minutes. With four free tries, the
    fifth waits 2 s after the fourth failure.

    >>> [delay(n, 4) for n in (0, 3, 4, 5, 9, 30)]
    [0, 0, 2, 4, 64, 900]
    """
    if failures < free:
        return 0
    return int(min(900, 2 ** min(failures - free + 1, 10)))


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


@dataclass(frozen=True)
class Guesser:
    """Who is guessing: the address, and the phone's own allowance when it has one."""

    address: str
    #: ``device:<id>`` (a phone that joined a group before), ``invite:<id>`` (one holding a valid
    #: QR invitation), or None (a new client: judged on the address's allowance).
    own: str | None = None
    #: The clock of the phone's latest group (a known phone), to say when to try again.
    zone: str | None = None

    @property
    def counted_as(self) -> str:
        """Whose record a try is written in and judged on first."""
        return self.own if self.own is not None else self.address


def guesser() -> Guesser:
    """This request's guesser (one query for the device records; one more, for a browser
    that opened a QR link, for its invitation)."""
    address = client()
    devices = devices_ever()
    if devices:
        return Guesser(address, f"device:{devices[0][0]}", devices[-1][1])
    invited = session.get(INVITED_KEY)
    if isinstance(invited, int) and not isinstance(invited, bool):
        token = db.session.get(JoinToken, invited)
        if token is not None and is_valid(token):
            return Guesser(address, f"invite:{token.id}")
    return Guesser(address)


@dataclass(frozen=True)
class Verdict:
    """What :func:`before_guess` decided: ``wait`` 0 when the try may be judged (it is
    recorded), else the seconds to wait (nothing is recorded)."""

    wait: int
    guesser: Guesser
    #: The try as the pool of the address's known phones recorded it (its id), if it was.
    pooled: int | None = None


def _tries(who: str, code: str | None, since: datetime) -> list[datetime]:
    query = sa.select(ThrottleEvent.at).where(
        ThrottleEvent.kind == GUESS, ThrottleEvent.client == who, ThrottleEvent.at >= since
    )
    if code is not None:
        query = query.where(ThrottleEvent.code == code)
    return list(db.session.scalars(query))


def _wait(who: str, code: str, now: datetime, free: int, free_any_code: int) -> int:
    """Seconds ``who`` must wait before trying ``code``: tries of that code in the last
    day, of any code in the last hour."""
    return max(
        _wait_after(_tries(who, code, now - timedelta(days=1)), free),
        _wait_after(_tries(who, None, now - timedelta(hours=1)), free_any_code),
    )


def _known(who: Guesser) -> str:
    """The pool of the known phones behind the guesser's address."""
    return f"known:{who.address}"[:64]


def judge(code: str, who: Guesser | None = None, *, lock: bool = True) -> Verdict:
    """Take the guesser's locks (this request's guesser unless ``who`` is given) and say
    whether a try of ``code`` may be judged now (``wait`` 0) or how long it must wait;
    nothing is recorded. The locks (and, on SQLite, the writer's transaction the request
    must be in) are held until the transaction ends: a try recorded in it
    (:func:`record`) is counted before the next. Without ``lock``, a first look, in any
    transaction: a guesser that must wait is told so without waiting for another's
    transaction, one that may try is judged again under the locks before it does."""
    who, code = who or guesser(), code.upper()[:12]
    config = current_app.config
    if lock:
        _lock(f"guess:{who.address}")
        if who.own is not None:
            _lock(f"guess:{who.own}")
    now = utcnow()
    wait = _wait(who.counted_as, code, now, config["GUESS_FREE_TRIES"], config["GUESS_FREE_TRIES_ANY_CODE"])
    if who.own is not None:
        free, free_any = config["GUESS_FREE_TRIES_KNOWN"], config["GUESS_FREE_TRIES_ANY_CODE_KNOWN"]
        wait = max(wait, _wait(_known(who), code, now, free, free_any))
    return Verdict(wait, who)


def record(code: str, verdict: Verdict) -> Verdict:
    """Record the try of ``code`` that :func:`judge` let through, in the guesser's record
    (and its address's known phones' pool), forget tries a day old, and commit."""
    who, code, now = verdict.guesser, code.upper()[:12], utcnow()
    db.session.add(ThrottleEvent(kind=GUESS, code=code, client=who.counted_as, at=now))
    pooled = None
    if who.own is not None:
        pooled = ThrottleEvent(kind=GUESS, code=code, client=_known(who), at=now)
        db.session.add(pooled)
    db.session.execute(sa.delete(ThrottleEvent).where(ThrottleEvent.at < now - timedelta(days=1)))
    db.session.flush()
    pooled_id = pooled.id if pooled is not None else None
    db.session.commit()
    return Verdict(0, who, pooled_id)


def before_guess(code: str) -> Verdict:
    """Record a try of ``code`` by this guesser and commit, when it may be judged now;
    else how long it must wait (nothing is recorded then)."""
    verdict = judge(code)
    if verdict.wait:
        db.session.rollback()
        return verdict
    return record(code, verdict)


def guessed_right(code: str, verdict: Verdict) -> None:
    """Wipe the guesser's own record of ``code`` (in the current transaction): the
    address's for a new client, the phone's for a known one — and, from the pool of the
    address's known phones, this right try alone (a table rejoining after a passphrase
    change is never slowed down by its own phones; the others' wrong tries stay)."""
    db.session.execute(
        sa.delete(ThrottleEvent).where(
            ThrottleEvent.kind == GUESS,
            ThrottleEvent.client == verdict.guesser.counted_as,
            ThrottleEvent.code == code.upper()[:12],
        )
    )
    if verdict.pooled is not None:
        db.session.execute(sa.delete(ThrottleEvent).where(ThrottleEvent.id == verdict.pooled))


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


def wait_message(seconds: int) -> str:
    """How long to wait, as a page refusing a try says it (group creation, an import)."""
    if seconds >= 90:
        return _("Too many tries. Try again in %(minutes)d minutes.", minutes=(seconds + 59) // 60)
    return ngettext(
        "Too many tries. Try again in %(num)d second.", "Too many tries. Try again in %(num)d seconds.", seconds
    )
