"""Every page, in the light and the dark theme, on a 390×844 touch phone, with the longest
names the forms accept: no horizontal scroll, no console error, and no WCAG 2 A/AA
violation found by axe-core (colour contrast included).

The group is built as a person builds it, through the real pages (CSRF and all): a
group, three players and two devices with 60-character names without a space, a second
season, a finished crapouille game and one in progress with a few hands.  Each page is
then visited in each theme (chosen with the footer's theme switch, while the phone's own
setting says the opposite, so the explicit choice must win everywhere), and kept as a
screenshot in test-artifacts/<page>-<theme>.png when asked (``COMPANION_SCREENSHOTS=1``).

axe-core comes from the ``axe-playwright-python`` package (its bundled ``axe.min.js``).
It is injected with Playwright's ``page.evaluate``, which goes through the DevTools
protocol and so is not subject to the page's Content-Security-Policy: the pages are
checked with their real, strict CSP, nothing bypassed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.browser.conftest import PHONE, shoot

pytestmark = pytest.mark.browser

#: The longest names the forms accept (``NAME_MAX``), without a space to break at.
GROUP = "W" * 60
PLAYERS = (
    "W" * 60,
    ("ÉléonoreÀçÿŒæÏôÛùÈêËüÂ" * 3)[:60],
    "M" * 59 + "É",
)
SEASON = ("ŴinterSaisonÉtéÀÇÔÛ" * 4)[:60]
DEVICE = ("TéléphoneDeŒdipeÀÇÿ" * 4)[:60]
OTHER_DEVICE = ("TabletteDÉléonoreŸÆ" * 4)[:60]
PASSPHRASE = "sept de pique"
assert all(len(name) == 60 for name in (GROUP, *PLAYERS, SEASON, DEVICE, OTHER_DEVICE))

THEMES = ("light", "dark")
#: What the phone itself prefers while the page's theme is chosen: the opposite.
PHONE_SETTING = {"light": "dark", "dark": "light"}
#: axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA (color-contrast among them).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


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


@dataclass
class World:
    """What the set-up built: addresses of its pages, and each theme's cookies."""

    base: str
    urls: dict[str, str] = field(default_factory=dict)
    states: dict[str, Any] = field(default_factory=dict)


def _press(locator: Any) -> None:
    """Press a button, a link or a label wherever it is drawn: the set-up and the steps
    below must not depend on the layout being right (the checks judge the layout, and
    an overflowing page can cover a button with text)."""
    locator.evaluate("el => el.click()")


def _new_page(browser: Any, **options: Any) -> Any:
    context = browser.new_context(locale="fr-FR", **PHONE, **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def _start_game(page: Any, players: tuple[str, ...]) -> str:
    _press(page.get_by_role("link", name="Nouvelle partie").first)
    _press(page.locator("a.tile", has_text="La crapouille"))
    page.get_by_role("button", name="Commencer la partie").wait_for()
    for name in players:  # tapped in seat order
        _press(page.locator(".tap-order-choice", has_text=name))
    _press(page.get_by_role("button", name="Commencer la partie"))
    page.locator("#totals").wait_for()
    return page.url.split("#")[0]


def _enter_hand(page: Any, game_url: str, winner: str, entries: dict[str, str]) -> None:
    """Enter a hand: ``winner`` went out; ``entries`` gives the others' cards (typed) or totals."""
    if page.url.split("#")[0] != game_url:
        page.goto(game_url)
    _press(page.get_by_role("link", name=re.compile(r"^Saisir la donne")))
    _press(page.locator("fieldset.winner label", has_text=winner))
    for name, entry in entries.items():
        fieldset = page.locator("fieldset.player", has_text=name)
        if entry.isdigit():
            fieldset.locator(".total-input").fill(entry)
        else:
            fieldset.locator(".cards-input").fill(entry)
    _press(page.get_by_role("button", name="Enregistrer la donne"))
    page.locator("#totals").wait_for()
    assert page.locator(".error").count() == 0, page.locator(".error").all_inner_texts()


@pytest.fixture(scope="module")
def world(live_server: str, browser: Any) -> Iterator[World]:
    """A group with the longest names, built through the pages as a person would."""
    w = World(base=live_server)
    page = _new_page(browser)
    page.goto(live_server + "/")
    _press(page.get_by_role("link", name="Créer un groupe"))
    page.get_by_label("Nom du groupe").fill(GROUP)
    page.get_by_label("Phrase secrète", exact=True).fill(PASSPHRASE)
    page.get_by_label("Phrase secrète (encore)").fill(PASSPHRASE)
    page.get_by_label("Nom de cet appareil").fill(DEVICE)
    _press(page.get_by_role("button", name="Créer le groupe"))
    page.get_by_text("Groupe créé.").wait_for()
    w.urls["group"] = group = page.url
    code = page.locator("strong.code").inner_text()

    _press(page.get_by_role("link", name=re.compile(r"^Joueurs")))
    for name in PLAYERS:
        page.get_by_label("Nom", exact=True).fill(name)
        _press(page.get_by_role("button", name="Ajouter"))
        page.get_by_text(f"{name} a rejoint le groupe.").wait_for()
    w.urls["players"] = page.url
    w.urls["rename-player"] = page.locator("a.tile", has_text=PLAYERS[1]).get_attribute("href") or ""

    # A second season, current from now on: the games go into it.
    page.goto(group + "/seasons")
    page.get_by_label("Nom de la saison").fill(SEASON)
    _press(page.get_by_role("button", name="Commencer la saison"))
    page.get_by_role("heading", name=SEASON).wait_for()
    w.urls["season"] = page.url

    # A game over in one hand: the first player wins, the two others go past 300 at once.
    page.goto(group)
    finished = _start_game(page, PLAYERS)
    _enter_hand(page, finished, PLAYERS[0], {PLAYERS[1]: "310", PLAYERS[2]: "302"})
    assert page.locator(".banner").is_visible()

    # A game in progress, with typed cards and totals.
    page.goto(group)
    game = _start_game(page, (PLAYERS[2], PLAYERS[0], PLAYERS[1]))
    _enter_hand(page, game, PLAYERS[0], {PLAYERS[1]: "8C RP 10♦ Joker", PLAYERS[2]: "35"})
    _enter_hand(page, game, PLAYERS[1], {PLAYERS[0]: "12", PLAYERS[2]: "AT 2K DC"})
    _enter_hand(page, game, PLAYERS[2], {PLAYERS[0]: "8P 8T", PLAYERS[1]: "7"})
    w.urls["game"] = game

    # A second phone joins under a long name.
    other = _new_page(browser)
    other.goto(f"{live_server}/join?code={code}")
    other.get_by_label("Phrase secrète").fill(PASSPHRASE)
    other.get_by_label("Nom de cet appareil").fill(OTHER_DEVICE)
    _press(other.get_by_role("button", name="Rejoindre"))
    other.get_by_text("Bienvenue").wait_for()
    other.context.close()

    # Each theme chosen with the footer's switch: the cookie it sets goes with the session's.
    for theme in THEMES:
        page.goto(live_server + "/")
        _press(page.locator(f"footer button[name=theme][value={theme}]"))
        page.wait_for_selector(f"html[data-theme={theme}]")
        w.states[theme] = page.context.storage_state()
    page.context.close()
    yield w


# What a person does to reach each page (the page's state once there included).


def _open_every_disclosure(page: Any) -> None:
    for summary in page.locator("details > summary").all():
        _press(summary)
    assert page.locator("details:not([open])").count() == 0


def _pick_seats(page: Any) -> None:
    """Two players tapped in seat order: numbered, pressed buttons."""
    _press(page.locator(".tap-order-choice", has_text=PLAYERS[1]))
    _press(page.locator(".tap-order-choice", has_text=PLAYERS[0]))
    assert page.locator(".tap-order-choice[aria-pressed=true]").count() == 2


def _start_a_hand(page: Any) -> None:
    """Who went out, then a card picked for another player with the picker."""
    _press(page.locator("fieldset.winner label", has_text=PLAYERS[2]))
    fieldset = page.locator("fieldset.player", has_text=PLAYERS[1])
    _press(fieldset.locator(".picker-toggle"))
    _press(fieldset.get_by_role("button", name="8", exact=True))
    _press(fieldset.get_by_role("button", name="♥", exact=True))
    assert fieldset.locator(".cards-input").input_value() != ""


def _ask_to_remove_the_other_device(page: Any) -> None:
    """The confirmation page, as a phone without script gets it (the form sent as it is)."""
    form = page.locator("li", has_text=OTHER_DEVICE).locator("form")
    form.evaluate("f => f.submit()")  # submit() runs no submit handler: no confirm() dialog
    page.get_by_role("heading", name=re.compile(re.escape(OTHER_DEVICE))).wait_for()
    assert page.locator("input[name=confirmed][value='1']").count() == 1


def _show_a_qr_code(page: Any) -> None:
    """« Montrer un code QR » pressed: the QR page, with the list of codes still valid."""
    _press(page.get_by_role("button", name="Montrer un code QR"))
    page.locator("figure.qr svg").wait_for()


def _open_a_qr_link_as_a_new_phone(page: Any) -> None:
    """The page a phone outside the group sees when it opens a QR code's link (named
    by this phone's code, opened without its session cookie, which is then put back)."""
    _show_a_qr_code(page)
    link = page.locator("#invite-link").input_value()
    cookies = page.context.cookies()
    page.context.clear_cookies()
    page.context.add_cookies([c for c in cookies if c["name"] != "session"])
    page.goto(link)
    page.get_by_label("Nom de cet appareil").wait_for()
    page.context.clear_cookies()
    page.context.add_cookies(cookies)


def _send_a_stale_hand(page: Any) -> None:
    """A hand sent after another phone saved that hand (the conflict page, 409), with this
    phone's outbox holding a version the server did not save and one it refused."""
    page.evaluate(
        """() => Promise.all([
             CompanionOutbox.add({url: location.pathname, body: 'round=1', label: 'Donne 1 · La crapouille',
                                  back: '/', created: 1, state: 'conflict', status: 409, messages: []}),
             CompanionOutbox.add({url: location.pathname, body: 'round=2', label: 'Donne 2 · La crapouille',
                                  back: '/', created: 2, state: 'refused', status: 200,
                                  messages: ['Cette partie est terminée : plus de donne à saisir.']})])"""
    )
    _start_a_hand(page)
    page.locator("input[name=round]").evaluate("input => { input.value = '1'; }")
    page.locator("#hand-form").evaluate("f => f.requestSubmit()")
    page.locator(".meanwhile").wait_for()
    page.locator("#outbox li").nth(1).wait_for()
    page.evaluate("() => CompanionOutbox.all().then(all => Promise.all(all.map(i => CompanionOutbox.remove(i.id))))")


def _make_a_display_link(page: Any) -> None:
    """« Un lien pour cette partie » pressed: the table displays' page, with its QR code."""
    _press(page.locator("main form button[type=submit]").first)
    page.locator("figure.qr svg").first.wait_for()


@dataclass(frozen=True)
class Visit:
    path: Callable[[World], str]
    then: Callable[[Any], None] | None = None
    status: int = 200
    #: The status of the page ``then`` leads to, when it is not 200 (the browser notes it).
    lands: int = 200


PAGES: dict[str, Visit] = {
    "home": Visit(lambda w: w.base + "/"),
    "create-group": Visit(lambda w: w.base + "/groups/new"),
    "join": Visit(lambda w: w.base + "/join"),
    "group": Visit(lambda w: w.urls["group"]),
    "players": Visit(lambda w: w.urls["players"]),
    "rename-player": Visit(lambda w: w.base + w.urls["rename-player"]),
    "seasons": Visit(lambda w: w.urls["group"] + "/seasons"),
    "season": Visit(lambda w: w.urls["season"]),
    "devices": Visit(lambda w: w.urls["group"] + "/devices"),
    "invite": Visit(lambda w: w.urls["group"] + "/invite"),
    "invite-qr": Visit(lambda w: w.urls["group"] + "/invite", _show_a_qr_code),
    "join-by-qr": Visit(lambda w: w.urls["group"] + "/invite", _open_a_qr_link_as_a_new_phone),
    "new-game": Visit(lambda w: w.urls["group"] + "/games/new"),
    "new-crapouille": Visit(lambda w: w.urls["group"] + "/games/new/crapouille", _pick_seats),
    "game": Visit(lambda w: w.urls["game"], _open_every_disclosure),
    "hand": Visit(lambda w: w.urls["game"] + "/rounds/new", _start_a_hand),
    "check": Visit(lambda w: w.base + "/check?game=president"),
    "check-game": Visit(lambda w: w.urls["game"] + "/check"),
    "live": Visit(lambda w: w.urls["game"] + "/live"),
    "display": Visit(lambda w: w.urls["game"] + "/display"),
    "displays": Visit(
        lambda w: w.urls["group"] + "/displays?game=" + w.urls["game"].rsplit("/", 1)[-1], _make_a_display_link
    ),
    "house-rules": Visit(lambda w: w.urls["game"] + "/rules"),
    "rules": Visit(lambda w: w.base + "/rules/president"),
    "export": Visit(lambda w: w.urls["group"] + "/export"),
    "import": Visit(lambda w: w.base + "/import"),
    "error-404": Visit(lambda w: w.base + "/no/such/page", status=404),
    "offline": Visit(lambda w: w.base + "/offline"),
    "conflict": Visit(lambda w: w.urls["game"] + "/rounds/new", _send_a_stale_hand, lands=409),
    "confirm": Visit(lambda w: w.urls["group"] + "/devices", _ask_to_remove_the_other_device),
}

#: What is drawn past the phone's right edge (a few boxes or texts), to say what to fix.
_WIDE_ELEMENTS = """(width) => {
  const name = (el) => {
    const id = el.id ? "#" + el.id : "";
    const cls = typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    const target = el.htmlFor ? `[for=${el.htmlFor}]` : "";
    return el.tagName.toLowerCase() + id + cls + target;
  };
  // Text clipped by an ancestor that fits (an ellipsis…) is not drawn past the edge.
  const clipped = (el) => {
    for (; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflowX !== "visible" && el.getBoundingClientRect().right <= width + 0.5) return true;
    }
    return false;
  };
  const out = new Set();
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 0.5) out.add(`${name(el)} (box to ${Math.round(r.right)}px)`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.width && r.right > width + 0.5 && !clipped(node.parentElement)) {
      out.add(`text of ${name(node.parentElement)} (to ${Math.round(r.right)}px)`);
    }
  }
  return [...out].slice(0, 8);
}"""


def _describe(violations: list[dict[str, Any]], where: str) -> str:
    lines = [f"{len(violations)} axe violation(s) on {where}:"]
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {' '.join(node['target'])} :: {summary}")
    return "\n".join(lines)


@dataclass
class Phone:
    """A phone of the group in one theme, and the errors its console showed."""

    page: Any
    problems: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def phones(world: World, browser: Any) -> Iterator[dict[str, Phone]]:
    """One phone per theme, reused from page to page (as a phone is, and faster)."""
    phones = {}
    for theme in THEMES:
        page = _new_page(browser, storage_state=world.states[theme], color_scheme=PHONE_SETTING[theme])
        phone = phones[theme] = Phone(page)
        page.on("console", lambda m, p=phone: p.problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e, p=phone: p.problems.append(str(e)))
    yield phones
    for phone in phones.values():
        phone.page.context.close()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("name", list(PAGES))
def test_page_fits_a_phone_and_passes_axe(
    axe: Any, world: World, phones: dict[str, Phone], name: str, theme: str
) -> None:
    visit = PAGES[name]
    where = f"page {name!r}, theme {theme!r}"
    page, problems = phones[theme].page, phones[theme].problems
    problems.clear()
    response = page.goto(visit.path(world))
    assert response is not None and response.status == visit.status, (where, response and response.status)
    assert "/join" not in page.url or name == "join", f"{where}: signed out, at {page.url}"
    if visit.then:
        visit.then(page)
    assert page.locator("html").get_attribute("data-theme") == theme, where
    shoot(page, f"{name}-{theme}")

    # A page wider than the phone scrolls sideways; on a phone Chrome may also zoom the
    # whole page out to fit it (then innerWidth grows with it): both are failures.
    failures: list[str] = []
    phone_width = PHONE["viewport"]["width"]
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if not scroll_width <= inner_width == phone_width:
        failures.append(
            f"{where}: {scroll_width}px wide for a {phone_width}px phone (window.innerWidth {inner_width}px); "
            "drawn past the edge: " + "; ".join(page.evaluate(_WIDE_ELEMENTS, phone_width))
        )
    results = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]})
    if results.response["violations"]:
        failures.append(_describe(results.response["violations"], where))
    for status in {visit.status, visit.lands} - {200}:  # the browser's own note of that status is expected
        problems[:] = [p for p in problems if f"status of {status}" not in p]
    if problems:
        failures.append(f"{where}: console errors {problems}")
    assert not failures, "\n".join(failures)
