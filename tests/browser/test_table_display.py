"""The table display in Chromium: a tablet lying flat (768×1024 and 1024×768) and a TV
(1920×1080) opened through a display link, without joining the group, follow a Président
manche played live on two phones — each move shows without a reload, within the live
pages' delay; axe-core finds nothing to fix; the nine players of a game fill a 1024×768
screen either way up, totals of 48 px or more, without scrolling. A link revoked, or its evening over, is said
on its screen within a poll, and again after a reload."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from companion import create_app
from companion.extensions import db
from companion.models import DisplayLink, ThrottleEvent, utcnow
from tests.browser.conftest import APP_CONFIG, WATCH_EVERY_MS, _post_form, group_with, keep, served
from tests.browser.test_referee_live import AXE, WCAG_TAGS

pytestmark = pytest.mark.browser

PASSPHRASE = "sept de pique"
SCREENS = {
    "tablet-portrait": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
    "tv": {"width": 1920, "height": 1080},
}
#: A move shows on the display within this (a few polls of the live pages' period).
SEEN_WITHIN = WATCH_EVERY_MS * 10


def _options(page_html: str, name: str) -> dict[str, str]:
    """The choices of the select ``name`` of a page: value by label."""
    select = re.search(rf'<select[^>]*name="{name}".*?</select>', page_html, re.S)
    assert select, name
    return {
        label.strip(): value
        for value, label in re.findall(r'<option[^>]*value="(\d+)"[^>]*>([^<]+)</option>', select.group(0))
    }


def _president(page: Any, live_server: str, code: str, *players: str) -> str:
    """A Président game of these players (in seat order), started through its form; its address."""
    new = f"{live_server}/g/{code}/games/new/president"
    ids = _options(page.context.request.get(new).text(), "seats-0")
    fields = {f"seats-{i}": ids[name] for i, name in enumerate(players)}
    fields.update({"target": "25", "titles": "classic", "rule_points": "y"})
    address, _page = _post_form(page, new, fields)
    assert re.search(r"/games/\d+$", address), address
    return address


def _display_link(page: Any, live_server: str, code: str, game: str) -> str:
    game_id = game.rsplit("/", 1)[-1]
    page.goto(f"{live_server}/g/{code}/displays?game={game_id}")
    page.locator("main form button[type=submit]").first.tap()
    link = page.locator("input[id^=display-url-]").first
    expect(link).to_be_visible()
    value = str(link.input_value())
    assert re.search(r"/t/[A-Z2-9]{10}$", value), value
    return value


def _screen(browser: Any, size: dict[str, int]) -> Any:
    context = browser.new_context(locale="fr-FR", viewport=size, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def _no_violation(page: Any, name: str) -> None:
    if AXE is None:
        return
    found = AXE.run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]})
    violations = found.response["violations"]
    described = [(v["id"], [" ".join(n["target"]) for n in v["nodes"]][:4]) for v in violations]
    assert not violations, f"{name}: {described}"


def _move(page: Any, live: str, cards: str | None) -> None:
    page.goto(live)
    if cards is None:
        page.locator("button[name=action][value=pass]").tap()
    else:
        page.locator("#hand-form .cards-input").fill(cards)
        page.locator("button[name=action][value=play]").tap()
    page.locator("#turn").wait_for()


def test_tablets_and_a_tv_follow_a_manche_played_live_on_two_phones(
    live_server: str, phone: Any, other: Any, browser: Any
) -> None:
    code = group_with(phone, live_server, "Table du jeudi", "Ann", "Bob", "Cid", "Dan", passphrase=PASSPHRASE)
    game = _president(phone, live_server, code, "Ann", "Bob", "Cid", "Dan")
    live = f"{game}/live"
    link = _display_link(phone, live_server, code, game)
    # The second phone joins the group; the screens do not.
    other.goto(f"{live_server}/join?code={code}")
    other.get_by_label("Phrase secrète").fill(PASSPHRASE)
    other.get_by_label("Nom de cet appareil").fill("Téléphone de Bob")
    other.get_by_role("button", name="Rejoindre").tap()
    other.get_by_text("Bienvenue").wait_for()

    screens = {name: _screen(browser, size) for name, size in SCREENS.items()}
    try:
        for screen in screens.values():
            screen.goto(link)
            expect(screen.locator("h1")).to_contain_text("Le Président")
            expect(screen.locator(".display-round")).to_contain_text("Manche 1")
            assert screen.evaluate("document.documentElement.dataset.theme") == "dark"
            assert screen.locator("form").count() == 0
            screen.evaluate("window.__notReloaded = true")

        # The first manche, followed live: Dan dealt, Ann leads.
        phone.goto(live)
        phone.locator("fieldset#dealer label.pill", has_text="Dan").tap()
        phone.locator("form.live-start button[type=submit]").tap()
        phone.locator("#turn").wait_for()
        for screen in screens.values():
            expect(screen.locator(".display-now")).to_contain_text("Ann", timeout=SEEN_WITHIN)
            # A first manche: who leads, as its start said (who dealt is not kept there).
            expect(screen.locator("[data-turn]")).to_have_text("Commence\u00a0: Ann")
        _move(phone, live, "7C 7P")
        for screen in screens.values():
            expect(screen.locator(".display-trick .card-face[aria-label='7 de cœur']")).to_be_visible(
                timeout=SEEN_WITHIN
            )
            expect(screen.locator(".display-now")).to_contain_text("Bob", timeout=SEEN_WITHIN)
        _move(other, live, None)  # Bob passes, from the second phone
        for name, screen in screens.items():
            expect(screen.locator(".display-now")).to_contain_text("Cid", timeout=SEEN_WITHIN)
            assert screen.evaluate("window.__notReloaded === true"), name
            _no_violation(screen, name)
            keep(screen, f"test-artifacts/display-{name}.png")
    finally:
        for screen in screens.values():
            screen.context.close()


#: What a display's layout measures: the smallest total's font size, how far the page
#: scrolls either way, the lowest seat's bottom and the lowest content's (px).
_MEASURE = """() => {
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const seats = [...document.querySelectorAll('.display-seats > li')].map((e) => e.getBoundingClientRect());
  const main = document.querySelector('main');
  return {
    total: Math.min(...[...document.querySelectorAll('.display-seats .total')].map(px)),
    name: Math.min(...[...document.querySelectorAll('.display-seats .who')].map(px)),
    scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth,
    seatsBottom: Math.max(...seats.map((r) => r.bottom)), seatsRight: Math.max(...seats.map((r) => r.right)),
    contentBottom: Math.max(...[...main.querySelectorAll('*')].map((e) => e.getBoundingClientRect().bottom)),
  };
}"""


def _fills(screen: Any, size: dict[str, int], what: str) -> dict[str, float]:
    """The display fills ``size``: totals of 48 px at least, nothing to scroll either
    way, every seat in sight, the seats reaching the lower part of the screen and the
    content its foot."""
    found = screen.evaluate(_MEASURE)
    width, height = size["width"], size["height"]
    assert found["total"] >= 48, (what, found)
    assert found["scrollHeight"] <= height and found["scrollWidth"] <= width, (what, found)
    assert found["seatsBottom"] <= height and found["seatsRight"] <= width, (what, found)
    assert found["seatsBottom"] >= 0.6 * height, (what, found)  # no empty lower half
    assert found["contentBottom"] >= 0.9 * height, (what, found)
    return found


def test_nine_players_fill_a_tablet_either_way_up_without_scrolling(live_server: str, phone: Any, browser: Any) -> None:
    """Read from 1.5 m: a 1024×768 tablet, and the same turned (768×1024), show the nine
    seats and totals of 48 px or more, without scrolling, the seats filling the height;
    before a manche (the exchanges under the seats) and during one (the trick above)."""
    names = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hugo", "Inès")
    code = group_with(phone, live_server, "Grande tablée", *names)
    game = _president(phone, live_server, code, *names)
    # A first manche entered through its form: the seats get titles and points.
    form = f"{game}/rounds/new"
    ids = _options(phone.context.request.get(form).text(), "finish-0")
    fields = {"round": "1", "event": ""}
    fields.update({f"finish-{i}": ids[name] for i, name in enumerate(names[:-1])})
    address, _ = _post_form(phone, form, fields)
    assert address.split("#")[0] == game, address
    link = _display_link(phone, live_server, code, game)
    screens = {name: _screen(browser, SCREENS[name]) for name in ("tablet-landscape", "tablet-portrait")}
    try:
        for name, screen in screens.items():
            screen.goto(link)
            expect(screen.locator(".display-seats .total")).to_have_count(9)
            expect(screen.locator(".display-exchanges li")).to_have_count(4)
            _fills(screen, SCREENS[name], f"{name}, exchanges")
            _no_violation(screen, f"nine players, {name}")
            keep(screen, f"test-artifacts/display-nine-{name}.png")
        # The second manche played live: the Président leads, the trick shows above the seats.
        phone.goto(f"{game}/live")
        phone.locator("form.live-start button[type=submit]").tap()
        phone.locator("#turn").wait_for()
        _move(phone, f"{game}/live", "3T 3P")
        for name, screen in screens.items():
            expect(screen.locator(".display-trick .card-face")).to_have_count(2, timeout=SEEN_WITHIN)
            _fills(screen, SCREENS[name], f"{name}, live")
            keep(screen, f"test-artifacts/display-nine-live-{name}.png")
    finally:
        for screen in screens.values():
            screen.context.close()


@pytest.fixture(scope="module")
def served_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """The app on a free local port, over a fresh SQLite file, and the app itself (to
    end an evening without waiting for 6:00)."""
    path = tmp_path_factory.mktemp("display") / "display.sqlite3"
    app = create_app({**APP_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
    with served(app) as address:
        yield address, app


def _ended_in_place(screen: Any, title: str, name: str) -> None:
    """The screen says ``title`` in place of the game, without a reload, in its dark
    style; then a reload shows the same screen (410), not the generic error page."""
    expect(screen.locator("h1")).to_have_text(title, timeout=SEEN_WITHIN)
    assert screen.evaluate("window.__notReloaded === true"), name
    expect(screen.locator(".display-seats, .display-night, .display-game")).to_have_count(0)
    assert screen.evaluate("document.documentElement.dataset.theme") == "dark"
    background = screen.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(20, 23, 20)", background  # the dark theme's --bg
    _no_violation(screen, name)
    keep(screen, f"test-artifacts/display-ended-{name}.png")
    answer = screen.reload()
    assert answer is not None and answer.status == 410, name
    expect(screen.locator("h1")).to_have_text(title)
    assert screen.evaluate("document.documentElement.dataset.theme") == "dark"
    assert "Oups" not in screen.content()


def test_a_revoked_link_and_an_evening_over_are_said_on_the_screen_within_a_poll(
    served_app: tuple[str, Any], phone: Any, browser: Any
) -> None:
    live_server, app = served_app
    code = group_with(phone, live_server, "Table du vendredi", "Ann", "Bob", "Cid", "Dan")
    game = _president(phone, live_server, code, "Ann", "Bob", "Cid", "Dan")
    link = _display_link(phone, live_server, code, game)
    phone.goto(f"{live_server}/g/{code}/displays")
    phone.get_by_role("button", name="Un lien pour la soirée").tap()
    links = phone.locator("input[id^=display-url-]")
    expect(links).to_have_count(2)
    evening_link = str(links.first.input_value())  # newest first
    assert evening_link != link
    tablet, tv = _screen(browser, SCREENS["tablet-landscape"]), _screen(browser, SCREENS["tv"])
    try:
        tablet.goto(link)
        tv.goto(evening_link)
        for screen in (tablet, tv):
            expect(screen.locator("h1").first).to_contain_text("Le Président")
            screen.evaluate("window.__notReloaded = true")
        # « Révoquer » on the phone: the tablet says so at its next poll.
        phone.goto(f"{live_server}/g/{code}/displays")
        phone.once("dialog", lambda dialog: dialog.accept())
        phone.locator(f"li:has(input[value='{link}']) button.danger").tap()
        expect(phone.locator("input[id^=display-url-]")).to_have_count(1)
        _ended_in_place(tablet, "Ce lien d’affichage a été révoqué", "revoked")
        # The evening's link still follows the evening meanwhile; then its evening ends.
        expect(tv.locator("h1").first).to_contain_text("Le Président")
        with app.app_context():
            ended = sa.update(DisplayLink).where(DisplayLink.code == evening_link.rsplit("/", 1)[-1])
            db.session.execute(ended.values(expires_at=utcnow() - timedelta(seconds=1)))
            db.session.commit()
        _ended_in_place(tv, "La soirée est finie", "over")
        # The phone of the group follows its own display as before.
        phone.goto(f"{game}/display")
        expect(phone.locator("h1")).to_contain_text("Le Président")
    finally:
        tablet.context.close()
        tv.context.close()


def _sweep_from_here(app: Any, wrong: int) -> None:
    """``wrong`` wrong display codes tried from this address (the browsers') a moment ago;
    none before."""
    with app.app_context():
        db.session.execute(sa.delete(ThrottleEvent))
        now = utcnow()
        for i in range(wrong):
            db.session.add(ThrottleEvent(kind="guess", code=f"T-WRNG{i:06d}", client="127.0.0.1", at=now))
        db.session.commit()


def test_a_screen_follows_its_link_while_its_address_is_slowed_down(
    served_app: tuple[str, Any], phone: Any, browser: Any
) -> None:
    """A stranger on the same Wi-Fi sweeps display codes: a screen opening a link is
    told to wait, in the display's style, and opens it by itself once the wait is over; a
    tablet already showing its link (static/watch.js sends its page's key) follows the
    game as ever, without a reload."""
    live_server, app = served_app
    code = group_with(phone, live_server, "Table du samedi", "Ann", "Bob", "Cid", "Dan")
    game = _president(phone, live_server, code, "Ann", "Bob", "Cid", "Dan")
    link = _display_link(phone, live_server, code, game)
    phone.goto(f"{live_server}/g/{code}/displays")
    phone.get_by_role("button", name="Un lien pour la soirée").tap()
    evening_link = str(phone.locator("input[id^=display-url-]").first.input_value())
    tablet, tv = _screen(browser, SCREENS["tablet-landscape"]), _screen(browser, SCREENS["tv"])
    try:
        tablet.goto(link)
        expect(tablet.locator("h1")).to_contain_text("Le Président")
        tablet.evaluate("window.__notReloaded = true")
        _sweep_from_here(app, 25)  # 64 s to wait
        answer = tv.goto(evening_link)
        assert answer is not None and answer.status == 429
        expect(tv.locator("h1")).to_have_text("Trop d’essais")
        said = re.compile("Cet écran réessaiera de lui-même dans 6[34]\u00a0secondes.")
        expect(tv.locator("main")).to_contain_text(said)
        assert tv.evaluate("document.documentElement.dataset.theme") == "dark"
        _no_violation(tv, "too many tries")
        keep(tv, "test-artifacts/display-too-many-tries-tv.png")
        for theme in ("dark", "light"):
            small = browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
            small.add_cookies([{"name": "theme", "value": theme, "url": live_server}])
            page = small.new_page()
            assert page.goto(link).status == 429
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            keep(page, f"test-artifacts/display-too-many-tries-{theme}.png", full_page=True)
            small.close()

        # The tablet holds its page: a manche started on the phone shows on it, no reload.
        phone.goto(f"{game}/live")
        phone.locator("fieldset#dealer label.pill", has_text="Dan").tap()
        phone.locator("form.live-start button[type=submit]").tap()
        phone.locator("#turn").wait_for()
        expect(tablet.locator(".display-now")).to_contain_text("Ann", timeout=SEEN_WITHIN)
        assert tablet.evaluate("window.__notReloaded === true")

        # A shorter wait: the TV asks again by itself once it is over, and shows the evening.
        _sweep_from_here(app, 20)  # 2 seconds to wait
        answer = tv.reload()
        assert answer is not None and answer.status == 429
        expect(tv.locator("h1").first).to_contain_text("Le Président", timeout=10_000)
        assert tv.locator("h1").first.text_content() != "Trop d’essais"
    finally:
        tablet.context.close()
        tv.context.close()
