"""Groups: creating, joining with the passphrase, throttling, access from other devices."""

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Game, GameStatus, Group, Player, Season, ThrottleEvent
from tests.helpers import add_players, create_group, html, start_crapouille


def test_create_group_joins_it_and_opens_a_current_season(client):
    group = create_group(client, "Les Cousins", "un deux trois")
    assert group.passphrase_hash != "un deux trois" and group.check_passphrase("un deux trois")
    assert len(group.code) == 6
    page = client.get(f"/g/{group.code}")
    assert page.status_code == 200
    assert "Les Cousins" in html(page) and group.code in html(page)
    seasons = db.session.scalars(sa.select(Season).where(Season.group_id == group.id)).all()
    assert len(seasons) == 1 and seasons[0].is_current
    assert "Les Cousins" in html(client.get("/"))


def test_create_group_bad_inputs_get_french_messages_and_nothing_is_saved(client):
    r = client.post("/groups/new", data={"name": "  ", "passphrase": "abc", "confirm": "abd"})
    assert r.status_code == 200
    text = html(r)
    assert "Donnez un nom au groupe." in text
    assert "La phrase secrète doit avoir de 6 à 200 caractères." in text
    assert "Les deux phrases secrètes sont différentes." in text
    assert db.session.scalar(sa.select(sa.func.count(Group.id))) == 0
    r = client.post("/groups/new", data={"name": "x" * 61, "passphrase": "abcdef", "confirm": "abcdef"})
    assert "60 caractères au plus." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Group.id))) == 0


def test_another_device_gets_nothing_until_it_joins(app, client):
    group = create_group(client)
    add_players(client, group, "Ann", "Bob")
    other = app.test_client()
    for path in [
        f"/g/{group.code}",
        f"/g/{group.code}/players",
        f"/g/{group.code}/seasons",
        f"/g/{group.code}/games/new",
    ]:
        r = other.get(path)
        assert r.status_code == 302 and "/join" in r.headers["Location"], path
        assert "Ann" not in html(r) and group.name not in html(r)
    r = other.post(f"/g/{group.code}/players", data={"name": "Intrus"})
    assert r.status_code == 403
    assert "Intrus" not in [p.name for p in db.session.scalars(sa.select(Player))]
    # The join page does not reveal the group either.
    join_page = other.get(f"/join?code={group.code}")
    assert join_page.status_code == 200 and group.name not in html(join_page)


def test_join_with_the_passphrase_then_see_everything(app, client):
    group = create_group(client, passphrase="la belote")
    other = app.test_client()
    r = other.post(f"/join?next=/g/{group.code}/players", data={"code": group.code.lower(), "passphrase": "la belote"})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/g/{group.code}/players")
    assert other.get(f"/g/{group.code}").status_code == 200


def test_join_never_redirects_off_site(app, client):
    group = create_group(client, passphrase="la belote")
    other = app.test_client()
    r = other.post("/join?next=//evil.example/x", data={"code": group.code, "passphrase": "la belote"})
    assert r.headers["Location"].endswith(f"/g/{group.code}")


def test_wrong_passphrase_and_unknown_code_look_the_same(app, client):
    group = create_group(client, passphrase="la belote")
    other = app.test_client()
    wrong = other.post("/join", data={"code": group.code, "passphrase": "la manille"})
    unknown = other.post("/join", data={"code": "ZZZZZZ", "passphrase": "la belote"})
    assert wrong.status_code == unknown.status_code == 403
    assert "Code ou phrase secrète incorrect." in html(wrong)
    assert "Code ou phrase secrète incorrect." in html(unknown)
    assert other.get(f"/g/{group.code}").status_code == 302


def test_wrong_passphrases_are_throttled_with_a_growing_delay(app, client):
    group = create_group(client, passphrase="la belote")
    other = app.test_client()
    for _ in range(app.config["GUESS_FREE_TRIES"]):
        assert other.post("/join", data={"code": group.code, "passphrase": "non"}).status_code == 403
    # Four free tries: right after them even the right passphrase must wait, for seconds, not
    # a quarter of an hour.
    r = other.post("/join", data={"code": group.code, "passphrase": "la belote"})
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 2
    assert "<h1>Trop d’essais</h1>" in html(r) and "Réessayez dans" in html(r)
    assert other.get(f"/g/{group.code}").status_code == 302
    # Once the delay has passed, the right passphrase works and wipes the record.
    _age_events(seconds=3)
    assert other.post("/join", data={"code": group.code, "passphrase": "la belote"}).status_code == 302
    assert db.session.scalar(sa.select(sa.func.count(ThrottleEvent.id)).where(ThrottleEvent.kind == "guess")) == 0


def _age_events(seconds: int) -> None:
    """Move every recorded attempt ``seconds`` into the past."""
    from datetime import timedelta

    for event in db.session.scalars(sa.select(ThrottleEvent)):
        event.at = event.at - timedelta(seconds=seconds)
    db.session.commit()


def test_the_delay_doubles_and_is_per_client_and_code(app, client):
    group = create_group(client, passphrase="la belote")
    other = app.test_client()
    for _ in range(7):
        assert other.post("/join", data={"code": group.code, "passphrase": "non"}).status_code == 403
        _age_events(seconds=1000)  # far past any delay: every try is judged
    assert other.post("/join", data={"code": group.code, "passphrase": "non"}).status_code == 403
    # Eight failures: 2^(8-4+1) = 32 s to wait (four failures: 2 s).
    r = other.post("/join", data={"code": group.code, "passphrase": "la belote"})
    assert r.status_code == 429 and 16 < int(r.headers["Retry-After"]) <= 32
    # Another client (another address, as behind trusted proxies) is not slowed down by it.
    r = other.post(
        "/join", data={"code": group.code, "passphrase": "la belote"}, environ_base={"REMOTE_ADDR": "10.9.9.9"}
    )
    assert r.status_code == 302


def test_join_form_requires_both_fields_in_french(client):
    r = client.post("/join", data={"code": "", "passphrase": ""})
    assert "Donnez le code du groupe." in html(r) and "Donnez la phrase secrète." in html(r)


def test_leave_forgets_the_group_on_this_device_only(app, client):
    group = create_group(client, passphrase="la belote")
    r = client.post(f"/g/{group.code}/leave", data={"confirmed": "1"})
    assert r.status_code == 302
    assert client.get(f"/g/{group.code}").status_code == 403  # « Ce téléphone a quitté le groupe… » (issue 22)
    assert db.session.get(Group, group.id) is not None


def test_the_home_page_lists_each_groups_games_in_progress_latest_first_with_players_in_seat_order(client):
    cousins = create_group(client, "Les Cousins")
    ann, bob, cid = add_players(client, cousins, "Ann", "Bob", "Cid")
    first = start_crapouille(client, cousins, [cid, ann])
    second = start_crapouille(client, cousins, [bob, ann, cid])
    over = start_crapouille(client, cousins, [ann, bob])
    version = str(db.session.get(Game, over).version)
    client.post(f"/g/{cousins.code}/games/{over}/abandon", data={"confirmed": "1", "version": version})
    db.session.expire_all()
    assert db.session.get(Game, over).status is GameStatus.ABANDONED
    voisins = create_group(client, "Les Voisins")
    (dan, eve) = add_players(client, voisins, "Dan", "Eve")
    theirs = start_crapouille(client, voisins, [eve, dan])
    page = html(client.get("/"))
    cousins_at, voisins_at = page.index("Les Cousins"), page.index("Les Voisins")
    links = [page.find(f'/games/{game}"') for game in (second, first, theirs)]
    assert -1 not in links and links == sorted(links)
    assert cousins_at < links[0] and links[1] < voisins_at < links[2]
    assert "Bob, Ann, Cid" in page and "Cid, Ann" in page and "Eve, Dan" in page
    assert f'/games/{over}"' not in page
    # A new season: the games of the one before are no longer listed.
    client.post(f"/g/{voisins.code}/seasons", data={"name": "Hiver", "starts_on": "2026-12-21"})
    page = html(client.get("/"))
    assert f'/games/{theirs}"' not in page and "Les Voisins" in page and f'/games/{second}"' in page
