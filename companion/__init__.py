"""Companion: table-side referee and scorekeeper for French card games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request
from flask_compress import Compress

from companion import config, database, security
from companion.extensions import babel, csrf, db, migrate

ROOT = Path(__file__).resolve().parent.parent


def static_text_in_memory(response: Response) -> Response:
    """A static text file (a few KB) read whole, to be compressed as a page is: Flask-Compress
    compresses a file sent as a stream too, but leaves it open (an after_request hook)."""
    text = response.mimetype in current_app.config["COMPRESS_MIMETYPES"]
    if response.direct_passthrough and request.endpoint == "static" and text:
        response.direct_passthrough = False
        response.make_sequence()  # the file is closed with the response
    return response


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, error pages."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    # Before any route is added: ids in addresses stay within the database's integers.
    app.url_map.converters["int"] = security.DatabaseInt
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=config.database_url(app.instance_path),
        SECRET_KEY=config.secret_key(app.instance_path),
        BABEL_DEFAULT_LOCALE="fr",
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        # A phone joins a group once and comes back for months: the cookie lasts 180
        # days from the last visit (renewed once a day: companion.security). It only
        # holds a device token the server can revoke at any time (leaving, removal,
        # passphrase change).
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 180,
        SESSION_REFRESH_EACH_REQUEST=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=False,  # True over HTTPS anyway (companion.security)
        MAX_CONTENT_LENGTH=256 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
        TRUSTED_PROXIES=security.trusted_proxies(),
        GUESS_FREE_TRIES=4,
        GUESS_FREE_TRIES_ANY_CODE=20,
        # Phones that joined a group before, or hold a QR invitation, guess on their own
        # allowance (the two above); all of them behind one address share these too
        # (companion.groups.throttle).
        GUESS_FREE_TRIES_KNOWN=16,
        GUESS_FREE_TRIES_ANY_CODE_KNOWN=40,
        GROUPS_PER_HOUR=10,
        JOIN_TOKEN_MINUTES=10,  # how long a QR code to join a group stays valid
        PASSPHRASE_HASH_METHOD="scrypt",  # werkzeug's generate_password_hash method
        WATCH_EVERY_MS=1500,  # how often a live page asks whether it changed (static/watch.js)
        # Flask-Compress: text of 500 bytes or more, brotli else gzip; static files are sent as
        # streams, compressed as they go (its default leaves gzip out of those).
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_ALGORITHM_STREAMING=["br", "gzip"],
        COMPRESS_MIN_SIZE=500,
        COMPRESS_MIMETYPES=[
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/manifest+json",
            "image/svg+xml",
            "text/plain",
            "text/csv",
        ],
    )
    if test_config is not None:
        app.config.update(test_config)

    from companion import i18n
    from companion.clock import select_timezone
    from companion.i18n import select_locale

    db.init_app(app)
    database.init_app(app)  # SQLite's settings and BEGIN IMMEDIATE for writing requests
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone)
    i18n.init_app(app)  # templates' sentences, elided and typeset as French writes them

    from companion import api, display, errors, fingerprint, games, groups, main, offline, referee, watch

    # The first after_request hook, so the last to run: it compresses the final body
    # (the outbox's answer included) and adds Vary: Accept-Encoding.
    Compress(app)
    app.after_request(static_text_in_memory)  # just before Flask-Compress
    app.register_blueprint(main.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(watch.bp)
    app.register_blueprint(display.bp)
    csrf.exempt(api.bp)
    errors.init_app(app)
    security.init_app(app)
    offline.init_app(app)  # after security: its answers to the outbox get the headers too
    fingerprint.init_app(app)  # static files: a content hash in their address, a year of caching

    from companion import backup
    from companion.groups import transfer

    backup.init_app(app)  # flask backup / restore; a copy before `flask db upgrade` on SQLite
    transfer.init_app(app)  # flask clean-imports: what imports killed part way left

    from flask_babel import format_datetime, format_time

    from companion.clock import local_iso_here, zone_place_here
    from companion.games.kinds import kind_name, round_count_of, status_name
    from companion.games.standings import winner_names
    from companion.i18n import current_lang, current_theme, format_day
    from companion.rules.cards import Card

    app.jinja_env.add_extension("jinja2.ext.do")
    app.jinja_env.globals.update(
        current_lang=current_lang,
        current_theme=current_theme,
        kind_name=kind_name,
        round_count_of=round_count_of,
        status_name=status_name,
        format_date=format_day,
        format_datetime=format_datetime,
        format_time=format_time,
        local_iso=local_iso_here,
        zone_place=zone_place_here,
        winner_names=winner_names,
        card_of=lambda c: c if isinstance(c, Card) else Card.parse(str(c)),
    )

    from companion.undo import pending_undo

    app.context_processor(lambda: {"undo": pending_undo()})

    from companion import models  # noqa: F401  (registers the tables with the metadata)

    @app.teardown_request
    def end_transaction(error: BaseException | None) -> None:
        # Whatever a request left open ends with it: on SQLite a writing request's
        # transaction holds the write lock (companion.database), even for a read made
        # after its commit, and must not outlive the request. A request that never
        # opened a session (the rules API, static files) has nothing to end.
        if db.session.registry.has():
            db.session.rollback()
            # What a write kept past its commit (companion.writes.commit) is not kept
            # past the request, where the session outlives it (an app context held open).
            db.session.expire_all()

    return app
