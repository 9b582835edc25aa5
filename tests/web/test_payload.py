"""Payload and caching (issue 14): every page of a realistic group weighs at most 20 KB
once compressed and is sent compressed to a phone that asks; CSS, JavaScript and SVG
too; static files are named by their content hash and, so named, cached for a year;
conditional GETs still end in a 304; a client that asks for no compression gets the
plain bytes (Flask-Compress, configured in companion/__init__.py; companion/fingerprint.py)."""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import brotli
import pytest
from flask import Flask, Response, request, url_for
from flask.testing import FlaskClient
from flask_compress import Compress
from werkzeug.test import TestResponse

from companion import create_app, fingerprint, static_text_in_memory
from companion.extensions import db
from companion.fingerprint import A_YEAR
from companion.models import Device, Game
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_referee_live import _president
from tests.web.test_standings import deal, draw, hand, manche, start_president, start_whist

#: The most a page may weigh, compressed.
LIMIT = 20 * 1024
GZIP = {"Accept-Encoding": "gzip"}
BROTLI = {"Accept-Encoding": "gzip, deflate, br"}
STATIC_URL = re.compile(r'(?:href|src)="(/static/[^"?]+)(\?v=[0-9a-f]+)?"')


def get(client: FlaskClient, url: str, headers: dict[str, str] | None = None) -> TestResponse:
    """``client.get``, the body read and the answer closed (a static file's handle)."""
    response = client.get(url, headers=headers or {})
    response.get_data()
    response.close()
    return response


def decoded(response: TestResponse) -> bytes:
    """The body as the browser reads it, whatever its coding."""
    coding = response.headers.get("Content-Encoding")
    if coding == "gzip":
        return gzip.decompress(response.data)
    if coding == "br":
        return bytes(brotli.decompress(response.data))
    assert coding is None, coding
    return response.data


# ------------------------------------------------------------------ a realistic group


@dataclass
class World:
    """The addresses of every page of a group that has played a while."""

    pages: dict[str, str] = field(default_factory=dict)
    #: Pages reached by a POST (name -> the answer), with the status they answer.
    posted: dict[str, tuple[TestResponse, int]] = field(default_factory=dict)


def _whist_deals(client: FlaskClient, group: Any, game_id: int, seats: list[Any], count: int) -> None:
    """``count`` deals of the schedule (5, 4, 3, 2, 1, 1 blind cards per dealer, the deal
    passing to the left): the dealer's left takes every trick it bid, the dealer misses one."""
    for number in range(1, count + 1):
        cards = (5, 4, 3, 2, 1, 1)[(number - 1) % 6]
        dealer = (number - 1) // 6 % len(seats)
        left, other = seats[(dealer + 1) % 3], seats[(dealer + 2) % 3]
        bids = {left: cards, other: 0, seats[dealer]: 1}
        deal(client, group, game_id, number, bids, {left: cards, other: 0, seats[dealer]: 0})


def realistic_group(app: Flask, client: FlaskClient) -> World:
    """Four players with real-length names, a finished game and a 30-round game of each
    kind, a second phone: what a group has after a few evenings."""
    w = World()
    group = create_group(client, name="Les cousins du dimanche soir")
    players = add_players(client, group, "Camille", "Dominique", "Éléonore", "Maximilien")
    ann, bob, cid, dan = players
    code = group.code
    base = f"/g/{code}"

    finished = start_crapouille(client, group, [ann, bob])
    hand(client, group, finished, 1, ann, **{str(bob.id): 301})

    crapouille = start_crapouille(client, group, players)
    for number in range(1, 31):
        winner = players[number % 4]
        hand(client, group, crapouille, number, winner, **{str(p.id): 1 + number % 9 for p in players if p != winner})

    president = start_president(client, group, "president", players, target=1000)
    for number in range(1, 31):
        turn = number % 4
        manche(client, group, president, number, (players[turn:] + players[:turn])[:3])

    piketty = start_president(client, group, "piketty", players, target=1000)
    draw(client, group, piketty, {ann: "9♥", bob: "9♠", cid: "2♣", dan: "6♦"})
    for number in range(2, 31):
        turn = number % 4
        manche(client, group, piketty, number, (players[turn:] + players[:turn])[:3])

    # The live play-by-play of the next manche, a few cards down.
    live = f"{base}/games/{president}/live"
    version = re.search(r'name="version" value="(\d+)"', html(get(client, live)))
    assert version
    assert client.post(f"{live}/start", data={"version": version.group(1)}).status_code == 303
    for move in ({"action": "play", "cards": "3♣"}, {"action": "play", "cards": "5♦"}, {"action": "pass"}):
        version = re.search(r'name="version" value="(\d+)"', html(get(client, live)))
        assert version
        r = client.post(f"{live}/move", data={**move, "version": version.group(1)})
        assert r.status_code == 303, html(r)

    whist = start_whist(client, group, [ann, bob, cid])
    _whist_deals(client, group, whist, [ann, bob, cid], 30)

    other = app.test_client()
    r = other.post("/join", data={"code": code, "passphrase": "trou du cul", "device_name": "Téléphone de Dominique"})
    assert r.status_code == 302, html(r)

    db.session.expire_all()
    season = group.current_season
    games = {"crapouille": crapouille, "president": president, "piketty": piketty, "whist-tarot": whist}
    w.pages |= {
        "home": "/",
        "create-group": "/groups/new",
        "join": "/join",
        "group": base,
        "players": f"{base}/players",
        "rename-player": f"{base}/players/{ann.id}",
        "player": f"{base}/players/{ann.id}/stats",
        "seasons": f"{base}/seasons",
        "season": f"{base}/seasons/{season.id}",
        "devices": f"{base}/devices",
        "invite": f"{base}/invite",
        "new-game": f"{base}/games/new",
        "check": "/check?game=president",
        "export": f"{base}/export",
        "import": "/import",
        "error-404": "/no/such/page",
        "offline": "/offline",
        "finished-game": f"{base}/games/{finished}",
    }
    for kind, game_id in games.items():
        game = f"{base}/games/{game_id}"
        w.pages |= {
            f"new-{kind}": f"{base}/games/new/{kind}",
            f"game-{kind}": game,
            f"round-{kind}": f"{game}/rounds/new",
            f"edit-{kind}": f"{game}/rounds/30/edit",
            f"check-{kind}": f"{game}/check",
            f"live-{kind}": f"{game}/live",
            f"house-rules-{kind}": f"{game}/rules",
            f"rules-{kind}": f"/rules/{kind}",
            f"check-start-{kind}": f"/check?game={kind}",
        }
    evening = re.search(rf'href="({base}/evenings/[0-9-]+)"', html(get(client, w.pages["player"])))
    assert evening, "the player page links to an evening"
    w.pages["evening"] = evening.group(1)

    # Pages a POST leads to.
    r = client.post(f"{base}/invite")
    assert r.status_code == 303, html(r)
    w.pages["invite-qr"] = r.headers["Location"]
    link = re.search(r"/join/t/[A-Za-z0-9_-]{43}", html(get(client, w.pages["invite-qr"])))
    assert link
    w.posted["join-by-qr"] = app.test_client().get(link.group(0), headers=GZIP), 200
    phone = db.session.scalar(db.select(Device).where(Device.name == "Téléphone de Dominique"))
    assert phone is not None
    w.posted["confirm"] = client.post(f"{base}/devices/{phone.id}/remove", headers=GZIP), 200
    stale = {"round": "30", "version": "1", "winner": str(ann.id), f"total_{bob.id}": "7"}
    w.posted["conflict"] = client.post(f"{base}/games/{crapouille}/rounds/new", data=stale, headers=GZIP), 409
    db.session.expire_all()
    assert db.session.get(Game, crapouille).version > 1
    return w


@pytest.fixture
def world(app: Flask, client: FlaskClient) -> World:
    return realistic_group(app, client)


# ------------------------------------------------------------------ pages


def test_every_page_fits_in_20_kb_compressed_and_is_sent_compressed(client: FlaskClient, world: World) -> None:
    answers = {
        name: (get(client, path, GZIP), 404 if name == "error-404" else 200) for name, path in world.pages.items()
    }
    answers |= world.posted
    sizes = {}
    too_big = []
    for name, (r, status) in answers.items():
        assert r.status_code == status, (name, r.status_code)
        assert r.mimetype == "text/html", name
        # Flask-Compress compresses 2xx answers only: an error page (404, 409) is sent plain.
        assert r.headers.get("Content-Encoding") == ("gzip" if status < 300 else None), name
        assert "Accept-Encoding" in r.headers.get("Vary", ""), name
        assert int(r.headers["Content-Length"]) == len(r.data), name
        page = decoded(r)
        assert page.rstrip().endswith(b"</html>"), name
        sizes[name] = (len(r.data), len(page))
        if len(r.data) > LIMIT:
            too_big.append(f"{name}: {len(r.data)} bytes compressed ({len(page)} plain)")
    print("\npage: compressed / plain bytes (gzip, as the app sends it)")  # read with pytest -s
    for name, (packed, plain) in sorted(sizes.items(), key=lambda item: -item[1][0]):
        print(f"  {name:24} {packed:7} {plain:8}")
    assert not too_big, too_big


def _a_game(client: FlaskClient) -> str:
    """A crapouille game of a few hands: its address."""
    group = create_group(client)
    ann, bob = add_players(client, group, "Camille", "Dominique")
    game_id = start_crapouille(client, group, [ann, bob])
    for number in range(1, 6):
        hand(client, group, game_id, number, ann, **{str(bob.id): 10 + number})
    return f"/g/{group.code}/games/{game_id}"


def test_brotli_when_the_phone_accepts_it_and_plain_bytes_when_it_asks_for_none(client: FlaskClient) -> None:
    path = _a_game(client)
    get(client, path)  # the last hand's message, said once
    plain = get(client, path)
    assert "Content-Encoding" not in plain.headers and int(plain.headers["Content-Length"]) == len(plain.data)
    assert "Accept-Encoding" in plain.headers["Vary"]
    br = get(client, path, BROTLI)
    assert br.headers["Content-Encoding"] == "br" and len(br.data) < len(plain.data) / 3
    assert _unsigned(decoded(br)) == _unsigned(plain.data)
    for refusing in ("identity", "*;q=0"):
        r = get(client, path, {"Accept-Encoding": refusing})
        assert "Content-Encoding" not in r.headers, refusing
    assert get(client, path, {"Accept-Encoding": "*"}).headers["Content-Encoding"] == "br"
    assert get(client, path, {"Accept-Encoding": "br;q=0.5, gzip"}).headers["Content-Encoding"] == "gzip"
    assert get(client, path, {"Accept-Encoding": "gzip, br;q=0.9"}).headers["Content-Encoding"] == "gzip"
    odd = ", ".join(f"x-coding-{i};q=0.1" for i in range(20)) + ", gzip;q=0.2, br;q=0"
    assert get(client, path, {"Accept-Encoding": odd}).headers["Content-Encoding"] == "gzip"


def _unsigned(page: bytes) -> bytes:
    """A page without its CSRF tokens (signed anew at each rendering)."""
    return re.sub(rb'value="[^"]*\.[^"]*"', b"", page)


def test_small_answers_redirects_and_other_types_are_left_alone(client: FlaskClient) -> None:
    r = get(client, "/offline/token", GZIP)  # a small JSON
    assert r.status_code == 200 and "Content-Encoding" not in r.headers and r.json
    assert "Accept-Encoding" in r.headers["Vary"]
    r = get(client, "/g/ABCDEF", GZIP)  # not in that group: sent to the join page
    assert r.status_code == 302 and "Content-Encoding" not in r.headers
    r = get(client, "/static/icon-192.png", GZIP)  # already compressed
    assert r.status_code == 200 and "Content-Encoding" not in r.headers and r.data.startswith(b"\x89PNG")
    r = get(client, "/groups/new", {**GZIP, "Range": "bytes=0-99"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"  # pages ignore ranges


def test_the_rules_apis_large_answers_are_compressed(client: FlaskClient) -> None:
    r = get(client, "/api/v1/openapi.json", GZIP)
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip"
    assert decoded(r).startswith(b"{")


def _compressing(app: Flask) -> Flask:
    """``app`` compressing its answers as Companion's does (its COMPRESS_ settings)."""
    settings = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"}).config
    app.config.update({key: value for key, value in settings.items() if key.startswith("COMPRESS_")})
    Compress(app)
    app.after_request(static_text_in_memory)
    return app


def test_streams_are_compressed_encoded_answers_and_304s_left_alone() -> None:
    text = "<p>" + "Donne 30 : Camille sort, Dominique 12. " * 40 + "</p>"
    app = _compressing(Flask(__name__, static_folder=None))

    @app.get("/stream")
    def stream() -> Response:
        return Response(iter([text]), mimetype="text/html")

    @app.get("/encoded")
    def encoded() -> Response:
        response = Response(gzip.compress(text.encode()), mimetype="text/html")
        response.headers["Content-Encoding"] = "gzip"
        return response

    @app.route("/tagged", methods=["GET", "POST"])
    def tagged() -> Response:
        response = Response(text, mimetype="text/html")
        response.set_etag("g30")
        return response.make_conditional(request)

    client = app.test_client()
    r = get(client, "/stream", GZIP)
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "gzip" and decoded(r) == text.encode()
    r = get(client, "/encoded", GZIP)
    assert r.headers["Content-Encoding"] == "gzip" and gzip.decompress(r.data) == text.encode()  # not twice
    r = get(client, "/tagged", GZIP)
    assert r.headers["ETag"] == '"g30:gzip"' and decoded(r) == text.encode()
    for held in ('"g30:gzip"', '"g30"', 'W/"g30:gzip"', "*"):
        again = get(client, "/tagged", {**GZIP, "If-None-Match": held})
        assert again.status_code == 304 and again.data == b"" and "Content-Encoding" not in again.headers, held
    assert client.post("/tagged", headers={**GZIP, "If-None-Match": '"g30:gzip"'}).status_code == 200
    head = client.head("/tagged", headers=GZIP)
    assert head.headers["Content-Encoding"] == "gzip" and head.data == b""
    assert int(head.headers["Content-Length"]) == len(r.data)


# ------------------------------------------------------------------ static files


def _static_urls(page: str) -> dict[str, str]:
    """The static files a page links to: name -> address as written."""
    return {m.group(1): m.group(1) + (m.group(2) or "") for m in STATIC_URL.finditer(page)}


def test_static_files_in_pages_and_in_the_worker_carry_their_fingerprint(client: FlaskClient, world: World) -> None:
    linked: dict[str, str] = {}
    for path in world.pages.values():
        found = _static_urls(html(get(client, path)))
        assert all("?v=" in url for url in found.values()), (path, found)
        for name, url in found.items():
            assert linked.setdefault(name, url) == url, "one address per file, whatever the page"
    assert {"/static/style.css", "/static/app.js", "/static/picker.js", "/static/charts.css"} <= set(linked)
    worker = decoded(get(client, "/sw.js", GZIP)).decode()
    assert worker.startswith("var VERSION")
    assets = re.search(r"var ASSETS = (\[.*?\]);", worker)
    assert assets
    # The worker keeps the very addresses the pages ask for (its cache is keyed by them).
    assert set(linked.values()) <= set(re.findall(r'"([^"]+)"', assets.group(1)))
    icons = get(client, "/manifest.webmanifest").get_json()["icons"]
    assert all("?v=" in icon["src"] for icon in icons)


def test_a_fingerprinted_static_file_is_cached_for_a_year_and_others_are_not(client: FlaskClient) -> None:
    page = html(get(client, "/"))
    style = _static_urls(page)["/static/style.css"]
    r = get(client, style, GZIP)
    assert r.status_code == 200 and r.headers["Cache-Control"] == A_YEAR
    for stale in ("/static/style.css", "/static/style.css?v=0123456789ab", "/static/style.css?v="):
        r = get(client, stale, GZIP)
        assert r.status_code == 200 and "max-age" not in r.headers["Cache-Control"], stale
        assert "no-cache" in r.headers["Cache-Control"], stale
    # The worker stays at the root, asked for again every time.
    r = get(client, "/sw.js")
    assert r.headers["Cache-Control"] == "no-cache"


def test_a_changed_file_gets_a_new_fingerprint_and_its_old_one_no_year(tmp_path: Path) -> None:
    app = Flask(__name__, static_folder=str(tmp_path), static_url_path="/static")
    fingerprint.init_app(app)
    _compressing(app)
    client = app.test_client()
    file = tmp_path / "a.css"
    file.write_text("body { color: red; }\n" * 40)
    with app.test_request_context():
        first = url_for("static", filename="a.css")
        assert url_for("static", filename="missing.css") == "/static/missing.css"
    assert re.fullmatch(r"/static/a\.css\?v=[0-9a-f]{12}", first)
    assert get(client, first, GZIP).headers["Cache-Control"] == A_YEAR
    file.write_text("body { color: blue; }\n" * 40)
    r = get(client, first, GZIP)  # the old address: the new bytes, not for a year
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache" and b"blue" in decoded(r)
    with app.test_request_context():
        second = url_for("static", filename="a.css")
    assert second != first  # seen where it was served, so the addresses follow
    r = get(client, second, GZIP)
    assert r.headers["Cache-Control"] == A_YEAR and b"blue" in decoded(r)
    # In debug the addresses follow a file at once, before it is served.
    app.debug = True
    file.write_text("body { color: green; }\n" * 40)
    with app.test_request_context():
        third = url_for("static", filename="a.css")
    assert third not in (first, second)
    assert get(client, third, GZIP).headers["Cache-Control"] == A_YEAR


@pytest.mark.parametrize(
    ("name", "mimetype"),
    [
        ("style.css", "text/css"),
        ("widgets.css", "text/css"),
        ("app.js", "text/javascript"),
        ("picker.js", "text/javascript"),
        ("offline.js", "text/javascript"),
        ("icon.svg", "image/svg+xml"),
    ],
)
def test_css_js_and_svg_are_compressed(client: FlaskClient, name: str, mimetype: str) -> None:
    plain = get(client, f"/static/{name}")
    body = plain.data
    for headers, coding in ((GZIP, "gzip"), (BROTLI, "br")):
        r = get(client, f"/static/{name}", headers)
        assert r.status_code == 200 and r.mimetype == mimetype
        if len(body) < client.application.config["COMPRESS_MIN_SIZE"]:
            assert "Content-Encoding" not in r.headers
            continue
        assert r.headers["Content-Encoding"] == coding and int(r.headers["Content-Length"]) == len(r.data)
        assert "Accept-Encoding" in r.headers["Vary"]
        assert len(r.data) < len(body) and decoded(r) == body
        # Twice the same bytes.
        again = get(client, f"/static/{name}", headers)
        assert again.data == r.data and again.headers["ETag"] == r.headers["ETag"]


# ------------------------------------------------------------------ conditional GETs


def test_a_static_file_revalidates_with_304_plain_or_compressed(client: FlaskClient) -> None:
    for headers in ({}, GZIP, BROTLI):
        r = get(client, "/static/style.css", headers)
        etag = r.headers["ETag"]
        again = get(client, "/static/style.css", {**headers, "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b"", headers
        assert again.headers["ETag"] == etag
        assert "Content-Encoding" not in again.headers and "Accept-Encoding" in again.headers["Vary"]
    # Each coding is its own representation, with its own ETag.
    plain, packed = get(client, "/static/style.css"), get(client, "/static/style.css", GZIP)
    assert packed.headers["ETag"] == plain.headers["ETag"][:-1] + ':gzip"'
    # A phone holding the plain copy that now accepts gzip is told it is still good.
    r = get(client, "/static/style.css", {**GZIP, "If-None-Match": plain.headers["ETag"]})
    assert r.status_code == 304


def test_the_watch_endpoints_still_answer_304(client: FlaskClient) -> None:
    group, _players, game_id = _president(client)  # a live manche under way
    game = f"/g/{group.code}/games/{game_id}"
    for url in (f"/g/{group.code}/watch", f"{game}/watch", f"{game}/live/state"):
        first = get(client, url, BROTLI)
        assert first.status_code == 200, url
        token = first.json["token"]
        again = get(client, url, {**BROTLI, "If-None-Match": f'"{token}"'})
        assert again.status_code == 304 and again.data == b"", url
        assert again.headers["ETag"] == f'"{token}"'
