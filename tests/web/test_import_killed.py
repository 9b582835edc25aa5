"""An import killed with SIGKILL at any point leaves no group anyone can reach, and the
cleanup removes what it left — on a real server, on SQLite and PostgreSQL.

The server (``tests/web/import_server.py``: the app under werkzeug's threaded server, in
a process group of its own) stops each import at a point its group's name chooses and
waits there, so that the kill lands at that point every time, without a sleep: after the
import's first transaction (the group, its players and seasons), part way through its
rounds, part way through its standings, and just before its last transaction. Five
imports run at once: four to be killed, one to be let go on after a cleanup ran.

While they wait, the cleanup (run from this process: another process than the server)
removes nothing: each import holds its group's lock. Then the fifth goes on and ends
whole, and the server is killed, with the four others in the middle of their imports.
Each group they left is refused by ``/join`` exactly as an unknown code is, and
``flask clean-imports`` removes each whole (no row of any table left), while the complete
groups stay: the fifth import's, and one whose only phone left.
"""

from __future__ import annotations

import contextlib
import copy
import http.client
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion import ROOT
from companion.extensions import db
from companion.groups.transfer import remove_unfinished
from companion.models import Group
from tests.conftest import PG_SCHEMA, PG_URL
from tests.web.test_import_stranger import _small_group
from tests.web.test_import_whole import PASSPHRASE, _join, _rows_of, _unknown_code

HOST = "127.0.0.1"
#: How long the server may take to start or to reach a point (a busy machine; a quiet one
#: takes a second to start, and a few milliseconds to reach each point).
WAIT = 60.0
KILLED = ("cut group", "cut rounds", "cut standings", "cut last")
RESUMED = "resumed rounds"


def _larger(document: dict[str, Any], copies: int) -> dict[str, Any]:
    """``document`` with each of its games there ``copies`` more times (new ids)."""
    games = document["games"]
    next_id = max(game["id"] for game in games) + 1
    more = []
    for _ in range(copies):
        for game in games:
            more.append(copy.deepcopy(game) | {"id": next_id})
            next_id += 1
    return document | {"games": games + more}


def _database_url(db_kind: str) -> str:
    """The test database as the server's ``DATABASE_URL``."""
    if db_kind == "sqlite":
        return str(db.engine.url.render_as_string(hide_password=False))
    url = sa.engine.make_url(PG_URL).update_query_dict({"options": f"-csearch_path={PG_SCHEMA}"})
    return url.render_as_string(hide_password=False)


class Import(threading.Thread):
    """One import posted to the server; its answer's status and ``Location`` (or the error
    a killed server gives)."""

    def __init__(self, port: int, content: bytes, name: str) -> None:
        super().__init__(daemon=True)
        fields = {
            "name": name,
            "passphrase": PASSPHRASE,
            "confirm": PASSPHRASE,
            "device_name": "Tablette",
            "file": FileStorage(io.BytesIO(content), "export.json", content_type="application/json"),
        }
        self.boundary, self.body = encode_multipart(fields)
        self.port = port
        self.answer: tuple[int, str] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=3 * WAIT)
        try:
            conn.request(
                "POST",
                "/import",
                self.body,
                {"Content-Type": f"multipart/form-data; boundary={self.boundary}"},
            )
            response = conn.getresponse()
            self.answer = (response.status, response.getheader("Location") or "")
        except (OSError, http.client.HTTPException) as e:
            self.error = e
        finally:
            conn.close()


def _wait_for(path: Path, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + WAIT
    while not path.exists():
        if server.poll() is not None:
            pytest.fail(f"the server stopped: {log.read_text(errors='replace')[-3000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"{path.name} not reached within {WAIT:.0f} s: {log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.01)


def _progress(group_id: int) -> dict[str, int]:
    """How far an import went: its rows by table, and how many games have standings."""
    with_standings = db.session.scalar(
        sa.text(
            "SELECT count(DISTINCT game_id) FROM game_results"
            " WHERE season_id IN (SELECT id FROM seasons WHERE group_id = :group_id)"
        ),
        {"group_id": group_id},
    )
    return _rows_of({group_id}) | {"games with standings": int(with_standings or 0)}


@pytest.fixture
def server(app: Any, db_kind: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path, Path]]:
    """The server over the test's database, in a process group of its own (one SIGKILL
    takes it all): the process, its folder and its log. Killed at the end if it lives."""
    folder, log = tmp_path / "server", tmp_path / "server.log"
    folder.mkdir()
    env = dict(os.environ, DATABASE_URL=_database_url(db_kind), SECRET_KEY="import-killed")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.web.import_server", str(folder)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process, folder, log
    finally:
        _kill(process)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the server's whole process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=WAIT)


def test_an_import_killed_anywhere_is_unreachable_and_cleaned_up(app, client, db_kind, server):
    process, folder, log = server  # it starts while the group is made
    app.config.update(GROUPS_PER_HOUR=100, GUESS_FREE_TRIES_ANY_CODE=100)
    source = _small_group(client)
    document = _larger(source["document"], copies=3)
    content = json.dumps(document).encode()
    games = len(document["games"])
    rounds = sum(len(game["rounds"]) for game in document["games"])
    assert rounds > 8  # parts of 4 rounds: the rounds point is part way
    # A complete group whose only phone left.
    left = source["group"]
    assert client.post(f"/g/{left.code}/leave", data={"confirmed": "1"}).status_code == 302
    db.session.commit()

    _wait_for(folder / "port", process, log)
    port = int((folder / "port").read_text())
    imports = [Import(port, content, name) for name in (*KILLED, RESUMED)]
    for one in imports:
        one.start()
    for name in (*KILLED, RESUMED):
        _wait_for(folder / name.replace(" ", "-"), process, log)

    db.session.rollback()  # a fresh snapshot (SQLite)
    ids = {name: db.session.scalar(sa.select(Group.id).where(Group.name == name)) for name in (*KILLED, RESUMED)}
    assert None not in ids.values(), ids
    assert not any(db.session.scalars(sa.select(Group.complete).where(Group.id.in_(ids.values()))))
    # Each stopped where its name says.
    at = {name: _progress(ids[name]) for name in KILLED}
    assert at["cut group"]["players"] and at["cut group"]["seasons"] and not at["cut group"]["games"]
    assert 0 < at["cut rounds"]["rounds"] < rounds and not at["cut rounds"]["game_results"]
    assert at["cut standings"]["rounds"] == rounds
    assert 0 < at["cut standings"]["games with standings"] < games
    assert at["cut last"]["games with standings"] == games and not at["cut last"]["devices"]

    # Imports still running are no one's to remove.
    assert remove_unfinished() == []
    db.session.rollback()  # a fresh snapshot (SQLite)
    assert db.session.scalar(sa.select(sa.func.count(Group.id)).where(Group.id.in_(ids.values()))) == 5

    # The fifth goes on, and ends whole.
    (folder / (RESUMED.replace(" ", "-") + ".go")).touch()
    imports[-1].join(WAIT)
    assert imports[-1].answer is not None and imports[-1].answer[0] == 302, (imports[-1].answer, imports[-1].error)
    db.session.rollback()  # a fresh snapshot (SQLite)
    resumed = db.session.get(Group, ids[RESUMED])
    assert resumed is not None and resumed.complete
    assert imports[-1].answer[1].endswith(f"/g/{resumed.code}")

    # Killed, the four others each where it stands.
    _kill(process)
    for one in imports[:-1]:
        one.join(WAIT)
        assert one.answer is None, one.answer  # killed before any answer

    # Unreachable: their codes and passphrase get what an unknown code gets.
    db.session.rollback()  # a fresh snapshot (SQLite)
    stranger = app.test_client()
    unknown = _join(stranger, _unknown_code())
    assert unknown[0] == 403
    for name in KILLED:
        group = db.session.get(Group, ids[name])
        assert group is not None and not group.complete
        assert _join(stranger, group.code) == unknown, name
    assert _join(app.test_client(), resumed.code)[0] == 302
    db.session.commit()

    kept = _rows_of({left.id, resumed.id})
    # What the next start runs (flask clean-imports: its output is test_import_whole's).
    killed = sorted(ids[name] for name in KILLED)
    assert remove_unfinished() == killed
    db.session.rollback()  # a fresh snapshot (SQLite)
    assert not any(_rows_of(set(killed)).values()), _rows_of(set(killed))
    assert _rows_of({left.id, resumed.id}) == kept
    if db_kind == "sqlite":  # no lock file is left behind
        locks = Path(str(db.engine.url.database) + "-imports")
        assert list(locks.glob("*.lock")) == []
