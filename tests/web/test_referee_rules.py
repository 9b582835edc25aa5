"""Issue 11, house rules in plain words: a game's house rules page (what is on,
explained with the seed's example; what is off; the settings) and the rules page of
each kind, in French and English.

Sentences of the web layer are checked by their English msgids (``Accept-Language:
en``); labels the French catalog already holds, and the per-language rules pages, in
French too."""

from __future__ import annotations

import re
from dataclasses import fields

import flask_babel
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.games.kinds.crapouille import rules_pages as crapouille_pages
from companion.games.kinds.president import options as president_kind
from companion.games.kinds.president import rules_pages as president_pages
from companion.games.rules_pages import option_entry
from companion.i18n import LANGUAGES
from companion.referee import house_rules
from companion.rules import crapouille
from companion.rules.president import PRESETS, Rules
from tests.helpers import add_players, create_group, html, start_crapouille

EN = {"Accept-Language": "en"}
FR = {"Accept-Language": "fr"}


def _start(client: FlaskClient, group, kind: str, players, **options: str) -> int:
    """Start a game of ``kind`` with ``players`` in seat order and the form's ``options``."""
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    if kind in ("president", "piketty"):
        data.update({"target": "25", "titles": "classic", "rule_points": "y"})
    data.update(options)
    response = client.post(f"/g/{group.code}/games/new/{kind}", data=data)
    assert response.status_code == 302, html(response)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match
    return int(match.group(1))


def _section(page: str, section_id: str) -> str:
    match = re.search(rf'<section id="{section_id}"[^>]*>(.*?)</section>', page, re.S)
    return match.group(1) if match else ""


def _headings(fragment: str) -> set[str]:
    return {h.strip() for h in re.findall(r"<h3>(.*?)</h3>", fragment, re.S)}


def _labels(app: Flask, headers: dict[str, str], items) -> set[str]:
    """The labels of ``items`` (option entries) as a page in that language shows them."""
    with app.test_request_context("/", headers=headers):
        flask_babel.refresh()  # the test's app context keeps the last request's locale
        return {str(o["label"]) for o in items}


# --------------------------------------------------------------- a game's house rules


def test_a_president_games_page_explains_each_option_on_and_only_those(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    on = ("putsch", "revolution", "passe", "eight_clears")
    game_id = _start(client, group, "president", players, **{f"rule_{o}": "y" for o in on})
    url = f"/g/{group.code}/games/{game_id}/rules"

    page = html(client.get(url, headers=EN))
    shown = _section(page, "on")
    assert _headings(shown) == {"Putsch", "Revolution", "La passe", "8s clear"}
    # The one-line explanation of the new-game page, and the seed's example.
    assert "A quad reverses the order of the cards for the rest of the manche." in shown
    assert "Example: four 7s laid at once: until the end of the manche the 3 is the best card" in shown
    assert "Ann lays a 3, Bob lays a 3: Cid must lay a 3 or pass" in shown  # seed 000, la passe
    assert "Bob lays an 8 on a 6" in shown  # seed 000, règle du 8
    assert "4 best cards" in shown  # seed 000, putsch manqué
    off = _section(page, "off")
    for label in ("Jeu blanc", "Runs", "Rapidity", "Lasting revolution", "Breaking the passe"):
        assert label in off and label not in shown
    # Not offered: what is on, and what this game could not switch on (no jokers; 4 players).
    for label in ("Putsch", "La passe", "8s clear", "Guillotine", "Wild jokers", "Tabula rasa"):
        assert label not in off
    assert "Two decks at 4 or 5 players" not in page  # Piketty's only
    settings = _section(page, "settings")
    assert "Game to 25 points" in settings and "52 cards in play" in settings and "no joker" in settings
    assert "The first manche is played without titles." in settings
    assert "Asshole → President: 2 cards" in settings and "Vice-Asshole → Vice-President: 1 card" in settings

    # The labels the French catalog holds, on the French page.
    french = html(client.get(url))
    assert _headings(_section(french, "on")) == {"Putsch", "Révolution", "La passe", "Règle du 8"}
    assert "Trou du cul" in _section(french, "settings")


def test_a_preset_is_explained_with_what_it_switches_on(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(
        client,
        group,
        "president",
        players,
        preset="wizz",
        rule_revolution="y",
        rule_decks="2",
        rule_revolution_size="7",
    )
    page = html(client.get(f"/g/{group.code}/games/{game_id}/rules", headers=EN))
    shown = _section(page, "on")
    # The wizz preset switches the revolution on (RULES.md §1); seed 000's wizz example.
    assert _headings(shown) == {"Wizz", "Revolution"}
    assert "Bob lays a pair of 6s and wizzes Cid and Dan" in shown
    settings = _section(page, "settings")
    assert "2 decks" in settings and "104 cards in play" in settings
    assert "A revolution takes 7 cards of one rank." in settings


def test_a_piketty_game_offers_only_piketty_options(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    game_id = _start(client, group, "piketty", players, rule_jeu_blanc="y")
    page = html(client.get(f"/g/{group.code}/games/{game_id}/rules", headers=EN))
    assert _headings(_section(page, "on")) == {"Jeu blanc"}
    assert "Two decks at 4 or 5 players" in _section(page, "off") and "Runs" not in page
    settings = _section(page, "settings")
    # seed 001: at 6, two decks without the 3s, 4s and 5s; the titles drawn by cards.
    assert "2 decks · 80 cards in play" in settings and "The first titles are drawn by cards." in settings
    assert "Asshole → President: 3 cards" in settings and "Minister → Prime Minister: 1 card" in settings


def test_a_crapouille_game_with_super_and_without(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    with_super = start_crapouille(client, group, [ann, bob, cid], super_=True)
    page = html(client.get(f"/g/{group.code}/games/{with_super}/rules", headers=EN))
    shown = _section(page, "on")
    assert _headings(shown) == {"Super crapouille (deal 10, keep 5)"}
    assert "Bob lays two 2s in a row: Cid, who had five cards, has seven." in shown  # seed 003's example
    assert "Super crapouille: 10 cards dealt, 5 kept." in _section(page, "settings")
    assert "Out past 300." in page and "8 = 20" in page
    assert "Two-player rule." not in page

    plain = start_crapouille(client, group, [ann, bob])
    page = html(client.get(f"/g/{group.code}/games/{plain}/rules", headers=EN))
    assert _headings(_section(page, "on")) == set()
    assert "No house rule: the plain rules." in page
    assert "Super crapouille (deal 10, keep 5)" in _section(page, "off")
    assert "5 cards each." in page and "Two-player rule." in page


def test_a_whist_game_has_no_house_rules(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _start(client, group, "whist-tarot", players)
    page = html(client.get(f"/g/{group.code}/games/{game_id}/rules", headers=EN))
    assert "No house rules in this game: it is played as written." in page
    assert _section(page, "off") == ""
    assert "The 22 cards: the 21 trumps and the Excuse; a stake of 14 cards each." in page
    assert "5, 4, 3, 2, 1 cards, then 1 card blind" in page
    assert 'href="/rules/whist-tarot"' in page and f'href="/g/{group.code}/games/{game_id}"' in page


def test_a_game_of_another_group_or_device_is_not_readable(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob], super_=True)
    other = create_group(client, "Autre")
    assert client.get(f"/g/{other.code}/games/{game_id}/rules").status_code == 404
    assert client.get(f"/g/{group.code}/games/{game_id + 1}/rules").status_code == 404
    stranger = app.test_client()
    r = stranger.get(f"/g/{group.code}/games/{game_id}/rules")
    assert r.status_code == 302 and "/join" in r.headers["Location"]
    assert "Ann" not in html(r) and "Super" not in html(r)


def _queries(client: FlaskClient, url: str) -> int:
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        assert client.get(url).status_code == 200
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", count)
    return len(statements)


def test_the_pages_run_a_constant_number_of_queries(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, *(f"P{i}" for i in range(8)))
    small = _start(client, group, "president", players[:3], rule_putsch="y")
    large = _start(client, group, "piketty", players, rule_putsch="y", rule_jeu_blanc="y")
    few = _queries(client, f"/g/{group.code}/games/{small}/rules")
    assert _queries(client, f"/g/{group.code}/games/{large}/rules") == few
    for n in range(1, 6):  # rounds are never read
        r = client.post(
            f"/g/{group.code}/games/{small}/rounds/new",
            data={"round": str(n), "event": "", **{f"finish-{i}": str(p.id) for i, p in enumerate(players[:3])}},
        )
        assert r.status_code == 302, html(r)
    assert _queries(client, f"/g/{group.code}/games/{small}/rules") == few
    assert _queries(client, "/rules/president") == 0


# ------------------------------------------------------------------ rules of a kind


def _kind_labels(kind: str):
    if kind in ("president", "piketty"):
        points = option_entry(*president_pages._toggle(kind, "points"), president_pages.DETAILS["points"])
        items = [*president_pages.president_options(kind), points]
        if kind == "president":
            items += president_pages.preset_options()
        return items
    if kind == "crapouille":
        return crapouille_pages.crapouille_options()
    return []


def _prose(page: str) -> str:
    """The text of a rules page's own prose (its per-language template)."""
    prose = re.search(r'<div class="rules">(.*?)</div>', page, re.S)
    assert prose
    return re.sub(r"<[^>]+>", " ", prose.group(1))


@pytest.mark.parametrize("kind", sorted(house_rules.rules_pages()))
def test_the_rules_page_of_each_kind_in_both_languages(app: Flask, client: FlaskClient, kind: str) -> None:
    stem = house_rules.rules_pages()[kind]
    for lang in LANGUAGES:
        app.jinja_env.get_template(f"referee/rules_{stem}.{lang}.html")  # each exists in both
    english = html(client.get(f"/rules/{kind}", headers=EN))
    french = html(client.get(f"/rules/{kind}", headers=FR))
    assert '<html lang="en"' in english and "Our choices" in english and "Nos choix" not in english
    assert '<html lang="fr"' in french and "Nos choix" in french and "Our choices" not in french
    for headers, page in ((EN, english), (FR, french)):
        for label in _kind_labels_in(app, headers, kind):
            assert label in page, (kind, headers, label)
    # French as a French table writes it: ’ apostrophes, no-break spaces before : ; ! ? and inside « ».
    prose = _prose(french)
    assert "'" not in prose
    assert not re.search(r"[^\s\u00a0][:;!?](?=\s)", prose), re.findall(r".{20}[:;!?]\s", prose)
    assert not re.search(r" [:;!?»]|« ", prose)
    assert "'" not in _prose(english)


def _kind_labels_in(app: Flask, headers: dict[str, str], kind: str) -> set[str]:
    return _labels(app, headers, _kind_labels(kind))


def test_the_president_rules_page_shows_the_engines_titles(client: FlaskClient) -> None:
    page = html(client.get("/rules/president", headers=FR))
    assert "Président, Vice-Président, Vice-Trou du cul, Trou du cul. Cartes échangées\u00a0: 2, 1." in page
    page = html(client.get("/rules/piketty", headers=EN))
    assert "Vice-Asshole, Asshole. Cards exchanged: 3, 2, 1." in page  # 6 players, seed 001
    assert "House rules to choose" in page and "Variants" not in page
    crapouille_page = html(client.get("/rules/crapouille", headers=EN))
    assert "8 = 20, Joker = 15, 2 = 10, J Q K = 5, A = 1" in crapouille_page


def test_an_unknown_kind_has_no_rules_page(client: FlaskClient) -> None:
    for kind in ("belote", "President", "whist_tarot", "..", "crapouille "):
        assert client.get(f"/rules/{kind}").status_code == 404, kind


def test_the_language_switch_chooses_the_rules_pages_language(client: FlaskClient) -> None:
    client.post("/lang/en", data={"next": "/rules/crapouille"})
    assert "Our choices" in html(client.get("/rules/crapouille", headers=FR))


# ---------------------------------------------- every option of the engine explained


def test_every_option_of_the_engine_has_an_explanation(app: Flask) -> None:
    toggles = {option: (label, line) for option, label, line in president_kind._TOGGLES}
    engine = [f for f in fields(Rules) if f.name != "game"]
    for f in engine:
        if f.type in ("bool", bool):
            assert f.name in toggles, f"no label on the new-game page for {f.name}"
            assert f.name in president_pages.DETAILS, f"no explanation for {f.name}"
        else:
            assert f.name in president_pages.SETTINGS, f"no explanation for the setting {f.name}"
    names = {f.name for f in engine}
    assert set(president_pages.DETAILS) <= names and set(president_pages.SETTINGS) <= names  # nothing stale
    for preset in PRESETS:
        assert preset in president_kind._PRESET_NAMES and preset in president_pages.PRESET_DETAILS, preset
    assert set(president_pages.PRESET_DETAILS) == set(PRESETS)
    options = [f.name for f in fields(crapouille.Options)]
    assert set(crapouille_pages.CRAPOUILLE_DETAILS) == set(options)
    with app.test_request_context("/", headers=EN):
        flask_babel.refresh()
        for o in crapouille_pages.crapouille_options():
            assert str(o["label"]) != o["id"] and str(o["line"]) and str(o["detail"])
        for text in [*president_pages.DETAILS.values(), *president_pages.PRESET_DETAILS.values()]:
            assert len(str(text)) > 20
