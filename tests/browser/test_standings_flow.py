"""The season page on a phone-size Chromium (issue 12): a Président game and crapouille
duels played through the pages, then the season's rating and one leaderboard per kind,
readable at 390 px in the light and the dark theme, without horizontal scroll."""

import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, shoot

pytestmark = pytest.mark.browser

#: The longest name a player may have, without a space to break at.
LONG = ("MarieHélène" * 6)[:60]

#: axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA (color-contrast among them).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


def _axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("axe-playwright-python is not installed")
        pytest.skip("axe-playwright-python is not installed")
    return Axe()


def _no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _tap(page, *names):
    for name in names:
        page.locator(".tap-order-choice", has_text=re.compile(f"^\\d*{re.escape(name)}$")).tap()


def _new_game(page, group_url, kind, *players):
    page.goto(group_url)
    page.get_by_role("link", name="Nouvelle partie").first.tap()
    page.locator("a.tile", has_text=kind).first.tap()
    _tap(page, *players)


def _president_manche(page, *out):
    page.locator("a.button.primary.big").tap()
    _tap(page, *out)
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()


def _duel(page, group_url, winner, loser):
    _new_game(page, group_url, "La crapouille", winner, loser)
    page.get_by_role("button", name="Commencer la partie").tap()
    page.get_by_role("link", name=re.compile(r"^Saisir la donne")).tap()
    page.locator("fieldset.winner label", has_text=winner).tap()
    page.locator("fieldset.player", has_text=loser).locator(".total-input").fill("301")
    page.get_by_role("button", name="Enregistrer la donne").tap()
    page.locator("#totals").wait_for()


def test_the_season_page_at_phone_size(live_server, phone):
    axe = _axe()
    page = phone
    group_url = f"{live_server}/g/{group_with(page, live_server, 'Les Présidents', 'Ann', 'Bob', 'Cid', LONG)}"

    # Le Président to 6 points: three manches (the long name last each time), Ann wins.
    _new_game(page, group_url, "Le Président", "Ann", "Bob", "Cid", LONG)
    page.get_by_label("Points à atteindre").fill("6")
    page.locator("#submit").tap()
    for out in (("Ann", "Bob", "Cid"), ("Bob", "Ann", "Cid"), ("Ann", "Cid", "Bob")):
        _president_manche(page, *out)
    expect(page.locator(".banner, p", has_text="Ann").first).to_be_visible()
    # Crapouille duels: Ann and Bob reach six rated matches, Cid and the long name stay below.
    _duel(page, group_url, "Ann", "Bob")
    _duel(page, group_url, "Bob", "Ann")

    page.goto(group_url)
    page.get_by_role("link", name=re.compile(r"^\d{4}$")).first.tap()
    expect(page.get_by_role("heading", name="Le Président")).to_be_visible()
    expect(page.get_by_role("heading", name="La crapouille")).to_be_visible()
    rating = page.locator("table", has=page.locator("th", has_text="Ann")).first
    expect(rating).to_be_visible()
    # Ann and Bob are rated (5 matches each); the others are not yet, and the page says so.
    rows = page.locator("h2#rating ~ table").first.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(page.get_by_text(re.compile(r"Cid \(4/5\)"))).to_be_visible()
    expect(page.get_by_text(re.compile(re.escape(LONG) + r" \(4/5\)"))).to_be_visible()
    # The Président leaderboard as computed by hand: Ann 8, Bob 6, Cid 4, the long name 0.
    president = page.locator("h2#kind-president ~ table").first.locator("tbody tr")
    expect(president).to_have_count(4)
    expect(president.nth(0).locator("td").first).to_have_text("8")
    expect(president.nth(3)).to_contain_text(LONG)
    expect(president.nth(3).locator("td").nth(2)).to_have_text("3")  # three times Trou du cul
    crapouille = page.locator("h2#kind-crapouille ~ table").first.locator("tbody tr")
    expect(crapouille.nth(0)).to_contain_text("1=")  # Ann and Bob: one win each, tied
    expect(crapouille.nth(1)).to_contain_text("1=")

    for theme, label in (("light", "clair"), ("dark", "sombre")):
        page.locator("footer").get_by_role("button", name=label).tap()
        page.locator("h2#rating").wait_for()
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        assert _no_horizontal_scroll(page)
        for table in page.locator("main table").all():
            box = table.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shoot(page, f"season-standings-{theme}")
        violations = axe.run(
            page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
        ).response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
