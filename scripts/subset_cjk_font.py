"""Make ``companion/fonts/NotoSansCJKsc-Regular-subset.otf``: the characters of Chinese,
Japanese and Korean in common use, cut from Noto Sans CJK SC.

The shared image (``companion/share_image.py``) draws names in these scripts with it. The
whole font is 16 MB (65,535 glyphs, every region's forms); this keeps the characters
each script's national standard lists as in common use:

- Chinese, simplified: the 6,763 hanzi of GB 2312 (levels 1 and 2);
- Chinese, traditional: the 5,401 frequent hanzi of Big5 (level 1, A440–C67E);
- Japanese: the 6,355 kanji of JIS X 0208 (levels 1 and 2), every hiragana and
  katakana (U+3040–30FF, U+31F0–31FF, the half-width ones U+FF61–FF9F);
- Korean: the 2,350 hangul syllables of KS X 1001 (U+AC00–D7A3 has 11,172; these are
  the ones in use), the compatibility jamo (U+3130–318F);
- the CJK symbols and punctuation (U+3000–303F), the full-width forms (U+FF01–FF60,
  U+FFE0–FFEE).

The ideographs are listed by decoding each standard's rows with Python's own codecs
(``gb2312``, ``big5``, ``euc_jp``, ``euc_kr``), so the set is the same wherever this runs;
the glyphs are those of the SC face (the simplified Chinese forms, which a phone shows
for Han characters when nothing says which language a name is in). Outlines, metrics,
the layout features and the name table (copyright, licence) are kept as they are; the
hinting is dropped (resvg does not use it). Noto Sans CJK is under the SIL Open Font
License 1.1 with no Reserved Font Name, so the subset keeps its name.

A tool for whoever updates the font, not something the app runs: it needs fontTools
(``pip install fonttools``) and the font as Debian's ``fonts-noto-cjk`` package ships it
(``apt-get download fonts-noto-cjk``, ``dpkg-deb -x``)::

    python scripts/subset_cjk_font.py /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc \\
        companion/fonts/NotoSansCJKsc-Regular-subset.otf
"""

from __future__ import annotations

import argparse
import unicodedata

#: The face of NotoSansCJK-Regular.ttc drawn: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK.
SC = 2


def _decoded(codec: str, rows: range, cells: list[int], last: tuple[int, int] | None = None) -> set[str]:
    """The characters a double-byte ``codec`` gives for the bytes (row, cell), up to ``last``."""
    out = set()
    for row in rows:
        for cell in cells:
            if last is not None and (row, cell) > last:
                continue
            try:
                char = bytes([row, cell]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(char) == 1:
                out.add(char)
    return out


def _ideographs(chars: set[str]) -> set[str]:
    return {c for c in chars if unicodedata.name(c, "").startswith("CJK UNIFIED IDEOGRAPH")}


def _span(first: int, last: int) -> set[str]:
    return {chr(c) for c in range(first, last + 1)}


def characters() -> dict[str, set[str]]:
    """The characters kept, by where they come from."""
    euc = list(range(0xA1, 0xFF))
    return {
        "GB 2312 hanzi": _ideographs(_decoded("gb2312", range(0xB0, 0xF8), euc)),
        "Big5 level 1 hanzi": _ideographs(
            _decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *euc], last=(0xC6, 0x7E))
        ),
        "JIS X 0208 kanji": _ideographs(_decoded("euc_jp", range(0xB0, 0xF5), euc)),
        "KS X 1001 hangul": {c for c in _decoded("euc_kr", range(0xB0, 0xC9), euc) if "\uac00" <= c <= "\ud7a3"},
        "kana": _span(0x3040, 0x30FF) | _span(0x31F0, 0x31FF) | _span(0xFF61, 0xFF9F),
        "jamo, symbols, full-width forms": _span(0x3130, 0x318F)
        | _span(0x3000, 0x303F)
        | _span(0xFF01, 0xFF60)
        | _span(0xFFE0, 0xFFEE),
    }


def main() -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="NotoSansCJK-Regular.ttc")
    parser.add_argument("output", help="the .otf to write")
    args = parser.parse_args()
    kept = characters()
    for name, chars in kept.items():
        print(f"{name}: {len(chars)}")
    text = "".join(sorted(set().union(*kept.values())))
    font = TTFont(args.source, fontNumber=SC, recalcTimestamp=False)
    options = subset.Options()
    options.hinting = False
    # Horizontal text in the SC forms: neither the other regions' forms (locl) nor the
    # vertical ones.
    options.layout_features = [f for f in options.layout_features if f != "locl" and not f.startswith("v")]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(args.output)
    print(f"{len(text)} characters asked, {len(font.getBestCmap())} in the font, {font['maxp'].numGlyphs} glyphs")


if __name__ == "__main__":
    main()
