"""Membership: which groups this device joined.

- :mod:`companion.membership.access` — revocable :class:`~companion.models.Device`
  records, the one cookie token, the joined group (and game) of a request.
- :mod:`companion.membership.forms` — the join form, and the name fields every form
  of a name shares.

Above the models, below the game layer and every page: it holds no route.
"""
