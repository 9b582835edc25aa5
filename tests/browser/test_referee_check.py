"""The quick check on a phone-size Chromium (390×844, touch), with JavaScript: for each game
a legal and an illegal play, the verdict shown in place by /api/v1/check without a page
reload, and the body the script sends equal to the one the page itself would judge for
the same form (companion.referee.check.form_body). Without the API (network down) or with
a card the script cannot read, the form is sent to its page, which says the same.

Screenshots (light and dark) go to test-artifacts/check-*.png."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from werkzeug.datastructures import MultiDict

from companion import create_app
from companion.referee.check import Table, check_form, form_body, seat_count
from tests.browser.conftest import ARTIFACTS, PHONE, group_with, keep, shoot

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bob", "Cid", "Dan")


@pytest.fixture(scope="module")
def judge_app() -> Any:
    """An app of our own to read a form as the page does (no database is touched)."""
    return create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def _no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _open(page: Any, base: str, game: str) -> None:
    page.goto(f"{base}/check?game={game}")
    page.locator("form[data-check]").wait_for()
    # Set on this very document: a reload would lose it.
    page.evaluate("window.sameDocument = true")


def _submit_with_js(page: Any, judge_app: Any, game: str) -> dict[str, Any]:
    """Submit the form; the script must call the API (no reload) with the body the page
    itself builds from the same form. Returns that body."""
    entries = page.evaluate("Array.from(new FormData(document.querySelector('form[data-check]')).entries())")
    with page.expect_request("**/api/v1/check") as request:
        page.locator("form[data-check] [type=submit]").tap()
    sent = json.loads(request.value.post_data)
    assert sent.pop("lang") == "fr"
    with judge_app.test_request_context(f"/check?game={game}", method="POST", data=MultiDict(entries)):
        form = check_form(Table(game, (*NAMES, *[""] * (seat_count(game) - len(NAMES))), fixed=False))
        assert sent == form_body(form, "fr").body
    return sent


def _verdict(page: Any, legal: bool) -> str:
    box = page.locator("#verdict .verdict." + ("legal" if legal else "illegal"))
    box.wait_for()
    assert page.evaluate("window.sameDocument === true"), "the page was reloaded"
    return str(box.inner_text())


def _pick(page: Any, field_id: str, *cards: tuple[str, str]) -> None:
    """Pick cards with the card picker of ``field_id``: each (rank label, suit symbol)."""
    field = page.locator(f"#{field_id}").locator("xpath=ancestor::div[contains(@class,'card-field')]")
    field.locator(".picker-toggle").tap()
    for rank, suit in cards:
        field.locator(".picker .ranks button", has_text=rank).first.tap()
        field.locator(f".picker .suits button:text-is('{suit}')").tap()
    field.locator(".picker-toggle").tap()


def test_president_with_the_picker(live_server: str, phone: Any, judge_app: Any) -> None:
    # seed 000: « Jouer consiste à poser le même nombre de cartes que le joueur précédent,
    # mais d'un rang supérieur. » Ann lays 7♥ 7♠, Bob passes, Cid plays.
    page = phone
    _open(page, live_server, "president")
    assert page.locator(".trick-row:visible").count() == 1  # the other rows wait behind « ajouter »
    page.select_option("#f-state-trick-0-player", "0")
    _pick(page, "f-state-trick-0-cards", ("7", "♥"), ("7", "♠"))
    expect(page.locator("#f-state-trick-0-cards")).to_have_value("7♥ 7♠")
    page.locator("fieldset.trick [data-add-row]").tap()
    page.select_option("#f-state-trick-1-player", "1")
    page.locator("label.pill", has=page.locator("#f-state-trick-1-pass")).tap()
    page.select_option("#f-move-player", "2")
    _pick(page, "f-move-cards", ("9", "♣"), ("9", "♦"))
    body = _submit_with_js(page, judge_app, "president")
    assert body["state"]["trick"] == [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}]
    assert body["move"] == {"player": "Cid", "cards": ["9c", "9d"]}
    verdict = _verdict(page, legal=True)
    assert "À Dan de jouer." in verdict
    assert _no_horizontal_scroll(page)
    shoot(page, "check-president-legal")

    page.locator("#f-move-cards").fill("6T 6K")
    _submit_with_js(page, judge_app, "president")
    assert "Il faut jouer plus haut que la paire de 7." in _verdict(page, legal=False)
    shoot(page, "check-president-illegal")


def test_piketty_no_equal_rank(live_server: str, phone: Any, judge_app: Any) -> None:
    # seed 001: « Si on joue il est obligatoire de mettre une carte au dessus de la
    # précédente. On ne peut pas égaliser. » Six players, two decks.
    page = phone
    _open(page, live_server, "piketty")
    page.locator("details.setup > summary").tap()
    page.locator("fieldset.seats [data-add-row]").tap()
    page.locator("#f-state-players-4").fill("Eve")
    page.locator("fieldset.seats [data-add-row]").tap()
    page.locator("#f-state-players-5").fill("Fay")
    # The new names are offered at once in every list of players.
    expect(page.locator("#f-move-player option[value='5']")).to_have_text("Fay")
    page.select_option("#f-state-trick-0-player", "0")
    page.locator("#f-state-trick-0-cards").fill("9C")
    page.select_option("#f-move-player", "1")
    page.locator("#f-move-cards").fill("9P")
    body = _submit_with_js(page, judge_app, "piketty")
    assert body["state"]["players"] == ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    assert "Il faut jouer plus haut que 9." in _verdict(page, legal=False)
    page.locator("#f-move-cards").fill("10P")
    _submit_with_js(page, judge_app, "piketty")
    assert "À Cid de jouer." in _verdict(page, legal=True)
    assert _no_horizontal_scroll(page)
    shoot(page, "check-piketty")


def test_whist_the_dealers_forbidden_bid(live_server: str, phone: Any, judge_app: Any) -> None:
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas
    # dire 1 car la somme des annonces ferait alors 5. Il peut dire 0 ou 2 (ou plus) ».
    page = phone
    _open(page, live_server, "whist-tarot")
    expect(page.locator("#f-state-dealer")).to_have_value("3")
    for seat, bid in ((0, "2"), (1, "1"), (2, "1")):
        page.select_option(f"#f-state-bids-{seat}", bid)
    page.select_option("#f-move-player", "3")
    page.select_option("#f-move-bid", "1")
    body = _submit_with_js(page, judge_app, "whist-tarot")
    assert body["state"]["bids"] == {"Ann": 2, "Bob": 1, "Cid": 1} and body["move"] == {"player": "Dan", "bid": 1}
    verdict = _verdict(page, legal=False)
    assert "Dan donne et ne peut pas annoncer 1" in verdict
    shoot(page, "check-whist-illegal")
    page.select_option("#f-move-bid", "0")
    _submit_with_js(page, judge_app, "whist-tarot")
    assert "Les annonces sont faites" in _verdict(page, legal=True)
    assert _no_horizontal_scroll(page)
    shoot(page, "check-whist-legal")


def test_crapouille_the_asked_suit(live_server: str, phone: Any, judge_app: Any) -> None:
    # seed 003: « le joueur précédent vient de poser le 9 de carreau. … Vous posez le 8 de
    # cœur sur la table et demandez « pique ». Le joueur suivant est tenu de fournir un pique ».
    page = phone
    _open(page, live_server, "crapouille")
    _pick(page, "f-state-pile", ("9", "♦"), ("8", "♥"))
    page.select_option("#f-state-asked", "s")
    page.select_option("#f-state-turn", "1")
    page.select_option("#f-move-player", "1")
    page.locator("#f-move-card").fill("VC")
    body = _submit_with_js(page, judge_app, "crapouille")
    assert body["state"]["pile"] == ["9d", "8h"] and body["move"]["card"] == "Jh"
    assert "Pique demandé" in _verdict(page, legal=False)
    shoot(page, "check-crapouille-illegal")
    page.locator("#f-move-card").fill("VP")
    _submit_with_js(page, judge_app, "crapouille")
    assert "À Cid de jouer." in _verdict(page, legal=True)
    assert _no_horizontal_scroll(page)
    shoot(page, "check-crapouille-legal")


def test_without_the_api_or_with_an_unreadable_card_the_page_answers(live_server: str, phone: Any) -> None:
    page = phone
    _open(page, live_server, "crapouille")
    page.locator("#f-state-pile").fill("9K 2C")
    page.select_option("#f-state-turn", "1")
    page.select_option("#f-move-player", "1")
    page.locator("#f-move-card").fill("2P")
    # The network fails: the form goes to its page, which judges it.
    page.route("**/api/v1/check", lambda route: route.abort())
    with page.expect_navigation():
        page.locator("form[data-check] [type=submit]").tap()
    verdict = page.locator("#verdict .verdict.legal").inner_text()
    assert "Cid pioche une carte et passe son tour." in verdict
    expect(page.locator("#f-move-card")).to_have_value("2P")
    page.unroute("**/api/v1/check")
    # A card the script cannot read: the page says what is wrong, at the field.
    page.locator("#f-move-card").fill("2X")
    with page.expect_navigation():
        page.locator("form[data-check] [type=submit]").tap()
    expect(page.locator("#f-move-card-err")).to_contain_text("Carte inconnue")
    expect(page.locator("#error-summary")).to_be_focused()
    shoot(page, "check-crapouille-error")


@pytest.fixture(scope="module")
def axe() -> Any:
    """axe-core, as axe-playwright-python bundles it (skipped without it, failed under CI)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        message = "axe-playwright-python is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return Axe()


def _axe_violations(axe: Any, page: Any) -> list[str]:
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
    # The sticky Check button covers whatever field scrolls under it at that instant, which
    # axe's target-size rule counts as an obscured target; the page is judged with it in place.
    page.evaluate("document.querySelectorAll('.check-submit').forEach(e => { e.style.position = 'static'; })")
    results = axe.run(page, options={"runOnly": {"type": "tag", "values": tags}, "resultTypes": ["violations"]})
    return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in results.response["violations"]]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_both_themes_read_well(live_server: str, browser: Any, axe: Any, theme: str) -> None:
    context = browser.new_context(locale="fr-FR", color_scheme=theme, **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        _open(page, live_server, "president")
        page.select_option("#f-state-trick-0-player", "0")
        page.locator("#f-state-trick-0-cards").fill("RC")
        page.select_option("#f-move-player", "1")
        page.locator("#f-move-cards").fill("2P")
        page.locator("form[data-check] [type=submit]").tap()
        assert "Le pli est pour vous, vous rejouez." in _verdict(page, legal=True)
        assert _no_horizontal_scroll(page)
        page.locator("details.setup > summary").tap()  # open, so that every input is checked
        assert _axe_violations(axe, page) == []
        page.evaluate("window.scrollTo(0, 0)")
        keep(page, ARTIFACTS / f"check-verdict-{theme}.png")
        shoot(page, f"check-president-{theme}")
        for game in ("crapouille", "whist-tarot"):
            page.goto(f"{live_server}/check?game={game}")
            page.locator("details.setup > summary").tap()
            assert _axe_violations(axe, page) == [], game
        page.goto(f"{live_server}/check")
        assert _axe_violations(axe, page) == []
        shoot(page, f"check-choose-{theme}")
    finally:
        context.close()


def test_from_a_president_game_in_progress(live_server: str, phone: Any) -> None:
    # seed 000: the titles of the last manche; the table seated down the hierarchy; the
    # game's house rules (here the revolution: « un carré … inverse l'ordre des cartes »).
    page = phone
    page.goto(f"{live_server}/g/{group_with(page, live_server, 'Arbitres', *NAMES)}/games/new")
    page.locator("a.tile", has_text="Le Président").tap()
    for name in NAMES:
        page.locator(".tap-order-choice", has_text=name).tap()
    page.locator(".house-rules summary").tap()
    page.locator("#rule_revolution").check()
    page.locator("#submit").tap()
    page.locator("a.button.primary.big").tap()
    for name in ("Dan", "Cid", "Bob"):
        page.locator(".tap-order-choice", has_text=name).tap()
    page.locator("#hand-form [name=submit]").tap()
    page.locator("#totals").wait_for()
    game_url = page.url.split("#")[0]

    page.goto(game_url + "/check")
    context = page.locator(".check-context")
    expect(context).to_contain_text("Dan, Cid, Bob, Ann")
    expect(context).to_contain_text(re.compile(r"Président\s?: Dan"))
    expect(context).to_contain_text(re.compile(r"Trou du cul\s?: Ann"))
    page.evaluate("window.sameDocument = true")
    page.locator("#f-move-cards").fill("5C 5P 5K 5T")
    with page.expect_request("**/api/v1/check") as request:
        page.locator("form[data-check] [type=submit]").tap()
    sent = json.loads(request.value.post_data)
    assert sent["rules"] == {"revolution": True} and sent["state"]["players"] == ["Dan", "Cid", "Bob", "Ann"]
    verdict = _verdict(page, legal=True)
    assert "Révolution" in verdict
    page.evaluate("window.scrollTo(0, 0)")
    keep(page, ARTIFACTS / "check-president-game-top.png")
    shoot(page, "check-president-game")
    page.select_option("#f-state-trick-0-player", "0")
    page.locator("#f-state-trick-0-cards").fill("9C 9P")
    page.select_option("#f-move-player", "1")
    page.locator("#f-move-cards").fill("8C 8P")
    page.locator("form[data-check] [type=submit]").tap()
    assert "Il faut jouer plus haut que la paire de 9." in _verdict(page, legal=False)
