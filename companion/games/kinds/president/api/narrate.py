"""Président's and Piketty's verdicts in the table's words (:mod:`companion.judge.narrate`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.judge.narrate import loses_turn, won_by, your_turn
from companion.rules.cards import parse_cards
from companion.rules.i18n import RulesError, Text
from companion.rules.president import Rules


def narration(body: Mapping[str, Any], move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    """What the legal ``move`` of ``body`` leads to at the table, from the engine's ``answer``."""
    effects = set(answer.get("effects") or ())
    mover = str(move.get("player"))
    nxt = answer.get("next_player")
    rules = got if isinstance(got := body.get("rules"), Mapping) else {}
    lines: list[Text] = []
    if "coup_detat" in effects:
        lines.append(
            Text(
                f"Coup d’État ! {mover} prend la présidence ; la manche s’arrête.",
                f"Coup d’État! {mover} takes the presidency; the manche ends.",
            )
        )
    if "guillotine" in effects:
        lines.append(
            Text(
                f"Guillotine ! {mover} prend la présidence et attribue la deuxième et la dernière place ; "
                "la manche s’arrête.",
                f"Guillotine! {mover} takes the presidency and names the second and the last; the manche ends.",
            )
        )
    if "revolution" in effects:
        if rules.get("revolution_swaps_titles"):
            lines.append(
                Text(
                    "Révolution ! Les titres s’inversent et la manche s’arrête, sans points.",
                    "Revolution! The titles are reversed and the manche ends, without points.",
                )
            )
        else:
            lines.append(Text("Révolution ! L’ordre des cartes s’inverse.", "Revolution! The card order is reversed."))
    if "counter_revolution" in effects:
        lines.append(
            Text(
                "Contre-révolution ! L’ordre des cartes s’inverse à nouveau.",
                "Counter-revolution! The card order is reversed again.",
            )
        )
    if "lock" in effects:
        lines.append(
            Text(
                "Le pli est verrouillé : on suit avec la même valeur, ou on passe.",
                "The trick is locked: follow with the same rank, or pass.",
            )
        )
    if "skip" in effects and answer.get("skipped"):
        lines.append(loses_turn(list(answer["skipped"])))
    shown = "finish_last" in effects and _jokers_shown(body, move)
    if shown:
        lines.append(
            Text(
                f"{mover} ne peut plus jouer ses jokers : dernière place.",
                f"{mover} can no longer play their jokers: last place.",
            )
        )
    elif "finish_last" in effects:
        lines.append(
            Text(
                f"{mover} sort sur une carte interdite : dernière place.",
                f"{mover} goes out on a forbidden card: last place.",
            )
        )
    elif "out" in effects:
        lines.append(Text(f"{mover} n’a plus de cartes.", f"{mover} has no cards left."))
    if answer.get("pile_to"):
        taker = answer["pile_to"]
        lines.append(Text(f"{taker} ramasse le tas.", f"{taker} takes the pile."))
    if "trick_won" in effects:
        lines.append(won_by(_trick_winner(body, move, shown), mover, nxt))
    elif nxt is not None:
        lines.append(your_turn(nxt))
    if nxt is None and effects & {"out", "finish_last", "coup_detat", "guillotine", "revolution"}:
        lines.append(Text("La manche est finie.", "The manche is over."))
    return lines


def _rules_of(body: Mapping[str, Any]) -> Rules | None:
    """The engine's rules of a Président body (None when they cannot be read)."""
    try:
        return Rules.from_options(body.get("rules"), str(body.get("game") or "president"))
    except RulesError:
        return None


def _shows_jokers(rules: Rules | None, entry: Mapping[str, Any]) -> bool:
    """Whether a move or trick entry is the engine's `joker_wild` dead end: jokers shown, not laid."""
    cards = entry.get("cards")
    if rules is None or not cards or not isinstance(cards, str | list):
        return False
    try:
        return rules.jokers_shown(parse_cards(cards))
    except RulesError:
        return False


def _jokers_shown(body: Mapping[str, Any], move: Mapping[str, Any]) -> bool:
    """RULES.md §1 (`joker_wild`): the mover was left holding only jokers and showed them."""
    return _shows_jokers(_rules_of(body), move)


def _trick_winner(body: Mapping[str, Any], move: Mapping[str, Any], shown: bool = False) -> str:
    """Who laid the cards that won the trick: the mover, or (after a pass, or jokers
    shown) the last to lay cards on it."""
    if move.get("cards") and not shown:
        return str(move.get("player"))
    state = got if isinstance(got := body.get("state"), Mapping) else {}
    trick = got if isinstance(got := state.get("trick"), list) else []
    rules = _rules_of(body)
    laid = [e for e in trick if isinstance(e, Mapping) and e.get("cards") and not _shows_jokers(rules, e)]
    return str(laid[-1].get("player")) if laid else str(move.get("player"))
