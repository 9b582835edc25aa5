"""A fifth kind of game, for tests only: « Carte haute » (high card).

Each round every player shows one card; the highest rank wins the round (ace high; a
tie at the top: nobody scores); a point per round won; the first to 3 points wins the
game.  It lives here whole — its engine (:func:`play_round`), its :class:`GameKind`,
its season part, its live play (the live screen), its part of the rules API (:data:`API`), its
optional rules pages (set on an instance by a test) and its templates (served by a
:class:`jinja2.DictLoader` put in front of the app's loader) — so that the tests of
``test_fifth_kind.py`` can register it (:func:`install`) and play it through the shared
routes without any change outside the tests (issue 25).

Its words are its own (« Carte haute », « plis de carte haute », data-hc-*) so that a
page drawn by the shared code for another kind cannot pass for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jinja2
from flask import Flask
from wtforms import StringField, SubmitField

from companion.forms import add_error
from companion.games.forms import RoundForm, SeatsForm
from companion.games.kinds.base import Entry, GameKind, State
from companion.games.kinds.season_base import BoardLine, GameFacts, KindSeason, by_player, shared_places
from companion.games.live_play import LivePlay, MoveForm, Refused, StartForm, Step
from companion.games.rules_pages import RulesPages
from companion.i18n import current_lang
from companion.judge.game import ApiGame
from companion.models import Game, Group, LiveManche, Player
from companion.rules.cards import Card, Rank, parse_cards
from companion.rules.i18n import RulesError, Text

KIND_ID = "high-card"
#: Points that win the game.
TARGET = 3
#: Ranks from low to high, ace high.
ORDER: tuple[Rank, ...] = (*(r for r in Rank if r is not Rank.ACE), Rank.ACE)
POWER = {rank: i for i, rank in enumerate(ORDER)}

# ------------------------------------------------------------------ the engine (pure)


def round_taker(cards: Mapping[str, Card]) -> str | None:
    """Who shows the highest rank (None: a tie at the top, or no card).

    >>> round_taker({"a": Card.parse("Kh"), "b": Card.parse("As")})
    'b'
    >>> round_taker({"a": Card.parse("Kh"), "b": Card.parse("Ks"), "c": Card.parse("2c")}) is None
    True
    """
    if not cards:
        return None
    best = max(POWER[c.rank] for c in cards.values() if c.rank is not None)
    top = [p for p, c in cards.items() if c.rank is not None and POWER[c.rank] == best]
    return top[0] if len(top) == 1 else None


def start(players: Sequence[str]) -> State:
    """The state before the first round."""
    if not 2 <= len(players) <= 6:
        raise RulesError(Text("La carte haute se joue de 2 à 6.", "High card is played by 2 to 6."), "players")
    players = list(players)
    return {
        "players": players,
        "points": dict.fromkeys(players, 0),
        "taken": {},
        "shown": {},
        "taker": None,
        "over": False,
        "winners": [],
    }


def play_round(state: State, shown: Mapping[str, str]) -> State:
    """The state after a round where each player showed ``shown[player]`` (a card code)."""
    if state.get("over"):
        raise RulesError(Text("La partie de carte haute est finie.", "This high card game is over."), "cards")
    cards: dict[str, Card] = {}
    for p in state["players"]:
        code = shown.get(p)
        if not code:
            raise RulesError(Text("Chaque joueur montre une carte.", "Every player shows a card."), f"cards.{p}")
        card = Card.parse(code)
        if card.rank is None:
            raise RulesError(Text("Pas d’atout ni de joker à la carte haute.", "No trump nor joker."), f"cards.{p}")
        if card in cards.values():
            raise RulesError(Text("Cette carte est déjà montrée.", "That card is shown already."), f"cards.{p}")
        cards[p] = card
    taker = round_taker(cards)
    points = dict(state["points"])
    if taker is not None:
        points[taker] += 1
    winners = [p for p in state["players"] if points[p] >= TARGET]
    return {
        "players": list(state["players"]),
        "points": points,
        "taken": {p: int(p == taker) for p in state["players"]},
        "shown": {p: str(c) for p, c in cards.items()},
        "taker": taker,
        "over": bool(winners),
        "winners": winners,
    }


# ------------------------------------------------------------------ the kind's forms


class NewHighCardForm(SeatsForm):
    """Players in seat order; no house rule."""

    submit = SubmitField("Lancer la carte haute")

    def check_players(self, ids: Sequence[str]) -> None:
        start(list(ids))

    @property
    def rules(self) -> dict[str, Any]:
        return {}


def showdown_form(game: Game, state: State, number: int, entry: Entry | None = None) -> RoundForm:
    """One card field per player; the engine says who takes the round."""
    players = list(state["players"])
    name_of = {str(p.id): p.name for p in game.players}

    class ShowdownForm(RoundForm):
        submit = SubmitField("Enregistrer la levée")

        def validate(self, extra_validators: Any = None) -> bool:
            ok = super().validate(extra_validators)
            if self.round.errors:
                return False
            lang = current_lang()
            shown: dict[str, str] = {}
            for p in players:
                field = self[f"card_{p}"]
                try:
                    cards = parse_cards(field.data or "")
                except RulesError as e:
                    add_error(field, e.text.get(lang))
                    ok = False
                    continue
                if len(cards) != 1:
                    add_error(field, f"Une carte pour {name_of[p]}.")
                    ok = False
                    continue
                shown[p] = str(cards[0])
            if not ok:
                return False
            try:
                self.result = play_round(state, shown)
            except RulesError as e:
                _source, _dot, key = (e.field or "").partition(".")
                add_error(self[f"card_{key}"] if key in players else self.round, e.text.get(lang))
                return False
            self.entry = {"cards": shown}
            return True

    for p in players:
        setattr(ShowdownForm, f"card_{p}", StringField(f"Carte de {name_of[p]}"))
    data = None if entry is None else {f"card_{p}": c for p, c in (entry.get("cards") or {}).items()}
    return ShowdownForm(number, game.version, data=data)


# ------------------------------------------------------------------ the season


class HighCardSeason(KindSeason):
    """Points are the rounds taken; places by points (most first)."""

    standings_note = "Classement carte haute : parties gagnées, puis plis de carte haute."

    def csv_figures(self, state: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
        return state.get("taken") or {}, state.get("points") or {}

    def figures(self, facts: GameFacts, rows: dict[int, dict[str, Any]]) -> dict[int, int]:
        state = facts.last or {}
        points = by_player(state.get("points"), facts.players)
        for p, row in rows.items():
            row["points"] = int(points[p]) if p in points else None
        if not facts.rounds or len(points) != len(facts.players):
            return {}
        return shared_places({p: int(v) for p, v in points.items()})

    def sort_key(self, line: BoardLine) -> tuple[Any, ...]:
        return (-line.wins, -(line.points or 0))


# ------------------------------------------------------------------ the live screen


class HighCardLivePlay(LivePlay):
    """Each player lays a card in seat order; the last card laid ends the manche."""

    table_template = "referee/live_highcard.html"
    start_template = "referee/live_highcard_start.html"
    end_template = "referee/live_highcard_end.html"

    def opening(self, game: Game, stored: State) -> dict[str, Any]:
        return {"order": list(stored["players"])}

    def start(self, game: Game, stored: State, form: StartForm, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
        players = list(stored["players"])
        return {"players": players, "laid": {}}, {"to_move": players[0], "finished": False, "taker": None}

    def moves(self, form: MoveForm, state: dict[str, Any], view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
        player = view.get("to_move")
        if not player:
            raise Refused("La manche de carte haute est finie.")
        text = (form.cards.data or form.card.data or "").strip()
        if not text:
            raise Refused("Montrez une carte.", "cards")
        try:
            card = Card.parse(text)
        except RulesError as e:
            raise Refused(e.text.get(lang), "cards") from None
        return [{"player": player, "card": str(card)}]

    def body(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        return {"game": game.kind, "state": state, "move": move}

    def renamed(self, data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
        """The shared fields, and this kind's own: ``laid``, by player."""
        out = super().renamed(data, names)
        if isinstance(out.get("laid"), dict):
            out["laid"] = {names.get(p, p): card for p, card in out["laid"].items()}
        return out

    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        players = state["players"]
        laid = {**state["laid"], move["player"]: move["card"]}
        if Card.parse(move["card"]) in {Card.parse(c) for c in state["laid"].values()}:
            raise RulesError(Text("Cette carte est déjà montrée.", "That card is shown already."), "move.card")
        after = {"players": players, "laid": laid}
        left = [p for p in players if p not in laid]
        if left:
            return Step(move, after, {"to_move": left[0], "finished": False, "taker": None}, [])
        taker = round_taker({p: Card.parse(c) for p, c in laid.items()})
        return Step(move, after, {"to_move": None, "finished": True, "taker": taker}, ["shown"])

    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        assert row.state is not None
        return {"cards": dict(row.state["laid"])}


# ------------------------------------------------------------------ its rules pages (optional)


class HighCardRulesPages(RulesPages):
    """No house rule: the pages say the target."""

    def stem(self, kind_id: str) -> str:
        return "high_card"

    def rank(self, kind_id: str) -> int:
        return 9

    def game_context(self, game: Game) -> dict[str, Any]:
        return {
            "on": [],
            "off": [],
            "settings": [f"Le premier à {TARGET} levées de carte haute gagne."],
            "no_options": True,
        }


# ------------------------------------------------------------------ its part of the rules API


def api_check(body: dict[str, Any], lang: str) -> dict[str, Any]:
    """``POST /api/v1/check`` for a high-card table: a card not shown yet is legal."""
    state, move = body["state"], body["move"]
    players, laid = list(state["players"]), dict(state.get("laid") or {})
    try:
        card = Card.parse(move["card"])
    except RulesError as e:
        raise RulesError(e.text, "move.card") from None
    if card in {Card.parse(c) for c in laid.values()}:
        return {
            "legal": False,
            "reason": Text("Cette carte est déjà montrée.", "That card is shown already.").get(lang),
        }
    # ``laid`` is keyed as the caller keyed it; who is next is counted, not named.
    count = len(laid) + 1
    return {"legal": True, "next_player": players[count] if count < len(players) else None}


def api_outcome(body: dict[str, Any], lang: str) -> dict[str, Any]:
    taker = round_taker({p: Card.parse(c) for p, c in body["cards"].items()})
    return {"taker": taker}


def api_said(body: Mapping[str, Any], move: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Text]:
    nxt = answer.get("next_player")
    if nxt is None:
        return [Text("Toutes les cartes hautes sont montrées.", "Every high card is shown.")]
    return [Text(f"À {nxt} de montrer sa carte haute.", f"{nxt} shows their high card next.")]


API = ApiGame(
    id=KIND_ID,
    order=99,
    title="high card",
    component="HighCard",
    requests={"check": {"type": "object", "required": ["state", "move"]}, "outcome": {"type": "object"}},
    answers={"check": {"type": "object"}, "outcome": {"type": "object"}},
    check=api_check,
    outcome=api_outcome,
    narration=api_said,
)


# ------------------------------------------------------------------ the kind


class HighCard(GameKind):
    """Carte haute: the highest card takes the round; first to 3."""

    id = KIND_ID
    name = "Carte haute"  # type: ignore[assignment]
    blurb = "La plus haute carte prend la levée ; le premier à 3 gagne."  # type: ignore[assignment]
    new_template = "games/new_high_card.html"
    game_template = "games/high_card.html"
    round_template = "games/high_card_round.html"
    round_word = "round"
    season = HighCardSeason()
    live_play = HighCardLivePlay()
    api = API

    def setup_form(self, group: Group | None, players: list[Player], **form: Any) -> NewHighCardForm:
        return NewHighCardForm(players, **form)

    def initial_state(self, game: Game) -> State:
        return start([str(p.id) for p in game.players])

    def round_form(self, game: Game, state: State, number: int, entry: Entry | None = None) -> RoundForm:
        return showdown_form(game, state, number, entry)

    def score(self, game: Game, state: State, entry: Entry) -> State:
        return play_round(state, entry.get("cards") or {})

    def leaders(self, state: State) -> list[str]:
        best = max(state["points"].values())
        return [p for p in state["players"] if state["points"][p] == best]

    def summary(self, before: State, after: State, names: dict[str, str]) -> list[str]:
        return [
            f"{names.get(p, p)} : {before['points'].get(p)} → {after['points'].get(p)} plis de carte haute"
            for p in after["players"]
            if before["points"].get(p) != after["points"].get(p)
        ]

    def page_context(self, game: Game, state: State, names: dict[str, str]) -> dict[str, Any]:
        ranking = sorted(state["players"], key=lambda p: -state["points"][p])
        winners = (game.ending or {}).get("winners", state.get("winners", []))
        return {"ranking": ranking, "target": TARGET, "winner_names": [names[p] for p in winners]}


# ------------------------------------------------------------------ its templates

TEMPLATES = {
    "games/new_high_card.html": """{% extends "base.html" %}
{% from "_macros.html" import error_summary, errors %}
{% block title %}Carte haute{% endblock %}
{% block content %}
  <h1>Nouvelle partie de carte haute</h1>
  {% if not season %}<p class="error">Pas de saison.</p>{% else %}
  <form method="post" novalidate data-hc-new>
    {{ error_summary(form) }}
    {{ form.hidden_tag() }}
    {% for seat in form.seats %}{{ seat() }}{% endfor %}
    {{ errors(form.seats) }}
    {{ form.submit(class_='button primary big') }}
  </form>
  {% endif %}
{% endblock %}
""",
    "games/high_card.html": """{% extends "base.html" %}
{% from "games/_game.html" import round_footer, game_controls, referee_bar %}
{% block title %}Carte haute{% endblock %}
{% block content %}
  {% call cached('game') %}
  <h1>Carte haute</h1>
  {% if game.status.value == 'finished' %}
    <p class="banner" role="status" data-hc-winners>Vainqueur de la carte haute : {{ winner_names|join(', ') }}</p>
  {% elif game.status.value == 'in_progress' %}
    <p><a class="button primary big" href="{{ url_for('games.new_round', code=group.code, game_id=game.id) }}">
      {{- kind.enter_round(round_count + 1, game) }}</a></p>
  {% endif %}
  {{ referee_bar(game, group, kind) }}
  <h2>Plis de carte haute (premier à {{ target }})</h2>
  <ol class="board">
    {% for p in ranking %}
      <li data-hc-player="{{ names[p] }}">{{ names[p] }} <span data-hc-points>{{ state.points[p] }}</span></li>
    {% endfor %}
  </ol>
  <h2>{{ kind.rounds_title() }}</h2>
  {% if not rounds %}<p class="muted">{{ kind.no_round_yet() }}</p>{% endif %}
  {% for rnd in rounds %}
    {% set r = rnd.result %}
    <article class="hand" id="hand-{{ rnd.number }}">
      <h3>{{ kind.round_name(rnd.number, game) }}</h3>
      <p data-hc-round="{{ rnd.number }}">
        {%- for p in r.players %}{{ names[p] }} {{ r.shown[p] }}{{ ', ' if not loop.last }}{% endfor %}
        · levée : {% if r.taker %}{{ names[r.taker] }}{% else %}personne{% endif %}</p>
      {{ round_footer(rnd, game, group, kind) }}
    </article>
  {% endfor %}
  {% endcall %}
  {{ game_controls(game, group, kind, round_count, cached, changes, change_text) }}
{% endblock %}
""",
    "games/high_card_round.html": """{% extends "base.html" %}
{% from "games/_game.html" import outbox_label, changed_meanwhile %}
{% from "_macros.html" import csrf_input, error_summary, errors, hidden_fields %}
{% block title %}{{ kind.round_name(number) }}{% endblock %}
{% block content %}
  {% call cached("above") %}
  <h1>{{ kind.round_name(number, game) }} de carte haute</h1>
  {{ changed_meanwhile(changed, game, group) }}
  <form method="post" novalidate id="hand-form" data-hc-round-form>
    {{ error_summary(form) }}
  {% endcall %}
    {{ csrf_input() }}
  {% call cached("below") %}
    {{ hidden_fields(form) }}
    {{ errors(form.round) }}
    {% for p in state.players %}
      {% set f = form['card_' ~ p] %}
      <label for="{{ f.id }}">{{ f.label.text }}</label>{{ f() }}{{ errors(f) }}
    {% endfor %}
    {{ form.submit(class_='button primary big') }}
  </form>
  {% endcall %}
{% endblock %}
""",
    "referee/rules_high_card.fr.html": """{% extends "referee/rules_page.html" %}
{% block rules %}
  <p class="lead" data-hc-rules>La plus haute carte prend la levée ; le premier à 3 gagne.</p>
{% endblock %}
""",
    "referee/live_highcard_start.html": """<p class="lead" data-hc-start>
  Chacun montre une carte haute : {{ order_names|join(' → ') }}.</p>
""",
    "referee/live_highcard_end.html": """<p data-hc-end>
  Levée de carte haute : {% if view.taker %}{{ names[view.taker] }}{% else %}personne{% endif %}.</p>
""",
    "groups/_board_high-card.html": """<thead><tr><th scope="col">Joueur</th><th scope="col">Gagnées</th>
  <th scope="col">Plis de carte haute</th></tr></thead>
<tbody>
  {% for line in board.lines %}
    <tr data-hc-line="{{ line.player.name }}"><th scope="row">{{ rank(line.rank_text) }}{{ line.player.name }}</th>
      <td>{{ line.wins }}</td><td>{{ line.points }}</td></tr>
  {% endfor %}
</tbody>
""",
    "referee/live_highcard.html": """{#- Carte haute live: whose turn, the cards laid, one card to lay. -#}
<p class="live-turn" id="turn" role="status" data-hc-turn>
  {%- if view.finished %}Levée de carte haute : {% if view.taker %}{{ names[view.taker] }}{% else %}personne{% endif %}
  {%- else %}{{ names[view.to_move] }} montre sa carte haute.{% endif -%}
</p>
<ul class="live-players">
  {% for p in state.players %}
    <li data-hc-laid="{{ names[p] }}">{{ names[p] }} {{ state.laid.get(p, '…') }}</li>
  {% endfor %}
</ul>
{% if not view.finished %}
  <form method="post" action="{{ url_for('referee.live_move', code=group.code, game_id=game.id) }}"
        novalidate id="hand-form" class="live-move">
    {{ form.csrf_token }}
    <input type="hidden" name="version" value="{{ form.version.data }}">
    <label for="{{ form.cards.id }}">Carte montrée</label>{{ form.cards() }}{{ errors(form.cards) }}
    <button class="button primary" type="submit">Montrer</button>
  </form>
{% else %}
  {% include "referee/live_end.html" %}
{% endif %}
""",
}


def install(app: Flask) -> None:
    """Serve the kind's templates on ``app`` (before the app's own)."""
    app.jinja_env.loader = jinja2.ChoiceLoader([jinja2.DictLoader(TEMPLATES), app.jinja_env.loader])
