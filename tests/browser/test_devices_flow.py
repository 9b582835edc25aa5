"""Two phones at a table: one creates the group, the other joins it under a name, and is
removed again — with no Content-Security-Policy violation on the way."""

from typing import Any

import pytest

from tests.browser.conftest import PHONE, shoot

pytestmark = pytest.mark.browser


def _watch_console(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def test_a_second_phone_joins_by_name_and_is_removed(live_server: str, phone: Any, browser: Any) -> None:
    first = phone
    problems = _watch_console(first)
    first.goto(live_server + "/groups/new")
    first.get_by_label("Nom du groupe").fill("La Belote du jeudi")
    first.get_by_label("Phrase secrète", exact=True).fill("dix de der")
    first.get_by_label("Phrase secrète (encore)").fill("dix de der")
    first.get_by_label("Nom de cet appareil").fill("Téléphone de Cid")
    first.get_by_role("button", name="Créer le groupe").tap()
    first.get_by_text("Groupe créé.").wait_for()
    code = first.locator("strong.code").inner_text()

    context = browser.new_context(locale="fr-FR", **PHONE)
    second = context.new_page()
    problems += _watch_console(second)
    second.goto(live_server + "/")
    second.get_by_label("Code du groupe").fill(code)
    second.get_by_label("Phrase secrète").fill("dix de der")
    second.get_by_label("Nom de cet appareil").fill("Téléphone d’Ann")
    shoot(second, "join-phone")
    second.get_by_role("button", name="Rejoindre").tap()
    second.get_by_text("Bienvenue").wait_for()

    first.get_by_role("link", name="Appareils").tap()
    row = first.locator("li", has_text="Téléphone d’Ann")
    row.wait_for()
    assert first.locator("li", has_text="Téléphone de Cid").get_by_text("cet appareil").is_visible()
    shoot(first, "devices")
    first.once("dialog", lambda dialog: dialog.accept())  # asked once, by the page's script
    row.get_by_role("button", name="Retirer").tap()
    first.get_by_text("Téléphone d’Ann a été retiré du groupe.").wait_for()

    second.reload()
    # Signed out at once, and told so, with the form to join again (issue 22).
    second.get_by_role("heading", name="Ce téléphone a été retiré du groupe").wait_for()
    assert second.get_by_role("button", name="Rejoindre de nouveau").is_visible()
    shoot(second, "removed-phone-light")
    second.evaluate("document.documentElement.dataset.theme = 'dark'")
    shoot(second, "removed-phone-dark")
    assert second.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
    assert problems == [], problems
