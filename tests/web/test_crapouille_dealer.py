"""La crapouille's dealer through the pages (issue 27): chosen at set-up, passed to the
left each hand skipping players who are out, said on the game page and the hand form,
recorded in each hand (and corrected with it), and changed by hand after a misdeal.

# seed 003: « On joue dans le sens des aiguilles d'une montre. Le donneur distribue cinq cartes
# à chacun […]. Chaque joueur à son tour, en commençant par le joueur à gauche du donneur »
"""

from __future__ import annotations

import json
import re

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Game, GameChange, Round
from tests.helpers import add_players, create_group, html
from tests.web.test_transfer import upload

NBSP = "\u00a0"


def _game(game_id: int) -> Game:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return game


def _start(client, group, players, dealer=None) -> int:
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    if dealer is not None:
        data["dealer"] = str(dealer.id)
    response = client.post(f"/g/{group.code}/games/new/crapouille", data=data)
    assert response.status_code == 302, html(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def _hand(client, group, game_id, number, winner, dealer=None, **totals):
    """Hand ``number``: ``winner`` went out, the others' totals (``totals``: name → points)."""
    game = _game(game_id)
    by_name = {p.name: p for p in game.players}
    data = {"round": str(number), "version": str(game.version), "winner": str(winner.id)}
    if dealer is not None:
        data["dealer"] = str(dealer.id)
    data.update({f"total_{by_name[name].id}": str(points) for name, points in totals.items()})
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def _change(client, group, game_id, dealer_id, version=None):
    version = _game(game_id).version if version is None else version
    return client.post(
        f"/g/{group.code}/games/{game_id}/dealer", data={"dealer": str(dealer_id), "version": str(version)}
    )


def _turn(dealer: str, starter: str) -> str:
    """What the game page and the hand form say of the hand to come."""
    return f"<strong>Distribue{NBSP}: {dealer}</strong> · <strong>Commence{NBSP}: {starter}</strong>"


def _prefilled(page: str) -> str | None:
    """The dealer checked on a hand form (a player id)."""
    found = re.findall(r'<input checked id="dealer-\d+" name="dealer"[^>]* type="radio" value="(\d+)">', page)
    assert len(found) <= 1
    return found[0] if found else None


def _table(client, *names):
    group = create_group(client)
    return group, add_players(client, group, *names)


# --------------------------------------------------------------- set-up


def test_the_first_dealer_is_chosen_at_set_up_the_first_seat_by_default(client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    page = html(client.get(f"/g/{group.code}/games/new/crapouille"))
    assert f"Qui donne en premier{NBSP}?" in page and "Sans choix, la place 1 donne." in page
    default = _start(client, group, [bob, cid, ann])
    assert _game(default).setup == {"dealer": str(bob.id)}
    assert _turn("Bob", "Cid") in html(client.get(f"/g/{group.code}/games/{default}"))
    chosen = _start(client, group, [bob, cid, ann], dealer=ann)
    assert _game(chosen).setup == {"dealer": str(ann.id)}
    # seed 003: the player on the dealer's left (the next seat, round the table) starts.
    assert _turn("Ann", "Bob") in html(client.get(f"/g/{group.code}/games/{chosen}"))
    # A first dealer who does not play is refused.
    dan = add_players(client, group, "Dan")[0]
    data = {"seats-0": str(ann.id), "seats-1": str(bob.id), "dealer": str(dan.id)}
    response = client.post(f"/g/{group.code}/games/new/crapouille", data=data)
    assert response.status_code == 200
    assert "La première personne à donner doit jouer dans cette partie." in html(response)


# --------------------------------------------------------------- the rotation


def test_the_deal_passes_to_the_left_hand_after_hand_skipping_players_out(client):
    group, (ann, bob, cid, dan) = _table(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(client, group, [ann, bob, cid, dan])
    url = f"/g/{group.code}/games/{game_id}"

    form = html(client.get(f"{url}/rounds/new"))
    assert _prefilled(form) == str(ann.id) and _turn("Ann", "Bob") in form
    # Hand 1, dealt by Ann (as the form says: sent as pre-filled): Bob goes past 300.
    assert _hand(client, group, game_id, 1, ann, dealer=ann, Bob=301, Cid=10, Dan=10).status_code == 302
    # Bob, on Ann's left, is out: Cid deals, Dan starts.
    assert _turn("Cid", "Dan") in html(client.get(url))
    form = html(client.get(f"{url}/rounds/new"))
    assert _prefilled(form) == str(cid.id) and _turn("Cid", "Dan") in form
    # A player out does not deal.
    assert re.findall(r'<input [^>]*name="dealer"[^>]* type="radio" value="(\d+)">', form) == [
        str(ann.id),
        str(cid.id),
        str(dan.id),
    ]
    # Bob, out, cannot have dealt hand 2 (the form offers him not): nothing saved.
    refused = _hand(client, group, game_id, 2, ann, dealer=bob, Cid=300, Dan=0)
    assert refused.status_code == 200 and 'href="#dealer"' in html(refused)
    assert db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.game_id == game_id)) == 1
    # Hand 2, dealt by Cid, who goes out himself: the deal still passes to his left.
    assert _hand(client, group, game_id, 2, ann, dealer=cid, Cid=300, Dan=0).status_code == 302
    assert _turn("Dan", "Ann") in html(client.get(url))
    # Hand 3, dealt by Dan (a form sent without the field keeps the pre-filled dealer).
    assert _hand(client, group, game_id, 3, dan, Ann=5).status_code == 302
    assert _turn("Ann", "Dan") in html(client.get(url))

    rounds = db.session.scalars(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number)).all()
    assert [r.entry["dealer"] for r in rounds] == [str(ann.id), str(cid.id), str(dan.id)]
    assert [(r.result["dealer"], r.result["starter"], r.result["hand"]) for r in rounds] == [
        (str(cid.id), str(dan.id), 2),
        (str(dan.id), str(ann.id), 3),
        (str(ann.id), str(dan.id), 4),
    ]
    # The game over, nobody deals: the page says no dealer.
    assert _hand(client, group, game_id, 4, ann, Dan=400).status_code == 302
    page = html(client.get(url))
    assert f"Distribue{NBSP}:" not in page and "Confier la donne" not in page
    last = db.session.scalar(sa.select(Round).where(Round.game_id == game_id, Round.number == 4))
    assert last.result["dealer"] is None and last.result["starter"] is None


def test_a_hand_dealt_by_someone_else_moves_the_rotation_on_from_them(client):
    group, (ann, bob, cid, dan) = _table(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(client, group, [ann, bob, cid, dan])
    # The form offers Ann; Cid dealt in fact: the deal goes on from Cid.
    assert _hand(client, group, game_id, 1, ann, dealer=cid, Bob=1, Cid=2, Dan=3).status_code == 302
    assert _turn("Dan", "Ann") in html(client.get(f"/g/{group.code}/games/{game_id}"))
    # A dealer out of the game is refused next to the field, and nothing is saved.
    assert _hand(client, group, game_id, 2, ann, Bob=400, Cid=2, Dan=3).status_code == 302
    response = _hand(client, group, game_id, 3, ann, dealer=bob, Cid=2, Dan=3)
    assert response.status_code == 200 and "N’est pas un choix valide." in html(response)
    assert db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.game_id == game_id)) == 2


def test_correcting_a_hands_dealer_rescores_who_deals_next(client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    url = f"/g/{group.code}/games/{game_id}"
    assert _hand(client, group, game_id, 1, ann, dealer=ann, Bob=1, Cid=2).status_code == 302
    assert _hand(client, group, game_id, 2, ann, dealer=bob, Bob=1, Cid=2).status_code == 302
    assert _turn("Cid", "Ann") in html(client.get(url))
    # The correction form of hand 2 shows the dealer it was entered with.
    form = html(client.get(f"{url}/rounds/2/edit"))
    assert _prefilled(form) == str(bob.id) and _turn("Bob", "Cid") in form
    game = _game(game_id)
    data = {
        "round": "2",
        "version": str(game.version),
        "winner": str(ann.id),
        "dealer": str(cid.id),
        f"total_{bob.id}": "1",
        f"total_{cid.id}": "2",
    }
    assert client.post(f"{url}/rounds/2/edit", data=data).status_code == 302
    # Cid dealt hand 2: Ann deals hand 3, Bob starts.
    assert _turn("Ann", "Bob") in html(client.get(url))
    # Correcting hand 1 rescores the state after it; hand 2 keeps the dealer it was given.
    data.update({"round": "1", "version": str(_game(game_id).version), "dealer": str(cid.id)})
    assert client.post(f"{url}/rounds/1/edit", data=data).status_code == 302
    first, second = db.session.scalars(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number)).all()
    assert (first.result["dealer"], first.result["starter"]) == (str(ann.id), str(bob.id))
    assert second.entry["dealer"] == str(cid.id) and second.result["dealer"] == str(ann.id)


# --------------------------------------------------------------- the dealer changed by hand


def test_the_table_gives_the_deal_to_someone_else_after_a_misdeal(client):
    group, (ann, bob, cid, dan) = _table(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(client, group, [ann, bob, cid, dan])
    url = f"/g/{group.code}/games/{game_id}"
    page = html(client.get(url))
    assert "Confier la donne" in page and f'action="/g/{group.code}/games/{game_id}/dealer"' in page
    before = _game(game_id).version

    response = _change(client, group, game_id, cid.id)
    assert response.status_code == 302
    page = html(client.get(url))
    assert "Donne confiée à Cid." in page
    assert _turn("Cid", "Dan") in page
    assert "Donne confiée à Cid au lieu d’Ann" in page  # in the game's history
    game = _game(game_id)
    assert game.version == before + 1
    assert game.setup == {"dealer": str(ann.id), "next_dealer": {"number": 1, "dealer": str(cid.id)}}
    change = db.session.scalar(sa.select(GameChange).where(GameChange.game_id == game_id))
    assert (change.kind, change.round_number, change.version) == ("dealer_changed", 1, before + 1)
    assert change.data == {"number": 1, "from": str(ann.id), "to": str(cid.id)}

    # The hand form offers the dealer the table chose; the rotation goes on from them.
    form = html(client.get(f"{url}/rounds/new"))
    assert _prefilled(form) == str(cid.id) and _turn("Cid", "Dan") in form
    assert _hand(client, group, game_id, 1, ann, dealer=cid, Bob=1, Cid=2, Dan=3).status_code == 302
    # The change was for hand 1 only: hand 2 goes to Cid's left.
    assert _turn("Dan", "Ann") in html(client.get(url))
    assert _prefilled(html(client.get(f"{url}/rounds/new"))) == str(dan.id)


def test_a_stale_page_changes_nothing_and_the_same_change_sent_twice_changes_once(client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    url = f"/g/{group.code}/games/{game_id}"
    shown = _game(game_id).version
    assert _hand(client, group, game_id, 1, ann, Bob=1, Cid=2).status_code == 302
    # A page shown before hand 1 was saved: nothing changes.
    response = _change(client, group, game_id, cid.id, version=shown)
    assert response.status_code == 302
    assert "La donne n’a pas été confiée" + NBSP + ": la partie a changé entre-temps. Rien n’a été modifié." in html(
        client.get(url)
    )
    game = _game(game_id)
    assert game.version == shown + 1 and "next_dealer" not in game.setup
    # Sent twice (a double tap, the phone's outbox): changed once.
    version = game.version
    assert _change(client, group, game_id, ann.id, version=version).status_code == 302
    assert _change(client, group, game_id, ann.id, version=version).status_code == 302
    assert "Donne confiée à Ann." in html(client.get(url))
    assert _game(game_id).version == version + 1
    kinds = db.session.scalars(sa.select(GameChange.kind).where(GameChange.game_id == game_id)).all()
    assert kinds.count("dealer_changed") == 1
    # The dealer already dealing: nothing to change.
    _change(client, group, game_id, ann.id)
    assert "Ann donne déjà." in html(client.get(url))
    assert _game(game_id).version == version + 1


def test_only_a_player_still_in_can_be_given_the_deal(client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    stranger = add_players(client, group, "Zoé")[0]
    game_id = _start(client, group, [ann, bob, cid])
    url = f"/g/{group.code}/games/{game_id}"
    assert _hand(client, group, game_id, 1, ann, Bob=350, Cid=2).status_code == 302
    version = _game(game_id).version
    _change(client, group, game_id, bob.id)
    assert f"Bob est hors jeu{NBSP}: seule une personne encore en jeu peut donner." in html(client.get(url))
    _change(client, group, game_id, stranger.id)
    assert "Choisissez un joueur de cette partie." in html(client.get(url))
    game = _game(game_id)
    assert game.version == version and "next_dealer" not in game.setup
    # The select offers the players still in only.
    page = html(client.get(url))
    select = re.search(r'<select name="dealer" id="next-dealer">(.*?)</select>', page, re.S)
    assert select is not None
    assert re.findall(r'<option value="(\d+)"', select.group(1)) == [str(ann.id), str(cid.id)]


def test_another_groups_device_gets_a_404_and_so_does_a_kind_whose_dealer_is_not_changed(app, client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    neighbour = app.test_client()
    theirs = create_group(neighbour, "Les Voisins")
    version = _game(game_id).version
    data = {"dealer": str(bob.id), "version": str(version)}
    # Through their own group, our game is not to be found; our group is not theirs (as
    # for every write to a game: companion.membership.access).
    assert neighbour.post(f"/g/{theirs.code}/games/{game_id}/dealer", data=data).status_code == 404
    assert neighbour.post(f"/g/{group.code}/games/{game_id}/dealer", data=data).status_code == 403
    assert _game(game_id).version == version and "next_dealer" not in _game(game_id).setup
    # Whist says who deals by its own rules: no dealer is changed by hand there.
    data = {"seats-0": str(ann.id), "seats-1": str(bob.id), "seats-2": str(cid.id)}
    response = client.post(f"/g/{group.code}/games/new/whist-tarot", data=data)
    assert response.status_code == 302
    whist_id = int(response.headers["Location"].rsplit("/", 1)[1])
    response = client.post(f"/g/{group.code}/games/{whist_id}/dealer", data={"dealer": str(bob.id), "version": "0"})
    assert response.status_code == 404


# --------------------------------------------------------------- export and import


def test_the_hands_dealers_go_through_an_export_and_an_import(client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid], dealer=cid)
    assert _hand(client, group, game_id, 1, ann, dealer=bob, Bob=1, Cid=2).status_code == 302
    assert _hand(client, group, game_id, 2, ann, Bob=400, Cid=2).status_code == 302
    assert _hand(client, group, game_id, 3, cid, Ann=7).status_code == 302
    exported = json.loads(client.get(f"/g/{group.code}/export.json").get_data())
    (game,) = exported["games"]
    assert game["setup"] == {"dealer": str(cid.id)}
    assert [r["entry"]["dealer"] for r in game["rounds"]] == [str(bob.id), str(cid.id), str(ann.id)]

    # Hand 3 given to Bob, out since hand 2: not a hand the app writes, the file is refused.
    tampered = json.loads(json.dumps(exported))
    tampered["games"][0]["rounds"][2]["entry"]["dealer"] = str(bob.id)
    response = upload(client, json.dumps(tampered).encode(), name="Copie")
    assert response.status_code == 400
    assert "ce qui a été saisi ne peut pas être compté" in html(response)

    response = upload(client, json.dumps(exported).encode(), name="Copie")
    assert response.status_code == 302, html(response)[-2000:]
    copy = db.session.scalar(sa.select(Game).where(Game.id != game_id, Game.kind == "crapouille"))
    assert copy is not None
    rounds = db.session.scalars(sa.select(Round).where(Round.game_id == copy.id).order_by(Round.number)).all()
    names = {str(p.id): p.name for p in copy.players}
    assert [names[r.entry["dealer"]] for r in rounds] == ["Bob", "Cid", "Ann"]
    assert names[copy.setup["dealer"]] == "Cid"
    assert names[rounds[-1].result["dealer"]] == "Cid"  # Ann dealt hand 3: Cid deals hand 4


# --------------------------------------------------------------- hands stored before dealers were kept


def test_a_game_whose_hands_were_stored_before_dealers_asks_who_dealt_then_follows_the_rotation(client):
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    url = f"/g/{group.code}/games/{game_id}"
    assert _hand(client, group, game_id, 1, ann, Bob=1, Cid=2).status_code == 302
    # As an earlier release stored it: no dealer in the entry, none in the state.
    rnd = db.session.scalar(sa.select(Round).where(Round.game_id == game_id))
    rnd.entry = {k: v for k, v in rnd.entry.items() if k != "dealer"}
    rnd.result = {k: v for k, v in rnd.result.items() if k not in ("dealer", "starter", "hand")}
    db.session.commit()
    page = html(client.get(url))
    assert f"Distribue{NBSP}:" not in page and "Confier la donne" not in page
    form = html(client.get(f"{url}/rounds/new"))
    assert _prefilled(form) is None
    response = _hand(client, group, game_id, 2, ann, Bob=1, Cid=2)
    assert response.status_code == 200 and "Indiquez qui a distribué." in html(response)
    assert _hand(client, group, game_id, 2, ann, dealer=cid, Bob=1, Cid=2).status_code == 302
    # Cid dealt hand 2: Ann deals hand 3, Bob starts. The next hand's number is not
    # known, so the dealer is not changed by hand.
    page = html(client.get(url))
    assert _turn("Ann", "Bob") in page and "Confier la donne" not in page
    version = _game(game_id).version
    _change(client, group, game_id, bob.id)
    assert "La donne ne peut pas être confiée à une autre personne maintenant." in html(client.get(url))
    assert _game(game_id).version == version
    # Correcting the old hand 1 offers the first dealer (the first seat: the game's set-up).
    assert _prefilled(html(client.get(f"{url}/rounds/1/edit"))) == str(ann.id)


def test_a_dealer_changed_by_hand_goes_through_an_export_and_an_import(client):
    # Needs companion/groups/transfer/checking.py to know setup.next_dealer and the
    # dealer_changed change (see the report of issue 27's crapouille dealer).
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    assert _hand(client, group, game_id, 1, ann, Bob=1, Cid=2).status_code == 302
    assert _change(client, group, game_id, ann.id).status_code == 302
    exported = json.loads(client.get(f"/g/{group.code}/export.json").get_data())
    (game,) = exported["games"]
    assert game["setup"]["next_dealer"] == {"number": 2, "dealer": str(ann.id)}
    for wrong in ({"number": 2, "dealer": "999999"}, {"number": "2", "dealer": str(ann.id)}, {"dealer": str(ann.id)}):
        tampered = json.loads(json.dumps(exported))
        tampered["games"][0]["setup"]["next_dealer"] = wrong
        assert upload(client, json.dumps(tampered).encode(), name="Copie").status_code == 400
    response = upload(client, json.dumps(exported).encode(), name="Copie")
    assert response.status_code == 302, html(response)[-2000:]
    copy = db.session.scalar(sa.select(Game).where(Game.id != game_id, Game.kind == "crapouille"))
    names = {str(p.id): p.name for p in copy.players}
    assert names[copy.setup["next_dealer"]["dealer"]] == "Ann"
    page = html(client.get(f"{response.headers['Location']}/games/{copy.id}"))
    assert _turn("Ann", "Bob") in page and "Donne confiée à Ann au lieu de Bob" in page


def test_an_export_written_before_dealers_were_kept_still_imports(client):
    """A file exported before issue 27 has no dealer in a crapouille game's setup, and
    its hands' states lack ``dealer``, ``starter`` and ``hand``: it imports (what the app
    writes is its own states, with them), while a changed total is still refused."""
    group, (ann, bob, cid) = _table(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    assert _hand(client, group, game_id, 1, ann, Bob=12, Cid=7).status_code == 302
    assert _hand(client, group, game_id, 2, bob, Ann=3, Cid=9).status_code == 302
    exported = json.loads(client.get(f"/g/{group.code}/export.json").get_data())
    (game,) = exported["games"]
    game["setup"].pop("dealer", None)
    for rnd in game["rounds"]:
        rnd["entry"].pop("dealer", None)
        for key in ("dealer", "starter", "hand"):
            rnd["result"].pop(key, None)
    tampered = json.loads(json.dumps(exported))
    tampered["games"][0]["rounds"][1]["result"]["totals"][str(cid.id)] += 1
    assert upload(client, json.dumps(tampered).encode(), name="Falsifiée").status_code == 400
    response = upload(client, json.dumps(exported).encode(), name="Ancienne")
    assert response.status_code == 302, html(response)[-2000:]
    copy = db.session.scalar(sa.select(Game).where(Game.id != game_id, Game.kind == "crapouille"))
    last = db.session.scalar(sa.select(Round).where(Round.game_id == copy.id, Round.number == 2))
    assert last.result["totals"] == {str(p.id): t for p, t in zip(copy.players, (3, 12, 16), strict=True)}
    assert "dealer" in last.result  # the app's own state, who deals next included


def test_a_hand_said_dealt_by_a_player_out_is_refused_by_the_engine():
    """An entry that did not come through the form (an import, a correction's rescoring)
    naming a player out as its dealer: the engine's refusal, at the field ``dealer``."""
    import pytest

    from companion.games.kinds.crapouille.state import dealt_by, initial_state
    from companion.rules.i18n import RulesError

    state = initial_state(["1", "2", "3"], "1")
    state["in_play"] = ["1", "3"]
    assert dealt_by(state, {"dealer": "3"}) == "3" and dealt_by(state, {}) == "1"
    with pytest.raises(RulesError) as refused:
        dealt_by(state, {"dealer": "2"})
    # seed 003: « en commençant par le joueur à gauche du donneur » — a dealer still in.
    assert refused.value.field == "dealer" and "2 est hors jeu" in refused.value.text.fr
