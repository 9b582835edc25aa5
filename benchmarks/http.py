"""Companion over HTTP beside a bare Flask app: requests a second, latency, page sizes, memory.

For each database — a throw-away SQLite file, and PostgreSQL in a throw-away schema when
``TEST_DATABASE_URL`` (default: the CI server, 127.0.0.1:5432) answers — it:

1. seeds a realistic group in process: a season of history (``--history`` rounds, about
   50 finished games of the four kinds among eight players, filled as
   ``benchmarks/standings.py`` does), then, through the pages as a phone would, one game
   in progress of each kind with ``--rounds`` rounds (30: crapouille at 4, Président at 5,
   Piketty at 6 from its card draw, whist at 4, bids then tricks; a whist game stops
   before the deal that would end it), and, in a second group, two-player crapouille
   games for the round POSTs (each POST saves a new round: request *i* is round
   ``i // games + 1`` of game ``i % games``);
2. starts Companion (``companion:create_app()``) and the bare app of
   ``benchmarks/bare_app.py`` under the same gunicorn settings (``--workers 2`` sync
   workers by default; ``--worker-class gthread --threads 8``), both on 127.0.0.1;
3. joins the group once through the join form as a phone and reuses that session
   cookie; another phone joins the second group, and its cookie and the CSRF token of
   a round form send the POSTs (the pool's games stay off the first phone's pages);
   every request says ``Accept-Encoding: gzip, br`` and carries a cookie, as a phone's
   would;
4. drives each endpoint for ``--seconds`` with wrk (``-t2 -c32``, a Lua script for the
   POSTs) when it is installed, else a bundled Python load generator (32 threads, each
   with its own keep-alive ``http.client`` connection; it shares the two CPUs with the
   servers, so its figures are lower bounds): the bare ``/hello``, ``/template``,
   ``/bytes`` and ``/row`` baselines; ``/api/v1/check`` and ``/api/v1/outcome`` of each game (bodies
   from each kind's ``api/examples.py``); the home page, the group page, each kind's game
   page and round-entry page, the season's standings; a round saved (crapouille);
5. prints the table — endpoint, req/s, p50, p99, ratio to its baseline, and for the
   rules API the goal of issue 14, pass or fail (the pages' and the round POST's goals
   are retired: their ratios are printed without one; ``benchmarks/capacity.py`` gives
   the figure a host feels) — then what each baseline does: ``/hello`` a string;
   ``/template`` a Jinja page shaped like Companion's, with how long one render takes in
   process and how much of it its 120 macro calls cost (against the same page with the
   cell inline; medians); ``/bytes`` that page's bytes from memory (Flask and gunicorn
   with no template); ``/row`` one row read — then each page's size: its HTML, gzipped here (level 6; the
   goal is 20 KB) and as the app sent it (with its ``Content-Encoding``), and its SQL
   queries (one GET, in process); then the growth of each gunicorn worker's memory (RSS
   from ``/proc``) over ``--mix`` (20,000) mixed requests of every endpoint of the app.

Run with ``.venv/bin/python benchmarks/http.py`` (needs gunicorn: ``.venv/bin/python -m
pip install -e '.[prod]'``; wrk optional: ``apt-get install wrk``). Options: ``--seconds``
(per endpoint, default 4), ``--quick`` (2 s per endpoint, 2,000 mixed requests),
``--db sqlite|postgresql|both``, ``--worker-class sync|gthread``, ``--workers``,
``--threads``, ``--load auto|wrk|python``, ``--mix``, ``--mix-seconds`` (its time limit,
default 120). The default run takes 7 to 10 minutes on 2 CPUs. Loopback only; every load
run stops by itself (by time, and the mixed run by count too); it removes its processes,
files and schema. It asserts nothing: on a machine doing other work the figures are
noisy — compare ratios of one run.
"""

from __future__ import annotations

import os
import sys

# This file bears the name of the standard library's ``http`` package, which every HTTP
# client imports: its own folder must not come first on the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import argparse
import gzip
import http.client
import itertools
import json
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask.testing import FlaskClient

from benchmarks import bare_app
from benchmarks._serve import HOST, SECRET, Phone, gunicorn, percentile, postgres, worker_pids
from benchmarks.standings import _entry, _join, _queries, _settle, fill
from companion import create_app
from companion.extensions import db
from companion.games.judging import examples as api_examples
from companion.games.kinds import KINDS
from companion.games.state import stored_state
from companion.models import Game, Round
from companion.rules import whist_tarot
from companion.rules.cards import Card
from tests.helpers import add_players, create_group, start_crapouille

#: The passphrase of benchmarks/standings.py's group (its ``_join`` sends it); the pool's too.
PASSPHRASE = "not a real passphrase"
GAMES = ["crapouille", "president", "piketty", "whist-tarot"]
#: Players and setup fields of each game in progress (targets out of reach of 30 manches).
TABLES: dict[str, tuple[int, dict[str, str]]] = {
    "crapouille": (4, {}),
    "president": (5, {"target": "1000", "titles": "classic", "rule_points": "y"}),
    "piketty": (6, {"target": "1000", "titles": "classic", "rule_points": "y"}),
    "whist-tarot": (4, {}),
}
HEADERS = {"Accept-Encoding": "gzip, br"}
HTML = "text/html,application/xhtml+xml,*/*;q=0.8"
BARE = "benchmarks.bare_app:create_app()"
#: A hard bound on any Python load run, whatever its duration.
MAX_REQUESTS = 2_000_000
#: Requests before each measured run (4 connections, at most 5 s).
WARM_UP = 16


# --------------------------------------------------------------------------- seeding


def _crapouille_hand(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A hand of few points (30 of them leave everyone under 300)."""
    live = list(state["in_play"])
    winner = rng.choice(live)
    return {"winner": winner, "hands": {}, "points": {p: rng.randint(0, 9) for p in live if p != winner}}


def _whist_deal(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Bids, and tricks as close to them as the dealer's rule allows (the miss falls on
    the richest stake): a game that lasts."""
    deal = state["deal"]
    cards, dealer = int(deal["cards"]), deal["dealer"]
    bidders = list(whist_tarot.bidding_order(state["players"], dealer))
    bids = {p: rng.randint(0, min(cards, 2)) for p in bidders[:-1]}
    forbidden = whist_tarot.forbidden_bid(cards, bids.values())
    bids[dealer] = rng.choice([b for b in range(cards + 1) if b != forbidden])
    tricks = dict(bids)
    richest = sorted(bidders, key=lambda p: -state["stakes"][p])
    while sum(tricks.values()) > cards:
        tricks[next(p for p in richest if tricks[p] > 0)] -= 1
    while sum(tricks.values()) < cards:
        tricks[richest[0]] += 1
    return {"bids": bids, "tricks": tricks}


def _next_entry(kind: str, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if kind == "crapouille":
        return _crapouille_hand(state, rng)
    if kind == "whist-tarot":
        return _whist_deal(state, rng)
    return _entry(kind, state, rng)


def _steps(number: int, entry: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """The forms that enter ``entry`` as round ``number``: (address under the game, fields)."""
    data = {"round": str(number)}
    if "draw" in entry:
        return [("rounds/new", data | {f"draw_{p}": Card.parse(c[0]).display() for p, c in entry["draw"].items()})]
    if "finish" in entry:
        return [("rounds/new", data | {"event": ""} | {f"finish-{i}": p for i, p in enumerate(entry["finish"])})]
    if "bids" in entry:
        bids = data | {f"bid_{p}": str(v) for p, v in entry["bids"].items()}
        tricks = bids | {f"tricks_{p}": str(v) for p, v in entry["tricks"].items()}
        return [("rounds/new", bids), (f"rounds/{number}/edit", tricks)]
    return [
        ("rounds/new", data | {"winner": entry["winner"]} | {f"total_{p}": str(v) for p, v in entry["points"].items()})
    ]


def _post(client: FlaskClient, url: str, data: dict[str, str]) -> str:
    """Post a form that must redirect; where to."""
    response = client.post(url, data=data)
    assert response.status_code == 302, (url, response.status_code, response.get_data(as_text=True)[:2000])
    return response.headers["Location"]


def _play(
    client: FlaskClient, code: str, kind_id: str, ids: list[str], rounds: int, rng: random.Random
) -> tuple[int, int]:
    """A game of ``kind_id`` in progress with ``rounds`` rounds, entered through its
    pages: (its id, the rounds entered). Each round is first scored by the engine here:
    a round that would end the game is drawn again (20 tries), then the game stops."""
    kind = KINDS[kind_id]
    seats, extra = TABLES[kind_id]
    location = _post(client, f"/g/{code}/games/new/{kind_id}", {f"seats-{i}": ids[i] for i in range(seats)} | extra)
    game_id = int(location.rsplit("/", 1)[1])
    for number in range(1, rounds + 1):
        db.session.expire_all()
        game = db.session.get(Game, game_id)
        state = stored_state(kind, game)
        for _try in range(20):
            entry = _next_entry(kind_id, state, rng)
            if not kind.over(kind.score(game, state, entry)):
                break
        else:
            return game_id, number - 1
        for where, data in _steps(number, entry):
            _post(client, f"/g/{code}/games/{game_id}/{where}", data)
    return game_id, rounds


@dataclass
class Seeded:
    code: str
    season_id: int
    history_games: int
    games: dict[str, int]
    rounds: dict[str, int]
    pool_code: str
    #: Two-player crapouille games for the round POSTs: one list for the POST run, one
    #: for the mixed run.
    pools: list[list[int]]
    pool_players: tuple[str, str]
    client: FlaskClient  # in process, joined to the group only (for counting queries)
    seconds: float


def seed(app: Any, history: int, rounds: int, pool_size: int, rng: random.Random) -> Seeded:
    """The group, its games and the pools, in process (CSRF off, as in the tests)."""
    start = time.perf_counter()
    client = app.test_client()
    with app.app_context():
        db.create_all()
        group, season, players = fill(history, rng)
        history_games = db.session.scalar(sa.select(sa.func.count(Game.id))) or 0
        code, season_id, ids = group.code, season.id, [str(p.id) for p in players]
        _join(client, group)
        games, played = {}, {}
        for kind_id in GAMES:
            games[kind_id], played[kind_id] = _play(client, code, kind_id, ids, rounds, rng)
        # Another group, another phone: the pool's games are not on the first phone's pages.
        poster = app.test_client()
        pool = create_group(poster, "Banc d'essai", PASSPHRASE)
        winner, loser = add_players(poster, pool, "Ann", "Bob")
        pools = [[start_crapouille(poster, pool, [winner, loser]) for _ in range(pool_size)] for _use in range(2)]
        pool_code, pool_players = pool.code, (str(winner.id), str(loser.id))
        db.session.remove()
        _settle()
    took = time.perf_counter() - start
    return Seeded(code, season_id, history_games, games, played, pool_code, pools, pool_players, client, took)


def rounds_saved(app: Any, game_ids: list[int]) -> int:
    with app.app_context():
        count = db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.game_id.in_(game_ids))) or 0
        db.session.remove()
    return count


def count_queries(app: Any, client: FlaskClient, path: str) -> int | None:
    """SQL queries of one GET of ``path`` (a fresh app context: nothing cached); None
    when the page is not a 200 (its error is not logged: the table says "?")."""
    app.logger.disabled = True
    with app.app_context():
        try:
            return _queries(client, path)
        except AssertionError:
            return None
        finally:
            db.session.remove()
            app.logger.disabled = False


# ------------------------------------------------------------------------ endpoints


@dataclass
class Pool:
    """Round POSTs that each save a new round: request ``i`` is round ``i // len(games) + 1``
    of ``games[i % len(games)]`` (a round is posted long after the one before it)."""

    code: str
    games: list[int]
    body: str  # the form's fields but the round's number and the game's version
    first_version: int
    sent: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> int:
        with self.lock:
            self.sent += 1
            return self.sent - 1

    def request(self, i: int) -> tuple[str, str]:
        """(path, body) of request ``i``."""
        number = i // len(self.games) + 1
        version = self.first_version + number - 1
        path = f"/g/{self.code}/games/{self.games[i % len(self.games)]}/rounds/new"
        return path, f"{self.body}&round={number}&version={version}"


@dataclass
class Target:
    name: str
    port: int
    path: str
    method: str = "GET"
    body: bytes = b""
    content_type: str = ""
    baseline: str | None = None  # name of the target it is compared with
    goal: float | None = None  # least ratio to the baseline (the rules API only)
    pool: Pool | None = None
    page: bool = False  # an HTML page of the app (size and queries reported)
    cookie: str = ""  # the session of the phone that asks
    warmed: int = 0  # requests of its warm-up

    @property
    def headers(self) -> dict[str, str]:
        """Every header of its requests but the ones http.client or wrk add."""
        headers = {**HEADERS, "Accept": HTML, "Cookie": self.cookie}
        if self.pool is not None:
            return headers | {"Content-Type": "application/x-www-form-urlencoded"}
        if self.content_type:
            return headers | {"Accept": self.content_type, "Content-Type": self.content_type}
        return headers

    def next_request(self) -> tuple[str, str, bytes, dict[str, str]]:
        """(method, path, body, headers) of the next request."""
        if self.pool is not None:
            path, body = self.pool.request(self.pool.take())
            return "POST", path, body.encode(), self.headers
        return self.method, self.path, self.body, self.headers


def targets(seeded: Seeded, app_port: int, bare_port: int, cookie: str, post_pool: Pool, poster: str) -> list[Target]:
    """Every endpoint measured, each after its baseline; a phone joined to the group asks
    (``cookie``), but the round POSTs come from one joined to the pool's group (``poster``)."""
    hello, template, row = "bare /hello", "bare /template", "bare /row (1 SQL row)"
    found: list[Target] = [Target(hello, bare_port, "/hello")]
    for path, examples, goal in (("check", api_examples("check"), 0.8), ("outcome", api_examples("outcome"), 0.7)):
        for game in GAMES:
            body = next(b for _summary, b in examples if b["game"] == game)
            found.append(
                Target(
                    f"POST /api/v1/{path} {game}",
                    app_port,
                    f"/api/v1/{path}",
                    "POST",
                    json.dumps(body).encode(),
                    "application/json",
                    hello,
                    goal,
                )
            )
    code = seeded.code
    found.append(Target(template, bare_port, "/template"))
    found.append(Target("bare /bytes (from memory)", bare_port, "/bytes"))
    found.append(Target("home page", app_port, "/", baseline=template, page=True))
    found.append(Target("group page", app_port, f"/g/{code}", baseline=template, page=True))
    for kind, game_id in seeded.games.items():
        rounds = seeded.rounds[kind]
        game = f"/g/{code}/games/{game_id}"
        found.append(Target(f"game page {kind} ({rounds})", app_port, game, baseline=template, page=True))
        found.append(Target(f"round entry {kind}", app_port, f"{game}/rounds/new", baseline=template, page=True))
    standings = f"/g/{code}/seasons/{seeded.season_id}"
    found.append(Target("season standings", app_port, standings, baseline=template, page=True))
    found.append(Target(row, bare_port, "/row"))
    found.append(Target("round POST crapouille", app_port, "", baseline=row, pool=post_pool))
    for target in found:
        target.cookie = poster if target.pool else cookie
    return found


# ----------------------------------------------------------------- load generators


@dataclass
class Result:
    requests: int  # answered
    rate: float
    p50: float  # seconds
    p99: float
    errors: str  # "" when every answer was 2xx or 3xx
    good: int = 0  # answers 2xx or 3xx (counted by the Python load generator only)


def skipped(why: str) -> Result:
    return Result(0, 0.0, float("nan"), float("nan"), why)


def python_load(
    port: int,
    make: Callable[[], tuple[str, str, bytes, dict[str, str]]],
    seconds: float,
    connections: int,
    limit: int = MAX_REQUESTS,
) -> Result:
    """``connections`` threads asking as fast as they can, for ``seconds`` or ``limit``
    requests in all, whichever comes first (each on its own keep-alive connection)."""
    times: list[float] = []
    errors: Counter[str] = Counter()
    answered = [0]
    lock = threading.Lock()
    counter = itertools.count()
    end = time.monotonic() + seconds

    def run() -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=30)
        mine: list[float] = []
        failed: Counter[str] = Counter()
        good = 0
        while time.monotonic() < end and next(counter) < limit:
            method, path, body, extra = make()
            start = time.perf_counter()
            try:
                connection.request(method, path, body or None, extra)
                response = connection.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as e:
                failed[type(e).__name__] += 1
                connection.close()
                continue
            mine.append(time.perf_counter() - start)
            if 200 <= response.status < 400:
                good += 1
            else:
                failed[f"HTTP {response.status}"] += 1
        connection.close()
        with lock:
            times.extend(mine)
            errors.update(failed)
            answered[0] += good

    started = time.perf_counter()
    threads = [threading.Thread(target=run) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.perf_counter() - started
    said = ", ".join(f"{n} {e}" for e, n in errors.most_common())
    if not times:
        return Result(0, 0.0, float("nan"), float("nan"), said or "no request")
    return Result(len(times), len(times) / took, statistics.median(times), percentile(times, 99), said, answered[0])


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 /.-_=&:;,%")


def _lua(text: str) -> str:
    """``text`` as a Lua string literal (bytes escaped in decimal: any text goes)."""
    return '"' + "".join(chr(b) if chr(b) in _PLAIN else f"\\{b:03d}" for b in text.encode()) + '"'


def wrk_script(target: Target, threads: int) -> str:
    lines = [f"wrk.headers[{_lua(k)}] = {_lua(v)}" for k, v in target.headers.items()]
    pool = target.pool
    if pool is None:
        lines.append(f"wrk.method = {_lua(target.method)}")
        if target.body:
            lines.append(f"wrk.body = {_lua(target.body.decode())}")
        return "\n".join(lines) + "\n"
    # Each thread takes every ``threads``-th request from where the pool stands, so
    # that a game is only ever posted to by one thread, rounds in order.
    start = pool.sent
    pool.sent = MAX_REQUESTS  # whatever wrk sends, this pool is spent
    return "\n".join(lines) + (
        f"""
local games = {{{", ".join(str(g) for g in pool.games)}}}
local prefix = {_lua(f"/g/{pool.code}/games/")}
local body = {_lua(pool.body)}
local count = 0
local sent = 0
local spawned = {{}}
statuses = {{}}
function setup(thread)
  thread:set("tid", count)
  count = count + 1
  table.insert(spawned, thread)
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  for _, thread in ipairs(spawned) do
    for status, n in pairs(thread:get("statuses")) do
      if status ~= 302 then io.write("status ", status, ": ", n, "\\n") end
    end
  end
end
function init(args)
  -- wrk asks thread 0 for one request before the run, to check it, and never sends it:
  -- that one must not take a round (its game would skip it, and its next round be refused).
  checked = tid ~= 0
end
function request()
  if not checked then
    checked = true
    return wrk.format("POST", prefix .. games[1] .. "/rounds/new", nil, body)
  end
  local i = {start} + sent * {threads} + tid
  sent = sent + 1
  local number = math.floor(i / #games) + 1
  local version = {pool.first_version} + number - 1
  return wrk.format("POST", prefix .. games[(i % #games) + 1] .. "/rounds/new", nil,
    body .. "&round=" .. number .. "&version=" .. version)
end
"""
    )


_UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def _seconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def wrk_load(target: Target, seconds: float, connections: int, threads: int = 2) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(wrk_script(target, threads))
        script.flush()
        url = f"http://{HOST}:{target.port}{target.path}"
        duration = max(1, round(seconds))  # wrk wants whole seconds
        command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "--latency"]
        run = subprocess.run(
            [*command, "-s", script.name, url], capture_output=True, text=True, timeout=duration + 60, check=False
        )
    out = run.stdout
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", out, re.M)
    done = re.search(r"^\s+(\d+) requests in", out, re.M)
    if run.returncode or not (p50 and p99 and rate and done):
        raise SystemExit(f"wrk failed ({run.returncode}):\n{out}{run.stderr}")
    errors = []
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:
        errors.append(f"{non_2xx.group(1)} not 2xx/3xx")
    # The round POSTs' script also names every status but 302 (a round saved).
    statuses: Counter[str] = Counter()
    for status, n in re.findall(r"^status (\d+): (\d+)$", out, re.M):  # a line per thread
        statuses[status] += int(n)
    errors += [f"{n} HTTP {status}" for status, n in statuses.most_common()]
    sockets = re.search(r"Socket errors: (.*)", out)
    if sockets:
        errors.append(f"socket errors: {sockets.group(1)}")
    return Result(
        int(done.group(1)), float(rate.group(1)), _seconds(p50.group(1)), _seconds(p99.group(1)), "; ".join(errors)
    )


# ---------------------------------------------------------------------- the figures


def worker_rss(master: subprocess.Popen[bytes]) -> dict[int, int]:
    """Resident memory (bytes) of each worker of ``master``, from ``/proc``."""
    rss = {}
    for pid in worker_pids(master):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:  # gone meanwhile
            continue
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        if match:
            rss[pid] = int(match.group(1)) * 1024
    return rss


def page_size(target: Target) -> tuple[int, int, int, str]:
    """One GET of the page: (bytes of HTML, bytes gzipped here at level 6, bytes sent,
    the encoding the app sent it with)."""
    connection = http.client.HTTPConnection(HOST, target.port, timeout=30)
    try:
        connection.request("GET", target.path, headers=target.headers)
        response = connection.getresponse()
        sent = response.read()
        encoding = response.getheader("Content-Encoding", "") or "none"
    finally:
        connection.close()
    html = sent
    if encoding == "gzip":
        html = gzip.decompress(sent)
    elif encoding == "br":
        import brotli  # the app's dependency when it sends brotli

        html = brotli.decompress(sent)
    elif encoding != "none":
        return -1, -1, len(sent), encoding
    return len(html), len(gzip.compress(html, 6)), len(sent), encoding


def _kb(size: int) -> str:
    return f"{size / 1024:>9.1f}" if size >= 0 else f"{'?':>9}"


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("pass" if ok else "FAIL")


def print_table(rows: list[tuple[Target, Result]]) -> None:
    by_name = {t.name: r for t, r in rows}
    header = f"{'endpoint':<34}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'ratio':>8}  {'goal':<36}{'':6}errors"
    print(header)
    print("-" * len(header))
    for target, result in rows:
        ratio, goal, ok = "", "baseline", None
        if target.baseline:
            short = target.baseline.split()[1]
            goal = f"≥ {target.goal:.0%} of {short}" if target.goal is not None else f"(of {short}; no goal)"
        base = by_name.get(target.baseline or "")
        if base is not None and base.rate and result.requests:
            share = result.rate / base.rate
            ratio = f"{share:.0%}"
            if target.goal is not None:
                ok = share >= target.goal
        print(
            f"{target.name:<34}{result.rate:>9.0f}{result.p50 * 1000:>9.1f}{result.p99 * 1000:>9.1f}{ratio:>8}  "
            f"{goal:<36}{verdict(ok):<6}{result.errors}"
        )


def print_baselines(render: tuple[float, float, int, int]) -> None:
    """What each baseline does, and what the bare page's macro calls cost (in process)."""
    page, inline, calls, size = render
    print("\nbaselines: benchmarks/bare_app.py, a bare Flask app under the same gunicorn settings")
    print(
        "  bare /hello     Flask returns a 13-byte string: gunicorn and Flask, nothing else (the rules API's baseline)"
    )
    print(
        "  bare /template  Jinja renders at each request a page shaped like Companion's (a base layout with blocks,\n"
        f"                  a 30-row table whose {calls} cells each go through a macro, a form; {size / 1024:.1f} KB): "
        f"in process\n                  {page * 1000:.1f} ms a render, {(page - inline) * 1000:.1f} ms of it in the "
        f"{calls} macro calls (the same page with\n                  the cell written inline: {inline * 1000:.1f} ms; "
        "medians of 7 × 200 renders) (the pages' baseline)"
    )
    print(
        f"  bare /bytes     the same {size / 1024:.1f} KB, rendered once at start, returned from memory by a\n"
        "                  trivial view: gunicorn and Flask sending the page, no template"
    )
    print("  bare /row       one row read with Flask-SQLAlchemy by primary key (the round POST's baseline)")
    print(
        "  ratio: the endpoint's req/s over its baseline's, in this run. Goals remain for the rules API (issue\n"
        "  14); the pages' and the round POST's ratios are printed without a goal (retired by issue 26: what a\n"
        "  host serves is benchmarks/capacity.py's figure)"
    )


def join(port: int, seeded: Seeded) -> tuple[str, str, list[Pool]]:
    """Through the join form: the cookie of a phone of the group, the cookie of a phone
    of the pool's group, and the pools of round POSTs (with that phone's CSRF token)."""
    phone, poster = Phone(), Phone()
    for who, code in ((phone, seeded.code), (poster, seeded.pool_code)):
        where, _page = who.submit(
            f"http://{HOST}:{port}/join?code={code}", code=code, passphrase=PASSPHRASE, device_name="Banc"
        )
        assert where.rstrip("/").endswith(f"/g/{code}"), where
    winner, loser = seeded.pool_players
    pools = []
    for games in seeded.pools:
        fields = poster.form(
            f"http://{HOST}:{port}/g/{seeded.pool_code}/games/{games[0]}/rounds/new",
            winner=winner,
            **{f"total_{loser}": "1"},
        )
        version = int(fields.pop("version"))
        fields.pop("round")
        pools.append(Pool(seeded.pool_code, games, urllib.parse.urlencode(fields), version))
    return phone.cookie(), poster.cookie(), pools


def load_each(found: list[Target], args: argparse.Namespace, load: str) -> list[tuple[Target, Result]]:
    """Each target warmed up (40 requests), then loaded for ``args.seconds``."""
    rows: list[tuple[Target, Result]] = []
    for target in found:
        warm = python_load(target.port, target.next_request, 5, 4, WARM_UP)
        target.warmed = warm.requests
        if not warm.good:
            rows.append((target, skipped(f"not measured: {warm.errors}")))
            print(f"  {target.name:<34} not measured: {warm.errors}", flush=True)
            continue
        if load == "wrk":
            result = wrk_load(target, args.seconds, args.connections)
        else:
            result = python_load(target.port, target.next_request, args.seconds, args.connections)
        rows.append((target, result))
        print(f"  {target.name:<34}{result.rate:>7.0f} req/s", flush=True)
    return rows


def print_pages(found: list[Target], app: Any, client: FlaskClient) -> None:
    """Each page's size, compressed, and its SQL queries."""
    print(f"\n{'page':<34}{'HTML KB':>9}{'gzip KB':>9}  {'≤ 20 KB':<8}{'sent KB':>9}  {'encoding':<10}{'SQL':>5}")
    for target in found:
        if target.page:
            html, gzipped, sent, encoding = page_size(target)
            queries = count_queries(app, client, target.path)
            print(
                f"{target.name:<34}{_kb(html)}{_kb(gzipped)}  {verdict(0 <= gzipped <= 20 * 1024):<8}"
                f"{_kb(sent)}  {encoding:<10}{'?' if queries is None else queries:>5}"
            )
    print("(gzip: the HTML gzipped here at level 6; sent: what the app sent for 'Accept-Encoding: gzip, br';")
    print(" SQL: the queries of one GET in process, '?' when the page did not answer 200 there)")


def memory(master: subprocess.Popen[bytes], mixed: list[Target], args: argparse.Namespace) -> None:
    """The workers' RSS before and after ``args.mix`` requests to ``mixed`` in turn."""
    before = worker_rss(master)
    turn = itertools.count()

    def mix() -> tuple[str, str, bytes, dict[str, str]]:
        return mixed[next(turn) % len(mixed)].next_request()

    start = time.perf_counter()
    result = python_load(mixed[0].port, mix, args.mix_seconds, args.connections, args.mix)
    took = time.perf_counter() - start
    after = worker_rss(master)
    short = f" (the time limit came first: --mix-seconds {args.mix_seconds:g})" if result.requests < args.mix else ""
    print(f"\nmemory: {result.requests} mixed requests ({len(mixed)} endpoints in turn) in {took:.0f} s{short}")
    if result.errors:
        print(f"  answers not 2xx/3xx: {result.errors}")
    for pid, rss in before.items():
        if pid in after:
            growth = after[pid] - rss
            print(
                f"  worker {pid}: RSS {rss / 2**20:.1f} → {after[pid] / 2**20:.1f} MB, "
                f"growth {growth / 2**20:+.1f} MB (goal ≤ 5 MB) {verdict(growth <= 5 * 2**20)}"
            )
        else:
            print(f"  worker {pid}: gone (restarted) FAIL")


def measure(
    database: str, url: str, args: argparse.Namespace, load: str, render: tuple[float, float, int, int]
) -> None:
    rng = random.Random(14)
    bare_app.create_table(url)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET, "WTF_CSRF_ENABLED": False})
    options = ["--worker-class", args.worker_class, "--workers", str(args.workers)]
    if args.worker_class == "gthread":
        options += ["--threads", str(args.threads)]
    try:
        seeded = seed(app, args.history, args.rounds, args.pool, rng)
        played = ", ".join(f"{k} {n}" for k, n in seeded.rounds.items())
        print(
            f"{database}: seeded in {seeded.seconds:.0f} s: {seeded.history_games} finished games of history; "
            f"games in progress (rounds): {played}; 2 × {args.pool} crapouille games for the round POSTs",
            flush=True,
        )
        with gunicorn(url, options) as (port, master), gunicorn(url, options, BARE) as (bare_port, _bare):
            cookie, poster, pools = join(port, seeded)
            found = targets(seeded, port, bare_port, cookie, pools[0], poster)
            if args.only:
                wanted = [t for t in found if re.search(args.only, t.name, re.IGNORECASE)]
                baselines = {t.baseline for t in wanted}
                found = [t for t in found if t in wanted or t.name in baselines]
            rows = load_each(found, args, load)
            print(
                f"\n{database}, gunicorn {' '.join(options)}, {load} with {args.connections} connections, "
                f"{args.seconds:g} s each:"
            )
            print_table(rows)
            print_baselines(render)
            for target, post in ((t, r) for t, r in rows if t.pool is not None):
                saved = rounds_saved(app, pools[0].games)
                print(f"round POSTs: {saved} rounds saved, {post.requests} POSTs answered + {target.warmed} to warm up")
            print_pages(found, app, seeded.client)
            if args.only:
                return  # a part of the table: no memory run
            mixed = [t for t in found if t.port == port]
            for target in mixed:
                if target.pool is not None:
                    target.pool = pools[1]
            memory(master, mixed, args)
            print(flush=True)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each endpoint's run")
    parser.add_argument("--quick", action="store_true", help="2 s per endpoint, 2,000 mixed requests")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--worker-class", choices=["sync", "gthread"], default="sync")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="threads per gthread worker")
    parser.add_argument("--load", choices=["auto", "wrk", "python"], default="auto")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--mix", type=int, default=20_000, help="mixed requests of the memory run")
    parser.add_argument("--mix-seconds", type=float, default=120.0, help="the memory run's time limit")
    parser.add_argument("--history", type=int, default=450, help="rounds of the season's finished games")
    parser.add_argument("--rounds", type=int, default=30, help="rounds of each game in progress")
    parser.add_argument("--pool", type=int, default=128, help="crapouille games the round POSTs go to, per run")
    parser.add_argument(
        "--only", metavar="REGEX", help="measure only the endpoints so named (and their baselines); no memory run"
    )
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.mix = min(args.seconds, 2.0), min(args.mix, 2_000)
    if not (Path(sys.executable).parent / "gunicorn").exists():
        raise SystemExit("needs gunicorn: .venv/bin/python -m pip install -e '.[prod]'")
    load = args.load
    if load == "auto":
        load = "wrk" if shutil.which("wrk") else "python"
    elif load == "wrk" and not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk), use --load python")
    started = time.perf_counter()
    render = bare_app.render_times()  # before any server runs
    print(
        f"{os.cpu_count()} CPUs, load average {Path('/proc/loadavg').read_text().split()[0]}; "
        f"load generator and servers share them (loopback only)\n",
        flush=True,
    )
    with ExitStack() as stack:
        databases = {}
        if args.db in ("sqlite", "both"):
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            databases["SQLite"] = f"sqlite:///{Path(folder) / 'http.sqlite3'}"
        if args.db in ("postgresql", "both"):
            pg = stack.enter_context(postgres())
            if pg is not None:
                databases["PostgreSQL"] = pg
        for name, url in databases.items():
            measure(name, url, args, load, render)
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
