"""Président and Piketty in the rules API (shared/API.md): one family, two games of the API.

Pure: the engine (:mod:`companion.rules`) and the judge's building blocks
(:mod:`companion.judge`) only.  By concept:

- :mod:`~.adapter`, :mod:`~.outcome_adapter` — the check and outcome adapters (JSON <-> engine);
- :mod:`~.notation`, :mod:`~.options`, :mod:`~.decks`, :mod:`~.events`, :mod:`~.requests`
  — how they write cards, their options, the cards of their decks, an outcome's events,
  and their request schemas; :mod:`~.answers` — their answers (one schema for both);
- :mod:`~.narrate` — their verdicts in the table's words; :mod:`~.examples` — API.md's.
"""

from __future__ import annotations

import dataclasses

from companion.games.kinds.president.api import examples
from companion.games.kinds.president.api.adapter import check
from companion.games.kinds.president.api.answers import ANSWERS
from companion.games.kinds.president.api.narrate import narration
from companion.games.kinds.president.api.outcome_adapter import outcome
from companion.games.kinds.president.api.requests import president_check, president_outcome
from companion.judge.game import ApiGame

#: Le Président in the rules API; its examples list Piketty's too (one family).
PRESIDENT_API = ApiGame(
    id="president",
    order=1,
    title="le Président (and variants)",
    component="President",
    requests={"check": president_check("president"), "outcome": president_outcome("president")},
    answers=ANSWERS,
    check=check,
    outcome=outcome,
    narration=narration,
    examples={"check": examples.CHECKS, "outcome": examples.OUTCOMES},
    answer_examples={"refused": {"summary": "shared/API.md's answer", "value": examples.CHECK_ANSWER}},
)
#: Piketty in the rules API: Président's adapters, answers and words, its own requests.
PIKETTY_API = dataclasses.replace(
    PRESIDENT_API,
    id="piketty",
    order=2,
    title="Piketty",
    component="Piketty",
    requests={"check": president_check("piketty"), "outcome": president_outcome("piketty")},
    answer_component="President",
    examples={},
    answer_examples={},
)
