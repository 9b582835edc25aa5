"""Names that cannot lie (issue 24): every name the app keeps — a player's, a device's, a
group's, a season's — refuses the invisible characters that change how the text around
it reads (bidirectional controls and other format characters), as it refuses NUL, with a
clear French message; names that need a joiner (an emoji family, Persian) are kept."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Group, Player, Season
from companion.names import refusal
from tests.helpers import add_players, create_group, html
from tests.web.test_join_qr import _show_qr

#: « Ann » written so that what follows it reads backwards (U+202E), or isolated
#: right-to-left (U+2067), or with a mark that moves the punctuation after it (U+200F).
LIARS = {
    "Ann\u202egnaG": "U+202E",
    "\u2067Ann\u2069": "U+2067",
    "Ann\u200f": "U+200F",
    "A\u200enn": "U+200E",
    "Ann\u061c": "U+061C",
    "An\u00adn": "U+00AD",
    "A\u200bnn": "U+200B",
    "Ann\u200d": "U+200D",  # a joiner that joins nothing of the name: only what follows it
    "Ann\u009b31m": "U+009B",  # a C1 control (a terminal's escape)
}
MESSAGE = (
    "Ce nom contient un caractère invisible ({code}) qui change la lecture du texte qui l’entoure\u00a0: retirez-le."
)


@pytest.fixture
def group(client: FlaskClient) -> Group:
    return create_group(client)


def _count(model: Any) -> int:
    db.session.expire_all()
    return int(db.session.scalar(sa.select(sa.func.count()).select_from(model)) or 0)


@pytest.mark.parametrize("name,code", list(LIARS.items()))
def test_a_player_name_that_would_read_otherwise_is_refused(client: FlaskClient, group: Group, name, code) -> None:
    r = client.post(f"/g/{group.code}/players", data={"name": name})
    assert r.status_code == 200
    assert MESSAGE.format(code=code) in html(r)
    assert _count(Player) == 0


def test_every_name_field_refuses_them(app: Flask, client: FlaskClient, group: Group) -> None:
    liar, message = "Ann\u202egnaG", MESSAGE.format(code="U+202E")
    # A group's name and its creating device's.
    for data in ({"name": liar}, {"name": "Les Amis", "device_name": liar}):
        r = client.post("/groups/new", data={"passphrase": "abcdef", "confirm": "abcdef", **data})
        assert r.status_code == 200 and message in html(r)
    assert _count(Group) == 1
    # A player renamed.
    (ann,) = add_players(client, group, "Ann")
    r = client.post(f"/g/{group.code}/players/{ann.id}", data={"name": liar})
    assert r.status_code == 200 and message in html(r)
    # A season.
    r = client.post(f"/g/{group.code}/seasons", data={"name": liar, "starts_on": "2026-09-01"})
    assert r.status_code == 200 and message in html(r)
    assert _count(Season) == 1
    # This device renamed.
    r = client.post(f"/g/{group.code}/devices", data={"device-name": liar, "device-submit": "y"})
    assert r.status_code == 200 and message in html(r)
    # A device joining with the passphrase (no guess spent: the form is refused first), or by QR code.
    other = app.test_client()
    r = other.post("/join", data={"code": group.code, "passphrase": "trou du cul", "device_name": liar})
    assert r.status_code == 200 and message in html(r)
    _, _, link = _show_qr(client, group)
    r = other.post(link, data={"device_name": liar})
    assert r.status_code == 200 and message in html(r)
    db.session.expire_all()
    assert [d.name for d in db.session.scalars(sa.select(Device))] == ["Appareil 1"]
    assert [p.name for p in db.session.scalars(sa.select(Player))] == ["Ann"]


def test_names_that_need_a_joiner_or_a_flag_are_kept(client: FlaskClient, group: Group) -> None:
    names = [
        "Famille 👨\u200d👩\u200d👧",  # an emoji family: zero-width joiners between its emoji
        "🏳\ufe0f\u200d🌈 Alex",
        "می\u200cخواهم",  # Persian: a zero-width non-joiner inside the word
        "שָׁלוֹם",  # Hebrew with its points
        "Les \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # the flag of Scotland
        "عائشة",  # a right-to-left name is a name
    ]
    for name in names:
        r = client.post(f"/g/{group.code}/players", data={"name": name})
        assert r.status_code == 302, (name, html(r))
    db.session.expire_all()
    assert sorted(p.name for p in db.session.scalars(sa.select(Player))) == sorted(names)


def test_marks_piled_on_one_letter_are_refused(client: FlaskClient, group: Group) -> None:
    zalgo = "Ann" + "\u0301\u0300\u0302\u0303\u0308\u030a"
    r = client.post(f"/g/{group.code}/players", data={"name": zalgo})
    assert r.status_code == 200
    assert "Ce nom empile trop de signes sur une même lettre\u00a0: gardez-en 4 au plus." in html(r)
    assert _count(Player) == 0


def test_a_name_of_nothing_but_controls_is_told_once(client: FlaskClient, group: Group) -> None:
    r = client.post(f"/g/{group.code}/players", data={"name": "\u202e\u2066"})
    page = html(r)
    assert "Ce nom n’affiche rien" in page and "caractère invisible" not in page


def test_the_one_check_speaks_english_too(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert refusal("Ann\u202e") == (
            "This name holds an invisible character (U+202E) that changes how the text around it reads: remove it."
        )
        assert refusal("Ann") is None
