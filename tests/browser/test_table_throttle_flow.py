"""Issue 24 in a real browser at 390×844: the « trop d’essais » page says when to try
again on the phone's own clock and offers the QR way, in both themes, with no CSP
violation; a delete kept in the outbox while offline, refused on sending because another
phone saved a hand meanwhile, is shown as not saved — with why — never as sent."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from playwright.sync_api import expect

from companion import create_app
from companion.extensions import db
from companion.models import ThrottleEvent, utcnow
from tests.browser.conftest import PHONE, keep, served, shoot
from tests.browser.test_offline_flow import _controlled, _enter_hand, _join, _table

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/b24")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Flask]]:
    """The app on a free local port over a fresh SQLite file, and the app itself (to
    record past guesses: a wait of minutes without waiting minutes)."""
    path = tmp_path_factory.mktemp("throttle") / "live.sqlite3"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "browser-tests"})
    with app.app_context():
        db.create_all()
    with served(app) as address:
        yield address, app


def _watch(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def test_the_too_many_tries_page_on_the_phones_clock(server: tuple[str, Flask], browser: Any) -> None:
    base, app = server
    # Nine wrong guesses of this code from this address a moment ago: 64 s to wait.
    with app.app_context():
        now = utcnow()
        for _ in range(9):
            db.session.add(ThrottleEvent(kind="guess", code="TABLE1", client="127.0.0.1", at=now))
        db.session.commit()
    context = browser.new_context(locale="fr-FR", timezone_id="America/Montreal", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems = _watch(page)
    page.goto(base + "/join?code=TABLE1")
    page.get_by_label("Phrase secrète").fill("sept de pique")
    page.get_by_role("button", name="Rejoindre").tap()
    expect(page.get_by_role("heading", name="Trop d’essais", exact=True)).to_be_visible()
    alert = page.get_by_role("alert")
    # The server wrote Paris's time; the phone, in Montreal, shows its own (static/local-time.js).
    moment = page.locator("time[data-local-time]").get_attribute("datetime")
    assert moment is not None
    montreal = datetime.fromisoformat(moment).astimezone(ZoneInfo("America/Montreal"))
    assert abs(datetime.fromisoformat(moment) - (now + timedelta(seconds=64))) < timedelta(seconds=10)
    expect(alert).to_contain_text(f"Réessayez à partir de {montreal:%H:%M}, dans 2\u00a0minutes.")
    expect(page.get_by_role("heading", name="Sans attendre : le code QR")).to_be_visible()
    expect(page.locator("#qr-way + p")).to_contain_text("Demandez à un téléphone du groupe d’afficher le code QR")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        keep(page, SHOTS / f"too-many-tries-{theme}.png", full_page=True)
        shoot(page, f"too-many-tries-{theme}")
    assert [p for p in problems if "status of 429" not in p] == []  # the page's own status, no CSP error
    context.close()


def test_a_delete_refused_on_sending_shows_as_not_saved(server: tuple[str, Flask], browser: Any) -> None:
    base, _app = server
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems = _watch(page)
    code, game_url = _table(page, base, "Suppression tardive")
    page.get_by_role("link", name="Saisir la donne 1").tap()
    _enter_hand(page, "Ann", "Bob", "12")
    page.locator("#totals").wait_for()
    other = _join(browser, base, code, "Téléphone d’Ann")
    _controlled(page, game_url)

    context.set_offline(True)
    page.locator("summary", has_text="Corriger une erreur").tap()
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Supprimer la donne 1").tap()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Supprimer la donne 1 · La crapouille — en attente d’envoi")
    # Meanwhile the other phone, online, saves hand 2.
    other.goto(game_url)
    other.get_by_role("link", name="Saisir la donne 2").tap()
    _enter_hand(other, "Bob", "Ann", "40")
    other.locator("#totals").wait_for()

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(outbox).to_contain_text("rien n’a été enregistré\u00a0: la partie a changé", timeout=15_000)
    expect(outbox).not_to_contain_text("envoi réussi")
    expect(outbox).to_contain_text("La donne 1 n’a pas été supprimée")
    keep(page, SHOTS / "outbox-delete-refused-light.png", full_page=True)
    page.get_by_role("button", name="Voir pourquoi").tap()
    # The game, saying why (the same delete posted again is refused again: nothing deleted).
    expect(page.locator("main > p.flash", has_text="La donne 1 n’a pas été supprimée")).to_be_visible()
    expect(page.locator("article.hand")).to_have_count(2)
    assert [p for p in problems if "Failed to load resource" not in p] == []
    context.close()
    other.context.close()
