"""Le Président's table: :class:`Table`, the public state of a manche and its referee.

A table is built about to lead (:meth:`Table.start`) or from the API's ``state``
(:meth:`Table.from_state`, written back by :meth:`Table.to_state`); it checks a move
(:meth:`Table.check`), applies it (:meth:`Table.apply`) and lists the legal ones
(:meth:`Table.legal_plays`).  The play of the trick itself is inherited from
:class:`~companion.rules.president.trick._Trick`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from companion.rules.cards import (
    Card,
    Deck,
    parse_cards,  # noqa: F401  (read by the doctests)
)
from companion.rules.i18n import RulesError, Text
from companion.rules.president.combinations import _candidates, _revolution, combination
from companion.rules.president.moves import IllegalPlayError, Play, Verdict, _play_from_json
from companion.rules.president.options import Rules
from companion.rules.president.trick import _changed, _Trick


@dataclass(frozen=True)
class Table(_Trick):
    """The public state of a manche: who plays, who is out, the current trick.

    ``players`` are in turn order (Piketty: the hierarchy, Président first).  ``to_move``
    is who acts next (``None`` only before the first lead when anyone may lead, and
    once the manche is over).  ``over`` says the trick in ``trick`` is finished and
    ``to_move`` leads the next one.  ``top`` is the combination to beat, laid by
    ``last_player``; ``passed`` are the players who passed (or were skipped) since.

    Build one with :meth:`start` or :meth:`from_state`; :meth:`apply` returns a new one.

    >>> t = Table.start(["Ann", "Bob", "Cid"], Rules(), leader="Ann")
    >>> t = t.apply(Play.parse("Ann", "Qh")).apply(Play.passes("Bob"))
    >>> t.to_move, t.check(Play.passes("Cid")).effects
    ('Cid', (<Effect.TRICK_WON: 'trick_won'>,))
    """

    @classmethod
    def start(
        cls,
        players: Sequence[str],
        rules: Rules,
        *,
        out: Sequence[str] = (),
        reversed: bool = False,
        leader: str | None = None,
    ) -> Table:
        """A table about to lead a trick (``leader`` leads; by default whoever plays first).

        Raises :class:`RulesError` for an impossible player list.
        """
        players = tuple(players)
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise RulesError(
                Text("Chaque joueur a un nom, différent des autres.", "Each player needs a distinct name."),
                field="state.players",
            )
        rules.check_players(len(players))
        for i, p in enumerate(out):
            if p not in players or p in out[:i]:
                raise RulesError(Text(f"Joueur inconnu : « {p} ».", f"Unknown player: '{p}'."), field=f"state.out[{i}]")
        if leader is not None and (leader not in players or leader in out):
            raise RulesError(
                Text(f"« {leader} » ne peut pas entamer.", f"'{leader}' cannot lead."), field="state.leader"
            )
        table = cls(rules, players, tuple(out), reversed, to_move=leader, deck=rules.deck(len(players)))
        return _changed(table, finished=len(table.still_in) <= 1, to_move=None if len(table.still_in) <= 1 else leader)

    @classmethod
    def from_state(cls, state: object, rules: Rules) -> Table:
        """The table of the API's ``state`` (shared/API.md), the trick replayed and checked.

        Malformed or impossible states raise :class:`RulesError` naming the field
        (``state.trick[2].cards``…).  A player listed in ``out`` who lays cards in the
        trick went out with his last cards there.

        >>> state = {"players": ["Ann", "Bob", "Cid", "Dan"], "out": [], "reversed": False,
        ...          "trick": [{"player": "Ann", "cards": ["7h", "7s"]}, {"player": "Bob", "pass": True}]}
        >>> Table.from_state(state, Rules()).to_move
        'Cid'
        >>> Table.from_state(dict(state, trick=[{"player": "Ann", "cards": "7h 7h"}]), Rules())
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Il n’y a qu’un 7♥ dans le jeu.
        """
        if not isinstance(state, Mapping):
            raise RulesError(Text("L’état de la table est un objet.", "The state must be an object."), field="state")
        players = state.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RulesError(
                Text("La liste des joueurs est attendue.", "The list of players is expected."), field="state.players"
            )
        out = state.get("out", [])
        if not isinstance(out, list):
            raise RulesError(Text("Une liste de joueurs est attendue.", "A list of players is expected."), "state.out")
        for i, p in enumerate(out):
            if not isinstance(p, str) or p not in players or p in out[:i]:
                raise RulesError(Text(f"Joueur inconnu : « {p} ».", f"Unknown player: '{p}'."), f"state.out[{i}]")
        reversed_ = state.get("reversed", False)
        if not isinstance(reversed_, bool):
            raise RulesError(
                Text("Oui ou non (true / false) est attendu.", "true or false is expected."), "state.reversed"
            )
        leader = state.get("leader")
        if leader is not None and (not isinstance(leader, str) or leader not in players):
            raise RulesError(Text(f"Joueur inconnu : « {leader} ».", f"Unknown player: '{leader}'."), "state.leader")
        entries = state.get("trick", [])
        if not isinstance(entries, list):
            raise RulesError(Text("Le pli est une liste.", "The trick must be a list."), field="state.trick")
        plays = [_play_from_json(e, players, f"state.trick[{i}]") for i, e in enumerate(entries)]
        # Players of `out` who lay cards in this trick went out with their last play in it.
        last_play = {p.player: i for i, p in enumerate(plays) if p.cards}
        out_before = [p for p in out if p not in last_play]
        table = _started(tuple(players), rules, tuple(out_before), reversed_, leader)
        seen: Counter[object] = Counter()
        for i, play in enumerate(plays):
            for k, card in enumerate(_real_cards(play)):
                key = _count_key(card, table.deck)
                seen[key] += 1
                if seen[key] > table.deck.limit(card):
                    where = "laid" if play.laid is not None else "cards"
                    raise RulesError(table.deck.too_many(card), field=f"state.trick[{i}].{where}[{k}]")
            if play.player in out and last_play.get(play.player) == i:
                play = replace(play, last=True)
            if play.last and play.player not in out:
                raise RulesError(
                    Text(
                        f"{play.player} a posé ses dernières cartes mais ne figure pas dans « out ».",
                        f"{play.player} went out but is not in 'out'.",
                    ),
                    field=f"state.trick[{i}].last",
                )
            problem = table._problem(play)
            if problem is not None:
                raise RulesError(
                    Text(f"Ce pli est impossible : {problem[1].fr}", f"This trick is impossible: {problem[1].en}"),
                    field=f"state.trick[{i}]",
                )
            table = table._advance(play)[0]
        return _changed(table, out=tuple(out))

    def to_state(self) -> dict[str, Any]:
        """The API's ``state`` of this table (shared/API.md): :meth:`from_state` reads it back.

        ``trick`` is the current trick (the one just over, while nobody has led the next);
        ``reversed`` is the order as it stood when that trick began, since replaying its
        plays lays its revolutions again; ``leader`` is given when the trick is empty and
        someone must lead; a player of ``out`` who went out in this trick has ``last`` on
        that play.

        >>> t = Table.start(["Ann", "Bob", "Cid"], Rules(revolution=True), leader="Bob")
        >>> t.to_state()
        {'players': ['Ann', 'Bob', 'Cid'], 'out': [], 'reversed': False, 'trick': [], 'leader': 'Bob'}
        >>> t = t.apply(Play.parse("Bob", "9h 9s 9c 9d"))
        >>> t.reversed, t.to_state()["reversed"], t.to_state()["trick"]
        (True, False, [{'player': 'Bob', 'cards': ['9h', '9s', '9c', '9d']}])
        >>> Table.from_state(t.to_state(), t.rules) == t
        True
        """
        flips = 0
        if self.rules.revolution and not self.rules.revolution_swaps_titles:
            for play in self.trick:
                combo = combination(play.cards, self.rules) if play.cards and not play.call else None
                if combo is not None and _revolution(combo, self.rules):
                    flips += 1
        went_out = {p.player: i for i, p in enumerate(self.trick) if p.cards and p.player in self.out}
        trick: list[dict[str, Any]] = []
        for i, play in enumerate(self.trick):
            entry: dict[str, Any] = {"player": play.player}
            if play.call:
                entry["call"] = True
            elif play.is_pass:
                entry["pass"] = True
            else:
                entry["cards"] = [str(c) for c in play.cards]
                if play.laid is not None:
                    entry["laid"] = [str(c) for c in play.laid]
                if went_out.get(play.player) == i:
                    entry["last"] = True
            trick.append(entry)
        state: dict[str, Any] = {
            "players": list(self.players),
            "out": list(self.out),
            "reversed": self.reversed != (flips % 2 == 1),
            "trick": trick,
        }
        if not self.trick and self.to_move is not None and not self.finished:
            state["leader"] = self.to_move
        return state

    # --- judging

    def check(self, play: Play) -> Verdict:
        """Judge ``play`` here; never raises for an illegal move (malformed input raises RulesError).

        >>> t = Table.start(["Ann", "Bob", "Cid"], Rules(), leader="Ann").apply(Play.parse("Ann", "2h"))
        >>> v = t.check(Play.parse("Bob", "3s"))
        >>> v.rule, v.reason.en
        (<RuleId.TURN: 'turn'>, 'The trick is over: Ann leads.')
        """
        self._validate(play)
        problem = self._problem(play)
        if problem is not None:
            return Verdict(False, problem[0], problem[1])
        table, effects, skipped, pile_to = self._advance(play)
        return Verdict(True, None, None, tuple(effects), table.to_move, skipped, pile_to)

    def is_legal(self, play: Play) -> bool:
        """Whether :meth:`check` accepts ``play``."""
        return self.check(play).legal

    def apply(self, play: Play) -> Table:
        """The table once ``play`` is made; :class:`IllegalPlayError` if it is not legal."""
        self._validate(play)
        problem = self._problem(play)
        if problem is not None:
            raise IllegalPlayError(problem[1], field="move")
        return self._advance(play)[0]

    def legal_plays(self, hand: Iterable[Card], player: str | None = None) -> list[Play]:
        """Every legal move of ``player`` (default: the one to move) holding ``hand``.

        Plays are distinct card multisets (a pair of 9s counts once per choice of suits),
        except runs, listed once per run of ranks (with the first cards of each rank in ``hand``);
        a pass comes first when it is legal.  For another player than the one to move,
        only the ``rapidity`` plays (and calls are never listed).

        >>> t = Table.start(["Ann", "Bob", "Cid"], Rules()).apply(Play.parse("Ann", "Kh"))
        >>> [str(p) for p in t.legal_plays(parse_cards("9s As 2c 2d"))]
        ['Bob: pass', 'Bob: As', 'Bob: 2c', 'Bob: 2d']
        """
        hand = list(hand)
        who = player if player is not None else self.to_move
        if who is None:
            raise ValueError("legal_plays needs a player when anyone may lead")
        plays = [Play.passes(who)] if self._problem(Play.passes(who)) is None else []
        for cards in _candidates(hand, self.rules):
            play = Play(who, cards, last=len(cards) == len(hand))
            if self._problem(play) is None:
                plays.append(play)
        return plays

    def _validate(self, play: Play) -> None:
        """Malformed moves: unknown player, or more copies of a card than the deck holds."""
        if play.player not in self.players:
            raise RulesError(
                Text(f"Joueur inconnu : « {play.player} ».", f"Unknown player: '{play.player}'."), field="move.player"
            )
        # Cards of a finished trick are still on the table (or in the discard): they
        # count, unless a "menteur" call sent the pile back into someone's hand.
        taken = bool(self.trick) and self.trick[-1].call
        on_table = [] if taken else [c for p in self.trick for c in _real_cards(p)]
        seen = Counter(_count_key(c, self.deck) for c in on_table)
        for i, card in enumerate(_real_cards(play)):
            key = _count_key(card, self.deck)
            seen[key] += 1
            if seen[key] > self.deck.limit(card):
                raise RulesError(self.deck.too_many(card), field=f"move.{'laid' if play.laid else 'cards'}[{i}]")


@lru_cache(maxsize=256)
def _started(
    players: tuple[str, ...], rules: Rules, out: tuple[str, ...], reversed_: bool, leader: str | None
) -> Table:
    """:meth:`Table.start` (cached: a table is immutable, and a table of friends plays
    with the same players and rules all evening; an impossible one raises every time)."""
    return Table.start(players, rules, out=out, reversed=reversed_, leader=leader)


def _real_cards(play: Play) -> tuple[Card, ...]:
    """The cards physically laid (``liar``: the face-down ones when known)."""
    return play.laid if play.laid is not None else play.cards


def _count_key(card: Card, deck: Deck) -> object:
    return "joker" if card.is_joker and deck.jokers_any_colour else card
