"""A copy of a SQLite database before ``flask db upgrade`` (or ``downgrade``) changes it.

The app's ``flask db`` group is Flask-Migrate's with ``upgrade`` and ``downgrade``
wrapped (:func:`_guard_migrations`): a copy is taken first when there is something to
protect and something to apply, and a failed migration says how to go back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app, g

from companion.backup.copying import take
from companion.backup.failures import reported
from companion.backup.sqlite import _sqlite_path
from companion.extensions import db
from companion.i18n import gettext as _


def copy_before_migrating(app: Flask, verb: str, revision: str, directory: str | None) -> Path | None:
    """On SQLite, a copy of the database before ``db upgrade``/``downgrade`` changes it:
    None when there is nothing to protect (no file, no tables) or nothing to apply."""
    if db.engine.dialect.name != "sqlite":
        return None
    live = _sqlite_path()
    if not live.is_file() or live.stat().st_size == 0:
        return None
    try:
        conn = sqlite3.connect(f"file:{live}?mode=ro", uri=True, timeout=10)
        try:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            current = (
                {str(r[0]) for r in conn.execute("SELECT version_num FROM alembic_version")}
                if "alembic_version" in tables
                else set()
            )
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    if not tables:
        return None
    if verb == "upgrade" and revision in ("head", "heads"):
        from alembic.script import ScriptDirectory

        config = app.extensions["migrate"].migrate.get_config(directory)
        if current == set(ScriptDirectory.from_config(config).get_heads()):
            return None  # already there: no migration to apply
    if verb == "downgrade" and not current:
        return None
    return take(app, reason=f"before-{verb}")


#: What the guard says, by verb (whole sentences: each is translated as a whole).
_made_copy: dict[str, Callable[[Path], str]] = {
    "upgrade": lambda path: _("Before the upgrade, a copy of the database: %(path)s", path=path),
    "downgrade": lambda path: _("Before the downgrade, a copy of the database: %(path)s", path=path),
}
_failed_copy: dict[str, Callable[[str], str]] = {
    "upgrade": lambda reason: _(
        "The copy of the database before the upgrade failed, so nothing was migrated: %(reason)s", reason=reason
    ),
    "downgrade": lambda reason: _(
        "The copy of the database before the downgrade failed, so nothing was migrated: %(reason)s", reason=reason
    ),
}
_failed_migration: dict[str, Callable[[Path], str]] = {
    "upgrade": lambda path: (
        _("The upgrade failed. The database as it was before is in %(path)s; to go back to it:", path=path)
        + f"\n  flask --app companion restore {path}"
    ),
    "downgrade": lambda path: (
        _("The downgrade failed. The database as it was before is in %(path)s; to go back to it:", path=path)
        + f"\n  flask --app companion restore {path}"
    ),
}


def _guarded(command: click.Command, verb: str) -> click.Command:
    """``command`` (Flask-Migrate's ``db upgrade`` or ``db downgrade``), a copy taken first."""
    original = command.callback
    assert original is not None

    @click.pass_context
    def callback(ctx: click.Context, /, **kwargs: Any) -> Any:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        copy = None
        if not kwargs.get("sql"):
            directory = kwargs.get("directory") or g.get("directory")
            with reported(_failed_copy[verb]):
                copy = copy_before_migrating(app, verb, str(kwargs.get("revision") or "head"), directory)
        if copy is not None:
            click.echo(_made_copy[verb](copy))
        try:
            return ctx.invoke(original, **kwargs)
        except (Exception, SystemExit) as e:
            if copy is not None and not (isinstance(e, SystemExit) and e.code in (0, None)):
                click.echo(_failed_migration[verb](copy), err=True)
            raise

    return click.Command(
        name=command.name,
        params=command.params,
        callback=callback,
        help=command.help,
        short_help=command.short_help,
        epilog=command.epilog,
        context_settings=command.context_settings,
    )


def _guard_migrations(app: Flask) -> None:
    """This app's ``flask db`` group: Flask-Migrate's, with ``upgrade`` and ``downgrade``
    taking a copy first (a new group: Flask-Migrate's own, shared by every app, is left
    as it is)."""
    group = app.cli.commands.get("db")
    if not isinstance(group, click.Group):
        return
    commands = dict(group.commands)
    for verb in ("upgrade", "downgrade"):
        if verb in commands:
            commands[verb] = _guarded(commands[verb], verb)
    guarded = click.Group(
        name=group.name,
        commands=commands,
        callback=group.callback,
        params=group.params,
        help=group.help,
        short_help=group.short_help,
        context_settings=group.context_settings,
    )
    app.cli.add_command(guarded, "db")
