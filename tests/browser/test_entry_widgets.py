"""The entry widgets on a phone (390×844, touch): the card picker (opens and closes, one
at a time, says why a card is greyed out, shows the points as cards are picked or
typed, in the page's language) and seating a game by tapping the players."""

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, group_with, shoot

pytestmark = pytest.mark.browser

# Every aria-describedby and aria-controls of the page names elements that exist.
DANGLING_REFERENCES = """() => [...document.querySelectorAll('[aria-describedby], [aria-controls]')].flatMap(el =>
  ['aria-describedby', 'aria-controls'].flatMap(a => (el.getAttribute(a) || '').split(/\\s+/).filter(Boolean))
    .filter(id => !document.getElementById(id)).map(id => `${el.outerHTML.slice(0, 80)} -> ${id}`))"""


def _watch(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def _group_with_players(page: Any, live_server: str, name: str, *players: str) -> str:
    """A group made from this phone with ``players``; the group's page address."""
    return f"{live_server}/g/{group_with(page, live_server, name, *players, passphrase='as de trèfle')}"


def _seat(page: Any, *players: str) -> None:
    for player in players:
        page.locator(".tap-order-choice", has_text=player).tap()


def _start_game(page: Any, group_url: str, *players: str) -> None:
    page.goto(group_url + "/games/new/crapouille")
    _seat(page, *players)
    page.get_by_role("button", name="Commencer la partie").tap()
    page.get_by_text("Saisir la donne 1").wait_for()


def _enter_hand(page: Any, link: str = "Saisir la donne 1") -> None:
    page.get_by_role("link", name=link).tap()
    page.wait_for_url("**/rounds/new")
    page.locator("#hand-form").wait_for()


def _no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _open_pickers(page: Any) -> int:
    return int(page.evaluate("[...document.querySelectorAll('.picker')].filter(p => !p.hidden).length"))


def test_seating_by_taps_numbers_the_players_a_tap_undoes_and_the_game_keeps_the_order(
    live_server: str, phone: Any
) -> None:
    page = phone
    problems = _watch(page)
    group_url = _group_with_players(page, live_server, "Les Places", "Ann", "Bob", "Cid", "Dom")
    page.goto(group_url + "/games/new/crapouille")
    # With script, the players are buttons and the one-select-per-seat form is hidden.
    expect(page.locator(".tap-order-taps")).to_be_visible()
    expect(page.get_by_label("Place 1")).to_be_hidden()
    choice = {name: page.locator(".tap-order-choice", has_text=name) for name in ("Ann", "Bob", "Cid", "Dom")}

    _seat(page, "Cid", "Ann", "Bob")

    def numbers(*names: str) -> list[str]:
        return [choice[n].locator(".tap-order-no").inner_text() for n in names]

    assert numbers("Cid", "Ann", "Bob", "Dom") == ["1", "2", "3", ""]
    expect(choice["Ann"]).to_have_attribute("aria-pressed", "true")
    expect(choice["Ann"]).to_have_accessible_name(re.compile(r"^Ann\W+Place 2$"))
    expect(choice["Dom"]).to_have_attribute("aria-pressed", "false")

    choice["Ann"].tap()  # a tap undoes: Ann is out, Bob moves up
    assert numbers("Cid", "Ann", "Bob") == ["1", "", "2"]
    expect(choice["Ann"]).to_have_attribute("aria-pressed", "false")
    _seat(page, "Dom", "Ann")
    # The hidden selects hold the order the server reads.
    seats = [page.locator(f"#seats-{i}").input_value() for i in range(4)]
    names = [page.locator(f"#seats-{i} option:checked").inner_text() for i in range(4)]
    assert names == ["Cid", "Bob", "Dom", "Ann"] and all(seats)
    assert _no_horizontal_scroll(page)
    shoot(page, "new-game-seats")

    page.get_by_role("button", name="Commencer la partie").tap()
    _enter_hand(page)
    legends = page.locator("fieldset.player legend").all_inner_texts()
    assert [legend.split()[0] for legend in legends] == ["Cid", "Bob", "Dom", "Ann"]
    assert not problems, problems


def test_seating_without_enough_players_says_so_and_keeps_the_taps(live_server: str, phone: Any) -> None:
    page = phone
    group_url = _group_with_players(page, live_server, "Les Seuls", "Ann", "Bob")
    page.goto(group_url + "/games/new/crapouille")
    _seat(page, "Bob")
    page.get_by_role("button", name="Commencer la partie").tap()
    expect(page.locator(".tap-order").get_by_text("Il faut au moins 2 joueurs.")).to_be_visible()
    bob = page.locator(".tap-order-choice", has_text="Bob")
    expect(bob.locator(".tap-order-no")).to_have_text("1")
    _seat(page, "Ann")
    page.get_by_role("button", name="Commencer la partie").tap()
    page.get_by_text("Règle à deux joueurs.").wait_for()


def test_the_picker_opens_and_closes_one_at_a_time_and_says_why_a_card_is_greyed_out(
    live_server: str, phone: Any
) -> None:
    page = phone
    problems = _watch(page)
    group_url = _group_with_players(page, live_server, "Le Picker", "Ann", "Bob", "Cid", "Dom")
    _start_game(page, group_url, "Ann", "Bob", "Cid", "Dom")
    _enter_hand(page)
    # Closed pickers: the four-player form is short (it was 3.2 screens with every picker
    # open; 2.3 before the line « En une phrase » came above the fields).
    assert _open_pickers(page) == 0
    shoot(page, "hand-four-players")
    assert page.evaluate("document.documentElement.scrollHeight") < 2.45 * 844

    page.locator("fieldset.winner").get_by_text("Ann", exact=True).tap()  # Ann went out
    bob = page.locator("fieldset.player", has_text="Bob")
    cid = page.locator("fieldset.player", has_text="Cid")
    bob_toggle = bob.get_by_role("button", name="Choisir les cartes")
    bob_toggle.tap()
    assert _open_pickers(page) == 1
    expect(bob.locator(".picker")).to_be_visible()
    expect(bob.get_by_role("button", name="Terminé")).to_have_attribute("aria-expanded", "true")
    for _ in range(2):
        bob.get_by_role("button", name="8", exact=True).tap()
        bob.get_by_role("button", name="♥", exact=True).tap()

    cid.get_by_role("button", name="Choisir les cartes").tap()  # opening Cid's closes Bob's
    assert _open_pickers(page) == 1
    expect(bob.locator(".picker")).to_be_hidden()
    expect(bob_toggle).to_have_attribute("aria-expanded", "false")
    cid.get_by_role("button", name="8", exact=True).tap()
    # Bob holds both 8♥ of the two decks: Cid's picker greys it out and says why.
    heart = cid.get_by_role("button", name="♥", exact=True)
    expect(heart).to_be_disabled()
    note = cid.locator(".picker-note")
    expect(note).to_be_visible()
    assert note.inner_text().strip()
    expect(heart).to_have_attribute("aria-describedby", note.get_attribute("id"))
    assert "8♥" in (heart.get_attribute("title") or "")
    expect(heart).to_have_accessible_description(note.inner_text().strip())
    spade = cid.get_by_role("button", name="♠", exact=True)
    expect(spade).to_be_enabled()
    assert spade.get_attribute("aria-describedby") is None
    assert page.evaluate(DANGLING_REFERENCES) == []
    assert _no_horizontal_scroll(page)
    shoot(page, "hand-picker-greyed")

    cid.get_by_role("button", name="Terminé").tap()
    assert _open_pickers(page) == 0
    # Taking an 8♥ back from Bob gives it back to Cid.
    bob.get_by_role("button", name="Retirer 8♥").first.tap()
    cid.get_by_role("button", name="Choisir les cartes").tap()
    cid.get_by_role("button", name="8", exact=True).tap()
    expect(cid.get_by_role("button", name="♥", exact=True)).to_be_enabled()
    expect(cid.locator(".picker-note")).to_be_hidden()
    assert page.evaluate(DANGLING_REFERENCES) == []
    assert not problems, problems


def test_the_points_add_up_as_cards_are_picked_or_typed_and_the_server_agrees(live_server: str, phone: Any) -> None:
    page = phone
    problems = _watch(page)
    group_url = _group_with_players(page, live_server, "Les Points", "Ann", "Bob", "Cid")
    _start_game(page, group_url, "Ann", "Bob", "Cid")
    _enter_hand(page)
    # The values, from the engine, are on the page with or without script.
    terms = page.locator(".card-values dt").all_inner_texts()
    values = page.locator(".card-values dd").all_inner_texts()
    legend = list(zip(terms, values, strict=True))
    assert legend == [("8", "20"), ("Joker", "15"), ("2", "10"), ("V D R", "5"), ("A", "1")]

    page.locator("fieldset.winner").get_by_text("Ann", exact=True).tap()
    bob = page.locator("fieldset.player", has_text="Bob")
    cid = page.locator("fieldset.player", has_text="Cid")
    bob_points = bob.locator(".hand-points")
    expect(bob_points).to_be_hidden()  # nothing counted yet
    bob.get_by_role("button", name="Choisir les cartes").tap()
    bob.get_by_role("button", name="8", exact=True).tap()
    bob.get_by_role("button", name="♥", exact=True).tap()
    expect(bob_points).to_contain_text("20")
    bob.get_by_role("button", name="V", exact=True).tap()
    bob.get_by_role("button", name="♠", exact=True).tap()
    bob.get_by_role("button", name="Joker", exact=True).tap()
    expect(bob_points).to_contain_text("40")
    # The picker writes the page's ranks with the suit symbols, which both languages read.
    assert bob.locator(".cards-input").input_value() == "8♥ V♠ Joker"
    expect(bob.locator(".chip")).to_have_text(["8♥", "V♠", "Joker"])

    # Typed in French: « Rp » is the roi de pique (5), « 2t » the 2 de trèfle (10).
    cid_input = cid.locator(".cards-input")
    expect(cid_input).to_have_attribute("placeholder", "8C RP 10♦ Joker")
    cid_input.fill("Rp 2t")
    expect(cid.locator(".hand-points")).to_contain_text("15")
    expect(cid.locator(".chip")).to_have_text(["R♠", "2♣"])
    cid_input.fill("Rp 2t zz")
    expect(cid.locator(".hand-points")).to_contain_text("?")
    cid_input.fill("Rp 2t 8c")  # « 8c » is the 8 de cœur: 20
    expect(cid.locator(".hand-points")).to_contain_text("35")
    assert _no_horizontal_scroll(page)
    shoot(page, "hand-points")

    page.get_by_role("button", name="Enregistrer la donne").tap()
    page.locator("#totals").wait_for()
    board = page.locator("ol.board")
    assert board.locator("li", has_text="Bob").locator("[data-total]").inner_text() == "40"
    assert board.locator("li", has_text="Cid").locator("[data-total]").inner_text() == "35"
    assert not problems, problems


def test_an_english_page_picks_and_reads_english_letters(live_server: str, browser: Any, phone: Any) -> None:
    group_url = _group_with_players(phone, live_server, "The English", "Ann", "Bob")
    _start_game(phone, group_url, "Ann", "Bob")
    context = phone.context
    context.add_cookies([{"name": "lang", "value": "en", "url": live_server}])
    page = phone
    page.reload()
    _enter_hand(page, "Enter hand 1")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("fieldset.winner").get_by_text("Ann", exact=True).tap()
    bob = page.locator("fieldset.player", has_text="Bob")
    cards = bob.locator(".cards-input")
    expect(cards).to_have_attribute("placeholder", "8h Ks 10♦ Joker")
    bob.get_by_role("button", name="Pick cards").tap()
    bob.get_by_role("button", name="J", exact=True).tap()
    bob.get_by_role("button", name="♠", exact=True).tap()
    assert cards.input_value() == "J♠"
    cards.fill("J♠ 8c Ks")  # in English, c is clubs
    expect(bob.locator(".chip")).to_have_text(["J♠", "8♣", "K♠"])
    expect(bob.locator(".hand-points")).to_contain_text("30")
    page.get_by_role("button", name="Save the hand").tap()
    page.locator("#totals").wait_for()
    assert page.locator("ol.board li", has_text="Bob").locator("[data-total]").inner_text() == "30"
    expect(page.get_by_text("8♣")).to_be_visible()


def test_without_script_the_selects_and_the_typed_field_do_the_job(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="fr-FR", java_script_enabled=False, **PHONE)
    page = context.new_page()
    try:
        group_url = _group_with_players(page, live_server, "Sans script", "Ann", "Bob")
        page.goto(group_url + "/games/new/crapouille")
        expect(page.locator(".tap-order-taps")).to_be_hidden()
        page.get_by_label("Place 1").select_option(label="Bob")
        page.get_by_label("Place 2").select_option(label="Ann")
        page.get_by_role("button", name="Commencer la partie").tap()
        _enter_hand(page)
        assert page.locator(".picker").count() == 0 and page.locator(".chips").count() == 0
        expect(page.locator(".hand-points").first).to_be_hidden()
        expect(page.locator(".card-values")).to_be_visible()
        page.locator("fieldset.winner").get_by_text("Ann", exact=True).tap()
        page.locator("fieldset.player", has_text="Bob").locator(".cards-input").fill("8c Rp")
        page.get_by_role("button", name="Enregistrer la donne").tap()
        page.locator("#totals").wait_for()
        assert page.locator("ol.board li", has_text="Bob").locator("[data-total]").inner_text() == "25"
    finally:
        context.close()
