"""Stored results: what the standings need of every game, kept up to date on every write.

Standings never replay games, and never read rounds on a page: they read three kinds of
derived rows (:mod:`companion.models`), which this module computes from the games'
*stored states* only (``Round.result``, ``Game.ending``, ``Game.status``), never by
running the engine:

``game_results``
    one row per (game, player): status, place, won, and the kind's figures
    (:func:`game_rows`; each kind's ``season`` module says which).
``rated_matches`` + ``match_places``
    the finishing orders the season rating learns from (:func:`game_matches`): each
    finished game (its places) and, for a kind whose every round counts (the
    Président family), each round of a finished game (the hierarchy it left).
``player_ratings`` + ``rating_history``
    the OpenSkill rating built on those (:mod:`companion.games.rating`).

**How they stay up to date.** Explicitly: every write to a game (a round added,
edited (later rounds rescored), deleted or restored, a game started, finished (early
or not), abandoned or reopened, and an import) ends in :mod:`companion.games.saving`,
which calls :func:`refresh` with the games it changed before committing, in the same
transaction: those games' rows, their seasons' totals, and the rating of their seasons
from the first game night whose matches changed. Nothing listens to the session, and
nothing happens because a module was imported. A failure here fails the write (the
transaction rolls back): the standings are never silently stale.
:func:`stale_games` lists games whose stored results are missing or older than the
game's version, and :func:`rebuild` repairs everything.

**Game nights (soirées).** A game night runs from 6:00 to 6:00 the next day on the
group's clock (``Group.time_zone``, an IANA name; Europe/Paris by default): a game
started at 23:00 and a manche saved at 1:30 belong to the same evening. A game
belongs, whole, to the night it *started* (:func:`night_of` its ``created_at`` on its
group's zone): its results and every rated match of it (its manches, its end) carry
that one night, so the recap, the player page, its rating chart and the season's ▲▼
all count the same evenings. A group that changes its zone has its games' rows
recomputed (:func:`rebuild` of its seasons, in the same transaction).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.clock import aware, night_of
from companion.games.kinds import season_of
from companion.games.kinds.season_base import GameFacts, Match, RoundFacts, player_ids
from companion.games.rating import refresh_season
from companion.models import (
    DEFAULT_TIME_ZONE,
    Game,
    GamePlayer,
    GameResult,
    Group,
    MatchPlace,
    RatedMatch,
    Round,
    Season,
    SeasonTotal,
)

# ----------------------------------------------------------- figures (pure functions)


def game_rows(facts: GameFacts, night: date) -> list[dict[str, Any]]:
    """The ``game_results`` rows of a game, one per seat, from its stored states.

    Every kind: ``status``, ``won`` (named in the finished game's ``ending``),
    ``place`` (1 = best, ties share; None before any round), ``rounds``. The kind
    fills in its figures and says the places (``KindSeason.figures``: each kind's
    ``season`` module says which); a kind this version does not know has none.
    """
    players = facts.players
    finished = facts.status == "finished"
    winners = set(player_ids((facts.ending or {}).get("winners"), players)) if finished else set()
    rows = {
        p: {
            "game_id": facts.id,
            "player_id": p,
            "season_id": facts.season_id,
            "kind": facts.kind,
            "status": facts.status,
            "night": night,
            "ended_at": facts.finished_at if finished else None,
            "seat": seat,
            "place": None,
            "won": p in winners,
            "rounds": facts.round_count,
            "points": None,
            "times_president": 0,
            "times_last": 0,
            "rank_sum": 0,
            "stake": None,
            "eliminated": None,
            "version": facts.version,
        }
        for seat, p in enumerate(players)
    }
    places = season_of(facts.kind).figures(facts, rows)
    for p, place in places.items():
        rows[p]["place"] = place
    return list(rows.values())


def game_matches(facts: GameFacts, rows: list[dict[str, Any]]) -> list[Match]:
    """The rated matches of a game: none unless it is finished with at least one round;
    then what the kind rates of its rounds (``KindSeason.round_matches``: the
    Président family's each counted manche) and the game itself (its places, ties equal),
    dated by the round's creation and the game's end (never before its last round)."""
    if facts.status != "finished" or not facts.round_count or not facts.rounds:
        return []
    matches = season_of(facts.kind).round_matches(facts)
    places = {row["player_id"]: row["place"] for row in rows}
    if len(places) >= 2 and None not in places.values():
        last = aware(facts.rounds[-1].created_at)
        end = aware(facts.finished_at) if facts.finished_at else last
        matches.append(Match(0, max(end, last), places))
    return matches


# ------------------------------------------------------------------ reading and writing


def _of_each_game() -> sa.Select[Any]:
    """Each game of ``ids`` with its seats, in seat order (one row per seat, one for a game
    without), and what results need of its rounds and stored rows, as columns of the
    same rows: its number of rounds, its last round (number, state, time), whether
    it has stored results of a finished game or stored rated matches, and its group's
    time zone."""
    games_t, seats_t, rounds_t = Game.__table__, GamePlayer.__table__, Round.__table__
    seasons_t, groups_t = Season.__table__, Group.__table__
    results_t, matches_t = GameResult.__table__, RatedMatch.__table__
    of_game = rounds_t.c.game_id == games_t.c.id
    last = sa.select(rounds_t.c.number).where(of_game).order_by(rounds_t.c.number.desc()).limit(1)
    return (
        sa.select(
            games_t.c.id,
            games_t.c.season_id,
            games_t.c.kind,
            games_t.c.status,
            games_t.c.ending,
            games_t.c.created_at,
            games_t.c.finished_at,
            games_t.c.version,
            seats_t.c.player_id,
            sa.select(sa.func.count()).select_from(rounds_t).where(of_game).scalar_subquery().label("round_count"),
            last.scalar_subquery().label("last_number"),
            last.with_only_columns(rounds_t.c.result).scalar_subquery().label("last_result"),
            last.with_only_columns(rounds_t.c.created_at).scalar_subquery().label("last_at"),
            sa.exists()
            .where(results_t.c.game_id == games_t.c.id, results_t.c.status == "finished")
            .label("was_finished"),
            sa.exists().where(matches_t.c.game_id == games_t.c.id).label("was_rated"),
            sa.select(groups_t.c.time_zone)
            .join(seasons_t, seasons_t.c.group_id == groups_t.c.id)
            .where(seasons_t.c.id == games_t.c.season_id)
            .scalar_subquery()
            .label("time_zone"),
        )
        .outerjoin(seats_t, seats_t.c.game_id == games_t.c.id)
        .where(games_t.c.id.in_(sa.bindparam("ids", expanding=True)))
        .order_by(games_t.c.id, seats_t.c.seat)
    )


_EACH_GAME = _of_each_game()


def load_games(session: so.Session | sa.Connection, game_ids: Iterable[int]) -> list[GameFacts]:
    """The facts of these games: one query, and one more for the rounds of those whose
    every round counts (``KindSeason.every_round``), however many games."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    rounds_t = Round.__table__
    facts: dict[int, GameFacts] = {}
    every: list[int] = []
    for row in session.execute(_EACH_GAME, {"ids": ids}):
        game = facts.get(row.id)
        if game is None:
            game = facts[row.id] = GameFacts(
                id=row.id,
                season_id=row.season_id,
                kind=row.kind,
                status=getattr(row.status, "value", row.status),
                ending=row.ending,
                created_at=row.created_at,
                finished_at=row.finished_at,
                version=row.version or 0,
                players=[],
                round_count=row.round_count or 0,
                was_finished=bool(row.was_finished),
                was_rated=bool(row.was_rated),
                zone=row.time_zone or DEFAULT_TIME_ZONE,
            )
            if row.last_number is not None:
                if season_of(game.kind).every_round:
                    every.append(row.id)
                else:
                    game.rounds.append(RoundFacts(row.last_number, dict(row.last_result or {}), row.last_at))
        if row.player_id is not None:
            game.players.append(row.player_id)
    if every:
        for row in session.execute(
            sa.select(rounds_t.c.game_id, rounds_t.c.number, rounds_t.c.result, rounds_t.c.created_at)
            .where(rounds_t.c.game_id.in_(every))
            .order_by(rounds_t.c.game_id, rounds_t.c.number)
        ):
            facts[row.game_id].rounds.append(RoundFacts(row.number, dict(row.result or {}), row.created_at))
    return list(facts.values())


@dataclass
class _Stored:
    """A game's rated matches as stored: ``{round_number: (id, at, night, places)}``."""

    season_id: int
    matches: dict[int, tuple[int, datetime, date, dict[int, int]]] = field(default_factory=dict)


def _stored_matches(session: so.Session | sa.Connection, game_ids: list[int]) -> dict[int, _Stored]:
    m, mp = RatedMatch.__table__, MatchPlace.__table__
    stored: dict[int, _Stored] = {}
    rows = session.execute(
        sa.select(m.c.id, m.c.game_id, m.c.season_id, m.c.round_number, m.c.at, m.c.night, mp.c.player_id, mp.c.place)
        .join(mp, mp.c.match_id == m.c.id)
        .where(m.c.game_id.in_(game_ids))
    )
    for row in rows:
        game = stored.setdefault(row.game_id, _Stored(row.season_id))
        entry = game.matches.setdefault(row.round_number, (row.id, aware(row.at), row.night, {}))
        entry[3][row.player_id] = row.place
    return stored


def lock_seasons(session: so.Session | sa.Connection, season_ids: Iterable[int]) -> None:
    """Take these seasons' rows for this transaction (PostgreSQL's ``FOR NO KEY UPDATE``,
    in id order): two writers refreshing one season's totals and rating take turns, the
    second one then reading what the first committed. SQLite's writers already take
    turns (``BEGIN IMMEDIATE``). Not ``FOR UPDATE``: that would wait for every
    transaction that merely inserted a game of the season (its foreign key holds the
    season ``FOR KEY SHARE``), a deadlock when that transaction in turn waits for this
    one (two phones sending the same new-game form: the second waits on the first's
    one-time token). On SQLite nothing is sent."""
    ids = sorted(set(season_ids))
    bind = session if isinstance(session, sa.Connection) else session.get_bind()
    if ids and bind.dialect.name == "postgresql":  # elsewhere the statement would take nothing
        seasons_t = Season.__table__
        session.execute(
            sa.select(seasons_t.c.id)
            .where(seasons_t.c.id.in_(ids))
            .order_by(seasons_t.c.id)
            .with_for_update(key_share=True)
        ).all()


def refresh_totals(session: so.Session | sa.Connection, season_id: int, kinds: Iterable[str] | None = None) -> None:
    """Recompute a season's ``season_totals`` (of these kinds, or of all) from its
    stored results: one ``INSERT … SELECT … GROUP BY`` over its finished games."""
    totals_t, r = SeasonTotal.__table__, GameResult.__table__
    wipe = sa.delete(totals_t).where(totals_t.c.season_id == season_id)
    chosen = r.c.season_id == season_id
    if kinds is not None:
        kinds = sorted(set(kinds))
        wipe = wipe.where(totals_t.c.kind.in_(kinds))
        chosen = sa.and_(chosen, r.c.kind.in_(kinds))
    session.execute(wipe)

    def count_of(flag: Any) -> Any:
        return sa.func.sum(sa.case((flag.is_(True), 1), else_=0))

    def total(column: Any) -> Any:
        return sa.func.coalesce(sa.func.sum(column), 0)

    grouped = (
        sa.select(
            r.c.season_id,
            r.c.kind,
            r.c.player_id,
            sa.func.count(),
            count_of(r.c.won),
            sa.func.sum(r.c.points),
            total(r.c.times_president),
            total(r.c.times_last),
            total(r.c.rank_sum),
            total(r.c.rounds),
            total(r.c.place),
            sa.func.count(r.c.place),
            total(r.c.stake),
            sa.func.count(r.c.stake),
            count_of(r.c.eliminated),
        )
        .where(chosen, r.c.status == "finished")
        .group_by(r.c.season_id, r.c.kind, r.c.player_id)
    )
    columns = [
        "season_id",
        "kind",
        "player_id",
        "games",
        "wins",
        "points",
        "times_president",
        "times_last",
        "rank_sum",
        "manches",
        "place_sum",
        "placed",
        "stake_sum",
        "staked",
        "times_over",
    ]
    session.execute(sa.insert(totals_t).from_select(columns, grouped))


def refresh_games(session: so.Session | sa.Connection, game_ids: Iterable[int]) -> dict[int, date | None]:
    """Recompute the stored results and rated matches of these games (their figures
    from their stored states); a game that no longer exists loses its rows.

    Returns the seasons whose rating must be recomputed, each with the first game night
    whose matches changed (the rating is replayed from there).
    """
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    results_t, matches_t, places_t = GameResult.__table__, RatedMatch.__table__, MatchPlace.__table__
    facts = {f.id: f for f in load_games(session, ids)}
    # What was stored of a game counts in a total or a rating only when its results said
    # it was finished or it has rated matches: only then is it read (and for a game that
    # no longer exists, whose facts cannot tell).
    counted = len(facts) < len(ids) or any(f.was_finished or f.was_rated for f in facts.values())
    stored = _stored_matches(session, ids) if counted else {}
    was_stored = (
        session.execute(
            sa.select(results_t.c.season_id, results_t.c.kind, results_t.c.status).where(results_t.c.game_id.in_(ids))
        ).all()
        if counted
        else []
    )
    boards = {(season, kind) for season, kind, _status in was_stored}
    boards |= {(f.season_id, f.kind) for f in facts.values()}
    # The totals count finished games only: a board whose games were not finished and
    # still are not (a hand added to a game in progress) keeps its totals as they are.
    totalled = {(season, kind) for season, kind, status in was_stored if status == "finished"}
    changed: dict[int, date | None] = {}

    def note(season_id: int, nights: Iterable[date]) -> None:
        first = min(nights, default=None)
        if first is not None:
            earlier = changed.get(season_id, first)
            changed[season_id] = min(first, earlier) if earlier is not None else None

    rows: list[dict[str, Any]] = []
    stale: list[int] = []
    fresh: list[tuple[GameFacts, Match, date]] = []
    for game_id in ids:
        f = facts.get(game_id)
        before = stored.get(game_id)
        was = {n: (at, night, places) for n, (_id, at, night, places) in before.matches.items()} if before else {}
        matches: list[Match] = []
        night: date | None = None
        if f is not None:
            night = night_of(f.created_at, f.zone)  # the game's soirée: its rows' and its matches'
            these = game_rows(f, night)
            rows.extend(these)
            matches = game_matches(f, these)
        now = {m.round_number: (m.at, night, m.places) for m in matches}
        moved = before is not None and f is not None and before.season_id != f.season_id
        if now == was and not moved:
            continue
        if before is not None:
            stale.extend(match_id for (match_id, _at, _night, _places) in before.matches.values())
            note(
                before.season_id,
                (
                    stored_night
                    for n, (_id, at, stored_night, places) in before.matches.items()
                    if moved or now.get(n) != (at, stored_night, places)
                ),
            )
        if f is not None and night is not None:
            fresh.extend((f, m, night) for m in matches)
            note(f.season_id, (night for m in matches if moved or was.get(m.round_number) != now[m.round_number]))
    totalled |= {(row["season_id"], row["kind"]) for row in rows if row["status"] == "finished"}
    if totalled or stale or fresh:
        # Totals or ratings change: their seasons are taken first (lock_seasons). Rows of
        # games in progress, in no total, are rewritten without waiting for anyone.
        lock_seasons(session, {season for season, _kind in boards} | {m.season_id for m in stored.values()})
    session.execute(sa.delete(results_t).where(results_t.c.game_id.in_(ids)))
    if stale:
        session.execute(sa.delete(places_t).where(places_t.c.match_id.in_(stale)))
        session.execute(sa.delete(matches_t).where(matches_t.c.id.in_(stale)))
    if rows:
        session.execute(sa.insert(results_t), rows)
    for season_id in sorted({season for season, _kind in totalled}):
        refresh_totals(session, season_id, [kind for season, kind in totalled if season == season_id])
    if fresh:
        inserted = session.execute(
            sa.insert(matches_t).returning(matches_t.c.id, sort_by_parameter_order=True),
            [
                {
                    "season_id": f.season_id,
                    "game_id": f.id,
                    "round_number": m.round_number,
                    "kind": f.kind,
                    "at": m.at,
                    "night": night,
                }
                for f, m, night in fresh
            ],
        ).scalars()
        session.execute(
            sa.insert(places_t),
            [
                {"match_id": match_id, "player_id": p, "place": place}
                for match_id, (_f, m, _night) in zip(inserted, fresh, strict=True)
                for p, place in m.places.items()
            ],
        )
    return changed


def refresh(session: so.Session | sa.Connection, game_ids: Iterable[int], seasons: dict[int, date | None]) -> None:
    """Recompute these games' results, then the rating of every season they changed
    (and of ``seasons``: season id → first night to replay from, None for all)."""
    lock_seasons(session, seasons)
    changed = refresh_games(session, game_ids)
    for season_id in seasons:
        refresh_totals(session, season_id)
    for season_id, night in seasons.items():
        if season_id in changed:
            earlier = changed[season_id]
            changed[season_id] = None if night is None or earlier is None else min(night, earlier)
        else:
            changed[season_id] = night
    for season_id in sorted(changed):
        refresh_season(session, season_id, changed[season_id])


def rebuild(session: so.Session | sa.Connection, season_ids: Iterable[int] | None = None) -> None:
    """Recompute every stored result and rating (of these seasons, or of all): after
    a data migration, or to repair. Idempotent."""
    games_t, seasons_t = Game.__table__, Season.__table__
    wanted = sa.select(seasons_t.c.id)
    if season_ids is not None:
        wanted = wanted.where(seasons_t.c.id.in_(list(season_ids)))
    seasons = list(session.execute(wanted.order_by(seasons_t.c.id)).scalars())
    ids = list(session.execute(sa.select(games_t.c.id).where(games_t.c.season_id.in_(seasons))).scalars())
    for start in range(0, len(ids), 500):
        refresh_games(session, ids[start : start + 500])
    for season_id in seasons:
        refresh_totals(session, season_id)
        refresh_season(session, season_id, None)


# ------------------------------------------------------------------------------ repair


def stale_games(session: so.Session | sa.Connection) -> list[int]:
    """Games whose stored results are missing or older than the game's version."""
    g, r = Game.__table__, GameResult.__table__
    current = sa.select(r.c.game_id).where(r.c.game_id == g.c.id, r.c.version == g.c.version)
    return list(session.execute(sa.select(g.c.id).where(~current.exists())).scalars())
