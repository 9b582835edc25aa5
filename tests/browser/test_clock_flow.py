"""The group's clock from a phone (issue 22): the clock page proposes the phone's own time
zone (static/clock.js), saving it moves the group's clock, and the page fits 390 px."""

from typing import Any

import pytest

from tests.browser.conftest import PHONE, shoot

pytestmark = pytest.mark.browser


def test_the_clock_page_proposes_the_phones_zone(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="fr-FR", timezone_id="Europe/Brussels", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(live_server + "/groups/new")
    page.get_by_label("Nom du groupe").fill("Les Bruxellois")
    page.get_by_label("Phrase secrète", exact=True).fill("tire une carte")
    page.get_by_label("Phrase secrète (encore)").fill("tire une carte")
    page.get_by_label("Nom de cet appareil").fill("Téléphone d’Élodie")
    page.get_by_role("button", name="Créer le groupe").tap()
    page.get_by_text("Groupe créé.").wait_for()
    # A new group is on Paris time; the phone is in Brussels: the page proposes it.
    page.get_by_role("link", name="Fuseau horaire · Paris (France)").tap()
    select = page.get_by_label("Fuseau horaire")
    assert select.input_value() == "Europe/Brussels"
    # Said by its place, as the list names it (Babel's name, in the page's language).
    assert "Bruxelles (Belgique)" in page.locator("#zone-proposed").inner_text()
    assert select.locator("option:checked").first.inner_text() == "Bruxelles (Belgique)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "clock-proposed-light")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    shoot(page, "clock-proposed-dark")
    page.get_by_role("button", name="Enregistrer le fuseau horaire").tap()
    page.get_by_role("link", name="Fuseau horaire · Bruxelles (Belgique)").wait_for()
    assert problems == []
    context.close()
