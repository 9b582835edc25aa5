"""Charts drawn on the server as inline SVG: no script, nothing from another host.

:func:`line_chart` turns series of points into a :class:`Chart`, every coordinate
computed here; ``templates/_charts.html`` (``line_chart`` macro) only writes the
elements out. A chart is drawn for a phone (a 358-unit ``viewBox``: one unit is one
CSS pixel on a 390 px phone, and the drawing scales with the page), coloured through
CSS classes (``static/charts.css``, light and dark themes), and tells its series
apart by dash pattern and marker shape as well as by colour. It carries its own text
alternative (a title and a sentence summarising it) and the same figures as a table.

A game page's chart belongs to its kind (``companion/games/kinds/<kind>/charts.py``)
and reads the stored state of every round through :func:`stored_figures` (one query,
only the keys it draws), never replaying a game.

Any other page can draw a chart with :func:`line_chart` (the season page's rating
over the season, for instance)::

    chart = line_chart(
        [("Ann", [(1, 25.0), (2, 27.5)]), ("Bob", [(1, 25.0), (2, 22.1)])],
        x_label=_("Game"), y_label=_("Rating"), title=_("Rating over the season"),
        summary=_("Ann leads after 2 games."), chart_id="rating",
    )

and ``{{ line_chart(chart) }}`` from ``_charts.html`` in its template (with
``static/charts.css`` linked in its ``head`` block).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from babel import Locale
from babel.numbers import format_decimal

from companion.extensions import db
from companion.i18n import current_locale
from companion.models import Game, Round

#: The drawing's size in SVG units: the width of a 390 px phone's content (16 px
#: margins), so that labels of 14 units are 14 CSS pixels there.
WIDTH = 358
HEIGHT = 232
#: Room for the tick labels: left (values), bottom (rounds); the top holds the y label.
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 28, 44
FONT = 14
#: Styles given in turn to the series: 6 colours × 6 marker shapes (filled, then
#: hollow from the 7th series) and 4 dash patterns, so that 12 players (the most a
#: game seats) never share a look, and none is told apart by colour alone.
COLOURS = 6
DASHES = ("", "8 4", "2 4", "12 4 2 4")
#: Beyond this many points a series shows markers only every few points (and at its end).
MARKERS_MAX = 24
#: A label's width is estimated at this many ``FONT`` units per character (digits are
#: 0.55–0.64 em wide in the common sans-serif faces, DejaVu Sans the widest), and
#: labels along the x axis keep this gap between them, and this margin from the edges.
CHAR_EM = 0.65
LABEL_GAP = 8
EDGE = 1


Point = tuple[float, float]
SeriesData = tuple[str, Sequence[Point]]


@dataclass(frozen=True)
class Tick:
    """A tick of an axis: its position in the drawing and its label.

    ``text_at`` and ``anchor`` place an x tick's label (SVG ``x`` and ``text-anchor``):
    centred under its tick, or, near an edge of the drawing, flush with that edge so
    that it is never cut (« 26/11/2026 » at the last tick)."""

    at: float
    label: str
    text_at: float | None = None
    anchor: str = "middle"


@dataclass(frozen=True)
class Line:
    """One series as drawn: its label, style and geometry (SVG units)."""

    label: str
    css: str  # "series series-3 hollow"
    dash: str  # stroke-dasharray ("" for a solid line)
    path: str  # the line's "d"
    markers: tuple[str, ...]  # one "d" per marker
    sample_marker: str  # the marker of the legend's sample (a 44×16 box)


@dataclass(frozen=True)
class Reference:
    """A horizontal reference line (300 in la crapouille) and its label."""

    y: float
    label: str
    label_y: float


@dataclass(frozen=True)
class Chart:
    """A line chart ready to write out (``templates/_charts.html``)."""

    id: str
    title: str
    summary: str
    x_label: str
    y_label: str
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    lines: tuple[Line, ...]
    reference: Reference | None
    #: The table behind the chart: one row per x value, one column per series.
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]


def number(value: float) -> str:
    """A figure as the page's language writes it (whole numbers without decimals).

    >>> from flask import Flask
    >>> from flask_babel import Babel
    >>> app = Flask(__name__); babel = Babel(app, locale_selector=lambda: "fr")
    >>> with app.test_request_context():
    ...     number(300), number(-2), number(27.456)
    ('300', '-2', '27,5')
    """
    return _number(value, current_locale())


@lru_cache(maxsize=4096)
def _number(value: float, locale: Locale | None) -> str:
    # Memoised per locale: a chart writes a hundred figures, mostly the same few.
    if float(value).is_integer():
        return str(format_decimal(int(value), format="0", locale=locale))
    return str(format_decimal(value, format="0.0", locale=locale))


def nice_ticks(low: float, high: float, most: int = 6, whole: bool = False) -> list[float]:
    """Round values covering ``low``–``high`` with at most ``most`` ticks, steps of 1, 2 or 5 × 10ⁿ
    (never less than 1 when ``whole``: figures that are whole numbers).

    >>> nice_ticks(0, 310)
    [0, 100, 200, 300, 400]
    >>> nice_ticks(3, 14)
    [0, 5, 10, 15]
    >>> nice_ticks(-1, 4)
    [-1, 0, 1, 2, 3, 4]
    >>> nice_ticks(5, 5), nice_ticks(5, 5, whole=True)
    ([4, 4.5, 5, 5.5, 6], [4, 5, 6])
    """
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(1, most - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    if whole:
        step = max(step, 1)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(int(value) if float(value).is_integer() else round(value, 10))
        if value >= high:
            break
        value += step
    return ticks


def text_width(label: str, size: float = FONT) -> float:
    """The estimated width of ``label`` written ``size`` units high (generous: a label
    is placed so that even a wider face keeps it inside the drawing)."""
    return len(label) * size * CHAR_EM


def _placed(at: float, label: str) -> tuple[float, str, float, float]:
    """Where the label of an x tick at ``at`` goes: ``(x, anchor, left, right)``, centred
    under the tick unless that would cut it at an edge of the drawing, then flush with it."""
    width = text_width(label)
    if at - width / 2 < EDGE:
        return EDGE, "start", EDGE, EDGE + width
    if at + width / 2 > WIDTH - EDGE:
        return WIDTH - EDGE, "end", WIDTH - EDGE - width, WIDTH - EDGE
    return at, "middle", at - width / 2, at + width / 2


def x_ticks(ticks: Sequence[tuple[float, str]]) -> tuple[Tick, ...]:
    """The x axis's ticks ``(position, label)``, from left to right, with labels that all
    fit in the drawing and never overlap: the first and the last always shown, a tick
    in between only if its label clears its neighbours (dates are wider than numbers).

    >>> [(t.label, t.anchor, t.text_at) for t in x_ticks([(44, "25/11/2026"), (344, "26/11/2026")])]
    [('25/11/2026', 'start', 1), ('26/11/2026', 'end', 357)]
    >>> [t.label for t in x_ticks([(44 + 40 * i, f"0{i}/11/2026") for i in range(8)])]
    ['00/11/2026', '03/11/2026', '07/11/2026']
    >>> [(t.label, t.anchor) for t in x_ticks([(44, "0"), (194, "5"), (344, "10")])]
    [('0', 'middle'), ('5', 'middle'), ('10', 'middle')]
    """
    if not ticks:
        return ()
    placed = [(at, label, *_placed(at, label)) for at, label in ticks]
    last = placed[-1]
    kept = [placed[0]]
    for tick in placed[1:-1]:
        if tick[4] >= kept[-1][5] + LABEL_GAP and tick[5] + LABEL_GAP <= last[4]:
            kept.append(tick)
    if len(placed) > 1:
        kept.append(last)
    return tuple(Tick(at, label, x, anchor) for at, label, x, anchor, _left, _right in kept)


def _scale(value: float, domain: tuple[float, float], span: tuple[float, float]) -> float:
    lo, hi = domain
    a, b = span
    if hi == lo:
        return (a + b) / 2
    return a + (value - lo) * (b - a) / (hi - lo)


def _marker(shape: int, x: float, y: float, r: float = 4.5) -> str:
    """The outline of marker ``shape`` (0–5) centred on (x, y)."""
    if shape == 0:  # circle
        return f"M{x - r:.1f} {y:.1f}a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0Z"
    if shape == 1:  # square
        s = r * 0.9
        return f"M{x - s:.1f} {y - s:.1f}h{2 * s:.1f}v{2 * s:.1f}h{-2 * s:.1f}Z"
    w, up, down = r * 1.15, r * 1.2, r * 0.85
    if shape == 2:  # triangle, point up
        return f"M{x:.1f} {y - up:.1f}L{x + w:.1f} {y + down:.1f}L{x - w:.1f} {y + down:.1f}Z"
    if shape == 3:  # diamond
        d = r * 1.25
        return f"M{x:.1f} {y - d:.1f}L{x + d:.1f} {y:.1f}L{x:.1f} {y + d:.1f}L{x - d:.1f} {y:.1f}Z"
    if shape == 4:  # triangle, point down
        return f"M{x:.1f} {y + up:.1f}L{x + w:.1f} {y - down:.1f}L{x - w:.1f} {y - down:.1f}Z"
    t = r * 0.4  # a plus sign
    return (
        f"M{x - t:.1f} {y - r:.1f}h{2 * t:.1f}v{r - t:.1f}h{r - t:.1f}v{2 * t:.1f}h{t - r:.1f}"
        f"v{r - t:.1f}h{-2 * t:.1f}v{t - r:.1f}h{t - r:.1f}v{-2 * t:.1f}h{r - t:.1f}Z"
    )


def line_chart(
    series: Sequence[SeriesData],
    *,
    x_label: str,
    y_label: str,
    title: str,
    summary: str,
    chart_id: str = "chart",
    reference: tuple[float, str] | None = None,
    x_names: Mapping[float, str] | None = None,
    include: Sequence[float] = (),
) -> Chart:
    """A line chart of ``series``, each ``(label, [(x, y), …])`` with ``x`` ascending.

    ``x_label`` and ``y_label`` name the axes (« Donne », « Total »); ``title`` is the
    chart's heading and ``summary`` the sentence that tells what it shows (its text
    alternative, with ``title``); ``chart_id`` makes the ids of its elements unique
    in the page; ``reference`` is an optional horizontal line ``(y, label)``;
    ``include`` values the y axis covers whatever the data (``(0,)``: from zero);
    ``x_names`` optional names of x values, shown instead of the number on the axis
    and in the table (``{0: "start"}``, dates…). The table behind the chart has a row
    per x value and a column per series.

    >>> from flask import Flask
    >>> from flask_babel import Babel
    >>> app = Flask(__name__); babel = Babel(app)
    >>> with app.test_request_context():
    ...     c = line_chart([("Ann", [(0, 0), (1, 120)]), ("Bob", [(0, 0), (1, 30)])],
    ...                    x_label="Hand", y_label="Total", title="Totals", summary="Ann leads.",
    ...                    reference=(300, "300"))
    >>> [t.label for t in c.y_ticks], c.columns, c.rows[1]
    (['0', '100', '200', '300'], ('Ann', 'Bob'), ('1', ('120', '30')))
    >>> c.lines[1].css, c.lines[1].dash, c.reference.label
    ('series series-1', '8 4', '300')
    """
    xs = sorted({float(x) for _label, points in series for x, _y in points})
    ys = [float(y) for _label, points in series for _x, y in points]
    if reference is not None:
        ys.append(float(reference[0]))
    ys.extend(float(y) for y in include)
    if not ys:
        ys = [0.0]
    if not xs:
        xs = [0.0]
    y_values = nice_ticks(min(ys), max(ys), whole=all(float(y).is_integer() for y in ys))
    y_domain = (float(y_values[0]), float(y_values[-1]))
    x_domain = (xs[0], xs[-1])
    # The values' labels end 9 units left of the axis: room for the widest (« 1500 »).
    widest = max(text_width(number(y)) for y in y_values)
    left, right, top, bottom = max(LEFT, math.ceil(widest) + 9 + EDGE), WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def px(x: float) -> float:
        return round(_scale(x, x_domain, (left, right)), 1)

    def py(y: float) -> float:
        return round(_scale(y, y_domain, (bottom, top)), 1)

    named = {float(x): label for x, label in (x_names or {}).items()}

    def x_text(x: float) -> str:
        return named.get(float(x)) or number(x)

    whole = [x for x in xs if float(x).is_integer()]
    candidates = nice_ticks(x_domain[0], x_domain[1], most=8, whole=True) if len(whole) > 8 else whole
    xt = x_ticks([(px(x), x_text(x)) for x in candidates if x_domain[0] <= x <= x_domain[1]])
    yt = tuple(Tick(py(y), number(y)) for y in y_values)

    lines = []
    for i, (label, points) in enumerate(series):
        shape = i % COLOURS
        css = f"series series-{shape}" + (" hollow" if i // COLOURS % 2 else "")
        coords = [(px(float(x)), py(float(y))) for x, y in points]
        path = "".join(f"{'M' if j == 0 else 'L'}{x:.1f} {y:.1f}" for j, (x, y) in enumerate(coords))
        every = max(1, math.ceil(len(coords) / MARKERS_MAX))
        shown = [c for j, c in enumerate(coords) if j % every == 0 or j == len(coords) - 1]
        lines.append(
            Line(
                label=label,
                css=css,
                dash=DASHES[i % len(DASHES)],
                path=path,
                markers=tuple(_marker(shape, x, y) for x, y in shown),
                sample_marker=_marker(shape, 22, 8, 4.5),
            )
        )

    ref = None
    if reference is not None:
        ry = py(float(reference[0]))
        # The label at the left, above the line (below it when the line is at the top).
        ref = Reference(ry, reference[1], ry - 5 if ry - 5 - FONT >= top else ry + FONT + 2)

    by_series = [{float(x): y for x, y in points} for _label, points in series]
    rows = tuple((x_text(x), tuple(number(values[x]) if x in values else "–" for values in by_series)) for x in xs)
    return Chart(
        id=chart_id,
        title=title,
        summary=summary,
        x_label=x_label,
        y_label=y_label,
        width=WIDTH,
        height=HEIGHT,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        x_ticks=xt,
        y_ticks=yt,
        lines=tuple(lines),
        reference=ref,
        columns=tuple(label for label, _points in series),
        rows=rows,
    )


# ------------------------------------------------------------ the game pages


def stored_figures(game: Game, *keys: str) -> list[tuple[int, list[Any]]]:
    """``(number, [result[key] for key in keys])`` for every round of ``game``, in order:
    one query, reading only those keys of each stored state (never replaying a round)."""
    query = (
        sa.select(Round.number, *(Round.result[key] for key in keys))
        .where(Round.game_id == game.id)
        .order_by(Round.number)
    )
    return [(row[0], list(row[1:])) for row in db.session.execute(query)]


def names_list(ids: Sequence[str], names: dict[str, str]) -> str:
    """« Ann, Bob »: these players' names (an id with no name as itself), for a chart's summary."""
    return ", ".join(names.get(p, p) for p in ids)
