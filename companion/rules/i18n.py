"""Bilingual sentences for the rules engine.

The engine is pure Python and knows nothing of Flask-Babel, yet its verdicts and
errors are read by players in French (the default) or English.  Every sentence it
produces is therefore a :class:`Text` holding both languages; the web layer picks
one with :meth:`Text.get`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")


@dataclass(frozen=True)
class Text:
    """One sentence in French and English.

    >>> Text("Bonjour.", "Hello.").get("en")
    'Hello.'
    >>> Text("Bonjour.", "Hello.").get("de")
    'Bonjour.'
    """

    fr: str
    en: str

    def get(self, lang: str = "fr") -> str:
        """The sentence in ``lang``; French for any language not known."""
        return self.en if lang == "en" else self.fr

    def __str__(self) -> str:
        return self.fr


class RulesError(ValueError):
    """Input the engine cannot judge: a bad card, a wrong count, an unknown player.

    ``field`` names the offending input as a dotted path (``hands.Bob``,
    ``state.trick[2].cards``) so that a form or the JSON API can point at it.

    >>> e = RulesError(Text("Carte inconnue.", "Unknown card."), field="move.cards")
    >>> e.field, e.text.get("en"), str(e)
    ('move.cards', 'Unknown card.', 'Carte inconnue.')
    """

    def __init__(self, text: Text, field: str | None = None) -> None:
        super().__init__(text.fr)
        self.text = text
        self.field = field

    def at(self, field: str) -> RulesError:
        """The same error placed under ``field`` (prefixing any field it had).

        >>> RulesError(Text("x", "x"), "cards[1]").at("hands.Bob").field
        'hands.Bob.cards[1]'
        """
        inner = self.field
        if inner is None:
            path = field
        elif inner.startswith("["):
            path = field + inner
        else:
            path = f"{field}.{inner}"
        return RulesError(self.text, path)
