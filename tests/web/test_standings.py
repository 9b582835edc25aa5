"""Standings of a season (issue 12): stored results per game and player, one leaderboard
per kind, the all-games summary — every figure checked on a small season computed by
hand, played through the real pages (seeds 000–003 for the games' own rules) — kept up
to date by every kind of write, and read in a constant number of queries.

The small season (target 6 for Président, 3 for Piketty):

- Président P1, Ann Bob Cid Dan; manches out [Ann, Bob, Cid], [Bob, Ann, Cid],
  [Ann, Cid, Bob] (Dan last each time): points 3/2/1/0 a manche, so Ann 8, Bob 6,
  Cid 4, Dan 0; over at manche 3 (Ann reaches 6). Times Président Ann 2, Bob 1; Trou
  du cul Dan 3; ranks Ann 1+2+1, Bob 2+1+3, Cid 3+3+2, Dan 4+4+4.
- Piketty K1, the same four: a card draw (not a manche played: no figure, no rating),
  then [Bob, Ann, Cid]: Bob 3 reaches the target. Bob 1st, Ann, Cid, Dan.
- Whist W1 Ann Bob Cid: Ann takes every trick four deals running, Bob's stake empties:
  stakes Ann 4, Bob 0, Cid 14, Cid wins. W2 the same three, finished early after one
  deal: Ann 14, Bob 14, Cid 13, Ann and Bob win together (tied first).
- Crapouille C1 Ann–Bob (Bob 301, out), C2 Cid–Dan (Dan out), C3 Dan–Cid (Cid out).
- Not counted: a crapouille game in progress (Ann–Bob, one hand) and an abandoned one.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import flask_migrate
import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so
from openskill.models import PlackettLuce

from companion import create_app
from companion.clock import night_of
from companion.extensions import db
from companion.games import results, saving
from companion.games.rating import display
from companion.models import (
    Game,
    GameChange,
    GamePlayer,
    GameResult,
    GameStatus,
    MatchPlace,
    Player,
    PlayerRating,
    RatedMatch,
    RatingPoint,
    Round,
    SeasonTotal,
)
from tests.conftest import database_config
from tests.helpers import add_players, create_group, html, start_crapouille

EN = {"Accept-Language": "en"}


# ------------------------------------------------------------------ playing, as people do


def _game_id(response) -> int:
    assert response.status_code == 302, html(response)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match
    return int(match.group(1))


def _version(game_id: int) -> int:
    db.session.expire_all()
    return db.session.get(Game, game_id).version


def start_president(client, group, kind, players, target):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    data |= {"target": str(target), "titles": "classic", "rule_points": "y"}
    return _game_id(client.post(f"/g/{group.code}/games/new/{kind}", data=data))


def manche(client, group, game_id, number, finish, edit=False):
    data = {"round": str(number), "event": ""} | {f"finish-{i}": str(p.id) for i, p in enumerate(finish)}
    where = f"rounds/{number}/edit" if edit else "rounds/new"
    r = client.post(f"/g/{group.code}/games/{game_id}/{where}", data=data)
    assert r.status_code == 302, html(r)


def draw(client, group, game_id, cards):
    data = {"round": "1"} | {f"draw_{p.id}": card for p, card in cards.items()}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def start_whist(client, group, players):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    return _game_id(client.post(f"/g/{group.code}/games/new/whist-tarot", data=data))


def deal(client, group, game_id, number, bids, tricks):
    url = f"/g/{group.code}/games/{game_id}/rounds"
    data = {"round": str(number)} | {f"bid_{p.id}": str(v) for p, v in bids.items()}
    assert client.post(f"{url}/new", data=data).status_code == 302
    data |= {f"tricks_{p.id}": str(v) for p, v in tricks.items()}
    r = client.post(f"{url}/{number}/edit", data=data)
    assert r.status_code == 302, html(r)


def hand(client, group, game_id, number, winner, **totals):
    data = {"round": str(number), "winner": str(winner.id)} | {f"total_{k}": str(v) for k, v in totals.items()}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def post(client, group, game_id, action, **data):
    data = {"confirmed": "1", "version": str(_version(game_id))} | data
    r = client.post(f"/g/{group.code}/games/{game_id}/{action}", data=data)
    assert r.status_code == 302, html(r)
    return r


def crapouille_duel(client, group, winner, loser):
    game_id = start_crapouille(client, group, [winner, loser])
    hand(client, group, game_id, 1, winner, **{str(loser.id): 301})
    return game_id


@dataclass
class Season:
    group: object
    ann: Player
    bob: Player
    cid: Player
    dan: Player
    games: dict[str, int]

    @property
    def url(self) -> str:
        return f"/g/{self.group.code}/seasons/{self.group.current_season.id}"


def small_season(client) -> Season:
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    games = {}
    games["P1"] = start_president(client, group, "president", [ann, bob, cid, dan], target=6)
    for number, finish in enumerate(([ann, bob, cid], [bob, ann, cid], [ann, cid, bob]), start=1):
        manche(client, group, games["P1"], number, finish)
    games["K1"] = start_president(client, group, "piketty", [ann, bob, cid, dan], target=3)
    draw(client, group, games["K1"], {ann: "9♥", bob: "9♠", cid: "2♣", dan: "6♦"})
    manche(client, group, games["K1"], 2, [bob, ann, cid])
    games["W1"] = start_whist(client, group, [ann, bob, cid])
    for number, bid in enumerate((5, 4, 3, 2), start=1):
        deal(client, group, games["W1"], number, {bob: bid, cid: 0, ann: 1}, {bob: 0, cid: 0, ann: 6 - number})
    games["W2"] = start_whist(client, group, [ann, bob, cid])
    deal(client, group, games["W2"], 1, {bob: 2, cid: 1, ann: 1}, {bob: 2, cid: 2, ann: 1})
    post(client, group, games["W2"], "finish")
    games["C1"] = crapouille_duel(client, group, ann, bob)
    games["C2"] = crapouille_duel(client, group, cid, dan)
    games["C3"] = crapouille_duel(client, group, dan, cid)
    games["open"] = start_crapouille(client, group, [ann, bob])
    hand(client, group, games["open"], 1, ann, **{str(bob.id): 12})
    games["dropped"] = start_crapouille(client, group, [cid, dan])
    hand(client, group, games["dropped"], 1, cid, **{str(dan.id): 40})
    post(client, group, games["dropped"], "abandon")
    db.session.expire_all()
    for key in ("P1", "K1", "W1", "W2", "C1", "C2", "C3"):
        assert db.session.get(Game, games[key]).status is GameStatus.FINISHED, key
    return Season(group, ann, bob, cid, dan, games)


# -------------------------------------------------------------------- reading the page


def board(page: str, section: str) -> list[list[str]]:
    """The rows of a table of the season page (after ``<h2 id=section>``): rank, name,
    then each figure, as shown (Président and Piketty: the average rank last, from the
    line under the name)."""
    start = page.index(f'<h2 id="{section}">')
    table = page[start : page.index("</table>", start)]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S):
        head = re.search(
            r'<th scope="row"><span class="muted">([^<]*)</span> ([^<]*)'
            r'<span class="cardline muted">([^<]*)</span></th>',
            row,
        )
        assert head, row
        figures = re.findall(r"<td>([^<]*)</td>", row)
        average = re.search(r"average rank (\S+)$", head.group(3))
        rows.append([head.group(1), head.group(2), *figures, *([average.group(1)] if average else [])])
    return rows


def result(game_id: int, player: Player) -> GameResult:
    row = db.session.get(GameResult, (game_id, player.id))
    assert row is not None
    return row


# ------------------------------------------------------------------------------- figures


def test_stored_results_of_each_kind_computed_by_hand(client):
    s = small_season(client)
    ann, bob, cid, dan = s.ann, s.bob, s.cid, s.dan
    p1 = [result(s.games["P1"], p) for p in (ann, bob, cid, dan)]
    assert [(r.place, r.won, r.points, r.rounds) for r in p1] == [
        (1, True, 8, 3),
        (2, False, 6, 3),
        (3, False, 4, 3),
        (4, False, 0, 3),
    ]
    assert [(r.times_president, r.times_last, r.rank_sum) for r in p1] == [(2, 0, 4), (1, 0, 6), (0, 0, 8), (0, 3, 12)]
    assert {r.status for r in p1} == {"finished"} and {r.kind for r in p1} == {"president"}
    # Piketty: the card draw is not a manche played: one manche counted.
    k1 = [result(s.games["K1"], p) for p in (ann, bob, cid, dan)]
    assert [(r.place, r.won, r.points, r.rounds) for r in k1] == [
        (2, False, 2, 1),
        (1, True, 3, 1),
        (3, False, 1, 1),
        (4, False, 0, 1),
    ]
    assert [(r.times_president, r.times_last, r.rank_sum) for r in k1] == [(0, 0, 2), (1, 0, 1), (0, 0, 3), (0, 1, 4)]
    w1 = [result(s.games["W1"], p) for p in (ann, bob, cid)]
    assert [(r.place, r.won, r.stake, r.rounds) for r in w1] == [(2, False, 4, 4), (3, False, 0, 4), (1, True, 14, 4)]
    w2 = [result(s.games["W2"], p) for p in (ann, bob, cid)]
    assert [(r.place, r.won, r.stake) for r in w2] == [(1, True, 14), (1, True, 14), (3, False, 13)]
    c1 = [result(s.games["C1"], p) for p in (ann, bob)]
    assert [(r.place, r.won, r.points, r.eliminated) for r in c1] == [(1, True, 0, False), (2, False, 301, True)]
    assert result(s.games["open"], ann).status == "in_progress" and not result(s.games["open"], ann).won
    assert result(s.games["dropped"], cid).status == "abandoned"
    assert result(s.games["P1"], ann).version == _version(s.games["P1"])


def test_each_kinds_leaderboard_with_ties_computed_by_hand(client):
    s = small_season(client)
    page = html(client.get(s.url, headers=EN))
    # Président: points, times Président, times Trou du cul, average rank (over manches).
    assert board(page, "kind-president") == [
        ["1", "Ann", "8", "2", "0", "1.33"],
        ["2", "Bob", "6", "1", "0", "2.0"],
        ["3", "Cid", "4", "0", "0", "2.67"],
        ["4", "Dan", "0", "0", "3", "4.0"],
    ]
    assert board(page, "kind-piketty") == [
        ["1", "Bob", "3", "1", "0", "1.0"],
        ["2", "Ann", "2", "0", "0", "2.0"],
        ["3", "Cid", "1", "0", "0", "3.0"],
        ["4", "Dan", "0", "0", "1", "4.0"],
    ]
    assert "1 game · 3 manches · average rank 1.33" in page and "1 game · 1 manche · average rank 1.0" in page
    # Whist: games won, then average stake left: Cid (14+13)/2, Ann (4+14)/2, Bob (0+14)/2.
    assert board(page, "kind-whist-tarot") == [
        ["1", "Cid", "1", "13.5"],
        ["2", "Ann", "1", "9"],
        ["3", "Bob", "1", "7"],
    ]
    # Crapouille: won, average place, times over 300; Cid and Dan tie on every figure.
    assert board(page, "kind-crapouille") == [
        ["1", "Ann", "1", "1.0", "0"],
        ["2=", "Cid", "1", "1.5", "1"],
        ["2=", "Dan", "1", "1.5", "1"],
        ["4", "Bob", "0", "2.0", "1"],
    ]
    assert "« 2= » means tied." in page
    # Only kinds played, in the order of the new-game page.
    assert re.findall(r'<h2 id="kind-([a-z-]+)">', page) == ["crapouille", "president", "piketty", "whist-tarot"]
    # The all-games summary: wins and finished games (the open and the abandoned game count nowhere).
    assert '<tr><th scope="row">Ann</th><td>3</td><td>5</td></tr>' in page
    assert '<tr><th scope="row">Bob</th><td>2</td><td>5</td></tr>' in page
    assert '<tr><th scope="row">Cid</th><td>2</td><td>6</td></tr>' in page
    assert '<tr><th scope="row">Dan</th><td>1</td><td>4</td></tr>' in page
    french = html(client.get(s.url))
    assert "1,33" in french and "13,5" in french and "1,33" not in page.replace("1.33", "")


def test_the_page_lists_the_seasons_games_a_page_at_a_time(client):
    s = small_season(client)
    page = html(client.get(s.url, headers=EN))
    assert page.count('class="tile"') == 9 and "Older games" not in page
    for _ in range(12):
        crapouille_duel(client, s.group, s.ann, s.bob)
    page = html(client.get(s.url, headers=EN))
    assert page.count('class="tile"') == 20 and "Page 1 of 2" in page and "Older games" in page
    older = html(client.get(s.url + "?page=2", headers=EN))
    assert older.count('class="tile"') == 1 and "Newer games" in older
    assert html(client.get(s.url + "?page=zz", headers=EN)).count('class="tile"') == 20


# ------------------------------------------------------------------- every kind of write


def _figures(game_id, *players):
    db.session.expire_all()
    return [db.session.get(GameResult, (game_id, p.id)) for p in players]


def _ratings():
    db.session.expire_all()
    return _rounded({r.player_id: (r.mu, r.sigma, r.matches) for r in db.session.scalars(sa.select(PlayerRating))})


def _rounded(ratings):
    return {p: (round(mu, 9), round(sigma, 9), n) for p, (mu, sigma, n) in ratings.items()}


def test_editing_a_past_manche_changes_the_figures_and_the_rating(client):
    s = small_season(client)
    ann, bob, cid, dan = s.ann, s.bob, s.cid, s.dan
    game = s.games["P1"]
    before = _ratings()
    post(client, s.group, game, "reopen")
    # Reopened: the game counts nowhere until it ends again.
    assert {r.status for r in _figures(game, ann, bob, cid, dan)} == {"in_progress"}
    page = html(client.get(s.url, headers=EN))
    assert 'id="kind-president"' not in page
    assert _ratings()[dan.id][2] == before[dan.id][2] - 4  # its three manches and the game
    # Manche 1 was [Cid, Ann, Bob]: Cid 3, Ann 2, Bob 1; then the same manches 2 and 3:
    # totals Ann 7, Cid 6, Bob 5, Dan 0 — over again, Ann wins.
    manche(client, s.group, game, 1, [cid, ann, bob], edit=True)
    rows = _figures(game, ann, bob, cid, dan)
    assert [(r.status, r.place, r.points) for r in rows] == [
        ("finished", 1, 7),
        ("finished", 3, 5),
        ("finished", 2, 6),
        ("finished", 4, 0),
    ]
    assert [(r.times_president, r.times_last, r.rank_sum) for r in rows] == [
        (1, 0, 5),
        (1, 0, 7),
        (1, 0, 6),
        (0, 3, 12),
    ]
    assert board(html(client.get(s.url, headers=EN)), "kind-president") == [
        ["1", "Ann", "7", "1", "0", "1.67"],
        ["2", "Cid", "6", "1", "0", "2.0"],
        ["3", "Bob", "5", "1", "0", "2.33"],
        ["4", "Dan", "0", "0", "3", "4.0"],
    ]
    after = _ratings()
    assert after[dan.id][2] == before[dan.id][2] and after[cid.id][0] != before[cid.id][0]
    assert after == replayed_from_scratch()


def test_deleting_and_undoing_a_hand_takes_the_game_out_and_back(client):
    s = small_season(client)
    game = s.games["C1"]
    post(client, s.group, game, "rounds/1/delete")
    ann, bob = _figures(game, s.ann, s.bob)
    assert (ann.status, ann.place, ann.won, bob.eliminated, bob.rounds) == ("in_progress", None, False, False, 0)
    page = html(client.get(s.url, headers=EN))
    assert board(page, "kind-crapouille")[:2] == [["1=", "Cid", "1", "1.5", "1"], ["1=", "Dan", "1", "1.5", "1"]]
    assert _ratings() == replayed_from_scratch()
    # The undo offered on the game page restores the hand: the game is finished again.
    change = db.session.scalar(
        sa.select(GameChange.id).where(GameChange.game_id == game, GameChange.kind == "round_deleted")
    )
    post(client, s.group, game, f"changes/{change}/undo")
    ann, bob = _figures(game, s.ann, s.bob)
    assert (ann.status, ann.place, ann.won, bob.eliminated) == ("finished", 1, True, True)
    assert board(html(client.get(s.url, headers=EN)), "kind-crapouille")[0] == ["1", "Ann", "1", "1.0", "0"]
    assert _ratings() == replayed_from_scratch()


def test_abandoning_reopening_and_finishing_early(client):
    s = small_season(client)
    game = s.games["open"]  # Ann 0, Bob 12 after one hand
    assert _figures(game, s.ann)[0].place == 1
    post(client, s.group, game, "abandon")
    assert {r.status for r in _figures(game, s.ann, s.bob)} == {"abandoned"}
    post(client, s.group, game, "reopen")
    post(client, s.group, game, "finish")  # the lowest total (Ann) wins
    ann, bob = _figures(game, s.ann, s.bob)
    assert (ann.status, ann.won, ann.place, bob.place, bob.points, bob.eliminated) == (
        "finished",
        True,
        1,
        2,
        12,
        False,
    )
    page = html(client.get(s.url, headers=EN))
    assert board(page, "kind-crapouille")[0] == ["1", "Ann", "2", "1.0", "0"]
    assert board(page, "kind-crapouille")[-1] == ["4", "Bob", "0", "2.0", "1"]
    assert _ratings() == replayed_from_scratch()


def test_a_write_outside_the_pages_names_its_games_to_the_refresh(client, app):
    s = small_season(client)
    game = s.games["C2"]
    # Nothing listens to the session: a bulk UPDATE (a script's, say) changes no standing
    # until it names its games to the refresh, in its own transaction.
    db.session.execute(sa.update(Round).where(Round.game_id == game).values(created_at=Round.created_at))
    db.session.execute(sa.update(Game).where(Game.id == game).values(status=GameStatus.ABANDONED))
    db.session.commit()
    assert _figures(game, s.cid)[0].status == "finished"
    saving.refresh([game])
    db.session.commit()
    assert _figures(game, s.cid)[0].status == "abandoned"
    # One naming no game: the games whose results are older than their version are found.
    db.session.execute(sa.update(Game).where(Game.kind == "crapouille").values(version=Game.version + 1))
    saving.refresh(results.stale_games(db.session))
    db.session.commit()
    assert _figures(s.games["C3"], s.dan)[0].version == _version(s.games["C3"])
    assert results.stale_games(db.session) == []
    # A bulk INSERT of rounds, refreshed by naming its game.
    game = s.games["open"]  # Ann 0, Bob 12 after one hand
    state = dict(db.session.scalar(sa.select(Round.result).where(Round.game_id == game)))
    state["totals"] = {str(s.ann.id): 5, str(s.bob.id): 12}
    db.session.execute(sa.insert(Round), [{"game_id": game, "number": 2, "entry": {}, "result": state}])
    saving.refresh([game])
    db.session.commit()
    assert [(r.rounds, r.points) for r in _figures(game, s.ann, s.bob)] == [(2, 5), (2, 12)]


def test_a_rolled_back_write_changes_nothing(client):
    s = small_season(client)
    rows = db.session.scalar(sa.select(sa.func.count()).select_from(GameResult))
    db.session.delete(
        db.session.get(Round, db.session.scalar(sa.select(Round.id).where(Round.game_id == s.games["C1"])))
    )
    db.session.flush()
    db.session.rollback()
    db.session.commit()  # nothing noted survives the rollback
    assert db.session.scalar(sa.select(sa.func.count()).select_from(GameResult)) == rows
    assert _figures(s.games["C1"], s.ann)[0].won


def test_rebuild_gives_what_the_writes_kept(client):
    s = small_season(client)
    post(client, s.group, s.games["P1"], "reopen")
    manche(client, s.group, s.games["P1"], 2, [s.cid, s.ann, s.bob], edit=True)
    kept = _snapshot()
    results.rebuild(db.session)
    db.session.commit()
    assert _snapshot() == kept


def _snapshot():
    db.session.expire_all()
    tables = (GameResult, SeasonTotal, RatedMatch, MatchPlace, PlayerRating, RatingPoint)
    out = []
    for model in tables:
        columns = [c for c in model.__table__.columns if c.name != "id" and c.name != "match_id"]
        rows = db.session.execute(sa.select(*columns)).all()
        out.append(sorted(tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in rows))
    return out


# ------------------------------------------------------------------------- the rating


def replayed_from_scratch():
    """The rating recomputed here, independently: every finished game's counted manches
    and the game itself, in the order played, through OpenSkill directly."""
    model = PlackettLuce()
    ratings = {}
    counts: dict[int, int] = {}
    games = db.session.scalars(sa.select(Game).where(Game.status == GameStatus.FINISHED)).all()
    matches = []
    for game in games:
        places = {
            r.player_id: r.place for r in db.session.scalars(sa.select(GameResult).where(GameResult.game_id == game.id))
        }
        rounds = db.session.scalars(sa.select(Round).where(Round.game_id == game.id).order_by(Round.number)).all()
        if not rounds:
            continue
        if game.kind in ("president", "piketty"):
            for rnd in rounds:
                if "draw" in (rnd.result.get("events") or []):
                    continue
                order = {int(p): i + 1 for i, p in enumerate(rnd.result["hierarchy"])}
                matches.append((results.aware(rnd.created_at), game.id, rnd.number, order))
        end = max(results.aware(game.finished_at), results.aware(rounds[-1].created_at))
        matches.append((end, game.id, 10**6, places))
    for _at, _game, _n, order in sorted(matches, key=lambda m: m[:3]):
        players = sorted(order, key=lambda p: (order[p], p))
        teams = [[ratings.get(p) or model.rating()] for p in players]
        for p, team in zip(players, model.rate(teams, ranks=[order[p] for p in players]), strict=True):
            ratings[p] = team[0]
            counts[p] = counts.get(p, 0) + 1
    return _rounded({p: (r.mu, r.sigma, counts[p]) for p, r in ratings.items()})


def test_the_rating_is_openskill_over_every_rated_match_in_order(client):
    s = small_season(client)
    stored = _ratings()
    assert stored == replayed_from_scratch()
    # Matches: P1 3 manches + the game, K1 1 manche (the draw is not rated) + the game,
    # W1, W2, and the crapouille games each once.
    assert {p: m for p, (_mu, _sigma, m) in stored.items()} == {s.ann.id: 9, s.bob.id: 9, s.cid.id: 10, s.dan.id: 8}
    matches = db.session.scalars(sa.select(RatedMatch).where(RatedMatch.game_id == s.games["K1"])).all()
    assert sorted(m.round_number for m in matches) == [0, 2]
    page = html(client.get(s.url, headers=EN))
    shown = {row[1]: row for row in board(page, "rating")}
    for player in (s.ann, s.bob, s.cid, s.dan):
        rating = db.session.get(PlayerRating, (s.group.current_season.id, player.id))
        assert shown[player.name][2] == str(display(rating.mu - 3 * rating.sigma))
        assert shown[player.name][3] == "new"  # the season's first game night
    figures = [int(row[2]) for row in board(page, "rating")]
    assert figures == sorted(figures, reverse=True)


# ------------------------------------------------------------------------------- scale


def _count_queries(client, url):
    statements: list[str] = []

    def count(*args):
        statements.append(str(args[2]))

    sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        assert client.get(url).status_code == 200
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", count)
    return len(statements)


def test_the_season_page_runs_a_constant_number_of_queries(client):
    s = small_season(client)
    few = _count_queries(client, s.url)
    # More games of every kind, more rounds, more players: the same number of queries.
    (eve,) = add_players(client, s.group, "Eve")
    game = start_president(client, s.group, "president", [s.ann, s.bob, s.cid, s.dan, eve], target=30)
    for number in range(1, 8):
        manche(client, s.group, game, number, [eve, s.ann, s.bob, s.cid])
    for _ in range(25):
        crapouille_duel(client, s.group, s.cid, eve)
    other = start_whist(client, s.group, [s.bob, s.cid, eve])
    deal(client, s.group, other, 1, {s.cid: 1, eve: 1, s.bob: 1}, {s.cid: 2, eve: 2, s.bob: 1})
    assert _count_queries(client, s.url) == few
    assert _count_queries(client, s.url + "?page=2") == few


# --------------------------------------------------------------------------- migration


@pytest.fixture
def bare_app(db_kind, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "k", **database_config(db_kind, tmp_path)})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        yield app
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def test_the_migration_fills_the_results_of_games_already_stored(bare_app):
    flask_migrate.upgrade(revision="a74014ce70d2")  # the schema before the standings
    played = "2026-03-06 21:00:00"
    with db.engine.begin() as conn:
        for sql in (
            "INSERT INTO groups (id, code, name, passphrase_hash, created_at) VALUES (1, 'ABCDEF', 'G', 'x', :t)",
            "INSERT INTO seasons (id, group_id, name, name_key, starts_on, is_current, created_at) "
            "VALUES (1, 1, '2026', '2026', '2026-01-01', :yes, :t)",
            "INSERT INTO players (id, group_id, name, name_key, created_at) VALUES (1, 1, 'Ann', 'ann', :t)",
            "INSERT INTO players (id, group_id, name, name_key, created_at) VALUES (2, 1, 'Bob', 'bob', :t)",
            "INSERT INTO games (id, season_id, kind, rules, setup, status, created_at, updated_at, finished_at, "
            "version, outcome) VALUES (1, 1, 'crapouille', '{}', '{}', 'finished', :t, :t, :t, 1, :won)",
            "INSERT INTO game_players (game_id, seat, player_id) VALUES (1, 0, 1)",
            "INSERT INTO game_players (game_id, seat, player_id) VALUES (1, 1, 2)",
        ):
            conn.execute(sa.text(sql), {"t": played, "yes": True, "won": '{"winners": ["2"]}'})
        state = (
            '{"players": ["1", "2"], "points": {"1": 305, "2": 0}, "totals": {"1": 305, "2": 0}, '
            '"eliminated": ["1"], "eliminations": [["1"]], "in_play": ["2"], "over": true, '
            '"places": {"2": 1, "1": 2}, "ranking": ["2", "1"], "winners": ["2"]}'
        )
        conn.execute(
            sa.text("INSERT INTO rounds (game_id, number, entry, result, created_at) VALUES (1, 1, '{}', :r, :t)"),
            {"r": state, "t": played},
        )
    flask_migrate.upgrade()
    rows = db.session.execute(
        sa.select(
            GameResult.player_id, GameResult.place, GameResult.won, GameResult.points, GameResult.eliminated
        ).order_by(GameResult.player_id)
    ).all()
    assert [tuple(r) for r in rows] == [(1, 2, False, 305, True), (2, 1, True, 0, False)]
    assert db.session.scalar(sa.select(sa.func.count()).select_from(RatedMatch)) == 1
    ratings = {r.player_id: r for r in db.session.scalars(sa.select(PlayerRating))}
    assert ratings[2].mu > ratings[1].mu and ratings[1].matches == ratings[2].matches == 1
    points = db.session.scalars(sa.select(RatingPoint)).all()
    assert {(str(p.night), p.played) for p in points} == {("2026-03-06", True)}
    db.session.remove()
    flask_migrate.downgrade(revision="a74014ce70d2")
    with db.engine.connect() as conn:
        assert "game_results" not in sa.inspect(conn).get_table_names()
        assert conn.execute(sa.text("SELECT count(*) FROM rounds")).scalar() == 1


def test_a_game_night_runs_until_six_in_the_morning(app):
    paris = ZoneInfo("Europe/Paris")
    late = datetime(2026, 3, 7, 0, 30, tzinfo=UTC)  # 1:30 in Paris
    assert night_of(late, paris) == night_of(late - timedelta(hours=4), paris)
    assert str(night_of(late, paris)) == "2026-03-06"
    assert str(night_of(late + timedelta(hours=5), paris)) == "2026-03-07"


# A failing refresh fails the write: tests/web/test_results_refresh.py.


def test_a_new_season_starts_empty_and_the_past_one_keeps_its_standings(client):
    s = small_season(client)
    past = s.url
    before = html(client.get(past, headers=EN))
    r = client.post(f"/g/{s.group.code}/seasons", data={"name": "Printemps", "starts_on": "2026-03-21"})
    assert r.status_code == 302, html(r)
    db.session.expire_all()
    spring = s.group.current_season
    assert spring.name == "Printemps"
    now = f"/g/{s.group.code}/seasons/{spring.id}"
    assert "No rated game yet" in html(client.get(now, headers=EN))
    assert 'id="kind-' not in html(client.get(now, headers=EN))
    crapouille_duel(client, s.group, s.dan, s.ann)
    page = html(client.get(now, headers=EN))
    assert board(page, "kind-crapouille") == [["1", "Dan", "1", "1.0", "0"], ["2", "Ann", "0", "2.0", "1"]]
    # The past season is still there, as it was (its rating too).
    after = html(client.get(past, headers=EN))
    for section in ("rating", "kind-president", "kind-piketty", "kind-whist-tarot", "kind-crapouille"):
        assert board(after, section) == board(before, section)


def test_two_writers_of_one_season_take_turns(client, db_kind):
    # PostgreSQL: two transactions finishing games of one season at the same moment.
    # The second waits for the first's season lock, then counts both games.
    # (SQLite's writers take turns by themselves: BEGIN IMMEDIATE.)
    if db_kind != "postgresql":
        pytest.skip("SQLite serializes writers itself")
    import threading

    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    games = [start_crapouille(client, group, [ann, bob]) for _ in range(2)]
    hand(client, group, games[0], 1, ann, **{str(bob.id): 10})
    hand(client, group, games[1], 1, ann, **{str(bob.id): 10})
    ann_id, season_id = ann.id, group.current_season.id
    db.session.remove()

    def finish(session, game_id):
        game = session.get(Game, game_id)
        game.status = GameStatus.FINISHED
        game.finished_at = datetime.now(UTC)
        game.ending = {"winners": [str(ann_id)]}
        game.version += 1

    first, second = so.Session(db.engine), so.Session(db.engine)
    done = threading.Event()

    def other():
        finish(second, games[1])
        second.flush()
        results.refresh(second.connection(), [games[1]], {})
        second.commit()
        done.set()

    thread = threading.Thread(target=other)
    try:
        finish(first, games[0])
        first.flush()
        results.refresh(first.connection(), [games[0]], {})  # first holds the season now, uncommitted
        thread.start()
        assert not done.wait(1.0)  # waiting for the first
        first.commit()
        thread.join(10)
        assert done.is_set()
    finally:
        first.close()
        if thread.is_alive():
            thread.join(10)
        second.close()
    total = db.session.get(SeasonTotal, (season_id, "crapouille", ann_id))
    assert (total.games, total.wins) == (2, 2)
    assert db.session.get(PlayerRating, (season_id, ann_id)).matches == 2


@pytest.mark.parametrize("seed", [3, 14, 15])
def test_random_writes_keep_what_a_rebuild_computes(client, seed):
    """Hands added (some ending a game past 300), last hands deleted, games abandoned and
    reopened, in a random order: after each write, what the writes kept (results, season
    totals, rating) is what a rebuild computes from scratch. Writes that leave a game in
    progress skip the season's totals (they count finished games only): this checks
    that skipping them never leaves a total behind."""
    rng = random.Random(seed)
    group = create_group(client)
    everyone = add_players(client, group, "Ann", "Bob", "Cid")
    games: list[int] = []
    for _step in range(24):
        db.session.expire_all()
        playing = [g for g in games if db.session.get(Game, g).status is GameStatus.IN_PROGRESS]
        stopped = [g for g in games if g not in playing]
        counts = {g: db.session.scalar(sa.select(sa.func.count()).where(Round.game_id == g)) for g in games}
        action = rng.choice(["new", "hand", "hand", "hand", "last", "delete", "abandon", "reopen"])
        if action == "new" or not games:
            games.append(start_crapouille(client, group, rng.sample(everyone, rng.choice([2, 3]))))
        elif action in ("hand", "last") and playing:
            game_id = rng.choice(playing)
            seats = [
                db.session.get(Player, p)
                for p in db.session.scalars(
                    sa.select(GamePlayer.player_id).where(GamePlayer.game_id == game_id).order_by(GamePlayer.seat)
                )
            ]
            winner, *others = rng.sample(seats, len(seats))
            points = {
                str(p.id): (301 if action == "last" and i == 0 else rng.randint(1, 40)) for i, p in enumerate(others)
            }
            hand(client, group, game_id, counts[game_id] + 1, winner, **points)
        elif action == "delete" and any(counts[g] for g in games):
            game_id = rng.choice([g for g in games if counts[g]])
            post(client, group, game_id, f"rounds/{counts[game_id]}/delete")
        elif action == "abandon" and playing:
            post(client, group, rng.choice(playing), "abandon")
        elif action == "reopen" and stopped:
            post(client, group, rng.choice(stopped), "reopen")
        kept = _snapshot()
        results.rebuild(db.session)
        db.session.commit()
        assert _snapshot() == kept, action
