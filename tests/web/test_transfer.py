"""A group's data in and out (issue 12): CSV and JSON exports, and importing a JSON
export as a new group, in another app over another database.

The group is built through the real pages: games of every kind (seeds 000–003), some
finished, one finished early, one abandoned, a corrected hand, a deal deleted then
restored, a whist deal waiting for its tricks, a renamed player, two seasons. Its JSON
export is imported by a second app (its own SQLite file), whose export, season pages,
game pages and CSV must then say exactly what the first app's say. Refused files
(malformed, foreign, tampered, too large) change nothing."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from zoneinfo import ZoneInfo

import flask_babel
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion import create_app
from companion.clock import night_of
from companion.extensions import db
from companion.games import results
from companion.games.kinds import kind_name
from companion.groups import transfer
from companion.groups.transfer import reading
from companion.i18n import format_day
from companion.models import Game, GameChange, GamePlayer, GameStatus, Group, Player, Round, Season
from tests.helpers import add_players, create_group, html, start_crapouille


def fr(app: Flask, message: str, **values: Any) -> str:
    """``message`` as a French page shows it (the catalog's French once it is there)."""
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        flask_babel.refresh()
        text = str(flask_babel.gettext(message, **values))
    flask_babel.refresh()
    return text


def fr_game(app: Flask, game: Game) -> str:
    """How a refusal names a game, in French."""
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        flask_babel.refresh()
        day = format_day(game.created_at.date())
        kind = kind_name(game.kind)
    flask_babel.refresh()
    return fr(app, "game %(id)d (%(kind)s, %(day)s)", id=game.id, kind=kind, day=day)


# --------------------------------------------------------------- building a group


def _ok(response: Any) -> None:
    assert response.status_code == 302, html(response)


def _version(game_id: int) -> str:
    db.session.expire_all()
    return str(db.session.get(Game, game_id).version)


def _hand(client, group, game_id, number, winner, edit=False, **entries):
    data = {"round": str(number), "winner": str(winner.id)}
    for player, value in entries.items():
        key = "total" if value.isdigit() else "cards"
        data[f"{key}_{player}"] = value
    where = f"rounds/{number}/edit" if edit else "rounds/new"
    _ok(client.post(f"/g/{group.code}/games/{game_id}/{where}", data=data))


def _start(client, group, kind, players, **fields):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)} | fields
    response = client.post(f"/g/{group.code}/games/new/{kind}", data=data)
    _ok(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def _deal(client, group, game_id, number, bids, tricks=None):
    url = f"/g/{group.code}/games/{game_id}"
    data = {"round": str(number)} | {f"bid_{p.id}": str(v) for p, v in bids.items()}
    _ok(client.post(f"{url}/rounds/new", data=data))
    if tricks is not None:
        data |= {f"tricks_{p.id}": str(v) for p, v in tricks.items()}
        _ok(client.post(f"{url}/rounds/{number}/edit", data=data))


def _manche(client, group, game_id, number, finish=(), event="", **fields):
    data = {"round": str(number), "event": event}
    data |= {f"finish-{i}": str(p.id) for i, p in enumerate(finish)}
    data |= {k: str(v.id) if hasattr(v, "id") else v for k, v in fields.items()}
    _ok(client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data))


def _post(client, group, game_id, action, **fields):
    data = {"version": _version(game_id), "confirmed": "1"} | fields
    _ok(client.post(f"/g/{group.code}/games/{game_id}/{action}", data=data))


def build_group(client: FlaskClient) -> dict[str, Any]:
    """A group of two seasons with games of every kind, through the pages; its ids."""
    group = create_group(client, "Les Amis")
    ann, bob, cid, dan, _eve = add_players(client, group, "Ann", "Bob", "Cid", "Dan", "Eve")
    c = {p.name: str(p.id) for p in (ann, bob, cid, dan)}

    # Season 1. A crapouille game with a corrected first hand, to the end (seed 003).
    crap = start_crapouille(client, group, [ann, bob, cid])
    _hand(client, group, crap, 1, ann, **{c["Bob"]: "8c RJ 2t V♠", c["Cid"]: "30"})
    _hand(client, group, crap, 2, cid, **{c["Ann"]: "30", c["Bob"]: "200"})
    _hand(client, group, crap, 1, ann, edit=True, **{c["Bob"]: "8c RJ 2t V♠", c["Cid"]: "40"})
    _hand(client, group, crap, 3, ann, **{c["Bob"]: "60", c["Cid"]: "20"})
    _hand(client, group, crap, 4, ann, **{c["Cid"]: "260"})

    # Whist (seed 002): three deals, the third deleted then restored, a fourth waiting for its tricks.
    whist = _start(client, group, "whist-tarot", [ann, bob, cid])
    for number, (bids, tricks) in enumerate([((2, 1, 1), (2, 2, 1)), ((1, 1, 0), (1, 3, 0)), ((0, 0, 0), (3, 0, 0))]):
        _deal(
            client,
            group,
            whist,
            number + 1,
            dict(zip((bob, cid, ann), bids, strict=True)),
            dict(zip((bob, cid, ann), tricks, strict=True)),
        )
    _post(client, group, whist, "rounds/3/delete")
    change = db.session.scalar(sa.select(GameChange).where(GameChange.game_id == whist).order_by(GameChange.id.desc()))
    assert change.kind == "round_deleted"
    _post(client, group, whist, f"changes/{change.id}/undo")
    _deal(client, group, whist, 4, {bob: 2, cid: 2, ann: 0})

    # Season 2, current.
    _ok(client.post(f"/g/{group.code}/seasons", data={"name": "Printemps", "starts_on": "2025-03-01"}))

    # Le Président with points to 6, a failed putsch, to the end (seed 000).
    pres = _start(
        client, group, "president", [ann, bob, cid, dan], target="6", titles="classic", rule_points="y", rule_putsch="y"
    )
    _manche(client, group, pres, 1, [dan, cid, bob])
    _manche(client, group, pres, 2, [ann, bob, cid])
    _manche(client, group, pres, 3, [bob], event="putsch")
    _manche(client, group, pres, 4, [cid, ann, bob])

    # Piketty without points (seed 001): the card draw, then a manche; in progress.
    pik = _start(client, group, "piketty", [ann, bob, cid, dan], target="25", titles="classic")
    draw = {"Ann": "R♠", "Bob": "A♦", "Cid": "9♥", "Dan": "7♣"}
    _ok(
        client.post(
            f"/g/{group.code}/games/{pik}/rounds/new",
            data={"round": "1"} | {f"draw_{c[n]}": v for n, v in draw.items()},
        )
    )
    _manche(client, group, pik, 2, [cid, dan, ann])

    # A crapouille finished early, one abandoned, a whist game of four without a deal.
    early = start_crapouille(client, group, [bob, dan])
    _hand(client, group, early, 1, bob, **{c["Dan"]: "42"})
    _post(client, group, early, "finish")
    dropped = start_crapouille(client, group, [ann, dan])
    _hand(client, group, dropped, 1, dan, **{c["Ann"]: "12"})
    _post(client, group, dropped, "abandon")
    empty = _start(client, group, "whist-tarot", [ann, bob, cid, dan])

    # Dan renames himself: the history follows the id.
    _ok(client.post(f"/g/{group.code}/players/{dan.id}", data={"name": "Dany"}))
    db.session.expire_all()
    games = {"crap": crap, "whist": whist, "pres": pres, "pik": pik, "early": early, "dropped": dropped}
    games["empty"] = empty
    statuses = {k: db.session.get(Game, v).status for k, v in games.items()}
    assert statuses == {
        "crap": GameStatus.FINISHED,
        "whist": GameStatus.IN_PROGRESS,
        "pres": GameStatus.FINISHED,
        "pik": GameStatus.IN_PROGRESS,
        "early": GameStatus.FINISHED,
        "dropped": GameStatus.ABANDONED,
        "empty": GameStatus.IN_PROGRESS,
    }
    return {"group": group, "games": games, "players": c}


# --------------------------------------------------------------- a second instance


@pytest.fixture
def other(tmp_path) -> Iterator[Flask]:
    """A second app over its own SQLite file: where an export is imported."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "other-secret",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite3'}",
        }
    )
    app.before_request(flask_babel.refresh)
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


@contextmanager
def inside(app: Flask) -> Iterator[None]:
    """Work in ``app``'s context (and its database), then come back."""
    with app.app_context():
        yield
        db.session.remove()


def upload(client: FlaskClient, content: bytes, name: str = "Les Amis", **fields: str):
    """Send the import form with ``content`` as its file (the body built in memory: the
    test client would spool a large one to a file it never closes)."""
    data = {
        "name": name,
        "passphrase": "sept de pique",
        "confirm": "sept de pique",
        "device_name": "Tablette",
        "file": FileStorage(io.BytesIO(content), "export.json", content_type="application/json"),
    } | fields
    boundary, body = encode_multipart(data)
    return client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def _counts() -> dict[str, int]:
    return {
        model.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(model)) or 0
        for model in (Group, Player, Season, Game, GamePlayer, Round, GameChange)
    }


def normalised(document: dict[str, Any]) -> dict[str, Any]:
    """An export with its database ids replaced by what they stand for (player names,
    season names, the games' order), to compare the exports of two databases."""
    doc = copy.deepcopy(document)
    doc.pop("exported_at")
    names = {str(p["id"]): f"<{p['name']}>" for p in doc["players"]}
    seasons = {s["id"]: s["name"] for s in doc["seasons"]}

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {names.get(k, k): swap(v) for k, v in value.items()}
        return value

    for p in doc["players"]:
        p.pop("id")
    for s in doc["seasons"]:
        s.pop("id")
    for i, g in enumerate(doc["games"]):
        g["id"] = i
        g["season"] = seasons[g["season"]]
        g["seats"] = [names[str(p)] for p in g["seats"]]
        for key in ("rules", "setup", "outcome", "rounds", "changes"):
            g[key] = swap(g[key])
    return doc


def _tables(page: str) -> list[str]:
    """The tables of a page, links and ids of the database taken out."""
    tables = re.findall(r"<table.*?</table>", page, re.S)
    return [re.sub(r'href="[^"]*"', "", t) for t in tables]


def _charts(page: str) -> list[str]:
    return re.findall(r'<section class="chart".*?</section>', page, re.S)


# --------------------------------------------------------------- the round trip


def test_a_group_exported_and_imported_elsewhere_is_the_same_group(app, client, other):
    built = build_group(client)
    group = built["group"]
    code_a = group.code  # (read here: inside the other app, an object of this one reads the other's database)
    response = client.get(f"/g/{group.code}/export.json")
    assert response.status_code == 200
    content = response.get_data()
    exported = json.loads(content)
    seasons_a = [(s.name, s.id) for s in db.session.scalars(sa.select(Season).order_by(Season.starts_on))]
    season_pages_a = {name: html(client.get(f"/g/{group.code}/seasons/{sid}")) for name, sid in seasons_a}
    game_pages_a = [html(client.get(f"/g/{group.code}/games/{g['id']}")) for g in exported["games"]]
    csv_a = client.get(f"/g/{group.code}/export.csv").get_data(as_text=True)
    counts_a = _counts()

    with inside(other):
        phone = other.test_client()
        response = upload(phone, content)
        assert response.status_code == 302, html(response)
        code = response.headers["Location"].rsplit("/", 1)[1]
        assert code != code_a
        page = html(phone.get(response.headers["Location"]))  # this device joined the new group
        assert "Les Amis" in page and code in page
        imported = json.loads(phone.get(f"/g/{code}/export.json").get_data())
        seasons_b = [(s.name, s.id) for s in db.session.scalars(sa.select(Season).order_by(Season.starts_on))]
        season_pages_b = {name: html(phone.get(f"/g/{code}/seasons/{sid}")) for name, sid in seasons_b}
        game_pages_b = [html(phone.get(f"/g/{code}/games/{g['id']}")) for g in imported["games"]]
        csv_b = phone.get(f"/g/{code}/export.csv").get_data(as_text=True)
        counts_b = _counts()
        current = db.session.scalar(sa.select(Season.name).where(Season.is_current))

    # The same players, seasons, games (kind, rules, status, times, versions, outcome,
    # seats), rounds (entries, results, times) and history, player ids aside.
    assert normalised(imported) == normalised(exported)
    assert {k: v for k, v in counts_b.items() if k != "Group"} == {k: v for k, v in counts_a.items() if k != "Group"}
    assert current == "Printemps"
    # The same standings, season by season, and the same game pages' charts.
    assert [name for name, _sid in seasons_b] == [name for name, _sid in seasons_a]
    for name, page in season_pages_a.items():
        assert _tables(season_pages_b[name]) == _tables(page), name
        assert _tables(page)  # there is something to compare
    charts_a = [_charts(p) for p in game_pages_a]
    assert [_charts(p) for p in game_pages_b] == charts_a and sum(map(len, charts_a)) == 5
    # The same CSV, the games' ids aside.
    ids = {str(a["id"]): str(b["id"]) for a, b in zip(exported["games"], imported["games"], strict=True)}
    rows_a = list(csv.reader(io.StringIO(csv_a.lstrip("\ufeff")), delimiter=";"))
    rows_b = list(csv.reader(io.StringIO(csv_b.lstrip("\ufeff")), delimiter=";"))
    assert [[ids.get(r[1], r[1]) if i else r[1], *r[:1], *r[2:]] for i, r in enumerate(rows_a)] == [
        [r[1], *r[:1], *r[2:]] for r in rows_b
    ]


def test_the_imported_copy_lives_on_a_deleted_deal_comes_back_and_games_continue(app, client, other):
    """The copy is a group like any other: its games take new rounds, and its history
    (the restored deal) reads as the original's."""
    built = build_group(client)
    content = client.get(f"/g/{built['group'].code}/export.json").get_data()
    with inside(other):
        phone = other.test_client()
        response = upload(phone, content)
        _ok(response)
        code = response.headers["Location"].rsplit("/", 1)[1]
        group = db.session.scalar(sa.select(Group).where(Group.code == code))
        whist = db.session.scalar(
            sa.select(Game)
            .join(GamePlayer)
            .where(Game.kind == "whist-tarot")
            .group_by(Game.id)
            .having(sa.func.count(GamePlayer.seat) == 3)
        )
        kinds = [c.kind for c in db.session.scalars(sa.select(GameChange).where(GameChange.game_id == whist.id))]
        assert kinds.count("round_deleted") == 1 and kinds.count("round_restored") == 1
        players = {p.name: p for p in group.players}
        # The pending deal 4 gets its tricks on the copy.
        bids = {players["Bob"]: 2, players["Cid"]: 2, players["Ann"]: 0}
        tricks = {players["Bob"]: 1, players["Cid"]: 1, players["Ann"]: 0}
        data = {"round": "4"} | {f"bid_{p.id}": str(v) for p, v in bids.items()}
        data |= {f"tricks_{p.id}": str(v) for p, v in tricks.items()}
        _ok(phone.post(f"/g/{code}/games/{whist.id}/rounds/4/edit", data=data))
        db.session.expire_all()
        last = db.session.scalar(sa.select(Round).where(Round.game_id == whist.id, Round.number == 4))
        assert last.result["pending"] is False and set(last.result["stakes"]) == {str(p.id) for p in bids}


def test_a_past_season_exported_alone_becomes_the_current_season_of_its_copy(client, other):
    built = build_group(client)
    code_a = built["group"].code
    past = db.session.scalar(sa.select(Season).where(Season.name != "Printemps"))
    assert not past.is_current
    past_name = past.name
    content = client.get(f"/g/{code_a}/export.json?season={past.id}").get_data()
    with inside(other):
        phone = other.test_client()
        _ok(upload(phone, content))
        seasons = list(db.session.scalars(sa.select(Season)))
        assert [(s.name, s.is_current) for s in seasons] == [(past_name, True)]
        kinds = sorted(g.kind for g in db.session.scalars(sa.select(Game)))
        assert kinds == ["crapouille", "whist-tarot"]
        assert len(list(db.session.scalars(sa.select(Player)))) == 5  # every player of the group


# --------------------------------------------------------------- the exports


def test_csv_export_of_a_small_season_reads_as_computed_by_hand(app, client):
    group = create_group(client, "Tablée")
    ann, bob = add_players(client, group, "Ann", "=Bob")
    game = start_crapouille(client, group, [ann, bob])
    _hand(client, group, game, 1, ann, **{str(bob.id): "120"})
    _hand(client, group, game, 2, bob, **{str(ann.id): "8c 8p"})  # two 8s: 40
    _hand(client, group, game, 3, ann, **{str(bob.id): "190"})  # Bob 310: out, Ann wins
    season = db.session.scalar(sa.select(Season).where(Season.group_id == group.id))
    response = client.get(f"/g/{group.code}/export.csv?season={season.id}", headers={"Accept-Language": "fr"})
    assert response.status_code == 200
    assert response.mimetype == "text/csv" and response.mimetype_params["charset"] == "utf-8"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="companion-tablee-') and disposition.endswith('.csv"')
    assert response.headers["Cache-Control"] == "private, no-store"
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbf")  # UTF-8 with a byte order mark, for spreadsheets
    text = body.decode("utf-8-sig")
    assert "\r\n" in text
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    headers = ["Season", "Game", "Game kind", "Evening", "Round number", "Player", "Round score", "Total after"]
    headers += ["Final place", "Entered at"]
    assert rows[0] == [fr(app, h) for h in headers]
    # The game's evening and each round's time on the group's clock (Europe/Paris), with its offset.
    paris = ZoneInfo("Europe/Paris")
    day = night_of(db.session.get(Game, game).created_at, paris).isoformat()
    at = {
        r.number: results.aware(r.created_at).astimezone(paris).isoformat(timespec="seconds")
        for r in db.session.scalars(sa.select(Round).where(Round.game_id == game))
    }
    assert all(t[-6:] in ("+01:00", "+02:00") for t in at.values())
    kind = fr(app, "La crapouille")
    expected = [
        [season.name, str(game), kind, day, "1", "Ann", "0", "0", "1", at[1]],
        [season.name, str(game), kind, day, "1", "'=Bob", "120", "120", "2", at[1]],
        [season.name, str(game), kind, day, "2", "Ann", "40", "40", "1", at[2]],
        [season.name, str(game), kind, day, "2", "'=Bob", "0", "120", "2", at[2]],
        [season.name, str(game), kind, day, "3", "Ann", "0", "40", "1", at[3]],
        [season.name, str(game), kind, day, "3", "'=Bob", "190", "310", "2", at[3]],
    ]
    assert rows[1:] == expected


def test_csv_figures_of_whist_and_president_and_no_place_before_the_end(client):
    built = build_group(client)
    group, games, ids = built["group"], built["games"], built["players"]
    rows = list(
        csv.reader(io.StringIO(client.get(f"/g/{group.code}/export.csv").get_data(as_text=True)[1:]), delimiter=";")
    )
    by_game: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_game.setdefault(row[1], []).append(row)
    assert len(rows) - 1 == 3 * 4 + 3 * 4 + 4 * 4 + 4 * 2 + 2 + 2  # one row per player per round
    whist = by_game[str(games["whist"])]
    # Deal 1 (seed 002): Bob bid 2 made 2, Cid bid 1 made 2 (loses 1), Ann bid 1 made 1.
    assert [(r[5], r[6], r[7]) for r in whist[:3]] == [("Ann", "0", "14"), ("Bob", "0", "14"), ("Cid", "1", "13")]
    # Deal 4 waits for its tricks: no figure, the stakes as they stand; no final place.
    assert [(r[4], r[6], r[8]) for r in whist[-3:]] == [("4", "", "")] * 3
    pres = by_game[str(games["pres"])]
    # Manche 1: Dany 3, Cid 2, Bob 1, Ann 0 (seed 000: the Président scores players − 1).
    assert [(r[5], r[6], r[7]) for r in pres[:4]] == [
        ("Ann", "0", "0"),
        ("Bob", "1", "1"),
        ("Cid", "2", "2"),
        ("Dany", "3", "3"),
    ]
    final = {r[5]: (r[7], r[8]) for r in pres[-4:]}
    assert final == {"Ann": ("5", "2"), "Bob": ("4", "3"), "Cid": ("6", "1"), "Dany": ("2", "4")}
    pik = by_game[str(games["pik"])]
    assert {r[6] for r in pik} == {""} and {r[8] for r in pik} == {""}  # no points, not over
    assert ids  # the players' ids are what the stored states name


def test_json_export_holds_no_secret_and_names_its_format(client):
    built = build_group(client)
    group = built["group"]
    response = client.get(f"/g/{group.code}/export.json")
    assert response.mimetype == "application/json"
    assert re.fullmatch(
        r'attachment; filename="companion-les-amis-\d{4}-\d\d-\d\d\.json"', response.headers["Content-Disposition"]
    )
    text = response.get_data(as_text=True)
    document = json.loads(text)
    assert document["format"] == "companion-group" and document["version"] == 1 and document["scope"] == "group"
    for secret in ("passphrase", "token", "device", "pbkdf2", "scrypt", group.code):
        assert secret not in text, secret
    assert [p["name"] for p in document["players"]] == ["Ann", "Bob", "Cid", "Dany", "Eve"]
    assert {s["name"]: s["is_current"] for s in document["seasons"]}["Printemps"] is True
    assert sum(s["is_current"] for s in document["seasons"]) == 1
    season = db.session.scalar(sa.select(Season).where(Season.name == "Printemps"))
    one = json.loads(client.get(f"/g/{group.code}/export.json?season={season.id}").get_data())
    assert one["scope"] == "season" and [s["name"] for s in one["seasons"]] == ["Printemps"]
    assert {g["kind"] for g in one["games"]} == {"president", "piketty", "crapouille", "whist-tarot"}
    assert len(one["games"]) == 5


def test_exports_are_for_members_only_and_a_foreign_season_is_not_found(client, app):
    group = create_group(client)
    stranger = app.test_client()
    for path in ("export", "export.csv", "export.json"):
        response = stranger.get(f"/g/{group.code}/{path}")
        assert response.status_code == 302 and "/join" in response.headers["Location"]
    other_group = create_group(app.test_client(), "Autres")
    theirs = db.session.scalar(sa.select(Season.id).where(Season.group_id == other_group.id))
    assert client.get(f"/g/{group.code}/export.csv?season={theirs}").status_code == 404
    assert client.get(f"/g/{group.code}/export.json?season=abc").status_code == 404
    page = html(client.get(f"/g/{group.code}/export"))
    assert f"/g/{group.code}/export.csv" in page and f"/g/{group.code}/export.json?season=" in page


# --------------------------------------------------------------- refused files


@pytest.fixture
def exported(client) -> tuple[bytes, dict[str, Any]]:
    built = build_group(client)
    content = client.get(f"/g/{built['group'].code}/export.json").get_data()
    return content, built


def _refused(client, content: bytes, message: str, status: int = 400) -> None:
    """The import of ``content`` is refused with ``message`` (or a part of it), and nothing is created."""
    before = _counts()
    response = upload(client, content, name="Copie")
    page = html(response)
    assert response.status_code == status, page
    assert message in page, re.findall(r'<p class="error"[^>]*>(.*?)</p>', page)
    assert 'value="Copie"' in page  # what was typed stays
    assert _counts() == before


def _changed(content: bytes, change) -> bytes:
    document = json.loads(content)
    change(document)
    return json.dumps(document).encode()


def test_a_malformed_file_is_refused_and_nothing_is_created(app, client, exported):
    app.config["GROUPS_PER_HOUR"] = 100
    content, built = exported

    def malformed(where: str) -> str:
        return fr(app, "This file is not a well-formed Companion export: %(where)s is not as expected.", where=where)

    _refused(client, b"\x89PNG\r\n", fr(app, "This file is not a Companion export: it is not JSON text (UTF-8)."))
    _refused(client, content[:-20], fr(app, "This file is not a Companion export: it is not valid JSON."))
    _refused(client, b'{"format": "companion-group", "version": 1, "version": 1}', malformed("version"))
    _refused(client, _changed(content, lambda d: d.pop("games")), malformed("/"))
    _refused(
        client,
        _changed(content, lambda d: d["games"][0]["rounds"][1].update(number="2")),
        malformed("games[0].rounds[1].number"),
    )
    stranger = fr(app, "This file names a player who is not in it, at %(where)s.", where="games[0].seats[3]")
    _refused(client, _changed(content, lambda d: d["games"][0]["seats"].append(999)), stranger)
    _refused(client, _changed(content, lambda d: d["games"][0].pop("rounds")), malformed("games[0]"))

    def gap(d):
        d["games"][0]["rounds"][1]["number"] = 3

    game = db.session.get(Game, built["games"]["crap"])
    gap_message = fr(app, "In %(game)s, the rounds are not numbered from 1 to %(n)d.", game=fr_game(app, game), n=4)
    _refused(client, _changed(content, gap), gap_message)

    def twins(d):
        d["players"][1]["name"] = "ANN"

    _refused(
        client, _changed(content, twins), fr(app, "Two players of this file have the same name: %(name)s.", name="ANN")
    )

    def nul(d):
        d["players"][0]["name"] = "A\u0000nn"

    cannot = "This file holds a character that cannot be kept, at %(where)s."
    _refused(client, _changed(content, nul), fr(app, cannot, where="players[0].name"))

    def control(d):
        d["games"][0]["rounds"][0]["entry"]["\x1b"] = 1

    _refused(client, _changed(content, control), fr(app, cannot, where="games[0].rounds[0].entry"))

    def deep(d):
        nested: Any = 1
        for _ in range(40):
            nested = [nested]
        d["games"][0]["rules"]["x"] = nested

    deeper = "This file nests its data deeper than an export does, at %(where)s."
    _refused(client, _changed(content, deep), fr(app, deeper, where="games[0].rules.x" + "[0]" * 9))

    def unknown_kind(d):
        d["games"][0]["kind"] = "belote"

    message = fr(app, "This file holds a kind of game this version does not know: %(kind)s.", kind="belote")
    _refused(client, _changed(content, unknown_kind), message)

    def finished_without_end(d):
        d["games"][1]["status"] = "finished"
        d["games"][1]["finished_at"] = d["games"][1]["updated_at"]
        d["games"][1]["outcome"] = {"winners": []}

    whist = db.session.get(Game, built["games"]["whist"])
    status = fr(app, "In %(game)s, the status does not match the rounds.", game=fr_game(app, whist))
    _refused(client, _changed(content, finished_without_end), status)

    # Seats and house rules the engine would not have started (seeds 001, 002): the
    # new-game form's reason follows.
    impossible = "In %(game)s, the house rules or the seats are not possible: %(reason)s"
    empty = next(i for i, g in enumerate(json.loads(content)["games"]) if g["id"] == built["games"]["empty"])
    _refused(
        client,
        _changed(content, lambda d: d["games"][empty].update(seats=d["games"][empty]["seats"][:2])),
        fr(app, impossible, game=fr_game(app, db.session.get(Game, built["games"]["empty"])), reason=""),
    )
    pik = next(i for i, g in enumerate(json.loads(content)["games"]) if g["id"] == built["games"]["pik"])
    _refused(
        client,
        _changed(content, lambda d: d["games"][pik]["rules"].update(jokers=1, twos_cut=True)),
        fr(app, impossible, game=fr_game(app, db.session.get(Game, built["games"]["pik"])), reason=""),
    )


def test_a_foreign_file_is_refused(app, client, exported):
    content, _built = exported
    foreign = fr(app, "This file is not a Companion group export.")
    _refused(client, b'{"hello": "world"}', foreign)
    _refused(client, b"[1, 2, 3]", foreign)
    _refused(client, _changed(content, lambda d: d.update(format="companion-season")), foreign)
    other_version = fr(
        app,
        "This export was made by another version of Companion (format %(found)s); this one reads format %(version)d.",
        found="2",
        version=1,
    )
    _refused(client, _changed(content, lambda d: d.update(version=2)), other_version)


def test_a_tampered_file_is_refused_naming_the_game_and_round(app, client, exported):
    app.config["GROUPS_PER_HOUR"] = 100
    content, built = exported
    document = json.loads(content)
    crap = next(i for i, g in enumerate(document["games"]) if g["id"] == built["games"]["crap"])
    pres = next(i for i, g in enumerate(document["games"]) if g["id"] == built["games"]["pres"])
    bob = built["players"]["Bob"]

    crapouille = db.session.get(Game, built["games"]["crap"])
    president = db.session.get(Game, built["games"]["pres"])
    whist = db.session.get(Game, built["games"]["whist"])

    def refusal(game: Game, the_round: str, n: int, reason: str) -> str:
        return fr(
            app,
            "In %(game)s, %(the_round)s: %(reason)s Nothing was imported.",
            game=fr_game(app, game),
            the_round=fr(app, the_round, n=n),
            reason=fr(app, reason),
        )

    not_following = "the stored result does not follow from what was entered."

    def result(d):  # a total changed by hand
        d["games"][crap]["rounds"][2]["result"]["totals"][bob] -= 10

    _refused(client, _changed(content, result), refusal(crapouille, "hand %(n)d", 3, not_following))

    def entry(d):  # a hand entered differently, its result left as it was
        d["games"][crap]["rounds"][0]["entry"]["points"][built["players"]["Cid"]] = 10

    _refused(client, _changed(content, entry), refusal(crapouille, "hand %(n)d", 1, not_following))

    def impossible(d):  # an entry the engine refuses
        d["games"][pres]["rounds"][1]["entry"]["finish"] = ["999"]

    cannot = "what was entered cannot be scored."
    _refused(client, _changed(content, impossible), refusal(president, "round %(n)d", 2, cannot))

    def pending(d):  # a deal waiting for its tricks that is not the last one
        whist = next(g for g in d["games"] if g["id"] == built["games"]["whist"])
        del whist["rounds"][0]["entry"]["tricks"]

    only_last = "only the last round may wait for its second step."
    _refused(client, _changed(content, pending), refusal(whist, "hand %(n)d", 1, only_last))

    def winners(d):
        d["games"][crap]["outcome"]["winners"] = [built["players"]["Cid"]]

    status = fr(app, "In %(game)s, the status does not match the rounds.", game=fr_game(app, crapouille))
    _refused(client, _changed(content, winners), status)

    def kept(d):  # the deleted deal an undo would bring back
        whist = next(g for g in d["games"] if g["id"] == built["games"]["whist"])
        whist["changes"].append(
            {
                "at": whist["changes"][-1]["at"],
                "kind": "round_deleted",
                "round": 5,
                "version": whist["version"],
                "data": {"entry": {"bids": {}}, "result": {"stakes": {}}, "status": "in_progress"},
            }
        )

    kept_reason = "the deleted round kept for an undo does not follow from the rounds before it."
    _refused(client, _changed(content, kept), refusal(whist, "hand %(n)d", 5, kept_reason))


def test_a_file_too_large_is_refused(app, client, exported, monkeypatch):
    content, _built = exported
    monkeypatch.setattr(reading, "MAX_IMPORT_BYTES", len(content) - 1)
    too_big = fr(app, "This file is too large: an export holds at most %(size)d MB.", size=0)
    _refused(client, content, too_big, status=413)
    # Far larger than the request may be: refused before the form is even read.
    before = _counts()
    response = upload(client, content * 3)
    assert response.status_code == 413 and too_big in html(response)
    assert _counts() == before


def test_the_real_limit_is_eight_megabytes(app, client):
    create_group(client)
    before = _counts()
    response = upload(client, b" " * (8 * 1024 * 1024 + 1))
    too_big = fr(app, "This file is too large: an export holds at most %(size)d MB.", size=8)
    assert response.status_code == 413 and too_big in html(response)
    assert _counts() == before
    assert transfer.MAX_IMPORT_BYTES == 8 * 1024 * 1024


def test_an_import_sent_twice_creates_one_group_and_needs_its_fields(app, client, exported):
    content, _built = exported
    before = _counts()
    token = "t" * 32
    first = upload(client, content, once=token)
    _ok(first)
    again = upload(client, content, once=token)
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]
    assert _counts()["Group"] == before["Group"] + 1
    response = client.post("/import", data={"name": "X"}, content_type="multipart/form-data")
    assert response.status_code == 200 and fr(app, "Choose the file to import.") in html(response)
    page = html(client.get("/import"))
    assert 'enctype="multipart/form-data"' in page and 'accept=".json,application/json"' in page


def test_an_import_needs_the_forms_csrf_token_and_counts_as_a_group_created(app, client, exported):
    content, _built = exported
    before = _counts()
    app.config["WTF_CSRF_ENABLED"] = True
    response = upload(client, content)
    assert response.status_code == 400 and _counts() == before
    app.config["WTF_CSRF_ENABLED"] = False
    # The group built for the export was created from this client: one an hour, it waits.
    app.config["GROUPS_PER_HOUR"] = 1
    response = upload(client, content, name="Copie")
    assert response.status_code == 429 and 3500 < int(response.headers["Retry-After"]) <= 3600
    assert fr(app, "Too many tries. Try again in %(minutes)d minutes.", minutes=60) in html(response)
    assert 'value="Copie"' in html(response) and _counts() == before
