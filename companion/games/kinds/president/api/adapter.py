"""POST /api/v1/check for ``president`` and ``piketty`` (shared/API.md): JSON <-> engine.

Thin on purpose: :class:`~companion.rules.president.Table` decides; this module only
reads the body and writes the response.  Malformed input raises
:class:`~companion.rules.i18n.RulesError` with the field at fault.
"""

from __future__ import annotations

from typing import Any

from companion.judge import fields
from companion.rules.i18n import RulesError, Text
from companion.rules.president import Effect, Play, Rules, Table


def check(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """Judge ``body["move"]`` on ``body["state"]`` under ``body["rules"]``.

    >>> body = {"game": "president", "state": {"players": ["Ann", "Bob", "Cid"],
    ...         "trick": [{"player": "Ann", "cards": ["9h"]}]}, "move": {"player": "Bob", "cards": ["8c"]}}
    >>> check(body, "fr")
    {'legal': False, 'rule': 'rank', 'effects': [], 'next_player': None, 'reason': 'Il faut jouer plus haut que 9.'}
    """
    game = body.get("game", "president")
    if not isinstance(game, str):
        raise RulesError(Text("Jeu inconnu.", "Unknown game."), field="game")
    rules = Rules.from_options(body.get("rules"), game=game)
    if "state" not in body:
        raise RulesError(Text("Il manque l’état de la table.", "The state is missing."), field="state")
    table = Table.from_state(body["state"], rules)
    if "move" not in body:
        raise RulesError(Text("Il manque le coup à juger.", "The move is missing."), field="move")
    play = Play.from_json(body["move"], table.players, "move")
    verdict = table.check(play)
    response = fields.verdict_answer(verdict, lang)
    if Effect.SKIP in verdict.effects:
        response["skipped"] = list(verdict.skipped)
    if verdict.pile_to is not None:
        response["pile_to"] = verdict.pile_to
    return response
