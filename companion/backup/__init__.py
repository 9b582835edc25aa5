"""Backups the app makes itself: ``flask --app companion backup`` and ``restore FILE``,
and a copy of a SQLite database before ``flask db upgrade`` (or ``downgrade``) applies a
migration.

**A backup** is a consistent copy of the database taken while the app runs. On SQLite,
SQLite's online backup API (:meth:`sqlite3.Connection.backup`, in one step: one read
transaction, so the copy is the database as one moment saw it, and in WAL mode the app's
writers never wait for it), written beside its final name, checked (``PRAGMA
integrity_check``), then renamed: a copy that is there is whole. On PostgreSQL,
``pg_dump`` in its custom format (``-Fc``) of the app's schema (``current_schema()``),
when it is installed; otherwise a message says what to install.

Copies go to ``instance/backups/`` (``BACKUP_DIR`` in the environment or the config;
``--dir``), owner-only (they hold the passphrases' hashes and the devices' tokens'
hashes), named by their UTC moment: ``companion-20261127T030000Z.sqlite3`` (or
``.pgdump``). **Retention**, after each backup, borg's way: the newest copy of each of
the last 7 days that have one (``--keep-daily``), then the newest of each of the last 4
weeks that have one not already kept (``--keep-weekly``). The newest copy is always kept,
and a file not named as this package names its copies is never touched. Copies taken
before a migration or a restore (``…-before-upgrade``, ``…-before-restore``) are not
counted: the last :data:`KEEP_BEFORE` of them are kept.

**A restore** asks first (``--yes`` for scripts), takes a copy of the current database,
then brings the copy back. On SQLite the copy is written *into* the database through
the same backup API, so the app may keep running: its connections see the restored
database at their next transaction, and its writers wait (SQLite's write lock, held by
the restore from the copy of the current database to its end). Never a file copied over a live
database (its ``-wal`` file would then belong to another database). On PostgreSQL,
``pg_restore --clean --if-exists --single-transaction --no-owner``, after dropping the
tables the copy does not hold (a later migration's: they would block the restore, and
they are in the copy just taken). Either way the app's workers should then be
restarted: each keeps parts of pages in memory by game version (:mod:`companion.pagecache`),
and a restored game may reach that version again with other hands.

**When something fails** (the folder missing and not creatable, a file in its place, a
permission refused, a full disk, the database unreachable, an error nobody expected),
the command prints one line on stderr that says what failed and where (« La sauvegarde a
échoué : /srv/x n’est pas un dossier accessible en écriture : permission refusée »),
and exits with status 1; ``--verbose`` adds the traceback. Every file a backup writes
is created owner-only from the start (never made so afterwards) and removed when the
step that wrote it fails, with whatever SQLite wrote beside it (``-journal``, ``-wal``,
``-shm``): a failed backup leaves nothing in the folder. A failed restore says whether
the database changed, and where the copy of it taken first is. The folder's lock is the
folder itself (``flock``), not a file in it. The commands speak the app's language
(French: a command has no request to choose another).

Nothing happens at import time: :func:`init_app` registers the commands.

The package, by concept (each module imports only those above it):

- :mod:`~companion.backup.failures` — :class:`BackupError` (a reason, one line), what
  errors of the system and of SQLite mean in words, and :func:`reported`: a command's
  one line when anything stops it.
- :mod:`~companion.backup.retention` — the backups folder: the copies' names
  (:func:`parse_name`, :func:`copies`), where they go (:func:`backup_dir`), how one is
  written (owner-only, removed on failure), and which are kept (:func:`to_keep`,
  :func:`prune`).
- :mod:`~companion.backup.sqlite` — SQLite: a copy through the online backup API
  (:func:`sqlite_copy`), a copy's checks and summary, a restore into the live file.
- :mod:`~companion.backup.postgresql` — PostgreSQL: ``pg_dump`` and ``pg_restore``,
  and what to say when they are missing or too old.
- :mod:`~companion.backup.copying` — the commands' work: :func:`take` and
  :func:`restore`, whatever the database.
- :mod:`~companion.backup.migrating` — the copy before a migration
  (:func:`copy_before_migrating`) and the guarded ``flask db upgrade``/``downgrade``.
- :mod:`~companion.backup.commands` — :func:`init_app`: ``flask backup`` and
  ``flask restore``.
"""

from __future__ import annotations

from companion.backup.commands import init_app
from companion.backup.copying import restore, take
from companion.backup.failures import BackupError
from companion.backup.migrating import copy_before_migrating
from companion.backup.retention import (
    KEEP_BEFORE,
    KEEP_DAILY,
    KEEP_WEEKLY,
    Copy,
    backup_dir,
    copies,
    parse_name,
    prune,
    to_keep,
)
from companion.backup.sqlite import sqlite_copy

__all__ = [
    "KEEP_BEFORE",
    "KEEP_DAILY",
    "KEEP_WEEKLY",
    "BackupError",
    "Copy",
    "backup_dir",
    "copies",
    "copy_before_migrating",
    "init_app",
    "parse_name",
    "prune",
    "restore",
    "sqlite_copy",
    "take",
    "to_keep",
]
