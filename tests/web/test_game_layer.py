"""Issue 10's game layer, on la crapouille: rounds corrected safely, stored states read
without replay, history kept, two phones refused cleanly."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, GameStatus, Round
from companion.pagecache import page_cache
from tests.helpers import add_players, create_group, html, start_crapouille


def _hand(client: FlaskClient, group, game_id: int, number: int, winner, **totals: int):
    data = {"round": str(number), "winner": str(winner.id)}
    data.update({f"total_{p}": str(v) for p, v in totals.items()})
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def _game_of_six(client: FlaskClient):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    for n in range(1, 7):
        r = _hand(client, group, game_id, n, ann, **{str(bob.id): 10, str(cid.id): n})
        assert r.status_code == 302, html(r)
    return group, (ann, bob, cid), game_id


def _totals(game_id: int) -> list[dict[str, int]]:
    db.session.rollback()
    rounds = db.session.scalars(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number))
    return [r.result["totals"] for r in rounds]


def test_editing_round_2_of_6_rescores_rounds_3_to_6(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _game_of_six(client)
    before = _totals(game_id)
    assert [t[str(bob.id)] for t in before] == [10, 20, 30, 40, 50, 60]
    url = f"/g/{group.code}/games/{game_id}/rounds/2/edit"
    page = html(client.get(url))
    assert (
        'value="10"' in page
        and f'<input checked id="winner-0" name="winner" required type="radio" value="{ann.id}">' in page
    )
    game = db.session.get(Game, game_id)
    data = {"round": "2", "version": str(game.version), "winner": str(ann.id)}
    data |= {f"total_{bob.id}": "110", f"total_{cid.id}": "2"}
    r = client.post(url, data=data, follow_redirects=True)
    page = html(r)
    assert "Donne 2 corrigée." in page and "Bob\u00a0: 60 → 160" in page
    after = _totals(game_id)
    assert [t[str(bob.id)] for t in after] == [10, 120, 130, 140, 150, 160]
    assert [t[str(cid.id)] for t in after] == [t[str(cid.id)] for t in before]
    assert "Donne 2 corrigée" in html(client.get(f"/g/{group.code}/games/{game_id}"))  # the history


def test_an_edit_that_a_later_round_no_longer_fits_is_refused_naming_it(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _game_of_six(client)
    before = _totals(game_id)
    game = db.session.get(Game, game_id)
    data = {"round": "1", "version": str(game.version), "winner": str(ann.id)}
    data |= {f"total_{bob.id}": "301", f"total_{cid.id}": "1"}  # Bob out at hand 1: hand 2 counts him
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/1/edit", data=data)
    page = html(r)
    assert r.status_code == 200 and "Donne 2 ne tient plus avec cette correction" in page
    assert "Rien n’a été modifié." in page and 'value="301"' in page
    assert _totals(game_id) == before
    db.session.rollback()
    assert game.version == db.session.get(Game, game_id).version


def test_an_edit_from_an_outdated_page_is_refused_and_keeps_what_was_typed(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _game_of_six(client)
    game = db.session.get(Game, game_id)
    stale = str(game.version - 1)
    data = {"round": "3", "version": stale, "winner": str(ann.id), f"total_{bob.id}": "77", f"total_{cid.id}": "3"}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/3/edit", data=data)
    page = html(r)
    assert "La partie a changé entre-temps\u00a0: rien n’a été modifié." in page and 'value="77"' in page
    assert f'name="version" type="hidden" value="{game.version}"' in page or f'value="{game.version}"' in page
    assert [t[str(bob.id)] for t in _totals(game_id)] == [10, 20, 30, 40, 50, 60]


def test_an_edit_can_end_or_reopen_the_game(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _game_of_six(client)
    game = db.session.get(Game, game_id)
    data = {"round": "6", "version": str(game.version), "winner": str(ann.id)}
    data |= {f"total_{bob.id}": "300", f"total_{cid.id}": "290"}  # Bob 350, Cid 305: both out, Ann wins
    client.post(f"/g/{group.code}/games/{game_id}/rounds/6/edit", data=data)
    db.session.rollback()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending == {"winners": [str(ann.id)]}
    # A finished game is read-only until reopened.
    r = client.get(f"/g/{group.code}/games/{game_id}/rounds/6/edit", follow_redirects=True)
    assert "Cette partie est close : rouvrez-la pour corriger une donne." in html(r)
    client.post(f"/g/{group.code}/games/{game_id}/reopen", data={"version": str(game.version)})
    db.session.rollback()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.IN_PROGRESS
    r = client.get(f"/g/{group.code}/games/{game_id}/rounds/new", follow_redirects=True)
    assert "Les donnes jouées ont fini cette partie" in html(r)
    data = {"round": "6", "version": str(game.version), "winner": str(ann.id)}
    data |= {f"total_{bob.id}": "1", f"total_{cid.id}": "1"}
    client.post(f"/g/{group.code}/games/{game_id}/rounds/6/edit", data=data)
    db.session.rollback()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.IN_PROGRESS and game.ending is None


def test_the_game_page_reads_stored_states_in_a_constant_number_of_queries(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def queries() -> int:
        statements.clear()
        page_cache().clear()  # drawn afresh (a copy kept at an older version is one query more)
        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            assert client.get(f"/g/{group.code}/games/{game_id}").status_code == 200
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
        return len(statements)

    for n in range(1, 4):
        _hand(client, group, game_id, n, ann, **{str(bob.id): 1})
    few = queries()
    for n in range(4, 31):
        _hand(client, group, game_id, n, ann, **{str(bob.id): 1})
    assert queries() == few


def test_a_game_can_be_finished_early_and_reopened(client: FlaskClient) -> None:
    group, (ann, _bob, _cid), game_id = _game_of_six(client)
    game = db.session.get(Game, game_id)
    url = f"/g/{group.code}/games/{game_id}/finish"
    assert "Terminer la partie maintenant\u00a0?" in html(client.post(url, data={"version": str(game.version)}))
    client.post(url, data={"version": str(game.version), "confirmed": "1"})
    db.session.rollback()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending["winners"] == [str(ann.id)]  # Ann: 0 points
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Victoire\u00a0: Ann" in page and "Rouvrir la partie" in page and "Saisir la donne" not in page
    client.post(f"/g/{group.code}/games/{game_id}/reopen", data={"version": str(game.version)})
    db.session.rollback()
    assert db.session.get(Game, game_id).status is GameStatus.IN_PROGRESS


def test_two_phones_sending_the_same_round_save_it_once(app: Flask, client: FlaskClient) -> None:
    from tests.web.test_hardening import copy_client, together

    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    game = db.session.get(Game, game_id)
    phones = [copy_client(app, client) for _ in range(2)]
    data = {"round": "1", "version": str(game.version), "winner": str(ann.id), f"total_{bob.id}": "12"}
    url = f"/g/{group.code}/games/{game_id}/rounds/new"
    results = together(2, lambda i: phones[i].post(url, data=data))
    assert all(not isinstance(r, Exception) and r.status_code in (200, 302, 409) for r in results), results
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1
    # The other phone's hand is recognised as the same one: the game, saying so.
    assert [r.status_code for r in results] == [302, 302]
