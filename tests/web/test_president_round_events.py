"""The Président round form's events (issue 23): each event's own choices are grouped with
it, so that static/president.js shows only the chosen event's (the jeu blanc's player menu
hides when « Putsch » is chosen); without script every choice stays, and the server reads
only the chosen event's.

seed 000: « Le putsch est une chance laissée au Balayeur »; « Si un joueur, après la
distribution des cartes et avant que tout échange soit fait, n'a aucune figure ou carte plus
forte (…), il devient automatiquement Président sans que la main se joue. »"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import html
from tests.web.test_president_carry import EN, _game, _last_round, _save
from tests.web.test_whist_pages import fr

EVENTS = {"rule_putsch": "y", "rule_jeu_blanc": "y", "rule_jokers": "2", "rule_coup_detat": "y", "rule_guillotine": "y"}


def _part(page: str, event: str) -> str:
    """The block of the round form holding ``event``'s own choices."""
    match = re.search(
        rf'<div class="event-choices" data-event="{event}">(.*?)</div>\s*(?=<div class="event-choices"|</fieldset>)',
        page,
        re.S,
    )
    assert match, event
    return match.group(1)


def test_each_event_s_choices_are_grouped_with_it(client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, **EVENTS)
    _save(client, group, game_id, 1, [ann, bob, cid, dan])
    page = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    events = re.search(r'<fieldset class="events[^"]*" data-events>(.*?)</fieldset>', page, re.S)
    assert events
    assert re.findall(r'name="event"[^>]*value="(\w*)"', events.group(1)) == [
        "",
        "putsch",
        "jeu_blanc",
        "coup_detat",
        "guillotine",
    ]
    assert re.findall(r'data-event="(\w+)"', events.group(1)) == ["jeu_blanc", "coup_detat", "guillotine"]
    jeu_blanc = _part(page, "jeu_blanc")
    assert 'name="jeu_blanc_player"' in jeu_blanc and "A jeu blanc is shown before the exchange" in jeu_blanc
    assert 'name="coup_detat_player"' not in jeu_blanc and 'name="guillotine_player"' not in jeu_blanc
    assert re.findall(r'name="(\w+)"', _part(page, "coup_detat")) == ["coup_detat_player"]
    assert re.findall(r'name="(\w+)"', _part(page, "guillotine")) == [
        "guillotine_player",
        "guillotine_vice",
        "guillotine_last",
    ]
    # Every choice is in the page (without script they all show); the script hides the others.
    assert 'src="/static/president.js?v=' in page and " hidden" not in events.group(1)


def test_without_script_the_server_reads_only_the_chosen_event(app: Flask, client: FlaskClient) -> None:
    group, (ann, bob, cid, dan), game_id = _game(client, **EVENTS)
    _save(client, group, game_id, 1, [ann, bob, cid, dan])
    # « Putsch » chosen, a jeu blanc player left in its menu: a putsch by Dan, the Trou du cul.
    _save(client, group, game_id, 2, [dan, ann, bob, cid], event="putsch", jeu_blanc_player=str(bob.id))
    rnd = _last_round(game_id)
    assert rnd.entry["events"] == {"putsch": str(dan.id)}
    assert rnd.result["events"] == ["putsch_succeeded"]
    # « Jeu blanc » chosen without its player: said by its own menu.
    r = client.post(
        f"/g/{group.code}/games/{game_id}/rounds/new",
        data={"round": "3", "event": "jeu_blanc", "jeu_blanc_player": ""},
    )
    assert r.status_code == 200
    assert re.search(r'data-event="jeu_blanc">.*?' + re.escape(fr(app, "Say who it was.")), html(r), re.S)


def test_a_first_round_offers_no_event_and_loads_no_script(client: FlaskClient) -> None:
    group, _players, game_id = _game(client, **EVENTS)
    page = html(client.get(f"/g/{group.code}/games/{game_id}/rounds/new", headers=EN))
    assert "data-events" not in page and "president.js" not in page
