"""The season page as history grows: 100, 1,000 and 10,000 rounds in one season.

Run with ``.venv/bin/python benchmarks/standings.py`` (``--sizes 100 1000`` for fewer,
``--no-postgresql`` to skip it). For each database — a throw-away SQLite file, and
PostgreSQL in a throw-away schema when ``TEST_DATABASE_URL`` (default: the CI server)
answers — and each size, it fills a season through the models: games of the four
kinds among eight players, each round's state computed by the kind's own scoring (the
engine) as the pages do, spread over game nights of about 40 rounds, one transaction
per game, so the stored results and the rating are kept up to date by the same call
as in production (``companion.games.saving.refresh``, before each commit); then
SQLite's log is checkpointed and PostgreSQL's statistics gathered, as in steady use,
and what the fill left in memory is frozen out of the garbage collector's sight (a
server never did the fill). Crapouille games of one hand go through the real pages.

It prints, per size: the season page's time (Flask test client, median of 15 GETs
after 2 warm-ups) and the number of SQL queries of one GET (must be the same at every
size), the median time of a hand saved through the page
(the write that refreshes results, totals and rating), the time of one full rating
recompute of the season (every match replayed) and of the usual one (tonight only);
then the ratio of the page time at the largest size to the smallest (goal: ≤ 1.5×).
It asserts nothing.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

import argparse
import gc
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import globals as flask_globals

from companion import create_app
from companion.extensions import db
from companion.games import saving
from companion.games.kinds import KINDS
from companion.games.rating import refresh_season
from companion.models import (
    Game,
    GamePlayer,
    GameStatus,
    Group,
    Player,
    RatedMatch,
    Round,
    Season,
)
from companion.rules import whist_tarot
from companion.rules.i18n import RulesError

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
#: Share of the rounds of each kind.
MIX = [("president", 0.35), ("piketty", 0.15), ("whist-tarot", 0.25), ("crapouille", 0.25)]
ROUNDS_PER_NIGHT = 40
DRAW_CARDS = ["2c", "As", "Kd", "Qh", "Jc", "10s", "9d", "8h", "7c"]


# ------------------------------------------------------------------------------- filling


def _entry(kind: str, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A plausible round of ``kind`` from ``state`` (the kind's scoring judges it)."""
    if kind in ("president", "piketty"):
        order = list(state["hierarchy"])
        if state.get("draw") and state.get("first"):
            cards = rng.sample(DRAW_CARDS, len(order))
            return {"draw": {p: [c] for p, c in zip(order, cards, strict=True)}}
        rng.shuffle(order)
        return {"finish": order[:-1], "finished_on": [], "events": {}}
    if kind == "whist-tarot":
        deal = state["deal"]
        cards, dealer = int(deal["cards"]), deal["dealer"]
        bidders = list(whist_tarot.bidding_order(state["players"], dealer))
        bids = {p: rng.randint(0, cards) for p in bidders[:-1]}
        forbidden = whist_tarot.forbidden_bid(cards, bids.values())
        bids[dealer] = next(b for b in rng.sample(range(cards + 1), cards + 1) if b != forbidden)
        tricks = dict.fromkeys(bidders, 0)
        for _ in range(cards):
            tricks[rng.choice(bidders)] += 1
        return {"bids": bids, "tricks": tricks}
    live = list(state["in_play"])
    winner = rng.choice(live)
    return {"winner": winner, "hands": {}, "points": {p: rng.randint(0, 70) for p in live if p != winner}}


def _play_game(kind_id: str, season: Season, players: list[Player], start: datetime, rng: random.Random, budget: int):
    """One game of ``kind_id`` with ``players``, at most ``budget`` rounds, rounds a few
    minutes apart from ``start``; committed, its results and rating refreshed first."""
    kind = KINDS[kind_id]
    rules: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    if kind_id in ("president", "piketty"):
        rules = {"target": 12}
        setup = {"first": "draw" if kind_id == "piketty" else "played"}
    elif kind_id == "whist-tarot":
        setup = {"dealer": str(players[0].id)}
    game = Game(season=season, kind=kind_id, rules=rules, setup=setup, status=GameStatus.IN_PROGRESS, created_at=start)
    game.seats = [GamePlayer(seat=i, player=p) for i, p in enumerate(players)]
    db.session.add(game)
    db.session.flush()
    state = kind.initial_state(game)
    number = 0
    moment = start
    while number < budget and not kind.over(state):
        try:
            state = kind.score(game, state, _entry(kind_id, state, rng))
        except RulesError:
            continue
        number += 1
        moment += timedelta(minutes=3)
        db.session.add(Round(game=game, number=number, entry={}, result=state, created_at=moment))
    game.version = number
    if kind.over(state):
        game.status = GameStatus.FINISHED
        game.ending = {"winners": kind.winners(state)}
    else:
        game.status = GameStatus.FINISHED
        game.ending = {"winners": kind.leaders(state), "early": True}
    game.finished_at = moment + timedelta(minutes=1)
    saving.refresh([game.id])
    db.session.commit()
    return number, moment


def fill(rounds: int, rng: random.Random) -> tuple[Group, Season, list[Player]]:
    """A group, eight players, one season holding about ``rounds`` rounds."""
    group = Group(code="BENCH1", name="Bench")
    group.set_passphrase("not a real passphrase")
    season = Season(starts_on=datetime(2020, 1, 1).date(), is_current=True)
    season.rename("Bench")
    group.seasons.append(season)
    players = [Player(group=group, name=n, name_key=n.lower()) for n in NAMES]
    db.session.add(group)
    db.session.commit()
    # Game nights three days apart, the last one yesterday evening: a hand saved now
    # belongs to a new night, as it does at a real table.
    nights = -(-rounds // ROUNDS_PER_NIGHT)
    yesterday = datetime.now(UTC).replace(hour=19, minute=0, second=0, microsecond=0) - timedelta(days=1)
    first_night = yesterday - timedelta(days=3 * (nights - 1))
    done, night = 0, 0
    while done < rounds:
        start = first_night + timedelta(days=3 * night)
        tonight = 0
        while tonight < ROUNDS_PER_NIGHT and done < rounds:
            kind = rng.choices([k for k, _ in MIX], weights=[w for _, w in MIX])[0]
            size = {"president": rng.randint(4, 6), "piketty": rng.randint(4, 6), "whist-tarot": rng.choice([3, 4])}
            table = rng.sample(players, size.get(kind, rng.randint(2, 5)))
            budget = min(60, rounds - done, ROUNDS_PER_NIGHT - tonight + 10)
            played, end = _play_game(kind, season, table, start, rng, budget)
            done += played
            tonight += played
            start = end + timedelta(minutes=5)
        night += 1
    return group, season, players


# ----------------------------------------------------------------------------- measuring


def _join(client: Any, group: Group) -> None:
    """This client joins the group through the page (its device cookie)."""
    r = client.post("/join", data={"code": group.code, "passphrase": "not a real passphrase", "device_name": "b"})
    assert r.status_code == 302, r.status_code


def _queries(client: Any, url: str) -> int:
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        assert client.get(url).status_code == 200
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", count)
    return len(statements)


@contextmanager
def _as_a_server() -> Iterator[None]:
    """Requests as a server makes them: each in its own app context, with its own
    database session (this script's context would otherwise be shared with them: its
    session, its transaction and what it loaded)."""
    ctx = flask_globals.app_ctx._get_current_object()
    ctx.pop()
    try:
        yield
    finally:
        ctx.push()


def _median_gets(client: Any, url: str, times: int = 15) -> float:
    """The median time of a GET of ``url`` (after two warm-ups)."""
    samples = []
    for i in range(2 + times):
        t = time.perf_counter()
        r = client.get(url)
        if i >= 2:
            samples.append(time.perf_counter() - t)
        assert r.status_code == 200
    return statistics.median(samples)


def _hands_through_the_page(client: Any, group: Group, players: list[Player], times: int = 5) -> float:
    """Crapouille games of one hand each, through the pages (the hand ends the game: its
    results, the season's totals and tonight's rating are refreshed); the median time
    of a hand saved."""
    samples = []
    for i in range(times):
        a, b = players[i % len(players)], players[(i + 1) % len(players)]
        r = client.post(f"/g/{group.code}/games/new/crapouille", data={"seats-0": str(a.id), "seats-1": str(b.id)})
        game_id = int(r.headers["Location"].rsplit("/", 1)[1])
        t = time.perf_counter()
        r = client.post(
            f"/g/{group.code}/games/{game_id}/rounds/new",
            data={"round": "1", "winner": str(a.id), f"total_{b.id}": "301"},
        )
        samples.append(time.perf_counter() - t)
        assert r.status_code == 302, r.get_data(as_text=True)[:500]
    return statistics.median(samples)


def _settle() -> None:
    """After the fill, the database as it would be in steady use: SQLite's write-ahead
    log checkpointed, PostgreSQL's statistics gathered (what autovacuum does)."""
    with db.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        else:
            conn.exec_driver_sql("ANALYZE")
        conn.commit()


def measure(config: dict[str, Any], rounds: int) -> dict[str, Any]:
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, **config})
    with app.app_context():
        db.drop_all()
        db.create_all()
        rng = random.Random(rounds)
        t = time.perf_counter()
        group, season, players = fill(rounds, rng)
        filled = time.perf_counter() - t
        stored = db.session.scalar(sa.select(sa.func.count(Round.id))) or 0
        games = db.session.scalar(sa.select(sa.func.count(Game.id))) or 0
        matches = db.session.scalar(sa.select(sa.func.count(RatedMatch.id))) or 0
        group_code, season_id = group.code, season.id
        db.session.remove()
        _settle()
        # What the fill left in this process's memory must not slow the measures down
        # (a server never did the fill): out of the garbage collector's sight.
        gc.collect()
        gc.freeze()
        client = app.test_client()
        _join(client, db.session.scalar(sa.select(Group).where(Group.code == group_code)))
        url = f"/g/{group_code}/seasons/{season_id}"
        db.session.remove()
        with _as_a_server():
            page = _median_gets(client, url)
        queries = _queries(client, url)
        group = db.session.scalar(sa.select(Group).where(Group.code == group_code))
        players = list(db.session.scalars(sa.select(Player).where(Player.group_id == group.id).order_by(Player.id)))
        write = _hands_through_the_page(client, group, players)
        db.session.remove()
        t = time.perf_counter()
        refresh_season(db.session, season_id, None)
        db.session.commit()
        full = time.perf_counter() - t
        last_night = db.session.scalar(sa.select(sa.func.max(RatedMatch.night)))
        t = time.perf_counter()
        refresh_season(db.session, season_id, last_night)
        db.session.commit()
        tonight = time.perf_counter() - t
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
        gc.unfreeze()
        gc.collect()
    return {
        "rounds": stored,
        "games": games,
        "matches": matches,
        "fill": filled,
        "page": page,
        "queries": queries,
        "write": write,
        "full": full,
        "tonight": tonight,
    }


def _postgresql(schema: str) -> dict[str, Any] | None:
    try:
        engine = sa.create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
    except Exception as e:  # any failure to connect: PostgreSQL is not there
        print(f"PostgreSQL not reachable ({type(e).__name__}); skipped.")
        return None
    return {
        "SQLALCHEMY_DATABASE_URI": PG_URL,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--no-postgresql", action="store_true")
    args = parser.parse_args()
    databases: list[tuple[str, dict[str, Any]]] = []
    tmp = tempfile.TemporaryDirectory()
    databases.append(("SQLite", {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"}))
    schema = f"companion_bench_{os.getpid()}"
    pg = None if args.no_postgresql else _postgresql(schema)
    if pg is not None:
        databases.append(("PostgreSQL", pg))
    header = (
        f"{'database':<11}{'rounds':>7}{'games':>7}{'matches':>8}{'fill s':>7}{'page ms':>9}{'queries':>8}"
        f"{'hand ms':>8}{'rating full ms':>15}{'tonight ms':>11}"
    )
    print(header)
    print("-" * len(header))
    try:
        for name, config in databases:
            pages = []
            for size in args.sizes:
                m = measure(config, size)
                pages.append(m["page"])
                print(
                    f"{name:<11}{m['rounds']:>7}{m['games']:>7}{m['matches']:>8}{m['fill']:>7.1f}"
                    f"{m['page'] * 1000:>9.1f}{m['queries']:>8}"
                    f"{m['write'] * 1000:>8.1f}{m['full'] * 1000:>15.0f}{m['tonight'] * 1000:>11.1f}",
                    flush=True,
                )
            sizes = f"{args.sizes[-1]} / {args.sizes[0]} rounds"
            print(f"{name:<11}page time {sizes}: {pages[-1] / pages[0]:.2f}× (goal: ≤ 1.5×)")
    finally:
        tmp.cleanup()
        if pg is not None:
            engine = sa.create_engine(PG_URL)
            with engine.begin() as conn:
                conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            engine.dispose()


if __name__ == "__main__":
    main()
