"""Le Président and Piketty on the house-rules pages (:mod:`companion.referee.house_rules`).

Exposed as :attr:`_PresidentFamily.rules_pages
<companion.games.kinds.president._PresidentFamily.rules_pages>`.  No explanation is kept
twice: an option's label and one-line explanation are those of the new-game page
(:data:`companion.games.kinds.president._TOGGLES`, ``_PRESET_NAMES``); this module only
adds the longer sentence, with the seed's example, keyed by the engine's option id.  A
test fails when an option of the engine has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l

from companion.games.kinds.president.options import _PRESET_NAMES, rules_of, toggles_for
from companion.games.rules_pages import RulesPages, option_entry
from companion.i18n import current_lang, ngettext
from companion.i18n import gettext as _
from companion.models import Game
from companion.rules.i18n import RulesError
from companion.rules.president import PRESETS, Rules
from companion.rules.president_outcome import exchange_schedule, schedule_for, title_names

#: The longer explanation of each yes/no option of le Président and Piketty (the
#: fields of :class:`companion.rules.president.Rules` that are booleans), with the
#: seed's example where it has one. Label and one-line explanation: ``_TOGGLES``.
DETAILS: dict[str, Any] = {
    "putsch": _l(
        "Going out first, the putschist becomes Président and scores one point more than a Président "
        "(4 at 4 players). Otherwise the manche stops at the first player out: every title stays, "
        "the putschist loses 1 point and, at the next manche, gives their 4 best cards to the "
        "Président for 4 of choice, with no putsch allowed that time."
    ),
    "jeu_blanc": _l(
        "It is shown after the deal, before the exchange; the manche is not played and scores nothing. "
        "Example: the Trou du cul has a jeu blanc and takes the presidency; the Président becomes "
        "Vice-Président, and every rank above the Trou du cul moves down one."
    ),
    "revolution": _l(
        "Example: four 7s laid at once: until the end of the manche the 3 is the best card and the 2 "
        "the worst. Another quad turns the order back (a counter-revolution)."
    ),
    "revolution_on_triple_5_6": _l("Example: three 5s laid at once reverse the order, as a quad does."),
    "revolution_persists": _l("At the next manche the 3 is still the best card, and so on until the next revolution."),
    "revolution_swaps_titles": _l(
        "Example: at 4 players the Président becomes Trou du cul and the Vice-Président becomes "
        "Vice-Trou du cul, and the other way round; the manche stops there, without points."
    ),
    "twos_cut": _l(
        "Once 2s are laid nobody may play, not even another 2: whoever laid them leads again. "
        "2s may lead. Going out on a 2 ranks last. Not played with jokers."
    ),
    "more_cards": _l(
        "Example: on a pair of kings, a pair, a triple or a quad of aces or 2s may be laid; "
        "after four aces, only four 2s may follow."
    ),
    "passe": _l(
        "Example: Ann lays a 3, Bob lays a 3: Cid must lay a 3 or pass; if Cid lays a 3, so must Dan. "
        "Pairs work the same way. Passing does not stop anyone playing when the turn comes back."
    ),
    "passe_breakers": _l(
        "Example: Ann lays a 3, Bob lays a 3: Cid lays a 3, breaks the passe with a 2 (or a joker), or passes."
    ),
    "joker_no_finish": _l("Laying a joker as one’s last card ranks last at once, even when out first."),
    "joker_exchangeable": _l(
        "A joker is the best card of the game: a Trou du cul holding one gives it to the Président "
        "with the best cards. Without this rule, jokers are kept."
    ),
    "joker_wild": _l(
        "Example: a 9 and a joker make a pair of 9s; three queens and a joker, a quad of queens. "
        "A joker alone cannot be laid: whoever is left with only jokers shows them and finishes last at once."
    ),
    "coup_detat": _l(
        "It may be laid at any time. Example: Cid, Vice-Trou du cul, lays four 10s and a joker: Cid "
        "becomes Président, the fallen Président takes Cid’s place, the others keep their titles; no points."
    ),
    "guillotine": _l(
        "Example: Dan lays four kings and two jokers: Dan becomes Président and chooses who is "
        "Vice-Président and who is Trou du cul; the others keep their order; no points."
    ),
    "runs": _l(
        "Example: 5 6 7 may be led and followed by 8 9 10; 5 5 6 6 7 7 by a higher run of three pairs. "
        "Never a 2 or a joker inside a run."
    ),
    "tabula_rasa": _l(
        "Example: four jacks laid one by one, or two pairs of jacks: whoever laid the last jack leads "
        "a new trick. A quad laid at once does not count."
    ),
    "eight_clears": _l("Example: Bob lays an 8 on a 6: the trick is cleared and Bob leads again with any play."),
    "rapidity": _l(
        "Example: Ann leads a 3, Bob lays another 3; Dan, holding the last two 3s, lays them at once "
        "without waiting for the turn, and the trick goes on in pairs."
    ),
    "liar": _l(
        "Example: “a pair of 2s” announced with a 3 and a 7. Anyone still holding cards may call "
        "“liar”: the cards are turned over; if they match, the caller takes the pile, otherwise the "
        "liar does; whoever was right leads."
    ),
    "reduced": _l(
        "Order: 8, 9, 10, J, Q, K, A, 7. At 4 players 8 cards each; at 3 players 10 each, the 2 left over set aside."
    ),
    "piketty_two_decks": _l(
        "At 4 or 5 players: two decks without the 3s to 7s (64 cards, our reading of the seed’s "
        "“remove more cards”), instead of one deck without the 3s, 4s and 5s (40 cards)."
    ),
    "points": _l(
        "Example: at 4 players, Président 3, Vice-Président 2, Vice-Trou du cul 1, Trou du cul 0. "
        "The game ends when a total reaches the target; the lowest total loses (and, says the seed, "
        "brings the next meal)."
    ),
}

#: The longer explanation of each variant (:data:`companion.rules.president.PRESETS`).
PRESET_DETAILS: dict[str, Any] = {
    "angevin": _l(
        "No jokers. Laying the same card (or pair) as just before skips the next player, except on "
        "aces: an ace cannot be covered by an ace. After 7s the next player may go lower (the "
        "“chasse d’eau”). Going out on an ace ranks last. The Trou du cul gives their two highest cards."
    ),
    "wizz": _l(
        "Example: Ann leads a 6, Bob lays a pair of 6s and wizzes Cid and Dan: their turns are skipped. "
        "Had Ann led a pair of 6s, Bob would wizz only Cid. A higher rank skips nobody; the trick ends "
        "when the turn comes back to whoever laid last."
    ),
    "franck": _l(
        "The Franckies, five-card poker plays: straight flush > quad and a card > full house > flush > "
        "straight; a Franckie is covered only by a higher one. No jokers. Going out on a 2 outside a "
        "Franckie ranks last, as the Franck."
    ),
    "tarot": _l(
        "Suit cards as usual; a trump beats every suit card, and two, three or four consecutive trumps "
        "stand for a pair, a triple, a quad. The Excuse alone wins any trick; the 1 and the 21 of trumps "
        "stand for any card. Usually played with the revolution."
    ),
}

#: The other settings of le Président and Piketty (the fields of ``Rules`` that are not
#: yes/no): (label, explanation). The labels are the new-game page's.
SETTINGS: dict[str, tuple[Any, Any]] = {
    "preset": (
        _l("Variant"),
        _l("A named variant switches on its own set of rules; each option can still be changed."),
    ),
    "decks": (
        _l("Decks"),
        _l("1 to 4 decks of 52 cards shuffled together; with several, a revolution may take 7 or 8 cards."),
    ),
    "jokers": (
        _l("Jokers"),
        _l(
            "0, 1 or 2 jokers in all. A joker goes on anything and wins the trick "
            "(with two, the red one may still cover the black one)."
        ),
    ),
    "revolution_size": (_l("Cards for a revolution"), _l("4 cards of one rank; with several decks, 7 or 8.")),
    "target": (_l("Points to reach"), _l("The game ends when a total reaches it.")),
    "titles": (_l("Title names"), _l("Only the names change: the ranks stay the same.")),
    "schedule": (
        _l("Exchanges"),
        _l("How many best cards each pair exchanges, from the first and the last inwards."),
    ),
}


def _toggle(game: str, option: str) -> tuple[str, Any, Any]:
    """The new-game page's (option, label, explanation) of a yes/no option of ``game``."""
    found: tuple[str, Any, Any] = next(t for t in toggles_for(game) if t[0] == option)
    return found


def president_options(game: str) -> list[dict[str, Any]]:
    """Every yes/no house rule ``game`` (president or piketty) offers, in the new-game
    page's order (the points are a setting, not listed here)."""
    return [
        option_entry(option, label, line, DETAILS.get(option))
        for option, label, line in toggles_for(game)
        if option != "points"
    ]


def preset_options() -> list[dict[str, Any]]:
    """Every variant of le Président."""
    return [option_entry(p, _PRESET_NAMES[p][0], _PRESET_NAMES[p][1], PRESET_DETAILS.get(p)) for p in PRESETS]


def _possible(game: Game, option: str) -> bool:
    """Whether ``option`` could be switched on in this game as it is (the engine says:
    the jokers' options need jokers, the revolution's need the revolution…)."""
    try:
        Rules.from_options({**(game.rules or {}), option: True}, game.kind).check_players(len(game.seats))
    except RulesError:
        return False
    return True


def _exchange_lines(rules: Rules, titles: list[str], n: int) -> list[str]:
    """Who gives how many best cards to whom, by title, outermost pair first."""
    try:
        counts = exchange_schedule(rules, n)
    except RulesError:
        counts = schedule_for(n)
    return [
        ngettext(
            "%(giver)s → %(receiver)s: %(num)d card",
            "%(giver)s → %(receiver)s: %(num)d cards",
            count,
            giver=titles[n - 1 - i],
            receiver=titles[i],
        )
        for i, count in enumerate(counts)
    ]


def _game_context(game: Game) -> dict[str, Any]:
    """The variant and options on, those off that could be on, the settings, the titles
    and the exchanges of one game."""
    rules = rules_of(game)
    lang = current_lang()
    n = len(game.seats)
    on: list[dict[str, Any]] = []
    if rules.preset:
        on += [o for o in preset_options() if o["id"] == rules.preset]
    offered = president_options(rules.game)
    on += [o for o in offered if getattr(rules, o["id"])]
    off = [o for o in offered if not getattr(rules, o["id"]) and _possible(game, o["id"])]
    titles = [t.get(lang) for t in title_names(n, rules.game, rules.titles, preset=rules.preset)]
    deck = rules.deck(n)
    settings = [
        " · ".join(
            [
                ngettext("%(num)d deck", "%(num)d decks", rules.deck_count(n)),
                ngettext("%(num)d card in play", "%(num)d cards in play", deck.size),
                ngettext("%(num)d joker", "%(num)d jokers", rules.jokers) if rules.jokers else _("no joker"),
            ]
        )
    ]
    if rules.revolution and rules.revolution_size != 4:
        settings.append(_("A revolution takes %(num)d cards of one rank.", num=rules.revolution_size))
    if (game.setup or {}).get("first") == "draw" or rules.game == "piketty":
        settings.append(_("The first titles are drawn by cards."))
    else:
        settings.append(_("The first manche is played without titles."))
    if rules.points:
        settings.append(_("Game to %(target)d points", target=rules.target))
        settings.append(str(_toggle(rules.game, "points")[2]))
    else:
        settings.append(_("No points: only the titles."))
    return {
        "on": on,
        "off": off,
        "settings": settings,
        "titles": titles,
        "exchanges": _exchange_lines(rules, titles, n),
    }


def _titles_by_count(game: str, counts: range) -> list[dict[str, Any]]:
    """The titles and exchanges at each player count, from the engine."""
    lang = current_lang()
    return [
        {"n": n, "titles": [t.get(lang) for t in title_names(n, game)], "exchanges": list(schedule_for(n))}
        for n in counts
    ]


class PresidentRulesPages(RulesPages):
    """Le Président's and Piketty's pages: the titles and exchanges by player count, the
    options, and le Président's variants and settings."""

    _RANKS: Mapping[str, int] = {"president": 0, "piketty": 1}

    def stem(self, kind_id: str) -> str:
        return kind_id  # referee/rules_president.*.html, referee/rules_piketty.*.html

    def rank(self, kind_id: str) -> int:
        return self._RANKS[kind_id]

    def game_context(self, game: Game) -> dict[str, Any]:
        return _game_context(game)

    def page_context(self, kind_id: str, lang: str) -> dict[str, Any]:
        context: dict[str, Any] = {
            "options": president_options(kind_id),
            "points": option_entry("points", *_toggle(kind_id, "points")[1:], DETAILS["points"]),
            "titles": _titles_by_count(kind_id, range(3, 9) if kind_id == "president" else range(4, 10)),
        }
        if kind_id == "president":
            context["presets"] = preset_options()
            context["settings"] = [SETTINGS[s] for s in ("decks", "jokers", "revolution_size", "target", "titles")]
        else:
            context["settings"] = [SETTINGS[s] for s in ("target", "titles")]
        return context
