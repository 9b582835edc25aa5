"""The app served as it runs (werkzeug's threaded server, a process of its own), whose
imports stop at a chosen point and wait there, to be killed there
(``tests/web/test_import_killed.py``). Test code: the app itself has no such hook.

Run as ``python -m tests.web.import_server FOLDER`` with ``DATABASE_URL`` and
``SECRET_KEY`` set. It listens on a free port of 127.0.0.1 and writes it to
``FOLDER/port``. An import whose group's name ends with a point's name stops there,
writes ``FOLDER/<name, dashed>`` and waits (two minutes at most) for
``FOLDER/<name, dashed>.go``:

- ``group``: its first transaction committed (the group, its players and seasons);
- ``rounds``: a first part of its rounds committed, not all;
- ``standings``: every row committed, and a first part of its standings;
- ``last``: everything committed but its last transaction (the device, and the mark).

Parts are small here (``ROWS_PER_TURN``, ``STANDINGS_PER_TURN``), so that a small file is
written in many transactions, as the largest one is.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import g, has_request_context, request
from werkzeug.serving import make_server

from companion import create_app
from companion.extensions import db
from companion.groups.transfer import importing

POINTS = ("group", "rounds", "standings", "last")
#: What a point waits for, at most (the test kills the server long before).
LONGEST = 120.0

#: The counts that say how far an import of a group of that name went.
_PROGRESS = sa.text(
    "SELECT"
    " (SELECT count(*) FROM rounds JOIN games ON games.id = rounds.game_id"
    "  JOIN seasons ON seasons.id = games.season_id WHERE seasons.group_id = groups.id),"
    " (SELECT count(*) FROM game_results JOIN seasons ON seasons.id = game_results.season_id"
    "  WHERE seasons.group_id = groups.id)"
    " FROM groups WHERE name = :name"
)


def _marker(folder: Path, name: str) -> Path:
    return folder / name.replace(" ", "-")


def _point() -> tuple[str, str] | None:
    """The name of the group this request imports, and the point its import stops at."""
    if not has_request_context() or request.path != "/import" or request.method != "POST":
        return None
    name = request.form.get("name", "")
    point = name.rsplit(" ", 1)[-1]
    return (name, point) if point in POINTS and not g.get("stopped") else None


def _stop(folder: Path, name: str) -> None:
    g.stopped = True
    marker = _marker(folder, name)
    marker.write_text("stopped")
    go = marker.with_name(marker.name + ".go")
    deadline = time.monotonic() + LONGEST
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def main() -> None:
    folder = Path(sys.argv[1])
    app = create_app({"PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000", "WTF_CSRF_ENABLED": False})
    app.config["GROUPS_PER_HOUR"] = 1000
    importing.ROWS_PER_TURN = 4
    importing.STANDINGS_PER_TURN = 6

    def after_commit(session: so.Session) -> None:
        found = _point()
        if found is None or found[1] == "last":
            return
        name, point = found
        with db.engine.connect() as conn:
            row = conn.execute(_PROGRESS, {"name": name}).first()
        if row is None:
            return
        rounds, standings = row
        if point == "group" or (point == "rounds" and rounds) or (point == "standings" and standings):
            _stop(folder, name)

    sa.event.listen(so.Session, "after_commit", after_commit)
    write_group = importing.write_group

    def stopping_write_group(*args: Any, **kwargs: Any) -> int:
        group_id = write_group(*args, **kwargs)
        found = _point()
        if found is not None and found[1] == "last":
            _stop(folder, found[0])
        return group_id

    importing.write_group = stopping_write_group
    server = make_server("127.0.0.1", 0, app, threaded=True)
    draft = folder / "port.draft"
    draft.write_text(str(server.server_port))
    draft.rename(folder / "port")  # whole when seen
    server.serve_forever()


if __name__ == "__main__":
    main()
