"""The table display's pages: a game's and an evening's, for the group's devices and
through a display link; the links' page (QR code, short link, revoke).

A display reads what is stored (the game, its last stored state, its live manche): the
engine never runs here, and a render or a poll runs a fixed number of queries whatever
the game's length. What each kind shows is its own template
(:attr:`~companion.games.kinds.base.GameKind.display_template`), given the kind's game
page context and its live manche as stored.

Through a link (``/t/<code>``) nothing but the display answers: no form, no device's
name, no other game; nothing under ``/t/`` sets a cookie, whatever the answer
(:data:`companion.security.DISPLAY_PREFIX`), so the link's holder carries nothing that
another address of the app would read. Once the link is revoked or its evening
over, its page and its poll say only that (410 Gone), in the display's own style.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from typing import Any

import segno
import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion import watch
from companion.clock import night_of, use_zone
from companion.collation import sort_key
from companion.display import bp
from companion.display.guard import Refused, screen_key, through_link
from companion.display.links import Ended, active_links, ended, link_for, make_link
from companion.extensions import db
from companion.games.kinds import kind_for
from companion.games.kinds.base import GameKind
from companion.games.state import round_in_play
from companion.groups.people import evening_games
from companion.groups.throttle import wait_message
from companion.i18n import current_lang, ngettext
from companion.i18n import gettext as _
from companion.membership.access import current_device, group_and_game, group_for
from companion.models import (
    DisplayLink,
    Game,
    GamePlayer,
    GameResult,
    GameStatus,
    Group,
    LiveManche,
    Season,
    utcnow,
)
from companion.writes import commit

#: The games a display may show, with their seats and players (and the group).
_WITH_PLAYERS = so.selectinload(Game.seats).joinedload(GamePlayer.player)


# ------------------------------------------------------------------ what is shown


@dataclass
class Live:
    """A game's live manche as the display shows it (the referee's live screen's)."""

    state: dict[str, Any]
    view: dict[str, Any]
    extra: dict[str, Any]


def _live(kind: GameKind, game: Game, number: int, names: dict[str, str]) -> tuple[Live | None, int]:
    """The game's live manche if it follows this round now (one query), and its version."""
    row = db.session.get(LiveManche, game.id)
    if row is None:
        return None, 0
    current = row.number == number and row.game_version == game.version and row.state is not None
    if not current or kind.live_play is None or row.view is None:
        return None, row.version
    extra = kind.live_play.screen(game, row, names, current_lang(), {"turn_said": []})
    return Live(row.state or {}, row.view, extra), row.version


def game_token(game_version: int, live_version: int) -> str:
    """What a game's display shows, as a token: the game's version and its live
    manche's (every move moves it)."""
    return f"d{game_version}.{live_version}"


def game_display(game: Game) -> dict[str, Any]:
    """What a game's display shows, from what is stored (three queries)."""
    kind = kind_for(game.kind)
    names = {str(p.id): p.name for p in game.players}
    number, state = round_in_play(kind, game)
    live, live_version = _live(kind, game, number, names)
    over = game.status is not GameStatus.IN_PROGRESS or kind.over(state)
    return {
        # The kind's game-page context first: what the display itself says wins.
        **kind.page_context(game, state, names),
        "kind": kind,
        "game": game,
        "names": names,
        "state": state,
        "number": number,
        "over": over,
        "turn": None if over else kind.turn(game, state),
        "live": live,
        "token": game_token(game.version, live_version),
    }


# --------------------------------------------------------------------- the evening


@dataclass
class NightLine:
    """A player's line in the evening's standings: games played and won tonight."""

    name: str
    played: int = 0
    won: int = 0


def _tonight(group: Group) -> date:
    return night_of(utcnow(), group.time_zone)


def evening_display(group: Group, with_game: bool = True) -> dict[str, Any]:
    """The evening's display: tonight's games and standings, and (``with_game``) the
    display of the game that changed last (a fixed number of queries)."""
    night = _tonight(group)
    games = evening_games(group.id, night)
    standings: dict[str, NightLine] = {}
    for game in games:
        for name in game.players:
            line = standings.setdefault(name, NightLine(name))
            line.played += 1
            line.won += name in game.winners
    lines = sorted(standings.values(), key=lambda line: (-line.won, -line.played, sort_key(line.name)))
    shown = None
    latest = _latest_game(group, [game.id for game in games]) if with_game else None
    if latest is not None:
        shown = game_display(latest)
    return {"night": night, "games": games, "standings": lines, "shown": shown}


def _latest_game(group: Group, ids: list[int]) -> Game | None:
    """Of tonight's games, the one that changed last (a round, a live move), in
    progress first (one query)."""
    if not ids:
        return None
    moved = sa.case((LiveManche.updated_at > Game.updated_at, LiveManche.updated_at), else_=Game.updated_at)
    query = (
        sa.select(Game)
        .outerjoin(LiveManche, LiveManche.game_id == Game.id)
        .where(Game.id.in_(ids))
        .options(_WITH_PLAYERS)
        .order_by((Game.status == GameStatus.IN_PROGRESS).desc(), moved.desc(), Game.id.desc())
        .limit(1)
    )
    return db.session.scalars(query).first()


_EVENING_STATE = (
    sa.select(
        sa.func.count(Game.id),
        sa.func.coalesce(sa.func.sum(Game.version), 0),
        sa.func.coalesce(sa.func.sum(LiveManche.version), 0),
        sa.func.max(Game.id),
    )
    .select_from(Game)
    .outerjoin(LiveManche, LiveManche.game_id == Game.id)
)


def evening_token(group_id: int, night: date) -> str:
    """What an evening's display shows, as a token: tonight's games (how many, their
    versions and their live manches'), read in one query. A game of tonight is one of
    the group's games started since tonight's evening began (its stored results carry
    the night; a new game has them from its first write)."""
    tonight = sa.select(GameResult.game_id).join(Season, Season.id == GameResult.season_id)
    tonight = tonight.where(Season.group_id == group_id, GameResult.night == night)
    row = db.session.execute(_EVENING_STATE.where(Game.id.in_(tonight))).one()
    digest = hashlib.blake2s(repr((night.isoformat(), *row)).encode(), digest_size=8).hexdigest()
    return f"e{digest}"


# ------------------------------------------------------------- the group's devices


def _qr(url: str) -> Markup:
    code = segno.make(url, error="m", micro=False)
    return Markup(code.svg_inline(scale=1, omitsize=True, dark="#000", light="#fff"))


def _link_url(link: DisplayLink) -> str:
    return url_for("display.shown", code=link.code, _external=True)


@bp.get("/g/<code>/games/<int:game_id>/display")
def game(code: str, game_id: int) -> str:
    """A game's display, on a device of the group."""
    group, found = group_and_game(code, game_id)
    shown = game_display(found)
    return render_template(
        "display/game.html",
        group=group,
        shown=shown,
        evening=evening_display(group, with_game=False) if shown["over"] else None,
        watch_url=url_for("display.game_watch", code=group.code, game_id=found.id),
        watch_token=shown["token"],
    )


@bp.get("/g/<code>/games/<int:game_id>/display/watch")
def game_watch(code: str, game_id: int) -> Response:
    """A game's display token, for a device of the group (polled by ``static/watch.js``)."""
    _group, found = group_and_game(code, game_id)
    row = db.session.get(LiveManche, found.id)
    return watch.answer(game_token(found.version, row.version if row is not None else 0))


@bp.get("/g/<code>/display")
def evening(code: str) -> str:
    """The evening's display, on a device of the group."""
    group = group_for(code)
    context = evening_display(group)
    return render_template(
        "display/evening.html",
        group=group,
        watch_url=url_for("display.evening_watch", code=group.code),
        watch_token=evening_token(group.id, context["night"]),
        **context,
    )


@bp.get("/g/<code>/display/watch")
def evening_watch(code: str) -> Response:
    """The evening display's token, for a device of the group."""
    group = group_for(code)
    return watch.answer(evening_token(group.id, _tonight(group)))


@bp.get("/g/<code>/displays")
def links(code: str) -> str:
    """The group's display links still valid: each with its QR code, its short link and
    a button to revoke it; and the buttons to make one for the evening."""
    group = group_for(code)
    found = active_links(group)
    wanted = request.args.get("game", "")
    game_obj = None
    if wanted.isascii() and wanted.isdigit() and len(wanted) <= 12:
        game_obj = db.session.scalar(
            sa.select(Game)
            .join(Season, Season.id == Game.season_id)
            .where(Game.id == int(wanted), Season.group_id == group.id)
        )
    return render_template(
        "display/links.html",
        group=group,
        links=[(link, _link_url(link), _qr(_link_url(link))) for link in found],
        evening_link=any(link.game_id is None for link in found),
        game=None if game_obj is None or any(link.game_id == game_obj.id for link in found) else game_obj,
    )


@bp.post("/g/<code>/displays")
def make(code: str) -> ResponseReturnValue:
    """Make the display link of a game (``game`` in the form) or of the evening; one
    already valid is shown again (a double tap, a second phone: one link)."""
    group = group_for(code)  # (the app's CSRF protection has checked the form's token)
    wanted = request.form.get("game", "")
    game_obj = None
    if wanted:
        if not (wanted.isascii() and wanted.isdigit() and len(wanted) <= 12):
            abort(404)
        _group, game_obj = group_and_game(group.code, int(wanted))
    link = make_link(group, game_obj, current_device())
    commit()
    return redirect(url_for("display.links", code=group.code, _anchor=f"link-{link.id}"), 303)


@bp.post("/g/<code>/displays/<int:link_id>/revoke")
def revoke(code: str, link_id: int) -> ResponseReturnValue:
    """Revoke a display link: the screen showing it says so at its next poll."""
    group = group_for(code)  # (the app's CSRF protection has checked the form's token)
    db.session.execute(
        sa.update(DisplayLink)
        .where(DisplayLink.id == link_id, DisplayLink.group_id == group.id, DisplayLink.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    commit()
    flash(_("The display link is revoked: the screen showing it stops."))
    return redirect(url_for("display.links", code=group.code), 303)


# ------------------------------------------------------------------ through a link


def _find_link(code: str) -> DisplayLink | None:
    """The link of that code, with its group (and game), valid or not (one query)."""
    return db.session.scalars(
        sa.select(DisplayLink)
        .where(DisplayLink.code == code)
        .options(so.joinedload(DisplayLink.group), so.joinedload(DisplayLink.game).options(_WITH_PLAYERS))
    ).first()


def _screen_wait(seconds: int) -> str:
    if seconds >= 90:
        return _("This screen will try again by itself in %(minutes)d minutes.", minutes=(seconds + 59) // 60)
    return ngettext(
        "This screen will try again by itself in %(num)d second.",
        "This screen will try again by itself in %(num)d seconds.",
        seconds,
    )


def _refused_page(code: str, refused: Refused) -> ResponseReturnValue:
    """A link's page refused while its guesser must wait (429), in the display's own
    style, the same whatever the code: too many wrong codes from here, and when the
    screen asks again by itself. It is watched, with no token yet: ``static/watch.js``
    asks the code's poll once the wait is over (its ``Retry-After``), and when the link
    opens, puts its display in place (a screen opened meanwhile needs no hand)."""
    page = render_template(
        "display/error.html",
        title=_("Too many tries"),
        lines=[_("Too many wrong display codes were tried from this connection."), _screen_wait(refused.wait)],
        watch_url=url_for("display.shown_watch", code=code),
        watch_token="",
    )
    return page, 429, {"Retry-After": str(refused.wait)}


def _refused_poll(refused: Refused) -> Response:
    """A link's poll refused while its guesser must wait: 429 ``{"error", "retry_after"}``
    with ``Retry-After``, which ``static/watch.js`` waits before asking again."""
    answer = jsonify({"error": wait_message(refused.wait), "retry_after": refused.wait})
    answer.status_code = 429
    answer.headers["Retry-After"] = str(refused.wait)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


def _ended_page(why: Ended) -> ResponseReturnValue:
    """What a screen shows once its link ended, in the display's own style, with nothing
    of the group: revoked, or its evening over (410 Gone: the address will not open
    again; watch.js puts it in place of what the screen showed)."""
    return render_template("display/ended.html", why=why, watch_url=None), 410


@bp.get("/t/<code>")
def shown(code: str) -> ResponseReturnValue:
    """A display opened through its link: read-only, no form, no device's name; once the
    link is revoked or its evening over, only that. A code that is no link's is a 404,
    and a wrong guess (:mod:`companion.display.guard`): 429 while its guesser must wait."""
    link = through_link(code, lambda: _find_link(code))
    if isinstance(link, Refused):
        return _refused_page(code, link)
    if link is None:
        abort(404)
    why = ended(link.revoked_at, link.expires_at, utcnow())
    if why is not None:
        return _ended_page(why)
    use_zone(link.group.time_zone)
    # What the page's script sends back with each request: never judged as a guess.
    watch = {"watch_url": url_for("display.shown_watch", code=code), "watch_key": screen_key(code)}
    if link.game is not None:
        shown_game = game_display(link.game)
        return render_template(
            "display/game.html",
            shown=shown_game,
            # A game's link shows nothing of another game: its end is its winners and losers;
            # the evening so far is the evening link's (and a device of the group's).
            watch_token=shown_game["token"],
            through_link=True,
            **watch,
        )
    context = evening_display(link.group)
    return render_template(
        "display/evening.html",
        watch_token=evening_token(link.group_id, context["night"]),
        through_link=True,
        **watch,
        **context,
    )


#: A link's poll in one query: when it is revoked and ends, its group's clock, its
#: game's version and its live manche's (None for an evening's link).
_LINK_POLL = (
    sa.select(
        DisplayLink.revoked_at,
        DisplayLink.expires_at,
        DisplayLink.group_id,
        Group.time_zone,
        Game.version,
        LiveManche.version,
    )
    .join(Group, Group.id == DisplayLink.group_id)
    .outerjoin(Game, Game.id == DisplayLink.game_id)
    .outerjoin(LiveManche, LiveManche.game_id == DisplayLink.game_id)
)


@bp.get("/t/<code>/watch")
def shown_watch(code: str) -> Response:
    """A linked display's token: one query for a game's, two for an evening's, when its
    page's script asks (its key sent back: :mod:`companion.display.guard`). Once the
    link is revoked or its evening over, a 410 saying which (``static/watch.js`` then
    fetches the page, which says it, and stops asking); a 404 for a code that is no
    link's; a 429 while a guesser must wait."""
    found = through_link(code, lambda: db.session.execute(_LINK_POLL.where(DisplayLink.code == code)).first())
    if isinstance(found, Refused):
        return _refused_poll(found)
    if found is None:
        abort(404)
    revoked_at, expires_at, group_id, time_zone, game_version, live_version = found
    why = ended(revoked_at, expires_at, utcnow())
    if why is not None:
        gone = jsonify({"ended": why})
        gone.status_code = 410
        gone.headers["Cache-Control"] = "no-cache"
        return gone
    if game_version is not None:
        return watch.answer(game_token(game_version, live_version or 0))
    return watch.answer(evening_token(group_id, night_of(utcnow(), time_zone)))


__all__ = ["bp", "game_display", "link_for"]
