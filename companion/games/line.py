"""A round said in one line, read back into its form before anything is saved (issue 28).

Every round form has a field « En une phrase » (``RoundForm.line``). Sent with « Lire la
phrase » (``read`` in the form), the line is read by the game's kind
(:meth:`~companion.games.kinds.base.GameKind.read_line`: its grammar fills the form's
fields; no rule is decided there) and the form comes back filled — the fields the line
gave over what the form held, what was not understood shown, the questions asked —
**and nothing is saved**: the person reads it back, then saves with the usual button.
A line fully understood is judged by the form and the engine as a save would be (a
dealer's forbidden bid is refused with its usual reason), still without saving.

With script, ``static/line.js`` asks :func:`read` (``GET …/rounds/<n>/line?q=…``) as
the person types or dictates, and fills the fields in place.
"""

from __future__ import annotations

from typing import Any

from flask import Request
from werkzeug.datastructures import MultiDict

from companion.games.kinds.base import Entry, GameKind, State
from companion.i18n import current_lang
from companion.membership.access import current_device
from companion.models import Game, name_key
from companion.sentence import Reading

#: The longest line read (a round said aloud is far shorter).
LINE_MAX = 400


def me_in(game: Game) -> str | None:
    """The player this device is named after (« moi »), if it is named after one of the
    game's players (names compared as a group compares them: case and accents aside)."""
    device = current_device()
    if device is None or not device.name:
        return None
    key = name_key(device.name)
    found = [str(p.id) for p in game.players if name_key(p.name) == key]
    return found[0] if len(found) == 1 else None


def wants_reading(request: Request) -> bool:
    """Whether a posted round form asks for its line to be read back: « Lire la phrase »
    pressed with a line. The button comes first in the form, so a browser sends it for
    the Enter key of any field; with no line, that is a save, as it always was."""
    return request.method == "POST" and bool(request.form.get("read")) and bool(request.form.get("line", "").strip())


def read(kind: GameKind, game: Game, state: State, number: int, line: str) -> Reading | None:
    """What ``line`` says of round ``number`` (None: the kind reads no line)."""
    return kind.read_line(game, state, number, line[:LINE_MAX], current_lang(), me_in(game))


def read_back(
    kind: GameKind, game: Game, state: State, number: int, entry: Entry | None, posted: MultiDict[str, Any]
) -> tuple[Any, Reading | None]:
    """The round form filled from the posted line (over what else was posted), and what
    the line gave; the form is judged (errors shown) only when the line was understood
    whole. Nothing is saved."""
    reading = read(kind, game, state, number, str(posted.get("line", "")))
    data = MultiDict(posted)
    data.pop("read", None)
    if reading is not None:
        for name, value in reading.fields.items():
            data.setlist(name, [value])
    form = kind.round_form(game, state, number, entry, formdata=data)
    if reading is not None and reading.complete and reading.fields:
        form.validate()
    return form, reading
