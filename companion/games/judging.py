"""The rules API's games, found by id: what each kind of game says of itself (``GameKind.api``).

The one registry of the games the judge knows is :data:`companion.games.kinds.KINDS`:
each kind's API part (:class:`~companion.judge.game.ApiGame`), in the API's order (each
game's ``order``, the OpenAPI document's), is given to one
:class:`~companion.judge.game.Judge`, read from the kinds at each call (built once for
a given set of kinds: a kind registered later is judged like the others).  The rules API
(:mod:`companion.api`) and the referee's screens (:mod:`companion.referee`) judge through
the functions below; neither names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from companion.games.kinds import KINDS
from companion.judge.game import Adapter, ApiGame, Example, Judge
from companion.rules.i18n import Text


@lru_cache(maxsize=8)
def _judge_of(games: tuple[ApiGame, ...]) -> Judge:
    return Judge(games)


def current_judge() -> Judge:
    """The judge of every game the kinds give the rules API now."""
    return _judge_of(tuple(kind.api for kind in KINDS.values() if kind.api is not None))


def api_games() -> dict[str, ApiGame]:
    """Every game of the rules API by its id, in the API's order."""
    return current_judge().games


def judge(body: dict[str, Any], lang: str = "fr") -> dict[str, Any]:
    """THE check (schema, adapter, engine, ``said``): :meth:`Judge.judge <companion.judge.game.Judge.judge>`."""
    return current_judge().judge(body, lang)


def narration(game: str, body: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    """What a legal move leads to, in the table's words (:meth:`~companion.judge.game.Judge.narration`)."""
    return current_judge().narration(game, body, answer)


def check_schema(body: dict[str, Any], game: str, endpoint: str) -> None:
    """A body checked against its game's request schema for an endpoint."""
    current_judge().check_schema(body, game, endpoint)


def adapter(game: str, endpoint: str) -> Adapter:
    """The adapter of a game for an endpoint."""
    return current_judge().adapter(game, endpoint)


def unknown_game() -> Text:
    """What is said of a ``game`` that is not one of the API's."""
    return current_judge().unknown_game()


def examples(endpoint: str) -> list[Example]:
    """Every example request of ``endpoint`` (``check``, ``outcome``), ``(summary, body)``, in the games' order."""
    return [example for game in api_games().values() for example in game.examples.get(endpoint, [])]
