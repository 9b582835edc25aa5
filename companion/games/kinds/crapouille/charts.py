"""La crapouille's chart on its game page: totals hand by hand, with the line of 300."""

from __future__ import annotations

from typing import Any

from companion.charts import Chart, Point, line_chart, names_list, stored_figures
from companion.i18n import gettext as _
from companion.models import Game


def totals_chart(game: Game, names: dict[str, str], limit: int) -> Chart:
    """Each player's total after each hand of a crapouille game, with the line of
    ``limit`` (300); a player's line stops at the hand that put them out."""
    seats = [str(p.id) for p in game.players]
    points: dict[str, list[Point]] = {p: [(0, 0)] for p in seats}
    crossed: dict[str, int] = {}
    last: dict[str, Any] = {}
    for number_, (totals, scored) in stored_figures(game, "totals", "points"):
        totals, scored = totals or {}, scored or {}
        for p in seats:
            if p in scored and p in totals:
                points[p].append((number_, int(totals[p])))
                if int(totals[p]) > limit and p not in crossed:
                    crossed[p] = number_
        last = totals
    sentences = [_("Totals after each hand.")]
    for p, hand in sorted(crossed.items(), key=lambda item: (item[1], seats.index(item[0]))):
        sentences.append(_("%(name)s goes past %(limit)d at hand %(n)d.", name=names.get(p, p), limit=limit, n=hand))
    still = [p for p in seats if p not in crossed and p in last]
    if still:
        best = min(int(last[p]) for p in still)
        leaders = [p for p in still if int(last[p]) == best]
        sentences.append(_("Lowest total: %(names)s, %(total)d.", names=names_list(leaders, names), total=best))
    return line_chart(
        [(names.get(p, p), points[p]) for p in seats],
        x_label=_("Hand"),
        y_label=_("Total"),
        title=_("Totals hand by hand"),
        summary=" ".join(sentences),
        chart_id="totals-chart",
        reference=(limit, _("%(limit)d: out", limit=limit)),
        x_names={0: _("start")},
    )
