"""A round said in one line (issue 28): « Chloé présidente, Ann vice, Benoît trou du
cul », typed or dictated, read into the round form's fields before anything is saved.

Pure Python (nothing of Flask or the database), like the engine: it decides no rule. A
kind's grammar (``companion/games/kinds/<kind>/sentence.py``, asked through
:meth:`~companion.games.kinds.base.GameKind.read_line`) turns a line into the **same
form fields** a person would fill — then the form and the engine judge them as usual.
What is shared by every grammar lives here: the :class:`Reading` it gives, and the
toolkit of words (players by name, numbers in digits and words, cards as they are said)
in this package's modules.

A line is never guessed: what is ambiguous is asked (:attr:`Reading.questions`), what is
not understood is shown (:attr:`Reading.not_understood`), and the field it would have
filled is left as it was.
"""

from __future__ import annotations

from companion.sentence.cards import CARD_WORDS, SaidCards, read_cards, said_cards
from companion.sentence.numbers import NUMBER_WORDS, number, read_number, spell
from companion.sentence.people import FUNCTION_WORDS, ME_WORDS, Named, Roster, close
from companion.sentence.reading import Hint, Person, Reading
from companion.sentence.unclear import Unclear, alternatives, ask, quoted
from companion.sentence.words import AND, Word, fold, span, words

__all__ = [
    "AND",
    "CARD_WORDS",
    "FUNCTION_WORDS",
    "ME_WORDS",
    "NUMBER_WORDS",
    "Hint",
    "Named",
    "Person",
    "Reading",
    "Roster",
    "SaidCards",
    "Unclear",
    "Word",
    "alternatives",
    "ask",
    "close",
    "fold",
    "number",
    "quoted",
    "read_cards",
    "read_number",
    "said_cards",
    "span",
    "spell",
    "words",
]
