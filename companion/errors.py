"""Error pages in the player's language, JSON errors under /api/.

A bad input never reaches here (forms show it next to the field); these pages
cover wrong addresses, expired forms and the like.  The 500 handler is a safety
net that rolls the session back so nothing half-saved remains.

Under ``/t/`` (a table display's link) an error is said in the display's own layout
(``display/error.html``): no header, footer or form, nothing of any group.
"""

from __future__ import annotations

from flask import Flask, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.extensions import db
from companion.i18n import gettext as _
from companion.security import API_PREFIX, DISPLAY_PREFIX


def _messages() -> dict[int, str]:
    return {
        400: _("This request could not be understood."),
        403: _("This page belongs to a group this device has not joined."),
        404: _("This page does not exist."),
        405: _("This address does not accept this kind of request."),
        413: _("What was sent is too large."),
        429: _("Too many tries. Wait a little and try again."),
        500: _("Something went wrong on our side. Nothing half-saved was kept; try again."),
    }


def _render(code: int, message: str) -> ResponseReturnValue:
    if request.path.startswith(API_PREFIX):
        return jsonify({"error": message, "field": None}), code
    if request.path.startswith(DISPLAY_PREFIX):
        return render_template("display/error.html", title=_("Oops"), lines=[message], watch_url=None), code
    return render_template("error.html", code=code, message=message), code


def init_app(app: Flask) -> None:
    """Register the error handlers."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> ResponseReturnValue:
        return _render(400, _("This form has expired. Go back, reload the page and send it again."))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if error.code is None or error.response is not None:
            return error
        code = error.code if error.code in _messages() else 400
        response = make_response(_render(code, _messages()[code]))
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(sorted(error.valid_methods))
        return response

    @app.errorhandler(500)
    def server_error(error: Exception) -> ResponseReturnValue:
        db.session.rollback()
        return _render(500, _messages()[500])
