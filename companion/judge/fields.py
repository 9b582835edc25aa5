"""Reading JSON request fields, shared by the API adapters.

Each helper raises :class:`~companion.rules.i18n.RulesError` naming the field
(``where``) when the value is missing or of the wrong type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.i18n import RulesError, Text


def required(data: Mapping[str, Any], key: str, where: str) -> Any:
    """``data[key]``, which must be there."""
    if key not in data:
        raise RulesError(Text(f"Il manque « {key} ».", f"'{key}' is missing."), where)
    return data[key]


def json_object(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    """``data[key]``, a JSON object."""
    value = required(data, key, where)
    if not isinstance(value, dict):
        raise RulesError(Text(f"« {key} » est un objet JSON.", f"'{key}' is a JSON object."), where)
    return value


def name(data: Mapping[str, Any], key: str, where: str) -> str:
    """``data[key]``, a player's name."""
    value = required(data, key, where)
    if not isinstance(value, str):
        raise RulesError(Text("Un nom de joueur est attendu.", "A player's name is expected."), where)
    return value


def names(data: Mapping[str, Any], key: str, where: str) -> list[str]:
    """``data[key]``, a list of player names."""
    value = required(data, key, where)
    if not isinstance(value, list):
        raise RulesError(Text("Une liste de joueurs est attendue.", "A list of players is expected."), where)
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise RulesError(Text("Un nom de joueur est attendu.", "A player's name is expected."), f"{where}[{i}]")
    return value


def verdict_answer(verdict: Any, lang: str) -> dict[str, Any]:
    """The fields every check answer has (API.md): ``legal``, ``rule``, ``effects``,
    ``next_player`` (null when illegal) and, when illegal, ``reason`` in ``lang``.

    ``verdict`` is any game's engine verdict: they all carry these attributes.
    """
    answer: dict[str, Any] = {
        "legal": verdict.legal,
        "rule": None if verdict.rule is None else verdict.rule.value,
        "effects": [e.value for e in verdict.effects],
        "next_player": verdict.next_player if verdict.legal else None,
    }
    if verdict.reason is not None:
        answer["reason"] = verdict.reason.get(lang)
    return answer
