"""La crapouille in the rules API (shared/API.md).

Pure: the engine (:mod:`companion.rules`) and the judge's building blocks
(:mod:`companion.judge`) only: :mod:`~.adapter` (JSON <-> engine), :mod:`~.requests` and
:mod:`~.answers` (its schemas), :mod:`~.narrate` (its verdicts in the table's words),
:mod:`~.examples` (API.md's).
"""

from __future__ import annotations

from companion.games.kinds.crapouille.api import examples
from companion.games.kinds.crapouille.api.adapter import check, outcome
from companion.games.kinds.crapouille.api.answers import ANSWERS
from companion.games.kinds.crapouille.api.narrate import narration
from companion.games.kinds.crapouille.api.requests import crapouille_check, crapouille_outcome
from companion.judge.game import ApiGame

#: La crapouille in the rules API.
CRAPOUILLE_API = ApiGame(
    id="crapouille",
    order=4,
    title="la crapouille",
    component="Crapouille",
    requests={"check": crapouille_check(), "outcome": crapouille_outcome()},
    answers=ANSWERS,
    check=check,
    outcome=outcome,
    narration=narration,
    examples={"check": examples.CHECKS, "outcome": examples.OUTCOMES},
)
