"""Le Président on a phone-size Chromium (390×844, touch), issue 23: the first manche's start
asks who dealt and says who leads; a manche followed live that ends reversed starts the next
one reversed (6♦ on 7♦ accepted); the round form shows only the chosen event's choices.
Screenshots in the light and the dark theme in /tmp/shots/h1/ (and test-artifacts/).

seed 000: « Le joueur venant après le joueur qui a distribué commence. »; « Une variante existe
selon laquelle, après une révolution, les cartes ne reprennent pas leur valeur normale à la
prochaine partie mais gardent leur valeur inversée jusqu'à ce qu'un joueur pose une révolution. »"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import group_with, keep
from tests.browser.test_referee_live import _both_themes, _new_game, _pass, _play, _start, _typed

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/h1")


def _shots(page: Any, name: str) -> None:
    """The page at 390×844 in both themes, kept in /tmp/shots/h1/ (the viewport, then the whole page)."""
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        keep(page, SHOTS / f"{name}-{theme}.png")
        keep(page, SHOTS / f"{name}-{theme}-full.png", full_page=True)
    page.emulate_media(color_scheme="light")


def _last(page: Any, cards: str) -> None:
    """The player to move lays ``cards`` as their last ones."""
    _typed(page, cards)
    page.locator("#hand-form input[name=last]").check()
    _play(page)


def test_first_dealer_lasting_revolution_and_the_events_menu(live_server: str, phone: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Révolution durable", "Ann", "Bob", "Cid", "Dan")
    rules = ("rule_revolution", "rule_revolution_persists", "rule_putsch", "rule_jeu_blanc")
    live = _new_game(page, live_server, code, "president", "Ann", "Bob", "Cid", "Dan", check=rules)
    game = live.removesuffix("/live")

    # The first manche: « Qui a distribué ? », the last seat proposed; who leads follows.
    page.goto(live)
    dealer = page.locator("fieldset#dealer")
    expect(dealer.locator("legend")).to_have_text("Qui a distribué\u00a0?")
    expect(dealer.locator("input[type=radio]:checked")).to_have_count(1)
    expect(dealer.locator("label.pill", has=page.locator("input:checked"))).to_contain_text("Dan")
    leads = page.locator("[data-leads-line]")
    expect(leads).to_be_visible()
    expect(leads).to_have_text("Ann joue en premier.")
    dealer.locator("label.pill", has_text="Bob").tap()
    expect(leads).to_have_text("Cid joue en premier.")
    dealer.locator("label.pill", has_text="Dan").tap()
    expect(leads).to_have_text("Ann joue en premier.")
    _shots(page, "live-start-first")
    _both_themes(page, "h1-live-start-first")
    _start(page)
    expect(page.locator("#turn")).to_contain_text("Ann")

    # seed 000: « Si un joueur pose un carré, il y a une révolution »; the manche ends reversed.
    _typed(page, "5C 5P 5T 5K")
    _play(page)
    for _ in range(3):
        _pass(page)
    _last(page, "3C")  # Ann, whose 3 is now the best card
    _last(page, "RC")  # Bob leads a king
    _last(page, "DC")  # Cid, lower: Dan is left
    page.locator("#end a.button").tap()
    box = page.locator("input[name=order_reversed]")
    expect(box).to_be_checked()
    page.locator("main form [type=submit]").last.tap()
    page.locator("#totals").wait_for()

    # The next manche starts reversed: said on its start page, no box to tick.
    page.goto(live)
    expect(page.locator(".live-start .flag-revolution")).to_contain_text("Révolution")
    expect(page.locator("form.live-start input[name=reversed]")).to_have_count(0)
    _shots(page, "live-start-reversed")
    _both_themes(page, "h1-live-start-reversed")
    _start(page)
    expect(page.locator(".flag-revolution")).to_be_visible()
    _typed(page, "7K")
    _play(page)
    _typed(page, "6K")  # lower is higher: Bob's 6♦ on Ann's 7♦ is accepted
    _play(page)
    expect(page.locator("#error-summary")).to_have_count(0)
    expect(page.locator("#turn")).to_contain_text("Cid")

    # The round form: each event shows only its own choices.
    page.goto(game + "/rounds/new")
    jeu_blanc = page.locator("[data-event=jeu_blanc]")
    expect(jeu_blanc).to_be_hidden()  # « Nothing special » is chosen
    events = page.locator("fieldset[data-events]")
    events.locator("label.pill", has_text="Jeu blanc").tap()
    expect(jeu_blanc).to_be_visible()
    expect(jeu_blanc.locator("select[name=jeu_blanc_player]")).to_be_visible()
    _shots(page, "round-events-jeu-blanc")
    events.locator("label.pill", has_text="Putsch").tap()
    expect(jeu_blanc).to_be_hidden()
    expect(page.locator("select[name=jeu_blanc_player]")).to_be_hidden()
    expect(page.locator("fieldset#order input[name=order_reversed]")).to_be_checked()  # started reversed
    _shots(page, "round-events-putsch")
    _both_themes(page, "h1-round-events")


def test_a_player_left_with_only_jokers_shows_them(live_server: str, phone: Any) -> None:
    # RULES.md §1 (`joker_wild`): « a player left holding only jokers can never play them, so he is
    # out of the manche at once and finishes last »; seed 000: « il ne peut être joué seul ».
    page = phone
    code = group_with(page, live_server, "Jokers qui complètent", "Ann", "Bob", "Cid")
    page.goto(f"{live_server}/g/{code}/games/new/president")
    for name in ("Ann", "Bob", "Cid"):
        page.locator(".tap-order-choice", has_text=name).tap()
    page.locator(".house-rules summary").tap()
    page.locator("#rule_jokers").select_option("2")
    page.locator("#rule_joker_wild").check()
    page.locator("main form [type=submit]").last.tap()
    page.locator("#totals").wait_for()
    page.goto(page.url.split("#")[0] + "/live")
    _start(page)  # Cid, the last seat, dealt: Ann leads
    _typed(page, "Joker")
    _play(page)
    expect(page.locator("#error-summary")).to_contain_text("Un joker ne se joue pas seul")
    _last(page, "RJ BJ")
    expect(page.locator(".trick li").first).to_contain_text("jokers montrés")
    expect(page.locator(".live-moves li").first).to_contain_text("Ann ne peut plus jouer ses jokers")
    expect(page.locator("#turn")).to_contain_text("Bob")
    _shots(page, "live-jokers-shown")
    _both_themes(page, "h1-live-jokers-shown")
