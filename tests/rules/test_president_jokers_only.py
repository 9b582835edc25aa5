"""A player left holding only jokers, with wild jokers (`joker_wild`): scenario tests.

seed 000: « Le joker peut également, dans certaines variantes se voir allouer une fonction
spéciale : il ne peut être joué seul, il doit être utilisé en complément d'une ou plusieurs
cartes pour former une paire (…), un brelan (…), un carré (…) ou un poker (…). »
RULES.md §1 settles what the seed leaves open: « a player left holding only jokers can never
play them, so he is out of the manche at once and finishes last — after anyone already made
last — as with a forbidden finish; when he was to lead, the lead passes to the next player
still in ».  The engine does not see hands: the player shows his jokers as his last cards.

Moves are written ``"Ann 9h 9s"`` (cards), ``"Ann -"`` (a pass), ``"Ann RJ BJ !"`` (last cards).
"""

from __future__ import annotations

from companion.rules.cards import parse_cards
from companion.rules.president import Effect, Play, RuleId, Rules, Table
from companion.rules.president_outcome import outcome

FOUR = ["Ann", "Bob", "Cid", "Dan"]
WILD = {"jokers": 2, "joker_wild": True}


def move(text: str) -> Play:
    player, *rest = text.split()
    if rest == ["-"]:
        return Play.passes(player)
    last = rest[-1] == "!"
    return Play.parse(player, rest[:-1] if last else rest, last=last)


def play(moves: str = "", players: list[str] | None = None, leader: str | None = "Ann", **options: object) -> Table:
    """The table after ``moves`` (comma-separated), from a fresh manche under ``options`` (default: WILD)."""
    rules = Rules.from_options(options or WILD)
    table = Table.start(players or FOUR, rules, leader=leader)
    for text in filter(None, (m.strip() for m in moves.split(","))):
        table = table.apply(move(text))
    return table


def round_trip(table: Table) -> None:
    """The API's state of ``table`` reads back as the same table (the live screen stores it)."""
    assert Table.from_state(table.to_state(), table.rules) == table


# --- the move ---------------------------------------------------------------------


def test_a_joker_alone_is_refused_with_its_reason() -> None:
    # seed 000: « il ne peut être joué seul »
    table = play()
    verdict = table.check(move("Ann RJ"))
    assert verdict.rule is RuleId.COMBINATION and verdict.reason is not None
    assert (
        verdict.reason.fr
        == "Un joker ne se joue pas seul\u00a0: il complète une paire, un brelan, un carré ou un poker."
    )
    assert table.check(move("Ann RJ BJ")).rule is RuleId.COMBINATION
    assert table.check(move("Ann 9h RJ")).legal


def test_the_leader_left_with_only_jokers_shows_them_and_the_next_player_leads() -> None:
    # RULES.md §1: « when he was to lead, the lead passes to the next player still in »
    table = play()
    verdict = table.check(move("Ann RJ BJ !"))
    assert verdict.legal
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST)
    assert verdict.next_player == "Bob"
    after = table.apply(move("Ann RJ BJ !"))
    assert after.out == ("Ann",) and after.to_move == "Bob" and after.leading and after.top == ()
    # The jokers are not on the trick: Bob leads anything, and the trick then starts afresh.
    assert after.check(move("Bob 3h")).legal and after.check(move("Bob -")).rule is RuleId.LEAD
    round_trip(after)
    assert after.apply(move("Bob 3h")).trick == (move("Bob 3h"),)


def test_the_winner_of_a_trick_left_with_only_jokers_passes_the_lead_on() -> None:
    # RULES.md §1; Ann takes the trick with a pair completed by a joker and is left with the other.
    table = play("Ann 9h BJ, Bob -, Cid -, Dan -")
    assert table.over and table.to_move == "Ann"
    verdict = table.check(move("Ann RJ !"))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST) and verdict.next_player == "Bob"
    after = table.apply(move("Ann RJ !"))
    assert after.over and after.to_move == "Bob" and after.last_player == "Ann"
    round_trip(after)
    assert after.check(move("Cid 3h")).rule is RuleId.TURN


def test_a_follower_left_with_only_jokers_shows_them_and_the_trick_goes_on() -> None:
    # RULES.md §1: out at once; the jokers do not go on the trick (its top stays the 9).
    table = play("Ann 9h")
    verdict = table.check(move("Bob RJ !"))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST) and verdict.next_player == "Cid"
    after = table.apply(move("Bob RJ !"))
    assert after.top == parse_cards("9h") and after.last_player == "Ann" and not after.over
    assert after.check(move("Cid 8c")).rule is RuleId.RANK  # still above the 9
    assert after.check(move("Cid 10c")).legal
    round_trip(after)
    # Cid and Dan pass: the trick is Ann's, as if Bob had passed and left.
    table = after.apply(move("Cid -"))
    verdict = table.check(move("Dan -"))
    assert verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Ann"


def test_when_everyone_else_has_passed_the_trick_ends_as_usual() -> None:
    # RULES.md §1: « as after a pass »: Dan, the last to speak, shows his jokers.
    table = play("Ann 9h, Bob -, Cid -")
    verdict = table.check(move("Dan RJ BJ !"))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST, Effect.TRICK_WON)
    assert verdict.next_player == "Ann"
    after = table.apply(move("Dan RJ BJ !"))
    assert after.over and after.to_move == "Ann"
    round_trip(after)


def test_when_the_trick_s_last_player_is_out_the_next_player_still_in_leads() -> None:
    # RULES.md §1: « If the player who should lead is out, the next player still in (clockwise) leads. »
    table = play("Ann 9h 9s !, Bob -, Cid -")
    verdict = table.check(move("Dan BJ !"))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST, Effect.TRICK_WON)
    assert verdict.next_player == "Bob"  # after Ann, Bob is the next still in


def test_the_last_two_a_player_showing_his_jokers_ends_the_manche() -> None:
    table = play("Ann 9h !, Bob 10h !", players=["Ann", "Bob", "Cid", "Dan"])
    assert table.to_move == "Cid"
    verdict = table.check(move("Cid RJ !"))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST) and verdict.next_player is None
    after = table.apply(move("Cid RJ !"))
    assert after.finished and after.out == ("Ann", "Bob", "Cid")
    round_trip(after)


def test_only_on_his_turn_and_only_as_his_last_cards() -> None:
    table = play("Ann 9h")
    assert table.check(move("Cid RJ !")).rule is RuleId.TURN
    assert table.check(move("Bob RJ")).rule is RuleId.COMBINATION
    # Anyone may lead a fresh manche (no leader): anyone may show.
    fresh = play(leader=None)
    assert fresh.check(move("Cid RJ BJ !")).next_player == "Dan"


def test_without_wild_jokers_a_joker_is_an_ordinary_play() -> None:
    # seed 000: « le joker simple peut être placé n'importe quand »
    table = play("Ann 9h", jokers=2)
    verdict = table.check(move("Bob BJ !"))
    assert verdict.effects == (Effect.OUT,)  # laid on the trick, no forbidden finish
    assert table.apply(move("Bob BJ !")).top == parse_cards("BJ")
    assert play("Ann 9h", jokers=2).check(move("Bob RJ BJ !")).rule is RuleId.COMBINATION


def test_legal_plays_list_the_move_for_a_hand_of_only_jokers() -> None:
    # The property test once found a player to lead with no legal play at all.
    table = play()
    assert [str(p) for p in table.legal_plays(parse_cards("RJ BJ"))] == ["Ann: BJ RJ (last)"]
    assert [str(p) for p in play("Ann 9h").legal_plays(parse_cards("BJ"))] == ["Bob: pass", "Bob: BJ (last)"]
    # With other cards in hand, the jokers only complete sets.
    assert all(not p.cards or any(not c.is_joker for c in p.cards) for p in table.legal_plays(parse_cards("9h RJ")))


def test_liar_the_call_is_about_the_cards_laid_not_the_jokers_shown() -> None:
    # Président-Menteur: Ann announces a 9 and lays an 8; Bob shows his jokers; Cid calls.
    table = play(jokers=2, joker_wild=True, liar=True)
    table = table.apply(Play(player="Ann", cards=parse_cards("9h"), laid=parse_cards("8h")))
    table = table.apply(move("Bob RJ !"))
    verdict = table.check(Play("Cid", call=True))
    assert verdict.legal and verdict.pile_to == "Ann"


# --- the ranking: last, after anyone already made last --------------------------------


def test_ranked_last_after_anyone_already_made_last() -> None:
    # RULES.md §1: « finishes last — after anyone already made last — as with a forbidden finish »
    rules = Rules.from_options({"jokers": 2, "joker_wild": True, "joker_no_finish": True})
    # Bob went out first, on a joker (forbidden: joker_no_finish); later Cid showed his jokers.
    result = outcome(
        rules,
        FOUR,
        finish=["Bob", "Ann", "Cid"],
        finished_on={"Bob": parse_cards("9h RJ"), "Cid": parse_cards("BJ")},
        first=True,
    )
    assert result.hierarchy == ("Ann", "Dan", "Bob", "Cid")
    assert result.finished_last == ("Bob", "Cid") and "finish_last" in result.events


def test_a_table_followed_to_its_end_gives_the_ranking() -> None:
    # The live entry: the order players went out in, and who went out with finish_last.
    table = play()
    finished_last = []
    for text in ("Ann RJ BJ !", "Bob 9h !", "Cid 10h !"):
        verdict = table.check(move(text))
        if Effect.FINISH_LAST in verdict.effects:
            finished_last.append(move(text).player)
        table = table.apply(move(text))
    assert table.finished and table.out == ("Ann", "Bob", "Cid") and finished_last == ["Ann"]
    result = outcome(table.rules, FOUR, finish=[*table.out, "Dan"], finished_on=dict.fromkeys(finished_last, True))
    assert result.hierarchy == ("Bob", "Cid", "Dan", "Ann")
