"""At the table with a weak network (issue 13): the app shell and the pages this phone
opened load with the network off, marked as kept; a hand entered offline waits in the
phone's outbox and is sent on its own when the network returns — saved once, whatever
its CSRF token's age, and seen on a second phone; a hand another phone saved meanwhile
is a conflict shown with both versions, nothing thrown away."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, shoot

pytestmark = pytest.mark.browser


def _console_errors(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" and "CSP" in m.text else None)
    return problems


def _table(page: Any, base: str, name: str) -> tuple[str, str]:
    """A group of Ann and Bob with a crapouille game: (group code, game URL)."""
    page.goto(base + "/groups/new")
    page.get_by_label("Nom du groupe").fill(name)
    page.get_by_label("Phrase secrète", exact=True).fill("sept de pique")
    page.get_by_label("Phrase secrète (encore)").fill("sept de pique")
    page.get_by_label("Nom de cet appareil").fill("Téléphone de Cid")
    page.get_by_role("button", name="Créer le groupe").tap()
    page.get_by_text("Groupe créé.").wait_for()
    code = page.locator("strong.code").inner_text()
    page.get_by_role("link", name="Joueurs").tap()
    for player in ("Ann", "Bob"):
        page.get_by_label("Nom").fill(player)
        page.get_by_role("button", name="Ajouter").tap()
        page.get_by_text(f"{player} a rejoint le groupe.").wait_for()
    page.goto(f"{base}/g/{code}/games/new/crapouille")
    page.locator(".tap-order-choice", has_text="Ann").tap()
    page.locator(".tap-order-choice", has_text="Bob").tap()
    page.get_by_role("button", name="Commencer la partie").tap()
    page.get_by_text("Règle à deux joueurs.").wait_for()
    return code, page.url.split("#")[0]


def _controlled(page: Any, url: str) -> None:
    """Open ``url`` once the service worker controls the page and has kept what the
    game page leads to (the hand form)."""
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15_000)
    page.reload()
    page.wait_for_function(
        "caches.open('companion-pages').then(c => c.keys()).then(k => k.some(r => r.url.endsWith('/rounds/new')))"
        " .then(found => found)",
        timeout=15_000,
    )


def _join(browser: Any, base: str, code: str, device: str) -> Any:
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(base + "/")
    page.get_by_label("Code du groupe").fill(code)
    page.get_by_label("Phrase secrète").fill("sept de pique")
    page.get_by_label("Nom de cet appareil").fill(device)
    page.get_by_role("button", name="Rejoindre").tap()
    page.get_by_text("Bienvenue").wait_for()
    return page


def _enter_hand(page: Any, winner: str, other: str, total: str) -> None:
    page.locator("fieldset.winner").get_by_text(winner, exact=True).tap()
    page.locator("fieldset.player", has_text=other).locator(".total-input").fill(total)
    page.get_by_role("button", name="Enregistrer la donne").tap()


def test_the_app_shell_and_a_kept_page_load_with_the_network_off(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    problems = _console_errors(page)
    code, game_url = _table(page, live_server, "Hors réseau")
    _controlled(page, game_url)
    page.goto(live_server + "/")  # the start page, as the app opens from the home screen
    # Installable: Chromium finds nothing missing (manifest, icons, a worker that serves offline).
    # (A test's browser context is an incognito one, which alone would not install.)
    errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    context.set_offline(True)
    page.goto(live_server + "/")
    expect(page.locator("#offline-note")).to_be_visible()
    expect(page.locator("#offline-note")).to_contain_text("Hors ligne")
    expect(page.get_by_role("link", name="Hors réseau")).to_be_visible()  # the home page as kept
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"  # styles kept
    page.goto(game_url)
    expect(page.get_by_role("heading", name="La crapouille")).to_be_visible()
    expect(page.locator("#offline-note")).to_be_visible()
    page.goto(f"{live_server}/g/{code}/players/1/stats")  # never opened here
    expect(page.get_by_role("heading", name="Pas de réseau")).to_be_visible()
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        page.goto(game_url)
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        shoot(page, f"offline-kept-page-{theme}")
    context.set_offline(False)
    assert problems == []
    context.close()


def test_a_hand_entered_offline_is_sent_once_when_the_network_returns(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems = _console_errors(page)
    code, game_url = _table(page, live_server, "Cave sans réseau")
    other = _join(browser, live_server, code, "Téléphone d’Ann")
    _controlled(page, game_url)

    context.set_offline(True)
    page.get_by_role("link", name="Saisir la donne 1").tap()
    expect(page.locator("#offline-note")).to_be_visible()
    _enter_hand(page, "Ann", "Bob", "12")
    # Back on the game as kept, with what waits to be sent.
    outbox = page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox.get_by_role("heading")).to_have_text("1 envoi en attente")
    expect(outbox).to_contain_text("Donne 1 · La crapouille — en attente d’envoi")
    assert "/rounds/" not in page.url
    # A second hand offline: the kept form names hand 2 and the version after hand 1.
    page.get_by_role("link", name="Saisir la donne 1").tap()
    expect(page.get_by_role("heading", name="Donne 2")).to_be_visible()
    _enter_hand(page, "Bob", "Ann", "30")
    expect(outbox.get_by_role("heading")).to_have_text("2 envois en attente")
    shoot(page, "offline-outbox-light")
    # An hour later, the session's CSRF token has changed: the kept forms hold a stale one.
    page.evaluate(
        """() => CompanionOutbox.all().then(items => Promise.all(items.map(i => {
             const body = new URLSearchParams(i.body); body.set('csrf_token', 'stale-token');
             i.body = body.toString(); return CompanionOutbox.put(i); })))"""
    )

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(outbox).to_contain_text("envoi réussi", timeout=15_000)
    page.goto(game_url)
    expect(page.locator("article.hand")).to_have_count(2)
    board = page.locator("ol.board")
    expect(board.locator("li", has_text="Bob").locator("[data-total]")).to_have_text("12")
    expect(board.locator("li", has_text="Ann").locator("[data-total]")).to_have_text("30")

    # Sent once: the other phone sees each hand once, and a retry changes nothing.
    other.goto(game_url)
    expect(other.locator("article.hand")).to_have_count(2)
    expect(other.get_by_text("Saisie depuis Téléphone de Cid")).to_have_count(2)
    page.evaluate(  # a retry, waited for until the worker says it is done (its "outbox" message)
        """() => new Promise(done => {
             navigator.serviceWorker.addEventListener('message', event => {
               if ((event.data || {}).type === 'outbox') done();
             });
             navigator.serviceWorker.controller.postMessage({type: 'flush'});
           })"""
    )
    other.reload()
    expect(other.locator("article.hand")).to_have_count(2)
    expect(page.locator("#outbox")).to_be_hidden()
    assert problems == []
    context.close()
    other.context.close()


def test_a_hand_saved_meanwhile_elsewhere_is_a_conflict_shown_with_both_versions(
    live_server: str, browser: Any
) -> None:
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    code, game_url = _table(page, live_server, "Deux versions")
    other = _join(browser, live_server, code, "Téléphone d’Ann")
    _controlled(page, game_url)

    context.set_offline(True)
    page.get_by_role("link", name="Saisir la donne 1").tap()
    _enter_hand(page, "Ann", "Bob", "12")
    expect(page.locator("#outbox")).to_contain_text("en attente d’envoi")
    # Meanwhile the other phone, online, saves hand 1 its way.
    other.goto(game_url)
    other.get_by_role("link", name="Saisir la donne 1").tap()
    _enter_hand(other, "Bob", "Ann", "40")
    other.locator("#totals").wait_for()

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("la partie a changé entre-temps", timeout=15_000)
    shoot(page, "offline-conflict-outbox")
    page.get_by_role("button", name="Voir les deux versions").tap()
    # The server's page: what was saved meanwhile (from which phone), and this phone's
    # version in the form, ready to be saved as hand 2 — or dropped.
    expect(page.get_by_role("heading", name="Enregistré entre-temps sur un autre appareil")).to_be_visible()
    expect(page.locator(".meanwhile")).to_contain_text("Téléphone d’Ann")
    expect(page.locator(".meanwhile")).to_contain_text("Ann : 0 → 40")
    expect(page.get_by_role("heading", name="Donne 2")).to_be_visible()
    expect(page.locator("fieldset.player", has_text="Bob").locator(".total-input")).to_have_value("12")
    shoot(page, "offline-conflict-page")
    # Nothing thrown away: the version stays in the outbox until it is dropped.
    expect(page.locator("#outbox")).to_contain_text("Donne 1")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Oublier ma version").tap()
    expect(page.locator("#outbox")).to_be_hidden()
    page.get_by_role("button", name="Enregistrer la donne").tap()
    page.locator("#totals").wait_for()
    expect(page.locator("article.hand")).to_have_count(2)
    context.close()
    other.context.close()


def test_a_live_move_made_offline_is_sent_when_the_network_returns(live_server: str, browser: Any) -> None:
    from tests.browser.test_referee_live import _pick, _play, _start, _typed

    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    _code, game_url = _table(page, live_server, "Direct sans réseau")
    _controlled(page, game_url)
    page.goto(game_url + "/live")
    _pick(page, "9d")
    page.locator("fieldset#first label.pill", has_text="Ann").tap()
    _start(page)
    expect(page.locator("#turn")).to_contain_text("Ann")

    context.set_offline(True)
    _typed(page, "9C")  # seed 003: a card of the same rank
    _play(page)
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Coup en direct · La crapouille — en attente d’envoi")
    expect(page.locator("#offline-note")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Ann")  # the table as kept, before the move

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(outbox).to_contain_text("envoi réussi", timeout=15_000)
    page.goto(game_url + "/live")
    expect(page.locator("#turn")).to_contain_text("Bob")
    expect(page.locator(".live-moves li")).to_have_count(1)
    context.close()
