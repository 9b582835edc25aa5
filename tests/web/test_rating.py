"""The season rating (issue 12): OpenSkill's Plackett–Luce model over every rated match,
ties as ties, shown once a player has enough rated matches, with the rank change since
the last game night; recomputed from the first game night a write changes."""

from __future__ import annotations

import re

import sqlalchemy as sa

from companion.extensions import db
from companion.games import rating, results
from companion.games.rating import MIN_MATCHES, Skill, display, rate, replay
from companion.models import PlayerRating, RatingPoint
from tests.helpers import add_players, create_group, html, move_back, start_crapouille
from tests.web.test_standings import EN, board, crapouille_duel, deal, hand, manche, post, start_president, start_whist

# ---------------------------------------------------------------------- the model itself


def test_equal_places_are_ties():
    skills: dict[int, Skill] = {}
    rate(skills, {1: 2, 2: 1, 3: 2})
    assert skills[1] == skills[3] and skills[2].mu > skills[1].mu
    assert all(s.matches == 1 for s in skills.values())
    # A finishing order of three equal places moves nobody's mu.
    even: dict[int, Skill] = {}
    rate(even, {1: 1, 2: 1, 3: 1})
    assert even[1] == even[2] == even[3] and even[1].mu == Skill().mu
    # One player alone is no match.
    alone: dict[int, Skill] = {}
    rate(alone, {1: 1})
    assert alone == {}


def test_ranks_share_equal_figures_and_wait_for_enough_matches():
    skills = {1: Skill(30, 2, 5), 2: Skill(30, 2, 9), 3: Skill(35, 2, MIN_MATCHES - 1), 4: Skill(26, 2, 5)}
    assert rating.ranks(skills) == {1: 1, 2: 1, 3: None, 4: 3}
    assert display(Skill().ordinal) == 1000


def test_replay_snapshots_each_game_night():
    one, two = results.date(2026, 3, 6), results.date(2026, 3, 13)
    nights = replay([(one, {1: 1, 2: 2}), (one, {1: 1, 2: 2}), (two, {2: 1, 3: 2})])
    assert [n.night for n in nights] == [one, two]
    assert nights[0].played == {1, 2} and nights[1].played == {2, 3}
    assert nights[0].skills[1].matches == 2 and 3 not in nights[0].skills
    assert set(nights[1].skills) == {1, 2, 3} and nights[1].skills[1] == nights[0].skills[1]
    # Starting from the first night's state gives the second night again.
    again = replay([(two, {2: 1, 3: 2})], nights[0].skills)
    assert again[0].skills == nights[1].skills


# --------------------------------------------------------------------- through the pages


def _season_url(group):
    return f"/g/{group.code}/seasons/{group.current_season.id}"


def _rating_rows(client, group):
    page = html(client.get(_season_url(group), headers=EN))
    section = page[page.index('<h2 id="rating">') :].split("<h2", 2)[1]
    return {row[1]: row for row in board(page, "rating")} if "<tbody>" in section else {}


def test_a_tie_in_a_game_is_a_tie_in_the_rating(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game = start_whist(client, group, [ann, bob, cid])
    deal(client, group, game, 1, {bob: 2, cid: 1, ann: 1}, {bob: 2, cid: 2, ann: 1})
    post(client, group, game, "finish")  # stakes Ann 14, Bob 14, Cid 13: Ann and Bob first together
    db.session.expire_all()
    season = group.current_season.id
    a, b, c = (db.session.get(PlayerRating, (season, p.id)) for p in (ann, bob, cid))
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and a.mu > c.mu and a.matches == 1


def test_not_rated_before_five_matches_then_ranked(client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    page = html(client.get(_season_url(group), headers=EN))
    assert "No rated game yet" in page
    for n in range(1, MIN_MATCHES):
        crapouille_duel(client, group, ann, bob)
        page = html(client.get(_season_url(group), headers=EN))
        assert f"Ann ({n}/{MIN_MATCHES})" in page and f"Bob ({n}/{MIN_MATCHES})" in page
        assert _rating_rows(client, group) == {}
    crapouille_duel(client, group, ann, bob)
    rows = _rating_rows(client, group)
    assert [rows["Ann"][0], rows["Bob"][0]] == ["1", "2"]
    assert int(rows["Ann"][2]) > 1000 > int(rows["Bob"][2])
    assert "Not rated yet" not in html(client.get(_season_url(group), headers=EN))


def _squeezed(page: str) -> str:
    """The page with its runs of spaces and line breaks (not its non-breaking spaces) as one space."""
    return re.sub(r"[ \n]+", " ", page)


def test_the_season_page_says_plainly_that_only_finished_games_count(client):
    """« Pas encore de cote (moins de 5 …) » counts what the rating counts: finished games,
    and each manche of a finished Président game. Manches of a game in progress count
    nothing yet, and the page says so in the same sentence."""
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    crapouille_duel(client, group, ann, bob)
    game = start_president(client, group, "president", [ann, bob, cid], 100)
    for number in range(1, 4):
        manche(client, group, game, number, [ann, bob, cid])
    page = _squeezed(html(client.get(_season_url(group))))
    assert (
        "Pas encore de cote (moins de 5 parties terminées ou manches de parties terminées\u00a0; "
        "une partie en cours compte une fois terminée)\u00a0: Ann (1/5), Bob (1/5)"
    ) in page
    assert "Cid (" not in page  # three manches in progress: nothing counted yet
    english = html(client.get(_season_url(group), headers=EN))
    assert "Not rated yet (fewer than 5 finished games or manches of finished games; " in english
    # Finished, the game counts with each of its three manches: Ann and Bob are rated
    # (the duel, three manches, the game), Cid not yet (4 of 5).
    post(client, group, game, "finish")
    page = _squeezed(html(client.get(_season_url(group))))
    assert set(_rating_rows(client, group)) == {"Ann", "Bob"}
    assert "une partie en cours compte une fois terminée)\u00a0: Cid (4/5)</p>" in page


def test_rank_change_since_the_last_game_night(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    # Last week: Ann beats Bob and Cid five times each; Bob beats Cid.
    earlier = [crapouille_duel(client, group, ann, p) for p in (bob, cid) for _ in range(5)]
    earlier += [crapouille_duel(client, group, bob, cid) for _ in range(2)]
    move_back(earlier, 7)
    rows = _rating_rows(client, group)
    assert [rows[n][0] for n in ("Ann", "Bob", "Cid")] == ["1", "2", "3"]
    assert {rows[n][3] for n in rows} == {"new"}
    # Tonight Cid beats everyone, many times: Cid climbs.
    for _ in range(6):
        for p in (ann, bob):
            crapouille_duel(client, group, cid, p)
    db.session.expire_all()
    season = group.current_season.id
    now = {p.name: db.session.get(PlayerRating, (season, p.id)) for p in (ann, bob, cid)}
    assert now["Cid"].rank_before == 3 and now["Cid"].rank < 3
    rows = _rating_rows(client, group)
    assert rows["Cid"][3] == f"▲{3 - now['Cid'].rank}"
    assert any(rows[n][3].startswith("▼") for n in ("Ann", "Bob"))
    nights = sorted({p.night for p in db.session.scalars(sa.select(RatingPoint))})
    assert len(nights) == 2
    # The history: one point per player per night, with the rank of that night.
    points = db.session.scalars(sa.select(RatingPoint).where(RatingPoint.player_id == cid.id)).all()
    assert [(p.rank, p.played) for p in sorted(points, key=lambda p: p.night)] == [(3, True), (now["Cid"].rank, True)]


def test_a_write_replays_only_from_the_game_night_it_changes(client, monkeypatch):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    old = [crapouille_duel(client, group, ann, bob) for _ in range(4)]
    move_back(old, 14)
    middle = [crapouille_duel(client, group, bob, cid) for _ in range(3)]
    move_back(middle, 7)
    replayed: list[int] = []
    real = rating.replay

    def counting(matches, start=None):
        matches = list(matches)
        replayed.append(len(matches))
        return real(matches, start)

    monkeypatch.setattr(rating, "replay", counting)
    # A game tonight: only tonight is replayed (from last week's stored state).
    crapouille_duel(client, group, cid, ann)
    assert replayed == [1]
    # A game of three weeks ago reopened and finished again: from that night on.
    replayed.clear()
    post(client, group, old[0], "reopen")
    assert replayed == [3 + 3 + 1]  # that night's other three games, last week's three, tonight's
    # Finished again now, it still belongs to the night it started (one definition of
    # the soirée, issue 22): from that night on again, its own match now rated too.
    replayed.clear()
    post(client, group, old[0], "finish")
    assert replayed == [4 + 3 + 1]
    # Whatever the path, the same as rating the season from scratch.
    kept = _all_ratings()
    results.rebuild(db.session)
    db.session.commit()
    assert _all_ratings() == kept


def _all_ratings():
    db.session.expire_all()
    rows = db.session.execute(sa.select(PlayerRating.__table__)).all()
    points = db.session.execute(sa.select(RatingPoint.__table__)).all()

    def rounded(rows):
        return sorted((tuple(round(v, 9) if isinstance(v, float) else v for v in r) for r in rows), key=repr)

    return rounded(rows), rounded(points)


def test_an_unfinished_game_is_not_rated_and_an_abandoned_one_drops_out(client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game = start_crapouille(client, group, [ann, bob])
    hand(client, group, game, 1, ann, **{str(bob.id): 20})
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PlayerRating)) == 0
    post(client, group, game, "finish")
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PlayerRating)) == 2
    post(client, group, game, "reopen")
    post(client, group, game, "abandon")
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PlayerRating)) == 0
    assert "No rated game yet" in html(client.get(_season_url(group), headers=EN))
