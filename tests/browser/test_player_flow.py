"""A player's page and an evening's recap on a phone-size Chromium (issue 12): games
played through the pages, then Ann's page (games, streaks, rating chart, head-to-head)
and the evening's recap, readable at 390 px in the light and the dark theme, without
horizontal scroll, every table inside the screen."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, shoot
from tests.browser.test_standings_flow import (
    LONG,
    WCAG_TAGS,
    _axe,
    _duel,
    _new_game,
    _no_horizontal_scroll,
    _president_manche,
)

pytestmark = pytest.mark.browser


def _check_and_shoot(page, axe, name, heading_selector):
    for theme, label in (("light", "clair"), ("dark", "sombre")):
        page.locator("footer").get_by_role("button", name=label).tap()
        page.locator(heading_selector).wait_for()
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        assert _no_horizontal_scroll(page)
        for table in page.locator("main table:visible").all():
            box = table.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shoot(page, f"{name}-{theme}")
        violations = axe.run(
            page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
        ).response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def test_a_player_page_and_an_evening_recap_at_phone_size(live_server, phone):
    axe = _axe()
    page = phone
    group_url = f"{live_server}/g/{group_with(page, live_server, 'Les Présidents', 'Ann', 'Bob', 'Cid', LONG)}"
    page.goto(group_url + "/players")
    ann_href = page.locator("a[href*='/players/']", has_text="Ann").first.get_attribute("href")
    found = re.search(r"^(/g/\w+/players/\d+)", ann_href or "")
    assert found
    ann_url = found.group(1) + "/stats"

    # Le Président to 6 points (Ann wins), then crapouille duels: Ann beats Bob twice,
    # the long name beats Ann twice (Ann's nemesis), Ann beats Cid.
    _new_game(page, group_url, "Le Président", "Ann", "Bob", "Cid", LONG)
    page.get_by_label("Points à atteindre").fill("6")
    page.locator("#submit").tap()
    for out in (("Ann", "Bob", "Cid"), ("Bob", "Ann", "Cid"), ("Ann", "Cid", "Bob")):
        _president_manche(page, *out)
    for winner, loser in (("Ann", "Bob"), ("Ann", "Bob"), (LONG, "Ann"), (LONG, "Ann"), ("Ann", "Cid")):
        _duel(page, group_url, winner, loser)

    page.goto(live_server + ann_url)
    expect(page.get_by_role("heading", name="Ann", level=1)).to_be_visible()
    expect(page.locator("#kinds tbody tr")).to_have_count(2)
    expect(page.locator("#rating-chart svg.chart-svg")).to_be_visible()
    expect(page.locator("#rivals tbody tr")).to_have_count(3)
    # Ann ahead of the long name in the Président game, behind it twice: 3 games together.
    expect(page.locator("[data-figure=nemesis]")).to_contain_text(LONG)
    _check_and_shoot(page, axe, "player-page", "h2#head-to-head")

    # The best evening leads to the evening's recap: every game of the night.
    page.locator("a[data-evening=best]").tap()
    expect(page.locator("section[data-game]")).to_have_count(6)
    expect(page.locator("section[data-game]").first).to_contain_text("Ann")
    expect(page.get_by_text(re.compile(r"301|300")).first).to_be_visible()
    _check_and_shoot(page, axe, "evening-recap", "h1")
