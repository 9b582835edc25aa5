"""Scenario tests of companion.rules.president_outcome (shared/RULES.md §1, §2, §5; seeds 000, 001)."""

from __future__ import annotations

import pytest

from companion.rules.cards import Card, parse_cards
from companion.rules.i18n import RulesError
from companion.rules.president import Rules
from companion.rules.president_outcome import (
    Events,
    Guillotine,
    deal_for,
    dealer_and_leader,
    draw_key,
    exchange_for,
    finishing_order,
    hierarchy_from_draw,
    outcome,
    points_after,
    schedule_for,
    standing,
    title_names,
    titles_after,
)

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


def players(n: int) -> tuple[str, ...]:
    return NAMES[:n]


def fr(n: int, game: str = "president", naming: str = "classic") -> list[str]:
    return [t.get("fr") for t in title_names(n, game, naming)]


def swaps(exchanges: object) -> list[tuple[str, str, int, str]]:
    return [(e.giver, e.receiver, e.count, e.cards) for e in exchanges]  # type: ignore[attr-defined]


def rules(game: str = "president", **options: object) -> Rules:
    return Rules.from_options(options, game=game)


# ------------------------------------------------------------------------- titles


def test_titles_three_players() -> None:
    # RULES §1: « 3 players: Président, Neutre, Trou du cul. »
    assert fr(3) == ["Président", "Neutre", "Trou du cul"]


def test_titles_four_players() -> None:
    # RULES §1: « 4: Président, Vice-Président, Vice-Trou du cul, Trou du cul. »
    assert fr(4) == ["Président", "Vice-Président", "Vice-Trou du cul", "Trou du cul"]


def test_titles_five_players() -> None:
    # seed 000: « À cinq joueurs, le troisième à terminer est le Neutre »
    assert fr(5) == ["Président", "Vice-Président", "Neutre", "Vice-Trou du cul", "Trou du cul"]


def test_titles_six_players_piketty() -> None:
    # seed 001: « Président, Vice-Président, 1er ministre, Ministre, Vice-Trouduc, Trouduc »
    assert fr(6, "piketty") == [
        "Président",
        "Vice-Président",
        "Premier ministre",
        "Ministre",
        "Vice-Trouduc",
        "Trouduc",
    ]
    assert fr(6) == ["Président", "Vice-Président", "Premier ministre", "Ministre", "Vice-Trou du cul", "Trou du cul"]


def test_titles_seven_players_add_a_neutre_in_the_middle() -> None:
    # seed 001: « Pour jouer à 7, il faut ajouter un neutre. »
    assert fr(7, "piketty") == [
        "Président",
        "Vice-Président",
        "Premier ministre",
        "Neutre",
        "Ministre",
        "Vice-Trouduc",
        "Trouduc",
    ]


def test_titles_eight_and_nine_players_extend_both_halves() -> None:
    eight = fr(8, "piketty")
    assert eight[:4] == ["Président", "Vice-Président", "Premier ministre", "Ministre"]
    assert eight[-2:] == ["Vice-Trouduc", "Trouduc"]
    nine = fr(9, "piketty")
    assert nine[4] == "Neutre"
    assert len(set(nine)) == 9


def test_titles_many_players_stay_distinct() -> None:
    for n in range(3, 25):
        names = fr(n)
        assert len(names) == n
        assert len(set(names)) == n, names
        assert names[0] == "Président" and names[-1] == "Trou du cul"


def test_titles_balayeur_naming() -> None:
    # seed 000: « Le premier … devient le Président, Le second … le Premier Ministre …
    # L'avant-dernier … est le Balayeur en Chef … Le dernier est le Balayeur »
    assert fr(4, naming="balayeur") == ["Président", "Premier Ministre", "Balayeur en Chef", "Balayeur"]
    # seed 000: « le troisième à terminer est le Neutre, parfois appelé le Concierge »
    assert fr(5, naming="balayeur")[2] == "Concierge"
    assert fr(3, naming="balayeur") == ["Président", "Concierge", "Balayeur"]


def test_titles_in_english() -> None:
    assert [t.get("en") for t in title_names(4)] == ["President", "Vice-President", "Vice-Asshole", "Asshole"]


def test_titles_renamed_by_the_group() -> None:
    names = title_names(4, renames={1: "Le Boss", 4: "Le Larbin"})
    assert [t.get("fr") for t in names] == ["Le Boss", "Vice-Président", "Vice-Trou du cul", "Le Larbin"]
    assert names[0].get("en") == "Le Boss"
    with pytest.raises(RulesError) as e:
        title_names(4, renames={5: "Personne"})
    assert e.value.field == "title_names.5"


def test_franck_preset_names_the_last_player() -> None:
    # seed 000: « Le perdant de la partie est le Franck »
    assert fr(4)[-1] == "Trou du cul"
    assert title_names(4, preset="franck")[-1].get("fr") == "Franck"


# ------------------------------------------------------------------ finishing order


def test_finishing_order_gives_the_titles() -> None:
    # seed 000: « Le premier ayant réussi à se débarrasser de toutes ses cartes devient le Président »
    h = players(4)
    assert titles_after(h, ("Dan", "Bob", "Ann")) == ("Dan", "Bob", "Ann", "Cid")
    assert titles_after(h, ("Dan", "Bob", "Ann", "Cid")) == ("Dan", "Bob", "Ann", "Cid")


def test_finish_incomplete_or_wrong() -> None:
    h = players(4)
    with pytest.raises(RulesError) as e:
        titles_after(h, ("Dan", "Bob"))
    assert e.value.field == "finish"
    with pytest.raises(RulesError) as e:
        titles_after(h, ("Dan", "Zoe", "Bob"))
    assert e.value.field == "finish[1]"
    with pytest.raises(RulesError) as e:
        titles_after(h, ("Dan", "Bob", "Dan"))
    assert e.value.field == "finish[2]"


def test_forbidden_finish_ranks_last() -> None:
    # seed 001: « Si quelqu'un termine avec un 2, il devient trouduc. »
    h = players(5)
    assert finishing_order(h, ("Bob", "Ann", "Cid", "Dan"), forbidden={"Bob"}) == ("Ann", "Cid", "Dan", "Eve", "Bob")


def test_several_forbidden_finishers_the_latest_is_last() -> None:
    # RULES §2: « several such players: the latest one to do it is last »
    h = players(5)
    order = finishing_order(h, ("Bob", "Ann", "Cid", "Dan"), forbidden={"Cid", "Bob"})
    assert order == ("Ann", "Dan", "Eve", "Bob", "Cid")


def test_forbidden_finisher_must_have_gone_out() -> None:
    with pytest.raises(RulesError) as e:
        finishing_order(players(4), ("Ann", "Bob", "Cid"), forbidden={"Dan"})
    assert e.value.field == "finished_on.Dan"


def test_piketty_finishing_on_a_two_through_outcome() -> None:
    # seed 001: « Si quelqu'un termine avec un 2, il devient trouduc. »
    h = players(6)
    result = outcome(
        rules("piketty"),
        h,
        finish=("Cid", "Ann", "Bob", "Fay", "Eve"),
        finished_on={"Cid": parse_cards("2h 2s"), "Ann": parse_cards("Kd")},
    )
    assert result.hierarchy == ("Ann", "Bob", "Fay", "Eve", "Dan", "Cid")
    assert result.finished_last == ("Cid",)
    assert "finish_last" in result.events
    assert result.titles[-1].name.get("fr") == "Trouduc"


def test_president_without_option_a_two_is_a_fine_finish() -> None:
    result = outcome(rules(), players(4), finish=("Cid", "Ann", "Bob"), finished_on={"Cid": parse_cards("2h")})
    assert result.hierarchy[0] == "Cid"
    assert result.finished_last == ()


def test_twos_cut_finishing_on_a_two() -> None:
    # seed 000: « Il n'est pas autorisé que le joueur gagnant finisse avec un 2. Il devient alors Balayeur. »
    result = outcome(rules(twos_cut=True), players(4), finish=("Cid", "Ann", "Bob"), finished_on={"Cid": True})
    assert result.hierarchy == ("Ann", "Bob", "Dan", "Cid")


def test_angevin_finishing_on_aces() -> None:
    # seed 000: « il est interdit de poser en dernière(s) carte(s) un (ou plusieurs) As, sous peine de
    # finir trouduc par forfait »
    r = rules(preset="angevin")
    result = outcome(r, players(4), finish=("Bob", "Ann", "Cid"), finished_on={"Bob": parse_cards("Ah Ad")})
    assert result.hierarchy == ("Ann", "Cid", "Dan", "Bob")


def test_joker_no_finish() -> None:
    # seed 000: « Dans certaines variantes, on ne peut pas finir avec un joker, dans ce cas, on devient
    # immédiatement le Balayeur. »
    r = rules(jokers=2, joker_no_finish=True)
    result = outcome(r, players(3), finish=("Bob", "Ann"), finished_on={"Bob": parse_cards("RJ")})
    assert result.hierarchy == ("Ann", "Cid", "Bob")


# ------------------------------------------------------------------------- events


def test_putsch_success() -> None:
    # seed 000: « Lors d'un putsch réussi, le putschiste récolte alors 1 point de plus qu'un Président
    # dit normal (donc 4 points lorsqu'il y a 4 joueurs »
    r = rules(putsch=True)
    result = outcome(r, players(4), finish=("Dan", "Cid", "Ann"), events=Events(putsch="Dan"))
    assert result.hierarchy == ("Dan", "Cid", "Ann", "Bob")
    assert result.points == {"Dan": 4, "Cid": 2, "Ann": 1, "Bob": 0}
    assert result.events == ("putsch_succeeded",)
    assert result.putsch_banned is None
    assert swaps(result.exchanges)[0] == ("Bob", "Dan", 2, "best")


def test_putsch_failure() -> None:
    # seed 000: « si le putschiste manque son putsch […], il reprend d'office sa condition de Balayeur;
    # de même, tous les autres joueurs retrouvent la position qu'ils avaient »
    # seed 000: « s'il est raté, le putschiste en perd 1 »
    r = rules(putsch=True)
    result = outcome(r, players(4), finish=("Cid",), events=Events(putsch="Dan"))
    assert result.hierarchy == players(4)
    assert result.points == {"Ann": 0, "Bob": 0, "Cid": 0, "Dan": -1}
    assert result.events == ("putsch_failed",)
    assert result.putsch_banned == "Dan"
    # seed 000: « il est ainsi condamné à donner ses 4 meilleures cartes au Président, et ce dernier
    # lui donne les 4 cartes de son choix »
    assert swaps(result.exchanges) == [
        ("Dan", "Ann", 4, "best"),
        ("Ann", "Dan", 4, "choice"),
        ("Cid", "Bob", 1, "best"),
        ("Bob", "Cid", 1, "choice"),
    ]


def test_putsch_failure_with_an_empty_finish_is_undecided() -> None:
    with pytest.raises(RulesError) as e:
        outcome(rules(putsch=True), players(4), finish=(), events=Events(putsch="Dan"))
    assert e.value.field == "finish"


def test_putsch_fails_when_the_putschist_goes_out_first_on_a_forbidden_card() -> None:
    r = rules("piketty", putsch=True)
    result = outcome(
        r, players(4), finish=("Dan",), finished_on={"Dan": parse_cards("2s")}, events=Events(putsch="Dan")
    )
    assert result.events == ("putsch_failed",)
    assert result.hierarchy == players(4)


def test_putsch_decided_by_the_first_legal_finisher() -> None:
    # Bob goes out first on a 2 (ranked last): the putschist can still become Président.
    r = rules("piketty", putsch=True)
    result = outcome(
        r,
        players(4),
        finish=("Bob", "Dan", "Ann"),
        finished_on={"Bob": parse_cards("2s")},
        events=Events(putsch="Dan"),
    )
    assert result.events[0] == "putsch_succeeded"
    assert result.hierarchy == ("Dan", "Ann", "Cid", "Bob")


def test_putsch_only_by_the_trou_du_cul_and_only_when_allowed() -> None:
    # seed 000: « Le putsch est une chance laissée au Balayeur »
    with pytest.raises(RulesError) as e:
        outcome(rules(putsch=True), players(4), finish=("Cid",), events=Events(putsch="Cid"))
    assert e.value.field == "events.putsch"
    with pytest.raises(RulesError) as e:
        outcome(rules(), players(4), finish=("Dan", "Cid", "Ann"), events=Events(putsch="Dan"))
    assert e.value.field == "events.putsch"
    # seed 000: « le Balayeur qui a manqué son putsch ne peut pas putscher à nouveau avant un tour »
    with pytest.raises(RulesError) as e:
        outcome(rules(putsch=True), players(4), finish=("Dan",), events=Events(putsch="Dan"), putsch_banned="Dan")
    assert e.value.field == "events.putsch"


def test_no_exchange_when_a_putsch_is_called() -> None:
    # seed 000: « il peut lancer un putsch et dès lors, tout le monde conserve ses cartes (pas d'échanges) »
    assert exchange_for(players(4), (2, 1), putsch_called=True) == ()


def test_jeu_blanc_seed_example() -> None:
    # seed 000: « si le Balayeur a un jeu blanc, il devient président, le président devient Premier
    # Ministre, le Premier Ministre prend le rang qui le précède et ainsi de suite »
    r = rules(jeu_blanc=True)
    result = outcome(r, players(4), events=Events(jeu_blanc="Dan"))
    assert result.hierarchy == ("Dan", "Ann", "Bob", "Cid")
    assert set(result.points.values()) == {0}
    assert result.events == ("jeu_blanc",)


def test_jeu_blanc_of_a_middle_player() -> None:
    # RULES §1: « every player who was above him moves down one title »
    result = outcome(rules(jeu_blanc=True), players(5), events=Events(jeu_blanc="Cid"))
    assert result.hierarchy == ("Cid", "Ann", "Bob", "Dan", "Eve")


def test_jeu_blanc_is_not_played() -> None:
    with pytest.raises(RulesError) as e:
        outcome(rules(jeu_blanc=True), players(4), finish=("Ann",), events=Events(jeu_blanc="Dan"))
    assert e.value.field == "finish"


def test_coup_detat() -> None:
    # seed 000: « ce joueur devient automatiquement Président […] Le Président déchu vient prendre la
    # place de celui qui a posé le coup d'État. »
    r = rules(jokers=1, coup_detat=True)
    result = outcome(r, players(5), finish=("Bob",), events=Events(coup_detat="Dan"))
    assert result.hierarchy == ("Dan", "Bob", "Cid", "Ann", "Eve")
    assert set(result.points.values()) == {0}
    assert titles_after(players(4), events=Events(coup_detat="Ann")) == players(4)


def test_guillotine() -> None:
    # seed 000: « ce joueur devient automatiquement Président et décide qui sera le Balayeur, et il
    # choisit son Premier Ministre »
    r = rules(jokers=2, guillotine=True)
    result = outcome(r, players(5), events=Events(guillotine=Guillotine("Eve", "Cid", "Ann")))
    assert result.hierarchy == ("Eve", "Cid", "Bob", "Dan", "Ann")
    assert set(result.points.values()) == {0}
    with pytest.raises(RulesError) as e:
        outcome(r, players(5), events=Events(guillotine=Guillotine("Eve", "Eve", "Ann")))
    assert e.value.field == "events.guillotine"


def test_revolution_swaps_titles() -> None:
    # seed 000: « après une révolution, c'est plutôt l'ordre des joueurs qui est inversé. Le Président
    # devient Balayeur et le Premier Ministre devient Balayeur en Chef. »
    r = rules(revolution=True, revolution_swaps_titles=True)
    result = outcome(r, players(4), events=Events(revolution=True))
    assert result.hierarchy == ("Dan", "Cid", "Bob", "Ann")
    assert set(result.points.values()) == {0}
    with pytest.raises(RulesError) as e:
        outcome(rules(revolution=True), players(4), events=Events(revolution=True))
    assert e.value.field == "events.revolution"


def test_one_event_at_a_time() -> None:
    r = rules(jokers=2, coup_detat=True, jeu_blanc=True)
    with pytest.raises(RulesError) as e:
        outcome(r, players(4), events=Events(jeu_blanc="Dan", coup_detat="Cid"))
    assert e.value.field == "events.coup_detat"


def test_no_event_in_a_first_manche() -> None:
    with pytest.raises(RulesError) as e:
        outcome(rules(jeu_blanc=True), players(4), first=True, events=Events(jeu_blanc="Dan"))
    assert e.value.field == "events.jeu_blanc"


# ---------------------------------------------------------------------- exchanges


def test_schedule_three_players() -> None:
    # RULES §1: « 3 players [2] (Trou du cul↔Président) »
    assert schedule_for(3) == (2,)
    assert swaps(exchange_for(players(3), schedule_for(3))) == [("Cid", "Ann", 2, "best"), ("Ann", "Cid", 2, "choice")]


def test_schedule_four_players_seed_example() -> None:
    # seed 000: « Le Balayeur donne au Président ses deux meilleures cartes ; en retour, celui-ci lui
    # donne deux cartes au choix » and « Le Balayeur en Chef donne au Premier Ministre sa meilleure carte »
    assert swaps(exchange_for(players(4), schedule_for(4))) == [
        ("Dan", "Ann", 2, "best"),
        ("Ann", "Dan", 2, "choice"),
        ("Cid", "Bob", 1, "best"),
        ("Bob", "Cid", 1, "choice"),
    ]


def test_schedule_five_players_the_neutre_sits_out() -> None:
    # seed 000: « le Neutre […] n'a ni avantage, ni handicap pour la partie suivante »
    exchanges = exchange_for(players(5), schedule_for(5))
    assert "Cid" not in {e.giver for e in exchanges} | {e.receiver for e in exchanges}
    assert swaps(exchanges)[::2] == [("Eve", "Ann", 2, "best"), ("Dan", "Bob", 1, "best")]


def test_schedule_six_players_piketty() -> None:
    # seed 001: « Le trouduc donne ses 3 meilleurs cartes au président, le vice-trouduc ses 2 meilleurs
    # cartes au vice-président et le ministre sa meilleur carte au 1er ministre. Ceux qui reçoivent,
    # donnent en échange les cartes qu'ils veulent. »
    result = outcome(rules("piketty"), players(6), finish=players(6))
    assert swaps(result.exchanges) == [
        ("Fay", "Ann", 3, "best"),
        ("Ann", "Fay", 3, "choice"),
        ("Eve", "Bob", 2, "best"),
        ("Bob", "Eve", 2, "choice"),
        ("Dan", "Cid", 1, "best"),
        ("Cid", "Dan", 1, "choice"),
    ]


def test_schedule_seven_players_middle_sits_out() -> None:
    # seed 000: « quand il est impair, tous sauf celui "du milieu" »
    exchanges = exchange_for(players(7), schedule_for(7))
    assert [e.count for e in exchanges[::2]] == [3, 2, 1]
    assert "Dan" not in {e.giver for e in exchanges}


def test_schedule_eight_and_nine_players() -> None:
    # seed 001: « A 8 ou 9 on garde toutes les cartes et le trouduc échange 4 cartes avec le président. »
    assert schedule_for(8) == schedule_for(9) == (4, 3, 2, 1)
    result = outcome(rules("piketty"), players(9), finish=players(9))
    assert swaps(result.exchanges)[0] == ("Ivy", "Ann", 4, "best")


def test_schedule_piketty_four_and_five() -> None:
    # seed 001: « A 4 ou 5 […] il s'échange seulement 2 cartes entre le trouduc et le président, et
    # 1 carte entre le vice-trouduc et le vice-président. »
    for n in (4, 5):
        result = outcome(rules("piketty"), players(n), finish=players(n))
        assert [e.count for e in result.exchanges] == [2, 2, 1, 1]


def test_schedule_ten_players() -> None:
    # seed 000: « Quand le nombre de joueurs est pair, tous les joueurs échangent des cartes »
    assert schedule_for(10) == (5, 4, 3, 2, 1)


def test_group_schedule() -> None:
    r = rules(schedule=[3])
    result = outcome(r, players(5), finish=players(5))
    assert swaps(result.exchanges) == [("Eve", "Ann", 3, "best"), ("Ann", "Eve", 3, "choice")]
    with pytest.raises(RulesError) as e:
        outcome(rules(schedule=[3, 2]), players(3), finish=players(3))
    assert e.value.field == "rules.schedule"


def test_jokers_are_not_exchanged_unless_the_option_is_on() -> None:
    # seed 000: « Le joker n'est pas une carte échangeable, ce qui signifie que le Balayeur conserve le(s)
    # joker(s) qu'il a acquis lors de la distribution. »
    plain = outcome(rules(jokers=2), players(4), finish=players(4))
    assert not plain.exchanges[0].jokers
    # seed 000: « un joker étant la carte la plus forte du jeu doit donc être remis au supérieur »
    exchangeable = outcome(rules(jokers=2, joker_exchangeable=True), players(4), finish=players(4))
    assert exchangeable.exchanges[0].jokers


def test_angevin_trou_du_cul_gives_his_two_highest() -> None:
    # seed 000: « Le Trouduc doit invariablement donner ses deux plus fortes cartes »
    result = outcome(rules(preset="angevin"), players(4), finish=players(4))
    assert swaps(result.exchanges)[:2] == [("Dan", "Ann", 2, "best"), ("Ann", "Dan", 2, "choice")]


# ------------------------------------------------------------------------- points


def test_points_four_players() -> None:
    # seed 000: « celui qui finit Président termine avec 3 points, le Premier Ministre en reçoit 2, le
    # Balayeur en Chef 1, et le Balayeur 0 »
    assert points_after(players(4)) == {"Ann": 3, "Bob": 2, "Cid": 1, "Dan": 0}


def test_points_n_players() -> None:
    # seed 000: « Pour un nombre de joueurs égal à n, le Président récoltera donc n-1 »
    assert list(points_after(players(7)).values()) == [6, 5, 4, 3, 2, 1, 0]


def test_points_off() -> None:
    assert outcome(rules(points=False), players(4), finish=players(4)).points == {}


def test_standing_target_and_loser() -> None:
    # seed 000: « La partie se termine lorsqu'un joueur atteint un nombre de points prédéterminé, par
    # exemple 25. Le perdant est celui qui aura récolté le plus petit nombre de points »
    s = standing({"Ann": 23, "Bob": 12, "Cid": 9}, {"Ann": 2, "Bob": 1, "Cid": 0})
    assert s.ended and s.losers == ("Cid",)
    s = standing({"Ann": 22, "Bob": 12, "Cid": 9}, {"Ann": 2, "Bob": 1, "Cid": 0})
    assert not s.ended and s.losers == ()
    s = standing({"Ann": 5}, {"Ann": 2, "Bob": 1, "Cid": 0}, target=7)
    assert s.totals == {"Ann": 7, "Bob": 1, "Cid": 0} and s.losers == ("Cid",)


def test_outcome_with_totals_uses_the_target() -> None:
    result = outcome(rules(target=10), players(3), finish=players(3), totals={"Ann": 8, "Bob": 4, "Cid": 4})
    assert result.standing is not None
    assert result.standing.ended and result.standing.losers == ("Cid",)


def test_first_manche_scores_and_sets_titles() -> None:
    # seed 000: « Le but de cette première manche est seulement d'assigner la hiérarchie de départ. »
    result = outcome(rules(), players(4), finish=("Cid", "Dan", "Ann"), first=True)
    assert result.hierarchy == ("Cid", "Dan", "Ann", "Bob")
    assert swaps(result.exchanges)[0] == ("Bob", "Cid", 2, "best")


# ---------------------------------------------------------------- dealer and deal


def test_dealer_and_leader() -> None:
    # seed 000: « Le joueur venant après le joueur qui a distribué commence. »
    # seed 001: « Après les échanges, c'est le président qui commence. »
    assert dealer_and_leader(players(5)) == ("Eve", "Ann")
    result = outcome(rules(), players(4), finish=("Cid", "Dan", "Ann"))
    assert (result.dealer, result.leader) == ("Bob", "Cid")


@pytest.mark.parametrize(
    ("n", "counts"),
    [
        (4, [10, 10, 10, 10]),
        (5, [8, 8, 8, 8, 8]),
        (6, [13, 13, 13, 13, 14, 14]),
        (7, [11, 11, 11, 11, 12, 12, 12]),
        (8, [13] * 8),
        (9, [11, 11, 11, 11, 12, 12, 12, 12, 12]),
    ],
)
def test_piketty_deal_counts(n: int, counts: list[int]) -> None:
    # seed 001: « La distribution doit se terminer par le trouduc et le vice-trouduc qui se retrouve
    # avec une carte supplémentaire chacun. »
    result = outcome(rules("piketty"), players(n), finish=players(n))
    assert list(result.deal.counts.values()) == counts
    assert result.deal.aside == 0


def test_president_deal_sets_leftovers_aside() -> None:
    # seed 000: « les éventuelles cartes restantes sont identifiées publiquement et mises de côté »
    result = outcome(rules(), players(5), finish=players(5))
    assert set(result.deal.counts.values()) == {10} and result.deal.aside == 2
    assert deal_for(players(3), 54).aside == 0


# ---------------------------------------------------------------------- first draw


def c(text: str) -> Card:
    return Card.parse(text)


def test_draw_higher_rank_better_title() -> None:
    # seed 001: « on tire au sort la position de chacun en tirant une carte »
    draws = {"Ann": [c("7h")], "Bob": [c("2d")], "Cid": [c("As")], "Dan": [c("6c")]}
    assert hierarchy_from_draw(draws, Rules(game="piketty").rank_order()) == ("Bob", "Cid", "Ann", "Dan")


def test_draw_suit_ties() -> None:
    # seed 001: « (pique / coeur / carrreau / trèfle en cas d'égalité) »
    draws = {"Ann": [c("Qc")], "Bob": [c("Qh")], "Cid": [c("Qs")], "Dan": [c("Qd")]}
    assert hierarchy_from_draw(draws) == ("Cid", "Bob", "Dan", "Ann")


def test_draw_identical_cards_redraw() -> None:
    r = rules("piketty")
    draws = {n: parse_cards(x) for n, x in zip(players(6), ["Ks", "Ks 7c", "9h", "Kh", "6c", "2s"], strict=True)}
    with pytest.raises(RulesError) as e:
        outcome(r, players(6), draw=draws)
    assert e.value.field == "draw.Ann"
    draws["Ann"] = parse_cards("Ks 10c")
    result = outcome(r, players(6), draw=draws)
    assert result.hierarchy == ("Fay", "Ann", "Bob", "Dan", "Cid", "Eve")
    assert result.events == ("draw",)
    assert set(result.points.values()) == {0}
    # the draw makes titles at once: the first manche has its exchanges and the Piketty deal
    assert swaps(result.exchanges)[0] == ("Eve", "Fay", 3, "best")
    assert (result.dealer, result.leader) == ("Eve", "Fay")
    assert list(result.deal.counts.values()) == [13, 13, 13, 13, 14, 14]


def test_draw_one_deck_holds_each_card_once() -> None:
    draws = {"Ann": parse_cards("Ks"), "Bob": parse_cards("Ks"), "Cid": parse_cards("9h"), "Dan": parse_cards("7c")}
    with pytest.raises(RulesError) as e:
        outcome(rules("piketty"), players(4), draw=draws)
    assert e.value.field == "draw.Bob"
    draws["Bob"] = parse_cards("3s")  # no 3 in Piketty
    with pytest.raises(RulesError) as e:
        outcome(rules("piketty"), players(4), draw=draws)
    assert e.value.field == "draw.Bob"


def test_draw_orders() -> None:
    # seed 000: « l'As reste invariablement la plus forte carte » (angevin)
    angevin = Rules.from_options({"preset": "angevin"}).rank_order()
    assert draw_key(c("As"), angevin) > draw_key(c("2s"), angevin)
    # seed 000: « il est préférable d'appliquer l'ordre : 8, 9, 10, Valet, Dame, Roi, As, 7 »
    reduced = Rules.from_options({"reduced": True}).rank_order()
    assert draw_key(c("7c"), reduced) > draw_key(c("As"), reduced)
    # RULES §1: « jokers above 2; a red joker beats a black one »
    assert draw_key(c("RJ")) > draw_key(c("BJ")) > draw_key(c("2s"))


def test_draw_and_finish_are_exclusive() -> None:
    with pytest.raises(RulesError) as e:
        outcome(
            rules(),
            players(3),
            finish=players(3),
            draw={p: [c(x)] for p, x in zip(players(3), ["2s", "3s", "4s"], strict=True)},
        )
    assert e.value.field == "finish"
    with pytest.raises(RulesError) as e:
        outcome(rules(), players(3), draw={"Ann": [c("2s")], "Bob": [c("3s")]})
    assert e.value.field == "draw.Cid"
