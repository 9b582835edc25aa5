"""A player's page and an evening's recap (issue 12), on a small history played through
the real pages over three game nights, every figure computed by hand; both read stored
results only, in a constant number of queries.

The history (Ann, Bob, Cid; « X>Y »: a crapouille duel X wins, Y going past 300 at hand 1
— seed 003), in the order played:

- night A (three days ago): C1 Ann>Bob, C2 Bob>Ann, C3 Ann>Cid, C3b Cid>Ann;
- night B (two days ago): P1, a Président game (seed 000: 3 players score 2/1/0; target
  6; putsch and revolution-swaps-titles on):
  manche 1 out [Ann, Bob] (Cid last): totals A2 B1 C0, Président Ann, Trou du cul Cid;
  manche 2 Cid calls a putsch and goes out first, then Ann: it succeeds, Cid scores 3
  (n), Ann 1: A3 B1 C3, Président Cid, Trou du cul Bob;
  manche 3 a revolution: the titles are reversed, no points: Président Bob, Trou du cul Cid;
  manche 4 out [Ann, Bob]: A5 B2 C3, Président Ann, Trou du cul Cid;
  manche 5 out [Ann, Bob]: A7 B3 C3, the game is over: Ann 1st, Bob and Cid 2nd together.
  Then C4 Ann>Bob, C4b Ann>Cid, C5 Bob>Ann;
- night C (today): C6 Ann>Cid, C7 Ann>Bob; a crapouille Ann–Bob in progress, an
  abandoned one Bob–Cid (neither counts).

Ann: crapouille 9 played, 6 won; Président 1 played, 1 won; Président 3 times (manches
1, 4, 5), Trou du cul never. Results W L W L | W W W L | W W: longest streak 3, now 2
won in a row. Evenings (games won, then average place): A 2 won, places 1 2 1 2 (1.5);
B 3 won, 1 1 1 2 (1.25); C 2 won, 1 1 (1): the best is B, the worst A.
Head-to-head of Ann: Bob 6 games (C1 C2 P1 C4 C5 C7), Ann ahead 4, behind 2; Cid 5
games (C3 C3b P1 C4b C6), ahead 4, behind 1: no nemesis. Bob's nemesis is Ann (ahead
of Bob 4 times out of 6); Bob and Cid: P1 only, level. Bob: L W | L L W | L: longest 1,
now 1 game without a win. Cid: Président 1 time (manche 2), Trou du cul 4 times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import sqlalchemy as sa
from flask import render_template_string

from companion.extensions import db
from companion.games.rating import display
from companion.models import Game, GameResult, GameStatus, Group, Player, PlayerRating
from tests.helpers import add_players, create_group, html, move_back, start_crapouille
from tests.web.test_standings import EN, crapouille_duel, deal, hand, post, start_whist


def _game_id(response) -> int:
    assert response.status_code == 302, html(response)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match
    return int(match.group(1))


def _manche(client, group, game_id, number, finish=(), event=""):
    data = {"round": str(number), "event": event} | {f"finish-{i}": str(p.id) for i, p in enumerate(finish)}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def _president(client, group, players):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    data |= {"target": "6", "titles": "classic", "rule_points": "y"}
    data |= {"rule_putsch": "y", "rule_revolution": "y", "rule_revolution_swaps_titles": "y"}
    return _game_id(client.post(f"/g/{group.code}/games/new/president", data=data))


@dataclass
class History:
    group: object
    ann: Player
    bob: Player
    cid: Player
    games: dict[str, int]
    nights: dict[str, date]

    def player_url(self, player: Player, **args: object) -> str:
        query = "&".join(f"{k}={v}" for k, v in args.items())
        return f"/g/{self.group.code}/players/{player.id}/stats" + (f"?{query}" if query else "")

    def evening_url(self, night: str) -> str:
        return f"/g/{self.group.code}/evenings/{self.nights[night].isoformat()}"


def history(client) -> History:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    games: dict[str, int] = {}
    # Night A, three days ago.
    games["C1"] = crapouille_duel(client, group, ann, bob)
    games["C2"] = crapouille_duel(client, group, bob, ann)
    games["C3"] = crapouille_duel(client, group, ann, cid)
    games["C3b"] = crapouille_duel(client, group, cid, ann)
    move_back([games[k] for k in ("C1", "C2", "C3", "C3b")], 3)
    # Night B, two days ago.
    games["P1"] = p1 = _president(client, group, [ann, bob, cid])
    _manche(client, group, p1, 1, [ann, bob])
    _manche(client, group, p1, 2, [cid, ann], event="putsch")
    _manche(client, group, p1, 3, event="revolution")
    _manche(client, group, p1, 4, [ann, bob])
    _manche(client, group, p1, 5, [ann, bob])
    games["C4"] = crapouille_duel(client, group, ann, bob)
    games["C4b"] = crapouille_duel(client, group, ann, cid)
    games["C5"] = crapouille_duel(client, group, bob, ann)
    move_back([games[k] for k in ("P1", "C4", "C4b", "C5")], 2)
    # Night C, today.
    games["C6"] = crapouille_duel(client, group, ann, cid)
    games["C7"] = crapouille_duel(client, group, ann, bob)
    games["open"] = start_crapouille(client, group, [ann, bob])
    hand(client, group, games["open"], 1, ann, **{str(bob.id): 12})
    games["dropped"] = start_crapouille(client, group, [bob, cid])
    hand(client, group, games["dropped"], 1, bob, **{str(cid.id): 40})
    post(client, group, games["dropped"], "abandon")
    db.session.expire_all()
    for key, game_id in games.items():
        if key not in ("open", "dropped"):
            assert db.session.get(Game, game_id).status is GameStatus.FINISHED, key
    nights = {
        name: db.session.get(GameResult, (games[key], ann.id)).night
        for name, key in (("A", "C1"), ("B", "P1"), ("C", "C6"))
    }
    assert nights["A"] < nights["B"] < nights["C"]
    return History(group, ann, bob, cid, games, nights)


# --------------------------------------------------------------------- reading the page


def _figure(page: str, name: str) -> str:
    match = re.search(rf'data-figure="{name}">\s*(.*?)\s*</', page, re.S)
    assert match, name
    return " ".join(match.group(1).split())


def _kinds(page: str) -> dict[str, tuple[str, str]]:
    rows = re.findall(r'<tr data-kind="([^"]+)"><th scope="row">[^<]*</th><td>(\d+)</td><td>(\d+)</td></tr>', page)
    return {kind: (played, won) for kind, played, won in rows}


def _rivals(page: str) -> dict[str, tuple[int, ...]]:
    out = {}
    for name, games, cells in re.findall(
        r'<tr data-rival="([^"]+)">.*?<span class="cardline muted">(\d+) games?</span></th>(.*?)</tr>', page, re.S
    ):
        out[name] = (int(games), *(int(v) for v in re.findall(r"<td>(\d+)</td>", cells)))
    return out


def _evening(page: str, which: str) -> str:
    match = re.search(rf'data-evening="{which}" href="([^"]+)">(.*?)</a>', page, re.S)
    assert match, which
    return match.group(1) + " " + " ".join(re.sub(r"<[^>]+>", " ", match.group(2)).split())


# ------------------------------------------------------------------------------ figures


def test_every_figure_of_a_player_page_computed_by_hand(client):
    h = history(client)
    # The stored results the page reads are the hand-computed ones.
    p1 = {p.name: db.session.get(GameResult, (h.games["P1"], p.id)) for p in (h.ann, h.bob, h.cid)}
    assert {n: (r.place, r.points, r.times_president, r.times_last) for n, r in p1.items()} == {
        "Ann": (1, 7, 3, 0),
        "Bob": (2, 3, 1, 1),
        "Cid": (2, 3, 1, 4),
    }

    page = html(client.get(h.player_url(h.ann), headers=EN))
    assert "<h1>Ann</h1>" in page
    assert "10 finished games · 7 won · 1 in progress" in " ".join(page.split())
    assert _kinds(page) == {"president": ("1", "1"), "crapouille": ("9", "6")}
    assert _figure(page, "president") == "Président 3 times"
    assert _figure(page, "last") == "Trou du cul 0 times"
    assert _figure(page, "longest") == "3 games won in a row"
    assert _figure(page, "current") == "2 games won in a row"
    b, a = h.nights["B"].isoformat(), h.nights["A"].isoformat()
    best, worst = _evening(page, "best"), _evening(page, "worst")
    assert best.startswith(f"/g/{h.group.code}/evenings/{b} Best evening")
    assert best.endswith("4 games · 3 won · average place 1.25")
    assert worst.startswith(f"/g/{h.group.code}/evenings/{a} Worst evening")
    assert worst.endswith("4 games · 2 won · average place 1.5")
    assert _rivals(page) == {"Bob": (6, 4, 2, 0), "Cid": (5, 4, 1, 0)}
    assert _figure(page, "nemesis") == "No nemesis yet."
    # Rated (15 matches: 10 games, 5 manches): the figure, and its chart over the three nights.
    db.session.expire_all()
    rating = db.session.get(PlayerRating, (h.group.current_season.id, h.ann.id))
    assert rating.matches == 15
    assert _figure(page, "rating") == str(display(rating.ordinal))
    assert 'id="rating-chart"' in page and "Rating over the season" in page
    table = page[page.index('<table class="chart-figures">') : page.index("</table>", page.index("chart-figures"))]
    assert len(re.findall(r'<th scope="row">', table)) == 3
    assert re.search(rf"<td>{display(rating.ordinal)}</td>\s*</tr>\s*</tbody>", table + "</tbody>")

    page = html(client.get(h.player_url(h.bob), headers=EN))
    assert _kinds(page) == {"president": ("1", "0"), "crapouille": ("5", "2")}
    assert (_figure(page, "president"), _figure(page, "last")) == ("Président 1 time", "Trou du cul 1 time")
    assert _figure(page, "longest") == "1 game won in a row"
    assert _figure(page, "current") == "1 game without a win"
    assert _rivals(page) == {"Ann": (6, 2, 4, 0), "Cid": (1, 0, 0, 1)}
    assert _figure(page, "nemesis") == "Nemesis: Ann, ahead 4 times out of 6."

    page = html(client.get(h.player_url(h.cid), headers=EN))
    assert (_figure(page, "president"), _figure(page, "last")) == ("Président 1 time", "Trou du cul 4 times")
    assert _rivals(page) == {"Ann": (5, 1, 4, 0), "Bob": (1, 0, 0, 1)}
    assert _figure(page, "nemesis") == "Nemesis: Ann, ahead 4 times out of 5."

    # French by default (the catalog's sentences are the lead's; the engine's words are French).
    page = html(client.get(h.player_url(h.bob)))
    assert '<html lang="fr">' in page and "Trou du cul" in page


def test_a_nemesis_needs_enough_games_together(client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    url = f"/g/{group.code}/players/{ann.id}/stats"
    page = html(client.get(url, headers=EN))
    assert "No finished game in this season yet." in page and "No finished game against another player yet." in page
    assert "Not rated yet: the rating starts with the first finished game." in page
    for n in (1, 2):
        crapouille_duel(client, group, bob, ann)
        page = html(client.get(url, headers=EN))
        assert _figure(page, "nemesis") == "No nemesis yet.", n
        counted = f"{n} finished games or manches of finished games"
        if n == 1:
            counted = "1 finished game or manche of a finished game"
        assert f"Not rated yet: {counted}, of 5." in page
        assert _figure(page, "current") == f"{n} game{'s' if n > 1 else ''} without a win"
        assert "Worst evening" not in page and "One game night so far." in page
    last = crapouille_duel(client, group, bob, ann)
    page = html(client.get(url, headers=EN))
    assert _figure(page, "nemesis") == "Nemesis: Bob, ahead 3 times out of 3."
    # Two game nights, each lost every game at place 2: no night is worse than the other.
    move_back([last], 1)
    page = html(client.get(url, headers=EN))
    assert "Best evening" in page and "Worst evening" not in page and "Every game night alike so far." in page
    # A win tonight: tonight is the best evening, yesterday the worst.
    crapouille_duel(client, group, ann, bob)
    page = html(client.get(url, headers=EN))
    assert _evening(page, "best").endswith("3 games · 1 won · average place 1.67")
    assert _evening(page, "worst").endswith("1 game · 0 won · average place 2.0")


def test_the_evening_recap(client):
    h = history(client)
    code = h.group.code
    page = html(client.get(h.evening_url("B"), headers=EN))
    games = re.findall(r'data-game="(\d+)">(.*?)</section>', page, re.S)
    assert [int(g) for g, _ in games] == [h.games[k] for k in ("P1", "C4", "C4b", "C5")]
    # (Each game's start time, on the group's clock, is tests/web/test_clock.py's.)
    games = [(g, re.sub(r" · <time [^>]+>[^<]*</time>", "", body)) for g, body in games]
    text = {int(g): " ".join(re.sub(r"<[^>]+>", " ", body).split()) for g, body in games}
    assert text[h.games["P1"]] == (
        "Le Président Ann, Bob, Cid Winner: Ann "
        "Round 2: Putsch succeeded: Cid. Round 3: Revolution: the titles are reversed; no points."
    )
    assert text[h.games["C4"]] == "La crapouille Ann, Bob Winner: Ann Bob goes past 300 at hand 1."
    assert text[h.games["C5"]] == "La crapouille Bob, Ann Winner: Bob Ann goes past 300 at hand 1."
    assert "4 games" in page
    # Links to the evenings before and after, and to each game.
    assert f'rel="prev" href="/g/{code}/evenings/{h.nights["A"].isoformat()}"' in page
    assert f'rel="next" href="/g/{code}/evenings/{h.nights["C"].isoformat()}"' in page
    assert f'href="/g/{code}/games/{h.games["P1"]}"' in page

    page = html(client.get(h.evening_url("C"), headers=EN))
    assert 'rel="prev"' in page and 'rel="next"' not in page
    text = {
        int(g): " ".join(re.sub(r"<[^>]+>", " ", re.sub(r" · <time [^>]+>[^<]*</time>", "", b)).split())
        for g, b in re.findall(r'data-game="(\d+)">(.*?)</section>', page, re.S)
    }
    assert text[h.games["open"]] == "La crapouille Ann, Bob In progress."
    assert text[h.games["dropped"]] == "La crapouille Bob, Cid Game abandoned."
    page = html(client.get(h.evening_url("A"), headers=EN))
    assert 'rel="prev"' not in page and 'rel="next"' in page
    # French by default: dates in French.
    page = html(client.get(h.evening_url("B")))
    assert '<html lang="fr">' in page and str(h.nights["B"].year) in page


def test_a_game_page_can_link_to_its_evening(client, app):
    h = history(client)
    game = db.session.get(Game, h.games["P1"])
    with app.test_request_context():
        day = render_template_string("{{ evening_of(started) }}", started=game.created_at)
    assert day == h.nights["B"].isoformat()
    assert client.get(f"/g/{h.group.code}/evenings/{day}").status_code == 200


def test_whist_stakes_that_run_out_are_a_moment(client):
    # seed 002: Ann takes every trick four deals running; Bob's stake runs out at deal 4.
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game = start_whist(client, group, [ann, bob, cid])
    for number, bid in enumerate((5, 4, 3, 2), start=1):
        deal(client, group, game, number, {bob: bid, cid: 0, ann: 1}, {bob: 0, cid: 0, ann: 6 - number})
    db.session.expire_all()
    night = db.session.get(GameResult, (game, ann.id)).night
    page = html(client.get(f"/g/{group.code}/evenings/{night.isoformat()}", headers=EN))
    assert "The stake of Bob runs out at hand 4." in page and "Winner: Cid" in page


# ------------------------------------------------------------------- access and errors


def test_not_found_and_access(client, app):
    h = history(client)
    code = h.group.code
    other = create_group(client, name="Autres")
    (zoe,) = add_players(client, other, "Zoé")
    # A player of another group, an unknown player, a season of another group.
    assert client.get(f"/g/{code}/players/{zoe.id}/stats").status_code == 404
    assert client.get(f"/g/{code}/players/999999/stats").status_code == 404
    other_season = other.current_season.id
    for season in (str(other_season), "abc", "0", "99999999999999999999"):
        assert client.get(h.player_url(h.ann, season=season)).status_code == 404, season
    assert client.get(h.player_url(h.ann, season=h.group.current_season.id)).status_code == 200
    # Evenings: a day without games, impossible dates, another group's evening.
    for day in ("2001-01-01", "2026-02-30", "2026-13-01", "today", "2026-1-1", "20260101"):
        assert client.get(f"/g/{code}/evenings/{day}").status_code == 404, day
    crapouille_duel(client, other, zoe, *add_players(client, other, "Yves"))
    assert client.get(f"/g/{other.code}/evenings/{h.nights['C'].isoformat()}").status_code == 200
    page = html(client.get(f"/g/{other.code}/evenings/{h.nights['C'].isoformat()}", headers=EN))
    assert "Ann" not in page and "Zoé" in page
    assert client.get(f"/g/{other.code}/evenings/{h.nights['A'].isoformat()}").status_code == 404
    # A device that did not join the group is sent to the join page, learning nothing.
    stranger = app.test_client()
    for url in (h.player_url(h.ann), h.evening_url("B")):
        r = stranger.get(url)
        assert r.status_code == 302 and "/join" in r.headers["Location"] and "Ann" not in html(r)


def test_a_past_season_stays_browsable(client):
    h = history(client)
    old = h.group.current_season.id
    r = client.post(f"/g/{h.group.code}/seasons", data={"name": "Printemps", "starts_on": date.today().isoformat()})
    assert r.status_code == 302, html(r)
    page = html(client.get(h.player_url(h.ann), headers=EN))
    assert "No finished game in this season yet." in page and "Printemps" in page
    page = html(client.get(h.player_url(h.ann, season=old), headers=EN))
    assert _kinds(page) == {"president": ("1", "1"), "crapouille": ("9", "6")}
    assert f"/players/{h.ann.id}/stats?season=" in page  # a link to the other season


# ------------------------------------------------------------------------------- scale


def _count_queries(client, url):
    statements: list[str] = []

    def count(*args):
        statements.append(str(args[2]))

    db.session.close()  # the test's objects are not the page's: each page starts afresh
    sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        assert client.get(url).status_code == 200
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", count)
    return len(statements)


def test_constant_queries_as_history_grows(client):
    h = history(client)
    ids = (h.group.id, h.ann.id, h.bob.id, h.cid.id)
    urls = [h.player_url(h.ann), h.player_url(h.bob), h.evening_url("B"), h.evening_url("C")]
    before = [_count_queries(client, url) for url in urls]
    group = db.session.get(Group, ids[0])
    ann, bob, cid = (db.session.get(Player, i) for i in ids[1:])
    # More games on every night, more players, more manches: the same number of queries.
    (dan,) = add_players(client, group, "Dan")
    for _ in range(12):
        crapouille_duel(client, group, ann, dan)
        crapouille_duel(client, group, dan, bob)
    more = _president(client, group, [ann, bob, cid, dan])
    for number in range(1, 4):
        _manche(client, group, more, number, [dan, ann, bob])
    game = start_whist(client, group, [bob, cid, dan])
    deal(client, group, game, 1, {cid: 1, dan: 1, bob: 1}, {cid: 2, dan: 2, bob: 1})
    assert [_count_queries(client, url) for url in urls] == before
