"""On a phone (390×844, touch): a failing hand opens on its summary naming the players,
and a deleted hand is asked for once and undone."""

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shoot
from tests.browser.test_entry_widgets import _enter_hand, _group_with_players, _start_game, _watch

pytestmark = pytest.mark.browser


def test_a_failing_hand_names_the_players_and_a_deleted_hand_comes_back(live_server: str, phone: Any) -> None:
    page = phone
    problems = _watch(page)
    group_url = _group_with_players(page, live_server, "Les Prudents", "Camille", "Inès", "Dominique")
    _start_game(page, group_url, "Camille", "Inès", "Dominique")
    assert page.locator("body").get_attribute("data-wake") == "1"  # the screen stays awake here

    # Camille went out; nothing for Inès, both cards and a total for Dominique.
    _enter_hand(page)
    page.locator("fieldset.winner label.pill", has_text="Camille").tap()
    dominique = page.locator("fieldset.player", has_text="Dominique")
    dominique.locator(".cards-input").fill("8C")
    dominique.locator(".total-input").fill("20")
    page.get_by_role("button", name="Enregistrer la donne").tap()
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("2 choses à corriger")
    expect(summary).to_contain_text("Inès")
    expect(summary).to_contain_text("Dominique")
    expect(dominique.locator(".cards-input")).to_have_value("8C")  # nothing typed is lost
    shoot(page, "hand-summary")

    # Put it right and save.
    dominique.locator(".total-input").fill("")
    page.locator("fieldset.player", has_text="Inès").locator(".total-input").fill("12")
    page.get_by_role("button", name="Enregistrer la donne").tap()
    expect(page.locator("#totals")).to_be_visible()

    # Delete it: asked once (the page's script), then an Undo that brings it back.
    page.locator("summary", has_text="Corriger une erreur").tap()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Supprimer la donne 1").tap()
    expect(page.get_by_text("Donne 1 supprimée.")).to_be_visible()
    expect(page.locator("#hand-1")).to_have_count(0)
    page.get_by_role("button", name="Annuler").tap()
    expect(page.get_by_text("La donne 1 est rétablie.")).to_be_visible()
    expect(page.locator("#hand-1")).to_have_count(1)

    # Refusing the question changes nothing.
    page.locator("summary", has_text="Corriger une erreur").tap()
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Supprimer la donne 1").tap()
    expect(page.locator("#hand-1")).to_have_count(1)
    assert problems == [], problems
