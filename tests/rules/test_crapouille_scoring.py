"""La crapouille: points of a hand, totals, eliminations past 300, ranking (seed 003)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import crapouille
from companion.rules.cards import parse_cards
from companion.rules.crapouille import ELIMINATION_TOTAL, Scoresheet, card_points, hand_points
from companion.rules.i18n import RulesError


def test_card_values():
    # seed 003: « le 8 vaut vingt points, le joker, quinze points, le 2, dix points, les figures,
    # cinq points et les autres cartes ont leur valeur (le 10 vaut 10, le 9 vaut 9... l'as vaut 1) »
    values = {
        c: card_points(parse_cards(c)[0]) for c in ["8s", "RJ", "BJ", "2h", "Jc", "Qd", "Kh", "10s", "9c", "Ad", "3h"]
    }
    assert values == {
        "8s": 20,
        "RJ": 15,
        "BJ": 15,
        "2h": 10,
        "Jc": 5,
        "Qd": 5,
        "Kh": 5,
        "10s": 10,
        "9c": 9,
        "Ad": 1,
        "3h": 3,
    }


def test_the_seed_strategy_warning_a_joker_and_an_eight_cost_35():
    # seed 003: « s'il vous reste un joker et un 8 en main alors qu'un joueur a annoncé « plus qu'une »,
    # vous risquez de marquer gros si ce joueur finit »
    assert hand_points(parse_cards("RJ 8c")) == 35


def test_points_add_up_over_hands():
    # seed 003: « A chaque coup, on additionne les points de chaque joueur aux points marqués lors des
    # coups précédents. »
    sheet = Scoresheet.start(["Ann", "Bob", "Cid"])
    sheet = sheet.score_hand("Ann", hands={"Bob": parse_cards("8h"), "Cid": parse_cards("Ks")}).sheet
    sheet = sheet.score_hand("Bob", points={"Ann": 12, "Cid": 7}).sheet
    assert sheet.totals == {"Ann": 12, "Bob": 20, "Cid": 12}


def test_over_300_is_out_and_300_exactly_stays_in():
    # seed 003: « Le premier perdant est celui qui dépasse la barre des 300 »
    sheet = Scoresheet.start(["Ann", "Bob", "Cid"], {"Ann": 0, "Bob": 290, "Cid": 290})
    result = sheet.score_hand("Ann", points={"Bob": 10, "Cid": 11})
    assert result.totals == {"Ann": 0, "Bob": 300, "Cid": 301}
    assert result.eliminated == ("Cid",)
    assert result.sheet.in_play == ("Ann", "Bob")
    assert not result.over


def test_last_player_left_wins_and_ranking_is_reverse_order_of_elimination():
    # seed 003: « et ainsi de suite, jusqu'à ce que tous les joueurs, sauf un qui est déclaré gagnant,
    # aient dépassé la barre des 300 »
    sheet = Scoresheet.start(["Ann", "Bob", "Cid"], {"Ann": 100, "Bob": 290, "Cid": 295})
    first = sheet.score_hand("Ann", points={"Bob": 5, "Cid": 20})
    assert first.eliminated == ("Cid",)
    second = first.sheet.score_hand("Ann", points={"Bob": 30})
    assert second.eliminated == ("Bob",)
    assert second.over and second.winners == ["Ann"]
    assert second.sheet.ranking() == ["Ann", "Bob", "Cid"]


def test_eliminated_players_are_not_asked_again():
    sheet = Scoresheet(("Ann", "Bob", "Cid"), {"Ann": 10, "Bob": 320, "Cid": 20}, (("Bob",),))
    with pytest.raises(RulesError) as err:
        sheet.score_hand("Ann", points={"Bob": 3, "Cid": 4})
    assert err.value.field == "points.Bob"
    assert "déjà hors jeu" in err.value.text.fr
    assert sheet.score_hand("Ann", points={"Cid": 4}).totals["Cid"] == 24


def test_two_crossing_in_the_same_hand_are_ranked_by_total_and_equal_totals_share():
    # RULES.md §4: two players crossing in the same hand are ranked by total (higher total = worse;
    # equal totals share the place).
    sheet = Scoresheet.start(["Ann", "Bob", "Cid", "Dan"], {"Ann": 0, "Bob": 290, "Cid": 290, "Dan": 280})
    result = sheet.score_hand("Ann", points={"Bob": 20, "Cid": 20, "Dan": 40})
    assert result.eliminated == ("Dan", "Bob", "Cid")
    assert result.over and result.winners == ["Ann"]
    assert result.sheet.places() == {"Ann": 1, "Bob": 2, "Cid": 2, "Dan": 4}


def test_when_every_remaining_player_crosses_the_lowest_total_wins():
    # RULES.md §4: if every remaining player crosses in the same hand, the lowest total wins.
    sheet = Scoresheet(("Ann", "Bob", "Cid"), {"Ann": 310, "Bob": 302, "Cid": 305}, ())
    assert sheet.places() == {"Bob": 1, "Cid": 2, "Ann": 3}
    crossed = Scoresheet(("Ann", "Bob", "Cid"), {"Ann": 310, "Bob": 302, "Cid": 305}, (("Ann", "Cid", "Bob"),))
    assert crossed.over and crossed.winners() == ["Bob"]


def test_the_winner_has_no_cards_to_count():
    sheet = Scoresheet.start(["Ann", "Bob"])
    with pytest.raises(RulesError) as err:
        sheet.score_hand("Ann", hands={"Ann": parse_cards("3h"), "Bob": parse_cards("4h")})
    assert err.value.field == "hands.Ann"


def test_the_winner_may_be_listed_with_nothing_to_count():
    # API.md: « The winner may be listed in `hands` with an empty hand, or in `points` with 0 (a screen
    # sends every player); any card or point for the winner is a 400. »
    sheet = Scoresheet.start(["Ann", "Bob", "Cid"])
    by_cards = sheet.score_hand("Ann", hands={"Ann": [], "Bob": parse_cards("8h"), "Cid": "Ks"})
    assert by_cards.points == {"Ann": 0, "Bob": 20, "Cid": 5}
    by_points = sheet.score_hand("Ann", points={"Ann": 0, "Bob": 20, "Cid": 5})
    assert by_points.points == by_cards.points and by_points.totals == by_cards.totals
    assert sheet.score_hand("Ann", hands={"Ann": "", "Bob": "8h"}, points={"Cid": 5}).totals["Ann"] == 0
    for kwargs, field in (
        ({"hands": {"Ann": "3h", "Bob": "8h", "Cid": "Ks"}}, "hands.Ann"),
        ({"points": {"Ann": 3, "Bob": 20, "Cid": 5}}, "points.Ann"),
        ({"points": {"Ann": True, "Bob": 20, "Cid": 5}}, "points.Ann"),
        ({"hands": {"Ann": []}, "points": {"Ann": 0, "Bob": 20, "Cid": 5}}, "points.Ann"),
    ):
        with pytest.raises(RulesError) as err:
            sheet.score_hand("Ann", **kwargs)  # type: ignore[arg-type]
        assert err.value.field == field, kwargs


def test_the_hand_result_gives_the_final_places_once_over():
    # API.md: « "places": {name: place} (when over; equal totals crossing in the same hand share a
    # place, as 1, 2, 2, 4) »
    # RULES.md §4: « two players crossing in the same hand are ranked by total (higher total = worse;
    # equal totals share the place) »
    sheet = Scoresheet.start(["Ann", "Bob", "Cid", "Dan"], {"Ann": 0, "Bob": 290, "Cid": 290, "Dan": 280})
    final = sheet.score_hand("Ann", points={"Bob": 20, "Cid": 20, "Dan": 40})
    assert final.over
    assert final.places == {"Ann": 1, "Bob": 2, "Cid": 2, "Dan": 4}
    assert final.ranking == ["Ann", "Bob", "Cid", "Dan"] and final.winners == ["Ann"]
    # Before the end there is no final place yet, like no ranking and no winner.
    going_on = sheet.score_hand("Ann", points={"Bob": 20, "Cid": 1, "Dan": 1})
    assert not going_on.over and going_on.eliminated == ("Bob",)
    assert going_on.places == {} and going_on.ranking == [] and going_on.winners == []


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"hands": {"Bob": parse_cards("8h 8h"), "Cid": parse_cards("8h")}}, "hands.Cid[0]", "que deux 8♥"),
        ({"hands": {"Bob": "8h 8x", "Cid": "3c"}}, "hands.Bob[1]", "Carte inconnue"),
        ({"hands": {"Bob": "8h"}}, "hands.Cid", "Il manque"),
        ({"hands": {"Bob": "8h"}, "points": {"Bob": 3, "Cid": 2}}, "points.Bob", "pas les deux"),
        ({"points": {"Bob": -1, "Cid": 2}}, "points.Bob", "nombre entier"),
        ({"points": {"Bob": True, "Cid": 2}}, "points.Bob", "nombre entier"),
        ({"points": {"Bob": 1, "Cid": 2, "Zoe": 3}}, "points.Zoe", "Joueur inconnu"),
        ({"hands": {"Bob": "T1", "Cid": "3c"}}, "hands.Bob", "crapouille"),
    ],
)
def test_bad_entries_are_refused_with_a_french_reason_and_the_field(kwargs, field, words):
    sheet = Scoresheet.start(["Ann", "Bob", "Cid"])
    with pytest.raises(RulesError) as err:
        sheet.score_hand("Ann", **kwargs)
    assert err.value.field is not None and err.value.field.startswith(field)
    assert words in err.value.text.fr


def test_unknown_winner_and_finished_game():
    sheet = Scoresheet.start(["Ann", "Bob"])
    with pytest.raises(RulesError) as err:
        sheet.score_hand("Zoe", points={"Bob": 1})
    assert err.value.field == "winner"
    over = Scoresheet(("Ann", "Bob"), {"Ann": 0, "Bob": 400}, (("Bob",),))
    with pytest.raises(RulesError, match="finie"):
        over.score_hand("Ann")


def test_two_players_apply_the_two_player_rule():
    # seed 003: « On peut jouer à deux joueurs en adoptant une règle complémentaire. »
    assert Scoresheet.start(["Ann", "Bob"]).two_player_rule
    assert not Scoresheet.start(["Ann", "Bob", "Cid"]).two_player_rule
    with pytest.raises(RulesError):
        Scoresheet.start(["Ann"])
    with pytest.raises(RulesError):
        Scoresheet.start(["Ann", "Ann"])


def test_super_crapouille_deals_ten_keeps_five():
    # seed 003: « on en distribue dix à chaque joueur, qui en écarte cinq en les remettant sur le talon »
    assert crapouille.deal(super_crapouille=True) == crapouille.Deal(10, 5)
    assert crapouille.deal() == crapouille.Deal(5, 5)


CARDS = crapouille.DECK.cards()


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_games_totals_only_grow_and_eliminations_only_past_300(data):
    players = [f"P{i}" for i in range(data.draw(st.integers(2, 6)))]
    sheet = Scoresheet.start(players)
    while not sheet.over:
        live = sheet.in_play
        winner = data.draw(st.sampled_from(live))
        pool = list(CARDS)
        hands = {}
        for p in live:
            if p == winner:
                continue
            n = data.draw(st.integers(1, 12))
            picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
            hands[p] = [pool[i] for i in picks]
            pool = [c for i, c in enumerate(pool) if i not in set(picks)]
        before = sheet
        result = sheet.score_hand(winner, hands=hands)
        sheet = result.sheet
        for p in players:
            assert sheet.totals[p] >= before.totals[p]
        for p in result.eliminated:
            assert sheet.totals[p] > ELIMINATION_TOTAL
        for p in sheet.in_play:
            assert sheet.totals[p] <= ELIMINATION_TOTAL
        assert sheet.totals[winner] == before.totals[winner]
    assert sorted(sheet.ranking()) == sorted(players)
    assert sheet.winners() and all(w in players for w in sheet.winners())


def test_resuming_with_a_total_past_300_is_refused():
    # RULES.md §4: a total over 300 is out, so a player still in cannot have one.
    with pytest.raises(RulesError) as err:
        Scoresheet.start(["Ann", "Bob"], {"Ann": 301})
    assert err.value.field == "totals.Ann" and "déjà hors jeu" in err.value.text.fr
    assert Scoresheet.start(["Ann", "Bob"], {"Ann": 300}).totals["Ann"] == 300
