"""The export/import round trip on every kind, with random groups (issue 24).

A group is built by driving the app's own pages with random choices — players, a
second season, games of every kind with random house rules and setups (the new-game
forms), random rounds (the round forms: what they refuse is tried again otherwise),
corrections, a deletion and its undo, games finished early, abandoned, reopened, a
player renamed —, so that it is valid by construction: the app wrote all of it. Then:
export → import (as a new group, on the same database) → export gives the same file,
but for the group's code and the database's ids (:func:`normalised`), and the copy's
stored standings are the original's.

Hypothesis draws the choices (``st.randoms``: a failing group shrinks, and is replayed
from its seed); few examples per run, each one costs some hundred requests.
"""

from __future__ import annotations

import json
import random
from datetime import date
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.extensions import db
from companion.games.kinds import KINDS
from companion.games.kinds.president.options import toggles_for
from companion.models import Game, GameChange, GameResult, Group, Player, Round
from companion.rules.president import PRESETS
from tests.helpers import add_players, create_group
from tests.web.test_transfer import normalised, upload

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
#: Cards for Piketty's draw, as a French phone types them (distinct ranks: no tie to draw again).
DRAW = ["A♠", "R♦", "D♥", "V♣", "10♠", "9♦", "8♥", "7♣"]
#: Tries before a random entry gives up (the form refused every one).
TRIES = 12


class Table:
    """One group being built through the pages by ``rng``."""

    def __init__(self, client: FlaskClient, rng: random.Random) -> None:
        self.client, self.rng = client, rng
        self.group = create_group(client, rng.choice(["Les Amis", "Tablée du jeudi"]))
        self.code = self.group.code
        count = rng.randint(4, 7)  # Piketty needs four
        self.players = [str(p.id) for p in add_players(client, self.group, *NAMES[:count])]

    # --- reading what the pages wrote

    def game(self, game_id: int) -> Game:
        db.session.expire_all()
        game = db.session.get(Game, game_id)
        assert game is not None
        return game

    def state(self, game_id: int, before: int | None = None) -> dict[str, Any]:
        """The game's stored state (before round ``before``, when given)."""
        game = self.game(game_id)
        query = sa.select(Round.result).where(Round.game_id == game_id)
        if before is not None:
            query = query.where(Round.number < before)
        last = db.session.scalar(query.order_by(Round.number.desc()).limit(1))
        return last if last is not None else KINDS[game.kind].initial_state(game)

    def rounds(self, game_id: int) -> int:
        db.session.expire_all()
        return db.session.scalar(sa.select(sa.func.count()).select_from(Round).where(Round.game_id == game_id)) or 0

    def post(self, path: str, data: dict[str, str]) -> bool:
        response = self.client.post(f"/g/{self.code}/{path}", data=data)
        assert response.status_code in (200, 302, 409), response.status_code
        return response.status_code == 302

    def action(self, game_id: int, action: str) -> bool:
        version = str(self.game(game_id).version)
        return self.post(f"games/{game_id}/{action}", {"version": version, "confirmed": "1"})

    # --- starting games

    def start(self, kind: str) -> int | None:
        """A game of ``kind`` through its new-game form, random players and house rules
        (the plain rules after a few refused)."""
        for attempt in range(TRIES):
            sizes = {"crapouille": (2, 5), "whist-tarot": (3, 4), "piketty": (4, 6)}.get(kind, (3, 6))
            seats = self.rng.sample(self.players, min(len(self.players), self.rng.randint(*sizes)))
            rules = self.rules(kind, seats) if attempt < TRIES // 2 else {}
            data = {f"seats-{i}": p for i, p in enumerate(seats)} | rules
            response = self.client.post(f"/g/{self.code}/games/new/{kind}", data=data)
            if response.status_code == 302:
                return int(response.headers["Location"].rsplit("/", 1)[1])
        return None

    def rules(self, kind: str, seats: list[str]) -> dict[str, str]:
        rng = self.rng
        if kind == "crapouille":
            return {"super_crapouille": "y"} if rng.random() < 0.3 else {}
        if kind == "whist-tarot":
            return {"dealer": rng.choice(seats)} if rng.random() < 0.7 else {}
        fields = {f"rule_{option}": "y" for option, _l, _h in toggles_for(kind) if rng.random() < 0.25}
        fields |= {"target": str(rng.randint(3, 30)), "titles": rng.choice(["classic", "balayeur"])}
        if kind == "president":
            fields |= {"preset": rng.choice(["", "", *PRESETS]), "first": rng.choice(["played", "draw"])}
            fields |= {"rule_decks": rng.choice("112"), "rule_jokers": rng.choice("0012")}
            fields |= {"rule_revolution_size": rng.choice(["4", "4", "7", "8"])}
        return fields

    # --- rounds

    def entry(self, game_id: int, number: int) -> dict[str, str]:
        """Random fields of round ``number``'s form, from the state before it."""
        rng, game = self.rng, self.game(game_id)
        state = self.state(game_id, before=number)
        data = {"round": str(number)}
        if game.kind == "crapouille":
            live = list(state["in_play"])
            winner = rng.choice(live)
            return data | {"winner": winner} | {f"total_{p}": str(rng.randint(0, 90)) for p in live if p != winner}
        if game.kind == "whist-tarot":
            cards = int(state["deal"]["cards"])
            return data | {f"bid_{p}": str(rng.randint(0, cards)) for p in state["players"]}
        order = list(state["hierarchy"])
        if state.get("draw") and state.get("first"):
            return data | {f"draw_{p}": card for p, card in zip(order, rng.sample(DRAW, len(order)), strict=False)}
        rng.shuffle(order)
        return data | {f"finish-{i}": p for i, p in enumerate(order[:-1])}

    def tricks(self, game_id: int, number: int, bids: dict[str, str]) -> dict[str, str]:
        state = self.state(game_id, before=number)
        counts = dict.fromkeys(state["players"], 0)
        for _ in range(int(state["deal"]["cards"])):
            counts[self.rng.choice(state["players"])] += 1
        return bids | {f"tricks_{p}": str(n) for p, n in counts.items()}

    def play(self, game_id: int, rounds: int) -> None:
        kind = self.game(game_id).kind
        for _ in range(rounds):
            if KINDS[kind].over(self.state(game_id)):
                return
            number = self.rounds(game_id) + 1
            for _try in range(TRIES):
                data = self.entry(game_id, number)
                if self.post(f"games/{game_id}/rounds/new", data):
                    break
            else:
                return
            if kind == "whist-tarot" and self.rng.random() < 0.9:  # the tricks (else left pending)
                for _try in range(TRIES):
                    if self.post(f"games/{game_id}/rounds/{number}/edit", self.tricks(game_id, number, data)):
                        break
                else:
                    return
            if kind == "whist-tarot" and KINDS[kind].pending(self.last_entry(game_id)):
                return

    def last_entry(self, game_id: int) -> dict[str, Any]:
        db.session.expire_all()
        query = sa.select(Round.entry).where(Round.game_id == game_id).order_by(Round.number.desc()).limit(1)
        return db.session.scalar(query) or {"tricks": {}}

    def correct(self, game_id: int) -> None:
        """Correct a random round (later ones rescored; refused when one no longer fits)."""
        count = self.rounds(game_id)
        if not count or (
            self.game(game_id).kind == "whist-tarot" and KINDS["whist-tarot"].pending(self.last_entry(game_id))
        ):
            return
        number = self.rng.randint(1, count)
        data = self.entry(game_id, number)
        if self.game(game_id).kind == "whist-tarot":
            data = self.tricks(game_id, number, data)
        self.post(f"games/{game_id}/rounds/{number}/edit", data)

    def delete_and_maybe_undo(self, game_id: int) -> None:
        count = self.rounds(game_id)
        if count and self.action(game_id, f"rounds/{count}/delete") and self.rng.random() < 0.5:
            db.session.expire_all()
            change = db.session.scalar(
                sa.select(GameChange).where(GameChange.game_id == game_id).order_by(GameChange.id.desc())
            )
            assert change is not None and change.kind == "round_deleted"
            assert self.action(game_id, f"changes/{change.id}/undo")


def build(client: FlaskClient, rng: random.Random) -> Table:
    """A random group, valid by construction (see the module's docstring)."""
    table = Table(client, rng)
    kinds = rng.sample(list(KINDS), len(KINDS)) + [rng.choice(list(KINDS)) for _ in range(rng.randint(0, 1))]
    for n, kind in enumerate(kinds):
        if n == 2 and rng.random() < 0.5:  # a second season, current from now on
            table.post("seasons", {"name": "Printemps", "starts_on": date(2025, 3, 1).isoformat()})
        game_id = table.start(kind)
        assert game_id is not None, kind
        table.play(game_id, rng.randint(0, 5))
        if rng.random() < 0.4:
            table.correct(game_id)
        roll = rng.random()
        if roll < 0.2:
            table.delete_and_maybe_undo(game_id)
        elif roll < 0.35:
            table.action(game_id, "finish")
        elif roll < 0.5:
            table.action(game_id, "abandon")
            if rng.random() < 0.5:
                table.action(game_id, "reopen")
    if rng.random() < 0.3:
        table.post(f"players/{table.players[-1]}", {"name": "Zoé"})
    return table


def _standings(group_id: int) -> list[tuple[Any, ...]]:
    """A group's stored results, by game order and player name (ids aside)."""
    db.session.expire_all()
    rows = db.session.execute(
        sa.select(Game.created_at, Game.kind, Player.name, GameResult.status, GameResult.place, GameResult.won)
        .join(GameResult, GameResult.game_id == Game.id)
        .join(Player, Player.id == GameResult.player_id)
        .where(Player.group_id == group_id)
        .order_by(Game.created_at, Game.id, Player.name)
    )
    return [tuple(row) for row in rows]


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(rng=st.randoms(use_true_random=False))
def test_export_import_export_is_the_same_file_but_for_codes_and_ids(app: Flask, client: FlaskClient, rng) -> None:
    app.config["GROUPS_PER_HOUR"] = 10_000
    table = build(client, rng)
    first = client.get(f"/g/{table.code}/export.json")
    assert first.status_code == 200
    exported = json.loads(first.get_data())
    assert {g["kind"] for g in exported["games"]} <= set(KINDS)

    response = upload(client, first.get_data(), name=exported["group"]["name"])
    assert response.status_code == 302, response.get_data(as_text=True)[-3000:]
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert code != table.code
    again = json.loads(client.get(f"/g/{code}/export.json").get_data())
    assert normalised(again) == normalised(exported)

    copy = db.session.scalar(sa.select(Group.id).where(Group.code == code))
    assert _standings(copy) == _standings(table.group.id)
