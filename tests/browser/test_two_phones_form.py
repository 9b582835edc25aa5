"""Two phones, one form (issue 23), on phone-size Chromium (390×844, touch), each phone
in its own browser context: phone B is typing a hand (or a correction) when phone A
saves it. B is told at once — within the live pages' delay, without a reload — that
the game changed and what changed (in the conflict page's words, from which device,
with the hand's summary), and what B typed stays as typed; B's form still carries the
version it was shown at, so sending it gets the conflict page, both versions shown,
B's values kept."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with
from tests.browser.test_live_updates_flow import PASSPHRASE, WITHIN, _hand, _mark, _not_reloaded
from tests.browser.test_referee_live import _both_themes, _new_game

pytestmark = pytest.mark.browser


def _join_as(page: Any, live_server: str, code: str, device: str) -> None:
    page.goto(f"{live_server}/join?code={code}")
    page.get_by_label("Phrase secrète").fill(PASSPHRASE)
    page.get_by_label("Nom de cet appareil").fill(device)
    page.get_by_role("button", name="Rejoindre").tap()
    page.get_by_text("Bienvenue").wait_for()


def _winner(page: Any) -> str:
    return str(page.locator("fieldset.winner input:checked").evaluate("input => input.closest('label').innerText"))


def _total(page: Any, name: str) -> Any:
    return page.locator("#hand-form fieldset.player", has_text=name).locator(".total-input")


def _shots(page: Any, name: str) -> None:
    """The notice as the phone sees it (the viewport, light and dark) into $SHOTS, and
    the whole page in both themes (test-artifacts/, checked by axe-core when present)."""
    shots = os.environ.get("SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            page.screenshot(path=str(Path(shots) / f"{name}-{theme}.png"))
        page.emulate_media(color_scheme="light")
    _both_themes(page, name)


def test_a_hand_saved_on_phone_a_while_phone_b_types_it(live_server: str, phone: Any, other: Any) -> None:
    typist, saver = phone, other
    code = group_with(typist, live_server, "Deux téléphones, un formulaire", "Ann", "Bob", "Cid", passphrase=PASSPHRASE)
    game_url = _new_game(typist, live_server, code, "crapouille", "Ann", "Bob", "Cid").removesuffix("/live")
    _hand(typist, game_url, "Ann", Bob=12, Cid=30)
    _hand(typist, game_url, "Bob", Ann=4, Cid=7)
    _join_as(saver, live_server, code, "Téléphone de Bob")

    # Phone B opens hand 3 and starts typing it; the field keeps the focus.
    typist.goto(game_url + "/rounds/new")
    expect(typist.locator("h1")).to_have_text("Donne 3")
    _mark(typist)
    version = typist.locator("#hand-form input[name=version]").input_value()
    typist.locator("fieldset.winner label.pill", has_text="Ann").tap()
    _total(typist, "Bob").fill("9")
    _total(typist, "Cid").fill("2")
    _total(typist, "Cid").focus()

    # Phone A saves hand 3 first.
    _hand(saver, game_url, "Cid", Ann=5, Bob=20)

    # B is told at once, what changed and from which phone, above what it typed.
    notice = typist.locator(".watch-changed")
    expect(notice).to_be_visible(timeout=WITHIN)
    expect(notice).to_contain_text("La partie a changé sur un autre appareil.")
    expect(notice).to_contain_text("Donne 3 saisie")
    expect(notice).to_contain_text("Téléphone de Bob")
    expect(notice).to_contain_text("Ann\u00a0: 4 → 9 · Bob\u00a0: 12 → 32")  # the hand's summary
    expect(notice).to_contain_text("Ce que vous avez saisi est gardé")
    expect(notice.get_by_role("link", name="Retour à la partie")).to_have_attribute("href", urlsplit(game_url).path)
    assert _not_reloaded(typist) and typist.url == game_url + "/rounds/new"
    assert _winner(typist) == "Ann"
    expect(_total(typist, "Bob")).to_have_value("9")
    expect(_total(typist, "Cid")).to_have_value("2")
    expect(typist.locator("h1")).to_have_text("Donne 3")  # never replaced
    assert typist.locator("#hand-form input[name=version]").input_value() == version
    _shots(typist, "two-phones-round-notice")
    _total(typist, "Cid").scroll_into_view_if_needed()
    if os.environ.get("SHOTS"):  # typing further down: the notice stays in sight
        typist.screenshot(path=str(Path(os.environ["SHOTS"]) / "two-phones-round-notice-scrolled.png"))

    # A saves hand 4 as well: the one notice now says both, still above B's hand.
    _hand(saver, game_url, "Ann", Bob=1, Cid=1)
    expect(notice).to_contain_text("Donne 4 saisie", timeout=WITHIN)
    expect(notice).to_contain_text("Donne 3 saisie")
    expect(typist.locator(".watch-changed")).to_have_count(1)
    expect(_total(typist, "Bob")).to_have_value("9")

    # B sends its hand: refused as a conflict, both versions shown, B's values kept.
    typist.locator("#hand-form [name=submit]").tap()
    expect(typist.locator(".meanwhile")).to_contain_text("Enregistré entre-temps sur un autre appareil")
    expect(typist.locator(".meanwhile")).to_contain_text("Donne 3 saisie")
    expect(typist.locator("h1")).to_have_text("Donne 5")
    assert _winner(typist) == "Ann"
    expect(_total(typist, "Bob")).to_have_value("9")
    expect(_total(typist, "Cid")).to_have_value("2")


def test_a_correction_made_on_phone_a_while_phone_b_corrects_the_same_hand(
    live_server: str, phone: Any, other: Any
) -> None:
    typist, saver = phone, other
    code = group_with(typist, live_server, "Deux corrections", "Ann", "Bob", passphrase=PASSPHRASE)
    game_url = _new_game(typist, live_server, code, "crapouille", "Ann", "Bob").removesuffix("/live")
    _hand(typist, game_url, "Ann", Bob=12)
    _join_as(saver, live_server, code, "Téléphone de Bob")

    typist.goto(game_url + "/rounds/1/edit")
    _mark(typist)
    _total(typist, "Bob").fill("21")

    saver.goto(game_url + "/rounds/1/edit")
    _total(saver, "Bob").fill("30")
    saver.locator("#hand-form [name=submit]").tap()
    saver.get_by_text("Donne 1 corrigée").first.wait_for()

    notice = typist.locator(".watch-changed")
    expect(notice).to_be_visible(timeout=WITHIN)
    expect(notice).to_contain_text("Donne 1 corrigée")
    expect(notice).to_contain_text("Téléphone de Bob")
    expect(notice).to_contain_text("Bob\u00a0: 0 → 30")
    assert _not_reloaded(typist)
    expect(_total(typist, "Bob")).to_have_value("21")
    _shots(typist, "two-phones-correction-notice")

    typist.locator("#hand-form [name=submit]").tap()
    expect(typist.locator(".meanwhile")).to_contain_text("Donne 1 corrigée")
    expect(_total(typist, "Bob")).to_have_value("21")
