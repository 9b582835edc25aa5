"""Offline copies and their age (issue 22): a copy kept on this phone that is older
than what the phone has seen of its group since (the players page kept before another
phone added a player, while this phone has seen the group page since) is not shown as
the page: the offline page says so, and how old that copy is; a copy still current is
shown, its note saying in words how long ago it was kept (« il y a 25 min », « hier »)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, shoot

pytestmark = pytest.mark.browser

PASSPHRASE = "sept de pique"


def _phone(browser: Any, lang: str = "fr-FR") -> tuple[Any, Any]:
    context = browser.new_context(locale=lang, **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def _controlled(page: Any) -> None:
    """Wait until the service worker controls the page (reloaded once it is ready)."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()


def _kept(page: Any, path: str) -> None:
    """Wait until the service worker has kept the page at ``path`` (with the state it
    shows, when it is a group's)."""
    for _ in range(150):
        found = page.evaluate(
            """path => caches.open('companion-pages').then(c => c.keys())
                 .then(keys => keys.some(r => new URL(r.url).pathname === path))""",
            path,
        )
        if found:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{path} was not kept")


def _age(page: Any, path: str, minutes: float | None = None, yesterday: bool = False) -> None:
    """Make the copy kept of ``path`` look ``minutes`` old (or kept yesterday just after
    midnight), as if the phone had kept it then."""
    page.evaluate(
        """async ([path, minutes, yesterday]) => {
             const cache = await caches.open('companion-pages');
             const key = (await cache.keys()).find(r => new URL(r.url).pathname === path);
             const kept = await cache.match(key);
             let when = new Date(Date.now() - minutes * 60000);
             const d = new Date();
             if (yesterday) when = new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1, 0, 1);
             const headers = new Headers(kept.headers);
             headers.set('X-Saved-At', when.toISOString());
             await cache.put(key, new Response(await kept.blob(), {status: 200, headers}));
           }""",
        [path, minutes or 0, yesterday],
    )


def test_an_offline_copy_older_than_what_the_phone_has_seen_is_not_shown(live_server: str, browser: Any) -> None:
    context, page = _phone(browser)
    page.goto(live_server + "/groups/new")
    page.get_by_label("Nom du groupe").fill("Cave sans réseau")
    page.get_by_label("Phrase secrète", exact=True).fill(PASSPHRASE)
    page.get_by_label("Phrase secrète (encore)").fill(PASSPHRASE)
    page.get_by_role("button", name="Créer le groupe").tap()
    page.get_by_text("Groupe créé.").wait_for()
    code = page.locator("strong.code").inner_text()
    group, players = f"/g/{code}", f"/g/{code}/players"
    _controlled(page)
    # This phone opens the players page while the group has none: kept as it is.
    page.goto(live_server + players)
    expect(page.get_by_label("Nom")).to_be_visible()
    _kept(page, players)
    _age(page, players, minutes=120)

    # Another phone adds Ann; this phone sees the group page since (one player now).
    other_context, other = _phone(browser)
    other.goto(f"{live_server}/join?code={code}")
    other.get_by_label("Phrase secrète").fill(PASSPHRASE + " ")  # a space typed after: still the passphrase
    other.get_by_role("button", name="Rejoindre").tap()
    other.get_by_text("Bienvenue").wait_for()
    other.goto(live_server + players)
    other.get_by_label("Nom").fill("Ann")
    other.get_by_role("button", name="Ajouter").tap()
    other.get_by_text("Ann a rejoint le groupe.").wait_for()
    other_context.close()
    page.goto(live_server + group)
    _kept(page, group)
    _age(page, group, minutes=25)

    context.set_offline(True)
    # The players page kept before Ann came is not shown as the page: the offline page
    # says why, and how old that copy is.
    page.goto(live_server + players)
    expect(page.get_by_role("heading", name="Pas de réseau")).to_be_visible()
    stale = page.locator("#offline-stale")
    expect(stale).to_be_visible()
    expect(stale).to_contain_text("plus ancienne que ce que ce téléphone a montré du groupe depuis")
    expect(page.locator("#offline-stale-age")).to_have_text("Cette copie a été gardée il y a 2\u00a0h.")
    expect(page.locator("#offline-never")).to_be_hidden()
    expect(page.get_by_label("Nom")).to_have_count(0)  # not the old form
    shoot(page, "offline-stale-copy-light")
    # The group page, the newest the phone has seen, is shown, with its age in words.
    page.goto(live_server + group)
    expect(page.locator("#offline-note")).to_have_text(
        "Hors ligne\u00a0: voici le dernier état connu, gardé sur ce téléphone il y a 25\u00a0min."
    )
    expect(page.get_by_role("heading", name="Cave sans réseau")).to_be_visible()
    # The start page, kept yesterday just after midnight: « hier ».
    _kept(page, "/")
    _age(page, "/", yesterday=True)
    page.goto(live_server + "/")
    expect(page.locator("#offline-note")).to_contain_text("gardé sur ce téléphone hier.")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    shoot(page, "offline-kept-yesterday-dark")
    # A page never opened here still says so.
    page.goto(f"{live_server}/g/{code}/seasons")
    expect(page.locator("#offline-never")).to_be_visible()
    expect(page.locator("#offline-stale")).to_be_hidden()
    context.set_offline(False)
    context.close()


def test_the_age_is_said_in_the_pages_language(live_server: str, browser: Any) -> None:
    context, page = _phone(browser, "en-GB")
    page.goto(live_server + "/")
    _controlled(page)
    _kept(page, "/")
    _age(page, "/", minutes=180)
    context.set_offline(True)
    page.goto(live_server + "/")
    expect(page.locator("#offline-note")).to_have_text(
        "Offline: this is the last known state, kept on this phone 3 hr. ago."
    )
    context.set_offline(False)
    context.close()
