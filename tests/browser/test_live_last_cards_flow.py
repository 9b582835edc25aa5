"""« Était-ce sa dernière carte ? » on a phone-size Chromium (390×844, touch): a Président
manche with the 32-card deck (8 cards each) where Ann lays her eighth card without ticking
« Ce sont ses dernières cartes »: the referee asks, nothing is stored until « Oui »; a
crapouille hand where Ann's fifth card is asked about and « Non » keeps her in.
Screenshots in the light and the dark theme in /tmp/shots/h4/ (and test-artifacts/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, keep
from tests.browser.test_referee_live import _both_themes, _new_game, _start, _typed

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/h4")
NBSP = "\u00a0"


def _shots(page: Any, name: str) -> None:
    """The screen as the phone shows it (390×844), light and dark; then the page checked
    as every live screen is (no sideways scroll, axe-core, full-page artifacts)."""
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        keep(page, SHOTS / f"{name}-{theme}.png")
    page.emulate_media(color_scheme="light")
    _both_themes(page, name)


def _move(page: Any, text: str = "", action: str = "play") -> None:
    if text:
        _typed(page, text)
    page.locator(f"#hand-form button[name=action][value={action}]").tap()
    page.locator("#turn, #last-question").first.wait_for()


def test_president_asks_about_the_last_cards_and_yes_takes_the_player_out(live_server: str, phone: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Table des dernières cartes", "Ann", "Bob", "Cid", "Dan")
    live = _new_game(page, live_server, code, "president", "Ann", "Bob", "Cid", "Dan", check=("rule_reduced",))
    page.goto(live)
    # The first manche: Dan dealt, so Ann leads (seed 000: « Le joueur venant après le
    # joueur qui a distribué commence »).
    dealer = page.locator("fieldset#dealer label.pill", has_text="Dan")
    if dealer.count():
        dealer.tap()
    else:
        page.locator("fieldset#leader label.pill", has_text="Ann").tap()
    _start(page)
    _move(page, "8C 8P 8T 8K")  # Ann: four of her eight cards
    for _ in range(3):
        _move(page, action="pass")
    expect(page.locator("#turn")).to_contain_text("Ann")
    moves = page.locator(".live-moves li").count()
    # Her last four, the box unticked: the referee asks first.
    _move(page, "9C 9P 9T 9K")
    question = page.locator("#last-question")
    expect(question.locator("h2")).to_have_text(f"Étaient-ce ses dernières cartes{NBSP}?")
    expect(question).to_contain_text("D’après le compte des cartes, Ann n’en a plus.")
    expect(question.locator(".card-face[aria-label='9 de cœur']")).to_be_visible()
    assert page.locator("#hand-form").count() == 0 and page.locator(".live-moves li").count() == moves
    _shots(page, "live-last-cards-president")
    question.get_by_role("button", name="Oui").tap()
    page.locator("#turn").wait_for()
    expect(page.locator(".live-players li", has_text="Ann")).to_contain_text("sorti")
    expect(page.locator("#turn")).to_contain_text("Bob")
    assert page.locator(".live-moves li").count() == moves + 1


def test_crapouille_asks_about_the_fifth_card_and_no_keeps_the_player_in(live_server: str, phone: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Table de la dernière carte", "Ann", "Bob", "Cid")
    live = _new_game(page, live_server, code, "crapouille", "Ann", "Bob", "Cid")
    page.goto(live)
    page.locator("#card").fill("9K")
    page.locator("fieldset#first label.pill", has_text="Ann").tap()
    _start(page)
    # seed 003: « Le donneur distribue cinq cartes à chacun »: Ann's fifth card may be her last.
    for card in ("9C", "9P", "9T", "7T", "7C", "7P", "VP", "VC", "VT", "DT", "DC", "DP"):
        _move(page, card)
        expect(page.locator("#error-summary")).to_have_count(0)
    _move(page, "RP")
    question = page.locator("#last-question")
    expect(question.locator("h2")).to_have_text(f"Était-ce sa dernière carte{NBSP}?")
    expect(question).to_contain_text("les cartes d’Ann ne sont plus comptées")
    _shots(page, "live-last-cards-crapouille")
    question.get_by_role("button", name="Non").tap()
    page.locator("#turn").wait_for()
    expect(page.locator("#turn")).to_contain_text("Bob")
    expect(page.locator(".live-moves li").first).to_contain_text("Ann")
