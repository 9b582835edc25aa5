"""The backups folder: where copies go, how they are named and written, which are kept.

A copy's name tells when it was taken and why (:func:`parse_name`, :class:`Copy`);
:func:`backup_dir` is the folder; a copy is written beside its final name and renamed
once durable; the retention (:func:`to_keep`, :func:`prune`) keeps the newest copy of
each of the last days, then weeks, and the last copies taken before a migration or a
restore. Every file written there is created owner-only (:func:`_create_private`) and
removed if the step that wrote it fails (:func:`_remove_partial`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from flask_babel import format_decimal

from companion.backup.failures import BackupError, os_why
from companion.i18n import gettext as _

#: Default retention: the newest copy of each of the last 7 days, then of 4 more weeks.
KEEP_DAILY = 7
KEEP_WEEKLY = 4
#: How many copies taken before a migration or a restore are kept.
KEEP_BEFORE = 5

_NAME = re.compile(
    r"companion-(?P<moment>\d{8}T\d{6}Z)(?:-(?P<reason>before-[a-z]+))?(?:-(?P<seq>\d+))?\.(?P<ext>sqlite3|pgdump)"
)
_MOMENT = "%Y%m%dT%H%M%SZ"
_EXTENSIONS = {"sqlite": "sqlite3", "postgresql": "pgdump"}


@dataclass(frozen=True)
class Copy:
    """One copy in the backups folder, as its name tells."""

    path: Path
    taken: datetime  # UTC
    reason: str  # "" for a backup, "before-upgrade", "before-restore"…


def parse_name(path: Path) -> Copy | None:
    """The copy a file's name describes, or None for any other file.

    >>> parse_name(Path("companion-20261127T030000Z.sqlite3")).taken.isoformat()
    '2026-11-27T03:00:00+00:00'
    >>> parse_name(Path("companion-20261127T030000Z-before-upgrade-2.pgdump")).reason
    'before-upgrade'
    >>> parse_name(Path("notes.txt")) is None
    True
    """
    match = _NAME.fullmatch(path.name)
    if match is None:
        return None
    try:
        taken = datetime.strptime(match["moment"], _MOMENT).replace(tzinfo=UTC)
    except ValueError:
        return None
    return Copy(path, taken, match["reason"] or "")


def copies(folder: Path) -> list[Copy]:
    """The copies in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    found = [c for c in (parse_name(p) for p in folder.iterdir() if p.is_file()) if c is not None]
    return sorted(found, key=lambda c: (c.taken, c.path.name), reverse=True)


def to_keep(found: Iterable[Copy], keep_daily: int = KEEP_DAILY, keep_weekly: int = KEEP_WEEKLY) -> set[Path]:
    """Which copies the retention keeps (the others may go).

    Backups: the newest of each of the last ``keep_daily`` days that have one, then the
    newest of each of the last ``keep_weekly`` ISO weeks whose newest is not already kept
    (borg's rule: a period already covered by the daily rule does not count again), and
    the newest of all whatever the counts. Days and weeks are UTC, as the names are.
    Copies taken before something (a migration, a restore): the last :data:`KEEP_BEFORE`.
    """
    ordered = sorted(found, key=lambda c: (c.taken, c.path.name), reverse=True)
    backups = [c for c in ordered if not c.reason]
    kept: set[Path] = {c.path for c in [c for c in ordered if c.reason][:KEEP_BEFORE]}

    def rule(count: int, period: Callable[[datetime], object]) -> None:
        last: object = None
        taken = 0
        for c in backups:
            if taken >= count:
                return
            p = period(c.taken)
            if p == last:
                continue
            last = p
            if c.path not in kept:
                kept.add(c.path)
                taken += 1

    rule(keep_daily, lambda t: t.date())
    rule(keep_weekly, lambda t: t.isocalendar()[:2])
    if backups:
        kept.add(backups[0].path)
    return kept


def backup_dir(app: Flask) -> Path:
    """``BACKUP_DIR`` (config, then environment), else ``instance/backups``."""
    configured = app.config.get("BACKUP_DIR") or os.environ.get("BACKUP_DIR", "").strip()
    return Path(configured) if configured else Path(app.instance_path) / "backups"


def _new_path(folder: Path, now: datetime, reason: str, ext: str) -> Path:
    stem = "companion-" + now.astimezone(UTC).strftime(_MOMENT) + (f"-{reason}" if reason else "")
    path = folder / f"{stem}.{ext}"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.{ext}"
    return path


def _blocking_file(folder: Path) -> Path | None:
    """The nearest of ``folder``'s parents that exists, when it is not a folder."""
    for parent in folder.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """One backup or restore at a time in a folder (two overlapping timers wait); the
    folder is created (owner-only) when missing. The lock is the folder's own (``flock``
    on it), so nothing is left in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except FileExistsError:
        raise BackupError(_("%(path)s is not a folder: a file has that name", path=folder)) from None
    except NotADirectoryError:
        blocker = _blocking_file(folder)
        if blocker is None:
            raise BackupError(_("%(path)s is not a folder: a file has that name", path=folder)) from None
        raise BackupError(
            _("the folder %(path)s cannot be created: %(file)s is a file", path=folder, file=blocker)
        ) from None
    except OSError as e:
        raise BackupError(_("the folder %(path)s cannot be created: %(why)s", path=folder, why=os_why(e))) from None
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        raise BackupError(_("the folder %(path)s cannot be opened: %(why)s", path=folder, why=os_why(e))) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _create_private(path: Path) -> None:
    """Create the new, empty file ``path``, owner-only from the start (whatever the
    umask: a copy holds the passphrases' and the devices' tokens' hashes)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        why = os_why(e)
        if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise BackupError(
                _("%(path)s is not a folder this command can write in: %(why)s", path=path.parent, why=why)
            ) from None
        raise BackupError(_("nothing can be written in %(path)s: %(why)s", path=path.parent, why=why)) from None
    os.close(fd)


#: The files SQLite may write beside a database while it changes it.
_SIDECARS = ("-journal", "-wal", "-shm")


def _remove_partial(partial: Path) -> None:
    """Remove a copy that was not finished, and whatever SQLite wrote beside it."""
    for path in (partial, *(partial.with_name(partial.name + s) for s in _SIDECARS)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _settle(partial: Path, final: Path) -> None:
    """Make a finished copy durable, then give it its name (atomically); if the name
    cannot be made durable, the copy is removed (the error goes on)."""
    with partial.open("rb+") as f:
        os.fsync(f.fileno())
    os.replace(partial, final)
    try:
        fd = os.open(final.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        final.unlink(missing_ok=True)
        raise


def _human(size: int) -> str:
    """A file's size as a person reads it (« 264,0 Ko »)."""
    if size < 1024:
        return _("%(size)s bytes", size=size)
    value = size / 1024
    if value < 1024:
        return _("%(size)s KB", size=format_decimal(value, format="0.0"))
    value /= 1024
    if value < 1024:
        return _("%(size)s MB", size=format_decimal(value, format="0.0"))
    return _("%(size)s GB", size=format_decimal(value / 1024, format="0.0"))


#: Tables every Companion database has: a file without them is not one.
_OURS = {"groups", "rounds"}


def prune(folder: Path, keep_daily: int = KEEP_DAILY, keep_weekly: int = KEEP_WEEKLY) -> list[Path]:
    """Remove the copies the retention does not keep; those removed."""
    with _folder_lock(folder):
        try:
            found = copies(folder)
        except OSError as e:
            raise BackupError(_("the folder %(path)s cannot be read: %(why)s", path=folder, why=os_why(e))) from None
        kept = to_keep(found, keep_daily, keep_weekly)
        removed = [c.path for c in found if c.path not in kept]
        for path in removed:
            try:
                path.unlink(missing_ok=True)
            except OSError as e:
                raise BackupError(_("%(path)s cannot be removed: %(why)s", path=path, why=os_why(e))) from None
    return removed
