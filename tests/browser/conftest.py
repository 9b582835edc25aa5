"""A live server and Debian's Chromium driven by Playwright, at a phone's size.

Playwright never downloads a browser here: it drives ``/usr/bin/chromium``
(``CHROMIUM`` overrides the path), which the test set-up installs from Debian.
Without it the browser tests are skipped, except under CI where they fail.
"""

from __future__ import annotations

import os
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


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free local port, over a fresh SQLite file."""
    path = tmp_path_factory.mktemp("live") / "live.sqlite3"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "browser-tests"})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, _whole_answers(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless."""
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
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A French phone: 390×844, touch."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def shoot(page: Any, name: str) -> None:
    """Keep a full-page screenshot in test-artifacts/ (for people, and the README)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def other(browser: Any) -> Iterator[Any]:
    """A second French phone, in a browser context of its own (two phones of one table)."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
