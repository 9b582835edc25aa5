"""The benchmark scripts start: each is run as the README says, ``python benchmarks/x.py``.

They assert nothing and are not run here (they take minutes); this only catches a
script that can no longer start — e.g. one that lets ``benchmarks/http.py`` stand in
for the standard library's ``http`` package, which Flask and every HTTP client import.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The scripts with options (``--help`` prints them and stops); engine.py has none.
SCRIPTS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if "argparse" in p.read_text())


def test_the_scripts_are_found() -> None:
    assert {"http.py", "standings.py", "live_poll.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmark_script_starts(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
