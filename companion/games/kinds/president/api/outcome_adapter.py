"""POST /api/v1/outcome for ``president`` and ``piketty`` (shared/API.md).

A thin adapter: it reads and validates the JSON body, calls
:func:`companion.rules.president_outcome.outcome` and writes the answer.  Anything
malformed raises :class:`RulesError` with the ``field`` it concerns; nothing else
is ever raised.

Request fields beyond API.md (all optional): ``putsch_banned`` (the player who
failed a putsch at the previous manche, so cannot putsch now), ``totals`` (points
before the manche: the answer then adds ``totals``, ``ended`` and ``losers``) and
``title_names`` (``{"1": "Le Chef", …}``: a group's own names for ranks).
Answer fields beyond API.md: ``aside`` (cards set aside face up), ``seats``
(clockwise from the Président), ``events``, ``finished_last``, ``putsch_banned``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.cards import Card, CardError, Rank, parse_cards
from companion.rules.i18n import RulesError, Text
from companion.rules.president import Rules
from companion.rules.president_outcome import Events, Guillotine, Outcome
from companion.rules.president_outcome import outcome as manche_outcome

#: A group's own title name is at most this long.
MAX_TITLE_NAME = 40
_RANK_WORDS = {r.value.upper(): r for r in Rank} | {"V": Rank.JACK, "D": Rank.QUEEN, "R": Rank.KING}


def _error(fr: str, en: str, field: str) -> RulesError:
    return RulesError(Text(fr, en), field)


def _name(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _error("Un nom de joueur est attendu.", "A player's name is expected.", field)
    return value


def _object(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _error("Un objet est attendu.", "An object is expected.", field)
    return value


def _names(value: object, field: str) -> list[str]:
    if not isinstance(value, list):
        raise _error("Une liste de joueurs est attendue.", "A list of players is expected.", field)
    return [_name(v, f"{field}[{i}]") for i, v in enumerate(value)]


def _known(name: str, players: list[str], field: str) -> str:
    if name not in players:
        raise RulesError(Text(f"Joueur inconnu : {name}.", f"Unknown player: {name}."), field)
    return name


def _cards(value: object, field: str) -> tuple[Card, ...]:
    if not isinstance(value, str | list):
        raise _error("Une liste de cartes est attendue.", "A list of cards is expected.", field)
    try:
        cards = parse_cards(value)
    except CardError as e:
        raise e.at(field) from None
    if not cards:
        raise _error("Il faut au moins une carte.", "At least one card is needed.", field)
    return cards


def _finished_on(value: object, players: list[str]) -> dict[str, tuple[Card, ...] | Rank | bool]:
    """``{"Ann": "2"}``: a rank, a card list, or true (the finish was forbidden) for each player.

    Only read here: the engine checks the names and counts the cards against the deck.
    """
    result: dict[str, tuple[Card, ...] | Rank | bool] = {}
    for name, raw in _object(value, "finished_on").items():
        field = f"finished_on.{name}"
        _known(name, players, field)
        if isinstance(raw, bool):
            result[name] = raw
        elif isinstance(raw, str) and raw.strip().upper() in _RANK_WORDS:
            result[name] = _RANK_WORDS[raw.strip().upper()]  # any card of that rank
        else:
            result[name] = _cards(raw, field)
    return result


def _events(value: object, players: list[str]) -> Events:
    raw = _object(value, "events")
    found: dict[str, Any] = {}
    for key, item in raw.items():
        field = f"events.{key}"
        if item is None:
            continue
        if key in ("putsch", "jeu_blanc", "coup_detat"):
            found[key] = _known(_name(item, field), players, field)
        elif key == "guillotine":
            parts = _object(item, field)
            for extra in parts:
                if extra not in ("player", "vice", "last"):
                    raise _error(
                        "La guillotine donne « player », « vice » et « last ».",
                        "A guillotine gives 'player', 'vice' and 'last'.",
                        f"{field}.{extra}",
                    )
            names = []
            for part in ("player", "vice", "last"):
                if part not in parts:
                    raise _error(f"Il manque « {part} ».", f"'{part}' is missing.", f"{field}.{part}")
                names.append(_known(_name(parts[part], f"{field}.{part}"), players, f"{field}.{part}"))
            found[key] = Guillotine(*names)
        elif key == "revolution":
            # true, or the name of the player who laid it
            if isinstance(item, bool):
                if item:
                    found[key] = True
            else:
                _known(_name(item, field), players, field)
                found[key] = True
        else:
            raise _error(
                f"Événement inconnu : « {key} ».",
                f"Unknown event: '{key}'.",
                field,
            )
    return Events(**found)


def _draw(value: object, players: list[str]) -> dict[str, tuple[Card, ...]]:
    draws: dict[str, tuple[Card, ...]] = {}
    for name, raw in _object(value, "draw").items():
        field = f"draw.{name}"
        _known(name, players, field)
        draws[name] = _cards(raw, field)
    return draws


def _totals(value: object, players: list[str]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for name, raw in _object(value, "totals").items():
        field = f"totals.{name}"
        _known(name, players, field)
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise _error("Un total est un nombre entier.", "A total is a whole number.", field)
        totals[name] = raw
    return {p: totals.get(p, 0) for p in players}


def _title_names(value: object, n: int) -> dict[int, str]:
    renames: dict[int, str] = {}
    for key, raw in _object(value, "title_names").items():
        field = f"title_names.{key}"
        if not key.isdecimal() or not 1 <= int(key) <= n:
            raise _error(f"Un rang va de 1 à {n}.", f"A rank goes from 1 to {n}.", field)
        if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_TITLE_NAME:
            raise _error(
                f"Un titre est un nom de 1 à {MAX_TITLE_NAME} caractères.",
                f"A title is a name of 1 to {MAX_TITLE_NAME} characters.",
                field,
            )
        renames[int(key)] = raw.strip()
    return renames


def _optional(body: Mapping[str, Any], key: str) -> object:
    """An optional object field: absent or null reads as an empty object."""
    value = body.get(key)
    return {} if value is None else value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise _error("Oui ou non (true / false) est attendu.", "true or false is expected.", field)
    return value


def outcome(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """The answer to POST /api/v1/outcome for ``president`` or ``piketty``."""
    game = body.get("game")
    if not isinstance(game, str):
        raise _error("Il manque le jeu (« game »).", "The game ('game') is missing.", "game")
    rules = Rules.from_options(body.get("rules"), game=game)
    if "players" not in body:
        raise _error("Il manque les joueurs (« players »).", "The players ('players') are missing.", "players")
    players = _names(body["players"], "players")
    n = len(players)
    if len(set(players)) != n:
        raise _error("Un joueur figure deux fois.", "A player is listed twice.", "players")
    try:
        rules.check_players(n)
    except RulesError as e:
        raise RulesError(e.text, "players") from None
    finish = _names(body.get("finish", []), "finish")
    first = _bool(body.get("first", False), "first")
    draw = None
    if body.get("draw") is not None:
        if "first" in body and not first:
            raise _error(
                "Un tirage ne se fait qu’à la première manche.",
                "A draw is only made for the first manche.",
                "first",
            )
        draw = _draw(body["draw"], players)
    finished_on = _finished_on(_optional(body, "finished_on"), players)
    events = _events(_optional(body, "events"), players)
    banned = body.get("putsch_banned")
    if banned is not None:
        banned = _known(_name(banned, "putsch_banned"), players, "putsch_banned")
    totals = _totals(body["totals"], players) if body.get("totals") is not None else None
    renames = _title_names(_optional(body, "title_names"), n)
    result = manche_outcome(
        rules,
        players,
        finish=finish,
        finished_on=finished_on,
        events=events,
        first=first,
        draw=draw,
        putsch_banned=banned,
        totals=totals,
        renames=renames,
    )
    return to_json(result, lang)


def to_json(result: Outcome, lang: str) -> dict[str, Any]:
    """An :class:`Outcome` in the shape of API.md."""
    answer: dict[str, Any] = {
        "titles": [{"player": t.player, "title": t.name.get(lang), "rank": t.rank} for t in result.titles],
        "exchanges": [
            {"from": e.giver, "to": e.receiver, "count": e.count, "cards": e.cards, "jokers": e.jokers}
            for e in result.exchanges
        ],
        "points": dict(result.points),
        "dealer": result.dealer,
        "leader": result.leader,
        "deal": dict(result.deal.counts),
        "aside": result.deal.aside,
        "seats": list(result.hierarchy),
        "events": list(result.events),
        "finished_last": list(result.finished_last),
        "putsch_banned": result.putsch_banned,
    }
    if result.standing is not None:
        answer["totals"] = dict(result.standing.totals)
        answer["ended"] = result.standing.ended
        answer["losers"] = list(result.standing.losers)
    return answer
