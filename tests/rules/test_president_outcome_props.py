"""Property tests of companion.rules.president_outcome (Hypothesis, modest runs)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.cards import Card
from companion.rules.president import Rules
from companion.rules.president_outcome import (
    Events,
    Guillotine,
    deal_for,
    draw_key,
    exchange_for,
    hierarchy_from_draw,
    outcome,
    points_after,
    schedule_for,
    title_names,
    titles_after,
)

SETTINGS = settings(max_examples=150, deadline=None)


def names(n: int) -> tuple[str, ...]:
    return tuple(f"P{i}" for i in range(n))


@st.composite
def manches(draw: st.DrawFn, low: int = 3, high: int = 12) -> tuple[tuple[str, ...], tuple[str, ...], list[str]]:
    """A hierarchy, a finishing order (possibly without its last player) and forbidden finishers."""
    n = draw(st.integers(low, high))
    hierarchy = tuple(draw(st.permutations(names(n))))
    finish = tuple(draw(st.permutations(hierarchy)))
    if draw(st.booleans()):
        finish = finish[:-1]
    forbidden = draw(st.lists(st.sampled_from(finish), unique=True)) if finish else []
    return hierarchy, finish, forbidden


@SETTINGS
@given(manches())
def test_titles_are_a_permutation_with_forbidden_last(
    manche: tuple[tuple[str, ...], tuple[str, ...], list[str]],
) -> None:
    hierarchy, finish, forbidden = manche
    after = titles_after(hierarchy, finish, forbidden)
    assert sorted(after) == sorted(hierarchy)
    k = len(forbidden)
    # forbidden finishers are last, in going-out order (the latest very last)
    assert list(after[len(after) - k :]) == [p for p in finish if p in forbidden]
    # the others keep their going-out order
    clean = [p for p in after if p not in forbidden]
    assert clean[: len([p for p in finish if p not in forbidden])] == [p for p in finish if p not in forbidden]


@SETTINGS
@given(manches())
def test_points_are_n_minus_one_down_to_zero(manche: tuple[tuple[str, ...], tuple[str, ...], list[str]]) -> None:
    hierarchy, finish, _ = manche
    after = titles_after(hierarchy, finish)
    n = len(after)
    points = points_after(after)
    assert [points[p] for p in after] == list(range(n - 1, -1, -1))


@SETTINGS
@given(st.integers(3, 14), st.data())
def test_exchanges_follow_the_schedule_and_the_mirror(n: int, data: st.DataObject) -> None:
    hierarchy = tuple(data.draw(st.permutations(names(n))))
    schedule = schedule_for(n)
    exchanges = exchange_for(hierarchy, schedule)
    assert len(exchanges) == 2 * len(schedule)
    rank = {p: i for i, p in enumerate(hierarchy)}
    for i, (best, back) in enumerate(zip(exchanges[::2], exchanges[1::2], strict=True)):
        assert best.cards == "best" and back.cards == "choice"
        assert best.count == back.count == schedule[i]
        # a giver of the bottom half gives to his mirror in the top half
        assert rank[best.giver] == n - 1 - rank[best.receiver]
        assert rank[best.receiver] == i
        assert (back.giver, back.receiver) == (best.receiver, best.giver)
    givers = [e.giver for e in exchanges]
    assert len(givers) == len(set(givers))
    if n % 2 == 1:
        assert hierarchy[n // 2] not in givers


@SETTINGS
@given(st.integers(3, 14))
def test_schedule_shape(n: int) -> None:
    schedule = schedule_for(n)
    assert len(schedule) <= n // 2
    assert list(schedule) == sorted(schedule, reverse=True)
    assert schedule[-1] >= 1


@SETTINGS
@given(st.integers(3, 20), st.integers(20, 220), st.sampled_from(["president", "piketty"]))
def test_deal_counts_sum_to_the_deck_and_differ_by_one_at_most(n: int, size: int, game: str) -> None:
    hierarchy = names(n)
    deal = deal_for(hierarchy, size, game)
    counts = [deal.counts[p] for p in hierarchy]
    assert sum(counts) + deal.aside == size
    assert max(counts) - min(counts) <= (0 if game == "president" else 1)
    # Piketty's extra cards go to the bottom of the hierarchy
    assert counts == sorted(counts)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 9))
def test_piketty_deal_uses_the_whole_deck(n: int) -> None:
    rules = Rules(game="piketty")
    result = outcome(rules, names(n), finish=names(n))
    assert sum(result.deal.counts.values()) == rules.deck(n).size
    assert max(result.deal.counts.values()) - min(result.deal.counts.values()) <= 1


@SETTINGS
@given(st.integers(3, 12), st.data())
def test_events_keep_a_permutation(n: int, data: st.DataObject) -> None:
    hierarchy = tuple(data.draw(st.permutations(names(n))))
    player = data.draw(st.sampled_from(hierarchy))
    trio = data.draw(st.permutations(hierarchy))[:3]
    for events in (
        Events(jeu_blanc=player),
        Events(coup_detat=player),
        Events(guillotine=Guillotine(*trio)),
        Events(revolution=True),
    ):
        after = titles_after(hierarchy, (), (), events)
        assert sorted(after) == sorted(hierarchy)
        assert set(points_after(after, events).values()) == {0}
    # jeu blanc: the players below him keep their titles
    after = titles_after(hierarchy, events=Events(jeu_blanc=player))
    below = hierarchy.index(player) + 1
    assert after[below:] == hierarchy[below:]
    assert after[0] == player
    # coup d'État: only two players change places
    after = titles_after(hierarchy, events=Events(coup_detat=player))
    assert sum(a != b for a, b in zip(after, hierarchy, strict=True)) in (0, 2)


CARDS = [Card.parse(f"{r}{s}") for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A", "2") for s in "cdhs"]


@SETTINGS
@given(st.integers(4, 9), st.data())
def test_draw_gives_a_hierarchy_sorted_by_card(n: int, data: st.DataObject) -> None:
    drawn = data.draw(st.lists(st.sampled_from(CARDS), min_size=n, max_size=n, unique=True))
    draws = {p: [card] for p, card in zip(names(n), drawn, strict=True)}
    order = Rules(game="piketty").rank_order()
    hierarchy = hierarchy_from_draw(draws, order)
    assert sorted(hierarchy) == sorted(names(n))
    keys = [draw_key(draws[p][0], order) for p in hierarchy]
    assert keys == sorted(keys, reverse=True)


@SETTINGS
@given(st.integers(3, 12))
def test_title_names_structure(n: int) -> None:
    for game in ("president", "piketty"):
        for naming in ("classic", "balayeur"):
            titles = title_names(n, game, naming)
            assert len(titles) == n
            assert len({t.get("fr") for t in titles}) == n
            assert len({t.get("en") for t in titles}) == n


def test_seeded_playouts_of_whole_games() -> None:
    """Random games of Président with putsch and points, invariants checked after every manche."""
    rng = random.Random(2024)
    seen: set[str] = set()
    for _ in range(60):
        n = rng.randint(3, 8)
        rules = Rules.from_options({"putsch": True, "jeu_blanc": True, "target": rng.randint(5, 30)})
        hierarchy = names(n)
        totals = dict.fromkeys(hierarchy, 0)
        banned: str | None = None
        first = True
        for _manche in range(40):
            finish = list(hierarchy)
            rng.shuffle(finish)
            events = Events()
            roll = rng.random()
            if not first and roll < 0.2 and hierarchy[-1] != banned:
                events = Events(putsch=hierarchy[-1])
            elif not first and roll < 0.25:
                events = Events(jeu_blanc=rng.choice(hierarchy))
                finish = []
            result = outcome(
                rules, hierarchy, finish=finish, events=events, first=first, putsch_banned=banned, totals=totals
            )
            after = result.hierarchy
            seen.update(result.events)
            assert sorted(after) == sorted(hierarchy)
            assert [t.rank for t in result.titles] == list(range(1, n + 1))
            assert (result.dealer, result.leader) == (after[-1], after[0])
            if result.putsch_banned is not None:
                assert after == hierarchy
                assert result.points[result.putsch_banned] == -1
                assert sum(result.points.values()) == -1
                assert result.exchanges[0].count == 4
                assert result.exchanges[0].giver == result.putsch_banned
            elif events.putsch is not None:
                assert after[0] == events.putsch and result.points[events.putsch] == n
            elif events.jeu_blanc is None:
                assert sum(result.points.values()) == n * (n - 1) // 2
            assert result.standing is not None
            new_totals = dict(result.standing.totals)
            assert all(new_totals[p] == totals[p] + result.points[p] for p in hierarchy)
            assert result.standing.ended == (max(new_totals.values()) >= rules.target)
            if result.standing.ended:
                low = min(new_totals.values())
                assert all(new_totals[p] == low for p in result.standing.losers)
                seen.add("ended")
                break
            hierarchy, totals, banned, first = after, new_totals, result.putsch_banned, False
    # the playouts went through every branch checked above
    assert {"putsch_failed", "putsch_succeeded", "jeu_blanc", "ended"} <= seen
