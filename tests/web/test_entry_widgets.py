"""The entry widgets through the pages: cards typed in the page's language, the card
values and the picker's data from the engine, the tap-to-order seating (and its
no-script fallback)."""

import json
import re
from html import unescape

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Game, Round
from companion.rules.cards import Card
from companion.rules.crapouille import card_points
from tests.helpers import add_players, create_group, html, start_crapouille


def _game(client, *names):
    group = create_group(client)
    players = add_players(client, group, *names)
    return group, players, start_crapouille(client, group, players)


def _hand(client, group, game_id, winner, **fields):
    data = {"round": "1", "winner": str(winner.id), **fields}
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def _english(client):
    client.set_cookie("lang", "en")


def _saved_round():
    return db.session.scalar(sa.select(Round))


# --- typed cards follow the page's language ----------------------------------------------


def test_a_french_page_reads_french_letters_and_stores_canonical_cards(client):
    group, (ann, bob, cid), game_id = _game(client, "Ann", "Bob", "Cid")
    r = _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8c Rp joker", f"cards_{cid.id}": "2t, vk"})
    assert r.status_code == 302, html(r)
    rnd = _saved_round()
    # « 8c » is the 8 de cœur, « Rp » the roi de pique, « vk » the valet de carreau.
    assert rnd.entry["hands"] == {str(bob.id): ["8h", "Ks", "RJ"], str(cid.id): ["2c", "Jd"]}
    assert rnd.result["points"] == {str(ann.id): 0, str(bob.id): 40, str(cid.id): 15}


def test_an_english_page_reads_english_letters(client):
    group, (ann, bob, cid), game_id = _game(client, "Ann", "Bob", "Cid")
    _english(client)
    r = _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8c Ks joker", f"cards_{cid.id}": "2h Jd"})
    assert r.status_code == 302, html(r)
    assert _saved_round().entry["hands"] == {str(bob.id): ["8c", "Ks", "RJ"], str(cid.id): ["2h", "Jd"]}


def test_what_the_picker_writes_is_read_on_its_page(client):
    group, (ann, bob), game_id = _game(client, "Ann", "Bob")
    assert _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8♥ V♠ Joker"}).status_code == 302
    assert _saved_round().entry["hands"] == {str(bob.id): ["8h", "Js", "RJ"]}


def test_what_the_picker_writes_is_read_on_an_english_page(client):
    group, (ann, bob), game_id = _game(client, "Ann", "Bob")
    _english(client)
    assert _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8♥ J♠ Joker"}).status_code == 302
    assert _saved_round().entry["hands"] == {str(bob.id): ["8h", "Js", "RJ"]}


def test_other_letters_are_refused_in_french_with_how_to_write_the_card(client):
    group, (ann, bob), game_id = _game(client, "Ann", "Bob")
    r = _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8C 8h"})
    assert r.status_code == 200
    page = html(r)
    assert "Carte inconnue : « 8h » (8 de cœur : 8C ou 8♥)." in page
    assert 'value="8C 8h"' in page  # what was typed is kept
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0


def test_french_letters_are_refused_in_english_with_how_to_write_the_card(client):
    group, (ann, bob), game_id = _game(client, "Ann", "Bob")
    _english(client)
    r = _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "Rp"})
    assert r.status_code == 200
    assert "Unknown card: 'Rp' (king of spades: Ks or K♠)." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0


def test_a_card_error_is_the_description_of_its_field(client):
    group, (ann, bob), game_id = _game(client, "Ann", "Bob")
    page = html(_hand(client, group, game_id, ann, **{f"cards_{bob.id}": "zz"}))
    field = re.search(rf'<input[^>]*name="cards_{bob.id}"[^>]*>', page).group(0)
    assert 'aria-invalid="true"' in field
    described = re.search(r'aria-describedby="([^"]+)"', field).group(1)
    assert f'id="{described}"' in page and "Carte inconnue : « zz »" in page


def test_the_deck_still_counts_across_hands_in_both_notations(client):
    group, (ann, bob, cid), game_id = _game(client, "Ann", "Bob", "Cid")
    r = _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8c 8♥", f"cards_{cid.id}": "8C"})
    assert "Il n’y a que deux 8♥ dans le jeu." in html(r)


# --- the hand page: placeholder, values and the picker's data from the engine ------------


def _picker(page):
    raw = re.search(r'data-picker="([^"]+)"', page).group(1)
    return json.loads(unescape(raw))


def _hand_page(client, group, game_id):
    """The hand page's HTML as sent (attributes still escaped)."""
    r = client.get(f"/g/{group.code}/games/{game_id}/rounds/new")
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_the_hand_page_speaks_the_page_language(client):
    group, (_ann, bob), game_id = _game(client, "Ann", "Bob")
    page = _hand_page(client, group, game_id)
    assert f'name="cards_{bob.id}"' in page and 'placeholder="8C RP 10♦ Joker"' in page
    picker = _picker(page)
    assert picker["read"]["suits"]["C"] == "h" and picker["read"]["ranks"]["R"] == "K"
    assert "S" not in picker["read"]["suits"] and "J" not in picker["read"]["ranks"]
    assert [label for _code, label in picker["ranks"]][-3:] == ["V", "D", "R"]
    _english(client)
    page = _hand_page(client, group, game_id)
    assert 'placeholder="8h Ks 10♦ Joker"' in page
    picker = _picker(page)
    assert picker["read"]["suits"]["C"] == "c" and picker["read"]["ranks"]["K"] == "K"
    assert [label for _code, label in picker["ranks"]][-3:] == ["J", "Q", "K"]


def test_the_card_values_come_from_the_engine(client):
    group, _players, game_id = _game(client, "Ann", "Bob")
    page = _hand_page(client, group, game_id)
    for cards, points in [("8", 20), ("Joker", 15), ("2", 10), ("V D R", 5), ("A", 1)]:
        assert f"<div><dt>{cards}</dt><dd>{points}</dd></div>" in page
    points = _picker(page)["points"]
    assert points["joker"] == card_points(Card.parse("RJ"))
    for rank in ["A", "2", "5", "8", "10", "J", "Q", "K"]:
        assert points[rank] == card_points(Card.parse(rank + "s"))


def test_the_hand_page_has_no_inline_script_style_or_handler(client):
    group, _players, game_id = _game(client, "Ann", "Bob")
    for page in (_hand_page(client, group, game_id), html(client.get(f"/g/{group.code}/games/new/crapouille"))):
        assert not re.search(r"<script(?![^>]*\bsrc=)", page)
        assert not re.search(r"\sstyle=", page) and "<style" not in page
        assert not re.search(r"\son[a-z]+=", page)
        assert "/static/widgets.css" in page


# --- seating by taps, on top of one select per seat ---------------------------------------


def test_the_new_game_page_offers_taps_over_the_selects(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    page = html(client.get(f"/g/{group.code}/games/new/crapouille"))
    assert "/static/tap-order.js" in page
    # The taps are hidden until the script shows them; the selects are the form without it.
    assert re.search(r'<div class="tap-order-taps" hidden>', page)
    for p in (ann, bob, cid):
        assert f'data-value="{p.id}"' in page
    for i in range(3):
        assert f'<select id="seats-{i}" name="seats-{i}"' in page or f'name="seats-{i}"' in page
    assert "Place 1" in page and "Place 3" in page


def test_the_tap_to_order_list_offers_to_swap_two_players_in_the_pages_words(client):
    """« Échanger deux joueurs » is the widget's own (every page drawing it has it): a
    toggle hidden until the script shows it, its words for the script in data-
    attributes, what happens said in a live region; without script the fields stay."""
    group = create_group(client)
    add_players(client, group, "Ann", "Bob", "Cid")
    page = html(client.get(f"/g/{group.code}/games/new/crapouille"))
    taps = page[page.index('<div class="tap-order-taps" hidden>') : page.index("tap-order-fallback")]
    button = re.search(r'<button type="button" class="tap-order-swap"[^>]*>', taps)
    assert button and 'aria-pressed="false"' in button.group(0) and " hidden" in button.group(0)
    assert "Échanger deux joueurs</button>" in taps
    assert 'data-second="Échanger {name} avec\u00a0: touchez un autre nom."' in taps
    assert 'data-swapped="{a} et {b} ont échangé leur place."' in taps
    assert '<p class="tap-order-said hint" aria-live="polite"></p>' in taps
    assert 'name="seats-0"' in page  # the plain fields, the form without script


def test_the_selects_still_start_a_game_in_seat_order(client):
    group = create_group(client)
    ann, _bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    r = client.post(
        f"/g/{group.code}/games/new/crapouille",
        data={"seats-0": str(cid.id), "seats-1": "", "seats-2": str(ann.id)},
    )
    assert r.status_code == 302
    game = db.session.scalar(sa.select(Game))
    assert [p.name for p in game.players] == ["Cid", "Ann"]


def test_seating_errors_stay_next_to_the_widget(client):
    group = create_group(client)
    ann, _bob = add_players(client, group, "Ann", "Bob")
    r = client.post(f"/g/{group.code}/games/new/crapouille", data={"seats-0": str(ann.id)})
    page = html(r)
    assert r.status_code == 200 and "Il faut au moins 2 joueurs." in page
    fieldset = page[page.index("data-tap-order") : page.index("tap-order-taps")]
    assert "Il faut au moins 2 joueurs." in fieldset
    # What was chosen comes back in the selects, which the script reads.
    assert f'<option selected value="{ann.id}">' in page or f'value="{ann.id}" selected' in page


def _dangling_references(page):
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    refs = re.findall(r'aria-(?:describedby|labelledby|controls)="([^"]*)"', page)
    return [ref for value in refs for ref in value.split() if ref not in ids]


def test_every_aria_reference_names_an_element_of_the_page(client):
    group, (ann, bob, cid), game_id = _game(client, "Ann", "Bob", "Cid")
    pages = [
        _hand_page(client, group, game_id),
        _hand(client, group, game_id, ann, **{f"cards_{bob.id}": "8h", f"total_{cid.id}": "x"}).get_data(as_text=True),
        client.get(f"/g/{group.code}/games/new/crapouille").get_data(as_text=True),
        client.post(f"/g/{group.code}/games/new/crapouille", data={"seats-0": str(ann.id)}).get_data(as_text=True),
    ]
    for page in pages:
        assert 'aria-describedby="None"' not in page
        assert _dangling_references(page) == []
    assert 'aria-describedby="cards_' in pages[1] and 'aria-describedby="total_' in pages[1]
