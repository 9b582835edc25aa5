"""What a failed backup, restore or copy says: one line, in the app's language, naming
the place (a folder, a file, a database) and what went wrong there.

:class:`BackupError` carries the reason (« /srv/x n’est pas un dossier accessible en
écriture : permission refusée »); :func:`reported` wraps a command's work and turns
whatever escapes it (a reason, an interruption, an error nobody expected) into the
command's one line on stderr, with exit status 1. :func:`os_why` and :func:`sqlite_why`
say in words what an error of the system or of SQLite means.
"""

from __future__ import annotations

import contextlib
import errno
import re
import sqlite3
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import IO, Any

import click
import sqlalchemy as sa

from companion.extensions import db
from companion.i18n import gettext as _


def one_line(text: str) -> str:
    """``text`` on one line: its lines joined, ASCII spaces squeezed (a non-breaking
    space, as French writes before a colon, stays).

    >>> one_line("pg_dump: error: connection failed\\n\\tIs the server running?\\n")
    'pg_dump: error: connection failed Is the server running?'
    >>> one_line("La sauvegarde a échoué\\xa0: x")
    'La sauvegarde a échoué\xa0: x'
    """
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip(" ")


class BackupError(click.ClickException):
    """What went wrong, said to the person at the terminal: one line on stderr, exit status 1."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))

    def show(self, file: IO[Any] | None = None) -> None:
        # The sentence alone (Click would put an English « Error: » before it).
        click.echo(self.format_message(), file=file, err=file is None)


class Declined(BackupError):
    """The person asked said no: nothing was done (said as it is, not as a failure)."""


def os_why(e: OSError) -> str:
    """What a system error means, in words (« le disque est plein »)."""
    code = e.errno
    if code == errno.ENOSPC:
        return _("the disk is full")
    if code == getattr(errno, "EDQUOT", None):
        return _("the disk quota is used up")
    if code == errno.EFBIG:
        return _("the file would exceed the largest size allowed (a limit of the system or of this user)")
    if code in (errno.EACCES, errno.EPERM):
        return _("permission denied")
    if code == errno.EROFS:
        return _("the file system is read-only")
    if code == errno.ENOENT:
        return _("no such file or folder")
    if code == errno.ENOTDIR:
        return _("part of the path is a file, not a folder")
    if code == errno.EISDIR:
        return _("it is a folder, not a file")
    if code == errno.EIO:
        return _("input/output error (a failing disk?)")
    return e.strerror or str(e)


def sqlite_why(e: sqlite3.Error) -> str:
    """What an error of SQLite means, in words; SQLite does not tell which error of the
    system was behind an input/output error (a full disk, a size limit, a failing disk)."""
    name = str(getattr(e, "sqlite_errorname", ""))
    if name == "SQLITE_FULL":
        return _("the disk is full")
    if name.startswith("SQLITE_IOERR"):
        return _("input/output error (is the disk full, or failing?)")
    if name.startswith("SQLITE_CANTOPEN"):
        return _("the file cannot be opened (missing, or permission denied)")
    if name.startswith("SQLITE_READONLY"):
        return _("the file is read-only")
    if name.startswith(("SQLITE_PERM", "SQLITE_AUTH")):
        return _("permission denied")
    if name == "SQLITE_NOTADB":
        return _("it is not a SQLite database")
    if name.startswith("SQLITE_CORRUPT"):
        return _("the database is damaged")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return _("the database is busy (locked by another process)")
    return one_line(str(e))


def database_url() -> str:
    """The app's database, as a person may read it (no password)."""
    url = db.engine.url
    return str(url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True))


def database_why(e: sa.exc.DBAPIError) -> str:
    """What the database's driver said, on one line."""
    return one_line(str(e.orig) if e.orig is not None else str(e))


@contextlib.contextmanager
def reported(failed: Callable[[str], str], verbose: bool = False) -> Iterator[None]:
    """Run a command's work; whatever stops it becomes one line, ``failed(reason)``
    (« La sauvegarde a échoué : … »), on stderr, with exit status 1. An error nobody
    expected is named with its type; ``verbose`` prints its traceback first."""
    try:
        yield
    except Declined:
        raise
    except BackupError as e:
        if verbose:
            traceback.print_exc(file=sys.stderr)
        raise BackupError(failed(e.message)) from None
    except (click.ClickException, click.exceptions.Exit):
        raise  # Click's own (a wrong option): Click says it
    except (click.Abort, KeyboardInterrupt, EOFError):
        raise BackupError(failed(_("interrupted (Ctrl-C or end of input)"))) from None
    except OSError as e:
        if verbose:
            traceback.print_exc(file=sys.stderr)
        where = e.filename if e.filename is not None else ""
        said = _("%(path)s: %(why)s", path=where, why=os_why(e)) if where else os_why(e)
        raise BackupError(failed(said)) from None
    except sa.exc.DBAPIError as e:
        if verbose:
            traceback.print_exc(file=sys.stderr)
        said = _("the database %(url)s failed: %(why)s", url=database_url(), why=database_why(e))
        raise BackupError(failed(said)) from None
    except Exception as e:
        if verbose:
            traceback.print_exc(file=sys.stderr)
        error = one_line(f"{type(e).__name__}: {e}")
        raise BackupError(failed(_("unexpected error: %(error)s (--verbose shows where)", error=error))) from None
