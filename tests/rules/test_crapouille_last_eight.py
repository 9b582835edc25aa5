"""Going out at la crapouille (seed 003; RULES.md §4): an 8 laid as a player's last card
ends the hand and asks no suit; finishing on a 2 makes the next player draw one more
card, which counts; once the hand is over, nobody plays (issue 23)."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card, Suit, parse_cards
from companion.rules.crapouille import Draw, Effect, Options, Pile, PlayCard, PlayRule
from companion.rules.i18n import RulesError

FOUR = ("Ann", "Bob", "Cid", "Dan")


def pile(cards: str, *, players: tuple[str, ...] = FOUR, turn: str | None = "Bob", **kw: object) -> Pile:
    return Pile(players, parse_cards(cards), turn=turn, **kw)  # type: ignore[arg-type]


def play(player: str, text: str, **kw: object) -> PlayCard:
    return PlayCard(player, Card.parse(text), **kw)  # type: ignore[arg-type]


# -- an 8 as the last card --------------------------------------------------------------------


def test_an_eight_as_the_last_card_ends_the_hand_without_a_suit():
    # seed 003: « Lorsqu'un joueur s'est débarrassé de toutes ses cartes, le coup se termine. » The 8
    # « permet au joueur qui l'a posé de changer la couleur demandée »: with no card left, there is
    # nobody to follow it (RULES.md §4: « An 8 laid as a player's last card ends the hand: no suit is
    # asked »).
    table = pile("4c 9d")
    verdict = table.check(play("Bob", "8h", last=True))
    assert verdict.legal and verdict.effects == (Effect.OUT,)
    assert verdict.asked is None and verdict.next_player is None and verdict.target is None
    over = table.apply(play("Bob", "8h", last=True))  # no suit: not refused
    assert over.out == "Bob" and over.asked is None and over.turn is None
    assert over.pile == parse_cards("4c 9d 8h")


def test_the_hand_tells_it_is_the_last_card():
    # seed 003: « Le joueur qui n'a plus qu'une carte en main »: the hand given says it is the last one.
    table = pile("4c 9d")
    verdict = table.check(play("Bob", "8h"), hand=parse_cards("8h"))
    assert verdict.legal and verdict.effects == (Effect.OUT,) and verdict.asked is None
    # With more cards in hand, the 8 does not finish: it asks a suit, which apply requires.
    more = table.check(play("Bob", "8h"), hand=parse_cards("8h 3s"))
    assert more.effects == (Effect.CHOOSE_SUIT,) and more.next_player == "Cid"
    with pytest.raises(RulesError) as e:
        table.apply(play("Bob", "8h"), hand=parse_cards("8h 3s"))
    assert e.value.field == "asked"


def test_a_suit_named_with_a_last_eight_is_ignored():
    # Our choice (docs/rules.md): a careful referee lets a suit named out of habit pass; it asks nothing.
    table = pile("4c 9d")
    verdict = table.check(play("Bob", "8h", asked=Suit.SPADES, last=True))
    assert verdict.legal and verdict.effects == (Effect.OUT,) and verdict.asked is None
    over = table.apply(play("Bob", "8h", asked=Suit.SPADES, last=True))
    assert over.asked is None and over.out == "Bob"


@pytest.mark.parametrize(
    ("cards", "asked"),
    [
        ("4c 9d 8s", Suit.CLUBS),  # on an 8 that asked clubs: another 8 goes anywhere but on a 2
        ("4c 9d RJ", None),  # on a joker
        ("4c 9d 8s RJ", Suit.HEARTS),  # on a joker lying on an 8
        ("8d", None),  # on a starting 8, which has no power
    ],
)
def test_a_last_eight_goes_wherever_an_eight_goes(cards: str, asked: Suit | None):
    # seed 003: « le 8, qui lui aussi peut se placer sur n'importe quelle carte (sauf là encore sur un 2) »
    verdict = pile(cards, asked=asked).check(play("Bob", "8c", last=True))
    assert verdict.legal and verdict.effects == (Effect.OUT,) and verdict.asked is None


def test_a_last_eight_may_not_go_on_a_two_nor_finish_unannounced():
    # seed 003: « (sauf là encore sur un 2) »; « S'il ne l'a pas fait, il lui sera interdit de finir au
    # tour suivant. »
    assert pile("4c 2d").check(play("Bob", "8d", last=True)).rule is PlayRule.ON_TWO
    unannounced = pile("4c 9d").check(play("Bob", "8h", last=True, announced=False))
    assert unannounced.rule is PlayRule.ANNOUNCE and not unannounced.legal
    # ... and out of turn, as any card.
    assert pile("4c 9d").check(play("Cid", "8h", last=True)).rule is PlayRule.TURN


def test_an_eight_that_does_not_finish_still_asks_its_suit():
    # seed 003: « Vous posez le 8 de cœur sur la table et demandez « pique ». »
    table = pile("4c 9d")
    with pytest.raises(RulesError) as e:
        table.apply(play("Bob", "8h"))
    assert e.value.field == "asked"
    after = table.apply(play("Bob", "8h", asked=Suit.SPADES))
    assert after.asked is Suit.SPADES and after.out is None and after.turn == "Cid"


def test_a_last_joker_carries_no_suit_past_the_end():
    # seed 003: « le coup se termine »: nothing is asked of anyone after the last card.
    table = pile("4c 9d 8s", asked=Suit.CLUBS)
    over = table.apply(play("Bob", "RJ", last=True))
    assert over.out == "Bob" and over.asked is None


# -- nobody plays once the hand is over ------------------------------------------------------


def test_once_the_hand_is_over_every_move_is_refused():
    # seed 003: « Lorsqu'un joueur s'est débarrassé de toutes ses cartes, le coup se termine. »
    over = pile("4c 9d").apply(play("Bob", "8h", last=True))
    for move in (play("Cid", "8s"), play("Cid", "9h"), Draw("Cid"), Draw("Dan", Card.parse("Ks"))):
        verdict = over.check(move)
        assert not verdict.legal and verdict.rule is PlayRule.TURN
        assert verdict.reason is not None and "Bob" in verdict.reason.get("fr")
        assert verdict.reason.get("fr") == "La donne est finie\u00a0: Bob n’a plus de cartes."
    with pytest.raises(RulesError):
        over.apply(play("Cid", "8s", asked=Suit.HEARTS))


def test_a_hand_over_is_written_out_and_read_back():
    over = pile("4c 9d").apply(play("Bob", "8h", last=True))
    state = over.to_state()
    assert state == {
        "players": list(FOUR),
        "pile": ["4c", "9d", "8h"],
        "direction": 1,
        "asked": None,
        "turn": None,
        "out": "Bob",
    }
    again = Pile(tuple(state["players"]), parse_cards(state["pile"]), 1, None, None, Options(), state["out"])
    assert again == over
    # The same table without who went out is a hand going on: its 8 must have asked a suit.
    with pytest.raises(RulesError) as e:
        Pile(tuple(state["players"]), parse_cards(state["pile"]), 1, None, None)
    assert e.value.field == "asked"


def test_a_hand_over_has_nobody_to_play_and_names_a_player_of_the_hand():
    with pytest.raises(RulesError) as e:
        Pile(FOUR, parse_cards("4c 9d"), turn="Cid", out="Bob")
    assert e.value.field == "turn"
    with pytest.raises(RulesError) as e:
        Pile(FOUR, parse_cards("4c 9d"), out="Eve")
    assert e.value.field == "out"


# -- finishing on a 2 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "direction", "options", "draws"),
    [
        (FOUR, 1, Options(), "Cid"),
        (FOUR, -1, Options(), "Ann"),  # after a 10: the next player the other way
        (FOUR, 1, Options(super=True), "Cid"),
        (("Ann", "Bob"), 1, Options(), "Ann"),  # two players: the other one
    ],
)
def test_finishing_on_a_two_names_who_draws_one_more_card(players, direction, options, draws):
    # seed 003: « Lorsqu'un joueur termine en posant un 2 sur la table, par convention, le joueur suivant
    # prend une carte supplémentaire. » RULES.md §4: « the next player (in the current direction) draws
    # one more card first, and it counts. »
    table = pile("4c 7d", players=players, direction=direction, options=options)
    verdict = table.check(play("Bob", "2d", last=True))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_ON_TWO)
    assert verdict.target == draws and verdict.next_player is None and verdict.skipped == ()
    over = table.apply(play("Bob", "2d", last=True))
    assert over.out == "Bob" and over.turn is None


def test_a_two_that_does_not_finish_is_no_finish_on_two():
    # seed 003: « le 2, qui fait prendre obligatoirement la première carte du talon au joueur suivant, qui,
    # de surcroît, passe son tour. »
    verdict = pile("4c 7d").check(play("Bob", "2d"), hand=parse_cards("2d Ks"))
    assert verdict.effects == (Effect.DRAW, Effect.SKIP) and Effect.FINISH_ON_TWO not in verdict.effects
