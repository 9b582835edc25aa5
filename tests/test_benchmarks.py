"""The benchmark scripts start: each is run as the README says, ``python benchmarks/x.py``.

They assert nothing and are not run here (they take minutes); this only catches a
script that can no longer start — e.g. one that lets ``benchmarks/http.py`` stand in
for the standard library's ``http`` package, which Flask and every HTTP client import —
and checks the pure parts of ``benchmarks/capacity.py``: its search and its verdict.
"""

from __future__ import annotations

import doctest
import importlib.util
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The scripts with options (``--help`` prints them and stops); engine.py has none.
SCRIPTS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if "argparse" in p.read_text())


def test_the_scripts_are_found() -> None:
    assert {"http.py", "standings.py", "live_poll.py", "capacity.py"} <= set(SCRIPTS)


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


def _capacity() -> ModuleType:
    """benchmarks/capacity.py as a module (its folder kept off the path, as when run)."""
    spec = importlib.util.spec_from_file_location("capacity_under_test", ROOT / "benchmarks" / "capacity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_capacity_search_climbs_then_halves_the_gap() -> None:
    capacity = _capacity()
    ladder, tried = (500, 1000, 2000, 4000), {}
    limit = 1800  # a host that serves 1,800 phones
    while (count := capacity.next_count(tried, ladder, 250)) is not None:
        tried[count] = count <= limit
    assert list(tried) == [500, 1000, 2000, 1500, 1750]
    assert capacity.capacity(tried) == 1750


def test_the_capacity_search_goes_below_the_ladder_and_ends_at_its_top() -> None:
    capacity = _capacity()
    assert capacity.next_count({500: False}, (500, 1000), 100) == 250
    assert capacity.next_count({500: True, 1000: True}, (500, 1000), 100) is None
    assert capacity.capacity({500: False}) == 0
    # A noisy pass above a failure: the gap is from the largest pass upwards.
    assert capacity.next_count({500: True, 1000: False, 1500: True}, (500, 1000, 1500, 2000), 250) == 2000


def test_a_capacity_step_passes_on_both_p99s_and_expected_answers() -> None:
    capacity = _capacity()
    tally = capacity.Tally(0.0, 10.0)
    for i in range(100):
        tally.done("poll", 1.0, 0.010 + i / 1000, "304")
        tally.done("save", 1.0, 0.050, "302+200")
    tally.done("poll", 11.0, 5.0, "304")  # due after the window: not counted
    step = capacity.Step(100, 13, tally, 0.5, 0.1)
    assert step.p("poll", 50) == pytest.approx(0.060)
    assert step.passed(200)
    assert not step.passed(100)  # the polls' p99 is 109 ms
    tally.done("page", 2.0, 0.010, "unexpected 500")
    assert not step.passed(200)


def test_unanswered_requests_count_as_infinitely_slow() -> None:
    capacity = _capacity()
    tally = capacity.Tally(0.0, 10.0)
    tally.due["poll"] = 3
    tally.done("poll", 1.0, 0.010, "304")
    tally.unfinished()
    assert tally.times["poll"][-2:] == [math.inf, math.inf]
    assert tally.answers["poll unanswered"] == 2


def test_the_capacity_search_examples_hold() -> None:
    failed, tried = doctest.testmod(_capacity())
    assert tried and not failed
