"""Images to share: a card laid out here, written out as SVG by a template, and
rasterised to PNG on the server.

A page that shares an image (the evening recap, a finished game: ``companion.groups.share``)
builds a :class:`Card` with a :class:`Layout` — headings, lines of text wrapped to the
card's width, panels behind them — every coordinate computed here;
``templates/share/card.svg`` only writes the elements out (autoescaped: every text is
the players' own, and stays text), and :func:`to_png` draws it. Nothing here knows a
group, a game or a kind.

**The rasteriser** is resvg (Rust), through its binding ``resvg-py`` (PyPI): one
self-contained wheel per platform, no system library (cairo, pango, freetype) to
install, and it draws SVG text itself (shaping, right-to-left text and colour emoji
included). It is told to skip the system's fonts.

**The fonts** are committed under ``companion/fonts/``, with their licences; its
``README.md`` says what each file is, its version and where it comes from. Committed
rather than taken from the machine, so that the image is drawn the same on a fresh
machine, a developer's or CI's: the rasteriser loads these files and no other.

- DejaVu Sans (regular and bold, 2.37, unmodified; ``LICENSE-DejaVu``: the Bitstream
  Vera and Arev fonts licences, DejaVu's own changes public domain) draws what the cards
  themselves say — French accents, « », ’, the narrow no-break space, the suits ♠♥♦♣ (the
  bold face lacks them: resvg takes them from the regular one) — and names in Latin,
  Greek, Cyrillic, Armenian, Georgian or Hebrew letters.
- Names in other scripts are drawn as a phone draws them, in the fonts it falls back on
  (under the SIL Open Font License, ``LICENSE-OFL``): Noto Sans Arabic (2.005, regular
  and bold, unmodified) for the Arabic script; a subset of Noto Sans CJK SC (2.004,
  regular) for Chinese, Japanese and Korean, the 13,155 characters in common use that
  ``scripts/subset_cjk_font.py`` keeps (2.75 MB, where the whole font is 16 MB); Noto
  Color Emoji (2.042, Emoji 15.0, colour bitmaps, unmodified) for emoji.
- A sign none of them has (cuneiform, a Han character outside the subset, a private-use
  or unassigned code point) is drawn as « � », the replacement character: a reader sees
  that a character could not be shown, never an empty box that looks like a letter.

Each sign (a letter with its marks, an emoji sequence) is given its font here
(:func:`font_for`), and a text in several fonts is written out in runs, one font each,
in the order the Unicode Bidirectional Algorithm lays them (:func:`runs`): resvg cannot
be left to fall back by itself (:func:`to_png` says why). A card loads only the fonts
its text names: one in Latin letters, DejaVu Sans alone, as fast as before.

The advance widths are read here from the files (:class:`Metrics`, the ``cmap`` and
``hmtx`` tables) to wrap lines before drawing them (SVG text does not wrap itself): each
sign in its font, an emoji sequence as the one picture it is, an Arabic word's letters
in the forms they take joined.
"""

from __future__ import annotations

import re
import struct
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path

import resvg_py

FONTS = Path(__file__).resolve().parent / "fonts"


@dataclass(frozen=True)
class Font:
    """A family the card draws with: its regular face and its bold one (None: the
    regular face draws bold text too)."""

    family: str
    regular: Path
    bold: Path | None = None

    def files(self) -> list[str]:
        return [str(path) for path in (self.regular, self.bold) if path is not None]


DEJAVU = Font("DejaVu Sans", FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf")
ARABIC = Font("Noto Sans Arabic", FONTS / "NotoSansArabic-Regular.ttf", FONTS / "NotoSansArabic-Bold.ttf")
CJK = Font("Noto Sans CJK SC", FONTS / "NotoSansCJKsc-Regular-subset.otf")
EMOJI = Font("Noto Color Emoji", FONTS / "NotoColorEmoji.ttf")
#: Where a sign is looked for, in this order (a phone's own font first, then its fallbacks).
FALLBACK = (DEJAVU, ARABIC, CJK, EMOJI)

REGULAR = DEJAVU.regular
BOLD = DEJAVU.bold
FAMILY = DEJAVU.family
#: What is drawn for a sign no font has: the replacement character, « � ».
REPLACEMENT = "\ufffd"

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
    """The characters of an OpenType font and their advance widths, read from its
    ``cmap`` (format 12, every plane, or format 4, the Basic Multilingual Plane) and
    ``hmtx`` tables: how wide a text is drawn, kerning aside (which only narrows it)."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        count = struct.unpack_from(">H", data, 4)[0]
        tables = {}
        for i in range(count):
            tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            tables[tag.decode("latin-1")] = offset
        self.units: int = struct.unpack_from(">H", data, tables["head"] + 18)[0]
        metrics = struct.unpack_from(">H", data, tables["hhea"] + 34)[0]
        hmtx = tables["hmtx"]
        self.advances: list[int] = [struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(metrics)]
        self.glyphs = self._cmap(data, tables["cmap"])

    @staticmethod
    def _cmap(data: bytes, cmap: int) -> dict[int, int]:
        subtables = {}
        for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            kind = struct.unpack_from(">H", data, cmap + offset)[0]
            subtables[(platform, encoding, kind)] = cmap + offset
        # Every plane (format 12) where the font has it, else the Basic Multilingual Plane.
        for key in ((3, 10, 12), (0, 4, 12), (0, 6, 12)):
            if key in subtables:
                return Metrics._format12(data, subtables[key])
        for key in ((3, 1, 4), (0, 3, 4)):
            if key in subtables:
                return Metrics._format4(data, subtables[key])
        raise ValueError("no Unicode cmap")

    @staticmethod
    def _format12(data: bytes, at: int) -> dict[int, int]:
        glyphs: dict[int, int] = {}
        for group in range(struct.unpack_from(">I", data, at + 12)[0]):
            start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * group)
            glyphs.update((code, glyph + code - start) for code in range(start, end + 1) if glyph + code - start)
        return glyphs

    @staticmethod
    def _format4(data: bytes, at: int) -> dict[int, int]:
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

    def has(self, char: str) -> bool:
        return ord(char) in self.glyphs

    def advance(self, char: str) -> int:
        glyph = self.glyphs.get(ord(char), 0)
        return self.advances[min(glyph, len(self.advances) - 1)]

    def width(self, text: str, size: float) -> float:
        """How wide ``text`` is drawn at ``size`` pixels."""
        return sum(self.advance(c) for c in text) * size / self.units


@cache
def font_metrics(path: Path) -> Metrics:
    return Metrics(path)


def metrics(bold: bool = False, font: Font = DEJAVU) -> Metrics:
    """The metrics of ``font``'s face drawn for regular or bold text."""
    return font_metrics(font.bold if bold and font.bold else font.regular)


# ------------------------------------------------------------------ signs and fonts

#: The characters of the Basic Multilingual Plane drawn as emoji without U+FE0F
#: (Unicode's Emoji_Presentation property there: ⌚ ☕ ⚽ ✅ ⭐…; every emoji encoded
#: since has a code point past U+1F000).
_EMOJI_BMP_SPANS = (
    "231A-231B 23E9-23EC 23F0 23F3 25FD-25FE 2614-2615 2648-2653 267F 2693 26A1 26AA-26AB 26BD-26BE "
    "26C4-26C5 26CE 26D4 26EA 26F2-26F3 26F5 26FA 26FD 2705 270A-270B 2728 274C 274E 2753-2755 2757 "
    "2795-2797 27B0 27BF 2B1B-2B1C 2B50 2B55"
)
_EMOJI_BMP = frozenset(
    code for span in _EMOJI_BMP_SPANS.split() for code in range(int(span[:4], 16), int(span[-4:], 16) + 1)
)
#: The Arabic script's blocks (Arabic, Supplement, Extended-B and -A, Presentation Forms-A and -B).
_ARABIC = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x0870, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))
_JOINERS = "\u200c\u200d"


def _ignorable(char: str) -> bool:
    """Drawn as nothing whatever the font: the joiners, the variation selectors."""
    code = ord(char)
    return char in _JOINERS or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _regional(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def signs(text: str) -> list[str]:
    """``text`` cut into the signs a reader sees, each drawn in one font: a character with
    its combining marks and variation selectors; emoji joined by U+200D (👨‍👩‍👧), with
    their skin tone (👍🏽), keycap (7️⃣) or tags (🏴 and a subdivision); a flag's two letters.

    >>> signs("Zoé 👨\u200d👩\u200d👧🇫🇷")
    ['Z', 'o', 'é', ' ', '👨\u200d👩\u200d👧', '🇫🇷']
    """
    out: list[str] = []
    for char in text:
        code = ord(char)
        if out and (
            unicodedata.category(char) in ("Mn", "Mc", "Me")
            or _ignorable(char)
            or out[-1][-1] == "\u200d"
            or 0x1F3FB <= code <= 0x1F3FF  # a skin tone
            or 0xE0020 <= code <= 0xE007F  # a tag
            or (_regional(char) and len(out[-1]) == 1 and _regional(out[-1]))
        ):
            out[-1] += char
        else:
            out.append(char)
    return out


@lru_cache(maxsize=4096)
def font_for(sign: str) -> Font | None:
    """The font that draws ``sign``, as a phone picks it; None when none has it.

    An emoji (one past U+1F000, one of the few before it drawn as emoji, or any sign
    asking for it with U+FE0F or a keycap) is drawn in colour; an Arabic letter in Noto
    Sans Arabic (DejaVu Sans lacks letters of Urdu and Persian, and a word must not mix
    two fonts: its letters would not join); anything else in the first font that has it
    (DejaVu Sans, then the others).

    >>> [font_for(s).family for s in ("é", "محمد"[0], "王", "🎉", "♥", "♥\ufe0f")]
    ['DejaVu Sans', 'Noto Sans Arabic', 'Noto Sans CJK SC', 'Noto Color Emoji', 'DejaVu Sans', 'Noto Color Emoji']
    >>> font_for("𒀭") is None
    True
    """
    needed = [c for c in sign if not _ignorable(c)] or [sign[0]]

    def has_all(font: Font) -> bool:
        return all(metrics(False, font).has(c) for c in needed)

    first = ord(sign[0])
    emoji = first >= 0x1F000 or first in _EMOJI_BMP or "\ufe0f" in sign or "\u20e3" in sign
    if emoji and "\ufe0e" not in sign and has_all(EMOJI):
        return EMOJI
    if any(start <= first <= end for start, end in _ARABIC) and has_all(ARABIC):
        return ARABIC
    for font in FALLBACK:
        if has_all(font):
            return font
    for font in FALLBACK:  # the sign's marks missing: its letter all the same
        if metrics(False, font).has(sign[0]):
            return font
    return None


def _level(kinds: list[str], i: int) -> int:
    """The bidirectional level of the ``i``-th sign of a left-to-right line whose signs are
    of ``kinds`` (L, R, N for a number, O for the others: spaces, punctuation, symbols),
    as the Unicode Bidirectional Algorithm resolves it for text without explicit
    embeddings (a name cannot hold them: ``companion.names``): a number after
    right-to-left text is read right to left around it and kept in order itself (W2, W7,
    I1), what lies between two right-to-left signs goes with them (N1), anything else
    left to right (N2). Simpler than the algorithm on one point: a separator or a
    terminator beside a number (« 1,5 », « 10 % ») is read as any other neutral (W4, W5)."""

    def strong(step: int) -> str:
        j = i + step
        while 0 <= j < len(kinds):
            if kinds[j] in "LR":
                return kinds[j]
            if kinds[j] == "N" and step > 0:  # a number reads as right-to-left (N1) after
                return "R" if strong(-1) == "R" else "L"  # right-to-left text, else as left-to-right (W7)
            j += step
        return "L"

    kind = kinds[i]
    if kind == "L":
        return 0
    if kind == "R":
        return 1
    before = strong(-1)
    if kind == "N":  # after right-to-left text, a number keeps its order inside it (W7, I1)
        return 2 if before == "R" else 0
    return 1 if before == "R" and strong(1) == "R" else 0


def _kind(sign: str) -> str:
    kind = unicodedata.bidirectional(sign[0])
    if kind in ("R", "AL"):
        return "R"
    if kind in ("EN", "AN"):
        return "N"
    if kind == "L" or (not kind and unicodedata.category(sign[0]) == "Cn"):
        return "L"
    return "O"


@dataclass(frozen=True)
class Run:
    """Signs drawn in one font, in one direction: ``family`` None for the card's own
    (DejaVu Sans); ``rtl``: drawn right to left."""

    text: str
    family: str | None = None
    rtl: bool = False

    @property
    def drawn(self) -> str:
        """Its text as resvg is given it: a right-to-left run of several signs between two
        right-to-left marks (U+200F, drawn as nothing), so that the spaces and punctuation
        at its ends are laid right to left with it (resvg orders each run alone)."""
        return f"\u200f{self.text}\u200f" if self.rtl and len(self.text) > 1 else self.text


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` as it is drawn: its signs in runs of one font each, in the order they
    are drawn from left to right; a sign no font has as « � ».

    resvg picks no font for a character itself here (it would for one the font it was
    given lacks, but a text in several fonts can crash it or lose characters: see
    :func:`to_png`), so each run is a text of its own, drawn in the font chosen here
    (:func:`font_for`), placed where the one before it ends. Its order is the Unicode
    Bidirectional Algorithm's: a run of right-to-left letters and what lies between them
    is laid from right to left, whatever fonts draw it (« محمد 🎉 علي »: علي is drawn at the
    left); resvg orders the letters inside each run.

    >>> runs("Zoé 🎉")
    (Run(text='Zoé ', family=None, rtl=False), Run(text='🎉', family='Noto Color Emoji', rtl=False))
    >>> [r.text for r in runs("محمد 🎉 علي")]
    ['علي', ' ', '🎉', 'محمد ']
    """
    cut = signs(text)
    fonts: list[Font] = []
    drawn: list[str] = []
    for sign in cut:
        font = font_for(sign)
        if sign.isspace() and fonts and fonts[-1] is not EMOJI and metrics(False, fonts[-1]).has(sign[0]):
            font = fonts[-1]  # a space between two words of one font: in that font
        fonts.append(font or DEJAVU)
        drawn.append(sign if font else REPLACEMENT)
    if len(set(fonts)) == 1:  # one font: resvg orders it all itself
        return (Run("".join(drawn), None if fonts[0] is DEJAVU else fonts[0].family),) if cut else ()
    kinds = [_kind(sign) for sign in cut]
    levels = [_level(kinds, i) for i in range(len(cut))]
    pieces: list[tuple[Font, int, str]] = []
    for font, level, sign in zip(fonts, levels, drawn, strict=True):
        if pieces and pieces[-1][:2] == (font, level):
            pieces[-1] = (font, level, pieces[-1][2] + sign)
        else:
            pieces.append((font, level, sign))
    # Reversed from the highest level down to 1, each stretch at that level or above (rule L2).
    for level in range(max((p[1] for p in pieces), default=0), 0, -1):
        i = 0
        while i < len(pieces):
            if pieces[i][1] < level:
                i += 1
                continue
            j = i
            while j < len(pieces) and pieces[j][1] >= level:
                j += 1
            pieces[i:j] = reversed(pieces[i:j])
            i = j
    return tuple(Run(t, None if font is DEJAVU else font.family, level % 2 == 1) for font, level, t in pieces)


@lru_cache(maxsize=4096)
def _sign_width(sign: str, bold: bool) -> float:
    """How wide ``sign`` is drawn, in ems."""
    font = font_for(sign)
    if font is None:
        return metrics(bold).advance(REPLACEMENT) / metrics(bold).units
    face = metrics(bold, font)
    if not face.has(sign[0]):
        face = metrics(False, font)
    if font is EMOJI:  # one picture, however many characters
        return face.advance(sign[0]) / face.units
    return sum(face.advance(c) for c in sign if not _ignorable(c)) / face.units


@cache
def _arabic_forms() -> dict[tuple[str, str], str]:
    """Each Arabic letter's contextual forms (isolated, final, initial, medial) as
    Unicode's presentation forms spell them: which letters join, and how wide each form is."""
    forms: dict[tuple[str, str], str] = {}
    for code in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) == 2 and parts[0] in ("<isolated>", "<final>", "<initial>", "<medial>"):
            forms.setdefault((chr(int(parts[1], 16)), parts[0][1:-1]), chr(code))
    return forms


def _arabic_width(word: list[str], bold: bool) -> float:
    """How wide signs of Arabic letters are drawn, joined (in ems): each letter in its
    form, as it joins the one before and the one after (a letter joining on both sides,
    in the middle of a word, is much narrower than alone)."""
    forms = _arabic_forms()
    face = metrics(bold, ARABIC)
    bases = [sign[0] for sign in word]
    width = 0.0
    for i, sign in enumerate(word):
        base = bases[i]
        before = i > 0 and (bases[i - 1], "medial") in forms and (base, "final") in forms
        after = i + 1 < len(word) and (base, "medial") in forms and (bases[i + 1], "final") in forms
        form = "medial" if before and after else "final" if before else "initial" if after else "isolated"
        shaped = forms.get((base, form), base)
        width += face.advance(shaped if face.has(shaped) else base)
        width += sum(face.advance(c) for c in sign[1:] if not _ignorable(c))
    return width / face.units


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` pixels, in the regular or the bold face, each
    sign in its font (the letters of an Arabic word joined).

    >>> text_width("Soirée", 32) < text_width("Soirée", 32, bold=True)
    True
    >>> text_width("王小龙", 32), text_width("🎉", 32) == text_width("👨\u200d👩\u200d👧", 32)
    (96.0, True)
    >>> round(text_width("محمد", 32)), round(text_width(" ".join("محمد"), 32))
    (73, 97)
    """
    if text.isascii():
        return metrics(bold).width(text, size)
    width = 0.0
    word: list[str] = []
    for sign in signs(text):
        if font_for(sign) is ARABIC and unicodedata.category(sign[0]) == "Lo":
            word.append(sign)
            continue
        if word:
            width += _arabic_width(word, bold)
            word = []
        width += _sign_width(sign, bold)
    if word:
        width += _arabic_width(word, bold)
    return width * size


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

    @property
    def runs(self) -> tuple[Run, ...]:
        return runs(self.text)

    @property
    def start(self) -> tuple[float, str]:
        """Where it is drawn from, and how it is anchored there: a text of several runs
        from its start (resvg would anchor each run alone)."""
        if self.anchor == "start" or len(self.runs) < 2:
            return self.x, self.anchor
        width = text_width(self.text, self.size, self.bold)
        return round(self.x - (width if self.anchor == "end" else width / 2), 1), "start"


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


def font_files(svg: str) -> list[str]:
    """The font files to draw ``svg`` with: DejaVu Sans's, and those of the other
    families it names (the colour emoji's 10 MB are loaded for a card that has emoji,
    not for every card)."""
    named = set(re.findall(r'font-family="([^"]*)"', svg))
    return [file for font in FALLBACK if font is DEJAVU or font.family in named for file in font.files()]


def to_png(svg: str) -> bytes:
    """The SVG drawn as PNG, with the committed fonts only (none of the machine's).

    Each run of a text in a font of its own is written as a text chunk of its own
    (``templates/share/card.svg``: a ``tspan`` with its own ``y``, which resvg starts where
    the one before it ends): resvg shapes a whole chunk with each of its spans' fonts
    and merges the glyphs, and where two fonts cut a chunk into different clusters (an
    emoji sequence: 👨‍👩‍👧 is one glyph in Noto Color Emoji, five in DejaVu Sans) it drops
    the characters that follow or panics (resvg 0.48, ``usvg`` ``process_chunk``)."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=font_files(svg),
            font_family=FAMILY,
            sans_serif_family=FAMILY,
            text_rendering="optimize_legibility",
        )
    )
