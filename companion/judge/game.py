"""What a game gives the rules API (:class:`ApiGame`), and the judge of a body among games (:class:`Judge`).

The judge knows no game: each game of the API (shared/API.md) is an :class:`ApiGame`
that says its id, its request and answer schemas, its adapters (JSON <-> engine), what
its legal moves lead to in the table's words, and its examples.  The games are given
to a :class:`Judge` by the layer above, which finds them where they live (each kind of
game holds its own, ``GameKind.api``); the judge finds them by id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.judge.reading import SchemaCheck
from companion.judge.schemas import Schema
from companion.rules.i18n import RulesError, Text

#: An adapter: ``(body, lang)`` -> the answer, or :class:`~companion.rules.i18n.RulesError`.
Adapter = Callable[[dict[str, Any], str], dict[str, Any]]
#: What a legal move leads to: ``(body, move, answer)`` -> sentences (:mod:`companion.judge.narrate`).
Narrator = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], list[Text]]
#: An example of a request or answer: ``(summary, body)``.
Example = tuple[str, dict[str, Any]]

#: The endpoints of the rules API, in the order of the OpenAPI document.
ENDPOINTS = ("check", "outcome")


@dataclasses.dataclass(frozen=True, eq=False)
class ApiGame:
    """One game of the rules API, as its kind describes it."""

    #: The game id of the API: a body's ``game``.
    id: str
    #: Where the game comes among the API's games (the OpenAPI document's order), lowest first.
    order: int
    #: What the OpenAPI document's description calls it, in English.
    title: str
    #: Its name under ``components/schemas`` (``Snap`` -> ``SnapCheckRequest``).
    component: str
    #: Its request body at each endpoint (``check``, ``outcome``): what the API validates and publishes.
    requests: Mapping[str, Schema]
    #: Its 200 answer at each endpoint.
    answers: Mapping[str, Schema]
    #: Its adapters: ``check(body, lang)`` and ``outcome(body, lang)``.
    check: Adapter
    outcome: Adapter
    #: What a legal move of its leads to, in the table's words.
    narration: Narrator
    #: The name of its answers' schemas, when another game's are the same (listed once).
    answer_component: str | None = None
    #: Examples of its requests at each endpoint, and named examples of check answers (the
    #: OpenAPI document's); a game may list a sibling's examples with its own.
    examples: Mapping[str, list[Example]] = dataclasses.field(default_factory=dict)
    answer_examples: Mapping[str, dict[str, Any]] = dataclasses.field(default_factory=dict)

    def adapter(self, endpoint: str) -> Adapter:
        """The adapter of ``endpoint`` (``check`` or ``outcome``)."""
        return self.check if endpoint == "check" else self.outcome


class Judge:
    """The rules API's games by id, in their order, and the judge of a body among them.

    >>> def echo(body: dict[str, Any], lang: str) -> dict[str, Any]:
    ...     return {"legal": True, "next_player": "Bob"}
    >>> game = ApiGame("snap", 1, "snap", "Snap", {"check": {"type": "object"}, "outcome": {}}, {}, echo, echo,
    ...                lambda body, move, answer: [Text("Bien.", "Good.")])
    >>> judge = Judge([game])
    >>> judge.judge({"game": "snap", "move": {}}, "en")
    {'legal': True, 'next_player': 'Bob', 'said': ['Good.']}
    >>> judge.judge({"game": "chess"})
    Traceback (most recent call last):
    ...
    companion.rules.i18n.RulesError: Jeu inconnu ; les jeux sont : snap.
    """

    def __init__(self, games: Iterable[ApiGame]) -> None:
        #: Every game by its id, in the API's order.
        self.games: dict[str, ApiGame] = {game.id: game for game in sorted(games, key=lambda game: game.order)}
        # Each request schema's validator, built once.
        self._checks = {
            (game.id, endpoint): SchemaCheck(schema)
            for game in self.games.values()
            for endpoint, schema in game.requests.items()
        }

    def unknown_game(self) -> Text:
        """What is said of a ``game`` that is not one of the API's."""
        names = ", ".join(self.games)
        return Text(f"Jeu inconnu ; les jeux sont : {names}.", f"Unknown game; the games are: {names}.")

    def check_schema(self, body: dict[str, Any], game: str, endpoint: str) -> None:
        """Raise :class:`~companion.judge.reading.BodyError` (400) if ``body`` does not match
        ``game``'s request schema for ``endpoint``."""
        self._checks[game, endpoint](body)

    def adapter(self, game: str, endpoint: str) -> Adapter:
        """The adapter of ``game`` for ``endpoint`` (``check`` or ``outcome``)."""
        return self.games[game].adapter(endpoint)

    def judge(self, body: dict[str, Any], lang: str = "fr") -> dict[str, Any]:
        """The answer of ``POST /api/v1/check`` to ``body``, with ``said``: THE check behind
        every referee screen and the API (schema, adapter, engine, words).

        Raises :class:`~companion.rules.i18n.RulesError` (naming the field) for a body the
        schema or the engine refuses as malformed; an illegal move is an answer, not an error.
        """
        game = body.get("game")
        if not isinstance(game, str) or game not in self.games:
            raise RulesError(self.unknown_game(), "game")
        self.check_schema(body, game, "check")
        answer = self.games[game].check(body, lang)
        answer["said"] = [text.get(lang) for text in self.narration(game, body, answer)]
        return answer

    def narration(self, game: str, body: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
        """What the legal move of ``body`` leads to, from the engine's ``answer`` (empty when illegal)."""
        if not answer.get("legal"):
            return []
        move = body.get("move") or {}
        if not isinstance(move, Mapping):
            return []
        return self.games[game].narration(body, move, answer)
