"""What a line gives (:class:`Reading`) and whom it may name (:class:`Person`): the
types every module of the toolkit and every grammar share."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Person:
    """A player of the game as a line may name them: the form's value (the player's id,
    as text) and the name shown."""

    id: str
    name: str


@dataclass
class Reading:
    """What a line says of a round, as the round form's fields.

    ``fields``: form field name → value, as the form's inputs send them (``"winner":
    "12"``, ``"total_13": "40"``, ``"finish-0": "12"``…): merged over what the form
    already holds, then judged by the form and the engine as if typed. ``backing``: for
    each field, where in the line the words that gave it are (``(start, end)`` of each
    word, in characters): no field is filled from nothing. ``not_understood``: the
    pieces of the line read as nothing (shown highlighted, in the line's own words) —
    exactly the words no field, question or note used; ``unread``: where they are
    (``(start, end)`` of each piece, in characters). ``questions``: what the line
    leaves open rather than guess (« « Ma » : Marie ou Mathieu ? », « Deux présidents :
    Chloé et Ann ? »), in the page's language; the fields they concern are not filled.
    ``notes``: what the read-back says besides, so that nothing changes unsaid — a name
    read loosely (« « Élo » : Élodie »), a value corrected within the line, who dealt, a
    player the line does not mention (« Zoé : rien dit »). ``me_asked``: the line said
    « moi » and this device belongs to no player of the game (the page offers to say
    which).
    """

    fields: dict[str, str] = field(default_factory=dict)
    not_understood: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    backing: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    me_asked: bool = False
    unread: list[tuple[int, int]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether everything in the line was understood, with nothing to ask."""
        return not self.not_understood and not self.questions


@dataclass(frozen=True)
class Hint:
    """What the page shows under « En une phrase »: an ``example`` said with the game's
    own players and for the form's own step (in the page's language), and the ``order``
    in which numbers said alone are read (« 2, 1, 0, 1 »: the form's order), if any."""

    example: str
    order: tuple[str, ...] = ()
