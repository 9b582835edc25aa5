"""How much of what the OpenAPI document allows does the API judge?  Bodies made by a
schema-driven generator from the published document, sent to the app, counted by answer.

The generator is Schemathesis's (the one tests/api/test_api_schemathesis.py runs), fed
with the document the app serves (``GET /api/v1/openapi.json``): for each game and
endpoint, the operation's body schema is the game's published request component
(``#/components/schemas/PikettyCheckRequest``…), so every game gets the same number of
bodies.  Generation is seeded, so a sample is the same on every run.

JSON Schema cannot say that two strings are equal: that ``dealer`` is one of
``players``, that the keys of ``stakes`` are the players.  A generator that only reads
the schema gives each name an independent random text, and nearly every body names
someone who is not at the table.  So each body is measured twice:

- **raw**: as generated;
- **bound**: each name that refers to a player (``dealer``, ``move.player``, ``out[i]``,
  the keys of ``stakes``…; :data:`REFERENCES`) rewritten to one of the body's own
  players, distinct names staying distinct within a list or an object.  Nothing else
  is touched, and the bound body must still match the schema (else it is not counted).

Each answer falls in one class (:func:`classify`): ``judged`` (200), ``relation:<kind>``
(a 400 for a relation between fields that JSON Schema cannot state, :data:`RELATIONS`: a
name that is not a player, a list that must name everyone, a bound tied to the number of
players, more copies of a card across fields than the deck holds, a trick that could not
have been played or numbers that must add up), or ``promise`` (any other 400: the
document allowed what the API refuses for a condition it could state — a broken
promise, which an exact schema never makes).  The classes are told by the engine's
English sentences; a sentence no class names is a promise.
"""

from __future__ import annotations

import copy
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from jsonschema import Draft202012Validator

GAMES = ("president", "piketty", "whist-tarot", "crapouille")
ENDPOINTS = ("check", "outcome")

#: Where each request names a player, besides its list of players (``players`` or
#: ``state.players``).  A path is a tuple of keys, ``"*"`` for every item of a list;
#: ``name``: one name; ``names``: a list of distinct names; ``keys``: an object by player.
_PRESIDENT_CHECK = (
    (("state", "out"), "names"),
    (("state", "leader"), "name"),
    (("state", "trick", "*", "player"), "name"),
    (("move", "player"), "name"),
)
_PRESIDENT_OUTCOME = (
    (("finish",), "names"),
    (("finished_on",), "keys"),
    (("events", "putsch"), "name"),
    (("events", "jeu_blanc"), "name"),
    (("events", "coup_detat"), "name"),
    (("events", "revolution"), "name"),
    (("events", "guillotine", "player"), "name"),
    (("events", "guillotine", "vice"), "name"),
    (("events", "guillotine", "last"), "name"),
    (("draw",), "keys"),
    (("putsch_banned",), "name"),
    (("totals",), "keys"),
)
REFERENCES: dict[tuple[str, str], tuple[tuple[tuple[str, ...], str], ...]] = {
    ("president", "check"): _PRESIDENT_CHECK,
    ("piketty", "check"): _PRESIDENT_CHECK,
    ("president", "outcome"): _PRESIDENT_OUTCOME,
    ("piketty", "outcome"): _PRESIDENT_OUTCOME,
    ("whist-tarot", "check"): (
        (("state", "dealer"), "name"),
        (("state", "bids"), "keys"),
        (("state", "leader"), "name"),
        (("state", "trick", "*", "player"), "name"),
        (("move", "player"), "name"),
    ),
    ("whist-tarot", "outcome"): (
        (("dealer",), "name"),
        (("stakes",), "keys"),
        (("bids",), "keys"),
        (("tricks",), "keys"),
    ),
    ("crapouille", "check"): (
        (("state", "turn"), "name"),
        (("move", "player"), "name"),
    ),
    ("crapouille", "outcome"): (
        (("totals",), "keys"),
        (("winner",), "name"),
        (("hands",), "keys"),
        (("points",), "keys"),
    ),
}

#: A 400 for a relation between fields, which JSON Schema cannot state (English wording).
RELATIONS = {
    # A name and the players, or two names: the same player in two roles.
    "name": re.compile(
        r"Unknown player|cannot lead|is not in the finish|Only the Trou du cul|three different players|"
        r"failed a putsch at the previous manche"
    ),
    # A list or an object that must name every player (or every player but one).
    "everyone": re.compile(
        r"is incomplete|is missing|are missing|drew no card|is not in 'out'|not both|went out: no|"
        r"first player out is needed"
    ),
    # A number tied to how many players there are: a rank of title_names, the players a deck
    # or a rule allows, the cards a hand can give at the exchange.
    "count": re.compile(
        r"A rank goes from|There is no rank|cannot be given|pairs to exchange|more players than cards|"
        r"needs at least \d+ players|is for 3 or 4 players|Too many players|one card per player"
    ),
    # Cards counted across fields: copies in the deck, a hand and the card laid from it.
    "copies": re.compile(r"The deck has only|does not hold|not the player's last card"),
    # What the order of play or a sum decides: a trick that could not have been played, bids
    # out of turn, tricks that must add up to the cards dealt…
    "history": re.compile(
        r"This trick is impossible|Impossible trick count|add up|cannot have bid|was to play|whole tricks|"
        r"More cards played"
    ),
}


def classify(status: int, answer: dict[str, Any]) -> str:
    """``judged``, ``relation:<kind>`` or ``promise`` (see the module's docstring)."""
    if status == 200:
        return "judged"
    error = str(answer.get("error", ""))
    for kind, pattern in RELATIONS.items():
        if pattern.search(error):
            return f"relation:{kind}"
    return "promise"


def _roster(game: str, endpoint: str, body: dict[str, Any]) -> list[str] | None:
    holder = body.get("state") if endpoint == "check" else body
    players = holder.get("players") if isinstance(holder, dict) else None
    if isinstance(players, list) and players and all(isinstance(p, str) for p in players):
        return players
    return None


def _pick(name: str, roster: list[str], taken: set[str]) -> str | None:
    """``name`` if it is a player, else a player not in ``taken`` chosen by ``name`` (None: none left)."""
    if name in roster:
        return name
    free = [p for p in roster if p not in taken]
    if not free:
        return None
    return free[zlib.crc32(name.encode("utf-8", "surrogatepass")) % len(free)]


def _holders(value: Any, path: tuple[str, ...]) -> Iterator[tuple[Any, str | int]]:
    """Each (container, key) that ``path`` reaches in ``value``."""
    *head, last = path
    nodes = [value]
    for step in head:
        found = []
        for node in nodes:
            if step == "*" and isinstance(node, list):
                found.extend(node)
            elif isinstance(node, dict) and step in node:
                found.append(node[step])
        nodes = found
    for node in nodes:
        if last == "*" and isinstance(node, list):
            yield from ((node, i) for i in range(len(node)))
        elif isinstance(node, dict) and last in node:
            yield node, last


def bind(game: str, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``body`` where every name that refers to a player is one of its players."""
    body = copy.deepcopy(body)
    roster = _roster(game, endpoint, body)
    if roster is None:
        return body
    for path, kind in REFERENCES[game, endpoint]:
        for holder, key in list(_holders(body, path)):
            value = holder[key]
            if kind == "name" and isinstance(value, str):
                holder[key] = _pick(value, roster, set())
            elif kind == "names" and isinstance(value, list):
                # Players of the list keep their place; another name becomes a player not yet listed.
                taken = {v for v in value if isinstance(v, str) and v in roster}
                bound = []
                for v in value:
                    picked = _pick(v, roster, taken - {v}) if isinstance(v, str) else None
                    if picked is not None:
                        taken.add(picked)
                        bound.append(picked)
                holder[key] = bound
            elif kind == "keys" and isinstance(value, dict):
                taken = {k for k in value if k in roster}
                bound_map: dict[str, Any] = {}
                for k, v in value.items():
                    picked = _pick(k, roster, taken - {k})
                    if picked is not None and picked not in bound_map:
                        taken.add(picked)
                        bound_map[picked] = v
                holder[key] = bound_map
    return body


def _document_for(document: dict[str, Any], game: str, endpoint: str) -> dict[str, Any]:
    """``document`` with one operation, whose body is ``game``'s published request component."""
    from companion.api.openapi import component

    doc = copy.deepcopy(document)
    path = f"/api/v1/{endpoint}"
    doc["paths"] = {path: doc["paths"][path]}
    content = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    content["schema"] = {"$ref": f"#/components/schemas/{component(game, endpoint, 'Request')}"}
    content.pop("examples", None)  # the explicit examples are not generated bodies
    return doc


def generated(document: dict[str, Any], game: str, endpoint: str, n: int, at: int) -> list[dict[str, Any]]:
    """Up to ``n`` request bodies of ``game`` at ``endpoint``, Schemathesis's positive generation, seed ``at``."""
    import schemathesis
    from schemathesis.config import SchemathesisConfig
    from schemathesis.generation import hypothesis as generation

    # Strategies Schemathesis kept from an earlier sample would make this one depend on what
    # was generated before it: each sample starts afresh.
    generation.canonical_strategy_cache.clear()
    generation.canonical_form_cache.clear()
    config = SchemathesisConfig.from_dict({"generation": {"allow-x00": False, "database": "none"}})
    schema = schemathesis.openapi.from_dict(_document_for(document, game, endpoint), config=config)
    operation = schema[f"/api/v1/{endpoint}"]["POST"]
    bodies: list[dict[str, Any]] = []

    @seed(at)
    @settings(
        max_examples=n,
        database=None,
        derandomize=False,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(operation.as_strategy())
    def collect(case: Any) -> None:
        bodies.append(case.body)

    collect()
    return bodies


@dataclass
class Share:
    """The answers to one game's bodies at one endpoint."""

    game: str
    endpoint: str
    raw: Counter[str] = field(default_factory=Counter)
    bound: Counter[str] = field(default_factory=Counter)
    #: Bound bodies the schema refused (the binding broke them): not counted in ``bound``.
    unbindable: int = 0
    #: A few refusals classed ``promise``: (body, field, error).
    promises: list[tuple[dict[str, Any], str, str]] = field(default_factory=list)

    @staticmethod
    def judged(counts: Counter[str]) -> float:
        total = sum(counts.values())
        return counts["judged"] / total if total else 0.0

    @staticmethod
    def kept(counts: Counter[str]) -> float:
        """The share of bodies not refused for a broken promise."""
        total = sum(counts.values())
        return 1 - counts["promise"] / total if total else 0.0


def measure(client: Any, n: int, at: int, pairs: list[tuple[str, str]] | None = None, keep: int = 3) -> list[Share]:
    """Generate ``n`` bodies per game and endpoint (seed ``at``), send each raw and bound through
    ``client`` (a test client of the app), and count the answers by class."""
    from tests.api.schemas import REQUESTS

    document = client.get("/api/v1/openapi.json").get_json()
    shares = []
    for game, endpoint in pairs or [(g, e) for g in GAMES for e in ENDPOINTS]:
        share = Share(game, endpoint)
        valid = Draft202012Validator(REQUESTS[game][endpoint]).is_valid
        for body in generated(document, game, endpoint, n, at):
            # The answer's language does not change the verdict; English is what classify reads.
            body = dict(body, lang="en")
            share.raw[classify(*_post(client, endpoint, body))] += 1
            bound = bind(game, endpoint, body)
            if not valid(bound):
                share.unbindable += 1
                continue
            status, answer = _post(client, endpoint, bound)
            kind = classify(status, answer)
            share.bound[kind] += 1
            if kind == "promise" and (keep < 0 or len(share.promises) < keep):
                share.promises.append((bound, str(answer.get("field")), str(answer.get("error"))))
        shares.append(share)
    return shares


def _post(client: Any, endpoint: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/api/v1/{endpoint}", json=body, headers={"Accept-Encoding": "identity"})
    return response.status_code, response.get_json()
