"""The commands: ``flask backup`` (a copy, then the retention) and ``flask restore FILE``.

Each says what it did on stdout and, when anything stops it, one line on stderr naming
what failed and where (:func:`~companion.backup.failures.reported`), with exit status 1;
``--verbose`` adds the traceback. Their words are the app's (French by default).
"""

from __future__ import annotations

import time
from pathlib import Path

import click
from flask import Flask
from flask_babel import format_decimal

from companion.backup.copying import restore, take
from companion.backup.failures import reported
from companion.backup.migrating import _guard_migrations
from companion.backup.retention import KEEP_DAILY, KEEP_WEEKLY, _human, backup_dir, copies, prune
from companion.i18n import gettext as _
from companion.i18n import ngettext

_VERBOSE = click.option("--verbose", is_flag=True, help="When it fails, print the traceback too.")


def init_app(app: Flask) -> None:
    """Register ``flask backup`` and ``flask restore``; guard ``flask db upgrade``.
    Call after Flask-Migrate's ``init_app``."""

    @app.cli.command("backup")
    @click.option(
        "--keep-daily",
        type=click.IntRange(min=0),
        default=KEEP_DAILY,
        show_default=True,
        help="Keep the newest backup of each of the last N days that have one.",
    )
    @click.option(
        "--keep-weekly",
        type=click.IntRange(min=0),
        default=KEEP_WEEKLY,
        show_default=True,
        help="Then keep the newest of each of the N weeks before those.",
    )
    @click.option(
        "--dir",
        "folder",
        type=click.Path(path_type=Path),
        default=None,
        help="Where backups go (default: BACKUP_DIR, else instance/backups).",
    )
    @_VERBOSE
    def backup_command(keep_daily: int, keep_weekly: int, folder: Path | None, verbose: bool) -> None:
        """Write a consistent copy of the database (while the app runs), then prune old ones."""
        where = folder or backup_dir(app)
        with reported(lambda reason: _("The backup failed: %(reason)s", reason=reason), verbose):
            started = time.monotonic()
            path = take(app, folder=where)
            seconds = format_decimal(time.monotonic() - started, format="0.00")
            size = _human(path.stat().st_size)
            click.echo(_("Backup written: %(path)s (%(size)s, %(seconds)s s)", path=path, size=size, seconds=seconds))
        with reported(
            lambda reason: _(
                "The backup is written (%(path)s), but pruning the old copies failed: %(reason)s",
                path=path,
                reason=reason,
            ),
            verbose,
        ):
            removed = prune(where, keep_daily, keep_weekly)
            left = len(copies(where))
        kept = ngettext("Kept %(num)s copy in %(folder)s", "Kept %(num)s copies in %(folder)s", left, folder=where)
        if not removed:
            click.echo(f"{kept}.")
            return
        click.echo(ngettext("%(kept)s; removed %(num)s:", "%(kept)s; removed %(num)s:", len(removed), kept=kept))
        for old in removed:
            click.echo(f"  {old.name}")

    @app.cli.command("restore")
    @click.argument("file")
    @click.option("--yes", is_flag=True, help="Do not ask (for scripts).")
    @_VERBOSE
    def restore_command(file: str, yes: bool, verbose: bool) -> None:
        """Bring back a copy made by `backup` (a copy of the current database is taken first)."""
        with reported(lambda reason: _("The restore failed: %(reason)s", reason=reason), verbose):
            restore(app, file, yes=yes)

    _guard_migrations(app)
