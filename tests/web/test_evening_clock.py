"""The evening's clock (issue 27): rounds say when they were played, from the writes the
app already receives — a round ends when it is saved and starts when the one before
ended (the game's start for the first); a manche followed live starts at its first move
and ends at its last; whist's deal ends with its tricks — and the game page, the
evening's recap and the player page say how long things took (« 1 h 12 », « manche
moyenne : 6 min »), in a constant number of queries. No timer is started by hand.

The clock is controlled: the writes' ``utcnow`` (companion.games.rounds, the live
screen's) is a :class:`Clock` the test moves on; games are started at a known time.
Times are on the group's clock (Europe/Paris, UTC+1 in early March 2026)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

import companion.games.rounds as rounds_module
import companion.referee.live as live_module
from companion.clock import aware, night_of
from companion.extensions import db
from companion.games import saving
from companion.models import Game, GameChange, LiveManche, Round
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille
from tests.web.test_standings import EN, hand, start_whist
from tests.web.test_transfer import upload

NBSP = "\u00a0"
FRIDAY = date(2026, 3, 6)


def utc(hour: int, minute: int = 0, day: int = 6) -> datetime:
    """A time of Friday 6 March 2026 (or of ``day``), in UTC: an hour earlier than Paris."""
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


class Clock:
    """The time the app's writes see: set by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def at(self, hour: int, minute: int = 0, day: int = 6) -> None:
        self.now = utc(hour, minute, day)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    frozen = Clock(utc(20))
    monkeypatch.setattr(rounds_module, "utcnow", frozen)
    monkeypatch.setattr(live_module, "utcnow", frozen)
    return frozen


def started(game_id: int, at: datetime) -> None:
    """Game ``game_id`` was started at ``at`` (its stored results follow, as after every write)."""
    db.session.execute(sa.update(Game).where(Game.id == game_id).values(created_at=at))
    saving.refresh([game_id])
    db.session.commit()


def times(game_id: int) -> list[tuple[datetime | None, datetime | None]]:
    """Each round's (start, end), in order, as aware UTC times."""
    db.session.expire_all()
    rows = db.session.execute(
        sa.select(Round.started_at, Round.ended_at).where(Round.game_id == game_id).order_by(Round.number)
    ).all()
    return [(s and aware(s), e and aware(e)) for s, e in rows]


def game_page(client: FlaskClient, group, game_id: int, headers: dict[str, str] | None = None) -> str:
    r = client.get(f"/g/{group.code}/games/{game_id}", headers=headers or {})
    assert r.status_code == 200
    return html(r)


def spaced(text: str) -> str:
    """``text`` with its tags taken out and its ASCII spaces joined (non-breaking ones kept)."""
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", "", text)).strip()


def game_clock_line(page: str) -> str:
    """The game's clock line, its tags taken out and its spaces joined."""
    match = re.search(r'<p class="muted small" id="game-clock"[^>]*>(.*?)</p>', page, re.S)
    assert match, page
    return spaced(match.group(1))


def round_times(page: str) -> list[str]:
    """Each round footer's time line, as shown (most recent round first)."""
    found = re.findall(r"<p class=\"muted small\" data-round-time>(.*?)</p>", page, re.S)
    return [re.sub(r"<[^>]+>", "", line) for line in found]


# ------------------------------------------------------------------ what is written


def test_a_round_starts_when_the_one_before_ended_and_a_correction_or_an_undo_keeps_its_times(
    client: FlaskClient, clock: Clock
) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    started(game_id, utc(20))
    clock.at(20, 6)
    hand(client, group, game_id, 1, ann, **{str(bob.id): 5, str(cid.id): 7})
    clock.at(20, 20)
    hand(client, group, game_id, 2, bob, **{str(ann.id): 3, str(cid.id): 9})
    assert times(game_id) == [(utc(20), utc(20, 6)), (utc(20, 6), utc(20, 20))]

    # A correction changes what was played, not when.
    clock.at(20, 40)
    data = {"round": "1", "winner": str(cid.id), f"total_{ann.id}": "4", f"total_{bob.id}": "6"}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/1/edit", data=data)
    assert r.status_code == 302, html(r)
    assert times(game_id) == [(utc(20), utc(20, 6)), (utc(20, 6), utc(20, 20))]

    # Deleted, then brought back: with its times (the history kept them).
    version = db.session.scalar(sa.select(Game.version).where(Game.id == game_id))
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/2/delete", data={"version": version, "confirmed": "1"})
    assert r.status_code == 302, html(r)
    assert times(game_id) == [(utc(20), utc(20, 6))]
    last_change = sa.select(GameChange).where(GameChange.game_id == game_id).order_by(GameChange.id.desc())
    change = db.session.scalar(last_change)
    assert change.kind == "round_deleted"
    r = client.post(f"/g/{group.code}/games/{game_id}/changes/{change.id}/undo", data={"version": change.version})
    assert r.status_code == 302, html(r)
    assert times(game_id) == [(utc(20), utc(20, 6)), (utc(20, 6), utc(20, 20))]

    # The game page: its start, its length up to its last hand's end, a hand's average,
    # and each hand's own times (Paris: an hour ahead).
    page = game_page(client, group, game_id)
    assert game_clock_line(page) == (
        f"Commencée à 21:00 · 20{NBSP}min de jeu jusqu’à 21:20 · donne moyenne{NBSP}: 10{NBSP}min"
    )
    assert round_times(page) == [f"21:06 – 21:20 · 14{NBSP}min", f"21:00 – 21:06 · 6{NBSP}min"]
    english = game_clock_line(game_page(client, group, game_id, EN))
    assert english.startswith("Started at ") and english.endswith(
        f"· 20{NBSP}min played up to {english.split('up to ')[1].split(' ·')[0]} · average hand: 10{NBSP}min"
    )

    # Finished: its whole length.
    clock.at(21, 12)
    hand(client, group, game_id, 3, ann, **{str(bob.id): 301, str(cid.id): 301})
    assert db.session.get(Game, game_id).finished_at is not None
    line = game_clock_line(game_page(client, group, game_id))
    assert line == f"Commencée à 21:00 · Durée{NBSP}: 1{NBSP}h{NBSP}12 · donne moyenne{NBSP}: 24{NBSP}min"
    line = game_clock_line(game_page(client, group, game_id, EN))
    assert line.endswith(f"· Length: 1{NBSP}h{NBSP}12 · average hand: 24{NBSP}min")


def test_a_live_manche_starts_at_its_first_move_and_ends_at_its_last(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    # seed 000: « Lorsqu'un joueur pose des deux, personne ne peut plus monter »; the
    # order of going out gives the titles (the manche of test_referee_live, timed).
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    data = {f"seats-{i}": str(p.id) for i, p in enumerate((ann, bob, cid))}
    data |= {"target": "25", "titles": "classic", "rule_points": "y", "rule_twos_cut": "y"}
    r = client.post(f"/g/{group.code}/games/new/president", data=data)
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    started(game_id, utc(20))
    live = f"/g/{group.code}/games/{game_id}/live"

    def move(minute: int, **fields: str) -> None:
        clock.at(20, minute)
        page = html(client.get(live))
        version = re.search(r'name="version" value="(\d+)"', page)
        assert version, page
        r = client.post(f"{live}/move", data={"version": version.group(1), **fields})
        assert r.status_code == 303, html(r)

    clock.at(20, 1)
    version = re.search(r'name="version" value="(\d+)"', html(client.get(live)))
    assert client.post(f"{live}/start", data={"version": version.group(1)}).status_code == 303
    assert db.session.get(LiveManche, game_id).started_at is None  # no move yet
    move(3, action="play", player=str(bob.id), cards="4♥")
    move(4, action="pass")  # Cid
    move(5, action="pass")  # Ann: the trick is Bob's
    move(7, action="play", cards="2♥", last="y")  # Bob goes out on a 2 (last)
    move(9, action="play", cards="R♠", last="y")  # Cid goes out: the manche is over
    db.session.expire_all()
    row = db.session.get(LiveManche, game_id)
    assert row.view["finished"] is True and aware(row.started_at) == utc(20, 3)
    # Saved a little later, as the live manche filled it in: it started at the first
    # move and ended at the last one, not when the form was sent.
    clock.at(20, 12)
    data = {"round": "1", "event": "", f"forbidden_{bob.id}": "y"}
    data |= {f"finish-{i}": str(p.id) for i, p in enumerate((bob, cid, ann))}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)
    assert times(game_id) == [(utc(20, 3), utc(20, 9))]
    # The next manche, not followed: from the end of the one before to its saving.
    clock.at(20, 20)
    data = {"round": "2", "event": ""} | {f"finish-{i}": str(p.id) for i, p in enumerate((ann, bob, cid))}
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    assert times(game_id)[1] == (utc(20, 9), utc(20, 20))
    page = game_page(client, group, game_id)
    assert game_clock_line(page).endswith(f"· manche moyenne{NBSP}: 9{NBSP}min")  # (6 + 11) / 2 = 8.5
    assert round_times(page) == [f"21:09 – 21:20 · 11{NBSP}min", f"21:03 – 21:09 · 6{NBSP}min"]
    assert game_clock_line(game_page(client, group, game_id, EN)).endswith(f"· average round: 9{NBSP}min")


def test_a_whist_deal_starts_with_its_bids_and_ends_with_its_tricks(client: FlaskClient, clock: Clock) -> None:
    # seed 002: the bids, then the tricks: the deal is entered in two steps.
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_whist(client, group, [ann, bob, cid])  # Ann deals 5
    started(game_id, utc(20))
    url = f"/g/{group.code}/games/{game_id}/rounds"
    bids = {"round": "1", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "1"}
    clock.at(20, 5)
    assert client.post(f"{url}/new", data=bids).status_code == 302
    assert times(game_id) == [(utc(20), None)]  # still being played
    assert round_times(game_page(client, group, game_id)) == []
    clock.at(20, 11)
    tricks = bids | {f"tricks_{ann.id}": "1", f"tricks_{bob.id}": "3", f"tricks_{cid.id}": "1"}
    r = client.post(f"{url}/1/edit", data=tricks)
    assert r.status_code == 302, html(r)
    assert times(game_id) == [(utc(20), utc(20, 11))]

    # Deal 2 (Ann deals 4): its bids typed, its tricks followed live: it ends at the
    # last card played, not when the tricks are saved.
    clock.at(20, 15)
    bids = {"round": "2", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "0"}
    assert client.post(f"{url}/new", data=bids).status_code == 302
    live = f"/g/{group.code}/games/{game_id}/live"
    clock.at(20, 16)
    version = re.search(r'name="version" value="(\d+)"', html(client.get(live)))
    assert client.post(f"{live}/start", data={"version": version.group(1)}).status_code == 303
    for minute, card in enumerate(("T1", "T2", "T21", "T20", "T3", "T4", "T19", "T5", "T6", "T7", "T8", "T9"), 17):
        clock.at(20, minute)
        version = re.search(r'name="version" value="(\d+)"', html(client.get(live)))
        r = client.post(f"{live}/move", data={"version": version.group(1), "card": card})
        assert r.status_code == 303, html(r)
    db.session.expire_all()
    row = db.session.get(LiveManche, game_id)
    assert row.entry is not None and row.view["finished"] is True
    clock.at(20, 40)
    data = {"round": "2"} | {f"tricks_{p}": str(v) for p, v in row.entry["tricks"].items()}
    r = client.post(f"{url}/2/edit", data=data)
    assert r.status_code == 302, html(r)
    assert times(game_id) == [(utc(20), utc(20, 11)), (utc(20, 11), utc(20, 28))]


def test_an_import_gives_rounds_the_times_the_app_would_have_written(client: FlaskClient) -> None:
    # A file's rounds say when they were saved: each ended then, and started when the
    # one before ended (the game's start for the first); a deal awaiting its tricks has
    # no end yet.
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    whist = start_whist(client, group, [ann, bob, cid])
    bids = {"round": "1", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "1"}
    url = f"/g/{group.code}/games/{whist}/rounds"
    assert client.post(f"{url}/new", data=bids).status_code == 302
    tricks = bids | {f"tricks_{ann.id}": "1", f"tricks_{bob.id}": "3", f"tricks_{cid.id}": "1"}
    assert client.post(f"{url}/1/edit", data=tricks).status_code == 302
    bids = {"round": "2", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "0"}
    assert client.post(f"{url}/new", data=bids).status_code == 302
    exported = client.get(f"/g/{group.code}/export.json")
    assert exported.status_code == 200
    r = upload(client, exported.get_data(), name="Copie")
    assert r.status_code == 302, html(r)
    copy = db.session.scalar(sa.select(Game).where(Game.id != whist, Game.kind == "whist-tarot"))
    assert copy is not None
    saved = db.session.scalars(sa.select(Round.created_at).where(Round.game_id == copy.id).order_by(Round.number))
    first, _second = (aware(at) for at in saved)
    assert times(copy.id) == [(aware(copy.created_at), first), (first, None)]


# ------------------------------------------------------------------ an evening


def _evening(client: FlaskClient, clock: Clock):
    """Friday's evening: three crapouille duels Ann plays, the last across midnight.

    21:00 – 21:30 Ann beats Bob (30 min); 22:00 – 23:15 Ann beats Cid (1 h 15);
    23:50 – 00:40 Bob beats Ann (50 min), on Saturday's date but Friday's evening."""
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    games = []
    for (start, end), (winner, loser) in zip(
        ((utc(20), utc(20, 30)), (utc(21), utc(22, 15)), (utc(22, 50), utc(23, 40))),
        ((ann, bob), (ann, cid), (bob, ann)),
        strict=True,
    ):
        game_id = start_crapouille(client, group, [winner, loser])
        started(game_id, start)
        clock.now = end
        hand(client, group, game_id, 1, winner, **{str(loser.id): 301})
        games.append(game_id)
    return group, (ann, bob, cid), games


def test_the_recap_gives_the_evenings_length_and_its_longest_game(client: FlaskClient, clock: Clock) -> None:
    group, _players, games = _evening(client, clock)
    assert {night_of(utc(22, 50), "Europe/Paris")} == {FRIDAY}  # the night it started
    r = client.get(f"/g/{group.code}/evenings/{FRIDAY.isoformat()}")
    assert r.status_code == 200
    page = html(r)
    block = page[page.index('id="evening-clock"') :]
    block = block[: block.index("</section>")]
    text = spaced(block)
    assert f"De 21:00 à 00:40{NBSP}: 3{NBSP}h{NBSP}40 de jeu." in text
    assert f"Partie la plus longue{NBSP}: La crapouille (Ann, Cid), 1{NBSP}h{NBSP}15." in text
    lengths = dict(re.findall(r'data-length-of="(\d+)">(.*?)</li>', block, re.S))
    shown = {int(k): spaced(v) for k, v in lengths.items()}
    assert shown == {
        games[0]: f"La crapouille · 21:00 – 21:30 · 30{NBSP}min",
        games[1]: f"La crapouille · 22:00 – 23:15 · 1{NBSP}h{NBSP}15",
        games[2]: f"La crapouille · 23:50 – 00:40 · 50{NBSP}min",
    }
    english = html(client.get(f"/g/{group.code}/evenings/{FRIDAY.isoformat()}", headers=EN))
    assert f"3{NBSP}h{NBSP}40 of play." in english and f"1{NBSP}h{NBSP}15." in english
    assert "Longest game: " in english
    # Saturday has no evening of its own: the game across midnight is Friday's.
    assert client.get(f"/g/{group.code}/evenings/2026-03-07").status_code == 404


def test_the_player_page_gives_the_time_played_and_the_average_game(client: FlaskClient, clock: Clock) -> None:
    group, (ann, bob, cid), _games = _evening(client, clock)

    def line(player, headers=None) -> str | None:
        page = html(client.get(f"/g/{group.code}/players/{player.id}/stats", headers=headers or {}))
        match = re.search(r'data-figure="time-played">(.*?)</p>', page, re.S)
        return spaced(match.group(1)) if match else None

    # Ann: 30 min + 1 h 15 + 50 min = 2 h 35 over three finished games (51 min 40 s each).
    assert line(ann) == f"Temps de jeu cette saison{NBSP}: 2{NBSP}h{NBSP}35 · partie moyenne{NBSP}: 52{NBSP}min"
    assert line(ann, EN) == f"Time played this season: 2{NBSP}h{NBSP}35 · average game: 52{NBSP}min"
    assert line(cid) == f"Temps de jeu cette saison{NBSP}: 1{NBSP}h{NBSP}15 · partie moyenne{NBSP}: 1{NBSP}h{NBSP}15"
    # A game in progress counts at the table, not in the finished games' average.
    game_id = start_crapouille(client, group, [bob, cid])
    started(game_id, utc(23, 45))
    clock.at(23, 59)
    hand(client, group, game_id, 1, bob, **{str(cid.id): 10})
    assert line(cid) == f"Temps de jeu cette saison{NBSP}: 1{NBSP}h{NBSP}29 · partie moyenne{NBSP}: 1{NBSP}h{NBSP}15"
    # Nothing played yet: nothing said.
    dan = add_players(client, group, "Dan")[0]
    assert line(dan) is None


def test_the_pages_read_the_clock_in_a_constant_number_of_queries(client: FlaskClient, clock: Clock) -> None:
    from companion.pagecache import page_cache

    group, seated, _games = _evening(client, clock)
    ann, bob, cid = (SimpleNamespace(id=p.id) for p in seated)  # (the test's session is closed below)
    running = start_crapouille(client, group, [ann, bob, cid])
    started(running, utc(23, 45))

    def counts() -> dict[str, int]:
        counted = {}
        for name, url in {
            "game": f"/g/{group.code}/games/{running}",
            "recap": f"/g/{group.code}/evenings/{FRIDAY.isoformat()}",
            "player": f"/g/{group.code}/players/{ann.id}/stats",
        }.items():
            db.session.close()
            page_cache().clear()
            with count_queries() as statements:
                assert client.get(url).status_code == 200
            counted[name] = len(statements)
        return counted

    clock.at(23, 50)
    hand(client, group, running, 1, ann, **{str(bob.id): 5, str(cid.id): 7})
    few = counts()
    for number in range(2, 9):
        clock.now = utc(23, 50) + timedelta(minutes=4 * number)
        hand(client, group, running, number, ann, **{str(bob.id): 5, str(cid.id): 7})
    for winner, loser in ((bob, cid), (cid, ann)):
        game_id = start_crapouille(client, group, [winner, loser])
        started(game_id, utc(22))
        hand(client, group, game_id, 1, winner, **{str(loser.id): 301})
    assert counts() == few
