"""Backups of a PostgreSQL database: ``pg_dump -Fc`` and ``pg_restore`` of the app's schema.

The client tools must be installed (a message says how when they are not, or when
they are older than the server); a restore first drops the tables the copy does not
hold (a later migration's), then restores in one transaction.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import sqlalchemy as sa

from companion.backup.retention import _OURS, BackupError
from companion.extensions import db


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
