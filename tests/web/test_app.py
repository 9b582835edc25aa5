"""Configuration: database URL, secret key, SQLite pragmas, translations."""

import subprocess
import sys

import sqlalchemy as sa
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion import ROOT, config, create_app
from companion.extensions import db


def test_database_url_defaults_to_sqlite_in_the_instance_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert config.database_url(str(tmp_path)) == f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", "postgres://u@h/db")
    assert config.database_url(str(tmp_path)) == "postgresql+psycopg://u@h/db"
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@h/db")
    assert config.database_url(str(tmp_path)) == "postgresql+psycopg://u@h/db"


def test_secret_key_is_generated_once_and_kept(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = config.secret_key(str(tmp_path))
    assert len(first) == 64 and config.secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert config.secret_key(str(tmp_path)) == "from-env"


def test_sqlite_runs_with_wal_foreign_keys_and_busy_timeout(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}", "SECRET_KEY": "k"})
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1
            assert conn.execute(sa.text("PRAGMA busy_timeout")).scalar() == 10000
        db.engine.dispose()


def test_processes_starting_together_share_the_first_ones_key(monkeypatch, tmp_path):
    # Another process writes its key between this one's look and its own writing.
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text("the-first-one")
    monkeypatch.setattr(config.Path, "exists", lambda self: False)
    assert config.secret_key(str(tmp_path)) == "the-first-one"
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_the_code_has_no_secret_key_constant():
    sources = "\n".join(p.read_text() for p in (ROOT / "companion").rglob("*.py"))
    assert 'SECRET_KEY="' not in sources and "SECRET_KEY='" not in sources


def test_every_message_has_a_french_translation_and_the_catalog_is_compiled(tmp_path):
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "_l",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        wanted = {m.id for m in read_po(f) if m.id}
    with (ROOT / "translations/fr/LC_MESSAGES/messages.po").open("rb") as f:
        po = read_po(f)
    missing = [m for m in wanted if po.get(m) is None or not po.get(m).string or po.get(m).fuzzy]
    assert not missing, f"untranslated (run pybabel update, translate, compile): {missing}"
    with (ROOT / "translations/fr/LC_MESSAGES/messages.mo").open("rb") as f:
        mo = read_mo(f)

    def compiled(message_id):
        found = mo.get(message_id[0] if isinstance(message_id, tuple) else message_id)
        return None if found is None else found.string

    stale = [m.id for m in po if m.id and tuple(compiled(m.id) or ()) != tuple(m.string)]
    assert not stale, f"messages.mo is out of date (run pybabel compile): {stale[:5]}"
