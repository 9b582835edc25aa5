"""The shared rules engine of Companion.

Pure Python: nothing here imports Flask or SQLAlchemy.  Every screen and the JSON
API call these modules; no rule is written anywhere else.

- :mod:`companion.rules.cards` — cards, ranks, suits, decks, notation.
- :mod:`companion.rules.crapouille` — la crapouille (seed 003).
"""
