"""Checking a parsed file to its last field (:func:`check_document`), so that nothing of
it is stored that the app would not have written. It is refused
(:class:`~companion.groups.transfer.reading.Refused`), with a sentence saying why (and
where in the file), and nothing is created, when it is:

- inconsistent: rounds not numbered 1 to n, a status that its rounds and outcome
  contradict, two players of one name, a history out of order or holding a change the
  app does not record…;
- naming what it does not hold: every id is a reference inside the file (a seat, a
  season, a player named by a setup, an entry or the history) or the file is refused;
- set up as no new game is: each game's house rules and setup go through its kind's
  new-game form (:meth:`GameKind.setup_fields`, :meth:`GameKind.setup_form`: the
  validation a new game gets, the engine's limits included) and must be exactly
  what it gives;
- tampered: every game is replayed from its kind's initial state, each round's entry
  scored by the engine (:meth:`GameKind.score`) and compared with the stored result
  (an entry holding a key the engine does not read is refused); the first round that
  does not follow is named. What is stored is the engine's state, and the outcome the
  app writes.

What an export leaves out is absent after an import, whatever the file says: no
device (a deleted round kept for an undo comes back without one), token or passphrase.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from typing import Any

from werkzeug.datastructures import MultiDict

from companion.clock import valid_zone
from companion.forms import new_token
from companion.games.forms import MAX_ROUNDS
from companion.games.kinds import KINDS, kind_name
from companion.games.kinds.base import GameKind, State
from companion.groups.transfer.reading import Refused, _malformed, _stranger
from companion.i18n import current_lang, format_day
from companion.i18n import gettext as _
from companion.models import (
    DEFAULT_TIME_ZONE,
    NAME_MAX,
    Game,
    GamePlayer,
    GameStatus,
    Player,
    clean_name,
    name_key,
    visible,
)
from companion.rules.i18n import RulesError

#: How far in the future a timestamp may be (clocks of two servers differ).
_CLOCK_SKEW = timedelta(days=1)


@dataclass
class _Game:
    """A game of the file, checked: what will be written (its rules, setup and outcome
    as the app writes them, its rounds' states as the engine gives them, its history
    without any device)."""

    data: dict[str, Any]
    kind: GameKind
    created_at: datetime | None
    updated_at: datetime | None
    finished_at: datetime | None
    round_times: list[datetime | None] = field(default_factory=list)
    change_times: list[datetime | None] = field(default_factory=list)
    results: list[State] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    ending: dict[str, Any] | None = None


@dataclass
class Plan:
    """A file checked from end to end: the group it describes, ready to be written."""

    players: list[tuple[int, str, datetime | None]]
    seasons: list[tuple[int, str, date, bool, datetime | None]]
    games: list[_Game]
    #: The group's clock (the file's, or the default zone for a file without one).
    time_zone: str = DEFAULT_TIME_ZONE


def _when(value: Any, where: str, now: datetime) -> datetime | None:
    """A timestamp of the file (UTC when it says no zone), or None when absent."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _malformed(where) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    if moment > now + _CLOCK_SKEW or moment.year < 2000:
        raise _malformed(where)
    return moment


def _name(value: str, where: str) -> str:
    name = clean_name(value)
    if not name or len(name) > NAME_MAX or not visible(name):
        raise _malformed(where)
    return name


def _canonical(value: Any) -> str:
    """A value as compared where its types matter (``1`` is not ``true``): the same JSON
    text for the same value."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _game_label(data: dict[str, Any], created_at: datetime | None) -> str:
    day = format_day(created_at.date()) if created_at is not None else "?"
    return _("game %(id)d (%(kind)s, %(day)s)", id=data["id"], kind=kind_name(data["kind"]), day=day)


def _time_zone(value: Any) -> str:
    """The file's time zone: a name of the IANA database (the default zone when the file
    names none, as files written before groups had one)."""
    if value is None:
        return DEFAULT_TIME_ZONE
    if not valid_zone(value):
        raise Refused(_("The time zone of this file, %(zone)s, is not one this server knows.", zone=value))
    return str(value)


_DIGITS = re.compile(r"[0-9]+")


#: A text of digits in JSON text: how stored values name players.
_QUOTED_DIGITS = re.compile(r'"([0-9]+)"')


def _own_players(value: Any, seats: set[str], where: str) -> None:
    """Every player a stored value names (an id as text: ``"12"``, as a key or a value)
    is one of the game's: a file never brings in another group's player."""
    if seats.issuperset(_QUOTED_DIGITS.findall(json.dumps(value))):
        return  # (every such text is found in the JSON text: no need to walk it)
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if item not in seats and _DIGITS.fullmatch(item):
                raise _stranger(at)
        elif isinstance(item, dict):
            for key, inner in item.items():
                if key not in seats and _DIGITS.fullmatch(key):
                    raise _stranger(f"{at}.{key}")
                stack.append((inner, f"{at}.{key}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{at}[{i}]") for i, inner in enumerate(item))


#: The changes a game's history holds, and the data each keeps (as the game's routes
#: record them: ``companion.games.rounds``): a deleted round, for an undo; the round
#: before a correction. The device a change or a deleted round came from is never
#: exported, and never imported whatever the file says.
_CHANGE_DATA: dict[str, tuple[str, ...] | None] = {
    "round_added": None,
    "round_deleted": ("entry", "result", "status"),
    "round_restored": None,
    "round_edited": ("entry", "result"),
    "round_completed": ("entry", "result"),
    "finished": None,
    "abandoned": None,
    "reopened": None,
    # the round to come given to another dealer by hand (companion.games.dealer)
    "dealer_changed": ("number", "from", "to"),
}
_STATUSES = frozenset(s.value for s in GameStatus)
#: What each value a change keeps is (a round and a status kept for an undo or a
#: correction: the data the app wrote, checked by replaying it).
_CHANGE_VALUES: dict[str, Any] = {
    "status": lambda v: v in _STATUSES,
    "number": lambda v: type(v) is int and 1 <= v <= MAX_ROUNDS,
    "from": lambda v: isinstance(v, str),
    "to": lambda v: isinstance(v, str),
}


def _history(checked: _Game, where: str, seats: set[str], now: datetime) -> None:
    """The game's history as the app records it: known changes, in the order of their
    versions, each with the data its kind keeps (and no device)."""
    g = checked.data
    changes = g.get("changes") or []
    versions = [c["version"] for c in changes]
    if any(b < a for a, b in pairwise(versions)) or any(v > g["version"] for v in versions):
        raise _malformed(where + ".changes")
    for j, c in enumerate(changes):
        at = f"{where}.changes[{j}]"
        checked.change_times.append(_when(c.get("at"), at + ".at", now))
        if c["kind"] not in _CHANGE_DATA:
            raise _malformed(at + ".kind")
        if c["kind"].startswith("round_") and c.get("round") is None:
            raise _malformed(at + ".round")
        keys, data = _CHANGE_DATA[c["kind"]], c.get("data")
        kept: dict[str, Any] | None = None
        if keys is None:
            if data is not None:
                raise _malformed(at + ".data")
        else:
            if not isinstance(data, dict):
                raise _malformed(at + ".data")
            extra = sorted(set(data) - set(keys) - {"device_id"})
            if extra:
                raise _malformed(f"{at}.data.{extra[0]}")
            for key in keys:
                wanted = _CHANGE_VALUES.get(key, lambda v: isinstance(v, dict))
                if not wanted(data.get(key)):
                    raise _malformed(f"{at}.data.{key}")
            kept = {key: data[key] for key in keys}
            _own_players(kept, seats, at + ".data")
        checked.changes.append({"kind": c["kind"], "round": c.get("round"), "data": kept, "version": c["version"]})


def _first_error(errors: Any) -> str | None:
    """The first message of a form's errors (fields, lists of fields, nested)."""
    if isinstance(errors, str):
        return errors
    values = errors.values() if isinstance(errors, dict) else errors if isinstance(errors, list | tuple) else []
    for inner in values:
        found = _first_error(inner)
        if found:
            return found
    return None


def _setup(checked: _Game, where: str, by_id: dict[int, str], known: set[tuple[Any, ...]]) -> None:
    """The game's house rules and setup through its kind's new-game form, as a phone
    sends it: refused where the form refuses them (the engine's limits on the players
    and the rules included), and where the file's are not exactly what that form gives
    (nothing more: no other key, no other type, no player of another game).

    Forms are not cheap (the largest file holds a thousand games): one kind, house
    rules, number of players and setup (its players named by seat, as texts no file can
    hold: they begin with NUL) is judged once."""
    g, kind = checked.data, checked.kind
    seats = [str(p) for p in g["seats"]]
    setup = _new_game_setup(g, kind, seats, where)
    by_seat = {p: f"\x00{i}" for i, p in enumerate(seats)}
    key = (kind.id, len(seats), _canonical(g["rules"]), _canonical(_remap(setup, by_seat)))
    if key in known:
        return
    _own_players(setup, {str(p) for p in by_id}, where + ".setup")
    label = _game_label(g, checked.created_at)

    def impossible(reason: str) -> Refused:
        return Refused(
            _("In %(game)s, the house rules or the seats are not possible: %(reason)s", game=label, reason=reason)
        )

    try:
        fields = kind.setup_fields(g["rules"], setup, seats)
    except RulesError as e:
        raise impossible(e.text.get(current_lang())) from None
    players = [Player(id=int(p), name=by_id[int(p)]) for p in seats]
    formdata = MultiDict({**fields, "once": new_token()})
    form = kind.setup_form(None, players, formdata=formdata, meta={"csrf": False})
    if not form.validate():
        raise impossible(_first_error(form.errors) or _("the form refuses them."))
    for name, given in (("rules", g["rules"]), ("setup", setup)):
        made = getattr(form, name)
        if name == "setup":  # a file written before the kind kept these keys has none
            made = _as_written(made, given, kind.later_setup_keys)
        if _canonical(made) != _canonical(given):
            raise _malformed(f"{where}.{name}")
    known.add(key)


def _as_written(made: Any, given: Any, later: frozenset[str]) -> Any:
    """What the app makes (``made``: a setup, a state) as a file written before the kind
    kept its ``later`` keys has it: without those of them the file's ``given`` lacks
    (every other key compared as is; the app's own, with them, is what is written)."""
    if not later or not isinstance(made, dict) or not isinstance(given, dict):
        return made
    return {k: v for k, v in made.items() if k in given or k not in later}


def _new_game_setup(g: dict[str, Any], kind: GameKind, seats: list[str], where: str) -> dict[str, Any]:
    """The game's setup as its new-game form gave it: without ``next_dealer``, the round
    to come given to another dealer by hand (``companion.games.dealer``), which no form
    gives — once that is checked: only for a kind whose dealer the table may change,
    ``{"number": n, "dealer": id}``, a round number and one of the game's players."""
    setup = dict(g["setup"])
    if "next_dealer" not in setup:
        return setup
    given = setup.pop("next_dealer")
    if not (
        kind.dealer_by_hand
        and isinstance(given, dict)
        and set(given) == {"number", "dealer"}
        and type(given["number"]) is int
        and 1 <= given["number"] <= MAX_ROUNDS
        and given["dealer"] in seats
    ):
        raise _malformed(where + ".setup.next_dealer")
    return setup


def check_document(document: dict[str, Any]) -> Plan:
    """Check a parsed export from end to end (:func:`parse_file` first): names,
    references, numbering, statuses, every game's setup through its new-game form,
    every round rescored by the engine, the history's shape. :class:`Refused` names the
    first problem, and where it is in the file."""
    now = datetime.now(UTC)
    players: list[tuple[int, str, datetime | None]] = []
    keys: set[str] = set()
    ids: set[int] = set()
    for i, p in enumerate(document["players"]):
        where = f"players[{i}]"
        name = _name(p["name"], where + ".name")
        if p["id"] in ids:
            raise _malformed(where + ".id")
        if name_key(name) in keys:
            raise Refused(_("Two players of this file have the same name: %(name)s.", name=name))
        ids.add(p["id"])
        keys.add(name_key(name))
        players.append((p["id"], name, _when(p.get("created_at"), where + ".created_at", now)))
    by_id = {pid: name for pid, name, _at in players}

    seasons: list[tuple[int, str, date, bool, datetime | None]] = []
    keys, season_ids = set(), set()
    for i, s in enumerate(document["seasons"]):
        where = f"seasons[{i}]"
        name = _name(s["name"], where + ".name")
        try:
            starts_on = date.fromisoformat(s["starts_on"])
        except ValueError:
            raise _malformed(where + ".starts_on") from None
        if not 2000 <= starts_on.year <= now.year + 1:
            raise _malformed(where + ".starts_on")
        if s["id"] in season_ids or name_key(name) in keys:
            raise Refused(_("Two seasons of this file have the same name: %(name)s.", name=name))
        season_ids.add(s["id"])
        keys.add(name_key(name))
        seasons.append((s["id"], name, starts_on, s["is_current"], _when(s.get("created_at"), where, now)))
    if sum(1 for s in seasons if s[3]) > 1:
        raise _malformed("seasons[].is_current")

    games: list[_Game] = []
    game_ids: set[int] = set()
    known: set[tuple[Any, ...]] = set()
    for i, g in enumerate(document["games"]):
        where = f"games[{i}]"
        kind = KINDS.get(g["kind"])
        if kind is None:
            raise Refused(_("This file holds a kind of game this version does not know: %(kind)s.", kind=g["kind"]))
        if g["id"] in game_ids:
            raise _malformed(where + ".id")
        game_ids.add(g["id"])
        if g["season"] not in season_ids:
            raise Refused(_("This file names a season that is not in it, at %(where)s.", where=where + ".season"))
        seats = g["seats"]
        for k, pid in enumerate(seats):
            if pid not in by_id:
                raise _stranger(f"{where}.seats[{k}]")
        if len(set(seats)) != len(seats):
            raise _malformed(where + ".seats")
        checked = _Game(
            data=g,
            kind=kind,
            created_at=_when(g.get("created_at"), where + ".created_at", now),
            updated_at=_when(g.get("updated_at"), where + ".updated_at", now),
            finished_at=_when(g.get("finished_at"), where + ".finished_at", now),
        )
        for j, r in enumerate(g["rounds"]):
            if r["number"] != j + 1:
                raise Refused(
                    _(
                        "In %(game)s, the rounds are not numbered from 1 to %(n)d.",
                        game=_game_label(g, checked.created_at),
                        n=len(g["rounds"]),
                    )
                )
            checked.round_times.append(_when(r.get("created_at"), f"{where}.rounds[{j}].created_at", now))
        _setup(checked, where, by_id, known)
        _history(checked, where, {str(p) for p in seats}, now)
        _replay(checked, where, by_id)
        games.append(checked)
    return Plan(players, seasons, games, _time_zone(document["group"].get("time_zone")))


def _transient_game(g: dict[str, Any], by_id: dict[int, str]) -> Game:
    """A game as the kinds see it, outside any session (players by the file's ids)."""
    game = Game(kind=g["kind"], rules=g["rules"], setup=g["setup"], version=g["version"])
    game.seats = [GamePlayer(seat=i, player=Player(id=pid, name=by_id[pid])) for i, pid in enumerate(g["seats"])]
    return game


class _Read(dict[str, Any]):
    """A round's entry handed to the engine, noting the keys it reads: a key it never
    reads is none the app writes (the engine reads all of a round form's entry)."""

    __slots__ = ("read",)

    def __init__(self, entry: dict[str, Any]) -> None:
        super().__init__(entry)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def _replay(checked: _Game, where: str, by_id: dict[int, str]) -> None:
    """Score every round of a game from its kind's initial state and compare with what
    the file stores (the engine's states are what is written); then its status, outcome
    and undoable deletion against its states."""
    g, kind = checked.data, checked.kind
    game = _transient_game(g, by_id)
    seats = {str(p) for p in g["seats"]}

    def label() -> str:  # only for a refusal: a thousand games need none
        return _game_label(g, checked.created_at)

    def refused_round(number: int, reason: str) -> Refused:
        return Refused(
            _(
                "In %(game)s, %(the_round)s: %(reason)s Nothing was imported.",
                game=label(),
                the_round=kind.the_round(number),
                reason=reason,
            )
        )

    try:
        state = kind.initial_state(game)
    except Exception:  # house rules or seats the kind cannot start from: the file is not one of ours
        raise Refused(_("In %(game)s, the house rules or the seats are not possible.", game=label())) from None
    rounds = g["rounds"]
    for j, r in enumerate(rounds):
        if r["number"] < len(rounds) and kind.pending(r["entry"]):
            raise refused_round(r["number"], _("only the last round may wait for its second step."))
        entry = _Read(r["entry"])
        try:
            scored = kind.score(game, state, entry)
        except Exception:  # the engine refuses it, or it is not an entry at all
            raise refused_round(r["number"], _("what was entered cannot be scored.")) from None
        if _as_written(scored, r["result"], kind.later_state_keys) != r["result"]:
            raise refused_round(r["number"], _("the stored result does not follow from what was entered."))
        unread = sorted(set(r["entry"]) - entry.read)
        if unread:
            raise _malformed(f"{where}.rounds[{j}].entry.{unread[0]}")
        _own_players(r["entry"], seats, f"{where}.rounds[{j}].entry")
        checked.results.append(scored)
        state = scored

    status, outcome = g["status"], g.get("outcome")

    def inconsistent() -> Refused:
        return Refused(_("In %(game)s, the status does not match the rounds.", game=label()))

    if status == GameStatus.FINISHED.value:
        if checked.finished_at is None or not isinstance(outcome, dict):
            raise inconsistent()
        early = outcome.get("early") is True
        try:
            expected = {"winners": kind.leaders(state), "early": True} if early else {"winners": kind.winners(state)}
        except Exception:
            raise inconsistent() from None
        if (not early and not kind.over(state)) or _canonical(outcome) != _canonical(expected):
            raise inconsistent()
        checked.ending = expected
    elif outcome is not None or checked.finished_at is not None:
        raise inconsistent()

    # The last change, when it is a deletion nothing followed, can be undone: the round
    # it keeps must be the next one and follow from the state before it.
    last = checked.changes[-1] if checked.changes else None
    if last is not None and last["kind"] == "round_deleted" and last["version"] == g["version"]:
        kept = last["data"]
        number = last["round"]
        entry = _Read(kept["entry"])
        try:
            scored = kind.score(game, state, entry)
            same = _as_written(scored, kept["result"], kind.later_state_keys) == kept["result"]
            ok = number == len(rounds) + 1 and same and not set(kept["entry"]) - entry.read
        except Exception:
            ok = False
        if ok:
            kept["result"] = scored  # the engine's state comes back, as for every round
        else:
            raise refused_round(
                int(number) if isinstance(number, int) else len(rounds) + 1,
                _("the deleted round kept for an undo does not follow from the rounds before it."),
            )


def _remap(value: Any, ids: dict[str, str]) -> Any:
    """``value`` with every player id of the file (a string, as states name players)
    replaced by the new player's id, in keys and values alike."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [_remap(v, ids) for v in value]
    if isinstance(value, dict):
        return {ids.get(k, k): _remap(v, ids) for k, v in value.items()}
    return value
