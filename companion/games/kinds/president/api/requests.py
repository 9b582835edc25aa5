"""The check and outcome requests of Président and Piketty."""

from __future__ import annotations

from companion.games.kinds.president.api.decks import (
    _finishes_in_deck,
    _piketty_decks,
    _plays_in_deck,
    _president_decks,
)
from companion.games.kinds.president.api.events import _president_events
from companion.games.kinds.president.api.notation import NOTATIONS
from companion.games.kinds.president.api.options import (
    _UNSTATED,
    _jokers_rule,
    _passe_rule,
    _president_rules,
    _revolution_rule,
)
from companion.judge.schemas.cards import ANY_SPACES, RANK, cards
from companion.judge.schemas.common import (
    NAME_PATTERN,
    boolean,
    name,
    one_move,
    per_player,
    players,
    request,
    whole,
)
from companion.judge.schemas.messages import Schema, explained
from companion.rules.i18n import Text


def _president_players(game: str, description: str) -> Schema:
    if game == "piketty":
        who = Text("Le Piketty se joue de 4 à 9 joueurs.", "Piketty is played by 4 to 9 players.")
        return players(4, 9, who, description)
    who = Text(
        "Le Président se joue à partir de 3 joueurs, pas plus que de cartes.",
        "Président needs at least 3 players, and no more than cards.",
    )
    return players(3, NOTATIONS["president"].most, who, description)


def _president_play(game: str, description: str) -> Schema:
    schema: Schema = {
        "type": "object",
        "description": description,
        "properties": {
            "player": name(),
            "cards": cards(
                NOTATIONS[game], at_least_one=True, description="The cards laid (liar: the announced ones)."
            ),
            "last": boolean("These are the player's last cards."),
            "pass": boolean("The player passes."),
            "call": boolean("liar: a 'menteur' call on the last announced cards."),
            "laid": cards(NOTATIONS[game], description="liar: the cards really laid, face down."),
        },
        "required": ["player"],
    }
    alternatives: list[Schema] = [
        {"required": ["cards"]},
        {"required": ["pass"], "properties": {"pass": {"const": True}}},
        {"required": ["call"], "properties": {"call": {"const": True}}},
    ]
    return one_move(
        schema,
        alternatives,
        Text(
            "Un coup pose des cartes (« cards »), passe (« pass »: true) ou appelle (« call »: true), "
            "une seule de ces choses.",
            "A move lays cards ('cards'), passes ('pass': true) or calls ('call': true), only one of them.",
        ),
    )


def president_check(game: str) -> Schema:
    """The check request of ``game`` (``president`` or ``piketty``)."""
    most = 9 if game == "piketty" else NOTATIONS["president"].most
    state = explained(
        {
            "type": "object",
            "properties": {
                "players": _president_players(game, "Everyone in the manche, in turn order."),
                "out": players(0, most, Text("Trop de joueurs sortis.", "Too many players out."), "Who went out."),
                "reversed": boolean("The card order is reversed by an earlier revolution."),
                "leader": name("Who must lead when the trick is empty."),
                "trick": explained(
                    {
                        "type": "array",
                        "items": _president_play(game, "One play of the current trick."),
                        "description": "The current trick, oldest first.",
                    },
                    Text("Le pli est une liste.", "The trick must be a list."),
                ),
            },
            "required": ["players"],
        },
        Text("L’état de la table est un objet.", "The state must be an object."),
    )
    move = _president_play(game, "The move to judge.")
    if game == "piketty":
        rules = _president_rules(game, [_passe_rule(), _revolution_rule(game)])
        conditions = [_piketty_decks(_plays_in_deck, ("state", "players"))]
    else:
        rules = _president_rules(game, [_jokers_rule(), _passe_rule(), _revolution_rule(game)], _UNSTATED["check"])
        conditions = [_president_decks(_plays_in_deck, with_reduced=False)]
    relations = [
        "state.out, state.leader, the players of state.trick and move.player are players of state.players",
        "state.trick is a trick these rules allow to have been played, in turn (else: 400 at its play)",
        "no card is counted more often than the decks hold across state.trick and move.cards",
    ]
    return request(game, rules, {"state": state, "move": move}, ["state", "move"], conditions, relations)


def president_outcome(game: str) -> Schema:
    """The outcome request of ``game`` (``president`` or ``piketty``)."""
    most = 9 if game == "piketty" else NOTATIONS["president"].most
    rank_or_cards = explained(
        {
            "anyOf": [
                {"type": "boolean"},
                {"type": "string", "pattern": f"^{ANY_SPACES}{RANK}{ANY_SPACES}$"},
                cards(NOTATIONS[game], at_least_one=True),
            ],
            "description": "true (the finish was forbidden), a rank ('2': any card of it) or the cards.",
        },
        Text(
            "true, un rang (« 2 ») ou des cartes sont attendus.",
            "true, a rank ('2') or cards are expected.",
        ),
    )
    guillotine = explained(
        {
            "type": "object",
            "properties": {"player": name(), "vice": name(), "last": name()},
            "additionalProperties": False,
            "required": ["player", "vice", "last"],
        },
        Text("Un objet est attendu.", "An object is expected."),
        additionalProperties=Text(
            "La guillotine donne « player », « vice » et « last ».", "A guillotine gives 'player', 'vice' and 'last'."
        ),
    )
    events = explained(
        {
            "type": "object",
            "description": "What happened instead of (or during) the manche.",
            "properties": {
                "putsch": name("Who called a putsch."),
                "jeu_blanc": name("Who showed a jeu blanc."),
                "coup_detat": name("Who made a coup d’État."),
                "guillotine": guillotine,
                "revolution": explained(
                    {"anyOf": [{"type": "boolean"}, name()], "description": "true, or who laid it (false: none)."},
                    Text("true ou un nom de joueur est attendu.", "true or a player's name is expected."),
                ),
            },
            "additionalProperties": False,
        },
        Text("Un objet est attendu.", "An object is expected."),
        additionalProperties=lambda key: Text(f"Événement inconnu : « {key} ».", f"Unknown event: '{key}'."),
    )
    title_names = explained(
        {
            "type": "object",
            "description": 'A group\'s own names for ranks: {"1": "Le Chef", …}.',
            "propertyNames": explained(
                # From 1 (the engine's check that it is at most the number of players ties the
                # key to another field's length: a schema states that only by listing every count).
                {"pattern": "^0*[1-9][0-9]*$"},
                Text("Un rang est un nombre, à partir de 1.", "A rank is a number, from 1."),
            ),
            "additionalProperties": explained(
                {"type": "string", "minLength": 1, "maxLength": 40, "pattern": NAME_PATTERN},
                Text("Un titre est un nom de 1 à 40 caractères.", "A title is a name of 1 to 40 characters."),
            ),
        },
        Text("Un objet est attendu.", "An object is expected."),
    )
    properties = {
        "players": _president_players(game, "The hierarchy before the manche, best first (first manche: seats)."),
        "finish": players(0, most, Text("Trop de joueurs.", "Too many players."), "Going-out order, first out first."),
        "finished_on": per_player(
            rank_or_cards, "What players went out on.", Text("Un objet est attendu.", "An object is expected.")
        ),
        "events": events,
        "first": boolean("The first manche of a game."),
        "draw": per_player(
            cards(NOTATIONS[game], at_least_one=True),
            "Piketty's first draw: each player's card(s).",
            Text("Un objet est attendu.", "An object is expected."),
        ),
        # null too: the previous answer's putsch_banned is sent back as it came.
        "putsch_banned": name("Who failed a putsch at the previous manche (null: nobody).", nullable=True),
        "totals": per_player(
            whole(),
            "Points before the manche.",
            Text("Un total par joueur est attendu.", "A total per player is expected."),
        ),
        "title_names": title_names,
    }
    if game == "piketty":
        rules = _president_rules(game, [_passe_rule(), _revolution_rule(game)])
    else:
        rules = _president_rules(game, [_jokers_rule(), _revolution_rule(game), _passe_rule()], _UNSTATED["outcome"])
    decks = (
        _piketty_decks(_finishes_in_deck, ("players",)) if game == "piketty" else _president_decks(_finishes_in_deck)
    )
    relations = [
        "finish, the keys of finished_on, draw and totals, the players named in events and putsch_banned are "
        "players of players",
        "finish names every player (the last may be left out) unless an event decides: a jeu blanc takes no "
        "finish, a putsch needs its first player out; a player of finished_on is in finish",
        "a card draw gives a card to every player",
        "only the last of players calls a putsch, and not putsch_banned; a guillotine names three different players",
        "the ranks of title_names go from 1 to the number of players; the cards given at the exchange are "
        "no more than a hand holds",
    ]
    return request(game, rules, properties, ["players"], [decks, _president_events()], relations)
