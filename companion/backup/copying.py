"""The commands' work: :func:`take` a copy of the app's database, :func:`restore` one.

Either on SQLite (:mod:`~companion.backup.sqlite`) or on PostgreSQL
(:mod:`~companion.backup.postgresql`); a restore asks first, takes a copy of the
current database, then says what to do next (a migration to run, workers to restart).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import click
import sqlalchemy as sa
from flask import Flask

from companion.backup.failures import BackupError, Declined, database_url, database_why, os_why
from companion.backup.postgresql import _pg_backup, _pg_check_copy, _pg_restore
from companion.backup.retention import (
    _EXTENSIONS,
    _create_private,
    _folder_lock,
    _new_path,
    _remove_partial,
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
from companion.i18n import gettext as _


def _dialect() -> str:
    name = str(db.engine.dialect.name)
    if name not in _EXTENSIONS:
        raise BackupError(_("backups are made of SQLite and PostgreSQL databases, not %(name)s", name=name))
    return name


def take(app: Flask, reason: str = "", now: datetime | None = None, folder: Path | None = None) -> Path:
    """Write a copy of the app's database into the backups folder; its path. Needs an
    app context. The copy is written owner-only beside its final name, then renamed;
    when any step fails, nothing of it is left and the error says where."""
    dialect = _dialect()
    folder = folder or backup_dir(app)
    with _folder_lock(folder):
        target = _new_path(folder, now or datetime.now(UTC), reason, _EXTENSIONS[dialect])
        partial = target.with_name(target.name + ".partial")
        _create_private(partial)
        try:
            (_sqlite_backup if dialect == "sqlite" else _pg_backup)(partial)
            _settle(partial, target)
        except OSError as e:
            raise BackupError(
                _("the copy cannot be written in %(path)s: %(why)s", path=folder, why=os_why(e))
            ) from None
        finally:
            _remove_partial(partial)
    return target


def _resolve(file: str, folder: Path) -> Path:
    path = Path(file).expanduser()
    if not path.exists() and not path.is_absolute() and (folder / path).exists():
        path = folder / path
    if not path.is_file():
        raise BackupError(_("there is no file %(file)s (nor in %(folder)s)", file=file, folder=folder))
    return path.resolve()


def _head(app: Flask) -> set[str]:
    from alembic.script import ScriptDirectory

    config = app.extensions["migrate"].migrate.get_config()
    return set(ScriptDirectory.from_config(config).get_heads())


def _confirm(question: str) -> bool:
    """Ask; yes in the app's language or in English (« o », « oui », « y », « yes »)."""
    choices = _("[y/N]")
    try:
        answer = click.prompt(f"{question} {choices}", default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        click.echo()  # the failure's line starts on a line of its own, not after the question
        raise
    return str(answer).strip().lower() in {"o", "oui", "y", "yes"}


def _copy_first(app: Flask) -> Path:
    """The copy of the current database a restore takes first; nothing is restored without it."""
    try:
        before = take(app, reason="before-restore")
    except BackupError as e:
        raise BackupError(
            _("nothing changed, as the current database could not be copied first: %(reason)s", reason=e.message)
        ) from None
    click.echo(_("The database as it was: %(path)s", path=before))
    return before


def restore(app: Flask, file: str, yes: bool = False) -> None:
    """Bring a copy back (after asking, unless ``yes``), a copy of the current database first."""
    dialect = _dialect()
    folder = backup_dir(app)
    copy = _resolve(file, folder)
    found = parse_name(copy)
    when = _("taken %(moment)s UTC", moment=f"{found.taken:%Y-%m-%d %H:%M}") if found else copy.name
    if dialect == "sqlite":
        if copy.suffix == ".pgdump":
            raise BackupError(_("%(path)s is a PostgreSQL copy; this app runs on SQLite", path=copy))
        revision = _sqlite_revision(copy)
        live = _sqlite_path()
        now_holds = _sqlite_summary(live) if live.exists() else _("nothing yet")
        question = _(
            "A copy of the current database is kept first. Replace the database %(live)s (%(holds)s) "
            "with the copy %(when)s (%(copy_holds)s)?",
            live=live,
            holds=now_holds,
            when=when,
            copy_holds=_sqlite_summary(copy),
        )
    else:
        if copy.suffix == ".sqlite3":
            raise BackupError(_("%(path)s is a SQLite copy; this app runs on PostgreSQL", path=copy))
        _pg_check_copy(copy)
        revision = None
        question = _(
            "A copy of them is kept first. Replace the app's tables in %(url)s with the copy %(when)s?",
            url=database_url(),
            when=when,
        )
    if not yes and not _confirm(question):
        raise Declined(_("Nothing was restored: the answer was no."))
    before: Path | None = None
    try:
        if dialect == "sqlite":
            live = _sqlite_path()
            # The app's writers wait from the copy of the current database to the
            # restore: no hand saved meanwhile falls between the two.
            existed = live.exists()
            try:
                with _writes_held(live) as held:
                    if existed:
                        before = _copy_first(app)
                    _sqlite_restore(copy, held, live)
            except BaseException:
                if not existed:
                    _remove_partial(live)  # a database this restore began: nothing of it is left
                raise
        else:
            before = _copy_first(app)
            dropped = _pg_restore(copy)
            if dropped:
                click.echo(_("Dropped the tables the copy does not hold: %(tables)s", tables=", ".join(dropped)))
    except (BackupError, sqlite3.Error, sa.exc.SQLAlchemyError, OSError) as e:
        if isinstance(e, BackupError):
            said = e.message
        elif isinstance(e, OSError):
            said = _("%(path)s: %(why)s", path=e.filename, why=os_why(e)) if e.filename else os_why(e)
        elif isinstance(e, sa.exc.DBAPIError):
            said = _("the database %(url)s failed: %(why)s", url=database_url(), why=database_why(e))
        else:
            said = str(e)
        if before is not None:
            said = _("%(reason)s; the database as it was before is kept in %(path)s", reason=said, path=before)
        raise BackupError(said) from None
    db.engine.dispose()
    click.echo(_("Restored %(path)s.", path=copy))
    if dialect == "postgresql":
        with db.engine.connect() as conn:
            if sa.inspect(conn).has_table("alembic_version"):
                revision = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    heads = _head(app)
    if revision is not None and revision not in heads:
        click.echo(
            _(
                "This copy is at migration %(revision)s, the code at %(heads)s: "
                "run `flask --app companion db upgrade` before serving it.",
                revision=revision,
                heads=", ".join(sorted(heads)),
            )
        )
    click.echo(_("Restart the app's workers: they keep parts of pages in memory from before."))
