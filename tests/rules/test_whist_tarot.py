"""Scenario tests of whist with a tarot deck (seed 002; RULES.md §3), the seed's own examples first."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card
from companion.rules.i18n import RulesError
from companion.rules.whist_tarot import (
    STAKE,
    Bid,
    Deal,
    DealSpec,
    Effect,
    Play,
    RuleId,
    bidding_order,
    first_deal,
    first_leader,
    forbidden_bid,
    next_deal,
    roles,
    settle,
)

FOUR = ("Ann", "Bob", "Cid", "Dan")
THREE = ("Ann", "Bob", "Cid")


def card(text: str) -> Card:
    return Card.parse(text)


def playing(players: tuple[str, ...], dealer: str, cards: int, **kw: object) -> Deal:
    """A deal whose bidding is over (everybody bid 0, except the dealer's forbidden case avoided)."""
    bids = dict.fromkeys(bidding_order(players, dealer), 0)
    bids[dealer] = 1 if cards != 1 else 0
    if sum(bids.values()) == cards:
        bids[dealer] = 0
    return Deal(players, dealer, cards, bids, **kw)  # type: ignore[arg-type]


# -- the seed's own examples --------------------------------------------------------


def test_dealer_may_not_bid_the_value_that_makes_the_total():
    # seed 002: « à 4 joueurs, au premier tour où il y a 5 plis à faire, si le premier dit 2, le
    # suivant 1, le suivant 1, le donneur ne pourra pas dire 1 car la somme des annonces ferait alors 5. »
    deal = Deal(FOUR, "Dan", 5, {"Ann": 2, "Bob": 1, "Cid": 1})
    verdict = deal.check(Bid("Dan", 1))
    assert not verdict.legal
    assert verdict.rule is RuleId.DEALER_BID
    assert verdict.forbidden_bid == 1
    assert "1" in verdict.reason.get("fr")  # type: ignore[union-attr]
    # seed 002: « Il peut dire 0 ou 2 (ou plus) si il le désire. »
    for bid in (0, 2, 3, 5):
        assert deal.check(Bid("Dan", bid)).legal
        assert deal.check(Bid("Dan", bid)).forbidden_bid == 1
    assert forbidden_bid(5, [2, 1, 1]) == 1


def test_bid_one_took_three_gives_back_two():
    # seed 002: « le joueur qui a annoncé 1 et qui fait finalement 3 plis, retire 2 cartes de sa mise. »
    result = settle(
        FOUR,
        "Dan",
        5,
        False,
        dict.fromkeys(FOUR, STAKE),
        {"Ann": 1, "Bob": 2, "Cid": 0, "Dan": 1},
        {"Ann": 3, "Bob": 2, "Cid": 0, "Dan": 0},
    )
    assert result.losses == {"Ann": 2, "Bob": 0, "Cid": 0, "Dan": 1}
    assert result.stakes == {"Ann": 12, "Bob": 14, "Cid": 14, "Dan": 13}
    assert not result.ended and result.winners == []


# -- players and deals ----------------------------------------------------------------


@pytest.mark.parametrize("players", [("Ann", "Bob"), ("A", "B", "C", "D", "E"), ()])
def test_three_or_four_players_only(players):
    # RULES.md §3: « Players 3 or 4 (22 trumps: 4 × 5 cards fit) »
    with pytest.raises(RulesError) as e:
        first_deal(players)
    assert e.value.field == "players"
    assert "3 ou 4" in e.value.text.fr


def test_deal_schedule_five_to_one_then_blind_then_left():
    # seed 002: « premier tour 5 cartes à chacun, puis 4 au tour suivant, puis 3, puis 2, puis 1.
    # Enfin une dernière donne avec 1 carte, mais dans ce tour les joueurs ne regardent pas leur carte. »
    # « chaque joueur va faire 6 donnes, puis ce sera au tour de son voisin de gauche »
    spec = first_deal(THREE, "Bob")
    seen = [spec]
    for _ in range(12):
        spec = next_deal(THREE, spec.dealer, spec.cards, spec.blind)
        seen.append(spec)
    assert [(s.dealer, s.cards, s.blind) for s in seen[:7]] == [
        ("Bob", 5, False),
        ("Bob", 4, False),
        ("Bob", 3, False),
        ("Bob", 2, False),
        ("Bob", 1, False),
        ("Bob", 1, True),
        ("Cid", 5, False),
    ]
    assert seen[12] == DealSpec("Ann", 5, False)  # round the table: Cid's six deals, then Ann


def test_only_the_one_card_deal_is_blind():
    with pytest.raises(RulesError) as e:
        next_deal(THREE, "Ann", 3, True)
    assert e.value.field == "blind"
    with pytest.raises(RulesError) as e:
        next_deal(THREE, "Ann", 6)
    assert e.value.field == "cards"


# -- bidding --------------------------------------------------------------------------


def test_bidding_starts_left_of_the_dealer_and_ends_with_him():
    # seed 002: « Le joueur se trouvant à gauche du donneur commence à parler … et ainsi jusqu'au donneur. »
    assert bidding_order(FOUR, "Bob") == ("Cid", "Dan", "Ann", "Bob")
    deal = Deal(FOUR, "Bob", 3)
    assert deal.to_act == "Cid"
    verdict = deal.check(Bid("Ann", 1))
    assert verdict.rule is RuleId.TURN and not verdict.legal
    assert "Cid" in verdict.reason.get("fr")  # type: ignore[union-attr]
    ok = deal.check(Bid("Cid", 1))
    assert ok.legal and ok.next_player == "Dan" and ok.forbidden_bid is None


def test_last_bid_hands_over_to_the_first_leader():
    deal = Deal(FOUR, "Dan", 2, {"Ann": 1, "Bob": 0, "Cid": 0})
    verdict = deal.check(Bid("Dan", 0))
    assert verdict.legal and verdict.next_player == "Bob"  # second left of Dan


def test_no_forbidden_value_when_it_would_be_negative():
    # RULES.md §3: « if that value is negative there is no forbidden value »
    deal = Deal(THREE, "Cid", 2, {"Ann": 2, "Bob": 1})
    assert deal.forbidden_bid() is None
    assert all(deal.check(Bid("Cid", b)).legal for b in range(3))
    assert deal.check(Bid("Cid", 0)).forbidden_bid is None


def test_forbidden_zero_when_others_already_bid_all_tricks():
    deal = Deal(THREE, "Cid", 3, {"Ann": 2, "Bob": 1})
    assert deal.check(Bid("Cid", 0)).rule is RuleId.DEALER_BID


@pytest.mark.parametrize("bid", [-1, 6, 99])
def test_bids_go_from_zero_to_the_cards_dealt(bid):
    # RULES.md §3: « each player bids 0..n tricks »
    verdict = Deal(FOUR, "Dan", 5).check(Bid("Ann", bid))
    assert verdict.rule is RuleId.BID_RANGE and not verdict.legal


def test_no_bid_once_bidding_is_over():
    deal = Deal(THREE, "Ann", 1, {"Bob": 0, "Cid": 0, "Ann": 0})
    assert deal.check(Bid("Bob", 1)).rule is RuleId.TURN


def test_forbidden_bid_is_only_the_dealers():
    deal = Deal(FOUR, "Dan", 5, {"Ann": 2, "Bob": 1})
    assert deal.check(Bid("Cid", 2)).forbidden_bid is None


# -- play -----------------------------------------------------------------------------


def test_first_trick_is_led_second_left_of_the_dealer():
    # seed 002: « Ce n'est pas le joueur à gauche du donneur qui commence à jouer, mais encore le suivant. »
    assert first_leader(FOUR, "Dan") == "Bob"
    deal = playing(FOUR, "Dan", 5)
    assert deal.to_act == "Bob"
    assert deal.check(Play("Ann", card("T3"))).rule is RuleId.TURN
    assert deal.check(Play("Bob", card("T3"))).next_player == "Cid"


def test_every_player_has_a_role_at_four_and_three_at_three():
    # seed 002: « (Ainsi chacun à un rôle : le donneur, le premier à parler, le premier à
    # jouer, et à 4, celui qui coupe avant le donneur) »
    for dealer in FOUR:
        four = roles(FOUR, dealer)
        assert four.first_bidder == bidding_order(FOUR, dealer)[0]
        assert four.first_leader == first_leader(FOUR, dealer)
        assert sorted(four) == sorted(FOUR)  # one role each
        # The one who cuts sits on the dealer's right: the last to bid before the dealer.
        assert four.cutter == bidding_order(FOUR, dealer)[-2]
    assert roles(FOUR, "Dan") == ("Dan", "Ann", "Bob", "Cid")
    three = roles(THREE, "Cid")
    assert three == ("Cid", "Ann", "Bob", None)


def test_cards_wait_for_the_bids():
    # seed 002: « Chaque tour se passe en une phase d'annonce et une phase de jeu. »
    deal = Deal(FOUR, "Dan", 5, {"Ann": 1})
    assert deal.check(Play("Bob", card("T3"))).rule is RuleId.TURN


def test_any_card_may_be_played():
    # seed 002: « On n'est pas obligé de monter, juste de jouer. »
    deal = playing(THREE, "Ann", 3, trick=(Play("Cid", card("T20")),))
    verdict = deal.check(Play("Ann", card("T1")))
    assert verdict.legal and verdict.effects == ()


def test_highest_trump_wins_and_leads_next():
    # seed 002: « La carte la plus forte emporte le pli, et c'est le joueur qui remporte le pli qui rejoue. »
    deal = playing(THREE, "Ann", 3, trick=(Play("Cid", card("T5")), Play("Ann", card("T17"))))
    verdict = deal.check(Play("Bob", card("T9")))
    assert verdict.legal
    assert verdict.effects == (Effect.TRICK_WON,)
    assert verdict.trick_winner == "Ann" and verdict.next_player == "Ann"
    after = deal.apply(Play("Bob", card("T9")))
    assert after.trick == () and after.to_act == "Ann" and after.tricks == {"Ann": 1}
    assert set(after.played) == {card("T5"), card("T17"), card("T9")}
    assert after.check(Play("Bob", card("T2"))).rule is RuleId.TURN


def test_excuse_must_be_announced():
    # seed 002: « Le joueur qui la joue annonce sa valeur : soit 0 (la plus faible), soit 22 (la plus forte). »
    deal = playing(THREE, "Ann", 3, trick=(Play("Cid", card("T21")), Play("Ann", card("T1"))))
    verdict = deal.check(Play("Bob", card("EX")))
    assert verdict.rule is RuleId.EXCUSE and not verdict.legal
    high = deal.check(Play("Bob", card("EX"), 22))
    assert high.trick_winner == "Bob"
    low = deal.check(Play("Bob", card("EX"), 0))
    assert low.trick_winner == "Cid"


def test_excuse_at_zero_loses_even_to_the_one():
    deal = playing(THREE, "Ann", 3, trick=(Play("Cid", card("EX"), 0), Play("Ann", card("T1"))))
    assert deal.check(Play("Bob", card("T2"))).trick_winner == "Bob"


def test_excuse_value_only_0_or_22_and_only_on_the_excuse():
    with pytest.raises(RulesError) as e:
        Play("Bob", card("EX"), 21)
    assert e.value.field == "excuse"
    with pytest.raises(RulesError):
        Play("Bob", card("T4"), 22)


def test_a_card_already_out_cannot_be_played_again():
    # RULES.md §3: one deck of 22 cards: a card out this deal is gone.
    deal = playing(THREE, "Ann", 3, trick=(Play("Cid", card("T5")),), played=(card("T7"), card("T8"), card("T9")))
    verdict = deal.check(Play("Ann", card("T7")))
    assert verdict.rule is RuleId.CARD_PLAYED
    assert verdict.reason.get("fr") == "L’atout 7 est déjà sorti dans cette donne."  # type: ignore[union-attr]
    assert deal.check(Play("Ann", card("T5"))).rule is RuleId.CARD_PLAYED
    assert deal.check(Play("Ann", card("T6"))).legal


def test_last_trick_ends_the_deal():
    deal = playing(THREE, "Ann", 1, trick=(Play("Cid", card("T5")), Play("Ann", card("T6"))))
    verdict = deal.check(Play("Bob", card("T2")))
    assert verdict.trick_winner == "Ann" and verdict.next_player is None
    after = deal.apply(Play("Bob", card("T2")))
    assert after.over and after.to_act is None
    assert after.check(Play("Ann", card("T3"))).rule is RuleId.TURN


def test_turn_is_reported_before_other_rules():
    deal = playing(THREE, "Ann", 3, played=(card("T7"), card("T8"), card("T9")), leader="Bob")
    assert deal.check(Play("Ann", card("T7"))).rule is RuleId.TURN


def test_unknown_leader_after_earlier_tricks_lets_anybody_lead():
    deal = playing(THREE, "Ann", 3, played=(card("T7"), card("T8"), card("T9")))
    assert deal.to_act is None
    verdict = deal.check(Play("Ann", card("T1")))
    assert verdict.legal and verdict.next_player == "Bob"


def test_a_complete_trick_in_the_state_is_led_by_its_winner():
    trick = (Play("Cid", card("T5")), Play("Ann", card("T17")), Play("Bob", card("T9")))
    deal = playing(THREE, "Ann", 3, trick=trick)
    assert deal.to_act == "Ann"
    assert deal.check(Play("Bob", card("T1"))).rule is RuleId.TURN
    assert deal.check(Play("Ann", card("T17"))).rule is RuleId.CARD_PLAYED


def test_legal_moves_lists_both_excuse_values():
    deal = playing(THREE, "Ann", 2)
    moves = deal.legal_moves([card("EX"), card("T3")])
    assert Play("Cid", card("EX"), 0) in moves and Play("Cid", card("EX"), 22) in moves
    assert len(moves) == 3


# -- malformed tables -------------------------------------------------------------------


def test_bids_out_of_order_are_malformed():
    with pytest.raises(RulesError) as e:
        Deal(FOUR, "Dan", 5, {"Bob": 1})
    assert e.value.field == "bids.Bob"


def test_trick_out_of_seat_order_is_malformed():
    with pytest.raises(RulesError) as e:
        playing(FOUR, "Dan", 5, trick=(Play("Bob", card("T1")), Play("Dan", card("T2"))))
    assert e.value.field == "trick[1].player"


def test_a_card_twice_in_the_state_is_malformed():
    with pytest.raises(RulesError) as e:
        playing(FOUR, "Dan", 5, trick=(Play("Bob", card("T1")),), played=(card("T1"),) * 1)
    assert e.value.field == "trick[0].card"


def test_played_cards_come_in_whole_tricks():
    with pytest.raises(RulesError) as e:
        playing(THREE, "Ann", 3, played=(card("T1"), card("T2")))
    assert e.value.field == "played"
    with pytest.raises(RulesError) as e:
        playing(THREE, "Ann", 1, played=(card("T1"), card("T2"), card("T3")), trick=(Play("Bob", card("T4")),))
    assert e.value.field == "played"


def test_unknown_players_are_malformed():
    with pytest.raises(RulesError) as e:
        Deal(FOUR, "Zoe", 5)
    assert e.value.field == "dealer"
    with pytest.raises(RulesError) as e:
        Deal(FOUR, "Dan", 5).check(Bid("Zoe", 1))
    assert e.value.field == "player"


# -- settlement -------------------------------------------------------------------------


def test_a_stake_never_goes_below_zero_and_ends_the_game():
    # seed 002: « Le jeu s'arrête quand un joueur se retrouve sans plus aucune carte dans sa mise.
    # Le gagnant est celui à qui il reste le plus de cartes dans sa mise. »
    result = settle(
        THREE,
        "Ann",
        5,
        False,
        {"Ann": 2, "Bob": 9, "Cid": 7},
        {"Ann": 4, "Bob": 0, "Cid": 0},
        {"Ann": 0, "Bob": 3, "Cid": 2},
    )
    assert result.losses == {"Ann": 2, "Bob": 3, "Cid": 2}
    assert result.stakes == {"Ann": 0, "Bob": 6, "Cid": 5}
    assert result.ended and result.winners == ["Bob"]


def test_the_game_can_end_inside_a_series_and_ties_share():
    # RULES.md §3: « The game can end inside a dealer's series »; « equal largest stakes share the win »
    result = settle(
        THREE,
        "Cid",
        3,
        False,
        {"Ann": 5, "Bob": 1, "Cid": 5},
        {"Ann": 1, "Bob": 1, "Cid": 2},
        {"Ann": 1, "Bob": 2, "Cid": 0},
    )
    assert result.stakes == {"Ann": 5, "Bob": 0, "Cid": 3}
    assert result.ended and result.winners == ["Ann"]
    tie = settle(
        THREE,
        "Cid",
        1,
        True,
        {"Ann": 4, "Bob": 1, "Cid": 4},
        {"Ann": 0, "Bob": 0, "Cid": 0},
        {"Ann": 0, "Bob": 1, "Cid": 0},
    )
    assert tie.ended and tie.winners == ["Ann", "Cid"]
    assert tie.next == DealSpec("Ann", 5, False)


def test_tricks_must_add_up_to_the_cards_dealt():
    # RULES.md §3: « The sum of tricks is always n. »
    with pytest.raises(RulesError) as e:
        settle(
            THREE,
            "Ann",
            3,
            False,
            dict.fromkeys(THREE, 14),
            {"Ann": 0, "Bob": 1, "Cid": 1},
            {"Ann": 1, "Bob": 1, "Cid": 0},
        )
    assert e.value.field == "tricks"


def test_settle_rejects_missing_or_impossible_entries():
    stakes = dict.fromkeys(THREE, 14)
    with pytest.raises(RulesError) as e:
        settle(THREE, "Ann", 3, False, stakes, {"Ann": 1, "Bob": 1}, {"Ann": 1, "Bob": 1, "Cid": 1})
    assert e.value.field == "bids.Cid"
    with pytest.raises(RulesError) as e:
        settle(THREE, "Ann", 3, False, {**stakes, "Ann": 15}, dict.fromkeys(THREE, 1), dict.fromkeys(THREE, 1))
    assert e.value.field == "stakes.Ann"
    with pytest.raises(RulesError) as e:
        settle(THREE, "Ann", 3, False, {**stakes, "Ann": 0}, dict.fromkeys(THREE, 1), dict.fromkeys(THREE, 1))
    assert e.value.field == "stakes"
    with pytest.raises(RulesError) as e:
        settle(THREE, "Ann", 3, False, stakes, {**dict.fromkeys(THREE, 1), "Zoe": 1}, dict.fromkeys(THREE, 1))
    assert e.value.field == "bids.Zoe"


def test_settlement_refuses_the_dealers_forbidden_bid():
    # seed 002: « Le donneur lui ne peut dire un nombre de plis qui ferait que la somme des annonces
    # serait égale au nombre de plis à faire. Par exemple à 4 joueurs, au premier tour où il y a 5 plis
    # à faire, si le premier dit 2, le suivant 1, le suivant 1, le donneur ne pourra pas dire 1 »
    stakes = dict.fromkeys(FOUR, STAKE)
    tricks = {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 1}
    with pytest.raises(RulesError) as e:
        settle(FOUR, "Dan", 5, False, stakes, {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 1}, tricks)
    assert e.value.field == "bids.Dan"
    # the same reason as the bid check at the table, naming the forbidden value, in both languages
    at_table = Deal(FOUR, "Dan", 5, {"Ann": 2, "Bob": 1, "Cid": 1}).check(Bid("Dan", 1))
    assert e.value.text == at_table.reason
    assert "ne peut pas annoncer 1" in e.value.text.fr and "may not bid 1" in e.value.text.en
    # « Il peut dire 0 ou 2 (ou plus) si il le désire. »
    for bid in (0, 2, 5):
        assert settle(FOUR, "Dan", 5, False, stakes, {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": bid}, tricks).losses
    # a forbidden value of 0 too, and none when the others bid more than the tricks
    with pytest.raises(RulesError) as e:
        settle(
            THREE,
            "Cid",
            2,
            False,
            dict.fromkeys(THREE, 5),
            {"Ann": 1, "Bob": 1, "Cid": 0},
            {"Ann": 2, "Bob": 0, "Cid": 0},
        )
    assert e.value.field == "bids.Cid" and "may not bid 0" in e.value.text.en
    no_forbidden = settle(
        THREE, "Cid", 1, True, dict.fromkeys(THREE, 5), dict.fromkeys(THREE, 1), {"Ann": 1, "Bob": 0, "Cid": 0}
    )
    assert no_forbidden.losses == {"Ann": 0, "Bob": 1, "Cid": 1}


@pytest.mark.parametrize("bid", [-1, 4, True, "1"])
def test_settlement_refuses_bids_outside_zero_to_the_cards_dealt(bid):
    # RULES.md §3: « starting left of the dealer, each player bids 0..n tricks »
    # API.md: « Bids must be possible: each in 0..`cards` »
    with pytest.raises(RulesError) as e:
        settle(
            THREE,
            "Ann",
            3,
            False,
            dict.fromkeys(THREE, 5),
            {"Ann": 0, "Bob": bid, "Cid": 1},
            {"Ann": 3, "Bob": 0, "Cid": 0},
        )
    assert e.value.field == "bids.Bob"
