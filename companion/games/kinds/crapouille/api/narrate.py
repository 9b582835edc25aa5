"""La crapouille's verdicts in the table's words (:mod:`companion.judge.narrate`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.judge.narrate import loses_turn, your_turn
from companion.rules.cards import Card, CardError, Rank, Suit
from companion.rules.i18n import Text


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
        lines.append(your_turn(str(nxt)))
    return lines


def narration(body: Mapping[str, Any], move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    """What the legal ``move`` leads to at the table, from the engine's ``answer``.

    >>> answer = {"legal": True, "effects": ["draw", "skip"], "next_player": "Dan",
    ...           "target": "Cid", "skipped": ["Cid"]}
    >>> [t.fr for t in narration({}, {"player": "Bob", "card": "2h"}, answer)]
    ['Cid pioche une carte et passe son tour.', 'À Dan de jouer.']
    """
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
        lines.append(loses_turn(skipped))
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
        lines.append(your_turn(nxt))
    return lines
