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
    already holds, then judged by the form and the engine as if typed. ``not_understood``:
    the pieces of the line read as nothing (shown highlighted, in the line's own words).
    ``questions``: what the line leaves open rather than guess (« “Ma” : Marie ou
    Mathieu ? », « Deux présidents : Chloé et Ann ? »), in the page's language; the
    fields they concern are not filled.
    """

    fields: dict[str, str] = field(default_factory=dict)
    not_understood: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether everything in the line was understood, with nothing to ask."""
        return not self.not_understood and not self.questions
