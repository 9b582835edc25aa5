"""The main flow on a phone-size Chromium: group, players, a crapouille game, a hand picked
with the card picker, the totals."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shoot

pytestmark = pytest.mark.browser


def _no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_create_group_players_game_and_score_a_hand_with_the_picker(live_server, phone):
    page = phone
    page.goto(live_server + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.get_by_role("link", name="Créer un groupe").tap()
    page.get_by_label("Nom du groupe").fill("Les Tarés")
    page.get_by_label("Phrase secrète", exact=True).fill("sept de pique")
    page.get_by_label("Phrase secrète (encore)").fill("sept de pique")
    page.get_by_role("button", name="Créer le groupe").tap()
    page.get_by_text("Groupe créé.").wait_for()
    assert _no_horizontal_scroll(page)

    page.get_by_role("link", name="Joueurs").tap()
    for name in ("Ann", "Bob"):
        page.get_by_label("Nom").fill(name)
        page.get_by_role("button", name="Ajouter").tap()
        page.get_by_text(f"{name} a rejoint le groupe.").wait_for()

    page.get_by_role("link", name="Nouvelle partie").tap()
    page.get_by_role("link", name="La crapouille").tap()
    page.locator(".tap-order-choice", has_text="Bob").tap()  # seat order: tap Bob, then Ann
    page.locator(".tap-order-choice", has_text="Ann").tap()
    assert _no_horizontal_scroll(page)
    page.get_by_role("button", name="Commencer la partie").tap()
    page.get_by_text("Règle à deux joueurs.").wait_for()

    page.get_by_role("link", name="Saisir la donne 1").tap()
    page.locator("fieldset.winner").get_by_text("Ann", exact=True).tap()  # Ann went out: her entry disappears
    bob = page.locator("fieldset.player", has_text="Bob")
    expect(page.locator("fieldset.player", has_text="Ann")).to_be_hidden()
    bob.get_by_role("button", name="Choisir les cartes").tap()
    bob.get_by_role("button", name="8", exact=True).tap()
    bob.get_by_role("button", name="♥", exact=True).tap()
    bob.get_by_role("button", name="8", exact=True).tap()
    bob.get_by_role("button", name="♥", exact=True).tap()
    # Two decks hold only two 8♥: the picker will not offer a third.
    bob.get_by_role("button", name="8", exact=True).tap()
    assert bob.get_by_role("button", name="♥", exact=True).is_disabled()
    bob.get_by_role("button", name="V", exact=True).tap()
    bob.get_by_role("button", name="♠", exact=True).tap()
    bob.get_by_role("button", name="Joker").tap()
    assert bob.locator(".cards-input").input_value() == "8♥ 8♥ V♠ Joker"
    bob.get_by_role("button", name="Retirer V♠").tap()
    assert bob.locator(".cards-input").input_value() == "8♥ 8♥ Joker"
    assert _no_horizontal_scroll(page)
    shoot(page, "crapouille-hand")
    page.get_by_role("button", name="Enregistrer la donne").tap()

    page.locator("#totals").wait_for()
    board = page.locator("ol.board")
    assert board.locator("li", has_text="Bob").locator("[data-total]").inner_text() == "55"
    assert board.locator("li", has_text="Ann").locator("[data-total]").inner_text() == "0"
    expect(page.get_by_text("Donne 1 · Sortie : Ann")).to_be_visible()
    assert _no_horizontal_scroll(page)
    shoot(page, "crapouille-game")


def test_a_bad_entry_keeps_what_was_typed_and_says_why_in_french(live_server, phone):
    page = phone
    page.goto(live_server + "/groups/new")
    page.get_by_label("Nom du groupe").fill("Erreurs")
    page.get_by_label("Phrase secrète", exact=True).fill("un mot de passe")
    page.get_by_label("Phrase secrète (encore)").fill("un autre")
    page.get_by_role("button", name="Créer le groupe").tap()
    expect(page.get_by_text("Les deux phrases secrètes sont différentes.", exact=True)).to_be_visible()
    expect(page.get_by_label("Nom du groupe")).to_have_value("Erreurs")
