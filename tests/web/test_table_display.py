"""The table display (issue 27): a game's and an evening's screen for the middle of the
table, from stored results; display links (QR code, short link), read-only, revocable,
expiring at the end of the evening, and opening nothing else.

Sentences are checked in English (their msgids) where the page says them, in French
where the engine does."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.display.guard import KEY_HEADER
from companion.display.links import evening_ends
from companion.extensions import db
from companion.models import DisplayLink, ThrottleEvent, utcnow
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille
from tests.web.test_referee_live import _game, _move, _start

EN = {"Accept-Language": "en"}


def _manche(client, group, game_id, number, finish):
    data = {"round": str(number), "event": ""}
    data.update({f"finish-{i}": str(p.id) for i, p in enumerate(finish)})
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def _hand(client, group, game_id, number, winner, points):
    """Crapouille hand ``number``: ``winner`` went out, the others' totals."""
    data = {"round": str(number), "winner": str(winner.id)}
    data.update({f"total_{p.id}": str(v) for p, v in points.items()})
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def _link(client, group, game_id: int | None = None) -> DisplayLink:
    data = {} if game_id is None else {"game": str(game_id)}
    r = client.post(f"/g/{group.code}/displays", data=data)
    assert r.status_code == 303, html(r)
    db.session.expire_all()
    query = sa.select(DisplayLink).where(DisplayLink.group_id == group.id)
    query = query.where(DisplayLink.game_id.is_(None) if game_id is None else DisplayLink.game_id == game_id)
    return db.session.scalars(query.order_by(DisplayLink.id.desc())).first()


def _seat(page: str, name: str) -> str:
    """The display's seat of ``name`` (its <li>), as text."""
    match = re.search(rf'<li data-player="{name}"[^>]*>(.*?)</li>', page, re.S)
    assert match, page
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


# ---------------------------------------------------------------- what each kind shows


def test_a_president_display_shows_the_seats_the_exchanges_and_the_live_trick(client: FlaskClient) -> None:
    group, (_ann, bob, cid, dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    url = f"/g/{group.code}/games/{game_id}/display"
    first = html(client.get(url, headers=EN))
    assert "Round 1" in first and "Le Président" in first
    # seed 000: the finishing order gives the titles; the Trou du cul deals, the Président leads.
    _manche(client, group, game_id, 1, [dan, cid, bob])
    page = html(client.get(url, headers=EN))
    assert "Round 2" in page
    assert "Deals the cards: Ann · Starts: Dan" in page
    french = html(client.get(url))
    assert _seat(french, "Dan") == "Dan Président 3"
    assert _seat(french, "Ann") == "Ann Trou du cul 0"
    assert "Ann gives their 2 best cards to Dan" in page
    assert "Game to 25 points" in page
    assert "<form" not in page and "csrf_token" not in page
    # A live manche: whose turn and the trick on the table, then the next player's turn.
    _start(client, group, game_id, leader=str(dan.id))
    before = html(client.get(url, headers=EN))
    assert "Dan leads." in before and "No card on the table yet." in before
    r = _move(client, group, game_id, action="play", cards="7♥ 7♠")
    assert r.status_code == 303, html(r)
    live = html(client.get(url, headers=EN))
    assert "Cid plays." in live and 'aria-label="7 of hearts"' in live
    assert "Ann gives their 2 best cards" not in live  # exchanges made once the manche is played
    assert re.search(r'<li data-player="Cid" class="to-move">', live)


def test_a_whist_display_shows_the_deal_the_bids_and_the_stakes(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"), dealer="")
    url = f"/g/{group.code}/games/{game_id}/display"
    page = html(client.get(url, headers=EN))
    # seed 002: the first dealer deals 5 cards; bidding starts on the dealer's left.
    assert "Ann deals 5 cards." in page and "Deals the cards: Ann · Starts: Bob" in page
    assert "Hand 1" in page
    assert re.search(r'<tr data-player="Ann"[^>]*>.*?<td class="total" data-total>14</td>', page, re.S)
    bids = {f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "0", "step": "bids", "round": "1"}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=bids)
    assert r.status_code in (302, 303), html(r)
    page = html(client.get(url, headers=EN))
    assert re.search(r'<tr data-player="Bob"[^>]*>.*?<td data-bid>2</td>', page, re.S)
    assert "Hand 1" in page  # the deal is still being played


def test_a_crapouille_display_shows_totals_the_line_and_who_is_out(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    url = f"/g/{group.code}/games/{game_id}/display"
    for number, points in enumerate(({bob: 150, cid: 20}, {bob: 160, cid: 30}), start=1):
        _hand(client, group, game_id, number, ann, points)
    page = html(client.get(url, headers=EN))
    # seed 003: over 300 a player is out (310 here).
    assert "Out past 300." in page
    assert _seat(page, "Bob") == "Bob out 310"
    assert _seat(page, "Cid") == "Cid 50" and _seat(page, "Ann") == "Ann 0"


# -------------------------------------------------------------------- display links


def test_a_display_link_shows_the_game_read_only_and_follows_it(app: Flask, client: FlaskClient) -> None:
    group, (_ann, bob, cid, dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    link = _link(client, group, game_id)
    assert link is not None and re.fullmatch(r"[A-Z2-9]{10}", link.code)
    assert _link(client, group, game_id).id == link.id  # a double tap: one link
    shown = html(client.get(f"/g/{group.code}/displays", headers=EN))
    assert f"/t/{link.code}" in shown and "<svg" in shown and "Revoke" in shown

    tv = app.test_client()
    r = tv.get(f"/t/{link.code}", headers=EN)
    page = html(r)
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
    assert "Le Président" in page and "Ann" in page and "Round 1" in page
    assert "<form" not in page and group.code not in page and group.name not in page
    device_names = [d.name for d in group.devices]
    assert device_names and not any(name in page for name in device_names)
    token = re.search(r'data-watch-token="([^"]+)"', page).group(1)
    watch = f"/t/{link.code}/watch"
    assert tv.get(watch, headers={"If-None-Match": f'"{token}"'}).status_code == 304
    _manche(client, group, game_id, 1, [dan, cid, bob])
    moved = tv.get(watch, headers={"If-None-Match": f'"{token}"'})
    assert moved.status_code == 200 and moved.get_json()["token"] != token
    assert "Round 2" in html(tv.get(f"/t/{link.code}", headers=EN))


def test_a_revoked_an_expired_an_unknown_or_a_malformed_link_opens_nothing(app: Flask, client: FlaskClient) -> None:
    group, _players, game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    link = _link(client, group, game_id)
    tv = app.test_client()
    assert tv.get(f"/t/{link.code}").status_code == 200
    r = client.post(f"/g/{group.code}/displays/{link.id}/revoke")
    assert r.status_code == 303
    assert tv.get(f"/t/{link.code}").status_code == 410  # it says so (below), and nothing else
    assert tv.get(f"/t/{link.code}/watch").status_code == 410
    again = _link(client, group, game_id)
    assert again.id != link.id
    again.expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    assert tv.get(f"/t/{again.code}").status_code == 410
    for code in ("ABCDEFGHJK", "abc", "A" * 200, "%00", "ÉÉÉÉÉÉÉÉÉÉ"):
        assert tv.get(f"/t/{code}").status_code == 404
        assert tv.get(f"/t/{code}/watch").status_code == 404
    # Another group's device cannot revoke this group's link, nor make one for its game.
    stranger = app.test_client()
    other = create_group(stranger, name="Autres")
    third = _link(client, group, game_id)
    assert stranger.post(f"/g/{other.code}/displays/{third.id}/revoke").status_code == 303
    assert tv.get(f"/t/{third.code}").status_code == 200
    assert stranger.post(f"/g/{other.code}/displays", data={"game": str(game_id)}).status_code == 404


def _ended_screen(r, title: str) -> str:
    """An ended link's page: 410, the display's own dark layout, ``title`` alone."""
    page = html(r)
    assert r.status_code == 410, page
    assert "Set-Cookie" not in r.headers
    assert '<html lang="' in page and 'class="display"' in page and 'data-theme="dark"' in page
    assert f'<h1 id="ended-title">{title}</h1>' in page
    assert "Oups" not in page and "Oops" not in page and "data-watch-url" not in page
    assert "<form" not in page and "<footer" not in page
    return page


def test_an_ended_link_says_it_was_revoked_or_the_evening_is_over(app: Flask, client: FlaskClient) -> None:
    """A link's screen that ends is told why, in its own dark style, within one poll (the
    poll's 410 makes static/watch.js fetch this page): revoked by a device of the group,
    or its evening over; nothing of the group, no cookie; an unknown code stays a 404."""
    group, players, game_id = _game(client, "president", ("Zéphyrine", "Barnabé", "Ysolde", "Théodore"))
    secrets = [group.name, group.code, *(p.name for p in players), *(d.name for d in group.devices)]
    link, evening = _link(client, group, game_id), _link(client, group)
    tv = app.test_client()
    token = re.search(r'data-watch-token="([^"]+)"', html(tv.get(f"/t/{link.code}"))).group(1)
    assert client.post(f"/g/{group.code}/displays/{link.id}/revoke").status_code == 303

    poll = tv.get(f"/t/{link.code}/watch", headers={"If-None-Match": f'"{token}"'})
    assert poll.status_code == 410 and poll.get_json() == {"ended": "revoked"}
    assert "Set-Cookie" not in poll.headers and poll.headers["Cache-Control"] == "no-cache"
    french = _ended_screen(tv.get(f"/t/{link.code}"), "Ce lien d’affichage a été révoqué")
    assert "<title>Lien d’affichage révoqué · Companion</title>" in french
    english = _ended_screen(tv.get(f"/t/{link.code}", headers=EN), "This display link has been revoked")
    for page in (french, english):
        assert not any(secret in page for secret in secrets), page
        assert "Le Président" not in page and "data-player" not in page

    # The evening's link, its evening over (the next 6:00 passed): « La soirée est finie ».
    evening.expires_at = utcnow() - timedelta(minutes=1)
    db.session.commit()
    poll = tv.get(f"/t/{evening.code}/watch")
    assert poll.status_code == 410 and poll.get_json() == {"ended": "over"}
    page = _ended_screen(tv.get(f"/t/{evening.code}"), "La soirée est finie")
    assert not any(secret in page for secret in secrets)
    _ended_screen(tv.get(f"/t/{evening.code}", headers=EN), "The evening is over")
    # Revoked once its evening was over: what ended it first, the evening.
    evening.revoked_at = utcnow()
    db.session.commit()
    assert tv.get(f"/t/{evening.code}/watch").get_json() == {"ended": "over"}

    # The group's own phones follow their displays as before, not through a link.
    for address in (f"/g/{group.code}/games/{game_id}/display", f"/g/{group.code}/display"):
        r = client.get(address)
        assert r.status_code == 200 and "Zéphyrine" in html(r)
    r = client.get(f"/g/{group.code}/games/{game_id}/display/watch", headers={"If-None-Match": f'"{token}"'})
    assert r.status_code == 304
    # A code that is no link's: a plain 404, page and poll.
    assert tv.get("/t/ABCDEFGHJK").status_code == 404 and tv.get("/t/ABCDEFGHJK/watch").status_code == 404


def test_a_link_expires_at_the_end_of_the_evening_on_the_groups_clock() -> None:
    from datetime import UTC, datetime

    # One definition of a soirée: it runs until 6:00 the next morning, local time.
    assert evening_ends(datetime(2026, 7, 3, 20, tzinfo=UTC), "Europe/Paris") == datetime(2026, 7, 4, 4, tzinfo=UTC)
    assert evening_ends(datetime(2026, 7, 4, 1, tzinfo=UTC), "Europe/Paris") == datetime(2026, 7, 4, 4, tzinfo=UTC)
    assert evening_ends(datetime(2026, 7, 4, 1, tzinfo=UTC), "America/Montreal") == datetime(2026, 7, 4, 10, tzinfo=UTC)


def test_a_display_link_gives_no_access_to_any_other_address(app: Flask, client: FlaskClient) -> None:
    """The access probe: with a link (its code in every place an address takes a code,
    and whatever cookie its screen holds) every other address of the app shows nothing
    of the group: it is not found, or asks to join."""
    group, players, game_id = _game(client, "president", ("Zéphyrine", "Barnabé", "Ysolde", "Théodore"))
    link = _link(client, group, game_id)
    evening = _link(client, group)
    tv = app.test_client()
    assert "Zéphyrine" in html(tv.get(f"/t/{link.code}"))
    assert tv.get(f"/t/{evening.code}").status_code == 200
    secrets = [group.name, *(p.name for p in players)]
    probed = 0
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in ("static", "display.shown", "display.shown_watch"):
            continue
        for code in (link.code, evening.code, group.code):
            values: dict[str, object] = {}
            for converter, arg in re.findall(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", rule.rule):
                values[arg] = game_id if converter == "int" else code
            if "day" in values:
                values["day"] = utcnow().date().isoformat()
            with app.test_request_context():
                from flask import url_for

                address = url_for(rule.endpoint, **values)
            r = tv.get(address, headers=EN)
            probed += 1
            body = html(r)
            if r.status_code == 200:
                assert not any(secret in body for secret in secrets), address
            else:
                assert r.status_code in (302, 303, 404), (address, r.status_code)
                if r.status_code in (302, 303):
                    assert "/join" in r.headers["Location"] or r.headers["Location"].endswith("/"), address
    assert probed > 50


# ----------------------------------------------------------------------- the evening


def test_the_evening_display_follows_the_game_that_changed_last(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    first = start_crapouille(client, group, [ann, bob, cid])
    second = start_crapouille(client, group, [cid, bob, ann])
    evening = _link(client, group)
    tv = app.test_client()
    page = html(tv.get(f"/t/{evening.code}", headers=EN))
    assert f'data-game="{second}"' in page.split('class="display-night"')[0]
    token = re.search(r'data-watch-token="([^"]+)"', page).group(1)
    _hand(client, group, first, 1, ann, {bob: 12, cid: 7})
    watch = tv.get(f"/t/{evening.code}/watch", headers={"If-None-Match": f'"{token}"'})
    assert watch.status_code == 200
    page = html(tv.get(f"/t/{evening.code}", headers=EN))
    assert f'data-game="{first}"' in page.split('class="display-night"')[0]
    assert "The evening so far" in page and page.count("In progress.") == 2
    # seed 003: the lowest total leads (Ann went out: 0); the other game has no hand yet.
    assert page.count("In the lead: Ann") == 1, page
    member = html(client.get(f"/g/{group.code}/display", headers=EN))
    assert f'data-game="{first}"' in member


# ------------------------------------------------------------------- constant queries


def _key(page: str) -> dict[str, str]:
    """The header a display's script sends with its requests: its page's key."""
    match = re.search(r'data-watch-key="([0-9a-f]+)"', page)
    assert match, page
    return {KEY_HEADER: match.group(1)}


def test_a_display_and_its_poll_run_as_many_queries_whatever_the_history(app: Flask, client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    link = _link(client, group, game_id)
    evening = _link(client, group)
    tv = app.test_client()
    keys = {code: _key(html(tv.get(f"/t/{code}"))) for code in (link.code, evening.code)}
    addresses = (f"/t/{link.code}", f"/t/{link.code}/watch", f"/t/{evening.code}", f"/t/{evening.code}/watch")

    def counts() -> list[int]:
        found = []
        # As the screen's script asks (its page's key), then as a link opened anew.
        for sent in (keys, {}):
            for address in addresses:
                with count_queries() as statements:
                    assert tv.get(address, headers=sent.get(address.split("/")[2], {})).status_code == 200
                found.append(len(statements))
                assert not [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
        with count_queries() as statements:
            assert client.get(f"/g/{group.code}/games/{game_id}/display").status_code == 200
        found.append(len(statements))
        return found

    _manche(client, group, game_id, 1, [dan, cid, bob])
    short = counts()
    for n in range(2, 8):
        _manche(client, group, game_id, n, [dan, cid, bob] if n % 2 else [ann, bob, cid])
    assert counts() == short
    assert short[1] <= 2 and short[3] <= 3, short  # a screen's poll: one query (an evening's two), and its BEGIN


def test_a_finished_game_shows_its_winners_then_the_evening_so_far(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    link = _link(client, group, game_id)
    # seed 003: over 300 a player is out; the last one in wins.
    _hand(client, group, game_id, 1, ann, {bob: 310, cid: 20})
    _hand(client, group, game_id, 2, ann, {cid: 290})
    member = html(client.get(f"/g/{group.code}/games/{game_id}/display", headers=EN))
    assert "Game over" in member and "Winner: Ann" in member
    assert member.index("Winner: Ann") < member.index("The evening so far")
    assert re.search(r'<li data-player="Ann"><span class="who">Ann</span>\s*<span class="total">1</span>', member)
    # Through the game's own link: its winners, nothing of the evening's other games.
    shown = html(app.test_client().get(f"/t/{link.code}", headers=EN))
    assert "Winner: Ann" in shown and "The evening so far" not in shown
    assert "Deals the cards" not in shown  # nobody deals once the game is over


def test_a_live_whist_deal_on_the_display_says_whose_bid_and_the_forbidden_one(client: FlaskClient) -> None:
    group, (_ann, _bob, _cid), game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"), dealer="")
    url = f"/g/{group.code}/games/{game_id}/display"
    _start(client, group, game_id)
    assert _move(client, group, game_id, bid="2").status_code == 303  # Bob
    assert _move(client, group, game_id, bid="1").status_code == 303  # Cid
    page = html(client.get(url, headers=EN))
    # seed 002: the dealer may not bid what makes the bids add up to the tricks.
    assert "Ann bids." in page
    assert "Ann deals and may not bid 2: the bids would add up to 5, the number of tricks." in page
    assert re.search(r'<tr data-player="Cid"[^>]*>.*?<td data-bid>1</td>', page, re.S)
    assert re.search(r'<tr data-player="Ann" class="to-move">', page)


def test_a_live_crapouille_hand_on_the_display_says_the_asked_suit_and_the_direction(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_crapouille(client, group, [ann, bob, cid, dan])
    url = f"/g/{group.code}/games/{game_id}/display"
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    # seed 003: an 8 asks a suit; a 10 reverses the direction.
    assert _move(client, group, game_id, action="play", cards="8♥", asked="s").status_code == 303
    page = html(client.get(url, headers=EN))
    assert "Suit asked: ♠ spades" in page and "Direction: clockwise ↻" in page and "Bob plays." in page
    assert _move(client, group, game_id, action="play", cards="10♠").status_code == 303
    page = html(client.get(url, headers=EN))
    assert "Direction: anticlockwise ↺" in page and "Ann plays." in page
    assert 'aria-label="10 of spades"' in page


# ------------------------------------------------------------------------ no cookie


def _answers_under_t(app: Flask, client: FlaskClient, group, game_id: int) -> list[tuple[str, str, dict[str, str]]]:
    """Requests under /t/ that give every answer a display link can give but a throttled
    one: (method, address, headers)."""
    link, evening = _link(client, group, game_id), _link(client, group)
    revoked = _link(client, group, game_id)
    token = re.search(r'data-watch-token="([^"]+)"', html(app.test_client().get(f"/t/{link.code}"))).group(1)
    assert client.post(f"/g/{group.code}/displays/{link.id}/revoke").status_code == 303
    revoked, link = link, _link(client, group, game_id)
    token = re.search(r'data-watch-token="([^"]+)"', html(app.test_client().get(f"/t/{link.code}"))).group(1)
    return [
        ("GET", f"/t/{link.code}", {}),  # 200
        ("GET", f"/t/{evening.code}", EN),  # 200
        ("HEAD", f"/t/{link.code}", {}),  # 200
        ("OPTIONS", f"/t/{link.code}", {}),  # 200
        ("GET", f"/t/{evening.code}/watch", {}),  # 200
        ("GET", f"/t/{link.code}/watch", {"If-None-Match": f'"{token}"'}),  # 304
        ("GET", "/t/ABCDEFGHJK", {}),  # 404: no link's
        ("GET", "/t/ABCDEFGHJK/watch", {}),
        ("GET", "/t/abc", EN),  # 404: malformed
        ("GET", f"/t/{link.code}/elsewhere", {}),  # 404: no such address
        ("POST", f"/t/{link.code}", {}),  # 405
        ("POST", "/t/ABCDEFGHJK/watch", {}),
        ("DELETE", f"/t/{evening.code}", {}),
        ("GET", f"/t/{revoked.code}", {}),  # 410
        ("GET", f"/t/{revoked.code}/watch", {}),
    ]


def test_nothing_under_t_sets_a_cookie_whatever_the_answer(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A display link's screen carries nothing another address would read: no answer
    under /t/ sets (or renews, or clears) a cookie — a page, a poll, a 304, a 404, a 405,
    a 410, a 429, a server error — for a new screen, a phone of the group whose cookie is
    due to be signed again, or one holding a message for its next page."""
    from companion import security
    from companion.display import routes

    group, _players, game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    requests = _answers_under_t(app, client, group, game_id)
    monkeypatch.setattr(security, "RESIGN_AFTER", timedelta(0))  # any cookie sent back would be renewed
    flashing = app.test_client()
    create_group(flashing, name="Les Autres")
    with flashing.session_transaction() as session:  # a message waiting for the next page
        session["_flashes"] = [("message", "Bonjour")]
    seen: set[int] = set()

    def ask(method: str, address: str, headers: dict[str, str]) -> None:
        for who in (app.test_client(), client, flashing):
            r = who.open(address, method=method, headers=headers)
            seen.add(r.status_code)
            assert "Set-Cookie" not in r.headers, (method, address, r.status_code, r.headers["Set-Cookie"])

    for method, address, headers in requests:
        ask(method, address, headers)
    # Refused (429): this address tried twenty wrong codes a moment ago; a new screen, and
    # one holding a message (neither is a phone of a group: no allowance of its own).
    now = utcnow()
    db.session.add_all(
        ThrottleEvent(kind="guess", code=f"T-{_wrong(i)}", client="127.0.0.1", at=now)
        for i in range(app.config["GUESS_FREE_TRIES_ANY_CODE"])
    )
    db.session.commit()
    stranger = app.test_client()
    with stranger.session_transaction() as session:
        session["_flashes"] = [("message", "Bonjour")]
    for who in (app.test_client(), stranger):
        for address in (requests[0][1], f"{requests[0][1]}/watch", "/t/ABCDEFGHJK"):
            r = who.get(address)
            seen.add(r.status_code)
            assert r.status_code == 429 and "Set-Cookie" not in r.headers, (address, r.headers.get("Set-Cookie"))
    db.session.execute(sa.delete(ThrottleEvent))
    db.session.commit()
    # A server error (as in production: the app's error page, not the exception).
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(routes, "game_display", broken)
    ask(*requests[0])
    assert seen == {200, 304, 404, 405, 410, 429, 500}
    # An error there is said in the display's own layout: no footer, no form (whose CSRF
    # token would be a cookie), in French by default.
    for address in ("/t/ABCDEFGHJK", f"/t/{requests[0][1].split('/')[2]}"):
        page = html(app.test_client().get(address))
        assert 'class="display"' in page and '<h1 id="error-title">Oups</h1>' in page, page
        assert "<form" not in page and "<footer" not in page and "csrf" not in page
    assert "Cette page n’existe pas." in html(app.test_client().get("/t/ABCDEFGHJK"))
    # Elsewhere a cookie is renewed as ever (the test would pass for a broken cookie jar).
    assert client.get(f"/g/{group.code}").headers["Set-Cookie"].startswith("session=")


# ------------------------------------------------------------- wrong codes are guesses


def _events() -> int:
    db.session.expire_all()
    return db.session.scalar(sa.select(sa.func.count(ThrottleEvent.id)).where(ThrottleEvent.kind == "guess")) or 0


def _age_events(seconds: int) -> None:
    for event in db.session.scalars(sa.select(ThrottleEvent)):
        event.at = event.at - timedelta(seconds=seconds)
    db.session.commit()


def _wrong(i: int) -> str:
    """A well-formed display code that is no link's (the alphabet has no 0 or 1)."""
    return f"WRNG{i:06d}".replace("0", "A").replace("1", "B")


def test_wrong_display_codes_are_slowed_down_as_join_guesses_are(app: Flask, client: FlaskClient) -> None:
    """A sweep of display codes, page or poll, is judged on the guess throttle's allowance
    (twenty codes an hour, four tries of a code, then doubling delays), each wrong code
    recorded before its 404."""
    group, _players, game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    link = _link(client, group, game_id)
    sweeper = app.test_client()
    free = app.config["GUESS_FREE_TRIES_ANY_CODE"]
    answers = [sweeper.get(f"/t/{_wrong(i)}{'/watch' if i % 2 else ''}").status_code for i in range(free + 5)]
    assert answers == [404] * free + [429] * 5
    assert _events() == free  # the wrong codes judged, not the refused ones
    r = sweeper.get(f"/t/{_wrong(99)}/watch")
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 2
    assert r.get_json() == {"error": r.get_json()["error"], "retry_after": int(r.headers["Retry-After"])}
    assert re.fullmatch(r"Trop d’essais\. Réessayez dans [12]\u00a0secondes?\.", r.get_json()["error"])
    assert r.headers["Cache-Control"] == "no-cache"
    # Once the wait is over, one more code is judged (recorded under the guesser's lock),
    # then a wait twice as long.
    _age_events(3)
    with count_queries() as statements:
        assert sweeper.get(f"/t/{_wrong(100)}").status_code == 404
    said = [q.lstrip().upper() for q in statements]
    assert any(q.startswith(("BEGIN IMMEDIATE", "SELECT PG_ADVISORY")) for q in said), said
    assert any(q.startswith("INSERT INTO THROTTLE_EVENTS") for q in said), said
    r = sweeper.get(f"/t/{_wrong(101)}")
    assert r.status_code == 429 and 2 < int(r.headers["Retry-After"]) <= 4
    # The same wrong code tried again and again (a code mistyped on a TV): four tries.
    _age_events(2 * 86400)
    assert [sweeper.get(f"/t/{_wrong(7)}").status_code for _ in range(6)] == [404] * 4 + [429] * 2
    # A malformed code, which no link has, is not recorded; the valid link still opens.
    _age_events(2 * 86400)
    before = _events()
    assert {sweeper.get(f"/t/{code}").status_code for code in ("abc", "A" * 200, "ÉÉÉÉÉÉÉÉÉÉ")} == {404}
    assert _events() == before
    assert sweeper.get(f"/t/{link.code}").status_code == 200 and _events() == before


def test_while_refused_every_code_gets_the_same_answer_but_a_screen_is_never_slowed(
    app: Flask, client: FlaskClient
) -> None:
    """While a guesser must wait, every code it sends — a link's, an ended link's, a wrong
    or a malformed one — gets the same refusal, so a sweep learns nothing faster; a screen
    already showing a link (its page's key sent back by static/watch.js) polls and
    refreshes it as ever, writing nothing; a phone of a group keeps its own allowance."""
    group, (_ann, bob, cid, dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    tv = app.test_client()  # a tablet behind the same address, showing the game
    ended_link = _link(client, group, game_id)
    ended_key = _key(html(tv.get(f"/t/{ended_link.code}")))
    assert client.post(f"/g/{group.code}/displays/{ended_link.id}/revoke").status_code == 303
    link, evening = _link(client, group, game_id), _link(client, group)
    assert link.code != ended_link.code
    page = html(tv.get(f"/t/{link.code}"))
    key = _key(page)
    token = re.search(r'data-watch-token="([^"]+)"', page).group(1)
    sweeper = app.test_client()
    for i in range(app.config["GUESS_FREE_TRIES_ANY_CODE"]):
        assert sweeper.get(f"/t/{_wrong(i)}").status_code == 404
    recorded = _events()

    # Refused, whatever the code: the same status, page and poll.
    pages, polls = [], []
    for code in (link.code, evening.code, ended_link.code, _wrong(500), "abc"):
        for who in (sweeper, app.test_client()):
            r = who.get(f"/t/{code}")
            assert r.status_code == 429 and "Set-Cookie" not in r.headers, code
            # The same page but for the code asked (its poll's address), and the wait said.
            pages.append(re.sub(r"\d+", "N", html(r).replace(f"/t/{code}/", "/t/CODE/")))
            w = who.get(f"/t/{code}/watch")
            assert w.status_code == 429 and "Set-Cookie" not in w.headers, code
            polls.append(re.sub(r"\d+", "N", w.get_data(as_text=True)))
    assert len(set(pages)) == 1 and len(set(polls)) == 1
    refused = html(sweeper.get(f"/t/{link.code}"))
    assert 'class="display"' in refused and 'data-theme="dark"' in refused and "<footer" not in refused
    assert '<h1 id="error-title">Trop d’essais</h1>' in refused and "<form" not in refused
    assert "Trop de codes d’affichage erronés ont été essayés depuis cette connexion." in refused
    assert re.search(r"Cet écran réessaiera de lui-même dans [12]\u00a0secondes?\.", refused)
    # Watched with no token yet: static/watch.js asks again once the wait is over.
    assert f'data-watch-url="/t/{link.code}/watch" data-watch-token=""' in refused
    assert "data-watch-key" not in refused and group.name not in refused
    english = html(sweeper.get(f"/t/{link.code}", headers=EN))
    assert "Too many wrong display codes were tried from this connection." in english
    assert _events() == recorded  # a refusal records nothing
    # …nor takes a lock: a sweep refused holds up nobody's writes (a wrong code judged does).
    locks_and_writes = ("BEGIN IMMEDIATE", "SELECT PG_ADVISORY", "INSERT", "UPDATE", "DELETE")
    with count_queries() as statements:
        assert sweeper.get(f"/t/{_wrong(501)}").status_code == 429
    assert statements and not [q for q in statements if q.lstrip().upper().startswith(locks_and_writes)]

    # The tablet was given the page: its polls and refreshes are answered, and write nothing.
    watch = f"/t/{link.code}/watch"
    assert tv.get(watch, headers={**key, "If-None-Match": f'"{token}"'}).status_code == 304
    _manche(client, group, game_id, 1, [dan, cid, bob])
    moved = tv.get(watch, headers={**key, "If-None-Match": f'"{token}"'})
    assert moved.status_code == 200 and moved.get_json()["token"] != token
    refreshed = html(tv.get(f"/t/{link.code}", headers=key))
    assert "Manche 2" in refreshed and _key(refreshed) == key
    # Its key is that link's alone: sent for another code, or made up, it is not a screen's.
    for code, sent in ((evening.code, key), (evening.code, ended_key), (link.code, {KEY_HEADER: "0" * 32})):
        assert tv.get(f"/t/{code}", headers=sent).status_code == 429
        assert tv.get(f"/t/{code}/watch", headers=sent).status_code == 429
    # The screen of the link revoked earlier is told so, as ever.
    assert tv.get(f"/t/{ended_link.code}/watch", headers=ended_key).status_code == 410
    assert tv.get(f"/t/{ended_link.code}", headers=ended_key).status_code == 410
    assert _events() == recorded

    # A phone that joined a group is judged on its own allowance: the link opens for it.
    assert client.get(f"/t/{evening.code}").status_code == 200
    # Once the wait is over, a link opened anew opens (and records nothing).
    _age_events(3)
    assert sweeper.get(f"/t/{evening.code}").status_code == 200
    assert _events() == recorded


def test_simultaneous_wrong_display_codes_are_counted_one_after_another(app: Flask, client: FlaskClient) -> None:
    from tests.web.test_hardening import together

    group, _players, game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"))
    link = _link(client, group, game_id)
    free = app.config["GUESS_FREE_TRIES_ANY_CODE"]
    sweeper = app.test_client()
    for i in range(free - 3):
        assert sweeper.get(f"/t/{_wrong(i)}").status_code == 404
    screens = [app.test_client() for _ in range(12)]
    codes = [_wrong(100 + i) if i % 4 else link.code for i in range(12)]
    results = together(12, lambda i: screens[i].get(f"/t/{codes[i]}{'/watch' if i % 3 else ''}"))
    statuses = [getattr(r, "status_code", r) for r in results]
    assert set(statuses) <= {200, 404, 429}, statuses
    # Three more wrong codes judged at most, whatever the order; a link answered only before
    # the wait began, never once a wrong code had to wait.
    assert statuses.count(404) <= 3 and _events() <= free, statuses
