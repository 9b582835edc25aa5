"""The OpenAPI document: precise per game, the schemas the API validates with, and
every example of shared/API.md valid against it (item 11 of the hardening issue).

The examples live with each kind (``companion.games.kinds.<kind>.api.examples``, gathered in
``tests.api.examples``; the document publishes them); their
```json fragments are compared with shared/API.md itself when it is at hand."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from companion.api.openapi import component, openapi_document
from companion.games.judging import api_games
from companion.rules import crapouille, whist_tarot
from tests.api import examples, schemas
from tests.api.openapi_tools import closed, request_validator, response_validator

ADAPTERS = api_games()

FRAGMENTS = [examples.CHECK_ANSWER, examples.PRESIDENT, examples.WHIST_TAROT, examples.CRAPOUILLE]


def api_md() -> Path | None:
    """shared/API.md when it is at hand (it lives beside the repository, not in it)."""
    given = os.environ.get("COMPANION_API_MD")
    candidates = [Path(given)] if given else []
    candidates.append(Path(__file__).resolve().parents[3] / "shared" / "API.md")
    return next((p for p in candidates if p.is_file()), None)


def test_published_examples_are_api_md_s():
    # The document's examples restate API.md's ```json fragments exactly.
    path = api_md()
    if path is None:
        pytest.skip("shared/API.md is not beside the repository")
    blocks = re.findall(r"```json\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    # A fragment such as `"state": {…}, "move": {…}` is an object's inside.
    parsed = []
    for block in blocks:
        try:
            parsed.append(json.loads(block))
        except json.JSONDecodeError:
            parsed.append(json.loads("{" + block + "}"))
    assert parsed == FRAGMENTS


@pytest.fixture(scope="module")
def document(api_client):
    return api_client.get("/api/v1/openapi.json").get_json()


@pytest.mark.parametrize(("summary", "body"), examples.CHECKS, ids=[b["game"] for _, b in examples.CHECKS])
def test_api_md_check_examples_match_the_document_and_are_judged(api_client, document, summary, body):
    request_validator(document, "check").validate(body)
    r = api_client.post("/api/v1/check", json=body)
    assert r.status_code == 200, r.get_json()
    response_validator(closed(document), "check", 200).validate(r.get_json())
    schemas_answer = closed(schemas.RESPONSES[body["game"]]["check"])
    Draft202012Validator(schemas_answer).validate(r.get_json())


@pytest.mark.parametrize(("summary", "body"), examples.OUTCOMES, ids=[b["game"] for _, b in examples.OUTCOMES])
def test_api_md_outcome_examples_match_the_document_and_are_judged(api_client, document, summary, body):
    request_validator(document, "outcome").validate(body)
    r = api_client.post("/api/v1/outcome", json=body)
    assert r.status_code == 200, r.get_json()
    response_validator(closed(document), "outcome", 200).validate(r.get_json())


def test_api_md_check_answer_matches_the_document(document):
    response_validator(closed(document), "check", 200).validate(examples.CHECK_ANSWER)


def test_outcome_answers_are_described_per_game(document):
    # Each game's answer is its own schema, with its fields required: never an opaque object.
    answer = document["paths"]["/api/v1/outcome"]["post"]["responses"]["200"]["content"]["application/json"]
    refs = [alternative["$ref"].rsplit("/", 1)[1] for alternative in answer["schema"]["oneOf"]]
    assert refs == ["PresidentOutcomeAnswer", "WhistTarotOutcomeAnswer", "CrapouilleOutcomeAnswer"]
    components = document["components"]["schemas"]
    assert set(components["PresidentOutcomeAnswer"]["required"]) >= {"titles", "exchanges", "points", "deal"}
    assert set(components["WhistTarotOutcomeAnswer"]["required"]) >= {"losses", "stakes", "ended", "next"}
    assert set(components["CrapouilleOutcomeAnswer"]["required"]) >= {"eliminated", "over", "ranking", "places"}
    validator = response_validator(document, "outcome", 200)
    # a crapouille answer is not a whist one, and an opaque object is none of them
    assert not validator.is_valid({"losses": {}, "totals": {}})


def test_request_schemas_carry_the_engine_s_bounds(document):
    components = document["components"]["schemas"]
    whist = components["WhistTarotCheckRequest"]["properties"]["state"]["properties"]
    assert (whist["players"]["minItems"], whist["players"]["maxItems"]) == (
        whist_tarot.MIN_PLAYERS,
        whist_tarot.MAX_PLAYERS,
    )
    assert (whist["cards"]["minimum"], whist["cards"]["maximum"]) == (1, whist_tarot.SERIES[0])
    piketty = components["PikettyOutcomeRequest"]["properties"]["players"]
    assert (piketty["minItems"], piketty["maxItems"], piketty["uniqueItems"]) == (4, 9, True)
    crapouille_outcome = components["CrapouilleOutcomeRequest"]["properties"]
    assert crapouille_outcome["totals"]["additionalProperties"]["maximum"] == crapouille.ELIMINATION_TOTAL
    assert crapouille_outcome["points"]["additionalProperties"]["maximum"] == crapouille.MAX_HAND_POINTS
    card = whist["trick"]["items"]["properties"]["card"]["pattern"]
    assert re.search(card, "T21") and re.search(card, "ex") and not re.search(card, "T22")
    assert not re.search(card, "Qs")


def test_the_document_publishes_the_schemas_the_api_validates_with(document):
    # One source of truth: the served components are the validating schemas, as JSON.
    served = document["components"]["schemas"]
    for game in schemas.GAMES:
        for endpoint in ("check", "outcome"):
            assert served[component(game, endpoint, "Request")] == json.loads(
                json.dumps(schemas.REQUESTS[game][endpoint])
            )
    assert set(ADAPTERS) == set(schemas.GAMES)
    assert (
        openapi_document()["components"]["schemas"][component("crapouille", "check", "Request")]
        is (schemas.REQUESTS["crapouille"]["check"])
    )


def test_every_schema_is_valid_json_schema(document):
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_space_class_is_python_s():
    space = re.compile(f"[{schemas.SPACES}]")
    assert all(bool(space.match(chr(c))) == chr(c).isspace() for c in range(0x110000))


def test_the_document_carries_the_examples(document):
    content = document["paths"]["/api/v1/check"]["post"]["requestBody"]["content"]["application/json"]
    served = sorted(json.dumps(e["value"], sort_keys=True) for e in content["examples"].values())
    assert served == sorted(json.dumps(body, sort_keys=True) for _, body in examples.CHECKS)


def test_documented_errors(document):
    for endpoint in ("check", "outcome"):
        responses = document["paths"][f"/api/v1/{endpoint}"]["post"]["responses"]
        assert {"200", "400", "411", "413", "415"} <= set(responses)
