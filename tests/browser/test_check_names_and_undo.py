"""Issue 23 on a phone-size Chromium (390×844, touch): the quick check without script shows
the names typed for the seats in its player choosers once « Utiliser ces noms » draws the
page again (Enter still checks the move); « Reprendre le dernier coup » appears on the live
screen only once there is a move to take back; the dealer's forbidden bid is struck out
and said in the engine's one sentence, and a refusal is said once.

Screenshots, light and dark, in test-artifacts/ (check-names*, live-undo-*, live-refusal-*)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE, group_with, keep, shoot
from tests.browser.test_referee_live import _new_game, _no_horizontal_scroll, _start

pytestmark = pytest.mark.browser

NAMES = ("Eve", "Fay", "Gus", "Hal", "Ivy")


def _both_themes(page: Any, name: str) -> None:
    assert _no_horizontal_scroll(page), name
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        shoot(page, f"{name}-{theme}")
    page.emulate_media(color_scheme="light")


def _at(page: Any, selector: str, name: str) -> None:
    """Screenshots of the phone's screen (not the whole page) with ``selector`` at its top."""
    assert _no_horizontal_scroll(page), name
    page.locator(selector).evaluate("e => e.scrollIntoView({block: 'start'})")
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        keep(page, ARTIFACTS / f"{name}-{theme}.png")
    page.emulate_media(color_scheme="light")


def _options(page: Any, name: str) -> list[str]:
    """The labels a select offers (those shown)."""
    return list(
        page.locator(f"select[name='{name}'] option").evaluate_all(
            "os => os.filter(o => o.value && !o.hidden).map(o => o.textContent)"
        )
    )


def test_the_quick_check_without_script_offers_the_names_typed(browser: Any, live_server: str) -> None:
    context = browser.new_context(locale="fr-FR", java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{live_server}/check?game=president")
        assert _options(page, "move.player") == ["Ann", "Bob", "Cid", "Dan"]
        page.locator("details.setup > summary").tap()
        for i, name in enumerate(NAMES):
            page.locator(f"input[name='state.players[{i}]']").fill(name)
        # Without script, the lists still say Ann…Dan: the page is drawn again with the names.
        assert _options(page, "move.player") == ["Ann", "Bob", "Cid", "Dan"]
        _at(page, "fieldset.seats", "check-names-typed")
        with page.expect_navigation():
            page.get_by_role("button", name="Utiliser ces noms").tap()
        assert "state.players%5B4%5D=Ivy" in page.url or "state.players[4]=Ivy" in page.url
        for chooser in ("move.player", "state.leader", "state.trick[0].player"):
            assert _options(page, chooser) == list(NAMES), chooser
        expect(page.locator("label.pill[data-seat='4']")).to_be_visible()
        expect(page.locator("#verdict .verdict")).to_have_count(0)  # nothing judged yet
        page.locator("select[name='move.player']").select_option(label="Ivy")
        page.locator("input[name='move.cards']").fill("9♥")
        page.locator("details.setup > summary").tap()
        _both_themes(page, "check-names")
        _at(page, "fieldset.on-table", "check-names-out")
        _at(page, "fieldset.the-move", "check-names-move")
        # Enter in a field checks the move (« Vérifier » is the form's first button), on the names typed.
        with page.expect_navigation():
            page.locator("input[name='move.cards']").press("Enter")
        expect(page.locator("#verdict .verdict.legal")).to_be_visible()
        expect(page.locator("#verdict .verdict-said")).to_contain_text("Eve")  # after Ivy, Eve plays
    finally:
        context.close()


def test_take_back_appears_once_there_is_a_move(live_server: str, phone: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Table de la reprise", "Ann", "Bob", "Cid")
    live = _new_game(page, live_server, code, "whist-tarot", "Ann", "Bob", "Cid")  # Ann deals 5
    page.goto(live)
    _start(page)
    undo = page.get_by_role("button", name="Reprendre le dernier coup")
    expect(undo).to_have_count(0)
    page.locator("button[name=bid][value='2']").tap()  # Bob
    expect(undo).to_have_count(1)
    page.locator("button[name=bid][value='1']").tap()  # Cid: Ann may not bid 2
    forbidden = page.locator("button[name=bid][value='2']")
    expect(forbidden).to_be_disabled()
    assert "line-through" in forbidden.evaluate("b => getComputedStyle(b).textDecorationLine")
    sentence = "Ann donne et ne peut pas annoncer 2 : les annonces feraient 5, le nombre de plis."
    flag = page.locator("#forbidden")
    assert flag.inner_text().replace("\u00a0", " ") == sentence
    assert page.locator("main").inner_text().replace("\u00a0", " ").count(sentence) == 1
    page.locator("#forbidden").scroll_into_view_if_needed()
    _both_themes(page, "live-undo")
    # Sent all the same (a page from before): refused, the sentence once, in the summary.
    forbidden.evaluate("b => { b.disabled = false; }")
    with page.expect_navigation():
        forbidden.tap()
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("Non enregistré")
    assert page.locator("main").inner_text().replace("\u00a0", " ").count(sentence) == 1
    _both_themes(page, "live-refusal")
    # Taking back both bids: the button goes with the last one.
    for _ in range(2):
        undo.tap()
        page.locator("#turn").wait_for()
    expect(undo).to_have_count(0)
    expect(page.locator("#turn")).to_contain_text(re.compile("Bob"))
