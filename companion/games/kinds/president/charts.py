"""Le Président's and Piketty's chart on their game page: points manche by manche."""

from __future__ import annotations

from typing import Any

from companion.charts import Chart, Point, line_chart, names_list, stored_figures
from companion.i18n import gettext as _
from companion.models import Game


def points_chart(game: Game, names: dict[str, str], draw_first: bool = False) -> Chart:
    """The running totals of points after each manche of a Président or Piketty game
    counting points. After a card draw (``draw_first``: Piketty's « tirage », stored as
    round 1, which scores nothing) the first manche played is manche 1 on the x axis."""
    seats = [str(p.id) for p in game.players]
    points: dict[str, list[Point]] = {p: [(0, 0)] for p in seats}
    last: dict[str, Any] = {}
    for number_, (totals,) in stored_figures(game, "totals"):
        if draw_first and number_ == 1:
            continue
        shown = number_ - 1 if draw_first else number_
        totals = totals or {}
        for p in seats:
            if p in totals:
                points[p].append((shown, int(totals[p])))
        last = totals or last
    sentences = [_("Points after each round.")]
    if last:
        high = max(int(v) for v in last.values())
        low = min(int(v) for v in last.values())
        top = [p for p in seats if int(last.get(p, low)) == high]
        sentences.append(_("Most points: %(names)s, %(total)d.", names=names_list(top, names), total=high))
        if low != high:
            bottom = [p for p in seats if int(last.get(p, high)) == low]
            sentences.append(_("Fewest: %(names)s, %(total)d.", names=names_list(bottom, names), total=low))
    return line_chart(
        [(names.get(p, p), points[p]) for p in seats],
        x_label=_("Round"),
        y_label=_("Points"),
        title=_("Points round by round"),
        summary=" ".join(sentences),
        chart_id="points-chart",
        x_names={0: _("start")},
        include=(0,),
    )
