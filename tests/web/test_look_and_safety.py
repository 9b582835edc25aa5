"""Issue 9 on the server side: themes, safe destructive actions with undo, names, dates,
titles and descriptions, error summaries."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Game, GameStatus, Player, Round
from tests.helpers import add_players, create_group, html, start_crapouille


def _hand(client: FlaskClient, group, game_id: int, number: int, winner, **fields: str):
    data = {"round": str(number), "winner": str(winner.id), **fields}
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


# --- themes -----------------------------------------------------------------------------


def test_theme_follows_the_phone_until_the_device_chooses(client: FlaskClient) -> None:
    page = html(client.get("/"))
    assert "data-theme" not in page.split(">", 2)[1]  # <html …>: prefers-color-scheme decides
    r = client.post("/theme", data={"theme": "dark", "next": "/join"})
    assert r.status_code == 302 and r.headers["Location"] == "/join"
    assert '<html lang="fr" data-theme="dark">' in html(client.get("/"))
    client.post("/theme", data={"theme": "light", "next": "https://evil.example/"})
    assert '<html lang="fr" data-theme="light">' in html(client.get("/"))
    client.post("/theme", data={"theme": "auto"})
    assert "data-theme" not in html(client.get("/")).split(">", 2)[1]
    client.post("/theme", data={"theme": "<b>"})  # anything else changes nothing
    assert client.get("/theme").status_code == 405


# --- destructive actions ask once and can be undone -----------------------------------


def test_deleting_a_hand_asks_once_then_can_be_undone(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "250"})
    _hand(client, group, game_id, 2, ann, **{f"total_{bob.id}": "60"})
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED
    url = f"/g/{group.code}/games/{game_id}/rounds/2/delete"
    # Without script: a confirmation page that posts the same form again, confirmed.
    page = html(client.post(url, data={"version": str(game.version)}))
    assert "Supprimer la donne 2\u00a0?" in page and 'name="confirmed" value="1"' in page
    assert f'name="version" value="{game.version}"' in page
    db.session.rollback()
    assert len(game.rounds) == 2
    r = client.post(url, data={"version": str(game.version), "confirmed": "1"}, follow_redirects=True)
    page = html(r)
    assert "Donne 2 supprimée." in page and "Annuler" in page
    undo = re.search(r'action="(/g/[^"]+/undo)".*?name="version" value="(\d+)"', page, re.S)
    assert undo
    db.session.rollback()
    assert len(game.rounds) == 1 and game.status is GameStatus.IN_PROGRESS
    r = client.post(undo.group(1), data={"version": undo.group(2)}, follow_redirects=True)
    assert "La donne 2 est rétablie." in html(r)
    db.session.rollback()
    assert [r.number for r in game.rounds] == [1, 2] and game.status is GameStatus.FINISHED
    # The same undo twice: nothing more happens, and it says what became of it (issue 24:
    # done once, not « no longer possible »).
    r = client.post(undo.group(1), data={"version": undo.group(2)}, follow_redirects=True)
    assert "La donne 2 est rétablie." in html(r) and "Ce n’est plus annulable" not in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 2
    # The history says what happened, from which device.
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    for text in ("Donne 1 saisie", "Donne 2 saisie", "Partie terminée", "Donne 2 supprimée", "Donne 2 rétablie"):
        assert text in page, text
    assert "Appareil 1" in page


def test_abandon_asks_then_undo_reopens(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    game = db.session.get(Game, game_id)
    url = f"/g/{group.code}/games/{game_id}/abandon"
    assert "Abandonner la partie\u00a0?" in html(client.post(url, data={"version": str(game.version)}))
    page = html(client.post(url, data={"version": str(game.version), "confirmed": "1"}, follow_redirects=True))
    assert "Partie abandonnée." in page and "Rouvrir la partie" in page
    undo = re.search(r'action="(/g/[^"]+/undo)".*?name="version" value="(\d+)"', page, re.S)
    assert undo
    client.post(undo.group(1), data={"version": undo.group(2)})
    db.session.rollback()
    assert game.status is GameStatus.IN_PROGRESS


def test_forgetting_a_group_asks_then_can_be_undone_from_this_device(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    assert "Oublier Les Amis sur cet appareil\u00a0?" in html(client.post(f"/g/{group.code}/leave"))
    page = html(client.post(f"/g/{group.code}/leave", data={"confirmed": "1"}, follow_redirects=True))
    assert "Cet appareil a quitté Les Amis." in page
    assert client.get(f"/g/{group.code}").status_code == 403  # « Ce téléphone a quitté le groupe… » (issue 22)
    other = app.test_client()  # another browser cannot use the undo
    assert "/join" in other.post(f"/g/{group.code}/rejoin").headers["Location"]
    r = client.post(f"/g/{group.code}/rejoin", follow_redirects=True)
    assert "Re-bienvenue dans Les Amis." in html(r)
    assert client.get(f"/g/{group.code}").status_code == 200
    assert db.session.scalar(sa.select(sa.func.count(Device.id)).where(Device.revoked_at.is_(None))) == 1


# --- names and dates --------------------------------------------------------------------


def test_names_are_normalised_and_accents_do_not_make_a_new_name(client: FlaskClient) -> None:
    group = create_group(client)
    client.post(f"/g/{group.code}/players", data={"name": "  Zoe\u0301   du\u00a0Bois "})
    assert db.session.scalar(sa.select(Player.name)) == "Zoé du Bois"
    r = client.post(f"/g/{group.code}/players", data={"name": "ZOE DU BOIS"})
    assert "Ce groupe a déjà un joueur nommé ZOE DU BOIS." in html(r)
    r = client.post(f"/g/{group.code}/players", data={"name": "Zoé du bois"})
    assert "déjà un joueur nommé" in html(r)
    for invisible in ("\u200b\u200d", "\u00ad"):
        r = client.post(f"/g/{group.code}/players", data={"name": invisible})
        assert r.status_code == 200 and "Ce nom n’affiche rien" in html(r), repr(invisible)
    assert db.session.scalar(sa.select(sa.func.count(Player.id))) == 1


def test_season_dates_within_reason(client: FlaskClient) -> None:
    group = create_group(client)
    for day in ("1999-12-31", "2999-01-01"):
        r = client.post(f"/g/{group.code}/seasons", data={"name": f"S {day}", "starts_on": day})
        assert "Choisissez une date entre 2000 et dans un an." in html(r), day
    assert client.post(f"/g/{group.code}/seasons", data={"name": "Ok", "starts_on": "2000-01-01"}).status_code == 302


# --- every page: its own title, a description, no dangling aria-describedby ------------


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.described: list[str] = []
        self.title = ""
        self._in_title = False
        self.description = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if a.get("aria-describedby"):
            self.described += (a["aria-describedby"] or "").split()
        if tag == "meta" and a.get("name") == "description":
            self.description = a.get("content")
        self._in_title = tag == "title"

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False


def test_every_page_has_its_title_a_description_and_sound_references(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    pages = {
        "/": None,
        "/groups/new": None,
        "/join": None,
        f"/g/{group.code}": None,
        f"/g/{group.code}/players": None,
        f"/g/{group.code}/devices": None,
        f"/g/{group.code}/seasons": None,
        f"/g/{group.code}/games/new": None,
        f"/g/{group.code}/games/new/crapouille": None,
        f"/g/{group.code}/games/{game_id}": None,
        f"/g/{group.code}/games/{game_id}/rounds/new": None,
    }
    titles = set()
    for path in pages:
        parser = _Page()
        parser.feed(html(client.get(path)))
        assert parser.title.endswith("· Companion") and parser.description, path
        titles.add(parser.title)
        assert set(parser.described) <= parser.ids, (path, set(parser.described) - parser.ids)
    # A failed form too: its errors and hints are where aria-describedby says.
    parser = _Page()
    parser.feed(html(client.post("/groups/new", data={"name": "", "passphrase": "a", "confirm": "b"})))
    assert parser.described and set(parser.described) <= parser.ids
    assert len(titles) >= len(pages) - 2  # (home and the new-game kinds may share a generic title)


def test_a_failed_form_opens_with_a_summary_linking_each_field(client: FlaskClient) -> None:
    page = html(client.post("/groups/new", data={"name": "", "passphrase": "a", "confirm": "b"}))
    summary = page[page.index('id="error-summary"') :]
    assert "3 choses à corriger" in summary
    for field_id in ("name", "passphrase", "confirm"):
        assert f'href="#{field_id}"' in summary and f'id="{field_id}"' in page
    # The summary names the field; its message is by the field, said once (issue 22).
    assert '<a href="#name">Nom du groupe</a>' in summary and page.count("Donnez un nom au groupe.") == 1


def test_a_failed_hand_names_players_and_reports_every_fault_at_once(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_crapouille(client, group, [ann, bob, cid, dan])
    # Bob gives both cards and a total; Cid gives nothing; Dan's total is out of range.
    r = _hand(
        client, group, game_id, 1, ann, **{f"cards_{bob.id}": "8C", f"total_{bob.id}": "20", f"total_{dan.id}": "3"}
    )
    page = html(r)
    assert r.status_code == 200
    assert "Il manque les cartes ou le total de Cid." in page
    assert "Bob" in page[page.index('id="error-summary"') :]
    # Never a database id in what the hand page says (from its heading on: the flashes of
    # the set-up above it name the group's random code, which may read « code 2… »).
    said = page[page.index("<h1>") :]
    assert "de 2" not in said and f"de {cid.id}." not in said  # never a database id
    summary = page[page.index('id="error-summary"') : page.index("</ul>", page.index('id="error-summary"'))]
    assert summary.count("<li>") == 2  # Bob (both given) and Cid (nothing): both at once
    assert 'value="8C"' in page and 'value="20"' in page  # nothing typed is lost
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    # A missing winner and a bad card are reported together too.
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data={"round": "1", f"cards_{bob.id}": "8x"})
    page = html(r)
    assert "Indiquez qui a fini." in page and "Carte inconnue" in page


def test_the_first_of_a_month_is_written_1er(client: FlaskClient) -> None:
    group = create_group(client)
    client.post(f"/g/{group.code}/seasons", data={"name": "Printemps", "starts_on": "2026-03-01"})
    page = html(client.get(f"/g/{group.code}/seasons"))
    assert "depuis le 1er mars 2026" in page
    r = client.post("/lang/en", data={"next": "/"})
    assert r.status_code == 302
    assert "since Mar 1, 2026" in html(client.get(f"/g/{group.code}/seasons"))


def test_after_adding_a_player_the_name_field_has_the_focus(client: FlaskClient) -> None:
    group = create_group(client)
    r = client.post(f"/g/{group.code}/players", data={"name": "Ann"})
    assert r.headers["Location"].endswith("?added=1")
    page = html(client.get(r.headers["Location"]))
    assert re.search(r'<input[^>]*autofocus[^>]*id="name"|<input[^>]*id="name"[^>]*autofocus', page)
    assert "autofocus" not in html(client.get(f"/g/{group.code}/players"))
