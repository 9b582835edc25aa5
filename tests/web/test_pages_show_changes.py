"""What the game, round and group pages show follows the database: each page of rounds and
each language shows its own, the next round's form follows the game, and the parts every
page shares (the status area, the home page) speak the page's language. (What is kept
per game version, and shown again at once when something changed: test_page_cache.py.)"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.models import Player
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_query_counts import PASSPHRASE, crapouille_hand, whist_deal
from tests.web.test_standings import draw, manche, start_president, start_whist

_TOKENS = re.compile(r'name="csrf_token" value="([^"]+)"')


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
