"""An imported file is a stranger (issue 24): it is checked to its last field against
what the app itself writes, and nothing of it is trusted beyond that.

- A deleted round kept for an undo comes back without the device the file names (an
  export never holds one): not another group's device, and no 500 for an id no
  database holds; the undo itself keeps only a device of the game's own group.
- A game's house rules and setup go through its kind's new-game form: ``1e400``,
  ``NaN``, a 4,000-digit integer, thirty levels of nesting, a player of another group,
  a key or a value the form never writes are refused, saying where in the file.
- A round's entry holds only what the engine reads; an outcome, only what the app
  writes; a history, only the changes the app records, with the data each keeps.

Each refusal is a 400 with a French sentence naming where, and nothing is created.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Device, Game, GameChange, Group, Round
from tests.helpers import add_players, create_group, html, start_crapouille
from tests.web.test_transfer import _counts, _deal, _hand, _manche, _post, _start, fr, fr_game, upload

# --------------------------------------------------------------- a small group


def _small_group(client: FlaskClient) -> dict[str, Any]:
    """A group with a game of three kinds through the pages (seeds 000, 002, 003): a
    crapouille duel whose second hand was just deleted (an undo would bring it back),
    a whist game with its first deal, a Président game with its first manche."""
    group = create_group(client, "Les Amis")
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    crap = start_crapouille(client, group, [ann, bob])
    _hand(client, group, crap, 1, ann, **{str(bob.id): "30"})
    _hand(client, group, crap, 2, bob, **{str(ann.id): "20"})
    _post(client, group, crap, "rounds/2/delete")
    whist = _start(client, group, "whist-tarot", [ann, bob, cid])
    _deal(client, group, whist, 1, {bob: 2, cid: 1, ann: 1}, {bob: 2, cid: 2, ann: 1})
    pres = _start(client, group, "president", [ann, bob, cid, dan], target="10", titles="classic")
    _manche(client, group, pres, 1, [dan, cid, bob])
    document = json.loads(client.get(f"/g/{group.code}/export.json").get_data())
    index = {g["id"]: i for i, g in enumerate(document["games"])}
    return {
        "group": group,
        "document": document,
        "crap": index[crap],
        "whist": index[whist],
        "pres": index[pres],
        "games": {"crap": crap, "whist": whist, "pres": pres},
    }


def _text(document: dict[str, Any], **raw: str) -> bytes:
    """``document`` as a file, each ``"__name__"`` string replaced by the raw JSON text
    ``raw[name]`` (what ``json.dumps`` cannot write: ``1e400``, ``NaN``…)."""
    text = json.dumps(document)
    for name, value in raw.items():
        text = text.replace(f'"__{name}__"', value)
    return text.encode()


def _refused(client: FlaskClient, content: bytes, message: str) -> None:
    """The import of ``content`` is a 400 saying ``message``, and nothing is created."""
    before = _counts()
    response = upload(client, content, name="Copie")
    page = html(response)
    assert response.status_code == 400, page[-3000:]
    assert message in page, re.findall(r'<p class="error"[^>]*>(.*?)</p>', page)
    assert _counts() == before


def _imported(client: FlaskClient, content: bytes) -> Group:
    response = upload(client, content)
    assert response.status_code == 302, html(response)[-3000:]
    code = response.headers["Location"].rsplit("/", 1)[1]
    group = db.session.scalar(sa.select(Group).where(Group.code == code))
    assert group is not None
    return group


def _malformed(app: Flask, where: str) -> str:
    return fr(app, "This file is not a well-formed Companion export: %(where)s is not as expected.", where=where)


def _stranger(app: Flask, where: str) -> str:
    return fr(app, "This file names a player who is not in it, at %(where)s.", where=where)


def _number(app: Flask, number: str, where: str) -> str:
    message = "This file holds a number that Companion never writes (%(number)s), at %(where)s."
    return fr(app, message, number=number, where=where)


# --------------------------------------------------------------- the device of a deleted round


def _foreign_device(app: Flask) -> tuple[int, str]:
    """A device of another group (its id and name): a neighbour's phone."""
    neighbour = app.test_client()
    other = create_group(neighbour, "Les Voisins")
    device = db.session.scalar(sa.select(Device).where(Device.group_id == other.id))
    device.name = "Téléphone de Zoé"
    db.session.commit()
    return device.id, device.name


def _undo_last_deletion(client: FlaskClient, group: Group) -> tuple[Game, Any]:
    """Undo the crapouille duel's deleted hand on ``group`` (through the page)."""
    game = db.session.scalar(
        sa.select(Game).join(Game.season).where(Game.kind == "crapouille", Game.season.has(group_id=group.id))
    )
    change = db.session.scalar(
        sa.select(GameChange).where(GameChange.game_id == game.id).order_by(GameChange.id.desc())
    )
    assert change.kind == "round_deleted"
    response = client.post(
        f"/g/{group.code}/games/{game.id}/changes/{change.id}/undo",
        data={"version": str(game.version), "confirmed": "1"},
    )
    return game, response


@pytest.mark.parametrize("named", ["another group's device", "abc", "2**40"])
def test_a_deleted_round_comes_back_without_the_device_a_file_names(app, client, named):
    """seed 003's second hand, deleted then imported: the file names a device for it
    (an export never does); the copy's undo brings it back from no device, never
    another group's (« Saisi depuis … » would name it), and never fails."""
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    device_id, device_name = _foreign_device(app)
    document = built["document"]
    game = document["games"][built["crap"]]
    last = game["changes"][-1]
    assert last["kind"] == "round_deleted" and "device_id" not in last["data"]
    last["data"]["device_id"] = {"another group's device": device_id, "abc": "abc", "2**40": 2**40}[named]
    # What an export leaves out is left out whatever the file says: devices, and the
    # device of each round and of each change.
    document["devices"] = [{"id": device_id, "name": device_name}]
    for g in document["games"]:
        for r in g["rounds"]:
            r["device_id"] = device_id
        for c in g["changes"]:
            c["device_id"] = device_id
    importer = app.test_client()
    group = _imported(importer, json.dumps(document).encode())
    changes = db.session.scalars(
        sa.select(GameChange).join(Game).join(Game.season).where(Game.season.has(group_id=group.id))
    )
    for change in changes:
        assert change.device_id is None and "device_id" not in (change.data or {})
    rounds = db.session.scalars(sa.select(Round).join(Game).where(Game.season.has(group_id=group.id)))
    assert {r.device_id for r in rounds} == {None}
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Device).where(Device.group_id == group.id)) == 1

    game, response = _undo_last_deletion(importer, group)
    assert response.status_code == 302, html(response)[-2000:]
    db.session.expire_all()
    restored = db.session.scalar(sa.select(Round).where(Round.game_id == game.id, Round.number == 2))
    assert restored is not None and restored.device_id is None
    assert device_name not in html(importer.get(f"/g/{group.code}/games/{game.id}"))


@pytest.mark.parametrize("stored", ["another group's device", "abc", "2**40", "a list"])
def test_an_undo_keeps_only_a_device_of_the_games_own_group(app, client, stored):
    """A history stored before imports were checked may name any device: the hand it
    brings back is from no device then (never a 500, never another group's phone)."""
    built = _small_group(client)
    device_id, device_name = _foreign_device(app)
    group = built["group"]
    game_id = built["games"]["crap"]
    change = db.session.scalar(
        sa.select(GameChange).where(GameChange.game_id == game_id).order_by(GameChange.id.desc())
    )
    value = {"another group's device": device_id, "abc": "abc", "2**40": 2**40, "a list": [device_id]}[stored]
    change.data = dict(change.data or {}, device_id=value)
    db.session.commit()
    game, response = _undo_last_deletion(client, group)
    assert response.status_code == 302, html(response)[-2000:]
    db.session.expire_all()
    restored = db.session.scalar(sa.select(Round).where(Round.game_id == game.id, Round.number == 2))
    assert restored is not None and restored.device_id is None
    assert device_name not in html(client.get(f"/g/{group.code}/games/{game.id}"))


def test_an_undo_still_names_the_groups_own_device(app, client):
    """The hand comes back from the phone it was entered from, when that phone is still
    one of the group's (the undo checks, it does not forget)."""
    built = _small_group(client)
    group = built["group"]
    own = db.session.scalar(sa.select(Device).where(Device.group_id == group.id))
    game, response = _undo_last_deletion(client, group)
    assert response.status_code == 302
    db.session.expire_all()
    restored = db.session.scalar(sa.select(Round).where(Round.game_id == game.id, Round.number == 2))
    assert restored.device_id == own.id


# --------------------------------------------------------------- setups, rules, numbers, depth


def test_a_games_setup_and_rules_pass_its_new_game_form_or_the_file_is_refused(app, client):
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    document, whist, pres, crap = built["document"], built["whist"], built["pres"], built["crap"]

    def changed(change, **raw: str) -> bytes:
        d = json.loads(json.dumps(document))
        change(d)
        return _text(d, **raw)

    # Numbers the app never writes: refused up front, saying where (never Infinity stored).
    setup = f"games[{pres}].setup.x"
    _refused(
        client, changed(lambda d: d["games"][pres]["setup"].update(x="__n__"), n="1e400"), _number(app, "1e400", setup)
    )
    _refused(
        client, changed(lambda d: d["games"][pres]["setup"].update(x="__n__"), n="NaN"), _number(app, "NaN", setup)
    )
    _refused(
        client,
        changed(lambda d: d["games"][pres]["setup"].update(x="__n__"), n="-Infinity"),
        _number(app, "-Infinity", setup),
    )
    _refused(
        client, changed(lambda d: d["games"][pres]["setup"].update(x="__n__"), n="0.5"), _number(app, "0.5", setup)
    )
    digits = "1" * 4000
    _refused(
        client,
        changed(lambda d: d["games"][pres]["setup"].update(x="__n__"), n=digits),
        _number(app, "1" * 20 + "…", setup),
    )
    # Thirty levels of nesting in a setup.
    nested: Any = 1
    for _ in range(30):
        nested = {"a": nested}
    deeper = "This file nests its data deeper than an export does, at %(where)s."
    _refused(
        client,
        changed(lambda d: d["games"][pres]["setup"].update(x=nested)),
        fr(app, deeper, where=setup + ".a" * 9),
    )
    # A first dealer of another group (a player the file does not hold).
    _refused(
        client,
        changed(lambda d: d["games"][whist]["setup"].update(dealer="999")),
        _stranger(app, f"games[{whist}].setup.dealer"),
    )
    # A first dealer of the group who does not play this game: the form's reason.
    dan = next(str(p["id"]) for p in document["players"] if p["name"] == "Dan")
    impossible = "In %(game)s, the house rules or the seats are not possible: %(reason)s"
    whist_game = db.session.get(Game, built["games"]["whist"])
    reason = fr(app, "The first dealer has to play in this game.")
    _refused(
        client,
        changed(lambda d: d["games"][whist]["setup"].update(dealer=dan)),
        fr(app, impossible, game=fr_game(app, whist_game), reason=reason),
    )
    # A key or a value the new-game form never writes.
    _refused(client, changed(lambda d: d["games"][pres]["setup"].update(x=1)), _malformed(app, f"games[{pres}].setup"))
    _refused(
        client,
        changed(lambda d: d["games"][pres]["setup"].update(first="drawn")),
        fr(app, impossible, game=fr_game(app, db.session.get(Game, built["games"]["pres"])), reason=""),
    )
    _refused(
        client,
        changed(lambda d: d["games"][pres]["rules"].update(points=True)),
        _malformed(app, f"games[{pres}].rules"),
    )
    dealer = int(document["games"][whist]["setup"]["dealer"])
    _refused(
        client,
        changed(lambda d: d["games"][whist]["setup"].update(dealer=dealer)),
        _malformed(app, f"games[{whist}].setup"),
    )
    crap_game = db.session.get(Game, built["games"]["crap"])
    _refused(
        client,
        changed(lambda d: d["games"][crap]["rules"].update(jokers=2)),
        fr(app, impossible, game=fr_game(app, crap_game), reason=""),
    )


def test_absurd_json_is_refused_up_front_with_a_clear_message(app, client):
    """Nesting past what Python can parse, an integer past what it converts, a non-finite
    number: a sentence, never a 500 nor « not valid JSON »."""
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    head = json.dumps({k: v for k, v in built["document"].items() if k != "games"})[:-1]
    deep = head + ', "games": ' + "[" * 100_000 + "]" * 100_000 + "}"
    _refused(client, deep.encode(), fr(app, "This file nests its data deeper than an export does."))
    huge = "9" * 20_000
    _refused(client, _text(built["document"] | {"scope": "__n__"}, n=huge), _number(app, "9" * 20 + "…", "scope"))
    _refused(client, _text(built["document"] | {"scope": "__n__"}, n="Infinity"), _number(app, "Infinity", "scope"))


# --------------------------------------------------------------- entries, outcomes, history


def test_an_entry_an_outcome_or_a_history_the_app_never_writes_is_refused(app, client):
    app.config["GROUPS_PER_HOUR"] = 100
    built = _small_group(client)
    document, crap, whist, pres = built["document"], built["crap"], built["whist"], built["pres"]

    def changed(change) -> bytes:
        d = json.loads(json.dumps(document))
        change(d)
        return json.dumps(d).encode()

    # A key the engine does not read, in a round's entry (it would be stored as given).
    _refused(
        client,
        changed(lambda d: d["games"][crap]["rounds"][0]["entry"].update(note={"any": "thing"})),
        _malformed(app, f"games[{crap}].rounds[0].entry.note"),
    )
    _refused(
        client,
        changed(lambda d: d["games"][whist]["rounds"][0]["entry"].update(draw={})),
        _malformed(app, f"games[{whist}].rounds[0].entry.draw"),
    )

    # An outcome holding more than the winners (and whether the game ended early).
    def finished(d: dict[str, Any]) -> None:
        g = d["games"][pres]
        g["status"] = "finished"
        g["finished_at"] = g["updated_at"]
        g["outcome"] = {"winners": [g["rounds"][-1]["result"]["hierarchy"][0]], "early": True, "note": "x"}

    pres_game = db.session.get(Game, built["games"]["pres"])
    status = fr(app, "In %(game)s, the status does not match the rounds.", game=fr_game(app, pres_game))
    _refused(client, changed(finished), status)

    # A change the app never records, or with data its kind does not keep.
    _refused(
        client,
        changed(lambda d: d["games"][crap]["changes"][0].update(kind="round_hacked")),
        _malformed(app, f"games[{crap}].changes[0].kind"),
    )
    _refused(
        client,
        changed(lambda d: d["games"][crap]["changes"][0].update(data={"x": 1})),
        _malformed(app, f"games[{crap}].changes[0].data"),
    )
    last = len(document["games"][crap]["changes"]) - 1
    _refused(
        client,
        changed(lambda d: d["games"][crap]["changes"][-1]["data"].update(note=1)),
        _malformed(app, f"games[{crap}].changes[{last}].data.note"),
    )

    # A correction's earlier entry naming a player of another group.
    def stranger(d: dict[str, Any]) -> None:
        g = d["games"][crap]
        first = g["rounds"][0]
        g["changes"].insert(
            1,
            {
                "at": g["changes"][0]["at"],
                "kind": "round_edited",
                "round": 1,
                "data": {"entry": dict(first["entry"], winner="999"), "result": first["result"]},
                "version": g["changes"][0]["version"],
            },
        )

    _refused(client, changed(stranger), _stranger(app, f"games[{crap}].changes[1].data.entry.winner"))
