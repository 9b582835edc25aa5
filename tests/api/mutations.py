"""Fuzzing an adapter from a valid request: replace a few of its fields by random JSON."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

Changes = list[tuple[tuple[str, ...], Any]]


def mutations(template: dict[str, Any], values: st.SearchStrategy[Any]) -> st.SearchStrategy[Changes]:
    """One to three (path, value) replacements of the template's fields (top level and one below)."""
    paths: list[tuple[str, ...]] = []
    for key, value in template.items():
        paths.append((key,))
        if isinstance(value, dict):
            paths.extend((key, inner) for inner in value)
    return st.lists(st.tuples(st.sampled_from(paths), values), min_size=1, max_size=3)


def mutate(template: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """The template with the changes applied (a copy)."""
    request = copy.deepcopy(template)
    for path, value in changes:
        target = request
        for key in path[:-1]:
            if not isinstance(target.get(key), dict):
                target[key] = {}
            target = target[key]
        target[path[-1]] = value
    return request
