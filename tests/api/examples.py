"""The examples of shared/API.md as the tests read them: the fragments each game's examples
restate, and every example request the OpenAPI document publishes, in its order."""

from __future__ import annotations

from companion.games.judging import examples
from companion.games.kinds.crapouille.api.examples import CRAPOUILLE
from companion.games.kinds.president.api.examples import CHECK_ANSWER, PRESIDENT
from companion.games.kinds.whist_tarot.api.examples import WHIST_TAROT

__all__ = ["CHECKS", "CHECK_ANSWER", "CRAPOUILLE", "OUTCOMES", "PRESIDENT", "WHIST_TAROT"]

CHECKS = examples("check")
OUTCOMES = examples("outcome")
