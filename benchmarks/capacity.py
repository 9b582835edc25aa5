"""The capacity figure: how many phones watching live one host serves, with p99 under
200 ms, while rounds are saved.

A phone watching a game asks the game's watch endpoint every 1.5 s, as
``static/watch.js`` does (``Accept: application/json``, the last token as
``If-None-Match``): mostly an empty 304; once the token moved, a 200 with the new one,
and then the phone fetches the game page (``Accept: text/html``), as the script does.
Meanwhile rounds are saved at ``--rate`` a second (default 5): each a POST of a
crapouille round form through the pages, as a phone sends it, followed by the GET of
the game page it redirects to.

**Set-ups** (``--setup``):

- ``sqlite``: a SQLite file and the README's workers, one gunicorn
  ``--worker-class gthread --workers 4 --threads 8 --timeout 30``;
- ``postgresql``: PostgreSQL (``TEST_DATABASE_URL``, default 127.0.0.1:5432, database
  ``test``) in a schema of its own, dropped afterwards, and two app processes: two such
  gunicorn instances, the phones and the saves split between them in turn.

Both run with ``TRUSTED_PROXIES=1``, as behind the README's proxy: the load generator
plays the proxy, and sends each group's phones as one ``X-Forwarded-For`` address.

**Seeding**, through the pages: groups (``--games-per-group`` games each, two players)
created one per address, each game watched by ``--per-game`` phones (8); the phones of
a group share the session cookie of the device that created it (each poll is still
checked against that device's record). Games are added as the phone count grows,
each with ``--history`` hands already saved (0 by default; 15 is a game well into its
evening, whose page — fetched by its phones after each save — shows them all).
The saves go to the step's games in turn (at least 20 × ``--rate`` games, so that a
game is saved at most every 20 s; a game whose last save is unanswered is passed over).

**Load**: open-loop. Each phone's polls are due every 1.5 s from a random phase, and
the saves every 1/``--rate`` s; each request is sent when due whatever the answers, and
its time counts from when it was due, so waiting for a connection counts too. Like a
proxy, the generator holds a bounded pool of ``--connections`` (64) keep-alive
HTTP/1.1 connections (split evenly between the app processes): a due request waits for
a free one. One asyncio loop on the same machine; it prints its own CPU share (of one
core) and how late it put due requests in the queue (its own lag, which would be
counted in every time).

**Search**: steps of ``--seconds`` (10, after 1 s not counted) with N phones — 500,
1,000, 1,500, 2,000, 3,000, 4,000, 6,000… until a step fails, then halving the gap
between the largest N that passed and the smallest that failed down to
``--resolution`` (250) phones, or a quarter of that failed N (``--ladder`` sets the
steps climbed). A step passes when the p99 of the polls and the p99 of
the saves are both under ``--p99-ms`` (200) and every answer was the expected one
(304 or 200 for a poll; a 302 then a 200 for a save). Per step it prints p50/p99 of the
polls, the saves and the page refreshes, the answers, the servers' CPU and its own.
The figure is the largest N that passed.

**Trees** (``--root DIR``, repeatable): the source tree served, this repository by
default. Each is served with ``PYTHONPATH=DIR`` and from that folder, so that
``companion`` is imported from there (checked: the file it came from is printed);
its tables are made by its own models. Given two trees, the run ends with a table of
their figures side by side (e.g. ``--root . --root /tmp/base``: this tree against an
older one).

Run with ``.venv/bin/python benchmarks/capacity.py`` (needs gunicorn: ``.venv/bin/python
-m pip install -e '.[prod]'``). About 3–6 minutes per set-up and tree by default;
``--quick`` for a smoke run (SQLite, 3 s steps of 200 and 400 phones: 1–2 minutes).
``--phones N`` measures one step of N phones. Loopback only; it removes its processes,
files and schema.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import argparse
import asyncio
import heapq
import math
import random
import re
import subprocess
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks._serve import (
    HOST,
    ROOT,
    Phone,
    create_tables,
    gunicorn,
    hidden_fields,
    percentile,
    postgres,
    workers_cpu,
)

PERIOD = 1.5  # static/watch.js asks every 1.5 s (WATCH_EVERY_MS)
PASSPHRASE = "dix de carreau"
#: The README's workers ("Running for many groups").
README_WORKERS = ["--worker-class", "gthread", "--workers", "4", "--threads", "8", "--timeout", "30"]
SETUPS = {
    "sqlite": "SQLite file, one gunicorn (gthread, 4 workers × 8 threads, the README's)",
    "postgresql": "PostgreSQL, two gunicorn instances (each gthread 4 × 8), load split between them",
}
LADDER = (500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000, 16000)
QUICK_LADDER = (200, 400)
WARM = 1.0  # seconds of each step not counted
DRAIN = 5.0  # seconds given to the answers still awaited after a step
ACCEPT_ENCODING = "gzip, br"


# ------------------------------------------------------------------ the search


def next_count(tried: dict[int, bool], ladder: Sequence[int], resolution: int) -> int | None:
    """The next number of phones to try, given the steps ``tried`` (N: passed): up the
    ``ladder`` until a step fails, then the middle of the gap between the largest N
    that passed and the smallest larger one that failed, until that gap is at most
    ``resolution`` or a quarter of that failed N, and never under 50 phones; None when
    the search is over.

    >>> next_count({}, (500, 1000, 2000), 250)
    500
    >>> next_count({500: True, 1000: True, 2000: False}, (500, 1000, 2000), 250)
    1500
    >>> next_count({500: True, 1000: True, 1500: True, 2000: False}, (500, 1000, 2000), 250)
    1750
    >>> next_count({500: True, 1000: True, 1500: True, 1750: True, 2000: False}, (500, 1000, 2000), 250)
    >>> next_count({500: False, 250: False}, (500, 1000, 2000), 250)
    100
    >>> next_count({500: False, 250: False, 100: False, 50: False}, (500, 1000, 2000), 250)
    """
    lo = max((n for n, ok in tried.items() if ok), default=0)
    hi = min((n for n, ok in tried.items() if not ok and n > lo), default=None)
    if hi is None:
        return next((n for n in ladder if n > lo and n not in tried), None)
    if hi - lo <= min(resolution, hi // 4):
        return None
    middle = (lo + hi) // 2
    middle -= middle % 50 if middle > 100 else 0
    return middle if lo < middle < hi and middle >= 50 and middle not in tried else None


def capacity(tried: dict[int, bool]) -> int:
    """The figure: the largest N that passed (0 when none did)."""
    return max((n for n, ok in tried.items() if ok), default=0)


# -------------------------------------------------------------------- seeding


@dataclass
class Game:
    base: str  # the app process that created it (http://host:port)
    path: str  # the game page
    watch: str  # its watch endpoint
    token: str  # the last token seen
    cookie: str  # the session of the device that created the group
    address: str  # the group's phones' address (X-Forwarded-For)
    fields: dict[str, str]  # the round form's fields but its round and version
    round: int
    version: int
    winner: str
    loser: str
    stale: bool = False  # a save failed: read the form again before the next one
    saving: bool = False


def games_needed(phones: int, per_game: int, rate: float) -> int:
    """The games of a step: one per ``per_game`` phones, and at least enough that each
    is saved at most every 20 s (a table takes longer than that over a round).

    >>> games_needed(2000, 8, 5), games_needed(100, 8, 5)
    (250, 100)
    """
    return max(math.ceil(phones / per_game), math.ceil(rate * 20))


def seed_group(base: str, number: int, games: int, history: int = 0) -> list[Game]:
    """A group with two players and ``games`` crapouille games, created through the pages
    by a phone of an address of its own (group creations are limited per address), each
    with ``history`` hands already saved (a game well into the evening shows them all)."""
    address = f"10.{number // 62500 % 250}.{number // 250 % 250}.{number % 250 + 1}"
    phone = Phone(address, timeout=120)  # a busy machine: slow, not broken
    where, _page = phone.submit(f"{base}/groups/new", name=f"Table {number}", passphrase=PASSPHRASE, confirm=PASSPHRASE)
    code = where.rstrip("/").rsplit("/", 1)[-1]
    for name in ("Ann", "Bob"):
        phone.submit(f"{base}/g/{code}/players", name=name)
    page = phone.get(f"{base}/g/{code}/games/new/crapouille")
    ids = {name: re.search(rf'<option value="(\d+)"[^>]*>{name}</option>', page).group(1) for name in ("Ann", "Bob")}  # type: ignore[union-attr]
    made = []
    for _ in range(games):
        url, page = phone.submit(
            f"{base}/g/{code}/games/new/crapouille", **{"seats-0": ids["Ann"], "seats-1": ids["Bob"]}
        )
        path = urllib.parse.urlsplit(url).path
        watch = re.search(r'data-watch-url="([^"]+)"', page)
        token = re.search(r'data-watch-token="([^"]*)"', page)
        assert watch and token, "the game page names its watch endpoint and token"
        for _hand in range(history):
            phone.submit(f"{base}{path}/rounds/new", winner=ids["Ann"], **{f"total_{ids['Bob']}": "1"})
        if history:
            page = phone.get(f"{base}{path}")
            token = re.search(r'data-watch-token="([^"]*)"', page)
            assert token, "the game page names its token"
        fields = phone.form(f"{base}{path}/rounds/new", winner=ids["Ann"], **{f"total_{ids['Bob']}": "1"})
        number_, version = int(fields.pop("round")), int(fields.pop("version"))
        made.append(
            Game(
                base,
                path,
                watch.group(1),
                token.group(1),
                "",
                address,
                fields,
                number_,
                version,
                ids["Ann"],
                ids["Bob"],
            )
        )
    cookie = phone.cookie()
    for game in made:
        game.cookie = cookie
    return made


def seed(bases: list[str], games: list[Game], wanted: int, per_group: int, history: int = 0) -> float:
    """Groups added through the pages (8 at a time) until there are ``wanted`` games
    (each with ``history`` hands): the seconds it took."""
    start = time.perf_counter()
    first = math.ceil(len(games) / per_group)
    groups = range(first, math.ceil(wanted / per_group))
    with ThreadPoolExecutor(8) as pool:
        for made in pool.map(lambda n: seed_group(bases[n % len(bases)], n, per_group, history), groups):
            games.extend(made)
    return time.perf_counter() - start


# ------------------------------------------------------------- the load generator


class Link:
    """One keep-alive HTTP/1.1 connection of the pool, opened again when the server
    closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def drop(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def ask(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        """(status, headers with lower-case names, body as sent)."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        for attempt in range(2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(request)
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.drop()
                if fresh or attempt:
                    raise
                continue  # an idle connection the server had closed: once more on a new one
            status_line, *rest = head.decode("latin-1").split("\r\n")
            status = int(status_line.split(" ", 2)[1])
            said = {}
            for line in rest:
                if ":" in line:
                    name, value = line.split(":", 1)
                    said[name.strip().lower()] = value.strip()
            content = await self._body(method, status, said)
            if said.get("connection", "").lower() == "close":
                self.drop()
            return status, said, content
        raise AssertionError("unreachable")

    async def _body(self, method: str, status: int, said: dict[str, str]) -> bytes:
        assert self.reader is not None
        if method == "HEAD" or status in (204, 304) or status < 200:
            return b""
        if "content-length" in said:
            return await self.reader.readexactly(int(said["content-length"]))
        if said.get("transfer-encoding", "").lower() == "chunked":
            parts: list[bytes] = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    while (await self.reader.readline()) not in (b"\r\n", b""):
                        pass
                    return b"".join(parts)
                parts.append((await self.reader.readexactly(size + 2))[:-2])
        said["connection"] = "close"
        return await self.reader.read()


@dataclass
class Watcher:
    game: Game
    port: int
    token: str


@dataclass
class Tally:
    """What a step measured: times (s, from when each request was due) by kind, the
    answers, and the requests due in the counted window that never finished."""

    start: float  # the counted window, loop time
    end: float
    times: dict[str, list[float]] = field(default_factory=lambda: {"poll": [], "save": [], "page": []})
    answers: Counter[str] = field(default_factory=Counter)
    due: Counter[str] = field(default_factory=Counter)
    lag: list[float] = field(default_factory=list)

    def counts(self, due: float) -> bool:
        return self.start <= due < self.end

    def done(self, kind: str, due: float, took: float, answer: str) -> None:
        if self.counts(due):
            self.times[kind].append(took)
            self.answers[f"{kind} {answer}"] += 1

    def unfinished(self) -> None:
        """Requests due in the window and not answered: an infinite time each."""
        for kind, times in self.times.items():
            missing = self.due[kind] - len(times)
            times.extend([math.inf] * missing)
            if missing:
                self.answers[f"{kind} unanswered"] += missing


Job = tuple[str, float, Callable[[Link], Awaitable[str]]]  # (kind, due, the exchange: what it got)


def browser_headers(game: Game, accept: str) -> dict[str, str]:
    return {
        "Accept": accept,
        "Accept-Encoding": ACCEPT_ENCODING,
        "Cookie": game.cookie,
        "X-Forwarded-For": game.address,
    }


class Load:
    """One step: ``phones`` watchers and saves at ``rate`` a second, open-loop, through
    a pool of ``connections`` per app process."""

    def __init__(
        self, ports: list[int], games: list[Game], phones: int, per_game: int, rate: float, first_save: int
    ) -> None:
        self.ports = ports
        self.watchers = [
            Watcher(games[i // per_game], ports[i % len(ports)], games[i // per_game].token) for i in range(phones)
        ]
        self.games = games[: games_needed(phones, per_game, rate)]
        self.saves = first_save
        self.queues: dict[int, asyncio.Queue[Job]] = {}
        self.tally = Tally(0.0, 0.0)

    # the exchanges

    def poll(self, watcher: Watcher) -> Callable[[Link], Awaitable[str]]:
        async def exchange(link: Link) -> str:
            headers = browser_headers(watcher.game, "application/json") | {"If-None-Match": f'"{watcher.token}"'}
            status, said, _body = await link.ask("GET", watcher.game.watch, headers)
            if status == 200 and said.get("etag"):
                token = said["etag"].removeprefix("W/").strip('"')
                if token != watcher.token:
                    watcher.token = watcher.game.token = token
                    now = asyncio.get_running_loop().time()
                    self.enqueue("page", now, watcher.port, self.page(watcher.game))
            return str(status) if status in (200, 304) else f"unexpected {status}"

        return exchange

    def page(self, game: Game) -> Callable[[Link], Awaitable[str]]:
        async def exchange(link: Link) -> str:
            status, _said, _body = await link.ask("GET", game.path, browser_headers(game, "text/html"))
            return str(status) if status == 200 else f"unexpected {status}"

        return exchange

    def save(self, game: Game) -> Callable[[Link], Awaitable[str]]:
        async def exchange(link: Link) -> str:
            try:
                if game.stale:  # read the form again (identity encoding, to read it here)
                    headers = browser_headers(game, "text/html") | {"Accept-Encoding": "identity"}
                    _status, _said, body = await link.ask("GET", f"{game.path}/rounds/new", headers)
                    fields = hidden_fields(body.decode())
                    fields.pop("next", None)
                    game.round, game.version = int(fields.pop("round")), int(fields.pop("version"))
                    game.fields = fields | {"winner": game.winner, f"total_{game.loser}": "1"}
                    game.stale = False
                data = game.fields | {"round": str(game.round), "version": str(game.version)}
                headers = browser_headers(game, "text/html") | {"Content-Type": "application/x-www-form-urlencoded"}
                path = f"{game.path}/rounds/new"
                status, said, _body = await link.ask("POST", path, headers, urllib.parse.urlencode(data).encode())
                if status != 302:
                    game.stale = True
                    return f"unexpected {status}"
                game.round += 1
                game.version += 1
                where = urllib.parse.urlsplit(said.get("location", ""))
                status, _said, _body = await link.ask(
                    "GET", where.path + (f"?{where.query}" if where.query else ""), browser_headers(game, "text/html")
                )
                return "302+200" if status == 200 else f"302+unexpected {status}"
            finally:
                game.saving = False

        return exchange

    # the pool and the schedule

    async def connection(self, port: int) -> None:
        """One connection of the pool: takes due requests in turn."""
        link = Link(port)
        queue = self.queues[port]
        loop = asyncio.get_running_loop()
        try:
            while True:
                kind, due, exchange = await queue.get()
                try:
                    answer = await exchange(link)
                except Exception as e:  # named in the step's answers, which then fails
                    link.drop()
                    answer = type(e).__name__
                self.tally.done(kind, due, loop.time() - due, answer)
        finally:
            link.drop()

    def enqueue(self, kind: str, due: float, port: int, exchange: Callable[[Link], Awaitable[str]]) -> None:
        if self.tally.counts(due):
            self.tally.due[kind] += 1
        self.queues[port].put_nowait((kind, due, exchange))

    async def schedule(self, start: float, end: float, rate: float) -> None:
        """Every due request put in its pool's queue at its time, until ``end``."""
        loop = asyncio.get_running_loop()
        rng = random.Random(len(self.watchers))
        due: list[tuple[float, int]] = [(start + rng.uniform(0, PERIOD), i) for i in range(len(self.watchers))]
        save_every = 1 / rate if rate > 0 else math.inf
        if rate > 0:
            due.append((start + rng.uniform(0, min(save_every, PERIOD)), -1))  # -1: the next save
        heapq.heapify(due)
        while due:
            when, who = due[0]
            now = loop.time()
            if when > now:
                await asyncio.sleep(when - now)
                continue
            heapq.heappop(due)
            if self.tally.counts(when):
                self.tally.lag.append(now - when)
            if who >= 0:
                watcher = self.watchers[who]
                self.enqueue("poll", when, watcher.port, self.poll(watcher))
                following = when + PERIOD
            else:
                game = self.next_game()
                if game is not None:
                    self.enqueue("save", when, self.ports[self.saves % len(self.ports)], self.save(game))
                following = when + save_every
            if following < end:
                heapq.heappush(due, (following, who))

    def next_game(self) -> Game | None:
        """The next game in turn not being saved already."""
        for _ in range(len(self.games)):
            game = self.games[self.saves % len(self.games)]
            self.saves += 1
            if not game.saving:
                game.saving = True  # until its answer: no second save of it meanwhile
                return game
        return None

    async def run(self, seconds: float, rate: float, connections: int, masters: list[subprocess.Popen[bytes]]) -> Step:
        loop = asyncio.get_running_loop()
        start = loop.time() + 0.05
        self.tally = Tally(start + WARM, start + WARM + seconds)
        self.queues = {port: asyncio.Queue() for port in self.ports}
        per_port = max(1, connections // len(self.ports))
        pool = [asyncio.create_task(self.connection(port)) for port in self.ports for _ in range(per_port)]
        cpu: dict[str, float] = {}

        def sample(name: str) -> None:
            cpu[f"{name} server"] = sum(workers_cpu(m) for m in masters)
            cpu[f"{name} self"] = time.process_time()
            cpu[f"{name} wall"] = loop.time()

        loop.call_at(self.tally.start, sample, "start")
        loop.call_at(self.tally.end, sample, "end")
        await self.schedule(start, self.tally.end, rate)
        deadline = loop.time() + DRAIN
        while any(q.qsize() for q in self.queues.values()) or sum(self.tally.due.values()) > sum(
            len(t) for t in self.tally.times.values()
        ):
            if loop.time() > deadline:
                break
            await asyncio.sleep(0.05)
        for task in pool:
            task.cancel()
        await asyncio.gather(*pool, return_exceptions=True)
        if "end wall" not in cpu:
            sample("end")
        self.tally.unfinished()
        wall = cpu["end wall"] - cpu["start wall"]
        return Step(
            len(self.watchers),
            len(self.games),
            self.tally,
            (cpu["end server"] - cpu["start server"]) / wall,
            (cpu["end self"] - cpu["start self"]) / wall,
        )


@dataclass
class Step:
    phones: int
    games: int
    tally: Tally
    server_cpu: float  # share of one core
    own_cpu: float

    def p(self, kind: str, q: float) -> float:
        times = self.tally.times[kind]
        return percentile(times, q) if times else math.nan

    def passed(self, p99_ms: float) -> bool:
        bad = any(a.split(" ", 1)[1] not in ("200", "304", "302+200") for a in self.tally.answers)
        return not bad and all(self.p(k, 99) * 1000 < p99_ms for k in ("poll", "save"))

    def line(self, p99_ms: float) -> str:
        def ms(kind: str) -> str:
            return f"{self.p(kind, 50) * 1000:6.1f} /{self.p(kind, 99) * 1000:7.1f}"

        odd = ", ".join(
            f"{n} {a}" for a, n in sorted(self.tally.answers.items()) if a.split(" ", 1)[1] not in ("304", "302+200")
        )
        lag = percentile(self.tally.lag, 99) * 1000 if self.tally.lag else math.nan
        return (
            f"{self.phones:>6} {self.games:>5} {len(self.tally.times['poll']):>7} {ms('poll')}  "
            f"{len(self.tally.times['save']):>4} {ms('save')}  {len(self.tally.times['page']):>4} {ms('page')}  "
            f"{self.server_cpu:>5.0%} {self.own_cpu:>5.0%} {lag:>6.1f}  {'pass' if self.passed(p99_ms) else 'FAIL'}"
            + (f"  ({odd})" if odd else "")
        )


HEADER = (
    f"{'phones':>6} {'games':>5} {'polls':>7} {'p50 / p99 ms':>15}  {'saves':>4} {'p50 / p99 ms':>15}  "
    f"{'pages':>4} {'p50 / p99 ms':>15}  {'server':>6} {'self':>5} {'lag99':>6}"
)


# ---------------------------------------------------------------------- a run


def describe(root: Path) -> str:
    """The tree at ``root`` in words: its commit, and whether files differ from it."""
    git = ["git", "-C", str(root)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
    if head.returncode:
        return f"{root} (not a git tree)"
    status = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, check=False
    )
    changed = len(status.stdout.splitlines())
    return f"{root} (commit {head.stdout.strip()}" + (f" with {changed} files changed)" if changed else ", clean)")


@contextmanager
def servers(setup: str, root: Path) -> Iterator[tuple[list[int], list[subprocess.Popen[bytes]], Path]]:
    """The app processes of ``setup`` serving the tree at ``root``, on a database of
    their own: (ports, masters, the file ``companion`` was imported from)."""
    with ExitStack() as stack:
        if setup == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            url, count = f"sqlite:///{Path(folder) / 'capacity.sqlite3'}", 1
        else:
            url_or_none = stack.enter_context(postgres(quiet=True))
            if url_or_none is None:
                raise SystemExit("PostgreSQL does not answer (TEST_DATABASE_URL)")
            url, count = url_or_none, 2
        source = create_tables(url, root)
        started = [
            stack.enter_context(gunicorn(url, README_WORKERS, root=root, env={"TRUSTED_PROXIES": "1"}))
            for _ in range(count)
        ]
        with ThreadPoolExecutor(8) as pool:  # each worker loads its app and templates: not counted
            list(pool.map(lambda n: Phone(timeout=120).get(f"http://{HOST}:{started[n % count][0]}/"), range(16)))
        for _port, master in started:
            for pid in Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split():
                cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
                assert cwd.resolve() == root.resolve(), f"worker {pid} runs in {cwd}, not {root}"
        yield [p for p, _m in started], [m for _p, m in started], source


def measure(setup: str, root: Path, args: argparse.Namespace) -> int:
    """The search on one set-up and tree: the figure."""
    print(f"\n== {setup}: {SETUPS[setup]}")
    print(f"   tree: {describe(root)}")
    with servers(setup, root) as (ports, masters, source):
        print(f"   companion imported from {source}; workers run in {root}")
        bases = [f"http://{HOST}:{port}" for port in ports]
        games: list[Game] = []
        tried: dict[int, bool] = {}
        saves = 0
        print(f"   {HEADER}")
        count: int | None = args.phones or args.ladder[0]
        while count is not None and len(tried) < args.max_steps:
            wanted = games_needed(count, args.per_game, args.rate)
            if len(games) < wanted:
                took = seed(bases, games, wanted, args.games_per_group, args.history)
                print(f"   (seeded {len(games)} games in {took:.0f} s)", flush=True)
            load = Load(ports, games, count, args.per_game, args.rate, saves)
            step = asyncio.run(load.run(args.seconds, args.rate, args.connections, masters))
            saves = load.saves
            tried[count] = step.passed(args.p99_ms)
            print(f"   {step.line(args.p99_ms)}", flush=True)
            if args.phones:
                break
            time.sleep(1)  # the servers settle
            count = next_count(tried, args.ladder, args.resolution)
    figure = capacity(tried)
    if not figure:
        print(f"   capacity: under {min(tried)} phones (no step passed)")
        return figure
    print(
        f"   capacity: {figure} phones watching while {args.rate:g} rounds a second are saved, p99 < {args.p99_ms:g} ms"
    )
    return figure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--root", type=Path, action="append", help="source tree to serve (repeatable; default: this one)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="counted length of each step")
    parser.add_argument("--rate", type=float, default=5.0, help="rounds saved a second")
    parser.add_argument("--p99-ms", type=float, default=200.0, help="most p99 of polls and saves")
    parser.add_argument("--connections", type=int, default=64, help="the pool's connections (split between processes)")
    parser.add_argument("--per-game", type=int, default=8, help="phones watching each game")
    parser.add_argument("--games-per-group", type=int, default=8)
    parser.add_argument(
        "--history", type=int, default=0, help="hands saved in each game before the steps (its page shows them all)"
    )
    parser.add_argument("--resolution", type=int, default=250, help="bisect until the gap is this many phones")
    parser.add_argument("--max-steps", type=int, default=10)
    parser.add_argument("--ladder", help=f"the steps climbed, comma-separated (default {','.join(map(str, LADDER))})")
    parser.add_argument("--phones", type=int, help="one step with this many phones (no search)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: SQLite, 3 s steps of 200 and 400 phones")
    args = parser.parse_args()
    args.ladder = tuple(int(n) for n in args.ladder.split(",")) if args.ladder else LADDER
    if args.quick:
        args.seconds, args.ladder, args.max_steps = min(args.seconds, 3.0), QUICK_LADDER, 2
        if args.setup == "both":
            args.setup = "sqlite"
    if not (Path(sys.executable).parent / "gunicorn").exists():
        raise SystemExit("needs gunicorn: .venv/bin/python -m pip install -e '.[prod]'")
    roots = [r.resolve() for r in (args.root or [ROOT])]
    setups = ["sqlite", "postgresql"] if args.setup == "both" else [args.setup]
    load = Path("/proc/loadavg").read_text().split()[0]
    print(
        f"{os.cpu_count()} CPUs, load average {load}; servers, load generator and PostgreSQL share them "
        f"(loopback only)\nphones: one poll every {PERIOD} s each, {args.per_game} per game, "
        f"{args.games_per_group} games per group; saves: {args.rate:g} a second; open-loop, "
        f"{args.connections} keep-alive connections; steps of {args.seconds:g} s (+{WARM:g} s not counted); "
        f"pass: p99 < {args.p99_ms:g} ms for polls and saves, every answer as expected\n"
        "columns: times in ms from when each request was due; pages: the game page fetched after a moved "
        "token; server: the app workers' CPU, self: the load generator's (share of one core); lag99: how "
        "late the generator queued due requests (p99, ms)"
    )
    started = time.perf_counter()
    figures = {(setup, root): measure(setup, root, args) for root in roots for setup in setups}
    if len(roots) > 1:
        print(f"\ncapacity (phones watching, p99 < {args.p99_ms:g} ms, {args.rate:g} saves/s):")
        print(f"{'tree':<60}" + "".join(f"{s:>12}" for s in setups))
        for root in roots:
            print(f"{describe(root):<60}" + "".join(f"{figures[setup, root]:>12}" for setup in setups))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
