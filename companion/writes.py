"""Writes that a double tap, a retry or a second phone never duplicate or lose.

Two mechanisms, one for each kind of write:

- **Creating forms** (a group, a player, a season, a game) carry a one-time token
  (:class:`companion.forms.OnceForm`).  The view calls :func:`done_before` first: a
  token already used leads to what its first submission created.  Otherwise it
  creates, calls :func:`remember` in the same transaction and commits through
  :func:`commit_once`; two simultaneous submissions of one token collide on its
  primary key, and the loser is sent to the winner's result.
- **Changes to a game** (a round saved, deleted or edited, a status change) name
  the game's ``version`` they were based on.  :func:`claim` moves the version on
  with one conditional ``UPDATE``: only one writer based on a given version can
  succeed; a repeat or a stale one changes nothing and is told so.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import g, request

from companion.database import READ_FIRST, WRITING
from companion.extensions import db
from companion.models import FormToken, Game, utcnow

#: Where a view says what became of its write (read by companion.offline).
OUTBOX_WORD = "companion.outbox_word"

#: How long a form token is remembered (a phone may send a form again much later,
#: after being offline).
TOKEN_DAYS = 30


def done_before(token: object) -> str | None:
    """The address of what ``token``'s form already created, or None.

    Looked up before the form is validated: a form sent again finds what it made,
    not an error about it ("this name is taken").
    """
    if not isinstance(token, str) or not 16 <= len(token) <= 64:
        return None
    return db.session.scalar(sa.select(FormToken.url).where(FormToken.token == token))


def remember(token: str | None, url: str) -> None:
    """Record, in the current transaction, that ``token``'s form created ``url``."""
    if token:
        db.session.add(FormToken(token=token, url=url[:300]))


def commit_once(token: str | None) -> str | None:
    """Commit; None when it went through, else the address the same token already
    created (a simultaneous twin won).  Other integrity errors are raised."""
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        earlier = done_before(token)
        if earlier is None:
            raise
        return earlier
    _forget_old_tokens()
    return None


def _forget_old_tokens() -> None:
    old = utcnow() - timedelta(days=TOKEN_DAYS)
    db.session.execute(sa.delete(FormToken).where(FormToken.created_at < old))
    db.session.commit()


_GAMES = Game.__table__
#: The version claim, built once: the game's row moved on from the version it was based
#: on. On the table, not the class: no copy of the game in the session is looked for
#: (:func:`claim` sets the one it has).
_CLAIM = (
    sa.update(_GAMES)
    .where(_GAMES.c.id == sa.bindparam("game_id"), _GAMES.c.version == sa.bindparam("based_on"))
    .values(version=_GAMES.c.version + 1, updated_at=sa.bindparam("now"))
)


def claim(game: Game, based_on: int | None) -> bool:
    """Move ``game`` on to its next version (changed now) if it is still at ``based_on``.

    True: this writer owns the change (make it, then commit).  False: the game has
    changed since the form was shown (or the same form was already sent); nothing
    must be written.
    """
    if based_on is None:
        return False
    now = utcnow()
    moved = db.session.execute(_CLAIM, {"game_id": game.id, "based_on": based_on, "now": now})
    if moved.rowcount != 1:
        return False
    # The row was at ``based_on`` and is now one further, changed now: known without
    # reading it back, and no second UPDATE to say when.
    so.attributes.set_committed_value(game, "version", based_on + 1)
    so.attributes.set_committed_value(game, "updated_at", now)
    return True


def read_first() -> None:
    """On SQLite, this request reads in a reader's transaction until
    :func:`start_writing`: it does not hold SQLite's write lock to read its forms and ask
    the engine (PostgreSQL has no such lock: one transaction, as ever).
    Only for a write that :func:`claim` checks against the version it was based on,
    which a writer in between moves on."""
    if db.session.get_bind().dialect.name == "sqlite":  # the only database with one write lock
        setattr(g, READ_FIRST, True)


def start_writing() -> None:
    """End the reader's transaction of :func:`read_first` (keeping what was loaded):
    the next statement begins a writer's, which waits for SQLite's write lock."""
    if g.pop(READ_FIRST, None):
        commit()


def write_from_here() -> None:
    """This reading request (a GET) may write from here: its next transaction begins as a
    writer's, which on SQLite takes the write lock with its first statement (as a POST's:
    :func:`companion.database.sqlite_begin`), so that what it reads before writing is
    still so when it writes. A transaction already begun is committed first (keeping
    what it loaded). For a GET that writes only when it must (a wrong display code
    recorded: ``display.guard``); :func:`stop_writing` ends it."""
    if db.session().in_transaction():
        commit()
    setattr(g, WRITING, True)


def stop_writing() -> None:
    """Commit the transaction of :func:`write_from_here` (keeping what it loaded, and
    releasing its locks): the request reads on in a reader's transaction."""
    commit()
    g.pop(WRITING, None)


def commit() -> None:
    """Commit this request's change to a game, keeping what the request loaded.

    What follows such a write (the redirect's address, a flash naming the players)
    reads ids, codes and names the request already holds. By the session's default the
    commit would expire them, to be read again in a new transaction — on SQLite a
    writer's one (:mod:`companion.database`), waiting behind every other phone's save.
    The request ends soon after: nothing it keeps can go stale for long.
    """
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


def tell_outbox(word: str) -> None:
    """Say what became of this request's write, for the phone's outbox
    (:mod:`companion.offline`): ``sent``, ``duplicate``, ``conflict`` or ``refused``."""
    request.environ[OUTBOX_WORD] = word
