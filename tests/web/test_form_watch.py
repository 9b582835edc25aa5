"""Two phones, one form (issue 23): the round form and the correction form are watched
pages (companion/watch.py, static/watch.js) at the version they were shown at; once
another phone changes the game, the watch answer says what changed since, in the
conflict page's words (``meanwhile``, ``change_text``), in the page's language; while
nothing changed it is an empty 304 of one query, and what changed costs the same few
queries however long the game. The form keeps its version: sent, it is still refused
as a conflict showing both versions."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Round
from companion.pagecache import page_cache
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille
from tests.web.test_standings import start_president, start_whist

ENGLISH = {"Accept-Language": "en"}


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> tuple[Any, Any, Any, int, FlaskClient]:
    """Ann and Bob at a crapouille; this client is phone A, a second one (« Téléphone
    de Bob ») joined the group with the passphrase."""
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    other = app.test_client()
    r = other.post("/join", data={"code": group.code, "passphrase": "trou du cul", "device_name": "Téléphone de Bob"})
    assert r.status_code == 302, html(r)
    return group, ann, bob, game_id, other


def _version(game_id: int) -> int:
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return game.version


def _hand(number: int, version: int, winner: Any, other: Any, total: int) -> dict[str, str]:
    return {"round": str(number), "version": str(version), "winner": str(winner.id), f"total_{other.id}": str(total)}


def _save(phone: FlaskClient, group: Any, game_id: int, number: int, winner: Any, other: Any, total: int) -> None:
    """Hand ``number`` saved from ``phone`` on the game as it stands."""
    r = phone.post(_url(group, game_id, "/rounds/new"), data=_hand(number, _version(game_id), winner, other, total))
    assert r.status_code == 302, html(r)


def _rounds(game_id: int) -> list[Round]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(Round).where(Round.game_id == game_id).order_by(Round.number)))


def _url(group: Any, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}{tail}"


def _watched_at(page: str, group: Any, game_id: int) -> int:
    """The version a form page is watched at (its <body>), which is also the version its
    hidden field carries (what it was drawn from)."""
    body = re.search(r"<body[^>]*>", page)
    assert body, page
    found = re.search(
        rf'data-watch-url="{re.escape(_url(group, game_id, "/changes"))}\?since=(\d+)" data-watch-token="g(\d+)"',
        body.group(0),
    )
    assert found and found.group(1) == found.group(2), body.group(0)
    assert 'data-watch-form="1"' in body.group(0)
    assert "/static/watch.js" in page
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version and version.group(1) == found.group(1)
    return int(found.group(1))


def _poll(client: FlaskClient, group: Any, game_id: int, since: int, **headers: str) -> Any:
    return client.get(
        _url(group, game_id, f"/changes?since={since}"), headers={"If-None-Match": f'"g{since}"', **headers}
    )


# ------------------------------------------------------------------ watched pages


def test_the_round_form_is_watched_at_the_version_it_was_drawn_from_kept_or_not(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    url = _url(group, game_id, "/rounds/new")
    page_cache().clear()
    fresh = html(client.get(url))
    kept = html(client.get(url))  # written out from the page cache
    assert len(page_cache()) == 1
    assert _watched_at(fresh, group, game_id) == _watched_at(kept, group, game_id) == _version(game_id)
    # Another phone saves a hand: the next form (kept again) is watched at the new version.
    assert other.post(url, data=_hand(1, _version(game_id), bob, ann, 40)).status_code == 302
    html(client.get(url))
    again = html(client.get(url))
    assert _watched_at(again, group, game_id) == _version(game_id) > _watched_at(kept, group, game_id)
    assert ">Donne 2<" in again


def test_the_correction_form_is_watched_at_its_version(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, _other = table
    _save(client, group, game_id, 1, ann, bob, 12)
    page = html(client.get(_url(group, game_id, "/rounds/1/edit")))
    assert _watched_at(page, group, game_id) == _version(game_id)


def test_every_kind_of_round_form_is_watched(client: FlaskClient) -> None:
    group = create_group(client)
    four = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    games = {
        "Président": start_president(client, group, "president", four, 30),
        "Piketty (the card draw)": start_president(client, group, "piketty", four, 30),
        "whist": start_whist(client, group, four),
    }
    for kind, game_id in games.items():
        url = _url(group, game_id, "/rounds/new")
        page_cache().clear()
        assert _watched_at(html(client.get(url)), group, game_id) == _version(game_id), kind
        assert _watched_at(html(client.get(url)), group, game_id) == _version(game_id), kind  # kept
    # Whist's second step (the tricks, on the correction form's address) too.
    whist = games["whist"]
    bids = {"round": "1", "version": str(_version(whist))} | {f"bid_{p.id}": "1" for p in four}
    assert client.post(_url(group, whist, "/rounds/new"), data=bids).status_code == 302
    assert _watched_at(html(client.get(_url(group, whist, "/rounds/1/edit"))), group, whist) == _version(whist)


def test_a_form_with_errors_is_watched_at_the_version_it_was_sent_with(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    _save(client, group, game_id, 1, ann, bob, 12)
    shown = _version(game_id)
    assert other.post(_url(group, game_id, "/rounds/1/edit"), data=_hand(1, shown, ann, bob, 20)).status_code == 302
    # Hand 2 sent without a winner, on the version it was shown at: the form comes back
    # with the error, still on that version, so the notice tells at once what changed.
    r = client.post(_url(group, game_id, "/rounds/new"), data={"round": "2", "version": str(shown)})
    page = html(r)
    assert r.status_code == 200 and _watched_at(page, group, game_id) == shown


def test_the_conflict_page_is_watched_at_the_game_it_now_shows(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    shown = _version(game_id)
    assert other.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, bob, ann, 40)).status_code == 302
    r = client.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, ann, bob, 12))
    assert r.status_code == 409
    assert _watched_at(html(r), group, game_id) == _version(game_id)


# -------------------------------------------------------------- what the poll says


def test_the_watch_answer_says_what_changed_since_the_form_was_shown(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    shown = _version(game_id)
    form = html(client.get(_url(group, game_id, "/rounds/new")))
    assert _watched_at(form, group, game_id) == shown

    # Nothing changed: an empty 304, and the same token said again without a notice.
    r = _poll(client, group, game_id, shown)
    assert r.status_code == 304 and r.get_data() == b""
    r = client.get(_url(group, game_id, f"/changes?since={shown}"))
    assert r.status_code == 200 and r.json == {"token": f"g{shown}"}

    # Bob's phone saves hand 1 (seed 001's table, any hand): A's poll says so.
    assert other.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, bob, ann, 40)).status_code == 302
    r = _poll(client, group, game_id, shown)
    assert r.status_code == 200 and r.json is not None
    assert r.json["token"] == f"g{_version(game_id)}" and r.headers["ETag"] == f'"g{_version(game_id)}"'
    notice = unescape(r.json["notice"])
    assert "La partie a changé sur un autre appareil." in notice
    assert "Donne 1 saisie" in notice and "Téléphone de Bob" in notice
    assert "Ann\u00a0: 0 → 40" in notice  # the hand's summary, as on the conflict page
    assert "Ce que vous avez saisi est gardé" in notice
    assert f'href="{_url(group, game_id)}"' in notice and "Retour à la partie" in notice
    assert "<script" not in notice and "<input" not in notice  # a notice, not a form

    # In English, the same in English.
    r = _poll(client, group, game_id, shown, **ENGLISH)
    notice = unescape(r.json["notice"])
    assert "The game changed on another device." in notice and "Hand 1 entered" in notice
    assert "Téléphone de Bob" in notice and "What you typed is kept" in notice

    # Once the poll knows the new token: 304 again.
    assert _poll(client, group, game_id, shown, **{"If-None-Match": f'"g{_version(game_id)}"'}).status_code == 304

    # The form A shows still carries the version it was shown at: sent, it is refused as
    # a conflict, both versions shown, nothing written.
    r = client.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, ann, bob, 12))
    assert r.status_code == 409 and "Enregistré entre-temps sur un autre appareil" in html(r)
    assert [rnd.entry["winner"] for rnd in _rounds(game_id)] == [str(bob.id)]


def test_every_change_since_is_said_corrections_deletions_and_the_end(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    base = _url(group, game_id)
    assert client.post(f"{base}/rounds/new", data=_hand(1, _version(game_id), ann, bob, 12)).status_code == 302
    assert client.post(f"{base}/rounds/new", data=_hand(2, _version(game_id), ann, bob, 30)).status_code == 302
    shown = _watched_at(html(client.get(f"{base}/rounds/1/edit")), group, game_id)

    assert other.post(f"{base}/rounds/1/edit", data=_hand(1, shown, ann, bob, 20)).status_code == 302
    notice = unescape(_poll(client, group, game_id, shown).json["notice"])
    assert "Donne 1 corrigée" in notice and "Téléphone de Bob" in notice

    version = _version(game_id)
    r = other.post(f"{base}/rounds/2/delete", data={"version": str(version), "confirmed": "1"})
    assert r.status_code == 302
    assert other.post(f"{base}/finish", data={"version": str(_version(game_id)), "confirmed": "1"}).status_code == 302
    notice = unescape(_poll(client, group, game_id, shown).json["notice"])
    said = [line for line in ("Donne 1 corrigée", "Donne 2 supprimée", "Partie terminée") if line in notice]
    assert said == ["Donne 1 corrigée", "Donne 2 supprimée", "Partie terminée"], notice
    assert notice.index("Donne 1 corrigée") < notice.index("Donne 2 supprimée") < notice.index("Partie terminée")
    # The game is closed: nothing can be saved, so the notice does not promise both versions.
    assert "Ce que vous avez saisi est gardé" not in notice


def test_a_device_name_in_the_notice_is_text_not_markup(app: Flask, client: FlaskClient, table) -> None:
    group, ann, bob, game_id, _other = table
    rogue = app.test_client()
    name = '<img src=x onerror="alert(1)">'
    r = rogue.post("/join", data={"code": group.code, "passphrase": "trou du cul", "device_name": name})
    assert r.status_code == 302, html(r)
    shown = _version(game_id)
    assert rogue.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, bob, ann, 4)).status_code == 302
    notice = _poll(client, group, game_id, shown).json["notice"]
    assert "<img" not in notice and "&lt;img" in notice


def test_a_poll_without_since_is_the_game_page_poll(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    shown = _version(game_id)
    assert other.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, bob, ann, 40)).status_code == 302
    r = client.get(_url(group, game_id, "/watch"), headers={"If-None-Match": f'"g{shown}"'})
    assert r.json == {"token": f"g{_version(game_id)}"}
    for junk in ("abc", "-1", "99999999999"):  # a malformed version: no notice, no error
        r = client.get(_url(group, game_id, f"/changes?since={junk}"))
        assert r.status_code == 200 and r.json == {"token": f"g{_version(game_id)}"}


def test_a_device_out_of_the_group_learns_nothing_of_the_changes(app: Flask, client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    shown = _version(game_id)
    assert other.post(_url(group, game_id, "/rounds/new"), data=_hand(1, shown, bob, ann, 40)).status_code == 302
    stranger = app.test_client()
    r = stranger.get(_url(group, game_id, f"/changes?since={shown}"))
    assert r.status_code == 302 and "/join" in r.headers["Location"]
    assert "Donne" not in r.get_data(as_text=True)


# ------------------------------------------------------------------------ the cost


def _reads(statements: list[str]) -> int:
    return sum(not s.lstrip().upper().startswith("BEGIN") for s in statements)  # SQLite's BEGIN left out


def test_a_form_poll_costs_the_same_queries_however_long_the_game(client: FlaskClient, table) -> None:
    group, ann, bob, game_id, other = table
    new, watch = _url(group, game_id, "/rounds/new"), _url(group, game_id, "/changes")

    def counted() -> tuple[int, int]:
        shown = _version(game_id)
        asked = {"If-None-Match": f'"g{shown}"'}
        with count_queries() as unchanged:
            assert client.get(f"{watch}?since={shown}", headers=asked).status_code == 304
        number = len(_rounds(game_id)) + 1
        assert other.post(new, data=_hand(number, shown, bob, ann, 3)).status_code == 302
        with count_queries() as moved:
            r = client.get(f"{watch}?since={shown}", headers=asked)
        assert r.status_code == 200 and f"Donne {number} saisie" in unescape(r.json["notice"])
        return _reads(unchanged), _reads(moved)

    few = counted()  # unchanged, then moved on (what changed since, and the rounds it names)
    for number in range(2, 14):
        assert client.post(new, data=_hand(number, _version(game_id), ann, bob, 1)).status_code == 302
    assert counted() == few
