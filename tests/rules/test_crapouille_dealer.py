"""La crapouille: who deals each hand and who starts it (seed 003; issue 27).

# seed 003: « On joue dans le sens des aiguilles d'une montre. Le donneur distribue cinq cartes
# à chacun, une par une […]. Chaque joueur à son tour, en commençant par le joueur à gauche du
# donneur »

Seats are clockwise, so a player's left is the next seat; the deal passes to the left
each hand (the seed does not say who deals next: the table's custom, as in whist),
skipping the players who are out.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.crapouille import (
    Opening,
    Scoresheet,
    first_opening,
    next_dealer,
    next_opening,
    opening,
    starter,
)
from companion.rules.i18n import RulesError
from companion.rules.whist_tarot import bidding_order

SEATS = ["Ann", "Bob", "Cid", "Dan", "Eve"]


def test_the_player_on_the_dealers_left_starts():
    # seed 003: « en commençant par le joueur à gauche du donneur »
    assert first_opening(SEATS) == Opening("Ann", "Bob")
    assert first_opening(SEATS, "Eve") == Opening("Eve", "Ann")  # round the table
    assert opening(SEATS, ["Ann", "Cid", "Eve"], "Ann") == Opening("Ann", "Cid")  # Bob is out


def test_left_is_the_same_direction_as_the_whist_deal():
    # The whist engine's "left of the dealer" (seed 002: the deal passes to the left) is the next seat.
    four = SEATS[:4]
    for dealer in four:
        assert starter(four, four, dealer) == bidding_order(four, dealer)[0]
        assert next_dealer(four, four, dealer) == bidding_order(four, dealer)[0]
    assert starter(four, four, "Dan") == "Ann"


def test_the_deal_goes_round_the_table_one_seat_a_hand():
    dealers = []
    dealer = "Cid"
    for _hand in range(6):
        dealers.append(dealer)
        dealer = next_dealer(SEATS, SEATS, dealer)
    assert dealers == ["Cid", "Dan", "Eve", "Ann", "Bob", "Cid"]


def test_players_out_are_skipped_and_a_dealer_who_goes_out_passes_the_deal_to_his_left():
    # Cid deals; Dan (on his left) goes out in that hand: Eve deals next, Ann starts.
    assert next_opening(SEATS, ["Ann", "Bob", "Cid", "Eve"], "Cid") == Opening("Eve", "Ann")
    # Cid deals and goes out himself: the deal still passes to his left, to Dan.
    assert next_opening(SEATS, ["Ann", "Bob", "Dan", "Eve"], "Cid") == Opening("Dan", "Eve")
    # Cid deals; Dan and Eve go out: Ann deals, Bob starts.
    assert next_opening(SEATS, ["Ann", "Bob", "Cid"], "Cid") == Opening("Ann", "Bob")


def test_two_players_left_take_turns():
    in_play = ["Bob", "Eve"]
    assert next_opening(SEATS, in_play, "Bob") == Opening("Eve", "Bob")
    assert next_opening(SEATS, in_play, "Eve") == Opening("Bob", "Eve")


def test_no_next_hand_once_one_player_is_left():
    assert next_opening(SEATS, ["Dan"], "Cid") is None
    assert next_opening(SEATS, [], "Cid") is None


def test_a_player_out_cannot_deal_and_an_unknown_one_is_named():
    with pytest.raises(RulesError) as e:
        opening(SEATS, ["Ann", "Bob"], "Cid")
    assert e.value.text.fr == "Cid est hors jeu\u00a0: seule une personne encore en jeu peut donner."
    assert e.value.field == "dealer"
    with pytest.raises(RulesError) as e:
        next_dealer(SEATS, SEATS, "Zoé")
    assert e.value.text.fr == "Joueur inconnu\u00a0: Zoé."


def test_a_game_played_to_its_end_with_the_scoresheet():
    # Four players; the deal passes to the left of each hand's dealer as players go out.
    sheet = Scoresheet.start(["Ann", "Bob", "Cid", "Dan"], {"Bob": 290, "Dan": 250})
    turn = first_opening(sheet.players, "Ann")
    assert turn == Opening("Ann", "Bob")
    # Hand 1, dealt by Ann: Bob goes past 300.
    sheet = sheet.score_hand("Cid", points={"Ann": 5, "Bob": 20, "Dan": 5}).sheet
    turn = next_opening(sheet.players, sheet.in_play, turn.dealer)
    assert turn == Opening("Cid", "Dan")  # Bob, on Ann's left, is out
    # Hand 2, dealt by Cid: Cid himself goes out.
    sheet = sheet.score_hand("Ann", points={"Cid": 301, "Dan": 1}).sheet
    turn = next_opening(sheet.players, sheet.in_play, turn.dealer)
    assert turn == Opening("Dan", "Ann")
    # Hand 3, dealt by Dan: Dan goes out, Ann is left alone and wins.
    sheet = sheet.score_hand("Ann", points={"Dan": 60}).sheet
    assert next_opening(sheet.players, sheet.in_play, turn.dealer) is None
    assert sheet.winners() == ["Ann"]


# --- properties


@st.composite
def games(draw: st.DrawFn) -> tuple[list[str], str, list[list[str]]]:
    """Seats, a first dealer, and the players still in after each hand (eliminations only
    ever take players out)."""
    seats = [f"P{i}" for i in range(draw(st.integers(2, 9)))]
    first = draw(st.sampled_from(seats))
    in_play = list(seats)
    after: list[list[str]] = []
    for _hand in range(draw(st.integers(0, 30))):
        if len(in_play) < 2:
            break
        out = draw(st.sets(st.sampled_from(in_play), max_size=len(in_play)))
        in_play = [p for p in in_play if p not in out]
        after.append(list(in_play))
    return seats, first, after


@settings(max_examples=300, deadline=None)
@given(games())
def test_dealer_and_starter_are_always_in_and_never_the_same(game):
    seats, first, after = game
    turn = first_opening(seats, first)
    for in_play in after:
        assert turn.dealer != turn.starter
        before = turn
        turn = next_opening(seats, in_play, before.dealer)
        if len(in_play) < 2:
            assert turn is None
            break
        assert turn is not None
        assert turn.dealer in in_play and turn.starter in in_play and turn.dealer != turn.starter
        # The new dealer is the first player still in on the old dealer's left.
        seat = seats.index(before.dealer)
        left = [*seats[seat + 1 :], *seats[: seat + 1]]
        assert turn.dealer == next(p for p in left if p in in_play)
        # The starter is the first player still in on the new dealer's left.
        seat = seats.index(turn.dealer)
        left = [*seats[seat + 1 :], *seats[: seat + 1]]
        assert turn.starter == next(p for p in left if p in in_play and p != turn.dealer)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9), st.data())
def test_with_nobody_going_out_everyone_deals_once_a_lap(n, data):
    seats = [f"P{i}" for i in range(n)]
    in_play = data.draw(st.lists(st.sampled_from(seats), min_size=2, unique=True))
    in_play = [p for p in seats if p in in_play]
    dealer = data.draw(st.sampled_from(in_play))
    dealt = []
    for _hand in range(len(in_play)):
        dealt.append(dealer)
        turn = next_opening(seats, in_play, dealer)
        assert turn is not None
        # Nobody went out: whoever started the hand deals the next one.
        assert turn.dealer == starter(seats, in_play, dealer)
        dealer = turn.dealer
    assert sorted(dealt) == sorted(in_play)
    assert dealer == dealt[0]  # a full lap brings the deal back
