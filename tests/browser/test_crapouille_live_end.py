"""A crapouille hand followed live to its end on a phone-size Chromium (390×844, touch),
as a table would hear it (issue 23): going out on an 8 asks no suit; a draw is told once
(a drawn card that fits is laid in the same line); finishing on a 2 names who draws one
more card, which counts, on the end box and on the hand form it fills in.

Screenshots in the light and the dark theme in /tmp/shots/h2/ (and test-artifacts/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, keep, shoot
from tests.browser.test_referee_live import (
    AXE,
    WCAG_TAGS,
    _new_game,
    _no_horizontal_scroll,
    _pick,
    _play,
    _typed,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/h2")


def _themes(page: Any, name: str) -> None:
    """The page in the light and the dark theme, kept as screenshots; no sideways scroll,
    and axe-core finds nothing to fix against WCAG A/AA (contrast included)."""
    assert _no_horizontal_scroll(page)
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        keep(page, SHOTS / f"{name}-{theme}.png", full_page=True)
        shoot(page, f"{name}-{theme}")
        if AXE is not None:
            found = AXE.run(
                page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
            ).response["violations"]
            assert not found, f"{name} ({theme}): {[v['id'] for v in found]}"
    page.emulate_media(color_scheme="light")


def _started(page: Any, live_server: str, group: str) -> None:
    code = group_with(page, live_server, group, "Ann", "Bob", "Cid", "Dan")
    page.goto(_new_game(page, live_server, code, "crapouille", "Ann", "Bob", "Cid", "Dan"))
    _pick(page, "9d")
    page.locator("fieldset#first label.pill", has_text="Ann").tap()
    page.locator("form.live-start button[type=submit]").tap()
    page.locator("#turn").wait_for()


def _draw(page: Any) -> None:
    page.locator("button[name=action][value=draw]").tap()
    page.locator("#turn").wait_for()


def _last_card(page: Any) -> None:
    page.locator("label.pill", has=page.locator("#last")).tap()


def _said(locator: Any) -> str:
    return str(locator.inner_text()).replace("\u00a0", " ")


def test_a_hand_ending_on_a_last_eight(live_server: str, phone: Any) -> None:
    page = phone
    _started(page, live_server, "Huit final")
    # seed 003: « tire une carte du talon qu'il met sur la dernière carte posée si elle est de même
    # couleur ou de même rang que celle-ci, sinon dans son jeu »: Ann keeps hers, said once.
    _draw(page)
    expect(page.locator("#turn")).to_have_text("À Bob de jouer.")
    first = page.locator(".live-moves li").first
    assert _said(first) == "Ann pioche\nAnn garde la carte piochée."
    expect(page.locator(".live-flags")).not_to_contain_text("pioche")
    # Bob draws 7♦, which fits: one line, « pioche et pose 7♦ »; then Cid plays.
    _typed(page, "7K")
    _draw(page)
    expect(page.locator("#turn")).to_have_text("À Cid de jouer.")
    expect(page.locator(".live-moves li")).to_have_count(2)
    expect(page.locator(".live-moves li").first).to_contain_text("Bob pioche et pose")
    expect(page.locator(".live-moves li").first.locator(".card-face[aria-label='7 de carreau']")).to_be_visible()
    _typed(page, "7T")
    _play(page)
    _themes(page, "live-crapouille-draws")
    # Dan lays an 8 as his last card, no suit named: RULES.md §4, « An 8 laid as a player's last card
    # ends the hand: no suit is asked ».
    _pick(page, "8h")
    _last_card(page)
    _play(page)
    expect(page.locator("#error-summary")).to_have_count(0)
    expect(page.locator("#turn")).to_have_text("La donne est finie.")
    expect(page.locator(".live-end")).to_contain_text("Dan n’a plus de cartes.")
    expect(page.locator(".flag-asked")).to_have_count(0)
    assert _said(page.locator("main")).count("n’a plus de cartes") == 1  # the log does not say it again
    _themes(page, "live-crapouille-last-eight")
    page.locator(".live-end a.button").tap()
    expect(page.locator("fieldset.winner input:checked")).to_have_count(1)
    expect(page.locator("fieldset.winner label", has=page.locator("input:checked"))).to_contain_text("Dan")
    expect(page.locator(".extra-card")).to_have_count(0)


def test_a_hand_ending_on_a_two(live_server: str, phone: Any) -> None:
    page = phone
    _started(page, live_server, "Deux final")
    # seed 003: « Lorsqu'un joueur termine en posant un 2 sur la table, par convention, le joueur suivant
    # prend une carte supplémentaire. »
    _pick(page, "2d")
    _last_card(page)
    _play(page)
    expect(page.locator("#turn")).to_have_text("La donne est finie.")
    end = page.locator(".live-end")
    expect(end).to_contain_text("Ann n’a plus de cartes.")
    extra = (
        "Fini sur un 2 : par convention, Bob, la personne suivante, pioche une carte de plus, "
        "qui compte dans ses points."
    )
    assert extra in _said(end)
    assert _said(page.locator("main")).count("Fini sur un 2") == 1
    _themes(page, "live-crapouille-last-two")
    # The hand form, filled in from the live hand, reminds it by Bob's cards.
    page.locator(".live-end a.button").tap()
    bob = page.locator("fieldset.player", has_text="Bob")
    expect(bob.locator(".extra-card")).to_have_text(
        "Fini sur un 2\u00a0: Bob a pioché une carte de plus, qui compte\u00a0; ajoutez-la à ses cartes."
    )
    expect(page.locator(".extra-card")).to_have_count(1)
    _themes(page, "crapouille-hand-after-a-two")
