"""What the rules API answers: the answers recorded for the API.md examples and for
malformed bodies (by the code before issue 26 removed the API's own WSGI path and
schema compiler: the answers must not have moved), whatever the encoding asked; and what
they carry besides their payload: the security headers, the compression of a large
answer, the size limit read at each request, and a clean answer when an adapter, the
reading of a body or the client itself fails."""

from __future__ import annotations

import gzip
import json
import logging
from pathlib import Path
from typing import Any

import brotli
import pytest
from flask import Flask
from werkzeug.test import EnvironBuilder, run_wsgi_app

from companion import create_app
from tests.api.examples import CHECKS, OUTCOMES

#: Each body's answer as recorded (status and JSON), by what the body is.
RECORDED: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "recorded_answers.json").read_text())
BODIES: list[tuple[str, bytes]] = [
    *((f"check {summary}", json.dumps(body).encode()) for summary, body in CHECKS),
    *((f"outcome {summary}", json.dumps(body).encode()) for summary, body in OUTCOMES),
    ("not json", b"{not json"),
    ("empty", b""),
    ("a list", b"[1, 2]"),
    ("no game", b"{}"),
    ("unknown game", b'{"game": "belote", "lang": "en"}'),
    ("a key twice", b'{"game": "president", "game": "president"}'),
    ("a NUL", b'{"game": "crapouille", "players": ["A\\u0000"]}'),
    ("bad lang", b'{"game": "president", "lang": "de"}'),
    ("deep", b"[" * 5000 + b"]" * 5000),
]
_DECODE = {None: lambda data: data, "gzip": gzip.decompress, "br": brotli.decompress}


@pytest.fixture()
def app() -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def test_every_recorded_body_is_here() -> None:
    assert sorted(RECORDED) == sorted(what for what, _body in BODIES)
    assert {answer["status"] for answer in RECORDED.values()} == {200, 400}


@pytest.mark.parametrize("encoding", [None, "gzip", "br"])
@pytest.mark.parametrize(("what", "body"), BODIES, ids=[what for what, _ in BODIES])
def test_each_body_gets_its_recorded_answer_in_any_encoding(
    app: Flask, what: str, body: bytes, encoding: str | None
) -> None:
    recorded = RECORDED[what]
    headers = {"Accept-Encoding": encoding} if encoding else {}
    r = app.test_client().post(
        f"/api/v1/{recorded['endpoint']}", data=body, content_type="application/json", headers=headers
    )
    assert r.status_code == recorded["status"]
    assert r.headers.get("Content-Encoding") in (encoding, None)
    data = _DECODE[r.headers.get("Content-Encoding")](r.get_data())
    assert json.loads(data) == recorded["answer"]
    assert r.headers["Content-Type"] == "application/json"
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")


@pytest.mark.parametrize("coding", ["gzip", "br"])
def test_a_large_answer_is_compressed_with_the_security_headers(app: Flask, coding: str) -> None:
    body = next(b for summary, b in OUTCOMES if b["game"] == "piketty")
    r = app.test_client().post("/api/v1/outcome", json=body, headers={"Accept-Encoding": coding})
    assert r.status_code == 200
    assert r.headers["Content-Encoding"] == coding and r.headers["Vary"] == "Accept-Encoding"
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert r.headers["Content-Length"] == str(len(r.get_data()))
    plain = app.test_client().post("/api/v1/outcome", json=body)
    assert "Content-Encoding" not in plain.headers and plain.headers["Vary"] == "Accept-Encoding"
    assert plain.get_data().endswith(b"}\n") and b'": ' not in plain.get_data()  # jsonify's compact bytes


def test_a_small_answer_is_sent_as_it_is(app: Flask) -> None:
    r = app.test_client().post("/api/v1/check", json={"game": "belote"}, headers={"Accept-Encoding": "gzip, br"})
    assert r.status_code == 400 and "Content-Encoding" not in r.headers
    assert r.get_json()["field"] == "game"


def test_the_size_limit_is_read_at_each_request(app: Flask) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 10
    r = app.test_client().post("/api/v1/check", json={"game": "president"})
    assert r.status_code == 413 and set(r.get_json()) == {"error", "field"}


def test_an_adapter_failure_is_logged_and_answered(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(body: Any, lang: str) -> Any:
        raise ZeroDivisionError

    monkeypatch.setattr("companion.api.routes.adapter", lambda game, endpoint: broken)
    # Seen by caplog (the root logger) only: the app's own handlers (the Schemathesis
    # test's safety net among them) must not count this deliberate failure.
    monkeypatch.setattr(app.logger, "handlers", [])
    body = next(b for summary, b in OUTCOMES if b["game"] == "crapouille")
    with caplog.at_level(logging.ERROR):
        r = app.test_client().post("/api/v1/outcome", json={**body, "lang": "en"})
    assert r.status_code == 400 and r.get_json() == {"error": "This request could not be judged.", "field": None}
    assert "API adapter failed on outcome crapouille" in caplog.text


def test_what_the_view_does_not_expect_is_a_json_500_in_the_request_s_language(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(req: Any, data: bytes | None = None) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("companion.api.routes.read_body", broken)
    monkeypatch.setattr(app.logger, "handlers", [])  # not the Schemathesis safety net's business
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production (TESTING re-raises)
    r = app.test_client().post("/api/v1/check", json={"game": "president"}, headers={"Accept-Language": "en"})
    assert r.status_code == 500 and r.get_json() == {
        "error": "Something went wrong on our side. Nothing half-saved was kept; try again.",
        "field": None,
    }


def test_a_body_shorter_than_its_length_is_400(app: Flask) -> None:
    """A client gone before sending all of its body."""
    sent = b'{"game": "president", "lang": "en"}'
    environ = EnvironBuilder(
        path="/api/v1/check", method="POST", data=sent, content_type="application/json"
    ).get_environ()
    environ["CONTENT_LENGTH"] = str(len(sent) + 10)
    body, status, _headers = run_wsgi_app(app, environ)
    assert status.startswith("400"), (status, b"".join(body))
