"""A game's house rules in plain words, and a page of the rules as Companion applies
them, per kind of game.

- ``referee.house_rules`` (``/g/<code>/games/<id>/rules``): each house rule of that game
  that is on, explained, with the seed's example; what is off, briefly; and the game's
  basic settings (deck, titles, exchanges, points; the deal; the stakes).
- ``referee.rules_page`` (``/rules/<kind>``): the rules of a kind as Companion applies
  them (docs/rules.md), one template per language (``referee/rules_<kind>.<lang>.html``:
  long prose reads better as a page than as a hundred msgids), followed by every house
  rule the kind offers.

What each kind says of its options lives with the kind (:attr:`GameKind.rules_pages
<companion.games.kinds.base.GameKind.rules_pages>`, a
:class:`~companion.games.rules_pages.RulesPages` in the kind's own ``rules_pages``
module): these pages ask it, and name no kind.

Both pages read the game's stored options (two queries at most) and never run a
manche: the engine is only asked what the options mean (deck sizes, title names,
exchange counts).
"""

from __future__ import annotations

from typing import Any

from flask import abort, render_template

from companion.games.kinds import KINDS
from companion.i18n import current_lang
from companion.membership.access import group_and_game
from companion.referee import bp


def rules_pages() -> dict[str, str]:
    """The rules pages: kind id → template stem (``referee/rules_<stem>.<lang>.html``), for
    each kind with a rules page (:attr:`GameKind.rules_pages
    <companion.games.kinds.base.GameKind.rules_pages>`), in the order of its links (read
    from :data:`~companion.games.kinds.KINDS` at each call)."""
    pages = {k.id: k.rules_pages for k in KINDS.values() if k.rules_pages is not None}
    return {k: pages[k].stem(k) for k in sorted(pages, key=lambda k: pages[k].rank(k))}


@bp.get("/g/<code>/games/<int:game_id>/rules", endpoint="house_rules")
def game_rules(code: str, game_id: int) -> str:
    """The house rules of one game: what is on, explained; what is off; its settings."""
    group, game = group_and_game(code, game_id)
    kind = KINDS.get(game.kind)
    if kind is None or kind.rules_pages is None:
        abort(404)
    context = kind.rules_pages.game_context(game)
    return render_template(
        "referee/house_rules.html",
        group=group,
        game=game,
        kind=kind,
        has_rules_page=game.kind in rules_pages(),
        **context,
    )


@bp.get("/rules/<kind_id>")
def rules_page(kind_id: str) -> str:
    """The rules of a kind of game as Companion applies them, in the page's language."""
    pages = rules_pages()
    stem = pages.get(kind_id)
    kind = KINDS.get(kind_id)
    if stem is None or kind is None or kind.rules_pages is None:
        abort(404)
    lang = current_lang()
    others = [(k, KINDS[k].name) for k in pages if k != kind_id and k in KINDS]
    context: dict[str, Any] = {"kind": kind, "options": [], "presets": [], "settings": [], "others": others}
    context.update(kind.rules_pages.page_context(kind_id, lang))
    return render_template(f"referee/rules_{stem}.{lang}.html", **context)
