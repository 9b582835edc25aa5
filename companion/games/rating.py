"""The season rating: OpenSkill's Plackett–Luce model over the season's rated matches.

Every rated match (:mod:`companion.games.results`: a finished game's places, and each
manche of a finished Président or Piketty game) is one Plackett–Luce update, players
ranked by their place, equal places as ties. Matches are taken night by night (a
game's night: the one it started), in the order they were played within a night (their
time; a game after its own manches).

What is stored (:class:`~companion.models.RatingPoint`, :class:`~companion.models.PlayerRating`):
at the end of every game night, the skill (``mu``, ``sigma``, the conservative
``ordinal`` mu − 3σ), the number of matches and the rank of every player rated so far;
and each player's rating now, with the rank at the end of the night before the latest.

**Recomputing.** A write that changes matches of game night *N* (a game finished,
reopened, a round edited…) replays the season from the stored state at the end of the
last night before *N*: adding tonight's games replays tonight only; editing a round of
an old night replays from that night; a change on the first night, the whole season.

**Shown** as :func:`display` (1000 + 40 × ordinal, a whole number: every newcomer starts
at 1000 and it grows as the model becomes sure a player is strong), and only for
players with at least :data:`MIN_MATCHES` rated matches; they are ranked by that figure,
equal figures sharing a rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from openskill.models import PlackettLuce

from companion.models import MatchPlace, PlayerRating, RatedMatch, RatingPoint, Season

#: Rated matches a player needs before the rating is shown (« pas encore classé » before).
MIN_MATCHES = 5
#: The shown figure: BASE + SCALE × ordinal (ordinal = mu − 3σ, 0 for a newcomer).
BASE = 1000
SCALE = 40

_MODEL = PlackettLuce()


def display(ordinal: float) -> int:
    """The figure shown for a conservative skill estimate.

    >>> display(0.0), display(2.5), display(-1.26)
    (1000, 1100, 950)
    """
    return round(BASE + SCALE * ordinal)


@dataclass(frozen=True)
class Skill:
    """A player's skill estimate and how many matches made it."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate, mu − 3σ."""
        return self.mu - 3 * self.sigma


@dataclass
class Night:
    """The state at the end of a game night: every player rated so far."""

    night: date
    skills: dict[int, Skill]
    played: set[int] = field(default_factory=set)
    ranks: dict[int, int | None] = field(default_factory=dict)


def rate(skills: dict[int, Skill], places: dict[int, int], live: dict[int, Any] | None = None) -> None:
    """One Plackett–Luce update of ``skills`` (in place) for a finishing order
    (player → place, 1 = best; equal places are ties). ``live`` may keep OpenSkill's
    rating objects from one update to the next (a replay makes thousands).

    >>> skills: dict[int, Skill] = {}
    >>> rate(skills, {1: 1, 2: 2, 3: 2})
    >>> skills[1].mu > skills[2].mu == skills[3].mu, skills[1].matches
    (True, 1)
    """
    players = sorted(places, key=lambda p: (places[p], p))
    if len(players) < 2:
        return
    live = {} if live is None else live
    teams = []
    for p in players:
        if p not in live:
            skill = skills.get(p) or Skill()
            live[p] = _MODEL.rating(mu=skill.mu, sigma=skill.sigma)
        teams.append([live[p]])
    updated = _MODEL.rate(teams, ranks=[float(places[p]) for p in players])
    for p, team in zip(players, updated, strict=True):
        before = skills.get(p) or Skill()
        live[p] = team[0]
        skills[p] = Skill(team[0].mu, team[0].sigma, before.matches + 1)


def ranks(skills: dict[int, Skill]) -> dict[int, int | None]:
    """Each player's rank among those with :data:`MIN_MATCHES` matches, by the shown
    figure, equal figures sharing a rank (1, 2, 2, 4); None for the others.

    >>> ranks({1: Skill(30, 1, 5), 2: Skill(30, 1, 7), 3: Skill(40, 1, 2), 4: Skill(20, 1, 9)})
    {1: 1, 2: 1, 3: None, 4: 3}
    """
    figures = {p: display(s.ordinal) for p, s in skills.items() if s.matches >= MIN_MATCHES}
    return {p: (1 + sum(1 for f in figures.values() if f > figures[p]) if p in figures else None) for p in skills}


def replay(matches: Iterable[tuple[date, dict[int, int]]], start: dict[int, Skill] | None = None) -> list[Night]:
    """The state at the end of each game night, matches (night, places) taken in order
    from ``start`` (the state before the first of them)."""
    skills = dict(start or {})
    live: dict[int, Any] = {}
    nights: list[Night] = []
    for night, places in matches:
        if not nights or nights[-1].night != night:
            if nights:
                nights[-1].skills = dict(skills)
            nights.append(Night(night, {}))
        rate(skills, places, live)
        nights[-1].played.update(places)
    if nights:
        nights[-1].skills = dict(skills)
    for n in nights:
        n.ranks = ranks(n.skills)
    return nights


# ------------------------------------------------------------------ reading and writing


def _matches(
    session: so.Session | sa.Connection, season_id: int, since: date | None
) -> Iterator[tuple[date, dict[int, int]]]:
    """The season's rated matches from game night ``since`` on, night by night (a game's
    matches carry the night it started, which a game begun before the cut-off and ended
    after it keeps), in the order played within a night."""
    m, mp = RatedMatch.__table__, MatchPlace.__table__
    query = (
        sa.select(m.c.id, m.c.night, mp.c.player_id, mp.c.place)
        .join(mp, mp.c.match_id == m.c.id)
        .where(m.c.season_id == season_id)
        .order_by(
            m.c.night, m.c.at, m.c.game_id, sa.case((m.c.round_number == 0, 1), else_=0), m.c.round_number, m.c.id
        )
    )
    if since is not None:
        query = query.where(m.c.night >= since)
    current: int | None = None
    night: date | None = None
    places: dict[int, int] = {}
    for match_id, match_night, player_id, place in session.execute(query).all():
        if match_id != current:
            if current is not None and night is not None:
                yield night, places
            current, night, places = match_id, match_night, {}
        places[player_id] = place
    if current is not None and night is not None:
        yield night, places


def refresh_season(session: so.Session | sa.Connection, season_id: int, since: date | None) -> None:
    """Replay the season's rating from game night ``since`` (None: the whole season),
    starting from the stored state at the end of the night before, and store the
    history from there and each player's rating now.

    The season's row is locked first (PostgreSQL), so two writers rating one season
    take turns, the second one seeing the first's matches.
    """
    seasons_t, history_t = Season.__table__, RatingPoint.__table__
    exists = session.execute(
        sa.select(seasons_t.c.id).where(seasons_t.c.id == season_id).with_for_update()
    ).scalar_one_or_none()
    if exists is None:
        return
    start: dict[int, Skill] = {}
    if since is not None:
        before = session.execute(
            sa.select(sa.func.max(history_t.c.night)).where(
                history_t.c.season_id == season_id, history_t.c.night < since
            )
        ).scalar()
        if before is None:
            since = None
        else:
            start = {
                row.player_id: Skill(row.mu, row.sigma, row.matches)
                for row in session.execute(
                    sa.select(history_t).where(history_t.c.season_id == season_id, history_t.c.night == before)
                )
            }
    wipe = sa.delete(history_t).where(history_t.c.season_id == season_id)
    session.execute(wipe if since is None else wipe.where(history_t.c.night >= since))
    nights = replay(_matches(session, season_id, since), start)
    points = [
        {
            "season_id": season_id,
            "night": n.night,
            "player_id": p,
            "mu": s.mu,
            "sigma": s.sigma,
            "ordinal": s.ordinal,
            "matches": s.matches,
            "rank": n.ranks[p],
            "played": p in n.played,
        }
        for n in nights
        for p, s in sorted(n.skills.items())
    ]
    for chunk in range(0, len(points), 1000):
        session.execute(sa.insert(history_t), points[chunk : chunk + 1000])
    _store_ratings(session, season_id)


def _store_ratings(session: so.Session | sa.Connection, season_id: int) -> None:
    """Each player's rating now (the last night's point) and rank the night before."""
    history_t, ratings_t = RatingPoint.__table__, PlayerRating.__table__
    session.execute(sa.delete(ratings_t).where(ratings_t.c.season_id == season_id))
    last_two = list(
        session.execute(
            sa.select(history_t.c.night)
            .where(history_t.c.season_id == season_id)
            .distinct()
            .order_by(history_t.c.night.desc())
            .limit(2)
        ).scalars()
    )
    if not last_two:
        return
    rows = session.execute(
        sa.select(history_t).where(history_t.c.season_id == season_id, history_t.c.night.in_(last_two))
    ).all()
    before = {r.player_id: r.rank for r in rows if r.night != last_two[0]}
    session.execute(
        sa.insert(ratings_t),
        [
            {
                "season_id": season_id,
                "player_id": r.player_id,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "matches": r.matches,
                "rank": r.rank,
                "rank_before": before.get(r.player_id),
            }
            for r in rows
            if r.night == last_two[0]
        ],
    )
