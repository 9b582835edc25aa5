"""Whist avec un jeu de Tarot on a phone-size Chromium: a dealer's whole series of six
deals (5, 4, 3, 2, 1 cards, then 1 blind), each entered in two steps, the bids, then the
tricks; the dealer's forbidden bid said live and refused by the engine."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, shoot

pytestmark = pytest.mark.browser

#: (bids, tricks) of Ann's six deals, players in bidding order: Bob, Cid, then Ann who deals.
SERIES = [
    ((2, 1, 1), (2, 2, 1)),
    ((1, 1, 0), (1, 3, 0)),
    ((0, 0, 0), (3, 0, 0)),
    ((2, 2, 0), (0, 0, 2)),
    ((0, 0, 0), (0, 0, 1)),
    ((1, 0, 1), (1, 0, 0)),
]
ORDER = ("Bob", "Cid", "Ann")


def _no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _player(page, step, name):
    """The fieldset of ``name`` at this step (its legend starts with the name)."""
    legend = page.locator("legend", has_text=re.compile(rf"^\s*{re.escape(name)}\b"))
    return page.locator(f"fieldset[id^='{step}_']", has=legend)


def _choose(page, step, name, value):
    fieldset = _player(page, step, name)
    fieldset.locator("label.pill", has=page.locator(f"input[value='{value}']")).tap()


def _submit(page):
    page.locator("main form input[type=submit]").tap()


def test_a_dealers_series_of_six_deals_with_the_forbidden_bid_refused(live_server, phone):
    page = phone
    code = group_with(page, live_server, "Whisteurs", "Ann", "Bob", "Cid", passphrase="vingt et un")

    page.goto(f"{live_server}/g/{code}/games/new/whist-tarot")
    for name in ("Ann", "Bob", "Cid"):
        page.locator(".tap-order-choice", has_text=name).tap()
    assert _no_horizontal_scroll(page)
    shoot(page, "whist-new")
    _submit(page)
    page.locator("#totals").wait_for()
    game_url = page.url
    board = page.locator("ol.board")
    for name in ORDER:
        assert board.locator("li", has_text=name).locator("[data-stake]").inner_text() == "14"

    for number, (bids, tricks) in enumerate(SERIES, start=1):
        page.locator("#deal a.button.primary").tap()
        page.locator("form[data-whist]").wait_for()
        assert page.locator("fieldset[id^='tricks_']").count() == 0
        hint = page.locator("#forbidden-hint")
        before = hint.inner_text()
        _choose(page, "bid", "Bob", bids[0])
        _choose(page, "bid", "Cid", bids[1])
        cards = int(page.locator("form[data-whist]").get_attribute("data-cards"))
        forbidden = cards - bids[0] - bids[1]
        if forbidden >= 0:
            # Said live, as soon as the others have bid.
            expect(hint).not_to_have_text(before)
            assert str(forbidden) in hint.inner_text()
        if number == 1:
            # Struck out among Ann's chips, disabled (issue 22)…
            chip = _player(page, "bid", "Ann").locator("label.pill", has=page.locator(f"input[value='{forbidden}']"))
            expect(chip).to_have_class(re.compile(r"\bforbidden\b"))
            assert chip.locator("input").is_disabled()
            assert _no_horizontal_scroll(page)
            shoot(page, "whist-bids")
            # … and refused by the engine all the same when sent (a page without script).
            chip.locator("input").evaluate("i => { i.disabled = false; i.checked = true; }")
            _submit(page)
            expect(_player(page, "bid", "Ann").locator(".error")).to_contain_text(
                "Ann donne et ne peut pas annoncer 2\u00a0: les annonces feraient 5, le nombre de plis."
            )
            expect(page.locator("#error-summary a")).to_have_count(1)
            assert _player(page, "bid", "Cid").locator("input:checked").get_attribute("value") == str(bids[1])
        _choose(page, "bid", "Ann", bids[2])
        _submit(page)

        # The bids are saved: the game page shows them while the deal is played.
        page.locator("#totals").wait_for()
        for name, bid in zip(ORDER, bids, strict=True):
            assert page.locator(f"[data-bid='{name}']").inner_text() == str(bid)
        if number == 1:
            assert _no_horizontal_scroll(page)
            shoot(page, "whist-game-pending")
        page.locator("#deal a.button.primary").tap()
        page.locator("fieldset[id^='tricks_']").first.wait_for()
        for name, won in zip(ORDER, tricks, strict=True):
            _choose(page, "tricks", name, won)
        if number == 6:
            assert _no_horizontal_scroll(page)
            shoot(page, "whist-tricks")
        _submit(page)
        page.locator("#totals").wait_for()

    stakes = {name: board.locator("li", has_text=name).locator("[data-stake]").inner_text() for name in ORDER}
    assert stakes == {"Ann": "10", "Bob": "9", "Cid": "9"}
    # Ann's series is over: the deal passes to Bob, 5 cards.
    expect(page.locator("#deal")).to_contain_text(re.compile("Bob"))
    assert page.url.startswith(game_url.split("#")[0])
    assert _no_horizontal_scroll(page)
    shoot(page, "whist-game")


def test_the_seat_picker_refuses_a_fifth_player_as_it_is_tapped_with_the_reason(live_server, phone):
    """Whist is for 3 or 4 (seed 002; the engine's bound, given to the page): a fifth tap
    chooses nobody and says why, in sight and to a screen reader; a tap out lets the
    fifth in; the game starts with the four."""
    page = phone
    code = group_with(page, live_server, "Cinq whisteurs", "Ann", "Bob", "Cid", "Dan", "Eve", passphrase="excuse 22")
    page.goto(f"{live_server}/g/{code}/games/new/whist-tarot")
    choice = {n: page.locator(".tap-order-choice", has_text=n) for n in ("Ann", "Bob", "Cid", "Dan", "Eve")}
    reason = page.locator(".tap-order-full")
    for name in ("Ann", "Bob", "Cid"):
        choice[name].tap()
    expect(reason).to_be_hidden()
    choice["Dan"].tap()
    # Four seated: the fifth is offered as refused, and the reason is already in sight.
    expect(reason).to_be_visible()
    expect(reason).to_have_text("Le whist au tarot se joue à 3 ou 4 joueurs. Touchez un nom pour le retirer.")
    expect(reason).to_have_attribute("role", "status")
    expect(choice["Eve"]).to_have_attribute("aria-disabled", "true")
    choice["Eve"].tap(force=True)  # (aria-disabled: Playwright would wait for it; a finger does not)
    expect(choice["Eve"]).to_have_attribute("aria-pressed", "false")
    expect(choice["Eve"].locator(".tap-order-no")).to_have_text("")
    expect(reason).to_have_class(re.compile(r"\berror\b"))
    expect(reason).to_have_text("Le whist au tarot se joue à 3 ou 4 joueurs. Touchez un nom pour le retirer.")
    assert _no_horizontal_scroll(page)
    shoot(page, "whist-new-fifth-refused")
    # A tap takes Bob out: Eve may come in, fourth.
    choice["Bob"].tap()
    expect(reason).to_be_hidden()
    choice["Eve"].tap()
    expect(choice["Eve"].locator(".tap-order-no")).to_have_text("4")
    _submit(page)
    page.locator("#totals").wait_for()
    expect(page.locator("ol.board li")).to_have_count(4)
    expect(page.locator("ol.board")).not_to_contain_text("Bob")
