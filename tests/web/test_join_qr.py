"""Joining by QR code: a device of the group shows a single-use, short-lived link that
lets one phone in without the passphrase."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.groups.invite import qr_svg
from companion.models import Device, Group, JoinToken, utcnow
from tests.helpers import create_group, html
from tests.web.test_hardening import together

EXPIRED_OR_USED = (
    "Ce code QR a expiré ou a déjà servi\u00a0: demandez-en un nouveau, ou entrez le code et la phrase secrète."
)


def _tokens() -> list[JoinToken]:
    db.session.expire_all()
    return list(db.session.scalars(sa.select(JoinToken).order_by(JoinToken.id)))


def _show_qr(client: FlaskClient, group: Group) -> tuple[int, str, str]:
    """Press « Montrer un code QR »: the token's id, the QR page and the link it shows."""
    r = client.post(f"/g/{group.code}/invite")
    assert r.status_code == 303, html(r)
    match = re.search(rf"/g/{group.code}/invite/(\d+)$", r.headers["Location"])
    assert match, r.headers["Location"]
    page = html(client.get(r.headers["Location"]))
    link = re.search(r'value="(http://localhost/join/t/[A-Za-z0-9_-]{43})"', page)
    assert link, page
    return int(match.group(1)), page, link.group(1).removeprefix("http://localhost")


def _joined_with_passphrase(app: Flask, group: Group, name: str = "Téléphone de Bob") -> FlaskClient:
    other = app.test_client()
    r = other.post("/join", data={"code": group.code, "passphrase": "trou du cul", "device_name": name})
    assert r.status_code == 302, html(r)
    return other


def _lands_on_the_join_page(response, code: str | None) -> None:
    assert response.status_code == 302, html(response)
    location = response.headers["Location"]
    assert location == (f"/join?code={code}" if code else "/join"), location


def test_the_group_page_leads_to_the_invite_page_which_writes_nothing(client):
    group = create_group(client)
    assert f'href="/g/{group.code}/invite"' in html(client.get(f"/g/{group.code}"))
    page = client.get(f"/g/{group.code}/invite")
    assert page.status_code == 200
    text = html(page)
    assert "Inviter un téléphone" in text and "Montrer un code QR" in text
    assert f'action="/g/{group.code}/invite"' in text and 'method="post"' in text
    assert _tokens() == []


def test_a_post_makes_a_token_whose_qr_code_is_shown_and_only_its_hash_is_kept(client):
    group = create_group(client)
    token_id, page, link = _show_qr(client, group)
    (token,) = _tokens()
    assert token.id == token_id and token.group_id == group.id
    raw = link.rsplit("/", 1)[-1]
    assert token.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in repr([getattr(token, c.key) for c in JoinToken.__table__.columns])
    assert token.device is not None and token.device.group_id == group.id
    expires_in = token.expires_at.replace(tzinfo=None) - token.created_at.replace(tzinfo=None)
    assert expires_in == timedelta(minutes=10)
    assert token.used_at is None and token.revoked_at is None
    # The QR code, inline, named for screen readers, with no style attribute (the CSP).
    assert re.search(r'<figure class="qr" role="img" aria-label="Code QR pour rejoindre Les Amis"><svg ', page)
    svg = page[page.index("<svg") : page.index("</svg>") + len("</svg>")]
    assert "style=" not in svg and "<path" in svg
    assert svg == qr_svg("http://localhost" + link)  # the code carries the link, nothing else
    assert "Valable 10 minutes, une seule fois." in page
    assert "Révoquer" in page
    assert client.get(f"/g/{group.code}/invite/{token_id}").headers["Cache-Control"] == "no-store"
    # Reloading shows the same code again; a double tap makes a second one, harmlessly.
    assert link in html(client.get(f"/g/{group.code}/invite/{token_id}"))
    second_id, _, second_link = _show_qr(client, group)
    assert second_id != token_id and second_link != link and len(_tokens()) == 2


def test_a_qr_code_joins_once_asking_the_device_name_then_leads_to_the_join_page(app, client):
    group = create_group(client)
    token_id, _, link = _show_qr(client, group)

    second = app.test_client()
    page = second.get(link)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    text = html(page)
    assert "Rejoindre Les Amis" in text and "Nom de cet appareil" in text
    assert 'name="passphrase"' not in text
    assert _tokens()[0].used_at is None  # a GET never spends the token (link previewers)
    assert second.get(link).status_code == 200

    r = second.post(link, data={"device_name": "  Téléphone   d’Ann "})
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{group.code}"
    assert "Bienvenue dans Les Amis." in html(second.get(r.headers["Location"]))
    device = db.session.scalar(sa.select(Device).where(Device.name == "Téléphone d’Ann"))
    assert device is not None and device.group_id == group.id and device.revoked_at is None
    (token,) = _tokens()
    assert token.used_at is not None and token.used_by_device_id == device.id

    third = app.test_client()
    r = third.get(link)
    _lands_on_the_join_page(r, group.code)
    assert EXPIRED_OR_USED in html(third.get(r.headers["Location"]))
    r = third.post(link, data={"device_name": "Intrus"})
    _lands_on_the_join_page(r, group.code)
    assert third.get(f"/g/{group.code}").status_code == 302
    assert db.session.scalar(sa.select(sa.func.count(Device.id)).where(Device.name == "Intrus")) == 0

    # The showing phone is told who came in, and is offered a new code.
    r = client.get(f"/g/{group.code}/invite/{token_id}")
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{group.code}/invite"
    assert "Téléphone d’Ann a rejoint le groupe avec ce code QR." in html(client.get(r.headers["Location"]))


def test_a_device_left_unnamed_gets_a_number_and_a_bad_name_spends_nothing(app, client):
    group = create_group(client)
    _, _, link = _show_qr(client, group)
    second = app.test_client()
    r = second.post(link, data={"device_name": "\u200b\u200d"})
    assert r.status_code == 200 and "Ce nom n’affiche rien" in html(r)
    r = second.post(link, data={"device_name": "x" * 61})
    assert r.status_code == 200 and "60 caractères au plus." in html(r)
    r = second.post(link, data={"device_name": "Ann\x00"})
    assert r.status_code == 200 and "caractère qui ne peut pas être enregistré" in html(r)
    assert _tokens()[0].used_at is None
    r = second.post(link, data={"device_name": ""})
    assert r.status_code == 302
    names = db.session.scalars(sa.select(Device.name).where(Device.group_id == group.id).order_by(Device.id)).all()
    assert len(names) == 2 and names[1] == "Appareil 2"


@pytest.mark.parametrize("how", ["expired", "revoked"])
def test_an_expired_or_revoked_code_leads_to_the_join_page(app, client, how):
    group = create_group(client)
    _, _, link = _show_qr(client, group)
    token = _tokens()[0]
    if how == "expired":
        token.expires_at = utcnow() - timedelta(seconds=1)
    else:
        token.revoked_at = utcnow()
    db.session.commit()
    other = app.test_client()
    for r in (other.get(link), other.post(link, data={"device_name": "Ann"})):
        _lands_on_the_join_page(r, group.code)
    page = other.get(f"/join?code={group.code}")
    assert EXPIRED_OR_USED in html(page) and f'value="{group.code}"' in html(page)
    assert other.get(f"/g/{group.code}").status_code == 302
    assert _tokens()[0].used_at is None


def test_an_unknown_or_malformed_token_leads_to_the_join_page_never_to_an_error(app, client):
    create_group(client)
    other = app.test_client()
    for token in [
        "A" * 43,  # well formed, unknown
        "short",
        "A" * 42 + "é",
        "A" * 42 + "%20",
        "A" * 5000,
        "A" * 20 + "/" + "A" * 22,
        "'; DROP TABLE join_tokens; --",
    ]:
        for r in (other.get(f"/join/t/{token}"), other.post(f"/join/t/{token}", data={"device_name": "Ann"})):
            _lands_on_the_join_page(r, None)
    assert EXPIRED_OR_USED in html(other.get("/join"))
    # Text no database stores is refused before any view runs, as everywhere.
    assert other.get("/join/t/" + "A" * 42 + "%00").status_code == 404
    assert other.post("/join/t/%00", data={"device_name": "Ann"}).status_code == 404


def test_a_device_already_in_the_group_goes_to_the_group_and_leaves_the_token(client):
    group = create_group(client)
    _, _, link = _show_qr(client, group)
    for r in (client.get(link), client.post(link, data={"device_name": "Encore moi"})):
        assert r.status_code == 302 and r.headers["Location"] == f"/g/{group.code}"
    assert "Cet appareil est déjà dans Les Amis." in html(client.get(f"/g/{group.code}"))
    assert _tokens()[0].used_at is None
    assert db.session.scalar(sa.select(sa.func.count(Device.id))) == 1


def test_another_device_of_the_group_sees_the_code_and_revokes_it_but_cannot_show_it(app, client):
    group = create_group(client)
    token_id, _, link = _show_qr(client, group)
    other = _joined_with_passphrase(app, group)
    listing = html(other.get(f"/g/{group.code}/invite"))
    assert "Codes QR encore valables" in listing and "Révoquer" in listing and link not in listing
    r = other.get(f"/g/{group.code}/invite/{token_id}")  # the raw token is not in its session
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{group.code}/invite"
    assert link not in html(other.get(r.headers["Location"]))

    r = other.post(f"/g/{group.code}/invite/{token_id}/revoke")
    assert r.status_code == 303 and r.headers["Location"] == f"/g/{group.code}/invite"
    assert "Code QR révoqué\u00a0: il ne fait plus entrer personne." in html(other.get(r.headers["Location"]))
    assert _tokens()[0].revoked_at is not None
    assert "Révoquer" not in html(other.get(f"/g/{group.code}/invite"))
    _lands_on_the_join_page(app.test_client().get(link), group.code)
    r = client.get(f"/g/{group.code}/invite/{token_id}")
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{group.code}/invite"
    # Revoking again, or a token of no group of this code, changes nothing.
    assert other.post(f"/g/{group.code}/invite/{token_id}/revoke").status_code == 303
    assert other.post(f"/g/{group.code}/invite/99999/revoke").status_code == 303


def test_a_device_outside_the_group_can_neither_make_nor_see_nor_revoke_codes(app, client):
    group = create_group(client)
    token_id, _, _ = _show_qr(client, group)
    elsewhere = app.test_client()
    create_group(elsewhere, "Les Autres", "autre phrase")
    outsider = app.test_client()
    for who in (outsider, elsewhere):
        for path in (f"/g/{group.code}/invite", f"/g/{group.code}/invite/{token_id}"):
            r = who.get(path)
            assert r.status_code == 302 and r.headers["Location"].startswith("/join?code="), path
        assert who.post(f"/g/{group.code}/invite").status_code == 403
        assert who.post(f"/g/{group.code}/invite/{token_id}/revoke").status_code == 403
    assert len(_tokens()) == 1 and _tokens()[0].revoked_at is None
    # A code of another group cannot be revoked through one's own group.
    other_group = db.session.scalar(sa.select(Group).where(Group.name == "Les Autres"))
    assert elsewhere.post(f"/g/{other_group.code}/invite/{token_id}/revoke").status_code == 303
    assert _tokens()[0].revoked_at is None


def test_a_phone_of_another_group_joins_by_qr_and_keeps_its_first_group(app, client):
    group = create_group(client)
    _, _, link = _show_qr(client, group)
    other = app.test_client()
    first = create_group(other, "Les Autres", "autre phrase")
    r = other.post(link, data={"device_name": "Téléphone de Zoé"})
    assert r.status_code == 302
    assert other.get(f"/g/{group.code}").status_code == 200
    assert other.get(f"/g/{first.code}").status_code == 200


def test_the_lifetime_comes_from_the_config(app, client):
    app.config["JOIN_TOKEN_MINUTES"] = 3
    group = create_group(client)
    assert "Un code est valable 3 minutes" in html(client.get(f"/g/{group.code}/invite"))
    _, page, _ = _show_qr(client, group)
    assert "Valable 3 minutes, une seule fois." in page
    token = _tokens()[0]
    assert token.expires_at.replace(tzinfo=None) - token.created_at.replace(tzinfo=None) == timedelta(minutes=3)


def test_a_code_made_by_a_device_removed_since_opens_nothing(app, client):
    group = create_group(client)
    _, _, link = _show_qr(client, group)
    other = _joined_with_passphrase(app, group)
    maker = _tokens()[0].device
    r = other.post(f"/g/{group.code}/devices/{maker.id}/remove", data={"confirmed": "1"})
    assert r.status_code == 302
    _lands_on_the_join_page(app.test_client().get(link), group.code)
    assert "Révoquer" not in html(other.get(f"/g/{group.code}/invite"))


def test_the_session_keeps_a_few_codes_to_show_the_newest_first(client):
    group = create_group(client)
    shown = [_show_qr(client, group) for _ in range(11)]  # ids past 9: sorted as numbers
    for token_id, _, link in shown[-4:]:
        assert link in html(client.get(f"/g/{group.code}/invite/{token_id}"))
    token_id, _, _ = shown[0]
    r = client.get(f"/g/{group.code}/invite/{token_id}")
    assert r.status_code == 302 and r.headers["Location"] == f"/g/{group.code}/invite"
    assert "Ce code QR ne peut plus être affiché\u00a0: montrez-en un nouveau." in html(
        client.get(r.headers["Location"])
    )


def test_phones_opening_one_code_at_the_same_moment_let_one_in(app, client):
    group = create_group(client)
    _, _, link = _show_qr(client, group)
    phones = [app.test_client() for _ in range(8)]
    for phone in phones:
        assert phone.get(link).status_code == 200
    results = together(8, lambda i: phones[i].post(link, data={"device_name": f"Téléphone {i}"}))
    assert all(not isinstance(r, Exception) for r in results), results
    assert sorted(r.headers["Location"] for r in results) == [f"/g/{group.code}"] + [f"/join?code={group.code}"] * 7
    assert db.session.scalar(sa.select(sa.func.count(Device.id)).where(Device.group_id == group.id)) == 2
