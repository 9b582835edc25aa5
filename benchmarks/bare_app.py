"""A bare Flask app: the baselines ``benchmarks/http.py`` measures Companion against.

Three endpoints, each as little as Flask itself needs to do one kind of work:

- ``/hello``: a string (the baseline of the JSON API);
- ``/template``: a Jinja page shaped like one of Companion's (a base layout with a
  head, a header, a footer and blocks; a page that extends it, a macro, a table of 30
  rows, a form with hidden fields), without anything of Companion's (the baseline of
  the pages);
- ``/bytes``: the bytes of the ``/template`` page, rendered once when the app is made
  and returned from memory by a trivial view (Flask and gunicorn without the template);
- ``/row``: one row read with Flask-SQLAlchemy from the database given by
  ``DATABASE_URL`` (the baseline of a round saved).

Run it as ``gunicorn 'benchmarks.bare_app:create_app()'`` from the repository's root,
after :func:`create_table` has made its one table in that database.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py bears the name of the standard library's http package: run as a
# script, this folder must not come first on the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.dirname(os.path.abspath(__file__))]

import statistics
import time

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Flask, Response, render_template
from flask_sqlalchemy import SQLAlchemy
from jinja2 import DictLoader

BASE = """<!doctype html>
<html lang="fr">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="{{ description }}">
  <title>{% block title %}{% endblock %} · Bare</title>
  <link rel="stylesheet" href="{{ url_for('static', filename='style.css') }}">
</head>
<body data-wake="1">
  <header class="bar"><a class="brand" href="{{ url_for('hello') }}">♠ Bare</a>
    <a class="crumb" href="{{ url_for('template') }}">{{ group }}</a></header>
  <main id="main">{% block main %}{% endblock %}</main>
  <footer><form method="post" action="{{ url_for('hello') }}">
    <input type="hidden" name="csrf_token" value="{{ token }}">
    {% for lang in ("fr", "en") %}<button name="lang" value="{{ lang }}">{{ lang | upper }}</button>{% endfor %}
  </form></footer>
  <script src="{{ url_for('static', filename='app.js') }}" defer></script>
</body>
</html>
"""

PAGE = """{% extends "base.html" %}
{% macro cell(value, total) -%}
  <td class="{{ 'out' if total > 300 else 'in' }}">{{ value }}</td>
{%- endmacro %}
{% block title %}{{ title }}{% endblock %}
{% block main %}
<h1>{{ title }}</h1>
<p class="lead">{{ rows | length }} rounds · {{ players | join(", ") }}</p>
<table class="rounds">
  <thead><tr><th>#</th>{% for p in players %}<th scope="col">{{ p }}</th>{% endfor %}</tr></thead>
  <tbody>
  {% for row in rows %}
    <tr id="round-{{ row.number }}"><th scope="row">{{ row.number }}</th>
    {% for p in players %}{{ cell(row.points[p], row.totals[p]) }}{% endfor %}</tr>
  {% endfor %}
  </tbody>
</table>
<form method="post" action="{{ url_for('template') }}">
  <input type="hidden" name="round" value="{{ rows | length + 1 }}">
  {% for p in players %}<label>{{ p }} <input name="total_{{ loop.index }}" inputmode="numeric"></label>{% endfor %}
  <button>Save</button>
</form>
{% endblock %}
"""

#: The same page with the cell written inline: what the macro calls cost is the
#: difference (:func:`render_times`).
PAGE_INLINE = PAGE.replace(
    "{{ cell(row.points[p], row.totals[p]) }}",
    "<td class=\"{{ 'out' if row.totals[p] > 300 else 'in' }}\">{{ row.points[p] }}</td>",
)
assert PAGE_INLINE != PAGE

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
ROWS = [
    {
        "number": n,
        "points": {p: (n * 7 + i * 13) % 25 for i, p in enumerate(PLAYERS)},
        "totals": {p: n * ((n * 7 + i * 13) % 25) // 2 for i, p in enumerate(PLAYERS)},
    }
    for n in range(1, 31)
]


class Base(so.DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


class BareRow(db.Model):
    """The one table of the bare app (its own, in Companion's database or schema)."""

    __tablename__ = "bare_rows"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    total: so.Mapped[int]


def _url(url: str | None) -> str:
    """``url`` or ``DATABASE_URL``; ``postgresql://`` goes through psycopg 3, as in Companion."""
    url = url or os.environ["DATABASE_URL"]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def create_app(url: str | None = None) -> Flask:
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = _url(url)
    app.jinja_loader = DictLoader({"base.html": BASE, "page.html": PAGE, "inline.html": PAGE_INLINE})
    db.init_app(app)

    @app.get("/hello")
    def hello() -> str:
        return "Hello, World!"

    @app.get("/template")
    def template() -> str:
        return render_page()

    with app.test_request_context("/template"):
        page = render_page().encode()

    @app.get("/bytes")
    def from_memory() -> Response:
        return Response(page, content_type="text/html; charset=utf-8")

    @app.get("/row")
    def row() -> str:
        found = db.session.get(BareRow, 1)
        assert found is not None
        return f"{found.name}: {found.total}"

    return app


def render_page(template: str = "page.html") -> str:
    """The ``/template`` page (``inline.html``: the same without the macro)."""
    return render_template(
        template,
        title="La crapouille",
        description="A bare page",
        group="Les Amis",
        token="0123456789abcdef" * 4,
        players=PLAYERS,
        rows=ROWS,
    )


def render_times(repeat: int = 200, rounds: int = 7) -> tuple[float, float, int, int]:
    """In process, the median over ``rounds`` of the seconds one render of the
    ``/template`` page takes, and of the same page with its cell macro written inline
    (what the macro calls cost is the difference); the macro calls of one render, and
    the page's bytes."""
    app = create_app("sqlite://")
    times: dict[str, list[float]] = {"page.html": [], "inline.html": []}
    with app.test_request_context("/template"):
        size = len(render_page().encode())
        assert render_page("inline.html") == render_page(), "the inline page is the same page"
        for _ in range(rounds):
            for name, runs in times.items():
                start = time.perf_counter()
                for _ in range(repeat):
                    render_page(name)
                runs.append((time.perf_counter() - start) / repeat)
    calls = len(ROWS) * len(PLAYERS)
    return statistics.median(times["page.html"]), statistics.median(times["inline.html"]), calls, size


def create_table(url: str) -> None:
    """The bare app's table in the database at ``url``, with its one row."""
    app = create_app(url)
    with app.app_context():
        db.create_all()
        db.session.add(BareRow(id=1, name="Ann", total=42))
        db.session.commit()
        db.engine.dispose()
