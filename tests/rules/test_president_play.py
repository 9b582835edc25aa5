"""Scenario tests of the Président play engine (seed 000, seed 001; shared/RULES.md §1–§2).

Moves are written ``"Ann 9h 9s"`` (cards), ``"Ann -"`` (a pass), ``"Ann 9h !"`` (last cards).
"""

from __future__ import annotations

import pytest

from companion.rules.cards import parse_cards
from companion.rules.i18n import RulesError
from companion.rules.president import Effect, IllegalPlayError, Play, RuleId, Rules, Table

FOUR = ["Ann", "Bob", "Cid", "Dan"]
FIVE = ["Ann", "Bob", "Cid", "Dan", "Eve"]


def move(text: str) -> Play:
    player, *rest = text.split()
    if rest == ["-"]:
        return Play.passes(player)
    last = rest[-1] == "!"
    if last:
        rest = rest[:-1]
    return Play.parse(player, rest, last=last)


def play(moves: str = "", players: list[str] | None = None, **options: object) -> Table:
    """The table after ``moves`` (comma-separated), from a fresh manche."""
    rules = Rules.from_options(options)
    table = Table.start(players or FOUR, rules)
    for text in filter(None, (m.strip() for m in moves.split(","))):
        table = table.apply(move(text))
    return table


def rule(table: Table, text: str) -> RuleId | None:
    return table.check(move(text)).rule


# --- the plain game -------------------------------------------------------------------


def test_higher_single_on_a_nine():
    # seed 000: « Par exemple sur un 9 on peut mettre un 10, valet, dame, roi, as ou deux. »
    table = play("Ann 9h")
    for card in ["10c", "Jc", "Qc", "Kc", "Ac", "2c"]:
        assert table.check(move(f"Bob {card}")).legal, card
    for card in ["3c", "8c", "9c"]:
        verdict = table.check(move(f"Bob {card}"))
        assert verdict.rule is RuleId.RANK
    assert table.check(move("Bob 8c")).reason is not None
    assert table.check(move("Bob 8c")).reason.fr == "Il faut jouer plus haut que 9."  # type: ignore[union-attr]


def test_triple_of_queens():
    # seed 000: « Sur un brelan de dames, on peut mettre un brelan de rois, d'as ou de deux. »
    table = play("Ann Qh Qs Qd")
    assert table.check(move("Bob Kh Ks Kd")).legal
    assert table.check(move("Bob Ah As Ad")).legal
    assert table.check(move("Bob 2h 2s 2d")).legal
    assert rule(table, "Bob Jh Js Jd") is RuleId.RANK
    assert rule(table, "Bob Kh Ks") is RuleId.COUNT


def test_pair_of_aces_only_pair_of_twos():
    # seed 000: « Sur une paire d'as, on ne peut mettre qu'une paire de deux. »
    table = play("Ann Ah As")
    assert table.check(move("Bob 2h 2s")).legal
    assert rule(table, "Bob Kh Ks") is RuleId.RANK
    assert rule(table, "Bob 2h") is RuleId.COUNT
    assert rule(table, "Bob 2h 2s 2d") is RuleId.COUNT


def test_lead_one_to_four_of_a_rank():
    # seed 000: « Le joueur pose de une à quatre cartes de la même valeur. »
    table = play()
    assert table.check(move("Ann 5h 5s 5d 5c")).legal
    assert rule(table, "Ann 5h 6s") is RuleId.COMBINATION
    assert rule(play(), "Ann -") is RuleId.LEAD


def test_everyone_passed_last_player_leads():
    # seed 000: « Lorsque tous les autres joueurs ont successivement passé leur tour, le joueur ayant
    # joué en dernier commence un nouveau tour »
    table = play("Ann 9h, Bob -, Cid -")
    verdict = table.check(move("Dan -"))
    assert verdict.effects == (Effect.TRICK_WON,)
    assert verdict.next_player == "Ann"
    table = table.apply(move("Dan -"))
    assert table.over and table.to_move == "Ann"
    assert rule(table, "Bob 3h") is RuleId.TURN
    assert table.check(move("Ann 3h")).legal


def test_passing_does_not_leave_the_trick():
    # RULES.md §1: « Passing does not take a player out of the trick: the turn keeps going round. »
    table = play("Ann 9h, Bob -, Cid 10h, Dan -, Ann -")
    assert table.to_move == "Bob"
    assert table.check(move("Bob Jh")).legal
    assert table.check(move("Bob -")).effects == (Effect.TRICK_WON,)


def test_twos_end_the_trick():
    # seed 000: « Lorsqu'un joueur pose des deux, personne ne peut plus monter, donc il redémarre
    # immédiatement un nouveau tour de jeu »
    table = play("Ann 9h")
    verdict = table.check(move("Bob 2h"))
    assert verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Bob"
    table = table.apply(move("Bob 2h"))
    assert rule(table, "Cid 2s") is RuleId.TURN


def test_turn_is_reported_first():
    # API.md: « When several rules forbid it, `turn` is reported first. »
    table = play("Ann 9h")
    assert rule(table, "Cid 8h 8s") is RuleId.TURN


def test_going_out_and_next_player_still_in_leads():
    # RULES.md §1: « If the player who should lead is out, the next player still in (clockwise) leads. »
    table = play("Ann 9h", players=FOUR)
    verdict = table.check(move("Bob Kh !"))
    assert verdict.effects == (Effect.OUT,)
    table = table.apply(move("Bob Kh !"))
    assert table.out == ("Bob",)
    table = table.apply(move("Cid -")).apply(move("Dan -"))
    assert table.to_move == "Ann"
    verdict = table.check(move("Ann -"))
    assert verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Cid"


def test_out_player_cannot_play():
    table = play("Ann 9h, Bob Kh !")
    assert rule(table, "Bob 2h") is RuleId.TURN


def test_last_two_players_manche_ends():
    table = play("Ann 9h !, Bob 10h !", players=["Ann", "Bob", "Cid"])
    assert table.finished and table.to_move is None
    assert rule(table, "Cid 3h") is RuleId.TURN


# --- more_cards ------------------------------------------------------------------------


def test_more_cards_on_a_pair_of_kings():
    # seed 000: « sur une paire de rois on autorisera alors une paire, un brelan ou un carré d'as ou de deux.
    # Si le joueur pose un carré d'as, le suivant ne pourra alors plus poser qu'un carré de deux. »
    table = play("Ann Kh Ks", more_cards=True)
    for cards in ["Ah As", "Ah As Ad", "Ah As Ad Ac", "2h 2s 2d"]:
        assert table.check(move(f"Bob {cards}")).legal, cards
    assert rule(table, "Bob Kd Kc Qh") is RuleId.COMBINATION
    assert rule(table, "Bob Ah") is RuleId.COUNT
    table = table.apply(move("Bob Ah As Ad Ac"))
    assert table.check(move("Cid 2h 2s 2d 2c")).legal
    assert rule(table, "Cid 2h 2s 2d") is RuleId.COUNT


def test_without_more_cards_count_is_fixed():
    # seed 000: « Jouer consiste à poser le même nombre de cartes que le joueur précédent »
    assert rule(play("Ann Kh Ks"), "Bob Ah As Ad") is RuleId.COUNT


# --- passe ---------------------------------------------------------------------------


def test_passe_example_threes():
    # seed 000: « Soit joueur 1 pose un 3 ⇒ joueur 2 pose un 3 ⇒ joueur 3 n'a pas d'autre choix que de
    # poser un 3 ou de sauter son tour ! »
    table = play("Ann 3h", passe=True)
    verdict = table.check(move("Bob 3s"))
    assert verdict.legal and Effect.LOCK in verdict.effects
    table = table.apply(move("Bob 3s"))
    assert table.check(move("Cid 3d")).legal
    assert table.check(move("Cid -")).legal
    assert rule(table, "Cid 4d") is RuleId.LOCKED
    assert rule(table, "Cid 2d") is RuleId.LOCKED
    # « Si le joueur 3 a posé un 3, la règle continue de s'appliquer »
    table = table.apply(move("Cid 3d"))
    assert rule(table, "Dan Kd") is RuleId.LOCKED
    assert table.check(move("Dan 3c")).legal


def test_passe_breakers():
    # seed 000: « NB: On peut autoriser l'utilisation du 2 ou du joker pour casser la passe. »
    table = play("Ann 3h, Bob 3s", passe=True, passe_breakers=True)
    assert table.check(move("Cid 2d")).legal
    assert rule(table, "Cid Ad") is RuleId.LOCKED
    table = play("Ann 3h, Bob 3s", passe=True, passe_breakers=True, jokers=1)
    assert table.check(move("Cid RJ")).legal


def test_passe_for_pairs_and_quitte_ou_double():
    # seed 000: « Cette règle peut s'appliquer aussi pour les doubles ! »  « Lorsque deux joueurs posent
    # successivement les mêmes valeurs de cartes (par exemple deux fois un double roi), le joueur suivant
    # se doit de mettre exactement la même chose »
    table = play("Ann Kh Ks, Bob Kd Kc", passe=True, decks=2)
    assert table.lock
    assert table.check(move("Cid Kh Kd")).legal
    assert rule(table, "Cid Ah Ad") is RuleId.LOCKED
    # « ce qui ne lui empêche pas de pouvoir jouer à nouveau quand son tour reviendra »
    table = table.apply(move("Cid -")).apply(move("Dan -"))
    assert table.to_move == "Ann"


def test_passe_lock_released_by_a_different_play():
    table = play("Ann 3h, Bob 4s", passe=True)
    assert not table.lock
    assert table.check(move("Cid 4d")).legal
    assert rule(play("Ann 5h", passe=True), "Bob 4s") is RuleId.RANK


# --- jokers -------------------------------------------------------------------------


def test_joker_on_anything_and_wins():
    # seed 000: « le joker simple peut être placé n'importe quand, y compris lors d'un jeu en double ou
    # triple. Il permet au joueur l'ayant placé de récupérer la main »
    table = play("Ann Qh Qs Qd", jokers=1)
    verdict = table.check(move("Bob BJ"))
    assert verdict.legal and verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Bob"
    assert rule(play(jokers=2), "Ann RJ BJ") is RuleId.COMBINATION


def test_red_joker_beats_black():
    # seed 000: « Dans le cas d'utilisation de deux jokers le joker couleur bat le joker noir »
    table = play("Ann 9h, Bob BJ", jokers=2)
    assert table.to_move == "Cid" and not table.over
    verdict = table.check(move("Cid RJ"))
    assert verdict.legal and Effect.TRICK_WON in verdict.effects
    assert rule(table, "Cid 2h") is RuleId.CLOSED
    table = play("Ann 9h, Bob RJ", jokers=2)
    assert table.over and table.to_move == "Bob"


def test_jokers_cut_twos():
    # RULES.md §1: twos_cut is « Not compatible with jokers »: with jokers a 2 may be covered by a joker.
    table = play("Ann 2h", jokers=1)
    assert not table.over
    assert table.check(move("Bob RJ")).legal
    assert rule(table, "Bob 2s") is RuleId.CLOSED


def test_joker_no_finish():
    # seed 000: « Dans certaines variantes, on ne peut pas finir avec un joker, dans ce cas, on devient
    # immédiatement le Balayeur. »
    verdict = play("Ann 9h", jokers=1, joker_no_finish=True).check(move("Bob RJ !"))
    assert verdict.effects[:2] == (Effect.OUT, Effect.FINISH_LAST)


def test_joker_wild():
    # seed 000: « il ne peut être joué seul, il doit être utilisé en complément d'une ou plusieurs cartes
    # pour former une paire (…) un brelan (…) un carré (…) ou un poker »
    table = play(jokers=2, joker_wild=True)
    assert rule(table, "Ann RJ") is RuleId.COMBINATION
    assert table.check(move("Ann 9h RJ")).legal
    assert table.check(move("Ann 9h 9s 9d 9c RJ")).legal
    table = table.apply(move("Ann 9h BJ"))
    assert rule(table, "Bob 8h 8s") is RuleId.RANK
    assert table.check(move("Bob 10h RJ")).legal


# --- runs ---------------------------------------------------------------------------


def test_runs():
    # seed 000: « le joueur peut poser un ensemble de cartes consécutives, de même il peut poser un
    # ensemble de doubles ou de triples consécutifs »
    table = play(runs=True)
    assert table.check(move("Ann 5h 6s 7d")).legal
    assert table.check(move("Ann 5h 5s 6s 6d 7d 7c")).legal
    assert rule(table, "Ann 5h 6s 8d") is RuleId.COMBINATION
    assert rule(table, "Ann Kh As 2d") is RuleId.COMBINATION  # RULES.md: 2s never sit inside a run
    table = table.apply(move("Ann 5h 6s 7d"))
    assert table.check(move("Bob 6h 7s 8d")).legal
    assert rule(table, "Bob 4h 5s 6d") is RuleId.RANK
    assert rule(table, "Bob 6h 7s 8d 9c") is RuleId.COUNT
    assert rule(table, "Bob 9h 9s 9d") is RuleId.COMBINATION


# --- tabula rasa --------------------------------------------------------------------


def test_tabula_rasa():
    # seed 000: « si quatre joueurs à la suite ont joué un valet ou deux joueurs à la suite une paire de
    # valet, il y a Tabula Rasa : Alors le joueur ayant mis la dernière carte récupère immédiatement la main »
    table = play("Ann Jh, Bob Js, Cid Jd", players=FIVE, tabula_rasa=True)
    verdict = table.check(move("Dan Jc"))
    assert verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Dan"
    table = play("Ann Jh Js", players=FIVE, tabula_rasa=True)
    assert table.check(move("Bob Jd Jc")).effects == (Effect.TRICK_WON,)
    # « Cette règle ne s'applique pas aux carrés. »
    table = play(players=FIVE, tabula_rasa=True)
    assert table.check(move("Ann Jh Js Jd Jc")).effects == ()


def test_tabula_rasa_needs_five():
    # seed 000: « s'il y a plus de quatre joueurs »
    with pytest.raises(RulesError) as e:
        play(tabula_rasa=True)
    assert e.value.field == "state.players"


# --- twos_cut -----------------------------------------------------------------------


def test_twos_cut():
    # seed 000: « Lorsqu'un 2 est joué (…), plus personne ne peut jouer, même en plaçant un autre 2. (…)
    # Il n'est pas autorisé que le joueur gagnant finisse avec un 2. Il devient alors Balayeur. Il est
    # possible de poser des 2 ou des paires même lorsque aucune carte n'est présente sur le tapis »
    table = play("Ann 9h", twos_cut=True)
    verdict = table.check(move("Bob 2h !"))
    assert verdict.effects == (Effect.OUT, Effect.FINISH_LAST, Effect.TRICK_WON)
    assert verdict.next_player == "Cid"
    assert play(twos_cut=True).check(move("Ann 2h 2s")).legal
    table = play("Ann 2h", twos_cut=True)
    assert rule(table, "Bob 2s") is RuleId.TURN
    # « Cette règle ne peut pas s'appliquer si l'on joue avec des Jokers. »
    with pytest.raises(RulesError) as e:
        Rules.from_options({"twos_cut": True, "jokers": 1})
    assert e.value.field == "rules.twos_cut"


# --- revolution ---------------------------------------------------------------------


def test_revolution_reverses_the_order_at_once():
    # seed 000: « Si un joueur pose un carré, il y a une révolution et la valeur des cartes est inversée.
    # Le 3 devient la meilleure carte et le 2 la moins bonne (…) Le changement d'ordre est immédiat. »
    table = play("Ann 9h, Bob -, Cid -, Dan -", revolution=True)
    verdict = table.check(move("Ann 7h 7s 7d 7c"))
    assert Effect.REVOLUTION in verdict.effects
    table = table.apply(move("Ann 7h 7s 7d 7c")).apply(move("Bob -")).apply(move("Cid -")).apply(move("Dan -"))
    assert table.reversed
    table = table.apply(move("Ann 9s"))
    assert table.check(move("Bob 8s")).legal
    assert rule(table, "Bob 10s") is RuleId.RANK
    assert table.check(move("Bob 10s")).reason.fr.startswith("Révolution")  # type: ignore[union-attr]
    # 3s take the power of the 2s
    assert table.check(move("Bob 3s")).effects == (Effect.TRICK_WON,)
    # « Il est possible de faire une contre-révolution en posant sur la table un autre carré »
    table = Table.start(FOUR, Rules(revolution=True), reversed=True)
    assert Effect.COUNTER_REVOLUTION in table.check(move("Ann 8h 8s 8d 8c")).effects


def test_revolution_on_triple_5_6_and_size():
    # seed 000: « Il existe une autre variante dans laquelle il y a révolution si un joueur pose un brelan
    # de 5 ou de 6. »  « La révolution ne se fait alors qu'à 7 ou 8 cartes. »
    table = play(revolution=True, revolution_on_triple_5_6=True)
    assert Effect.REVOLUTION in table.check(move("Ann 5h 5s 5d")).effects
    assert Effect.REVOLUTION not in table.check(move("Ann 7h 7s 7d")).effects
    table = play(revolution=True, revolution_size=7, decks=2)
    assert Effect.REVOLUTION not in table.check(move("Ann 7h 7s 7d 7c")).effects
    assert Effect.REVOLUTION in table.check(move("Ann 7h 7s 7d 7c 7h 7s 7d")).effects
    with pytest.raises(RulesError):
        Rules.from_options({"revolution": True, "revolution_size": 7})
    with pytest.raises(RulesError):
        Rules.from_options({"revolution_persists": True})


# --- coup d'État, guillotine -------------------------------------------------------


def test_coup_detat_and_guillotine():
    # seed 000: « Si un joueur pose un carré et un joker ou un brelan et deux jokers, ce joueur devient
    # automatiquement Président. Le coup d'État peut être posé n'importe quand »
    table = play("Ann Kh", jokers=2, coup_detat=True, guillotine=True)
    verdict = table.check(move("Bob 5h 5s 5d 5c RJ"))
    assert verdict.effects == (Effect.COUP_DETAT,) and verdict.next_player is None
    assert table.check(move("Bob 5h 5s 5d RJ BJ")).effects == (Effect.COUP_DETAT,)
    # « Si un joueur pose un carré plus deux jokers alors ce joueur devient automatiquement Président »
    assert table.check(move("Bob 5h 5s 5d 5c RJ BJ")).effects == (Effect.GUILLOTINE,)
    assert table.apply(move("Bob 5h 5s 5d 5c RJ")).finished
    with pytest.raises(RulesError) as e:
        Rules.from_options({"coup_detat": True})
    assert e.value.field == "rules.coup_detat"
    with pytest.raises(RulesError) as e:
        Rules.from_options({"guillotine": True, "jokers": 1})
    assert e.value.field == "rules.guillotine"


# --- eight_clears, rapidity, liar --------------------------------------------------


def test_eight_clears():
    # seed 000: « Règle du 8 : À chaque pose d'un 8 les cartes sont enlevées et le joueur qui a posé le 8
    # peut mettre une nouvelle carte/combinaison »
    table = play("Ann 5h", eight_clears=True)
    verdict = table.check(move("Bob 8h"))
    assert verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Bob"


def test_rapidity():
    # seed 000: « si un joueur commence un pli avec un 3, que le joueur suivant joue un autre 3, un autre
    # joueur ayant une paire de 3 peut la poser en rapidité et le jeu part alors en double »
    table = play("Ann 3h", rapidity=True, passe=True)
    table = table.apply(move("Bob 3s"))
    verdict = table.check(move("Dan 3d 3c"))
    assert verdict.legal and verdict.next_player == "Ann"
    table = table.apply(move("Dan 3d 3c"))
    assert table.check(move("Ann 4h 4s")).legal
    assert rule(table, "Ann 4h") is RuleId.COUNT
    # « un 4 suivi d'une rapidité en brelan de 4 »
    table = play("Ann 4h", rapidity=True)
    assert table.check(move("Cid 4s 4d 4c")).legal
    assert rule(table, "Cid 4s 4d") is RuleId.TURN  # does not complete the 4s
    assert rule(play("Ann 4h"), "Cid 4s 4d 4c") is RuleId.TURN  # without the option


def test_liar_call():
    # seed 000: « si elles correspondent à l'annonce, le joueur ayant dit « menteur » reprend en main toutes
    # les cartes de la pile, sinon, c'est le joueur ayant menti qui les reprend. Celui des deux qui a raison
    # reprend alors la main »
    rules = Rules(liar=True)
    table = Table.start(FOUR, rules).apply(Play.parse("Ann", "9h", laid="9h"))
    table = table.apply(Play.parse("Bob", "2h", laid="3c"))
    verdict = table.check(Play("Dan", call=True))
    assert verdict.legal and verdict.pile_to == "Bob" and verdict.next_player == "Dan"
    honest = Table.start(FOUR, rules).apply(Play.parse("Ann", "9h", laid="9h"))
    verdict = honest.check(Play("Cid", call=True))
    assert verdict.pile_to == "Cid" and verdict.next_player == "Ann"
    assert honest.check(Play("Ann", call=True)).rule is RuleId.CALL
    assert Table.start(FOUR, Rules()).check(Play("Ann", call=True)).rule is RuleId.CALL


# --- presets ------------------------------------------------------------------------


def test_angevin():
    # seed 000: « l'As reste invariablement la plus forte carte. L'ordre des cartes étant par conséquent :
    # 2, 3, 4, 5, 6, 7, 8, 9, 10, V, D, R, As. »
    table = play("Ann Kh", preset="angevin")
    assert table.check(move("Bob Ah")).legal
    assert rule(table, "Bob 2h") is RuleId.RANK
    # « Lorsqu'un As est joué (ou une paire d'As), il ne peut être suivi d'un autre As »
    table = table.apply(move("Bob Ah"))
    assert rule(table, "Cid As") is RuleId.ACE
    # « il est interdit de poser en dernière(s) carte(s) un (ou plusieurs) As, sous peine de finir trouduc »
    assert Effect.FINISH_LAST in play("Ann Kh", preset="angevin").check(move("Bob Ah !")).effects
    # « Lorsqu'un tour de jeu débute par une carte simple (ou une paire), il est impossible de jouer autre
    # chose qu'une carte simple (ou une paire). »
    assert rule(play("Ann 9h", preset="angevin"), "Bob 10h 10s") is RuleId.COUNT
    # « Il est possible de jouer la même carte (ou la même paire) que le joueur précédent, ceci ayant pour
    # effet de faire sauter le tour du joueur suivant. »
    verdict = play("Ann 9h", preset="angevin").check(move("Bob 9s"))
    assert verdict.effects == (Effect.SKIP,) and verdict.skipped == ("Cid",) and verdict.next_player == "Dan"
    # « Lorsqu'un joueur joue un 7 (ou plusieurs), celui-ci fait effet de "chasse d'eau" et il est possible
    # de jouer des cartes inférieures (2, 3, 4, 5, ou 6). »
    table = play("Ann 7h 7s", preset="angevin")
    assert table.check(move("Bob 3h 3s")).legal
    table = table.apply(move("Bob 3h 3s"))
    assert rule(table, "Cid 2h 2s") is RuleId.RANK
    # « Le joker n'existe pas. »
    with pytest.raises(RulesError):
        Rules.from_options({"preset": "angevin", "jokers": 1})


def test_wizz_examples():
    # seed 000: « si le premier joueur lance un 6, le joueur suivant peut jouer un double 7. De sorte que
    # le 3e joueur devra alors jouer au moins un double d'au moins 7. »
    table = play("Ann 6h", preset="wizz")
    assert table.check(move("Bob 7h 7s")).legal
    table = table.apply(move("Bob 7h 7s"))
    assert table.check(move("Cid 7d 7c")).legal
    assert table.check(move("Cid 8d 8c 8s")).legal
    assert rule(table, "Cid 8d") is RuleId.COUNT
    assert rule(table, "Cid 6d 6c") is RuleId.RANK
    # « si le premier joueur lance un 6, et que le suivant joue un double 6, il Wizze le 3è et 4è joueur.
    # En revanche, si le premier joueur avait lancé un double 6, seul le 3è joueur aurait été Wizzé. »
    verdict = play("Ann 6h", players=FIVE, preset="wizz").check(move("Bob 6s 6d"))
    assert verdict.skipped == ("Cid", "Dan") and verdict.next_player == "Eve"
    verdict = play("Ann 6h 6c", players=FIVE, preset="wizz").check(move("Bob 6s 6d"))
    assert verdict.skipped == ("Cid",) and verdict.next_player == "Dan"
    # « un joueur ayant déjà remporté la manche (…) ne peut plus être Wizzé et (…) la sanction touchera le
    # joueur suivant. De même, un joueur ne peut pas se retrouver Wizzé de son propre fait. »
    table = Table.start(FIVE, Rules(preset="wizz"), out=["Cid"]).apply(move("Ann 6h"))
    verdict = table.check(move("Bob 6s 6d"))
    assert verdict.skipped == ("Dan", "Eve") and verdict.next_player == "Ann"
    verdict = play("Ann 6h", players=["Ann", "Bob", "Cid"], preset="wizz").check(move("Bob 6s 6d 6c"))
    assert verdict.skipped == ("Cid", "Ann") and verdict.effects[-1] is Effect.TRICK_WON
    # « Dès lors que la main revient au joueur ayant posé une carte pour la dernière fois, le tour de jeu
    # est clos »
    table = play("Ann 6h, Bob 7h, Cid -, Dan -", preset="wizz")
    assert table.to_move == "Ann"
    assert table.check(move("Ann -")).effects == (Effect.TRICK_WON,)
    # « Une combinaison de 2 se joue de la même façon qu'une autre, à ceci près qu'ils coupent. »
    assert play("Ann 6h", preset="wizz").check(move("Bob 2h")).effects == (Effect.TRICK_WON,)


def test_franck():
    # seed 000: « L'ordre des mains de poker est la suivante : Quinte Flush > Carré > Full > Couleur > Suite »
    table = play(preset="franck")
    straight = "Ann 5h 6s 7d 8c 9s"
    assert table.check(move(straight)).legal
    table = table.apply(move(straight))
    assert table.check(move("Bob 3h 7h 9h Jh Kh")).legal  # a flush beats a straight
    assert table.check(move("Bob 6h 7s 8d 9c 10h")).legal  # a higher straight
    assert rule(table, "Bob 3h 4s 5d 6c 7h") is RuleId.RANK
    assert rule(table, "Bob Kh") is RuleId.COUNT
    table = table.apply(move("Bob 3h 7h 9h Jh Kh"))
    assert table.check(move("Cid 4s 4d 4c 10s 10d")).legal  # full
    # « Dans le cas d'un carré, le joueur posera son carré ainsi qu'une carte supplémentaire »
    assert rule(play(preset="franck"), "Ann 9h 9s 9d 9c") is RuleId.COMBINATION
    assert play(preset="franck").check(move("Ann 9h 9s 9d 9c 3h")).legal
    # « La meilleure couleur est celle qui contient la carte la plus haute (…) c'est la couleur
    # ( ♣, ♦ , ♥ , ♠) qui départage »
    table = play("Ann 3c 5c 7c 9c Jc", preset="franck")
    assert table.check(move("Bob 3s 5s 7s 9s Js")).legal
    assert rule(play("Ann 3s 5s 7s 9s Js", preset="franck"), "Bob 3c 5c 7c 9c Jc") is RuleId.RANK
    # « Il est interdit de finir par un 2 (hormis s'il fait parti d'une Franckies). »
    assert Effect.FINISH_LAST in play("Ann 9h", preset="franck").check(move("Bob 2h !")).effects
    assert Effect.FINISH_LAST not in play(preset="franck").check(move("Ann 2h 2s 2d 9c 9s !")).effects


def test_tarot():
    # seed 000: « la paire de cartes est remplacée par deux atouts consécutifs, la tierce par trois atouts
    # consécutifs et le carré par quatre atouts consécutifs. L'excuse permet de gagner à coup sûr le pli »
    table = play("Ann 9h 9s", preset="tarot")
    assert table.check(move("Bob T5 T6")).legal
    assert rule(table, "Bob T5 T7") is RuleId.COMBINATION
    table = table.apply(move("Bob T5 T6"))
    assert rule(table, "Cid T3 T4") is RuleId.RANK
    assert table.check(move("Cid EX")).effects == (Effect.TRICK_WON,)
    # « Le 1 et le 21 permettent de remplacer n'importe quelle carte dans le jeu. »
    assert play("Ann 9h 9s", preset="tarot").check(move("Bob Kh T1")).legal
    assert play("Ann T7 T8", preset="tarot").check(move("Bob T9 T21")).legal
    # « Il est alors facile d'échanger le sens des cartes en complétant une tierce (…) avec le 1 ou 21 »
    assert Effect.REVOLUTION in play(preset="tarot").check(move("Ann Kh Ks Kd T1")).effects


# --- Piketty ------------------------------------------------------------------------


SIX = ["Pre", "Vic", "Pm", "Min", "Vtr", "Trd"]


def test_piketty_count_fixed_strictly_higher():
    # seed 001: « Si il commence par une seule carte, tous ceux qui jouent derrière ne peuvent jouer qu'avec
    # une carte. (…) On ne peut pas égaliser et l'on n'est pas obligé de jouer. »
    rules = Rules.from_options({}, game="piketty")
    table = Table.start(SIX, rules).apply(move("Pre 9h 9s"))
    assert rule(table, "Vic 9d 9c") is RuleId.RANK
    assert rule(table, "Vic 10d") is RuleId.COUNT
    assert table.check(move("Vic -")).legal
    # « Comme il y a 2 jeux il peut potentiellement y avoir des simples, paires, (…) et octuples. »
    assert Table.start(SIX, rules).check(move("Pre 9h 9s 9d 9c 9h 9s 9d 9c")).legal
    # the 3, 4 and 5 are removed
    with pytest.raises(RulesError):
        Table.start(SIX, rules).check(move("Pre 4h"))


def test_piketty_passer_may_play_again():
    # seed 001: « Par exemple le vice-président passe, mais le premier-ministre joue, le vice-président peut
    # décider de jouer malgré tout après cela sur le même tour. »
    rules = Rules(game="piketty")
    table = Table.start(SIX, rules)
    for text in ["Pre 9h", "Vic -", "Pm 10h", "Min -", "Vtr -", "Trd -", "Pre -"]:
        table = table.apply(move(text))
    assert table.to_move == "Vic" and table.check(move("Vic Jh")).legal


def test_piketty_lead_to_highest_title_after_last_cards():
    # seed 001: « quand quelqu'un se débarrasse de sa dernière carte les autres peuvent jouer dessus. Si tout
    # le monde passe, c'est le plus haut en grade qui rejoue et non pas le suivant. »
    rules = Rules(game="piketty")
    table = Table.start(SIX, rules).apply(move("Pre 9h"))
    table = table.apply(move("Vic -")).apply(move("Pm -")).apply(move("Min Kh !"))
    for p in ["Vtr", "Trd", "Pre", "Vic"]:
        assert table.check(move(f"{p} Ah")).legal
        table = table.apply(move(f"{p} -"))
    verdict = table.check(move("Pm -"))
    assert verdict.effects == (Effect.TRICK_WON,) and verdict.next_player == "Pre"
    # « Si quelqu'un termine avec un 2, il devient trouduc. »
    assert Effect.FINISH_LAST in Table.start(SIX, rules).check(move("Pre 2h !")).effects


def test_piketty_players_and_decks():
    # seed 001: « On peut jouer de 4 à 9 personnes. »
    for n in (3, 10):
        with pytest.raises(RulesError):
            Rules(game="piketty").check_players(n)
    with pytest.raises(RulesError) as e:
        Rules.from_options({"decks": 2}, game="piketty")
    assert e.value.field == "rules.decks"
    assert Rules.from_options({"piketty_two_decks": True}, game="piketty").deck(4).size == 64


# --- state and moves ----------------------------------------------------------------


def test_reduced_deck_order():
    # seed 000: « il est préférable d'appliquer l'ordre : 8, 9, 10, Valet, Dame, Roi, As, 7. »
    table = play("Ann As", reduced=True)
    assert table.check(move("Bob 7h")).effects == (Effect.TRICK_WON,)
    with pytest.raises(RulesError):
        table.check(move("Bob 2h"))
    with pytest.raises(RulesError):
        play(players=FIVE, reduced=True)


def test_from_state_replays_and_validates():
    state = {"players": FOUR, "trick": [{"player": "Ann", "cards": ["9h"]}, {"player": "Bob", "cards": "8h"}]}
    with pytest.raises(RulesError) as e:
        Table.from_state(state, Rules())
    assert e.value.field == "state.trick[1]"
    state = {
        "players": FOUR,
        "out": ["Bob"],
        "trick": [{"player": "Ann", "cards": ["9h"]}, {"player": "Bob", "cards": "Kh"}],
    }
    table = Table.from_state(state, Rules())
    assert table.out == ("Bob",) and table.to_move == "Cid"
    with pytest.raises(RulesError) as e:
        Table.from_state({"players": FOUR, "trick": [{"player": "Ann", "cards": ["9h", "9x"]}]}, Rules())
    assert e.value.field == "state.trick[0].cards[1]"
    table = Table.from_state({"players": FOUR, "leader": "Cid", "trick": []}, Rules())
    assert table.check(move("Ann 3h")).rule is RuleId.TURN


def test_move_cards_counted_with_the_state():
    table = play("Ann 9h 9s")
    with pytest.raises(RulesError) as e:
        table.check(move("Bob 9h 9d"))
    assert e.value.field == "move.cards[0]"
    with pytest.raises(RulesError) as e:
        table.check(move("Zed 3h"))
    assert e.value.field == "move.player"


def test_apply_refuses_illegal():
    with pytest.raises(IllegalPlayError):
        play("Ann 9h").apply(move("Bob 8h"))


def test_legal_plays_are_the_checked_ones():
    table = play("Ann 9h 9s")
    hand = parse_cards("3h 10h 10s 10d Kc 2h 2s")
    plays = [str(p) for p in table.legal_plays(hand)]
    assert plays == ["Bob: pass", "Bob: 2h 2s", "Bob: 10h 10s", "Bob: 10d 10s", "Bob: 10d 10h"] or set(plays) == {
        "Bob: pass",
        "Bob: 2h 2s",
        "Bob: 10h 10s",
        "Bob: 10d 10s",
        "Bob: 10d 10h",
    }
