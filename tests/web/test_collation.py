"""Names in a French reader's order (issue 22): one helper (companion/collation.py,
the Unicode Collation Algorithm) orders names wherever people read a list of them, on
SQLite and PostgreSQL alike — never the database's ORDER BY (SQLite by code point,
PostgreSQL by its own collation: both put Zoé before Élodie).

Players are added in the reverse of the French order, so that neither the order they
were added in (their ids) nor the database's order of names passes these tests.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata

import sqlalchemy as sa

from companion.collation import sort_key, sorted_names
from companion.extensions import db
from companion.models import Group, Player
from tests.helpers import add_players, create_group, html
from tests.web.test_standings import board, crapouille_duel
from tests.web.test_transfer import upload

EN = {"Accept-Language": "en"}
NAMES = ["Élodie", "Émile", "Zoé", "Œdipe", "ÉLISE", "elise"]
# Letters first, then accents, then case: the unaccented lower-case elise before
# ÉLISE (same letters, an accent and capitals: later); É sorts with E, long before Z;
# Œ is O then E, so Œdipe comes after every E and before Z.
FRENCH = ["elise", "ÉLISE", "Élodie", "Émile", "Œdipe", "Zoé"]


# -------------------------------------------------------------------------- the helper


def test_the_issues_names_in_french_order_whatever_order_they_come_in():
    for names in itertools.permutations(NAMES):
        assert sorted_names(names) == FRENCH
    assert sorted(NAMES) != FRENCH  # code points would not do


def test_letters_then_accents_then_case_and_ligatures_expanded():
    assert sorted_names(["élise", "ÉLISE", "Elise", "elise"]) == ["elise", "Elise", "élise", "ÉLISE"]
    assert sorted_names(["Oscar", "Œdipe", "Odile"]) == ["Odile", "Œdipe", "Oscar"]
    assert sorted_names(["Evan", "Ève", "Eva"]) == ["Eva", "Evan", "Ève"]
    assert sorted_names(["Jeanne", "Jean-Paul", "Jean Paul"]) == ["Jean Paul", "Jean-Paul", "Jeanne"]


def test_names_equal_to_the_collation_are_ordered_by_their_text():
    composed, decomposed = "Élodie", unicodedata.normalize("NFD", "Élodie")
    assert sort_key(composed)[0] == sort_key(decomposed)[0]
    assert (
        sorted_names([composed, decomposed]) == sorted_names([decomposed, composed]) == sorted([composed, decomposed])
    )


def test_items_sorted_by_the_name_a_key_gives():
    items = [{"name": n, "i": i} for i, n in enumerate(NAMES)]
    assert [item["name"] for item in sorted_names(items, key=lambda item: item["name"])] == FRENCH


# ------------------------------------------------------------------------------- pages

# The names a group may hold side by side (elise and ÉLISE are one name in a group).
PLAYERS = ["Zoé", "Œdipe", "Émile", "Élodie", "elise", "Ann"]
PLAYERS_FRENCH = ["Ann", "elise", "Élodie", "Émile", "Œdipe", "Zoé"]


def test_the_players_page_lists_them_in_french_order(client):
    group = create_group(client)
    add_players(client, group, *PLAYERS)
    page = html(client.get(f"/g/{group.code}/players"))
    assert re.findall(r'class="tile" href="[^"]*">([^<]*) <small>', page) == PLAYERS_FRENCH


def test_every_seating_picker_offers_them_in_french_order(client):
    group = create_group(client)
    add_players(client, group, *PLAYERS)
    for kind in ("crapouille", "president", "piketty", "whist-tarot"):
        page = html(client.get(f"/g/{group.code}/games/new/{kind}"))
        taps = re.findall(r'<span class="tap-order-label">([^<]*)</span>', page)
        assert taps == PLAYERS_FRENCH, kind
        select = page[page.index('id="seats-0"') : page.index("</select>", page.index('id="seats-0"'))]
        assert re.findall(r"<option[^>]*>([^<]*)</option>", select) == ["—", *PLAYERS_FRENCH], kind


def _tied_season(client):
    """Zoé and Élodie tie on every figure (each won one duel against the other and lost
    one to Ann): the crapouille board, the all-games summary and Ann's rivals list both."""
    group = create_group(client)
    zoe, elodie, ann = add_players(client, group, "Zoé", "Élodie", "Ann")
    crapouille_duel(client, group, zoe, elodie)
    crapouille_duel(client, group, elodie, zoe)
    crapouille_duel(client, group, ann, zoe)
    crapouille_duel(client, group, ann, elodie)
    return group, ann


def test_a_leaderboard_with_a_tie_lists_elodie_before_zoe(client):
    group, _ann = _tied_season(client)
    page = html(client.get(f"/g/{group.code}/seasons/{group.current_season.id}", headers=EN))
    assert [row[:2] for row in board(page, "kind-crapouille")] == [["1", "Ann"], ["2=", "Élodie"], ["2=", "Zoé"]]
    summary = re.findall(r'<tr><th scope="row">([^<]*)</th><td>1</td><td>3</td></tr>', page)
    assert summary == ["Élodie", "Zoé"]


def test_a_player_pages_rivals_in_french_order_when_they_met_as_often(client):
    group, ann = _tied_season(client)
    page = html(client.get(f"/g/{group.code}/players/{ann.id}/stats", headers=EN))
    assert re.findall(r'<tr data-rival="([^"]*)">', page) == ["Élodie", "Zoé"]


def test_the_json_export_lists_the_players_in_french_order_and_an_import_keeps_them(client):
    group = create_group(client)
    add_players(client, group, *PLAYERS)
    document = json.loads(client.get(f"/g/{group.code}/export.json").get_data(as_text=True))
    assert [p["name"] for p in document["players"]] == PLAYERS_FRENCH
    # The ids still say who was added first: an import creates them in that order.
    response = upload(client, json.dumps(document).encode(), name="Copie")
    assert response.status_code == 302, html(response)
    copy = db.session.scalar(sa.select(Group).where(Group.name == "Copie"))
    names = db.session.scalars(sa.select(Player.name).where(Player.group_id == copy.id).order_by(Player.id))
    assert list(names) == PLAYERS


def test_the_home_page_lists_the_groups_in_french_order(client):
    for name in ("Zèbres", "Écureuils", "amis"):
        create_group(client, name=name)
    page = html(client.get("/"))
    assert re.findall(r'data-prefetch href="/g/[^"]*"><strong>([^<]*)</strong>', page) == [
        "amis",
        "Écureuils",
        "Zèbres",
    ]
