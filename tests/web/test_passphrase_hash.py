"""How passphrases are hashed: scrypt in production, the configured method otherwise.

The other tests hash with a fast method (``tests.conftest.TEST_CONFIG``); these prove
what an app with the default configuration does, and that a hash of any method keeps
being checked whatever the app's method.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.security import generate_password_hash

from companion import create_app
from companion.extensions import db
from companion.groups import routes
from companion.models import Group
from tests.conftest import TEST_CONFIG
from tests.helpers import create_group


def test_an_app_with_the_default_config_stores_scrypt_hashes_and_checks_them() -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["PASSPHRASE_HASH_METHOD"] == "scrypt"
    with app.app_context():
        group = Group(name="Les Amis")
        group.set_passphrase("trou du cul")
        assert group.passphrase_hash.startswith("scrypt:")
        assert group.check_passphrase("trou du cul")
        assert not group.check_passphrase("trou du cul ")
    assert routes._decoy_hash("scrypt").startswith("scrypt:")  # an unknown code costs a scrypt check


def test_the_tests_hash_fast_and_a_hash_of_another_method_still_opens(app: Flask, client: FlaskClient) -> None:
    group = create_group(client, passphrase="la belote")
    method = TEST_CONFIG["PASSPHRASE_HASH_METHOD"]
    assert group.passphrase_hash.startswith(f"{method}$")
    assert routes._decoy_hash(method).startswith(f"{method}$")
    # A group hashed with scrypt before (say, restored from production) still lets its phones in.
    group.passphrase_hash = generate_password_hash("la manille", method="scrypt")
    db.session.commit()
    assert group.check_passphrase("la manille")
    other = app.test_client()
    assert other.post("/join", data={"code": group.code, "passphrase": "la belote"}).status_code == 403
    assert other.post("/join", data={"code": group.code, "passphrase": "la manille"}).status_code == 302
