"""The outcome adapter for president and piketty, called directly (shared/API.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kinds.president.api.outcome_adapter import outcome
from companion.rules.i18n import RulesError

FOUR = ["Ann", "Bob", "Cid", "Dan"]
SIX = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def error(body: dict[str, Any], lang: str = "fr") -> RulesError:
    with pytest.raises(RulesError) as e:
        outcome(body, lang)
    return e.value


def test_plain_manche_shape() -> None:
    answer = outcome({"game": "president", "players": FOUR, "finish": ["Dan", "Cid", "Bob"]}, "fr")
    assert answer["titles"] == [
        {"player": "Dan", "title": "Président", "rank": 1},
        {"player": "Cid", "title": "Vice-Président", "rank": 2},
        {"player": "Bob", "title": "Vice-Trou du cul", "rank": 3},
        {"player": "Ann", "title": "Trou du cul", "rank": 4},
    ]
    # seed 000: « Le Balayeur donne au Président ses deux meilleures cartes »
    assert answer["exchanges"][0] == {"from": "Ann", "to": "Dan", "count": 2, "cards": "best", "jokers": False}
    assert answer["exchanges"][1]["cards"] == "choice"
    assert [(e["from"], e["to"], e["count"]) for e in answer["exchanges"]] == [
        ("Ann", "Dan", 2),
        ("Dan", "Ann", 2),
        ("Bob", "Cid", 1),
        ("Cid", "Bob", 1),
    ]
    assert answer["points"] == {"Dan": 3, "Cid": 2, "Bob": 1, "Ann": 0}
    assert (answer["dealer"], answer["leader"]) == ("Ann", "Dan")
    assert answer["deal"] == dict.fromkeys(["Dan", "Cid", "Bob", "Ann"], 13)
    assert answer["seats"] == ["Dan", "Cid", "Bob", "Ann"]
    assert "totals" not in answer


def test_titles_in_english_and_piketty_names() -> None:
    answer = outcome({"game": "piketty", "players": SIX, "finish": SIX, "lang": "en"}, "en")
    assert [t["title"] for t in answer["titles"]][-2:] == ["Vice-Asshole", "Asshole"]
    answer = outcome({"game": "piketty", "players": SIX, "finish": SIX}, "fr")
    assert [t["title"] for t in answer["titles"]][-2:] == ["Vice-Trouduc", "Trouduc"]
    assert list(answer["deal"].values()) == [13, 13, 13, 13, 14, 14]


def test_piketty_finished_on_a_two() -> None:
    # seed 001: « Si quelqu'un termine avec un 2, il devient trouduc. »
    body = {
        "game": "piketty",
        "players": SIX,
        "finish": ["Bob", "Ann", "Cid", "Dan", "Eve"],
        "finished_on": {"Bob": "2"},
    }
    answer = outcome(body, "fr")
    assert answer["seats"] == ["Ann", "Cid", "Dan", "Eve", "Fay", "Bob"]
    assert answer["finished_last"] == ["Bob"]
    body["finished_on"] = {"Bob": "Kh Kd"}
    assert outcome(body, "fr")["seats"][0] == "Bob"
    body["finished_on"] = {"Bob": ["2h", "2d"]}
    assert outcome(body, "fr")["seats"][-1] == "Bob"
    body["finished_on"] = {"Bob": True}
    assert outcome(body, "fr")["seats"][-1] == "Bob"


def test_putsch_failed_with_totals_and_ban() -> None:
    rules = {"putsch": True, "target": 5}
    body = {
        "game": "president",
        "rules": rules,
        "players": FOUR,
        "finish": ["Bob"],
        "events": {"putsch": "Dan"},
        "totals": {"Ann": 4, "Bob": 3, "Cid": 1, "Dan": 0},
    }
    answer = outcome(body, "fr")
    assert answer["points"] == {"Ann": 0, "Bob": 0, "Cid": 0, "Dan": -1}
    assert answer["totals"] == {"Ann": 4, "Bob": 3, "Cid": 1, "Dan": -1}
    assert answer["ended"] is False and answer["losers"] == []
    assert answer["putsch_banned"] == "Dan"
    assert answer["exchanges"][0]["count"] == 4
    e = error({**body, "putsch_banned": "Dan"})
    assert e.field == "events.putsch"


def test_events_through_the_api() -> None:
    rules = {"jokers": 2, "coup_detat": True, "guillotine": True, "jeu_blanc": True}
    base = {"game": "president", "rules": rules, "players": FOUR}
    assert outcome({**base, "events": {"jeu_blanc": "Cid"}}, "fr")["seats"] == ["Cid", "Ann", "Bob", "Dan"]
    assert outcome({**base, "events": {"coup_detat": "Cid"}}, "fr")["seats"] == ["Cid", "Bob", "Ann", "Dan"]
    guillotine = {"player": "Dan", "vice": "Cid", "last": "Bob"}
    answer = outcome({**base, "events": {"guillotine": guillotine}}, "fr")
    assert answer["seats"] == ["Dan", "Cid", "Ann", "Bob"]
    assert answer["events"] == ["guillotine"]
    assert error({**base, "events": {"guillotine": {"player": "Dan", "vice": "Cid"}}}).field == "events.guillotine.last"
    assert error({**base, "events": {"guillotine": {**guillotine, "extra": 1}}}).field == "events.guillotine.extra"
    assert error({**base, "events": {"storm": "Dan"}}).field == "events.storm"
    assert error({**base, "events": {"coup_detat": "Zoe"}}).field == "events.coup_detat"
    assert error({**base, "events": {"revolution": True}}).field == "events.revolution"


def test_revolution_event() -> None:
    body = {
        "game": "president",
        "rules": {"revolution": True, "revolution_swaps_titles": True},
        "players": FOUR,
        "events": {"revolution": "Dan"},
    }
    assert outcome(body, "fr")["seats"] == ["Dan", "Cid", "Bob", "Ann"]


def test_piketty_draw() -> None:
    # seed 001: « Les rôles se définissent préalablement en tirant au sort une carte (pique / coeur /
    # carrreau / trèfle en cas d'égalité). »
    draw = {"Ann": "9h", "Bob": "9s", "Cid": "2c", "Dan": "6d", "Eve": "Ks", "Fay": ["Ks", "7c"]}
    body = {"game": "piketty", "players": SIX, "first": True, "draw": draw}
    e = error(body)
    assert e.field == "draw.Eve"
    draw["Eve"] = ["Ks", "As"]
    answer = outcome(body, "fr")
    assert answer["seats"] == ["Cid", "Eve", "Fay", "Bob", "Ann", "Dan"]
    assert answer["events"] == ["draw"]
    assert (answer["dealer"], answer["leader"]) == ("Dan", "Cid")
    assert error({**body, "first": False}).field == "first"
    assert error({**body, "draw": {**draw, "Ann": "3h"}}).field == "draw.Ann"
    assert error({**body, "draw": {**draw, "Zoe": "3h"}}).field == "draw.Zoe"


def test_first_manche_by_finish() -> None:
    answer = outcome({"game": "president", "players": FOUR, "first": True, "finish": ["Cid", "Ann", "Dan"]}, "fr")
    assert answer["seats"] == ["Cid", "Ann", "Dan", "Bob"]
    assert answer["points"]["Cid"] == 3


def test_group_naming_and_renames() -> None:
    body = {"game": "president", "rules": {"titles": "balayeur"}, "players": FOUR, "finish": FOUR}
    assert [t["title"] for t in outcome(body, "fr")["titles"]] == [
        "Président",
        "Premier Ministre",
        "Balayeur en Chef",
        "Balayeur",
    ]
    renamed = outcome({**body, "title_names": {"4": "Le Larbin"}}, "en")
    assert renamed["titles"][3]["title"] == "Le Larbin"
    assert error({**body, "title_names": {"5": "X"}}).field == "title_names.5"
    assert error({**body, "title_names": {"1": ""}}).field == "title_names.1"
    assert error({**body, "title_names": {"one": "X"}}).field == "title_names.one"


def test_points_off_and_own_schedule() -> None:
    body = {"game": "president", "rules": {"points": False, "schedule": [1]}, "players": FOUR, "finish": FOUR}
    answer = outcome(body, "fr")
    assert answer["points"] == {}
    assert [e["count"] for e in answer["exchanges"]] == [1, 1]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "president", "finish": []}, "players"),
        ({"game": "president", "players": "Ann"}, "players"),
        ({"game": "president", "players": ["Ann", "Bob"], "finish": ["Ann", "Bob"]}, "players"),
        ({"game": "president", "players": ["Ann", "Ann", "Bob"]}, "players"),
        ({"game": "president", "players": ["Ann", 3, "Bob"]}, "players[1]"),
        ({"game": "piketty", "players": ["Ann", "Bob", "Cid"], "finish": []}, "players"),
        ({"game": "president", "players": FOUR, "finish": ["Ann", "Zoe", "Bob"]}, "finish[1]"),
        ({"game": "president", "players": FOUR, "finish": ["Ann", "Ann", "Bob"]}, "finish[1]"),
        ({"game": "president", "players": FOUR, "finish": ["Ann", "Bob", "Cid", "Dan", "Ann"]}, "finish[4]"),
        ({"game": "president", "players": FOUR, "finish": ["Ann"]}, "finish"),
        ({"game": "president", "players": FOUR, "finish": "Ann"}, "finish"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "finished_on": {"Zoe": "2"}}, "finished_on.Zoe"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "finished_on": {"Ann": "2x"}}, "finished_on.Ann[0]"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "finished_on": {"Ann": 2}}, "finished_on.Ann"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "finished_on": {"Ann": "2s 2s"}}, "finished_on.Ann[1]"),
        ({"game": "piketty", "players": FOUR, "finish": FOUR, "finished_on": {"Ann": "4"}}, "finished_on.Ann"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "finished_on": []}, "finished_on"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "events": []}, "events"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "events": {"putsch": "Dan"}}, "events.putsch"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "first": "yes"}, "first"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "totals": {"Ann": "3"}}, "totals.Ann"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "totals": {"Zoe": 3}}, "totals.Zoe"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "putsch_banned": "Zoe"}, "putsch_banned"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "rules": {"colour": True}}, "rules.colour"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "rules": {"preset": "nope"}}, "rules.preset"),
        ({"game": "president", "players": FOUR, "finish": FOUR, "rules": {"schedule": [3, 2, 1]}}, "rules.schedule"),
        (
            {"game": "piketty", "players": FOUR, "draw": {"Ann": "Ks", "Bob": "Ks", "Cid": "9h", "Dan": "7c"}},
            "draw.Bob",
        ),
        ({"game": "piketty", "players": FOUR, "draw": {"Ann": "Ks", "Bob": "Kh", "Cid": "9h"}}, "draw.Dan"),
        ({"game": "piketty", "players": FOUR, "draw": {"Ann": [], "Bob": "Kh", "Cid": "9h", "Dan": "7c"}}, "draw.Ann"),
    ],
)
def test_malformed_input(body: dict[str, Any], field: str) -> None:
    e = error(body)
    assert e.field == field
    assert e.text.get("fr") and e.text.get("en")


def test_error_sentences_are_bilingual() -> None:
    e = error({"game": "president", "players": FOUR, "finish": ["Ann"]})
    assert "incomplet" in e.text.get("fr")
    assert "incomplete" in e.text.get("en")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
NAME = st.sampled_from([*FOUR, "Zoe", ""])
FIELDS = {
    "rules": st.one_of(
        JSON,
        st.fixed_dictionaries(
            {},
            optional={
                "putsch": st.booleans(),
                "jeu_blanc": st.booleans(),
                "jokers": st.integers(0, 2),
                "coup_detat": st.booleans(),
                "guillotine": st.booleans(),
                "revolution": st.booleans(),
                "revolution_swaps_titles": st.booleans(),
                "schedule": st.lists(st.integers(-1, 5), max_size=3),
                "titles": st.sampled_from(["classic", "balayeur", "x"]),
                "points": st.booleans(),
            },
        ),
    ),
    "players": st.one_of(JSON, st.lists(NAME, max_size=6), st.permutations(FOUR)),
    "finish": st.one_of(JSON, st.lists(NAME, max_size=6)),
    "finished_on": st.one_of(JSON, st.dictionaries(NAME, st.one_of(JSON, st.sampled_from(["2", "A", "RJ", "2h 2s"])))),
    "events": st.one_of(
        JSON,
        st.dictionaries(
            st.sampled_from(["putsch", "jeu_blanc", "coup_detat", "guillotine", "revolution", "x"]),
            st.one_of(JSON, NAME, st.fixed_dictionaries({"player": NAME, "vice": NAME, "last": NAME})),
            max_size=2,
        ),
    ),
    "first": JSON,
    "draw": st.one_of(JSON, st.dictionaries(NAME, st.one_of(JSON, st.sampled_from(["Ks", "2c", "RJ", "Ks Qs"])))),
    "putsch_banned": st.one_of(JSON, NAME),
    "totals": st.one_of(JSON, st.dictionaries(NAME, JSON)),
    "title_names": st.one_of(JSON, st.dictionaries(st.sampled_from(["1", "2", "9", "x"]), JSON)),
}


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["president", "piketty"]), st.sampled_from(["fr", "en"]), st.fixed_dictionaries({}, optional=FIELDS)
)
def test_fuzz_never_raises_anything_but_rules_error(game: str, lang: str, fields: dict[str, Any]) -> None:
    body = {"game": game, "lang": lang, **fields}
    try:
        answer = outcome(body, lang)
    except RulesError as e:
        assert e.field is not None
        assert e.text.get(lang)
    else:
        assert {"titles", "exchanges", "points", "dealer", "leader", "deal"} <= set(answer)
        assert sorted(t["player"] for t in answer["titles"]) == sorted(body["players"])
