"""Players (unique names, renaming keeps history) and seasons (one current, standings)."""

from datetime import date

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Player, Season
from tests.helpers import add_players, create_group, html, start_crapouille


def test_add_players_names_are_unique_whatever_the_case(client):
    group = create_group(client)
    add_players(client, group, "Ann", "Bob")
    r = client.post(f"/g/{group.code}/players", data={"name": "  ann "})
    assert r.status_code == 200
    assert "Ce groupe a déjà un joueur nommé ann." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Player.id))) == 2
    r = client.post(f"/g/{group.code}/players", data={"name": ""})
    assert "Donnez un nom." in html(r)


def test_same_name_in_two_groups_is_fine(app, client):
    one = create_group(client, "Un")
    two = create_group(client, "Deux")
    add_players(client, one, "Ann")
    add_players(client, two, "Ann")
    assert db.session.scalar(sa.select(sa.func.count(Player.id))) == 2


def test_renaming_keeps_the_history(client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    client.post(
        f"/g/{group.code}/games/{game_id}/rounds/new",
        data={"round": "1", "winner": str(ann.id), f"total_{bob.id}": "17"},
    )
    r = client.post(f"/g/{group.code}/players/{bob.id}", data={"name": "Robert"})
    assert r.status_code == 302
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Robert" in page and ">Bob<" not in page and "17" in page
    # Renaming to another player's name is refused; renaming to oneself in other case is fine.
    assert "déjà un joueur nommé ann" in html(client.post(f"/g/{group.code}/players/{bob.id}", data={"name": "ann"}))
    assert client.post(f"/g/{group.code}/players/{bob.id}", data={"name": "ROBERT"}).status_code == 302


def test_player_of_another_group_is_not_found(client):
    one = create_group(client, "Un")
    two = create_group(client, "Deux")
    (ann,) = add_players(client, one, "Ann")
    assert client.get(f"/g/{two.code}/players/{ann.id}").status_code == 404


def test_new_season_becomes_the_only_current_one(client):
    group = create_group(client)
    r = client.post(f"/g/{group.code}/seasons", data={"name": "Hiver", "starts_on": "2026-12-21"})
    assert r.status_code == 302
    seasons = db.session.scalars(sa.select(Season).where(Season.group_id == group.id)).all()
    assert [s.name for s in seasons if s.is_current] == ["Hiver"]
    assert len(seasons) == 2
    winter = next(s for s in seasons if s.name == "Hiver")
    assert winter.starts_on == date(2026, 12, 21)
    first = next(s for s in seasons if s.name != "Hiver")
    client.post(f"/g/{group.code}/seasons/{first.id}/current")
    db.session.expire_all()
    assert first.is_current and not winter.is_current


def test_season_bad_inputs(client):
    group = create_group(client)
    r = client.post(f"/g/{group.code}/seasons", data={"name": "Hiver", "starts_on": "pas une date"})
    assert r.status_code == 200 and "date" in html(r).lower()
    assert "N’est pas une date valide." in html(r)
    current = group.current_season
    r = client.post(f"/g/{group.code}/seasons", data={"name": current.name.upper(), "starts_on": "2026-01-01"})
    assert "Ce groupe a déjà une saison nommée" in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Season.id))) == 1


def test_season_standings_count_wins(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    for winner, loser in [(ann, bob), (ann, cid), (bob, ann)]:
        game_id = start_crapouille(client, group, [winner, loser])
        r = client.post(
            f"/g/{group.code}/games/{game_id}/rounds/new",
            data={"round": "1", "winner": str(winner.id), f"total_{loser.id}": "301"},
        )
        assert r.status_code == 302
    season = group.current_season
    page = html(client.get(f"/g/{group.code}/seasons/{season.id}"))
    rows = [line for line in page.splitlines() if '<tr><th scope="row">' in line]
    assert rows[0].startswith('          <tr><th scope="row">Ann</th><td>2</td><td>3</td>')
    assert '<th scope="row">Bob</th><td>1</td><td>2</td>' in page
    assert '<th scope="row">Cid</th><td>0</td><td>1</td>' in page


def test_season_of_another_group_is_not_found(client):
    one = create_group(client, "Un")
    two = create_group(client, "Deux")
    assert client.get(f"/g/{two.code}/seasons/{one.current_season.id}").status_code == 404
