"""Giving the round to come to another dealer by hand (a misdeal: the table gives the
deal to someone else), for a kind that lets the table do so
(:attr:`~companion.games.kinds.base.GameKind.dealer_by_hand`). Nothing here knows a
kind: the kind says who may deal (:meth:`~companion.games.kinds.base.GameKind.dealers`)
and who deals now (:meth:`~companion.games.kinds.base.GameKind.turn`).

The choice is kept in the game's setup as ``next_dealer`` — ``{"number": n, "dealer":
id}``, the round it is for — which the kind honours while round ``n`` is the next one.
Like every write to a game it names the version the page was shown at
(:func:`companion.writes.claim`): a stale page changes nothing, the same form sent
twice changes once; it moves the version on (other phones' pages and the display
follow) and is kept in the game's history (``dealer_changed``, with the round's number,
the dealer before and the one chosen).
"""

from __future__ import annotations

import sqlalchemy as sa
from flask import abort, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.forms import plain_int
from companion.games import bp, rounds
from companion.games.history import record
from companion.games.kinds import kind_for
from companion.games.kinds.base import GameKind, State
from companion.games.saving import save
from companion.i18n import gettext as _
from companion.membership.access import group_game_live_and_last
from companion.models import Game, GameChange, GameStatus
from companion.writes import claim, read_first, start_writing, tell_outbox

#: The change the history records.
CHANGE = "dealer_changed"


@bp.post("/g/<code>/games/<int:game_id>/dealer")
def change_dealer(code: str, game_id: int) -> Response:
    """Give the round to come to the player posted as ``dealer`` (one still in), if the
    game is still at the posted ``version``; back to the game page, saying what became
    of it. A 404 for a kind whose dealer is not changed by hand."""
    read_first()  # the writers' turn is taken for the write only (claim checks the version)
    group, game, _live, columns = group_game_live_and_last(code, game_id)
    kind = kind_for(game.kind)
    if not kind.dealer_by_hand:
        abort(404)
    last, count = rounds.last_of(*columns)
    stored = last.result if last is not None else None
    state = kind.state_of(stored) if stored is not None else kind.initial_state(game)
    based_on = plain_int(request.form.get("version", ""), 0, 10**9)
    word, message = change(kind, game, state, count + 1, request.form.get("dealer", ""), based_on)
    tell_outbox(word)
    flash(message)
    return redirect(url_for("games.show", code=group.code, game_id=game.id))


def change(kind: GameKind, game: Game, state: State, number: int, chosen: str, based_on: int | None) -> tuple[str, str]:
    """Give round ``number`` (the next one, from ``state``) to ``chosen`` (a player id as
    posted), if ``game`` is still at ``based_on``: what became of it, for the phone's
    outbox (``sent``, ``duplicate``, ``conflict``, ``refused``), and what to say."""
    names = rounds.names_of(game)
    if game.status is not GameStatus.IN_PROGRESS:
        return "refused", kind.no_more_rounds()
    dealers = kind.dealers(game, state)
    turn = kind.turn(game, state)
    if turn is None or not dealers:
        return "refused", _("The dealer cannot be changed now.")
    if chosen not in dealers:
        if chosen in names:
            return "refused", _("%(name)s is out of the game: only a player still in can deal.", name=names[chosen])
        return "refused", _("Choose a player of this game.")
    if chosen == turn.dealer and based_on == game.version:
        return "refused", _("%(name)s already deals.", name=names[chosen])
    start_writing()
    if not claim(game, based_on):
        db.session.rollback()
        if _made(game, based_on, number, chosen):
            return "duplicate", _("Dealer changed: %(name)s deals.", name=names[chosen])
        word = "refused" if based_on is None or based_on == game.version else "conflict"
        return word, _("The dealer was not changed: the game changed in the meantime. Nothing was changed.")
    setup = dict(game.setup or {})
    setup["next_dealer"] = {"number": number, "dealer": chosen}
    game.setup = setup
    record(game, CHANGE, number, {"number": number, "from": turn.dealer, "to": chosen})
    save(game)
    return "sent", _("Dealer changed: %(name)s deals.", name=names[chosen])


def _made(game: Game, based_on: int | None, number: int, chosen: str) -> bool:
    """Whether the change that moved ``game`` on from ``based_on`` is this very one
    (round ``number`` given to ``chosen``): the same form sent again (the outbox, a
    double tap), done once. Called after the rollback."""
    if based_on is None or game.version == based_on:
        return False
    made = db.session.execute(
        sa.select(GameChange.kind, GameChange.round_number, GameChange.data).where(
            GameChange.game_id == game.id, GameChange.version == based_on + 1
        )
    ).all()
    return [(kind, n, (data or {}).get("to")) for kind, n, data in made] == [(CHANGE, number, chosen)]
