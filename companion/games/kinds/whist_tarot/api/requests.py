"""The check and outcome requests of whist with a tarot deck."""

from __future__ import annotations

from collections.abc import Mapping

from companion.judge.schemas.cards import ANY_SPACES, EXCUSE, TRUMP, Notation, cards, one_card
from companion.judge.schemas.common import (
    ABSENT,
    OFF,
    boolean,
    chain,
    name,
    no_preset,
    one_move,
    per_player,
    players,
    refusal,
    request,
    whole,
)
from companion.judge.schemas.messages import Schema, explained
from companion.rules import whist_tarot
from companion.rules.cards import Card
from companion.rules.i18n import Text

#: How whist writes its cards: the trumps and the Excuse of a tarot deck.
NOTATION = Notation(
    f"{TRUMP}|{EXCUSE}",
    whist_tarot.DECK.size,
    written=Text("Une carte s’écrit comme « T14 » ou « EX ».", "A card is written like 'T14' or 'EX'."),
    not_in_deck=Text(
        "Au whist au tarot, on joue les atouts (T1 à T21) et l’Excuse (EX).",
        "Whist with a tarot deck is played with the trumps (T1 to T21) and the Excuse (EX).",
    ),
)


def _whist_rules() -> Schema:
    return explained(
        {
            "type": "object",
            "description": "Whist with a tarot deck has no option: only an empty object is accepted.",
            "properties": {},
            "additionalProperties": False,
        },
        Text("« rules » est un objet JSON.", "'rules' is a JSON object."),
        additionalProperties=no_preset(Text("le whist au tarot", "whist with a tarot deck")),
    )


# -- whist with a tarot deck ---------------------------------------------------------------

_WHIST_TABLE = ["Ann", "Bob", "Cid"]


def _settle_refusal(
    field: str, cards: int = 2, blind: bool = False, given: Mapping[str, Mapping[str, int]] | None = None
) -> Text:
    entries = {key: dict.fromkeys(_WHIST_TABLE, 1 if key == "stakes" else 0) for key in ("stakes", "bids", "tricks")}
    entries["tricks"]["Ann"] = cards
    for key, values in (given or {}).items():
        entries[key].update(values)
    return refusal(
        lambda: whist_tarot.settle(
            _WHIST_TABLE, "Ann", cards, blind, entries["stakes"], entries["bids"], entries["tricks"]
        ),
        field,
    )


def _whist_deal(counts: tuple[str, ...]) -> Schema:
    """A deal's size bounds the rest: only the one-card deal is blind, and the numbers of
    ``counts`` (bids, tricks) go from 0 to the cards dealt (a case split on the cards dealt)."""
    blind = _settle_refusal("blind", blind=True)
    cases = []
    for dealt in range(1, whist_tarot.SERIES[0]):
        bounds: Schema = {
            key: {
                "additionalProperties": explained(
                    {"maximum": dealt}, _settle_refusal(f"{key}.Bob", dealt, given={key: {"Bob": dealt + 1}})
                )
            }
            for key in counts
        }
        if dealt > 1:
            bounds["blind"] = explained(dict(OFF), blind)
        cases.append(({"properties": {"cards": {"const": dealt}}}, {"properties": bounds}))
    return chain(cases, {"properties": {"blind": explained(dict(OFF), blind)}})


#: The Excuse is the only card announced as 0 or 22.
_EXCUSE_ONLY: Schema = {
    "if": {"required": ["card"], "properties": {"card": {"not": {"pattern": f"^{ANY_SPACES}{EXCUSE}{ANY_SPACES}$"}}}},
    "then": {
        "properties": {
            "excuse": explained(dict(ABSENT), refusal(lambda: whist_tarot.Play("Ann", Card(trump=1), 0), "excuse"))
        }
    },
}


_WHIST_PLAYERS_TEXT = Text(
    "Le whist au tarot se joue à 3 ou 4 joueurs.", "Whist with a tarot deck is for 3 or 4 players."
)
_EXCUSE_VALUE = explained(
    {"type": "integer", "enum": list(whist_tarot.EXCUSE_VALUES), "description": "With EX: the Excuse counts 0 or 22."},
    Text("L’Excuse vaut 0 ou 22.", "The Excuse is worth 0 or 22."),
)


def _whist_state() -> Schema:
    entry = explained(
        {
            "type": "object",
            "properties": {"player": name(), "card": one_card(NOTATION, "The card laid."), "excuse": _EXCUSE_VALUE},
            "required": ["player", "card"],
            # The Excuse in a trick already played must say what it counted.
            "if": {"properties": {"card": {"pattern": f"^{ANY_SPACES}{EXCUSE}{ANY_SPACES}$"}}, "required": ["card"]},
            "then": {"required": ["excuse"]},
            # and only the Excuse says it.
            "allOf": [_EXCUSE_ONLY],
        },
        Text("Chaque carte du pli est un objet JSON.", "Each card of the trick is a JSON object."),
    )
    cards_dealt = whole(1, whist_tarot.SERIES[0], "Cards dealt to each player this deal.")
    bid = whole(0, whist_tarot.SERIES[0])
    return explained(
        {
            "type": "object",
            "properties": {
                "players": players(
                    whist_tarot.MIN_PLAYERS, whist_tarot.MAX_PLAYERS, _WHIST_PLAYERS_TEXT, "Seat order, clockwise."
                ),
                "dealer": name(),
                "cards": cards_dealt,
                "blind": boolean("The one-card deal played blind."),
                "bids": explained(
                    {
                        "type": ["object", "null"],
                        "additionalProperties": bid,
                        "maxProperties": whist_tarot.MAX_PLAYERS,
                        "description": "Bids so far, in bidding order; null (or absent) when not tracked.",
                    },
                    Text("Un nombre par joueur est attendu.", "A number per player is expected."),
                ),
                "leader": name("Who led this trick."),
                "played": cards(NOTATION, description="Cards already out in earlier tricks of this deal."),
                "trick": explained(
                    {
                        "type": "array",
                        "items": entry,
                        "maxItems": whist_tarot.MAX_PLAYERS,
                        "description": "The current trick, oldest first.",
                    },
                    Text("Le pli est une liste.", "The trick is a list."),
                    maxItems=Text("Un pli a une carte par joueur.", "A trick has one card per player."),
                ),
            },
            "required": ["players", "dealer", "cards"],
            "allOf": [_whist_deal(("bids",))],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )


def whist_check() -> Schema:
    """The check request."""
    move: Schema = {
        "type": "object",
        "properties": {
            "player": name(),
            "bid": whole(description="A bid (outside 0..cards it is judged illegal: bid_range)."),
            "card": one_card(NOTATION, "The card laid."),
            "excuse": _EXCUSE_VALUE,
        },
        "required": ["player"],
        "allOf": [_EXCUSE_ONLY],
    }
    move = one_move(
        move,
        [{"required": ["bid"]}, {"required": ["card"]}],
        Text("Un coup est une annonce (« bid ») ou une carte (« card »).", "A move is a 'bid' or a 'card'."),
    )
    relations = [
        "state.dealer, the keys of state.bids, state.leader, the players of state.trick and move.player are "
        "players of state.players",
        "state.bids holds the bids of the first players to speak, from the player after the dealer; "
        "state.played and state.trick could have been played, in turn and in whole tricks",
        "each card is counted once across state.played, state.trick and move.card (one tarot deck)",
    ]
    return request(
        "whist-tarot", _whist_rules(), {"state": _whist_state(), "move": move}, ["state", "move"], relations=relations
    )


def whist_outcome() -> Schema:
    """The outcome request."""
    count = whist_tarot.SERIES[0]

    def counted(values: Schema, description: str) -> Schema:
        schema = per_player(
            values, description, Text("Un nombre par joueur est attendu.", "A number per player is expected.")
        )
        schema["maxProperties"] = whist_tarot.MAX_PLAYERS
        return schema

    properties = {
        "players": players(
            whist_tarot.MIN_PLAYERS, whist_tarot.MAX_PLAYERS, _WHIST_PLAYERS_TEXT, "Seat order, clockwise."
        ),
        "dealer": name(),
        "cards": whole(1, count, "Cards dealt to each player this deal."),
        "blind": boolean("The one-card deal played blind (default false)."),
        "stakes": counted(
            explained(whole(1, whist_tarot.STAKE), minimum=_settle_refusal("stakes", given={"stakes": {"Ann": 0}})),
            "Each player's stake before the deal (an empty stake ends the game).",
        ),
        "bids": counted(
            whole(0, count),
            "Each from 0 to cards, the dealer's never the forbidden value (else 400 on bids.<player>).",
        ),
        "tricks": counted(whole(0, count), "Tricks taken; they add up to cards."),
    }
    return request(
        "whist-tarot",
        _whist_rules(),
        properties,
        ["players", "dealer", "cards", "stakes", "bids", "tricks"],
        [_whist_deal(("bids", "tricks"))],
        [
            "dealer and the keys of stakes, bids and tricks are players of players, and stakes, bids and tricks "
            "name every player",
            "tricks add up to cards",
        ],
    )
