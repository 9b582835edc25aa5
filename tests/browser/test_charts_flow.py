"""Charts and a group's data in and out, on a phone-size Chromium (390×844, touch), in the
light and the dark theme.

A group built elsewhere (a throw-away app, through its pages: games of every kind) is
exported as JSON, imported here through the import page, and its game pages show
their charts; a crapouille game entered on the phone draws its totals and the line of
300 (seed 003). Every chart fits the phone, passes axe-core (WCAG 2 A/AA, contrast
included), opens its table; the exports download with their names."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_babel
import pytest
from playwright.sync_api import expect

from companion import create_app
from companion.extensions import db
from tests.browser.conftest import ARTIFACTS, keep, shoot
from tests.web.test_transfer import build_group

pytestmark = pytest.mark.browser

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
LONG = ("ÉléonoreÀçÿŒæÏôÛùÈêËüÂ" * 3)[:60]


@pytest.fixture(scope="module")
def axe() -> Any:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        message = "axe-playwright-python is not installed (pip install -e '.[test]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return Axe()


@pytest.fixture(scope="module")
def export_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The JSON export of a group built through the pages of a throw-away app."""
    folder = tmp_path_factory.mktemp("export")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "builder",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'built.sqlite3'}",
        }
    )
    app.before_request(flask_babel.refresh)
    with app.app_context():
        db.create_all()
        client = app.test_client()
        built = build_group(client)
        content = client.get(f"/g/{built['group'].code}/export.json").get_data()
        db.session.remove()
        db.engine.dispose()
    path = folder / "les-amis.json"
    path.write_bytes(content)
    yield path


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def _theme(page: Any, theme: str) -> None:
    page.locator(f"footer button[name=theme][value={theme}]").click()
    page.wait_for_selector(f"html[data-theme={theme}]")


def _check_chart(page: Any, axe: Any, name: str) -> None:
    """The chart is drawn within the phone, named, with its table; axe finds nothing, in both themes."""
    chart = page.locator("section.chart")
    expect(chart).to_have_count(1)
    svg = chart.locator("svg.chart-svg")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["width"] >= 330 and box["height"] >= 200  # big enough to read on the phone
    outer, figure = chart.bounding_box(), chart.locator("figure").bounding_box()
    assert outer is not None and figure is not None
    assert figure["x"] >= outer["x"] and figure["x"] + figure["width"] <= outer["x"] + outer["width"] + 0.5, (
        outer,
        figure,
    )
    # Tick labels at least 12 px high as drawn.
    label = chart.locator(".chart-text text").first.bounding_box()
    assert label is not None and label["height"] >= 12
    summary = chart.locator(".chart-summary")
    assert summary.inner_text().strip()
    assert svg.get_attribute("role") == "img"
    chart.locator("details.chart-table > summary").click()
    expect(chart.locator("table.chart-figures")).to_be_visible()
    for theme in ("light", "dark"):
        _theme(page, theme)
        chart.scroll_into_view_if_needed()
        assert _fits(page), f"{name} {theme}: wider than the phone"
        # Each series' line has its colour from the stylesheet, not the default black.
        stroke = chart.locator("svg.chart-svg .series-1 .chart-line").evaluate("e => getComputedStyle(e).stroke")
        assert stroke not in ("none", "rgb(0, 0, 0)"), stroke
        results = axe.run(
            page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
        )
        violations = results.response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        shoot(page, f"chart-{name}-{theme}")
        keep(chart, ARTIFACTS / f"chart-{name}-{theme}-close.png")


def test_an_exported_group_imported_on_the_phone_shows_its_charts(live_server, phone, axe, export_file, tmp_path):
    page = phone
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    # Import the group's file as a new group.
    page.goto(live_server + "/import")
    assert _fits(page)
    page.get_by_label("Nom du groupe").fill("Les Amis (copie)")
    page.get_by_label("Phrase secrète", exact=True).fill("sept de pique")
    page.get_by_label("Phrase secrète (encore)").fill("sept de pique")
    page.locator("input[type=file]").set_input_files(str(export_file))
    for theme in ("light", "dark"):
        _theme(page, theme)
        shoot(page, f"import-{theme}")
        results = axe.run(
            page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
        )
        assert not results.response["violations"], results.response["violations"]
    # The theme switch reloaded the page: the form is filled again (the file too).
    page.get_by_label("Nom du groupe").fill("Les Amis (copie)")
    page.get_by_label("Phrase secrète", exact=True).fill("sept de pique")
    page.get_by_label("Phrase secrète (encore)").fill("sept de pique")
    page.locator("input[type=file]").set_input_files(str(export_file))
    page.locator("main form input[type=submit]").click()
    page.locator("strong.code").wait_for()
    code = page.locator("strong.code").inner_text()
    assert "Les Amis (copie)" in page.locator("h1").inner_text()

    # The copy's games, by kind, from its own export.
    document = json.loads(page.request.get(f"{live_server}/g/{code}/export.json").body())
    games = {(g["kind"], len(g["seats"]), g["status"]): g["id"] for g in document["games"]}
    for name, key in (
        ("crapouille", ("crapouille", 3, "finished")),
        ("whist", ("whist-tarot", 3, "in_progress")),
        ("president", ("president", 4, "finished")),
    ):
        page.goto(f"{live_server}/g/{code}/games/{games[key]}")
        _check_chart(page, axe, name)
    # Piketty without points has no chart.
    page.goto(f"{live_server}/g/{code}/games/{games[('piketty', 4, 'in_progress')]}")
    expect(page.locator("section.chart")).to_have_count(0)

    # The exports download with their names; the CSV has its byte order mark and semicolons.
    page.goto(f"{live_server}/g/{code}/export")
    assert _fits(page)
    for theme in ("light", "dark"):
        _theme(page, theme)
        shoot(page, f"export-{theme}")
        results = axe.run(
            page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
        )
        assert not results.response["violations"], results.response["violations"]
    with page.expect_download() as download:
        page.locator("section.panel a", has_text="CSV").click()
    csv_file = download.value
    assert re.fullmatch(r"companion-les-amis-copie-\d{4}-\d\d-\d\d\.csv", csv_file.suggested_filename)
    saved = tmp_path / csv_file.suggested_filename
    csv_file.save_as(saved)
    content = saved.read_bytes()
    assert content.startswith(b"\xef\xbb\xbf") and b";" in content.splitlines()[0]
    with page.expect_download() as download:
        page.locator("section.panel a", has_text="JSON").click()
    assert download.value.suggested_filename.endswith(".json")
    assert not problems, problems


def test_a_crapouille_game_on_the_phone_draws_the_line_of_300(live_server, phone, axe):
    # seed 003: past 300 points, a player is out.
    page = phone
    page.goto(live_server + "/groups/new")
    page.get_by_label("Nom du groupe").fill("Crapouilleurs")
    page.get_by_label("Phrase secrète", exact=True).fill("huit de cœur")
    page.get_by_label("Phrase secrète (encore)").fill("huit de cœur")
    page.get_by_role("button", name="Créer le groupe").click()
    page.get_by_text("Groupe créé.").wait_for()
    code = page.locator("strong.code").inner_text()
    page.goto(f"{live_server}/g/{code}/players")
    names = ("Ann", "Bob", "Cid", LONG)
    for name in names:
        page.get_by_label("Nom", exact=True).fill(name)
        page.get_by_role("button", name="Ajouter").click()
        page.get_by_text(f"{name} a rejoint le groupe.").wait_for()
    page.goto(f"{live_server}/g/{code}/games/new/crapouille")
    for name in names:
        page.locator(".tap-order-choice", has_text=name).click()
    page.locator("main form input[type=submit]").click()
    page.locator("#totals").wait_for()
    expect(page.locator("section.chart")).to_have_count(0)  # no hand yet
    game_url = page.url.split("#")[0]

    hands = [
        ("Ann", {"Bob": "120", "Cid": "45", LONG: "60"}),
        ("Cid", {"Ann": "30", "Bob": "95", LONG: "80"}),
        (LONG, {"Ann": "25", "Bob": "100", "Cid": "10"}),  # Bob: 315, out
        ("Ann", {"Cid": "70", LONG: "90"}),
    ]
    for winner, entries in hands:
        page.goto(game_url)
        page.get_by_role("link", name=re.compile(r"^Saisir la donne")).click()
        page.locator("fieldset.winner label", has_text=winner).click()
        for name, total in entries.items():
            fieldset = page.locator("fieldset.player", has=page.locator("legend", has_text=name))
            fieldset.locator(".total-input").fill(total)
        page.get_by_role("button", name="Enregistrer la donne").click()
        page.locator("#totals").wait_for()
    chart = page.locator("section.chart")
    expect(chart.locator(".chart-summary")).to_contain_text("Bob")
    expect(chart.locator(".chart-reference text")).to_contain_text("300")
    expect(chart.locator(".chart-legend li")).to_have_count(4)
    _check_chart(page, axe, "crapouille-long-names")
