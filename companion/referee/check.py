"""The quick check: « Est-ce que je peux jouer ça ? » for every game.

Two pages ask the same question: ``referee.check_start`` (``/check``, from the home page:
pick a game, its house rules and the players' names) and ``referee.check_game``
(``/g/<code>/games/<id>/check``: the players, seats, house rules and titles of a game in
progress). The table says what lies on it and who plays what; the engine answers through
:func:`companion.games.judging.judge`, exactly as ``POST /api/v1/check`` would.

**The form is the API body.** Every input is named by the JSON path of the value it
gives in the ``/api/v1/check`` body (``state.trick[2].cards``, ``move.player``,
``state.bids.@1`` — ``@1`` is the name of seat 1) and says with ``data-kind`` how its
text becomes JSON (:data:`~companion.games.quick_check.KINDS_OF_INPUT`).
:func:`form_body` reads any such form into the body; static/check.js does the same in
the browser (same paths, same kinds, same rules: empty values are left out, list entries
left empty close up), so there is no per-game mapping anywhere but in the form's
definition, which each kind gives (its :class:`~companion.games.quick_check.QuickCheck`,
:attr:`GameKind.check <companion.games.kinds.base.GameKind.check>`). A list entry left
blank (a trick row, a seat) is therefore simply ignored.

Without JavaScript the form posts here and the verdict is shown above it, the form kept
as typed. With it, static/check.js posts the same body to ``/api/v1/check`` and shows
the verdict in place. A body the engine finds malformed is a form error on the field the
error's ``field`` path names, never a 500.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, HiddenField, SelectField, StringField, SubmitField

from companion.forms import SafeForm, add_error
from companion.games.judging import judge
from companion.games.kinds import KINDS, kind_for
from companion.games.quick_check import Builder, QuickCheck, seat_choices
from companion.games.state import stored_state
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.membership.access import group_and_game
from companion.models import Game
from companion.referee import bp
from companion.rules.cards import CardError, parse_typed_cards, typed_notation
from companion.rules.i18n import RulesError

#: The names a standalone check starts with.
DEFAULT_NAMES: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dan")


def checks() -> dict[str, QuickCheck]:
    """Each kind the quick check knows (:attr:`GameKind.check
    <companion.games.kinds.base.GameKind.check>`), by its id, in the order of the chooser
    (read from :data:`~companion.games.kinds.KINDS` at each call)."""
    known = {k.id: k.check for k in KINDS.values() if k.check is not None}
    return {g: known[g] for g in sorted(known, key=lambda g: known[g].chooser_rank(g))}


def seat_count(game: str) -> int:
    """How many seats a standalone check of ``game`` offers (the engine says how many may play)."""
    return checks()[game].seat_count(game)


def trick_rows(game: str) -> int:
    """How many entries of the current trick (plays and passes) the form offers (0: none)."""
    return checks()[game].trick_rows or 0


_SEGMENT = re.compile(r"\[([0-9]+)\]|\.?([^.\[\]]+)")
_WHOLE = re.compile(r"-?[0-9]{1,4}")
_SEAT = re.compile(r"@([0-9]{1,2})")
_SEAT_NUMBER = re.compile(r"[0-9]{1,2}")
_PLAYERS = re.compile(r"state\.players\[([0-9]{1,2})\]")
#: An input about one seat: ``state.out[2]``, ``state.bids.@2``.
_SEAT_OF = re.compile(r"^state\.out\[([0-9]{1,2})\]$|@([0-9]{1,2})$")
_TRICK_ROW = re.compile(r"state\.trick\[([0-9]{1,2})\]\.")
_LAST_SEGMENT = re.compile(r"(\.[^.\[\]]+|\[[0-9]+\])$")
#: An input a first render's request may carry in its query (by its path in the body).
_CARRIED = re.compile(r"(?:state|move|rules)\.[A-Za-z0-9_.@\[\]]{1,40}")


# --------------------------------------------------------------------------- reading


class FieldError(Exception):
    """What a field holds cannot be read (an unknown card, an empty seat…)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


def kind_of(field: Field) -> str | None:
    """The ``data-kind`` of an input of the check form (None: not part of the body)."""
    kind = (field.render_kw or {}).get("data-kind")
    return kind if isinstance(kind, str) else None


def _raw(field: Field) -> str:
    """What the input holds as text, as a browser would send it (a checkbox: its value when ticked)."""
    if isinstance(field, BooleanField):
        return str((field.render_kw or {}).get("value", "y")) if field.data else ""
    return "" if field.data is None else str(field.data)


def _segments(path: str) -> list[str | int]:
    """``state.trick[2].cards`` → ``["state", "trick", 2, "cards"]``."""
    return [int(index) if index else key for index, key in _SEGMENT.findall(path)]


def _path(segments: Iterable[str | int]) -> str:
    """The inverse of :func:`_segments`, as the API writes a field's path."""
    text = ""
    for s in segments:
        text += f"[{s}]" if isinstance(s, int) else (f".{s}" if text else s)
    return text


def _seat_names(fields: Iterable[Field]) -> dict[int, str]:
    """The players' names by seat number, as typed (``state.players[i]``)."""
    names = {}
    for f in fields:
        m = _PLAYERS.fullmatch(f.name)
        if m:
            names[int(m.group(1))] = _raw(f).strip()
    return names


def _value(kind: str, raw: str, names: Mapping[int, str], lang: str) -> Any:
    """The JSON value of an input's text (None: nothing); :class:`ValueError` with the
    sentence to show when it cannot be read."""
    text = raw.strip()
    if kind in ("flag", "bool"):
        return True if text else (False if kind == "bool" else None)
    if not text:
        return None
    if kind == "text":
        return text
    if kind == "int":
        if not _WHOLE.fullmatch(text):
            raise ValueError(_("A whole number is expected."))
        return int(text)
    if kind == "player":
        seat = int(text) if _SEAT_NUMBER.fullmatch(text) else None
        if seat is None or not names.get(seat):
            raise ValueError(_("Choose a player who has a name."))
        return names[seat]
    if kind == "json":
        try:
            return json.loads(text)
        except ValueError:
            raise ValueError(_("These house rules cannot be read.")) from None
    if kind in ("cards", "card"):
        try:
            cards = parse_typed_cards(text, lang)
        except CardError as e:
            raise ValueError(e.text.get(lang)) from None
        if kind == "cards":
            return [str(c) for c in cards]
        if len(cards) != 1:
            raise ValueError(_("One card only."))
        return str(cards[0])
    raise ValueError(_("This field cannot be read."))


@dataclass(frozen=True)
class Body:
    """The ``/api/v1/check`` body a form gives, and where each of its values came from:
    ``where`` maps a value's path in the body to the name of its input."""

    body: dict[str, Any]
    where: dict[str, str]


def form_body(fields: Iterable[Field], lang: str) -> Body:
    """The ``/api/v1/check`` body of the check form's ``fields`` (static/check.js builds
    the same in the browser). Raises :class:`FieldError` for an input that cannot be read.

    >>> from werkzeug.datastructures import MultiDict
    >>> from wtforms import Form
    >>> class F(Form):
    ...     pass
    >>> for path, kind, cls in [("state.players[0]", "text", StringField), ("state.players[1]", "text", StringField),
    ...                         ("state.trick[0].player", "player", StringField),
    ...                         ("state.trick[1].player", "player", StringField),
    ...                         ("state.trick[1].cards", "cards", StringField), ("move.pass", "flag", BooleanField),
    ...                         ("state.bids.@1", "int", StringField)]:
    ...     setattr(F, path, cls(render_kw={"data-kind": kind}))
    >>> form = F(MultiDict({"state.players[0]": "Ann", "state.players[1]": "Bob", "state.trick[1].player": "1",
    ...                     "state.trick[1].cards": "9C 9P", "state.bids.@1": "2"}))
    >>> got = form_body(form, "fr")
    >>> got.body
    {'state': {'players': ['Ann', 'Bob'], 'trick': [{'player': 'Bob', 'cards': ['9h', '9s']}], 'bids': {'Bob': 2}}}
    >>> got.where["state.trick[0].cards"]
    'state.trick[1].cards'
    """
    fields = list(fields)
    names = _seat_names(fields)
    tree: dict[Any, Any] = {}
    leaves: list[tuple[list[str | int], str]] = []
    for f in fields:
        kind = kind_of(f)
        if kind is None:
            continue
        try:
            value = _value(kind, _raw(f), names, lang)
        except ValueError as e:
            raise FieldError(f.name, str(e)) from None
        if value is None:
            continue
        segments: list[str | int] = []
        for s in _segments(f.name):
            seat = _SEAT.fullmatch(s) if isinstance(s, str) else None
            if seat is not None:
                if not names.get(int(seat.group(1))):
                    raise FieldError(f.name, _("This seat has no name."))
                s = names[int(seat.group(1))]
            segments.append(s)
        node = tree
        for s in segments[:-1]:
            node = node.setdefault(s, {})
            if not isinstance(node, dict):
                raise FieldError(f.name, _("This field cannot be read."))
        node[segments[-1]] = value
        leaves.append((segments, f.name))
    where = {}
    for segments, name in leaves:
        final: list[str | int] = []
        node = tree
        for s in segments:
            final.append(sorted(node).index(s) if isinstance(s, int) else s)
            node = node[s]
        where[_path(final)] = name
    return Body(_closed_up(tree), where)


def _closed_up(node: Any) -> Any:
    """Lists were built as objects keyed by index: make them lists, in order, without gaps."""
    if isinstance(node, dict):
        if node and all(isinstance(k, int) for k in node):
            return [_closed_up(node[k]) for k in sorted(node)]
        return {k: _closed_up(v) for k, v in node.items()}
    return node


def place_error(form: SafeForm, where: Mapping[str, str], path: str | None, message: str) -> None:
    """Put ``message`` on the input the engine's ``path`` names: the value's own input,
    else the first input under that path, else the path's parent, and so on; else on
    the form's ``game`` (shown in the error summary)."""
    names = [f.name for f in form if kind_of(f) is not None]
    rest = path or ""
    while rest:
        if rest in where:
            add_error(form[where[rest]], message)
            return
        if rest in names:
            add_error(form[rest], message)
            return
        under = (rest + ".", rest + "[")
        child = next((n for p, n in where.items() if p.startswith(under)), None)
        child = child or next((n for n in names if n.startswith(under)), None)
        if child is not None:
            add_error(form[child], message)
            return
        shorter = _LAST_SEGMENT.sub("", rest)
        rest = "" if shorter == rest else shorter
    add_error(form["game"], message)


# ------------------------------------------------------------------------ the form


class CheckForm(SafeForm):
    """The quick check's form; its inputs are added per game by :func:`check_form`."""

    #: The seats' names as they stand in this form (blank: nobody sits there).
    seats: list[str]
    submit = SubmitField(_l("Check"))


@dataclass(frozen=True)
class Table:
    """Who sits at the checked table and under which rules.

    ``fixed``: a game in progress (players and rules are the game's, not inputs);
    ``names``: the seats in order (the kind's order for a game; a standalone check: as typed,
    blank seats included); ``rules``: the game's options when fixed; ``data``: the
    inputs' starting values."""

    game: str
    names: tuple[str, ...]
    fixed: bool
    rules: Mapping[str, Any] | None = None
    data: Mapping[str, Any] | None = None


def check_form(table: Table) -> CheckForm:
    """The check form of ``table.game`` (bound to the request's form when it was posted)."""
    b = Builder()
    check = checks()[table.game]
    seats = table.names
    b.add("game", "text", HiddenField, default=table.game)
    if table.fixed:
        b.add("rules", "json", HiddenField, default=json.dumps(dict(table.rules or {})))
        for i, name in enumerate(seats):
            b.add(f"state.players[{i}]", "text", HiddenField, default=name)
    else:
        check.rule_inputs(b, table.game)
        for i in range(seat_count(table.game)):
            b.add(
                f"state.players[{i}]",
                "text",
                StringField,
                _("Seat %(n)d", n=i + 1),
                render_kw={"autocomplete": "off", "maxlength": 40},
            )
    check.inputs(b, seats)
    form_class = type("CheckFormOf", (CheckForm,), b.fields)
    data = dict(table.data or {})
    if not table.fixed:
        data.update({f"state.players[{i}]": name for i, name in enumerate(seats)})
    # Starting values are for a new page: a submission holds what the table typed, and
    # what it left out is empty (as a browser sends it), not a starting value.
    form: CheckForm = form_class(data=None if request.method == "POST" else data)
    # Standalone: the seats are named as typed in this very submission.
    typed = _seat_names(form)
    now = [typed.get(i, "") for i in range(len(seats))]
    for f in form:
        seat = _SEAT_OF.search(f.name)
        if kind_of(f) == "player" and isinstance(f, SelectField):
            f.choices = seat_choices(now)
        elif seat is not None:
            i = int(seat.group(1) or seat.group(2))
            f.label.text = now[i] or _("Seat %(n)d", n=i + 1)
    if request.method != "POST":
        # A first render never chooses a seat nobody sits at (the names may have come
        # with the request): a chooser falls back on the first named seat (the dealer on
        # the last), or on nobody; nobody is out at an empty seat.
        for f in form:
            if kind_of(f) != "player" or _named_seat(now, _raw(f)):
                continue
            if isinstance(f, SelectField):
                f.data = _fallback_seat(f.name, now)
            elif isinstance(f, BooleanField):
                f.data = False
    form.seats = now
    return form


def _named_seat(seats: Sequence[str], value: str) -> bool:
    """Whether ``value`` (a chooser's) is nobody or a seat with a name.

    >>> _named_seat(["Ann", ""], "0"), _named_seat(["Ann", ""], "1"), _named_seat(["Ann", ""], "")
    (True, False, True)
    """
    if not value:
        return True
    return bool(_SEAT_NUMBER.fullmatch(value)) and int(value) < len(seats) and bool(seats[int(value)])


def _fallback_seat(path: str, seats: Sequence[str]) -> str:
    """Who a chooser shows first when its starting seat has no name: the player who
    moves (and whose turn it is) the first named seat, the dealer the last (the first
    named bids first), anyone else nobody.

    >>> [_fallback_seat(p, ["", "Eve", "Fay", ""]) for p in ("move.player", "state.dealer", "state.leader")]
    ['1', '2', '']
    """
    named = [i for i, name in enumerate(seats) if name]
    if not named:
        return ""
    if path == "state.dealer":
        return str(named[-1])
    if path in ("move.player", "state.turn"):
        return str(named[0])
    return ""


# ------------------------------------------------------------------------ the pages


def _picker(game: str, form: CheckForm, table: Table) -> dict[str, Any] | None:
    """What the card picker needs (static/picker.js): the deck's ranks and copies."""
    lang = current_lang()
    seated = max(3, sum(1 for name in _seat_names(form).values() if name))

    def options() -> Mapping[str, Any] | None:
        """The house rules: the game's, else as the form sets them."""
        if table.rules is not None:
            return table.rules
        try:
            rules: Mapping[str, Any] | None = form_body(form, lang).body.get("rules")
        except FieldError:
            rules = None
        return rules

    return checks()[game].picker(game, seated, options, lang)


def _summary_labels(form: CheckForm, game: str) -> dict[str, str]:
    """How the error summary names an input of the trick: its row, then its label."""
    labels = {}
    for f in form:
        row = _TRICK_ROW.match(f.name)
        if row is not None:
            n = int(row.group(1)) + 1
            where = checks()[game].row_label(n)
            labels[f.name] = f"{where} · {f.label.text}"
    return labels


def _judged(form: CheckForm) -> tuple[dict[str, Any] | None, int]:
    """The verdict of a posted form (None and 400 when the form has errors)."""
    if not form.validate():
        return None, 400
    lang = current_lang()
    try:
        built = form_body(form, lang)
    except FieldError as e:
        add_error(form[e.name], e.message)
        return None, 400
    try:
        return judge(built.body, lang), 200
    except RulesError as e:
        place_error(form, built.where, e.field, e.text.get(lang))
        return None, 400
    except Exception:
        # As the API does: a bug behind the engine's door must not be a 500 for the
        # table; it is logged loudly.
        current_app.logger.exception("quick check failed on %s", built.body.get("game"))
        add_error(form["game"], _("This table could not be judged."))
        return None, 400


def _page(table: Table, **context: Any) -> ResponseReturnValue:
    form = check_form(table)
    if form.is_submitted() and not table.fixed and request.form.get("names"):
        # « Use these names » (without script): the table as typed, carried by the
        # address of the page drawn again with it, whose choosers then offer the names.
        values: dict[str, Any] = {"game": table.game, "names": "1", **_carried_query(form)}
        return redirect(url_for("referee.check_start", **values), 303)
    verdict, status = _judged(form) if form.is_submitted() else (None, 200)
    return (
        render_template(
            "referee/check.html",
            form=form,
            table=table,
            kind=KINDS[table.game],
            inputs_template=checks()[table.game].template,
            players_heading=checks()[table.game].players_heading(table.game),
            verdict=verdict,
            picker=_picker(table.game, form, table),
            trick_rows=range(trick_rows(table.game)),
            summary_labels=_summary_labels(form, table.game),
            setup_open=any(f.errors for f in form if f.name.startswith(("rules", "state.players"))),
            placeholder=typed_notation(current_lang()).example,
            api=url_for("api.check"),
            **context,
        ),
        status,
    )


@bp.route("/check", methods=["GET", "POST"])
def check_start() -> ResponseReturnValue:
    """The quick check on its own: pick a game, then set the table."""
    game = request.args.get("game", "")
    if game not in checks():
        if request.method == "POST":
            abort(400)
        return render_template("referee/check.html", form=None, kinds=[KINDS[g] for g in checks()])
    names: tuple[str, ...] = (*DEFAULT_NAMES, *[""] * (seat_count(game) - len(DEFAULT_NAMES)))
    data = checks()[game].start_data()
    if request.method == "GET":
        names, data = _carried(game, names, data)
    return _page(Table(game, names, fixed=False, data=data))


def _carried_query(form: CheckForm) -> dict[str, str]:
    """The inputs of a standalone check as its address carries them (:func:`_carried`):
    those holding something, and those left empty whose starting value is not."""
    query = {}
    for f in form:
        if kind_of(f) is None or isinstance(f, HiddenField):
            continue
        raw = _raw(f)
        if raw or f.default:
            query[f.name] = raw
    return query


def _carried(game: str, names: tuple[str, ...], data: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """What the request of a first render carries of the table in its query, each input
    by its path (« Use these names » without script, or a link): the names typed for the
    seats replace the starting ones, its inputs the starting values (all of them with
    ``names=1``, the whole form as typed: what it leaves out is empty)."""
    carried = {k: v for k, v in request.args.items() if _CARRIED.fullmatch(k)}
    if not carried:
        return names, data
    seats = [k for k in carried if _PLAYERS.fullmatch(k)]
    if seats:
        names = tuple(carried.get(f"state.players[{i}]", "").strip()[:40] for i in range(seat_count(game)))
    values = {k: v for k, v in carried.items() if k not in seats}
    return names, (values if request.args.get("names") == "1" else {**data, **values})


@bp.route("/g/<code>/games/<int:game_id>/check", methods=["GET", "POST"])
def check_game(code: str, game_id: int) -> ResponseReturnValue:
    """The quick check of a game in progress: its players, seats, house rules and titles."""
    group, game = group_and_game(code, game_id)
    kind = kind_for(game.kind)
    if kind.check is None:
        abort(404)
    state = stored_state(kind, game)
    names = {str(p.id): p.name for p in game.players}
    table, context = _from_game(game, state, names)
    return _page(table, group=group, game=game, **context)


def _from_game(game: Game, state: Mapping[str, Any], names: Mapping[str, str]) -> tuple[Table, dict[str, Any]]:
    """The checked table of a game in progress, from its stored state (no replay), and
    what the page says of it (titles, house rules)."""
    check = checks()[game.kind]
    seats, data, said = check.from_game(game, state, names, current_lang())
    context: dict[str, Any] = {"titles": [], "house_rules": [], **said}
    data.setdefault("move.player", "0")
    return Table(game.kind, tuple(seats), fixed=True, rules=game.rules or {}, data=data), context
