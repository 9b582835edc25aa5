"""The pages of figures at 390×844, light and dark, with the longest names the forms
accept (issue 22): no sideways scroll, no header cell drawn over another or too narrow
for its words, no chart label cut at the drawing's edge, and the whist dealer's
forbidden bid struck out as the other bids are chosen.

The season is built through the pages with Flask's test client (the forms' own rules,
without a browser's slowness), on the SQLite file a live server then shows; the phone
gets that client's session cookie and the theme's. Screenshots go to test-artifacts/
(``shoot``) and to ``$SHOTS`` when it is set (for a person to look at).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion import create_app
from companion.extensions import db
from companion.models import NAME_MAX
from tests.browser.conftest import PHONE, served, shoot
from tests.helpers import add_players, create_group, html, move_back, start_crapouille
from tests.web.test_standings import crapouille_duel, deal, hand, manche, start_president, start_whist

pytestmark = pytest.mark.browser

#: The longest names the forms accept, without a space to break at.
LONG = (
    "W" * NAME_MAX,
    ("ÉléonoreÀçÿŒæÏôÛùÈêËüÂ" * 3)[:NAME_MAX],
    "M" * (NAME_MAX - 1) + "É",
)
THEMES = ("light", "dark")
WIDTH = PHONE["viewport"]["width"]


@dataclass
class Site:
    base: str
    cookie: str
    urls: dict[str, str] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    path = tmp_path_factory.mktemp("narrow") / "narrow.sqlite3"
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "narrow", "WTF_CSRF_ENABLED": False}
    )
    with app.app_context():
        db.create_all()
        client = app.test_client()
        group = create_group(client, name="W" * NAME_MAX)
        ann, bob, w, e, m = add_players(client, group, "Ann", "Bob", *LONG)
        # An earlier night: Ann wins one, loses one; then tonight, the rest.
        move_back([crapouille_duel(client, group, ann, bob), crapouille_duel(client, group, w, ann)], 1)
        crapouille_duel(client, group, ann, e)
        crapouille_duel(client, group, m, ann)
        # A finished crapouille game where two of three go out at once (the « hors jeu » tags).
        finished = start_crapouille(client, group, [w, e, ann])
        hand(client, group, finished, 1, w, **{str(e.id): 310, str(ann.id): 302})
        # A Président game (its board has Pts, Prés., TdC) and a whist game (Won, Stake left).
        president = start_president(client, group, "president", [ann, w, e, m], target=6)
        for number, finish in enumerate(([ann, w, e], [w, ann, e], [ann, e, w]), start=1):
            manche(client, group, president, number, finish)
        whist = start_whist(client, group, [ann, w, e])
        for number, bid in enumerate((5, 4, 3, 2), start=1):
            deal(client, group, whist, number, {w: bid, e: 0, ann: 1}, {w: 0, e: 0, ann: 6 - number})
        # A whist game whose first deal waits for its bids: Bob, Ann, then the dealer, long-named.
        bids = start_whist(client, group, [m, bob, ann])
        site_urls = {
            "player": f"/g/{group.code}/players/{ann.id}/stats",
            "crapouille": f"/g/{group.code}/games/{finished}",
            "season": f"/g/{group.code}/seasons/{group.current_season.id}",
            "bids": f"/g/{group.code}/games/{bids}/rounds/new",
        }
        ids = {"ann": ann.id, "bob": bob.id, "dealer": m.id}
        assert "Ann" in html(client.get(site_urls["player"]))
        cookie = client.get_cookie("session")
        assert cookie is not None
        session = cookie.value
    with served(app) as address:
        yield Site(address, session, site_urls, ids)


@pytest.fixture
def phone_in(browser: Any, site: Site) -> Iterator[Any]:
    """``phone_in(theme)``: a page of a French phone of the group in that theme."""
    contexts = []

    def open_page(theme: str) -> Any:
        context = browser.new_context(locale="fr-FR", color_scheme="light" if theme == "dark" else "dark", **PHONE)
        context.add_cookies(
            [
                {"name": "session", "value": site.cookie, "url": site.base},
                {"name": "theme", "value": theme, "url": site.base},
            ]
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield open_page
    for context in contexts:
        context.close()


def _keep(page: Any, name: str) -> None:
    shoot(page, name)
    shots = os.environ.get("SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=True)
        for i, part in enumerate(page.locator("main table:visible, main figure").all()):
            part.screenshot(path=str(Path(shots) / f"{name}-part{i}.png"))


#: Every header row of every table: each cell's box and its words' box, and which
#: cells overlap a neighbour or cannot hold their words.
_HEADERS = """() => {
  const faults = [];
  for (const table of document.querySelectorAll("main table")) {
    if (!table.getClientRects().length) continue;
    const where = table.id || table.className;
    for (const row of table.querySelectorAll("thead tr")) {
      const cells = [...row.children].map((th) => {
        const box = th.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(th);
        const words = th.textContent.trim() ? range.getBoundingClientRect() : null;
        return {text: th.textContent.trim(), box, words, th};
      });
      cells.forEach((a, i) => {
        if (a.words && (a.words.left < a.box.left - 0.5 || a.words.right > a.box.right + 0.5))
          faults.push(`${where}: « ${a.text} » drawn outside its cell`);
        if (a.th.scrollWidth > a.th.clientWidth + 0.5) faults.push(`${where}: « ${a.text} » too wide for its cell`);
        cells.slice(i + 1).forEach((b) => {
          const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (x > 0.5 && y > 0.5) faults.push(`${where}: « ${a.text} » overlaps « ${b.text} »`);
          if (a.words && b.words) {
            const wx = Math.min(a.words.right, b.words.right) - Math.max(a.words.left, b.words.left);
            const wy = Math.min(a.words.bottom, b.words.bottom) - Math.max(a.words.top, b.words.top);
            if (wx > 0 && wy > 0) faults.push(`${where}: words « ${a.text} » and « ${b.text} » overlap`);
          }
        });
      });
    }
  }
  return faults;
}"""

#: The figure columns' headers: aligned as their figures are (right).
_ALIGN = """() => [...document.querySelectorAll("main table.scores thead th + th")]
  .filter((th) => th.textContent.trim() && getComputedStyle(th).textAlign !== "right")
  .map((th) => th.textContent.trim())"""

#: Chart texts drawn outside their chart's drawing (cut by the SVG's edge).
_CHART_TEXT = """() => {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart-svg")) {
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(t.textContent);
    }
  }
  return out;
}"""


def _fits(page: Any, where: str) -> None:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= WIDTH and inner == WIDTH, f"{where}: {scroll}px wide for a {WIDTH}px phone"
    assert page.evaluate(_HEADERS) == [], where
    assert page.evaluate(_ALIGN) == [], where
    assert page.evaluate(_CHART_TEXT) == [], where


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", ["player", "crapouille", "season"])
def test_figures_fit_a_phone(site: Site, phone_in: Any, name: str, theme: str) -> None:
    page = phone_in(theme)
    page.goto(site.base + site.urls[name])
    assert page.locator("html").get_attribute("data-theme") == theme
    if name == "player":
        assert page.locator("#rivals thead th").count() == 4
        assert page.locator("#rating-chart svg.chart-svg").count() == 1
        assert page.locator("#rivals tbody tr").count() >= 3
    if name == "crapouille":
        assert page.locator("table.scores .tag").count() == 2  # « hors jeu », twice
    if name == "season":
        assert page.get_by_text(LONG[1]).count() >= 1
        assert page.locator("abbr", has_text="Prés.").count() == 1
    for details in page.locator("main details > summary").all():
        details.evaluate("s => s.click()")  # the figures as tables, too
    _fits(page, f"{name} ({theme})")
    _keep(page, f"narrow-{name}-{theme}")


@pytest.mark.parametrize("theme", THEMES)
def test_the_dealers_forbidden_bid_is_struck_out(site: Site, phone_in: Any, theme: str) -> None:
    page = phone_in(theme)
    page.goto(site.base + site.urls["bids"])
    dealer = page.locator("fieldset[data-dealer]")
    bob, ann = site.ids["bob"], site.ids["ann"]
    assert dealer.locator("label.forbidden").count() == 0  # nothing is forbidden before the others bid
    page.locator(f"label:has(input[name=bid_{bob}][value='2'])").click()
    page.locator(f"label:has(input[name=bid_{ann}][value='1'])").click()
    # 5 cards: 2 + 1 + 2 would make 5 — the dealer's 2 is struck, disabled, said why.
    struck = dealer.locator("label.forbidden")
    assert struck.count() == 1 and struck.inner_text().strip() == "2"
    chip = struck.locator("input")
    assert chip.is_disabled() and chip.get_attribute("aria-describedby") == "forbidden-hint"
    assert re.search(r"ne peut pas annoncer 2", page.locator("#forbidden-hint").inner_text())
    assert "line-through" in struck.locator("span").evaluate("s => getComputedStyle(s).textDecorationLine")
    _fits(page, f"bids ({theme})")
    dealer.scroll_into_view_if_needed()
    _keep(page, f"narrow-whist-bids-{theme}")
    # The dealer chose 3; Ann's bid changes to 0: 3 is now forbidden, and unchosen.
    dealer.locator("label:has(input[value='3'])").click()
    page.locator(f"label:has(input[name=bid_{ann}][value='0'])").click()
    assert dealer.locator("label.forbidden").inner_text().strip() == "3"
    assert dealer.locator("input:checked").count() == 0 and not dealer.locator("input[value='2']").is_disabled()
    # Without script the server refuses it all the same, and strikes it out on the page it sends back.
    dealer.locator("input[value='3']").evaluate("i => { i.disabled = false; i.checked = true; }")
    with page.expect_navigation():
        page.locator("#deal-form").evaluate("f => HTMLFormElement.prototype.submit.call(f)")
    struck = page.locator("fieldset[data-dealer] label.forbidden")
    assert struck.locator("input").is_disabled() and struck.inner_text().strip() == "3"
    assert page.locator("fieldset[data-dealer] .error").count() == 1
    assert page.locator("#forbidden-hint").is_hidden()  # the engine's reason says it, once
