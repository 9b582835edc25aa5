"""The rules API's own WSGI path (companion.api.lean) answers as the Flask views do.

Plain requests (a POST with a length, no query string) are answered before Flask sees
them; everything else goes through Flask. A query string sends a request through the
Flask views, so each body below is answered both ways and the answers compared byte
for byte, headers included.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from flask import Flask, request_started
from flask.testing import FlaskClient

from companion import create_app
from tests.api.examples import CHECKS, OUTCOMES

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


@pytest.fixture()
def app() -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


@pytest.fixture()
def flask_requests(app: Flask) -> Any:
    """The requests Flask itself handled (its request_started signal)."""
    seen: list[str] = []

    def started(sender: Flask, **extra: Any) -> None:
        from flask import request

        seen.append(request.full_path)

    request_started.connect(started, app)
    yield seen
    request_started.disconnect(started, app)


def _headers(r: Any) -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in r.headers.items())


@pytest.mark.parametrize("encoding", [None, "gzip", "br"])
@pytest.mark.parametrize(("what", "body"), BODIES, ids=[what for what, _ in BODIES])
def test_both_paths_answer_the_same_bytes_and_headers(
    app: Flask, flask_requests: list[str], what: str, body: bytes, encoding: str | None
) -> None:
    client = app.test_client()
    endpoint = what.split()[0] if what.split()[0] in ("check", "outcome") else "check"
    headers = {"Accept-Encoding": encoding} if encoding else {}
    lean = client.post(f"/api/v1/{endpoint}", data=body, content_type="application/json", headers=headers)
    # Answered before Flask saw it (a body sent without a length goes through Flask).
    assert flask_requests == ([] if body else [f"/api/v1/{endpoint}?"])
    flask_requests.clear()
    full = client.post(f"/api/v1/{endpoint}?via=flask", data=body, content_type="application/json", headers=headers)
    assert flask_requests == [f"/api/v1/{endpoint}?via=flask"]
    assert lean.status_code == full.status_code
    assert lean.get_data() == full.get_data()
    assert _headers(lean) == _headers(full)
    assert lean.status_code in (200, 400)


def test_a_large_answer_is_compressed_on_the_lean_path(app: Flask, flask_requests: list[str]) -> None:
    body = next(b for summary, b in OUTCOMES if b["game"] == "piketty")
    r = app.test_client().post("/api/v1/outcome", json=body, headers={"Accept-Encoding": "gzip"})
    assert flask_requests == []
    assert r.headers["Content-Encoding"] == "gzip" and r.headers["Vary"] == "Accept-Encoding"
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert r.headers["Content-Length"] == str(len(r.get_data()))


@pytest.mark.parametrize(
    ("how", "status"),
    [
        ("get", 405),  # Allow is Flask's
        ("head", 405),
        ("too large", 413),
        ("not json", 415),
    ],
)
def test_what_is_not_plain_goes_through_flask_or_is_refused_alike(
    app: Flask, flask_requests: list[str], how: str, status: int
) -> None:
    client = app.test_client()
    if how in ("get", "head"):
        r = client.open("/api/v1/check", method=how.upper())
        assert flask_requests == ["/api/v1/check?"]
        assert "POST" in r.headers["Allow"]
    elif how == "too large":
        r = client.post("/api/v1/check", data=b"{" + b" " * 300_000 + b"}", content_type="application/json")
        assert flask_requests == ["/api/v1/check?"]
    else:
        r = client.post("/api/v1/check", data=b'{"game": "president", "lang": "en"}', content_type="text/plain")
        assert flask_requests == []  # a body with a length: judged here, refused alike
        assert r.get_json()["error"].startswith("The body must be JSON")
    assert r.status_code == status
    if how != "head":
        assert set(r.get_json()) == {"error", "field"}


def test_the_size_limit_is_read_at_each_request(app: Flask, flask_requests: list[str]) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 10
    r = app.test_client().post("/api/v1/check", json={"game": "president"})
    assert r.status_code == 413 and flask_requests == ["/api/v1/check?"]


def test_an_adapter_failure_is_logged_and_answered_on_the_lean_path(
    app: Flask, flask_requests: list[str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
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
    assert flask_requests == []
    assert r.status_code == 400 and r.get_json() == {"error": "This request could not be judged.", "field": None}
    assert "API adapter failed on outcome crapouille" in caplog.text


def test_pages_are_not_taken_by_the_lean_path(app: Flask, flask_requests: list[str]) -> None:
    client: FlaskClient = app.test_client()
    client.post("/api/v1/checks", json={})
    client.post("/api/v1/openapi.json", json={})
    assert flask_requests == ["/api/v1/checks?", "/api/v1/openapi.json?"]


def test_what_answer_does_not_expect_is_answered_by_flask(
    app: Flask, flask_requests: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception out of answer() itself: Flask answers, as without the lean path (its
    500 handler: JSON under /api/, in the request's language), with the body as sent."""
    bodies: list[bytes] = []

    def broken(req: Any, data: bytes | None = None) -> Any:
        bodies.append(req.get_data() if data is None else data)
        raise RuntimeError("a bug")

    monkeypatch.setattr("companion.api.routes.read_body", broken)
    monkeypatch.setattr(app.logger, "handlers", [])  # not the Schemathesis safety net's business
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production (TESTING re-raises)
    r = app.test_client().post("/api/v1/check", json={"game": "president"}, headers={"Accept-Language": "en"})
    assert flask_requests == ["/api/v1/check?"]
    assert r.status_code == 500 and r.get_json() == {
        "error": "Something went wrong on our side. Nothing half-saved was kept; try again.",
        "field": None,
    }
    assert bodies == [b'{"game": "president"}'] * 2  # read by each path, whole


def test_a_body_shorter_than_its_length_is_answered_by_flask(app: Flask, flask_requests: list[str]) -> None:
    """The lean path reads the body itself; a client gone before sending all of it is
    answered as Flask answers it (400), the bytes that came handed over."""
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    def ask(path: str) -> tuple[str, bytes]:
        sent = b'{"game": "president", "lang": "en"}'
        environ = EnvironBuilder(path=path, method="POST", data=sent, content_type="application/json").get_environ()
        environ["CONTENT_LENGTH"] = str(len(sent) + 10)
        body, status, _headers = run_wsgi_app(app, environ)
        return status, b"".join(body)

    lean = ask("/api/v1/check")
    assert flask_requests == ["/api/v1/check?"]  # handed over
    full = ask("/api/v1/check?via=flask")
    assert lean == full and lean[0].startswith("400"), (lean, full)
