"""Responses compressed by the app itself, so that a page reaches a phone on a weak
network in a few kilobytes, whatever stands in front of the app (nginx may compress
too: it then finds the answer already encoded and leaves it alone).

- **What.** A response of a text type (HTML, CSS, JavaScript, JSON, SVG, the web
  manifest) of at least :data:`MIN_SIZE` bytes, when the request's ``Accept-Encoding``
  allows brotli or gzip: brotli when the client accepts both equally (it is smaller),
  else the one it prefers. Such a response always says ``Vary: Accept-Encoding``,
  compressed or not, so that no cache hands one client's encoding to another.
- **Left alone.** A 304 (no body), a 204 or a 206 (a range of the plain bytes), an
  answer already encoded, a stream (no length known beforehand) and any other
  ``direct_passthrough`` answer (a file sent as it is) — except the files of the
  static folder: those are compressed once per version of the file (at brotli's best
  quality: it is paid once) and kept in memory.
- **ETags.** A compressed answer is another representation, so its ETag is the plain
  one with ``-br`` or ``-gzip`` added (weak if it was). A conditional GET naming that
  ETag is answered 304 here, as the view answers one naming the plain ETag (a static
  file revalidated by a phone that holds its compressed copy). The live pages' watch
  endpoints (:mod:`companion.watch`) compare the token they are sent themselves, and
  their answers are too small to be compressed anyway.
- **Cost.** A 58 KB game page (Président, 30 manches) takes 0.13 ms of CPU with brotli
  at quality 2 (7.4 KB), 0.2 ms with gzip at level 4 (8.1 KB) — quality 4 would save
  half a kilobyte for twice the CPU, gzip 6 one more for twice again, each a tenth of
  the page's own time; a static file costs nothing after its first
  request. Text of 500 bytes or more comes out smaller (a page by 85%).

It runs after every ``after_request`` hook and the session's cookie (it wraps the app's
``process_response``), so the body it compresses is the one that is sent.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Callable
from functools import lru_cache

import brotli
from flask import Flask, request
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Request, Response

#: The types worth compressing: text, all of them.
TYPES = frozenset(
    {
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
        "text/plain",
        "text/csv",
    }
)
#: Below this many bytes compressing saves less than it costs (headers, CPU).
MIN_SIZE = 500
GZIP_LEVEL = 4  # per request (see Cost above)
BROTLI_QUALITY = 2  # per request: about the size of gzip 6 for a third of its CPU
BROTLI_QUALITY_STATIC = 11  # once per static file
#: The static files' compressed bodies kept, by the ETag of the compressed answer.
_static: dict[str, bytes] = {}
_STATIC_MAX = 256
_lock = threading.Lock()


def coding(req: Request | None = None) -> str | None:
    """The coding ``req`` (by default the current request) accepts best: ``"br"``,
    ``"gzip"`` or None. A ``q=0`` refuses one; ``*`` accepts both."""
    header = (request if req is None else req).environ.get("HTTP_ACCEPT_ENCODING", "")
    return _best(header) if len(header) <= 200 else _best.__wrapped__(header)  # an odd one is not kept


@lru_cache(maxsize=256)
def _best(header: str) -> str | None:
    """:func:`coding` of an ``Accept-Encoding`` header: a handful of browsers send a
    handful of values, each parsed once."""
    accepted = parse_accept_header(header)
    br, gz = accepted.quality("br"), accepted.quality("gzip")
    if max(br, gz) <= 0:
        return None
    return "br" if br >= gz else "gzip"


def encode(data: bytes, how: str, static: bool = False) -> bytes:
    """``data`` compressed with ``how`` (``"br"`` or ``"gzip"``)."""
    if how == "br":
        return bytes(brotli.compress(data, quality=BROTLI_QUALITY_STATIC if static else BROTLI_QUALITY))
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def _static_body(response: Response, tag: str, how: str) -> bytes:
    """A static file's body compressed with ``how``, read and compressed once per
    version of the file (its ETag, ``tag``, names it) and then kept in memory."""
    body = _static.get(tag)
    if body is None:
        body = encode(b"".join(response.iter_encoded()), how, static=True)
        with _lock:
            if len(_static) >= _STATIC_MAX:
                _static.clear()
            _static[tag] = body
    return body


def _drop_body(response: Response) -> None:
    close = getattr(response.response, "close", None)
    if close is not None:
        close()  # a file's handle, once read (or not needed)
    response.direct_passthrough = False
    response.response = []


def compress(response: Response) -> Response:
    """``response`` compressed for this request when it is worth it (see the module)."""
    if response.mimetype not in TYPES:
        return response
    response.vary.add("Accept-Encoding")
    status = response.status_code
    if status < 200 or status in (204, 206, 304) or "Content-Encoding" in response.headers:
        return response
    if response.direct_passthrough:
        if request.endpoint != "static":
            return response  # a file sent as it is
        length = response.content_length or 0
    elif response.is_streamed:
        return response
    else:
        length = len(response.get_data())
    if length < MIN_SIZE:
        return response
    how = coding()  # parsing Accept-Encoding costs more than the checks above: last
    if how is None:
        return response
    plain_tag, weak = response.get_etag()
    tag = None if plain_tag is None else f"{plain_tag}-{how}"
    response.headers.pop("Accept-Ranges", None)  # a range would be of the plain bytes
    if tag is not None:
        response.set_etag(tag, weak)
        if request.method in ("GET", "HEAD") and request.if_none_match.contains_weak(tag):
            # The client holds this very representation already.
            _drop_body(response)
            response.status_code = 304
            return response
    if response.direct_passthrough and tag is not None:
        body = _static_body(response, tag, how)
    else:
        body = encode(b"".join(response.iter_encoded()), how)
    _drop_body(response)
    response.set_data(body)
    response.headers["Content-Encoding"] = how
    return response


def init_app(app: Flask) -> None:
    """Compress every response on its way out, after everything else touched it."""
    process: Callable[[Response], Response] = app.process_response

    def process_response(response: Response) -> Response:
        return compress(process(response))

    app.process_response = process_response  # type: ignore[method-assign]
