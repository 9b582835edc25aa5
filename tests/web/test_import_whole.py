"""An import appears whole or not at all, in process (the same with a real server killed
with SIGKILL: ``test_import_killed.py``).

An import stopped part way — its process killed between two of its transactions, which
here is an exception no ``except Exception`` catches, raised as the standings begin —
leaves an incomplete group: ``/join`` answers its code and passphrase as it answers an
unknown code, no page shows it, a restore's summary does not count it, and the cleanup
(``flask clean-imports``) removes it whole, but never a complete group, even one every
phone left, nor a group whose import still holds its lock (an import still running,
elsewhere).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion import ROOT
from companion.backup.sqlite import _sqlite_summary
from companion.extensions import db
from companion.groups.transfer import ImportLock, importing, remove_unfinished
from companion.models import Device, Game, Group, Season
from tests.helpers import create_group, html, unsigned
from tests.web.test_import_stranger import _small_group
from tests.web.test_transfer import upload

PASSPHRASE = "sept de pique"  # the passphrase ``upload`` gives an imported group


class Killed(BaseException):
    """The process stopping where it stands: no ``except Exception`` sees it, nothing of
    the import's own clean-up runs (its lock is let go, as a process's are when it dies)."""


def _killed_import(app: Flask, content: bytes, monkeypatch: pytest.MonkeyPatch, name: str = "Copie") -> int:
    """Import ``content`` as ``name`` and stop it as its standings begin: its group, players,
    seasons, games and rounds are committed, its standings and device are not. The id of
    the group it left."""

    def stopped(*args: Any, **kwargs: Any) -> None:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(importing, "_standings", stopped)
        with pytest.raises(Killed):
            upload(app.test_client(), content, name=name)
    db.session.rollback()
    group_id = db.session.scalar(sa.select(Group.id).where(Group.name == name))
    assert group_id is not None, "the import stopped before writing anything"
    games = db.session.scalar(
        sa.select(sa.func.count()).select_from(Game).join(Season).where(Season.group_id == group_id)
    )
    assert games, "the import stopped before its games"
    return int(group_id)


def _join(client: FlaskClient, code: str, passphrase: str = PASSPHRASE) -> tuple[int, str]:
    response = client.post("/join", data={"code": code, "passphrase": passphrase, "device_name": "Zoé"})
    return response.status_code, unsigned(html(response)).replace(code, "CODE")


def _unknown_code() -> str:
    taken = set(db.session.scalars(sa.select(Group.code)))
    return next(code for code in ("ZZZZZZ", "ZZZZZY", "ZZZZZX") if code not in taken)


def _rows_of(group_ids: set[int]) -> dict[str, int]:
    """How many rows of each table belong to those groups (directly, by a season, or by a
    game of theirs)."""
    seasons = sa.select(Season.id).where(Season.group_id.in_(group_ids))
    games = sa.select(Game.id).where(Game.season_id.in_(seasons))
    counts: dict[str, int] = {}
    for table in db.metadata.sorted_tables:
        if table.name == "groups":
            where = table.c.id.in_(group_ids)
        elif "group_id" in table.c:
            where = table.c.group_id.in_(group_ids)
        elif "season_id" in table.c:
            where = table.c.season_id.in_(seasons)
        elif "game_id" in table.c:
            where = table.c.game_id.in_(games)
        else:
            continue
        counts[table.name] = db.session.scalar(sa.select(sa.func.count()).select_from(table).where(where)) or 0
    return counts


def test_an_import_killed_part_way_is_joined_by_no_one_and_shown_nowhere(app, client, monkeypatch):
    app.config["GROUPS_PER_HOUR"] = 100
    content = json.dumps(_small_group(client)["document"]).encode()
    group_id = _killed_import(app, content, monkeypatch)
    code = db.session.get(Group, group_id).code

    # Its code and passphrase get what an unknown code gets: nothing says it exists.
    stranger = app.test_client()
    status, page = _join(stranger, code)
    unknown_status, unknown_page = _join(stranger, _unknown_code())
    assert (status, page) == (unknown_status, unknown_page)
    assert status == 403 and "Code ou phrase secrète incorrect" in page, page[-2000:]
    assert db.session.scalar(sa.select(sa.func.count(Device.id)).where(Device.group_id == group_id)) == 0
    # Its pages send to the join form, as an unknown code's do; no home page lists it.
    for who in (stranger, client):
        response = who.get(f"/g/{code}")
        assert response.status_code == 302 and "/join" in response.headers["Location"]
        assert "Copie" not in html(who.get("/"))


def test_the_cleanup_removes_a_killed_import_whole_and_never_a_complete_group(app, client, monkeypatch):
    app.config["GROUPS_PER_HOUR"] = 100
    source = _small_group(client)
    content = json.dumps(source["document"]).encode()
    # Complete groups without a phone: every phone of one left, the other has no device at all.
    left = source["group"]
    assert client.post(f"/g/{left.code}/leave", data={"confirmed": "1"}).status_code == 302
    bare = create_group(app.test_client(), "Sans appareil")
    db.session.execute(sa.delete(Device).where(Device.group_id == bare.id))
    db.session.commit()
    assert (
        db.session.scalar(sa.select(Device.id).where(Device.group_id == left.id, Device.revoked_at.is_(None))) is None
    )
    kept = _rows_of({left.id, bare.id})

    first = _killed_import(app, content, monkeypatch, name="Copie")
    second = _killed_import(app, content, monkeypatch, name="Copie bis")
    assert all(_rows_of({first, second})[t] for t in ("groups", "players", "seasons", "games", "rounds"))

    assert remove_unfinished() == [first, second]
    db.session.expire_all()
    assert not any(_rows_of({first, second}).values()), _rows_of({first, second})
    assert _rows_of({left.id, bare.id}) == kept
    assert remove_unfinished() == []

    # The same file imports again, whole, and its group is joined with its passphrase.
    response = upload(app.test_client(), content, name="Copie")
    assert response.status_code == 302, html(response)[-2000:]
    code = response.headers["Location"].rsplit("/", 1)[-1]
    assert db.session.scalar(sa.select(Group.complete).where(Group.code == code)) is True
    assert _join(app.test_client(), code)[0] == 302
    assert remove_unfinished() == []


def test_the_cleanup_leaves_a_group_whose_import_still_holds_its_lock(app, client, monkeypatch):
    """An import running elsewhere (another process, another connection) holds its
    group's lock: the cleanup leaves the group, and removes it once the lock is let go."""
    app.config["GROUPS_PER_HOUR"] = 100
    content = json.dumps(_small_group(client)["document"]).encode()
    group_id = _killed_import(app, content, monkeypatch)
    with ImportLock() as elsewhere:
        elsewhere.hold(group_id)
        assert remove_unfinished() == []
        assert db.session.get(Group, group_id) is not None
        with ImportLock() as other:
            assert not other.try_hold(group_id)
    assert remove_unfinished() == [group_id]
    db.session.expire_all()
    assert db.session.get(Group, group_id) is None


def test_flask_clean_imports_removes_what_a_killed_import_left(app, client, monkeypatch):
    """The command the app's start runs (scripts/serve, the README): it says what it removed."""
    app.config["GROUPS_PER_HOUR"] = 100
    content = json.dumps(_small_group(client)["document"]).encode()
    group_id = _killed_import(app, content, monkeypatch)
    db.session.commit()
    done = app.test_cli_runner().invoke(args=["clean-imports"])
    assert done.exit_code == 0, done.output
    assert done.output == f"Supprimé\u00a0: 1\u00a0groupe laissé par une importation inachevée (n°\u00a0{group_id}).\n"
    db.session.rollback()
    assert db.session.get(Group, group_id) is None
    done = app.test_cli_runner().invoke(args=["clean-imports"])
    assert done.exit_code == 0 and done.output == "Aucune importation inachevée à supprimer.\n", done.output


def test_the_ways_to_start_the_app_run_the_cleanup_before_serving():
    """scripts/serve and the README's gunicorn recipe: after the upgrade, before serving."""
    serve = (ROOT / "scripts" / "serve").read_text()
    steps = ["flask --app companion db upgrade", "flask --app companion clean-imports", "flask --app companion run"]
    assert all(step in serve for step in steps)
    assert [serve.index(step) for step in steps] == sorted(serve.index(step) for step in steps)
    readme = (ROOT / "README.md").read_text()
    recipe = readme[readme.index("## Running for many groups") :]
    steps = [
        ".venv/bin/flask --app companion db upgrade",
        ".venv/bin/flask --app companion clean-imports",
        ".venv/bin/gunicorn",
    ]
    assert [recipe.index(step) for step in steps] == sorted(recipe.index(step) for step in steps)


def test_a_backup_summary_counts_complete_groups_only(app, client, monkeypatch, db_kind, tmp_path):
    """What ``flask restore`` says a database holds (SQLite) counts no import left part
    way: neither its group nor its rounds."""
    if db_kind != "sqlite":
        pytest.skip("the summary is read from a SQLite file")
    app.config["GROUPS_PER_HOUR"] = 100
    content = json.dumps(_small_group(client)["document"]).encode()
    before = _sqlite_summary(_database_file(app))
    assert before == "1 groupe, 3 manches ou donnes"
    _killed_import(app, content, monkeypatch)
    db.session.remove()
    assert _sqlite_summary(_database_file(app)) == before
    # A copy made before the column existed is counted whole.
    old = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(old)
    conn.executescript(
        "CREATE TABLE groups (id INTEGER PRIMARY KEY); CREATE TABLE rounds (id INTEGER PRIMARY KEY);"
        "INSERT INTO groups VALUES (1), (2); INSERT INTO rounds VALUES (1);"
    )
    conn.commit()
    conn.close()
    assert _sqlite_summary(old) == "2 groupes, 1 manche ou donne"


def _database_file(app: Flask) -> Path:
    return Path(db.engine.url.database or "")
