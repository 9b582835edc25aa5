"""The quick check without JavaScript (issue 11): the form posts to its page, which asks the
engine (companion.games.judging.judge) and shows the verdict above the form, kept as typed.

Sentences of the pages are checked in English (their msgids, whatever the French catalog
holds); what the engine says (reasons, « said ») in French, the default. Seeds: 000 (le
Président), 001 (Piketty), 002 (whist with a tarot deck), 003 (la crapouille)."""

from __future__ import annotations

import re
from typing import Any

import flask_babel
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion.extensions import db
from companion.referee.check import Table, check_form, form_body
from tests.helpers import add_players, create_group, html, start_crapouille

EN = {"Accept-Language": "en"}
FOUR = {f"state.players[{i}]": name for i, name in enumerate(("Ann", "Bob", "Cid", "Dan"))}
SIX = {f"state.players[{i}]": name for i, name in enumerate(("Ann", "Bob", "Cid", "Dan", "Eve", "Fay"))}


@pytest.fixture
def words(app: Flask) -> dict[str, str]:
    """The verdict's words as a French page shows them (the catalog's French once it is there)."""
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        flask_babel.refresh()
        found = {
            "legal": str(flask_babel.gettext("Legal move")),
            "illegal": str(flask_babel.gettext("Illegal move")),
            "next_dan": _text(str(flask_babel.gettext("Next to play:"))) + " Dan",
            "no_name": str(flask_babel.gettext("Choose a player who has a name.")),
        }
    flask_babel.refresh()
    return found


def _text(page: str) -> str:
    """The page's text, tags dropped and spaces (no-break ones too) made plain."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.replace("\u00a0", " ")))


def _verdict(page: str) -> str:
    """The text of the verdict box, or '' when the page shows none."""
    match = re.search(r'<section id="verdict"[^>]*>(.*?)</section>', page, re.S)
    assert match, "no verdict region"
    return _text(match.group(1)).strip()


def _check(client: FlaskClient, game: str, data: dict[str, str], headers: dict[str, str] | None = None) -> Any:
    return client.post(f"/check?game={game}", data={"game": game, **data}, headers=headers or {})


def _error_of(page: str, input_id: str) -> str:
    """The error shown under the input ``input_id``."""
    match = re.search(rf'<div id="{re.escape(input_id)}-err">(.*?)</div>', page, re.S)
    assert match, f"no error under {input_id}"
    return _text(match.group(1)).strip()


# ------------------------------------------------------------------ the pages


def test_the_check_starts_by_choosing_a_game(client: FlaskClient) -> None:
    page = html(client.get("/check", headers=EN))
    assert "Can I play this?" in page and "Which game?" in page
    for game, name in [
        ("president", "Le Président"),
        ("piketty", "Piketty"),
        ("whist-tarot", "whist"),
        ("crapouille", "crapouille"),
    ]:
        assert f'href="/check?game={game}"' in page and name in page
    for game in ("president", "piketty", "whist-tarot", "crapouille"):
        r = client.get(f"/check?game={game}")
        assert r.status_code == 200
        page = html(r)
        # The form is the API body: inputs named by JSON path, each saying how it reads.
        assert 'name="move.player"' in page and 'data-kind="player"' in page and 'data-api="/api/v1/check"' in page
        assert 'value="Ann"' in page and 'value="Dan"' in page
        assert 'src="/static/check.js?v=' in page and 'href="/static/referee.css?v=' in page
    assert client.get("/check?game=belote").status_code == 200  # back to the choice
    assert client.post("/check?game=belote", data={}).status_code == 400


def test_no_inline_script_or_style_on_the_check_pages(client: FlaskClient) -> None:
    for game in ("president", "crapouille", "whist-tarot"):
        page = html(client.get(f"/check?game={game}"))
        assert "<script>" not in page and " style=" not in page and not re.search(r"\son[a-z]+=", page)


# -------------------------------------------------------- a legal and an illegal move


def test_president_a_pair_on_a_pair_and_a_pair_too_low(client: FlaskClient, words: dict[str, str]) -> None:
    # seed 000: « Jouer consiste à poser le même nombre de cartes que le joueur précédent,
    # mais d'un rang supérieur. » Ann 7♥ 7♠, Bob passes, Cid plays. Cards typed in French.
    table = FOUR | {
        "state.trick[0].player": "0",
        "state.trick[0].cards": "7C 7P",
        "state.trick[1].player": "1",
        "state.trick[1].pass": "y",
        "move.player": "2",
    }
    r = _check(client, "president", table | {"move.cards": "9T 9K"})
    verdict = _verdict(html(r))
    assert r.status_code == 200 and words["legal"] in verdict and "À Dan de jouer." in verdict
    # Whose turn is said once: by the sentence, not again as « Next to play: Dan ».
    assert words["next_dan"] in verdict and re.search(r'<p class="verdict-next" hidden>', html(r))
    r = _check(client, "president", table | {"move.cards": "6T 6K"})
    page = html(r)
    verdict = _verdict(page)
    assert r.status_code == 200 and words["illegal"] in verdict
    assert "Il faut jouer plus haut que la paire de 7." in verdict
    # The form is kept as typed, in French letters.
    assert 'value="6T 6K"' in page and 'value="7C 7P"' in page


def test_president_twos_win_the_trick_and_a_quad_is_a_revolution(client: FlaskClient) -> None:
    # seed 000: « Lorsqu'un joueur pose des deux … il redémarre immédiatement un nouveau tour ».
    table = FOUR | {"state.trick[0].player": "0", "state.trick[0].cards": "RT", "move.player": "1"}
    verdict = _verdict(html(_check(client, "president", table | {"move.cards": "2P"})))
    assert "Le pli est pour vous, vous rejouez." in verdict
    # With the revolution house rule, four 5s reverse the order (RULES.md §1, revolution).
    table = FOUR | {"rules.revolution": "y", "move.player": "0", "move.cards": "5C 5P 5K 5T"}
    verdict = _verdict(html(_check(client, "president", table)))
    assert "Révolution !" in verdict or "Révolution\u00a0!" in verdict


def test_piketty_no_equal_rank_and_the_lead_after_a_last_card(client: FlaskClient, words: dict[str, str]) -> None:
    # seed 001: « On ne peut pas égaliser »; « Si tout le monde passe, c'est le plus haut
    # en grade qui rejoue et non pas le suivant. »
    table = SIX | {"state.trick[0].player": "0", "state.trick[0].cards": "9C", "move.player": "1"}
    verdict = _verdict(html(_check(client, "piketty", table | {"move.cards": "9P"})))
    assert words["illegal"] in _verdict(html(_check(client, "piketty", table | {"move.cards": "9P"})))
    assert "Il faut jouer plus haut que 9." in verdict
    table = SIX | {"state.out[0]": "0", "state.trick[0].player": "0", "state.trick[0].cards": "AC"}
    table |= {f"state.trick[{k}].player": str(k) for k in range(1, 5)}
    table |= {f"state.trick[{k}].pass": "y" for k in range(1, 5)}
    verdict = _verdict(html(_check(client, "piketty", table | {"move.player": "5", "move.pass": "y"})))
    assert words["legal"] in verdict and "Le pli est pour Ann ; Bob entame." in verdict.replace(" ;", " ;")


def test_whist_the_dealers_forbidden_bid_and_a_legal_one(client: FlaskClient, words: dict[str, str]) -> None:
    # seed 002: « si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 ».
    table = FOUR | {"state.dealer": "3", "state.cards": "5", "state.bids.@0": "2", "state.bids.@1": "1"}
    table |= {"state.bids.@2": "1", "move.player": "3"}
    verdict = _verdict(html(_check(client, "whist-tarot", table | {"move.bid": "1"})))
    assert words["illegal"] in verdict and "Dan donne et ne peut pas annoncer 1" in verdict
    verdict = _verdict(html(_check(client, "whist-tarot", table | {"move.bid": "2"})))
    assert words["legal"] in verdict and "Dan annonce 2." in verdict and "Bob entame" in verdict


def test_whist_the_excuse_must_be_announced(client: FlaskClient, words: dict[str, str]) -> None:
    # seed 002: « Le joueur qui la joue annonce sa valeur : soit 0, soit 22 ».
    table = FOUR | {"state.dealer": "3", "state.cards": "5"}
    table |= {f"state.bids.@{i}": b for i, b in enumerate(("2", "1", "1", "0"))}
    table |= {"state.trick[0].player": "1", "state.trick[0].card": "T14", "move.player": "2", "move.card": "EX"}
    verdict = _verdict(html(_check(client, "whist-tarot", table)))
    assert words["illegal"] in verdict and "L’Excuse s’annonce" in verdict
    verdict = _verdict(html(_check(client, "whist-tarot", table | {"move.excuse": "22"})))
    assert words["legal"] in verdict and words["next_dan"] in verdict


def test_crapouille_the_asked_suit_and_a_two(client: FlaskClient, words: dict[str, str]) -> None:
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». Le joueur
    # suivant est tenu de fournir un pique ».
    table = FOUR | {"state.pile": "9K 8C", "state.asked": "s", "state.turn": "1", "move.player": "1"}
    verdict = _verdict(html(_check(client, "crapouille", table | {"move.card": "VC"})))
    assert words["illegal"] in verdict and "il faut du pique, un 8 ou un joker" in verdict
    verdict = _verdict(html(_check(client, "crapouille", table | {"move.card": "VP"})))
    assert words["legal"] in verdict and "À Cid de jouer." in verdict
    # « le 2, qui fait prendre obligatoirement la première carte du talon au joueur suivant,
    # qui, de surcroît, passe son tour »; nothing but a 2 or the 2's suit on it.
    table = FOUR | {"state.pile": "9K 2C", "state.turn": "1", "move.player": "1"}
    verdict = _verdict(html(_check(client, "crapouille", table | {"move.card": "2P"})))
    assert "Cid pioche une carte et passe son tour." in verdict and "À Dan de jouer." in verdict
    verdict = _verdict(html(_check(client, "crapouille", table | {"move.card": "8P", "move.asked": "h"})))
    assert words["illegal"] in verdict and "Ni 8 ni joker sur un 2" in verdict


def test_crapouille_the_last_card_unannounced_and_a_draw(client: FlaskClient, words: dict[str, str]) -> None:
    # seed 003: « S'il ne l'a pas fait, il lui sera interdit de finir au tour suivant. »
    table = FOUR | {"state.pile": "9K 7K", "state.turn": "0", "move.player": "0", "move.card": "5K"}
    verdict = _verdict(html(_check(client, "crapouille", table | {"move.last": "y"})))
    assert words["illegal"] in verdict
    verdict = _verdict(html(_check(client, "crapouille", table | {"move.last": "y", "move.announced": "y"})))
    assert words["legal"] in verdict
    # « You may not draw when you can play » (RULES.md §4), with the hand given.
    table = FOUR | {"state.pile": "9K 7K", "state.turn": "0", "move.player": "0", "move.draw": "y"}
    verdict = _verdict(html(_check(client, "crapouille", table | {"state.hand": "5K"})))
    assert words["illegal"] in verdict
    verdict = _verdict(html(_check(client, "crapouille", table | {"state.hand": "5P"})))
    assert words["legal"] in verdict and "Ann pioche une carte." in verdict


# ------------------------------------------------------------------ malformed input


def test_an_unknown_card_is_a_field_error_in_french(client: FlaskClient) -> None:
    table = FOUR | {"state.trick[0].player": "0", "state.trick[0].cards": "7C 8h", "move.player": "1"}
    r = _check(client, "president", table | {"move.cards": "9T"})
    page = html(r)
    assert r.status_code == 400 and _verdict(page) == ""
    assert _error_of(page, "f-state-trick-0-cards") == "Carte inconnue : « 8h » (8 de cœur : 8C ou 8♥)."
    assert 'id="error-summary"' in page and 'href="#f-state-trick-0-cards"' in page
    assert re.search(r'<a href="#f-state-trick-0-cards">[^<]*1 · ', page)  # which play of the trick
    assert 'value="7C 8h"' in page and 'value="9T"' in page  # nothing typed is lost


def test_a_fifth_copy_is_placed_on_its_field(client: FlaskClient) -> None:
    # One 52-card deck: a single 7♥; a trick written after the blank rows it skipped.
    table = FOUR | {"state.trick[2].player": "0", "state.trick[2].cards": "7C 7C", "move.player": "1"}
    page = html(_check(client, "president", table | {"move.cards": "9T"}))
    assert "Il n’y a qu’un 7♥ dans le jeu." in _error_of(page, "f-state-trick-2-cards")
    # La crapouille's 108 cards hold two of each: a third 9♦, counted over the pile and the move.
    table = FOUR | {"state.pile": "9K 9K", "state.turn": "0", "move.player": "0", "move.card": "9K"}
    r = _check(client, "crapouille", table)
    assert r.status_code == 400 and "9♦" in _text(html(r))


def test_a_bad_player_is_a_field_error(client: FlaskClient, words: dict[str, str]) -> None:
    # A seat without a name (a select tampered with, or a name erased).
    table = FOUR | {"state.trick[0].player": "6", "state.trick[0].cards": "7C", "move.player": "1"}
    page = html(_check(client, "president", table | {"move.cards": "9T"}))
    assert _error_of(page, "f-state-trick-0-player") == words["no_name"]
    page = html(_check(client, "president", FOUR | {"move.player": "x9", "move.cards": "9c"}, EN))
    assert _error_of(page, "f-move-player") == "Choose a player who has a name."
    # Two players of the same name: the engine's word, on the names.
    r = _check(client, "president", FOUR | {"state.players[1]": "Ann", "move.player": "0", "move.cards": "9T"})
    assert r.status_code == 400
    assert _error_of(html(r), "f-state-players-0") == "Un joueur figure deux fois."
    # Too few players for Piketty (4 to 9).
    r = _check(client, "piketty", {"state.players[0]": "Ann", "state.players[1]": "Bob", "move.player": "0"})
    assert r.status_code == 400 and "Le Piketty se joue de 4 à 9 joueurs." in html(r)
    # A bid for a seat nobody sits on.
    r = _check(client, "whist-tarot", FOUR | {"state.bids.@5": "1", "move.player": "0", "move.bid": "1"})
    assert r.status_code == 400


def test_incompatible_house_rules_are_placed_on_the_rule(client: FlaskClient) -> None:
    table = FOUR | {"rules.passe_breakers": "y", "move.player": "0", "move.cards": "9T"}
    page = html(_check(client, "president", table))
    message = "Les cartes qui cassent la passe demandent la règle de la passe."
    assert _error_of(page, "f-rules-passe-breakers") == message
    assert '<details class="setup" open>' in page  # the setup opens on its error


def test_a_move_that_is_neither_card_nor_draw_is_an_error_not_a_500(client: FlaskClient) -> None:
    r = _check(client, "crapouille", FOUR | {"state.pile": "9K", "state.turn": "0", "move.player": "0"})
    assert r.status_code == 400 and 'id="error-summary"' in html(r)
    r = _check(client, "whist-tarot", FOUR | {"state.dealer": "3", "state.cards": "5", "move.player": "0"})
    assert r.status_code == 400
    r = _check(client, "president", FOUR | {"move.player": "0"})
    assert r.status_code == 400 and "Un coup pose des cartes" in _error_of(html(r), "f-move-player")


def test_text_no_database_stores_is_refused_at_its_field(client: FlaskClient) -> None:
    r = _check(client, "president", FOUR | {"state.players[0]": "A\x00nn", "move.player": "0", "move.cards": "9T"})
    assert r.status_code == 400 and 'id="f-state-players-0-err"' in html(r)


def test_a_failure_behind_the_engine_is_a_form_error_not_a_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(body: dict[str, Any], lang: str) -> dict[str, Any]:
        raise KeyError("bug")

    monkeypatch.setattr("companion.referee.check.judge", broken)
    r = _check(client, "president", FOUR | {"move.player": "0", "move.cards": "9c"}, EN)
    assert r.status_code == 400 and "This table could not be judged." in html(r)
    assert 'value="9c"' in html(r)


JUNK = st.one_of(
    st.sampled_from(
        ["", " ", "0", "-1", "1", "99", "²", "y", "\x00", "7C 7C 7C 7C 7C", "Joker", "@1", "{", "{}", "[1]"]
    ),
    st.text(max_size=30).filter(lambda t: not any(0xD800 <= ord(c) <= 0xDFFF for c in t)),
)


@pytest.mark.parametrize("game", ["president", "piketty", "whist-tarot", "crapouille"])
def test_junk_in_any_input_is_never_a_500(app: Flask, game: str) -> None:
    with app.test_request_context(f"/check?game={game}"):
        names = [f.name for f in check_form(Table(game, ("Ann", "Bob", "Cid", "Dan"), fixed=False)) if f.name]
    client = app.test_client()

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.dictionaries(st.sampled_from(names), JUNK, max_size=12))
    def post(data: dict[str, str]) -> None:
        r = client.post(f"/check?game={game}", data=data)
        assert r.status_code in (200, 400), r.status_code

    post()


# -------------------------------------------------------------- the form is the body


def test_form_body_reads_paths_closes_up_lists_and_names_seats(app: Flask) -> None:
    data = MultiDict(
        FOUR
        | {
            "game": "whist-tarot",
            "state.dealer": "3",
            "state.cards": "5",
            "state.bids.@0": "2",
            "state.bids.@2": "1",
            "state.trick[1].player": "1",
            "state.trick[1].card": "T14",
            "state.trick[2].player": "2",
            "state.trick[2].card": "EX",
            "state.trick[2].excuse": "0",
            "move.player": "3",
            "move.card": "T21",
        }
    )
    with app.test_request_context("/check?game=whist-tarot", method="POST", data=data):
        form = check_form(Table("whist-tarot", ("Ann", "Bob", "Cid", "Dan"), fixed=False))
        built = form_body(form, "fr")
    assert built.body == {
        "game": "whist-tarot",
        "state": {
            "players": ["Ann", "Bob", "Cid", "Dan"],
            "dealer": "Dan",
            "cards": 5,
            "bids": {"Ann": 2, "Cid": 1},
            "trick": [{"player": "Bob", "card": "T14"}, {"player": "Cid", "card": "EX", "excuse": 0}],
        },
        "move": {"player": "Dan", "card": "T21"},
    }
    assert built.where["state.trick[1].excuse"] == "state.trick[2].excuse"
    assert built.where["state.bids.Cid"] == "state.bids.@2"


# ----------------------------------------------------------- from a game in progress


def _start(client: FlaskClient, group: Any, kind: str, players: list[Any], **fields: str) -> int:
    data = {f"seats-{i}": str(p.id) for i, p in enumerate(players)}
    if kind in ("president", "piketty"):
        data |= {"target": "25", "titles": "classic", "rule_points": "y"}
    data |= fields
    r = client.post(f"/g/{group.code}/games/new/{kind}", data=data)
    assert r.status_code == 302, html(r)
    match = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert match
    return int(match.group(1))


def _manche(client: FlaskClient, group: Any, game_id: int, number: int, finish: list[Any]) -> None:
    data = {"round": str(number), "event": ""} | {f"finish-{i}": str(p.id) for i, p in enumerate(finish)}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)


def test_a_president_game_brings_its_players_rules_and_titles(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(client, group, "president", [ann, bob, cid, dan], rule_revolution="y")
    url = f"/g/{group.code}/games/{game_id}/check"
    _manche(client, group, game_id, 1, [cid, ann, dan, bob])
    page = html(client.get(url, headers=EN))
    text = _text(page)
    assert "Players, in turn order: Cid, Ann, Dan, Bob" in text  # seated down the hierarchy
    assert re.search(r"President ?: Cid", text) and re.search(r"Asshole ?: Bob|Trou du cul ?: Bob", text)
    french = _text(html(client.get(url)))
    assert re.search(r"Président ?: Cid", french) and re.search(r"Trou du cul ?: Bob", french)
    assert "Revolution" in text  # the house rules, in words
    assert f'href="/g/{group.code}/games/{game_id}"' in page
    # Players and rules are the game's: hidden, not typed.
    assert '<input data-kind="text" id="f-state-players-0" name="state.players[0]" type="hidden" value="Cid">' in page
    assert "&#34;revolution&#34;: true" in client.get(url).get_data(as_text=True)
    # Cid leads the next manche (after Bob, the Trou du cul, who deals): preset as the
    # leader and the mover.
    assert len(re.findall(r'<option selected value="0">Cid</option>', page)) == 2
    # A check with the game's rules: four 5s are a revolution here.
    data = {"game": "president", "rules": '{"revolution": true}', "move.player": "0", "move.cards": "5C 5P 5K 5T"}
    data |= {f"state.players[{i}]": n for i, n in enumerate(("Cid", "Ann", "Dan", "Bob"))}
    r = client.post(url, data=data)
    assert r.status_code == 200 and "Révolution" in _verdict(html(r))
    # Rules tampered with are an error, not a 500.
    r = client.post(url, data=data | {"rules": '{"colour": true}'})
    assert r.status_code == 400 and "Option inconnue : « colour »." in _text(html(r))
    r = client.post(url, data=data | {"rules": "{"})
    assert r.status_code == 400


def test_a_piketty_game_seats_the_hierarchy(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    game_id = _start(client, group, "piketty", players)
    # The first manche is a draw (seed 001): Cid's 2 makes Cid Président.
    draw = {"Ann": "RP", "Bob": "RC", "Cid": "2T", "Dan": "7K", "Eve": "9P", "Fay": "AK"}
    data = {"round": "1"} | {f"draw_{p.id}": draw[p.name] for p in players}
    r = client.post(f"/g/{group.code}/games/{game_id}/rounds/new", data=data)
    assert r.status_code == 302, html(r)
    text = _text(html(client.get(f"/g/{group.code}/games/{game_id}/check", headers=EN)))
    assert "Hierarchy, from the Président: Cid, Fay, Ann, Bob, Eve, Dan" in text
    assert re.search(r"Président ?: Cid", _text(html(client.get(f"/g/{group.code}/games/{game_id}/check"))))


def test_crapouille_and_whist_games_bring_their_players(client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [cid, ann, bob], super_=True)
    page = html(client.get(f"/g/{group.code}/games/{game_id}/check", headers=EN))
    assert "Players, in turn order: Cid, Ann, Bob" in _text(page) and "Super crapouille" in page
    data = {"game": "crapouille", "rules": '{"super": true}', "state.players[0]": "Cid", "state.players[1]": "Ann"}
    data |= {
        "state.players[2]": "Bob",
        "state.pile": "9K 7K",
        "state.turn": "0",
        "move.player": "0",
        "move.card": "10K",
    }
    verdict = _verdict(html(client.post(f"/g/{group.code}/games/{game_id}/check", data=data)))
    assert "Vous rejouez." in verdict  # Super crapouille: a 10 lets its player play again (seed 003)

    r = client.post(
        f"/g/{group.code}/games/new/whist-tarot",
        data={"seats-0": str(ann.id), "seats-1": str(bob.id), "seats-2": str(cid.id), "dealer": str(cid.id)},
    )
    whist_id = int(r.headers["Location"].rsplit("/", 1)[-1])
    page = html(client.get(f"/g/{group.code}/games/{whist_id}/check"))
    assert re.search(r'<select[^>]*name="state.dealer"[^>]*>.*?<option selected value="2">Cid</option>', page, re.S)
    assert re.search(r'<select[^>]*name="state.cards"[^>]*>.*?<option selected value="5">5</option>', page, re.S)


def test_a_game_of_another_group_is_not_found_and_strangers_are_sent_to_join(app: Flask, client: FlaskClient) -> None:
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game_id = start_crapouille(client, group, [ann, bob, cid])
    assert client.get(f"/g/{group.code}/games/{game_id + 1}/check").status_code == 404
    stranger = app.test_client()
    r = stranger.get(f"/g/{group.code}/games/{game_id}/check")
    assert r.status_code == 302 and "/join" in r.headers["Location"]
    assert stranger.post(f"/g/{group.code}/games/{game_id}/check", data={}).status_code == 403


def test_the_check_page_of_a_game_runs_a_constant_number_of_queries(client: FlaskClient) -> None:
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game_id = _start(client, group, "president", players)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    def queries() -> int:
        statements.clear()
        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            assert client.get(f"/g/{group.code}/games/{game_id}/check").status_code == 200
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
        return len(statements)

    none = queries()
    _manche(client, group, game_id, 1, players)
    few = queries()
    for n in range(2, 8):
        _manche(client, group, game_id, n, players[n % 4 :] + players[: n % 4])
    assert queries() == few
    assert few <= none + 1  # the last round read, once there is one
