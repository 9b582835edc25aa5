"""La crapouille play by play: :class:`Pile`, the public table of a hand.

Built from the API's ``state`` (and written back by :meth:`Pile.to_state`); what the
top card asks for (:meth:`Pile.accepts`, :meth:`Pile.refusal`); a move judged
(:meth:`Pile.check`, never raising for an illegal move) and made (:meth:`Pile.apply`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.cards import Card, CardError, Rank, Suit
from companion.rules.crapouille_play.moves import DECK, Draw, Effect, Options, PlayCard, PlayMove, PlayRule, Verdict
from companion.rules.i18n import RulesError, Text


@dataclass(frozen=True)
class _Demand:
    """What the top of the pile asks for.

    ``kind``: ``any`` (anything goes), ``match`` (suit or rank, 8 and jokers free),
    ``two`` (the 2's suit or a 2), ``asked`` (the asked suit, 8s and jokers) or
    ``joker`` (a 2, the suit asked before the joker, 8s and jokers).
    """

    kind: str
    suit: Suit | None = None
    rank: Rank | None = None


@dataclass(frozen=True)
class Pile:
    """The public table of a crapouille hand.

    ``players``: those in the hand, seat order; ``pile`` oldest first (never
    empty: its first card is the starting card); ``direction`` 1 (clockwise, to
    the left) or −1; ``asked``: the suit named with the 8 on top, or with the 8
    that the jokers on top lie on; ``turn``: whose turn it is (None: not checked);
    ``out``: who laid his last card, when the hand is over (then no move may be made,
    and an 8 on top asks no suit: RULES.md §4, « an 8 laid as a player's last card
    ends the hand: no suit is asked »).  With exactly two players the two-player rule
    applies.
    """

    players: tuple[str, ...]
    pile: tuple[Card, ...]
    direction: int = 1
    asked: Suit | None = None
    turn: str | None = None
    options: Options = Options()  # noqa: RUF009  (frozen: one shared default is safe)
    out: str | None = None

    def __post_init__(self) -> None:
        names = tuple(self.players)
        object.__setattr__(self, "players", names)
        object.__setattr__(self, "pile", tuple(self.pile))
        if len(names) < 2:
            raise RulesError(Text("Il faut au moins 2 joueurs.", "At least 2 players are needed."), "players")
        for i, name in enumerate(names):
            if not isinstance(name, str) or not name:
                raise RulesError(Text("Un joueur a un nom.", "A player has a name."), f"players[{i}]")
        if len(set(names)) != len(names):
            raise RulesError(Text("Un joueur figure deux fois.", "A player is listed twice."), "players")
        if self.direction not in (1, -1) or isinstance(self.direction, bool):
            raise RulesError(Text("Le sens vaut 1 ou −1.", "The direction is 1 or −1."), "direction")
        if not self.pile:
            raise RulesError(
                Text("Le talon retourné a au moins la carte de départ.", "The pile holds at least the starting card."),
                "pile",
            )
        for i, card in enumerate(self.pile):
            if card.trump is not None:
                raise RulesError(_not_in_game(), f"pile[{i}]")
        if self.turn is not None:
            _seat(names, self.turn, "turn")
        if self.out is None:
            self._demand()
        else:
            _seat(names, self.out, "out")
            if self.turn is not None:
                raise RulesError(_over(self.out), "turn")

    def to_state(self) -> dict[str, Any]:
        """The API's ``state`` of this table (shared/API.md); the options are the ``rules``.

        The inverse of the constructor as the API adapter calls it; a hand that is over
        also says who went ``out`` (a table no move is judged on).

        >>> Pile(("Ann", "Bob", "Cid"), (Card.parse("9d"), Card.parse("8h")), -1, Suit.SPADES, "Bob").to_state()
        {'players': ['Ann', 'Bob', 'Cid'], 'pile': ['9d', '8h'], 'direction': -1, 'asked': 's', 'turn': 'Bob'}
        """
        state: dict[str, Any] = {
            "players": list(self.players),
            "pile": [str(c) for c in self.pile],
            "direction": self.direction,
            "asked": None if self.asked is None else self.asked.value,
            "turn": self.turn,
        }
        if self.out is not None:
            state["out"] = self.out
        return state

    # -- what the pile asks for -------------------------------------------------------

    @property
    def two_players(self) -> bool:
        """Whether the two-player rule applies (exactly two players)."""
        return len(self.players) == 2

    def _asked_8(self) -> Suit:
        if self.asked is None:
            raise RulesError(
                Text("Quelle couleur a été demandée avec le 8 ?", "Which suit was asked with the 8?"), "asked"
            )
        return self.asked

    def _demand(self) -> _Demand:
        top_index = len(self.pile) - 1
        top = self.pile[-1]
        if top_index == 0:
            # RULES.md §4: the starting card has no power (a starting 8 asks its own suit).
            return _Demand("any") if top.is_joker else _Demand("match", top.suit, top.rank)
        if top.is_joker:
            below = top_index - 1
            while below > 0 and self.pile[below].is_joker:
                below -= 1
            under = self.pile[below]
            if under.is_joker:  # jokers on a starting joker: nothing was ever asked
                return _Demand("any")
            if under.rank is Rank.EIGHT and below > 0:
                return _Demand("joker", self._asked_8())
            return _Demand("joker", under.suit)
        if top.rank is Rank.TWO:
            return _Demand("two", top.suit, top.rank)
        if top.rank is Rank.EIGHT:
            return _Demand("asked", self._asked_8())
        return _Demand("match", top.suit, top.rank)

    def refusal(self, card: Card) -> tuple[PlayRule, Text] | None:
        """Why ``card`` may not go on the pile (rule and reason), or None if it may.

        # seed 003: « sur un joker, on doit mettre, soit un 2, soit une carte de même
        # couleur que la carte posée avant le joker »

        >>> p = Pile(("A", "B", "C"), (Card.parse("5c"), Card.parse("9h"), Card.parse("RJ")))
        >>> p.refusal(Card.parse("2s")), p.refusal(Card.parse("Kh"))
        (None, None)
        >>> p.refusal(Card.parse("9s"))[0]
        <PlayRule.AFTER_JOKER: 'after_joker'>
        """
        demand = self._demand()
        free = card.is_joker or card.rank is Rank.EIGHT
        if demand.kind == "any":
            return None
        if demand.kind == "match":
            if free or card.suit is demand.suit or card.rank is demand.rank:
                return None
            assert demand.suit is not None and demand.rank is not None
            return PlayRule.MATCH, Text(
                f"Il faut jouer du {demand.suit.name_in('fr')} ou {_rank_fr(demand.rank)}, un 8 ou un joker.",
                f"Play a {_suit_en(demand.suit)} or {_rank_en(demand.rank)}, an 8 or a joker.",
            )
        if demand.kind == "two":
            assert demand.suit is not None
            if card.rank is not Rank.EIGHT and (card.suit is demand.suit or card.rank is Rank.TWO):
                return None
            if free:
                # seed 003: the joker and the 8 go anywhere « sauf lorsque celui-ci a eu la
                # gentillesse de mettre un 2 sur la table »
                return PlayRule.ON_TWO, Text(
                    f"Ni 8 ni joker sur un 2 : il faut un 2 ou du {demand.suit.name_in('fr')}.",
                    f"No 8 and no joker on a 2: play a 2 or a {_suit_en(demand.suit)}.",
                )
            return PlayRule.MATCH, Text(
                f"Sur un 2, il faut un 2 ou du {demand.suit.name_in('fr')}.",
                f"On a 2, play a 2 or a {_suit_en(demand.suit)}.",
            )
        if demand.kind == "asked":
            assert demand.suit is not None
            if free or card.suit is demand.suit:
                return None
            # seed 003: « Le joueur suivant est tenu de fournir un pique de hauteur quelconque,
            # ou le cas échéant un joker ou un autre 8 »
            return PlayRule.ASKED_SUIT, Text(
                f"{demand.suit.name_in('fr').capitalize()} demandé : il faut du {demand.suit.name_in('fr')}, "
                "un 8 ou un joker.",
                f"{demand.suit.name_in('en').capitalize()} were asked: play a {_suit_en(demand.suit)}, "
                "an 8 or a joker.",
            )
        if free or card.rank is Rank.TWO or demand.suit is None or card.suit is demand.suit:
            return None
        assert demand.suit is not None
        return PlayRule.AFTER_JOKER, Text(
            f"Sur un joker, il faut un 2, du {demand.suit.name_in('fr')}, un 8 ou un joker.",
            f"On a joker, play a 2, a {_suit_en(demand.suit)}, an 8 or a joker.",
        )

    def accepts(self, card: Card) -> bool:
        """Whether ``card`` may go on the pile (matching only; turn and announce aside).

        >>> on_two = Pile(("A", "B", "C"), (Card.parse("5c"), Card.parse("2h")))
        >>> [on_two.accepts(Card.parse(c)) for c in ["2s", "Kh", "8h", "RJ", "Kc"]]
        [True, True, False, False, False]
        """
        return self.refusal(card) is None

    # -- turns ------------------------------------------------------------------------

    def _step(self, player: str, steps: int, direction: int | None = None) -> str:
        d = self.direction if direction is None else direction
        return self.players[(self.players.index(player) + steps * d) % len(self.players)]

    def check(self, move: PlayMove, hand: Iterable[Card] | None = None) -> Verdict:
        """Judge a move; ``hand`` (the mover's cards, optional) lets a draw be refused.

        A legal draw names its ``next_player`` only when the ``drawn`` card is given:

        >>> table = Pile(("Ann", "Bob", "Cid"), (Card.parse("4c"), Card.parse("7d")), turn="Bob")
        >>> table.check(Draw("Bob")).next_player is None
        True
        >>> [table.check(Draw("Bob", Card.parse(c))).next_player for c in ("9d", "9s")]
        ['Bob', 'Cid']

        Never raises for an illegal move; raises :class:`RulesError` for a malformed
        one (unknown player, a card not in the given hand, more copies than the deck).
        """
        _seat(self.players, move.player, "player")
        held = None if hand is None else tuple(hand)
        self._check_cards(move, held)
        if self.out is not None:
            return _illegal(PlayRule.TURN, _over(self.out))
        if self.turn is not None and move.player != self.turn:
            return _illegal(PlayRule.TURN, Text(f"C’est à {self.turn} de jouer.", f"It is {self.turn}'s turn."))
        if isinstance(move, Draw):
            return self._check_draw(move, held)
        return self._check_card(move, held)

    def _check_cards(self, move: PlayMove, held: tuple[Card, ...] | None) -> None:
        cards = [*self.pile]
        where = [f"pile[{i}]" for i in range(len(self.pile))]
        if held is not None:
            for i, card in enumerate(held):
                if card.trump is not None:
                    raise RulesError(_not_in_game(), f"hand[{i}]")
            cards.extend(held)
            where.extend(f"hand[{i}]" for i in range(len(held)))
        extra = move.card if isinstance(move, PlayCard) else move.drawn
        if extra is not None:
            if extra.trump is not None:
                raise RulesError(_not_in_game(), "card" if isinstance(move, PlayCard) else "drawn")
            if isinstance(move, PlayCard) and held is not None:
                if extra not in held:
                    raise RulesError(
                        Text(
                            f"{move.player} n’a pas {extra.display('fr')} en main.",
                            f"{move.player} does not hold {extra.display('en')}.",
                        ),
                        "card",
                    )
                if len(held) > 1 and move.last:
                    raise RulesError(
                        Text("Ce n’est pas sa dernière carte.", "This is not the player's last card."), "last"
                    )
            else:
                cards.append(extra)
                where.append("card" if isinstance(move, PlayCard) else "drawn")
        try:
            DECK.check(cards)
        except CardError as e:
            index = int((e.field or "[0]").strip("[]"))
            raise RulesError(e.text, where[index]) from None

    def _check_draw(self, move: Draw, held: tuple[Card, ...] | None) -> Verdict:
        if held is not None:
            blocked = len(held) == 1 and not move.announced
            playable = [c for c in held if self.accepts(c)]
            if playable and not blocked:
                # RULES.md §4: « You may not draw when you can play. »
                return _illegal(
                    PlayRule.MUST_PLAY,
                    Text(
                        f"Pas le droit de piocher : {playable[0].display('fr')} peut être joué.",
                        f"You may not draw: {playable[0].display('en')} can be played.",
                    ),
                )
        # A drawn card that can be played is laid at once by the same player.  Unseen, it may
        # fit or not, and even be a 2, a 10 or an 8 that moves the turn on: who plays next is
        # then unknown (None), not a guess.
        following: str | None = None
        if move.drawn is not None:
            following = move.player if self.accepts(move.drawn) else self._step(move.player, 1)
        return Verdict(
            True,
            effects=(Effect.DRAW,),
            next_player=following,
            target=move.player,
            direction=self.direction,
            asked=self.asked,
        )

    def _check_card(self, move: PlayCard, held: tuple[Card, ...] | None) -> Verdict:
        card = move.card
        refused = self.refusal(card)
        if refused is not None:
            return _illegal(*refused)
        last = move.last or (held is not None and len(held) == 1)
        if last and not move.announced:
            # seed 003: « S'il ne l'a pas fait, il lui sera interdit de finir au tour suivant. »
            return _illegal(
                PlayRule.ANNOUNCE,
                Text(
                    "Sans avoir annoncé « carte », on ne peut pas finir à ce tour.",
                    "Without having said 'carte', you may not finish this turn.",
                ),
            )
        if last:
            # RULES.md §4: « An 8 laid as a player's last card ends the hand: no suit is asked
            # (there is no next player to follow it). »  A suit named with it is ignored, as a
            # referee at the table lets it pass.
            effects: tuple[Effect, ...] = (Effect.OUT,)
            target = None
            if card.rank is Rank.TWO:
                # seed 003: « Lorsqu'un joueur termine en posant un 2 sur la table, par convention,
                # le joueur suivant prend une carte supplémentaire. »
                effects += (Effect.FINISH_ON_TWO,)
                target = self._step(move.player, 1)
            return Verdict(True, effects=effects, target=target, direction=self.direction)
        asked = move.asked if card.rank is Rank.EIGHT else self.asked if card.is_joker else None
        player = move.player
        if card.rank is Rank.TWO:
            victim = self._step(player, 1)
            if self.two_players:
                # seed 003: « l'autre prend une carte et ne joue pas. Le premier joueur rejoue donc. »
                return Verdict(
                    True,
                    effects=(Effect.DRAW, Effect.SKIP, Effect.PLAY_AGAIN),
                    next_player=player,
                    target=victim,
                    skipped=(victim,),
                    direction=self.direction,
                    asked=asked,
                )
            if self.options.super:
                # seed 003 (Super crapouille): « On rejoue également lorsqu'on pose un 2 sur la table. »
                return Verdict(
                    True,
                    effects=(Effect.DRAW, Effect.PLAY_AGAIN),
                    next_player=player,
                    target=victim,
                    direction=self.direction,
                    asked=asked,
                )
            # seed 003: « le 2, qui fait prendre obligatoirement la première carte du talon au
            # joueur suivant, qui, de surcroît, passe son tour. »
            return Verdict(
                True,
                effects=(Effect.DRAW, Effect.SKIP),
                next_player=self._step(player, 2),
                target=victim,
                skipped=(victim,),
                direction=self.direction,
                asked=asked,
            )
        if card.rank is Rank.TEN:
            turned = -self.direction
            if self.two_players or self.options.super:
                # seed 003: « lorsqu'on pose un 10 sur la table : on rejoue » (two players);
                # Super: « on rejoue avant de faire repartir le jeu dans l'autre sens ».
                return Verdict(
                    True,
                    effects=(Effect.REVERSE, Effect.PLAY_AGAIN),
                    next_player=player,
                    direction=turned,
                    asked=asked,
                )
            return Verdict(
                True,
                effects=(Effect.REVERSE,),
                next_player=self._step(player, 1, turned),
                direction=turned,
                asked=asked,
            )
        effects = (Effect.CHOOSE_SUIT,) if card.rank is Rank.EIGHT else ()
        return Verdict(True, effects=effects, next_player=self._step(player, 1), direction=self.direction, asked=asked)

    def apply(self, move: PlayMove, hand: Iterable[Card] | None = None) -> Pile:
        """The table after a legal move (the turn passes as the verdict says).

        After a :class:`Draw` without its ``drawn`` card the next player is unknown,
        so the new table's ``turn`` is None (turns are not checked).  After a last card
        the hand is over: the new table names who went ``out``, its 8 on top (if any)
        asks no suit, and it refuses any further move.

        >>> table = Pile(("Ann", "Bob", "Cid"), (Card.parse("4c"), Card.parse("7d")), turn="Bob")
        >>> over = table.apply(PlayCard("Bob", Card.parse("8d"), Suit.SPADES, last=True))
        >>> over.out, over.asked, over.turn
        ('Bob', None, None)
        >>> over.check(PlayCard("Cid", Card.parse("8s"))).rule
        <PlayRule.TURN: 'turn'>

        Raises :class:`RulesError` (field ``move``) for an illegal move, and (field
        ``asked``) for an 8 that does not finish the hand and names no suit.
        """
        verdict = self.check(move, hand)
        if not verdict.legal:
            assert verdict.reason is not None
            raise RulesError(verdict.reason, "move")
        if isinstance(move, Draw):
            return Pile(self.players, self.pile, self.direction, self.asked, verdict.next_player, self.options)
        out = move.player if Effect.OUT in verdict.effects else None
        if move.card.rank is Rank.EIGHT and verdict.asked is None and out is None:
            raise RulesError(Text("Quelle couleur demandez-vous ?", "Which suit do you ask for?"), "asked")
        return Pile(
            self.players,
            (*self.pile, move.card),
            verdict.direction,
            verdict.asked,
            verdict.next_player,
            self.options,
            out,
        )

    def legal_cards(self, hand: Iterable[Card]) -> list[Card]:
        """The cards of ``hand`` that may go on the pile (matching only), in hand order."""
        return [c for c in hand if self.accepts(c)]


def _seat(players: Sequence[str], name: object, where: str) -> int:
    if not isinstance(name, str) or name not in players:
        raise RulesError(Text(f"Joueur inconnu : {name}.", f"Unknown player: {name}."), where)
    return list(players).index(name)


def _illegal(rule: PlayRule, reason: Text) -> Verdict:
    return Verdict(False, rule, reason)


def _over(out: str) -> Text:
    return Text(f"La donne est finie : {out} n’a plus de cartes.", f"The hand is over: {out} is out.")


def _not_in_game() -> Text:
    return Text("Cette carte ne se joue pas à la crapouille.", "This card is not used in la crapouille.")


def _suit_en(suit: Suit) -> str:
    """The English singular of a suit (``spade``), for "play a spade"."""
    return suit.name_in("en").removesuffix("s")


def _rank_fr(rank: Rank) -> str:
    """``un 9``, ``un valet``, ``une dame``, ``un as``."""
    return ("une " if rank is Rank.QUEEN else "un ") + rank.name_in("fr")


def _rank_en(rank: Rank) -> str:
    """``a 9``, ``an 8``, ``an ace``."""
    word = rank.name_in("en")
    return ("an " if word[0] in "8a" else "a ") + word
