"""What the house-rules pages (:mod:`companion.referee.house_rules`) ask of a kind.

A kind with a rules page sets :attr:`GameKind.rules_pages
<companion.games.kinds.base.GameKind.rules_pages>` to a :class:`RulesPages`: its rules
page's template, and what both pages say of its house rules (each option's label and
one-line explanation are the new-game page's; the kind adds the longer sentence, with
the seed's example).  The pages themselves are shared and know no kind.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from companion.models import Game


def option_entry(option: str, label: Any, line: Any, detail: Any) -> dict[str, Any]:
    """One option as the pages show it."""
    return {"id": option, "label": label, "line": line, "detail": detail}


class RulesPages(ABC):
    """One family's part of the house-rules pages (kinds may share one, so each method
    is told which kind it is about)."""

    @abstractmethod
    def stem(self, kind_id: str) -> str:
        """The rules page's template stem (``referee/rules_<stem>.<lang>.html``)."""

    @abstractmethod
    def rank(self, kind_id: str) -> int:
        """Where the kind comes among the other rules pages' links (smallest first)."""

    @abstractmethod
    def game_context(self, game: Game) -> dict[str, Any]:
        """One game's house rules: ``on`` and ``off`` (option entries), ``settings``
        (sentences), and what else the game's template shows."""

    def page_context(self, kind_id: str, lang: str) -> dict[str, Any]:
        """What the kind's rules page shows beyond its prose (``options``, ``presets``,
        ``settings``: the caller's context starts them empty)."""
        return {}
