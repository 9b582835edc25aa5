"""Two phones at one game (390×844, touch): an earlier hand corrected, and the same hand
sent from both phones — saved once, the other phone told so with what it typed kept."""

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, shoot
from tests.browser.test_entry_widgets import _enter_hand, _group_with_players, _start_game, _watch

pytestmark = pytest.mark.browser


def _hand(page: Any, winner: str, totals: dict[str, str]) -> None:
    page.locator("fieldset.winner label.pill", has_text=winner).tap()
    for name, total in totals.items():
        page.locator("fieldset.player", has_text=name).locator(".total-input").fill(total)


def test_an_earlier_hand_is_corrected_and_the_later_ones_follow(live_server: str, phone: Any) -> None:
    page = phone
    problems = _watch(page)
    group_url = _group_with_players(page, live_server, "Les Correcteurs", "Camille", "Inès")
    _start_game(page, group_url, "Camille", "Inès")
    for n, total in ((1, "10"), (2, "20"), (3, "30")):
        _enter_hand(page, f"Saisir la donne {n}")
        _hand(page, "Camille", {"Inès": total})
        page.get_by_role("button", name="Enregistrer la donne").tap()
        expect(page.locator(f"#hand-{n}")).to_be_visible()
    expect(page.locator(".board li", has_text="Inès").locator("[data-total]")).to_have_text("60")
    page.locator("#hand-1").get_by_role("link", name="Corriger la donne 1").tap()
    page.locator("fieldset.player", has_text="Inès").locator(".total-input").fill("15")
    page.get_by_role("button", name="Enregistrer la donne").tap()
    expect(page.get_by_text("Donne 1 corrigée.")).to_be_visible()
    expect(page.locator(".board li", has_text="Inès").locator("[data-total]")).to_have_text("65")
    expect(page.locator("#hand-3")).to_contain_text("65")
    shoot(page, "crapouille-corrected")
    assert problems == [], problems


def test_two_phones_sending_the_same_hand_save_it_once(live_server: str, phone: Any, browser: Any) -> None:
    first = phone
    group_url = _group_with_players(first, live_server, "Les Jumeaux", "Camille", "Inès")
    _start_game(first, group_url, "Camille", "Inès")
    game_url = first.url.split("#")[0]
    code = group_url.rstrip("/").rsplit("/", 1)[-1]
    # A second phone: its own browser context, joining the group with the passphrase.
    context = browser.new_context(locale="fr-FR", **PHONE)
    second = context.new_page()
    second.goto(f"{live_server}/join?code={code}")
    second.get_by_label("Phrase secrète").fill("as de trèfle")
    second.get_by_label("Nom de cet appareil").fill("Téléphone d’Inès")
    second.get_by_role("button", name="Rejoindre").tap()
    second.get_by_text("Bienvenue").wait_for()
    second.goto(game_url)
    for page in (first, second):
        _enter_hand(page)
    _hand(first, "Camille", {"Inès": "12"})
    _hand(second, "Camille", {"Inès": "34"})
    first.get_by_role("button", name="Enregistrer la donne").tap()
    expect(first.locator("#hand-1")).to_be_visible()
    second.get_by_role("button", name="Enregistrer la donne").tap()
    # Another hand 1 was saved first: both versions, the saved one and this one, kept in the form.
    expect(second.locator("#error-summary")).to_contain_text("la partie a changé d’abord sur un autre appareil")
    expect(second.locator(".meanwhile")).to_contain_text("Donne 1 saisie")
    expect(second.locator(".meanwhile")).to_contain_text("Inès : 0 → 12")
    expect(second.locator("fieldset.player", has_text="Inès").locator(".total-input")).to_have_value("34")
    shoot(second, "two-phones-refused")
    first.reload()
    expect(first.locator("#hand-1")).to_contain_text("12")
    expect(first.locator("#hand-2")).to_have_count(0)
    context.close()
