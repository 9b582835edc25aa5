"""Whist's chart on its game page: each player's stake after each settled deal."""

from __future__ import annotations

from typing import Any

from companion.charts import Chart, Point, line_chart, stored_figures
from companion.i18n import gettext as _
from companion.models import Game


def stakes_chart(game: Game, names: dict[str, str], stake: int) -> Chart:
    """Each player's stake after each settled deal of a whist game (a deal still
    waiting for its tricks is not drawn)."""
    seats = [str(p.id) for p in game.players]
    points: dict[str, list[Point]] = {p: [(0, stake)] for p in seats}
    emptied: dict[str, int] = {}
    last: dict[str, Any] = dict.fromkeys(seats, stake)
    for number_, (stakes, pending) in stored_figures(game, "stakes", "pending"):
        if pending or not stakes:
            continue
        for p in seats:
            if p in stakes:
                points[p].append((number_, int(stakes[p])))
                if int(stakes[p]) <= 0 and p not in emptied:
                    emptied[p] = number_
        last = stakes
    sentences = [_("Stakes after each hand, from %(stake)d cards.", stake=stake)]
    for p, hand in sorted(emptied.items(), key=lambda item: (item[1], seats.index(item[0]))):
        sentences.append(_("The stake of %(name)s runs out at hand %(n)d.", name=names.get(p, p), n=hand))
    ranked = sorted(seats, key=lambda p: -int(last.get(p, 0)))
    sentences.append(
        _("Stakes now: %(list)s.", list=", ".join(f"{names.get(p, p)} {int(last.get(p, 0))}" for p in ranked))
    )
    return line_chart(
        [(names.get(p, p), points[p]) for p in seats],
        x_label=_("Hand"),
        y_label=_("Stake"),
        title=_("Stakes hand by hand"),
        summary=" ".join(sentences),
        chart_id="stakes-chart",
        x_names={0: _("start")},
        include=(0, stake),
    )
