"""Validating with jsonschema against the OpenAPI document the app serves."""

from __future__ import annotations

import copy
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

DOCUMENT_URI = "urn:companion:openapi"


def pointer(*parts: str) -> str:
    """A JSON pointer to ``parts`` (``/`` and ``~`` escaped)."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def validator(document: dict[str, Any], *parts: str) -> Draft202012Validator:
    """A validator for the schema at ``parts`` of ``document``, its ``$ref`` resolved inside it."""
    registry = Registry().with_resource(DOCUMENT_URI, DRAFT202012.create_resource(document))
    return Draft202012Validator({"$ref": f"{DOCUMENT_URI}#{pointer(*parts)}"}, registry=registry)


def request_validator(document: dict[str, Any], endpoint: str) -> Draft202012Validator:
    """The validator of ``POST /api/v1/<endpoint>``'s request body in ``document``."""
    return validator(
        document, "paths", f"/api/v1/{endpoint}", "post", "requestBody", "content", "application/json", "schema"
    )


def response_validator(document: dict[str, Any], endpoint: str, status: int) -> Draft202012Validator:
    """The validator of ``POST /api/v1/<endpoint>``'s ``status`` answer in ``document``."""
    return validator(
        document,
        "paths",
        f"/api/v1/{endpoint}",
        "post",
        "responses",
        str(status),
        "content",
        "application/json",
        "schema",
    )


def closed(schema: Any) -> Any:
    """A copy of ``schema`` where every object schema with ``properties`` allows no other key.

    The published answers stay open (API.md: fields may be added), but the tests hold
    the API to them: an answer field missing from the document is a failure.
    """
    schema = copy.deepcopy(schema)

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(schema)
    return schema
