"""What the quick check (:mod:`companion.referee.check`) asks of a kind: its inputs.

A kind the quick check knows sets :attr:`GameKind.check
<companion.games.kinds.base.GameKind.check>` to a :class:`QuickCheck`: how many seats a
standalone check offers, the house rules it may set, the inputs of its table and move
(each named by its path in the ``/api/v1/check`` body, see :class:`Builder`), its card
picker, and the table of a game in progress.  The check's pages, and how a form is read
into a body and judged, are shared and know no kind.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from wtforms import Field, SelectField
from wtforms.fields.choices import SelectChoice

from companion.i18n import gettext as _
from companion.models import Game

#: How an input's text becomes JSON (static/check.js reads the same names):
#: ``text`` a string; ``int`` a whole number; ``cards`` the cards typed in the page's
#: language, as a list in RULES.md's notation; ``card`` one such card, as a string;
#: ``player`` a seat number, as that seat's name (a checkbox gives its value when
#: ticked); ``flag`` true when ticked; ``bool`` true or false; ``json`` JSON text.
#: An empty text, an unticked flag or player gives nothing: the key is left out.
KINDS_OF_INPUT: tuple[str, ...] = ("text", "int", "cards", "card", "player", "flag", "bool", "json")


def _id(path: str) -> str:
    return "f-" + re.sub(r"[^A-Za-z0-9]+", "-", path).strip("-")


class Builder:
    """Collects the inputs of a check form, each named by its path in the body."""

    def __init__(self) -> None:
        self.fields: dict[str, Any] = {}

    def add(self, path: str, kind: str, cls: type[Field], label: Any = "", **kwargs: Any) -> None:
        assert kind in KINDS_OF_INPUT
        render_kw = {"data-kind": kind, **kwargs.pop("render_kw", {})}
        self.fields[path] = cls(label, id=_id(path), render_kw=render_kw, **kwargs)

    def player(self, path: str, label: Any, seats: Sequence[str], **kwargs: Any) -> None:
        """A select of the seats (its value: the seat number)."""
        self.add(path, "player", SelectField, label, choices=seat_choices(seats), validate_choice=False, **kwargs)

    def number(self, path: str, label: Any, values: Iterable[int], blank: str = "—") -> None:
        choices = [SelectChoice("", blank), *(SelectChoice(str(v), str(v)) for v in values)]
        self.add(path, "int", SelectField, label, choices=choices, validate_choice=False)


def seat_choices(seats: Sequence[str]) -> list[SelectChoice]:
    """« — » then every seat (a seat without a name stays in the list, hidden: the page's
    script shows it once it is named)."""
    return [
        SelectChoice("", "—"),
        *(
            SelectChoice(str(i), name or _("Seat %(n)d", n=i + 1), render_kw={} if name else {"hidden": True})
            for i, name in enumerate(seats)
        ),
    ]


class QuickCheck(ABC):
    """One family's part of the quick check (kinds may share one: each method that
    differs between them is told which kind it is about)."""

    #: Where the family comes in the standalone check's chooser (smallest first).
    rank: int = 0
    #: Its inputs' template (``referee/_check_<kind>.html``), inside the shared form.
    template: str
    #: How many seats a standalone check offers (the engine says how many may play).
    seats: int
    #: How many entries of the current trick (plays and passes) the form offers.
    trick_rows: int = 0

    def chooser_rank(self, game: str) -> int:
        """Where ``game`` (the kind's id) comes in the standalone check's chooser."""
        return self.rank

    def seat_count(self, game: str) -> int:
        """How many seats a standalone check of ``game`` offers."""
        return self.seats

    def players_heading(self, game: str) -> str:
        """What a game in progress's players are called above their names, in order."""
        return _("Players, in turn order:")

    def rule_inputs(self, b: Builder, game: str) -> None:
        """The house rules a standalone check of ``game`` may set (a game in progress brings its own)."""
        return None

    @abstractmethod
    def inputs(self, b: Builder, seats: Sequence[str]) -> None:
        """The inputs of the table and of the move."""

    def start_data(self) -> dict[str, Any]:
        """The inputs' starting values of a standalone check."""
        return {"move.player": "0"}

    def row_label(self, n: int) -> str:
        """How the error summary names row ``n`` (from 1) of the trick."""
        return _("Play %(n)d", n=n)

    def picker(
        self, game: str, seated: int, options: Callable[[], Mapping[str, Any] | None], lang: str
    ) -> dict[str, Any] | None:
        """What the card picker needs (static/picker.js): the deck's ranks and copies, for
        ``seated`` players under the house rules ``options()`` gives (None: no picker)."""
        return None

    @abstractmethod
    def from_game(
        self, game: Game, state: Mapping[str, Any], names: Mapping[str, str], lang: str
    ) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        """A game in progress's table, from its stored state (no replay): the seats'
        names in order, the inputs' starting values, and what the page says of it
        (``titles``, ``house_rules``: the caller's context starts them empty)."""
