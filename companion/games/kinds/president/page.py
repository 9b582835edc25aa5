"""What the game page of le Président and Piketty shows beyond the shared page: the
board and its titles, the exchanges and events of the last manche in words, the house
rules, the points chart; and what an edit changed (:func:`summary`).
"""

from __future__ import annotations

from typing import Any

from companion.games.kinds.base import GameKind, figure_changes
from companion.games.kinds.president import charts
from companion.games.kinds.president.options import house_rules, rules_of
from companion.games.kinds.president.state import PresidentState, starts_reversed
from companion.i18n import current_lang, ngettext
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules.cards import Card


def _title(state: PresidentState, player: str, lang: str) -> str:
    for t in state.get("titles") or []:
        if t["player"] == player:
            return str(t["fr"] if lang == "fr" else t["en"])
    return ""


def exchange_lines(state: PresidentState, names: dict[str, str]) -> list[str]:
    """The exchanges of the next manche in plain words, outermost pair first."""
    lines = []
    for x in state.get("exchanges") or []:
        if x["cards"] != "best":
            continue
        lines.append(
            ngettext(
                "%(giver)s gives their best card to %(receiver)s, who gives back a card of their choice.",
                "%(giver)s gives their %(num)d best cards to %(receiver)s, "
                "who gives back %(num)d cards of their choice.",
                x["count"],
                giver=names.get(x["from"], x["from"]),
                receiver=names.get(x["to"], x["to"]),
            )
        )
    return lines


def event_lines(state: PresidentState, names: dict[str, str]) -> list[str]:
    """What happened in the manche that led to ``state``, in words."""
    raw = state.get("event") or {}
    lines = []
    for event in state.get("events") or []:
        if event == "draw":
            lines.append(_("Titles drawn by cards."))
        elif event == "putsch_succeeded":
            lines.append(_("Putsch succeeded: %(name)s.", name=names.get(raw.get("putsch", ""), "")))
        elif event == "putsch_failed":
            lines.append(
                _(
                    "Putsch failed: %(name)s loses a point and may not try again at the next manche.",
                    name=names.get(raw.get("putsch", ""), ""),
                )
            )
        elif event == "jeu_blanc":
            lines.append(_("Jeu blanc: %(name)s takes the presidency; no points.", name=names.get(raw["jeu_blanc"])))
        elif event == "coup_detat":
            lines.append(_("Coup d’État: %(name)s takes the presidency; no points.", name=names.get(raw["coup_detat"])))
        elif event == "guillotine":
            g = raw["guillotine"]
            lines.append(
                _(
                    "Guillotine: %(name)s takes the presidency, %(vice)s comes second and %(last)s last; no points.",
                    name=names.get(g["player"]),
                    vice=names.get(g["vice"]),
                    last=names.get(g["last"]),
                )
            )
        elif event == "revolution":
            lines.append(_("Revolution: the titles are reversed; no points."))
        elif event == "finish_last":
            lines.append(
                _(
                    "Went out on a forbidden card, so ranked last: %(names)s.",
                    names=", ".join(names.get(p, p) for p in state.get("finished_last") or []),
                )
            )
    return lines


def summary(before: PresidentState, after: PresidentState, names: dict[str, str]) -> list[str]:
    """What an edit changed between two states: the titles, the totals, the winners."""
    lines = []
    if before.get("hierarchy") != after.get("hierarchy"):
        order = ", ".join(names.get(p, p) for p in after.get("hierarchy", []))
        lines.append(_("Titles now, best first: %(names)s", names=order))
    return lines + figure_changes(before, after, names, "totals")


def manche_played(state: PresidentState) -> bool:
    """Whether a manche was played before ``state`` (not only the card draw, which
    gives titles and scores nothing)."""
    return not state.get("first") and "draw" not in (state.get("events") or [])


def standing(state: PresidentState, points: bool) -> list[tuple[str, int | None]]:
    """The game page's board: (player, place). With points, once a manche has scored,
    by total, highest first, each numbered by its place by total (equal totals sharing
    it; seats break the order). Otherwise by seat (the seats follow the titles), numbered
    by nothing: a title says its rank, and a number beside a total would read as a place."""
    hierarchy = list(state.get("hierarchy") or [])
    totals = state.get("totals") or {}
    if not points or not totals or not manche_played(state):
        return [(p, None) for p in hierarchy]
    ranked = sorted(hierarchy, key=lambda p: -int(totals.get(p, 0)))
    return [(p, 1 + sum(1 for q in hierarchy if int(totals.get(q, 0)) > int(totals.get(p, 0)))) for p in ranked]


def page_context(
    kind: GameKind[PresidentState], game: Game, state: PresidentState, names: dict[str, str]
) -> dict[str, Any]:
    """What the game template needs beyond the game, its state and its rounds."""
    rules = rules_of(game)
    lang = current_lang()
    hierarchy = list(state.get("hierarchy") or [])
    last = hierarchy[-1] if hierarchy else None
    putsch_possible = (
        rules.putsch and not state.get("first") and last is not None and last != state.get("putsch_banned")
    )
    deal = state.get("deal") or {}
    return {
        "rules": rules,
        "board": hierarchy,
        "standing": standing(state, rules.points),
        "title_of": {p: _title(state, p, lang) for p in hierarchy},
        "exchanges": exchange_lines(state, names),
        "jokers_kept": rules.jokers > 0 and not rules.joker_exchangeable,
        "putsch_note": names.get(last or "", "") if putsch_possible and state.get("exchanges") else None,
        "events": event_lines(state, names),
        "reversed_next": starts_reversed(state),
        "house_rules": house_rules(rules),
        "even_deal": len(set(deal.values())) == 1,
        "deal_each": next(iter(deal.values()), 0),
        "winner_names": [names.get(p, p) for p in (game.ending or {}).get("winners", state.get("winners") or [])],
        "loser_names": [names.get(p, p) for p in state.get("losers") or []],
        "manche_events": lambda result: event_lines(result, names),
        "draw_cards": lambda cards: [Card.parse(c) for c in cards],
        "names_of": lambda ids: [names.get(p, p) for p in ids],
        # Drawn only by the game page (one query, when it is called), when points are
        # counted and a manche has scored them: after a card draw alone (Piketty's first
        # titles) there is nothing to draw, and no empty frame either.
        "points_chart": (
            (lambda: charts.points_chart(game, names, kind.draws_first(game)))
            if rules.points and manche_played(state)
            else None
        ),
    }
