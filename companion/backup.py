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
and a file not named as this module names its copies is never touched. Copies taken
before a migration or a restore (``…-before-upgrade``, ``…-before-restore``) are not
counted: the last :data:`KEEP_BEFORE` of them are kept.

**A restore** asks first (``--yes`` for scripts), takes a copy of the current database,
then brings the copy back. On SQLite the copy is written *into* the database through
the same backup API, so the app may keep running: its connections see the restored
database at their next transaction, and writers wait their turn (the writers' lock file
of :mod:`companion.config`, then SQLite's own lock). Never a file copied over a live
database (its ``-wal`` file would then belong to another database). On PostgreSQL,
``pg_restore --clean --if-exists --single-transaction --no-owner``, after dropping the
tables the copy does not hold (a later migration's: they would block the restore, and
they are in the copy just taken). Either way the app's workers should then be
restarted: each keeps parts of pages in memory by game version (:mod:`companion.pagecache`),
and a restored game may reach that version again with other hands.

Nothing happens at import time: :func:`init_app` registers the commands.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
import sqlalchemy as sa
from flask import Flask, current_app, g

from companion.extensions import db

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


class BackupError(click.ClickException):
    """What went wrong, said to the person at the terminal (exit status 1)."""


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


# --- where and how ----------------------------------------------------------------------


def backup_dir(app: Flask) -> Path:
    """``BACKUP_DIR`` (config, then environment), else ``instance/backups``."""
    configured = app.config.get("BACKUP_DIR") or os.environ.get("BACKUP_DIR", "").strip()
    return Path(configured) if configured else Path(app.instance_path) / "backups"


def _dialect() -> str:
    name = str(db.engine.dialect.name)
    if name not in _EXTENSIONS:
        raise BackupError(f"backups are made of SQLite and PostgreSQL databases, not {name}")
    return name


def _sqlite_path() -> Path:
    database = db.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        raise BackupError("this SQLite database is not a file (in memory): there is nothing to copy")
    return Path(database).resolve()


def _new_path(folder: Path, now: datetime, reason: str, ext: str) -> Path:
    stem = "companion-" + now.astimezone(UTC).strftime(_MOMENT) + (f"-{reason}" if reason else "")
    path = folder / f"{stem}.{ext}"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.{ext}"
    return path


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """One backup or restore at a time in a folder (two overlapping timers wait)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _settle(partial: Path, final: Path) -> None:
    """Make a finished copy durable, then give it its name (atomically)."""
    os.chmod(partial, 0o600)
    with partial.open("rb+") as f:
        os.fsync(f.fileno())
    os.replace(partial, final)
    fd = os.open(final.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _human(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} bytes"  # pragma: no cover


# --- SQLite --------------------------------------------------------------------------------


def _integrity(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]


def sqlite_copy(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` into the new file ``target`` while others
    read and write it: one step of the online backup API (a snapshot), in rollback-journal
    mode (one self-contained file), checked."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    src = sqlite3.connect(source, timeout=10, isolation_level=None)
    dst = sqlite3.connect(target, isolation_level=None)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
        problems = _integrity(dst)
        if problems != ["ok"]:
            raise BackupError(f"the copy failed SQLite's integrity check: {'; '.join(problems[:5])}")
    finally:
        dst.close()
        src.close()


def _sqlite_backup(target: Path) -> None:
    sqlite_copy(_sqlite_path(), target)


def _sqlite_summary(path: Path) -> str:
    """« 3 groups, 120 rounds », or what could not be read."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            groups = conn.execute("SELECT count(*) FROM groups").fetchone()[0]
            rounds = conn.execute("SELECT count(*) FROM rounds").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as e:
        return f"not counted: {e}"
    return f"{groups} groups, {rounds} rounds"


#: Tables every Companion database has: a file without them is not one.
_OURS = {"groups", "rounds"}


def _sqlite_revision(path: Path) -> str | None:
    """The migration a SQLite Companion database is at (None: made without migrations);
    an error when the file is not a sound Companion database."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            problems = _integrity(conn)
            if problems != ["ok"]:
                raise BackupError(f"{path} fails SQLite's integrity check: {'; '.join(problems[:5])}")
            tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables >= _OURS:
                raise BackupError(f"{path} is not a copy of a Companion database (no groups, no rounds)")
            row = (
                conn.execute("SELECT version_num FROM alembic_version").fetchone()
                if "alembic_version" in tables
                else None
            )
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not a Companion SQLite database ({e})") from None
    return str(row[0]) if row else None


@contextlib.contextmanager
def _writers_turn(live: Path) -> Iterator[None]:
    """Hold the app's writers' turn on a SQLite file (the lock file of
    :mod:`companion.config`): the app's writing requests wait behind it."""
    live.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(str(live) + "-writers", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _sqlite_restore(copy: Path, live: Path) -> None:
    """Write the copy into the live database through the backup API (the app may run
    meanwhile: its connections see the restored database at their next transaction)."""
    src = sqlite3.connect(f"file:{copy}?mode=ro", uri=True, timeout=10, isolation_level=None)
    dst = sqlite3.connect(live, timeout=30, isolation_level=None)
    try:
        dst.execute("PRAGMA busy_timeout=30000")
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")
        problems = _integrity(dst)
        if problems != ["ok"]:
            raise BackupError(f"the restored database fails SQLite's integrity check: {'; '.join(problems[:5])}")
    finally:
        dst.close()
        src.close()


# --- PostgreSQL ----------------------------------------------------------------------------


def _pg_major() -> str:
    """The server's major version (« 16 »), or « the server's » when it cannot be read."""
    try:
        with db.engine.connect() as conn:
            number = int(conn.execute(sa.text("SHOW server_version_num")).scalar_one())
        return str(number // 10000)
    except Exception:
        return "the server's"


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        major = _pg_major()
        raise BackupError(
            f"{name} is not installed: PostgreSQL backups use PostgreSQL's client tools. Install the "
            f"client of the server's version ({major}), e.g. `apt install postgresql-client-{major}` on "
            f"Debian or Ubuntu, `dnf install postgresql{major}` on Fedora, `brew install libpq` on macOS, "
            f"then run this again."
        )
    return found


def _pg_connection() -> tuple[str, dict[str, str], str]:
    """The libpq address (no password: it goes in the environment), the environment,
    and the app's schema."""
    url = db.engine.url
    env = dict(os.environ, PGCONNECT_TIMEOUT=os.environ.get("PGCONNECT_TIMEOUT", "10"))
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    address = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    with db.engine.connect() as conn:
        schema = str(conn.execute(sa.text("SELECT current_schema()")).scalar_one())
    return address, env, schema


_MISMATCH = re.compile(r"server version: (?P<server>[\d.]+).*?(?:pg_dump|pg_restore) version: (?P<client>[\d.]+)", re.S)


def _pg_failed(tool: str, done: subprocess.CompletedProcess[str]) -> BackupError:
    said = done.stderr.strip()
    mismatch = _MISMATCH.search(said)
    if "version mismatch" in said and mismatch:
        server, client = mismatch["server"], mismatch["client"]
        major = server.split(".")[0]
        return BackupError(
            f"{tool} {client} is older than the server (PostgreSQL {server}) and cannot read it: install "
            f"the client tools of the server's version (e.g. `apt install postgresql-client-{major}`) "
            f"or put their {tool} first on PATH, then run this again."
        )
    if "unsupported version" in said and "file header" in said:
        return BackupError(
            f"this copy was written by a newer pg_dump than this {tool} can read: install the client "
            f"tools of the server's version, then run this again.\n{said}"
        )
    return BackupError(f"{tool} failed (exit status {done.returncode}):\n{said}")


def _pg_backup(target: Path) -> None:
    pg_dump = _pg_tool("pg_dump")
    address, env, schema = _pg_connection()
    quoted = '"' + schema.replace('"', '""') + '"'  # a name, not a pattern
    command = [pg_dump, "--format=custom", "--no-password", f"--schema={quoted}", f"--file={target}", address]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        raise _pg_failed("pg_dump", done)


_TABLE = re.compile(r"\d+; \d+ \d+ TABLE (?!DATA )(?P<schema>\S+) (?P<name>\S+) ")


def _pg_toc(pg_restore: str, copy: Path) -> list[str]:
    done = subprocess.run([pg_restore, "--list", str(copy)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise _pg_failed("pg_restore", done)
    return done.stdout.splitlines()


def _pg_restore(copy: Path) -> list[str]:
    """Restore a pg_dump copy of the app's schema; the tables dropped first (not in the copy)."""
    pg_restore = _pg_tool("pg_restore")
    address, env, schema = _pg_connection()
    toc = _pg_toc(pg_restore, copy)
    listed = [m for m in (_TABLE.match(line) for line in toc) if m]
    in_copy = {m["name"] for m in listed}
    schemas = {m["schema"] for m in listed} or {schema}
    if schemas != {schema}:
        raise BackupError(
            f"this copy holds the schema {', '.join(sorted(schemas))}, the app uses {schema}: "
            f"restore it with pg_restore by hand"
        )
    with db.engine.begin() as conn:
        exists = conn.execute(sa.text("SELECT count(*) FROM pg_namespace WHERE nspname = :s"), {"s": schema}).scalar()
        tables = conn.execute(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema})
        extra = sorted(str(t) for t in tables.scalars() if t not in in_copy)
        for table in extra:
            conn.execute(sa.text(f'DROP TABLE IF EXISTS "{schema}"."{table}" CASCADE'))
    # The schema itself stays (never dropped: other things may live in it, and the
    # public one is the database's); only what the copy holds is dropped and restored.
    own = re.compile(rf"\d+; \d+ \d+ (?:SCHEMA - |COMMENT - SCHEMA |ACL - SCHEMA ){re.escape(schema)} ")
    wanted = [line for line in toc if not (exists and own.match(line))]
    with tempfile.NamedTemporaryFile("w", suffix=".list", delete=False) as listing:
        listing.write("\n".join(wanted) + "\n")
    try:
        command = [
            pg_restore,
            "--clean",
            "--if-exists",
            "--single-transaction",
            "--no-owner",
            "--no-password",
            f"--use-list={listing.name}",
            f"--dbname={address}",
            str(copy),
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    finally:
        os.unlink(listing.name)
    if done.returncode != 0:
        raise _pg_failed("pg_restore", done)
    return extra


def _pg_check_copy(copy: Path) -> None:
    """An error when the file is not a pg_dump archive of a Companion database."""
    toc = _pg_toc(_pg_tool("pg_restore"), copy)
    if not {m["name"] for m in (_TABLE.match(line) for line in toc) if m} >= _OURS:
        raise BackupError(f"{copy} is not a copy of a Companion database (no groups, no rounds)")


# --- the commands' work --------------------------------------------------------------------


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


def prune(folder: Path, keep_daily: int = KEEP_DAILY, keep_weekly: int = KEEP_WEEKLY) -> list[Path]:
    """Remove the copies the retention does not keep; those removed."""
    with _folder_lock(folder):
        found = copies(folder)
        kept = to_keep(found, keep_daily, keep_weekly)
        removed = [c.path for c in found if c.path not in kept]
        for path in removed:
            path.unlink(missing_ok=True)
    return removed


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
            # In the writers' turn from the copy of the current database to the end: no
            # hand saved meanwhile falls between the two.
            with _writers_turn(live):
                if live.exists():
                    before = take(app, reason="before-restore")
                    click.echo(f"The database as it was: {before}")
                _sqlite_restore(copy, live)
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


# --- a copy before a migration -------------------------------------------------------------


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
            copy = copy_before_migrating(app, verb, str(kwargs.get("revision") or "head"), directory)
        if copy is not None:
            click.echo(f"Before the {verb}, a copy of the database: {copy}")
        try:
            return ctx.invoke(original, **kwargs)
        except (Exception, SystemExit) as e:
            if copy is not None and not (isinstance(e, SystemExit) and e.code in (0, None)):
                click.echo(
                    f"The {verb} failed. The database as it was before is in {copy}; to go back to it:\n"
                    f"  flask --app companion restore {copy}",
                    err=True,
                )
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


# --- the commands --------------------------------------------------------------------------


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
