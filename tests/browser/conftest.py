"""A live server and Debian's Chromium driven by Playwright, at a phone's size.

Playwright never downloads a browser here: it drives ``/usr/bin/chromium``
(``CHROMIUM`` overrides the path), which the test set-up installs from Debian.
Without it the browser tests are skipped, except under CI where they fail.

One Chromium serves the whole session; each test gets fresh browser contexts (its own
cookies, storage and service workers), and what a module left open is closed when it
ends.  Screenshots kept for people (:func:`shoot`, :func:`keep`) are taken only when
asked, with ``COMPANION_SCREENSHOTS=1``; a failed test's phones are shot anyway (the
viewport, in test-artifacts/failed/).  The live pages ask every :data:`WATCH_EVERY_MS`
here rather than every 1.5 s, so that tests wait for what they expect, not for a poll.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from companion import create_app
from companion.extensions import db

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: Screenshots for people (test-artifacts/, the README, $SHOTS) only when asked.
SCREENSHOTS = os.environ.get("COMPANION_SCREENSHOTS", "") not in ("", "0")
#: How often the live pages ask here (``WATCH_EVERY_MS``; 1500 in production).
WATCH_EVERY_MS = 300
#: What the browser tests' apps are built with, beside their database: the fast
#: passphrase hash of the other tests (tests/conftest.py; production's scrypt is
#: tests/web/test_passphrase_hash.py's).
APP_CONFIG = {
    "SECRET_KEY": "browser-tests",
    "WATCH_EVERY_MS": WATCH_EVERY_MS,
    "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000",
}
#: The session's Chromium, once launched (for :func:`_contexts_closed`).
_LAUNCHED: list[Any] = []


def _whole_answers(app: Any) -> Any:
    """The app, each answer read whole and closed before it is sent.

    Werkzeug's development server skips closing an answer when the browser drops
    the connection while the server drains the request (a prefetch the page
    cancelled, a service worker's fetch cut short): the static file it was sending
    is then left open, and the ResourceWarning fails whichever test runs next.
    """

    def wsgi(environ: Any, start_response: Any) -> list[bytes]:
        answer = app(environ, start_response)
        try:
            return [b"".join(answer)]
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    return wsgi


#: A creating form's one-time token and the session's CSRF token, as a page carries them.
_TOKENS = re.compile(r'<input[^>]*\bname="(once|csrf_token)"[^>]*\bvalue="([^"]*)"')


def _post_form(page: Any, url: str, fields: dict[str, str]) -> tuple[str, str]:
    """The first creating form of the page at ``url``, sent with ``fields`` from ``page``'s
    browser context (its cookies), the redirect followed; the address and the text of the
    page it led to."""
    request = page.context.request
    tokens: dict[str, str] = {}
    for name, value in _TOKENS.findall(request.get(url).text()):
        tokens.setdefault(name, value)
    answer = request.post(url, form={**tokens, **fields})
    assert answer.ok, (url, answer.status)
    return str(answer.url), str(answer.text())


def group_with(page: Any, live_server: str, name: str, *players: str, passphrase: str = "sept de pique") -> str:
    """A group made from this phone (its first device) with ``players``; its code.

    The forms are sent from the phone's browser context rather than typed: a flow that
    needs a group starts from one. Typing them is the subject of other flows
    (``test_crapouille_flow``, ``test_clock_flow``, ``test_every_page``)."""
    address, group_page = _post_form(
        page, f"{live_server}/groups/new", {"name": name, "passphrase": passphrase, "confirm": passphrase}
    )
    assert "Groupe créé." in group_page
    code = address.rstrip("/").rsplit("/", 1)[-1]
    for player in players:
        _, added = _post_form(page, f"{live_server}/g/{code}/players", {"name": player})
        assert f"{player} a rejoint le groupe." in added, player
    return code


@contextlib.contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served on a free local port (Werkzeug's threaded development server, each
    answer whole: :func:`_whole_answers`) while the block runs; its address. Its
    database's connections are closed at the end."""
    server = make_server("127.0.0.1", 0, _whole_answers(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free local port, over a fresh SQLite file."""
    path = tmp_path_factory.mktemp("live") / "live.sqlite3"
    app = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
    with served(app) as address:
        yield address


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium, headless, one for the whole session."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        message = f"Chromium not found at {CHROMIUM} (the test set-up installs Debian's chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
            ],
        )
        _LAUNCHED.append(browser)
        yield browser
        _LAUNCHED.remove(browser)
        browser.close()


@pytest.fixture(scope="module", autouse=True)
def _contexts_closed() -> Iterator[None]:
    """What a module opened and left open is closed when it ends (as closing its own
    browser did): no page of it keeps asking a server that is gone."""
    before = {context for browser in _LAUNCHED for context in browser.contexts}
    yield
    for browser in _LAUNCHED:
        for context in browser.contexts:
            if context not in before:
                context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Each phase's report kept on the test, for the phones' teardown to see a failure."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def _shot_if_failed(request: pytest.FixtureRequest, page: Any, name: str) -> None:
    """A failed test's phone, as it was then (the viewport: cheap), in test-artifacts/failed/."""
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed or page.is_closed():
        return
    folder = ARTIFACTS / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^\w.-]+", "_", request.node.nodeid.split("::", 1)[-1])[:150]
    with contextlib.suppress(Exception):  # a page that cannot be shot: the failure says enough
        page.screenshot(path=str(folder / f"{stem}-{name}.png"), timeout=5_000)


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A French phone: 390×844, touch."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    _shot_if_failed(request, page, "phone")
    context.close()


def keep(target: Any, path: Path | str, **options: Any) -> None:
    """A screenshot of a page or a locator at ``path``, when screenshots are asked for."""
    if not SCREENSHOTS:
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), **options)


def shoot(page: Any, name: str) -> None:
    """Keep a full-page screenshot in test-artifacts/ (for people, and the README), when
    screenshots are asked for (``COMPANION_SCREENSHOTS=1``)."""
    keep(page, ARTIFACTS / f"{name}.png", full_page=True)


@pytest.fixture
def other(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A second French phone, in a browser context of its own (two phones of one table)."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    _shot_if_failed(request, page, "other")
    context.close()
