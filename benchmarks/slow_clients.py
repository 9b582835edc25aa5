"""How long a phone waits for a page while two others upload slowly: sync vs gthread workers.

Starts gunicorn twice on a throw-away SQLite database, with two sync workers and then
with two gthread workers of four threads (the issue's set-up and the README's kind).
Two clients open a POST with ``Content-Length: 2000`` and send one byte every half
second; meanwhile a third client asks for the home page every 0.2 s.  It prints, per
set-up, how many page requests were answered within the run, their median and worst
time.  Loopback only (127.0.0.1); it stops by itself after ``--seconds`` (default 8)
per set-up and removes its processes and files.

Run with ``.venv/bin/python benchmarks/slow_clients.py`` (needs gunicorn:
``.venv/bin/python -m pip install -e '.[prod]'``).
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

import argparse
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SETUPS = {
    "sync, 2 workers": ["--worker-class", "sync", "--workers", "2"],
    "gthread, 2 workers x 4 threads": ["--worker-class", "gthread", "--workers", "2", "--threads", "4"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_until_up(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not start")


def slow_upload(port: int, stop: threading.Event) -> None:
    """A phone on a bad connection: the body arrives one byte every half second."""
    try:
        with socket.create_connection((HOST, port), timeout=60) as s:
            s.sendall(
                b"POST /join HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 2000\r\n\r\n"
            )
            while not stop.is_set():
                s.sendall(b"a")
                stop.wait(0.5)
    except OSError:
        pass


def page_time(port: int, timeout: float) -> float | None:
    """Seconds to get the home page, or None if it did not come within ``timeout``."""
    start = time.monotonic()
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            while s.recv(65536):
                pass
    except OSError:
        return None
    return time.monotonic() - start


def measure(name: str, options: list[str], seconds: float, workdir: Path) -> None:
    port = free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{workdir / 'slow.sqlite3'}", SECRET_KEY="slow-clients")
    gunicorn = [str(Path(sys.executable).parent / "gunicorn"), *options, "--timeout", "60"]
    server = subprocess.Popen(
        [*gunicorn, "--bind", f"{HOST}:{port}", "companion:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until_up(port, time.monotonic() + 20)
        page_time(port, 10)  # warm up
        stop = threading.Event()
        uploads = [threading.Thread(target=slow_upload, args=(port, stop)) for _ in range(2)]
        for t in uploads:
            t.start()
        time.sleep(0.5)
        times: list[float] = []
        unanswered = 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            took = page_time(port, max(0.1, end - time.monotonic()))
            if took is None:
                unanswered += 1
            else:
                times.append(took)
            time.sleep(0.2)
        stop.set()
        for t in uploads:
            t.join(timeout=5)
        if times:
            print(
                f"{name:34} pages answered {len(times):3}, unanswered {unanswered}, "
                f"median {statistics.median(times) * 1000:7.1f} ms, worst {max(times) * 1000:7.1f} ms"
            )
        else:
            print(f"{name:34} pages answered   0, unanswered {unanswered}: every worker held by the slow uploads")
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        subprocess.run(
            [str(Path(sys.executable).parent / "flask"), "--app", "companion", "db", "upgrade"],
            cwd=ROOT,
            env=dict(os.environ, DATABASE_URL=f"sqlite:///{workdir / 'slow.sqlite3'}", SECRET_KEY="slow-clients"),
            check=True,
            capture_output=True,
        )
        for name, options in SETUPS.items():
            measure(name, options, args.seconds, workdir)


if __name__ == "__main__":
    main()
