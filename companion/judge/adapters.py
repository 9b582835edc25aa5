"""Which module answers which game: each game id of the API (shared/API.md) has an
adapter module with ``check(body, lang)`` and ``outcome(body, lang)``."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

Adapter = Callable[[dict[str, Any], str], dict[str, Any]]

#: For each game id of the API, the modules holding its check and outcome adapters.
ADAPTERS: dict[str, dict[str, str]] = {
    "president": {"check": "companion.judge.president", "outcome": "companion.judge.president_outcome"},
    "piketty": {"check": "companion.judge.president", "outcome": "companion.judge.president_outcome"},
    "whist-tarot": {"check": "companion.judge.whist_tarot", "outcome": "companion.judge.whist_tarot"},
    "crapouille": {"check": "companion.judge.crapouille", "outcome": "companion.judge.crapouille"},
}


@cache
def adapter(game: str, endpoint: str) -> Adapter:
    """The adapter function of ``game`` for ``endpoint`` (``check`` or ``outcome``), looked up once."""
    module = importlib.import_module(ADAPTERS[game][endpoint])
    function: Adapter = getattr(module, endpoint)
    return function
