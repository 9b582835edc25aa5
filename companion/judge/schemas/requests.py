"""The request body of each game at each endpoint."""

from __future__ import annotations

from companion.judge.schemas.crapouille import _crapouille_check, _crapouille_outcome
from companion.judge.schemas.messages import Schema
from companion.judge.schemas.president import _president_check, _president_outcome
from companion.judge.schemas.whist_tarot import _whist_check, _whist_outcome

#: The request body of each game at each endpoint: what the API validates and publishes.
REQUESTS: dict[str, dict[str, Schema]] = {
    "president": {"check": _president_check("president"), "outcome": _president_outcome("president")},
    "piketty": {"check": _president_check("piketty"), "outcome": _president_outcome("piketty")},
    "whist-tarot": {"check": _whist_check(), "outcome": _whist_outcome()},
    "crapouille": {"check": _crapouille_check(), "outcome": _crapouille_outcome()},
}
