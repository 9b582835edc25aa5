"""The ``check`` adapter of ``president`` / ``piketty`` (shared/API.md), called directly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.president.api.adapter import check
from companion.rules.i18n import RulesError

STATE = {
    "players": ["Ann", "Bob", "Cid", "Dan"],
    "out": [],
    "reversed": False,
    "trick": [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}],
}


def body(move: dict[str, Any], state: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"game": "president", "state": state or STATE, "move": move, **extra}


def test_api_example_legal():
    # API.md's own example: Cid lays a pair of 9s on Ann's pair of 7s.
    answer = check(body({"player": "Cid", "cards": ["9c", "9d"], "last": False}), "fr")
    assert answer == {"legal": True, "rule": None, "effects": [], "next_player": "Dan"}


def test_illegal_rank_in_both_languages():
    # seed 000: « sur un 9 on peut mettre un 10, valet, dame, roi, as ou deux »
    state = {"players": ["Ann", "Bob", "Cid"], "trick": [{"player": "Ann", "cards": "9h"}]}
    answer = check(body({"player": "Bob", "cards": "8c"}, state), "fr")
    assert answer == {
        "legal": False,
        "rule": "rank",
        "reason": "Il faut jouer plus haut que 9.",
        "effects": [],
        "next_player": None,
    }
    assert check(body({"player": "Bob", "cards": "8c"}, state), "en")["reason"] == "You must play higher than 9."


def test_turn_first_and_skipped_key():
    assert check(body({"player": "Dan", "cards": ["3c"]}), "fr")["rule"] == "turn"
    # seed 000 (Wizz): « si le premier joueur lance un 6, et que le suivant joue un double 6, il Wizze le 3è
    # et 4è joueur »
    state = {"players": ["Ann", "Bob", "Cid", "Dan", "Eve"], "trick": [{"player": "Ann", "cards": ["6h"]}]}
    answer = check(body({"player": "Bob", "cards": ["6s", "6d"]}, state, rules={"preset": "wizz"}), "fr")
    assert answer["effects"] == ["skip"] and answer["skipped"] == ["Cid", "Dan"] and answer["next_player"] == "Eve"


def test_piketty_game():
    state = {"players": ["P", "V", "M1", "M2", "VT", "T"], "trick": [{"player": "P", "cards": "Kh"}]}
    answer = check({"game": "piketty", "state": state, "move": {"player": "V", "cards": "Ah", "last": True}}, "fr")
    assert answer["legal"] and answer["effects"] == ["out"] and answer["next_player"] == "M1"


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"rules": {"preset": "belote"}}, "rules.preset"),
        ({"rules": {"jokers": "2"}}, "rules.jokers"),
        ({"rules": {"nope": True}}, "rules.nope"),
        ({"rules": {"twos_cut": True, "jokers": 1}}, "rules.twos_cut"),
        ({"state": {"players": ["Ann", "Bob"]}}, "state.players"),
        ({"state": dict(STATE, trick=[{"player": "Zoe", "pass": True}])}, "state.trick[0].player"),
        ({"state": dict(STATE, trick=[{"player": "Ann", "cards": ["7h", "7x"]}])}, "state.trick[0].cards[1]"),
        ({"state": dict(STATE, out=["Zoe"])}, "state.out[0]"),
        ({"state": dict(STATE, reversed="no")}, "state.reversed"),
        ({"move": {"player": "Cid", "cards": ["7h", "9d"]}}, "move.cards[0]"),
        ({"move": {"player": "Zoe", "pass": True}}, "move.player"),
        ({"move": {"player": "Cid"}}, "move.cards"),
        ({"move": "9h"}, "move"),
    ],
)
def test_malformed_input_names_the_field(bad: dict[str, Any], field: str):
    request = body({"player": "Cid", "cards": ["9c", "9d"]})
    request.update(bad)
    with pytest.raises(RulesError) as e:
        check(request, "fr")
    assert e.value.field == field


def test_missing_state_or_move():
    with pytest.raises(RulesError) as e:
        check({"game": "president", "move": {"player": "Ann", "pass": True}}, "fr")
    assert e.value.field == "state"
    with pytest.raises(RulesError) as e:
        check({"game": "president", "state": STATE}, "fr")
    assert e.value.field == "move"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.sampled_from(["Ann", "Bob", "9h", "RJ", "2c 2d", "", "x"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["player", "cards", "pass", "last"]), inner, max_size=4)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    rules=st.one_of(JSON, st.fixed_dictionaries({}, optional={"preset": JSON, "jokers": JSON, "passe": JSON})),
    players=st.one_of(JSON, st.just(["Ann", "Bob", "Cid", "Dan"])),
    out=JSON,
    reversed_=JSON,
    trick=st.one_of(
        JSON, st.lists(st.fixed_dictionaries({"player": JSON}, optional={"cards": JSON, "pass": JSON}), max_size=3)
    ),
    move=st.one_of(JSON, st.fixed_dictionaries({"player": JSON}, optional={"cards": JSON, "pass": JSON, "last": JSON})),
)
def test_fuzz_gives_a_dict_or_a_rules_error(rules, players, out, reversed_, trick, move):
    request = {
        "game": "president",
        "rules": rules,
        "move": move,
        "state": {"players": players, "out": out, "reversed": reversed_, "trick": trick},
    }
    try:
        answer = check(request, "en")
    except RulesError as e:
        assert e.field is not None
        return
    assert set(answer) >= {"legal", "rule", "effects", "next_player"}
