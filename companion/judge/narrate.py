"""A verdict in the table's words: what every game's ``narration`` (an answer's ``said``) is made of.

Each game of the rules API says what its legal moves lead to
(:attr:`companion.judge.game.ApiGame.narration`: « Le pli est pour vous, vous rejouez. »,
« Révolution ! », « Cid pioche une carte et passe son tour. »), in the words below
where games share them.  A narration decides nothing: it only puts into words the
engine's answer (its effects, ``next_player``, ``skipped``…) and the move that was
judged.  Sentences address the mover as « vous », as the whole app does, and never
assume a player's gender.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.i18n import Text


def and_(names: Sequence[str], lang: str) -> str:
    """« Ann », « Ann et Bob », « Ann, Bob et Cid »."""
    word = " and " if lang == "en" else " et "
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + word + names[-1]


def your_turn(player: str) -> Text:
    """« À Bob de jouer. »"""
    return Text(f"À {player} de jouer.", f"{player} plays next.")


def bids_next(player: str) -> Text:
    """« À Bob d’annoncer. »"""
    return Text(f"À {player} d’annoncer.", f"{player} bids next.")


def whose_turn(player: str) -> tuple[Text, Text]:
    """What a move says of whose turn comes next (to play, or to bid): the live screen's
    turn line says it already, so the last move does not say it again."""
    return your_turn(player), bids_next(player)


def loses_turn(names: Sequence[str]) -> Text:
    """« Cid passe son tour. », « Bob et Cid passent leur tour. »"""
    if len(names) == 1:
        return Text(f"{names[0]} passe son tour.", f"{names[0]} loses a turn.")
    return Text(f"{and_(names, 'fr')} passent leur tour.", f"{and_(names, 'en')} lose their turn.")


def won_by(winner: str, mover: str, leader: str | None) -> Text:
    """Whose trick it is, and who leads the next one."""
    if winner == mover and leader == mover:
        return Text("Le pli est pour vous, vous rejouez.", "The trick is yours: you lead again.")
    if leader == winner:
        return Text(f"Le pli est pour {winner}, qui rejoue.", f"The trick goes to {winner}, who leads again.")
    if leader is None:
        return Text(f"Le pli est pour {winner}.", f"The trick goes to {winner}.")
    return Text(f"Le pli est pour {winner} ; {leader} entame.", f"The trick goes to {winner}; {leader} leads.")
