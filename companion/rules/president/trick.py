"""Le Président's trick: what may go on it, and what a move does to it.

:class:`_Trick` holds the public state of a manche (the fields of
:class:`~companion.rules.president.table.Table`, which inherits them) and the play of
its trick: reading the state (who is still in, who is next, the combination to beat),
judging a move (``_problem``: the rule that forbids it) and making it (``_advance``:
the table after it, and its effects).  :class:`~companion.rules.president.table.Table`
adds the public face: building a table, checking and applying moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Self, TypedDict, TypeVar, Unpack

from companion.rules.cards import Card, Deck, Rank, Suit
from companion.rules.i18n import Text
from companion.rules.president.combinations import (
    Combination,
    Kind,
    _a,
    _cards,
    _plural,
    _revolution,
    _the,
    combination,
)
from companion.rules.president.moves import Effect, Play, RuleId
from companion.rules.president.options import Rules


@dataclass(frozen=True)
class _Trick:
    """The state of a manche and the play of its trick (see :class:`~companion.rules.president.table.Table`)."""

    rules: Rules
    players: tuple[str, ...]
    out: tuple[str, ...] = ()
    reversed: bool = False
    trick: tuple[Play, ...] = ()
    to_move: str | None = None
    over: bool = False
    finished: bool = False
    last_player: str | None = None
    top: tuple[Card, ...] = ()
    lock: bool = False
    passed: frozenset[str] = frozenset()
    deck: Deck = field(default_factory=Deck.french, compare=False, repr=False)

    # --- reading the state

    @property
    def still_in(self) -> tuple[str, ...]:
        """The players still holding cards, in turn order."""
        out = self.out
        return tuple(p for p in self.players if p not in out) if out else self.players

    @property
    def leading(self) -> bool:
        """Whether the next card play leads a new trick."""
        return self.over or not self.top

    def top_combination(self) -> Combination | None:
        """The combination to beat, in the order now in force (``None`` when leading)."""
        if self.leading:
            return None
        return combination(self.top, self.rules, self.reversed)

    def power_rank(self) -> Rank | None:
        """The rank that ends a trick at once: 2 (3 after a revolution; 7/8 in the 32-card game).

        None for ``angevin`` (an A is merely unbeatable) and ``tarot`` (trumps are higher).
        """
        if self.rules.preset in ("angevin", "tarot"):
            return None
        return _power_rank(self.rules, len(self.players), self.reversed)

    def copies(self, rank: Rank) -> int:
        """How many cards of ``rank`` the deck holds."""
        return _rank_copies(self.rules, len(self.players)).get(rank, 0)

    def _next_in(self, player: str, out: Sequence[str] | None = None) -> str | None:
        """The next player after ``player`` (clockwise) still holding cards."""
        out = self.out if out is None else out
        i = self.players.index(player)
        n = len(self.players)
        for k in range(1, n + 1):
            q = self.players[(i + k) % n]
            if q not in out:
                return q
        return None

    def _successor(self, winner: str, out: Sequence[str]) -> str | None:
        """Who leads when the trick's winner is out: the next player still in, or in
        Piketty the highest-titled player still in."""
        if winner not in out:
            return winner
        if self.rules.game == "piketty":
            return next((p for p in self.players if p not in out), None)
        return self._next_in(winner, out)

    def _problem(self, play: Play) -> tuple[RuleId, Text] | None:
        """The rule that forbids ``play`` with its reason, or ``None``; ``turn`` comes first."""
        if self.finished:
            return RuleId.TURN, Text("La manche est finie.", "The manche is over.")
        if play.player in self.out:
            return RuleId.TURN, Text(f"{play.player} n’a plus de cartes.", f"{play.player} has no cards left.")
        if play.call:
            return self._call_problem(play)
        if self._is_rapidity(play):
            return None
        if self.to_move is not None and play.player != self.to_move:
            if self.over:
                return RuleId.TURN, Text(
                    f"Le pli est fini : c’est à {self.to_move} d’entamer.", f"The trick is over: {self.to_move} leads."
                )
            return RuleId.TURN, Text(f"C’est à {self.to_move} de jouer.", f"It is {self.to_move}'s turn.")
        if self._shows_jokers(play):
            if play.last:
                return None  # RULES.md §1: left with only jokers, he shows them and is out
            return RuleId.COMBINATION, Text(
                "Un joker ne se joue pas seul : il complète une paire, un brelan, un carré ou un poker.",
                "A joker is not played alone: it completes a pair, three, four or five of a kind.",
            )
        if play.is_pass:
            if self.leading:
                return RuleId.LEAD, Text("Il faut entamer : on ne peut pas passer.", "You lead: you cannot pass.")
            return None
        combo = combination(play.cards, self.rules, self.reversed)
        if combo is None:
            return RuleId.COMBINATION, Text(
                "Ces cartes ne forment pas une combinaison jouable.", "These cards are not a playable combination."
            )
        top = self.top_combination()
        if top is None:
            return None
        return self._follow_problem(combo, top)

    def _follow_problem(self, combo: Combination, top: Combination) -> tuple[RuleId, Text] | None:
        """Why ``combo`` may not go on ``top`` (the trick goes on), or ``None``."""
        rules = self.rules
        if combo.kind in (Kind.COUP_DETAT, Kind.GUILLOTINE):
            return None  # seed 000: « Le coup d'État peut être posé n'importe quand »
        if top.kind is Kind.JOKER:
            if combo.kind is Kind.JOKER and combo.key > top.key:
                return None
            return RuleId.CLOSED, Text(
                "Seul le joker rouge se joue sur le joker noir.", "Only the red joker goes on the black joker."
            )
        if self.lock and combo.kind is Kind.JOKER and not rules.passe_breakers:
            return self._locked(top)
        if combo.kind in (Kind.EXCUSE, Kind.JOKER):
            return None
        power = self.power_rank()
        if top.kind is Kind.SET and top.rank is not None and top.rank is power:
            return RuleId.CLOSED, Text(
                f"Sur des {_plural(power, 'fr')}, seul un joker peut se jouer.",
                f"Only a joker goes on {_plural(power, 'en')}.",
            )
        if self.lock:
            if combo.kind is Kind.SET and combo.rank is top.rank and combo.count == top.count:
                return None
            breaker = combo.kind is Kind.SET and combo.rank is power and combo.count == top.count
            if rules.passe_breakers and breaker:
                return None
            return self._locked(top)
        grow = rules.more_cards or rules.preset == "wizz"
        same_shape = combo.kind is top.kind and (combo.width, combo.length) == (top.width, top.length)
        if not same_shape or (combo.kind is Kind.SET and (combo.rank is None) != (top.rank is None)):
            if combo.count != top.count and not (grow and combo.kind is Kind.SET is top.kind):
                return RuleId.COUNT, Text(f"Il faut jouer {_cards(top.count).fr}.", f"Play {_cards(top.count).en}.")
            if combo.kind is not Kind.SET or top.kind is not Kind.SET:
                return RuleId.COMBINATION, Text(
                    "Il faut jouer le même genre de combinaison.", "Play the same kind of combination."
                )
        if combo.kind is Kind.SET:
            if grow and combo.count < top.count:
                return RuleId.COUNT, Text(
                    f"Il faut jouer au moins {_cards(top.count).fr}.", f"Play at least {_cards(top.count).en}."
                )
            if not grow and combo.count != top.count:
                return RuleId.COUNT, Text(f"Il faut jouer {_cards(top.count).fr}.", f"Play {_cards(top.count).en}.")
        angevin = rules.preset == "angevin"
        if combo.key == top.key and combo.kind is Kind.SET and combo.rank is not None:
            if angevin and top.rank is Rank.ACE:
                return RuleId.ACE, Text("On ne peut pas mettre un as sur un as.", "No ace may go on an ace.")
            if rules.preset == "wizz" or ((rules.passe or rules.tabula_rasa or angevin) and combo.count == top.count):
                return None
        if angevin and top.kind is Kind.SET and top.rank is Rank.SEVEN:
            return None  # la chasse d'eau: anything of the count goes on 7s
        if combo.key > top.key:
            return None
        if self.reversed:
            return RuleId.RANK, Text(
                f"Révolution : il faut jouer plus bas que {_the(top).fr}.",
                f"Revolution: you must play lower than {_the(top).en}.",
            )
        return RuleId.RANK, Text(
            f"Il faut jouer plus haut que {_the(top).fr}.", f"You must play higher than {_the(top).en}."
        )

    @staticmethod
    def _locked(top: Combination) -> tuple[RuleId, Text]:
        """``passe``: the trick is locked on ``top``."""
        return RuleId.LOCKED, Text(
            f"Règle de la passe : il faut jouer {_a(top).fr} ou passer.",
            f"Passe rule: play {_a(top).en} or pass.",
        )

    def _shows_jokers(self, play: Play) -> bool:
        """``joker_wild``: ``play`` is nothing but jokers, shown face up (:meth:`Rules.jokers_shown`)."""
        if not self.rules.jokers_shown(play.cards):
            return False
        return play.laid is None or Counter(play.laid) == Counter(play.cards)

    def _is_rapidity(self, play: Play) -> bool:
        """``rapidity``: out of turn, the copies left of the rank just laid, before anyone covers it."""
        if not self.rules.rapidity or self.leading or not play.cards or play.player == self.last_player:
            return False
        top = self.top_combination()
        if top is None or top.kind is not Kind.SET or top.rank is None:
            return False
        if any(c.rank is not top.rank for c in play.cards):
            return False
        laid = sum(1 for p in self.trick for c in p.cards if c.rank is top.rank)
        return laid + len(play.cards) == self.copies(top.rank)

    def _call_problem(self, play: Play) -> tuple[RuleId, Text] | None:
        if not self.rules.liar:
            return RuleId.CALL, Text("On ne joue pas au Président-Menteur.", "This is not Président-Menteur.")
        if not self.top or self.last_player is None:
            return RuleId.CALL, Text("Il n’y a rien à contester.", "There is nothing to call.")
        if play.player == self.last_player:
            return RuleId.CALL, Text("On ne se traite pas soi-même de menteur.", "You cannot call yourself a liar.")
        return None

    # --- moving on

    def _advance(self, play: Play) -> tuple[Self, list[Effect], tuple[str, ...], str | None]:
        """The table after a legal ``play``, its effects, the players skipped, the pile's taker."""
        if play.call:
            return self._advance_call(play)
        if play.cards and self._shows_jokers(play):
            return self._after_jokers(play)
        table = self
        if table.leading and not play.is_pass:
            table = _changed(table, trick=(), over=False, top=(), last_player=None, lock=False, passed=frozenset())
        trick = (*table.trick, play)
        if play.is_pass:
            table = table._after_pass(play, trick)
            return table, [Effect.TRICK_WON] if table.over else [], (), None
        return table._after_cards(play, trick)

    def _after_pass(self, play: Play, trick: tuple[Play, ...]) -> Self:
        passed = self.passed | {play.player}
        last = self.last_player
        assert last is not None
        if self.rules.preset == "wizz":
            # The trick ends when the turn comes back to its last player.
            i, n = self.players.index(play.player), len(self.players)
            for k in range(1, n + 1):
                q = self.players[(i + k) % n]
                if q == last:
                    return self._won(trick, passed)
                if q not in self.out:
                    return _changed(self, trick=trick, passed=passed, to_move=q)
        if all(q in passed for q in self.still_in if q != last):
            return self._won(trick, passed)
        return _changed(self, trick=trick, passed=passed, to_move=self._next_in(play.player))

    def _after_jokers(self, play: Play) -> tuple[Self, list[Effect], tuple[str, ...], str | None]:
        """``joker_wild``: a player left holding only jokers shows them (RULES.md §1).

        He is out at once and ranked last, as with a forbidden finish (``out``,
        ``finish_last``).  His jokers do not go on the trick: its top and its last
        player stay as they were, and the turn moves on as after the pass of a player
        who leaves.  When he was to lead, the next player still in leads; when he was
        following, the trick goes on, and ends as usual when every other player still
        in has passed since its last play.
        """
        player = play.player
        out = (*self.out, player)
        effects = [Effect.OUT, Effect.FINISH_LAST]
        table = _changed(self, trick=(*self.trick, play), out=out)
        if len(table.still_in) <= 1:
            return _changed(table, over=True, finished=True, to_move=None), effects, (), None
        if self.leading:
            return _changed(table, to_move=self._next_in(player, out)), effects, (), None
        last = self.last_player
        assert last is not None
        if all(q in self.passed for q in table.still_in if q != last):
            effects.append(Effect.TRICK_WON)
            return _changed(table, over=True, to_move=self._successor(last, out)), effects, (), None
        return _changed(table, to_move=self._next_in(player, out)), effects, (), None

    def _won(self, trick: tuple[Play, ...], passed: frozenset[str]) -> Self:
        assert self.last_player is not None
        leader = self._successor(self.last_player, self.out)
        return _changed(self, trick=trick, passed=passed, over=True, to_move=leader)

    def _after_cards(
        self, play: Play, trick: tuple[Play, ...]
    ) -> tuple[Self, list[Effect], tuple[str, ...], str | None]:
        rules, player = self.rules, play.player
        combo = combination(play.cards, rules, self.reversed)
        assert combo is not None
        previous = self.top_combination()
        effects: list[Effect] = []
        out = self.out
        if play.last:
            out = (*out, player)
            effects.append(Effect.OUT)
            if rules.forbidden_finish(play.cards):
                effects.append(Effect.FINISH_LAST)
        table = _changed(self, trick=trick, out=out, top=play.cards, last_player=player, passed=frozenset())
        if combo.kind in (Kind.COUP_DETAT, Kind.GUILLOTINE):
            effects.insert(0, Effect(combo.kind.value))
            return _changed(table, over=True, finished=True, to_move=None), effects, (), None
        power = self.power_rank()
        ends = combo.kind is Kind.EXCUSE or (combo.kind is Kind.JOKER and (combo.key[0] == 2 or rules.jokers == 1))
        if combo.kind is Kind.SET and combo.rank is not None:
            cut_by_jokers = rules.jokers > 0 and not rules.joker_wild and not rules.twos_cut
            ends = ends or (combo.rank is power and not cut_by_jokers)
            ends = ends or (rules.eight_clears and combo.rank is Rank.EIGHT)
            if rules.tabula_rasa:
                laid = sum(1 for p in trick for c in p.cards if c.rank is combo.rank)
                at_once = sum(1 for c in play.cards if c.rank is combo.rank)
                ends = ends or (laid == self.copies(combo.rank) and at_once < laid)
        if rules.revolution and _revolution(combo, rules):
            if rules.revolution_swaps_titles:
                # RULES.md: *instead of* the cards, the hierarchy is reversed. The cards keep
                # their order; the titles swap at once, which ends the manche (as a coup
                # d'État does): what was left to play could no longer change them.
                effects.insert(0, Effect.REVOLUTION)
                return _changed(table, over=True, finished=True, to_move=None), effects, (), None
            table = _changed(table, reversed=not self.reversed)
            effects.append(Effect.REVOLUTION if table.reversed else Effect.COUNTER_REVOLUTION)
        same = (
            previous is not None
            and previous.kind is Kind.SET is combo.kind
            and previous.rank is not None
            and previous.rank is combo.rank
        )
        skips = 0
        locked = False
        if same and previous is not None:
            if rules.passe and combo.count == previous.count:
                locked = True
                effects.append(Effect.LOCK)
            if rules.preset == "angevin" and combo.count == previous.count:
                skips = 1
            if rules.preset == "wizz":
                skips = 1 + combo.count - previous.count
        table = _changed(table, lock=locked)
        if len(table.still_in) <= 1:
            return _changed(table, over=True, finished=True, to_move=None), effects, (), None
        if ends:
            effects.append(Effect.TRICK_WON)
            return _changed(table, over=True, to_move=self._successor(player, out)), effects, (), None
        skipped: list[str] = []
        nxt = table._next_in(player)
        # A player never skips himself, and each other player at most once (when the
        # player of the wizz just went out, the turn would otherwise keep coming round).
        while skips and nxt is not None and nxt != player and nxt not in skipped:
            skipped.append(nxt)
            skips -= 1
            nxt = table._next_in(nxt)
        if skipped:
            effects.append(Effect.SKIP)
        others = [q for q in table.still_in if q != player]
        if nxt == player or nxt is None or all(q in skipped for q in others):
            # Everyone else lost his turn: the turn comes back to the player who laid.
            effects.append(Effect.TRICK_WON)
            table = _changed(table, over=True, to_move=self._successor(player, out))
            return table, effects, tuple(skipped), None
        passed = frozenset(skipped) if rules.preset == "angevin" else frozenset()
        return _changed(table, to_move=nxt, passed=passed), effects, tuple(skipped), None

    def _advance_call(self, play: Play) -> tuple[Self, list[Effect], tuple[str, ...], str | None]:
        """``liar``: the last announced cards are turned over; whoever was wrong takes the pile."""
        liar = self.last_player
        assert liar is not None
        announced = next(p for p in reversed(self.trick) if p.cards and not self._shows_jokers(p))
        laid = announced.laid if announced.laid is not None else announced.cards
        lied = Counter(laid) != Counter(announced.cards)
        right, wrong = (play.player, liar) if lied else (liar, play.player)
        out = tuple(p for p in self.out if p != wrong)  # taking the pile brings a player back
        table = _changed(self, trick=(*self.trick, play), out=out, over=True)
        table = _changed(table, to_move=table._successor(right, out))
        return table, [Effect.TRICK_WON], (), wrong


_T = TypeVar("_T", bound=_Trick)


class _TableChanges(TypedDict, total=False):
    out: tuple[str, ...]
    reversed: bool
    trick: tuple[Play, ...]
    to_move: str | None
    over: bool
    finished: bool
    last_player: str | None
    top: tuple[Card, ...]
    lock: bool
    passed: frozenset[str]


def _changed(table: _T, **changes: Unpack[_TableChanges]) -> _T:
    """``dataclasses.replace(table, **changes)`` without its generic cost: a table is
    copied several times per judged move (Table has no ``__post_init__`` to run)."""
    new = object.__new__(type(table))
    new.__dict__.update(table.__dict__)
    new.__dict__.update(changes)
    return new


@lru_cache(maxsize=256)
def _rank_copies(rules: Rules, n_players: int) -> dict[Rank, int]:
    """How many cards of each rank the deck of ``n_players`` holds (cached: decks are fixed)."""
    deck = rules.deck(n_players)
    return {r: n for r in Rank if (n := sum(deck.limit(Card(rank=r, suit=s)) for s in Suit))}


@lru_cache(maxsize=256)
def _power_rank(rules: Rules, n_players: int, reversed_: bool) -> Rank:
    """:meth:`Table.power_rank` of a deck that has it (cached: fixed by the rules and player count)."""
    copies = _rank_copies(rules, n_players)
    order = [r for r in rules.rank_order() if copies.get(r)]
    return order[0] if reversed_ else order[-1]
