"""A line a table can trust, through the pages: « moi » is the player this device says
it is (said once after joining, « Qui êtes-vous ? », or on the devices page), and is
asked, with where to say it, on a device of no one; what the form refuses of what a line
filled is said in the read-back in the engine's words (the dealer's forbidden bid, a bid
above the cards dealt, a total below zero), and what the line changed or left unsaid is
said too; the microphone is allowed to the round forms only."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.games.kinds import KINDS
from companion.games.state import stored_state
from companion.models import Device, Game, Round
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille

EN = {"Accept-Language": "en"}
PASSPHRASE = "dix de carreau"


def _line(client: FlaskClient, group, game_id: int, q: str, number: int = 1, **headers: str) -> dict:
    answer = client.get(f"/g/{group.code}/games/{game_id}/rounds/{number}/line", query_string={"q": q}, headers=headers)
    assert answer.status_code == 200, answer.data
    return answer.get_json()


def _whist(client: FlaskClient, group, players) -> int:
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    r = client.post(f"/g/{group.code}/games/new/whist-tarot", data=data)
    return int(r.headers["Location"].rsplit("/", 1)[-1])


def _join(app: Flask, group, name: str) -> tuple[FlaskClient, str]:
    phone = app.test_client()
    joined = phone.post("/join", data={"code": group.code, "passphrase": PASSPHRASE, "device_name": name})
    assert joined.status_code == 302, html(joined)
    return phone, joined.headers["Location"]


# --- « moi »


def test_after_joining_a_device_is_asked_once_who_it_is_and_moi_is_that_player(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    bobs, where = _join(app, group, "téléphone de Bob")
    # Offered once, right after joining, then on to the group.
    assert where.startswith(f"/g/{group.code}/me?next=")
    page = html(bobs.get(where))
    assert "Qui êtes-vous\u00a0?" in page and "Personne de cette liste" in page
    chosen = bobs.post(where, data={"player": str(bob.id)})
    assert chosen.status_code == 302 and chosen.headers["Location"] == f"/g/{group.code}"
    # « moi », « je », « j’ai » are Bob on this phone.
    for said in ("moi je sors ; Ann 4 ; Cid 9", "j’ai fini ; Ann 4 ; Cid 9"):
        body = _line(bobs, group, game_id, said)
        assert body["fields"]["winner"] == str(bob.id), said
        assert body["questions"] == []
    # On another phone, « moi » is that phone's player.
    anns, where = _join(app, group, "Ann")
    assert anns.post(where, data={"player": str(ann.id)}).status_code == 302
    assert _line(anns, group, game_id, "moi je sors ; Bob 4 ; Cid 9")["fields"]["winner"] == str(ann.id)
    # The devices page says whose this device is, and can change it.
    assert "Cet appareil est celui de Bob" in html(bobs.get(f"/g/{group.code}/devices"))


def test_moi_on_a_device_of_no_one_is_asked_with_where_to_say_it(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    # Named after Bob, yet it never said it was Bob: « moi » is asked, never guessed.
    bobs, where = _join(app, group, "Bob")
    offered = html(bobs.get(where))
    assert re.search(rf'<input checked[^>]*value="{bob.id}"', offered)  # offered, pre-chosen by its name
    body = _line(bobs, group, game_id, "moi je sors ; Ann 4 ; Cid 9")
    assert "winner" not in body["fields"]
    assert body["questions"][0] == "Qui est «\u00a0moi\u00a0» sur ce téléphone\u00a0?"
    assert f'href="/g/{group.code}/me?next=' in body["html"]
    assert body["fields"] == {f"total_{ann.id}": "4", f"total_{cid.id}": "9"}
    # Without script, the read-back page asks the same, and links back to this form.
    page = html(
        bobs.post(
            f"/g/{group.code}/games/{game_id}/rounds/new", data={"round": "1", "line": "moi je sors", "read": "1"}
        )
    )
    assert "sur ce téléphone" in page and f"/g/{group.code}/me?next=/g/{group.code}/games/{game_id}/rounds/new" in page
    # « Personne de cette liste »: still asked.
    assert bobs.post(where, data={"player": ""}).status_code == 302
    db.session.expire_all()
    assert db.session.scalar(sa.select(Device.player_id).where(Device.name == "Bob")) is None
    # A player who does not play this game is no « moi » here either.
    dan = add_players(client, group, "Dan")[0]
    assert bobs.post(where, data={"player": str(dan.id)}).status_code == 302
    assert "winner" not in _line(bobs, group, game_id, "moi je sors")["fields"]


def test_who_are_you_refuses_what_is_no_player_of_the_group(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    (ann,) = add_players(client, group, "Ann")
    other = create_group(app.test_client(), name="Les Autres", passphrase=PASSPHRASE)
    stranger_player = add_players(app.test_client(), other, "Zed") if False else []
    del stranger_player
    phone, where = _join(app, group, "phone")
    for bad in ("999999", "abc", "1e3", "\x00"):
        answer = phone.post(where, data={"player": bad})
        assert answer.status_code in (400, 404), bad
        if answer.status_code == 400:
            assert "Choisissez" in html(answer) or "caractère" in html(answer)
    db.session.expire_all()
    assert db.session.scalar(sa.select(Device.player_id).where(Device.name == "phone")) is None
    # A group with no player yet asks no one after joining.
    empty = create_group(app.test_client(), name="Vide", passphrase=PASSPHRASE)
    newcomer = app.test_client()
    joined = newcomer.post("/join", data={"code": empty.code, "passphrase": PASSPHRASE, "device_name": "x"})
    assert joined.headers["Location"] == f"/g/{empty.code}"
    del ann


# --- what the form refuses, in the read-back


def test_the_dealers_forbidden_bid_and_a_bid_above_the_cards_are_said_as_the_engine_says_them(
    client: FlaskClient,
) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _whist(client, group, [ann, bob, cid])
    # seed 002: Ann deals 5 cards; Bob and Cid bid 2 each: Ann may not bid 1.
    body = _line(client, group, game_id, "annonces : Bob 2, Cid deux, Ann un")
    assert body["fields"][f"bid_{ann.id}"] == "1"  # filled as said…
    assert any(r.startswith("Ann donne et ne peut pas annoncer 1") for r in body["refused"]), body  # …and flagged
    assert 'class="line-refused"' in body["html"]
    # A bid above the cards dealt: filled, and said.
    body = _line(client, group, game_id, "Bob 7, Cid 0, Ann 0")
    assert body["fields"][f"bid_{bob.id}"] == "7"
    assert body["refused"] == ["Bob\u00a0: on annonce de 0 à 5 plis."]  # the engine's words
    # Nothing refused when nothing is wrong; a partial line's missing bids are « rien dit », not refused.
    body = _line(client, group, game_id, "Bob 2")
    assert body["refused"] == [] and "Cid\u00a0: rien dit." in body["notes"]
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0


def test_a_total_below_zero_is_filled_as_said_and_refused_in_words(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    body = _line(client, group, game_id, "Ann sort ; Bob -5 ; Cid moins 3")
    assert body["fields"][f"total_{bob.id}"] == "-5" and body["fields"][f"total_{cid.id}"] == "-3"
    assert len(body["refused"]) == 2 and all("0" in r for r in body["refused"])
    assert body["refused"][0].startswith("Bob\u00a0:")


def test_a_number_the_form_refuses_is_filled_as_said_and_refused_in_words(client: FlaskClient) -> None:
    # A hundred and one digits: filled as said (never cut), and the form's refusal said at once.
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    huge = "1" + "0" * 100
    body = _line(client, group, game_id, f"Ann sort ; Bob {huge} ; Cid 3")
    assert body["fields"][f"total_{bob.id}"] == huge and body["fields"][f"total_{cid.id}"] == "3"
    assert len(body["refused"]) == 1 and body["refused"][0].startswith("Bob\u00a0:")
    assert 'class="line-refused"' in body["html"]


def test_who_dealt_changes_only_when_the_line_says_so_and_the_read_back_says_it(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    # « Ann a gagné la donne »: a hand won, no word of dealing.
    body = _line(client, group, game_id, "Ann a gagné la donne, Bob 10, Cid 4")
    assert "dealer" not in body["fields"] and body["fields"]["winner"] == str(ann.id)
    body = _line(client, group, game_id, "Ann sort, Bob 10, Cid 4, Cid a distribué")
    assert body["fields"]["dealer"] == str(cid.id)
    assert "Distribué par Cid, d’après la phrase." in body["notes"]


def test_the_round_pages_show_an_example_with_the_games_players_and_the_forms_order(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _whist(client, group, [ann, bob, cid])
    page = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    # Ann deals: Bob bids first.
    assert "Par exemple\u00a0: annonces\u00a0: Bob 2, Cid 1, Ann 0" in page
    assert "Les nombres seuls se lisent dans cet ordre\u00a0: Bob, Cid, Ann." in page
    english = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert "For example: bids: Bob 2, Cid 1, Ann 0" in english
    # Numbers alone fill the bids in that order, said in the read-back.
    body = _line(client, group, game_id, "2, 1, 1")
    assert body["fields"] == {f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "1"}
    assert any("Bob, Cid, Ann" in n for n in body["notes"])
    crapouille = start_crapouille(client, group, [ann, bob, cid])
    page = html(client.get(f"/g/{group.code}/games/{crapouille}/rounds/new"))
    assert "Ann sort\u00a0; Bob 12\u00a0; Cid huit de cœur et un joker" in page


@pytest.mark.parametrize("where", ["new", "1/edit"])
def test_the_microphone_is_allowed_to_the_round_forms_only(client: FlaskClient, where: str) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    if where != "new":
        data = {"round": "1", "winner": str(ann.id), f"total_{bob.id}": "1", f"total_{cid.id}": "2"}
        assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    form = client.get(f"/g/{group.code}/games/{game_id}/rounds/{where}")
    assert "microphone=(self)" in form.headers["Permissions-Policy"]
    for other in (f"/g/{group.code}", f"/g/{group.code}/games/{game_id}", "/"):
        assert "microphone=()" in client.get(other).headers["Permissions-Policy"], other


def test_the_line_endpoint_judges_in_a_fixed_number_of_queries(client: FlaskClient) -> None:
    """The same line of a deal whose bids are in (read with its bids, judged as its
    tricks), on the first deal and after four: as many queries."""
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _whist(client, group, [ann, bob, cid])
    game = db.session.get(Game, game_id)
    counted = []
    for n in range(1, 6):
        db.session.expire_all()
        cards = stored_state(KINDS["whist-tarot"], game)["deal"]["cards"]
        bids = {"round": str(n), f"bid_{ann.id}": "0", f"bid_{bob.id}": "0", f"bid_{cid.id}": "0"}
        r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=bids)
        assert r.status_code == 302, html(r)
        if n in (1, 5):
            with count_queries() as queries:
                body = _line(client, group, game_id, "Bob 9, Cid 0, Ann 0", number=n)
            assert body["fields"] == {f"tricks_{bob.id}": "9", f"tricks_{cid.id}": "0", f"tricks_{ann.id}": "0"}
            assert body["refused"], body  # more tricks than cards: said
            counted.append(len(queries))
        taker = (ann, bob, cid)[n % 3]  # who loses the deal's cards from their stake, in turn
        tricks = {**bids, **{f"tricks_{p.id}": str(cards if p is taker else 0) for p in (ann, bob, cid)}}
        r = client.post(f"/g/{group.code}/games/{game_id}/rounds/{n}/edit", data=tricks)
        assert r.status_code == 302, html(r)
    assert counted[0] == counted[1]


def test_tricks_said_on_the_bids_page_are_asked_never_dropped_unseen(client: FlaskClient) -> None:
    """The bids' page shows no field for the tricks: tricks said there are asked about,
    not filled where nothing shows them."""
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = _whist(client, group, [ann, bob, cid])
    body = _line(client, group, game_id, "plis : Bob 2, Cid 1, Ann 0")
    assert body["fields"] == {}
    assert body["questions"] == ["Les plis se disent une fois les annonces enregistrées\u00a0: annonces\u00a0?"]
    # Once the bids are in, the same line fills the tricks.
    bids = {"round": "1", f"bid_{ann.id}": "0", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1"}
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=bids).status_code == 302
    body = _line(client, group, game_id, "plis : Bob 2, Cid 1, Ann 0")
    assert body["fields"] == {f"tricks_{bob.id}": "2", f"tricks_{cid.id}": "1", f"tricks_{ann.id}": "0"}
