"""Small helpers for page tests: create a group, players, a game, as a person would."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from html import unescape

import sqlalchemy as sa
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.clock import aware
from companion.extensions import db
from companion.games import saving
from companion.models import Game, Group, Player, Round


def html(response: TestResponse) -> str:
    """The page as text, entities decoded (so "d’essais" reads as written)."""
    return unescape(response.get_data(as_text=True))


#: The CSRF tokens a page carries (each one's value in group 1).
CSRF_TOKENS = re.compile(r'name="csrf_token" value="([^"]+)"')


def unsigned(page: str) -> str:
    """``page`` with its CSRF tokens blanked, to compare two renders of one page: a token
    is signed with the second it was made in, so two renders a second apart differ there."""
    return CSRF_TOKENS.sub('name="csrf_token" value=""', page)


@contextmanager
def count_queries() -> Iterator[list[str]]:
    """The SQL statements the database runs inside the block (SQLAlchemy's
    ``before_cursor_execute`` event), in order."""
    statements: list[str] = []

    def listen(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    sa.event.listen(db.engine, "before_cursor_execute", listen)
    try:
        yield statements
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", listen)


def create_group(client: FlaskClient, name: str = "Les Amis", passphrase: str = "trou du cul") -> Group:
    """Create a group from this client (which joins it)."""
    response = client.post("/groups/new", data={"name": name, "passphrase": passphrase, "confirm": passphrase})
    assert response.status_code == 302, html(response)
    code = response.headers["Location"].rsplit("/", 1)[-1]
    group = db.session.scalar(db.select(Group).where(Group.code == code))
    assert group is not None
    return group


def add_players(client: FlaskClient, group: Group, *names: str) -> list[Player]:
    """Add players to the group through its page."""
    for name in names:
        response = client.post(f"/g/{group.code}/players", data={"name": name})
        assert response.status_code == 302, html(response)
    db.session.expire_all()
    by_name = {p.name: p for p in group.players}
    return [by_name[n] for n in names]


def start_crapouille(client: FlaskClient, group: Group, players: list[Player], super_: bool = False) -> int:
    """Start a crapouille game with ``players`` in seat order; its id."""
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    if super_:
        data["super_crapouille"] = "y"
    response = client.post(f"/g/{group.code}/games/new/crapouille", data=data)
    assert response.status_code == 302, html(response)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match
    return int(match.group(1))


def move_back(game_ids: list[int], days: int) -> None:
    """Move these games ``days`` back in time (their start, end and rounds): an earlier
    game night. An ORM write, its games' standings refreshed before the commit as every
    write to a game does (:func:`companion.games.saving.refresh`)."""

    def back(moment):
        return aware(moment) - timedelta(days=days)

    for game in db.session.scalars(sa.select(Game).where(Game.id.in_(game_ids))):
        game.created_at = back(game.created_at)
        if game.finished_at is not None:
            game.finished_at = back(game.finished_at)
    for rnd in db.session.scalars(sa.select(Round).where(Round.game_id.in_(game_ids))):
        rnd.created_at = back(rnd.created_at)
    saving.refresh(game_ids)
    db.session.commit()
