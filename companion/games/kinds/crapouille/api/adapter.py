"""JSON adapter of la crapouille (shared/API.md, ``crapouille``).

``check`` judges one move with :class:`companion.rules.crapouille.Pile`; ``outcome``
scores a hand with :class:`companion.rules.crapouille.Scoresheet`.  Anything
malformed raises :class:`~companion.rules.i18n.RulesError` with the offending
``field``; the rules themselves are decided by the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.judge import fields
from companion.rules.cards import Card, CardError, Suit, parse_cards
from companion.rules.crapouille import (
    DECK,
    Draw,
    Options,
    Pile,
    PlayCard,
    PlayMove,
    Scoresheet,
)
from companion.rules.i18n import RulesError, Text

_SUITS = {s.value: s for s in Suit} | {"♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES}


def check(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """POST /api/v1/check for ``crapouille``: may this card go on the pile, may he draw?"""
    options = _options(body)
    state = fields.json_object(body, "state", "state")
    raw_move = fields.json_object(body, "move", "move")
    players = fields.names(state, "players", "state.players")
    direction = state.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool) or not isinstance(direction, int):
        raise RulesError(Text("Le sens vaut 1 ou −1.", "The direction is 1 or −1."), "state.direction")
    pile = _cards(fields.required(state, "pile", "state.pile"), "state.pile")
    asked = _suit(state.get("asked"), "state.asked")
    turn = fields.name(state, "turn", "state.turn")
    hand = None if state.get("hand") is None else _cards(state["hand"], "state.hand")
    try:
        table = Pile(tuple(players), pile, direction, asked, turn, options)
    except RulesError as e:
        raise e.at("state") from None
    move = _move(raw_move)
    try:
        verdict = table.check(move, hand)
    except RulesError as e:
        # The engine names hand cards ``hand[i]`` and pile cards ``pile[i]``: they are in the state.
        if e.field is not None and e.field.startswith(("hand", "pile")):
            raise e.at("state") from None
        raise e.at("move") from None
    answer = fields.verdict_answer(verdict, lang)
    if verdict.target is not None:
        answer["target"] = verdict.target
    if verdict.skipped:
        answer["skipped"] = list(verdict.skipped)
    if verdict.legal:
        answer["direction"] = verdict.direction
        answer["asked"] = None if verdict.asked is None else verdict.asked.value
    return answer


def outcome(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """POST /api/v1/outcome for ``crapouille``: points, totals, eliminations, end, ranking, places."""
    _options(body)
    players = fields.names(body, "players", "players")
    totals = body.get("totals")
    if totals is None:
        totals = {}
    if not isinstance(totals, dict):
        raise RulesError(Text("Un total par joueur est attendu.", "A total per player is expected."), "totals")
    winner = fields.name(body, "winner", "winner")
    hands: dict[str, tuple[Card, ...]] = {}
    if body.get("hands") is not None:
        raw_hands = body["hands"]
        if not isinstance(raw_hands, dict):
            raise RulesError(
                Text("Les cartes de chaque joueur sont attendues.", "Each player's cards are expected."), "hands"
            )
        hands = {name: _cards(cards, f"hands.{name}") for name, cards in raw_hands.items()}
    points: dict[str, int] = {}
    if body.get("points") is not None:
        raw_points = body["points"]
        if not isinstance(raw_points, dict):
            raise RulesError(Text("Un total par joueur est attendu.", "A total per player is expected."), "points")
        points = raw_points
    sheet = Scoresheet.start(players, totals)
    result = sheet.score_hand(winner, hands=hands, points=points)
    return {
        "points": dict(result.points),
        "totals": dict(result.totals),
        "eliminated": list(result.eliminated),
        "over": result.over,
        "ranking": result.ranking,
        "places": result.places,
        "winners": list(result.winners),
    }


# -- reading the request ------------------------------------------------------------


def _options(body: Mapping[str, Any]) -> Options:
    return Options.from_options(body.get("rules"))


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RulesError(Text(f"« {key} » vaut true ou false.", f"'{key}' is true or false."), f"move.{key}")
    return value


def _suit(value: Any, where: str) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str) or value.strip().lower() not in _SUITS:
        raise RulesError(Text("Une couleur s’écrit c, d, h ou s.", "A suit is written c, d, h or s."), where)
    return _SUITS[value.strip().lower()]


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(value)
        DECK.check(cards)
        for i, card in enumerate(cards):
            if card.trump is not None:
                raise CardError(
                    Text("Cette carte ne se joue pas à la crapouille.", "This card is not used in la crapouille."),
                    f"[{i}]",
                )
    except CardError as e:
        raise e.at(where) from None
    return cards


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str) or len(value.split()) > 1:
        raise RulesError(
            Text("Une carte s’écrit comme « 10h » ou « Qs ».", "A card is written like '10h' or 'Qs'."), where
        )
    try:
        card = Card.parse(value)
    except CardError as e:
        raise RulesError(e.text, where) from None
    if card.trump is not None:
        raise RulesError(
            Text("Cette carte ne se joue pas à la crapouille.", "This card is not used in la crapouille."), where
        )
    return card


def _move(raw: Mapping[str, Any]) -> PlayMove:
    player = fields.name(raw, "player", "move.player")
    draw = _flag(raw, "draw", False)
    has_card = raw.get("card") is not None
    if draw == has_card:
        raise RulesError(
            Text(
                "Un coup est une carte (« card ») ou une pioche (« draw »: true).",
                "A move is a 'card' or a draw ('draw': true).",
            ),
            "move",
        )
    announced = _flag(raw, "announced", True)
    if draw:
        drawn = None if raw.get("drawn") is None else _card(raw["drawn"], "move.drawn")
        return Draw(player, drawn, announced)
    card = _card(raw["card"], "move.card")
    return PlayCard(player, card, _suit(raw.get("asked"), "move.asked"), _flag(raw, "last", False), announced)
