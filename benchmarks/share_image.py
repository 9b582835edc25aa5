"""How long the shared image takes to draw: an evening's card, from its games to its PNG.

Run with ``.venv/bin/python benchmarks/share_image.py`` (``--runs 20`` for more,
``--save DIR`` to keep the PNGs drawn). It lays out the card of an evening of four
finished games (``companion.groups.share.evening_card``, as the page's
``/evenings/<day>.png`` does, without the database), writes it out as SVG by the
template and rasterises it (``companion.share_image.to_png``), twice over:

- ``latin``: players with French names (« Amélie », « Bérénice »…): the everyday card;
- ``world``: players named in Arabic, Hebrew, Chinese, Japanese, Korean, with emoji and
  in cuneiform, beside French names: the card that needs fonts other than DejaVu Sans.

For each it prints the median CPU time (of ``--runs``, after one warm-up) of the layout,
of the SVG and of the PNG, and the PNG's size (the first card of the run also loads the
fonts' tables that the layout reads: ``first``, in wall-clock time). Goal: a card in well under a second on one
core (the page waits for it), the PNG under 300 KB (a phone sends it over a mobile
network; ``tests/web/test_share_image.py`` holds that limit). It asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import UTC, date, datetime
from pathlib import Path
from types import SimpleNamespace

sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from flask import render_template

from companion import create_app
from companion.groups.people import EveningGame, Standing
from companion.groups.share import evening_card
from companion.models import GameStatus
from companion.share_image import COLOURS, FAMILY, to_png

LATIN = ["Amélie", "Bérénice", "Loïc", "Zoé"]
WORLD = ["محمد علي", "דוד כהן", "王小明", "さくら", "김민준", "Zoé 🎉", "👨‍👩‍👧 Famille", "𒀭𒂗𒆤"]


def evening(names: list[str]) -> list[EveningGame]:
    """Four finished games of four players among ``names`` (the first four, then from
    the third on…), each won by one of them, with a notable moment naming another."""
    started = datetime(2026, 11, 26, 20, 30, tzinfo=UTC)
    games = []
    for i, kind in enumerate(("president", "piketty", "whist-tarot", "crapouille")):
        players = [names[(2 * i + j) % len(names)] for j in range(4)]
        games.append(
            EveningGame(
                id=i + 1,
                kind=kind,
                status=GameStatus.FINISHED,
                started=started,
                players=players,
                winners=[players[0]],
                moments=[f"{players[1]} passe de 120 à 310 en une manche"],
                standing=[Standing(name, place) for place, name in enumerate(players, start=1)],
            )
        )
    return games


def median_ms(work: object, runs: int) -> float:
    """The median CPU time of ``work`` (this process's: other processes on the machine
    slow the wall clock, not this), in ms."""
    times = []
    for _ in range(runs + 1):
        start = time.process_time()
        work()  # type: ignore[operator]
        times.append(time.process_time() - start)
    return statistics.median(times[1:]) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--save", type=Path, help="a folder to write the PNGs drawn to")
    args = parser.parse_args()
    app = create_app({"TESTING": True, "SECRET_KEY": "benchmark", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    group = SimpleNamespace(name="Les Amis du jeudi")
    night = date(2026, 11, 26)
    print(f"{'card':8} {'first':>9} {'layout':>9} {'svg':>9} {'png':>9} {'size':>9}")
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        for label, names in (("latin", LATIN), ("world", WORLD)):
            games = evening(names)
            start = time.perf_counter()
            card = evening_card(group, night, games)  # type: ignore[arg-type]
            first = (time.perf_counter() - start) * 1000
            svg = render_template("share/card.svg", card=card, family=FAMILY, page=COLOURS["page"])
            png = to_png(svg)
            layout = median_ms(lambda games=games: evening_card(group, night, games), args.runs)  # type: ignore[misc]
            write = median_ms(
                lambda card=card: render_template("share/card.svg", card=card, family=FAMILY, page=COLOURS["page"]),
                args.runs,
            )
            draw = median_ms(lambda svg=svg: to_png(svg), args.runs)
            print(f"{label:8} {first:7.1f}ms {layout:7.1f}ms {write:7.1f}ms {draw:7.1f}ms {len(png) / 1024:6.0f} KB")
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"evening-{label}.png").write_bytes(png)


if __name__ == "__main__":
    main()
