"""**Importing** a JSON export creates a new group (new code, the passphrase given on the
form) with the same players, seasons, games, rounds and history, and joins this
device to it. The file is read (:mod:`companion.groups.transfer.reading`) and checked
(:mod:`companion.groups.transfer.checking`) first: a file refused creates nothing.

**Speed.** The largest file (some 24,000 rounds) is read, checked and rescored, and
its rows made (every state serialized with the new players' ids), before the writers'
turn (:mod:`companion.database`: SQLite's write lock); then it is written as
multi-row inserts, a bounded part per transaction, its standings last
(:func:`write_group`), and the importing device joins it in the last transaction, which
marks it complete (``Group.complete``): until then no page finds the group. A failure part
way removes it (:func:`~companion.groups.transfer.unfinished.discard`); an import killed
part way leaves it incomplete, and ``flask clean-imports`` removes it
(:mod:`companion.groups.transfer.unfinished`: the import holds a lock on its group from
its first transaction to its last, so that no cleanup removes an import still running).
``benchmarks/import_big.py`` measures it and what it costs another group's writes.

Refused tries still count as group creations for the throttle (a file is costly to
check), which is recorded and committed before the file is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import SubmitField

from companion.extensions import csrf, db
from companion.games import saving
from companion.games.kinds import season_of
from companion.groups import bp
from companion.groups.forms import GroupForm
from companion.groups.throttle import before_create, wait_message
from companion.groups.transfer import reading
from companion.groups.transfer.checking import Plan, _remap, check_document
from companion.groups.transfer.reading import Refused, _too_big, parse_file
from companion.groups.transfer.unfinished import ImportLock, discard
from companion.i18n import gettext as _
from companion.membership.access import join as join_group
from companion.models import Game, GameChange, GamePlayer, GameStatus, Group, Player, Round, Season, name_key
from companion.writes import commit_once, done_before, read_first, remember, start_writing

#: Room for the form's other fields around the file in the request.
_FORM_ROOM = 64 * 1024


# ----------------------------------------------------------------- writing it


_GROUPS, _PLAYERS, _SEASONS = Group.__table__, Player.__table__, Season.__table__
_GAMES, _SEATS, _ROUNDS, _CHANGES = Game.__table__, GamePlayer.__table__, Round.__table__, GameChange.__table__
#: The JSON columns an import fills with text it serialized before the writers' turn.
_JSON_COLUMNS = {"games": ("rules", "setup", "ending"), "rounds": ("entry", "result"), "game_changes": ("data",)}
#: The most rows one transaction of an import inserts (rounds: about 1.5 MB of states),
#: and the most work one transaction of its standings does, counted in rated rounds (of
#: a kind whose every round counts: ``KindSeason.every_round``; a game counts as
#: :data:`GAME_WEIGHT` of them): each part a
#: fraction of a second (``benchmarks/import_big.py``), so that the other writers
#: (SQLite's write lock: companion.database) get their turn between them.
ROWS_PER_TURN = 4000
STANDINGS_PER_TURN = 1500
GAME_WEIGHT = 5


def _insert(table: sa.Table, dialect: str) -> sa.Insert:
    """An ``INSERT`` of ``table`` for many rows at once, its JSON columns given as the
    text :func:`_serialize` made (``<column>_text``): the same text the column's own
    type would write (SQLite keeps it as it is; PostgreSQL casts it to ``json``)."""
    values: dict[str, Any] = {}
    for name in _JSON_COLUMNS.get(table.name, ()):
        text = sa.bindparam(f"{name}_text", type_=sa.Text)
        values[name] = text if dialect == "sqlite" else sa.cast(text, table.c[name].type)
    return sa.insert(table).values(values) if values else sa.insert(table)


def _serialize(value: Any, ids: dict[str, str]) -> str:
    """A stored JSON value with the new players' ids, as its column's type writes it."""
    return json.dumps(_remap(value, ids))


def _next_player_ids(count: int) -> list[int]:
    """Ids for ``count`` new players. On PostgreSQL taken from the table's sequence (no
    one else will get them); on SQLite the ones after the largest: still free while a
    transaction holds the writers' turn, a guess before it (:func:`write_group` checks it)."""
    if db.session.get_bind().dialect.name == "postgresql":
        taken = db.session.execute(
            sa.text("SELECT nextval(pg_get_serial_sequence('players', 'id')) FROM generate_series(1, :count)"),
            {"count": count},
        )
        return sorted(int(n) for n in taken.scalars())
    largest = db.session.scalar(sa.select(sa.func.max(_PLAYERS.c.id))) or 0
    return list(range(largest + 1, largest + 1 + count))


@dataclass
class Rows:
    """A checked file as the rows that write it, made before the writers' turn (the
    players' ids, which the stored states name, included): in it, only inserts."""

    plan: Plan
    group: dict[str, Any]
    players: list[dict[str, Any]]
    seasons: list[dict[str, Any]]
    #: Each game, then its seats, rounds and changes by the game's place in ``games``.
    games: list[dict[str, Any]]
    seats: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    rounds: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    changes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: Each game's share of the work of its standings (one, and one per rated manche).
    weights: list[int] = field(default_factory=list)


def _players(rows: Rows) -> None:
    """The players' rows with new ids (given in the order they were added: the file
    lists them by name, its ids keep that order), and every stored JSON value
    serialized with them."""
    now = datetime.now(UTC)
    ordered = sorted(rows.plan.players, key=lambda p: p[0])
    new = _next_player_ids(len(ordered)) if ordered else []
    rows.players = [
        {"id": pid, "old": old, "name": name, "name_key": name_key(name), "created_at": at or now}
        for pid, (old, name, at) in zip(new, ordered, strict=True)
    ]
    ids = {str(row["old"]): str(row["id"]) for row in rows.players}
    for row, checked in zip(rows.games, rows.plan.games, strict=True):
        g = checked.data
        row["rules_text"] = _serialize(g["rules"], ids)
        row["setup_text"] = _serialize(g["setup"], ids)
        row["ending_text"] = _serialize(checked.ending, ids)
    rounds = (r for checked in rows.plan.games for r in zip(checked.data["rounds"], checked.results, strict=True))
    for (_index, row), (r, result) in zip(rows.rounds, rounds, strict=True):
        row["entry_text"] = _serialize(r["entry"], ids)
        row["result_text"] = _serialize(result, ids)
    changes = (c for checked in rows.plan.games for c in checked.changes)
    for (_index, row), c in zip(rows.changes, changes, strict=True):
        row["data_text"] = _serialize(c["data"], ids)


def prepare(plan: Plan, name: str, passphrase: str) -> Rows:
    """The rows of the group ``plan`` describes, before the writers' turn: the
    passphrase hashed, every state and entry serialized with the players' new ids (on
    SQLite a guess, read in a reader's transaction and checked in the turn)."""
    now = datetime.now(UTC)
    group = Group(name=name, time_zone=plan.time_zone)
    group.set_passphrase(passphrase)
    current = next((s[0] for s in plan.seasons if s[3]), None)
    if current is None:  # a past season exported alone: it becomes the group's current one
        current = max(plan.seasons, key=lambda s: (s[2], plan.seasons.index(s)))[0]
    rows = Rows(
        plan=plan,
        group={
            "name": name,
            "passphrase_hash": group.passphrase_hash,
            "time_zone": plan.time_zone,
            "created_at": now,
            "complete": False,  # until the import's last transaction
        },
        players=[],
        seasons=[
            {
                "old": old,
                "name": season_name,
                "name_key": name_key(season_name),
                "starts_on": starts_on,
                "is_current": old == current,
                "created_at": at or now,
            }
            for old, season_name, starts_on, _current, at in plan.seasons
        ],
        games=[],
    )
    for index, checked in enumerate(plan.games):
        g = checked.data
        created = checked.created_at or now
        rows.games.append(
            {
                "season": g["season"],
                "kind": g["kind"],
                "status": GameStatus(g["status"]),
                "created_at": created,
                "updated_at": checked.updated_at or created,
                "finished_at": checked.finished_at,
                "version": g["version"],
            }
        )
        rows.seats += [(index, {"seat": i, "player": pid}) for i, pid in enumerate(g["seats"])]
        # When each round was played, as the app would have written it (the file does not
        # say: the migration's rule): it ended when it was saved, but a deal whose second
        # step is awaited, and started when the round before it ended (the game's start
        # for the first).
        started = created
        for r, at in zip(g["rounds"], checked.round_times, strict=True):
            saved = at or now
            ended = None if checked.kind.pending(r["entry"]) else saved
            rows.rounds.append(
                (
                    index,
                    {
                        "number": r["number"],
                        "created_at": saved,
                        "started_at": started,
                        "ended_at": ended,
                        "device_id": None,
                    },
                )
            )
            started = saved
        rows.changes += [
            (index, {"kind": c["kind"], "round_number": c["round"], "version": c["version"], "at": at or now})
            for c, at in zip(checked.changes, checked.change_times, strict=True)
        ]
        rows.weights.append(GAME_WEIGHT + (len(g["rounds"]) if season_of(g["kind"]).every_round else 0))
    _players(rows)
    return rows


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def write_group(rows: Rows, lock: ImportLock) -> int:
    """Create the group of ``rows``, incomplete and which no device has joined yet (so
    that no page finds it until it is whole, when the caller joins it and marks it
    complete); its id. ``lock`` holds the group's :class:`ImportLock` from the first
    transaction on (the caller lets go of it after its last). Each transaction holds
    the writers' turn (SQLite) for a bounded part — the group, its players and seasons;
    then games, rounds, history by :data:`ROWS_PER_TURN`; then their standings by
    :data:`STANDINGS_PER_TURN` — and inserts rows made beforehand, nothing else to
    compute. Should one fail, what the others wrote is removed (:func:`discard`).

    Written on the session's connection, as plain SQL: the session's hook on games does
    not see them, the standings are refreshed here, game after game in the order they
    were played (each part replays the rating from its first night only).

    On SQLite the players' ids :func:`prepare` guessed are checked to be still free in
    the first transaction (else, rarely, guessed again outside the turn; at the third
    time, in it)."""
    dialect = db.session.get_bind().dialect.name
    for attempt in range(3):
        if dialect != "sqlite" or not rows.players or _next_player_ids(1)[0] == rows.players[0]["id"]:
            break
        # Someone added a player meanwhile: the guessed ids are taken.
        if attempt < 2:
            db.session.rollback()
            read_first()
        _players(rows)
        if attempt < 2:
            start_writing()
    conn = db.session.connection()
    code = Group.new_code()
    while conn.execute(sa.select(_GROUPS.c.id).where(_GROUPS.c.code == code)).first() is not None:
        code = Group.new_code()
    group_id = conn.execute(sa.insert(_GROUPS).values(code=code, **rows.group).returning(_GROUPS.c.id)).scalar_one()
    # Before the group is committed: no cleanup ever sees it without its import's lock.
    lock.hold(group_id)
    try:
        player_of = {row["old"]: row["id"] for row in rows.players}
        if rows.players:
            conn.execute(_PLAYERS.insert(), [_without(row, "old") | {"group_id": group_id} for row in rows.players])
        inserted = conn.execute(
            _SEASONS.insert().returning(_SEASONS.c.id, sort_by_parameter_order=True),
            [_without(s, "old") | {"group_id": group_id} for s in rows.seasons],
        )
        season_of = dict(zip([s["old"] for s in rows.seasons], inserted.scalars(), strict=True))
        db.session.commit()
        games = _insert(_GAMES, dialect).returning(_GAMES.c.id, sort_by_parameter_order=True)
        game_ids: list[int] = []
        for part in _chunks(rows.games, ROWS_PER_TURN):
            made = [_without(g, "season") | {"season_id": season_of[g["season"]]} for g in part]
            game_ids += db.session.connection().execute(games, made).scalars()
            db.session.commit()
        seats = [
            {"game_id": game_ids[i], "seat": s["seat"], "player_id": player_of[s["player"]]} for i, s in rows.seats
        ]
        for table, table_rows in ((_SEATS, seats), (_ROUNDS, rows.rounds), (_CHANGES, rows.changes)):
            statement = _insert(table, dialect)
            for part in _chunks(table_rows, ROWS_PER_TURN):
                made = part if table is _SEATS else [row | {"game_id": game_ids[i]} for i, row in part]
                db.session.connection().execute(statement, made)
                db.session.commit()
        if dialect == "postgresql":
            # The tables the standings read have just grown, maybe from nothing (a new
            # server's first import): without fresh statistics the planner reads them as
            # the empty tables they were, a scan per game (autovacuum would see it later).
            # ANALYZE blocks no reader or writer.
            db.session.connection().exec_driver_sql("ANALYZE games, game_players, rounds")
            db.session.commit()
        _standings(rows, game_ids)
    except Exception:
        db.session.rollback()
        discard(group_id)
        raise
    return int(group_id)


def _without(row: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != key}


def _standings(rows: Rows, game_ids: list[int]) -> None:
    """The stored results and season ratings of the new games (:mod:`companion.games.results`),
    in parts of :data:`STANDINGS_PER_TURN`, in the order the games were played."""
    played = sorted(range(len(game_ids)), key=lambda i: (rows.games[i]["created_at"], i))
    part: list[int] = []
    weight = 0
    for i in played:
        part.append(game_ids[i])
        weight += rows.weights[i]
        if weight >= STANDINGS_PER_TURN:
            saving.refresh(part)
            db.session.commit()
            part, weight = [], 0
    if part:
        saving.refresh(part)
        db.session.commit()


# ----------------------------------------------------------------- the import page


class ImportForm(GroupForm):
    """Import a group from a JSON export: the file, and the new group's name and passphrase."""

    file = FileField(_l("Export file (JSON)"), validators=[FileRequired(_l("Choose the file to import."))])
    submit = SubmitField(_l("Import the group"))


def _render(form: ImportForm, status: int = 200, headers: dict[str, str] | None = None) -> ResponseReturnValue:
    page = render_template("groups/import.html", form=form, limit=reading.MAX_IMPORT_BYTES // (1024 * 1024))
    return page, status, headers or {}


def _read_upload(form: ImportForm) -> bytes:
    stream = form.file.data.stream
    data = stream.read(reading.MAX_IMPORT_BYTES + 1)
    if len(data) > reading.MAX_IMPORT_BYTES:
        raise Refused(_too_big())
    return bytes(data)


@bp.route("/import", methods=["GET", "POST"])
@csrf.exempt  # checked below, once the request may be as large as a file
def import_group() -> ResponseReturnValue:
    """Import a group's JSON export as a new group (new code and passphrase), which
    this device joins. A file refused says why; nothing is created then."""
    if request.method == "POST":
        request.max_content_length = reading.MAX_IMPORT_BYTES + _FORM_ROOM
    try:
        if request.method == "POST" and current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = ImportForm()
        earlier = form.is_submitted() and done_before(form.once.data)
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        form.file.errors = [_too_big()]
        return _render(form, 413)
    if earlier:
        return redirect(earlier)
    if not form.validate_on_submit():
        return _render(form)
    try:
        data = _read_upload(form)
    except Refused as e:
        form.file.errors = [e.message]
        return _render(form, 413)
    wait = before_create()
    if wait:
        db.session.rollback()
        form.name.errors = [wait_message(wait)]
        return _render(form, 429, {"Retry-After": str(wait)})
    # The try counts whatever the file holds: checking a file costs.
    db.session.commit()
    # Reading, checking, rescoring and making the rows take no turn of the writers
    # (SQLite's write lock: companion.database): only the writes do, a bounded part at a time.
    read_first()
    try:
        plan = check_document(parse_file(data))
    except Refused as e:
        db.session.rollback()
        form.file.errors = [e.message]
        return _render(form, 400)
    token = form.once.data
    rows = prepare(plan, form.name.data, form.passphrase.data)
    start_writing()
    db.session.commit()  # (PostgreSQL: the players' ids taken from the sequence stay taken)
    with ImportLock() as lock:
        group_id = write_group(rows, lock)
        # The last transaction: this device joins the group, which is marked complete and
        # becomes anyone's to join with its passphrase.
        group = db.session.get(Group, group_id)
        assert group is not None
        code = group.code
        join_group(group, form.device_name.data or _("Device %(n)d", n=1))
        group.complete = True
        url = url_for("groups.show", code=code)
        remember(token, url)
        try:
            earlier = commit_once(token)
        except Exception:
            db.session.rollback()
            discard(group_id)
            raise
        if earlier is not None:  # the same form sent twice at once: the other import is the group
            discard(group_id)
            return redirect(earlier)
    flash(_("Group imported. Share its code %(code)s and the passphrase with your friends.", code=code))
    return redirect(url)
