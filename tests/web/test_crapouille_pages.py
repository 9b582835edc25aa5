"""La crapouille end to end through the pages (seed 003, shared/RULES.md §4)."""

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Game, GameStatus, Round
from tests.helpers import add_players, create_group, html, start_crapouille


def _setup(client, *names):
    group = create_group(client)
    players = add_players(client, group, *names)
    return group, players


def _hand(client, group, game_id, number, winner, **fields):
    data = {"round": str(number), "winner": str(winner.id)}
    data.update(fields)
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def test_new_game_needs_two_distinct_players(client):
    group, (ann, _bob) = _setup(client, "Ann", "Bob")
    url = f"/g/{group.code}/games/new/crapouille"
    r = client.post(url, data={"seats-0": str(ann.id)})
    assert r.status_code == 200 and "Il faut au moins 2 joueurs." in html(r)
    r = client.post(url, data={"seats-0": str(ann.id), "seats-1": str(ann.id)})
    assert "Ann a déjà une place." in html(r)
    r = client.post(url, data={"seats-0": str(ann.id), "seats-1": "99999"})
    assert "Choisissez un joueur du groupe." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == 0


def test_new_game_page_lists_the_players_and_says_when_too_few(client):
    group, _ = _setup(client, "Ann")
    assert "Ajoutez d’abord au moins deux joueurs" in html(client.get(f"/g/{group.code}/games/new"))
    add_players(client, group, "Bob")
    page = html(client.get(f"/g/{group.code}/games/new/crapouille"))
    assert "Place 1" in page and "Place 2" in page and ">Ann<" in page and ">Bob<" in page


def test_seat_order_and_super_option_are_kept(client):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [cid, ann, bob], super_=True)
    game = db.session.get(Game, game_id)
    assert [p.name for p in game.players] == ["Cid", "Ann", "Bob"]
    assert game.rules == {"super": True} and game.kind == "crapouille"
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Super crapouille : 10 cartes données, 5 gardées." in page


def test_two_players_get_the_two_player_rule(client):
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    assert "Règle à deux joueurs." in html(client.get(f"/g/{group.code}/games/{game_id}"))


def test_a_hand_with_cards_and_a_typed_total(client):
    # seed 003: « le 8 vaut vingt points, le joker, quinze points, le 2, dix points, les figures, cinq points »
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert "Qui a fini ?" in form and "Cartes en main" in form
    r = _hand(client, group, game_id, 1, ann, **{f"cards_{bob.id}": "8c RJ 2t V♠", f"total_{cid.id}": "22"})
    assert r.status_code == 302
    rnd = db.session.scalar(sa.select(Round))
    assert rnd.entry == {
        "winner": str(ann.id),
        "hands": {str(bob.id): ["8h", "RJ", "2c", "Js"]},
        "points": {str(cid.id): 22},
        "dealer": str(ann.id),  # the first seat deals the first hand, unless another was chosen
    }
    assert rnd.result["points"] == {str(ann.id): 0, str(bob.id): 50, str(cid.id): 22}
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Donne 1 · Sortie : Ann" in page
    # A joker is a joker whatever its colour in la crapouille.
    assert "8♥" in page and "V♠" in page and "Joker</span>" in page and "Joker rouge" not in page
    assert '<span class="total" data-total>50</span>' in page


def test_bad_cards_are_refused_next_to_the_field_and_nothing_is_saved(client):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    # Two decks hold two 8♥ only, across all hands.
    r = _hand(client, group, game_id, 1, ann, **{f"cards_{bob.id}": "8C 8C", f"cards_{cid.id}": "8C 3t"})
    assert r.status_code == 200
    assert "Il n’y a que deux 8♥ dans le jeu." in html(r)
    assert 'value="8C 8C"' in html(r) and 'value="8C 3t"' in html(r)  # what was typed is kept
    r = _hand(client, group, game_id, 1, ann, **{f"cards_{bob.id}": "8C 11C", f"total_{cid.id}": "4"})
    assert "Carte inconnue : « 11C »." in html(r)
    r = _hand(client, group, game_id, 1, ann, **{f"cards_{bob.id}": "RJ RJ BJ BJ", f"cards_{cid.id}": "RJ"})
    assert "Il n’y a que quatre jokers dans le jeu." in html(r)
    r = _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "douze", f"total_{cid.id}": "4"})
    assert "Un total est un nombre entier de 0 à 779." in html(r)
    r = _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "12"})
    assert "Il manque les cartes ou le total de" in html(r)
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data={"round": "1", f"total_{bob.id}": "12"})
    assert "Indiquez qui a fini." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0


def test_over_300_is_out_300_stays_and_the_last_one_wins(client):
    # seed 003: « Le premier perdant est celui qui dépasse la barre des 300, et ainsi de suite, jusqu'à ce
    # que tous les joueurs, sauf un qui est déclaré gagnant, aient dépassé la barre des 300. »
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    assert (
        _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "300", f"total_{cid.id}": "301"}).status_code == 302
    )
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "hors jeu" in page
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert f"cards_{cid.id}" not in form and f"cards_{bob.id}" in form  # eliminated players are not asked
    r = _hand(client, group, game_id, 2, cid, **{f"total_{bob.id}": "5", f"total_{ann.id}": "3"})
    assert r.status_code == 200 and "N’est pas un choix valide." in html(r)
    assert _hand(client, group, game_id, 2, ann, **{f"total_{bob.id}": "1"}).status_code == 302
    game = db.session.get(Game, game_id)
    db.session.refresh(game)
    assert game.status is GameStatus.FINISHED and game.finished_at is not None
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Victoire\u00a0: Ann" in page and "Classement final" in page
    assert page.index('data-player="Ann"') < page.index('data-player="Bob"') < page.index('data-player="Cid"')
    # No more hands once it is over.
    r = client.get(f"/g/{group.code}/games/{game_id}/rounds/new")
    assert r.status_code == 302
    assert "Cette partie est terminée" in html(client.get(r.headers["Location"]))


def test_hands_are_listed_most_recent_first(client):
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    for n in (1, 2, 3):
        assert _hand(client, group, game_id, n, ann, **{f"total_{bob.id}": str(n)}).status_code == 302
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert page.index('id="hand-3"') < page.index('id="hand-2"') < page.index('id="hand-1"')
    assert '<span class="total" data-total>6</span>' in page


def test_a_hand_sent_twice_is_saved_once(client):
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    assert _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "7"}).status_code == 302
    r = _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "7"})
    assert r.status_code == 302  # recognised: the game, saying so
    assert "Donne 1 était déjà enregistrée." in html(client.get(r.headers["Location"]))
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1


def test_delete_the_last_hand_reopens_a_finished_game(client):
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    _hand(client, group, game_id, 1, ann, **{f"total_{bob.id}": "250"})
    _hand(client, group, game_id, 2, ann, **{f"total_{bob.id}": "60"})
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED
    version = game.version
    url = f"/g/{group.code}/games/{game_id}/rounds/2/delete"
    assert client.post(url, data={"version": str(version), "confirmed": "1"}).status_code == 302
    db.session.expire_all()
    assert game.status is GameStatus.IN_PROGRESS and len(game.rounds) == 1
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Donne 2 supprimée." in page and '<span class="total" data-total>250</span>' in page


def test_a_delete_sent_twice_or_stale_changes_nothing(client):
    # Issue 8: the same « Supprimer la donne N » sent twice took a game from 5 hands to 3.
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    for n in range(1, 6):
        _hand(client, group, game_id, n, ann, **{f"total_{bob.id}": "1"})
    game = db.session.get(Game, game_id)
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert f'action="/g/{group.code}/games/{game_id}/rounds/5/delete"' in page
    assert f'name="version" value="{game.version}"' in page
    form = {"version": str(game.version), "confirmed": "1"}
    url = f"/g/{group.code}/games/{game_id}/rounds/5/delete"
    assert client.post(url, data=form).status_code == 302
    again = client.post(url, data=form, follow_redirects=True)
    # Done once, and said so (issue 24: a repeat is told what became of it, not refused).
    assert "Donne 5 supprimée." in html(again) and "n’a pas été supprimée" not in html(again)
    db.session.expire_all()
    assert [r.number for r in game.rounds] == [1, 2, 3, 4]
    # Deleting hand 4 with the version of the page that showed hand 5: stale, refused.
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/4/delete", data=form).status_code == 302
    # A missing or malformed version is refused too.
    for bad in ({"confirmed": "1"}, {"version": "²", "confirmed": "1"}, {"version": "9" * 5000, "confirmed": "1"}):
        client.post(f"/g/{group.code}/games/{game_id}/rounds/4/delete", data=bad)
    db.session.expire_all()
    assert [r.number for r in game.rounds] == [1, 2, 3, 4]


def test_abandon_keeps_the_game_in_history(client):
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    game = db.session.get(Game, game_id)
    client.post(f"/g/{group.code}/games/{game_id}/abandon", data={"version": str(game.version), "confirmed": "1"})
    db.session.refresh(game)
    assert game.status is GameStatus.ABANDONED
    assert "Partie abandonnée." in html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "abandonnée" in html(client.get(f"/g/{group.code}"))


def test_game_of_another_group_is_not_found(client):
    group, (ann, bob) = _setup(client, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    other = create_group(client, "Autre")
    assert client.get(f"/g/{other.code}/games/{game_id}").status_code == 404
    assert client.post(f"/g/{other.code}/games/{game_id}/abandon").status_code == 404
