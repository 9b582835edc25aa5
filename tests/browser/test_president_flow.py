"""Le Président and Piketty on a phone-size Chromium: seats tapped in order, the going-out
order tapped in order, the card draw, and what the table reads after each manche."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, shoot

pytestmark = pytest.mark.browser


def _no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _group_with(page, live_server, name, *players):
    """A group made from this phone with ``players``; the phone on its new-game page."""
    page.goto(f"{live_server}/g/{group_with(page, live_server, name, *players)}/games/new")


def _tap(page, *names):
    for name in names:
        page.locator(".tap-order-choice", has_text=re.compile(f"^\\d*{name}")).tap()


def _player(page, name):
    return page.locator("fieldset.player").filter(has=page.locator("legend", has_text=re.compile(f"^{name}$")))


def _manche(page, *out):
    page.locator("a.button.primary.big").tap()
    _tap(page, *out)
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()


def test_a_president_game_of_three_manches(live_server, phone):
    page = phone
    _group_with(page, live_server, "Les Présidents", "Ann", "Bob", "Cid", "Dan")
    page.get_by_role("link", name="Le Président").tap()
    _tap(page, "Ann", "Bob", "Cid", "Dan")
    page.locator(".house-rules summary").tap()
    page.locator("#rule_putsch").check()
    assert _no_horizontal_scroll(page)
    shoot(page, "president-new")
    page.locator("#submit").tap()

    page.locator("a.button.primary.big").tap()
    _tap(page, "Dan", "Cid", "Bob")
    buttons = page.locator(".tap-order-choice")
    assert buttons.filter(has_text="Dan").locator(".tap-order-no").inner_text() == "1"
    _tap(page, "Cid")  # a tap undoes
    assert buttons.filter(has_text="Bob").locator(".tap-order-no").inner_text() == "2"
    _tap(page, "Cid")
    assert buttons.filter(has_text="Cid").locator(".tap-order-no").inner_text() == "3"
    assert _no_horizontal_scroll(page)
    shoot(page, "president-manche")
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()

    board = page.locator("ol.board")
    expect(board.locator("li").first).to_contain_text("Dan")
    expect(board.locator("li").first).to_contain_text("Président")
    expect(board.locator("li").last).to_contain_text("Trou du cul")
    expect(page.locator(".exchanges li").first).to_contain_text("Ann")
    expect(page.locator(".exchanges li").first).to_contain_text("Dan")
    expect(page.locator(".seating")).to_contain_text("Dan → Bob → Cid → Ann")

    _manche(page, "Ann", "Bob", "Cid")
    _manche(page, "Ann", "Dan", "Cid")
    assert board.locator("li", has_text="Ann").locator("[data-total]").inner_text() == "6"
    assert board.locator("li", has_text="Dan").locator("[data-total]").inner_text() == "5"
    expect(page.locator(".seating")).to_contain_text("Ann → Dan → Cid → Bob")
    expect(page.locator("#round-3")).to_be_visible()
    assert _no_horizontal_scroll(page)
    shoot(page, "president-game")


def test_a_piketty_game_of_six_with_a_card_draw(live_server, phone):
    page = phone
    names = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    _group_with(page, live_server, "La table", *names)
    page.get_by_role("link", name="Piketty").tap()
    _tap(page, *names)
    page.locator("#submit").tap()

    page.locator("a.button.primary.big").tap()
    drawn = {"Ann": "R♠", "Bob": "A♦", "Cid": "2♣", "Dan": "R♥", "Eve": "6♣", "Fay": "9♦"}
    for name, card in drawn.items():
        _player(page, name).locator(".cards-input").fill(card)
    # The picker adds a card with two taps: rank, then suit.
    fay = _player(page, "Fay")
    fay.locator(".cards-input").fill("")
    fay.get_by_role("button", name="Choisir les cartes").tap()
    fay.get_by_role("button", name="9", exact=True).tap()
    fay.get_by_role("button", name="♦", exact=True).tap()
    assert fay.locator(".cards-input").input_value() == "9♦"
    assert _no_horizontal_scroll(page)
    shoot(page, "piketty-draw")
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()

    board = page.locator("ol.board li")
    expect(board.first).to_contain_text("Cid")
    expect(board.first).to_contain_text("Président")
    expect(board.last).to_contain_text("Eve")
    expect(board.last).to_contain_text("Trouduc")
    expect(page.locator(".exchanges li")).to_have_count(3)
    expect(page.locator(".deal li", has_text="Eve")).to_contain_text("14")
    expect(page.locator(".deal li", has_text="Ann")).to_contain_text("13")
    assert _no_horizontal_scroll(page)
    shoot(page, "piketty-game")

    page.locator("a.button.primary.big").tap()
    _tap(page, "Cid", "Eve", "Ann", "Bob", "Dan")
    page.locator("fieldset.forbidden label", has_text="Cid").tap()
    shoot(page, "piketty-manche")
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()
    expect(page.locator("ol.board li").first).to_contain_text("Eve")
    expect(page.locator("ol.board li").last).to_contain_text("Cid")
    assert _no_horizontal_scroll(page)


def test_correcting_a_manche_swaps_two_players_in_three_taps(live_server, phone):
    """« Échanger deux joueurs » on the tap-to-order list: the button, then the two
    players; saving stores the swapped order. Said in the live region, one-handed at
    390 px; a second swap with the player left out puts that player in."""
    page = phone
    _group_with(page, live_server, "Les Échanges", "Ann", "Bob", "Cid", "Dan")
    page.get_by_role("link", name="Le Président").tap()
    _tap(page, "Ann", "Bob", "Cid", "Dan")
    page.locator("#submit").tap()
    _manche(page, "Ann", "Bob", "Cid", "Dan")
    page.locator("#round-1").get_by_role("link", name="Corriger la manche 1").tap()
    page.locator("#hand-form").wait_for()
    buttons = page.locator(".tap-order-choice")
    swap = page.get_by_role("button", name="Échanger deux joueurs")
    said = page.locator(".tap-order-said")
    expect(said).to_have_attribute("aria-live", "polite")

    swap.tap()  # 1
    expect(swap).to_have_attribute("aria-pressed", "true")
    expect(said).to_have_text(re.compile("Touchez les deux joueurs à échanger"))
    _tap(page, "Bob")  # 2
    expect(said).to_have_text("Échanger Bob avec\u00a0: touchez un autre nom.")
    _tap(page, "Cid")  # 3
    expect(said).to_have_text("Bob et Cid ont échangé leur place.")
    expect(swap).to_have_attribute("aria-pressed", "false")
    numbers = {n: buttons.filter(has_text=n).locator(".tap-order-no") for n in ("Ann", "Bob", "Cid", "Dan")}
    for name, number in (("Ann", "1"), ("Cid", "2"), ("Bob", "3"), ("Dan", "4")):
        expect(numbers[name]).to_have_text(number)
    assert [page.locator(f"#finish-{i} option:checked").inner_text() for i in range(4)] == ["Ann", "Cid", "Bob", "Dan"]
    assert _no_horizontal_scroll(page)
    shoot(page, "president-correction-swap")
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()
    expect(page.locator("#round-1")).to_contain_text("Ann → Cid → Bob → Dan")

    # Dan left out (the last may be): a swap with Cid puts Dan third and leaves Cid out.
    page.locator("#round-1").get_by_role("link", name="Corriger la manche 1").tap()
    page.locator("#hand-form").wait_for()
    _tap(page, "Dan")  # out
    expect(numbers["Dan"]).to_have_text("")
    swap.tap()
    _tap(page, "Cid", "Dan")
    expect(numbers["Dan"]).to_have_text("2")
    expect(numbers["Cid"]).to_have_text("")
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()
    expect(page.locator("#round-1")).to_contain_text("Ann → Dan → Bob")
