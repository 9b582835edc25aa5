"""The rules API's schemas as the tests read them, by game id: the registry's games
(:func:`companion.games.judging.api_games`) and the shared pieces of :mod:`companion.judge.schemas`."""

from __future__ import annotations

from companion.games.judging import api_games
from companion.judge.schemas import ERROR, SPACES, Schema

#: Every game id of the API, in its order.
API_GAMES = api_games()
GAMES: tuple[str, ...] = tuple(API_GAMES)
#: The request body of each game at each endpoint.
REQUESTS: dict[str, dict[str, Schema]] = {game: dict(api.requests) for game, api in API_GAMES.items()}
#: The 200 answer of each game at each endpoint.
RESPONSES: dict[str, dict[str, Schema]] = {game: dict(api.answers) for game, api in API_GAMES.items()}

__all__ = ["ERROR", "GAMES", "REQUESTS", "RESPONSES", "SPACES"]
