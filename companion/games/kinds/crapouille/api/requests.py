"""The check and outcome requests of la crapouille."""

from __future__ import annotations

import dataclasses

from companion.judge.schemas.cards import ANY_SPACES, FRENCH, JOKER, SUIT_LETTERS, Notation, cards, one_card
from companion.judge.schemas.common import boolean, name, no_preset, one_move, per_player, players, request, whole
from companion.judge.schemas.messages import Schema, explained
from companion.rules import crapouille, crapouille_play
from companion.rules.cards import Suit
from companion.rules.i18n import Text

#: How la crapouille writes its cards: the French deck and its jokers.
NOTATION = Notation(
    f"{FRENCH}|{JOKER}",
    crapouille.DECK.size,
    not_in_deck=Text("Cette carte ne se joue pas à la crapouille.", "This card is not used in la crapouille."),
)


def _crapouille_rules() -> Schema:
    options = [f.name for f in dataclasses.fields(crapouille_play.Options)]
    return explained(
        {
            "type": "object",
            "description": "House rules: super (Super crapouille).",
            "properties": {option: {"type": "boolean"} for option in options},
            "additionalProperties": False,
        },
        Text("« rules » est un objet JSON.", "'rules' is a JSON object."),
        additionalProperties=no_preset(Text("la crapouille", "la crapouille")),
    )


# -- la crapouille ---------------------------------------------------------------------------

_SUIT_SCHEMA_TEXT = Text("Une couleur s’écrit c, d, h ou s.", "A suit is written c, d, h or s.")


def _suit(nullable: bool, description: str) -> Schema:
    # A suit named alone: its letter or its plain symbol (the adapter's reading).
    symbols = "".join(suit.symbol for suit in Suit)
    schema: Schema = {
        "type": ["string", "null"] if nullable else "string",
        "pattern": f"^{ANY_SPACES}[{SUIT_LETTERS}{SUIT_LETTERS.upper()}{symbols}]{ANY_SPACES}$",
        "description": description,
    }
    return explained(schema, _SUIT_SCHEMA_TEXT)


def _crapouille_players(description: str) -> Schema:
    return players(
        crapouille.MIN_PLAYERS,
        None,
        Text(
            f"Il faut au moins {crapouille.MIN_PLAYERS} joueurs.",
            f"At least {crapouille.MIN_PLAYERS} players are needed.",
        ),
        description,
    )


def crapouille_check() -> Schema:
    """The check request."""
    state = explained(
        {
            "type": "object",
            "properties": {
                "players": _crapouille_players("Seat order, clockwise."),
                "direction": explained(
                    {"type": "integer", "enum": [1, -1], "description": "1 clockwise, -1 after an odd number of 10s."},
                    Text("Le sens vaut 1 ou −1.", "The direction is 1 or −1."),
                ),
                "pile": cards(
                    NOTATION, at_least_one=True, description="Played cards, oldest first (the starting card first)."
                ),
                "asked": _suit(True, "The suit named with the 8 on top (null or absent: none)."),
                "turn": name("Whose turn it is."),
                "hand": cards(NOTATION, description="The player's hand, so that a draw can be refused."),
            },
            "required": ["players", "pile", "turn"],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )
    move: Schema = {
        "type": "object",
        "properties": {
            "player": name(),
            "card": one_card(NOTATION, "The card laid."),
            "asked": _suit(
                False,
                "With an 8: the suit asked (optional at check time). An 8 laid as the player's last card ends "
                "the hand and asks no suit: a suit given with it is ignored.",
            ),
            "last": boolean("The player's last card."),
            "announced": boolean("false when, left with one card, the player did not say 'carte'."),
            "draw": boolean("The player draws."),
            "drawn": one_card(
                NOTATION,
                "With a draw, the card drawn (optional): without it next_player is null, since a drawn card "
                "that fits is laid at once and may be a 2, a 10 or an 8.",
            ),
        },
        "required": ["player"],
    }
    move = one_move(
        move,
        [{"required": ["card"]}, {"required": ["draw"], "properties": {"draw": {"const": True}}}],
        Text(
            "Un coup est une carte (« card ») ou une pioche (« draw »: true).",
            "A move is a 'card' or a draw ('draw': true).",
        ),
    )
    relations = [
        "state.turn and move.player are players of state.players",
        "no card is counted more often than the deck holds across state.pile, state.hand, move.card and move.drawn",
        "with state.hand given, move.card is one of its cards, and move.last is true only for its last card",
    ]
    return request(
        "crapouille", _crapouille_rules(), {"state": state, "move": move}, ["state", "move"], relations=relations
    )


def crapouille_outcome() -> Schema:
    """The outcome request."""
    properties = {
        "players": _crapouille_players("Players still in, seat order."),
        "totals": per_player(
            whole(0, crapouille.ELIMINATION_TOTAL),
            "Totals before the hand (absent: 0).",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
        "winner": name("Who went out."),
        "hands": per_player(
            cards(NOTATION),
            "Cards left, per player; the winner may be listed with no card.",
            Text("Les cartes de chaque joueur sont attendues.", "Each player's cards are expected."),
        ),
        "points": per_player(
            whole(0, crapouille.MAX_HAND_POINTS),
            "Points of the cards left, per player; the winner may be listed with 0.",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
    }
    relations = [
        "winner and the keys of totals, hands and points are players of players",
        "the winner is given no card and 0 points",
        "every other player is given in hands or in points, not both",
        "no card is counted more often than the deck holds across all the hands",
    ]
    return request("crapouille", _crapouille_rules(), properties, ["players", "winner"], relations=relations)
