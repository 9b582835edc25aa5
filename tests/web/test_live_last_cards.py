"""« Ce sont ses dernières cartes »: the live referee counts the cards each player holds
(the engine's deal for the manche, minus the cards laid, plus the cards drawn) and, when a
move could be a player's last cards but the box was not ticked, asks « Était-ce sa
dernière carte ? » before storing anything (companion/referee/live.py, « the last cards »;
issue 23).  « Oui » stores the move as the player's last; « Non » stores it as typed and
stops counting that player for the manche.  Both answers are version-checked writes."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.models import LiveManche
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_referee_live import _game, _move, _row, _start, _url
from tests.web.test_whist_pages import fr

EN = {"Accept-Language": "en"}
NBSP = "\u00a0"
ONE = f"Était-ce sa dernière carte{NBSP}?"
SEVERAL = f"Étaient-ce ses dernières cartes{NBSP}?"


def _hidden(page: str) -> dict[str, str]:
    """The question's form: what its hidden fields carry (the move as typed)."""
    form = re.search(r'<section class="panel live-question".*?</section>', page, re.S)
    assert form, page
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(0)))


def _answer(client: FlaskClient, group, game_id: int, page: str, yes: bool):
    data: dict[str, Any] = _hidden(page)
    data["last" if yes else "not_last"] = "y"
    return client.post(_url(group, game_id, "/move"), data=data)


def _stored(game_id: int) -> tuple[int, int]:
    row = _row(game_id)
    assert row is not None
    return row.version, len(row.moves)


def _hands(row: LiveManche | None, *players: Any) -> list[int | None]:
    assert row is not None and row.view is not None
    return [row.view["hands"].get(str(p.id)) for p in players]


# ---------------------------------------------------------------------- Président


def test_president_asks_when_the_deal_is_spent_and_no_stops_counting(app: Flask, client: FlaskClient) -> None:
    # seed 000: « le premier joueur à se débarrasser de toutes ses cartes » goes out; with the
    # 32-card deck at four players the engine deals 8 cards each (deal_for).
    group, (ann, bob, cid, dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"), rule_reduced="y")
    _start(client, group, game_id, leader=str(ann.id))
    row = _row(game_id)
    assert row is not None and row.view["hands"] == {str(p.id): 8 for p in (ann, bob, cid, dan)}
    assert _move(client, group, game_id, action="play", cards="8♥ 8♠ 8♣ 8♦").status_code == 303
    for _ in range(3):
        assert _move(client, group, game_id, action="pass").status_code == 303  # the trick is Ann's
    assert _hands(_row(game_id), ann, bob) == [4, 8]
    before = _stored(game_id)
    # Ann lays four more cards, the box unticked: by the count they were her last ones.
    asked = _move(client, group, game_id, action="play", cards="9♥ 9♠ 9♣ 9♦")
    assert asked.status_code == 200
    page = html(asked)
    assert SEVERAL in page and "D’après le compte des cartes, Ann n’en a plus." in page
    assert _stored(game_id) == before  # nothing is stored before the answer
    hidden = _hidden(page)
    assert hidden["cards"] == "9♥ 9♠ 9♣ 9♦" and hidden["action"] == "play" and hidden["version"] == str(before[0])
    assert "last" not in hidden and "not_last" not in hidden
    assert '<button class="button primary big" type="submit" name="last" value="y">Oui</button>' in page
    # The same question in English (the move as typed, sent again: still nothing stored).
    page_en = html(client.post(_url(group, game_id, "/move"), data=hidden, headers=EN))
    assert "Were these their last cards?" in page_en and "By the count of the cards, Ann has none left." in page_en
    # « Non »: stored as typed (Ann stays in), and Ann is no longer counted this manche.
    no = _answer(client, group, game_id, page, yes=False)
    assert no.status_code == 303, html(no)
    row = _row(game_id)
    assert row is not None and row.version == before[0] + 1 and len(row.moves) == before[1] + 1
    assert row.moves[-1]["move"] == {"player": str(ann.id), "cards": ["9h", "9s", "9c", "9d"], "last": False}
    assert row.view["out"] == [] and row.view["to_move"] == str(bob.id)
    assert str(ann.id) not in row.view["hands"] and _hands(row, bob) == [8]
    # The same answer sent again (a double tap): kept once.
    again = _answer(client, group, game_id, page, yes=False)
    assert again.status_code == 303 and len(_row(game_id).moves) == before[1] + 1
    # Ann is not asked again in this manche.
    for _ in range(3):
        assert _move(client, group, game_id, action="pass").status_code == 303
    assert _move(client, group, game_id, action="play", cards="10♥").status_code == 303
    assert _row(game_id).moves[-1]["move"]["last"] is False
    # Undo takes the count back with the move: before the « Non », Ann was counted.
    for _ in range(5):
        version = str(_row(game_id).version)
        assert client.post(_url(group, game_id, "/undo"), data={"version": version}).status_code == 303
    assert _hands(_row(game_id), ann) == [4]


def test_a_ticked_box_is_never_refused_and_fewer_cards_are_not_asked(client: FlaskClient) -> None:
    group, (ann, bob, _cid, _dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"), rule_reduced="y")
    _start(client, group, game_id, leader=str(ann.id))
    # Three cards of eight: no question.
    assert _move(client, group, game_id, action="play", cards="8♥ 8♠ 8♣").status_code == 303
    # Bob says these are his last cards though the count says five remain: the table knows best.
    r = _move(client, group, game_id, action="play", cards="9♥ 9♠ 9♣", last="y")
    assert r.status_code == 303, html(r)
    row = _row(game_id)
    assert row is not None and row.view["out"] == [str(bob.id)] and _hands(row, ann, bob) == [5, 5]


def test_an_illegal_move_is_refused_not_asked(client: FlaskClient) -> None:
    # seed 000: « poser le même nombre de cartes que le joueur précédent, mais d'un rang supérieur »
    group, (ann, _bob, _cid, _dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"), rule_reduced="y")
    _start(client, group, game_id, leader=str(ann.id))
    _move(client, group, game_id, action="play", cards="R♥ R♠ R♣ R♦")  # Ann: 4 left
    for _ in range(3):
        _move(client, group, game_id, action="pass")
    _move(client, group, game_id, action="play", cards="9♥")  # Ann: 3 left
    _move(client, group, game_id, action="play", cards="10♥")  # Bob
    _move(client, group, game_id, action="play", cards="V♥")  # Cid
    _move(client, group, game_id, action="play", cards="D♥")  # Dan
    # Three cards on a single: refused with the engine's reason, never asked.
    page = html(_move(client, group, game_id, action="play", cards="A♥ A♠ A♣"))
    assert ONE not in page and SEVERAL not in page and "Il faut jouer une seule carte." in page


def test_piketty_counts_its_uneven_deal_and_yes_ends_the_players_manche(client: FlaskClient) -> None:
    # seed 001: « La distribution doit se terminer par le trouduc et le vice-trouduc qui se
    # retrouve avec une carte supplémentaire chacun » (80 cards at six: 13, 13, 13, 13, 14, 14).
    names = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    group, players, game_id = _game(client, "piketty", names)
    ann, bob, cid, dan, eve, fay = players
    draw = {"Ann": "2♠", "Bob": "A♠", "Cid": "R♠", "Dan": "D♠", "Eve": "V♠", "Fay": "10♠"}
    data = {"round": "1"} | {f"draw_{p.id}": draw[p.name] for p in players}
    assert client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data).status_code == 302
    _start(client, group, game_id)  # the Président (Ann) leads; play goes down the hierarchy
    row = _row(game_id)
    assert row is not None and row.state["players"] == [str(p.id) for p in players]
    assert _hands(row, *players) == [13, 13, 13, 13, 14, 14]
    assert _move(client, group, game_id, action="play", cards="6♥ 6♥ 6♠ 6♠ 6♣ 6♣ 6♦ 6♦").status_code == 303
    for _ in range(4):
        assert _move(client, group, game_id, action="pass").status_code == 303  # Bob … Eve
    assert _move(client, group, game_id, action="play", cards="7♥ 7♥ 7♠ 7♠ 7♣ 7♣ 7♦ 7♦").status_code == 303  # Fay
    for _ in range(5):
        assert _move(client, group, game_id, action="pass").status_code == 303  # Ann … Eve: Fay leads
    # Fay has laid thirteen cards of fourteen: not asked (a player dealt 13 would be).
    assert _move(client, group, game_id, action="play", cards="8♥ 8♥ 8♠ 8♠ 8♣").status_code == 303
    assert _hands(_row(game_id), ann, fay) == [5, 1]
    # Ann lays her thirteenth card, the box unticked: asked; « Oui » makes it her last ones.
    asked = _move(client, group, game_id, action="play", cards="9♥ 9♥ 9♠ 9♠ 9♣")
    assert asked.status_code == 200 and SEVERAL in html(asked)
    yes = _answer(client, group, game_id, html(asked), yes=True)
    assert yes.status_code == 303, html(yes)
    row = _row(game_id)
    assert row is not None and row.view["out"] == [str(ann.id)]
    assert row.moves[-1]["move"]["last"] is True and _hands(row, ann) == [0]
    # seed 001: « quand quelqu'un se débarrasse de sa dernière carte les autres peuvent jouer
    # dessus »; all pass, and the lead goes to the highest-titled player still in (Bob).
    for _ in range(5):
        assert _move(client, group, game_id, action="pass").status_code == 303
    assert _row(game_id).view["to_move"] == str(bob.id)
    assert _move(client, group, game_id, action="play", cards="10♥").status_code == 303
    for _ in range(3):
        assert _move(client, group, game_id, action="pass").status_code == 303  # Cid, Dan, Eve
    # Fay's fourteenth card: « Était-ce sa dernière carte ? » (one card).
    asked = _move(client, group, game_id, action="play", cards="V♥")
    assert asked.status_code == 200 and ONE in html(asked) and "Fay" in html(asked)
    assert cid and dan and eve


def test_a_second_phone_storing_the_move_first_makes_the_answer_a_repeat(app: Flask, client: FlaskClient) -> None:
    group, (ann, _bob, _cid, _dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"), rule_reduced="y")
    _start(client, group, game_id, leader=str(ann.id))
    _move(client, group, game_id, action="play", cards="8♥ 8♠ 8♣ 8♦")
    for _ in range(3):
        _move(client, group, game_id, action="pass")
    page = html(_move(client, group, game_id, action="play", cards="9♥ 9♠ 9♣ 9♦"))
    assert SEVERAL in page
    # Meanwhile the other phone typed the same move, box ticked: stored.
    other = app.test_client()
    assert other.post("/join", data={"code": group.code, "passphrase": "trou du cul"}).status_code == 302
    version = _hidden(page)["version"]
    r = _move(other, group, game_id, version, action="play", cards="9♥ 9♠ 9♣ 9♦", last="y")
    assert r.status_code == 303
    stored = _stored(game_id)
    # « Oui » on the first phone: the same move, already recorded, is not applied twice.
    yes = _answer(client, group, game_id, page, yes=True)
    assert yes.status_code == 303 and _stored(game_id) == stored
    assert fr(app, "This move was already recorded.") in html(client.get(_url(group, game_id)))
    # « Non » based on the old version: the table changed, nothing is recorded.
    no = _answer(client, group, game_id, page, yes=False)
    assert no.status_code == 409 and _stored(game_id) == stored


def test_a_move_sent_later_by_the_outbox_is_not_stored_and_says_why(client: FlaskClient) -> None:
    group, (ann, _bob, _cid, _dan), game_id = _game(client, "president", ("Ann", "Bob", "Cid", "Dan"), rule_reduced="y")
    _start(client, group, game_id, leader=str(ann.id))
    _move(client, group, game_id, action="play", cards="8♥ 8♠ 8♣ 8♦")
    for _ in range(3):
        _move(client, group, game_id, action="pass")
    before = _stored(game_id)
    data = {"version": str(before[0]), "action": "play", "cards": "9♥ 9♠ 9♣ 9♦"}
    r = client.post(_url(group, game_id, "/move"), data=data, headers={"X-Companion-Outbox": "1"})
    assert r.json is not None and r.json["outcome"] == "refused"
    assert r.json["messages"] == [
        f"Rien n’a été enregistré{NBSP}: dites sur l’écran en direct si Ann a posé ses dernières cartes."
    ]
    assert _stored(game_id) == before


# ---------------------------------------------------------------------- crapouille


def test_crapouille_counts_draws_and_the_penalty_of_a_two(client: FlaskClient) -> None:
    # seed 003: « Le donneur distribue cinq cartes à chacun »; a player who cannot play « tire
    # une carte du talon qu'il met sur la dernière carte posée si elle est de même couleur ou
    # de même rang que celle-ci, sinon dans son jeu »; « le 2, qui fait prendre
    # obligatoirement la première carte du talon au joueur suivant »; « Lorsqu'un joueur
    # s'est débarrassé de toutes ses cartes, le coup se termine. »
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    assert _hands(_row(game_id), ann, bob, cid) == [5, 5, 5]

    def play(card: str, **data: Any) -> None:
        r = _move(client, group, game_id, action="play", cards=card, **data)
        assert r.status_code == 303, html(r)

    play("2♦")  # Ann: Bob draws a card and loses his turn
    assert _hands(_row(game_id), ann, bob, cid) == [4, 6, 5]
    play("5♦")  # Cid
    play("5♠")  # Ann
    play("5♥")  # Bob
    assert _move(client, group, game_id, action="draw").status_code == 303  # Cid keeps it
    play("6♥")  # Ann
    play("6♣")  # Bob
    assert _move(client, group, game_id, action="draw", cards="6♦").status_code == 303  # Cid lays it
    assert _hands(_row(game_id), ann, bob, cid) == [2, 4, 5]
    play("7♦")  # Ann: one card left
    play("7♣")  # Bob
    play("7♥")  # Cid
    # Ann's fifth card, the box unticked: asked; « Non »: the count was wrong (a misdeal).
    before = _stored(game_id)
    asked = _move(client, group, game_id, action="play", cards="9♥")
    assert asked.status_code == 200 and ONE in html(asked) and _stored(game_id) == before
    assert f"Non{NBSP}: le compte était faux" in html(asked) and "les cartes d’Ann" in html(asked)
    assert _answer(client, group, game_id, html(asked), yes=False).status_code == 303
    row = _row(game_id)
    assert row is not None and row.view["finished"] is False and row.view["to_move"] == str(bob.id)
    assert str(ann.id) not in row.view["hands"]
    play("9♣")  # Bob
    play("9♠")  # Cid
    play("V♠")  # Ann: not asked any more
    # Bob's fifth card laid: he drew one (Ann's 2), so one is left: not asked.
    play("V♥")
    assert _hands(_row(game_id), bob) == [1]
    play("V♣")  # Cid
    play("D♣")  # Ann
    # Bob's last card, an 8, the box unticked and no suit named: asked first.
    asked = _move(client, group, game_id, action="play", cards="8♣")
    assert asked.status_code == 200 and ONE in html(asked), html(asked)
    assert _answer(client, group, game_id, html(asked), yes=True).status_code == 303
    row = _row(game_id)
    assert row is not None and row.view["finished"] is True and row.entry == {"winner": str(bob.id)}
    assert row.moves[-1]["move"] == {"player": str(bob.id), "card": "8c", "last": True}


def test_a_drawn_two_laid_at_once_makes_the_next_player_draw(client: FlaskClient) -> None:
    # seed 003: the drawn card that fits goes on the pile, and « le 2 … fait prendre
    # obligatoirement la première carte du talon au joueur suivant ».
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    assert _move(client, group, game_id, action="draw", cards="2♦").status_code == 303
    assert _hands(_row(game_id), ann, bob, cid) == [5, 6, 5]


def test_super_crapouille_keeps_five_of_ten(client: FlaskClient) -> None:
    # seed 003 (Super crapouille): « on en distribue dix à chaque joueur, qui en écarte cinq »
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid], super_=True)
    _start(client, group, game_id, card="9♦", first=str(ann.id))
    assert _hands(_row(game_id), ann, bob, cid) == [5, 5, 5]


def test_whist_needs_no_count(client: FlaskClient) -> None:
    # seed 002: every player plays one card per trick, and the deal ends with its last
    # trick: the last card is never in doubt, so the live whist deal keeps no count.
    group, _players, game_id = _game(client, "whist-tarot", ("Ann", "Bob", "Cid"))
    _start(client, group, game_id)
    row = _row(game_id)
    assert row is not None and "hands" not in row.view
    for bid in ("0", "0", "0"):
        assert _move(client, group, game_id, bid=bid).status_code == 303
    assert "hands" not in _row(game_id).view
