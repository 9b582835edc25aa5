"""A round said in one line, in Chromium at 390×844 (issue 28): for each kind, the line is
typed in « En une phrase », the form fills itself as it is typed and says it was read
back, nothing is saved until the usual button is pressed, and then the round is saved
as read."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _post_form, group_with, shoot
from tests.browser.test_table_display import _options

pytestmark = pytest.mark.browser


def _start(page: Any, live_server: str, code: str, kind: str, players: tuple[str, ...], **extra: str) -> str:
    """A game of ``kind`` with these players in seat order, started through its form; its
    address, and the players' ids by name."""
    new = f"{live_server}/g/{code}/games/new/{kind}"
    ids = _options(page.context.request.get(new).text(), "seats-0")
    fields = {f"seats-{i}": ids[name] for i, name in enumerate(players)} | extra
    address, _page = _post_form(page, new, fields)
    assert re.search(r"/games/\d+$", address), address
    return address


def _say(page: Any, line: str) -> None:
    """The line typed as a person types it (the form fills itself as it goes)."""
    field = page.get_by_label("En une phrase")
    field.click()
    field.press_sequentially(line, delay=5)
    expect(page.locator("#line-reading")).to_contain_text("Relu ci-dessous")


def test_a_crapouille_hand_said_in_one_line(live_server: str, phone: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Une phrase", "Ann", "Bob", "Cid")
    game = _start(page, live_server, code, "crapouille", ("Ann", "Bob", "Cid"))
    page.goto(game + "/rounds/new")
    _say(page, "Ann sort ; Bob douze ; Cid huit de cœur et un joker")
    expect(page.locator("fieldset.winner label.pill", has_text="Ann").locator("input")).to_be_checked()
    expect(page.locator("fieldset.player", has_text="Bob").locator(".total-input")).to_have_value("12")
    expect(page.locator("fieldset.player", has_text="Cid").locator(".cards-input")).to_have_value(re.compile("8C"))
    shoot(page, "line-crapouille")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.goto(game)  # nothing saved by reading
    expect(page.get_by_text("Aucune donne pour l’instant.")).to_be_visible()
    page.goto(game + "/rounds/new")
    _say(page, "Ann sort ; Bob douze ; Cid huit de cœur et un joker")
    page.get_by_role("button", name="Enregistrer la donne").tap()
    page.locator("#totals").wait_for()
    # seed 003: 8 = 20, joker = 15.
    expect(page.locator("ol.board li", has_text="Cid").locator("[data-total]")).to_have_text("35")
    expect(page.locator("ol.board li", has_text="Bob").locator("[data-total]")).to_have_text("12")


def test_a_president_manche_said_in_one_line(live_server: str, phone: Any) -> None:
    page = phone
    names = ("Ann", "Benoît", "Chloé", "Djamel")
    code = group_with(page, live_server, "Une phrase au Président", *names)
    game = _start(page, live_server, code, "president", names, target="25", titles="classic", rule_points="y")
    page.goto(game + "/rounds/new")
    _say(page, "Chloé présidente, Ann vice, Djamel vice-trou, Benoît trou du cul")
    # The taps follow the line: Chloé 1, Ann 2, Djamel 3.
    expect(page.locator(".tap-order-choice", has_text="Chloé")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".tap-order-choice", has_text="Djamel").locator(".tap-order-no")).to_have_text("3")
    shoot(page, "line-president")
    page.get_by_role("button", name="Enregistrer la manche").tap()
    page.locator("#totals").wait_for()
    expect(page.locator("ol.board li").first).to_contain_text("Chloé")
    expect(page.locator("ol.board li").first).to_contain_text("Président")


def test_a_whist_deals_bids_said_in_one_line(live_server: str, phone: Any) -> None:
    page = phone
    code = group_with(page, live_server, "Une phrase au whist", "Ann", "Bob", "Cid")
    game = _start(page, live_server, code, "whist-tarot", ("Ann", "Bob", "Cid"))
    page.goto(game + "/rounds/new")
    # seed 002: Ann deals 5 cards; bids from her left, Ann last (2 + 1 + 1 ≠ 5: allowed).
    _say(page, "annonces : Bob deux, Cid un, Ann un")
    expect(page.locator("fieldset#bid_" + _id(page, "Bob") + " input[value='2']")).to_be_checked()
    expect(page.locator("fieldset[data-dealer] input[value='1']")).to_be_checked()
    shoot(page, "line-whist")
    page.get_by_role("button", name="Enregistrer les annonces").tap()
    page.locator("#deal").wait_for()
    expect(page.locator("td[data-bid='Bob']")).to_have_text("2")
    expect(page.locator("td[data-bid='Ann']")).to_have_text("1")


def _id(page: Any, name: str) -> str:
    """The player id a fieldset of the deal form names (``bid_<id>``)."""
    legend = page.locator("fieldset.player legend", has_text=name).first
    fieldset_id = str(legend.locator("xpath=..").get_attribute("id"))
    return fieldset_id.split("_", 1)[1]


def _microphone(page: Any) -> bool:
    """Whether the page may use the microphone, as Chromium reads its Permissions-Policy."""
    return bool(
        page.evaluate("() => (document.permissionsPolicy || document.featurePolicy).allowsFeature('microphone')")
    )


def test_the_microphone_is_allowed_on_the_round_form_only_and_offered_where_it_can_work(
    live_server: str, phone: Any
) -> None:
    """The round form lets the page use the microphone (Permissions-Policy: microphone=(self)),
    every other page does not; « Dicter la phrase » shows only where the browser has speech
    recognition and the page may use the microphone."""
    page = phone
    code = group_with(page, live_server, "Au micro", "Ann", "Bob", "Cid")
    game = _start(page, live_server, code, "crapouille", ("Ann", "Bob", "Cid"))
    page.goto(game + "/rounds/new")
    assert _microphone(page)
    has_recognition = page.evaluate("() => Boolean(window.SpeechRecognition || window.webkitSpeechRecognition)")
    mic = page.get_by_role("button", name="Dicter la phrase")
    if has_recognition:
        expect(mic).to_be_visible()
    else:
        expect(mic).to_be_hidden()
    for other in (game, f"{live_server}/g/{code}", f"{live_server}/"):
        page.goto(other)
        assert not _microphone(page), other
    # No speech recognition in the browser: no button (the keyboard's dictation serves).
    context = page.context
    bare = context.new_page()
    bare.add_init_script("delete window.SpeechRecognition; delete window.webkitSpeechRecognition;")
    bare.goto(game + "/rounds/new")
    expect(bare.locator("#line")).to_be_visible()
    expect(bare.get_by_role("button", name="Dicter la phrase")).to_be_hidden()
    # A page the policy forbids the microphone: no button either, recognition or not (the
    # page fetched by the browser itself, not from the offline worker, to change its header).
    quiet = context.browser.new_context(locale="fr-FR", service_workers="block", storage_state=context.storage_state())
    forbidden = quiet.new_page()
    forbidden.add_init_script("window.webkitSpeechRecognition = window.webkitSpeechRecognition || function () {};")

    def without_microphone(route: Any) -> None:
        answer = route.fetch()
        headers = {**answer.headers, "permissions-policy": "microphone=()"}
        route.fulfill(response=answer, headers=headers)

    forbidden.route("**/rounds/new", without_microphone)
    forbidden.goto(game + "/rounds/new")
    assert not _microphone(forbidden)
    expect(forbidden.locator("#line")).to_be_visible()
    expect(forbidden.get_by_role("button", name="Dicter la phrase")).to_be_hidden()
    # …and the same page with the policy as served, recognition stubbed: offered.
    allowed = context.new_page()
    allowed.add_init_script("window.webkitSpeechRecognition = window.webkitSpeechRecognition || function () {};")
    allowed.goto(game + "/rounds/new")
    expect(allowed.get_by_role("button", name="Dicter la phrase")).to_be_visible()
    for opened in (bare, allowed):
        opened.close()
    quiet.close()
