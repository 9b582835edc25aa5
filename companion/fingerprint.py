"""Static files fingerprinted and cached for a year.

Every ``url_for("static", filename=…)`` carries the file's content hash:
``/static/style.css?v=3f9a0c2d41be`` (a ``url_defaults`` hook, so templates, the web
manifest and the service worker's list of files all get the same address). A request
for a static file whose ``v`` is the hash of the file as it is now is answered with
``Cache-Control: public, max-age=31536000, immutable``: once the file changes, so does
its address, so a phone may keep it a year without asking again. Without ``v``, or
with an old one, the file is served as Flask serves it: ``no-cache``, revalidated with
its ETag (a 304 while unchanged).

The hashes are taken at start-up. A file changed while the app runs gets a new hash
where it is served (never a year of caching for bytes that are not the ones hashed)
and, in debug, in the addresses too; a production deployment restarts the app.

``/sw.js`` (:mod:`companion.offline`) is not a static file: it stays at the root,
``no-cache``, and its list of files names them by these fingerprinted addresses, the
very strings the pages use (the worker's cache is keyed by address).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from stat import S_ISREG
from typing import Any

from flask import Flask, current_app, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

#: The query parameter that holds a file's hash.
PARAM = "v"
A_YEAR = "public, max-age=31536000, immutable"


class Fingerprints:
    """Short content hashes of the files of a folder, by path relative to it."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._known: dict[str, tuple[tuple[int, int], str]] = {}
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                self.current(path.relative_to(folder).as_posix())

    def current(self, name: str) -> str | None:
        """The hash of the file as it is now (hashed again only when its modification
        time or size changed); None for a name that is not a file of the folder."""
        path = safe_join(self.folder, name)
        try:
            stat = os.stat(path) if path is not None else None
        except OSError:
            stat = None
        if path is None or stat is None or not S_ISREG(stat.st_mode):
            self._known.pop(name, None)
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = self._known.get(name)
        if known is None or known[0] != stamp:
            with open(path, "rb") as file:
                known = self._known[name] = (stamp, hashlib.sha256(file.read()).hexdigest()[:12])
        return known[1]

    def known(self, name: str) -> str | None:
        """The hash taken at start-up (or when first asked), without looking at the file."""
        known = self._known.get(name)
        return known[1] if known is not None else self.current(name)


def init_app(app: Flask) -> None:
    """Fingerprint the static files' addresses and cache fingerprinted ones for a year."""
    assert app.static_folder is not None
    prints = Fingerprints(app.static_folder)

    @app.url_defaults
    def fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and PARAM not in values and isinstance(values.get("filename"), str):
            name = values["filename"]
            digest = prints.current(name) if current_app.debug else prints.known(name)
            if digest is not None:
                values[PARAM] = digest

    @app.after_request
    def cache_for_a_year(response: Response) -> Response:
        if request.endpoint != "static":
            return response
        version = request.args.get(PARAM)
        if response.status_code in (200, 304) and version:
            name = (request.view_args or {}).get("filename")
            if isinstance(name, str) and version == prints.current(name):
                response.headers["Cache-Control"] = A_YEAR
        return response
