"""La crapouille play by play: the house rules (:class:`Options`), the moves
(:class:`PlayCard`, :class:`Draw`) and the engine's answer (:class:`Verdict`, with the
ids of refusals, :class:`PlayRule`, and of effects, :class:`Effect`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.rules.cards import Card, Deck, Suit
from companion.rules.i18n import RulesError, Text

#: Two 52-card decks and four jokers; a joker is a joker whatever its colour.
DECK = Deck.french(decks=2, jokers=4, jokers_any_colour=True)


class PlayRule(StrEnum):
    """Why a move is refused (ids of shared/API.md)."""

    TURN = "turn"
    MATCH = "match"
    ON_TWO = "on_two"
    ASKED_SUIT = "asked_suit"
    AFTER_JOKER = "after_joker"
    ANNOUNCE = "announce"
    MUST_PLAY = "must_play"


class Effect(StrEnum):
    """What a legal move triggers (ids of shared/API.md).

    ``draw``: ``target`` draws one card; ``skip``: the ``skipped`` players lose
    their turn; ``reverse``: the direction of play changes; ``choose_suit``: the
    8's player names the suit; ``play_again``: the same player plays once more;
    ``out``: the player has no cards left and the hand ends; ``finish_on_two``: he
    went out on a 2 and ``target`` draws one more card before counting.
    """

    DRAW = "draw"
    SKIP = "skip"
    REVERSE = "reverse"
    CHOOSE_SUIT = "choose_suit"
    PLAY_AGAIN = "play_again"
    OUT = "out"
    FINISH_ON_TWO = "finish_on_two"


@dataclass(frozen=True)
class Options:
    """The variants of RULES.md §4, by option id.

    ``super``: Super crapouille (10 dealt, 5 discarded; a 10 or a 2 lets its
    player play again).
    """

    super: bool = False

    @classmethod
    def from_options(cls, rules: object) -> Options:
        """From a ``rules`` object (``{"super": true}``); ``None`` is the plain game.

        >>> Options.from_options({"super": True})
        Options(super=True)
        >>> Options.from_options({"jokers": 2})
        Traceback (most recent call last):
        ...
        companion.rules.i18n.RulesError: Option inconnue : jokers.
        """
        if rules is None:
            return cls()
        if not isinstance(rules, dict):
            raise RulesError(Text("« rules » est un objet JSON.", "'rules' is a JSON object."), "rules")
        chosen = False
        for key, value in rules.items():
            if key == "preset":
                raise RulesError(
                    Text("Variante inconnue pour la crapouille.", "Unknown preset for la crapouille."), "rules.preset"
                )
            if key != "super":
                raise RulesError(Text(f"Option inconnue : {key}.", f"Unknown option: {key}."), f"rules.{key}")
            if not isinstance(value, bool):
                raise RulesError(Text("« super » vaut true ou false.", "'super' is true or false."), "rules.super")
            chosen = value
        return cls(super=chosen)

    def to_options(self) -> dict[str, bool]:
        """The ``rules`` object these options come from (what a game stores).

        >>> Options(super=True).to_options()
        {'super': True}
        """
        return {"super": self.super}


@dataclass(frozen=True)
class PlayCard:
    """A player lays ``card``.

    ``asked`` is the suit named with an 8 (an 8 laid as the last card ends the hand
    and asks nothing: a suit named with it is ignored); ``last`` says it is the
    player's last card; ``announced`` is False when, left with one card, he did not
    say "carte".
    """

    player: str
    card: Card
    asked: Suit | None = None
    last: bool = False
    announced: bool = True


@dataclass(frozen=True)
class Draw:
    """A player who cannot play draws one card.

    ``drawn``, when known, is the card he drew (if it can be played he lays it at
    once, as a :class:`PlayCard`).  Without it the verdict's ``next_player`` is
    None: nobody knows yet whether he lays it.  ``announced`` is False when the
    player holds one card he may not finish with, having not said "carte".
    """

    player: str
    drawn: Card | None = None
    announced: bool = True


PlayMove = PlayCard | Draw


@dataclass(frozen=True)
class Verdict:
    """The engine's answer to a move.

    ``target``: who draws (effects ``draw``, ``finish_on_two``); ``skipped``: who
    loses his turn; ``direction`` and ``asked``: the table's direction and asked
    suit once the move is made.
    """

    legal: bool
    rule: PlayRule | None = None
    reason: Text | None = None
    effects: tuple[Effect, ...] = ()
    next_player: str | None = None
    target: str | None = None
    skipped: tuple[str, ...] = ()
    direction: int = 1
    asked: Suit | None = None
