"""The evening recap and a finished game as images to share: a PNG card drawn
on the server (companion/groups/share.py, companion/share_image.py), for the group's
devices only, naming no device and not the group's code, in a constant number of queries.

The evening played (through the real pages; seeds 000–003 for the games' own rules):

- Président P (seed 000), Amélie Bérénice Loïc Zoé, target 6: manches out [Amélie, Bérénice,
  Loïc], [Bérénice, Amélie, Loïc], [Amélie, Loïc, Bérénice] (Zoé last each time): 3/2/1/0
  a manche, Amélie 8, Bérénice 6, Loïc 4, Zoé 0; over at manche 3, Amélie wins.
- Piketty K (seed 001), the same four, target 3: a card draw, then [Bérénice, Amélie, Loïc]:
  Bérénice reaches 3 and wins.
- Whist W (seed 002), Amélie Bérénice Loïc: Amélie takes every trick four deals running,
  Bérénice's stake runs out: stakes Amélie 4, Bérénice 0, Loïc 14, Loïc wins.
- Crapouille C (seed 003), Zoé–Amélie: Amélie goes past 300 at hand 1, Zoé wins.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.groups.share import MAX_GAMES
from companion.models import Device, Game, GameResult, GameStatus, Group, Player
from companion.share_image import MIN_HEIGHT, WIDTH, text_width, wrap
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille
from tests.web.test_standings import EN, crapouille_duel, deal, draw, hand, manche, start_president, start_whist

FR = {"Accept-Language": "fr"}
PASSPHRASE = "trou du cul"
#: A name that is markup in SVG if not escaped.
MARKUP = '<b>&"x'
LONG = "Jean-Baptiste de la Tour-d’Auvergne-Lauraguais"


@dataclass
class Evening:
    group: Group
    players: dict[str, Player]
    games: dict[str, int]

    @property
    def night(self) -> date:
        night = db.session.scalar(sa.select(GameResult.night).where(GameResult.game_id == self.games["P"]))
        assert night is not None
        return night

    @property
    def url(self) -> str:
        return f"/g/{self.group.code}/evenings/{self.night.isoformat()}.png"

    def game_url(self, key: str) -> str:
        return f"/g/{self.group.code}/games/{self.games[key]}/image.png"


def play_evening(
    client: FlaskClient, names: tuple[str, str, str, str] = ("Amélie", "Bérénice", "Loïc", "Zoé")
) -> Evening:
    """The evening of the module's docstring, its players named ``names``."""
    group = create_group(client, name="Les Amis du jeudi", passphrase=PASSPHRASE)
    a, b, c, d = add_players(client, group, *names)
    games = {"P": start_president(client, group, "president", [a, b, c, d], target=6)}
    for number, finish in enumerate(([a, b, c], [b, a, c], [a, c, b]), start=1):
        manche(client, group, games["P"], number, finish)
    games["K"] = start_president(client, group, "piketty", [a, b, c, d], target=3)
    draw(client, group, games["K"], {a: "9♥", b: "9♠", c: "2♣", d: "6♦"})
    manche(client, group, games["K"], 2, [b, a, c])
    games["W"] = start_whist(client, group, [a, b, c])
    for number, bid in enumerate((5, 4, 3, 2), start=1):
        deal(client, group, games["W"], number, {b: bid, c: 0, a: 1}, {b: 0, c: 0, a: 6 - number})
    games["C"] = crapouille_duel(client, group, d, a)
    db.session.expire_all()
    for key, game_id in games.items():
        assert db.session.get(Game, game_id).status is GameStatus.FINISHED, key
    return Evening(group, dict(zip(names, (a, b, c, d), strict=True)), games)


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header (signature, then the IHDR chunk)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    length, kind, width, height = struct.unpack(">I4sII", data[8:24])
    assert kind == b"IHDR" and length == 13
    return width, height


def svg_of(app: Flask, client: FlaskClient, url: str, headers: dict[str, str]) -> str:
    """The SVG the PNG at ``url`` was drawn from (the rasteriser's input, caught)."""
    import companion.groups.share as share

    drawn: list[str] = []
    real = share.to_png

    def keep(svg: str) -> bytes:
        drawn.append(svg)
        return real(svg)

    share.to_png = keep
    try:
        response = client.get(url, headers=headers)
    finally:
        share.to_png = real
    assert response.status_code == 200, html(response)
    assert len(drawn) == 1
    return drawn[0]


def texts(svg: str) -> list[str]:
    """The lines of text of an SVG card, entities decoded (a line in several fonts, its
    runs as drawn, left to right, the right-to-left marks around them left out)."""
    from html import unescape

    lines = re.findall(r"<text[^>]*>(.*?)</text>", svg)
    return [unescape(re.sub(r"<[^>]*>", "", line)).replace("\u200f", "") for line in lines]


# -------------------------------------------------------------------------- the images


def test_the_evening_image_is_a_portrait_png_under_300_kb(app: Flask, client: FlaskClient) -> None:
    """The longest card: long names everywhere, more games than a card shows (the last
    ones counted in a line)."""
    names = (LONG, "Marie-Bérénice Œuvray-Duchâteau du Plessis", "Anne-Sophie de Montmorency-Laval", MARKUP)
    evening = play_evening(client, names=names)
    a, b, c, _d = evening.players.values()
    for i in range(MAX_GAMES):
        crapouille_duel(client, evening.group, (a, b, c)[i % 3], (a, b, c)[(i + 1) % 3])
    response = client.get(evening.url)
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert response.headers["Cache-Control"] == "private, no-cache"
    width, height = png_size(response.data)
    assert width == WIDTH == 1080 and height >= MIN_HEIGHT > width
    assert len(response.data) < 300 * 1024, len(response.data)
    lines = texts(svg_of(app, client, evening.url, EN))
    assert "and 4 more games" in lines, lines[-3:]


def test_the_evening_image_says_the_evening(app: Flask, client: FlaskClient) -> None:
    evening = play_evening(client)
    night = evening.night
    lines = texts(svg_of(app, client, evening.url, FR))
    days = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
    months = [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ]
    first = "1er" if night.day == 1 else str(night.day)
    title = f"Soirée du {days[night.weekday()]} {first} {months[night.month - 1]} {night.year}"
    # On two even lines, the day's number kept with its month.
    assert lines[0] == "♠ ♥ ♦ ♣" and lines[2].startswith(f"{first}\u00a0{months[night.month - 1]}"), lines[:3]
    assert " ".join(lines[1:3]).replace("\u00a0", " ") == title, lines[:3]
    assert "Les Amis du jeudi · 4\u00a0parties" in lines or "Les Amis du jeudi · 4 parties" in lines, lines
    # Each game: its kind, its players, its winners (seeds 000–003), in the order played.
    kinds = [
        line for line in lines if line in ("Le Président", "Piketty", "Whist avec un jeu de Tarot", "La crapouille")
    ]
    assert kinds == ["Le Président", "Piketty", "Whist avec un jeu de Tarot", "La crapouille"], lines
    assert "Amélie, Bérénice, Loïc, Zoé" in lines
    assert "Zoé, Amélie" in lines
    winners = [line for line in lines if line.startswith("Victoire")]
    assert winners == [f"Victoire\u00a0: {name}" for name in ("Amélie", "Bérénice", "Loïc", "Zoé")], winners
    # The notable moments the recap computes (the crapouille's: Amélie past 300 at hand 1).
    assert any("Amélie" in line and "300" in line for line in lines), lines
    assert lines[-1] == "Companion"


def test_the_evening_image_in_english(app: Flask, client: FlaskClient) -> None:
    evening = play_evening(client)
    lines = texts(svg_of(app, client, evening.url, EN))
    title = " ".join(lines[1:3]).replace("\u00a0", " ")
    assert title.startswith("Evening of ") and title.endswith(f"{evening.night.day}, {evening.night.year}"), lines
    assert "Winner: Amélie" in lines and "Les Amis du jeudi · 4 games" in lines


def test_games_in_progress_show_their_running_totals_and_who_leads(app: Flask, client: FlaskClient) -> None:
    """A game in progress is summed up by its stored results: its players by place with
    their running totals and who leads, not only « En cours. »; a crapouille player past
    the line is marked « hors jeu », so that the order reads right (seed 003)."""
    group = create_group(client, name="Les Amis du jeudi", passphrase=PASSPHRASE)
    a, b, c, d = add_players(client, group, "Amélie", "Bérénice", "Loïc", "Zoé")
    # seed 003: Amélie goes out first; Loïc past 300 is out, the game goes on.
    crapouille = start_crapouille(client, group, [a, b, c, d])
    hand(client, group, crapouille, 1, a, **{str(b.id): 120, str(c.id): 310, str(d.id): 45})
    # seed 000: first out Président (3 points), then Vice (2), Vice-trou (1), Trou du cul (0).
    president = start_president(client, group, "president", [a, b, c, d], target=25)
    manche(client, group, president, 1, [c, a, d])
    start_president(client, group, "president", [a, b, c], target=25)  # nothing played yet
    night = db.session.scalar(sa.select(GameResult.night).where(GameResult.game_id == crapouille))
    url = f"/g/{group.code}/evenings/{night}.png"
    lines = texts(svg_of(app, client, url, FR))

    def panel(start: str) -> list[str]:
        at = lines.index(start)
        return lines[at : at + 19]

    crapouille_lines = panel("La crapouille")
    assert crapouille_lines[2:4] == ["En cours.", "En tête\u00a0: Amélie"], crapouille_lines
    assert crapouille_lines[4:17] == [
        *("1", "Amélie", "0"),
        *("2", "Zoé", "45"),
        *("3", "Bérénice", "120"),
        *("4", "Loïc", "310", "hors jeu"),
    ], crapouille_lines
    assert "Amélie, Bérénice, Loïc, Zoé" not in crapouille_lines  # named in the ranking
    president_lines = panel("Le Président")
    assert president_lines[2:4] == ["En cours.", "En tête\u00a0: Loïc"], president_lines
    assert president_lines[4:16] == ["1", "Loïc", "3", "2", "Amélie", "2", "3", "Zoé", "1", "4", "Bérénice", "0"]
    # A game with nothing played yet: no place, no leader.
    last = lines[lines.index("Amélie, Bérénice, Loïc") :]
    assert last[1] == "En cours." and not any(line.startswith("En tête") for line in last), last
    # The « hors jeu » is drawn left of the total, clear of it, and in red.
    svg = svg_of(app, client, url, EN)
    out = re.search(r'<text x="([\d.]+)" y="([\d.]+)" font-size="(\d+)" fill="#c0392b"[^>]*>out</text>', svg)
    total = re.search(rf'<text x="([\d.]+)" y="{out[2]}" font-size="32"[^>]*text-anchor="end"[^>]*>310</text>', svg)
    assert out and total, svg
    assert float(out[1]) + 20 <= float(total[1]) - text_width("310", 32), (out[0], total[0])
    english = texts(svg)
    assert "In progress." in english and "In the lead: Amélie" in english and "In the lead: Loïc" in english


def test_the_finished_crapouille_image_marks_who_is_out(app: Flask, client: FlaskClient) -> None:
    evening = play_evening(client)
    lines = texts(svg_of(app, client, evening.game_url("C"), FR))
    # seed 003: Amélie past 300 at hand 1 is out; Zoé, the last one in, wins.
    i = lines.index("Total")
    assert lines[i + 1 : i + 8] == ["1", "Zoé", "0", "2", "Amélie", "301", "hors jeu"], lines


def test_names_stay_text_and_no_code_nor_device_is_named(app: Flask, client: FlaskClient) -> None:
    evening = play_evening(client, names=(MARKUP, "Bérénice", LONG, "Zoé"))
    devices = list(db.session.scalars(sa.select(Device.name).where(Device.group_id == evening.group.id)))
    assert devices
    for url in (evening.url, evening.game_url("P")):
        svg = svg_of(app, client, url, FR)
        assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg
        assert any(MARKUP in line for line in texts(svg))  # the name itself, as text
        assert evening.group.code not in svg and evening.group.code.lower() not in svg.lower()
        for name in devices:
            assert name not in svg
    # The long name is wrapped or cut, never past the card's edge.
    svg = svg_of(app, client, evening.url, FR)
    for match in re.finditer(r'<text x="([\d.]+)"[^>]*font-size="(\d+)"([^>]*)>([^<]*)</text>', svg):
        x, size, rest, text = float(match[1]), int(match[2]), match[3], match[4]
        if "text-anchor" not in rest:
            from html import unescape

            assert x + text_width(unescape(text), size, "bold" in rest) <= WIDTH - 56, text


def test_the_finished_game_image(app: Flask, client: FlaskClient) -> None:
    evening = play_evening(client)
    response = client.get(evening.game_url("W"))
    assert response.status_code == 200 and response.mimetype == "image/png"
    width, height = png_size(response.data)
    assert (width, height) == (WIDTH, MIN_HEIGHT) and len(response.data) < 300 * 1024
    lines = texts(svg_of(app, client, evening.game_url("W"), FR))
    assert "Whist avec un jeu de Tarot" in lines and "Partie terminée." in lines
    assert any(line.startswith("Partie du ") and line.endswith(f" {evening.night.year}") for line in lines)
    assert "4 donnes" in lines, lines
    # seed 002: stakes Loïc 14, Amélie 4, Bérénice 0, by place; Loïc wins.
    i = lines.index("Total")
    assert lines[i + 1 : i + 10] == ["1", "Loïc", "14", "2", "Amélie", "4", "3", "Bérénice", "0"], lines
    assert "Victoire\u00a0: Loïc" in lines
    # Président (seed 000): points Amélie 8, Bérénice 6, Loïc 4, Zoé 0.
    lines = texts(svg_of(app, client, evening.game_url("P"), EN))
    i = lines.index("Total")
    assert lines[i + 1 : i + 13] == ["1", "Amélie", "8", "2", "Bérénice", "6", "3", "Loïc", "4", "4", "Zoé", "0"]
    assert "Winner: Amélie" in lines and "3 rounds" in lines, lines


def test_what_is_not_to_be_shared_is_a_404(app: Flask, client: FlaskClient) -> None:
    evening = play_evening(client)
    code = evening.group.code
    running = start_crapouille(client, evening.group, [evening.players["Amélie"], evening.players["Zoé"]])
    hand(client, evening.group, running, 1, evening.players["Zoé"], **{str(evening.players["Amélie"].id): 12})
    assert client.get(f"/g/{code}/games/{running}/image.png").status_code == 404  # not finished
    assert client.get(f"/g/{code}/games/999999/image.png").status_code == 404
    assert client.get(f"/g/{code}/evenings/2001-01-01.png").status_code == 404  # no game that night
    assert client.get(f"/g/{code}/evenings/2001-02-30.png").status_code == 404
    assert client.get(f"/g/{code}/evenings/tonight.png").status_code == 404
    # Another phone, which did not join the group: nothing, not even the join page.
    stranger = app.test_client()
    for url in (evening.url, evening.game_url("P"), f"/g/{code}/games/{running}/image.png"):
        assert stranger.get(url).status_code == 404
    # Another group's phone, asking for this group's game under its own code.
    other = app.test_client()
    mine = create_group(other, name="Autres")
    assert other.get(f"/g/{mine.code}/games/{evening.games['P']}/image.png").status_code == 404
    # A phone removed from the group: 404 as well (the page that says so is a page's
    # answer, not an image's).
    assert client.get(evening.url).status_code == 200
    db.session.execute(sa.update(Device).where(Device.group_id == evening.group.id).values(revoked_at=sa.func.now()))
    assert client.get(evening.url).status_code == 404
    assert client.get(f"/g/{code}/evenings/{evening.night}").status_code == 403  # the page's own answer


def test_queries_do_not_grow_with_the_games(app: Flask, client: FlaskClient) -> None:
    """One game, then six of two kinds (one in progress), the same night: as many queries."""
    group = create_group(client, passphrase=PASSPHRASE)
    a, b, c = add_players(client, group, "Amélie", "Zoé", "Loïc")
    first = crapouille_duel(client, group, a, b)
    night = db.session.scalar(sa.select(GameResult.night).where(GameResult.game_id == first))
    urls = {"evening": f"/g/{group.code}/evenings/{night}.png", "game": f"/g/{group.code}/games/{first}/image.png"}

    def counts() -> dict[str, int]:
        counted = {}
        for name, url in urls.items():
            db.session.expire_all()
            with count_queries() as statements:
                assert client.get(url).status_code == 200
            counted[name] = len(statements)
        return counted

    one = counts()
    for _ in range(3):
        crapouille_duel(client, group, b, a)
    game = start_president(client, group, "president", [a, b, c], target=3)
    manche(client, group, game, 1, [a, b])
    manche(client, group, game, 2, [a, b])
    running = start_crapouille(client, group, [a, b, c])  # in progress: its ranking drawn too
    hand(client, group, running, 1, a, **{str(b.id): 12, str(c.id): 30})
    assert db.session.scalar(sa.select(sa.func.count()).where(GameResult.night == night, GameResult.won)) == 5
    five = counts()
    assert one == five, (one, five)
    # The game image of the Président game, with its rounds, costs as many as the duel's.
    urls = {"game": f"/g/{group.code}/games/{game}/image.png"}
    assert counts() == {"game": one["game"]}


def test_the_share_link_on_the_evening_page(client: FlaskClient) -> None:
    evening = play_evening(client)
    page = html(client.get(f"/g/{evening.group.code}/evenings/{evening.night}", headers=EN))
    link = re.search(r'<a [^>]*href="([^"]+\.png)"[^>]*>', page)
    assert link, page
    assert link[1] == evening.url
    assert 'download="' in link[0] and "data-share" in link[0]
    assert "/static/share.js" in page
    assert "<script>" not in page  # no inline script (CSP)


# ----------------------------------------------------------------------- the layout


def test_wrap_keeps_every_word_and_cuts_what_would_overflow() -> None:
    words = f"{LONG} {MARKUP} Amélie, Bérénice, Loïc, Zoé".split(" ")
    lines = wrap(" ".join(words), 30, 400, max_lines=20)
    assert " ".join(lines).replace("  ", " ").split(" ") == words or "".join(lines).replace(" ", "") == "".join(words)
    assert all(text_width(line, 30) <= 400 for line in lines)
    cut = wrap(" ".join(words), 30, 400, max_lines=2)
    assert len(cut) == 2 and cut[-1].endswith("…") and all(text_width(line, 30) <= 400 for line in cut)


def pixels(data: bytes) -> list[bytearray]:
    """A PNG's rows of pixels, 4 bytes each (8-bit RGBA, as resvg writes it), unfiltered."""
    width, height = png_size(data)
    assert data[24:26] == b"\x08\x06", "8-bit RGBA"
    raw = zlib.decompress(b"".join(_chunks(data, b"IDAT")))
    stride, bpp = width * 4, 4
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(row)
        previous = row
    return rows


def ink(data: bytes) -> tuple[int, int] | None:
    """The first and last columns of a PNG (8-bit RGBA, as resvg writes it) where
    anything is drawn (alpha above 0); None for a blank image."""
    columns = {x for row in pixels(data) for x in range(len(row) // 4) if row[4 * x + 3]}
    return (min(columns), max(columns)) if columns else None


def _chunks(data: bytes, kind: bytes) -> list[bytes]:
    out, at = [], 8
    while at < len(data):
        length, name = struct.unpack(">I4s", data[at : at + 8])
        if name == kind:
            out.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    return out


@pytest.mark.parametrize("text", ["Soirée du 1er mars", "« Loïc’s »", "♠♥♦♣"])
def test_the_png_is_drawn_with_the_committed_font(text: str) -> None:
    """Text is drawn in the committed DejaVu Sans, whatever the machine has: its ink
    spans what the font's own widths say (its side bearings aside), accents, « », ’ and
    the suits included (a missing font draws nothing; another font, another width)."""
    from companion.share_image import to_png

    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="700" height="60">'
        f'<text x="10" y="45" font-size="40">{text}</text></svg>'
    )
    drawn = ink(to_png(svg))
    assert drawn is not None
    expected = text_width(text, 40)
    assert expected - 12 <= drawn[1] - drawn[0] <= expected, (drawn, expected)


# -------------------------------------------------------------- every name is drawn

#: Names as players write them, in scripts DejaVu Sans draws in part or not at all. (The
#: box check below would take a glyph shaped like a box, 口 日 ㅁ, for one: none here has one.)
WORLD = {
    "arabic": "محمد علي",
    "urdu": "عائشہ خان",  # ہ and ے: letters DejaVu Sans lacks, in words it joins
    "persian": "پریسا",
    "hebrew": "דוד כהן",
    "chinese": "王小龙",
    "traditional-chinese": "陳美玲",
    "japanese": "さくら 山本",
    "korean": "이서연",
    "emoji": "Zoé 🎉",
    # Sequences of several characters drawn as one picture, with text before and after.
    "emoji-sequence": "Ann 👨\u200d👩\u200d👧 Bob",
    "flag": "Zoé 🇫🇷",
    "skin-tone": "👍🏽 Loïc",
    "keycap": "Team 7\ufe0f\u20e3",
}
#: Enlil, in cuneiform: a script no committed font has.
CUNEIFORM = "𒀭𒂗𒆤"


@pytest.fixture(scope="module")
def svg_app() -> Iterator[Flask]:
    """An app to write cards out with the real template (no database needed)."""
    from companion import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.test_request_context():
        yield app


def draw_line(text: str, size: int = 64, bold: bool = False) -> tuple[str, bytes]:
    """``text`` as a card's line of text, alone on a small card: its SVG (the real
    template) and its PNG."""
    from flask import render_template

    from companion.share_image import COLOURS, FAMILY, Card, Text, to_png

    width = round(text_width(text, size, bold) + 4 * size)
    card = Card("t", width=width, height=2 * size, texts=[Text(size, round(1.4 * size), text, size, bold=bold)])
    svg = render_template("share/card.svg", card=card, family=FAMILY, page=COLOURS["page"])
    return svg, to_png(svg)


Mask = list[list[bool]]


def inked(data: bytes, background: str = "#f6f2e8") -> Mask:
    """Where a PNG has anything other than ``background`` (the card's page colour)."""
    page = bytes.fromhex(background[1:])
    return [[row[4 * x : 4 * x + 3] != page for x in range(len(row) // 4)] for row in pixels(data)]


def components(mask: Mask) -> list[set[tuple[int, int]]]:
    """The connected pieces of ink (8 neighbours)."""
    seen: set[tuple[int, int]] = set()
    pieces = []
    for y, row in enumerate(mask):
        for x, on in enumerate(row):
            if not on or (x, y) in seen:
                continue
            piece, todo = set(), [(x, y)]
            seen.add((x, y))
            while todo:
                px, py = todo.pop()
                piece.add((px, py))
                for nx in (px - 1, px, px + 1):
                    for ny in (py - 1, py, py + 1):
                        if 0 <= ny < len(mask) and 0 <= nx < len(row) and mask[ny][nx] and (nx, ny) not in seen:
                            seen.add((nx, ny))
                            todo.append((nx, ny))
            pieces.append(piece)
    return pieces


def is_box(piece: set[tuple[int, int]], size: int) -> bool:
    """Whether a piece of ink is a missing glyph's box (.notdef: DejaVu Sans and Noto
    Sans Arabic draw a hollow rectangle, Noto Sans CJK a crossed one): a piece at least a
    quarter of the text's size tall, whose four sides are inked along nearly all their
    length and whose inside is mostly empty (a flag emoji is a full rectangle: filled)."""
    xs, ys = [x for x, _ in piece], [y for _, y in piece]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    if bottom - top < size / 4 or right - left < size / 8:
        return False

    def side(points: list[tuple[int, int]]) -> float:
        return sum(
            any((x + dx, y + dy) in piece for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)) for x, y in points
        ) / len(points)

    sides = [
        side([(x, top) for x in range(left, right + 1)]),
        side([(x, bottom) for x in range(left, right + 1)]),
        side([(left, y) for y in range(top, bottom + 1)]),
        side([(right, y) for y in range(top, bottom + 1)]),
    ]
    inside = [(x, y) for x in range(left + 4, right - 3) for y in range(top + 4, bottom - 3)]
    filled = sum(p in piece for p in inside) / max(1, len(inside))
    return min(sides) > 0.85 and filled < 0.5


def clusters(text: str) -> list[str]:
    """``text`` cut into what is drawn as one sign: a character with its marks, variation
    selectors and skin tones, the characters joined by U+200D, a flag's two letters."""
    import unicodedata

    out: list[str] = []
    for char in text:
        joined = bool(out) and (
            unicodedata.category(char).startswith("M")
            or char in "\u200d\ufe0e\ufe0f"
            or out[-1].endswith("\u200d")
            or "\U0001f3fb" <= char <= "\U0001f3ff"
            or (out[-1] >= "\U0001f1e6" and len(out[-1]) == 1 and "\U0001f1e6" <= char <= "\U0001f1ff")
        )
        if joined:
            out[-1] += char
        else:
            out.append(char)
    return [c for c in out if not c.isspace()]


def test_the_box_check_sees_a_missing_glyph() -> None:
    """A character no font has, drawn by resvg as DejaVu Sans's box: the check below sees it."""
    from companion.share_image import to_png

    for missing in ("\u0378", "\U0010fffd"):
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="130"><rect width="200" height="130" '
            f'fill="#f6f2e8"/><text x="64" y="90" font-size="64">{missing}</text></svg>'
        )
        pieces = components(inked(to_png(svg)))
        assert len(pieces) == 1 and is_box(pieces[0], 64), missing
    # A letter, a filled emoji-like square, are no boxes.
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="130"><rect width="200" height="130" '
        'fill="#f6f2e8"/><text x="64" y="90" font-size="64">H</text><rect x="140" y="40" width="40" height="30"/></svg>'
    )
    assert not any(is_box(piece, 64) for piece in components(inked(to_png(svg))))


@pytest.mark.parametrize("script", [*WORLD, "cuneiform"])
def test_every_name_is_drawn_and_never_as_boxes(svg_app: Flask, script: str) -> None:
    """Each sign of a name drawn alone, then the whole name, in the regular and the bold
    face: ink for each, and no box among it (a script no font has is drawn with a visible
    replacement, never as boxes)."""
    name = WORLD.get(script, CUNEIFORM)
    for bold in (False, True):
        for sign in clusters(name):
            pieces = components(inked(draw_line(sign, bold=bold)[1]))
            assert pieces, f"{sign!r} ({script}, bold={bold}) is drawn as nothing"
            assert not any(is_box(piece, 64) for piece in pieces), f"{sign!r} ({script}, bold={bold}) is a box"
        pieces = components(inked(draw_line(name, bold=bold)[1]))
        assert not any(is_box(piece, 64) for piece in pieces), f"{name!r} ({script}, bold={bold}) has a box"


def test_a_sign_no_font_has_is_drawn_as_the_replacement_character(svg_app: Flask) -> None:
    """Cuneiform (no committed font has it), a private-use and an unassigned code point (a
    name may hold them: ``companion.names``) are drawn as « � », the sign every reader knows
    for a character that cannot be shown, one for each; the name's other letters as they are."""
    svg, _png = draw_line(f"{CUNEIFORM} Enlil \ue000\u0378")
    assert texts(svg) == ["\ufffd\ufffd\ufffd Enlil \ufffd\ufffd"], texts(svg)


def test_arabic_is_joined_and_right_to_left_and_hebrew_right_to_left(svg_app: Flask) -> None:
    # محمد (meem, hah, meem, dal: no dots) joined is one piece of ink, not four letters.
    assert len(components(inked(draw_line("محمد")[1]))) == 1
    # من (meem, then noon with its dot): right to left, the dot is in the word's left half.
    pieces = components(inked(draw_line("من")[1]))
    dot = min(pieces, key=len)
    xs = [x for piece in pieces for x, _ in piece]
    assert max(x for x, _ in dot) < (min(xs) + max(xs)) / 2, "noon (with its dot) is drawn at the left"
    # The same letters apart (isolated forms, as if not joined): four pieces.
    assert len(components(inked(draw_line(" ".join("محمد"))[1]))) == 4
    # לו (lamed, the one tall letter, then vav): lamed is at the right.
    lamed, vav = sorted(components(inked(draw_line("לו")[1])), key=lambda piece: min(y for _, y in piece))
    assert min(x for x, _ in lamed) > max(x for x, _ in vav), "lamed is drawn at the right"
    # محمد علي, in one font or with an emoji between its words (three fonts, three runs):
    # right to left, علي (its yeh's two dots the lowest ink) at the left.
    for name in ("محمد علي", "محمد 🎉 علي", "Zoé, محمد علي"):
        mask = inked(draw_line(name)[1])
        lowest = max(y for y, row in enumerate(mask) if any(row))
        xs = [x for row in mask for x, on in enumerate(row) if on]
        start = xs and (min(xs) if not name.startswith("Zoé") else 64 + text_width("Zoé, ", 64))
        dots = [x for x, on in enumerate(mask[lowest]) if on]
        assert max(dots) < start + (max(xs) - start) / 3, (name, dots, start, max(xs))


@pytest.mark.parametrize("script", list(WORLD))
def test_a_name_is_no_wider_than_the_layout_measures_it(svg_app: Flask, script: str) -> None:
    """Lines are wrapped by the widths :func:`text_width` gives: a name is drawn no wider
    than that, and hardly narrower (an Arabic word is measured joined, an emoji sequence
    as one picture: measured letter by letter, they would take a line and a half)."""
    name = WORLD[script]
    for bold in (False, True):
        expected = text_width(name, 64, bold)
        columns = [x for row in inked(draw_line(name, bold=bold)[1]) for x, on in enumerate(row) if on]
        drawn = max(columns) - 64  # draw_line starts the text at 64
        assert expected * 0.85 <= drawn <= expected + 4, (bold, drawn, expected)


def test_a_card_in_latin_letters_loads_dejavu_sans_only(svg_app: Flask) -> None:
    """Each card loads the fonts its text needs: one of French names, DejaVu Sans alone
    (the other fonts, the colour emoji's 10 MB among them, cost time to load)."""
    from flask import render_template

    from companion.share_image import BOLD, COLOURS, FAMILY, REGULAR, Layout, font_files

    layout = Layout("Soirée")
    layout.text("Amélie, Bérénice, Loïc, Zoé ♠♥", 32)
    layout.text("Victoire : Amélie", 32, bold=True)
    svg = render_template("share/card.svg", card=layout.footer("Companion"), family=FAMILY, page=COLOURS["page"])
    assert font_files(svg) == [str(REGULAR), str(BOLD)]
    world = Layout("Soirée")
    world.text(", ".join(WORLD.values()), 32)
    svg = render_template("share/card.svg", card=world.footer("Companion"), family=FAMILY, page=COLOURS["page"])
    assert len(font_files(svg)) > 2


def test_a_text_in_several_fonts_ends_at_its_anchor(svg_app: Flask) -> None:
    """A total or a name at the card's right edge (``text-anchor="end"``) in several fonts
    ends there, and starts where its width says: each run is a text of its own for resvg,
    which would anchor each alone (each ending at the edge, over one another)."""
    from flask import render_template

    from companion.share_image import COLOURS, FAMILY, Card, Text, to_png

    for text in ("Zoé 🎉", "王小龙 12", "12"):
        card = Card("t", width=500, height=100, texts=[Text(480, 70, text, 48, anchor="end")])
        svg = render_template("share/card.svg", card=card, family=FAMILY, page=COLOURS["page"])
        columns = [x for row in inked(to_png(svg)) for x, on in enumerate(row) if on]
        assert 470 <= max(columns) <= 482, (text, max(columns))
        assert abs(min(columns) - (480 - text_width(text, 48))) < 8, (text, min(columns))
