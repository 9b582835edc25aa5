"""What every response carries and every request is checked for, whatever the page.

- **Behind proxies.** ``TRUSTED_PROXIES`` (default 0) is the number of reverse
  proxies in front of the app; with it, ProxyFix takes the client's address and
  scheme from their ``X-Forwarded-For`` / ``X-Forwarded-Proto``, so each person at
  a table is throttled on their own and cookies know they travel over HTTPS.
  Never set it higher than the proxies really there: a client could then choose
  the address it is throttled under.
- **Addresses.** A path or query string holding text no database stores (NUL, a
  control character, a lone surrogate) leads nowhere: 404, before any view runs; so
  does an id in a path past what the database's integer columns hold
  (:class:`DatabaseInt`).
- **Headers.** A Content-Security-Policy without ``unsafe-inline`` (scripts,
  styles and images only from this site; no framing), ``nosniff``, a
  same-origin referrer policy and a Permissions-Policy that turns off what the
  app never uses (the microphone is allowed to the app itself on the round forms
  only, where a line can be dictated: :data:`SPEAKING`).
- **Cookies.** ``HttpOnly`` and ``SameSite=Lax``, and ``Secure`` whenever the
  request came over HTTPS (directly or through a trusted proxy). The session cookie
  lasts 180 days from the last visit: an unchanged one is signed again once a day
  (:data:`RESIGN_AFTER`), not with every page. No answer under ``/t/`` (a table
  display's link: :data:`DISPLAY_PREFIX`) sets one, whatever its status.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, Request, abort, g, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers import Response

from companion.forms import storable

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "manifest-src 'self'",
        "worker-src 'self'",
    ]
)
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"
#: The same, with the microphone allowed to this site's own page: the round forms, where
#: a line can be dictated (their view sets it).
SPEAKING = PERMISSIONS.replace("microphone=()", "microphone=(self)")
#: What every response carries unless its view says otherwise: (name, name in lower case, value).
HEADERS = tuple(
    (name, name.lower(), value)
    for name, value in (
        ("Content-Security-Policy", CSP),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Permissions-Policy", PERMISSIONS),
        ("X-Frame-Options", "DENY"),
    )
)
#: Where the rules API lives (companion.api): no session there.
API_PREFIX = "/api/"
#: Where a table display answers through its link (companion.display): no cookie is set there.
DISPLAY_PREFIX = "/t/"
#: An unchanged session cookie is signed again (and its lifetime renewed) once this old.
RESIGN_AFTER = timedelta(days=1)


class DatabaseInt(IntegerConverter):
    """``<int:…>`` in the app's addresses: a whole number the database's integer
    columns hold (at most 2³¹ − 1). A larger one matches no route (404) instead of
    reaching a query that SQLite or PostgreSQL would refuse (a 500)."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**31 - 1)
        super().__init__(map, *args, **kwargs)


class SessionInterface(SecureCookieSessionInterface):
    """The signed cookie session, ``Secure`` whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        # The rules API needs no cookie (shared/API.md): its requests get an empty session,
        # without reading or verifying the cookie; never written, it sets no cookie either.
        if request.path.startswith(API_PREFIX) and app.secret_key:
            return self.session_class()
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            data, signed_at = signer.loads(
                cookie, max_age=int(app.permanent_session_lifetime.total_seconds()), return_timestamp=True
            )
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed_at  # type: ignore[attr-defined]
        return session

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        # Nothing under /t/ sets, renews or clears a cookie, whatever the answer (a page, a
        # poll, an error page, a refusal): a display link's screen carries nothing another
        # address of the app would read. The cookie a browser sends may be read there (who
        # is guessing: companion.groups.throttle); what it read is never written back.
        if request.path.startswith(DISPLAY_PREFIX):
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        # A live page's poll (companion.watch) sets ``quiet_session``: it comes every
        # 1.5 s, and needs no freshly signed cookie with each 304; pages renew it.
        if g.get("quiet_session") or not super().should_set_cookie(app, session):
            return False
        # Unchanged, a cookie is signed again (its lifetime counted again from now) once
        # it is a day old, not at every page: a day's difference over 180.
        signed_at = getattr(session, "signed_at", None)
        return signed_at is None or datetime.now(UTC) - signed_at >= RESIGN_AFTER


def trusted_proxies() -> int:
    """``TRUSTED_PROXIES`` from the environment (0 when unset or not a whole number)."""
    value = os.environ.get("TRUSTED_PROXIES", "0").strip()
    return int(value) if value.isascii() and value.isdigit() else 0


def init_app(app: Flask) -> None:
    """Install the proxy fix, the address check, the headers and the cookie policy."""
    proxies = int(app.config.get("TRUSTED_PROXIES", 0))
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies
        )
    app.session_interface = SessionInterface()

    @app.before_request
    def refuse_unstorable_addresses() -> None:
        values: list[Any] = [request.path, *request.args.keys(), *request.args.values()]
        if not all(storable(v) for v in values if isinstance(v, str)):
            abort(404)

    @app.after_request
    def security_headers(response: Response) -> Response:
        # As headers.setdefault for each, with one look at the headers already set.
        headers = response.headers
        present = {key.lower() for key, _ in headers}
        for key, lowered, value in HEADERS:
            if lowered not in present:
                headers.add(key, value)
        return response
