"""Images to share (issue 27): a card laid out here, written out as SVG by a template,
and rasterised to PNG on the server.

A page that shares an image (the evening recap, a finished game: ``companion.groups.share``)
builds a :class:`Card` with a :class:`Layout` — headings, lines of text wrapped to the
card's width, panels behind them — every coordinate computed here;
``templates/share/card.svg`` only writes the elements out (autoescaped: every text is
the players' own, and stays text), and :func:`to_png` draws it. Nothing here knows a
group, a game or a kind.

**The rasteriser** is resvg (Rust), through its binding ``resvg-py`` (PyPI): one
self-contained wheel per platform, no system library (cairo, pango, freetype) to
install, and it draws SVG text itself (shaping included). It is told to skip the
system's fonts.

**The font** is DejaVu Sans (regular and bold, 2.37), committed unmodified under
``companion/fonts/`` with its licence (``companion/fonts/LICENSE``: the Bitstream Vera
and Arev fonts licences, which allow copying and redistributing the files unchanged;
DejaVu's own changes are public domain). Committed rather than taken from the machine,
so that the image is drawn the same on a fresh machine, a developer's or CI's: the
rasteriser loads these two files and no other. DejaVu Sans because it has every
character the cards show: French accents, « », ’, the narrow no-break space, and
the suits ♠♥♦♣ the notable moments may name (the bold face lacks the suits: resvg
falls back to the regular face for them). Its advance widths are read here from the
files (:class:`Metrics`, the ``cmap`` and ``hmtx`` tables) to wrap lines before
drawing them: SVG text does not wrap itself.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import resvg_py

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
FAMILY = "DejaVu Sans"

#: The card's width in pixels: what messaging apps show a photo at, full width.
WIDTH = 1080
#: Its least height: 4:5, the tallest photo a feed shows uncropped. A longer card grows.
MIN_HEIGHT = 1350

#: The card's colours, by role.
COLOURS = {
    "page": "#f6f2e8",
    "band": "#1d5a42",
    "on_band": "#ffffff",
    "on_band_muted": "#cfe5d8",
    "panel": "#ffffff",
    "edge": "#e2dccb",
    "title": "#1d5a42",
    "ink": "#1f1f1f",
    "muted": "#5f5f5f",
    "gold": "#b8860b",
    "red": "#c0392b",
}

#: What XML 1.0 cannot hold (a name cannot have them: ``companion.names``; kept out all the same).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class Metrics:
    """The advance widths of a TrueType font, read from its ``cmap`` (format 4, the
    Basic Multilingual Plane) and ``hmtx`` tables: how wide a text is drawn, kerning
    aside (which only narrows it)."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        count = struct.unpack_from(">H", data, 4)[0]
        tables = {}
        for i in range(count):
            tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            tables[tag.decode("latin-1")] = offset
        self.units = struct.unpack_from(">H", data, tables["head"] + 18)[0]
        metrics = struct.unpack_from(">H", data, tables["hhea"] + 34)[0]
        hmtx = tables["hmtx"]
        self.advances = [struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(metrics)]
        self.glyphs = self._cmap(data, tables["cmap"])

    @staticmethod
    def _cmap(data: bytes, cmap: int) -> dict[int, int]:
        subtables = struct.unpack_from(">H", data, cmap + 2)[0]
        for i in range(subtables):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            at = cmap + offset
            if (platform, encoding) == (3, 1) and struct.unpack_from(">H", data, at)[0] == 4:
                break
        else:
            raise ValueError("no Unicode BMP cmap")
        segments = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends_at = at + 14
        starts_at = ends_at + 2 * segments + 2
        deltas_at = starts_at + 2 * segments
        ranges_at = deltas_at + 2 * segments
        glyphs: dict[int, int] = {}
        for s in range(segments):
            end = struct.unpack_from(">H", data, ends_at + 2 * s)[0]
            start = struct.unpack_from(">H", data, starts_at + 2 * s)[0]
            delta = struct.unpack_from(">h", data, deltas_at + 2 * s)[0]
            range_offset = struct.unpack_from(">H", data, ranges_at + 2 * s)[0]
            for code in range(start, min(end, 0xFFFE) + 1):
                if range_offset == 0:
                    glyph = (code + delta) & 0xFFFF
                else:
                    where = ranges_at + 2 * s + range_offset + 2 * (code - start)
                    glyph = struct.unpack_from(">H", data, where)[0]
                    glyph = (glyph + delta) & 0xFFFF if glyph else 0
                if glyph:
                    glyphs[code] = glyph
        return glyphs

    def advance(self, char: str) -> int:
        glyph = self.glyphs.get(ord(char), 0)
        return self.advances[min(glyph, len(self.advances) - 1)]

    def width(self, text: str, size: float) -> float:
        """How wide ``text`` is drawn at ``size`` pixels."""
        return sum(self.advance(c) for c in text) * size / self.units


@cache
def metrics(bold: bool = False) -> Metrics:
    return Metrics(BOLD if bold else REGULAR)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` pixels, in the regular or the bold face.

    >>> text_width("Soirée", 32) < text_width("Soirée", 32, bold=True)
    True
    """
    return metrics(bold).width(text, size)


def balanced(text: str, size: float, width: float, bold: bool = False, max_lines: int = 3) -> list[str]:
    """:func:`wrap`, its lines as even as they can be in as many lines (a title: no
    word left alone on its last line).

    >>> balanced("Soirée du jeudi 26\u00a0novembre 2026", 54, 968, bold=True)
    ['Soirée du jeudi', '26\xa0novembre 2026']
    >>> wrap("Soirée du jeudi 26\u00a0novembre 2026", 54, 968, bold=True)
    ['Soirée du jeudi 26\xa0novembre', '2026']
    """
    lines = wrap(text, size, width, bold, max_lines)
    if len(lines) < 2 or lines[-1].endswith("…"):
        return lines
    low, high = width / len(lines), width
    while high - low > 2:
        middle = (low + high) / 2
        if len(wrap(text, size, middle, bold, max_lines + 1)) > len(lines):
            low = middle
        else:
            high = middle
    return wrap(text, size, high, bold, max_lines)


def wrap(text: str, size: float, width: float, bold: bool = False, max_lines: int = 3) -> list[str]:
    """``text`` in lines no wider than ``width`` (broken between words; a word too long
    for a line, within it), at most ``max_lines`` of them: the last one ends with « … »
    when the text goes on.

    >>> wrap("Ann, Bob, Cid", 32, 200)
    ['Ann, Bob,', 'Cid']
    >>> wrap("x" * 30, 32, 200, max_lines=2)
    ['xxxxxxxxxx', 'xxxxxxxx…']
    """

    def fits(line: str) -> bool:
        return text_width(line, size, bold) <= width

    lines: list[str] = []
    for word in text.split(" "):
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and fits(candidate):
            lines[-1] = candidate
            continue
        while not fits(word):  # a word wider than a line: cut it where it fills one
            cut = max(1, max(n for n in range(1, len(word) + 1) if n == 1 or fits(word[:n])))
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and not fits(last + "…"):
            last = last[:-1]
        lines = [*lines[: max_lines - 1], last.rstrip() + "…"]
    return lines


@dataclass(frozen=True)
class Text:
    """A line of text: its baseline's start (or middle, or end: ``anchor``)."""

    x: float
    y: float
    text: str
    size: int
    colour: str = COLOURS["ink"]
    bold: bool = False
    anchor: str = "start"


@dataclass(frozen=True)
class Box:
    """A rectangle behind text (``radius``: its rounded corners)."""

    x: float
    y: float
    width: float
    height: float
    colour: str
    radius: float = 0
    edge: str | None = None


@dataclass
class Card:
    """What the template draws: a size, rectangles, then texts over them."""

    title: str
    width: int = WIDTH
    height: int = MIN_HEIGHT
    boxes: list[Box] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


class Layout:
    """A card drawn from top to bottom: each call adds below what is there (``y``)."""

    def __init__(self, title: str, margin: int = 56) -> None:
        self.card = Card(_clean(title))
        self.margin = margin
        self.y = 0.0
        #: Where the band ends: what is below moves down to the middle of a short card.
        self.body = 0.0
        self._panel: tuple[float, float] | None = None

    @property
    def left(self) -> float:
        return self.margin + (self._panel[1] if self._panel else 0)

    @property
    def right(self) -> float:
        return WIDTH - self.left

    def band(self, lines: list[tuple[str, int, bool, str]], pad: int = 56) -> None:
        """A full-width band at the top: lines of (text, size, bold, colour role), wrapped."""
        top = self.y
        self.card.boxes.append(Box(0, top, WIDTH, 0, COLOURS["band"]))
        self.y += pad
        for text, size, bold, colour in lines:
            self.text(text, size, bold=bold, colour=colour, max_lines=3, even=bold)
        self.y += pad - 8
        self.card.boxes[-1] = Box(0, top, WIDTH, self.y - top, COLOURS["band"])
        self.body = self.y

    def gap(self, height: float) -> None:
        self.y += height

    def text(
        self,
        text: str,
        size: int,
        *,
        bold: bool = False,
        colour: str = "ink",
        max_lines: int = 3,
        indent: float = 0,
        spacing: float = 1.3,
        even: bool = False,
        room: float = 0,
    ) -> None:
        """``text`` wrapped to the width left (less ``room`` kept free at the right, for
        what :meth:`beside` puts there), its lines one under the other (``even``: as even
        as they can be, :func:`balanced`)."""
        x = self.left + indent
        for line in (balanced if even else wrap)(_clean(text), size, self.right - x - room, bold, max_lines):
            self.y += size * spacing
            self.card.texts.append(
                Text(x, round(self.y - size * (spacing - 1) - size * 0.22, 1), line, size, COLOURS[colour], bold)
            )

    def beside(self, text: str, size: int, colour: str = "muted", before: float = 0, bold: bool = False) -> None:
        """``text`` ending at the right edge (or ``before`` it), on the baseline of the
        last line drawn."""
        last = self.card.texts[-1]
        x = self.right - before
        self.card.texts.append(Text(x, last.y, _clean(text), size, COLOURS[colour], bold, anchor="end"))

    def at_right(self, text: str, size: int, colour: str = "muted", spacing: float = 1.3) -> None:
        """A line of its own, ``text`` at the right edge."""
        self.y += size * spacing
        y = round(self.y - size * (spacing - 1) - size * 0.22, 1)
        self.card.texts.append(Text(self.right, y, _clean(text), size, COLOURS[colour], anchor="end"))

    def mark(self, text: str, size: int, colour: str, x: float | None = None) -> float:
        """A sign (« ★ », « • ») before the next line, in the left margin of ``indent``;
        returns the indent that leaves room for it."""
        self.card.texts.append(
            Text(self.left if x is None else x, self.y + size * 1.3 - size * 0.52, text, size, COLOURS[colour])
        )
        return text_width(text + " ", size)

    def panel_start(self, pad: int = 40) -> None:
        self._panel = (self.y, pad)
        self.y += pad - 10

    def panel_end(self) -> None:
        assert self._panel is not None
        top, pad = self._panel
        self._panel = None
        self.y += pad - 10
        box = Box(self.margin, top, WIDTH - 2 * self.margin, self.y - top, COLOURS["panel"], 28, COLOURS["edge"])
        self.card.boxes.append(box)

    def footer(self, text: str, size: int = 30) -> Card:
        """The card, closed by ``text`` centred at its foot (the card at least
        :data:`MIN_HEIGHT` tall: the footer sits at the bottom)."""
        self.y += 40
        needed = round(self.y + size * 3)
        height = max(MIN_HEIGHT, needed)
        if needed < height:  # a short card: its body in the middle of the room left
            down = (height - needed) / 2
            card = self.card
            card.boxes = [replace(b, y=b.y + down) if b.y >= self.body else b for b in card.boxes]
            card.texts = [replace(t, y=t.y + down) if t.y >= self.body else t for t in card.texts]
        self.card.texts.append(
            Text(WIDTH / 2, height - size * 1.6, _clean(text), size, COLOURS["muted"], True, "middle")
        )
        self.card.height = height
        return self.card


def to_png(svg: str) -> bytes:
    """The SVG drawn as PNG, with the committed fonts only (none of the machine's)."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=[str(REGULAR), str(BOLD)],
            font_family=FAMILY,
            sans_serif_family=FAMILY,
            text_rendering="optimize_legibility",
        )
    )
