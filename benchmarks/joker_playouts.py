"""Random manches of Président with wild jokers (`joker_wild`), looking for a dead end.

What it does: deals a deck at random and plays N whole manches (default 20,000) with
random legal moves under random `joker_wild` rule sets (1 or 2 jokers, 3 to 6 players,
with or without la passe, more cards, revolution, runs, rapidity…), each from a random
seed.  Half the manches are played by players who keep their jokers for the end, which
is how a player is left holding only jokers.  At every move it asks the engine for the
legal moves of the player to move (``Table.legal_plays``): a *dead end* is a player to
move with no legal move at all — what the property test once found, before RULES.md §1
settled that a player left with only jokers shows them and finishes last.

It prints how many manches it played, how many dead ends it found (there must be 0: the
exit status is 1 otherwise, with the seed of each one to replay it), how many players
were left with only jokers, and the time taken: several minutes for the default 20,000
(about 45 manches a second on a quiet machine).  It is not a timed test.

Run with ``.venv/bin/python benchmarks/joker_playouts.py [N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

from companion.rules.cards import Card
from companion.rules.i18n import RulesError
from companion.rules.president import Play, Rules, Table

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
#: Options drawn at random (each on or off) on top of `joker_wild`.
TOGGLES = ("passe", "passe_breakers", "more_cards", "revolution", "runs", "rapidity", "eight_clears", "joker_no_finish")
MAX_MOVES = 2000


def random_rules(rng: random.Random) -> tuple[Rules, int]:
    """A valid `joker_wild` rule set and player count (invalid combinations are drawn again)."""
    while True:
        options: dict[str, object] = {"joker_wild": True, "jokers": rng.choice((1, 2))}
        options.update({name: rng.random() < 0.3 for name in TOGGLES})
        options["decks"] = 2 if rng.random() < 0.2 else 1
        n = rng.randint(3, 6)
        try:
            rules = Rules.from_options(options)
            rules.check_players(n)
        except RulesError:
            continue
        return rules, n


def manche(seed: int) -> tuple[bool, int]:
    """Play one manche from ``seed``: (whether it hit a dead end, how many players showed only jokers)."""
    rng = random.Random(seed)
    rules, n = random_rules(rng)
    players = NAMES[:n]
    cards = rules.deck(n).cards()
    rng.shuffle(cards)
    each = len(cards) // n
    hands: dict[str, list[Card]] = {p: cards[i * each : (i + 1) * each] for i, p in enumerate(players)}
    keep_jokers = rng.random() < 0.5
    table = Table.start(players, rules, leader=players[0])
    shown = 0
    for _ in range(MAX_MOVES):
        if table.finished:
            return False, shown
        mover = table.to_move
        if mover is None:
            return True, shown
        plays = table.legal_plays(hands[mover])
        if not plays:
            return True, shown
        if keep_jokers:
            plain = [p for p in plays if not any(c.is_joker for c in p.cards)]
            plays = plain or plays
        choice: Play = rng.choice(plays)
        if choice.cards and rules.jokers_shown(choice.cards):
            shown += 1
        table = table.apply(choice)
        for card in choice.cards:
            hands[mover].remove(card)
    return True, shown  # a manche that never ends is a dead end too


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=20_000, help="manches to play (default 20,000)")
    parser.add_argument("--seed", type=int, default=None, help="the first seed (default: random)")
    args = parser.parse_args()
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(2**48)
    dead: list[int] = []
    shown = 0
    start = time.perf_counter()
    for seed in range(first, first + args.n):
        stuck, jokers = manche(seed)
        shown += jokers
        if stuck:
            dead.append(seed)
    elapsed = time.perf_counter() - start
    print(f"{args.n} random joker_wild manches, seeds {first} to {first + args.n - 1}")
    print(f"dead ends found: {len(dead)} (must be 0)")
    print(f"players left holding only jokers, who showed them and finished last: {shown}")
    print(f"time: {elapsed:.1f} s ({args.n / elapsed:.0f} manches/s)")
    for seed in dead[:20]:
        print(f"  dead end: replay with --seed {seed} 1")
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
