"""The promise of ``companion/games/kinds`` (issue 25): adding a kind changes no other
kind and no route.

A fifth kind, « Carte haute » (``tests/web/fifth_kind.py``: its engine, its kind, its
season part, its live follow and its templates), is registered for these tests only
and played through the shared routes (new game, rounds, a correction, a deletion, the
end), the standings (season page, player page), the export and the import, and the
live screen — with no change outside the tests.  Every check looks for the kind's own
words and figures, so a shared page that drew another kind's would fail it.

Nothing shared keeps a copy of the kinds made at import: the judge, the quick check
and the rules pages read :data:`~companion.games.kinds.KINDS` when asked, so a kind
registered later is known everywhere.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.games.kinds import KINDS
from companion.models import Game, GameStatus, Group, LiveManche, Player, Round, Season
from companion.referee import live
from tests.helpers import add_players, create_group, html, unsigned
from tests.web import fifth_kind
from tests.web.fifth_kind import KIND_ID, HighCard, HighCardRulesPages
from tests.web.test_transfer import normalised, upload


@pytest.fixture
def high_card(app: Flask, monkeypatch: pytest.MonkeyPatch) -> HighCard:
    """The fifth kind, registered for this test only (undone after it), its templates
    served on this test's app."""
    kind = HighCard()
    monkeypatch.setitem(KINDS, KIND_ID, kind)
    fifth_kind.install(app)
    return kind


# ------------------------------------------------------------------ playing it


def _table(client: FlaskClient) -> tuple[Group, list[Player]]:
    group = create_group(client)
    return group, add_players(client, group, "Ann", "Bob", "Cid")


def _start(client: FlaskClient, group: Group, players: list[Player]) -> int:
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    r = client.post(f"/g/{group.code}/games/new/{KIND_ID}", data=data)
    assert r.status_code == 302, html(r)
    match = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert match
    return int(match.group(1))


def _game_url(group: Group, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}{tail}"


def _show(client: FlaskClient, group: Group, game_id: int, number: int, cards: dict[Player, str], edit: bool = False):
    data = {"round": str(number)} | {f"card_{p.id}": c for p, c in cards.items()}
    where = f"/rounds/{number}/edit" if edit else "/rounds/new"
    return client.post(_game_url(group, game_id, where), data=data)


def _version(game_id: int) -> str:
    db.session.expire_all()
    return str(db.session.get(Game, game_id).version)


def _rounds(game_id: int) -> list[Round]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number)))


def _points(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-hc-player="(\w+)">\w+ <span data-hc-points>(\d+)<', page))


def _finished_game(client: FlaskClient) -> tuple[Group, list[Player], int]:
    """A game Ann wins 3 to 1 (a tie in between)."""
    group, (ann, bob, cid) = _table(client)
    game_id = _start(client, group, [ann, bob, cid])
    plays = [
        {ann: "Ah", bob: "Kh", cid: "2c"},
        {ann: "Kd", bob: "Ks", cid: "3c"},  # a tie at the top: nobody
        {ann: "3d", bob: "Qs", cid: "4c"},
        {ann: "10d", bob: "9s", cid: "5c"},
        {ann: "Jd", bob: "8s", cid: "6c"},
    ]
    for number, cards in enumerate(plays, start=1):
        r = _show(client, group, game_id, number, cards)
        assert r.status_code == 302, html(r)
    return group, [ann, bob, cid], game_id


# ------------------------------------------------------------------ the shared routes


def test_the_new_game_page_offers_the_fifth_kind_and_starts_it(client: FlaskClient, high_card: HighCard) -> None:
    group, (ann, bob, cid) = _table(client)
    choose = html(client.get(f"/g/{group.code}/games/new"))
    assert "Carte haute" in choose and high_card.blurb in choose
    assert f"/g/{group.code}/games/new/{KIND_ID}" in choose

    url = f"/g/{group.code}/games/new/{KIND_ID}"
    page = html(client.get(url))
    assert "Nouvelle partie de carte haute" in page and "data-hc-new" in page
    r = client.post(url, data={"seats-0": str(ann.id)})
    assert r.status_code == 200 and "La carte haute se joue de 2 à 6." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == 0

    game_id = _start(client, group, [bob, cid, ann])
    game = db.session.get(Game, game_id)
    assert game.kind == KIND_ID and game.rules == {} and game.setup == {}
    assert [p.name for p in game.players] == ["Bob", "Cid", "Ann"]
    page = html(client.get(_game_url(group, game_id)))
    assert "Plis de carte haute (premier à 3)" in page
    assert _points(page) == {"Bob": "0", "Cid": "0", "Ann": "0"}
    assert _game_url(group, game_id, "/rounds/new") in page
    assert "Pas encore de manche." in page  # the kind's round_word, « manche »


def test_rounds_are_entered_corrected_deleted_and_end_the_game(client: FlaskClient, high_card: HighCard) -> None:
    group, (ann, bob, cid) = _table(client)
    game_id = _start(client, group, [ann, bob, cid])

    form = html(client.get(_game_url(group, game_id, "/rounds/new")))
    assert "de carte haute" in form and "data-hc-round-form" in form
    assert all(f"Carte de {p.name}" in form for p in (ann, bob, cid))
    kept = html(client.get(_game_url(group, game_id, "/rounds/new")))
    assert kept[kept.index("<h1>") : kept.index("</form>")] == form[form.index("<h1>") : form.index("</form>")]
    # The kind's own refusals, by the field.
    r = _show(client, group, game_id, 1, {ann: "Ah", bob: "Ah", cid: "2c"})
    assert r.status_code == 200 and "Cette carte est déjà montrée." in html(r)
    r = _show(client, group, game_id, 1, {ann: "Ah", bob: "", cid: "2c"})
    assert r.status_code == 200 and "Une carte pour Bob." in html(r)
    assert _rounds(game_id) == []

    # Round 1: Ann's ace takes it; round 2: two kings, nobody.
    assert _show(client, group, game_id, 1, {ann: "Ah", bob: "Kh", cid: "2c"}).status_code == 302
    assert _show(client, group, game_id, 2, {ann: "Kd", bob: "Ks", cid: "3c"}).status_code == 302
    rounds = _rounds(game_id)
    assert rounds[0].entry == {"cards": {str(ann.id): "Ah", str(bob.id): "Kh", str(cid.id): "2c"}}
    assert rounds[0].result["taker"] == str(ann.id) and rounds[1].result["taker"] is None
    page = html(client.get(_game_url(group, game_id)))
    assert _points(page) == {"Ann": "1", "Bob": "0", "Cid": "0"}
    assert "levée : personne" in page and "Ann Ah, Bob Kh, Cid 2c" in page
    assert unsigned(page) == unsigned(html(client.get(_game_url(group, game_id))))  # the kept page says the same

    # Correcting round 1 (Bob had the ace) rescores it and round 2.
    edit = html(client.get(_game_url(group, game_id, "/rounds/1/edit")))
    assert f'name="card_{ann.id}" type="text" value="Ah"' in edit
    r = _show(client, group, game_id, 1, {ann: "Kh", bob: "Ah", cid: "2c"}, edit=True)
    assert r.status_code == 302, html(r)
    rounds = _rounds(game_id)
    assert rounds[0].result["points"] == {str(ann.id): 0, str(bob.id): 1, str(cid.id): 0}
    assert rounds[1].result["points"] == {str(ann.id): 0, str(bob.id): 1, str(cid.id): 0}
    assert "0 → 1 plis de carte haute" in html(client.get(_game_url(group, game_id)))  # its summary, in the history

    # Deleting the last round: asked once, then gone.
    r = client.post(_game_url(group, game_id, "/rounds/2/delete"), data={"version": _version(game_id)})
    assert r.status_code == 200 and high_card.the_round(2) in html(r)
    assert len(_rounds(game_id)) == 2
    r = client.post(
        _game_url(group, game_id, "/rounds/2/delete"), data={"version": _version(game_id), "confirmed": "1"}
    )
    assert r.status_code == 302 and len(_rounds(game_id)) == 1

    # Bob to 3: the kind says the game is over, and who won.
    for number, cards in enumerate([{ann: "2d", bob: "As", cid: "3c"}, {ann: "4d", bob: "Qs", cid: "3h"}], start=2):
        assert _show(client, group, game_id, number, cards).status_code == 302
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending["winners"] == [str(bob.id)]
    page = html(client.get(_game_url(group, game_id)))
    assert "Vainqueur de la carte haute : Bob" in page and _points(page)["Bob"] == "3"
    r = _show(client, group, game_id, 4, {ann: "5d", bob: "6s", cid: "7c"})
    assert r.status_code == 302 and len(_rounds(game_id)) == 3


def test_finishing_early_names_the_kinds_leaders(client: FlaskClient, high_card: HighCard) -> None:
    group, (ann, bob, cid) = _table(client)
    game_id = _start(client, group, [ann, bob, cid])
    assert _show(client, group, game_id, 1, {ann: "2h", bob: "Kh", cid: "2c"}).status_code == 302
    r = client.post(_game_url(group, game_id, "/finish"), data={"version": _version(game_id), "confirmed": "1"})
    assert r.status_code == 302
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending == {"winners": [str(bob.id)], "early": True}


def test_every_link_of_the_game_page_answers(client: FlaskClient, high_card: HighCard) -> None:
    group, players = _table(client)
    game_id = _start(client, group, players)
    page = html(client.get(_game_url(group, game_id)))
    links = set(re.findall(r'href="(/g/[^"#?]+)', page))
    assert links
    for link in sorted(links):
        assert client.get(link).status_code in (200, 302), link


def test_the_house_rules_page_asks_the_kind(client: FlaskClient, high_card: HighCard) -> None:
    """The rules-pages part is optional: without it the page is a 404; with it, its words."""
    group, players = _table(client)
    game_id = _start(client, group, players)
    assert client.get(_game_url(group, game_id, "/rules")).status_code == 404
    high_card.rules_pages = HighCardRulesPages()
    page = html(client.get(_game_url(group, game_id, "/rules")))
    assert "Carte haute" in page and "Le premier à 3 levées de carte haute gagne." in page


def test_the_rules_page_of_the_fifth_kind(client: FlaskClient, high_card: HighCard) -> None:
    high_card.rules_pages = HighCardRulesPages()
    group, players = _table(client)
    game_id = _start(client, group, players)
    assert f"/rules/{KIND_ID}" in html(client.get(_game_url(group, game_id, "/rules")))
    page = html(client.get(f"/rules/{KIND_ID}"))
    assert "data-hc-rules" in page


# ------------------------------------------------------------------ standings


def _season_url(group: Group) -> str:
    db.session.expire_all()
    season = db.session.scalar(sa.select(Season).where(Season.group_id == group.id))
    return f"/g/{group.code}/seasons/{season.id}"


def test_the_season_and_player_pages_count_the_fifth_kind(client: FlaskClient, high_card: HighCard) -> None:
    group, (ann, _bob, cid), game_id = _finished_game(client)
    page = html(client.get(_season_url(group)))
    board = page[page.index(f'id="kind-{KIND_ID}"') :]
    assert board.startswith(f'id="kind-{KIND_ID}">Carte haute</h2>')
    assert "Classement carte haute : parties gagnées, puis plis de carte haute." in board
    # Ranked by the kind's own key: Ann (won) first, then Bob (1 point), then Cid (0).
    body = board[: board.index("</table>")]
    assert body.index("</span> Ann<") < body.index("</span> Bob<") < body.index("</span> Cid<")
    assert _game_url(group, game_id) in page and "Carte haute" in page
    # The evening recap (linked from the game page) lists it with its winner.
    game_page = html(client.get(_game_url(group, game_id)))
    evening = re.search(r'href="(/g/[^"]+/evenings/[^"]+)"', game_page)
    assert evening
    recap = html(client.get(evening.group(1)))
    assert "Carte haute" in recap and "Ann" in recap

    season = _season_url(group).rsplit("/", 1)[1]
    player = html(client.get(f"/g/{group.code}/players/{ann.id}/stats?season={season}"))
    row = re.search(rf'<tr data-kind="{KIND_ID}"><th scope="row">(.*?)</th><td>(\d+)</td><td>(\d+)</td></tr>', player)
    assert row and row.groups() == ("Carte haute", "1", "1")
    other = html(client.get(f"/g/{group.code}/players/{cid.id}/stats?season={season}"))
    row = re.search(rf'<tr data-kind="{KIND_ID}"><th scope="row">(.*?)</th><td>(\d+)</td><td>(\d+)</td></tr>', other)
    assert row and row.groups() == ("Carte haute", "1", "0")


def test_the_season_board_shows_the_kinds_own_columns(client: FlaskClient, high_card: HighCard) -> None:
    group, _players, _game_id = _finished_game(client)
    page = html(client.get(_season_url(group)))
    board = page[page.index(f'id="kind-{KIND_ID}"') :]
    board = board[: board.index("</table>")]
    assert "300" not in board  # crapouille's column
    # Ann's line shows her 3 points won (the kind's figure, stored as ``points``).
    assert re.search(r"</span> Ann<.*?<td>3</td>", board, re.S)


# ------------------------------------------------------------------ export and import


def test_export_and_import_bring_the_fifth_kind_back_rescored(
    app: Flask, client: FlaskClient, high_card: HighCard
) -> None:
    group, (ann, _bob, cid), _game_id = _finished_game(client)
    # One more game, in progress, with a corrected round.
    other = _start(client, group, [cid, ann])
    assert _show(client, group, other, 1, {cid: "9h", ann: "8h"}).status_code == 302
    assert _show(client, group, other, 1, {cid: "7h", ann: "8h"}, edit=True).status_code == 302

    exported = client.get(f"/g/{group.code}/export.json")
    assert exported.status_code == 200
    document = json.loads(exported.get_data())
    games = [g for g in document["games"] if g["kind"] == KIND_ID]
    assert len(games) == 2 and games[0]["rounds"][0]["entry"]["cards"][str(ann.id)] == "Ah"

    csv = client.get(f"/g/{group.code}/export.csv").get_data(as_text=True)
    assert re.search(r";Carte haute;[^;]*;1;Ann;1;1;1;", csv)  # the kind's round figure and total (csv_figures)

    r = upload(client, exported.get_data(), name=document["group"]["name"])
    assert r.status_code == 302, html(r)[-3000:]
    code = r.headers["Location"].rsplit("/", 1)[1]
    again = json.loads(client.get(f"/g/{code}/export.json").get_data())
    assert normalised(again) == normalised(document)
    copy = db.session.scalar(sa.select(Group).where(Group.code == code))
    copied = db.session.scalars(
        sa.select(Game).join(Season).where(Season.group_id == copy.id, Game.kind == KIND_ID).order_by(Game.id)
    ).all()
    assert [g.status for g in copied] == [GameStatus.FINISHED, GameStatus.IN_PROGRESS]
    names = {str(p.id): p.name for p in copy.players}
    assert [names[w] for w in copied[0].ending["winners"]] == ["Ann"]
    page = html(client.get(f"/g/{code}/games/{copied[0].id}"))
    assert "Vainqueur de la carte haute : Ann" in page and _points(page) == {"Ann": "3", "Bob": "1", "Cid": "0"}

    # The import rescored each round with the kind's engine: a result it would not give is refused.
    tampered = json.loads(exported.get_data())
    target = next(g for g in tampered["games"] if g["kind"] == KIND_ID)
    target["rounds"][0]["result"]["points"][str(ann.id)] = 2
    r = upload(client, json.dumps(tampered).encode(), name="Les Faussaires")
    assert r.status_code == 400
    assert db.session.scalar(sa.select(Group).where(Group.name == "Les Faussaires")) is None


# ------------------------------------------------------------------ the rules API


def test_the_rules_api_judges_the_fifth_kind(client: FlaskClient, high_card: HighCard) -> None:
    body = {"game": KIND_ID, "state": {"players": ["Ann", "Bob"], "laid": {"Ann": "Qs"}}, "move": {"card": "Qs"}}
    r = client.post("/api/v1/check", json=body)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert r.get_json()["legal"] is False and r.get_json()["reason"] == "Cette carte est déjà montrée."


# ------------------------------------------------------------------ the live screen


def _live(group: Group, game_id: int, tail: str = "") -> str:
    return _game_url(group, game_id, f"/live{tail}")


def _live_version(client: FlaskClient, group: Group, game_id: int) -> str:
    page = html(client.get(_live(group, game_id)))
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match, page
    return match.group(1)


def _lay(client: FlaskClient, group: Group, game_id: int, card: str):
    data = {"version": _live_version(client, group, game_id), "cards": card}
    return client.post(_live(group, game_id, "/move"), data=data)


def _laid(client: FlaskClient, group: Group, game_id: int, card: str) -> None:
    r = _lay(client, group, game_id, card)
    refused = (
        re.findall(r'<p class="error" role="alert">(.*?)</p>|<li>(.*?)</li>', html(r)) if r.status_code != 303 else []
    )
    assert r.status_code == 303, refused


def _play_live(client: FlaskClient, group: Group, players: list[Player], game_id: int, words: bool) -> None:
    """Start a manche on the live screen, lay a card each (one refused by the kind's
    engine), finish it, and save the round it fills in. ``words``: also check that the
    start and end of the manche are said in the kind's own words."""
    ann, bob, cid = players
    start = html(client.get(_live(group, game_id)))
    assert "Carte haute" in start
    if words:
        assert "Starting card" not in start and "Carte de départ" not in start  # crapouille's start form
    r = client.post(_live(group, game_id, "/start"), data={"version": _live_version(client, group, game_id)})
    assert r.status_code == 303, html(r)
    page = html(client.get(_live(group, game_id)))
    assert "Ann montre sa carte haute." in page

    _laid(client, group, game_id, "Qs")
    refused = _lay(client, group, game_id, "Qs")  # the same card again: the kind's engine says no
    assert "Cette carte est déjà montrée." in html(refused)
    _laid(client, group, game_id, "Ah")
    _laid(client, group, game_id, "10c")
    db.session.expire_all()
    row = db.session.get(LiveManche, game_id)
    assert row.view["finished"] and row.view["taker"] == str(bob.id)
    assert row.entry == {"cards": {str(ann.id): "Qs", str(bob.id): "Ah", str(cid.id): "10c"}}
    end = html(client.get(_live(group, game_id)))
    assert "Levée de carte haute : Bob" in end
    assert _game_url(group, game_id, "/rounds/new") in end
    if words:
        assert "went out" not in end and "n’a plus de cartes" not in end  # crapouille's end box
        assert "Bob" in end[end.index('id="end"') :]  # the end box names who took the round

    form = html(client.get(_game_url(group, game_id, "/rounds/new")))
    assert f'name="card_{bob.id}" type="text" value="Ah"' in form
    r = _show(client, group, game_id, 1, {ann: "Qs", bob: "Ah", cid: "10c"})
    assert r.status_code == 302, html(r)
    assert _rounds(game_id)[0].result["points"][str(bob.id)] == 1


def test_the_live_screen_follows_the_fifth_kind(client: FlaskClient, high_card: HighCard) -> None:
    group, players = _table(client)
    game_id = _start(client, group, players)
    _play_live(client, group, players, game_id, words=False)


def test_the_live_screen_speaks_the_fifth_kinds_words(client: FlaskClient, high_card: HighCard) -> None:
    group, players = _table(client)
    game_id = _start(client, group, players)
    _play_live(client, group, players, game_id, words=True)


def test_the_live_judge_is_asked_with_names(
    client: FlaskClient, high_card: HighCard, monkeypatch: pytest.MonkeyPatch
) -> None:
    group, players = _table(client)
    game_id = _start(client, group, players)
    bodies: list[dict[str, Any]] = []
    judge = live.judge

    def recording(body: dict[str, Any], lang: str = "fr") -> dict[str, Any]:
        bodies.append(body)
        return judge(body, lang)

    monkeypatch.setattr(live, "judge", recording)
    client.post(_live(group, game_id, "/start"), data={"version": _live_version(client, group, game_id)})
    _laid(client, group, game_id, "Qs")
    _laid(client, group, game_id, "Ah")
    assert bodies[-1]["state"]["players"] == ["Ann", "Bob", "Cid"]
    assert bodies[-1]["state"]["laid"] == {"Ann": "Qs"}
