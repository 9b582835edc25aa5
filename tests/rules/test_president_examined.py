"""Scenarios from an independent examination of the Président engine (issue 7, items 1–9).

Each case is a place where the engine once answered wrongly; the source it follows is
cited above it.  Moves are written as in ``test_president_play``.
"""

from __future__ import annotations

import pytest

from companion.rules.cards import Card, CardError, Rank, parse_cards
from companion.rules.i18n import RulesError
from companion.rules.president import Effect, Play, RuleId, Rules, Table
from companion.rules.president_outcome import Events, exchange_schedule, outcome
from tests.rules.test_president_play import FOUR, move, play, rule

THREE = ["Ann", "Bob", "Cid"]


# --- 1. the cards of a finished trick still count ------------------------------------


@pytest.mark.parametrize(
    ("trick", "options", "again"),
    [
        # ended by a 2 (RULES.md §1: « Playing 2s ends the trick at once »)
        ([{"player": "Ann", "cards": "9h"}, {"player": "Bob", "cards": "2c"}], {}, "Bob 2c"),
        # ended by everyone passing
        (
            [
                {"player": "Ann", "cards": "Kh"},
                {"player": "Bob", "pass": True},
                {"player": "Cid", "pass": True},
                {"player": "Dan", "pass": True},
            ],
            {},
            "Ann Kh",
        ),
        # ended by the only joker (seed 000: « Le joker … remporte le pli »)
        ([{"player": "Ann", "cards": "9h"}, {"player": "Bob", "cards": "RJ"}], {"jokers": 1}, "Bob RJ"),
    ],
)
def test_cards_of_a_finished_trick_count(trick: list[object], options: dict[str, object], again: str) -> None:
    # API.md: « a card that appears more often than the decks hold — counted over the state
    # and the move together » is malformed, whether the trick in the state is open or over.
    table = Table.from_state({"players": FOUR, "trick": trick}, Rules.from_options(options))
    assert table.over
    with pytest.raises(RulesError) as e:
        table.check(move(again))
    assert e.value.field == "move.cards[0]"
    # Another copy of the rank is fine.
    assert table.check(move(again.replace("2c", "2d").replace("Kh", "Ks").replace("RJ", "9s"))).legal


def test_cards_taken_back_by_a_liar_call_are_in_a_hand_again() -> None:
    # RULES.md §1 (liar): « if the laid cards match the announcement, the caller takes the pile »:
    # those cards are in his hand again and may be played.
    rules = Rules(liar=True)
    table = Table.start(FOUR, rules, leader="Ann").apply(Play.parse("Ann", "9h")).apply(Play("Bob", call=True))
    assert table.to_move == "Ann"
    assert table.check(Play.parse("Ann", "9h")).legal


# --- 2. a joker breaks the passe lock only with passe_breakers ------------------------


def test_joker_breaks_the_lock_only_with_the_option() -> None:
    # seed 000: « On peut autoriser l'utilisation du 2 ou du joker pour casser la passe »
    locked = play("Ann 3h, Bob 3s", jokers=1, passe=True)
    assert locked.lock
    assert rule(locked, "Cid RJ") is RuleId.LOCKED
    assert rule(locked, "Cid 2c") is RuleId.LOCKED
    breakers = play("Ann 3h, Bob 3s", jokers=1, passe=True, passe_breakers=True)
    assert breakers.check(move("Cid RJ")).legal
    # Without a lock a joker goes on anything (RULES.md: « a single joker may be played on anything »).
    assert play("Ann 3h", jokers=1, passe=True).check(move("Bob RJ")).legal


# --- 3. revolution_swaps_titles leaves the cards alone --------------------------------


def test_revolution_that_swaps_titles_does_not_reverse_the_cards() -> None:
    # RULES.md §1: `revolution_swaps_titles` — « instead of the cards, the hierarchy is reversed »;
    # seed 000: « c'est plutôt l'ordre des joueurs qui est inversé ».
    table = play("Ann 9h 9s 9d 9c", revolution=True, revolution_swaps_titles=True)
    verdict = play(revolution=True, revolution_swaps_titles=True).check(move("Ann 9h 9s 9d 9c"))
    assert verdict.legal and verdict.effects == (Effect.REVOLUTION,) and verdict.next_player is None
    assert not table.reversed
    # The titles swap at once, so the manche is over (as outcome() scores it: no points).
    assert table.finished
    assert table.check(move("Bob Kh Ks Kd Kc")).rule is RuleId.TURN
    swapped = outcome(
        Rules(revolution=True, revolution_swaps_titles=True),
        FOUR,
        events=Events(revolution="Ann"),
    )
    assert swapped.hierarchy == ("Dan", "Cid", "Bob", "Ann")
    assert set(swapped.points.values()) == {0}
    # The plain revolution still reverses the cards and the manche goes on.
    plain = play("Ann 9h 9s 9d 9c", revolution=True)
    assert plain.reversed and not plain.finished
    assert rule(plain, "Bob Kh Ks Kd Kc") is RuleId.RANK


# --- 4. a coup d'État goes on the black joker -----------------------------------------


def test_coup_detat_on_the_black_joker() -> None:
    # seed 000: « Le coup d'État peut être posé n'importe quand lors de la partie. »
    table = play("Ann BJ", jokers=2, coup_detat=True)
    assert rule(table, "Bob 9h") is RuleId.CLOSED
    verdict = table.check(move("Bob Kh Ks Kd Kc RJ"))
    assert verdict.legal and verdict.effects[0] is Effect.COUP_DETAT
    # On 2s, which only a joker may cover with jokers in play, too.
    assert play("Ann 2h", jokers=2, coup_detat=True).check(move("Bob Kh Ks Kd RJ BJ")).legal


# --- 5. joker_wild makes pairs to quints only -----------------------------------------


def test_joker_wild_completes_pairs_to_quints_only() -> None:
    # RULES.md §1: `joker_wild` — « a joker only completes a pair/triple/quad/quint of another rank »
    options = {"decks": 2, "jokers": 2, "joker_wild": True}
    fresh = play(**options)
    assert fresh.check(move("Ann 9h RJ")).legal
    assert fresh.check(move("Ann 9h 9s 9d 9c RJ")).legal  # a quint
    assert rule(fresh, "Ann 9h 9s 9d 9c 9h RJ") is RuleId.COMBINATION  # six of a kind with a joker
    assert rule(fresh, "Ann 9h 9s 9d 9c RJ BJ") is RuleId.COMBINATION
    # Natural sets are not limited by the option (two decks: up to 8 of a rank).
    assert fresh.check(move("Ann 9h 9s 9d 9c 9h 9s")).legal


# --- 6. a wizz that takes its player out ----------------------------------------------


def test_wizz_out_skips_each_other_player_once() -> None:
    # seed 000 (Wizz): « le joueur ne peut se wizzer lui-même »; RULES.md: « Players out are not counted »
    table = play("Ann 6h", players=THREE, preset="wizz")
    verdict = table.check(move("Bob 6s 6d 6c !"))
    assert verdict.legal
    assert verdict.skipped == ("Cid", "Ann")
    assert Effect.TRICK_WON in verdict.effects and Effect.OUT in verdict.effects
    # The trick is Bob's; he is out, so the next player still in leads (RULES.md §1).
    assert verdict.next_player == "Cid"


# --- 7. angevin runs may hold the ace -------------------------------------------------


def test_angevin_runs_may_end_on_the_ace() -> None:
    # seed 000 (angevin): « l'As reste invariablement la plus forte carte »; RULES.md: « 2 and jokers
    # never sit inside a run » — angevin has no power rank, so Q K A is a run.
    fresh = play(preset="angevin", runs=True)
    assert fresh.check(move("Ann Qh Ks Ad")).legal
    assert rule(fresh, "Ann 2h 3s 4d") is RuleId.COMBINATION
    assert play("Ann Jh Qs Kd", preset="angevin", runs=True).check(move("Bob Qc Kh Ac")).legal
    # Elsewhere the power rank stays out: no K A 2 in the plain game, no Q K A… 7 in the 32-card deck.
    assert rule(play(runs=True), "Ann Kh As 2d") is RuleId.COMBINATION
    assert rule(play(runs=True, reduced=True), "Ann Kh As 7d") is RuleId.COMBINATION
    assert play(runs=True).check(move("Ann Qh Ks Ad")).legal


# --- 8. finished_on cards are counted across players ----------------------------------


def test_finished_on_counted_across_players() -> None:
    # API.md: a card that appears more often than the decks hold is malformed.
    rules = Rules(twos_cut=True)
    with pytest.raises(CardError) as e:
        outcome(rules, FOUR, ["Ann", "Bob", "Cid"], finished_on={"Ann": parse_cards("2h"), "Bob": parse_cards("2h")})
    assert e.value.field == "finished_on.Bob[0]"
    # Two different 2s, or a rank named without its suit, are fine (seed 001: « finir par un 2 »).
    fine = outcome(rules, FOUR, ["Ann", "Bob", "Cid"], finished_on={"Ann": parse_cards("2h"), "Bob": Rank.TWO})
    assert fine.finished_last == ("Ann", "Bob")
    two_decks = Rules(twos_cut=True, decks=2)
    both = outcome(
        two_decks, FOUR, ["Ann", "Bob", "Cid"], finished_on={"Ann": [Card.parse("2h")], "Bob": [Card.parse("2h")]}
    )
    assert both.finished_last == ("Ann", "Bob")


# --- 9. exchanges never ask for more cards than a player holds ------------------------


def test_exchange_schedule_fits_the_hands() -> None:
    # RULES.md §1: n ≥ 6 [⌊n/2⌋, …, 2, 1]; 52 cards at 11 players are 4 each, and the
    # Trou du cul cannot give 5: such a table needs a second deck.
    assert exchange_schedule(Rules(), 10) == (5, 4, 3, 2, 1)
    with pytest.raises(RulesError) as e:
        exchange_schedule(Rules(), 11)
    assert e.value.field == "rules.decks" and "2 jeux" in e.value.text.fr
    assert exchange_schedule(Rules(decks=2), 11) == (5, 4, 3, 2, 1)
    # More decks than four would be needed: too many players.
    with pytest.raises(RulesError) as e:
        exchange_schedule(Rules(decks=4), 30)
    assert e.value.field == "players"
    # A group's own schedule that does not fit is refused on it.
    with pytest.raises(RulesError) as e:
        exchange_schedule(Rules(schedule=(5,)), 12)
    assert e.value.field == "rules.schedule"
    assert exchange_schedule(Rules(schedule=(2, 1)), 12) == (2, 1)
    # outcome() refuses such a table too, instead of answering an impossible exchange.
    names = [f"P{i}" for i in range(11)]
    with pytest.raises(RulesError):
        outcome(Rules(), names, names[:-1], first=True)


def test_failed_putsch_penalty_capped_by_the_hand() -> None:
    # seed 000: « il est ainsi condamné à donner ses 4 meilleures cartes au Président » — but nobody
    # gives cards he was not dealt: at 14 players on one deck each holds 3.
    names = [f"P{i:02}" for i in range(14)]
    rules = Rules(putsch=True, schedule=(1,))
    failed = outcome(rules, names, [names[0]], events=Events(putsch=names[-1]))
    assert failed.putsch_banned == names[-1]
    assert failed.exchanges[0].count == 3
    assert outcome(Rules(putsch=True), names[:4], [names[0]], events=Events(putsch=names[3])).exchanges[0].count == 4
