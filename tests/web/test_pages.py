"""Every page answers, in French by default and English on request; errors never show a 500."""

import pytest

from tests.helpers import add_players, create_group, html, start_crapouille


def _all_pages(client):
    group = create_group(client)
    ann, bob = add_players(client, group, "Ann", "Bob")
    game_id = start_crapouille(client, group, [ann, bob])
    client.post(
        f"/g/{group.code}/games/{game_id}/rounds/new",
        data={"round": "1", "winner": str(ann.id), f"total_{bob.id}": "9"},
    )
    season = group.current_season
    return [
        "/",
        "/groups/new",
        "/join",
        f"/g/{group.code}",
        f"/g/{group.code}/players",
        f"/g/{group.code}/players/{ann.id}",
        f"/g/{group.code}/seasons",
        f"/g/{group.code}/seasons/{season.id}",
        f"/g/{group.code}/games/new",
        f"/g/{group.code}/games/new/crapouille",
        f"/g/{group.code}/games/{game_id}",
        f"/g/{group.code}/games/{game_id}/rounds/new",
    ]


def test_every_page_is_french_by_default_phone_ready_and_complete(client):
    for path in _all_pages(client):
        r = client.get(path)
        assert r.status_code == 200, path
        page = html(r)
        assert '<html lang="fr">' in page, path
        assert 'name="viewport" content="width=device-width, initial-scale=1"' in page
        assert 'rel="icon"' in page and 'rel="manifest"' in page
        assert "English" in page  # the language switch
        assert "http://" not in page and "https://" not in page, f"{path} loads something from another host"


def test_english_from_the_browser_or_the_switch(app, client):
    group = create_group(client)
    r = client.get(f"/g/{group.code}", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert '<html lang="en">' in html(r) and "New game" in html(r)
    r = client.post("/lang/en", data={"next": f"/g/{group.code}/players"})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/g/{group.code}/players")
    assert "Add a player" in html(client.get(f"/g/{group.code}/players"))
    client.post("/lang/fr", data={"next": "/"})
    assert "Ajouter un joueur" in html(client.get(f"/g/{group.code}/players", headers={"Accept-Language": "en"}))


def test_language_switch_stays_on_this_site(client):
    r = client.post("/lang/en", data={"next": "https://evil.example/"})
    assert r.headers["Location"] == "/"
    assert client.post("/lang/xx").status_code == 302
    # The switch changes state only by POST.
    r = client.get("/lang/en?next=/")
    assert r.status_code == 405 and "lang" not in r.headers.get("Set-Cookie", "")


def test_manifest_and_static_files(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    assert r.get_json()["start_url"] == "/"
    for name in ("style.css", "picker.js", "icon.svg"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and r.data
        r.close()


@pytest.mark.parametrize(
    ("method", "path", "status", "words"),
    [
        ("GET", "/nope", 404, "Cette page n’existe pas."),
        ("GET", "/g/ABCDEF/games/abc", 404, "Cette page n’existe pas."),
        ("POST", "/", 405, "Cette adresse n’accepte pas ce type de requête."),
        ("POST", "/g/ABCDEF/leave", 403, "Cette page appartient à un groupe"),
    ],
)
def test_error_pages_are_french(client, method, path, status, words):
    r = client.open(path, method=method)
    assert r.status_code == status
    assert words in html(r)


def test_too_large_a_body_is_a_french_413(client):
    r = client.post("/join", data={"code": "A", "passphrase": "x" * 300_000})
    assert r.status_code == 413 and "trop volumineux" in html(r)


def test_a_crash_is_a_french_page_and_rolls_back(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("boom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = client.get("/boom")
    assert r.status_code == 500 and "Rien n’a été enregistré à moitié" in html(r)


def test_csrf_protects_every_form(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    r = client.post("/groups/new", data={"name": "X", "passphrase": "abcdefg", "confirm": "abcdefg"})
    assert r.status_code == 400 and "Ce formulaire a expiré" in html(r)
    page = html(client.get("/groups/new"))
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    r = client.post(
        "/groups/new", data={"name": "X", "passphrase": "abcdefg", "confirm": "abcdefg", "csrf_token": token}
    )
    assert r.status_code == 302
