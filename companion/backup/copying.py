"""The commands' work: :func:`take` a copy of the app's database, :func:`restore` one.

Either on SQLite (:mod:`~companion.backup.sqlite`) or on PostgreSQL
(:mod:`~companion.backup.postgresql`); a restore asks first, takes a copy of the
current database, then says what to do next (a migration to run, workers to restart).
"""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import click
import sqlalchemy as sa
from flask import Flask

from companion.backup.postgresql import _pg_backup, _pg_check_copy, _pg_restore
from companion.backup.retention import (
    _EXTENSIONS,
    BackupError,
    _folder_lock,
    _new_path,
    _settle,
    backup_dir,
    parse_name,
)
from companion.backup.sqlite import (
    _sqlite_backup,
    _sqlite_path,
    _sqlite_restore,
    _sqlite_revision,
    _sqlite_summary,
    _writes_held,
)
from companion.extensions import db


def _dialect() -> str:
    name = str(db.engine.dialect.name)
    if name not in _EXTENSIONS:
        raise BackupError(f"backups are made of SQLite and PostgreSQL databases, not {name}")
    return name


def take(app: Flask, reason: str = "", now: datetime | None = None, folder: Path | None = None) -> Path:
    """Write a copy of the app's database into the backups folder; its path.
    Needs an app context."""
    dialect = _dialect()
    folder = folder or backup_dir(app)
    with _folder_lock(folder):
        target = _new_path(folder, now or datetime.now(UTC), reason, _EXTENSIONS[dialect])
        partial = target.with_name(target.name + ".partial")
        try:
            (_sqlite_backup if dialect == "sqlite" else _pg_backup)(partial)
            _settle(partial, target)
        except (sqlite3.Error, OSError) as e:
            raise BackupError(f"the backup failed: {e}") from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
    return target


def _resolve(file: str, folder: Path) -> Path:
    path = Path(file).expanduser()
    if not path.exists() and not path.is_absolute() and (folder / path).exists():
        path = folder / path
    if not path.is_file():
        raise BackupError(f"there is no file {file} (nor in {folder})")
    return path.resolve()


def _head(app: Flask) -> set[str]:
    from alembic.script import ScriptDirectory

    config = app.extensions["migrate"].migrate.get_config()
    return set(ScriptDirectory.from_config(config).get_heads())


def restore(app: Flask, file: str, yes: bool = False) -> None:
    """Bring a copy back (after asking, unless ``yes``), a copy of the current database first."""
    dialect = _dialect()
    folder = backup_dir(app)
    copy = _resolve(file, folder)
    found = parse_name(copy)
    when = f"taken {found.taken:%Y-%m-%d %H:%M} UTC" if found else f"{copy.name}"
    if dialect == "sqlite":
        if copy.suffix == ".pgdump":
            raise BackupError(f"{copy} is a PostgreSQL copy; this app runs on SQLite")
        revision = _sqlite_revision(copy)
        live = _sqlite_path()
        now_holds = _sqlite_summary(live) if live.exists() else "nothing yet"
        question = (
            f"Replace the database {live} ({now_holds}) with the copy {when} ({_sqlite_summary(copy)})?\n"
            f"A copy of the current database is kept first."
        )
    else:
        if copy.suffix == ".sqlite3":
            raise BackupError(f"{copy} is a SQLite copy; this app runs on PostgreSQL")
        _pg_check_copy(copy)
        revision = None
        url = db.engine.url.render_as_string(hide_password=True)
        question = f"Replace the app's tables in {url} with the copy {when}?\nA copy of them is kept first."
    if not yes:
        click.confirm(question, abort=True)
    before: Path | None = None
    try:
        if dialect == "sqlite":
            live = _sqlite_path()
            # The app's writers wait from the copy of the current database to the
            # restore: no hand saved meanwhile falls between the two.
            existed = live.exists()
            with _writes_held(live) as held:
                if existed:
                    before = take(app, reason="before-restore")
                    click.echo(f"The database as it was: {before}")
                _sqlite_restore(copy, held)
        else:
            before = take(app, reason="before-restore")
            click.echo(f"The database as it was: {before}")
            dropped = _pg_restore(copy)
            if dropped:
                click.echo(f"Dropped the tables the copy does not hold: {', '.join(dropped)}")
    except (BackupError, sqlite3.Error, sa.exc.SQLAlchemyError, OSError) as e:
        said = e.message if isinstance(e, BackupError) else f"the restore failed: {e}"
        if before is not None:
            said += f"\nThe database as it was before is in {before}."
        raise BackupError(said) from None
    db.engine.dispose()
    click.echo(f"Restored {copy}.")
    if dialect == "postgresql":
        with db.engine.connect() as conn:
            if sa.inspect(conn).has_table("alembic_version"):
                revision = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    heads = _head(app)
    if revision is not None and revision not in heads:
        click.echo(
            f"This copy is at migration {revision}, the code at {', '.join(sorted(heads))}: "
            f"run `flask --app companion db upgrade` before serving it."
        )
    click.echo("Restart the app's workers: they keep parts of pages in memory from before.")
