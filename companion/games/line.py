"""A round said in one line, read back into its form before anything is saved.

Every round form has a field « En une phrase » (``RoundForm.line``). Sent with « Lire la
phrase » (``read`` in the form), the line is read by the game's kind
(:meth:`~companion.games.kinds.base.GameKind.read_line`: its grammar fills the form's
fields; no rule is decided there) and the form comes back filled — the fields the line
gave over what the form held, what was not understood shown, the questions asked, what
the line changed or left unsaid — **and nothing is saved**: the person reads it back,
then saves with the usual button. What the line filled is judged by the form and the
engine as a save would judge it, and what they refuse is said in the read-back in their
own words (:func:`judged`: a dealer's forbidden bid, a bid above the cards dealt, two
2♠ where the deck has one), still without saving.

With script, ``static/line.js`` asks :func:`read` (``GET …/rounds/<n>/line?q=…``) as
the person types or dictates, and fills the fields in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Request
from werkzeug.datastructures import MultiDict
from wtforms import FieldList, HiddenField

from companion.games.kinds.base import Entry, GameKind, State
from companion.i18n import current_lang
from companion.membership.access import current_device
from companion.models import Game
from companion.sentence import Hint, Reading

#: The longest line read (a round said aloud is far shorter).
LINE_MAX = 400
#: Fields of every round form that a line never fills (the round, the game's version…).
_OWN = frozenset({"round", "version", "line", "read", "csrf_token", "outbox", "submit"})


def me_in(game: Game) -> str | None:
    """The player this device belongs to (« moi »), as its owner said (« Qui êtes-vous ? »,
    ``Device.player_id``), when that player plays ``game``; None otherwise (« moi » is
    then asked, never guessed from the device's name)."""
    device = current_device()
    if device is None or device.player_id is None:
        return None
    return str(device.player_id) if any(p.id == device.player_id for p in game.players) else None


def wants_reading(request: Request) -> bool:
    """Whether a posted round form asks for its line to be read back: « Lire la phrase »
    pressed with a line. The button comes first in the form, so a browser sends it for
    the Enter key of any field; with no line, that is a save, as it always was."""
    return request.method == "POST" and bool(request.form.get("read")) and bool(request.form.get("line", "").strip())


def hint(kind: GameKind, game: Game, state: State, number: int) -> Hint | None:
    """What the page shows under the line for round ``number`` (an example with this
    game's players, the order numbers said alone are read in)."""
    return kind.line_hint(game, state, number, current_lang())


def read(
    kind: GameKind, game: Game, state: State, number: int, line: str, entry: Entry | None = None
) -> Reading | None:
    """What ``line`` says of round ``number`` (None: the kind reads no line); ``entry``:
    what the form holds already (a correction's, or a first step's)."""
    return kind.read_line(game, state, number, line[:LINE_MAX], current_lang(), me_in(game), entry)


def judged(form: Any, reading: Reading, names: Mapping[str, str]) -> list[str]:
    """What the form (and through it the engine) refuses of what the line filled, in
    their words, each naming its player when the message does not: the fields the line
    filled, the lists they belong to (the finishing order) and the form's hidden totals
    (whist's tricks that do not add up) — never a field the line left empty (its player
    is said as « rien dit » instead). ``names``: the players' names by id."""
    filled = set(reading.fields)
    said: list[str] = []
    for field in form:
        if not field.errors or field.name in _OWN:
            continue
        mine = field.name in filled or (
            isinstance(field, FieldList) and any(f.startswith(f"{field.name}-") for f in filled)
        )
        if not mine and not (isinstance(field, HiddenField) and filled):
            continue
        who = names.get(field.name.rpartition("_")[2]) if "_" in field.name else None
        for message in field.errors if isinstance(field.errors, list) else []:
            said.append(_naming(str(message), who))
    return list(dict.fromkeys(said))


def _naming(text: str, who: str | None) -> str:
    """A refusal said of ``who``'s field, naming them unless it does (« Zoé : un total
    est un nombre entier… », the sentence's first letter made small after the colon)."""
    if not who or who in text:
        return text
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    return f"{who}\u00a0: {text}" if current_lang() == "fr" else f"{who}: {text}"


def _filled(posted: Mapping[str, Any], reading: Reading | None) -> MultiDict[str, Any]:
    """What the form holds once the line is read: what was posted (but the « read »
    button), and the line's fields over it."""
    data: MultiDict[str, Any] = MultiDict(posted)
    data.pop("read", None)
    for name, value in (reading.fields if reading is not None else {}).items():
        data.setlist(name, [value])
    return data


def checked(
    kind: GameKind,
    game: Game,
    state: State,
    number: int,
    entry: Entry | None,
    reading: Reading,
    posted: Mapping[str, Any] | None = None,
) -> tuple[Any, list[str]]:
    """The round form filled with the line's fields (over ``posted``, what the form
    already held) and judged, and what it refuses of them (:func:`judged`). Nothing is
    saved; a read-back checks no form token (nothing it sends is written)."""
    data = _filled(posted or {}, reading)
    data.setdefault("round", str(number))
    data.setdefault("version", str(game.version))
    form = kind.round_form(game, state, number, entry, formdata=data, meta={"csrf": False})
    if not reading.fields:
        return form, []
    form.validate()
    return form, judged(form, reading, {str(p.id): p.name for p in game.players})


def read_back(
    kind: GameKind, game: Game, state: State, number: int, entry: Entry | None, posted: MultiDict[str, Any]
) -> tuple[Any, Reading | None, list[str]]:
    """The round form filled from the posted line (over what else was posted), what the
    line gave, and what the form refuses of it; the form shown is judged (its errors
    beside its fields) when the line was understood whole. Nothing is saved."""
    reading = read(kind, game, state, number, str(posted.get("line", "")), entry)
    refused = checked(kind, game, state, number, entry, reading, posted)[1] if reading is not None else []
    form = kind.round_form(game, state, number, entry, formdata=_filled(posted, reading))
    if reading is not None and reading.complete and reading.fields:
        form.validate()
    return form, reading, refused
