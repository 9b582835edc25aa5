"""The largest file an import accepts: how long it takes, and what it costs the other
groups' writes while it runs.

Run with ``.venv/bin/python benchmarks/import_big.py`` (``--db sqlite|postgresql|both``,
``--seconds`` for the baseline's length). It builds, seeded and in memory, the largest
export an import accepts: a group of eight players, three seasons and games of the four
kinds — mostly small tables of la crapouille and whist, whose rounds are the smallest —
added until one more would pass 8 MiB (``transfer.MAX_IMPORT_BYTES``): some 25,000
rounds, each with its line of history, every state computed by the kind's own scoring
(the engine), every setup, entry and outcome as the app's forms write them, so that
the import accepts it. Then, for each database — a throw-away SQLite file, and
PostgreSQL (``TEST_DATABASE_URL``, default 127.0.0.1:5432, database ``test``) in a
throw-away schema when it answers —:

1. another process (a phone of *another* group) saves crapouille hands through the
   pages, one after the other with 10 ms between them, timing each save;
2. **baseline**: for ``--seconds`` it does only that, no import running: the median and
   the longest time of a save, as the table sees them on a quiet server;
3. **import**: the file is posted to ``/import`` (the page, in this process) while the
   other process keeps saving hands: the import's time (the POST, from sending the file
   to the redirect to the new group), and the median and the longest time of the hands
   saved while it ran (any save that overlapped it, including the wait for its turn).

It prints those figures and the import's size (rounds, games, bytes). It asserts only
that the import succeeded (a redirect to the new group).
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import argparse
import io
import json
import multiprocessing as mp
import random
import re
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from benchmarks._serve import PG_URL, postgres

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
#: The kinds' shares of the games, and their tables' sizes: small tables of la
#: crapouille and whist make the most rounds per megabyte (the largest file's worst case).
MIX = [
    ("crapouille", 0.80, (2, 2, 2, 3)),
    ("whist-tarot", 0.16, (3,)),
    ("president", 0.025, (4,)),
    ("piketty", 0.015, (4,)),
]
#: The heaviest file for the standings: le Président and Piketty only (a rated match per
#: manche, the season's rating replayed over thousands of them), to 25 points.
PRESIDENT_MIX = [("president", 0.7, (4, 5, 6)), ("piketty", 0.3, (4, 5))]
#: Between two hands of the other group's phone.
PAUSE = 0.010


# ------------------------------------------------------------------------- the file


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _entry(kind: str, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A round of ``kind`` from ``state``, shaped as the kind's round form writes it."""
    from companion.rules import whist_tarot
    from companion.rules.cards import parse_cards

    if kind in ("president", "piketty"):
        order = list(state["hierarchy"])
        if state.get("draw") and state.get("first"):
            cards = rng.sample(["2c", "As", "Kd", "Qh", "Jc", "10s", "9d", "8h", "7c"], len(order))
            return {"draw": {p: [str(c) for c in parse_cards(card)] for p, card in zip(order, cards, strict=True)}}
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
    return {"winner": winner, "hands": {}, "points": {p: rng.randint(0, 40) for p in live if p != winner}}


def _game(
    game_id: int, season: int, kind_id: str, seats: list[int], start: datetime, rng: random.Random, target: int
) -> tuple[dict[str, Any], datetime]:
    """One game of the file, played to its end (or stopped early), and when it ended."""
    from companion.games.kinds import KINDS
    from companion.games.kinds.president.options import DEFAULT_TARGET
    from companion.models import Game, GamePlayer, Player
    from companion.rules.i18n import RulesError

    kind = KINDS[kind_id]
    rules: dict[str, Any] = {"super": False} if kind_id == "crapouille" else {}
    setup: dict[str, Any] = {}
    if kind_id in ("president", "piketty"):
        rules = {"target": target} if target != DEFAULT_TARGET else {}
        setup = {"first": "draw" if kind_id == "piketty" else "played"}
    elif kind_id == "whist-tarot":
        setup = {"dealer": str(seats[0])}
    game = Game(kind=kind_id, rules=rules, setup=setup, version=0)
    game.seats = [GamePlayer(seat=i, player=Player(id=p, name=NAMES[p - 1])) for i, p in enumerate(seats)]
    state = kind.initial_state(game)
    rounds: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    moment = start
    budget = rng.randint(8, 60) if kind_id not in ("president", "piketty") else 200
    while len(rounds) < budget and not kind.over(state):
        entry = _entry(kind_id, state, rng)
        try:
            state = kind.score(game, state, entry)
        except RulesError:
            continue
        moment += timedelta(minutes=3)
        rounds.append({"number": len(rounds) + 1, "entry": entry, "result": state, "created_at": _iso(moment)})
    if kind.over(state):
        outcome: dict[str, Any] = {"winners": kind.winners(state)}
        changes.append({"at": _iso(moment), "kind": "finished", "round": len(rounds), "data": None})
    else:
        outcome = {"winners": kind.leaders(state), "early": True}
        moment += timedelta(minutes=1)
        changes.append({"at": _iso(moment), "kind": "finished", "round": None, "data": None})
    changes[-1]["version"] = len(rounds) + 1
    document = {
        "id": game_id,
        "season": season,
        "kind": kind_id,
        "rules": rules,
        "setup": setup,
        "status": "finished",
        "created_at": _iso(start),
        "updated_at": _iso(moment),
        "finished_at": _iso(moment),
        "version": len(rounds) + 1,
        "outcome": outcome,
        "seats": seats,
        "rounds": rounds,
        "changes": changes,
    }
    return document, moment


def largest_file(mix: list[tuple[str, float, tuple[int, ...]]] = MIX, seed: int = 24) -> tuple[bytes, int, int]:
    """The largest export an import accepts (see the module's docstring), its games drawn
    from ``mix``: its bytes, its number of rounds and of games."""
    from companion.groups.transfer import MAX_IMPORT_BYTES

    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    first = now - timedelta(days=3 * 365)
    seasons = [
        {"id": i + 1, "name": f"Saison {i + 1}", "starts_on": (first + timedelta(days=365 * i)).date().isoformat()}
        for i in range(3)
    ]
    for s in seasons:
        s |= {
            "is_current": s["id"] == 3,
            "created_at": _iso(datetime.fromisoformat(s["starts_on"]).replace(tzinfo=UTC)),
        }
    head: dict[str, Any] = {
        "format": "companion-group",
        "version": 1,
        "scope": "group",
        "exported_at": _iso(now),
        "group": {"name": "Le gros fichier", "time_zone": "Europe/Paris"},
        "players": [{"id": i + 1, "name": n, "created_at": _iso(first)} for i, n in enumerate(NAMES)],
        "seasons": seasons,
        "games": [],
    }
    size = len(json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode())
    games: list[str] = []
    rounds = 0
    moment = first + timedelta(hours=20)
    while True:
        kind, _share, sizes = rng.choices(mix, weights=[m[1] for m in mix])[0]
        seats = rng.sample(range(1, len(NAMES) + 1), rng.choice(sizes))
        season = 1 + min(2, (moment - first).days // 365)
        game, end = _game(len(games) + 1, season, kind, seats, moment, rng, 12 if mix is MIX else 25)
        text = json.dumps(game, ensure_ascii=False, separators=(",", ":"))
        if size + len(text.encode()) + 1 > MAX_IMPORT_BYTES:
            break
        games.append(text)
        size += len(text.encode()) + 1
        rounds += len(game["rounds"])
        # A few games an evening, evenings every other day or so.
        moment = end + timedelta(minutes=5) if rng.random() < 0.8 else end + timedelta(days=1, hours=-4)
        if moment > now - timedelta(days=1):
            moment = now - timedelta(days=1)
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    body = text.replace('"games":[]', '"games":[' + ",".join(games) + "]")
    data = body.encode()
    assert len(data) <= MAX_IMPORT_BYTES, len(data)
    return data, rounds, len(games)


# ------------------------------------------------------------------------- the apps


def _config(url: str) -> dict[str, Any]:
    return {
        "SECRET_KEY": "bench",
        "WTF_CSRF_ENABLED": False,
        "GROUPS_PER_HOUR": 10**6,
        "SQLALCHEMY_DATABASE_URI": url,
    }


def _upload(client: Any, content: bytes) -> Any:
    data = {
        "name": "Le gros fichier",
        "passphrase": "sept de pique",
        "confirm": "sept de pique",
        "device_name": "Tablette",
        "file": FileStorage(io.BytesIO(content), "export.json", content_type="application/json"),
    }
    boundary, body = encode_multipart(data)
    return client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def _other_group_phone(url: str, ready: Any, stop: Any, out: Any) -> None:
    """The other group's phone (a process of its own): creates its group and a crapouille
    game through the pages, then saves hands until ``stop``, sending each save's
    (start, end) on ``out`` (monotonic clock, shared by the processes of the machine)."""
    from companion import create_app

    app = create_app(_config(url))
    client = app.test_client()
    r = client.post("/groups/new", data={"name": "Les autres", "passphrase": "trou du cul", "confirm": "trou du cul"})
    code = r.headers["Location"].rsplit("/", 1)[-1]
    for name in ("Zoé", "Yves"):
        client.post(f"/g/{code}/players", data={"name": name})
    page = client.get(f"/g/{code}/games/new/crapouille").get_data(as_text=True)
    ids = sorted(set(re.findall(r'<option value="(\d+)"', page)))

    def new_game() -> str:
        r = client.post(f"/g/{code}/games/new/crapouille", data={"seats-0": ids[0], "seats-1": ids[1]})
        return str(r.headers["Location"])

    game, number = new_game(), 0
    times: list[tuple[float, float]] = []
    while True:
        if number >= 250:
            game, number = new_game(), 0
        number += 1
        t0 = time.monotonic()
        r = client.post(f"{game}/rounds/new", data={"round": str(number), "winner": ids[0], f"total_{ids[1]}": "1"})
        t1 = time.monotonic()
        assert r.status_code == 302, r.status_code
        times.append((t0, t1))
        if number == 5:
            ready.set()
        if stop.is_set():
            break
        time.sleep(PAUSE)
    out.put(times)


@contextmanager
def _phone(url: str) -> Iterator[Any]:
    """The other group's phone, running; yields the function that stops it and returns
    its saves' times."""
    ctx = mp.get_context("spawn")
    ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    process = ctx.Process(target=_other_group_phone, args=(url, ready, stop, out), daemon=True)
    process.start()
    if not ready.wait(120):
        process.kill()
        raise RuntimeError("the other group's phone did not start")

    def finish() -> list[tuple[float, float]]:
        stop.set()
        times: list[tuple[float, float]] = out.get(timeout=120)
        return times

    try:
        yield finish
    finally:
        stop.set()
        process.join(30)
        if process.is_alive():
            process.kill()


def _figures(times: list[tuple[float, float]]) -> str:
    if not times:
        return "no save"
    waits = [b - a for a, b in times]
    return f"{len(waits)} saves, median {statistics.median(waits) * 1000:.0f} ms, longest {max(waits) * 1000:.0f} ms"


@contextmanager
def _transactions(engine: sa.Engine) -> Iterator[list[float]]:
    """The length of each writing transaction ``engine`` runs meanwhile, from its start to
    its end: on SQLite the ones that wrote (a writer holds the write lock at most that
    long; a reader's transaction waits for no one), on PostgreSQL every one. Only
    SQLAlchemy's events: nothing of the app's own."""
    spans: list[float] = []
    began: dict[int, float] = {}
    wrote: set[int] = set()

    def begin(conn: sa.Connection) -> None:
        began[id(conn)] = time.monotonic()

    def statement(conn: sa.Connection, _cursor: Any, text: str, *_args: Any) -> None:
        if text.lstrip()[:7].upper().startswith(("INSERT", "UPDATE", "DELETE", "REPLACE")):
            wrote.add(id(conn))

    def end(conn: sa.Connection) -> None:
        start = began.pop(id(conn), None)
        writer = id(conn) in wrote or conn.dialect.name != "sqlite"
        wrote.discard(id(conn))
        if start is not None and writer:
            spans.append(time.monotonic() - start)

    events = (("begin", begin), ("before_cursor_execute", statement), ("commit", end), ("rollback", end))
    for name, listener in events:
        sa.event.listen(engine, name, listener)
    try:
        yield spans
    finally:
        for name, listener in events:
            sa.event.remove(engine, name, listener)


def measure(label: str, url: str, content: bytes, seconds: float) -> None:
    from companion import create_app
    from companion.extensions import db

    app = create_app(_config(url))
    with app.app_context():
        db.drop_all()
        db.create_all()
        db.session.remove()
        engine = db.engine
    client = app.test_client()
    client.get("/import")  # the page's first rendering, outside the measure
    with _phone(url) as finish:
        base_start = time.monotonic()
        time.sleep(seconds)
        base_end = time.monotonic()
        with _transactions(engine) as spans:
            start = time.monotonic()
            response = _upload(client, content)
            end = time.monotonic()
        time.sleep(1.0)
        times = finish()
    page = response.get_data(as_text=True)
    assert response.status_code == 302 and "/g/" in response.headers["Location"], page[-2000:]
    baseline = [(a, b) for a, b in times if a >= base_start and b <= base_end]
    during = [(a, b) for a, b in times if b >= start and a <= end]
    print(f"\n{label}")
    turns = (
        "transactions that wrote (the write lock held at most that long)"
        if label == "sqlite"
        else "writing transactions"
    )
    print(f"  import: {end - start:.1f} s; {len(spans)} {turns}, the longest {max(spans) * 1000:.0f} ms")
    print(f"  other group's hands during the import: {_figures(during)}")
    print(f"  baseline, the same hands with no import running ({seconds:.0f} s): {_figures(baseline)}")
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@contextmanager
def _postgresql() -> Iterator[str | None]:
    """A schema of its own in the test PostgreSQL (None when it does not answer)."""
    with postgres(quiet=True) as url:
        if url is None:
            print(f"\npostgresql: skipped, {PG_URL} does not answer")
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--file", choices=["rounds", "president", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of the baseline")
    args = parser.parse_args()
    from companion import create_app

    files = {"rounds": MIX, "president": PRESIDENT_MIX}
    for name, mix in files.items():
        if args.file not in (name, "both"):
            continue
        with create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"}).app_context():
            content, rounds, games = largest_file(mix)
        what = "the most rounds" if mix is MIX else "le Président and Piketty only: the heaviest standings"
        print(f"\n== file: {what}: {len(content) / 2**20:.2f} MiB, {games} games, {rounds} rounds")
        if args.db in ("sqlite", "both"):
            with tempfile.TemporaryDirectory() as folder:
                measure("sqlite", f"sqlite:///{folder}/bench.sqlite3", content, args.seconds)
        if args.db in ("postgresql", "both"):
            with _postgresql() as url:
                if url is not None:
                    measure("postgresql", url, content, args.seconds)


if __name__ == "__main__":
    main()
