"""Issue 11, house rules in plain words, on a phone-size Chromium (390×844, touch): a
Président game's house rules and the rules pages, in the light and the dark theme,
fitting the phone (no horizontal scroll) and passing axe-core's WCAG 2 A/AA rules."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, shoot

pytestmark = pytest.mark.browser

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


@pytest.fixture(scope="module")
def axe() -> Any:
    """axe-core, as axe-playwright-python bundles it (skipped without it, failed under CI)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        message = "axe-playwright-python is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return Axe()


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth == 390"))


def _theme(page: Any, theme: str) -> None:
    """Choose the theme with the footer's switch (it comes back to the same page)."""
    name = {"light": "clair", "dark": "sombre"}[theme]
    page.get_by_role("button", name=name, exact=True).tap()
    expect(page.locator("html")).to_have_attribute("data-theme", theme)


def _check(page: Any, axe: Any, name: str) -> None:
    """In both themes: fits the phone, no axe violation, a screenshot kept."""
    for theme in ("light", "dark"):
        _theme(page, theme)
        assert _fits(page), f"{name} ({theme}) scrolls sideways"
        violations = axe.run(
            page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
        ).response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        shoot(page, f"{name}-{theme}")


def test_a_games_house_rules_and_the_rules_pages(live_server: str, phone: Any, axe: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Les Règles", "Ann", "Bob", "Cid", "Dan")

    page.goto(f"{live_server}/g/{code}/games/new/president")
    for name in ("Ann", "Bob", "Cid", "Dan"):
        page.locator(".tap-order-choice", has_text=re.compile(f"^\\d*{name}")).tap()
    page.locator(".house-rules summary").tap()
    for option in ("putsch", "revolution", "passe", "jeu_blanc"):
        page.locator(f"#rule_{option}").check()
    page.locator("#submit").tap()
    page.locator("#totals").wait_for()
    game_url = page.url.split("#")[0]

    # « Règles de la partie »: each rule in play with its example, then what is off.
    page.goto(game_url + "/rules")
    on = page.locator("#on")
    expect(on.locator("h3")).to_have_text(["Putsch", "Jeu blanc", "Révolution", "La passe"])
    expect(on.locator("#rule-revolution")).to_contain_text("quatre 7 posés d’un coup")
    expect(page.locator("#off")).to_contain_text("Suites")
    expect(page.locator("#settings")).to_contain_text("Trou du cul")
    _check(page, axe, "referee-house-rules")

    # The rules of le Président, from the game's page of rules; then the other kinds'.
    page.locator("main .menu a").first.tap()
    expect(page).to_have_url(re.compile(r"/rules/president$"))
    expect(page.locator("h1")).to_have_text("Le Président")
    expect(page.locator(".rules h2").first).to_have_text("Les cartes")
    expect(page.locator("#house-rules h3").first).to_be_visible()
    _check(page, axe, "referee-rules-president")
    for kind in ("piketty", "whist-tarot", "crapouille"):
        page.goto(f"{live_server}/rules/{kind}")
        expect(page.locator(".rules h2").last).to_have_text("Nos choix")
        _check(page, axe, f"referee-rules-{kind}")

    # In English, from the footer's language switch.
    page.get_by_role("button", name="English").tap()
    expect(page.locator(".rules h2").last).to_have_text("Our choices")
    assert _fits(page)
    shoot(page, "referee-rules-crapouille-en")
