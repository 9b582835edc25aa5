"""Charts drawn on the server (issue 12): the generic line chart, and the game pages'
charts of la crapouille (totals and the line of 300, seed 003), whist (stakes, seed
002) and le Président (points, seed 000), each with its text alternative and its table,
read from the stored rounds in one query whatever their number."""

from __future__ import annotations

import re

import flask_babel
import pytest
from flask import Flask

from companion import charts
from companion.extensions import db
from companion.models import Game
from companion.pagecache import page_cache
from tests.helpers import add_players, count_queries, create_group, html, start_crapouille
from tests.web.test_transfer import _deal, _hand, _manche, _start, build_group, fr

# ----------------------------------------------------------------- the drawing


def _chart(app: Flask, series, **options) -> charts.Chart:
    with app.test_request_context():
        flask_babel.refresh()
        return charts.line_chart(series, x_label="Hand", y_label="Total", title="T", summary="S", **options)


def test_every_one_of_twelve_series_has_its_own_look_besides_its_colour():
    looks = set()
    for i in range(12):
        chart_line = charts.line_chart(
            [(str(j), [(0, j), (1, j + 1)]) for j in range(12)], x_label="x", y_label="y", title="t", summary="s"
        ).lines[i]
        shape = chart_line.markers[0].split("Z")[0]
        # Marker shape (relative to its point), filled or hollow, dash: never twice the same.
        outline = re.sub(r"[-\d.]+", "#", shape)
        looks.add((outline, "hollow" in chart_line.css, chart_line.dash))
    assert len(looks) == 12


def test_scales_ticks_reference_and_table(app):
    chart = _chart(app, [("Ann", [(0, 0), (1, 120), (2, 310)]), ("Bob", [(0, 0), (1, 30)])], reference=(300, "300"))
    assert [t.label for t in chart.y_ticks] == ["0", "100", "200", "300", "400"]
    # The y ticks span the plot from bottom to top; the reference sits at the 300 tick.
    assert chart.y_ticks[0].at == chart.bottom and chart.y_ticks[-1].at == chart.top
    assert chart.reference is not None and chart.reference.y == chart.y_ticks[3].at
    assert [t.label for t in chart.x_ticks] == ["0", "1", "2"]
    assert chart.x_ticks[0].at == chart.left and chart.x_ticks[-1].at == chart.right
    # Ann's line goes through (1, 120): a quarter of the way from 0 to 400 up, halfway across.
    ann = chart.lines[0].path
    x1 = chart.left + (chart.right - chart.left) / 2
    y1 = chart.bottom - (chart.bottom - chart.top) * 120 / 400
    assert f"L{x1:.1f} {y1:.1f}" in ann
    assert chart.columns == ("Ann", "Bob")
    assert chart.rows == (("0", ("0", "0")), ("1", ("120", "30")), ("2", ("310", "–")))
    assert chart.width == 358  # one unit per CSS pixel on a 390 px phone


def test_many_points_keep_few_markers_and_names_replace_numbers(app):
    points = [(x, x % 7) for x in range(0, 101)]
    chart = _chart(app, [("Ann", points)], x_names={0: "début"})
    assert len(chart.lines[0].markers) <= charts.MARKERS_MAX + 1
    assert chart.lines[0].path.count("L") == 100  # every point is on the line
    assert chart.x_ticks[0].label == "début" and len(chart.x_ticks) <= 8
    assert chart.rows[0][0] == "début"


def test_figures_are_written_in_the_pages_language(app):
    for lang, expected in (("fr", ("27,5", "-3", "1200")), ("en", ("27.5", "-3", "1200"))):
        with app.test_request_context(headers={"Accept-Language": lang}):
            flask_babel.refresh()
            assert (charts.number(27.46), charts.number(-3), charts.number(1200)) == expected
    flask_babel.refresh()


# ----------------------------------------------------------------- the game pages


def _section(page: str) -> str:
    found = re.search(r'<section class="chart".*?</section>', page, re.S)
    assert found, "no chart"
    return found.group(0)


def _table(section: str) -> list[list[str]]:
    rows = re.findall(r"<tr>(.*?)</tr>", section, re.S)
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in rows]


def _accessible(section: str) -> None:
    """role="img" named by its title and the visible sentence; no inline style."""
    svg = re.search(r"<svg class=\"chart-svg\"[^>]*>", section).group(0)
    assert 'role="img"' in svg
    labelled = re.search(r'aria-labelledby="([^"]+)"', svg).group(1).split()
    for element_id in labelled:
        assert f'id="{element_id}"' in section
    assert "style=" not in section
    assert "<details" in section and "<table" in section


def test_crapouille_page_draws_totals_with_the_300_line(app, client):
    # seed 003: whoever goes past 300 is out.
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game = start_crapouille(client, group, [ann, bob, cid])
    _hand(client, group, game, 1, ann, **{str(bob.id): "120", str(cid.id): "30"})
    _hand(client, group, game, 2, cid, **{str(ann.id): "30", str(bob.id): "190"})  # Bob 310: out
    _hand(client, group, game, 3, cid, **{str(ann.id): "100"})
    page = html(client.get(f"/g/{group.code}/games/{game}"))
    assert 'href="/static/charts.css?v=' in page
    section = _section(page)
    _accessible(section)
    assert fr(app, "Totals hand by hand") in section
    summary = re.search(r'class="chart-summary"[^>]*>(.*?)</p>', section).group(1)
    assert fr(app, "%(name)s goes past %(limit)d at hand %(n)d.", name="Bob", limit=300, n=2) in summary
    assert fr(app, "Lowest total: %(names)s, %(total)d.", names="Cid", total=30) in summary
    table = _table(section)
    assert table[0] == [fr(app, "Hand"), "Ann", "Bob", "Cid"]
    assert table[1:] == [
        [fr(app, "start"), "0", "0", "0"],
        ["1", "0", "120", "30"],
        ["2", "30", "310", "30"],
        ["3", "130", "–", "30"],  # Bob is out: his line stops at hand 2
    ]
    assert section.count('class="series series-') == 3 and 'class="chart-reference"' in section
    assert fr(app, "%(limit)d: out", limit=300) in section


def test_the_game_page_reads_every_round_in_one_query_whatever_their_number(app, client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game = start_crapouille(client, group, [ann, bob])
    url = f"/g/{group.code}/games/{game}"
    counts = {}
    for number in range(1, 31):
        _hand(client, group, game, number, ann if number % 2 else bob, **{str(bob.id if number % 2 else ann.id): "9"})
        if number in (3, 30):
            page_cache().clear()  # drawn afresh both times (a copy kept at an older version is one query more)
            with count_queries() as statements:
                assert client.get(url).status_code == 200
            counts[number] = statements
    # More rounds than the page lists (20): the chart still has all 30, read at once.
    assert len(counts[3]) == len(counts[30])
    chart_reads = [s for s in counts[30] if "rounds" in s and ("json" in s.lower() or "->" in s)]
    assert len(chart_reads) == 1
    rows = _table(_section(html(client.get(url))))
    assert len(rows) == 1 + 31 and rows[-1] == ["30", "135", "135"]
    # The round forms do not draw (nor read) it.
    with count_queries() as statements:
        assert client.get(url + "/rounds/new").status_code == 200
    assert not [s for s in statements if "json" in s.lower() or "->" in s]


def test_whist_page_draws_the_stakes_but_not_a_deal_waiting_for_its_tricks(app, client):
    # seed 002: 14 cards of stake each; every trick off costs a card.
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    game = _start(client, group, "whist-tarot", [ann, bob, cid])
    url = f"/g/{group.code}/games/{game}"
    _deal(client, group, game, 1, {bob: 2, cid: 1, ann: 1})
    assert '<section class="chart"' not in html(client.get(url))  # nothing settled yet
    client.post(
        f"{url}/rounds/1/edit",
        data={"round": "1"}
        | {f"bid_{p.id}": str(v) for p, v in {bob: 2, cid: 1, ann: 1}.items()}
        | {f"tricks_{p.id}": str(v) for p, v in {bob: 2, cid: 2, ann: 1}.items()},
    )
    _deal(client, group, game, 2, {bob: 1, cid: 1, ann: 0}, {bob: 1, cid: 3, ann: 0})
    _deal(client, group, game, 3, {bob: 0, cid: 0, ann: 0})  # waiting for its tricks
    section = _section(html(client.get(url)))
    _accessible(section)
    table = _table(section)
    assert table[0] == [fr(app, "Hand"), "Ann", "Bob", "Cid"]
    assert table[1:] == [[fr(app, "start"), "14", "14", "14"], ["1", "14", "14", "13"], ["2", "14", "14", "11"]]
    assert fr(app, "Stakes now: %(list)s.", list="Ann 14, Bob 14, Cid 11") in section
    assert 'class="chart-reference"' not in section


def test_president_page_draws_points_only_when_they_are_counted(app, client):
    # seed 000: the Président scores players − 1 points, the next one less, down to 0.
    group = create_group(client)
    ann, bob, cid, dan = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    game = _start(client, group, "president", [ann, bob, cid, dan], target="25", titles="classic", rule_points="y")
    _manche(client, group, game, 1, [dan, cid, bob])
    _manche(client, group, game, 2, [ann, bob, cid])
    section = _section(html(client.get(f"/g/{group.code}/games/{game}")))
    _accessible(section)
    assert _table(section)[1:] == [
        [fr(app, "start"), "0", "0", "0", "0"],
        ["1", "0", "1", "2", "3"],
        ["2", "3", "3", "3", "3"],
    ]
    assert fr(app, "Most points: %(names)s, %(total)d.", names="Ann, Bob, Cid, Dan", total=3) in section
    plain = _start(client, group, "president", [ann, bob, cid], target="25", titles="classic")
    _manche(client, group, plain, 1, [ann, bob])
    assert '<section class="chart"' not in html(client.get(f"/g/{group.code}/games/{plain}"))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_chart_of_a_built_group_is_well_formed(client, lang):
    built = build_group(client)
    group = built["group"]
    shown = 0
    for game_id in built["games"].values():
        page = html(client.get(f"/g/{group.code}/games/{game_id}", headers={"Accept-Language": lang}))
        for section in re.findall(r'<section class="chart".*?</section>', page, re.S):
            _accessible(section)
            shown += 1
            table = _table(section)
            game = db.session.get(Game, game_id)
            assert table[0][1:] == [p.name for p in game.players]
            # Every number of the table is on the chart: as many markers (or fewer, never more) as cells.
            assert all(len(row) == len(table[0]) for row in table)
    assert shown == 5


def test_a_flat_chart_of_whole_numbers_has_whole_ticks(app):
    # A Piketty game counting points after its card draw alone: every total is 0 (seed 001).
    chart = _chart(app, [("Ann", [(0, 0), (1, 0)]), ("Bob", [(0, 0), (1, 0)])])
    assert [t.label for t in chart.y_ticks] == ["-1", "0", "1"]
    assert chart.lines[0].path == chart.lines[1].path  # both lines lie at 0, told apart by their look
    assert chart.lines[0].dash != chart.lines[1].dash


def test_no_chart_before_a_round_scores_on_any_kind(app, client):
    """After Piketty's card draw (seed 001: the first titles are drawn; the draw scores
    nothing) the page draws no chart, nor an empty frame, until a manche is played; the
    other kinds draw none before their first round (whist: before its first tricks)."""
    group = create_group(client)
    players = add_players(client, group, "Ann", "Bob", "Cid", "Dan")
    ann, bob, cid, dan = players
    url = f"/g/{group.code}/games/"
    piketty = _start(client, group, "piketty", players, target="25", titles="classic", rule_points="y")
    assert '<section class="chart"' not in html(client.get(f"{url}{piketty}"))
    draw = {"round": "1"} | {f"draw_{p.id}": card for p, card in zip(players, ("R♠", "A♦", "2♣", "9♥"), strict=True)}
    assert client.post(f"{url}{piketty}/rounds/new", data=draw).status_code == 302
    page = html(client.get(f"{url}{piketty}"))
    assert "chart" not in page[page.index("<main") : page.index("</main>")]
    _manche(client, group, piketty, 2, [bob, ann, dan])
    section = _section(html(client.get(f"{url}{piketty}")))
    assert _table(section)[1][0] == fr(app, "start") and [row[0] for row in _table(section)[1:]] == [
        fr(app, "start"),
        "1",
    ]
    # Le Président with a first card draw: the same.
    president = _start(
        client, group, "president", players, target="25", titles="classic", rule_points="y", first="draw"
    )
    assert client.post(f"{url}{president}/rounds/new", data=draw).status_code == 302
    assert '<section class="chart"' not in html(client.get(f"{url}{president}"))
    # The crapouille and whist before their first round.
    crapouille = start_crapouille(client, group, [ann, bob])
    assert '<section class="chart"' not in html(client.get(f"{url}{crapouille}"))
    whist = _start(client, group, "whist-tarot", [ann, bob, cid])
    assert '<section class="chart"' not in html(client.get(f"{url}{whist}"))
