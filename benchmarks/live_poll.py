"""What live pages cost: short polling of a watch endpoint (companion/watch.py), measured.

For each database (a throw-away SQLite file; PostgreSQL too when it answers, in a schema
of its own) and each worker set-up (gunicorn with two sync workers, then gthread with two
workers of eight threads), it starts the app, creates a group with a game in progress
through its pages, and prints:

- **304 polls under load**: 32 clients on 127.0.0.1 asking the game's watch endpoint
  with the current token (every answer a 304) as fast as they can for ``--seconds``:
  requests a second, median and 99th percentile time.  The load generator is Python
  threads on the same machine, so these are lower bounds of what the server can do.
- **CPU per poll**: the workers' CPU time (``/proc``) divided by the polls answered,
  and what N phones each asking every 1.5 s cost, as a share of one core.
- **100 phones**: 100 clients asking every 1.5 s (random phase) for ``--seconds``: the
  workers' measured CPU share and the median time of a poll.

Then, per database, two app processes on it (A: two sync workers; B: gthread 2 × 8):
hands are saved through A's pages while a phone polls B every 1.5 s (as
static/watch.js does) and a fast poller asks B every 20 ms; it prints how long after each
hand was posted to A B's token moved — for the phone (bounded by its period) and for the
fast poller (the save itself, and what the database adds).

Run with ``.venv/bin/python benchmarks/live_poll.py`` (needs gunicorn, in the ``test``
and ``prod`` extras).  Loopback only; it removes its processes, files and schema.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

import argparse
import http.client
import random
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._serve import HOST, Phone, create_tables, gunicorn, percentile, postgres, workers_cpu

PASSPHRASE = "dix de carreau"
PERIOD = 1.5  # static/watch.js asks every 1.5 s
SETUPS = {
    "sync 2": ["--worker-class", "sync", "--workers", "2"],
    "gthread 2x8": ["--worker-class", "gthread", "--workers", "2", "--threads", "8"],
}


# -------------------------------------------------------------------- a phone


def seed(base: str) -> tuple[Phone, str, dict[str, str]]:
    """A group with two players and a crapouille game, created through the pages:
    (the phone that created it, the game's address, the player ids by name)."""
    phone = Phone()
    where, _page = phone.submit(f"{base}/groups/new", name="Banc d'essai", passphrase=PASSPHRASE, confirm=PASSPHRASE)
    code = where.rstrip("/").rsplit("/", 1)[-1]
    for name in ("Ann", "Bob"):
        phone.submit(f"{base}/g/{code}/players", name=name)
    page = phone.get(f"{base}/g/{code}/games/new/crapouille")
    ids = {name: re.search(rf'<option value="(\d+)"[^>]*>{name}</option>', page).group(1) for name in ("Ann", "Bob")}  # type: ignore[union-attr]
    game_url, _page = phone.submit(
        f"{base}/g/{code}/games/new/crapouille", **{"seats-0": ids["Ann"], "seats-1": ids["Bob"]}
    )
    return phone, game_url.split("#")[0], ids


def save_hand(phone: Phone, game_url: str, ids: dict[str, str], sent: list[float] | None = None) -> None:
    """Save a hand through the round form (``sent`` gets the moment it was posted)."""
    url = f"{game_url}/rounds/new"
    data = phone.form(url, winner=ids["Ann"], **{f"total_{ids['Bob']}": "1"})
    if sent is not None:
        sent.append(time.monotonic())
    phone.post(url, data)


class Poller:
    """One phone's connection to a watch endpoint (kept alive where the worker allows)."""

    def __init__(self, port: int, path: str, cookie: str) -> None:
        self.port, self.path, self.cookie = port, path, cookie
        self.connection = http.client.HTTPConnection(HOST, port, timeout=30)
        self.token = ""

    def ask(self) -> tuple[int, float]:
        """One poll: (status, seconds); the token follows what the server says."""
        headers = {"Cookie": self.cookie, "Accept": "application/json"}
        if self.token:
            headers["If-None-Match"] = f'"{self.token}"'
        start = time.perf_counter()
        try:
            self.connection.request("GET", self.path, headers=headers)
            response = self.connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
            return 0, time.perf_counter() - start
        took = time.perf_counter() - start
        etag = response.getheader("ETag")
        if etag:
            self.token = etag.strip('"')
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, took


def watch_path(phone: Phone, game_url: str) -> str:
    match = re.search(r'data-watch-url="([^"]+)"', phone.get(game_url))
    assert match, "the game page names its watch endpoint"
    return match.group(1)


# ----------------------------------------------------------------- the figures


def hammer(port: int, path: str, cookie: str, clients: int, seconds: float) -> tuple[int, list[float], int]:
    """``clients`` pollers asking as fast as they can: (polls, times, answers other than 304)."""
    times: list[float] = []
    others = [0]
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def run() -> None:
        poller = Poller(port, path, cookie)
        poller.ask()  # learn the token
        mine: list[float] = []
        other = 0
        while time.monotonic() < end:
            status, took = poller.ask()
            mine.append(took)
            other += status != 304
        with lock:
            times.extend(mine)
            others[0] += other

    threads = [threading.Thread(target=run) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(times), times, others[0]


def phones(port: int, path: str, cookie: str, count: int, seconds: float) -> tuple[int, list[float]]:
    """``count`` phones each asking every PERIOD seconds, with a random phase."""
    times: list[float] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def run() -> None:
        poller = Poller(port, path, cookie)
        poller.ask()
        time.sleep(random.uniform(0, PERIOD))
        mine: list[float] = []
        while time.monotonic() < end:
            _status, took = poller.ask()
            mine.append(took)
            time.sleep(max(0.0, PERIOD - took))
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(times), times


def measure(db_name: str, url: str, seconds: float) -> None:
    for setup, options in SETUPS.items():
        with gunicorn(url, options) as (port, master):
            base = f"http://{HOST}:{port}"
            phone, game_url, ids = seed(base)
            save_hand(phone, game_url, ids)
            path = watch_path(phone, game_url)
            cookie = phone.cookie()
            hammer(port, path, cookie, 4, 0.5)  # warm up
            cpu = workers_cpu(master)
            count, times, others = hammer(port, path, cookie, 32, seconds)
            cpu_per_poll = (workers_cpu(master) - cpu) / max(count, 1)
            shares = "  ".join(f"{n:>4} phones {n / PERIOD * cpu_per_poll:6.1%}" for n in (10, 100, 1000))
            print(
                f"{db_name:10} {setup:12} 304 polls, 32 clients: {count / seconds:7.0f} req/s, "
                f"p50 {statistics.median(times) * 1000:6.1f} ms, p99 {percentile(times, 99) * 1000:6.1f} ms"
                + (f", {others} not 304" if others else "")
            )
            print(f"{'':23} CPU per poll {cpu_per_poll * 1000:5.2f} ms; every {PERIOD} s: {shares} of a core")
            cpu = workers_cpu(master)
            count, times = phones(port, path, cookie, 100, seconds)
            share = (workers_cpu(master) - cpu) / seconds
            print(
                f"{'':23} 100 phones every {PERIOD} s: {count / seconds:5.1f} req/s, workers' CPU {share:6.1%} "
                f"of a core, p50 {statistics.median(times) * 1000:5.1f} ms, p99 {percentile(times, 99) * 1000:5.1f} ms"
            )


def across(db_name: str, url: str, hands: int) -> None:
    """Hands saved through process A, seen by pollers of process B."""
    with gunicorn(url, SETUPS["sync 2"]) as (port_a, _a), gunicorn(url, SETUPS["gthread 2x8"]) as (port_b, _b):
        phone, game_url, ids = seed(f"http://{HOST}:{port_a}")
        path = watch_path(phone, game_url)
        cookie = phone.cookie()
        seen: dict[str, list[float]] = {"phone": [], "fast": []}
        saved_at: list[float] = []
        stop = threading.Event()

        def follow(name: str, period: float) -> None:
            poller = Poller(port_b, path, cookie)
            poller.ask()
            last = poller.token
            time.sleep(random.uniform(0, period))
            while not stop.is_set():
                poller.ask()
                if poller.token != last:
                    last = poller.token
                    if saved_at:
                        seen[name].append(time.monotonic() - saved_at[-1])
                stop.wait(period)

        followers = [
            threading.Thread(target=follow, args=("phone", PERIOD)),
            threading.Thread(target=follow, args=("fast", 0.02)),
        ]
        for t in followers:
            t.start()
        time.sleep(0.5)
        for _ in range(hands):
            save_hand(phone, game_url, ids, saved_at)
            time.sleep(random.uniform(PERIOD + 0.2, 2 * PERIOD))  # the next hand after B saw this one
        stop.set()
        for t in followers:
            t.join()
        for name, label in (("phone", f"a phone asking every {PERIOD} s"), ("fast", "a poller asking every 20 ms")):
            values = seen[name]
            print(
                f"{db_name:10} saved on A, seen on B by {label:30}: {len(values)}/{hands} hands, "
                f"median {statistics.median(values) * 1000:6.0f} ms, worst {max(values) * 1000:6.0f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each load run")
    parser.add_argument("--hands", type=int, default=8, help="hands saved on A for the latency run")
    args = parser.parse_args()
    if not (Path(sys.executable).parent / "gunicorn").exists():
        raise SystemExit("needs gunicorn: .venv/bin/python -m pip install -e '.[test]'")
    print(f"{os.cpu_count()} CPUs; load generator and servers share them (loopback only)\n")
    with tempfile.TemporaryDirectory() as tmp, postgres() as pg:
        databases = {"SQLite": f"sqlite:///{Path(tmp) / 'live.sqlite3'}"}
        if pg is not None:
            databases["PostgreSQL"] = pg
        for name, url in databases.items():
            create_tables(url)
            measure(name, url, args.seconds)
            print()
        for name, url in databases.items():
            across(name, url, args.hands)


if __name__ == "__main__":
    main()
