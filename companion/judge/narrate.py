"""What a verdict means at the table, in the table's words — and the one way to get one.

:func:`judge` is the check behind every referee screen and ``POST /api/v1/check``: the
body is validated against the game's published schema, the game's adapter asks the
engine, and :func:`said` adds what happens next as a player would say it (« Le pli est
pour vous, vous rejouez. », « Révolution ! », « Cid pioche une carte et passe son tour. »).

:func:`said` decides nothing: it only puts into words the engine's answer (its
effects, ``next_player``, ``skipped``, ``target``, ``trick_winner``, ``forbidden_bid``)
and the move that was judged.  Sentences address the mover as « vous », as the whole
app does, and never assume a player's gender.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.judge.adapters import ADAPTERS, adapter
from companion.judge.reading import check_schema
from companion.rules import whist_tarot
from companion.rules.cards import Card, CardError, Rank, Suit, parse_cards
from companion.rules.i18n import RulesError, Text
from companion.rules.president import Rules


def judge(body: dict[str, Any], lang: str = "fr") -> dict[str, Any]:
    """The answer of ``POST /api/v1/check`` to ``body``, with ``said``.

    Raises :class:`~companion.rules.i18n.RulesError` (naming the field) for a body the
    schema or the engine refuses as malformed; an illegal move is an answer, not an error.

    >>> body = {"game": "president", "state": {"players": ["Ann", "Bob", "Cid"],
    ...         "trick": [{"player": "Ann", "cards": ["9h"]}, {"player": "Bob", "cards": ["Kd"]}]},
    ...         "move": {"player": "Cid", "cards": ["2c"]}}
    >>> judge(body)["said"]
    ['Le pli est pour vous, vous rejouez.']
    >>> judge(dict(body, move={"player": "Cid", "cards": ["8c"]}))["reason"]
    'Il faut jouer plus haut que le roi.'
    """
    game = body.get("game")
    if not isinstance(game, str) or game not in ADAPTERS:
        names = ", ".join(ADAPTERS)
        raise RulesError(
            Text(f"Jeu inconnu ; les jeux sont : {names}.", f"Unknown game; the games are: {names}."), "game"
        )
    check_schema(body, game, "check")
    answer = adapter(game, "check")(body, lang)
    answer["said"] = [text.get(lang) for text in said(game, body, answer)]
    return answer


def said(game: str, body: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    """What the legal move of ``body`` leads to, from the engine's ``answer`` (empty when illegal).

    >>> answer = {"legal": True, "effects": ["draw", "skip"], "next_player": "Dan",
    ...           "target": "Cid", "skipped": ["Cid"]}
    >>> [t.fr for t in said("crapouille", {"move": {"player": "Bob", "card": "2h"}}, answer)]
    ['Cid pioche une carte et passe son tour.', 'À Dan de jouer.']
    """
    if not answer.get("legal"):
        return []
    move = body.get("move") or {}
    if not isinstance(move, Mapping):
        return []
    if game in ("president", "piketty"):
        return _president(body, move, answer)
    if game == "crapouille":
        return _crapouille(move, answer)
    return _whist(body, move, answer)


# --- words -------------------------------------------------------------------------


def _and(names: Sequence[str], lang: str) -> str:
    """« Ann », « Ann et Bob », « Ann, Bob et Cid »."""
    word = " and " if lang == "en" else " et "
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + word + names[-1]


def _your_turn(player: str) -> Text:
    return Text(f"À {player} de jouer.", f"{player} plays next.")


def _bids_next(player: str) -> Text:
    return Text(f"À {player} d’annoncer.", f"{player} bids next.")


def whose_turn(player: str) -> tuple[Text, Text]:
    """What a move says of whose turn comes next (to play, or to bid): the live screen's
    turn line says it already, so the last move does not say it again."""
    return _your_turn(player), _bids_next(player)


def _loses_turn(names: Sequence[str]) -> Text:
    if len(names) == 1:
        return Text(f"{names[0]} passe son tour.", f"{names[0]} loses a turn.")
    return Text(f"{_and(names, 'fr')} passent leur tour.", f"{_and(names, 'en')} lose their turn.")


def _won_by(winner: str, mover: str, leader: str | None) -> Text:
    """Whose trick it is, and who leads the next one."""
    if winner == mover and leader == mover:
        return Text("Le pli est pour vous, vous rejouez.", "The trick is yours: you lead again.")
    if leader == winner:
        return Text(f"Le pli est pour {winner}, qui rejoue.", f"The trick goes to {winner}, who leads again.")
    if leader is None:
        return Text(f"Le pli est pour {winner}.", f"The trick goes to {winner}.")
    return Text(f"Le pli est pour {winner} ; {leader} entame.", f"The trick goes to {winner}; {leader} leads.")


# --- le Président and Piketty --------------------------------------------------------


def _president(body: Mapping[str, Any], move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    effects = set(answer.get("effects") or ())
    mover = str(move.get("player"))
    nxt = answer.get("next_player")
    rules = body.get("rules") if isinstance(body.get("rules"), Mapping) else {}
    lines: list[Text] = []
    if "coup_detat" in effects:
        lines.append(
            Text(
                f"Coup d’État ! {mover} prend la présidence ; la manche s’arrête.",
                f"Coup d’État! {mover} takes the presidency; the manche ends.",
            )
        )
    if "guillotine" in effects:
        lines.append(
            Text(
                f"Guillotine ! {mover} prend la présidence et attribue la deuxième et la dernière place ; "
                "la manche s’arrête.",
                f"Guillotine! {mover} takes the presidency and names the second and the last; the manche ends.",
            )
        )
    if "revolution" in effects:
        if rules.get("revolution_swaps_titles"):
            lines.append(
                Text(
                    "Révolution ! Les titres s’inversent et la manche s’arrête, sans points.",
                    "Revolution! The titles are reversed and the manche ends, without points.",
                )
            )
        else:
            lines.append(Text("Révolution ! L’ordre des cartes s’inverse.", "Revolution! The card order is reversed."))
    if "counter_revolution" in effects:
        lines.append(
            Text(
                "Contre-révolution ! L’ordre des cartes s’inverse à nouveau.",
                "Counter-revolution! The card order is reversed again.",
            )
        )
    if "lock" in effects:
        lines.append(
            Text(
                "Le pli est verrouillé : on suit avec la même valeur, ou on passe.",
                "The trick is locked: follow with the same rank, or pass.",
            )
        )
    if "skip" in effects and answer.get("skipped"):
        lines.append(_loses_turn(list(answer["skipped"])))
    shown = "finish_last" in effects and _jokers_shown(body, move)
    if shown:
        lines.append(
            Text(
                f"{mover} ne peut plus jouer ses jokers : dernière place.",
                f"{mover} can no longer play their jokers: last place.",
            )
        )
    elif "finish_last" in effects:
        lines.append(
            Text(
                f"{mover} sort sur une carte interdite : dernière place.",
                f"{mover} goes out on a forbidden card: last place.",
            )
        )
    elif "out" in effects:
        lines.append(Text(f"{mover} n’a plus de cartes.", f"{mover} has no cards left."))
    if answer.get("pile_to"):
        taker = answer["pile_to"]
        lines.append(Text(f"{taker} ramasse le tas.", f"{taker} takes the pile."))
    if "trick_won" in effects:
        lines.append(_won_by(_trick_winner(body, move, shown), mover, nxt))
    elif nxt is not None:
        lines.append(_your_turn(nxt))
    if nxt is None and effects & {"out", "finish_last", "coup_detat", "guillotine", "revolution"}:
        lines.append(Text("La manche est finie.", "The manche is over."))
    return lines


def _rules_of(body: Mapping[str, Any]) -> Rules | None:
    """The engine's rules of a Président body (None when they cannot be read)."""
    try:
        return Rules.from_options(body.get("rules"), str(body.get("game") or "president"))
    except RulesError:
        return None


def _shows_jokers(rules: Rules | None, entry: Mapping[str, Any]) -> bool:
    """Whether a move or trick entry is the engine's `joker_wild` dead end: jokers shown, not laid."""
    cards = entry.get("cards")
    if rules is None or not cards or not isinstance(cards, str | list):
        return False
    try:
        return rules.jokers_shown(parse_cards(cards))
    except RulesError:
        return False


def _jokers_shown(body: Mapping[str, Any], move: Mapping[str, Any]) -> bool:
    """RULES.md §1 (`joker_wild`): the mover was left holding only jokers and showed them."""
    return _shows_jokers(_rules_of(body), move)


def _trick_winner(body: Mapping[str, Any], move: Mapping[str, Any], shown: bool = False) -> str:
    """Who laid the cards that won the trick: the mover, or (after a pass, or jokers
    shown) the last to lay cards on it."""
    if move.get("cards") and not shown:
        return str(move.get("player"))
    state = body.get("state") if isinstance(body.get("state"), Mapping) else {}
    trick = state.get("trick") if isinstance(state.get("trick"), list) else []
    rules = _rules_of(body)
    laid = [e for e in trick if isinstance(e, Mapping) and e.get("cards") and not _shows_jokers(rules, e)]
    return str(laid[-1].get("player")) if laid else str(move.get("player"))


# --- la crapouille -------------------------------------------------------------------


def _suit_name(value: object, lang: str) -> str:
    try:
        return Suit(str(value).lower()).name_in(lang)
    except ValueError:
        return str(value)


def _the_card(code: object) -> Text:
    """« le 7♥ », « la D♥ », « l’A♠ » (elided by Text), « le joker »."""
    try:
        card = Card.parse(str(code))
    except CardError:
        return Text(str(code), str(code))
    if card.is_joker:
        return Text("le joker", "the joker")
    article = "la" if card.rank is Rank.QUEEN else "le"
    return Text(f"{article} {card.display('fr')}", f"the {card.display('en')}")


def _crapouille_draw(mover: str, move: Mapping[str, Any], nxt: object) -> list[Text]:
    """A draw, said once (« Ann pioche une carte. » was said twice, as the move and as
    its ``draw`` effect): unseen, the draw and what may follow; seen, the card named
    only when it goes on the pile (a card kept stays unseen by the table), else who
    plays next.  The live screen lays a drawn card that fits in the same move, judged
    as the card laid: its line shows « pioche et pose 7♥ » and says what the card does."""
    drawn = move.get("drawn")
    if not drawn:
        return [
            Text(f"{mover} pioche une carte.", f"{mover} draws a card."),
            Text(
                "Si elle peut aller sur le tas, elle y est posée tout de suite.",
                "If it fits on the pile, it is laid at once.",
            ),
        ]
    if nxt == mover:
        # RULES.md §4: « if that card can be played it goes on the pile at once »
        card = _the_card(drawn)
        return [
            Text(
                f"{mover} pioche {card.fr}, qui va sur le tas : à poser tout de suite.",
                f"{mover} draws {card.en}, which fits: it is laid at once.",
            )
        ]
    lines = [Text(f"{mover} garde la carte piochée.", f"{mover} keeps the card drawn.")]
    if nxt is not None:
        lines.append(_your_turn(str(nxt)))
    return lines


def _crapouille(move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    effects = set(answer.get("effects") or ())
    mover = str(move.get("player"))
    nxt = answer.get("next_player")
    target = answer.get("target")
    skipped = [p for p in answer.get("skipped") or () if p != target]
    if move.get("draw"):
        return _crapouille_draw(mover, move, nxt)
    lines: list[Text] = []
    if "draw" in effects and target:
        if target in (answer.get("skipped") or ()):
            lines.append(
                Text(f"{target} pioche une carte et passe son tour.", f"{target} draws a card and loses a turn.")
            )
        else:
            lines.append(Text(f"{target} pioche une carte.", f"{target} draws a card."))
    if skipped:
        lines.append(_loses_turn(skipped))
    if "reverse" in effects:
        lines.append(Text("Le sens du jeu s’inverse.", "The direction of play is reversed."))
    if "choose_suit" in effects:
        asked = answer.get("asked") or move.get("asked")
        if asked:
            suit = Text(_suit_name(asked, "fr"), _suit_name(asked, "en"))
            lines.append(Text(f"Couleur demandée : {suit.fr}.", f"Suit asked: {suit.en}."))
        else:
            lines.append(Text("Choisissez une couleur.", "Choose a suit."))
    if "out" in effects:
        lines.append(Text(f"{mover} n’a plus de cartes : la donne est finie.", f"{mover} is out: the hand is over."))
    if "finish_on_two" in effects and target:
        lines.append(
            Text(
                f"Fini sur un 2 : {target} pioche encore une carte, qui compte.",
                f"Finished on a 2: {target} draws one more card, which counts.",
            )
        )
    if "play_again" in effects:
        lines.append(Text("Vous rejouez.", "You play again."))
    elif nxt is not None and "out" not in effects:
        lines.append(_your_turn(nxt))
    return lines


# --- whist with a tarot deck ---------------------------------------------------------


def _whist(body: Mapping[str, Any], move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    mover = str(move.get("player"))
    nxt = answer.get("next_player")
    state = body.get("state") if isinstance(body.get("state"), Mapping) else {}
    lines: list[Text] = []
    if "bid" in move:
        bid = move.get("bid")
        lines.append(Text(f"{mover} annonce {bid}.", f"{mover} bids {bid}."))
        bids = state.get("bids") if isinstance(state.get("bids"), Mapping) else {}
        players = state.get("players") if isinstance(state.get("players"), list) else []
        if nxt is not None and len(bids) + 1 >= len(players):
            lines.append(Text(f"Les annonces sont faites : {nxt} entame.", f"Bidding is over: {nxt} leads."))
        elif nxt is not None:
            forbidden = _forbidden_next(state, move, nxt)
            lines.append(_bids_next(nxt))
            if forbidden is not None:
                lines.append(whist_tarot.forbidden_bid_text(nxt, forbidden, int(state["cards"])))
        return lines
    winner = answer.get("trick_winner")
    if winner:
        lines.append(_won_by(str(winner), mover, nxt))
        if nxt is None:
            lines.append(Text("La donne est finie.", "The deal is over."))
    elif nxt is not None:
        lines.append(_your_turn(nxt))
    return lines


def _forbidden_next(state: Mapping[str, Any], move: Mapping[str, Any], nxt: str) -> int | None:
    """When the next bidder is the dealer: the total the dealer may not bid (from the engine)."""
    if nxt != state.get("dealer"):
        return None
    cards = state.get("cards")
    bids = state.get("bids") if isinstance(state.get("bids"), Mapping) else {}
    others = [b for b in bids.values() if isinstance(b, int)]
    if not isinstance(cards, int) or not isinstance(move.get("bid"), int):
        return None
    return whist_tarot.forbidden_bid(cards, [*others, move["bid"]])
