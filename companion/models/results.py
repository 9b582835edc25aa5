"""The tables of standings and ratings (issue 12): derived from the stored states of
the games, kept up to date by every write to a game (companion.games.saving calls
companion.games.results in the write's transaction), read by the pages.

Nothing here is ever entered by a person: every row can be rebuilt from the games.
"""

from __future__ import annotations

from datetime import date, datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from companion.extensions import db


class GameResult(db.Model):
    """One player's result in one game, as the standings need it (one row per seat).

    Kept for every game, whatever its status; the leaderboards count finished games
    (``status``).  The figures come from the game's stored states only (``Round.result``,
    ``Game.ending``): see :mod:`companion.games.results` for each kind.

    ``place`` 1 = best, ties sharing a place (1, 2, 2, 4); None while nothing places
    the players (no round yet).  ``won``: named among the winners of the finished game.
    ``rounds``: rounds counted (Président and Piketty: manches played, a card draw is
    not; whist: deals completed; crapouille: hands).  ``points``: the player's total
    (Président/Piketty points, None when the game counts none; crapouille penalty
    points).  ``times_president``, ``times_last`` (the last title: Trou du cul) and
    ``rank_sum`` (sum of the player's rank after each manche, 1 = Président) are
    Président/Piketty's, 0 for the other kinds.  ``stake``: whist's stake left.
    ``eliminated``: crapouille, went over 300.  ``night``: the game night the game
    started on.  ``version``: the game's version these figures were computed at.
    """

    __tablename__ = "game_results"
    __table_args__ = (sa.Index("ix_game_results_season_id_status_kind", "season_id", "status", "kind"),)

    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"))
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    status: so.Mapped[str] = so.mapped_column(sa.String(20))
    night: so.Mapped[date] = so.mapped_column(sa.Date)
    ended_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))
    seat: so.Mapped[int]
    place: so.Mapped[int | None]
    won: so.Mapped[bool] = so.mapped_column(default=False)
    rounds: so.Mapped[int] = so.mapped_column(default=0)
    points: so.Mapped[int | None]
    times_president: so.Mapped[int] = so.mapped_column(default=0)
    times_last: so.Mapped[int] = so.mapped_column(default=0)
    rank_sum: so.Mapped[int] = so.mapped_column(default=0)
    stake: so.Mapped[int | None]
    eliminated: so.Mapped[bool | None]
    version: so.Mapped[int] = so.mapped_column(default=0)


class RatedMatch(db.Model):
    """A finishing order the season rating learns from: a finished game as a whole
    (``round_number`` 0, its places) or one manche of a finished Président or Piketty
    game (``round_number`` n, the hierarchy it left: Président first).  ``at`` is when
    it was played (the round's ``created_at``; the game's end for the game), ``night``
    the game night of ``at``.  The places are :class:`MatchPlace` rows."""

    __tablename__ = "rated_matches"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "round_number", name="uq_rated_matches_game_id_round_number"),
        sa.Index("ix_rated_matches_season_id_at", "season_id", "at"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"))
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))
    round_number: so.Mapped[int]
    kind: so.Mapped[str] = so.mapped_column(sa.String(20))
    at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True))
    night: so.Mapped[date] = so.mapped_column(sa.Date)


class MatchPlace(db.Model):
    """A player's place in a rated match: 1 = best, equal places are ties."""

    __tablename__ = "match_places"

    match_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("rated_matches.id", ondelete="CASCADE"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    place: so.Mapped[int]


class PlayerRating(db.Model):
    """A player's season rating now (OpenSkill Plackett–Luce: ``mu``, ``sigma``, and the
    conservative ``ordinal`` mu − 3σ), after ``matches`` rated matches.  ``rank`` is the
    place among players rated on at least :data:`companion.games.rating.MIN_MATCHES`
    matches (ties share it; None before), ``rank_before`` that place at the end of the
    game night before the season's latest one (the page shows the change)."""

    __tablename__ = "player_ratings"

    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    mu: so.Mapped[float]
    sigma: so.Mapped[float]
    ordinal: so.Mapped[float]
    matches: so.Mapped[int]
    rank: so.Mapped[int | None]
    rank_before: so.Mapped[int | None]


class RatingPoint(db.Model):
    """A player's season rating at the end of one game night (the history behind a
    chart): every player rated so far gets a point at every night of the season;
    ``played`` says whether the player played that night."""

    __tablename__ = "rating_history"

    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    night: so.Mapped[date] = so.mapped_column(sa.Date, primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    mu: so.Mapped[float]
    sigma: so.Mapped[float]
    ordinal: so.Mapped[float]
    matches: so.Mapped[int]
    rank: so.Mapped[int | None]
    played: so.Mapped[bool] = so.mapped_column(default=False)


class SeasonTotal(db.Model):
    """A player's totals over the finished games of one kind in one season: what a
    leaderboard shows, kept up to date from ``game_results`` on every write, so the
    season page reads a few rows per player whatever the season holds.

    Sums over those games: ``games``, ``wins``, ``points`` (None when no game counted
    points), ``times_president``, ``times_last``, ``rank_sum`` and ``manches``
    (Président/Piketty's ``rounds``), ``place_sum`` over ``placed`` games,
    ``stake_sum`` over ``staked`` games (whist), ``times_over`` (crapouille's
    eliminations)."""

    __tablename__ = "season_totals"

    season_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    kind: so.Mapped[str] = so.mapped_column(sa.String(20), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    games: so.Mapped[int]
    wins: so.Mapped[int]
    points: so.Mapped[int | None]
    times_president: so.Mapped[int]
    times_last: so.Mapped[int]
    rank_sum: so.Mapped[int]
    manches: so.Mapped[int]
    place_sum: so.Mapped[int]
    placed: so.Mapped[int]
    stake_sum: so.Mapped[int]
    staked: so.Mapped[int]
    times_over: so.Mapped[int]
