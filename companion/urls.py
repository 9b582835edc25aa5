"""Addresses in templates built once: ``url_for``'s answers kept per endpoint and arguments.

A page builds about twenty addresses (the stylesheets and scripts with their
fingerprints, the header's links, the outbox's, the footer's forms, each game's and
round's links), each through the URL map and the ``url_defaults`` hooks: a tenth of a
page's time. An address is a pure function of its endpoint, its arguments and where
the app is mounted (``SCRIPT_NAME``), as long as the URL map and the static files do
not change — they do not once the app runs, except in debug mode, where nothing is
kept. Only templates use this ``url_for``; the views keep Flask's.

Not kept: a relative endpoint (``.show``: it depends on the blueprint of the request),
an address with a keyword of Flask's own (``_external``, ``_anchor``…) and arguments
that are not plain strings or numbers. At most :data:`KEPT` addresses are kept; then
they are forgotten and built again.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request

#: How many addresses are kept at most (a few hundred bytes each).
KEPT = 4096


def init_app(app: Flask) -> None:
    """Give templates a ``url_for`` that keeps what it built."""
    build = app.url_for
    kept: dict[tuple[Any, ...], str] = {}

    def url_for(endpoint: str, /, **values: Any) -> str:
        if app.debug or endpoint.startswith(".") or any(key.startswith("_") for key in values):
            return build(endpoint, **values)
        items = sorted(values.items())
        if not all(type(value) in (str, int) for _key, value in items):
            return build(endpoint, **values)
        key = (request.script_root, endpoint, *items)
        url = kept.get(key)
        if url is None:
            url = build(endpoint, **values)
            if len(kept) >= KEPT:
                kept.clear()
            kept[key] = url
        return url

    app.jinja_env.globals["url_for"] = url_for
