"""Small slips of getting into a group (issue 22): a passphrase typed with a space at
either end is the passphrase (trimmed at creation, at joining, at a change; a group
whose stored passphrase has such spaces, from before, still opens), and a phone removed
from a group lands, on its next request, on a page that says so with the form to come
back — not on a bare join form."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Group, Player
from tests.helpers import add_players, create_group, html

ENGLISH = {"Accept-Language": "en"}


def _join(phone: FlaskClient, code: str, passphrase: str, name: str = "", **kwargs: str) -> int:
    data = {"code": code, "passphrase": passphrase, "device_name": name}
    return phone.post("/join", data=data, **kwargs).status_code


# ------------------------------------------------------------------ passphrases


def test_a_passphrase_typed_with_spaces_at_its_ends_is_the_passphrase(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase="  la belote ")
    db.session.expire_all()
    assert group.check_passphrase("la belote")  # stored trimmed
    assert not group.check_passphrase("  la belote ")
    for typed in ("la belote ", " la belote", "\tla belote\u00a0", "la belote"):
        assert _join(app.test_client(), group.code.lower(), typed) == 302, typed
    # The spaces inside are the passphrase's own.
    assert _join(app.test_client(), group.code, "la  belote") == 403


def test_a_group_created_before_trimming_still_opens_with_its_spaces(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=" la belote")
    assert _join(app.test_client(), group.code, "la belote") == 302
    group.set_passphrase(" la belote ")  # as stored before passphrases were trimmed
    db.session.commit()
    assert _join(app.test_client(), group.code, " la belote ") == 302  # the trimmed one fails, the raw one opens
    assert _join(app.test_client(), group.code, "la belote") == 403  # it is not another passphrase
    # Six spaces were a passphrase too: nothing is left once trimmed, and it still opens.
    group.set_passphrase("      ")
    db.session.commit()
    assert _join(app.test_client(), group.code, "      ") == 302


def test_creating_with_only_spaces_is_refused(client: FlaskClient) -> None:
    r = client.post("/groups/new", data={"name": "Les Amis", "passphrase": "        ", "confirm": "        "})
    assert r.status_code == 200 and "de 6 à 200 caractères" in html(r)
    assert db.session.scalar(sa.select(sa.func.count(Group.id))) == 0
    # Six characters once trimmed.
    r = client.post("/groups/new", data={"name": "Les Amis", "passphrase": " abcde ", "confirm": " abcde "})
    assert r.status_code == 200 and "de 6 à 200 caractères" in html(r)


def test_a_passphrase_change_trims_and_asks_the_current_one_as_typed(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase="la belote")
    data = {
        "pass-current": "la belote ",
        "pass-passphrase": " le tarot ",
        "pass-confirm": "le tarot",
        "pass-submit": "1",
    }
    assert client.post(f"/g/{group.code}/devices", data=data).status_code == 302
    db.session.expire_all()
    assert group.check_passphrase("le tarot")
    assert _join(app.test_client(), group.code, "le tarot ") == 302


# ------------------------------------------------------------------ a removed phone


def _phone(app: Flask, group: Group, name: str = "Téléphone d’Ann") -> tuple[FlaskClient, Device]:
    phone = app.test_client()
    assert _join(phone, group.code, "la belote", name) == 302
    device = db.session.scalar(sa.select(Device).where(Device.name == name, Device.revoked_at.is_(None)))
    assert device is not None
    return phone, device


def _remove(client: FlaskClient, group: Group, device: Device) -> None:
    assert client.post(f"/g/{group.code}/devices/{device.id}/remove", data={"confirmed": "1"}).status_code == 302


def test_a_removed_phone_is_told_so_and_may_join_again(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, "Les Amis", passphrase="la belote")
    add_players(client, group, "Ann", "Bob")
    phone, device = _phone(app, group)
    _remove(client, group, device)

    r = phone.get(f"/g/{group.code}/players")
    page = html(r)
    assert r.status_code == 403
    assert "Ce téléphone a été retiré du groupe Les Amis" in page
    assert "Bob" not in page  # nothing of the group but its name
    # The join form, its code and this phone's name filled in, which leads back here.
    assert f'value="{group.code}"' in page and 'value="Téléphone d’Ann"' in page
    assert f'action="/join?next=/g/{group.code}/players"' in page.replace("%2F", "/")
    assert r.headers["X-Companion-Gone"] == group.code  # the service worker forgets the group's pages

    # In English too.
    page = html(phone.get(f"/g/{group.code}", headers=ENGLISH))
    assert "This phone was removed from the group Les Amis" in page and "may join again" in page

    # A form sent from a page opened before: refused, with the same page; nothing saved.
    r = phone.post(f"/g/{group.code}/players", data={"name": "Intrus"})
    assert r.status_code == 403 and "Ce téléphone a été retiré" in html(r)
    assert db.session.scalar(sa.select(Player.id).where(Player.name == "Intrus")) is None
    # A live page's poll (it asks for JSON) gets a bare refusal.
    r = phone.get(f"/g/{group.code}/watch", headers={"Accept": "application/json"})
    assert r.status_code == 403 and "retiré" not in html(r)

    # Joining again from that form: back on the page it was asked for.
    r = phone.post(
        f"/join?next=/g/{group.code}/players",
        data={"code": group.code.lower(), "passphrase": "la belote ", "device_name": "Téléphone d’Ann"},
    )
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/g/{group.code}/players")
    assert phone.get(f"/g/{group.code}/players").status_code == 200

    # A phone that never joined still learns nothing, nor one removed from another group.
    _remove(
        client,
        group,
        db.session.scalar(sa.select(Device).where(Device.revoked_at.is_(None), Device.name == "Téléphone d’Ann")),
    )
    stranger = app.test_client()
    r = stranger.get(f"/g/{group.code}")
    assert r.status_code == 302 and "/join" in r.headers["Location"] and "Les Amis" not in html(r)
    assert stranger.post(f"/g/{group.code}/players", data={"name": "X"}).status_code == 403
    other = create_group(client, "Les Autres", passphrase="la belote")
    r = phone.get(f"/g/{other.code}")
    assert r.status_code == 302 and "Les Autres" not in html(r)


def test_a_phone_signed_out_by_a_passphrase_change_is_told_so(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, "Les Amis", passphrase="la belote")
    phone, _device = _phone(app, group)
    data = {
        "pass-current": "la belote",
        "pass-passphrase": "le tarot",
        "pass-confirm": "le tarot",
        "pass-sign_out_others": "y",
        "pass-submit": "1",
    }
    assert client.post(f"/g/{group.code}/devices", data=data).status_code == 302
    r = phone.get(f"/g/{group.code}")
    assert r.status_code == 403 and "Ce téléphone a été retiré" in html(r)


def test_a_phone_that_left_is_told_it_left(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, "Les Amis", passphrase="la belote")
    phone, _device = _phone(app, group)
    assert phone.post(f"/g/{group.code}/leave", data={"confirmed": "1"}).status_code == 302
    r = phone.get(f"/g/{group.code}")
    assert r.status_code == 403 and "Ce téléphone a quitté le groupe Les Amis" in html(r) and "retiré" not in html(r)


# ------------------------------------------------------------------ the state a page shows


def test_every_page_of_a_group_says_which_state_it_shows(app: Flask, client: FlaskClient) -> None:
    """What the service worker compares an offline copy with (static/sw.js, stale)."""
    from tests.helpers import start_crapouille

    group = create_group(client, "Les Amis", passphrase="la belote")
    code = group.code
    shown = client.get(f"/g/{code}")
    token = shown.headers["X-Companion-State"]
    assert token.startswith(f"{code} s") and f'data-watch-token="{token.split()[1]}"' in html(shown)
    assert client.get(f"/g/{code}/players").headers["X-Companion-State"] == token  # the same state
    ann, bob = add_players(client, group, "Ann", "Bob")
    now = client.get(f"/g/{code}/players").headers["X-Companion-State"]
    assert now != token and client.get(f"/g/{code}").headers["X-Companion-State"] == now
    game_id = start_crapouille(client, group, [ann, bob])
    game = f"/g/{code}/games/{game_id}"
    first = client.get(game).headers["X-Companion-State"]
    assert first.startswith(f"{code}/{game_id} ")
    for path in ("/rounds/new", "/rules", "/live"):
        assert client.get(game + path).headers["X-Companion-State"] == first
    client.post(f"{game}/rounds/new", data={"round": "1", "winner": str(ann.id), f"total_{bob.id}": "3"})
    version = int(first.split()[1])
    assert client.get(game).headers["X-Companion-State"] == f"{code}/{game_id} {version + 1}"
    # Pages of no group, and answers that are no page, say nothing.
    assert "X-Companion-State" not in client.get("/").headers
    assert "X-Companion-State" not in client.get(f"/g/{code}/watch").headers
