"""JSON adapter of whist with a tarot deck (shared/API.md, ``whist-tarot``).

Translates request bodies into :mod:`companion.rules.whist_tarot` objects and the
engine's answers back into JSON.  Anything malformed raises
:class:`~companion.rules.i18n.RulesError` with the offending ``field``; the rules
themselves are decided by the engine only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.judge import fields
from companion.rules.cards import Card, CardError, parse_cards
from companion.rules.i18n import RulesError, Text
from companion.rules.whist_tarot import DECK, Bid, Deal, Move, Play, settle


def check(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """POST /api/v1/check for ``whist-tarot``: is this bid or card legal here?"""
    _check_rules(body)
    state = fields.json_object(body, "state", "state")
    raw_move = fields.json_object(body, "move", "move")
    deal = _deal(state)
    move = _move(raw_move)
    try:
        verdict = deal.check(move)
    except RulesError as e:
        raise e.at("move") from None
    answer = fields.verdict_answer(verdict, lang)
    if isinstance(move, Bid):
        answer["forbidden_bid"] = verdict.forbidden_bid
    if verdict.trick_winner is not None:
        answer["trick_winner"] = verdict.trick_winner
    return answer


def outcome(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """POST /api/v1/outcome for ``whist-tarot``: losses, stakes, end, winners, next deal."""
    _check_rules(body)
    players = fields.names(body, "players", "players")
    blind = body.get("blind", False)
    result = settle(
        players,
        fields.name(body, "dealer", "dealer"),
        fields.required(body, "cards", "cards"),
        blind,
        _counts(body, "stakes"),
        _counts(body, "bids"),
        _counts(body, "tricks"),
    )
    return {
        "losses": dict(result.losses),
        "stakes": dict(result.stakes),
        "ended": result.ended,
        "winners": list(result.winners),
        "next": {"dealer": result.next.dealer, "cards": result.next.cards, "blind": result.next.blind},
    }


# -- reading the request ------------------------------------------------------------


def _check_rules(body: Mapping[str, Any]) -> None:
    """Whist with a tarot deck has no option and no preset: any given one is unknown."""
    rules = body.get("rules")
    if rules is None:
        return
    if not isinstance(rules, dict):
        raise RulesError(Text("« rules » est un objet JSON.", "'rules' is a JSON object."), "rules")
    for key in rules:
        if key == "preset":
            raise RulesError(
                Text("Variante inconnue pour le whist au tarot.", "Unknown preset for whist with a tarot deck."),
                "rules.preset",
            )
        raise RulesError(Text(f"Option inconnue : {key}.", f"Unknown option: {key}."), f"rules.{key}")


def _counts(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = fields.required(data, key, key)
    if not isinstance(value, dict):
        raise RulesError(Text("Un nombre par joueur est attendu.", "A number per player is expected."), key)
    return value


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(Text("Un nombre entier est attendu.", "A whole number is expected."), where)
    return value


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise RulesError(
            Text("Une carte s’écrit comme « T14 » ou « EX ».", "A card is written like 'T14' or 'EX'."), where
        )
    try:
        card = Card.parse(value)
        DECK.check([card])
    except CardError as e:
        raise RulesError(e.text, where) from None
    return card


def _excuse(entry: Mapping[str, Any], where: str) -> int | None:
    value = entry.get("excuse")
    if value is None:
        return None
    if value not in (0, 22) or isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(Text("L’Excuse vaut 0 ou 22.", "The Excuse is worth 0 or 22."), where)
    return int(value)


def _play(entry: Mapping[str, Any], where: str) -> Play:
    player = fields.name(entry, "player", f"{where}.player")
    card = _card(fields.required(entry, "card", f"{where}.card"), f"{where}.card")
    excuse = _excuse(entry, f"{where}.excuse")
    try:
        return Play(player, card, excuse)
    except RulesError as e:
        raise e.at(where) from None


def _deal(state: Mapping[str, Any]) -> Deal:
    players = fields.names(state, "players", "state.players")
    dealer = fields.name(state, "dealer", "state.dealer")
    cards = _int(fields.required(state, "cards", "state.cards"), "state.cards")
    blind = state.get("blind", False)
    if not isinstance(blind, bool):
        raise RulesError(Text("« blind » vaut true ou false.", "'blind' is true or false."), "state.blind")
    bids: dict[str, int] | None = None
    if state.get("bids") is not None:
        raw_bids = state["bids"]
        if not isinstance(raw_bids, dict):
            raise RulesError(
                Text("Un nombre par joueur est attendu.", "A number per player is expected."), "state.bids"
            )
        bids = {name: _int(value, f"state.bids.{name}") for name, value in raw_bids.items()}
    raw_trick = state.get("trick", [])
    if not isinstance(raw_trick, list):
        raise RulesError(Text("Le pli est une liste.", "The trick is a list."), "state.trick")
    trick = []
    for i, entry in enumerate(raw_trick):
        if not isinstance(entry, dict):
            raise RulesError(
                Text("Chaque carte du pli est un objet JSON.", "Each card of the trick is a JSON object."),
                f"state.trick[{i}]",
            )
        trick.append(_play(entry, f"state.trick[{i}]"))
    leader = None
    if state.get("leader") is not None:
        leader = fields.name(state, "leader", "state.leader")
    played: tuple[Card, ...] = ()
    if state.get("played") is not None:
        try:
            played = parse_cards(state["played"])
        except CardError as e:
            raise e.at("state.played") from None
    try:
        return Deal(tuple(players), dealer, cards, bids, tuple(trick), leader, played, blind)
    except RulesError as e:
        raise e.at("state") from None


def _move(raw: Mapping[str, Any]) -> Move:
    player = fields.name(raw, "player", "move.player")
    has_bid = raw.get("bid") is not None
    has_card = raw.get("card") is not None
    if has_bid == has_card:
        raise RulesError(
            Text("Un coup est une annonce (« bid ») ou une carte (« card »).", "A move is a 'bid' or a 'card'."),
            "move",
        )
    if has_bid:
        return Bid(player, _int(raw["bid"], "move.bid"))
    return _play(raw, "move")
