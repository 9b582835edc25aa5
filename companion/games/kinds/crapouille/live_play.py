"""La crapouille followed live, card by card (:mod:`companion.referee.live`).

Exposed as :attr:`Crapouille.live_play <companion.games.kinds.crapouille.Crapouille.live_play>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.kinds.base import State
from companion.games.kinds.crapouille.widgets import card_picker
from companion.games.live_play import LivePlay, MoveForm, Refused, StartForm, Step, one_card, player_of
from companion.i18n import gettext as _
from companion.models import Game, LiveManche
from companion.rules.cards import Card, Suit, parse_cards
from companion.rules.crapouille import DECK, Draw, Options, Pile, PlayCard, deal
from companion.rules.i18n import RulesError

#: La crapouille: the pile keeps its last cards only (the engine reads the top card, the
#: jokers on it and the card under them); cards under them go back to the draw pile at
#: the table, and must not count twice against the deck when they come out again.
PILE_KEPT = 12


class CrapouilleLivePlay(LivePlay):
    """La crapouille: a :class:`~companion.rules.crapouille.Pile` from the card turned up,
    with the players still in."""

    table_template = "referee/live_crapouille.html"
    start_template = "referee/live_crapouille_start.html"
    end_template = "referee/live_crapouille_end.html"
    #: Its end box says who went out and who draws one more card.
    end_says_last_move = True

    def field_labels(self) -> dict[str, str]:
        """One card laid (or drawn and laid), and « Sa dernière carte »."""
        return {"cards": _("Card laid (or drawn and laid)"), "last": _("Their last card")}

    def opening(self, game: Game, stored: State) -> dict[str, Any]:
        return {"order": list(stored["in_play"])}

    def start(self, game: Game, stored: State, form: StartForm, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
        players = list(stored["in_play"])
        card = one_card(form.card.data or "", lang, "card", _("Pick the card turned up to start the pile."))
        first = form.first.data or ""
        if first not in players:
            raise Refused(_("Say who plays first."), "first")
        try:
            pile = Pile(tuple(players), (card,), 1, None, first, Options.from_options(game.rules))
        except RulesError as e:
            raise Refused(e.text.get(lang), "card") from None
        return pile.to_state(), self._view(pile, None, (), [])

    @staticmethod
    def _view(pile: Pile, target: str | None, skipped: Sequence[str], effects: Sequence[str]) -> dict[str, Any]:
        """What the screen shows: whose turn, who must draw now (``target``: the player a
        2 makes draw, or who draws one more card when the hand ended on a 2; never the
        player who drew on his own turn, which is his move, not news), who loses a turn."""
        return {
            "to_move": pile.turn,
            "finished": "out" in effects,
            "target": target,
            "skipped": list(skipped),
            "drew": "draw" in effects and target is not None,
        }

    @staticmethod
    def read(state: Mapping[str, Any], game: Game | None) -> Pile:
        """The engine's pile from its stored state (:meth:`Pile.to_state`); without the
        game, under the plain rules (which card fits does not depend on them)."""
        asked = state.get("asked")
        return Pile(
            tuple(state["players"]),
            parse_cards(state["pile"]),
            int(state["direction"]),
            None if asked is None else Suit(asked),
            state.get("turn"),
            Options.from_options(None if game is None else game.rules),
            state.get("out"),
        )

    def moves(self, form: MoveForm, state: dict[str, Any], view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
        if view.get("finished"):
            raise Refused(_("The hand is over."))
        player = player_of(form, view, state["players"])
        text = (form.cards.data or "").strip()
        asked = form.asked.data if form.asked.data in {s.value for s in Suit} else None
        if form.action.data == "draw":
            if not text:
                return [{"player": player, "draw": True}]
            # The drawn card, when it fits, is laid at once (seed 003: « qu'il met sur la
            # dernière carte posée si elle est de même couleur ou de même rang »): one move,
            # told once (« Ann pioche et pose 7♥ »), taken back at once.  Whether it fits is
            # the engine's to say (``Pile.accepts``); one that does not stays in hand, unseen.
            card = one_card(text, lang, "cards", "")
            drawn: dict[str, Any] = {"player": player, "draw": True, "drawn": str(card)}
            if self.read(state, None).accepts(card):
                drawn["card"] = str(card)
                if asked:
                    drawn["asked"] = asked
            return [drawn]
        card = one_card(text, lang, "cards", _("Pick the card laid, or draw."))
        move: dict[str, Any] = {"player": player, "card": str(card), "last": bool(form.last.data)}
        if asked:
            move["asked"] = asked
        if form.unannounced.data:
            move["announced"] = False
        return [move]

    def judged(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        """A drawn card laid at once is judged as the card laid (its turn, its suit with
        an 8, what it does).  A draw whose card stays in hand is judged as the draw of a
        card that does not fit (whichever: the engine only needs to know it is not laid),
        so that the engine names who plays next."""
        if move.get("draw") and move.get("card"):
            return {k: v for k, v in move.items() if k in ("player", "card", "asked")}
        if not move.get("draw") or move.get("drawn"):
            return move
        pile = self.read(state, game)
        laid = parse_cards(state["pile"])
        for card in dict.fromkeys(DECK.cards()):
            if not pile.accepts(card) and laid.count(card) < DECK.limit(card):
                return {**move, "drawn": str(card)}
        raise Refused(_("Any card fits on this pile: pick the card drawn, it is laid at once."), "cards")

    def advance(self, game: Game, state: dict[str, Any], move: dict[str, Any]) -> Step:
        pile = self.read(state, game)
        engine_move: Draw | PlayCard
        if move.get("draw"):
            drawn = move.get("drawn")
            engine_move = Draw(move["player"], None if drawn is None else Card.parse(drawn))
        else:
            asked = move.get("asked")
            engine_move = PlayCard(
                move["player"],
                Card.parse(move["card"]),
                None if asked is None else Suit(asked),
                bool(move.get("last")),
                bool(move.get("announced", True)),
            )
        verdict = pile.check(engine_move)
        after = pile.apply(engine_move)
        effects = [e.value for e in verdict.effects]
        if len(after.pile) > 2 * PILE_KEPT:
            after = Pile(
                after.players,
                after.pile[-PILE_KEPT:],
                after.direction,
                after.asked,
                after.turn,
                after.options,
                after.out,
            )
        # A player's own draw is his move, not news: only someone else made to draw is shown.
        target = None if isinstance(engine_move, Draw) else verdict.target
        return Step(move, after.to_state(), self._view(after, target, verdict.skipped, effects), effects)

    def entry(self, game: Game, row: LiveManche) -> dict[str, Any]:
        """Who went out, and when he finished on a 2, who draws one more card, which counts
        (the engine's ``target``: seed 003, « Lorsqu'un joueur termine en posant un 2 sur la
        table, par convention, le joueur suivant prend une carte supplémentaire. »)."""
        out = next((m for m in reversed(row.moves) if "out" in (m.get("effects") or [])), None)
        entry: dict[str, Any] = {"winner": None if out is None else out["player"]}
        if out is not None and "finish_on_two" in out["effects"] and row.view and row.view.get("target"):
            entry["extra_card"] = row.view["target"]
        return entry

    def picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        return card_picker(lang)

    def start_picker(self, game: Game, lang: str) -> dict[str, Any] | None:
        """The card turned up to start the pile is picked."""
        return self.picker(game, lang)

    def deck(self, game: Game) -> tuple[int, int]:
        return 2, DECK.joker_limit

    def screen(
        self, game: Game, row: LiveManche, names: Mapping[str, str], lang: str, shown: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The suits by their names (the suit asked with an 8)."""
        return {"suit_names": {s.value: f"{s.symbol} {s.name_in(lang)}" for s in Suit}}

    def hands(self, game: Game, stored: State, state: Mapping[str, Any]) -> dict[str, int] | None:
        """Five cards each (seed 003: « Le donneur distribue cinq cartes à chacun »), or with
        Super crapouille ten dealt and five discarded: five kept."""
        kept = deal(Options.from_options(game.rules).super).kept
        return dict.fromkeys(state["players"], kept)

    def held(self, hands: dict[str, int], step: Step) -> dict[str, int]:
        """A draw adds a card to its player's hand (a drawn card laid at once leaves it
        again); a 2, even one drawn and laid, makes ``target`` draw one."""
        hands = super().held(hands, step)
        drawers = [step.move.get("player")] if step.move.get("draw") else []
        if "draw" in step.effects and step.view.get("target"):
            drawers.append(step.view["target"])
        for drawer in drawers:
            if drawer in hands:
                hands[drawer] += 1
        return hands
