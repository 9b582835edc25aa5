"""The French of the pages (issue 22): sentences that take a name elide before a vowel
sound (« d’Ann », « d’Élodie », « d’Yves », « d’Hélène ») and keep « de Bob »; counts
agree (« aucun joker »); one register, « vous »; each game's own words (Président and
Piketty have manches, whist and the crapouille donnes, and Piketty's card draw is « le
tirage », not manche 1); house rules read as a name, then its explanation.

One page test per sentence family that takes a name; the pages are read in French,
the default."""

import re
from pathlib import Path

import sqlalchemy as sa
from babel.messages.pofile import read_po
from flask import render_template

from companion.extensions import db
from companion.games.kinds import KINDS
from companion.models import Game, GameStatus
from tests.helpers import add_players, create_group, html, start_crapouille

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Élodie", "Yves", "Hélène", "Bob")


def _text(page: str) -> str:
    """The page's text as a reader gets it: tags out, spaces folded."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("\u00a0", " ")


def _game_id(response) -> int:
    assert response.status_code == 302, html(response)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match
    return int(match.group(1))


def _president(client, group, kind, players, **options):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    data.update({"target": "25", "titles": "classic", "rule_points": "y", **options})
    return _game_id(client.post(f"/g/{group.code}/games/new/{kind}", data=data))


def _manche(client, group, game_id, number, finish, **fields):
    data = {"round": str(number), "event": ""}
    data.update({f"finish-{i}": str(p.id) for i, p in enumerate(finish)})
    data.update(fields)
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def _draw(client, group, game_id, cards):
    data = {"round": "1"} | {f"draw_{p.id}": c for p, c in cards.items()}
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def _whist(client, group, players):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    return _game_id(client.post(f"/g/{group.code}/games/new/whist-tarot", data=data))


# ------------------------------------------------------------- names in sentences


def test_the_players_page_links_each_players_statistics_elided(client):
    group = create_group(client)
    add_players(client, group, *NAMES)
    page = html(client.get(f"/g/{group.code}/players"))
    for elided in ("Statistiques d’Ann", "Statistiques d’Élodie", "Statistiques d’Yves", "Statistiques d’Hélène"):
        assert elided in page
    assert "Statistiques de Bob" in page
    assert "de Élodie" not in page and "de Ann" not in page


def test_whist_bid_and_trick_labels_elide(client):
    group = create_group(client)
    ann, elodie, bob = add_players(client, group, "Ann", "Élodie", "Bob")
    game_id = _whist(client, group, [ann, elodie, bob])
    url = f"/g/{group.code}/games/{game_id}/rounds"
    form = html(client.get(f"{url}/new"))
    assert "Annonce d’Ann" in form and "Annonce d’Élodie" in form and "Annonce de Bob" in form
    bids = {elodie: 0, bob: 0, ann: 0}
    data = {"round": "1"} | {f"bid_{p.id}": "0" for p in bids}
    assert client.post(f"{url}/new", data=data).status_code == 302
    tricks = html(client.get(f"{url}/1/edit"))
    assert "Plis d’Ann" in tricks and "Plis d’Élodie" in tricks and "Plis de Bob" in tricks


def test_a_stake_running_out_is_told_elided_on_the_chart_and_the_evening_recap(client):
    group = create_group(client)
    ann, yves, bob = add_players(client, group, "Ann", "Yves", "Bob")
    game_id = _whist(client, group, [ann, yves, bob])  # Ann deals 5, 4, 3, 2… cards
    url = f"/g/{group.code}/games/{game_id}"
    for number, cards in enumerate((5, 4, 3, 2), start=1):
        bids = {"round": str(number)} | {f"bid_{p.id}": "0" for p in (ann, yves, bob)}
        assert client.post(f"{url}/rounds/new", data=bids).status_code == 302
        tricks = bids | {f"tricks_{ann.id}": str(cards), f"tricks_{yves.id}": "0", f"tricks_{bob.id}": "0"}
        r = client.post(f"{url}/rounds/{number}/edit", data=tricks)
        assert r.status_code == 302, html(r)
    page = html(client.get(url))
    assert "La mise d’Ann est épuisée à la donne 4." in page
    recap = re.search(r'href="(/g/[^"]+/evenings/[0-9-]+)"', page)
    assert recap
    assert "La mise d’Ann est épuisée à la donne 4." in html(client.get(recap.group(1)))


def test_the_putsch_of_the_trou_du_cul_elides(client):
    group = create_group(client)
    ann, bob, helene = add_players(client, group, "Ann", "Bob", "Hélène")
    game_id = _president(client, group, "president", [ann, bob, helene], rule_putsch="y")
    assert _manche(client, group, game_id, 1, [bob, ann, helene]).status_code == 302
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert "Putsch d’Hélène" in form and "de Hélène" not in form
    assert _manche(client, group, game_id, 2, [ann, helene, bob]).status_code == 302
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert "Putsch de Bob" in form


def test_whist_tricks_asked_of_a_player_elide(client):
    group = create_group(client)
    ann, yves, bob = add_players(client, group, "Ann", "Yves", "Bob")
    game_id = _whist(client, group, [ann, yves, bob])
    url = f"/g/{group.code}/games/{game_id}/rounds"
    bids = {"round": "1"} | {f"bid_{p.id}": "0" for p in (ann, yves, bob)}
    assert client.post(f"{url}/new", data=bids).status_code == 302
    page = html(client.post(f"{url}/1/edit", data=bids | {f"tricks_{bob.id}": "5"}))
    assert "Choisissez les plis d’Ann." in page and "Choisissez les plis d’Yves." in page


# ------------------------------------------------------------- counts and fragments


def test_the_new_game_pages_name_the_season_without_a_stray_fragment(client):
    group = create_group(client)
    add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    season = group.current_season.name
    for kind in ("crapouille", "president", "piketty", "whist-tarot"):
        page = _text(html(client.get(f"/g/{group.code}/games/new/{kind}")))
        assert f"Saison : {season}. Choisissez" in page, kind
        assert f"Dans {season}" not in page, kind


def test_a_deck_without_jokers_says_so_rather_than_0_jokers(client):
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _president(client, group, "piketty", players)
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert "aucun joker" in form and "0 jokers" not in form
    # The picker's script puts a card into this sentence, outside the elision helper:
    # the French is written so that no « de » meets the card (« A : il n’en reste plus »,
    # never « Plus de A »).
    assert 'data-none-left-card="{card}\u00a0: il n’en reste plus dans le jeu."' in form


def test_a_target_of_one_point_is_singular(client):
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _president(client, group, "president", players, target="1")
    page = _text(html(client.get(f"/g/{group.code}/games/{game_id}")))
    assert "Partie en 1 point" in page and "1 points" not in page


# ------------------------------------------------------------- each game's words


def test_the_group_page_counts_manches_and_donnes_by_kind(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    president = _president(client, group, "president", [ann, bob, cid])
    assert _manche(client, group, president, 1, [ann, bob]).status_code == 302
    crapouille = start_crapouille(client, group, [ann, bob])
    r = client.post(
        f"/g/{group.code}/games/{crapouille}/rounds/new",
        data={"round": "1", "winner": str(ann.id), f"total_{bob.id}": "5"},
    )
    assert r.status_code == 302, html(r)
    page = html(client.get(f"/g/{group.code}"))
    tiles = re.findall(r'<a class="tile".*?</a>', page, re.S)
    by_kind = {("Président" if "Président" in t else "crapouille"): _text(t) for t in tiles}
    assert "1 manche" in by_kind["Président"] and "donne" not in by_kind["Président"]
    assert "1 donne" in by_kind["crapouille"] and "manche" not in by_kind["crapouille"]


def test_a_finished_president_game_says_no_more_manches_and_follows_nothing_live(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _president(client, group, "president", [ann, bob, cid])
    assert _manche(client, group, game_id, 1, [ann, bob]).status_code == 302
    url = f"/g/{group.code}/games/{game_id}"
    version = db.session.get(Game, game_id).version
    assert client.post(f"{url}/finish", data={"version": str(version), "confirmed": "1"}).status_code == 302
    assert db.session.get(Game, game_id).status is GameStatus.FINISHED
    page = html(client.get(f"{url}/rounds/new", follow_redirects=True))
    assert "plus de manche à saisir" in page and "donne" not in _text(page)
    live = _text(html(client.get(f"{url}/live")))
    assert "il n’y a plus rien à suivre" in live
    assert "En direct : Manche" not in live and "Manche 2" not in live


def test_the_live_end_says_what_the_hand_decided_in_its_kinds_words(app):
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        page = render_template(
            "referee/live_end.html",
            family="crapouille",
            kind=KINDS["crapouille"],
            number=3,
            game=None,
            entry={"winner": "1"},
            names={"1": "Élodie"},
            round_url="/",
        )
    text = _text(page)
    assert "Ce que la donne 3 a décidé" in text and "manche" not in text
    assert "Saisir la donne 3" in text


def test_piketty_draw_is_le_tirage_and_the_first_manche_played_is_manche_1(client):
    group = create_group(client)
    ann, bob, cid, dan = players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _president(client, group, "piketty", players)
    url = f"/g/{group.code}/games/{game_id}"
    assert "Saisir le tirage" in html(client.get(url))
    raw = html(client.get(f"{url}/rounds/new"))
    form = _text(raw)
    assert "<h1>Le tirage</h1>" in raw and 'value="Enregistrer le tirage"' in raw
    assert "Manche 1" not in form and "Enregistrer la manche" not in raw
    r = _draw(client, group, game_id, {ann: "R♠", bob: "D♥", cid: "9♦", dan: "8♣"})
    assert r.status_code == 302, html(r)
    page = _text(html(client.get(url)))
    assert "Saisir la manche 1" in page and "Tirage saisi" in page and "Manche 1" not in page
    assert "Corriger le tirage" in page
    raw = html(client.get(f"{url}/rounds/new"))
    assert "<h1>Manche 1</h1>" in raw and 'value="Enregistrer la manche"' in raw
    assert _manche(client, group, game_id, 2, [ann, bob, cid]).status_code == 302
    page = html(client.get(url))
    text = _text(page)
    assert "Manche 1 saisie" in text and "Manche 2" not in text
    assert 'id="round-2"' in page  # the stored number stays: addresses and exports keep it
    assert "Saisir la manche 2" in text and "Supprimer la manche 1" in text
    # The chart of points: the draw is no manche, manche 1 is the first point after the start.
    chart = re.search(r'<table class="chart-data.*?</table>', page, re.S) or re.search(r"<table.*?</table>", page, re.S)
    assert chart and "Manche" in _text(chart.group(0))
    db.session.expire_all()
    assert [r.number for r in db.session.get(Game, game_id).rounds] == [1, 2]


def test_a_piketty_draw_deleted_and_restored_is_said_in_the_masculine(client):
    group = create_group(client)
    ann, bob, cid, dan = players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _president(client, group, "piketty", players)
    assert _draw(client, group, game_id, {ann: "R♠", bob: "D♥", cid: "9♦", dan: "8♣"}).status_code == 302
    url = f"/g/{group.code}/games/{game_id}"
    version = db.session.get(Game, game_id).version
    page = html(client.post(f"{url}/rounds/1/delete", data={"version": str(version)}))
    assert "Supprimer le tirage" in page
    page = html(
        client.post(f"{url}/rounds/1/delete", data={"version": str(version), "confirmed": "1"}, follow_redirects=True)
    )
    assert "Tirage supprimé" in _text(page) and "Tirage supprimée" not in _text(page)


# ------------------------------------------------------------- house rules, register, routes


def test_each_house_rule_reads_as_its_name_then_its_explanation(client):
    group = create_group(client)
    add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    for kind in ("president", "piketty"):
        page = html(client.get(f"/g/{group.code}/games/new/{kind}"))
        # Apart in the text itself, not only by the style sheet.
        raw = re.sub(r"<[^>]+>", "", page)
        assert re.search(r"Putsch\s+Le Trou du cul peut parier", raw), kind
        assert "PutschLe Trou" not in raw
        assert re.search(r'<span class="check-text"><label for="rule_putsch">Putsch</label>\s+<small', page)
    css = (ROOT / "static/style.css").read_text()
    assert ".field.check .check-text label, .field.check .check-text .hint { display: block; }" in css


_THOU = re.compile(r"(?<![\w’'-])(tu|toi|ton|ta|tes|t’)(?![\w’'-])", re.I)
_THOU_IMPERATIVE = re.compile(r"(?:^|[.!?:;]\s|«\s)(Choisis|Saisis|Tape|Rejoue|Mets|Regarde|Vérifie)\s")


def test_the_catalog_says_vous_never_tu():
    with (ROOT / "translations/fr/LC_MESSAGES/messages.po").open("rb") as f:
        catalog = read_po(f, locale="fr")
    thou = []
    for message in catalog:
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in strings:
            if _THOU.search(text) or _THOU_IMPERATIVE.search(text.replace("\u00a0", " ")):
                thou.append(text)
    assert thou == []


def test_no_module_translates_around_the_elision():
    """Every sentence goes through companion.i18n's gettext (elided in French), never
    Flask-Babel's own gettext or ngettext."""
    bypass = re.compile(r"^from flask_babel import .*\b(gettext|ngettext)\b", re.M)
    found = []
    for path in (ROOT / "companion").rglob("*.py"):
        if path.name == "i18n.py" and path.parent.name == "companion":
            continue
        for line in bypass.findall(path.read_text()):
            if line:
                found.append(str(path.relative_to(ROOT)))
    assert found == []


def test_every_kind_says_its_round_word():
    assert {k: kind.round_word for k, kind in KINDS.items()} == {
        "crapouille": "hand",
        "president": "round",
        "piketty": "round",
        "whist-tarot": "hand",
    }
    assert [kind.shown_number(2) for kind in KINDS.values()] == [2, 2, 1, 2]
    assert not KINDS["president"].is_draw(1) and KINDS["piketty"].is_draw(1)


def test_group_round_counts_leave_the_draw_out(client):
    group = create_group(client)
    ann, bob, cid, dan = players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _president(client, group, "piketty", players)
    assert _draw(client, group, game_id, {ann: "R♠", bob: "D♥", cid: "9♦", dan: "8♣"}).status_code == 302
    page = _text(html(client.get(f"/g/{group.code}")))
    assert "0 manche" in page
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1
