"""Joining by QR code, on three phones at 390×844: the first shows a code, the second
opens its link, names itself and joins; the link then opens nothing for a third phone,
which lands on the normal join page — with no Content-Security-Policy violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, shoot

pytestmark = pytest.mark.browser


def _watch_console(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def _new_phone(browser: Any, **options: Any) -> Any:
    page = browser.new_context(locale="fr-FR", **PHONE, **options).new_page()
    page.set_default_timeout(10_000)
    return page


def test_a_qr_code_joins_once_then_fails(live_server: str, phone: Any, browser: Any) -> None:
    first = phone
    problems = _watch_console(first)
    first.goto(live_server + "/groups/new")
    first.get_by_label("Nom du groupe").fill("La Manille du dimanche")
    first.get_by_label("Phrase secrète", exact=True).fill("manillon")
    first.get_by_label("Phrase secrète (encore)").fill("manillon")
    first.get_by_label("Nom de cet appareil").fill("Téléphone de Cid")
    first.get_by_role("button", name="Créer le groupe").tap()
    first.get_by_text("Groupe créé.").wait_for()
    group_url = first.url

    first.get_by_role("link", name="Inviter un téléphone").tap()
    first.get_by_role("heading", name="Inviter un téléphone").wait_for()
    shoot(first, "invite")
    first.get_by_role("button", name="Montrer un code QR").tap()
    qr = first.get_by_role("img", name="Code QR pour rejoindre La Manille du dimanche")
    qr.wait_for()
    box = qr.locator("svg").bounding_box()
    assert box is not None and 200 <= box["width"] <= 390 - 32 and abs(box["width"] - box["height"]) < 1
    assert first.get_by_text("Valable 10 minutes, une seule fois.").is_visible()
    link = first.get_by_label("Ou envoyez ce lien").input_value()
    assert link.startswith(live_server + "/join/t/")
    shoot(first, "invite-qr")

    second = _new_phone(browser)
    problems += _watch_console(second)
    second.goto(link)
    second.get_by_role("heading", name="Rejoindre La Manille du dimanche").wait_for()
    assert second.get_by_label("Phrase secrète").count() == 0
    second.get_by_label("Nom de cet appareil").fill("Téléphone d’Ann")
    shoot(second, "join-by-qr")
    second.get_by_role("button", name="Rejoindre").tap()
    second.get_by_text("Bienvenue dans La Manille du dimanche.").wait_for()
    assert second.url == group_url
    second.get_by_role("link", name="Appareils").tap()
    second.locator("li", has_text="Téléphone d’Ann").get_by_text("cet appareil").wait_for()

    third = _new_phone(browser)
    problems += _watch_console(third)
    third.goto(link)
    third.get_by_text("Ce code QR a expiré ou a déjà servi").wait_for()
    assert "/join?code=" in third.url
    assert third.get_by_label("Code du groupe").input_value() == group_url.rsplit("/", 1)[-1]
    shoot(third, "join-by-qr-used")
    third.goto(group_url)
    assert "/join" in third.url  # still outside the group

    # The showing phone learns who came in.
    first.reload()
    first.get_by_text("Téléphone d’Ann a rejoint le groupe avec ce code QR.").wait_for()
    for page in (second, third):
        page.context.close()
    assert problems == [], problems


def test_a_revoked_code_opens_nothing(live_server: str, phone: Any, browser: Any) -> None:
    first = phone
    first.goto(live_server + "/groups/new")
    first.get_by_label("Nom du groupe").fill("Le Tarot du mardi")
    first.get_by_label("Phrase secrète", exact=True).fill("petit au bout")
    first.get_by_label("Phrase secrète (encore)").fill("petit au bout")
    first.get_by_role("button", name="Créer le groupe").tap()
    first.get_by_text("Groupe créé.").wait_for()
    first.goto(first.url + "/invite")
    first.get_by_role("button", name="Montrer un code QR").tap()
    link = first.get_by_label("Ou envoyez ce lien").input_value()
    first.get_by_role("button", name="Révoquer").tap()
    first.get_by_text("Code QR révoqué").wait_for()
    assert first.get_by_role("button", name="Révoquer").count() == 0

    other = _new_phone(browser)
    other.goto(link)
    other.get_by_text("Ce code QR a expiré ou a déjà servi").wait_for()
    assert "/join?code=" in other.url
    other.context.close()
