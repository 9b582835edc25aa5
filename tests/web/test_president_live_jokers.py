"""Wild jokers followed live (issue 23): a player left holding only jokers shows them, is out
at once and ranked last; the round form opens with it ticked.

seed 000: « il ne peut être joué seul, il doit être utilisé en complément d'une ou plusieurs
cartes pour former une paire »; RULES.md §1: « a player left holding only jokers can never play
them, so he is out of the manche at once and finishes last — after anyone already made last —
as with a forbidden finish; when he was to lead, the lead passes to the next player still in »."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import html
from tests.web.test_president_carry import EN, _checked, _game, _last_round, _live, _move, _row, _save, _start
from tests.web.test_whist_pages import fr


def test_a_player_left_with_only_jokers_shows_them_live(app: Flask, client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, rule_jokers="2", rule_joker_wild="y")
    _start(client, group, game_id, dealer=str(dan.id))  # Ann leads
    # A joker alone is refused with the engine's reason.
    refused = html(_move(client, group, game_id, action="play", cards="RJ"))
    assert "Un joker ne se joue pas seul\u00a0: il complète une paire, un brelan, un carré ou un poker." in refused
    # Ann shows her two jokers as her last cards: out, last place; Bob, next still in, leads.
    r = _move(client, group, game_id, action="play", cards="RJ BJ", last="y")
    assert r.status_code == 303
    row = _row(game_id)
    assert row.moves[-1]["effects"] == ["out", "finish_last"]
    assert row.moves[-1]["said"]["fr"] == [
        "Ann ne peut plus jouer ses jokers\u00a0: dernière place.",
        "À Bob de jouer.",
    ]
    assert row.moves[-1]["said"]["en"] == ["Ann can no longer play their jokers: last place.", "Bob plays next."]
    assert row.view["to_move"] == str(bob.id) and row.view["out"] == [str(ann.id)] and row.view["shown"] == [0]
    page = html(client.get(_live(group, game_id), headers=EN))
    assert "jokers shown: last place" in page and "Bob leads." in page
    assert page.count("Ann can no longer play their jokers: last place.") == 1
    # The players list ranks her last, not first out.
    assert '<span class="who">Ann</span> <small>last place</small>' in page and "finished 1" not in page
    # Bob lays his last card, Cid covers it with his last card: Dan is left.
    assert _move(client, group, game_id, action="play", cards="9♥", last="y").status_code == 303
    assert _move(client, group, game_id, action="play", cards="10♥", last="y").status_code == 303
    page = html(client.get(_live(group, game_id), headers=EN))
    assert '<span class="who">Bob</span> <small>finished 1</small>' in page
    assert '<span class="who">Cid</span> <small>finished 2</small>' in page
    row = _row(game_id)
    assert row.view["finished"] is True
    assert row.entry == {
        "finish": [str(ann.id), str(bob.id), str(cid.id), str(dan.id)],
        "finished_on": [str(ann.id)],
        "events": {},
    }
    # The round form: « only jokers left » among the forbidden finishes, Ann ticked.
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert "Went out on a forbidden card (only jokers left)" in form and _checked(form, f"forbidden_{ann.id}")
    assert fr(app, "only jokers left") in html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    _save(client, group, game_id, 1, [ann, bob, cid, dan], **{f"forbidden_{ann.id}": "y"})
    assert _last_round(game_id).result["hierarchy"] == [str(p.id) for p in (bob, cid, dan, ann)]
    assert _last_round(game_id).result["finished_last"] == [str(ann.id)]


def test_a_follower_shows_jokers_the_trick_goes_on(client: FlaskClient) -> None:
    group, (ann, _bob, cid, dan), game_id = _game(client, rule_jokers="2", rule_joker_wild="y")
    _start(client, group, game_id, dealer=str(dan.id))
    assert _move(client, group, game_id, action="play", cards="9♥").status_code == 303  # Ann
    assert _move(client, group, game_id, action="play", cards="BJ", last="y").status_code == 303  # Bob
    row = _row(game_id)
    assert row.view["to_move"] == str(cid.id) and row.view["shown"] == [1]
    assert row.moves[-1]["said"]["fr"] == [
        "Bob ne peut plus jouer ses jokers\u00a0: dernière place.",
        "À Cid de jouer.",
    ]
    # The 9 is still the card to beat.
    assert "Il faut jouer plus haut que 9." in html(_move(client, group, game_id, action="play", cards="8♣"))
    assert _move(client, group, game_id, action="pass").status_code == 303  # Cid
    assert _move(client, group, game_id, action="pass").status_code == 303  # Dan: the trick is Ann's
    row = _row(game_id)
    assert row.view["over"] is True and row.view["to_move"] == str(ann.id)
    assert row.moves[-1]["said"]["fr"] == ["Le pli est pour Ann, qui rejoue."]
    page = html(client.get(_live(group, game_id), headers=EN))
    assert "The trick is over" in page and "jokers shown: last place" in page
