"""The check and outcome requests of la crapouille."""

from __future__ import annotations

import dataclasses

from companion.judge.schemas.cards import _S, SUIT_LETTERS, _card, cards
from companion.judge.schemas.common import _boolean, _no_preset, _one_move, _per_player, _request, name, players, whole
from companion.judge.schemas.messages import Schema, explained
from companion.rules import crapouille, crapouille_play
from companion.rules.cards import Suit
from companion.rules.i18n import Text


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
        additionalProperties=_no_preset(Text("la crapouille", "la crapouille")),
    )


# -- la crapouille ---------------------------------------------------------------------------

_SUIT_SCHEMA_TEXT = Text("Une couleur s’écrit c, d, h ou s.", "A suit is written c, d, h or s.")


def _suit(nullable: bool, description: str) -> Schema:
    # A suit named alone: its letter or its plain symbol (the adapter's reading).
    schema: Schema = {
        "type": ["string", "null"] if nullable else "string",
        "pattern": f"^{_S}[{SUIT_LETTERS}{SUIT_LETTERS.upper()}{''.join(suit.symbol for suit in Suit)}]{_S}$",
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


def _crapouille_check() -> Schema:
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
                    "crapouille", at_least_one=True, description="Played cards, oldest first (the starting card first)."
                ),
                "asked": _suit(True, "The suit named with the 8 on top (null or absent: none)."),
                "turn": name("Whose turn it is."),
                "hand": cards("crapouille", description="The player's hand, so that a draw can be refused."),
            },
            "required": ["players", "pile", "turn"],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )
    move: Schema = {
        "type": "object",
        "properties": {
            "player": name(),
            "card": _card("crapouille", "The card laid."),
            "asked": _suit(
                False,
                "With an 8: the suit asked (optional at check time). An 8 laid as the player's last card ends "
                "the hand and asks no suit: a suit given with it is ignored.",
            ),
            "last": _boolean("The player's last card."),
            "announced": _boolean("false when, left with one card, the player did not say 'carte'."),
            "draw": _boolean("The player draws."),
            "drawn": _card(
                "crapouille",
                "With a draw, the card drawn (optional): without it next_player is null, since a drawn card "
                "that fits is laid at once and may be a 2, a 10 or an 8.",
            ),
        },
        "required": ["player"],
    }
    move = _one_move(
        move,
        [{"required": ["card"]}, {"required": ["draw"], "properties": {"draw": {"const": True}}}],
        Text(
            "Un coup est une carte (« card ») ou une pioche (« draw »: true).",
            "A move is a 'card' or a draw ('draw': true).",
        ),
    )
    return _request("crapouille", _crapouille_rules(), {"state": state, "move": move}, ["state", "move"])


def _crapouille_outcome() -> Schema:
    properties = {
        "players": _crapouille_players("Players still in, seat order."),
        "totals": _per_player(
            whole(0, crapouille.ELIMINATION_TOTAL),
            "Totals before the hand (absent: 0).",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
        "winner": name("Who went out."),
        "hands": _per_player(
            cards("crapouille"),
            "Cards left, per player; the winner may be listed with no card.",
            Text("Les cartes de chaque joueur sont attendues.", "Each player's cards are expected."),
        ),
        "points": _per_player(
            whole(0, crapouille.MAX_HAND_POINTS),
            "Points of the cards left, per player; the winner may be listed with 0.",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
    }
    return _request("crapouille", _crapouille_rules(), properties, ["players", "winner"])
