"""Keep it from coming back: Schemathesis against the app's own OpenAPI document.

In process (the Flask app itself, no network), bounded (a few hundred calls in all)
and derandomized under CI.  Every call must get a documented answer: never a 5xx
(nor the adapters' safety net, a 500 in disguise), a body matching the documented
schema with no undocumented field, and, for a body the document allows, either a
judgement or a refusal for a rule reason, never for its shape.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import schemathesis
from jsonschema import Draft202012Validator
from schemathesis.config import SchemathesisConfig

from companion import create_app
from companion.games.judging import check_schema
from companion.judge.reading import BodyError
from tests.api import schemas
from tests.api.openapi_tools import closed

APP = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
#: Generated cases per endpoint (both positive and negative ones): ~2 × 150 calls in all.
EXAMPLES = 150

CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {
            "max-examples": EXAMPLES,
            # Same cases on every CI run, so that a red CI is always reproducible.
            "deterministic": bool(os.environ.get("CI")),
            # A NUL is refused wherever it is (a database cannot store it), which the
            # schemas cannot say of keys they do not name: test_api_hardening covers it.
            "allow-x00": False,
            # No example database written into the working tree.
            "database": "none",
        },
        # The coverage phase alone would send thousands of boundary cases; the fuzzing
        # phase is the bounded one.  405s are covered by test_api_hardening.
        "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
        # A body the document allows may still be refused for a rule reason (API.md: 400).
        "checks": {"positive_data_acceptance": {"expected-statuses": ["200", "400"]}},
    }
)
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP, config=CONFIG)


class _SafetyNet(logging.Handler):
    """Counts the adapters' "could not be judged" answers (each one hides a bug)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.failures: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "API adapter failed" in record.getMessage():
            self.failures.append(self.format(record))


SAFETY_NET = _SafetyNet()
APP.logger.addHandler(SAFETY_NET)

_ANSWERS = {
    (game, endpoint): Draft202012Validator(closed(schemas.RESPONSES[game][endpoint]))
    for game in schemas.GAMES
    for endpoint in ("check", "outcome")
}
_ERROR = Draft202012Validator(closed(schemas.ERROR))
#: How the adapters and the engine word a refusal of a value's shape (type, form): a body
#: the document allows must never get one of these.
_SHAPE = re.compile(
    r"(is|are) expected|is a JSON object|must be an? (object|list)|is a list|is true or false|is written like|"
    r"A move is a|A player has a name|"
    r"(est|sont) attendue?s?\b|est un objet|doit être une? (objet|liste)|est une liste|vaut true ou false|"
    r"s’écrit comme|Un coup est|Un joueur a un nom|Il faut des cartes ou passer"
)


def _endpoint(case: Any) -> str:
    return str(case.operation.path).rsplit("/", 1)[1]


def _positive(case: Any) -> bool:
    return case.meta is not None and case.meta.generation.mode.value == "positive"


def no_safety_net(ctx: Any, response: Any, case: Any) -> None:
    """The adapters never fail: their safety net's 400 is a 500 in disguise."""
    failures, SAFETY_NET.failures[:] = list(SAFETY_NET.failures), []
    assert not failures, failures[0]


def documented_exactly(ctx: Any, response: Any, case: Any) -> None:
    """The answer matches its game's schema, with no field the document does not name."""
    if case.method != "POST":  # OPTIONS has no body; a 405 is checked by Schemathesis itself
        return
    body = response.json()
    if response.status_code == 200:
        _ANSWERS[case.body["game"], _endpoint(case)].validate(body)
    else:
        _ERROR.validate(body)


def judged_or_refused_for_a_rule(ctx: Any, response: Any, case: Any) -> None:
    """A body the document allows is one the API's own validation allows, and a refusal of
    it names a rule (an unknown player, a card twice…), never a shape."""
    if not _positive(case):
        return
    try:
        check_schema(case.body, case.body["game"], _endpoint(case))
    except BodyError as e:  # the document and the validation read the schema differently
        raise AssertionError(f"{e.field}: {e.text.en}") from None
    if response.status_code == 400:
        error = response.json()["error"]
        assert not _SHAPE.search(error), f"{response.json()['field']}: {error}"


def _call_and_validate(case: Any) -> None:
    # In process, nothing decodes a compressed answer (Flask-Compress): ask for plain bytes.
    case.call_and_validate(
        headers={"Accept-Encoding": "identity"},
        additional_checks=[no_safety_net, documented_exactly, judged_or_refused_for_a_rule],
    )


# One test per endpoint, each of its own name: Schemathesis's items of one test function
# share a node id, and pytest-xdist runs only one item of a node id.
@schema.include(path="/api/v1/check").parametrize()
def test_the_check_endpoint_keeps_its_document(case):
    _call_and_validate(case)


@schema.include(path="/api/v1/outcome").parametrize()
def test_the_outcome_endpoint_keeps_its_document(case):
    _call_and_validate(case)


def test_the_document_has_these_two_operations_only():
    """Each operation of the document is fuzzed by one of the tests above."""
    operations = [result.ok() for result in schema.get_all_operations()]
    assert sorted(operation.label for operation in operations) == ["POST /api/v1/check", "POST /api/v1/outcome"]
