"""Parts of pages kept between requests, in this process: what a page shows of the
database at a known version, rendered once and written out again as long as that
version stands (a game page's rounds, chart and history at game version *v*; the
empty form of its next round, but its CSRF token).

A template marks such a part with ``{% call cached("name") %}…{% endcall %}``, where
``cached`` is a :class:`Fragments` the view passes. On a miss the part is rendered and
kept; on a hit it is written out as kept, and the template never evaluates what is
inside the call block, so the view gives it only what the rest of the page needs
(which is why a hit skips the queries and the drawing too).

A kept part never holds anything of a session or of the moment: no CSRF token, no
flashed message, no undo offer, no form — those stay outside the call blocks and are
rendered at every request.

**Validity.** A kept page is found by its *key* (what the page is: which game, the
language, the page of rounds, the app's root) and is served only while its *stamp*
(what it was rendered from: the game's version and its players' names) is the one the
request has just read from the database. The names of the devices it shows are checked
at every hit (:data:`STILL_NAMED`, in the query that reads the game; or
:func:`same_devices`): renaming a device or a player shows at once, and no version has
to move for it. Nothing has to be invalidated by
hand: every change to a game moves its version on (``companion.writes.claim``), and an
kept page of an older version is never served again (it is replaced, or falls out).

**Size.** One cache per app (``app.extensions``), least recently used first out,
bounded in bytes (``PAGE_CACHE_BYTES``, 2 MiB by default: a 30-round game page keeps
about 45 KB; 0 turns it off). Parts are kept encoded in UTF-8 (a page with one emoji
would take four bytes a character as a Python string). Several processes (gunicorn
workers) each keep their own: each reads the version from the database, so none
serves what another changed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import current_app
from markupsafe import Markup

from companion.extensions import db
from companion.models import Device

#: The default bound of a process's kept parts, in bytes.
DEFAULT_BYTES = 2 * 1024 * 1024
_EXTENSION = "companion.pagecache"
_NAMES = sa.select(Device.id, Device.name).where(Device.id.in_(sa.bindparam("ids", expanding=True)))
#: How many of the devices ``named`` (pairs of an id and a name) still have that name: a
#: column of the query that reads a kept page's game (:func:`same_devices` in the same
#: round trip).
STILL_NAMED = (
    sa.select(sa.func.count(Device.id))
    .where(sa.tuple_(Device.id, Device.name).in_(sa.bindparam("named", expanding=True)))
    .scalar_subquery()
)


@dataclass(frozen=True)
class KeptPage:
    """A page's kept parts, what they were rendered from (``stamp``), the device names
    they show (by id), and values of the same version the rest of the page needs."""

    stamp: Hashable
    parts: dict[str, bytes]
    devices: dict[int, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return sum(len(part) for part in self.parts.values()) + 200 * (1 + len(self.devices) + len(self.extra))


class PageCache:
    """Entries by key, the least recently used dropped first beyond ``max_bytes``
    (safe with threaded workers)."""

    def __init__(self, max_bytes: int = DEFAULT_BYTES) -> None:
        self.max_bytes = max_bytes
        self._pages: OrderedDict[Hashable, KeptPage] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable, stamp: Hashable) -> KeptPage | None:
        """The page kept under ``key`` if it was rendered from ``stamp``."""
        with self._lock:
            kept = self._pages.get(key)
            if kept is None or kept.stamp != stamp:
                return None
            self._pages.move_to_end(key)
            return kept

    def peek(self, key: Hashable) -> KeptPage | None:
        """The page kept under ``key``, whatever it was rendered from (what its hit will need
        to ask, asked in the query that reads the stamp)."""
        return self._pages.get(key)

    def put(self, key: Hashable, kept: KeptPage) -> None:
        """Keep the page ``kept`` under ``key`` (replacing an older one), if it fits."""
        size = kept.size
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= old.size
            if size > self.max_bytes:
                return
            self._pages[key] = kept
            self._bytes += size
            while self._bytes > self.max_bytes:
                _key, dropped = self._pages.popitem(last=False)
                self._bytes -= dropped.size

    def __len__(self) -> int:
        return len(self._pages)

    @property
    def bytes(self) -> int:
        """The size of what is kept."""
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._bytes = 0


def page_cache() -> PageCache:
    """This app's cache of kept parts."""
    cache = current_app.extensions.get(_EXTENSION)
    if cache is None:
        cache = current_app.extensions.setdefault(
            _EXTENSION, PageCache(int(current_app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES)))
        )
    return cache  # type: ignore[no-any-return]


class Fragments:
    """``cached`` in a template: ``{% call cached("name") %}…{% endcall %}`` writes out the
    part kept under that name, or renders it (and remembers it in :attr:`made`)."""

    def __init__(self, kept: KeptPage | None = None) -> None:
        self.kept = kept.parts if kept is not None else {}
        self.made: dict[str, bytes] = {}

    def __call__(self, name: str, caller: Callable[[], str] | None = None) -> Markup:
        kept = self.kept.get(name)
        if kept is not None:
            return Markup(kept.decode())
        assert caller is not None, "cached() is called as {% call cached(name) %}…{% endcall %}"
        html = Markup(caller())
        self.made[name] = html.encode()
        return html


def device_names(devices: Iterable[Any]) -> dict[int, str]:
    """``{id: name}`` of these devices (loaded objects; None skipped)."""
    return {device.id: device.name for device in devices if device is not None}


def same_devices(devices: dict[int, str]) -> bool:
    """Whether these devices still have these names (one query; none when empty)."""
    if not devices:
        return True
    rows = db.session.execute(_NAMES, {"ids": list(devices)})
    return dict(rows.all()) == devices
