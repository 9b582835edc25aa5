"""Every form of the app, fed generated junk on both databases: never a 5xx, and a
refused submission saves nothing (issue 8, « keep it from coming back »)."""

from __future__ import annotations

import os
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.extensions import db
from tests.helpers import add_players, create_group, start_crapouille

#: Tables whose rows a refused submission must leave alone (attempts are recorded
#: before they are judged, by design, so throttle_events is not among them).
WATCHED = ["groups", "players", "seasons", "games", "game_players", "rounds", "devices", "form_tokens"]

AWKWARD = [
    "",
    " ",
    "0",
    "-1",
    "²",
    "٣",
    "9" * 5000,
    "\x00",
    "a\x00b",
    "\x1b[31m",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "8h RJ 10s",
    "Qs Qs Qs Qs Qs",
    "2026-13-45",
    "é" * 70,
    "y",
    "1",
]
TEXT = st.one_of(
    st.sampled_from(AWKWARD),
    st.sampled_from(AWKWARD),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=70),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)


def snapshot() -> dict[str, Any]:
    db.session.rollback()
    with db.engine.connect() as conn:
        counts = {t: conn.execute(sa.text(f"SELECT COUNT(*) FROM {t}")).scalar() for t in WATCHED}
        counts["names"] = sorted(conn.execute(sa.text("SELECT name FROM players")).scalars())
        counts["hash"] = conn.execute(sa.text("SELECT passphrase_hash FROM groups ORDER BY id")).scalars().all()
    return counts


FORMS = [
    "group",
    "join",
    "player",
    "rename",
    "season",
    "current",
    "devices",
    "game",
    "hand",
    "delete",
    "lang",
]


@pytest.mark.parametrize("form", FORMS)
def test_every_form_refuses_junk_cleanly(app: Flask, client: FlaskClient, form: str) -> None:
    group = create_group(client, passphrase="la belote")
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    code = group.code
    season_id = db.session.scalar(sa.text("SELECT id FROM seasons"))
    pid = [str(p.id) for p in (ann, bob, cid)]
    url, names = {
        "group": ("/groups/new", ["name", "passphrase", "confirm", "device_name", "once"]),
        "join": ("/join", ["code", "passphrase", "device_name"]),
        "player": (f"/g/{code}/players", ["name", "once"]),
        "rename": (f"/g/{code}/players/{pid[0]}", ["name"]),
        "season": (f"/g/{code}/seasons", ["name", "starts_on", "once"]),
        "current": (f"/g/{code}/seasons/{season_id}/current", ["x"]),
        "devices": (
            f"/g/{code}/devices",
            ["device-name", "device-submit", "pass-current", "pass-passphrase", "pass-confirm", "pass-submit"],
        ),
        "game": (f"/g/{code}/games/new/crapouille", ["seats-0", "seats-1", "seats-2", "super_crapouille", "once"]),
        "hand": (
            f"/g/{code}/games/{game_id}/rounds/new",
            ["round", "version", "winner", *(f"cards_{p}" for p in pid), *(f"total_{p}" for p in pid)],
        ),
        "delete": (f"/g/{code}/games/{game_id}/rounds/1/delete", ["version"]),
        "lang": ("/lang/en", ["next"]),
    }[form]
    likely = {
        "winner": st.sampled_from(pid),
        "round": st.just("1"),
        "version": st.sampled_from(["0", "1", "x"]),
        "seats-0": st.sampled_from(pid),
        "seats-1": st.sampled_from(pid),
        "device-submit": st.just("1"),
        "pass-submit": st.just("1"),
        "code": st.sampled_from([code, code.lower(), "ZZZZZZ"]),
    }

    @st.composite
    def submission(draw: st.DrawFn) -> dict[str, str]:
        data = {}
        for name in names:
            if draw(st.integers(0, 3)):
                data[name] = draw(st.one_of(likely.get(name, TEXT), TEXT))
        for _ in range(draw(st.integers(0, 2))):
            data[draw(st.sampled_from(["x", "csrf_token", "seats-99", "once"]))] = draw(TEXT)
        return data

    @settings(
        max_examples=int(os.environ.get("FORM_FUZZ_EXAMPLES", "30")),
        deadline=None,
        derandomize=bool(os.environ.get("CI")),
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(submission())
    def fuzz(data: dict[str, str]) -> None:
        before = snapshot()
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, data, response.status_code)
        if response.status_code not in (301, 302, 303):
            assert snapshot() == before, (url, data)

    fuzz()
