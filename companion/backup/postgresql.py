"""Backups of a PostgreSQL database: ``pg_dump -Fc`` and ``pg_restore`` of the app's schema.

The client tools must be installed (a message says how when they are not, or when
they are older than the server); a restore first drops the tables the copy does not
hold (a later migration's), then restores in one transaction.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import sqlalchemy as sa

from companion.backup.failures import BackupError, database_url, database_why, one_line, os_why
from companion.backup.retention import _OURS
from companion.extensions import db
from companion.i18n import gettext as _


def _pg_major() -> str | None:
    """The server's major version (« 16 »), or None when it cannot be read."""
    try:
        with db.engine.connect() as conn:
            number = int(conn.execute(sa.text("SHOW server_version_num")).scalar_one())
        return str(number // 10000)
    except Exception:
        return None


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        major = _pg_major()
        if major is None:
            raise BackupError(
                _(
                    "%(tool)s is not installed: PostgreSQL backups use PostgreSQL's client tools. Install "
                    "those of the server's version (e.g. `apt install postgresql-client` on Debian or Ubuntu, "
                    "`brew install libpq` on macOS), then run this again.",
                    tool=name,
                )
            )
        raise BackupError(
            _(
                "%(tool)s is not installed: PostgreSQL backups use PostgreSQL's client tools. Install the "
                "client of the server's version (%(major)s), e.g. `apt install postgresql-client-%(major)s` on "
                "Debian or Ubuntu, `dnf install postgresql%(major)s` on Fedora, `brew install libpq` on macOS, "
                "then run this again.",
                tool=name,
                major=major,
            )
        )
    return found


def _pg_connection() -> tuple[str, dict[str, str], str]:
    """The libpq address (no password: it goes in the environment), the environment,
    and the app's schema; an error naming the database when it cannot be reached."""
    url = db.engine.url
    env = dict(os.environ, PGCONNECT_TIMEOUT=os.environ.get("PGCONNECT_TIMEOUT", "10"))
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    address = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    try:
        with db.engine.connect() as conn:
            schema = str(conn.execute(sa.text("SELECT current_schema()")).scalar_one())
    except sa.exc.DBAPIError as e:
        raise BackupError(
            _("the database %(url)s cannot be reached: %(why)s", url=database_url(), why=database_why(e))
        ) from None
    return address, env, schema


_MISMATCH = re.compile(r"server version: (?P<server>[\d.]+).*?(?:pg_dump|pg_restore) version: (?P<client>[\d.]+)", re.S)

#: What pg_dump says when it cannot write its file, and the system's error behind it.
_WRITE_ERRORS = {
    "No space left on device": errno.ENOSPC,
    "File too large": errno.EFBIG,
    "Disk quota exceeded": getattr(errno, "EDQUOT", errno.ENOSPC),
}


def _said(stderr: str) -> str:
    """What a client tool printed, on one line: its first two lines (the error, and
    the detail or hint that follows it)."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return one_line(" ".join(lines[:2])) + (" …" if len(lines) > 2 else "")


def _pg_failed(tool: str, done: subprocess.CompletedProcess[str], target: Path | None = None) -> BackupError:
    """What a failed ``pg_dump`` (writing ``target``) or ``pg_restore`` means."""
    said = done.stderr.strip()
    if done.returncode < 0:
        number = -done.returncode
        if number == getattr(signal, "SIGXFSZ", None) and target is not None:
            why = os_why(OSError(errno.EFBIG, os.strerror(errno.EFBIG)))
            return BackupError(_("the copy cannot be written in %(path)s: %(why)s", path=target.parent, why=why))
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return BackupError(_("%(tool)s was stopped by the signal %(signal)s", tool=tool, signal=name))
    if target is not None:
        for words, code in _WRITE_ERRORS.items():
            if words in said:
                why = os_why(OSError(code, words))
                return BackupError(_("the copy cannot be written in %(path)s: %(why)s", path=target.parent, why=why))
    mismatch = _MISMATCH.search(said)
    if "version mismatch" in said and mismatch:
        server, client = mismatch["server"], mismatch["client"]
        major = server.split(".")[0]
        return BackupError(
            _(
                "%(tool)s %(client)s is older than the server (PostgreSQL %(server)s) and cannot read it: "
                "install the client tools of the server's version (e.g. `apt install postgresql-client-%(major)s`) "
                "or put their %(tool)s first on PATH, then run this again.",
                tool=tool,
                client=client,
                server=server,
                major=major,
            )
        )
    if "unsupported version" in said and "file header" in said:
        return BackupError(
            _(
                "this copy was written by a newer pg_dump than this %(tool)s can read: install the client "
                "tools of the server's version, then run this again (%(said)s)",
                tool=tool,
                said=_said(said),
            )
        )
    return BackupError(
        _("%(tool)s failed (exit status %(status)s): %(said)s", tool=tool, status=done.returncode, said=_said(said))
    )


def _pg_backup(target: Path) -> None:
    """``pg_dump`` of the app's schema into ``target``, an empty file created owner-only
    (pg_dump writes into it, keeping its permissions); on failure the caller removes it."""
    address, env, schema = _pg_connection()  # first: an unreachable database is said as such
    pg_dump = _pg_tool("pg_dump")
    quoted = '"' + schema.replace('"', '""') + '"'  # a name, not a pattern
    command = [pg_dump, "--format=custom", "--no-password", f"--schema={quoted}", f"--file={target}", address]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise _pg_failed("pg_dump", done, target)


_TABLE = re.compile(r"\d+; \d+ \d+ TABLE (?!DATA )(?P<schema>\S+) (?P<name>\S+) ")


def _pg_toc(pg_restore: str, copy: Path) -> list[str]:
    done = subprocess.run([pg_restore, "--list", str(copy)], capture_output=True, text=True, check=False)
    if done.returncode > 0 and "unsupported version" not in done.stderr:
        raise BackupError(_("%(path)s is not a copy pg_restore can read: %(said)s", path=copy, said=_said(done.stderr)))
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
            _(
                "this copy holds the schema %(schemas)s, the app uses %(schema)s: restore it with pg_restore by hand",
                schemas=", ".join(sorted(schemas)),
                schema=schema,
            )
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
    try:
        fd, listing = tempfile.mkstemp(suffix=".list", prefix="companion-restore-")  # owner-only
    except OSError as e:
        raise BackupError(
            _("a temporary file cannot be written in %(path)s: %(why)s", path=tempfile.gettempdir(), why=os_why(e))
        ) from None
    try:
        try:
            with os.fdopen(fd, "w") as f:
                f.write("\n".join(wanted) + "\n")
        except OSError as e:
            raise BackupError(
                _("a temporary file cannot be written in %(path)s: %(why)s", path=tempfile.gettempdir(), why=os_why(e))
            ) from None
        command = [
            pg_restore,
            "--clean",
            "--if-exists",
            "--single-transaction",
            "--no-owner",
            "--no-password",
            f"--use-list={listing}",
            f"--dbname={address}",
            str(copy),
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    finally:
        os.unlink(listing)
    if done.returncode != 0:
        raise _pg_failed("pg_restore", done)
    return extra


def _pg_check_copy(copy: Path) -> None:
    """An error when the file is not a pg_dump archive of a Companion database."""
    toc = _pg_toc(_pg_tool("pg_restore"), copy)
    if not {m["name"] for m in (_TABLE.match(line) for line in toc) if m} >= _OURS:
        raise BackupError(_("%(path)s is not a copy of a Companion database (no groups, no rounds)", path=copy))
