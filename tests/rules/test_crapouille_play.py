"""Scenario tests of la crapouille play by play (seed 003; RULES.md §4), the seed's own examples first."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card, Suit, parse_cards
from companion.rules.crapouille import Draw, Effect, Options, Pile, PlayCard, PlayRule
from companion.rules.i18n import RulesError

FOUR = ("Ann", "Bob", "Cid", "Dan")


def card(text: str) -> Card:
    return Card.parse(text)


def pile(cards: str, *, players: tuple[str, ...] = FOUR, turn: str | None = "Bob", **kw: object) -> Pile:
    return Pile(players, parse_cards(cards), turn=turn, **kw)  # type: ignore[arg-type]


def play(player: str, text: str, **kw: object) -> PlayCard:
    return PlayCard(player, card(text), **kw)  # type: ignore[arg-type]


# -- the seed's own examples --------------------------------------------------------


def test_eight_of_hearts_on_nine_of_diamonds_asking_spades():
    # seed 003: « le joueur précédent vient de poser le 9 de carreau. Vous avez trois cartes, le 8 de
    # cœur, le V de pique et le 3 de pique. Vous posez le 8 de cœur sur la table et demandez « pique ».
    # Le joueur suivant est tenu de fournir un pique de hauteur quelconque, ou le cas échéant un joker
    # ou un autre 8 changeant à nouveau la couleur demandée. »
    before = pile("4d 9d", turn="Ann")
    laid = before.check(play("Ann", "8h", asked=Suit.SPADES), hand=parse_cards("8h Js 3s"))
    assert laid.legal and laid.effects == (Effect.CHOOSE_SUIT,)
    assert laid.asked is Suit.SPADES and laid.next_player == "Bob"
    after = before.apply(play("Ann", "8h", asked=Suit.SPADES))
    assert after.asked is Suit.SPADES and after.turn == "Bob"
    for ok in ("Js", "3s", "As", "RJ", "BJ", "8d"):
        assert after.check(play("Bob", ok)).legal, ok
    for bad in ("9d", "9h", "2h", "Kc"):
        verdict = after.check(play("Bob", bad))
        assert verdict.rule is PlayRule.ASKED_SUIT, bad
    assert "pique" in after.check(play("Bob", "9h")).reason.get("fr")  # type: ignore[union-attr]


def test_super_two_twos_in_a_row_leave_the_next_player_with_seven_cards():
    # seed 003 (Super crapouille): « On rejoue également lorsqu'on pose un 2 sur la table. … si, par
    # exemple, le joueur de droite joue deux 2 de suite, ce qui fait que le premier joueur se retrouve
    # avec sept cartes »
    hands = {"Ann": 5, "Bob": 5, "Cid": 5, "Dan": 5}
    table = pile("5h 9h", turn="Ann", options=Options(super=True))
    for text in ("2h", "2c"):
        verdict = table.check(play("Ann", text))
        assert verdict.legal and verdict.effects == (Effect.DRAW, Effect.PLAY_AGAIN)
        assert verdict.next_player == "Ann"
        assert verdict.target is not None
        hands[verdict.target] += 1
        hands["Ann"] -= 1
        table = table.apply(play("Ann", text))
    assert hands["Bob"] == 7
    # « play then goes on to the next player, who is not skipped a second time »
    verdict = table.check(play("Ann", "Kc"))
    assert verdict.legal and verdict.next_player == "Bob"


# -- matching -----------------------------------------------------------------------


def test_same_suit_or_same_rank():
    # seed 003: « une carte de même couleur … ou de même rang … que la dernière carte posée »
    table = pile("4c 7d")
    assert table.check(play("Bob", "Kd")).legal
    assert table.check(play("Bob", "7s")).legal
    verdict = table.check(play("Bob", "Ks"))
    assert verdict.rule is PlayRule.MATCH and not verdict.legal
    assert verdict.reason.get("fr") == "Il faut jouer du carreau ou un 7, un 8 ou un joker."  # type: ignore[union-attr]
    assert table.check(play("Bob", "8s")).legal
    assert table.check(play("Bob", "RJ")).legal


def test_wrong_turn_is_reported_first():
    table = pile("4c 7d")
    verdict = table.check(play("Cid", "Ks"))
    assert verdict.rule is PlayRule.TURN
    assert table.check(play("Cid", "Kd")).rule is PlayRule.TURN


# -- the 2 ------------------------------------------------------------------------------


def test_two_makes_the_next_draw_and_lose_his_turn():
    # seed 003: « le 2, qui fait prendre obligatoirement la première carte du talon au joueur suivant,
    # qui, de surcroît, passe son tour. »
    verdict = pile("4c 7d").check(play("Bob", "2d"))
    assert verdict.effects == (Effect.DRAW, Effect.SKIP)
    assert verdict.target == "Cid" and verdict.skipped == ("Cid",) and verdict.next_player == "Dan"


def test_on_a_two_only_its_suit_or_a_two():
    # RULES.md §4: « Nothing but a card of the 2's suit or another 2 may go on a 2 (no 8, no joker). »
    # seed 003: the joker goes anywhere « sauf lorsque celui-ci a eu la gentillesse de mettre un 2 »
    table = pile("4c 7d 2d", turn="Dan")
    assert table.check(play("Dan", "Qd")).legal
    assert table.check(play("Dan", "2s")).legal
    assert table.check(play("Dan", "Qs")).rule is PlayRule.MATCH
    assert table.check(play("Dan", "8s")).rule is PlayRule.ON_TWO
    assert table.check(play("Dan", "RJ")).rule is PlayRule.ON_TWO
    # Our choice: not even an 8 of the 2's suit (« le 8 … sauf là encore sur un 2 »).
    assert table.check(play("Dan", "8d")).rule is PlayRule.ON_TWO


# -- the 10 ----------------------------------------------------------------------------


def test_ten_reverses_the_direction():
    # seed 003: « Un joueur pose un 10 sur la table. Ce n'est plus au joueur à sa gauche à jouer, mais au
    # joueur à sa droite. »
    table = pile("4c 7d")
    verdict = table.check(play("Bob", "10d"))
    assert verdict.effects == (Effect.REVERSE,)
    assert verdict.direction == -1 and verdict.next_player == "Ann"
    after = table.apply(play("Bob", "10d"))
    assert after.direction == -1 and after.turn == "Ann"
    assert after.check(play("Ann", "5d")).next_player == "Dan"
    back = after.apply(play("Ann", "10s"))
    assert back.direction == 1 and back.turn == "Bob"


# -- the 8 -----------------------------------------------------------------------------


def test_eight_goes_on_anything_but_a_two_and_names_a_suit():
    # seed 003: « le 8, qui lui aussi peut se placer sur n'importe quelle carte (sauf là encore sur un 2) et
    # qui permet au joueur qui l'a posé de changer la couleur demandée. »
    verdict = pile("4c Ks").check(play("Bob", "8h", asked=Suit.CLUBS))
    assert verdict.legal and verdict.effects == (Effect.CHOOSE_SUIT,) and verdict.asked is Suit.CLUBS


def test_an_eight_on_top_needs_the_asked_suit():
    with pytest.raises(RulesError) as e:
        pile("4c 8h")
    assert e.value.field == "asked"


def test_an_eight_must_name_a_suit_to_be_applied():
    with pytest.raises(RulesError) as e:
        pile("4c Ks").apply(play("Bob", "8h"))
    assert e.value.field == "asked"


# -- the joker ---------------------------------------------------------------------------


def test_on_a_joker_a_two_or_the_suit_asked_before_it():
    # seed 003: « sur un joker, on doit mettre, soit un 2, soit une carte de même couleur que la carte posée
    # avant le joker. En d'autres termes, le joker est équivalent à un 2 de la couleur demandée, sans en
    # avoir les conséquences néfastes pour le joueur suivant. »
    table = pile("4c 9h RJ", turn="Cid")
    for ok in ("Kh", "2s", "2h", "8c", "BJ"):
        assert table.check(play("Cid", ok)).legal, ok
    assert table.check(play("Cid", "9s")).rule is PlayRule.AFTER_JOKER
    assert table.check(play("Cid", "Kc")).rule is PlayRule.AFTER_JOKER
    laid = pile("4c 9h", turn="Bob").check(play("Bob", "RJ"))
    assert laid.effects == () and laid.next_player == "Cid"  # no penalty


def test_the_asked_suit_carries_through_jokers():
    # RULES.md §4: « the asked suit carries through jokers »
    table = pile("4c 8h RJ BJ", turn="Cid", asked=Suit.SPADES)
    assert table.check(play("Cid", "3s")).legal
    assert table.check(play("Cid", "3h")).rule is PlayRule.AFTER_JOKER
    assert pile("4c 9d RJ BJ").check(play("Bob", "Qd")).legal
    assert pile("4c 9d RJ BJ").check(play("Bob", "Qs")).rule is PlayRule.AFTER_JOKER


def test_a_joker_keeps_the_asked_suit_of_the_eight_under_it():
    table = pile("4c Ks", turn="Bob").apply(play("Bob", "8h", asked=Suit.DIAMONDS))
    table = table.apply(play("Cid", "RJ"))
    assert table.asked is Suit.DIAMONDS
    assert table.check(play("Dan", "5d")).legal
    assert table.apply(play("Dan", "5d")).asked is None


# -- the starting card ---------------------------------------------------------------------


def test_starting_joker_takes_any_card():
    # RULES.md §4: « on a starting joker any card may be played »
    table = pile("RJ")
    for text in ("3c", "Kh", "2s", "8d", "BJ"):
        assert table.check(play("Bob", text)).legal
    assert pile("RJ BJ").check(play("Bob", "3c")).legal  # nothing was ever asked


def test_starting_two_has_no_power():
    # RULES.md §4: « on a starting 2 an 8 or a joker may be played as on any card »
    table = pile("2d")
    assert table.check(play("Bob", "8s", asked=Suit.CLUBS)).legal
    assert table.check(play("Bob", "RJ")).legal
    assert table.check(play("Bob", "Kd")).legal
    assert table.check(play("Bob", "Ks")).rule is PlayRule.MATCH
    # a joker on a starting 2 then asks for the 2's suit
    assert pile("2d RJ").check(play("Bob", "Kd")).legal


def test_starting_eight_asks_its_own_suit():
    # RULES.md §4: « a starting 8 asks for its own suit »
    table = pile("8h")  # no `asked` needed
    assert table.check(play("Bob", "3h")).legal
    assert table.check(play("Bob", "8c", asked=Suit.SPADES)).legal
    assert not table.check(play("Bob", "3c")).legal
    assert pile("8h RJ").check(play("Bob", "Qh")).legal


# -- last card, drawing, finishing ---------------------------------------------------------


def test_last_card_not_announced_cannot_finish():
    # seed 003: « Le joueur qui n'a plus qu'une carte en main est tenu d'annoncer « plus qu'une » ou
    # « carte » … S'il ne l'a pas fait, il lui sera interdit de finir au tour suivant. »
    table = pile("4c 7d")
    verdict = table.check(play("Bob", "Kd", last=True, announced=False))
    assert verdict.rule is PlayRule.ANNOUNCE and not verdict.legal
    out = table.check(play("Bob", "Kd", last=True))
    assert out.legal and out.effects == (Effect.OUT,) and out.next_player is None
    # the hand tells it is his last card, too
    assert table.check(play("Bob", "Kd", announced=False), hand=[card("Kd")]).rule is PlayRule.ANNOUNCE


def test_unannounced_last_card_lets_him_draw():
    table = pile("4c 7d")
    assert table.check(Draw("Bob", announced=False), hand=[card("Kd")]).legal
    assert table.check(Draw("Bob"), hand=[card("Kd")]).rule is PlayRule.MUST_PLAY


def test_drawing_only_when_nothing_can_be_played():
    # seed 003: « soit, s'il ne le peut pas, tire une carte du talon qu'il met sur la dernière carte posée
    # si elle est de même couleur ou de même rang que celle-ci, sinon dans son jeu. »
    table = pile("4c 7d")
    refused = table.check(Draw("Bob"), hand=parse_cards("Ks 7h"))
    assert refused.rule is PlayRule.MUST_PLAY
    assert "7♥" in refused.reason.get("fr")  # type: ignore[union-attr]
    allowed = table.check(Draw("Bob"), hand=parse_cards("Ks 3h"))
    assert allowed.legal and allowed.effects == (Effect.DRAW,) and allowed.target == "Bob"
    assert table.check(Draw("Bob", drawn=card("Qd")), hand=parse_cards("Ks 3h")).next_player == "Bob"
    assert table.check(Draw("Bob", drawn=card("Qs")), hand=parse_cards("Ks 3h")).next_player == "Cid"
    assert table.check(Draw("Bob")).legal  # without the hand the engine cannot refuse


def test_a_draw_without_the_drawn_card_has_no_known_next_player():
    # API.md: « optionally the `drawn` card: without it `next_player` is null, since a drawn card that
    # fits is laid at once and may be a 2, a 10 or an 8 »
    # seed 003: « tire une carte du talon qu'il met sur la dernière carte posée si elle est de même
    # couleur ou de même rang que celle-ci, sinon dans son jeu »
    table = pile("4c 7d")
    unseen = table.check(Draw("Bob"), hand=parse_cards("Ks 3h"))
    assert unseen.legal and unseen.effects == (Effect.DRAW,) and unseen.target == "Bob"
    assert unseen.next_player is None
    assert table.apply(Draw("Bob")).turn is None  # the next table does not guess either
    # With the card, as before: laid at once (whatever it then does), or the turn passes.
    for drawn, following in (("2d", "Bob"), ("10d", "Bob"), ("8s", "Bob"), ("Qs", "Cid")):
        verdict = table.check(Draw("Bob", drawn=card(drawn)), hand=parse_cards("Ks 3h"))
        assert verdict.next_player == following, drawn
    assert table.apply(Draw("Bob", drawn=card("Qs"))).turn == "Cid"


def test_finishing_on_a_two_makes_the_next_player_draw():
    # seed 003: « Lorsqu'un joueur termine en posant un 2 sur la table, par convention, le joueur suivant
    # prend une carte supplémentaire. »
    verdict = pile("4c 7d").check(play("Bob", "2d", last=True))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_ON_TWO)
    assert verdict.target == "Cid" and verdict.next_player is None
    backwards = pile("4c 7d", direction=-1).check(play("Bob", "2d", last=True))
    assert backwards.target == "Ann"


def test_a_card_not_in_the_given_hand_is_malformed():
    with pytest.raises(RulesError) as e:
        pile("4c 7d").check(play("Bob", "Kd"), hand=parse_cards("Ks 3h"))
    assert e.value.field == "card"


def test_three_copies_are_malformed():
    with pytest.raises(RulesError) as e:
        pile("4c 7d 7d").check(play("Bob", "7d"))
    assert e.value.field == "card"
    assert pile("RJ BJ RJ").check(play("Bob", "BJ")).legal  # four jokers, either colour


# -- two players and Super crapouille ----------------------------------------------------------


def test_two_players_two_makes_the_other_draw_and_its_player_plays_again():
    # seed 003: « Lorsque l'un des deux joueurs pose un 2 sur la table, l'autre prend une carte et ne joue
    # pas. Le premier joueur rejoue donc. »
    table = pile("4c 7d", players=("Ann", "Bob"))
    verdict = table.check(play("Bob", "2d"))
    assert verdict.effects == (Effect.DRAW, Effect.SKIP, Effect.PLAY_AGAIN)
    assert verdict.target == "Ann" and verdict.skipped == ("Ann",) and verdict.next_player == "Bob"


def test_two_players_ten_plays_again():
    # seed 003: « il en est de même lorsqu'on pose un 10 sur la table : on rejoue, mais sans que l'autre
    # joueur prenne cette fois une carte supplémentaire. »
    verdict = pile("4c 7d", players=("Ann", "Bob")).check(play("Bob", "10d"))
    assert verdict.effects == (Effect.REVERSE, Effect.PLAY_AGAIN)
    assert verdict.next_player == "Bob" and verdict.target is None


def test_super_ten_plays_again_then_reverses():
    # seed 003 (Super): « lorsqu'on pose un 10 sur la table, on rejoue avant de faire repartir le jeu dans
    # l'autre sens. »
    table = pile("4c 7d", options=Options(super=True))
    verdict = table.check(play("Bob", "10d"))
    assert verdict.effects == (Effect.REVERSE, Effect.PLAY_AGAIN) and verdict.next_player == "Bob"
    after = table.apply(play("Bob", "10d"))
    assert after.turn == "Bob" and after.direction == -1
    assert after.check(play("Bob", "5d")).next_player == "Ann"


def test_super_two_plays_again_on_the_twos_rules():
    # RULES.md §4: « the player of the 2 plays again (on the 2's rules) »
    table = pile("4c 7d", options=Options(super=True)).apply(play("Bob", "2d"))
    assert table.turn == "Bob"
    assert table.check(play("Bob", "8d")).rule is PlayRule.ON_TWO
    assert table.check(play("Bob", "Ks")).rule is PlayRule.MATCH
    assert table.check(play("Bob", "Kd")).next_player == "Cid"


# -- malformed tables ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": ("Ann",)}, "players"),
        ({"players": ("Ann", "Ann")}, "players"),
        ({"turn": "Zoe"}, "turn"),
        ({"direction": 2}, "direction"),
    ],
)
def test_malformed_tables(kwargs, field):
    with pytest.raises(RulesError) as e:
        pile("4c 7d", **kwargs)
    assert e.value.field == field


def test_tarot_cards_are_not_in_the_game():
    with pytest.raises(RulesError) as e:
        pile("4c T3")
    assert e.value.field == "pile[1]"
