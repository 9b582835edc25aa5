"""A throttle that spares the table (issue 24): a café's Wi-Fi is one address for everyone
in it. A stranger's wrong guesses there no longer lock out a phone that joined a group
before (its device token, even revoked) or a phone holding a valid QR invitation: each is
judged on its own allowance. Guessing stays as slow as ever for a new client, and phones
made for guessing share one more slow allowance, not one each. The « trop d’essais » page
says when to try again, on the phone's clock, and offers the QR way."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Group, ThrottleEvent, utcnow
from tests.helpers import create_group, html
from tests.web.test_join_qr import _show_qr

PASSPHRASE = "trou du cul"
QR_WAY = (
    "Demandez à un téléphone du groupe d’afficher le code QR («\u00a0Inviter un téléphone\u00a0» sur la page du groupe)"
)


def _join(who: FlaskClient, code: str, passphrase: str = PASSPHRASE, **data: str):
    return who.post("/join", data={"code": code, "passphrase": passphrase, **data})


def _lock_the_address_out(app: Flask, code: str) -> FlaskClient:
    """A stranger behind the same address (the test clients all come from 127.0.0.1)
    guesses wrong until it must wait; it is then refused even the right passphrase."""
    stranger = app.test_client()
    for _ in range(app.config["GUESS_FREE_TRIES"]):
        assert _join(stranger, code, "au hasard").status_code == 403
    assert _join(stranger, code).status_code == 429
    return stranger


def _left(app: Flask, group: Group) -> FlaskClient:
    """A friend's phone that joined the group, then left it (its record revoked)."""
    friend = app.test_client()
    assert _join(friend, group.code, device_name="Téléphone de Bob").status_code == 302
    assert friend.post(f"/g/{group.code}/leave", data={"confirmed": "1"}).status_code == 302
    assert friend.get(f"/g/{group.code}").status_code == 403  # out of the group
    return friend


def _age_events(seconds: int) -> None:
    for event in db.session.scalars(sa.select(ThrottleEvent)):
        event.at = event.at - timedelta(seconds=seconds)
    db.session.commit()


def test_a_strangers_guesses_do_not_lock_out_a_phone_that_was_in_the_group(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    friend = _left(app, group)
    _lock_the_address_out(app, group.code)
    # Same Wi-Fi, but this phone joined before: judged on its own allowance.
    r = _join(friend, group.code)
    assert r.status_code == 302, html(r)
    assert friend.get(f"/g/{group.code}").status_code == 200


def test_random_codes_from_the_address_do_not_refuse_a_friend_their_own_group(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    friend = _left(app, group)
    sweeper = app.test_client()
    codes = [_join(sweeper, f"ZZZZ{i:02}", "x").status_code for i in range(app.config["GUESS_FREE_TRIES_ANY_CODE"])]
    assert codes == [403] * app.config["GUESS_FREE_TRIES_ANY_CODE"]
    assert _join(sweeper, group.code).status_code == 429  # the address is slowed down…
    assert _join(friend, group.code).status_code == 302  # …not the friend's phone


def test_a_phone_that_joined_another_group_is_judged_on_its_own(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    elsewhere = app.test_client()
    create_group(elsewhere, name="Le Club", passphrase="la belote")
    _lock_the_address_out(app, group.code)
    assert _join(elsewhere, group.code).status_code == 302


def test_a_phone_holding_a_valid_qr_invitation_is_judged_on_its_own(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    _lock_the_address_out(app, group.code)
    _, _, link = _show_qr(client, group)
    newcomer = app.test_client()
    assert newcomer.get(link).status_code == 200  # the invitation, opened on this phone
    assert _join(newcomer, group.code).status_code == 302
    # The QR way itself never waits, whatever the address did.
    _, _, link = _show_qr(client, group)
    third = app.test_client()
    assert _join(third, group.code).status_code == 429
    assert third.post(link, data={"device_name": "Téléphone de Chloé"}).status_code == 302


def test_an_invitation_used_or_revoked_no_longer_counts(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    _lock_the_address_out(app, group.code)
    token_id, _, link = _show_qr(client, group)
    newcomer = app.test_client()
    assert newcomer.get(link).status_code == 200
    client.post(f"/g/{group.code}/invite/{token_id}/revoke")
    assert _join(newcomer, group.code).status_code == 429  # a new client again


def test_guessing_stays_as_slow_as_today_for_a_new_client(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    friend = _left(app, group)
    stranger = _lock_the_address_out(app, group.code)
    # A friend at the table (a known phone) joins meanwhile: the stranger gains nothing.
    assert _join(friend, group.code).status_code == 302
    r = _join(stranger, group.code, "encore")
    assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 2
    # The delay doubles for it as before: eight failures, 32 s.
    for _ in range(4):
        _age_events(1000)
        assert _join(stranger, group.code, "encore").status_code == 403
    r = _join(stranger, group.code)
    assert r.status_code == 429 and 16 < int(r.headers["Retry-After"]) <= 32
    # And across codes (an hour later): twenty, then a wait.
    _age_events(3700)
    sweeper = app.test_client()
    answers = [_join(sweeper, f"YYYY{i:02}", "x").status_code for i in range(30)]
    assert answers[:20] == [403] * 20 and answers[20] == 429


def test_phones_made_for_guessing_share_one_slow_allowance(app: Flask, client: FlaskClient) -> None:
    target = create_group(client, passphrase=PASSPHRASE)
    own = app.test_client()
    mine = create_group(own, name="À moi", passphrase="le mien")
    shared = app.config["GUESS_FREE_TRIES_KNOWN"]
    free = app.config["GUESS_FREE_TRIES"]
    answers: list[int] = []
    for _ in range(shared // free + 2):
        phone = app.test_client()  # a new phone, made known by joining a group of one's own
        assert _join(phone, mine.code, "le mien").status_code == 302
        answers += [_join(phone, target.code, "au hasard").status_code for _ in range(free)]
    # Each phone had its own four tries, but the address's known phones share sixteen.
    assert answers[:shared] == [403] * shared
    assert set(answers[shared:]) == {429}


def test_a_big_table_rejoining_after_a_passphrase_change_is_never_slowed(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    phones = [app.test_client() for _ in range(app.config["GUESS_FREE_TRIES_KNOWN"] + 2)]
    for phone in phones:
        assert _join(phone, group.code).status_code == 302
    change = {
        "pass-current": PASSPHRASE,
        "pass-passphrase": "le tarot",
        "pass-confirm": "le tarot",
        "pass-sign_out_others": "y",
        "pass-submit": "1",
    }
    assert client.post(f"/g/{group.code}/devices", data=change).status_code == 302
    # The next evening, at the café: every phone comes back with the new passphrase.
    assert [_join(phone, group.code, "le tarot").status_code for phone in phones] == [302] * len(phones)


def _until(page: str) -> tuple[str, str]:
    match = re.search(r'<time datetime="([^"]+)" data-local-time>([^<]+)</time>', page)
    assert match, page
    return match.group(1), match.group(2)


def test_the_too_many_tries_page_says_when_on_the_phones_clock_and_offers_the_qr_way(
    app: Flask, client: FlaskClient
) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    now = utcnow()
    # A new client after nine failures: 64 s to wait.
    for _ in range(9):
        db.session.add(ThrottleEvent(kind="guess", code=group.code, client="127.0.0.1", at=now))
    db.session.commit()
    stranger = app.test_client()
    r = _join(stranger, group.code)
    assert r.status_code == 429 and 60 < int(r.headers["Retry-After"]) <= 64
    page = html(r)
    assert "<title>Trop d’essais" in page and "<h1>Trop d’essais</h1>" in page
    moment, shown = _until(page)
    # On the table's usual clock (Europe/Paris; the phone's own once local-time.js runs), never UTC.
    expected = datetime.fromisoformat(moment)
    assert expected.utcoffset() == expected.astimezone(ZoneInfo("Europe/Paris")).utcoffset() != timedelta(0)
    assert timedelta(seconds=55) < expected - now < timedelta(seconds=70)
    assert shown == expected.strftime("%H:%M")
    text = re.sub(r"<[^>]+>", "", page)
    assert f"Réessayez à partir de {shown}, dans 2\u00a0minutes." in text
    assert text.count("Trop d’essais") == 2  # the title and the heading: said once on the page
    assert "sur un Wi-Fi partagé (un café, une résidence), ceux des autres comptent aussi." in page
    assert QR_WAY in page
    assert 'name="passphrase"' in page and "local-time.js" in page
    # A phone of a group on Montreal's clock is told on that clock.
    montreal = app.test_client()
    other = create_group(montreal, name="Au Québec", passphrase="la belote")
    montreal.post(f"/g/{other.code}/clock", data={"time_zone": "America/Montreal", "shown": "Europe/Paris"})
    known = db.session.scalar(sa.select(Device.id).where(Device.group_id == other.id))
    for _ in range(9):
        db.session.add(ThrottleEvent(kind="guess", code=group.code, client=f"device:{known}", at=now))
    db.session.commit()
    r = _join(montreal, group.code)
    assert r.status_code == 429
    page = html(r)
    moment, shown = _until(page)
    assert datetime.fromisoformat(moment).utcoffset() in (timedelta(hours=-4), timedelta(hours=-5))
    assert "Les essais de ce téléphone sont comptés à part" in page and QR_WAY in page


def test_a_short_wait_is_said_in_seconds(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase=PASSPHRASE)
    stranger = _lock_the_address_out(app, group.code)
    page = html(_join(stranger, group.code))
    assert re.search(r"Réessayez dans [12]\u00a0secondes?\.", page)
    assert "Trop d’essais." not in page  # the heading says it; the banner says when
    assert QR_WAY in page and "<time" not in page


# ------------------------------------------------------- what the README promises, counted

README = Path(__file__).resolve().parents[2] / "README.md"
NUMBERS = {"three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twenty": 20, "twenty-one": 21}


def _readme_allowances() -> dict[str, int]:
    """The free tries the README's « Guessing » paragraph promises, as numbers."""
    text = re.sub(r"\s+", " ", README.read_text(encoding="utf-8"))
    per_code = re.search(r"after (\S+) wrong tries each new one waits a delay that doubles \(2 s,", text)
    any_code = re.search(r"tries across many codes \((\S+) an hour\) are slowed down too", text)
    known = re.search(r"\((\d+) tries per code a day, (\d+) codes an hour, then the same delays\)", text)
    assert per_code and any_code and known, "the README's « Guessing » paragraph changed: say it here too"
    return {
        "per_code": NUMBERS[per_code.group(1)],
        "any_code": NUMBERS[any_code.group(1)],
        "known_per_code": int(known.group(1)),
        "known_any_code": int(known.group(2)),
    }


def _until_refused(tries: list[tuple[FlaskClient, str]]) -> tuple[int, int]:
    """Wrong passphrases, one after another (no time to wait in between): how many were
    judged before the first refusal, and the wait that refusal asked for."""
    for judged, (who, code) in enumerate(tries):
        r = _join(who, code, "au hasard")
        if r.status_code == 429:
            return judged, int(r.headers["Retry-After"])
        assert r.status_code == 403, html(r)
    raise AssertionError(f"{len(tries)} wrong tries, none refused")


def test_the_first_refusal_comes_exactly_when_the_readme_says(app: Flask, client: FlaskClient) -> None:
    """« After four wrong tries each new one waits »: the fifth is refused, 2 s; across
    codes the twenty-first; the known phones' pool after sixteen of a code and forty codes.
    The README, the settings and the behaviour say the same number."""
    promised = _readme_allowances()
    config = app.config
    assert promised == {
        "per_code": config["GUESS_FREE_TRIES"],
        "any_code": config["GUESS_FREE_TRIES_ANY_CODE"],
        "known_per_code": config["GUESS_FREE_TRIES_KNOWN"],
        "known_any_code": config["GUESS_FREE_TRIES_ANY_CODE_KNOWN"],
    }
    group = create_group(client, passphrase=PASSPHRASE)
    new = app.test_client()
    assert _until_refused([(new, group.code)] * 30) == (promised["per_code"], 2)
    _age_events(3 * 86400)  # another day: nothing of the above counts
    assert _until_refused([(new, f"QQQQ{i:02}") for i in range(60)]) == (promised["any_code"], 2)

    # Phones made known (each joined a group of its own): each has four tries of its own,
    # and all of them behind the address share the pool's.
    _age_events(3 * 86400)
    own = app.test_client()
    mine = create_group(own, name="À moi", passphrase="le mien")
    phones = []
    for _ in range(8):
        phone = app.test_client()
        assert _join(phone, mine.code, "le mien").status_code == 302
        phones.append(phone)
    free = promised["per_code"]
    tries = [(phone, group.code) for phone in phones for _ in range(free)]
    assert _until_refused(tries) == (promised["known_per_code"], 2)
    _age_events(3 * 86400)
    per_phone = promised["any_code"]
    tries = [(phone, f"KKKK{i:02}") for phone in phones[:3] for i in range(per_phone)]
    assert _until_refused(tries) == (promised["known_any_code"], 2)
