"""The live play-by-play through the pages, without script (companion/referee/live.py):
the manche stored on the server (a reload, a second phone, a stale or repeated write,
undo, starting again), every move judged by the engine (an illegal one refused with its
reason and nothing stored), and the round entry a finished manche fills in, per kind.

Sentences of the pages are checked in English msgids or in the engine's French."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import LiveManche, Round
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_whist_pages import fr

EN = {"Accept-Language": "en"}


def _game(client: FlaskClient, kind: str, names: tuple[str, ...], **options: str):
    group = create_group(client)
    players = add_players(client, group, *names)
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    if kind in ("president", "piketty"):
        data.update({"target": "25", "titles": "classic", "rule_points": "y"})
    data.update(options)
    r = client.post(f"/g/{group.code}/games/new/{kind}", data=data)
    assert r.status_code == 302, html(r)
    match = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert match
    return group, players, int(match.group(1))


def _url(group, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}/live{tail}"


def _row(game_id: int) -> LiveManche | None:
    db.session.expire_all()
    return db.session.get(LiveManche, game_id)


def _version(client: FlaskClient, group, game_id: int) -> str:
    page = html(client.get(_url(group, game_id)))
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match, page
    return match.group(1)


def _move(client: FlaskClient, group, game_id: int, version: str | None = None, **data: Any):
    data["version"] = version if version is not None else _version(client, group, game_id)
    return client.post(_url(group, game_id, "/move"), data=data)


def _start(client: FlaskClient, group, game_id: int, **data: Any):
    data.setdefault("version", _version(client, group, game_id))
    r = client.post(_url(group, game_id, "/start"), data=data)
    assert r.status_code == 303, html(r)
    return r


def _president(client: FlaskClient):
    group, players, game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"), rule_revolution="y")
    ann = players[0]
    _start(client, group, game_id, leader=str(ann.id))
    return group, players, game_id


# ------------------------------------------------------------------------- storage


def test_a_move_is_stored_survives_a_reload_and_a_second_phone_sees_it(app: Flask, client: FlaskClient) -> None:
    group, (ann, bob, cid, _dan), game_id = _president(client)
    r = _move(client, group, game_id, action="play", cards="7♥ 7♠")
    assert r.status_code == 303 and r.headers["Location"].endswith("/live#turn")
    row = _row(game_id)
    assert row is not None and row.version == 2 and row.number == 1
    assert row.state["trick"] == [{"player": str(ann.id), "cards": ["7h", "7s"]}]
    assert row.moves[0]["said"]["fr"] == ["À Bob de jouer."] and row.moves[0]["said"]["en"] == ["Bob plays next."]
    page = html(client.get(_url(group, game_id)))
    # Whose turn is said once, by the turn line: not again by the last move below it.
    assert 'aria-label="7 de cœur"' in page and page.count("À Bob de jouer.") == 1
    other = app.test_client()
    assert other.post("/join", data={"code": group.code, "passphrase": "trou du cul"}).status_code == 302
    seen = html(other.get(_url(group, game_id), headers=EN))
    assert 'aria-label="7 of hearts"' in seen and "Bob plays." in seen and "Bob plays next." not in seen
    assert re.search(r'<li class="to-move">\s*<span class="who">Bob</span>', seen)
    # The second phone moves; the first sees it.
    assert _move(other, group, game_id, action="pass").status_code == 303
    assert re.search(r'<li class="to-move">\s*<span class="who">Cid</span>', html(client.get(_url(group, game_id))))
    assert _row(game_id).state["trick"][-1] == {"player": str(bob.id), "pass": True}
    assert cid  # Cid plays next


def test_a_stranger_to_the_group_sees_nothing(app: Flask, client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    stranger = app.test_client()
    r = stranger.get(_url(group, game_id))
    assert r.status_code == 302 and "/join" in r.headers["Location"]
    assert stranger.post(_url(group, game_id, "/move"), data={"version": "1", "action": "pass"}).status_code == 403
    assert stranger.get(_url(group, game_id, "/state")).status_code == 302


def test_a_stale_version_is_refused_and_a_double_post_applies_once(app: Flask, client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    version = _version(client, group, game_id)
    first = _move(client, group, game_id, version, action="play", cards="7♥ 7♠")
    assert first.status_code == 303
    # The same tap sent again (a double tap, a retry): kept once, the table is shown.
    again = _move(client, group, game_id, version, action="play", cards="7♥ 7♠")
    assert again.status_code == 303
    assert fr(app, "This move was already recorded.") in html(client.get(_url(group, game_id)))
    row = _row(game_id)
    assert row is not None and len(row.moves) == 1 and row.version == int(version) + 1
    # Another move based on the old version (a second phone that had not seen it): refused.
    stale = _move(client, group, game_id, version, action="play", cards="9♥ 9♠")
    assert stale.status_code == 409
    page = html(stale)
    assert fr(app, "The table changed in the meantime (another device): nothing was recorded. Here it is now.") in page
    assert 'value="9♥ 9♠"' in page  # what was typed is kept
    assert re.search(rf'name="version" value="{int(version) + 1}"', page)  # and based on the table now
    row = _row(game_id)
    assert len(row.moves) == 1 and row.version == int(version) + 1


def test_an_illegal_move_is_refused_with_the_engines_reason_and_nothing_is_stored(client: FlaskClient) -> None:
    # seed 000: « Jouer consiste à poser le même nombre de cartes que le joueur précédent,
    # mais d'un rang supérieur »
    group, _players, game_id = _president(client)
    _move(client, group, game_id, action="play", cards="9♥ 9♠")
    before = _row(game_id)
    assert before is not None
    version, moves, state = before.version, list(before.moves), dict(before.state)
    r = _move(client, group, game_id, action="play", cards="8♥ 8♠")
    assert r.status_code == 200
    page = html(r)
    assert "Il faut jouer plus haut que la paire de 9." in page and 'id="error-summary"' in page
    assert 'value="8♥ 8♠"' in page
    r = _move(client, group, game_id, action="play", cards="R♥")
    assert "Il faut jouer 2 cartes." in html(r)
    # A card the deck does not hold twice, unreadable text: refused at the field, never a 500.
    assert "Il n’y a qu’un 9♥ dans le jeu." in html(_move(client, group, game_id, action="play", cards="9♥ 9♥"))
    assert "Carte inconnue" in html(_move(client, group, game_id, action="play", cards="zz"))
    assert _move(client, group, game_id, action="play", cards="").status_code == 200
    assert _move(client, group, game_id, action="play", cards="9♥\x00").status_code in (200, 400)
    after = _row(game_id)
    assert after.version == version and after.moves == moves and after.state == state


def test_undo_takes_back_the_last_move_once(app: Flask, client: FlaskClient) -> None:
    group, (_ann, bob, _cid, _dan), game_id = _president(client)
    _move(client, group, game_id, action="play", cards="7♥ 7♠")
    _move(client, group, game_id, action="pass")
    row = _row(game_id)
    assert row is not None and len(row.moves) == 2
    version = str(row.version)
    r = client.post(_url(group, game_id, "/undo"), data={"version": version})
    assert r.status_code == 303
    row = _row(game_id)
    assert len(row.moves) == 1 and row.view["to_move"] == str(bob.id) and len(row.state["trick"]) == 1
    # The same undo sent again does nothing more.
    client.post(_url(group, game_id, "/undo"), data={"version": version})
    assert len(_row(game_id).moves) == 1
    assert fr(app, "Nothing was undone: the table changed in the meantime.") in html(client.get(_url(group, game_id)))


def test_starting_again_is_asked_once(client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    _move(client, group, game_id, action="play", cards="7♥ 7♠")
    version = str(_row(game_id).version)
    asked = client.post(_url(group, game_id, "/restart"), data={"version": version}, headers=EN)
    assert asked.status_code == 200 and "Start round 1 again?" in html(asked)
    assert 'name="confirmed" value="1"' in html(asked)
    assert len(_row(game_id).moves) == 1
    r = client.post(_url(group, game_id, "/restart"), data={"version": version, "confirmed": "1"})
    assert r.status_code == 303
    row = _row(game_id)
    assert row.state is None and row.moves == [] and row.history == []
    assert "Start following" in html(client.get(_url(group, game_id), headers=EN))


def test_the_state_endpoint_says_when_the_table_changed(client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    r = client.get(_url(group, game_id, "/state"))
    assert r.status_code == 200 and r.json is not None
    token = r.json["token"]
    assert r.headers["ETag"] == f'"{token}"'
    assert client.get(_url(group, game_id, "/state"), headers={"If-None-Match": f'"{token}"'}).status_code == 304
    _move(client, group, game_id, action="play", cards="7♥ 7♠")
    changed = client.get(_url(group, game_id, "/state"), headers={"If-None-Match": f'"{token}"'})
    assert changed.status_code == 200 and changed.json["token"] != token
    assert f'data-watch-token="{changed.json["token"]}"' in html(client.get(_url(group, game_id)))


def test_a_get_reads_the_stored_manche_in_a_constant_number_of_queries(client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def queries(tail: str = "") -> int:
        url = _url(group, game_id, tail)
        statements.clear()
        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            assert client.get(url).status_code == 200
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
        return len(statements)

    _move(client, group, game_id, action="play", cards="3♥")
    few, few_state = queries(), queries("/state")
    for card in ("4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "V♥", "D♥", "R♥", "A♥"):
        assert _move(client, group, game_id, action="play", cards=card).status_code == 303
    assert len(_row(game_id).moves) == 12
    assert queries() == few and queries("/state") == few_state


# ----------------------------------------------------------------------- the kinds


def test_a_president_manche_to_its_end_fills_the_round_in(app: Flask, client: FlaskClient) -> None:
    # seed 000: « Lorsqu'un joueur pose des deux, personne ne peut plus monter, donc il
    # redémarre immédiatement un nouveau tour »; the order of going out gives the titles.
    group, (ann, bob, cid), game_id = _game(client, "president", ("Ann", "Bob", "Cid"), rule_twos_cut="y")
    _start(client, group, game_id)  # the first manche: anyone may lead
    # The round form, opened while the manche goes on, is empty (the manche's end must
    # still show in it, below).
    empty = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert fr(app, "Filled in from the live play-by-play: check it, then save.") not in empty
    assert 'name="finish-0"' in empty and "<option selected value=" not in empty
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Anyone may lead." in page and "Who leads?" in page
    assert _move(client, group, game_id, action="play", cards="4♥").status_code == 200  # who?
    assert _move(client, group, game_id, action="play", player=str(bob.id), cards="4♥").status_code == 303
    assert _move(client, group, game_id, action="pass").status_code == 303  # Cid
    assert _move(client, group, game_id, action="pass").status_code == 303  # Ann: the trick is Bob's
    assert _row(game_id).view["to_move"] == str(bob.id)
    # Bob goes out on a 2: a forbidden finish with les 2 qui coupent (ranked last).
    r = _move(client, group, game_id, action="play", cards="2♥", last="y")
    assert r.status_code == 303, html(r)
    row = _row(game_id)
    assert row.moves[-1]["effects"] == ["out", "finish_last", "trick_won"]
    said = [line.replace("\u00a0", " ") for line in row.moves[-1]["said"]["fr"]]
    assert "Bob sort sur une carte interdite : dernière place." in said
    assert row.entry is None
    # Bob is out: Cid, next, leads and goes out at once; Ann is left last.
    assert _move(client, group, game_id, action="play", cards="R♠", last="y").status_code == 303
    row = _row(game_id)
    assert row.view["finished"] is True
    assert row.entry == {
        "finish": [str(bob.id), str(cid.id), str(ann.id)],
        "finished_on": [str(bob.id)],
        "events": {},
    }
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "What round 1 decided" in page and "Order of going out: Bob, Cid, Ann." in page
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert fr(app, "Filled in from the live play-by-play: check it, then save.") in form
    for i, p in enumerate((bob, cid, ann)):
        assert re.search(rf'<select[^>]*name="finish-{i}"[^>]*>.*?<option selected value="{p.id}"', form, re.S)
    assert re.search(rf'<input checked id="forbidden_{bob.id}"', form)
    # Saved as it stands: the round is the live one's, and the live manche is stale.
    data = {"round": "1", "event": "", "forbidden_" + str(bob.id): "y"}
    data |= {f"finish-{i}": str(p.id) for i, p in enumerate((bob, cid, ann))}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)
    rnd = db.session.scalar(sa.select(Round).where(Round.game_id == game_id))
    assert rnd.entry["finish"] == [str(bob.id), str(cid.id), str(ann.id)] and rnd.entry["finished_on"] == [str(bob.id)]
    assert rnd.result["hierarchy"] == [str(cid.id), str(ann.id), str(bob.id)]
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Live: Round 2" in page and "Start following" in page
    # The next manche: the Président (Cid) leads, players in the order of the hierarchy.
    _start(client, group, game_id)
    assert _row(game_id).view["to_move"] == str(cid.id) and _row(game_id).state["players"] == rnd.result["hierarchy"]


def test_a_revolution_and_a_trick_won_by_twos(client: FlaskClient) -> None:
    # seed 000: « Si un joueur pose un carré, il y a une révolution et la valeur des cartes est inversée. »
    group, _players, game_id = _president(client)
    _move(client, group, game_id, action="play", cards="5♥ 5♠ 5♣ 5♦")
    row = _row(game_id)
    assert row.view["reversed"] is True and row.moves[-1]["effects"] == ["revolution"]
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Revolution: the order of the cards is reversed." in page
    assert "Révolution\u00a0: il faut jouer plus bas que le carré de 5." in html(
        _move(client, group, game_id, action="play", cards="9♥ 9♠ 9♣ 9♦")
    )


def test_the_live_referee_says_vous(client: FlaskClient) -> None:
    # issue 22: one register, « vous » everywhere (not « Le pli est pour toi, tu rejoues. »)
    group, _players, game_id = _president(client)
    _move(client, group, game_id, action="play", cards="7♥")
    assert _move(client, group, game_id, action="play", cards="2♥").status_code == 303  # Bob
    assert _row(game_id).moves[-1]["said"]["fr"] == ["Le pli est pour vous, vous rejouez."]
    page = html(client.get(_url(group, game_id)))
    assert "Le pli est pour vous, vous rejouez." in page and not re.search(r"\b(tu|toi)\b", page)


def test_a_whist_deal_followed_live_fills_the_deal_in(client: FlaskClient) -> None:
    # seed 002: « Le donneur lui ne peut dire un nombre de plis qui ferait que la somme des
    # annonces serait égale au nombre de plis à faire. »
    group, (ann, bob, cid), game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"))  # Ann deals
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Bob bids first." in page and "Cid leads the first trick (after Bob, who bids first)." in page
    _start(client, group, game_id)
    assert _move(client, group, game_id, bid="2").status_code == 303  # Bob
    assert _move(client, group, game_id, bid="1").status_code == 303  # Cid
    page = html(client.get(_url(group, game_id), headers=EN))
    # The engine's one sentence of the forbidden bid, said once (the flag; not again in Cid's bid's words).
    assert page.count("Ann deals and may not bid 2: the bids would add up to 5, the number of tricks.") == 1
    refused = _move(client, group, game_id, bid="2")
    assert "Ann donne et ne peut pas annoncer 2\u00a0: les annonces feraient 5, le nombre de plis." in html(refused)
    assert _row(game_id).state["bids"] == {str(bob.id): 2, str(cid.id): 1}
    assert _move(client, group, game_id, bid="1").status_code == 303
    # Five tricks of three cards; Cid (second left of Ann) leads the first; the highest
    # trump takes the trick (the Excuse as 22 beats everything), and its player leads.
    plays = ["T1", "T2", "T21", "T20", "T3", "T4", "EX:22", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12"]
    for card in plays:
        r = _move(client, group, game_id, card=card)
        assert r.status_code == 303, html(r)
    row = _row(game_id)
    assert row.view["finished"] is True
    assert row.entry == {
        "bids": {str(bob.id): 2, str(cid.id): 1, str(ann.id): 1},
        "tricks": {str(ann.id): 1, str(bob.id): 3, str(cid.id): 1},
    }
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    for p in (ann, bob, cid):
        assert f'<input checked id="bid_{p.id}-{row.entry["bids"][str(p.id)]}"' in form
        assert f'<input checked id="tricks_{p.id}-{row.entry["tricks"][str(p.id)]}"' in form
    data = {"round": "1"} | {f"bid_{p}": str(v) for p, v in row.entry["bids"].items()}
    data |= {f"tricks_{p}": str(v) for p, v in row.entry["tricks"].items()}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)
    rnd = db.session.scalar(sa.select(Round).where(Round.game_id == game_id))
    assert rnd.entry == row.entry and rnd.result["pending"] is False


def test_a_whist_card_already_out_or_an_excuse_without_value(client: FlaskClient) -> None:
    group, (ann, _bob, _cid), game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"))
    _start(client, group, game_id)
    for bid in ("0", "0", "0"):
        _move(client, group, game_id, bid=bid)
    _move(client, group, game_id, card="T7")
    assert "L’atout 7 est déjà sorti dans cette donne." in html(_move(client, group, game_id, card="T7"))
    assert "L’Excuse s’annonce" in html(_move(client, group, game_id, card="EX"))
    assert ann


def test_a_crapouille_hand_followed_live_fills_the_winner_in(app: Flask, client: FlaskClient) -> None:
    # seed 003: an 8 asks a suit, a 10 reverses, a 2 makes the next player draw and lose his turn.
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = start_crapouille(client, group, [ann, bob, cid, dan])
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Who plays first?" in page
    r = client.post(_url(group, game_id, "/start"), data={"version": "0", "card": "9♦"})
    assert r.status_code == 200 and fr(app, "Say who plays first.") in html(r) and _row(game_id) is None
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    assert _row(game_id).state == {
        "players": [str(p.id) for p in (ann, bob, cid, dan)],
        "pile": ["9d"],
        "direction": 1,
        "asked": None,
        "turn": str(ann.id),
    }
    # « Vous posez le 8 de cœur sur la table et demandez « pique ». »
    assert "Quelle couleur demandez-vous\u00a0?" in html(_move(client, group, game_id, action="play", cards="8♥"))
    assert _move(client, group, game_id, action="play", cards="8♥", asked="s").status_code == 303
    refused = html(_move(client, group, game_id, action="play", cards="9♥"))
    assert "Pique demandé\u00a0: il faut du pique, un 8 ou un joker." in refused
    assert _move(client, group, game_id, action="play", cards="10♠").status_code == 303  # Bob reverses
    row = _row(game_id)
    assert row.state["direction"] == -1 and row.view["to_move"] == str(ann.id)
    assert _move(client, group, game_id, action="play", cards="2♠").status_code == 303  # Ann: Dan draws, skipped
    row = _row(game_id)
    assert row.view["to_move"] == str(cid.id) and row.view["skipped"] == [str(dan.id)]
    assert "Dan pioche une carte et passe son tour." in row.moves[-1]["said"]["fr"]
    # Cid cannot play: draws and keeps the card; the turn goes on (to Bob, the direction reversed).
    assert _move(client, group, game_id, action="draw").status_code == 303
    row = _row(game_id)
    assert row.moves[-1]["move"] == {"player": str(cid.id), "draw": True} and row.view["to_move"] == str(bob.id)
    # Bob draws 2♥, which fits: laid at once (one move, told once).
    assert _move(client, group, game_id, action="draw", cards="2♥").status_code == 303
    row = _row(game_id)
    assert row.moves[-1]["move"] == {"player": str(bob.id), "draw": True, "drawn": "2h", "card": "2h"}
    assert row.view["to_move"] == str(dan.id) and row.view["skipped"] == [str(ann.id)]
    # Dan goes out on his last card.
    assert _move(client, group, game_id, action="play", cards="7♥", last="y").status_code == 303
    row = _row(game_id)
    assert row.view["finished"] is True and row.entry == {"winner": str(dan.id)}
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert re.search(rf'<input checked id="winner-\d+" name="winner" required type="radio" value="{dan.id}"', form)
    assert len(re.findall(r"<input checked id=\"winner-", form)) == 1


def test_a_round_saved_elsewhere_makes_the_live_manche_stale(client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _president(client)
    _move(client, group, game_id, action="play", cards="7♥ 7♠")
    version = str(_row(game_id).version)
    data = {"round": "1", "event": ""} | {f"finish-{i}": str(p.id) for i, p in enumerate((ann, bob, cid, dan))}
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Live: Round 2" in page and "Start following" in page
    r = _move(client, group, game_id, version, action="pass")
    assert r.status_code == 303
    assert len(_row(game_id).moves) == 1  # nothing applied to the old manche


def test_a_card_draw_round_cannot_be_followed(client: FlaskClient) -> None:
    group, _players, game_id = _game(client, "piketty", ("Ann", "Bob", "Cid", "Dan"))
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "This round is a card draw: there is no play to follow. Enter the cards drawn." in page
    r = client.post(_url(group, game_id, "/start"), data={"version": "0"})
    assert r.status_code == 303 and _row(game_id) is None


def test_a_whist_deal_whose_bids_were_saved_is_followed_from_its_first_trick(client: FlaskClient) -> None:
    group, (ann, bob, cid), game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"))  # Ann deals 5
    data = {"round": "1", f"bid_{bob.id}": "2", f"bid_{cid.id}": "1", f"bid_{ann.id}": "1"}
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    page = html(client.get(_url(group, game_id), headers=EN))
    assert "Live: Hand 1" in page and "The bids are saved: the table follows the tricks." in page
    _start(client, group, game_id)
    row = _row(game_id)
    assert row is not None and row.number == 1 and row.view["bidding"] is False
    assert row.view["to_move"] == str(cid.id)  # second left of the dealer leads
    for card in ("T1", "T2", "T21", "T20", "T3", "T4", "T19", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12"):
        assert _move(client, group, game_id, card=card).status_code == 303
    row = _row(game_id)
    assert row.entry == {
        "bids": {str(bob.id): 2, str(cid.id): 1, str(ann.id): 1},
        "tricks": {str(ann.id): 1, str(bob.id): 3, str(cid.id): 1},
    }
    # The deal's second step is its own page (the round is saved): the screen leads there.
    page = html(client.get(_url(group, game_id)))
    assert f'href="/g/{group.code}/games/{game_id}/rounds/1/edit"' in page
    # ... which opens with the tricks filled in from the live deal, to be confirmed.
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/1/edit", headers=EN))
    assert "Filled in from the live play-by-play: check it, then save." in form
    for p in (ann, bob, cid):
        assert f'<input checked id="tricks_{p.id}-{row.entry["tricks"][str(p.id)]}"' in form
    data = {"round": "1"} | {f"tricks_{p}": str(v) for p, v in row.entry["tricks"].items()}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/1/edit", data=data)
    assert r.status_code == 302, html(r)
    rnd = db.session.scalar(sa.select(Round).where(Round.game_id == game_id))
    assert rnd.entry == row.entry and rnd.result["pending"] is False


def test_a_drawn_eight_laid_at_once_needs_its_suit(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    refused = _move(client, group, game_id, action="draw", cards="8♣")
    assert "Quelle couleur demandez-vous\u00a0?" in html(refused)
    assert _row(game_id).moves == []
    assert _move(client, group, game_id, action="draw", cards="8♣", asked="h").status_code == 303
    row = _row(game_id)
    assert [m["move"] for m in row.moves] == [
        {"player": str(ann.id), "draw": True, "drawn": "8c", "card": "8c", "asked": "h"},
    ]
    assert row.state["asked"] == "h" and row.view["to_move"] == str(bob.id)
    # Drawn and laid is one move: undo takes it back whole.
    client.post(_url(group, game_id, "/undo"), data={"version": str(row.version)})
    assert _row(game_id).moves == [] and _row(game_id).state["turn"] == str(ann.id)


JUNK = ["", "\x00", "9♥\x00", "-1", "99999999999999999999", "T99", "EX:7", "2♥ " * 400, "<script>", "１", "\u202e"]


def test_junk_never_makes_a_server_error_nor_a_change(client: FlaskClient) -> None:
    group, _players, game_id = _president(client)
    eve, fay, gus = add_players(client, group, "Eve", "Fay", "Gus")
    seats = {f"seats-{i}": str(p.id) for i, p in enumerate((eve, fay, gus))}
    r = client.post(f"/g/{group.code}/games/new/whist-tarot", data=seats)
    match = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert match
    whist_id = int(match.group(1))
    _start(client, group, whist_id)
    for gid in (game_id, whist_id):
        before = _row(gid)
        assert before is not None
        version, moves = before.version, list(before.moves)
        for junk in JUNK:
            for field in ("version", "action", "cards", "player", "asked", "last", "bid", "card", "unannounced"):
                # An illegal move (two ranks; a bid of 7 with 5 cards dealt) with junk in one field.
                data = {"version": str(version), "action": "play", "cards": "3♥ 4♥"}
                if gid == whist_id:
                    data = {"version": str(version), "bid": "7"}
                data[field] = junk
                r = client.post(_url(group, gid, "/move"), data=data)
                assert r.status_code < 500, (field, junk)
            for tail in ("/undo", "/restart", "/start"):
                r = client.post(_url(group, gid, tail), data={"version": junk, "leader": junk, "card": junk})
                assert r.status_code < 500, (tail, junk)
        after = _row(gid)
        assert after.moves == moves and after.version == version and after.state is not None


def test_a_whist_bid_does_not_say_again_who_bids_next(client: FlaskClient) -> None:
    # The turn line says « À Cid d’annoncer. » already: the last bid does not say it a
    # second time under it (issue 22: the same message is not shown twice).
    group, (_ann, _bob, _cid), game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"))  # Ann deals
    _start(client, group, game_id)
    assert _move(client, group, game_id, bid="2").status_code == 303  # Bob bids, Cid next
    text = " ".join(html(client.get(_url(group, game_id))).split())
    assert text.count("À Cid d’annoncer.") == 1
    page = " ".join(html(client.get(_url(group, game_id), headers=EN)).split())
    assert "Cid bids." in page and "Cid bids next." not in page
