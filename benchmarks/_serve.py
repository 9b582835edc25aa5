"""What the HTTP benchmarks share: the app under gunicorn, its workers' CPU, a phone that
uses the pages, PostgreSQL in a schema of its own, percentiles.

It imports nothing of Companion's but ``create_app`` and ``db`` (in a child process, from
the source tree being served), so that the benchmarks keep running while the app's
internals change, and can serve another tree (``root``) than this one.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from html import unescape
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SECRET = "live-poll-benchmark"
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
CLOCK = os.sysconf("SC_CLK_TCK")
_INPUT = re.compile(r"<input\b[^>]*>")
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


# ------------------------------------------------------------------ the servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def tree_env(url: str, root: Path = ROOT, **extra: str) -> dict[str, str]:
    """The environment of a process that serves (or builds the tables of) the tree at
    ``root``: ``companion`` is imported from there (``PYTHONPATH``, ahead of the
    virtual environment's editable install of this tree)."""
    return dict(os.environ, DATABASE_URL=url, SECRET_KEY=SECRET, PYTHONPATH=str(root), **extra)


@contextmanager
def gunicorn(
    url: str,
    options: Sequence[str],
    app: str = "companion:create_app()",
    root: Path = ROOT,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """The app (or another WSGI ``app``) of the tree at ``root`` under gunicorn on a free
    port, run from that folder: (port, master process).  ``options`` come after a 60 s
    worker timeout, so they may set another; ``env`` is added to the environment."""
    port = free_port()
    bind = ["--backlog", "2048", "--bind", f"{HOST}:{port}"]
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--timeout", "60", *options, *bind, app],
        cwd=root,
        env=tree_env(url, root, **(env or {})),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection((HOST, port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("gunicorn did not start") from None
                time.sleep(0.1)
        yield port, server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


def worker_pids(master: subprocess.Popen[bytes]) -> list[int]:
    """The process ids of the master's workers (from ``/proc``)."""
    return [int(pid) for pid in Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()]


def workers_cpu(master: subprocess.Popen[bytes]) -> float:
    """CPU seconds (user + system) used so far by the master's worker processes."""
    total = 0.0
    for pid in worker_pids(master):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLOCK
    return total


_TABLES = """
import sys
import companion
from companion import create_app
from companion.extensions import db
app = create_app({"SQLALCHEMY_DATABASE_URI": sys.argv[1], "SECRET_KEY": "tables"})
with app.app_context():
    db.create_all()
    db.engine.dispose()
print(companion.__file__)
"""


def create_tables(url: str, root: Path = ROOT) -> Path:
    """The tables of the tree at ``root`` in the database at ``url``, made by that tree's
    own models in a child process run as gunicorn runs it (same environment, same
    folder); the file ``companion`` was imported from there, which this checks is in
    ``root``."""
    done = subprocess.run(
        [sys.executable, "-c", _TABLES, url],
        cwd=root,
        env=tree_env(url, root),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"could not create the tables of {root}:\n{done.stderr[-3000:]}")
    source = Path(done.stdout.strip().splitlines()[-1]).resolve()
    if not source.is_relative_to(root.resolve()):
        raise SystemExit(f"companion was imported from {source}, not from {root}")
    return source


# -------------------------------------------------------------------- a phone


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden fields of the page's forms (the first of each name)."""
    data: dict[str, str] = {}
    for tag in _INPUT.findall(page):
        attrs = dict(_ATTR.findall(tag))
        if attrs.get("type") == "hidden" and attrs.get("name") and attrs["name"] not in data:
            data[attrs["name"]] = unescape(attrs.get("value", ""))
    return data


class Phone:
    """Pages and forms as a browser without script: its own cookies.  ``address``, when
    given, is sent as ``X-Forwarded-For`` (a server with ``TRUSTED_PROXIES=1`` takes it
    as the phone's address, as behind the README's proxy); ``timeout``: seconds a page
    may take."""

    def __init__(self, address: str | None = None, timeout: float = 30) -> None:
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        if address:
            self.opener.addheaders.append(("X-Forwarded-For", address))

    def get(self, url: str) -> str:
        with self.opener.open(url, timeout=self.timeout) as response:
            return str(response.read().decode())

    def form(self, page_url: str, **fields: str) -> dict[str, str]:
        """Open the page: its form's hidden fields, with ``fields``."""
        data = hidden_fields(self.get(page_url))
        data.pop("next", None)
        data.update(fields)
        return data

    def post(self, page_url: str, data: dict[str, str]) -> tuple[str, str]:
        """Post a form: (address reached after the redirect, page)."""
        request = urllib.request.Request(page_url, data=urllib.parse.urlencode(data).encode(), method="POST")
        with self.opener.open(request, timeout=self.timeout) as response:
            return response.url, response.read().decode()

    def submit(self, page_url: str, **fields: str) -> tuple[str, str]:
        """Open the page and post its form."""
        return self.post(page_url, self.form(page_url, **fields))

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


# ------------------------------------------------------------------ databases


@contextmanager
def postgres(quiet: bool = False) -> Iterator[str | None]:
    """A schema of its own in the test PostgreSQL, dropped afterwards (None when the
    server does not answer)."""
    schema = f"companion_bench_{os.getpid()}_{time.monotonic_ns() % 1_000_000}"
    try:
        admin = sa.create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with admin.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except Exception as e:  # any failure to connect means "not there"
        if not quiet:
            print(f"PostgreSQL not reachable ({type(e).__name__}): SQLite only")
        yield None
        return
    try:
        url = sa.engine.make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


# ----------------------------------------------------------------- the figures


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank above) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]
