"""The evening recap and a finished game as images to share (issue 27): a PNG card drawn
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
    """The lines of text of an SVG card, entities decoded."""
    from html import unescape

    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


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


def ink(data: bytes) -> tuple[int, int] | None:
    """The first and last columns of a PNG (8-bit RGBA, as resvg writes it) where
    anything is drawn (alpha above 0); None for a blank image."""
    width, height = png_size(data)
    assert data[24:26] == b"\x08\x06", "8-bit RGBA"
    raw = zlib.decompress(b"".join(_chunks(data, b"IDAT")))
    stride, bpp = width * 4, 4
    previous = bytearray(stride)
    columns: set[int] = set()
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
        columns.update(x for x in range(width) if row[4 * x + 3])
        previous = row
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
