"""The table display: a screen for the middle of the table (a tablet lying flat, a TV).

It shows one game, or the group's evening, in large type, and follows it on its own
(the live pages' watch, :mod:`companion.watch`). A device of the group opens it from a
game page (« Afficher sur la table »); another device opens it, read-only and without
joining, through a display link (:class:`~companion.models.DisplayLink`: ``/t/<code>``
or its QR code), valid until the end of the evening or until revoked.
"""

from flask import Blueprint

bp = Blueprint("display", __name__)

from companion.display import routes  # noqa: E402,F401
