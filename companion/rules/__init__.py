"""The shared rules engine of Companion.

Pure Python: nothing here imports Flask or SQLAlchemy.  Every screen and the JSON
API call these modules; no rule is written anywhere else.

- :mod:`companion.rules.i18n` — bilingual sentences (``Text``) and ``RulesError``.
- :mod:`companion.rules.cards` — cards, ranks, suits, decks, notation.
- :mod:`companion.rules.president` — le Président and Piketty: options, presets, the play.
- :mod:`companion.rules.president_outcome` — titles, exchanges, points, events of a manche.
- :mod:`companion.rules.whist_tarot` — whist with a tarot deck: deals, bids, tricks, stakes.
- :mod:`companion.rules.crapouille` — la crapouille: scoring and eliminations, and
  (from :mod:`companion.rules.crapouille_play`) the play-by-play referee.
"""
