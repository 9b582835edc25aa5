"""Le Président and Piketty end to end through the pages (seeds 000 and 001,
shared/RULES.md §1, §2 and §5).

Sentences of the pages are checked in English (their msgids, whatever the French
catalog holds); what the engine says (titles, reasons) in French, the default."""

import re

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Game, GameStatus, Round
from tests.helpers import add_players, create_group, html

EN = {"Accept-Language": "en"}


def _setup(client, *names):
    group = create_group(client)
    players = add_players(client, group, *names)
    return group, players


def _start(client, group, kind, players, **options):
    """Start a game of ``kind`` with ``players`` in seat order; ``options`` are the
    form's fields (``rule_putsch="y"``…); points are counted unless ``rule_points=None``."""
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    data.update({"target": "25", "titles": "classic", "rule_points": "y"})
    data.update({k: v for k, v in options.items() if v is not None})
    if options.get("rule_points", "y") is None:
        data.pop("rule_points")
    return client.post(f"/g/{group.code}/games/new/{kind}", data=data)


def _game_id(response):
    assert response.status_code == 302, html(response)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match
    return int(match.group(1))


def _manche(client, group, game_id, number, finish=(), forbidden=(), event="", edit=False, **fields):
    data = {"round": str(number), "event": event}
    data.update({f"finish-{i}": str(p.id) for i, p in enumerate(finish)})
    data.update({f"forbidden_{p.id}": "y" for p in forbidden})
    data.update({k: str(v.id) if hasattr(v, "id") else v for k, v in fields.items()})
    where = f"rounds/{number}/edit" if edit else "rounds/new"
    return client.post(f"/g/{group.code}/games/{game_id}/{where}", data=data)


def _state(game_id):
    db.session.expire_all()
    rnd = db.session.scalar(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number.desc()).limit(1))
    return rnd.result


def _ids(*players):
    return [str(p.id) for p in players]


def test_new_game_pages_offer_the_house_rules_of_each_kind(client):
    group, _ = _setup(client, "Ann", "Bob", "Cid", "Dan")
    page = html(client.get(f"/g/{group.code}/games/new/president", headers=EN))
    for text in ("Variant", "Angevin", "Wizz", "Putsch", "Jeu blanc", "Points to reach", "Title names", "Jokers"):
        assert text in page
    assert "Two decks at 4 or 5 players" not in page
    piketty = html(client.get(f"/g/{group.code}/games/new/piketty", headers=EN))
    assert "Two decks at 4 or 5 players" in piketty and "Angevin" not in piketty and "Jokers" not in piketty
    choose = html(client.get(f"/g/{group.code}/games/new"))
    assert "Le Président" in choose and "Piketty" in choose


def test_player_counts_are_the_engines(client):
    group, (ann, bob, cid, _dan) = _setup(client, "Ann", "Bob", "Cid", "Dan")
    r = _start(client, group, "president", [ann, bob])
    assert r.status_code == 200 and "Le Président se joue à partir de 3 joueurs." in html(r)
    r = _start(client, group, "piketty", [ann, bob, cid])
    assert r.status_code == 200 and "Le Piketty se joue de 4 à 9 joueurs." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == 0


def test_an_impossible_combination_is_refused_at_its_option(client):
    group, players = _setup(client, "Ann", "Bob", "Cid")
    r = _start(client, group, "president", players, rule_twos_cut="y", rule_jokers="1")
    page = html(r)
    assert r.status_code == 200
    err = re.search(r'id="rule_twos_cut-err">(.*?)</div>', page, re.S)
    assert err and "Les 2 qui coupent ne se jouent pas avec des jokers." in err.group(1)
    r = _start(client, group, "president", players, rule_guillotine="y", rule_jokers="1")
    err = re.search(r'id="rule_guillotine-err">(.*?)</div>', html(r), re.S)
    assert err and "La guillotine demande deux jokers." in err.group(1)
    r = _start(client, group, "president", players, target="zéro")
    assert r.status_code == 200
    assert re.search(
        r'<input[^>]*aria-invalid="true"[^>]*name="target"|<input[^>]*name="target"[^>]*aria-invalid="true"', html(r)
    )
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == 0


def test_house_rules_and_setup_are_stored_as_the_engine_names_them(client):
    group, players = _setup(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _game_id(
        _start(client, group, "president", players, preset="wizz", rule_revolution="y", rule_putsch="y", target="30")
    )
    game = db.session.get(Game, game_id)
    assert game.rules == {"preset": "wizz", "putsch": True, "target": 30}
    assert game.setup == {"first": "played"}
    assert [p.name for p in game.players] == ["Ann", "Bob", "Cid", "Dan"]
    game_id = _game_id(_start(client, group, "piketty", players, rule_points=None, titles="balayeur"))
    game = db.session.get(Game, game_id)
    assert game.rules == {"points": False, "titles": "balayeur"} and game.setup == {"first": "draw"}


def test_a_president_game_of_three_manches_with_exchanges_and_seating(client):
    group, (ann, bob, cid, dan) = _setup(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _game_id(_start(client, group, "president", [ann, bob, cid, dan]))
    url = f"/g/{group.code}/games/{game_id}"
    page = html(client.get(url, headers=EN))
    assert "Enter round 1" in page

    form = html(client.get(url + "/rounds/new", headers=EN))
    assert "Who went out, in order" in form and "Out 1" in form and "What happened" not in form
    r = _manche(client, group, game_id, 1, [dan, cid, bob])
    assert r.status_code == 302, html(r)
    state = _state(game_id)
    assert state["hierarchy"] == _ids(dan, cid, bob, ann)
    assert state["points"] == {str(dan.id): 3, str(cid.id): 2, str(bob.id): 1, str(ann.id): 0}
    assert state["dealer"] == str(ann.id) and state["leader"] == str(dan.id) and state["first"] is False

    page = html(client.get(url, headers=EN))
    assert "Ann gives their 2 best cards to Dan, who gives back 2 cards of their choice." in page
    assert "Bob gives their best card to Cid, who gives back a card of their choice." in page
    assert "Clockwise: Dan → Cid → Bob → Ann." in page
    assert "Deals: Ann" in page and "Leads: Dan" in page and "13 cards each" in page
    assert "Went out: Dan → Cid → Bob" in page
    french = html(client.get(url))
    assert "Président" in french and "Vice-Président" in french and "Vice-Trou du cul" in french
    assert "Trou du cul" in french

    assert _manche(client, group, game_id, 2, [ann, bob, cid]).status_code == 302
    assert _state(game_id)["hierarchy"] == _ids(ann, bob, cid, dan)
    assert _manche(client, group, game_id, 3, [ann, dan, cid]).status_code == 302
    state = _state(game_id)
    assert state["totals"] == {str(ann.id): 6, str(bob.id): 3, str(cid.id): 4, str(dan.id): 5}
    page = html(client.get(url, headers=EN))
    assert "Bob gives their 2 best cards to Ann" in page and "Clockwise: Ann → Dan → Cid → Bob." in page
    assert "Round 3" in page and "Enter round 4" in page
    # The finishing order is refused when incomplete, with the engine's reason.
    r = _manche(client, group, game_id, 4, [ann])
    assert r.status_code == 200 and "L’ordre d’arrivée est incomplet" in html(r)


def test_a_putsch_and_a_jeu_blanc_where_the_rules_allow_them(client):
    group, (ann, bob, cid, dan) = _setup(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _game_id(_start(client, group, "president", [ann, bob, cid, dan], rule_putsch="y", rule_jeu_blanc="y"))
    url = f"/g/{group.code}/games/{game_id}"
    # No event in a first manche: nobody holds a title yet.
    assert "What happened" not in html(client.get(url + "/rounds/new", headers=EN))
    assert _manche(client, group, game_id, 1, [ann, bob, cid]).status_code == 302  # Dan is Trou du cul
    form = html(client.get(url + "/rounds/new", headers=EN))
    assert "Putsch by Dan" in form and "Jeu blanc" in form and "Coup d’État" not in form
    assert "Unless Dan calls a putsch: then nobody exchanges." in html(client.get(url, headers=EN))

    # Dan's putsch fails: Bob goes out first. Every title stays; Dan loses a point.
    r = _manche(client, group, game_id, 2, [bob], event="putsch")
    assert r.status_code == 302, html(r)
    state = _state(game_id)
    assert state["hierarchy"] == _ids(ann, bob, cid, dan) and state["events"] == ["putsch_failed"]
    assert state["points"][str(dan.id)] == -1 and state["putsch_banned"] == str(dan.id)
    page = html(client.get(url, headers=EN))
    assert "Putsch failed: Dan loses a point" in page
    assert "Dan gives their 4 best cards to Ann, who gives back 4 cards of their choice." in page
    # ... and may not putsch at the next manche.
    form = html(client.get(url + "/rounds/new", headers=EN))
    assert "Putsch by Dan" not in form and "No putsch this round: the last one failed." in form
    r = _manche(client, group, game_id, 3, [ann, bob, cid], event="putsch")
    assert r.status_code == 200 and _state(game_id)["events"] == ["putsch_failed"]

    # Cid's jeu blanc: Cid takes the presidency unplayed, those above move down one.
    r = _manche(client, group, game_id, 3, event="jeu_blanc", jeu_blanc_player=cid)
    assert r.status_code == 302, html(r)
    state = _state(game_id)
    assert state["hierarchy"] == _ids(cid, ann, bob, dan) and set(state["points"].values()) == {0}
    assert "Jeu blanc: Cid takes the presidency; no points." in html(client.get(url, headers=EN))
    # A jeu blanc with a finishing order is refused by the engine.
    r = _manche(client, group, game_id, 4, [ann, bob, cid], event="jeu_blanc", jeu_blanc_player=bob)
    assert r.status_code == 200 and "la manche ne se joue pas" in html(r)


def test_events_are_refused_where_the_rules_do_not_have_them(client):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = _game_id(_start(client, group, "president", [ann, bob, cid]))
    assert _manche(client, group, game_id, 1, [ann, bob]).status_code == 302
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert "Putsch" not in form and "Jeu blanc" not in form
    r = _manche(client, group, game_id, 2, [cid], event="putsch")
    assert r.status_code == 200 and "Les règles de la table ne le prévoient pas." in html(r)
    r = _manche(client, group, game_id, 2, event="jeu_blanc", jeu_blanc_player=cid)
    assert r.status_code == 200
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 1


def test_a_piketty_game_of_six_starts_with_a_card_draw(client):
    names = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    group, players = _setup(client, *names)
    ann, bob, cid, dan, eve, fay = players
    game_id = _game_id(_start(client, group, "piketty", players))
    url = f"/g/{group.code}/games/{game_id}"
    assert "Enter the card draw" in html(client.get(url, headers=EN))
    form = html(client.get(url + "/rounds/new", headers=EN))
    assert "Card drawn" in form and "Who went out" not in form

    def draw(**cards):
        data = {"round": "1"}
        data.update({f"draw_{p.id}": cards.get(p.name, "") for p in players})
        return client.post(url + "/rounds/new", data=data)

    # Two identical cards (two decks at 6): those players draw again.
    r = draw(Ann="R♠", Bob="R♠", Cid="R♥", Dan="9♦", Eve="6♣", Fay="7♣")
    assert r.status_code == 200 and "Égalité entre Ann et Bob" in html(r)
    # A 3 is not in Piketty's deck.
    r = draw(Ann="3♠", Bob="R♠", Cid="R♥", Dan="9♦", Eve="6♣", Fay="7♣")
    assert r.status_code == 200 and "n’est pas dans ce jeu" in html(r)
    r = draw(Ann="R♠ 7♣", Bob="R♠ A♦", Cid="2♣", Dan="R♥", Eve="6♣", Fay="9♦")
    assert r.status_code == 302, html(r)
    state = _state(game_id)
    # The higher card, the better title; equal ranks by suit ♠ > ♥; the tie settled by the second draw.
    assert state["hierarchy"] == _ids(cid, bob, ann, dan, fay, eve)
    assert set(state["points"].values()) == {0} and state["events"] == ["draw"]
    assert state["deal"] == {
        str(cid.id): 13,
        str(bob.id): 13,
        str(ann.id): 13,
        str(dan.id): 13,
        str(fay.id): 14,
        str(eve.id): 14,
    }
    page = html(client.get(url, headers=EN))
    assert "Eve gives their 3 best cards to Cid, who gives back 3 cards of their choice." in page
    assert "Fay gives their 2 best cards to Bob" in page and "Dan gives their best card to Ann" in page
    assert "Eve: 14 cards" in page and "Ann: 13 cards" in page and "Deals: Eve" in page and "Leads: Cid" in page
    french = html(client.get(url))
    for title in ("Premier ministre", "Ministre", "Vice-Trouduc", "Trouduc"):
        assert title in french

    # Manche 2: Cid goes out first but on a 2: ranked last (seed 001).
    form = html(client.get(url + "/rounds/new", headers=EN))
    assert "Went out on a forbidden card (a 2)" in form
    r = _manche(client, group, game_id, 2, [cid, eve, ann, bob, dan], forbidden=[cid])
    assert r.status_code == 302, html(r)
    state = _state(game_id)
    assert state["hierarchy"] == _ids(eve, ann, bob, dan, fay, cid) and state["finished_last"] == _ids(cid)
    assert state["points"][str(eve.id)] == 5
    assert "ranked last: Cid" in html(client.get(url, headers=EN))


def test_editing_the_first_of_three_manches_rescores_the_later_ones(client):
    group, (ann, bob, cid, dan) = _setup(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _game_id(_start(client, group, "president", [ann, bob, cid, dan], target="12"))
    for number, finish in enumerate(([dan, cid, bob], [ann, bob, cid], [ann, dan, cid]), start=1):
        assert _manche(client, group, game_id, number, finish).status_code == 302
    assert _state(game_id)["totals"] == {str(ann.id): 6, str(bob.id): 3, str(cid.id): 4, str(dan.id): 5}
    url = f"/g/{group.code}/games/{game_id}"
    form = html(client.get(url + "/rounds/1/edit"))
    assert f'<option selected value="{dan.id}">' in form or f'value="{dan.id}" selected' in form

    r = _manche(client, group, game_id, 1, [ann, bob, cid], edit=True)
    assert r.status_code == 302, html(r)
    db.session.expire_all()
    results = [rnd.result for rnd in db.session.scalars(sa.select(Round).order_by(Round.number))]
    assert results[0]["hierarchy"] == _ids(ann, bob, cid, dan)
    assert results[2]["totals"] == {str(ann.id): 9, str(bob.id): 4, str(cid.id): 3, str(dan.id): 2}
    assert re.search(r"Ann\s?: 6 → 9", html(client.get(url)))  # what the correction changed

    # A fourth manche ends the game at 12 points: the highest total wins, the lowest loses.
    assert _manche(client, group, game_id, 4, [ann, bob, cid]).status_code == 302
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending == {"winners": [str(ann.id)]}
    state = _state(game_id)
    assert state["over"] and state["losers"] == [str(dan.id)]
    page = html(client.get(url, headers=EN))
    assert "Winner: Ann" in page and "Loser: Dan" in page


def _board(page):
    """The game page's board: (place shown, name, total) per line, top to bottom."""
    board = page[page.index('<ol class="board titles">') :]
    board = board[: board.index("</ol>")]
    lines = re.findall(
        r'<li data-player="([^"]+)"[^>]*>\s*<span class="place">([^<]*)</span>'
        r".*?(?:<span data-total>([^<]*)</span>|</li>)",
        board,
        re.S,
    )
    return [(place, name, total) for name, place, total in lines]


def test_the_board_lists_by_total_numbered_by_place_not_by_title(client):
    """« 1 Benoît 4 » above « 3 Zoé 9 » read as a ranking that was none: with points the
    board goes by total, each line numbered by its place by total, the title beside the
    name; without points by seat (the titles' order), with no number."""
    group, (ann, benoit, zoe) = _setup(client, "Ann", "Benoît", "Zoé")
    game_id = _game_id(_start(client, group, "president", [ann, benoit, zoe]))
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert [place for place, _name, _total in _board(page)] == ["", "", ""]  # no manche yet: by seat
    for number, finish in enumerate(([zoe, ann, benoit], [zoe, ann, benoit], [benoit, ann, zoe]), 1):
        assert _manche(client, group, game_id, number, finish).status_code == 302
    state = _state(game_id)
    totals = {p.name: state["totals"][str(p.id)] for p in (ann, benoit, zoe)}
    assert state["hierarchy"][0] == str(benoit.id) and totals["Benoît"] < totals["Zoé"]
    board = _board(html(client.get(f"/g/{group.code}/games/{game_id}")))
    assert [name for _place, name, _total in board] == sorted(totals, key=lambda n: -totals[n])
    assert [int(total) for _place, _name, total in board] == sorted(totals.values(), reverse=True)
    assert [place for place, _name, _total in board] == ["1", "2", "3"]
    # Without points: by seat, which follows the titles, and no number beside a name.
    plain = _game_id(_start(client, group, "president", [ann, benoit, zoe], rule_points=None))
    assert _manche(client, group, plain, 1, [zoe, ann, benoit]).status_code == 302
    board = _board(html(client.get(f"/g/{group.code}/games/{plain}")))
    assert board == [("", "Zoé", ""), ("", "Ann", ""), ("", "Benoît", "")]
