"""Acknowledged writes under kill -9: none may be lost, and the database must stay sound.

The app runs under gunicorn (``--worker-class gthread --workers 2 --threads 4``) on a
throw-away database: a fresh SQLite file in a temporary folder, and a fresh schema of
PostgreSQL's database ``test`` on 127.0.0.1:5432 when it answers.  ``flask db upgrade``
builds the schema first.  Through the web pages, as a person would (every form page is
fetched first and every hidden input it carries is sent back: CSRF token, round number,
one-time token, version...), one phone creates a group and adds players; each writer
thread then joins the group as a phone of its own, starts a crapouille game (another
when it ends) and adds hands to it as fast as it can.  A hand is *acknowledged* when the server answers its
form with a redirect to the game page.  Meanwhile the whole gunicorn process group
(master and workers) is killed with SIGKILL at random moments and started again on the
same database; writers retry (connection errors while it is down are expected).

At the end it prints, per database: the acknowledged writes, how many of them are in
the database (and how many are missing), an integrity check (SQLite's
``PRAGMA integrity_check`` and ``foreign_key_check``; on both, rounds numbered 1..n in
every game with no gap or duplicate and every stored JSON parsing), the 5xx answers
seen, the kills and the run time.  It exits non-zero if an acknowledged write is
missing, the integrity check fails, a 5xx was seen, or no write was acknowledged.

Run with ``.venv/bin/python benchmarks/faults.py`` (needs gunicorn:
``.venv/bin/python -m pip install -e '.[prod]'``); options ``--seconds`` (writing time
per database, default 30), ``--kills`` (default 5), ``--db sqlite|postgresql|both``
(default both; PostgreSQL is skipped with a message when it does not answer),
``--writers`` (default 8), ``--max-requests`` (per database, default 100000) and
``--seed``.  It listens on 127.0.0.1 only, stops by itself, and removes its processes,
files and schema.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

import argparse
import contextlib
import html
import http.client
import json
import random
import re
import secrets
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
GUNICORN_OPTIONS = ["--worker-class", "gthread", "--workers", "2", "--threads", "4"]
PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve"]
#: What a player left with cards may hold: cheap hands, so games last a while (no card
#: twice, and one hand has at most 4 players, one of them the winner).
LEFTOVERS = [("cards", "As"), ("cards", "3c"), ("cards", "Kh"), ("cards", "4d 2s"), ("total", "0"), ("total", "2")]
REQUEST_TIMEOUT = 20.0
READY_TIMEOUT = 60.0


class Unreachable(Exception):
    """The server did not answer (refused, reset, timed out): expected while it is down."""


class SetupFailed(Exception):
    """The pages did not behave as a person setting up would need."""


# --- a small browser: one keep-alive connection, cookies, forms -------------------------


@dataclass
class Answer:
    status: int
    location: str
    text: str


class Browser:
    """One phone: a keep-alive HTTP/1.1 connection to 127.0.0.1 and a cookie jar."""

    def __init__(self, port: int, timeout: float = REQUEST_TIMEOUT) -> None:
        self.port = port
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self._conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(self, method: str, path: str, form: list[tuple[str, str]] | None = None) -> Answer:
        headers = {"Accept-Language": "en", "User-Agent": "companion-faults"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self._conn is None:
            self._conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        try:
            self._conn.request(method, path, body=body, headers=headers)
            response = self._conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as e:
            self.close()
            raise Unreachable(f"{type(e).__name__}: {e}") from None
        for header in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or (not morsel.value and morsel["expires"]):
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.coded_value
        if response.will_close:
            self.close()
        return Answer(response.status, response.headers.get("Location", ""), data.decode("utf-8", "replace"))


@dataclass
class Field:
    tag: str
    type: str
    name: str
    value: str
    checked: bool = False
    options: list[tuple[str, bool]] = field(default_factory=list)


@dataclass
class Form:
    action: str
    method: str
    fields: list[Field] = field(default_factory=list)

    def names(self) -> set[str]:
        return {f.name for f in self.fields}

    def values(self, name: str) -> list[str]:
        """The values offered for ``name``: radio buttons' values or a select's options."""
        found = [f for f in self.fields if f.name == name]
        if found and found[0].tag == "select":
            return [value for value, _ in found[0].options]
        return [f.value for f in found]

    def hidden(self, name: str) -> str | None:
        return next((f.value for f in self.fields if f.name == name and f.type == "hidden"), None)


class FormParser(HTMLParser):
    """Every form of a page, with its fields (inputs, selects, textareas, buttons)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._text_of: Field | None = None  # a textarea, or an option without a value
        self._select: Field | None = None
        self._option: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = Form(action=a.get("action", ""), method=a.get("method", "get").lower())
            self.forms.append(self._form)
            return
        if self._form is None or "disabled" in a:
            return
        if tag == "input":
            kind = a.get("type", "text").lower()
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            self._form.fields.append(Field("input", kind, a.get("name", ""), value, checked="checked" in a))
        elif tag == "button":
            kind = a.get("type", "submit").lower()
            self._form.fields.append(Field("button", kind, a.get("name", ""), a.get("value", "")))
        elif tag == "select":
            self._select = Field("select", "select", a.get("name", ""), "")
            self._form.fields.append(self._select)
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "selected" in a, ""]
        elif tag == "textarea":
            self._text_of = Field("textarea", "textarea", a.get("name", ""), "")
            self._form.fields.append(self._text_of)

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option[2] += data
        elif self._text_of is not None:
            self._text_of.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag in ("option", "select") and self._option is not None and self._select is not None:
            value, selected, text = self._option
            self._select.options.append((value if value is not None else text.strip(), selected))
            self._option = None
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._text_of = None


def find_form(page: str, *needed: str) -> Form | None:
    """The first POST form of ``page`` that has every field in ``needed``."""
    parser = FormParser()
    parser.feed(page)
    parser.close()
    for form in parser.forms:
        if form.method == "post" and set(needed) <= form.names():
            return form
    return None


def fill(form: Form, choices: dict[str, str], unknown: str = "faults", password: str = "") -> list[tuple[str, str]]:
    """What a browser sends for ``form``: ``choices`` for the fields they name, every
    hidden input as it came, the first submit button, a choice already made (checked,
    selected, typed) kept, and a short value in any other visible text field."""
    sent: list[tuple[str, str]] = []
    done: set[str] = set()
    submitted = False
    for f in form.fields:
        if not f.name:
            continue
        if f.name in choices:
            if f.name not in done:
                sent.append((f.name, choices[f.name]))
            done.add(f.name)
        elif f.type in ("submit", "image") or (f.tag == "button" and f.type == "submit"):
            if not submitted:
                sent.append((f.name, f.value))
                submitted = True
        elif f.type in ("button", "reset", "file"):
            continue
        elif f.type in ("checkbox", "radio"):
            if f.checked:
                sent.append((f.name, f.value))
        elif f.tag == "select":
            chosen = [v for v, selected in f.options if selected] or [v for v, _ in f.options[:1]]
            sent.extend((f.name, v) for v in chosen)
        elif f.type == "hidden":
            sent.append((f.name, f.value))
        elif f.type == "password":
            sent.append((f.name, f.value or password))
        elif f.type == "number":
            sent.append((f.name, f.value or "1"))
        else:  # text, search, email, tel, url, textarea...: a person types something short
            sent.append((f.name, f.value or unknown))
    return sent


def messages(page: str) -> list[str]:
    """The error and flash messages of a page, as text."""
    found = re.findall(r'<p class="(?:error|flash)"[^>]*>(.*?)</p>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>|\s+", " ", m)).strip() for m in found]


def path_of(location: str) -> str:
    return urlsplit(location).path


def submit(browser: Browser, page_path: str, needed: tuple[str, ...], choices: dict[str, str], **kw: Any) -> Answer:
    """GET the form page, fill its form like a person, POST it (setup only: no retry)."""
    page = browser.request("GET", page_path)
    if page.status != 200:
        raise SetupFailed(f"GET {page_path} answered {page.status} {page.location}")
    form = find_form(page.text, *needed)
    if form is None:
        raise SetupFailed(f"no form with {', '.join(needed)} on {page_path}")
    answer = browser.request("POST", urljoin(page_path, form.action or page_path), fill(form, choices, **kw))
    if answer.status not in (302, 303):
        detail = "; ".join(messages(answer.text)) or answer.text[:200]
        raise SetupFailed(f"POST {page_path} answered {answer.status}: {detail}")
    return answer


# --- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """gunicorn in a process group of its own, so that one SIGKILL takes master and workers."""

    def __init__(self, database_url: str, port: int, secret: str, log: Path) -> None:
        self.port = port
        self.log = log
        self.env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret}
        self.proc: subprocess.Popen[bytes] | None = None

    def upgrade(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        if done.returncode != 0:
            raise SetupFailed(f"flask db upgrade failed:\n{done.stderr[-2000:]}")

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            *GUNICORN_OPTIONS,
            "--bind",
            f"{HOST}:{self.port}",
            "--timeout",
            "30",
            "--graceful-timeout",
            "5",
            "companion:create_app()",
        ]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=log,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def wait_ready(self) -> None:
        """Until the app answers a page (any answer but a lost connection)."""
        probe = Browser(self.port, timeout=5)
        deadline = time.monotonic() + READY_TIMEOUT
        try:
            while time.monotonic() < deadline:
                if self.proc is not None and self.proc.poll() is not None:
                    raise SetupFailed(f"gunicorn exited with {self.proc.returncode}:\n{self.log_tail()}")
                try:
                    probe.request("GET", "/")
                    return
                except Unreachable:
                    time.sleep(0.05)
            raise SetupFailed(f"gunicorn did not answer within {READY_TIMEOUT:.0f} s:\n{self.log_tail()}")
        finally:
            probe.close()

    def kill(self) -> None:
        """SIGKILL to the whole process group: master and workers at once."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        """A graceful stop (SIGTERM), then SIGKILL for anything left in the group."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        self.kill()

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


# --- the writers -----------------------------------------------------------------------------


@dataclass
class Tally:
    """What every writer saw, under one lock."""

    max_requests: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    acked: list[tuple[int, int]] = field(default_factory=list)  # (game id, round number)
    acked_games: list[int] = field(default_factory=list)
    unreachable: int = 0
    unknown_outcome: int = 0  # a hand POSTed, then the connection was lost
    server_errors: int = 0
    refused: int = 0
    other: int = 0
    samples: list[str] = field(default_factory=list)

    @property
    def spent(self) -> bool:
        return self.requests >= self.max_requests

    def take(self) -> bool:
        """One more request, if the budget allows."""
        with self.lock:
            if self.requests >= self.max_requests:
                return False
            self.requests += 1
            return True

    def add(self, counter: str, sample: str | None = None) -> None:
        with self.lock:
            setattr(self, counter, getattr(self, counter) + 1)
            if sample:
                sample = re.sub(r"/\d+(?=/|$|:)", "/<id>", sample)
                if len(self.samples) < 8 and sample not in self.samples:
                    self.samples.append(sample)


class Writer(threading.Thread):
    """A phone of the group adding crapouille hands to its own game until told to stop."""

    def __init__(self, number: int, port: int, code: str, passphrase: str, creator: Browser, tally: Tally) -> None:
        super().__init__(name=f"writer-{number}", daemon=True)
        self.number = number
        self.code = code
        self.passphrase = passphrase
        self.creator = creator
        self.tally = tally
        self.rng = random.Random(f"{number}-{code}")
        self.browser = Browser(port)
        self.stop = threading.Event()
        self.game_id: int | None = None
        self.failure: str | None = None

    # Setup (the server is up: no retry).

    def join_group(self) -> bool:
        """Join the group with its code and passphrase; False if the server refused
        (a throttle), in which case this phone uses a copy of the creator's cookie."""
        try:
            answer = submit(
                self.browser,
                f"/join?code={self.code}",
                ("code", "passphrase"),
                {"code": self.code, "passphrase": self.passphrase},
                unknown=f"phone {self.number}",
            )
        except SetupFailed:
            answer = None
        if answer is not None and path_of(answer.location) == f"/g/{self.code}":
            return True
        self.browser.cookies = dict(self.creator.cookies)
        return False

    def game_path(self, game_id: int | None = None) -> str:
        return f"/g/{self.code}/games/{self.game_id if game_id is None else game_id}"

    def new_game(self) -> bool:
        """Start a crapouille game with 3 or 4 of the players in a random order; True once acknowledged."""
        path = f"/g/{self.code}/games/new/crapouille"
        if not self.tally.take():
            return False
        page = self.browser.request("GET", path)
        if page.status >= 500:
            self.tally.add("server_errors", f"GET {path}: {page.status}")
            return False
        form = find_form(page.text, "seats-0") if page.status == 200 else None
        if form is None:
            self.tally.add("other", f"GET {path}: {page.status}, no seats form")
            return False
        seats = [f.name for f in form.fields if f.tag == "select" and re.fullmatch(r"seats-\d+", f.name)]
        seats.sort(key=lambda name: int(name.split("-")[1]))
        players = [v for v in form.values(seats[0]) if v]
        chosen = self.rng.sample(players, min(len(players), self.rng.choice([3, 4])))
        choices = {name: (chosen[i] if i < len(chosen) else "") for i, name in enumerate(seats)}
        if not self.tally.take():
            return False
        answer = self.browser.request("POST", urljoin(path, form.action or path), fill(form, choices))
        match = re.fullmatch(rf"/g/{self.code}/games/(\d+)", path_of(answer.location))
        if answer.status in (302, 303) and match:
            self.game_id = int(match.group(1))
            with self.tally.lock:
                self.tally.acked_games.append(self.game_id)
            return True
        self.classify(answer, f"POST {path}")
        return False

    # The timed part: every error is counted, and the writer carries on.

    def run(self) -> None:
        try:
            while not self.stop.is_set() and not self.tally.spent:
                try:
                    if self.game_id is None:
                        self.new_game()
                    else:
                        self.hand()
                except Unreachable:
                    self.tally.add("unreachable")
                    time.sleep(0.05)  # the server is down: try again shortly
        except Exception as e:  # a bug here must not pass for a clean run
            self.failure = f"{type(e).__name__}: {e}"
        finally:
            self.browser.close()

    def hand(self) -> None:
        """Fetch the hand form, fill it, send it, and note the hand if it is acknowledged."""
        path = f"{self.game_path()}/rounds/new"
        if not self.tally.take():
            return
        page = self.browser.request("GET", path)
        if page.status in (302, 303) and path_of(page.location) == self.game_path():
            self.game_id = None  # the game is over: start another
            return
        form = find_form(page.text, "winner") if page.status == 200 else None
        if form is None:
            self.classify(page, f"GET {path}")
            return
        number = form.hidden("round")
        if number is None:
            heading = re.search(r"<h1>[^<]*?(\d+)[^<]*</h1>", page.text)
            number = heading.group(1) if heading else None
        if number is None or not number.isdigit():
            raise SetupFailed("the hand form shows no round number")
        live = [v for v in form.values("winner") if v]
        winner = self.rng.choice(live)
        # The fields tapped, not the line « En une phrase » (left empty, as a person who taps).
        choices = {"winner": winner, "line": ""}
        for f in form.fields:
            if re.fullmatch(r"(cards|total)_\d+", f.name):
                choices[f.name] = ""
        others = [player for player in live if player != winner]
        # Distinct leftovers, so that no hand holds more copies of a card than the deck.
        for player, (kind, value) in zip(others, self.rng.sample(LEFTOVERS, len(others)), strict=True):
            choices[f"{kind}_{player}"] = value
        if not self.tally.take():
            return
        game_path = self.game_path()
        try:
            answer = self.browser.request("POST", urljoin(path, form.action or path), fill(form, choices))
        except Unreachable:
            self.tally.add("unknown_outcome")
            raise
        if answer.status in (302, 303) and path_of(answer.location) == game_path:
            with self.tally.lock:
                self.tally.acked.append((int(self.game_id or 0), int(number)))
        else:
            self.classify(answer, f"POST {path}")

    def classify(self, answer: Answer, what: str) -> None:
        """Count an answer that acknowledged nothing, and pause a little before the next try."""
        time.sleep(0.01)
        detail = "; ".join(messages(answer.text))[:160]
        if answer.status >= 500:
            self.tally.add("server_errors", f"{what}: {answer.status} {detail}")
        elif answer.status in (200, 400, 403, 409, 422, 429):
            self.tally.add("refused", f"{what}: {answer.status} {detail}")
        else:
            self.tally.add("other", f"{what}: {answer.status} {answer.location} {detail}")


# --- the databases ---------------------------------------------------------------------------


@dataclass
class Stored:
    """What the database holds after the run."""

    rounds: set[tuple[int, int]]
    games: set[int]
    problems: list[str]
    checks: str


def check_rows(rows: list[tuple[int, int, str, str]], games: set[int]) -> tuple[set[tuple[int, int]], list[str]]:
    """Rounds numbered 1..n in every game, no duplicate, every JSON value parsing to an object."""
    problems: list[str] = []
    numbers: dict[int, list[int]] = {}
    for game_id, number, entry, result in rows:
        numbers.setdefault(game_id, []).append(number)
        for label, text in (("entry", entry), ("result", result)):
            try:
                value = json.loads(text)
            except (TypeError, ValueError) as e:
                problems.append(f"game {game_id} round {number}: {label} does not parse ({e})")
                continue
            if not isinstance(value, dict):
                problems.append(f"game {game_id} round {number}: {label} is not an object")
    for game_id, found in sorted(numbers.items()):
        if sorted(found) != list(range(1, len(found) + 1)):
            problems.append(f"game {game_id}: rounds {sorted(found)[:20]} are not 1..{len(found)}")
        if game_id not in games:
            problems.append(f"rounds of game {game_id}, which does not exist")
    return {(g, n) for g, n, _, _ in rows}, problems


def sqlite_contents(path: Path) -> Stored:
    conn = sqlite3.connect(path)
    try:
        integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        foreign = conn.execute("PRAGMA foreign_key_check").fetchall()
        games = {row[0] for row in conn.execute("SELECT id FROM games")}
        rows = conn.execute("SELECT game_id, number, entry, result FROM rounds").fetchall()
    finally:
        conn.close()
    rounds, problems = check_rows(rows, games)
    if integrity != ["ok"]:
        problems.insert(0, "PRAGMA integrity_check: " + "; ".join(integrity[:5]))
    if foreign:
        problems.insert(0, f"PRAGMA foreign_key_check: {len(foreign)} rows, e.g. {foreign[:3]}")
    checks = f"integrity_check {'/'.join(integrity[:1])}, foreign_key_check {len(foreign)} rows"
    return Stored(rounds, games, problems, checks)


def postgresql_contents(schema: str) -> Stored:
    import psycopg

    with psycopg.connect(PG_URL, options=f"-csearch_path={schema}", connect_timeout=5) as conn:
        games = {row[0] for row in conn.execute("SELECT id FROM games")}
        rows = conn.execute("SELECT game_id, number, entry::text, result::text FROM rounds").fetchall()
    rounds, problems = check_rows(rows, games)
    return Stored(rounds, games, problems, "")


def postgresql_error() -> str | None:
    """None when PostgreSQL answers, else why not."""
    try:
        import psycopg

        psycopg.connect(PG_URL, connect_timeout=3).close()
    except Exception as e:  # anything at all means "not reachable"
        return f"{type(e).__name__}: {e}".strip().splitlines()[0]
    return None


def postgresql_schema(schema: str, create: bool) -> None:
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute("SET lock_timeout = '20s'")
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        if create:
            conn.execute(f'CREATE SCHEMA "{schema}"')


# --- one run ---------------------------------------------------------------------------------


@dataclass
class Run:
    kind: str
    acked: int = 0
    acked_games: int = 0
    found: int = 0
    missing: list[tuple[int, int]] = field(default_factory=list)
    missing_games: list[int] = field(default_factory=list)
    unacked: int = 0
    stored_rounds: int = 0
    problems: list[str] = field(default_factory=list)
    checks: str = ""
    server_errors: int = 0
    kills: int = 0
    downtimes: list[float] = field(default_factory=list)
    tally: Tally | None = None
    joined: int = 0
    writers: int = 0
    log_tail: str = ""
    writing: float = 0.0
    seconds: float = 0.0
    failure: str | None = None

    @property
    def ok(self) -> bool:
        return not (self.failure or self.missing or self.missing_games or self.problems or self.server_errors) and (
            self.acked > 0
        )


def run(kind: str, args: argparse.Namespace, rng: random.Random) -> Run:
    """One database: build it, set up through the pages, write while killing, check."""
    result = Run(kind)
    started = time.monotonic()
    schema = f"companion_faults_{os.getpid()}_{secrets.token_hex(3)}"
    with tempfile.TemporaryDirectory(prefix="companion-faults-") as tmp:
        if kind == "sqlite":
            database = Path(tmp) / "faults.sqlite3"
            url = f"sqlite:///{database}"
        else:
            postgresql_schema(schema, create=True)
            url = f"{PG_URL}?options=-csearch_path%3D{schema}"
        server = Server(url, free_port(), secrets.token_hex(32), Path(tmp) / "gunicorn.log")
        writers: list[Writer] = []
        try:
            server.upgrade()
            server.start()
            server.wait_ready()
            tally = Tally(args.max_requests)
            result.tally = tally
            writers = set_up(server, args, tally, result)
            write_and_kill(server, writers, args, rng, result)
            result.server_errors = tally.server_errors
            # The last restart has answered: every game page must show.
            viewer = writers[0].browser
            for game_id in sorted(set(tally.acked_games)):
                try:
                    page = viewer.request("GET", f"/g/{writers[0].code}/games/{game_id}")
                except Unreachable as e:
                    result.problems.append(f"game page {game_id}: {e}")
                    continue
                if page.status >= 500:
                    result.server_errors += 1
                    tally.add("server_errors", f"GET game {game_id}: {page.status}")
                elif page.status != 200:
                    result.problems.append(f"game page {game_id} answered {page.status}")
            viewer.close()
            server.stop()
            stored = sqlite_contents(database) if kind == "sqlite" else postgresql_contents(schema)
            acked = set(tally.acked)
            result.acked, result.acked_games = len(tally.acked), len(set(tally.acked_games))
            result.missing = sorted(acked - stored.rounds)
            result.missing_games = sorted(set(tally.acked_games) - stored.games)
            result.found = len(acked & stored.rounds)
            mine = set(tally.acked_games)
            result.stored_rounds = len(stored.rounds)
            result.unacked = len({r for r in stored.rounds if r[0] in mine} - acked)
            result.problems += stored.problems
            result.checks = stored.checks
            if len(acked) != len(tally.acked):
                result.problems.append("a round was acknowledged twice")
        except (SetupFailed, Unreachable) as e:
            result.failure = f"{e}"
        finally:
            for writer in writers:
                writer.stop.set()
            server.kill()
            if not result.ok:
                result.log_tail = server.log_tail()
            for writer in writers:
                writer.join(timeout=REQUEST_TIMEOUT + 5)
            if kind == "postgresql":
                postgresql_schema(schema, create=False)
    result.seconds = time.monotonic() - started
    return result


def set_up(server: Server, args: argparse.Namespace, tally: Tally, result: Run) -> list[Writer]:
    """A group with players, then every writer joins it and starts its game."""
    creator = Browser(server.port)
    passphrase = secrets.token_urlsafe(12)
    answer = submit(
        creator,
        "/groups/new",
        ("name", "passphrase"),
        {"name": "Faults", "passphrase": passphrase, "confirm": passphrase},
        unknown="faults phone",
        password=passphrase,
    )
    found = re.fullmatch(r"/g/([A-Z0-9]+)", path_of(answer.location))
    if not found:
        raise SetupFailed(f"creating the group led to {answer.location!r}")
    code = found.group(1)
    for name in PLAYERS:
        submit(creator, f"/g/{code}/players", ("name",), {"name": name})
    writers = [Writer(i, server.port, code, passphrase, creator, tally) for i in range(args.writers)]
    result.writers = len(writers)
    for writer in writers:
        result.joined += writer.join_group()
        if not writer.new_game():
            raise SetupFailed(f"writer {writer.number} could not start a game: {tally.samples[-1:]}")
    creator.close()
    return writers


def write_and_kill(
    server: Server, writers: list[Writer], args: argparse.Namespace, rng: random.Random, result: Run
) -> None:
    """Writers run for ``args.seconds``; the server is killed at ``args.kills`` random moments."""
    start = time.monotonic()
    result.writing = args.seconds
    moments = sorted(rng.uniform(0.1, 0.9) * args.seconds for _ in range(args.kills))
    for writer in writers:
        writer.start()
    for moment in moments:
        time.sleep(max(0.0, start + moment - time.monotonic()))
        if all(not w.is_alive() for w in writers):
            break
        down = time.monotonic()
        server.kill()
        result.kills += 1
        server.start()
        server.wait_ready()
        result.downtimes.append(time.monotonic() - down)
        print(
            f"  {result.kind}: kill {result.kills} at {down - start:5.1f} s, answering again after "
            f"{result.downtimes[-1]:.2f} s",
            flush=True,
        )
    time.sleep(max(0.0, start + args.seconds - time.monotonic()))
    for writer in writers:
        writer.stop.set()
    for writer in writers:
        writer.join(timeout=REQUEST_TIMEOUT + 5)
        if writer.is_alive():
            result.problems.append(f"writer {writer.number} did not stop")
        if writer.failure:
            result.failure = f"writer {writer.number}: {writer.failure}"


def report(result: Run) -> None:
    tally = result.tally
    print(f"\n{result.kind}")
    if result.failure:
        print(f"  FAILED: {result.failure}")
    if tally is None:
        return
    down = result.downtimes
    rate = result.acked / result.writing if result.writing else 0.0
    print(f"  acknowledged writes      {result.acked:7d}   hands in {result.acked_games} games ({rate:.0f}/s)")
    print(f"  found in the database    {result.found:7d}   missing {len(result.missing)}", end="")
    print(f" (e.g. {result.missing[:5]})" if result.missing else "")
    if result.missing_games:
        print(f"  games missing            {len(result.missing_games):7d}   {result.missing_games[:5]}")
    cut = f"of {tally.unknown_outcome} hands sent whose answer a kill cut off"
    print(f"  saved, not acknowledged  {result.unacked:7d}   ({cut})")
    verdict = "ok" if not result.problems else f"FAILED: {len(result.problems)} problems"
    detail = f"{result.checks}; " if result.checks else ""
    print(f"  integrity                {verdict:>7}   ({detail}{result.stored_rounds} rounds: numbered 1..n, JSON)")
    for problem in result.problems[:10]:
        print(f"    - {problem}")
    print(f"  5xx responses            {result.server_errors:7d}")
    mean = sum(down) / len(down) if down else 0.0
    print(
        f"  kills                    {result.kills:7d}   (back in {mean:.2f} s on average, {max(down, default=0):.2f} s"
        f" at most; {tally.unreachable} connection errors while down)"
    )
    print(f"  refused forms            {tally.refused:7d}   other answers {tally.other}")
    joined = f"{result.joined} of {result.writers} writers joined through /join"
    print(f"  requests                 {tally.requests:7d}   ({joined})")
    print(f"  run time                 {result.seconds:7.1f} s")
    for sample in tally.samples:
        print(f"    e.g. {sample}")
    if result.log_tail:
        print("  the end of gunicorn's log:")
        print("\n".join("    | " + line for line in result.log_tail.splitlines()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="writing time per database (default 30)")
    parser.add_argument("--kills", type=int, default=5, help="SIGKILLs of gunicorn per database (default 5)")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--writers", type=int, default=8, help="concurrent writer threads (default 8)")
    parser.add_argument("--max-requests", type=int, default=100_000, help="request budget per database")
    parser.add_argument("--seed", type=int, default=None, help="seed of the kill moments")
    args = parser.parse_args()
    if args.seconds <= 0 or args.kills < 0 or args.writers < 1 or args.max_requests < 1:
        parser.error("--seconds, --writers and --max-requests must be positive, --kills 0 or more")
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        print("gunicorn is not installed: .venv/bin/python -m pip install -e '.[prod]'", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    rng = random.Random(seed)
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    print(
        f"gunicorn {' '.join(GUNICORN_OPTIONS)} on {HOST}, {args.writers} writer threads, "
        f"{args.seconds:g} s and {args.kills} kills (SIGKILL to the process group) per database, seed {seed}",
        flush=True,
    )
    results: list[Run] = []
    for kind in kinds:
        if kind == "postgresql":
            error = postgresql_error()
            if error is not None:
                print(f"\npostgresql: skipped, {PG_URL} is not reachable ({error})")
                continue
        result = run(kind, args, rng)
        report(result)
        results.append(result)
    if not results:
        return 2
    failed = [r.kind for r in results if not r.ok]
    print(f"\n{'FAILED: ' + ', '.join(failed) if failed else 'OK: every acknowledged write survived'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
