"""The commands: ``flask backup`` (a copy, then the retention) and ``flask restore FILE``."""

from __future__ import annotations

import time
from pathlib import Path

import click
from flask import Flask

from companion.backup.copying import restore, take
from companion.backup.migrating import _guard_migrations
from companion.backup.retention import KEEP_DAILY, KEEP_WEEKLY, _human, backup_dir, copies, prune


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
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Where backups go (default: BACKUP_DIR, else instance/backups).",
    )
    def backup_command(keep_daily: int, keep_weekly: int, folder: Path | None) -> None:
        """Write a consistent copy of the database (while the app runs), then prune old ones."""
        where = folder or backup_dir(app)
        started = time.monotonic()
        path = take(app, folder=where)
        seconds = time.monotonic() - started
        click.echo(f"Backup written: {path} ({_human(path.stat().st_size)}, {seconds:.2f} s)")
        removed = prune(where, keep_daily, keep_weekly)
        left = len(copies(where))
        click.echo(
            f"Kept {left} {'copy' if left == 1 else 'copies'} in {where}"
            + (f"; removed {len(removed)}:" if removed else ".")
        )
        for old in removed:
            click.echo(f"  {old.name}")

    @app.cli.command("restore")
    @click.argument("file")
    @click.option("--yes", is_flag=True, help="Do not ask (for scripts).")
    def restore_command(file: str, yes: bool) -> None:
        """Bring back a copy made by `backup` (a copy of the current database is taken first)."""
        restore(app, file, yes=yes)

    _guard_migrations(app)
