"""Whist with a tarot deck in the rules API (shared/API.md).

Pure: the engine (:mod:`companion.rules`) and the judge's building blocks
(:mod:`companion.judge`) only: :mod:`~.adapter` (JSON <-> engine), :mod:`~.requests` and
:mod:`~.answers` (its schemas), :mod:`~.narrate` (its verdicts in the table's words),
:mod:`~.examples` (API.md's).
"""

from __future__ import annotations

from companion.games.kinds.whist_tarot.api import examples
from companion.games.kinds.whist_tarot.api.adapter import check, outcome
from companion.games.kinds.whist_tarot.api.answers import ANSWERS
from companion.games.kinds.whist_tarot.api.narrate import narration
from companion.games.kinds.whist_tarot.api.requests import whist_check, whist_outcome
from companion.judge.game import ApiGame

#: Whist with a tarot deck in the rules API.
WHIST_TAROT_API = ApiGame(
    id="whist-tarot",
    order=3,
    title="whist with a tarot deck",
    component="WhistTarot",
    requests={"check": whist_check(), "outcome": whist_outcome()},
    answers=ANSWERS,
    check=check,
    outcome=outcome,
    narration=narration,
    examples={"check": examples.CHECKS, "outcome": examples.OUTCOMES},
)
