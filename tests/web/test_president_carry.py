"""What one manche of Président hands to the next, followed live or typed on the round form
(issue 23): a lasting revolution, the titles, the seats, the leader; and the first manche's
first player, the one after the dealer.

seed 000: « Une variante existe selon laquelle, après une révolution, les cartes ne reprennent
pas leur valeur normale à la prochaine partie mais gardent leur valeur inversée jusqu'à ce qu'un
joueur pose une révolution. » (`revolution_persists`); « Le joueur venant après le joueur qui a
distribué commence. »

Sentences of the pages are checked in English msgids (or through the French catalog), what the
engine says in French."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.extensions import db
from companion.models import LiveManche, Player, Round
from tests.helpers import add_players, create_group, html
from tests.web.test_transfer import inside, upload
from tests.web.test_whist_pages import fr

EN = {"Accept-Language": "en"}
CARRIED = "Revolution: the order of the cards is reversed, carried over from the last round."


def _game(client: FlaskClient, **options: str) -> tuple[Any, list[Player], int]:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    data.update({"target": "25", "titles": "classic", "rule_points": "y", "rule_revolution": "y"})
    data.update(options)
    r = client.post(f"/g/{group.code}/games/new/president", data=data)
    assert r.status_code == 302, html(r)
    match = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert match
    return group, players, int(match.group(1))


def _live(group: Any, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}/live{tail}"


def _version(client: FlaskClient, group: Any, game_id: int) -> str:
    match = re.search(r'name="version" value="(\d+)"', html(client.get(_live(group, game_id))))
    assert match
    return match.group(1)


def _start(client: FlaskClient, group: Any, game_id: int, **data: Any) -> None:
    data.setdefault("version", _version(client, group, game_id))
    r = client.post(_live(group, game_id, "/start"), data=data)
    assert r.status_code == 303, html(r)


def _move(client: FlaskClient, group: Any, game_id: int, **data: Any) -> Any:
    data["version"] = _version(client, group, game_id)
    return client.post(_live(group, game_id, "/move"), data=data)


def _row(game_id: int) -> LiveManche:
    db.session.expire_all()
    row = db.session.get(LiveManche, game_id)
    assert row is not None
    return row


def _last_round(game_id: int) -> Round:
    db.session.expire_all()
    rnd = db.session.scalar(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number.desc()).limit(1))
    assert rnd is not None
    return rnd


def _save(client: FlaskClient, group: Any, game_id: int, number: int, finish: list[Player], **data: str) -> None:
    form = {"round": str(number), "event": ""} | {f"finish-{i}": str(p.id) for i, p in enumerate(finish)}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=form | data)
    assert r.status_code == 302, html(r)


def _checked(page: str, name: str) -> bool:
    """Whether the checkbox ``name`` is ticked on ``page``."""
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert tag, name
    return " checked" in tag.group(0)


def _reversed_manche(client: FlaskClient, group: Any, game_id: int) -> None:
    """A first manche followed live that ends reversed: Ann's four 5s are a revolution."""
    # seed 000: « Si un joueur pose un carré, il y a une révolution et la valeur des cartes est inversée. »
    assert _move(client, group, game_id, action="play", cards="5♥ 5♠ 5♣ 5♦").status_code == 303
    for _ in range(3):
        assert _move(client, group, game_id, action="pass").status_code == 303
    assert _move(client, group, game_id, action="play", cards="3♥", last="y").status_code == 303  # the 3s rule now
    assert _move(client, group, game_id, action="play", cards="R♥", last="y").status_code == 303  # Bob leads
    r = _move(client, group, game_id, action="play", cards="D♥", last="y")  # lower than the king: Cid
    assert r.status_code == 303, html(r)


# ----------------------------------------------------------------- the live chain


def test_a_live_manche_that_ends_reversed_starts_the_next_one_reversed(app: Flask, client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, rule_revolution_persists="y")
    _start(client, group, game_id, dealer=str(dan.id))  # the dealer proposed: Dan, the last seat; Ann leads
    _reversed_manche(client, group, game_id)
    row = _row(game_id)
    assert row.view["finished"] is True and row.view["reversed"] is True
    assert row.entry == {
        "finish": [str(ann.id), str(bob.id), str(cid.id), str(dan.id)],
        "finished_on": [],
        "events": {},
        "reversed": True,
    }
    # The round form asks, pre-filled from the live manche's final table.
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert "At the end of the round, the order of the cards is reversed" in form and _checked(form, "order_reversed")
    assert "This round started with the cards in their usual order." in form
    _save(client, group, game_id, 1, [ann, bob, cid, dan], order_reversed="y")
    rnd = _last_round(game_id)
    assert rnd.entry["reversed"] is True and rnd.result["reversed"] is True
    # Titles, seats, leader: handed on as the engine decided them.
    assert rnd.result["hierarchy"] == [str(p.id) for p in (ann, bob, cid, dan)]
    assert (rnd.result["dealer"], rnd.result["leader"]) == (str(dan.id), str(ann.id))
    assert CARRIED in html(client.get(f"/g/{group.code}/games/{game_id}", headers=EN))
    # The next manche's start shows the order as it stands: no box to remember.
    start = html(client.get(_live(group, game_id), headers=EN))
    assert CARRIED in start and 'name="reversed"' not in start and "Ann leads." in start
    _start(client, group, game_id)
    row = _row(game_id)
    assert row.state["reversed"] is True and row.view["reversed"] is True
    assert row.state["players"] == rnd.result["hierarchy"] and row.view["to_move"] == str(ann.id)
    # The referee judges in that order: 6♦ on 7♦ is legal, 8♦ on 6♦ is not.
    assert _move(client, group, game_id, action="play", cards="7♦").status_code == 303
    assert _move(client, group, game_id, action="play", cards="6♦").status_code == 303
    refused = html(_move(client, group, game_id, action="play", cards="8♦"))
    assert "Révolution\u00a0: il faut jouer plus bas que 6." in refused
    assert [m["move"]["cards"] for m in _row(game_id).moves] == [["7d"], ["6d"]]
    assert fr(app, CARRIED) in html(client.get(f"/g/{group.code}/games/{game_id}"))


def test_without_a_lasting_revolution_the_next_manche_starts_in_the_usual_order(client: FlaskClient) -> None:
    # seed 000: « À la prochaine partie les cartes reprennent leur valeur normale. »
    group, (ann, bob, cid, dan), game_id = _game(client)
    _start(client, group, game_id, dealer=str(dan.id))
    _reversed_manche(client, group, game_id)
    assert _row(game_id).view["reversed"] is True and "reversed" not in _row(game_id).entry
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert 'name="order_reversed"' not in form
    _save(client, group, game_id, 1, [ann, bob, cid, dan])
    assert "reversed" not in _last_round(game_id).result
    assert CARRIED not in html(client.get(_live(group, game_id), headers=EN))
    _start(client, group, game_id)
    assert _move(client, group, game_id, action="play", cards="7♦").status_code == 303
    assert "Il faut jouer plus haut que 7." in html(_move(client, group, game_id, action="play", cards="6♦"))


# ---------------------------------------------------------------- the typed chain


def test_a_typed_round_carries_the_order_too(client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, rule_revolution_persists="y")
    rounds = f"/g/{group.code}/games/{game_id}/rounds/new"
    form = html(client.get(rounds, headers=EN))
    assert "This round started with the cards in their usual order." in form and not _checked(form, "order_reversed")
    _save(client, group, game_id, 1, [bob, ann, dan, cid], order_reversed="y")
    first = _last_round(game_id).result
    assert first["reversed"] is True and first["hierarchy"] == [str(p.id) for p in (bob, ann, dan, cid)]
    # Round 2 started reversed: its form says so, and offers that order, pre-filled.
    form = html(client.get(rounds, headers=EN))
    assert "This round started with the order of the cards reversed." in form and _checked(form, "order_reversed")
    # The live start of round 2 reads it from the stored state; the Président (Bob) leads.
    start = html(client.get(_live(group, game_id), headers=EN))
    assert CARRIED in start and "Bob leads." in start
    _start(client, group, game_id)
    assert _row(game_id).state["reversed"] is True and _row(game_id).view["to_move"] == str(bob.id)
    # Round 2 typed: a counter-revolution, the box unticked: round 3 starts in the usual order.
    _save(client, group, game_id, 2, [cid, dan, ann, bob])
    second = _last_round(game_id)
    assert second.entry["reversed"] is False and "reversed" not in second.result
    assert second.result["hierarchy"] == [str(p.id) for p in (cid, dan, ann, bob)]
    assert CARRIED not in html(client.get(_live(group, game_id), headers=EN))
    _start(client, group, game_id)
    assert _row(game_id).state["reversed"] is False and _row(game_id).view["to_move"] == str(cid.id)


def test_a_state_stored_before_the_order_was_kept_reads_as_not_reversed(client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, rule_revolution_persists="y")
    _save(client, group, game_id, 1, [ann, bob, cid, dan], order_reversed="y")
    rnd = _last_round(game_id)
    rnd.result = {k: v for k, v in rnd.result.items() if k != "reversed"}  # as stored before issue 23
    db.session.commit()
    start = html(client.get(_live(group, game_id), headers=EN))
    assert CARRIED not in start
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert not _checked(form, "order_reversed")
    _start(client, group, game_id)
    assert _row(game_id).state["reversed"] is False


# --------------------------------------------------- the first manche's first player


def test_the_first_manche_asks_who_dealt_and_the_next_player_leads(app: Flask, client: FlaskClient) -> None:
    # seed 000: « Le joueur venant après le joueur qui a distribué commence. »
    group, (_ann, bob, cid, dan), game_id = _game(client)
    page = html(client.get(_live(group, game_id), headers=EN))
    assert "Who dealt?" in page and "The first round: the player after the dealer leads." in page
    assert "Anyone" not in page and 'name="leader"' not in page
    # The last seat is proposed, pre-selected; each choice says who then leads.
    dealt = re.findall(r'<input[^>]*name="dealer"[^>]*>', page)
    assert len(dealt) == 4
    assert [" checked" in tag for tag in dealt] == [False, False, False, True]
    assert 'data-leads="Ann leads."' in dealt[3] and f'value="{dan.id}"' in dealt[3]
    assert 'data-leads="Cid leads."' in dealt[1] and f'value="{bob.id}"' in dealt[1]
    assert 'src="/static/president.js?v=' in page
    french = html(client.get(_live(group, game_id)))
    assert fr(app, "Who dealt?") in french and "Qui a distribué\u00a0?" in french
    # Bob dealt: Cid leads, and the first move needs no « who plays? ».
    _start(client, group, game_id, dealer=str(bob.id))
    assert _row(game_id).view["to_move"] == str(cid.id)
    r = _move(client, group, game_id, action="play", cards="4♥")
    assert r.status_code == 303, html(r)
    assert _row(game_id).moves[0]["player"] == str(cid.id)
    assert fr(app, "Say who plays.") not in html(client.get(_live(group, game_id)))


def test_the_proposed_dealer_as_sent_without_change(client: FlaskClient) -> None:
    group, (ann, _bob, _cid, dan), game_id = _game(client)
    page = html(client.get(_live(group, game_id)))
    chosen = re.search(r'<input[^>]*checked[^>]*name="dealer"[^>]*value="(\d+)"', page)
    assert chosen and chosen.group(1) == str(dan.id)
    _start(client, group, game_id, dealer=chosen.group(1))
    assert _row(game_id).view["to_move"] == str(ann.id)
    assert _row(game_id).state.get("leader") == str(ann.id)


def test_a_dealer_who_is_not_a_player_is_refused(app: Flask, client: FlaskClient) -> None:
    group, _players, game_id = _game(client)
    r = client.post(
        _live(group, game_id, "/start"), data={"version": _version(client, group, game_id), "dealer": "999"}
    )
    assert r.status_code == 200 and fr(app, "Choose a player of the game.") in html(r)
    assert db.session.get(LiveManche, game_id) is None or _row(game_id).state is None


# --------------------------------------------------------------------- an export


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[Flask]:
    """A second app over its own SQLite file, where an export is imported."""
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "elsewhere",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}",
        }
    )
    with other.app_context():
        db.create_all()
    yield other
    with other.app_context():
        db.drop_all()
        db.engine.dispose()


def test_an_export_with_rounds_stored_before_and_after_imports(client: FlaskClient, elsewhere: Flask) -> None:
    # An import scores every round again and compares it with the stored result: a round
    # stored before the order was kept (no `reversed` in its entry nor its result) still follows.
    group, (ann, bob, cid, dan), game_id = _game(client, rule_revolution_persists="y")
    _save(client, group, game_id, 1, [ann, bob, cid, dan], order_reversed="y")
    old = _last_round(game_id)
    old.entry = {k: v for k, v in old.entry.items() if k != "reversed"}
    old.result = {k: v for k, v in old.result.items() if k != "reversed"}
    db.session.commit()
    _save(client, group, game_id, 2, [bob, ann, cid, dan], order_reversed="y")
    assert _last_round(game_id).result["reversed"] is True
    content = client.get(f"/g/{group.code}/export.json").get_data()
    with inside(elsewhere):
        r = upload(elsewhere.test_client(), content)
        assert r.status_code == 302, html(r)
