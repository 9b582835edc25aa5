"""Parts of the game and group pages kept between requests (companion.pagecache,
issue 14): a page written out from what was kept is the page rendered afresh; a new
round, a renamed player or device shows at once; each page of rounds and each language
shows its own, and the next round's form follows the game; nothing of a session (CSRF
token, flashed message) is ever kept or shown to another phone; the cache stays within
its bound. The parts every page shares (the status area, the home page) speak the
page's language."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Player
from companion.pagecache import KeptPage, PageCache, page_cache
from tests.helpers import CSRF_TOKENS, add_players, create_group, html, start_crapouille, unsigned
from tests.web.test_query_counts import PASSPHRASE, crapouille_hand, whist_deal
from tests.web.test_standings import draw, manche, start_president, start_whist


def _twice(client: FlaskClient, url: str) -> tuple[str, str]:
    """The page rendered afresh, then written out from what was kept (the session's CSRF
    tokens blanked: the tests below prove they are never kept)."""
    client.get(url)  # shows (and so forgets) what was flashed before
    page_cache().clear()
    fresh = unsigned(html(client.get(url)))
    assert len(page_cache()) == 1
    kept = unsigned(html(client.get(url)))
    return fresh, kept


@dataclass
class _Table:
    """A group of four with a game of each kind in progress (Piketty's draw not made)."""

    group: Any
    four: list[Player]
    crapouille: int
    president: int
    piketty: int
    whist: int

    def draw(self, client: FlaskClient) -> None:
        ann, bob, cid, dan = self.four
        draw(client, self.group, self.piketty, {ann: "9♥", bob: "9♠", cid: "2♣", dan: "6♦"})

    def play(self, client: FlaskClient, hands: int, rounds: int) -> None:
        """``hands`` crapouille hands, then ``rounds`` rounds of each other game (after the draw)."""
        group, four = self.group, self.four
        for number in range(1, hands + 1):
            crapouille_hand(client, group, self.crapouille, number, four)
        for number in range(1, rounds + 1):
            manche(client, group, self.president, number, four[number % 4 :] + four[: number % 4])
            manche(client, group, self.piketty, number + 1, four[number % 4 :] + four[: number % 4])
            whist_deal(client, group, self.whist, number)


def _table(client: FlaskClient) -> _Table:
    group = create_group(client, passphrase=PASSPHRASE)
    four = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    return _Table(
        group,
        four,
        start_crapouille(client, group, four),
        start_president(client, group, "president", four, target=1000),
        start_president(client, group, "piketty", four, target=1000),
        start_whist(client, group, four[:3]),
    )


def test_a_kept_page_is_the_page_rendered_afresh(app: Flask, client: FlaskClient) -> None:
    table = _table(client)
    table.draw(client)
    table.play(client, hands=25, rounds=3)
    group = table.group
    crapouille, president, piketty, whist = table.crapouille, table.president, table.piketty, table.whist
    base = f"/g/{group.code}/games"
    for url in (f"{base}/{crapouille}", f"{base}/{crapouille}?upto=5", f"{base}/{president}", f"{base}/{piketty}"):
        fresh, kept = _twice(client, url)
        assert fresh == kept, url
    # Each page of rounds is kept apart, and in each language.
    assert 'id="hand-25"' in html(client.get(f"{base}/{crapouille}"))
    assert 'id="hand-25"' not in html(client.get(f"{base}/{crapouille}?upto=5"))
    english = html(client.get(f"{base}/{crapouille}", headers={"Accept-Language": "en"}))
    assert "Hand 25" in english and "Donne" not in english
    # Whist with a deal waiting for its tricks (the button to enter them), then settled.
    whist_deal(client, group, whist, 4, tricks=False)
    fresh, kept = _twice(client, f"{base}/{whist}")
    assert fresh == kept and "Donne 4 en cours" in kept
    whist_deal(client, group, whist, 4)
    fresh, kept = _twice(client, f"{base}/{whist}")
    assert fresh == kept and "Donne 4 en cours" not in kept
    # The group page.
    fresh, kept = _twice(client, f"/g/{group.code}")
    assert fresh == kept and "25 donnes" in kept


def test_a_kept_round_form_is_the_form_rendered_afresh(app: Flask, client: FlaskClient) -> None:
    """The empty form of the next round (each kind's), kept per game version."""
    table = _table(client)
    group, four, crapouille, bob = table.group, table.four, table.crapouille, table.four[1]
    base = f"/g/{group.code}/games"
    # Piketty's first form is the card draw; then each kind's usual form.
    fresh, kept = _twice(client, f"{base}/{table.piketty}/rounds/new")
    assert fresh == kept and "<h1>Le tirage</h1>" in kept
    table.draw(client)
    table.play(client, hands=3, rounds=3)
    for game in (crapouille, table.president, table.piketty, table.whist):
        fresh, kept = _twice(client, f"{base}/{game}/rounds/new")
        assert fresh == kept, game
        assert 'name="version"' in kept and 'name="round" type="hidden" value="' in kept
    # The next hand saved: the next form, of the new version; and in each language.
    crapouille_hand(client, group, crapouille, 4, four)
    assert "Donne 5" in html(client.get(f"{base}/{crapouille}/rounds/new"))
    english = html(client.get(f"{base}/{crapouille}/rounds/new", headers={"Accept-Language": "en"}))
    assert "Hand 5" in english and "Donne" not in english
    # A player renamed: no version moves, the kept form is not served.
    assert client.post(f"/g/{group.code}/players/{bob.id}", data={"name": "Robert"}).status_code == 302
    page = html(client.get(f"{base}/{crapouille}/rounds/new"))
    assert "Robert" in page and ">Bob<" not in page


def test_what_changed_shows_at_once(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game = start_crapouille(client, group, [ann, bob])
    crapouille_hand(client, group, game, 1, [ann, bob])
    url = f"/g/{group.code}/games/{game}"
    assert "Appareil 1" in html(client.get(url)) and "Appareil 1" in html(client.get(url))
    # A round saved: a new version.
    crapouille_hand(client, group, game, 2, [ann, bob])
    assert "Donne 2" in html(client.get(url))
    # A device renamed: no version moves, the kept page is not served.
    r = client.post(f"/g/{group.code}/devices", data={"device-name": "Téléphone d’Ann", "device-submit": "1"})
    assert r.status_code == 302
    page = html(client.get(url))
    assert "Saisie depuis Téléphone d’Ann" in page and "Appareil 1" not in page
    # A player renamed: the game page and the group page follow.
    assert "Bob" in html(client.get(f"/g/{group.code}"))
    r = client.post(f"/g/{group.code}/players/{bob.id}", data={"name": "Robert"})
    assert r.status_code == 302
    for page in (html(client.get(url)), html(client.get(f"/g/{group.code}"))):
        assert "Robert" in page and "Bob" not in page
    # A new player: the group page counts them.
    add_players(client, group, "Cid")
    assert "Joueurs (3)" in html(client.get(f"/g/{group.code}"))


@pytest.fixture
def own_contexts(app: Flask) -> Flask:
    """The app with its CSRF protection on: each request has an app context of its own
    (tests/conftest.py's ``PhoneClient``), so each phone its own token."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def _form_data(client: FlaskClient, url: str) -> dict[str, str]:
    page = client.get(url).get_data(as_text=True)
    return {"csrf_token": CSRF_TOKENS.search(page).group(1)}  # type: ignore[union-attr]


def _version(client: FlaskClient, url: str) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(url).get_data(as_text=True)).group(1)  # type: ignore[union-attr]


def test_nothing_of_a_session_is_kept(own_contexts: Flask) -> None:
    app = own_contexts
    ann_phone, bob_phone = app.test_client(), app.test_client()
    token = _form_data(ann_phone, "/groups/new")
    data = {"name": "Les Amis", "passphrase": PASSPHRASE, "confirm": PASSPHRASE, "device_name": "A"}
    r = ann_phone.post("/groups/new", data=token | data)
    assert r.status_code == 302, html(r)
    code = r.headers["Location"].rsplit("/", 1)[-1]
    for name in ("Ann", "Bob"):
        token = _form_data(ann_phone, f"/g/{code}/players")
        assert ann_phone.post(f"/g/{code}/players", data=token | {"name": name, "once": name * 10}).status_code == 302
    token = _form_data(bob_phone, "/join")
    data = {"code": code, "passphrase": PASSPHRASE, "device_name": "B"}
    assert bob_phone.post("/join", data=token | data).status_code == 302
    with app.app_context():
        ids = [str(i) for i in db.session.scalars(sa.select(Player.id).order_by(Player.name))]
    token = _form_data(ann_phone, f"/g/{code}/games/new/crapouille")
    seats = {"seats-0": ids[0], "seats-1": ids[1], "once": "g" * 24}
    r = ann_phone.post(f"/g/{code}/games/new/crapouille", data=token | seats)
    assert r.status_code == 302, html(r)
    url = r.headers["Location"]
    # Ann finishes the game: her next page says so; Bob's, written out from what her
    # request kept, does not, and each page carries its own phone's CSRF token.
    form = _form_data(ann_phone, url) | {"version": _version(ann_phone, url), "confirmed": "1"}
    assert ann_phone.post(f"{url}/finish", data=form).status_code == 302
    ann_page = ann_phone.get(url).get_data(as_text=True)
    bob_page = bob_phone.get(url).get_data(as_text=True)
    assert "Partie terminée." in ann_page and "Partie terminée." not in bob_page
    ann_tokens, bob_tokens = set(CSRF_TOKENS.findall(ann_page)), set(CSRF_TOKENS.findall(bob_page))
    assert len(ann_tokens) == len(bob_tokens) == 1 and ann_tokens != bob_tokens
    # Bob's token is his: his phone reopens the game with it.
    r = bob_phone.post(f"{url}/reopen", data={"csrf_token": bob_tokens.pop(), "version": _version(bob_phone, url)})
    assert r.status_code == 302
    assert "Partie rouverte." in bob_phone.get(url).get_data(as_text=True)
    # The next hand's form, kept from Ann's request, carries Bob's own token, and the
    # hand Bob sends with it is saved.
    ann_form = ann_phone.get(f"{url}/rounds/new").get_data(as_text=True)
    bob_form = bob_phone.get(f"{url}/rounds/new").get_data(as_text=True)
    ann_tokens, bob_tokens = set(CSRF_TOKENS.findall(ann_form)), set(CSRF_TOKENS.findall(bob_form))
    assert len(ann_tokens) == len(bob_tokens) == 1 and ann_tokens != bob_tokens
    assert 'id="csrf_token" name="csrf_token"' in bob_form
    hidden = dict(re.findall(r'name="(round|version)" type="hidden" value="(\d+)"', bob_form))
    hand = {"csrf_token": bob_tokens.pop(), **hidden, "winner": ids[0], f"total_{ids[1]}": "4"}
    r = bob_phone.post(f"{url}/rounds/new", data=hand)
    assert r.status_code == 302 and r.headers["Location"].endswith("#totals"), html(r)
    with app.app_context():
        assert page_cache() is not None and len(page_cache()) >= 1
        devices = db.session.scalars(sa.select(Device.name).order_by(Device.id)).all()
    assert devices == ["A", "B"]


def test_the_cache_keeps_within_its_bound() -> None:
    cache = PageCache(max_bytes=10_000)
    one = KeptPage(1, {"game": b"x" * 3000})
    for key in range(5):
        cache.put(key, one)
    assert cache.bytes <= 10_000 and len(cache) == 3  # the two least recently used went out
    assert cache.get(0, 1) is None and cache.get(4, 1) is one
    assert cache.get(4, 2) is None  # another stamp: another version, or other names
    cache.put(4, KeptPage(2, {"game": b"y"}))  # replaces, and frees what it took
    assert len(cache) == 3 and cache.bytes < 10_000 - 3000
    cache.put("big", KeptPage(1, {"game": b"z" * 20_000}))  # larger than the bound: not kept
    assert cache.get("big", 1) is None


def test_each_page_of_rounds_and_each_language_shows_its_own(app: Flask, client: FlaskClient) -> None:
    table = _table(client)
    table.draw(client)
    table.play(client, hands=25, rounds=3)
    group = table.group
    crapouille, whist = table.crapouille, table.whist
    base = f"/g/{group.code}/games"
    for game in (table.president, table.piketty):
        assert client.get(f"{base}/{game}").status_code == 200
    assert 'id="hand-25"' in html(client.get(f"{base}/{crapouille}"))
    assert 'id="hand-25"' not in html(client.get(f"{base}/{crapouille}?upto=5"))
    english = html(client.get(f"{base}/{crapouille}", headers={"Accept-Language": "en"}))
    assert "Hand 25" in english and "Donne" not in english
    # Whist with a deal waiting for its tricks (the button to enter them), then settled.
    whist_deal(client, group, whist, 4, tricks=False)
    assert "Donne 4 en cours" in html(client.get(f"{base}/{whist}"))
    whist_deal(client, group, whist, 4)
    assert "Donne 4 en cours" not in html(client.get(f"{base}/{whist}"))
    assert "25 donnes" in html(client.get(f"/g/{group.code}"))


def test_the_next_rounds_form_follows_the_game(app: Flask, client: FlaskClient) -> None:
    """Each kind's form of the next round: its number after a save, its language, a
    renamed player."""
    table = _table(client)
    group, four, crapouille, bob = table.group, table.four, table.crapouille, table.four[1]
    base = f"/g/{group.code}/games"
    # Piketty's first form is the card draw; then each kind's usual form.
    assert "<h1>Le tirage</h1>" in html(client.get(f"{base}/{table.piketty}/rounds/new"))
    table.draw(client)
    table.play(client, hands=3, rounds=3)
    for game in (crapouille, table.president, table.piketty, table.whist):
        form = html(client.get(f"{base}/{game}/rounds/new"))
        assert 'name="version"' in form and 'name="round" type="hidden" value="' in form, game
    crapouille_hand(client, group, crapouille, 4, four)
    assert "Donne 5" in html(client.get(f"{base}/{crapouille}/rounds/new"))
    english = html(client.get(f"{base}/{crapouille}/rounds/new", headers={"Accept-Language": "en"}))
    assert "Hand 5" in english and "Donne" not in english
    assert client.post(f"/g/{group.code}/players/{bob.id}", data={"name": "Robert"}).status_code == 302
    page = html(client.get(f"{base}/{crapouille}/rounds/new"))
    assert "Robert" in page and ">Bob<" not in page


def test_the_status_area_speaks_the_pages_language(app: Flask, client: FlaskClient) -> None:
    """base.html's status area (the outbox's sentences), in each language and app root."""

    def area(page: str) -> str:
        found = re.search(r'<div class="status-area">.*?</section>\s*</div>', page, re.S)
        assert found is not None
        return found.group(0)

    french = area(html(client.get("/")))
    assert "1 envoi en attente" in french and area(html(client.get("/"))) == french
    english = area(html(client.get("/", headers={"Accept-Language": "en"})))
    assert "1 thing waiting to be sent" in english and "envoi" not in english
    assert area(html(client.get("/"))) == french  # each language its own
    mounted = area(html(client.get("/", base_url="http://localhost/cartes")))
    assert 'data-worker="/cartes/sw.js"' in mounted and 'data-worker="/sw.js"' in french


def test_the_home_page_speaks_the_pages_language(app: Flask, client: FlaskClient) -> None:
    """The home page's links and join form are in the page's language, and the join form
    carries this session's CSRF token."""
    app.config["WTF_CSRF_ENABLED"] = True
    french = html(client.get("/"))
    assert "Vérifier un coup" in french and "Code du groupe" in french
    english = html(client.get("/", headers={"Accept-Language": "en"}))
    assert "Check a play" in english and "Group code" in english and "Vérifier" not in english
    assert 'id="csrf_token" name="csrf_token"' in french  # the join form's
