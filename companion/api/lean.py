"""The rules API's own WSGI path: ``POST /api/v1/check`` and ``/api/v1/outcome``
answered without the machinery the pages need.

The rules API is a pure function of the body (shared/API.md): no cookie, no session,
no CSRF token, no database, no template, no locale but the body's ``lang``. Through
Flask, a request still paid for all of that — a request context, URL matching, the
session interface, the locale, the CSRF exemption check, the address check, the
outbox and fingerprint hooks — which was as much time again as judging the move.
Here such a request is read with a plain Werkzeug :class:`~werkzeug.wrappers.Request`
(its body read here, exactly ``Content-Length`` bytes; a shorter one goes to Flask)
and answered by the same :func:`companion.api.routes.answer` the Flask views call,
with the same bytes (Flask's JSON settings), the same headers
(:data:`companion.security.HEADERS`, ``Vary: Accept-Encoding``) and the same
compression (:mod:`companion.compress`).

Only the plain case comes here: a POST to one of the two paths, without a query
string, with a ``Content-Length`` within ``MAX_CONTENT_LENGTH`` and no
``Transfer-Encoding``. Anything else — another method (405 with ``Allow``), a query
string (the address check), a body too large (413) or without a length (411, or read
to its end) — goes through Flask as before, whose views call :func:`answer` too, so
the two paths cannot disagree on what they answer.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.wrappers import Request

from companion import compress
from companion.api.routes import answer
from companion.security import HEADERS

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

#: Path → endpoint, for the requests this path answers.
PATHS = {"/api/v1/check": "check", "/api/v1/outcome": "outcome"}
_SECURITY = [(name, value) for name, _lowered, value in HEADERS]


class LeanAPI:
    """WSGI middleware: the rules API's plain requests answered here, the rest by ``wrapped``."""

    def __init__(self, app: Flask, wrapped: WSGIApplication) -> None:
        self.app = app
        self.wrapped = wrapped
        provider: Any = app.json
        # As Flask's jsonify writes it (compact out of debug mode), with one encoder built once.
        self.encoder = json.JSONEncoder(
            default=provider.default,
            ensure_ascii=provider.ensure_ascii,
            sort_keys=provider.sort_keys,
            separators=(",", ":"),
        )

    def plain(self, environ: WSGIEnvironment) -> str | None:
        """The endpoint this path answers ``environ`` with, or None (Flask's turn)."""
        endpoint = PATHS.get(environ.get("PATH_INFO", ""))
        if endpoint is None or environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        if "HTTP_TRANSFER_ENCODING" in environ or self.app.debug:
            return None
        length, limit = environ.get("CONTENT_LENGTH", ""), self.app.config.get("MAX_CONTENT_LENGTH")
        if not (length.isascii() and length.isdigit()) or (limit is not None and int(length) > limit):
            return None
        return endpoint

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        endpoint = self.plain(environ)
        if endpoint is None:
            return self.wrapped(environ, start_response)
        # Its length was checked (plain): read as much, straight from the server.
        length = int(environ["CONTENT_LENGTH"])
        data = environ["wsgi.input"].read(length) if length else b""
        if len(data) != length:  # the client went away: Flask says so, as it would have
            environ["wsgi.input"] = io.BytesIO(data)
            return self.wrapped(environ, start_response)
        req = Request(environ)
        req.max_content_length = self.app.config.get("MAX_CONTENT_LENGTH")
        try:
            payload, status = answer(endpoint, req, self.app.logger, data)
        except Exception:
            # What answer() does not expect (it answers every refusal itself) is Flask's
            # to answer, as it would have been without this path: its error handlers,
            # in the request's language. The body read here is handed over as it came.
            environ["wsgi.input"] = io.BytesIO(data)
            return self.wrapped(environ, start_response)
        body = (self.encoder.encode(payload) + "\n").encode()
        headers = [("Content-Type", "application/json"), ("Vary", "Accept-Encoding")]
        how = compress.coding(req) if len(body) >= compress.MIN_SIZE else None
        if how is not None:
            body = compress.encode(body, how)
            headers.append(("Content-Encoding", how))
        headers.append(("Content-Length", str(len(body))))
        headers.extend(_SECURITY)
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}", headers)
        return [body]


def init_app(app: Flask) -> None:
    """Answer the rules API's plain requests before Flask sees them."""
    app.wsgi_app = LeanAPI(app, app.wsgi_app)  # type: ignore[method-assign]
