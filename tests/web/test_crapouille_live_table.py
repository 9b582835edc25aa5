"""La crapouille followed live, as a table would say it (issue 23), on both databases:
going out on an 8 asks no suit; a draw is told once (a drawn card that fits is laid in
the same move, told in one line); finishing on a 2 names who draws one more card, which
counts, on the end box and on the hand form it fills in; nothing is said twice.

Sentences are checked in French as the pages show them (the catalog's or the engine's)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import LiveManche
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_whist_pages import fr

EN = {"Accept-Language": "en"}


def _url(group, game_id: int, tail: str = "") -> str:
    return f"/g/{group.code}/games/{game_id}/live{tail}"


def _row(game_id: int) -> LiveManche:
    db.session.expire_all()
    row = db.session.get(LiveManche, game_id)
    assert row is not None
    return row


def _version(client: FlaskClient, group, game_id: int) -> str:
    match = re.search(r'name="version" value="(\d+)"', html(client.get(_url(group, game_id))))
    assert match
    return match.group(1)


def _move(client: FlaskClient, group, game_id: int, **data: Any):
    data.setdefault("version", _version(client, group, game_id))
    return client.post(_url(group, game_id, "/move"), data=data)


def _played(client: FlaskClient, group, game_id: int, **data: Any) -> None:
    r = _move(client, group, game_id, **data)
    assert r.status_code == 303, html(r)


def _table(client: FlaskClient, names: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dan"), card: str = "9♦"):
    """A crapouille game of ``names`` in seat order, its first hand started live on ``card``,
    the first player to play."""
    group = create_group(client)
    players = add_players(client, group, *names)
    game_id = start_crapouille(client, group, list(players))
    r = client.post(_url(group, game_id, "/start"), data={"version": "0", "card": card, "first": str(players[0].id)})
    assert r.status_code == 303, html(r)
    return group, players, game_id


def _visible(page: str) -> str:
    """What the page says (its text, tags and scripts left out, spaces collapsed)."""
    page = re.sub(r"<(script|template)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page))


def _log(page: str) -> list[str]:
    """The log's entries, most recent first, as they read."""
    part = page[page.index('class="live-moves"') :]
    part = part[: part.index("</ol>")]
    return [_visible(li).strip() for li in re.findall(r"<li>(.*?)</li>", part, flags=re.S)]


# ------------------------------------------------------------------ going out on an 8


def test_going_out_on_an_eight_asks_no_suit_and_fills_the_winner_in(app: Flask, client: FlaskClient) -> None:
    # RULES.md §4: « An 8 laid as a player's last card ends the hand: no suit is asked. » Seed 003:
    # « Lorsqu'un joueur s'est débarrassé de toutes ses cartes, le coup se termine. »
    group, (_ann, bob, _cid, _dan), game_id = _table(client)
    _played(client, group, game_id, action="play", cards="9♥")
    _played(client, group, game_id, action="play", cards="8♥", last="y")  # Bob, no suit named
    row = _row(game_id)
    assert row.view["finished"] is True and row.entry == {"winner": str(bob.id)}
    assert row.state["asked"] is None and row.state["out"] == str(bob.id) and row.state["turn"] is None
    assert row.moves[-1]["effects"] == ["out"]
    page = html(client.get(_url(group, game_id)))
    said = _visible(page)
    assert fr(app, "The hand is over.") in said
    assert fr(app, "%(name)s went out.", name="Bob") in said
    # Said once: the end box says who went out, so the log's last line does not say it again.
    assert said.count("Bob n’a plus de cartes") == 1 and said.count("la donne est finie") == 0
    assert "Quelle couleur" not in said and 'id="hand-form"' not in page  # no move form once over
    assert 'class="live-flags"' not in page  # nor the direction of play: nobody plays any more
    # The hand form opens filled in with the winner, and no reminder of a finish on a 2.
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert re.search(rf'<input checked id="winner-\d+" name="winner" required type="radio" value="{bob.id}"', form)
    assert 'class="hint extra-card"' not in form


def test_a_suit_ticked_with_a_last_eight_is_ignored(client: FlaskClient) -> None:
    group, (ann, _bob, _cid, _dan), game_id = _table(client)
    _played(client, group, game_id, action="play", cards="8♣", last="y", asked="s")
    row = _row(game_id)
    assert row.view["finished"] is True and row.state["asked"] is None
    assert row.entry == {"winner": str(ann.id)}
    assert row.moves[-1]["move"] == {"player": str(ann.id), "card": "8c", "last": True, "asked": "s"}


def test_an_eight_that_does_not_finish_still_asks_its_suit(client: FlaskClient) -> None:
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». »
    group, _players, game_id = _table(client)
    refused = _move(client, group, game_id, action="play", cards="8♥")
    assert refused.status_code == 200 and "Quelle couleur demandez-vous\u00a0?" in html(refused)
    assert _row(game_id).moves == []


def test_no_move_is_kept_once_the_hand_is_over(app: Flask, client: FlaskClient) -> None:
    group, (_ann, bob, _cid), game_id = _table(client, ("Ann", "Bob", "Cid"))
    version = _version(client, group, game_id)
    _played(client, group, game_id, action="play", cards="8♦", last="y", version=version)
    after = _row(game_id).version
    # A phone still showing the form sends a move (based on the version it saw, then on the new one).
    r = _move(client, group, game_id, version=str(after), player=str(bob.id), action="play", cards="9♦")
    assert r.status_code == 200 and fr(app, "The hand is over.") in html(r)
    row = _row(game_id)
    assert len(row.moves) == 1 and row.version == after


# ------------------------------------------------------------------ a draw told once


def test_a_draw_is_told_once(app: Flask, client: FlaskClient) -> None:
    # seed 003: « soit, s'il ne le peut pas, tire une carte du talon qu'il met sur la dernière carte
    # posée si elle est de même couleur ou de même rang que celle-ci, sinon dans son jeu. »
    group, (_ann, bob, cid, dan), game_id = _table(client)
    _played(client, group, game_id, action="draw")  # Ann keeps it
    row = _row(game_id)
    assert row.moves[-1]["said"]["fr"] == ["Ann garde la carte piochée.", "À Bob de jouer."]
    page = html(client.get(_url(group, game_id)))
    said = _visible(page)
    assert said.count("pioche une carte") == 0  # no flag, no sentence repeating the draw
    assert _log(page) == ["Ann pioche Ann garde la carte piochée."]  # « À Bob de jouer. » is the turn line
    assert said.count("À Bob de jouer.") == 1
    # Bob draws 7♦, which fits: laid at once, one move, one line, then whose turn it is.
    _played(client, group, game_id, action="draw", cards="7♦")
    row = _row(game_id)
    assert len(row.moves) == 2 and row.view["to_move"] == str(cid.id)
    assert row.moves[-1]["move"] == {"player": str(bob.id), "draw": True, "drawn": "7d", "card": "7d"}
    assert row.moves[-1]["said"]["fr"] == ["À Cid de jouer."]
    log = _log(html(client.get(_url(group, game_id))))
    assert log[0] == "Bob pioche et pose 7♦" and log[1] == "Ann pioche Ann garde la carte piochée. À Bob de jouer."
    english = _log(html(client.get(_url(group, game_id), headers=EN)))
    assert english[0] == "Bob draws and lays 7♦" and english[1] == "Ann draws Ann keeps the card drawn. Bob plays next."
    # Cid draws a card that does not fit, typed: kept, and not named to the table.
    _played(client, group, game_id, action="draw", cards="R♠")
    row = _row(game_id)
    assert row.moves[-1]["move"] == {"player": str(cid.id), "draw": True, "drawn": "Ks"}
    assert row.view["to_move"] == str(dan.id) and "R♠" not in _log(html(client.get(_url(group, game_id))))[0]
    # Undo takes back Cid's draw, then Bob's draw-and-lay whole.
    for left in (2, 1):
        r = client.post(_url(group, game_id, "/undo"), data={"version": str(_row(game_id).version)})
        assert r.status_code == 303 and len(_row(game_id).moves) == left
    row = _row(game_id)
    assert len(row.moves) == 1 and row.view["to_move"] == str(bob.id) and row.state["pile"] == ["9d"]


def test_a_drawn_two_laid_at_once_makes_the_next_player_draw(app: Flask, client: FlaskClient) -> None:
    # seed 003: « le 2, qui fait prendre obligatoirement la première carte du talon au joueur suivant,
    # qui, de surcroît, passe son tour » — even a 2 just drawn and laid.
    group, (ann, bob, cid, _dan), game_id = _table(client)
    _played(client, group, game_id, action="draw", cards="2♦")
    row = _row(game_id)
    assert len(row.moves) == 1 and row.moves[0]["effects"] == ["draw", "skip"]
    assert row.view["to_move"] == str(cid.id) and row.view["target"] == str(bob.id)
    assert row.moves[0]["said"]["fr"] == ["Bob pioche une carte et passe son tour.", "À Cid de jouer."]
    # The count of cards in hand follows: Ann drew one and laid it; Bob drew one.
    hands = row.view["hands"]
    assert hands[str(ann.id)] == 5 and hands[str(bob.id)] == 6
    page = html(client.get(_url(group, game_id)))
    # The table is told who draws now (flag), the turn line whose turn it is.
    assert _visible(page).count(fr(app, "%(name)s draws a card.", name="Bob")) == 1
    assert _log(page) == ["Ann pioche et pose 2♦ Bob pioche une carte et passe son tour."]


def test_a_players_own_draw_is_no_flag(app: Flask, client: FlaskClient) -> None:
    group, (_ann, _bob, _cid, _dan), game_id = _table(client)
    _played(client, group, game_id, action="draw")
    row = _row(game_id)
    assert row.view["target"] is None
    page = html(client.get(_url(group, game_id)))
    assert fr(app, "%(name)s draws a card.", name="Ann") not in _visible(page)


# ------------------------------------------------------------------ finishing on a 2


def test_finishing_on_a_two_names_who_draws_one_more_card(app: Flask, client: FlaskClient) -> None:
    # seed 003: « Lorsqu'un joueur termine en posant un 2 sur la table, par convention, le joueur suivant
    # prend une carte supplémentaire. »
    group, (ann, bob, cid, dan), game_id = _table(client)
    _played(client, group, game_id, action="play", cards="2♦", last="y")
    row = _row(game_id)
    assert row.moves[-1]["effects"] == ["out", "finish_on_two"]
    assert row.entry == {"winner": str(ann.id), "extra_card": str(bob.id)}
    page = html(client.get(_url(group, game_id)))
    said = _visible(page)
    extra = fr(
        app,
        "Finished on a 2: by convention %(name)s, the next player, draws one more card, and it counts.",
        name="Bob",
    )
    assert (
        extra == "Fini sur un 2\u00a0: par convention, Bob, la personne suivante, pioche une carte de plus, "
        "qui compte dans ses points."
    )
    assert said.count(extra) == 1 and said.count("Fini sur un 2") == 1  # not said again by the log
    assert said.count("Ann n’a plus de cartes") == 1
    assert fr(app, "%(name)s draws a card.", name="Bob") not in said  # no running-hand flag
    english = _visible(html(client.get(_url(group, game_id), headers=EN)))
    assert "Finished on a 2: by convention Bob, the next player, draws one more card, and it counts." in english
    # The hand form, filled in from the live hand, reminds it by Bob's cards.
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    reminder = fr(app, "Finished on a 2: %(name)s drew one more card, which counts; add it to their cards.", name="Bob")
    assert form.count(reminder) == 1
    fieldset = form[form.index(f'data-player-id="{bob.id}"') :]
    assert fieldset.index(reminder) < fieldset.index("</fieldset>")
    # It is saved as any hand, Bob's extra card counted with his cards.
    data = {
        "round": "1",
        "winner": str(ann.id),
        f"cards_{bob.id}": "2♠ 5♥",
        f"total_{cid.id}": "3",
        f"total_{dan.id}": "0",
    }
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def test_after_a_ten_the_player_before_draws_the_extra_card(app: Flask, client: FlaskClient) -> None:
    # RULES.md §4: « the next player (in the current direction) draws one more card first, and it counts. »
    group, (_ann, _bob, cid, dan), game_id = _table(client)
    _played(client, group, game_id, action="play", cards="10♦")  # Ann reverses: Dan plays
    _played(client, group, game_id, action="play", cards="2♦", last="y")  # Dan goes out on a 2
    row = _row(game_id)
    assert row.entry == {"winner": str(dan.id), "extra_card": str(cid.id)}
    page = _visible(html(client.get(_url(group, game_id), headers=EN)))
    assert "by convention Cid, the next player, draws one more card" in page


def test_two_players_the_other_draws_the_extra_card(client: FlaskClient) -> None:
    # seed 003: « On peut jouer à deux joueurs »: the next player is the other one.
    group, (ann, bob), game_id = _table(client, ("Ann", "Bob"))
    _played(client, group, game_id, action="play", cards="2♦", last="y")
    assert _row(game_id).entry == {"winner": str(ann.id), "extra_card": str(bob.id)}
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert form.count("Finished on a 2: Bob drew one more card, which counts; add it to their cards.") == 1
