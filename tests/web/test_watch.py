"""Live pages (companion/watch.py): each watched page's token moves when what the page
shows changes, and only then; a matching ``If-None-Match`` is a 304; a token costs the
same few queries however big the group; a device out of the group learns nothing; the
pages carry the attributes static/watch.js reads."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Game, Group, Player, utcnow
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille
from tests.web.test_referee_live import _move, _president


def _version(game_id: int) -> str:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return str(game.version)


def _hand(client: FlaskClient, group: Group, game_id: int, winner: Player, **totals: int) -> None:
    db.session.expire_all()
    number = len(db.session.get(Game, game_id).rounds) + 1
    data = {"round": str(number), "version": _version(game_id), "winner": str(winner.id)}
    data.update({f"total_{p}": str(v) for p, v in totals.items()})
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def _token(client: FlaskClient, url: str) -> str:
    r = client.get(url)
    assert r.status_code == 200, r.status_code
    assert r.headers["Cache-Control"] == "no-cache"
    assert r.json is not None
    token = str(r.json["token"])
    assert r.headers["ETag"] == f'"{token}"'
    return token


def _game_watch(group: Group, game_id: int) -> str:
    return f"/g/{group.code}/games/{game_id}/watch"


def _live_watch(group: Group, game_id: int) -> str:
    return f"/g/{group.code}/games/{game_id}/live/state"


def _group_watch(group: Group) -> str:
    return f"/g/{group.code}/watch"


def _moves_on(client: FlaskClient, url: str, action: Callable[[], object]) -> None:
    before = _token(client, url)
    action()
    r = client.get(url, headers={"If-None-Match": f'"{before}"'})
    assert r.status_code == 200 and r.json is not None and r.json["token"] != before


def _stays(client: FlaskClient, url: str, action: Callable[[], object]) -> None:
    before = _token(client, url)
    action()
    assert client.get(url, headers={"If-None-Match": f'"{before}"'}).status_code == 304


def _crapouille(client: FlaskClient):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    return group, (ann, bob, cid), start_crapouille(client, group, [ann, bob, cid])


# ------------------------------------------------------------------ the game page


def test_a_game_token_moves_with_every_change_to_the_game_and_only_then(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _crapouille(client)
    url = _game_watch(group, game_id)
    base = f"/g/{group.code}/games/{game_id}"
    two = {str(bob.id): 10, str(cid.id): 5}

    _moves_on(client, url, lambda: _hand(client, group, game_id, ann, **two))
    _moves_on(client, url, lambda: _hand(client, group, game_id, ann, **two))
    _moves_on(
        client,
        url,
        lambda: client.post(f"{base}/rounds/2/delete", data={"version": _version(game_id), "confirmed": "1"}),
    )
    _moves_on(client, url, lambda: client.post(f"{base}/finish", data={"version": _version(game_id), "confirmed": "1"}))
    _moves_on(client, url, lambda: client.post(f"{base}/reopen", data={"version": _version(game_id)}))
    _moves_on(
        client, url, lambda: client.post(f"{base}/abandon", data={"version": _version(game_id), "confirmed": "1"})
    )

    # Reading, a stale write, another game or the group: the game page shows the same.
    other = start_crapouille(client, group, [ann, bob])
    _stays(client, url, lambda: client.get(base))
    _stays(client, url, lambda: client.post(f"{base}/reopen", data={"version": "0"}))
    _stays(client, url, lambda: _hand(client, group, other, ann, **{str(bob.id): 3}))
    _stays(client, url, lambda: add_players(client, group, "Dan"))


def test_a_game_page_carries_its_watch_address_and_token(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _crapouille(client)
    _hand(client, group, game_id, ann, **{str(bob.id): 10, str(cid.id): 5})
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    token = _token(client, _game_watch(group, game_id))
    assert f'data-watch-url="{_game_watch(group, game_id)}"' in page
    assert f'data-watch-token="{token}"' in page
    assert "La partie a changé sur un autre appareil." in page and 'data-watch-refresh="Rafraîchir"' in page
    assert "/static/watch.js" in page


def test_a_matching_if_none_match_is_answered_304_without_a_body(client: FlaskClient) -> None:
    group, _players, game_id = _crapouille(client)
    for url in (_game_watch(group, game_id), _group_watch(group), _live_watch(group, game_id)):
        token = _token(client, url)
        r = client.get(url, headers={"If-None-Match": f'"{token}"'})
        assert r.status_code == 304 and r.get_data() == b""
        assert r.headers["ETag"] == f'"{token}"' and r.headers["Cache-Control"] == "no-cache"
        assert "Set-Cookie" not in r.headers  # a poll does not renew the cookie: pages do
        assert client.get(url, headers={"If-None-Match": '"something else"'}).status_code == 200


# ----------------------------------------------------------------- the group page


def test_a_group_token_moves_with_what_the_group_page_shows(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _crapouille(client)
    url = _group_watch(group)
    base = f"/g/{group.code}"

    _moves_on(client, url, lambda: start_crapouille(client, group, [ann, bob]))  # a new game
    _moves_on(client, url, lambda: _hand(client, group, game_id, ann, **{str(bob.id): 10, str(cid.id): 5}))
    _moves_on(
        client,
        url,
        lambda: client.post(f"{base}/games/{game_id}/finish", data={"version": _version(game_id), "confirmed": "1"}),
    )
    _moves_on(client, url, lambda: add_players(client, group, "Dan"))  # « Joueurs (4) »
    _moves_on(client, url, lambda: client.post(f"{base}/players/{ann.id}", data={"name": "Annie"}))  # in a game's line
    _moves_on(client, url, lambda: client.post(f"{base}/seasons", data={"name": "Hiver", "starts_on": "2026-12-21"}))

    # Reading pages, another group's players: the group page shows the same.
    _stays(client, url, lambda: client.get(base))
    _stays(client, url, lambda: client.get(f"{base}/games/{game_id}"))
    neighbour = client.application.test_client()
    other = create_group(neighbour, name="Les Autres")
    _stays(client, url, lambda: add_players(neighbour, other, "Zoé"))


def test_the_group_page_carries_its_watch_address_and_token(client: FlaskClient) -> None:
    group, _players, _game_id = _crapouille(client)
    page = html(client.get(f"/g/{group.code}"))
    token = _token(client, _group_watch(group))
    assert f'data-watch-url="{_group_watch(group)}"' in page and f'data-watch-token="{token}"' in page


# --------------------------------------------------------------- the live screen


def test_a_live_token_moves_with_every_move_and_with_the_game(client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    url = _live_watch(group, game_id)
    _moves_on(client, url, lambda: _move(client, group, game_id, action="play", cards="7♥ 7♠"))
    _moves_on(client, url, lambda: _move(client, group, game_id, action="pass"))
    _stays(client, url, lambda: _move(client, group, game_id, version="0", action="pass"))  # stale: refused
    page = html(client.get(f"/g/{group.code}/games/{game_id}/live"))
    token = _token(client, url)
    assert f'data-watch-url="{url}"' in page and f'data-watch-token="{token}"' in page
    assert f'data-watch-page="/g/{group.code}/games/{game_id}/live#turn"' in page
    # A live move is not on the game page: its token stays.
    game_url = _game_watch(group, game_id)
    _stays(client, game_url, lambda: _move(client, group, game_id, action="pass"))


# ---------------------------------------------------------------------- the cost


def test_a_token_costs_the_same_queries_whatever_the_group_holds(app: Flask, client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _crapouille(client)
    urls = [_game_watch(group, game_id), _group_watch(group), _live_watch(group, game_id)]

    def queries() -> list[int]:
        counts = []
        for url in urls:
            token = _token(client, url)
            with count_queries() as statements:
                assert client.get(url, headers={"If-None-Match": f'"{token}"'}).status_code == 304
            # SQLite's explicit BEGIN left out.
            counts.append(sum(not s.lstrip().upper().startswith("BEGIN") for s in statements))
        return counts

    few = queries()
    for _ in range(12):
        _hand(client, group, game_id, ann, **{str(bob.id): 1, str(cid.id): 1})
    for _ in range(5):
        start_crapouille(client, group, [ann, bob])
    add_players(client, group, "Dan", "Eve")
    assert queries() == few


# ------------------------------------------------------------------------ access


@pytest.mark.parametrize("who", ["stranger", "other group"])
def test_a_device_out_of_the_group_learns_nothing(app: Flask, client: FlaskClient, who: str) -> None:
    group, _players, game_id = _crapouille(client)
    outsider = app.test_client()
    if who == "other group":
        create_group(outsider, name="Voisins")
    for url in (_game_watch(group, game_id), _group_watch(group), _live_watch(group, game_id)):
        r = outsider.get(url)
        assert r.status_code == 302 and "/join" in r.headers["Location"]
        assert "ETag" not in r.headers and group.name not in r.get_data(as_text=True)
        assert outsider.post(url).status_code in (403, 405)
    # A game of another group, asked under one's own group: not found.
    own = db.session.scalar(sa.select(Group).where(Group.name == "Voisins")) if who == "other group" else None
    if own is not None:
        assert outsider.get(_game_watch(own, game_id)).status_code == 404
        assert outsider.get(_live_watch(own, game_id)).status_code == 404


def test_a_revoked_device_and_an_unknown_game_are_answered_as_the_pages_answer(client: FlaskClient) -> None:
    group, _players, game_id = _crapouille(client)
    polls = (_game_watch(group, game_id), _group_watch(group), _live_watch(group, game_id))
    form_poll = f"/g/{group.code}/games/{game_id}/changes?since=0"
    for url in (_game_watch(group, 10**6), _live_watch(group, 10**6), form_poll.replace(str(game_id), "1000000")):
        assert client.get(url).status_code == 404  # a game the group does not hold
    db.session.execute(sa.update(Device).values(revoked_at=utcnow()))
    db.session.commit()
    for url in (*polls, form_poll):
        r = client.get(url, headers={"Accept": "application/json"})
        assert r.status_code == 403 and "ETag" not in r.headers and group.name not in html(r)
        r = client.get(url)  # the page that says so (removed from the group)
        assert r.status_code == 403 and r.headers["X-Companion-Gone"] == group.code


def test_pages_that_are_not_watched_carry_nothing_to_poll(client: FlaskClient) -> None:
    group, _players, _game_id = _crapouille(client)
    # (The round form is watched since issue 23, as a form: tests/web/test_form_watch.py.)
    for url in ("/", f"/g/{group.code}/players", f"/g/{group.code}/games/new"):
        page = html(client.get(url))
        assert "data-watch-url" not in page and "watch.js" not in page, url
    assert re.search(r"<body[^>]*data-watch-url", html(client.get(f"/g/{group.code}")))
