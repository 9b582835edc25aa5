"""Live on every phone (static/watch.js, companion/watch.py), on phone-size Chromium
(390×844, touch): two phones of one group, each in its own browser context. What one
does shows on the other within 3 seconds, in place — the game page (a hand saved), the
group page (a new game), the live screen (a move) — without reloading the page (a mark
set on ``window`` is still there) and where the reader was. A phone in the middle of
typing is told instead, and refreshes when it chooses; a phone offline for a while
catches up when it is back; a page out of sight asks nothing, and asks at once when it
is seen again.

The pages here ask every ``WATCH_EVERY_MS`` (tests/browser/conftest.py), not every
1.5 s: the tests wait for what they expect to see, and the polling period itself is
checked against that setting."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WATCH_EVERY_MS, group_with, shoot
from tests.browser.test_referee_live import _new_game, _play, _start, _typed

pytestmark = pytest.mark.browser

PASSPHRASE = "sept de pique"
#: What the issue asks: a change shows on the other phone within 3 seconds.
WITHIN = 3_000
#: The watch address of a page (static/watch.js asks it).
_WATCH = re.compile(r"/watch(\?|$)")
#: Each ask of a watch address, with the page's clock (ms), kept on ``window.__asks``
#: (a new document starts a new list): timed in the page, not across the test's link.
_COUNT_ASKS = """(() => {
  const fetch = window.fetch;
  window.__asks = [];
  window.fetch = function (url) {
    if (/\\/watch(\\?|$)/.test(String(url))) window.__asks.push(performance.now());
    return fetch.apply(this, arguments);
  };
})();"""


def _join(page: Any, live_server: str, code: str) -> None:
    page.goto(f"{live_server}/join?code={code}")
    page.get_by_label("Phrase secrète").fill(PASSPHRASE)
    page.get_by_label("Nom de cet appareil").fill("Tablette")
    page.get_by_role("button", name="Rejoindre").tap()
    page.get_by_text("Bienvenue").wait_for()


def _mark(page: Any) -> None:
    """A mark a reload would wipe out."""
    page.evaluate("window.__marker = 1")


def _not_reloaded(page: Any) -> bool:
    return bool(page.evaluate("window.__marker === 1"))


def _hand(page: Any, game_url: str, winner: str, **totals: int) -> None:
    """A crapouille hand entered with typed totals."""
    page.goto(game_url + "/rounds/new")
    page.locator("fieldset.winner label.pill", has_text=winner).tap()
    for name, total in totals.items():
        page.locator("fieldset.player", has_text=name).locator(".total-input").fill(str(total))
    page.get_by_role("button", name="Enregistrer la donne").tap()
    page.locator("#totals").wait_for()


def test_a_hand_saved_on_one_phone_shows_on_the_other_in_place(live_server: str, phone: Any, other: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Deux téléphones", "Ann", "Bob", "Cid", passphrase=PASSPHRASE)
    game_url = _new_game(page, live_server, code, "crapouille", "Ann", "Bob", "Cid").removesuffix("/live")
    _hand(page, game_url, "Ann", Bob=12, Cid=30)
    _hand(page, game_url, "Bob", Ann=4, Cid=7)

    _join(other, live_server, code)
    other.goto(game_url)
    expect(other.locator("#hand-2")).to_be_visible()
    _mark(other)
    other.evaluate("window.scrollTo(0, 300)")
    scrolled = other.evaluate("window.scrollY")
    assert scrolled > 0

    _hand(page, game_url, "Cid", Ann=9, Bob=20)
    expect(other.locator("#hand-3")).to_be_visible(timeout=WITHIN)
    board = other.locator("ol.board")
    expect(board.locator("li", has_text="Bob").locator("[data-total]")).to_have_text("32")
    assert _not_reloaded(other) and other.url == game_url
    assert abs(other.evaluate("window.scrollY") - scrolled) <= 1
    assert other.locator(".watch-changed").count() == 0

    # A hand deleted on the first phone goes away on the second.
    page.locator("details.danger summary", has_text="Corriger une erreur").tap()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("details.danger button", has_text="Supprimer").tap()
    expect(page.locator("#hand-3")).to_have_count(0)
    expect(other.locator("#hand-3")).to_have_count(0, timeout=WITHIN)
    assert _not_reloaded(other)

    # Offline for a while (two asks fail): nothing breaks, and the phone catches up once back.
    failed: list[str] = []
    other.on("requestfailed", lambda request: failed.append(request.url) if _WATCH.search(request.url) else None)
    other.context.set_offline(True)
    _hand(page, game_url, "Cid", Ann=1, Bob=2)
    start = len(failed)
    _until(other, lambda: len(failed) >= start + 2, WITHIN)
    expect(other.locator("#hand-3")).to_have_count(0)
    other.context.set_offline(False)
    expect(other.locator("#hand-3")).to_be_visible(timeout=WITHIN)
    assert _not_reloaded(other)
    shoot(other, "live-updates-game")


def test_a_new_game_shows_on_the_group_page_of_the_other_phone(live_server: str, phone: Any, other: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Le groupe en direct", "Ann", "Bob", passphrase=PASSPHRASE)
    _join(other, live_server, code)
    group_url = f"{live_server}/g/{code}"
    other.goto(group_url)
    expect(other.locator(".cards-list .tile")).to_have_count(0)
    _mark(other)

    game_url = _new_game(page, live_server, code, "crapouille", "Ann", "Bob").removesuffix("/live")
    tile = other.locator(".cards-list .tile")
    expect(tile).to_have_count(1, timeout=WITHIN)
    expect(tile).to_contain_text("Ann, Bob")
    expect(tile).to_contain_text("0 donne")

    _hand(page, game_url, "Ann", Bob=12)
    expect(tile).to_contain_text("1 donne", timeout=WITHIN)
    assert _not_reloaded(other) and other.url == group_url
    shoot(other, "live-updates-group")


def test_a_live_move_shows_on_the_other_phone_and_typing_is_not_overwritten(
    live_server: str, phone: Any, other: Any
) -> None:
    page = phone
    code = group_with(page, live_server, "La table en direct", "Ann", "Bob", "Cid", passphrase=PASSPHRASE)
    live = _new_game(page, live_server, code, "president", "Ann", "Bob", "Cid")
    page.goto(live)
    page.locator("fieldset#dealer label.pill", has_text="Cid").tap()  # Cid dealt: Ann leads
    _start(page)

    _join(other, live_server, code)
    other.goto(live)
    expect(other.locator("#turn")).to_contain_text("Ann")
    _mark(other)

    _typed(page, "VC")
    _play(page)
    expect(other.locator(".trick .card-face[aria-label='valet de cœur']")).to_be_visible(timeout=WITHIN)
    expect(other.locator("#turn")).to_contain_text("Bob")
    assert _not_reloaded(other)

    # The card picker of the new table works (it was enhanced when it came in).
    other.locator("#hand-form .picker-toggle").tap()
    expect(other.locator("#hand-form .picker")).to_be_visible()
    other.locator("#hand-form .picker-toggle").tap()

    # The second phone is typing: a move elsewhere does not wipe it out; it is told.
    other.locator("#hand-form .cards-input").fill("RC")
    page.locator("button[name=action][value=pass]").tap()
    expect(page.locator("#turn")).to_contain_text("Cid")
    notice = other.locator(".watch-changed")
    expect(notice).to_be_visible(timeout=WITHIN)
    expect(notice).to_contain_text("La partie a changé sur un autre appareil.")
    expect(other.locator("#hand-form .cards-input")).to_have_value("RC")
    expect(other.locator("#turn")).to_contain_text("Bob")  # not replaced
    shoot(other, "live-updates-typing")

    # Its « Rafraîchir » puts the table in place, still without a reload.
    notice.get_by_role("button", name="Rafraîchir").tap()
    expect(other.locator("#turn")).to_contain_text("Cid")
    expect(other.locator(".watch-changed")).to_have_count(0)
    expect(other.locator("#hand-form .cards-input")).to_have_value("")
    assert _not_reloaded(other) and re.search(r"/live$", other.url)


def _until(page: Any, done: Any, timeout: float) -> None:
    """Wait (the page's events flowing meanwhile) until ``done()``, at most ``timeout`` ms
    (``page.wait_for_function`` evaluates strings, which the pages' CSP forbids)."""
    for _ in range(int(timeout / 25) + 1):
        if done():
            return
        page.wait_for_timeout(25)
    assert done(), f"not within {timeout} ms"


_SEEN = """state => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  document.dispatchEvent(new Event('visibilitychange'));
  return performance.now();
}"""


def test_a_hidden_page_asks_nothing_and_asks_at_once_when_seen_again(live_server: str, phone: Any) -> None:
    page = phone
    every = WATCH_EVERY_MS
    code = group_with(page, live_server, "Le téléphone en poche", "Ann", "Bob", passphrase=PASSPHRASE)
    page.add_init_script(_COUNT_ASKS)
    page.goto(f"{live_server}/g/{code}")
    assert page.locator("body").get_attribute("data-watch-every") == str(every)
    _until(page, lambda: page.evaluate("window.__asks.length") >= 3, WITHIN + 3 * every)
    asks = page.evaluate("window.__asks")
    gaps = [b - a for a, b in itertools.pairwise(asks)]
    assert all(0.8 * every <= gap <= every + 1_500 for gap in gaps), gaps  # every period while in sight

    # In a pocket (the page hidden): nothing is asked (an ask on its way may finish).
    hidden = page.evaluate(_SEEN, "hidden")
    page.wait_for_timeout(4 * every)  # four periods: four asks, were it still asking
    assert page.evaluate("t => window.__asks.filter(a => a > t).length", hidden) == 0

    # Out of the pocket: asked at once, then every period again.
    shown = page.evaluate(_SEEN, "visible")
    _until(page, lambda: page.evaluate("t => window.__asks.filter(a => a > t).length", shown) >= 2, WITHIN)
    first, second = page.evaluate("t => window.__asks.filter(a => a > t)", shown)[:2]
    assert first - shown < every / 2, (first - shown, every)  # at once, not a period later
    assert second - first >= 0.8 * every, second - first

    # A page that is not watched asks nothing.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if _WATCH.search(request.url) else None)
    page.goto(f"{live_server}/g/{code}/players")
    assert page.locator("body[data-watch-url]").count() == 0
    count = len(asked)  # the page before may have asked on its way out
    page.wait_for_timeout(4 * every)
    assert len(asked) == count, asked
