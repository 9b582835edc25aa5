"""Display codes guessed as slowly as group codes (:mod:`companion.groups.throttle`).

A display link's code opens its display by itself, with no passphrase: wrong codes are
guesses, judged on the throttle's allowances (per client, a known phone or an invitation
on its own, the same doubling delays), under its locks. Two kinds of request come to
``/t/<code>`` and ``/t/<code>/watch``:

- **A screen showing the link's display.** Its page gives ``static/watch.js`` a key
  (:func:`screen_key`: the code signed with the app's secret, which nobody makes for a
  code they were not given), sent back with each poll and each refresh of the page
  (:data:`KEY_HEADER`). Such a request is never judged and never writes: a display
  polling its link is never slowed, whatever its address did, and costs what it did.
- **Any other** (the link opened from its QR code or typed, a guess) is judged first:
  a look at the guesser's record, then, if it may try, again in a writer's transaction
  under the guesser's lock (:func:`~companion.writes.write_from_here`,
  :func:`~companion.groups.throttle.judge`). While the guesser must wait, every code
  gets the same refusal, looked up or not: it says nothing of the code, so a sweep of
  codes goes no faster than the delays let it; a refusal writes nothing and takes no
  lock. Otherwise the code is looked
  up: a link's, valid or ended, is answered and nothing is written; a well-formed code
  that is no link's is recorded as a wrong try (``T-<code>``) before its 404 is sent. A
  malformed one, which no link has (the format is public), is not recorded.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from flask import current_app, request

from companion.display.links import CODE
from companion.groups import throttle
from companion.writes import stop_writing, write_from_here

#: The header in which a display's script sends its page's key back (``static/watch.js``,
#: from the page's ``data-watch-key``).
KEY_HEADER = "X-Watch-Key"

T = TypeVar("T")


def screen_key(code: str) -> str:
    """The key of a display link's page: proof, sent back by its script, that a screen
    was given the page of that code (the code signed with the app's secret key)."""
    secret = current_app.secret_key or ""
    key = secret.encode() if isinstance(secret, str) else bytes(secret)
    return hmac.new(key, f"display-link:{code}".encode(), hashlib.sha256).hexdigest()[:32]


def holds_page(code: str) -> bool:
    """Whether this request comes from a screen given the page of ``code`` (its key sent
    back in :data:`KEY_HEADER`)."""
    sent = request.headers.get(KEY_HEADER, "")
    if not sent or not sent.isascii() or not CODE.fullmatch(code):
        return False
    return hmac.compare_digest(sent, screen_key(code))


@dataclass(frozen=True)
class Refused:
    """A request for a display code refused: its guesser must wait ``wait`` seconds."""

    wait: int


def through_link(code: str, find: Callable[[], T | None]) -> T | Refused | None:
    """What ``find`` finds for ``code`` (its link, valid or ended, in whatever shape the
    view reads it), None for a code that is no link's, or :class:`Refused` while this
    guesser must wait (the module's docstring says when a request is judged)."""
    if holds_page(code):
        return find()
    # A first look, read only: a guesser that must wait is refused without taking a lock
    # (a sweep goes on being refused without holding up anyone's writes).
    who = throttle.guesser()
    verdict = throttle.judge(guessed(code), who, lock=False)
    if verdict.wait:
        return Refused(verdict.wait)
    write_from_here()
    verdict = throttle.judge(guessed(code), who)
    if verdict.wait:
        stop_writing()
        return Refused(verdict.wait)
    found = find() if CODE.fullmatch(code) else None
    if found is None and CODE.fullmatch(code):
        throttle.record(guessed(code), verdict)
    stop_writing()
    return found


def guessed(code: str) -> str:
    """How a try of a display code is recorded: apart from the group codes (whose alphabet
    has no hyphen), within the record's twelve characters.

    >>> guessed("ABCDEFGHJK")
    'T-ABCDEFGHJK'
    """
    return f"T-{code}"
