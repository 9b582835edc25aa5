"""Templates' addresses built once (companion.urls): the same as Flask's url_for, for
the app mounted anywhere, and never kept where they could differ."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, render_template_string, url_for

from companion import urls


def _both(app: Flask, endpoint: str, base: str = "", **values: Any) -> tuple[str, str]:
    kept = app.jinja_env.globals["url_for"]
    with app.test_request_context("/", base_url=f"http://localhost{base}"):
        return kept(endpoint, **values), url_for(endpoint, **values)


@pytest.mark.parametrize(
    ("endpoint", "values"),
    [
        ("static", {"filename": "style.css"}),
        ("static", {"filename": "nothing-such.css"}),
        ("main.home", {}),
        ("groups.show", {"code": "ABC123"}),
        ("games.show", {"code": "ABC123", "game_id": 7}),
        ("main.set_language", {"lang": "en"}),
        ("groups.show", {"code": "ABC123", "page": "2"}),  # an argument the rule lacks: a query string
    ],
)
def test_a_kept_address_is_flasks_own_wherever_the_app_is_mounted(app: Flask, endpoint: str, values: Any) -> None:
    for base in ("", "/cartes", "", "/autre/chemin", "/cartes"):
        kept, built = _both(app, endpoint, base, **values)
        assert kept == built and kept.startswith(f"{base}/")


def test_static_addresses_keep_their_fingerprint(app: Flask) -> None:
    kept, built = _both(app, "static", filename="style.css")
    assert "?v=" in kept and kept == built


def test_flasks_own_keywords_and_other_values_are_built_each_time(app: Flask) -> None:
    assert _both(app, "games.show", code="A", game_id=1, _anchor="totals")[0].endswith("#totals")
    kept, built = _both(app, "games.show", code="A", game_id=1, _external=True)
    assert kept == built and kept.startswith("http://localhost/")
    kept, built = _both(app, "groups.show", code="A", page=2.5)
    assert kept == built


def test_a_relative_endpoint_follows_the_request(app: Flask) -> None:
    """``.show`` is the blueprint's own: the same call names another address in each."""
    template = "{{ url_for('.show', code='ABC', game_id=1) }}"
    with app.test_request_context("/g/ABC/games/1/rounds/new"):  # the games blueprint
        assert render_template_string(template) == "/g/ABC/games/1"
    with app.test_request_context("/g/ABC/players"):  # the groups blueprint
        assert render_template_string(template) == "/g/ABC?game_id=1"


def test_past_the_bound_addresses_are_still_right(app: Flask) -> None:
    kept = app.jinja_env.globals["url_for"]
    with app.test_request_context("/"):
        for n in range(urls.KEPT + 10):
            assert kept("games.show", code="ABC", game_id=n) == f"/g/ABC/games/{n}"
        assert kept("games.show", code="ABC", game_id=3) == "/g/ABC/games/3"


def test_in_debug_mode_nothing_is_kept(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    original = app.url_for

    def counted(endpoint: str, /, **values: Any) -> str:
        built.append(endpoint)
        return original(endpoint, **values)

    monkeypatch.setattr(app, "url_for", counted)
    urls.init_app(app)  # over the counting url_for
    kept = app.jinja_env.globals["url_for"]
    with app.test_request_context("/"):
        kept("main.home"), kept("main.home")
        assert built == ["main.home"]
        app.debug = True
        kept("main.home"), kept("main.home")
        assert built == ["main.home"] * 3
