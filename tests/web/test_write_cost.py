"""What a saved hand costs the database (issues 14 and 26): as many statements for the
tenth hand as for the second, and no reading of what a game in progress does not count
in (totals, ratings, other games' results) — what grows with the group's history.

What is held is that property, not today's statements nor their transactions' order:
a feature may add a statement to a write, as long as it does not grow with the history.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Group, Player
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille


def _game(game_id: int) -> tuple[int, datetime]:
    row = db.session.execute(sa.select(Game.version, Game.updated_at).where(Game.id == game_id)).one()
    db.session.rollback()
    return row.version, row.updated_at


def _reads_of_the_history(statements: list[str]) -> list[str]:
    """What a hand of a game in progress must not run: a read of stored results or
    ratings, a lock on them, a check of every game's results."""
    return [
        s
        for s in statements
        if s.lstrip().upper().startswith(("SELECT RATED_MATCHES", "SELECT GAME_RESULTS"))
        or "FOR NO KEY UPDATE" in s.upper()
        or "WHERE NOT (EXISTS" in " ".join(s.upper().split())  # every game's results checked
    ]


def test_a_hands_statements_do_not_grow_with_the_game(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    url = f"/g/{group.code}/games/{game_id}/rounds"
    code, ann_id, bob_id = group.code, ann.id, bob.id  # read now: the test shares the requests' session
    counted: list[list[str]] = []
    for number in range(1, 11):
        version, updated_at = _game(game_id)
        data = {"round": str(number), "version": str(version), "winner": str(ann_id), f"total_{bob_id}": "3"}
        with count_queries() as statements:
            r = client.post(f"{url}/new", data=data)
        assert r.status_code == 302, html(r)
        assert r.headers["Location"].endswith(f"/g/{code}/games/{game_id}#totals")
        assert not _reads_of_the_history(statements), _reads_of_the_history(statements)
        new_version, new_updated_at = _game(game_id)
        assert new_version == version + 1 and new_updated_at > updated_at
        counted.append(statements)
    assert len(counted[1]) == len(counted[-1]), (
        "a hand must not cost more as the game grows:\n" + "\n".join(counted[-1][len(counted[1]) :])[:2000]
    )

    # A correction moves the version on once too.
    version, updated_at = _game(game_id)
    data = {"round": "3", "version": str(version), "winner": str(bob_id), f"total_{ann_id}": "7"}
    r = client.post(f"{url}/3/edit", data=data)
    assert r.status_code == 302, html(r)
    new_version, new_updated_at = _game(game_id)
    assert new_version == version + 1 and new_updated_at > updated_at


def test_a_hands_statements_do_not_grow_with_the_group(app: Flask, client: FlaskClient) -> None:
    """A hand in a group of one game costs what it costs in a group with more games,
    finished and running (their results and ratings are not read)."""
    group = create_group(client)
    group_id, ids = group.id, [player.id for player in add_players(client, group, "Ann", "Bob", "Cid")]
    code = group.code

    def hand(game_id: int, number: int) -> list[str]:
        version, _updated_at = _game(game_id)
        data = {"round": str(number), "version": str(version), "winner": str(ids[0]), f"total_{ids[1]}": "3"}
        with count_queries() as statements:
            r = client.post(f"/g/{code}/games/{game_id}/rounds/new", data=data)
        assert r.status_code == 302, html(r)
        return statements

    def start() -> int:
        players = [db.session.get(Player, i) for i in ids[:2]]
        return start_crapouille(client, db.session.get(Group, group_id), players)  # type: ignore[arg-type]

    first = start()
    hand(first, 1)
    alone = hand(first, 2)
    for _ in range(4):
        other = start()
        hand(other, 1)
        version, _updated_at = _game(other)
        r = client.post(f"/g/{code}/games/{other}/finish", data={"version": str(version), "confirmed": "1"})
        assert r.status_code == 302, html(r)
    start()
    among = hand(first, 3)
    assert len(among) == len(alone), "\n".join(among[len(alone) :])[:2000]
    assert not _reads_of_the_history(among)
