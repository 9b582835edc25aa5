"""The house rules of le Président and Piketty: the options the new-game page offers
(yes/no toggles, the variants), the engine's rules of a stored game, and the rules in
force in words (the game page, the quick check, the house-rules pages).
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from companion.i18n import ngettext
from companion.models import Game
from companion.rules.president import Rules

DEFAULT_TARGET = 25
MAX_TARGET = 1000

#: The yes/no house rules, in the order of the new-game page: (option, label, one-line explanation).
_TOGGLES: tuple[tuple[str, Any, Any], ...] = (
    ("putsch", _l("Putsch"), _l("The Trou du cul may bet on going out first: no exchange that manche.")),
    ("jeu_blanc", _l("Jeu blanc"), _l("A hand without any card from the jack up takes the presidency unplayed.")),
    ("revolution", _l("Revolution"), _l("A quad reverses the order of the cards for the rest of the manche.")),
    ("revolution_on_triple_5_6", _l("Revolution on three 5s or 6s"), _l("A triple of 5s or 6s is a revolution too.")),
    ("revolution_persists", _l("Lasting revolution"), _l("The reversed order carries into the next manches.")),
    (
        "revolution_swaps_titles",
        _l("Revolution of the titles"),
        _l("Instead of the cards, the titles are reversed and the manche ends, without points."),
    ),
    ("twos_cut", _l("2s cut"), _l("Nothing goes on 2s; going out on a 2 ranks last.")),
    ("more_cards", _l("More cards"), _l("A player may lay more cards than the trick's count, of a higher rank.")),
    ("passe", _l("La passe"), _l("The same rank and count may be laid again; twice in a row locks the trick.")),
    ("passe_breakers", _l("Breaking the passe"), _l("2s (or a joker) of the right count break a locked trick.")),
    ("joker_no_finish", _l("No going out on a joker"), _l("Going out on a joker ranks last.")),
    ("joker_exchangeable", _l("Jokers are given"), _l("In the exchange, jokers count among the best cards.")),
    (
        "joker_wild",
        _l("Wild jokers"),
        _l("A joker only completes a set of another rank, never alone: left with only jokers, one finishes last."),
    ),
    (
        "coup_detat",
        _l("Coup d’État"),
        _l("A quad and a joker (or a triple and two jokers) takes the presidency; the manche ends."),
    ),
    (
        "guillotine",
        _l("Guillotine"),
        _l("A quad and two jokers takes the presidency and names the second and the last."),
    ),
    ("runs", _l("Runs"), _l("Three or more consecutive ranks may be led.")),
    (
        "tabula_rasa",
        _l("Tabula rasa"),
        _l("Equal ranks allowed; whoever completes every copy of a rank wins the trick (5 players and more)."),
    ),
    ("eight_clears", _l("8s clear"), _l("Laying 8s ends the trick.")),
    ("rapidity", _l("Rapidity"), _l("Out of turn, a player may complete the rank just laid.")),
    ("liar", _l("Président-Menteur"), _l("Cards are laid face down and announced; anyone may call the bluff.")),
    ("reduced", _l("32-card deck"), _l("7 to ace, for 3 or 4 players; the 7 is the highest card.")),
    (
        "piketty_two_decks",
        _l("Two decks at 4 or 5 players"),
        _l("Two decks without the 3s to 7s, instead of one without the 3s, 4s and 5s."),
    ),
    ("points", _l("Count points"), _l("The Président scores one less than the number of players, down to 0.")),
)
#: The toggles Piketty offers (its deck and order are fixed, and it has no jokers).
_PIKETTY_TOGGLES = ("putsch", "jeu_blanc", "revolution", "revolution_swaps_titles", "piketty_two_decks", "points")
#: The toggles only Piketty offers.
_PIKETTY_ONLY = ("piketty_two_decks",)

_PRESET_NAMES = {
    "angevin": (_l("Angevin"), _l("The ace is the highest card; 7s let the next player go lower.")),
    "wizz": (_l("Wizz"), _l("Laying the same rank skips players.")),
    "franck": (_l("Franck"), _l("Five-card poker plays; the last is called le Franck.")),
    "tarot": (_l("Tarot"), _l("Played with a tarot deck: trumps above the suits.")),
}
_FORBIDDEN_CARDS = {
    "two": _l("a 2"),
    "joker": _l("a joker"),
    "ace": _l("an ace"),
    "franck": _l("a 2 outside a Franckie"),
    "jokers": _l("only jokers left"),
}


def toggles_for(game: str) -> list[tuple[str, Any, Any]]:
    """The yes/no options of ``game`` the new-game page offers, as (option, label, explanation)."""
    if game == "piketty":
        return [t for t in _TOGGLES if t[0] in _PIKETTY_TOGGLES]
    return [t for t in _TOGGLES if t[0] not in _PIKETTY_ONLY]


def rules_of(game: Game) -> Rules:
    """The engine's rules of a game, from its stored options."""
    return Rules.from_options(game.rules or {}, game.kind)


def forbidden_cards(rules: Rules) -> list[str]:
    """What going out on ranks last under ``rules``, in words (the engine says which)."""
    return [str(_FORBIDDEN_CARDS[finish]) for finish in rules.forbidden_finishes()]


def house_rules(rules: Rules) -> list[str]:
    """The house rules in force, in words (for the game page)."""
    lines = []
    if rules.preset:
        lines.append(str(_PRESET_NAMES[rules.preset][0]))
    for option, label, _hint in _TOGGLES:
        if option != "points" and getattr(rules, option, False):
            lines.append(str(label))
    if rules.game == "president" and rules.decks > 1:
        lines.append(ngettext("%(num)d deck", "%(num)d decks", rules.decks))
    if rules.jokers:
        lines.append(ngettext("%(num)d joker", "%(num)d jokers", rules.jokers))
    if rules.points:
        lines.append(ngettext("Game to %(num)d point", "Game to %(num)d points", rules.target))
    return lines
