"""The table's clock (issue 22): every time a group's pages show is on the group's time
zone, and one definition of « la soirée » (the game night a game belongs to: the night
it started, 6:00 to 6:00 on the group's clock) is used by the history, the recap, the
player page and its chart, the season's rating and the exports. Played across midnight,
the cut-off hour and the change to summer time of 2026-03-29 in Europe/Paris (2:00 CET
became 3:00 CEST), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from html import unescape

import sqlalchemy as sa

from companion.clock import local_iso, night_of, valid_zone
from companion.collation import sorted_names
from companion.extensions import db
from companion.games import saving
from companion.groups import transfer
from companion.models import Game, GameChange, GameResult, Group, RatedMatch, RatingPoint, Round
from tests.helpers import add_players, create_group, html
from tests.web.test_standings import EN, crapouille_duel

SATURDAY, SUNDAY = date(2026, 3, 28), date(2026, 3, 29)


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


def _played(game_id: int, start: datetime, end: datetime) -> None:
    """Game ``game_id`` started at ``start``; its rounds, its end and its history at ``end``."""
    game = db.session.get(Game, game_id)
    game.created_at = start
    if game.finished_at is not None:
        game.finished_at = end
    for rnd in db.session.scalars(sa.select(Round).where(Round.game_id == game_id)):
        rnd.created_at = end
    for change in db.session.scalars(sa.select(GameChange).where(GameChange.game_id == game_id)):
        change.at = end
    saving.refresh([game_id])  # as every write to a game does, before its commit
    db.session.commit()


def _night(game_id: int) -> set[date]:
    """Every night stored of a game: its results' and its rated matches'."""
    db.session.expire_all()
    nights = set(db.session.scalars(sa.select(GameResult.night).where(GameResult.game_id == game_id)))
    return nights | set(db.session.scalars(sa.select(RatedMatch.night).where(RatedMatch.game_id == game_id)))


def _recap_games(client, group, day: date) -> set[int] | None:
    response = client.get(f"/g/{group.code}/evenings/{day.isoformat()}", headers=EN)
    if response.status_code == 404:
        return None
    assert response.status_code == 200
    return {int(n) for n in re.findall(r'data-game="(\d+)"', html(response))}


def _history_times(page: str) -> list[tuple[str, str]]:
    """The history's times: (datetime attribute, text shown)."""
    history = page[page.index('<ul class="history">') :]
    return re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', history[: history.index("</ul>")])


def _evenings(page: str) -> tuple[int, int]:
    """The player page's evenings (best and worst shown, or the sentence) and its chart's points."""
    table = page[page.index('<table class="chart-figures">') :]
    points = len(re.findall(r'<th scope="row">', table[: table.index("</table>")]))
    if "One game night so far." in page:
        return 1, points
    return len(re.findall(r"data-evening=", page)), points


def test_every_page_puts_a_game_in_the_same_evening_across_midnight_the_cut_off_and_summer_time(client):
    group = create_group(client)
    ann, bob, cid = add_players(client, group, "Ann", "Bob", "Cid")
    games = {key: crapouille_duel(client, group, ann, bob) for key in ("early", "late", "midnight", "dawn", "day")}
    # Cid plays Saturday only, before the others: 20:00 to 21:00, five games against Bob.
    for n in range(5):
        _played(crapouille_duel(client, group, cid, bob), utc(28, 19, 10 * n), utc(28, 19, 10 * n + 5))
    # Saturday evening, Paris (CET, UTC+1): 22:30 to 23:10; 23:20; across midnight (23:50 to 0:40).
    _played(games["early"], utc(28, 21, 30), utc(28, 22, 10))
    _played(games["late"], utc(28, 22, 20), utc(28, 22, 50))
    _played(games["midnight"], utc(28, 22, 50), utc(28, 23, 40))
    # After the change to summer time (CEST, UTC+2): started at 5:50, ended at 6:20 —
    # across the cut-off: the game belongs, whole, to Saturday's evening.
    _played(games["dawn"], utc(29, 3, 50), utc(29, 4, 20))
    # Started at 6:05 CEST: Sunday's (on a clock a winter hour behind it would be 5:05).
    _played(games["day"], utc(29, 4, 5), utc(29, 4, 30))
    saturday = {games[k] for k in ("early", "late", "midnight", "dawn")}
    saturday |= set(db.session.scalars(sa.select(GameResult.game_id).where(GameResult.player_id == cid.id)))

    # Stored: each game's results and every rated match of it carry the game's one night.
    for key in ("early", "late", "midnight", "dawn"):
        assert _night(games[key]) == {SATURDAY}, key
    assert _night(games["day"]) == {SUNDAY}
    db.session.expire_all()
    season_id = db.session.scalar(sa.select(Game.season_id).where(Game.id == games["day"]))
    nights = db.session.scalars(sa.select(RatingPoint.night).where(RatingPoint.season_id == season_id).distinct())
    assert sorted(nights) == [SATURDAY, SUNDAY]

    # The recap of each evening lists exactly its games, with their local start times.
    assert _recap_games(client, group, SATURDAY) == saturday
    assert _recap_games(client, group, SUNDAY) == {games["day"]}
    assert _recap_games(client, group, date(2026, 3, 27)) is None
    recap = html(client.get(f"/g/{group.code}/evenings/{SATURDAY.isoformat()}"))
    assert '<time datetime="2026-03-29T05:50:00+02:00">commencée à 05:50</time>' in recap.replace("\u202f", " ")
    assert '<time datetime="2026-03-28T23:50:00+01:00">' in recap

    # Each game page links to that recap, and its history says the local time.
    for key, day, shown, offset in (
        ("midnight", SATURDAY, "00:40", "2026-03-29T00:40:00+01:00"),
        ("dawn", SATURDAY, "06:20", "2026-03-29T06:20:00+02:00"),
        ("day", SUNDAY, "06:30", "2026-03-29T06:30:00+02:00"),
    ):
        page = html(client.get(f"/g/{group.code}/games/{games[key]}"))
        assert f'href="/g/{group.code}/evenings/{day.isoformat()}"' in page, key
        times = _history_times(page)
        assert times and all(attr == offset and text.endswith(shown) for attr, text in times), (key, times)

    # The player page counts the same two evenings its chart plots.
    page = html(client.get(f"/g/{group.code}/players/{ann.id}/stats", headers=EN))
    assert _evenings(page) == (2, 2)
    assert f'href="/g/{group.code}/evenings/{SATURDAY.isoformat()}"' in page
    assert f'href="/g/{group.code}/evenings/{SUNDAY.isoformat()}"' in page
    best = page[page.index('data-evening="best"') :]
    assert best[: best.index("</a>")].count("4 games · 4 won")
    # Cid played one evening: one evening, and one point on the chart (none for the
    # evening Cid did not play, when the rating does not move).
    page = html(client.get(f"/g/{group.code}/players/{cid.id}/stats", headers=EN))
    assert _evenings(page) == (1, 1)

    # The CSV export: each game's evening, and times with their offset.
    text = client.get(f"/g/{group.code}/export.csv", headers=EN).get_data(as_text=True).lstrip("\ufeff")
    rows = [line.split(";") for line in text.strip().split("\r\n")[1:]]
    by_game = {int(r[1]): (r[3], r[-1]) for r in rows}
    assert by_game[games["dawn"]] == ("2026-03-28", "2026-03-29T06:20:00+02:00")
    assert by_game[games["midnight"]] == ("2026-03-28", "2026-03-29T00:40:00+01:00")
    assert by_game[games["day"]] == ("2026-03-29", "2026-03-29T06:30:00+02:00")


def test_changing_the_zone_moves_the_times_and_the_nights(client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game = crapouille_duel(client, group, ann, bob)
    # 4:05 UTC on 2026-03-29: 6:05 in Paris (Sunday's evening), 0:05 in Montréal (EDT, Saturday's).
    _played(game, utc(29, 4, 5), utc(29, 4, 5))
    assert _night(game) == {SUNDAY}
    page = html(client.get(f"/g/{group.code}/games/{game}"))  # kept (companion.pagecache) at this version
    assert _history_times(page)[0][0] == "2026-03-29T06:05:00+02:00"
    assert "Fuseau horaire · Paris (France)" in html(client.get(f"/g/{group.code}"))

    form = html(client.get(f"/g/{group.code}/clock"))
    assert '<option selected value="Europe/Paris">' in form or '<option value="Europe/Paris" selected>' in form
    assert 'data-browser-zone=""' in form and "<script" not in form.split("</main>")[0].split("<main")[1]
    response = client.post(f"/g/{group.code}/clock", data={"time_zone": "America/Montreal", "shown": "Europe/Paris"})
    assert response.status_code == 302
    db.session.expire_all()
    assert db.session.get(Group, group.id).time_zone == "America/Montreal"
    # The same request recomputed the game's night, its matches and the rating's history.
    assert _night(game) == {SATURDAY}
    assert set(db.session.scalars(sa.select(RatingPoint.night))) == {SATURDAY}
    assert _recap_games(client, group, SATURDAY) == {game}
    assert _recap_games(client, group, SUNDAY) is None
    # Every page shows the new clock, the kept game page too.
    page = html(client.get(f"/g/{group.code}/games/{game}"))
    assert _history_times(page)[0][0] == "2026-03-29T00:05:00-04:00"
    assert f'href="/g/{group.code}/evenings/{SATURDAY.isoformat()}"' in page
    # (America/Montreal keeps Toronto's clock: Babel names it Toronto.)
    assert "Fuseau horaire · Toronto (Canada)" in html(client.get(f"/g/{group.code}"))

    # Sent again (a double tap): changed once, no error.
    again = client.post(f"/g/{group.code}/clock", data={"time_zone": "America/Montreal", "shown": "Europe/Paris"})
    assert again.status_code == 302
    # A form shown before the change, now asking for another zone: told, nothing changed.
    stale = client.post(f"/g/{group.code}/clock", data={"time_zone": "UTC", "shown": "Europe/Paris"})
    assert stale.status_code == 409
    assert "changed meanwhile from another device" in html(stale) or "modifié entre-temps" in html(stale)
    # A zone that is none: refused with a sentence, nothing changed.
    wrong = client.post(
        f"/g/{group.code}/clock", data={"time_zone": "Mars/Olympus", "shown": "America/Montreal"}, headers=EN
    )
    assert wrong.status_code == 200 and "Choose a time zone from the list, such as Paris (France)." in html(wrong)
    db.session.expire_all()
    assert db.session.get(Group, group.id).time_zone == "America/Montreal"
    assert _night(game) == {SATURDAY}
    # Back to Paris: Sunday again.
    back = client.post(f"/g/{group.code}/clock", data={"time_zone": "Europe/Paris", "shown": "America/Montreal"})
    assert back.status_code == 302
    assert _night(game) == {SUNDAY}


def _options(page: str) -> list[tuple[str, str, str]]:
    """The clock page's zones: (group, value, text) per option, in the page's order."""
    found = []
    for label, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', page, re.S):
        found += [
            (label, value, text) for value, text in re.findall(r'<option[^>]*value="([^"]+)"[^>]*>([^<]*)<', body)
        ]
    return found


def test_the_clock_page_lists_zones_by_place_in_the_pages_language(client):
    """Zones by Babel's place names (get_timezone_location), in the page's language,
    sorted as a French reader sorts; the value sent and stored stays the IANA id."""
    group = create_group(client)
    page = html(client.get(f"/g/{group.code}/clock"))
    options = _options(page)
    common = [(value, text) for label, value, text in options if label == "Les plus courants"]
    every = [(value, text) for label, value, text in options if label == "Tous les fuseaux"]
    assert ("Europe/Paris", "Paris (France)") in common and ("Indian/Reunion", "La Réunion") in common
    assert ("Europe/London", "Londres (Royaume-Uni)") in common and ("UTC", "UTC") in common
    for texts in ([t for _v, t in common], [t for _v, t in every]):
        assert texts == sorted_names(texts)  # « Émirats » with the E's, « Zurich » last
        assert not any("/" in t or "_" in t for t in texts)  # no IANA id shown
    assert "En ce moment\u00a0: Paris (France)," in page
    # Every zone once: an old id the tz database keeps (Asia/Calcutta, which Babel
    # names as Asia/Kolkata) is not listed beside the zone it leads to; a phone giving
    # it is pointed to the listed one (static/clock.js reads the page's map).
    values = [v for v, _t in every]
    assert len(values) == len(set(values)) and len({t for _v, t in every}) == len(every)
    assert "Asia/Kolkata" in values and "Asia/Calcutta" not in values
    raw = client.get(f"/g/{group.code}/clock").get_data(as_text=True)
    aliases = re.search(r'data-zone-aliases="([^"]*)"', raw)
    assert aliases and json.loads(unescape(aliases.group(1)))["Asia/Calcutta"] == "Asia/Kolkata"
    english = _options(html(client.get(f"/g/{group.code}/clock", headers=EN)))
    assert ("Common", "Europe/London", "London (United Kingdom)") in english
    assert ("Common", "Indian/Reunion", "Réunion") in english
    # A group on such an old id keeps it, chosen in the list under its place's name.
    assert (
        client.post(f"/g/{group.code}/clock", data={"time_zone": "Asia/Calcutta", "shown": "Europe/Paris"}).status_code
        == 302
    )
    page = html(client.get(f"/g/{group.code}/clock"))
    assert re.search(
        r'<option (selected value="Asia/Calcutta"|value="Asia/Calcutta" selected)>Calcutta \(Inde\)<', page
    )
    assert "Le fuseau horaire du groupe est Calcutta (Inde)." in page  # the flash, by its place
    saved = html(
        client.post(
            f"/g/{group.code}/clock",
            data={"time_zone": "Indian/Reunion", "shown": "Asia/Calcutta"},
            follow_redirects=True,
        )
    )
    assert "Le fuseau horaire du groupe est La Réunion." in saved
    db.session.expire_all()
    assert db.session.get(Group, group.id).time_zone == "Indian/Reunion"


def test_the_json_export_carries_the_zone_and_an_import_checks_it(app, client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    crapouille_duel(client, group, ann, bob)
    client.post(f"/g/{group.code}/clock", data={"time_zone": "Pacific/Noumea", "shown": "Europe/Paris"})
    document = json.loads(client.get(f"/g/{group.code}/export.json").get_data())
    assert document["group"]["time_zone"] == "Pacific/Noumea"
    with app.test_request_context(headers=EN):
        assert transfer.check_document(document).time_zone == "Pacific/Noumea"
        del document["group"]["time_zone"]  # a file of before: the default clock
        assert transfer.check_document(document).time_zone == "Europe/Paris"
        document["group"]["time_zone"] = "Mars/Olympus"
        try:
            transfer.check_document(document)
        except transfer.Refused as refused:
            assert "Mars/Olympus" in str(refused.message) and "not one this server knows" in str(refused.message)
        else:
            raise AssertionError("an unknown zone was accepted")


def test_night_of_is_one_definition_on_a_zone():
    assert night_of(utc(29, 3, 59), "Europe/Paris") == SATURDAY  # 5:59 CEST
    assert night_of(utc(29, 4, 0), "Europe/Paris") == SUNDAY  # 6:00 CEST
    assert night_of(utc(28, 4, 59), "Europe/Paris") == date(2026, 3, 27)  # 5:59 CET
    assert night_of(utc(28, 5, 0), "Europe/Paris") == SATURDAY  # 6:00 CET
    assert night_of(utc(29, 9, 59), "America/Montreal") == SATURDAY  # 5:59 EDT
    assert night_of(utc(29, 10, 0), "America/Montreal") == SUNDAY  # 6:00 EDT
    assert local_iso(utc(29, 0, 59), "Europe/Paris") == "2026-03-29T01:59:00+01:00"
    assert local_iso(utc(29, 1, 0), "Europe/Paris") == "2026-03-29T03:00:00+02:00"
    assert valid_zone("Europe/Paris") and valid_zone("America/Montreal") and valid_zone("UTC")
    assert not valid_zone("Mars/Olympus") and not valid_zone("") and not valid_zone(None)
