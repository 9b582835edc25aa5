"""La crapouille on the web: rounds stored as entered, scored by the engine.

Players are identified by their id (as a string) when talking to the engine, so a
renamed player keeps his scores.
"""

from __future__ import annotations

from typing import Any

from companion.models import Game, Round
from companion.rules import crapouille
from companion.rules.cards import format_cards, parse_cards


def pid(player_id: int) -> str:
    """A player id as the engine names players."""
    return str(player_id)


def sheet_before(game: Game, rounds: list[Round] | None = None) -> crapouille.Scoresheet:
    """The scoresheet after ``rounds`` (all the game's rounds by default), replayed
    through the engine from what the players entered."""
    sheet = crapouille.Scoresheet.start([pid(p.id) for p in game.players])
    for rnd in game.rounds if rounds is None else rounds:
        sheet = score(sheet, rnd.entry).sheet
    return sheet


def score(sheet: crapouille.Scoresheet, entry: dict[str, Any]) -> crapouille.HandResult:
    """Score one entered hand (raises the engine's RulesError on bad input)."""
    hands = {player: parse_cards(cards) for player, cards in (entry.get("hands") or {}).items()}
    return sheet.score_hand(entry["winner"], hands=hands, points=entry.get("points"))


def entry_for(winner: str, hands: dict[str, Any], points: dict[str, int]) -> dict[str, Any]:
    """What is stored of a hand as entered: the winner, cards (canonical) or totals."""
    return {
        "winner": winner,
        "hands": {p: format_cards(cards).split() for p, cards in hands.items()},
        "points": dict(points),
    }


def result_for(outcome: crapouille.HandResult) -> dict[str, Any]:
    """What is stored of the engine's result beside the entry."""
    sheet = outcome.sheet
    return {
        "points": dict(outcome.points),
        "totals": dict(sheet.totals),
        "eliminated": list(outcome.eliminated),
        "in_play": list(sheet.in_play),
        "over": sheet.over,
        "places": sheet.places(),
        "ranking": sheet.ranking() if sheet.over else [],
        "winners": sheet.winners(),
    }
