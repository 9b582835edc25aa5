"""Whist avec un jeu de Tarot end to end through the pages (seed 002, shared/RULES.md §3 and §5):
the bids saved first, then the tricks, the stakes, the end and its winners."""

import re

import flask_babel
import sqlalchemy as sa

from companion import i18n
from companion.extensions import db
from companion.models import Game, GameStatus, Round
from tests.helpers import add_players, create_group, html


def fr(app, message, plural=None, num=None, **values):
    """``message`` as a French page shows it (the catalog's French once it is there)."""
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        flask_babel.refresh()
        text = i18n.gettext(message, **values) if plural is None else i18n.ngettext(message, plural, num, **values)
    flask_babel.refresh()
    return str(text)


def _deals(app, name, cards):
    return fr(app, "%(name)s deals %(num)d card.", "%(name)s deals %(num)d cards.", cards, name=name)


def _start(client, group, players, dealer=None):
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    if dealer is not None:
        data["dealer"] = str(dealer.id)
    r = client.post(f"/g/{group.code}/games/new/whist-tarot", data=data)
    assert r.status_code == 302, html(r)
    match = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert match
    return int(match.group(1))


def _setup(client, *names):
    group = create_group(client)
    players = add_players(client, group, *names)
    return group, players


def _bids(client, group, game_id, number, bids):
    data = {"round": str(number)} | {f"bid_{p.id}": str(v) for p, v in bids.items()}
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)


def _tricks(client, group, game_id, number, bids, tricks):
    data = {"round": str(number)}
    data |= {f"bid_{p.id}": str(v) for p, v in bids.items()}
    data |= {f"tricks_{p.id}": str(v) for p, v in tricks.items()}
    return client.post(f"/g/{group.code}/games/{game_id}/rounds/{number}/edit", data=data)


def _deal(client, group, game_id, number, bids, tricks):
    r = _bids(client, group, game_id, number, bids)
    assert r.status_code == 302, html(r)
    r = _tricks(client, group, game_id, number, bids, tricks)
    assert r.status_code == 302, html(r)


def _stakes(game_id):
    db.session.expire_all()
    last = db.session.scalar(sa.select(Round).where(Round.game_id == game_id).order_by(Round.number.desc()).limit(1))
    return last.result["stakes"]


def test_the_seat_picker_offers_the_engines_bound_and_its_reason(client, app):
    """The new-game page offers no more seats than the engine accepts, tells the
    seat picker's script that bound (data-most) and the engine's reason to refuse a
    fifth tap; without script a fifth player is refused when sent."""
    # seed 002: the game is for 3 or 4 (22 trumps; four stakes of 14 cards).
    group, players = _setup(client, "Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    page = html(client.get(f"/g/{group.code}/games/new/whist-tarot"))
    picker = page[page.index("data-tap-order") : page.index("tap-order-fallback")]
    assert 'data-most="4"' in picker
    assert "Le whist au tarot se joue à 3 ou 4 joueurs. Touchez un nom pour le retirer." in picker
    assert picker.count('class="tap-order-choice"') == 6  # every player may be tapped…
    assert 'name="seats-3"' in page and 'name="seats-4"' not in page  # …four seats to fill
    # The page says the bound as the engine does, and the stake the engine gives.
    assert "Le whist au tarot se joue à 3 ou 4 joueurs." in page[: page.index("<form")]
    assert "Chaque mise commence à 14 cartes." in page
    # The server still refuses a fifth player sent anyway.
    five = {f"seats-{i}": str(p.id) for i, p in enumerate(players[:5])}
    r = client.post(f"/g/{group.code}/games/new/whist-tarot", data=five)
    assert r.status_code == 200 and "Le whist au tarot se joue à 3 ou 4 joueurs." in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == 0


def test_each_kinds_seat_picker_has_its_own_bound(client):
    """Piketty 4 to 9; le Président and the crapouille no most of their own but the
    page's (MAX_SEATS; one seat per player of the group): each page says it from its engine."""
    group, _players = _setup(client, *[f"P{i:02d}" for i in range(11)])
    piketty = html(client.get(f"/g/{group.code}/games/new/piketty"))
    assert 'data-most="9"' in piketty and 'name="seats-8"' in piketty and 'name="seats-9"' not in piketty
    assert "Le Piketty se joue de 4 à 9 joueurs. Touchez un nom pour le retirer." in piketty
    president = html(client.get(f"/g/{group.code}/games/new/president"))
    assert 'data-most="12"' in president and 'name="seats-10"' in president and 'name="seats-11"' not in president
    assert "Le Président se joue à partir de 3 joueurs." in president
    crapouille = html(client.get(f"/g/{group.code}/games/new/crapouille"))
    assert 'data-most="12"' in crapouille


def test_new_game_needs_three_or_four_players_and_a_seated_dealer(client, app):
    group, (ann, bob, cid, dan, eve) = _setup(client, "Ann", "Bob", "Cid", "Dan", "Eve")
    url = f"/g/{group.code}/games/new/whist-tarot"
    page = html(client.get(url))
    assert fr(app, "Who deals first?") in page
    r = client.post(url, data={"seats-0": str(ann.id), "seats-1": str(bob.id)})
    assert r.status_code == 200 and "Le whist au tarot se joue à 3 ou 4 joueurs." in html(r)
    five = {f"seats-{i}": str(p.id) for i, p in enumerate([ann, bob, cid, dan, eve])}
    assert "Le whist au tarot se joue à 3 ou 4 joueurs." in html(client.post(url, data=five))
    three = {"seats-0": str(ann.id), "seats-1": str(bob.id), "seats-2": str(cid.id), "dealer": str(eve.id)}
    r = client.post(url, data=three)
    assert r.status_code == 200 and fr(app, "The first dealer has to play in this game.") in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Game.id))) == 0
    game_id = _start(client, group, [cid, ann, bob, dan], dealer=bob)
    game = db.session.get(Game, game_id)
    assert game.kind == "whist-tarot" and game.rules == {} and game.setup == {"dealer": str(bob.id)}
    assert [p.name for p in game.players] == ["Cid", "Ann", "Bob", "Dan"]
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    # Bob deals: Dan (his left) bids first.
    assert _deals(app, "Bob", 5) in page
    assert page.count("data-stake>14<") == 4


def test_a_dealer_series_bids_first_then_tricks_seen_from_a_second_phone(client, app):
    # seed 002: « premier tour 5 cartes à chacun, puis 4 …, puis 1. Enfin une dernière donne avec 1 carte »
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])  # Ann deals first (the first seat)
    other = app.test_client()
    r = other.post("/join", data={"code": group.code, "passphrase": "trou du cul"})
    assert r.status_code == 302
    game_url = f"/g/{group.code}/games/{game_id}"

    # Deal 1, 5 cards: Bob, Cid, then Ann, who may not bid 2 (2 + 1 + 2 = 5).
    form = html(client.get(f"{game_url}/rounds/new"))
    assert fr(app, "Bid of %(name)s", name="Ann") in form
    assert f'name="tricks_{ann.id}"' not in form
    assert form.index(f'name="bid_{bob.id}"') < form.index(f'name="bid_{cid.id}"') < form.index(f'name="bid_{ann.id}"')
    bids = {bob: 2, cid: 1, ann: 1}
    r = _bids(client, group, game_id, 1, bids)
    assert r.status_code == 302
    rnd = db.session.scalar(sa.select(Round))
    assert rnd.entry == {"bids": {str(bob.id): 2, str(cid.id): 1, str(ann.id): 1}}
    assert rnd.result["pending"] is True and rnd.result["stakes"] == dict.fromkeys(rnd.result["players"], 14)

    # A second phone sees the bids before the tricks; « Saisir » leads it to the tricks.
    page = html(other.get(game_url))
    assert 'data-bid="Bob">2<' in page and 'data-bid="Cid">1<' in page and 'data-bid="Ann">1<' in page
    r = other.get(f"{game_url}/rounds/new")
    assert r.status_code == 302 and r.headers["Location"].endswith("/rounds/1/edit")
    tricks_form = html(other.get(f"{game_url}/rounds/1/edit"))
    assert f'name="tricks_{ann.id}"' in tricks_form and f'<input checked id="bid_{bob.id}-2"' in tricks_form

    r = _tricks(other, group, game_id, 1, bids, {bob: 2, cid: 2, ann: 1})
    assert r.status_code == 302, html(r)
    assert _stakes(game_id) == {str(ann.id): 14, str(bob.id): 14, str(cid.id): 13}

    _deal(client, group, game_id, 2, {bob: 1, cid: 1, ann: 0}, {bob: 1, cid: 3, ann: 0})
    _deal(client, group, game_id, 3, {bob: 0, cid: 0, ann: 0}, {bob: 3, cid: 0, ann: 0})
    # At 2 cards, bids of 2 and 2 leave the dealer free.
    form = html(client.get(f"{game_url}/rounds/new"))
    assert _deals(app, "Ann", 2) in form
    _deal(client, group, game_id, 4, {bob: 2, cid: 2, ann: 0}, {bob: 0, cid: 0, ann: 2})
    _deal(client, group, game_id, 5, {bob: 0, cid: 0, ann: 0}, {bob: 0, cid: 0, ann: 1})
    page = html(client.get(game_url))
    blind = fr(app, "%(name)s deals 1 card, blind: a card on the forehead, seen by the others only.", name="Ann")
    assert blind in page
    assert blind in html(client.get(f"{game_url}/rounds/new"))
    _deal(client, group, game_id, 6, {bob: 1, cid: 0, ann: 1}, {bob: 1, cid: 0, ann: 0})
    assert _stakes(game_id) == {str(ann.id): 10, str(bob.id): 9, str(cid.id): 9}
    result = db.session.scalar(sa.select(Round).where(Round.number == 6)).result
    assert result["played"] == {"dealer": str(ann.id), "cards": 1, "blind": True}
    assert result["losses"] == {str(ann.id): 1, str(bob.id): 0, str(cid.id): 0}
    # Then the deal passes to the left: Bob deals 5, Cid bids first.
    assert result["deal"] == {"dealer": str(bob.id), "cards": 5, "blind": False}
    page = html(other.get(game_url))
    assert _deals(app, "Bob", 5) in page
    assert re.search(r'data-player="Ann">\s*<span class="place">1</span>', page)


def test_the_dealers_forbidden_bid_is_refused_with_the_engines_reason(client, app):
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    group, (ann, bob, cid, dan) = _setup(client, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(client, group, [ann, bob, cid, dan], dealer=dan)
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new"))
    assert (
        fr(app, "%(name)s may not bid the value that makes the bids add up to %(cards)d.", name="Dan", cards=5) in form
    )
    r = _bids(client, group, game_id, 1, {ann: 2, bob: 1, cid: 1, dan: 1})
    page = html(r)
    assert r.status_code == 200
    assert "Dan donne et ne peut pas annoncer 1\u00a0: les annonces feraient 5, le nombre de plis." in page
    # The hint names the value, and what was chosen is kept.
    # (the hint, hidden meanwhile, does not say it a second time)
    assert page.count("Dan donne et ne peut pas annoncer 1\u00a0: les annonces feraient 5, le nombre de plis.") == 1
    assert f'<input checked id="bid_{ann.id}-2"' in page
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    # A bid missing is asked for, by name.
    r = _bids(client, group, game_id, 1, {ann: 2, bob: 1, cid: 1})
    assert fr(app, "Choose the bid of %(name)s.", name="Dan") in html(r)
    assert _bids(client, group, game_id, 1, {ann: 2, bob: 1, cid: 1, dan: 0}).status_code == 302


def test_tricks_that_do_not_add_up_are_refused(client, app):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    bids = {bob: 2, cid: 1, ann: 1}
    assert _bids(client, group, game_id, 1, bids).status_code == 302
    r = _tricks(client, group, game_id, 1, bids, {bob: 2, cid: 2, ann: 2})
    assert r.status_code == 200 and "Les plis font 6 au total au lieu de 5." in html(r)
    r = _tricks(client, group, game_id, 1, bids, {bob: 2, cid: 2})
    assert fr(app, "Choose the tricks of %(name)s.", name="Ann") in html(r)
    db.session.expire_all()
    assert db.session.scalar(sa.select(Round)).entry == {"bids": {str(bob.id): 2, str(cid.id): 1, str(ann.id): 1}}
    # Tricks left blank keep the deal waiting: a bid can be corrected before play.
    r = _tricks(client, group, game_id, 1, {bob: 3, cid: 1, ann: 0}, {})
    assert r.status_code == 302
    db.session.expire_all()
    rnd = db.session.scalar(sa.select(Round))
    assert rnd.entry == {"bids": {str(bob.id): 3, str(cid.id): 1, str(ann.id): 0}} and rnd.result["pending"]


def test_the_game_ends_when_a_stake_is_empty_and_the_largest_stake_wins(client):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    _deal(client, group, game_id, 1, {bob: 5, cid: 0, ann: 1}, {bob: 0, cid: 0, ann: 5})
    _deal(client, group, game_id, 2, {bob: 4, cid: 0, ann: 1}, {bob: 0, cid: 0, ann: 4})
    _deal(client, group, game_id, 3, {bob: 3, cid: 0, ann: 1}, {bob: 0, cid: 0, ann: 3})
    _deal(client, group, game_id, 4, {bob: 2, cid: 0, ann: 1}, {bob: 0, cid: 0, ann: 2})
    assert _stakes(game_id) == {str(ann.id): 4, str(bob.id): 0, str(cid.id): 14}
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending == {"winners": [str(cid.id)]}
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Victoire\u00a0: Cid" in page
    r = client.get(f"/g/{group.code}/games/{game_id}/rounds/new")
    assert r.status_code == 302


def test_editing_deal_1_of_3_rescores_the_later_ones(client):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    _deal(client, group, game_id, 1, {bob: 2, cid: 1, ann: 1}, {bob: 2, cid: 2, ann: 1})
    _deal(client, group, game_id, 2, {bob: 1, cid: 1, ann: 0}, {bob: 1, cid: 3, ann: 0})
    _deal(client, group, game_id, 3, {bob: 0, cid: 0, ann: 0}, {bob: 3, cid: 0, ann: 0})
    assert _stakes(game_id) == {str(ann.id): 14, str(bob.id): 11, str(cid.id): 11}
    form = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/1/edit"))
    assert f'<input checked id="tricks_{cid.id}-2"' in form
    r = _tricks(client, group, game_id, 1, {bob: 2, cid: 1, ann: 1}, {bob: 3, cid: 1, ann: 1})
    assert r.status_code == 302, html(r)
    db.session.expire_all()
    results = [r.result for r in db.session.scalars(sa.select(Round).order_by(Round.number))]
    assert [res["stakes"] for res in results] == [
        {str(ann.id): 14, str(bob.id): 13, str(cid.id): 14},
        {str(ann.id): 14, str(bob.id): 13, str(cid.id): 12},
        {str(ann.id): 14, str(bob.id): 10, str(cid.id): 12},
    ]
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    assert "Donne 1 corrigée. Bob\u00a0: 11 → 10 · Cid\u00a0: 11 → 12" in page


def test_a_game_finished_early_goes_to_the_largest_stake(client):
    group, (ann, bob, cid) = _setup(client, "Ann", "Bob", "Cid")
    game_id = _start(client, group, [ann, bob, cid])
    _deal(client, group, game_id, 1, {bob: 2, cid: 1, ann: 1}, {bob: 2, cid: 2, ann: 1})
    version = db.session.get(Game, game_id).version
    r = client.post(f"/g/{group.code}/games/{game_id}/finish", data={"confirmed": "1", "version": str(version)})
    assert r.status_code == 302
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game.status is GameStatus.FINISHED and game.ending["winners"] == [str(ann.id), str(bob.id)]
    assert "Victoire\u00a0: Ann, Bob" in html(client.get(f"/g/{group.code}/games/{game_id}"))


def test_after_the_bids_the_page_says_who_plays_first_and_why(client):
    """The player after the first bidder leads (seed 002: « Ce n’est pas le joueur à gauche
    du donneur qui commence à jouer, mais encore le suivant. »): the game page and the
    tricks form say so with the reason, from the engine's roles."""
    group, (ann, benoit, chloe, dan) = _setup(client, "Ann", "Benoît", "Chloé", "Dan")
    game_id = _start(client, group, [ann, benoit, chloe, dan], dealer=ann)  # Benoît bids first
    r = _bids(client, group, game_id, 1, {benoit: 2, chloe: 1, dan: 1, ann: 0})
    assert r.status_code == 302, html(r)
    page = html(client.get(f"/g/{group.code}/games/{game_id}"))
    said = re.search(r"<span data-leads>([^<]*)</span>", page)
    assert said and said.group(1) == "Chloé joue en premier (après Benoît, qui a annoncé en premier)."
    tricks = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/1/edit"))
    assert "Chloé a joué en premier (après Benoît, qui a annoncé en premier)." in tricks


def test_the_rules_page_says_the_four_roles_of_a_deal(client):
    # seed 002: « (Ainsi chacun à un rôle : le donneur, le premier à parler, le premier à
    # jouer, et à 4, celui qui coupe avant le donneur) »
    page = html(client.get("/rules/whist-tarot"))
    roles = page[page.index("Qui fait quoi") : page.index("Les annonces")]
    for role in ("qui donne", "annonce en premier", "joue en premier", "coupe avant le donneur"):
        assert role in roles, role
    # The example is the engine's: Dan deals, Ann bids first, Bob plays first, Cid cuts.
    assert "Exemple à 4, Dan donnant\u00a0: Ann annonce en premier, Bob joue en premier et Cid coupe." in roles
    assert "À 3, Cid donnant\u00a0: Ann annonce en premier et Bob joue en premier." in roles
    english = html(client.get("/rules/whist-tarot", headers={"Accept-Language": "en"}))
    assert "For example at 4, Dan dealing: Ann bids first, Bob plays first and Cid cuts." in english
