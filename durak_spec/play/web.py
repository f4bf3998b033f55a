"""The rules website's live boards: engine answers as JSON for the page (layer 7).

The book's "Try it" buttons and its "Play a game" page run this module in the browser
(Pyodide). The page sends a request, a JSON object with an ``op``, to
:meth:`Board.request` or :meth:`Match.request` and draws what comes back; it decides
nothing itself. Nor does this module: every legal move comes from
:func:`~durak_spec.engine.legal_actions`, every refusal from
:func:`~durak_spec.engine.check` (with the rule's ID and the engine's reason), every
new position from :func:`~durak_spec.engine.apply`, every picture from
:func:`~durak_spec.game.svg.position_svg`, the computer's moves from the bots of
:mod:`durak_spec.play.bots`, and the review of a finished game from the coach of
:mod:`durak_spec.play.review`.

* :class:`Board`: an example position of the book, every hand face up, every player's
  moves made by the reader (any player may act whenever the engine lets them: the
  defender, each thrower, as at a real table). "reset" goes back to the example's
  position, "example" plays the example's own moves one by one.
* :class:`Match`: a whole game against computer players, from one seat's view, saved
  and resumed in the ``durak-spec/game`` v1 format of :mod:`durak_spec.game.persist`, so
  that a game moves between the browser and ``durak-spec play --load``.

Requests (all answers are JSON objects; a malformed request gets
``{"result": "error", "code": ..., "message": ...}``, never an exception):

==========================================  ===============================================
``{"op": "board"}``                          the position: picture, moves, buttons, words
``{"op": "tap", "seat": 1, "card": "9♣"}``  a card of a hand tapped: played if one legal
                                             move uses it, a choice if several, else the
                                             move it most likely means, refused with the
                                             rule (``"target"`` names the attack card)
``{"op": "move", "id": 3}``                  one of the listed legal moves
``{"op": "action", "action": {...}}``        any action (``Action.to_json``), checked
``{"op": "undo"}``, ``{"op": "reset"}``      a move back; back to the start
``{"op": "example"}``                        (:class:`Board`) the example's next move
``{"op": "computer"}``                       (:class:`Match`) the next computer move
``{"op": "save"}``                           (:class:`Match`) the saved game, as text
``{"op": "review", "budget_ms": 200}``       (:class:`Match`, a finished game) the coach
                                             on the reader's moves, run for about
                                             ``budget_ms`` a request: ``"reviewing"``
                                             with its progress until ``"review"``
==========================================  ===============================================

The review (:func:`review_game`) is the coach of :mod:`durak_spec.play.review` with the
browser's small sample (``REVIEW_SAMPLES`` deals a decision, a few seconds in Pyodide):
at most five marked moves of the reader's seat, each with its one-line reason, the tip it
went against with the links to the tip and its evidence, and the position as the reader
saw it with the better move drawn. The coach judges from the reader's view only, and the
pictures show the other hands face down: no hidden card reaches the page.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from durak_spec.core.cards import Card, CardError, Rank, parse_card
from durak_spec.core.errors import DurakError, IllegalAction, InputError
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.engine import advance, check, legal_actions, throwers
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.game.svg import position_svg
from durak_spec.game.view import view
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
    action_from_json,
)
from durak_spec.model.events import Step, Transferred, bout_end_text
from durak_spec.model.rules import PROFILES, RuleSet, profile
from durak_spec.model.state import GameState
from durak_spec.play.bots import BOT_KINDS, Bot, acting_seat, make_bot
from durak_spec.play.review import Review, ReviewSteps, SamplingEvaluator, review_steps
from durak_spec.play.review.report import move_svg, named

__all__ = ["OPPONENTS", "REVIEW_CANDIDATES", "REVIEW_CONFIRM", "REVIEW_SAMPLES", "Board",
           "Match", "RequestError", "review_answer", "review_game"]

OPPONENTS: tuple[str, ...] = tuple(k for k in BOT_KINDS if k in ("random", "heuristic", "ismcts"))
"""The computer players the page offers: not the sampling search player, too slow there;
the tree search player thinks at most about a second a move (``ISMCTS_SECONDS``)."""

_SEAT = re.compile(r"\bP([0-9])\b")

REVIEW_SAMPLES = 4
"""Deals sampled per decision by the page's coach: a review takes a few seconds in
Pyodide (``durak-spec review`` samples 16 by default; the page says so)."""
REVIEW_CANDIDATES = 6
"""Moves compared per decision by the page's coach (the terminal's compares 10)."""
REVIEW_CONFIRM = 1
"""Rounds of fresh deals in which the page's coach weighs a likely mark again."""


class RequestError(InputError):
    """A request from the page that is not well-formed (no rule of the game is asked)."""

    code = "request"


# -- words ----------------------------------------------------------------------------------


def _names(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    given = [str(n) for n in names or () if str(n).strip()]
    if len(given) != players:
        return tuple(f"Player {seat + 1}" for seat in range(players))
    return tuple(given)


def _speak(text: str, names: Sequence[str]) -> str:
    """The engine's seat codes (``P1``) as the players' names."""
    return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                     else m.group(0), text)


def _words(action: Action, names: Sequence[str]) -> str:
    return f"{names[action.player]}: {action.move}"


def _card_of_exchange(state: GameState) -> Card:
    return Card(Rank.SIX, state.trump)


def _cards_used(action: Action, state: GameState) -> tuple[Card, ...]:
    """The hand cards a move uses: what it plays or shows (the trump six for an exchange,
    as the book's pictures count it)."""
    if isinstance(action, ExchangeTrump):
        return (_card_of_exchange(state),)
    return action.cards


def _turn_words(state: GameState, names: Sequence[str]) -> str:
    outcome = state.outcome
    if outcome is not None:
        if outcome.durak is None:
            return "The game is over: a draw, nobody is the durak."
        return f"The game is over: {names[outcome.durak]} is the durak."
    actions = legal_actions(state)
    seats = sorted({a.player for a in actions})
    if not state.table:
        return f"{names[state.attacker]} opens the next bout against {names[state.defender]}."
    others = [names[s] for s in seats if s != state.defender]
    who = " and ".join(others) if len(others) < 3 else \
        ", ".join(others[:-1]) + " and " + others[-1]
    defence = (f"{names[state.defender]} takes" if state.taking else
               f"{names[state.defender]} defends")
    if state.defender not in seats and not state.taking:
        defence += " (nothing to do now)"
    return f"{defence}; {who} may add cards or say done." if who else f"{defence}."


def _rule_answer(error: IllegalAction, names: Sequence[str]) -> dict[str, Any]:
    index = load_rule_index()
    return {"rule": error.rule, "rule_title": index[error.rule].title
            if error.rule in index else "", "reason": _speak(error.reason, names)}


def _parse_card(value: object, what: str) -> Card:
    if not isinstance(value, str):
        raise RequestError(f"{what} must be a card like '7♣', not {value!r}")
    try:
        return parse_card(value)
    except CardError as error:
        raise RequestError(f"{what}: {error}") from None


def _parse_request(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise RequestError(f"a request is a JSON object, and this is not JSON: {error}") \
            from None
    if not isinstance(data, dict) or not isinstance(data.get("op"), str):
        raise RequestError("a request is a JSON object with an 'op' such as "
                           '{"op": "board"}')
    return data


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{key!r} must be a whole number, not {value!r}")
    return value


def _answer(compute: Any, text: str) -> str:
    try:
        result = compute(_parse_request(text))
    except DurakError as error:
        result = {"result": "error", "code": error.code, "message": str(error)}
    return json.dumps(result, ensure_ascii=False)


# -- the coach ---------------------------------------------------------------------------------


def _review_steps(game: Game, seat: int, seed: int) -> ReviewSteps:
    return review_steps(game, seats=[seat], seed=seed,
                        evaluator=SamplingEvaluator(REVIEW_SAMPLES),
                        max_candidates=REVIEW_CANDIDATES, confirm=REVIEW_CONFIRM)


def review_answer(result: Review, names: Sequence[str]) -> dict[str, Any]:
    """A finished review as the page shows it: the marked moves (at most five, the
    costliest first), each with its reason in the players' names, its tip and the
    picture of the position as the mover saw it with the better move outlined."""
    marked = [{
        "number": move.index + 1, "bout": move.seen.bout + 1,
        "played": move.played.action.move, "better": move.better.action.move,
        "drop": round(move.drop, 4), "reason": named(move.reason, names),
        "tip": None if move.tip is None else move.tip.to_json(),
        "svg": str(move_svg(move, names)),
    } for move in result.marked]
    return {"result": "review", "seat": result.seats[0], "decisions": len(result.moves),
            "samples": REVIEW_SAMPLES, "marked": marked}


def review_game(game: Game, seat: int, *, names: Sequence[str] | None = None,
                seed: int = 0) -> dict[str, Any]:
    """The page's review of ``seat``'s moves in the finished ``game`` at once (the page
    itself asks :class:`Match` for it a piece at a time): see :func:`review_answer`.
    Raises :class:`~durak_spec.play.review.ReviewError` for a game not finished."""
    steps = _review_steps(game, seat, seed)
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            return review_answer(finished.value, _names(names, game.rules.players))


# -- the board of one position ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """A move made on a board, and the position before it."""

    before: GameState
    action: Action


class _Live:
    """What both boards share: a position, its history, and the answers to taps."""

    def __init__(self, state: GameState, names: Sequence[str] | None) -> None:
        self.start = state
        self.state = state
        self.names = _names(names, state.players)
        self.steps: list[_Step] = []
        self.moves: tuple[Action, ...] = ()
        self.last: tuple[Card, ...] = ()

    # the seats whose moves the reader makes, and how the picture is drawn
    def movers(self) -> frozenset[int]:
        return frozenset(range(self.state.players))

    def picture(self) -> str:
        return str(position_svg(self.state, names=self.names, highlight=self.last))

    # -- the position as the page shows it ----------------------------------------------------

    def refresh(self) -> tuple[Action, ...]:
        """The legal moves of the seats the reader plays, numbered as the page lists them."""
        movers = self.movers()
        self.moves = tuple(a for a in legal_actions(self.state) if a.player in movers)
        return self.moves

    def board(self) -> dict[str, Any]:
        state = self.state
        movers = self.movers()
        self.refresh()
        uses: dict[tuple[int, Card], list[int]] = {}
        for number, action in enumerate(self.moves):
            for card in _cards_used(action, state):
                uses.setdefault((action.player, card), []).append(number)
        cards = [{"seat": seat, "card": str(card), "moves": uses.get((seat, card), [])}
                 for seat in sorted(movers) for card in state.hands[seat]]
        return {
            "svg": self.picture(),
            "names": list(self.names),
            "turn": _turn_words(state, self.names),
            "over": state.outcome is not None,
            "moves": [{"id": n, "seat": a.player, "kind": a.kind, "text": _words(a, self.names),
                       "action": a.to_json()} for n, a in enumerate(self.moves)],
            "cards": cards,
            "buttons": self._buttons(movers),
            "history": [_words(step.action, self.names) for step in self.steps],
            "position": persist.state_to_json(state),
        }

    def _buttons(self, movers: frozenset[int]) -> list[dict[str, Any]]:
        """The moves without a card: take for the defender, done for every thrower, the
        trump exchange where it is legal; each marked legal or not by the engine."""
        state = self.state
        legal = set(self.moves)
        wanted: list[Action] = []
        if state.table and state.outcome is None:
            wanted.append(Take(state.defender))
            wanted.extend(Done(seat) for seat in throwers(state) if seat not in state.out)
        wanted.extend(a for a in self.moves if isinstance(a, ExchangeTrump))
        words = {"take": "takes", "done": "says done", "exchange": "exchanges the trump six"}
        return [{"seat": a.player, "kind": a.kind, "legal": a in legal,
                 "text": f"{self.names[a.player]} {words[a.kind]}", "action": a.to_json()}
                for a in wanted if a.player in movers]

    # -- moves ----------------------------------------------------------------------------

    def play(self, action: Action) -> dict[str, Any]:
        """Play ``action`` if the engine allows it, else say which rule forbids it."""
        if action.player not in self.movers():
            return {"result": "refused", "action": _words(action, self.names),
                    "rule": None, "rule_title": "",
                    "reason": f"{self.names[action.player]} is played by the computer here"}
        before = self.state
        try:
            check(before, action)
        except IllegalAction as error:
            return {"result": "refused", "action": _words(action, self.names),
                    **_rule_answer(error, self.names)}
        step = advance(before, action)
        self.state = step.state
        self.steps.append(_Step(before, action))
        self.last = _cards_used(action, before) if not isinstance(action, Take | Done) else ()
        return {"result": "played", "action": _words(action, self.names),
                "events": self._events(step), "board": self.board()}

    def _events(self, step: Step) -> list[str]:
        """What the engine reported about the step, in the players' names."""
        after = step.state
        events: list[str] = []
        for transfer in step.of(Transferred):
            events.append(f"{self.names[transfer.defender]} defends now.")
        if step.bout_ended is not None:
            events.append(_speak(bout_end_text(step.events, len(after.stock)), self.names))
        if after.outcome is not None:
            events.append(_turn_words(after, self.names))
        return events

    def tap(self, seat: int, card: Card, target: Card | None) -> dict[str, Any]:
        """A card of ``seat``'s hand tapped (and ``target``, an attack card, if given)."""
        state = self.state
        if not 0 <= seat < state.players:
            raise RequestError(f"there is no seat {seat} in a game of {state.players}")
        if card not in state.hands[seat]:
            raise RequestError(f"{card} is not in {self.names[seat]}'s hand")
        if target is not None:
            return self.play(Cover(seat, target, card))
        self.refresh()
        using = [n for n, a in enumerate(self.moves)
                 if a.player == seat and card in _cards_used(a, state)]
        if len(using) == 1:
            return self.play(self.moves[using[0]])
        if using:
            return {"result": "choose", "card": str(card), "seat": seat, "moves": using}
        # No legal move uses the card: refused at once, never a choice of attack cards
        # that are all refused alike.
        return self.play(self._meant(seat, card))

    def _meant(self, seat: int, card: Card) -> Action:
        """The move a tap on a card no legal move uses most likely means, for the engine
        to say why not: open on an empty table, cover (or transfer) for the defender,
        throw in for anyone else. A defender's cover goes on an uncovered card of the
        card's suit if there is one (the refusal then says it is too low), else the
        first."""
        state = self.state
        if not state.table:
            return Open(seat, (card,))
        if seat == state.defender:
            uncovered = state.uncovered
            if uncovered:
                same = [c for c in uncovered if c.suit == card.suit]
                return Cover(seat, (same or uncovered)[0], card)
            return Transfer(seat, card)
        return ThrowIn(seat, card)

    def undo(self) -> dict[str, Any]:
        if not self.steps:
            return {"result": "refused", "action": "undo", "rule": None, "rule_title": "",
                    "reason": "there is no move to take back"}
        step = self.steps.pop()
        self.state = step.before
        self.last = ()
        return {"result": "played", "action": "undo", "events": [], "board": self.board()}

    def reset(self) -> dict[str, Any]:
        self.state = self.start
        self.steps.clear()
        self.last = ()
        return {"result": "played", "action": "reset", "events": [], "board": self.board()}

    # -- requests -------------------------------------------------------------------------

    def handle(self, data: Mapping[str, Any]) -> dict[str, Any]:
        op = data["op"]
        if op == "board":
            return {"result": "board", "board": self.board()}
        if op == "tap":
            target = data.get("target")
            return self.tap(_int(data, "seat"), _parse_card(data.get("card"), "card"),
                            None if target is None else _parse_card(target, "target"))
        if op == "move":
            self.refresh()
            number = _int(data, "id")
            if not 0 <= number < len(self.moves):
                raise RequestError(f"there is no move {number}: the moves are 0 to "
                                   f"{len(self.moves) - 1}")
            return self.play(self.moves[number])
        if op == "action":
            action = action_from_json(data.get("action"))  # type: ignore[arg-type]
            if not 0 <= action.player < self.state.players:
                raise RequestError(f"there is no seat {action.player} in a game of "
                                   f"{self.state.players}")
            return self.play(action)
        if op == "undo":
            return self.undo()
        if op == "reset":
            return self.reset()
        return self.other(op, data)

    def other(self, op: str, data: Mapping[str, Any]) -> dict[str, Any]:
        raise RequestError(f"unknown request {op!r}")


class Board(_Live):
    """An example position to try: every hand face up, every player's moves the reader's.

    ``example`` lists the example's own moves (accepted or refused by the engine when the
    book was built), for the page's "the example's move" button.
    """

    def __init__(self, state: GameState, names: Sequence[str] | None = None,
                 example: Sequence[Action] = ()) -> None:
        super().__init__(state, names)
        self.example = tuple(example)
        self.shown = 0
        """How many of the example's moves were shown since the last reset."""
        self.synced = 0
        """How many moves were on the board when ``shown`` last grew."""

    @classmethod
    def from_page(cls, position: str, names: str = "", example: str = "") -> Board:
        """A board from a picture's data: its ``data-position`` (the saved-position JSON),
        ``data-players`` (names, comma-separated) and ``data-moves`` (a JSON list of
        actions)."""
        try:
            data = json.loads(position)
            moves = json.loads(example) if example else []
        except ValueError as error:
            raise RequestError(f"the picture's data is not JSON: {error}") from None
        state = persist.state_from_json(data)
        if not isinstance(moves, list):
            raise RequestError("the example's moves must be a JSON list of actions")
        actions = [action_from_json(m) for m in moves]
        return cls(state, [n.strip() for n in names.split(",")] if names else None, actions)

    def request(self, text: str) -> str:
        """Answer one request of the page (JSON text in, JSON text out)."""
        return _answer(self.handle, text)

    def _example_info(self) -> dict[str, Any]:
        return {"moves": len(self.example), "shown": self.shown,
                "next": _words(self.example[self.shown], self.names)
                if self.shown < len(self.example) else None}

    def board(self) -> dict[str, Any]:
        out = super().board()
        out["example"] = self._example_info()
        return out

    def _follow(self, shown: int) -> None:
        """The example's moves shown (or played by the reader) so far; the board is on
        the example's path while no other move was made since."""
        self.shown = shown
        self.synced = len(self.steps) if shown else 0

    def reset(self) -> dict[str, Any]:
        self._follow(0)
        return super().reset()

    def undo(self) -> dict[str, Any]:
        self._follow(0)
        return super().undo()

    def play(self, action: Action) -> dict[str, Any]:
        """A move of the reader's. The very move the example makes next (on the example's
        path) counts as shown, so that "Show the example's move" goes on to the one after."""
        follows = (self.shown < len(self.example) and action == self.example[self.shown]
                   and len(self.steps) == self.synced)
        answer = super().play(action)
        self._follow(self.shown + 1 if follows else 0)
        if "board" in answer:
            answer["board"]["example"] = self._example_info()
        return answer

    def other(self, op: str, data: Mapping[str, Any]) -> dict[str, Any]:
        if op != "example":
            return super().other(op, data)
        if not self.example:
            raise RequestError("this example makes no move: it looks at the position only")
        shown = self.shown
        if shown >= len(self.example) or (shown == 0 and self.steps):
            super().reset()
            shown = 0
        answer = super().play(self.example[shown])
        self._follow(shown + 1)
        board = answer.get("board")
        if board is None:
            board = self.board()
            answer["board"] = board
        else:
            board["example"] = self._example_info()
        return answer


class Match(_Live):
    """A whole game against computer players, seen from ``seat``."""

    def __init__(self, game: Game, *, seat: int = 0, opponent: str = "heuristic",
                 names: Sequence[str] | None = None, seed: int | None = None) -> None:
        if opponent not in OPPONENTS:
            raise RequestError(f"the computer players are {', '.join(OPPONENTS)}, not "
                               f"{opponent!r}")
        players = game.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RequestError(f"your seat must be 0 to {players - 1}, not {seat!r}")
        super().__init__(game.initial, names)
        self.game = game
        self.state = game.state
        self.seat = seat
        self.opponent = opponent
        self.seed = seed if seed is not None else (game.seed or 0)
        self.bots: dict[int, Bot] = {s: make_bot(opponent) for s in range(players)
                                     if s != seat}
        self.reviewing: ReviewSteps | None = None
        """The coach under way on the finished game (``{"op": "review"}``)."""
        # The terminal game's seeds (durak-spec play), so a resumed game goes on alike.
        self.rngs = {s: random.Random(f"durak-spec/play/{self.seed}/{s}/{len(game.actions)}")
                     for s in self.bots}
        for bot in self.bots.values():
            bot.reset()
            for action in game.actions:
                bot.observe(action)

    @classmethod
    def new(cls, profile_name: str, players: int, *, opponent: str = "heuristic",
            seat: int = 0, seed: int | None = None,
            names: Sequence[str] | None = None) -> Match:
        if profile_name not in PROFILES:
            raise RequestError(f"unknown profile {profile_name!r}; profiles are "
                               f"{', '.join(PROFILES)}")
        rules: RuleSet = profile(profile_name).rules(players)
        chosen = seed if seed is not None else random.SystemRandom().randrange(2**31)
        return cls(Game.new(rules, seed=chosen), seat=seat, opponent=opponent, names=names,
                   seed=chosen)

    @classmethod
    def load(cls, text: str, *, opponent: str = "heuristic", seat: int = 0,
             names: Sequence[str] | None = None) -> Match:
        """A game saved in the ``durak-spec/game`` format (by the page or the terminal)."""
        return cls(persist.loads(text), seat=seat, opponent=opponent, names=names)

    @classmethod
    def from_page(cls, text: str) -> Match:
        """A game the page asks for, as JSON text: ``{"op": "new", "profile": ...,
        "players": 2, "opponent": ..., "seed": null, "names": [...]}`` or ``{"op": "load",
        "text": <a saved game>, "opponent": ..., "names": [...]}``.

        The page's only way in: JavaScript's ``null`` and ``undefined`` cross Pyodide as
        proxies, not ``None``, so the page sends JSON and every value is checked here.
        """
        data = _parse_request(text)
        opponent = data.get("opponent", "heuristic")
        if not isinstance(opponent, str):
            raise RequestError(f"'opponent' must be one of {', '.join(OPPONENTS)}, not "
                               f"{opponent!r}")
        names = data.get("names")
        if names is not None and (not isinstance(names, list)
                                  or not all(isinstance(n, str) for n in names)):
            raise RequestError(f"'names' must be a list of names, not {names!r}")
        seat = data.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RequestError(f"'seat' must be a whole number, not {seat!r}")
        if data["op"] == "load":
            saved = data.get("text")
            if not isinstance(saved, str):
                raise RequestError("a game to load comes as 'text', the saved game")
            return cls.load(saved, opponent=opponent, seat=seat, names=names)
        if data["op"] != "new":
            raise RequestError(f"a game is asked for with the op 'new' or 'load', not "
                               f"{data['op']!r}")
        name = data.get("profile")
        if not isinstance(name, str):
            raise RequestError(f"'profile' must be one of {', '.join(PROFILES)}, not "
                               f"{name!r}")
        players = _int(data, "players")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed < 0):
            raise RequestError(f"'seed' must be a whole number from 0, or null for a "
                               f"random deal, not {seed!r}")
        return cls.new(name, players, opponent=opponent, seat=seat, seed=seed, names=names)

    def request(self, text: str) -> str:
        """Answer one request of the page (JSON text in, JSON text out)."""
        return _answer(self.handle, text)

    def movers(self) -> frozenset[int]:
        return frozenset((self.seat,))

    def picture(self) -> str:
        mine = acting_seat(self.state) == self.seat
        return str(position_svg(self.state, names=self.names, seat=self.seat, show_all=False,
                                playable_for=self.seat if mine else None,
                                highlight=self.last))

    def board(self) -> dict[str, Any]:
        out = super().board()
        seat = acting_seat(self.state)
        mine = view(self.state, self.seat)
        out.update({
            "to_act": None if seat is None else seat,
            "yours": seat == self.seat,
            "seat": self.seat,
            "stock": mine.stock,
            "bout": mine.bout + 1,
            "actions": len(self.game.actions),
            "seed": self.seed,
            "rules": self.game.rules.to_dict(),
            "durak": None if mine.outcome is None else mine.outcome.durak,
        })
        del out["position"]  # the other hands stay hidden: the page gets the view only
        out["view"] = mine.to_json()
        return out

    def play(self, action: Action) -> dict[str, Any]:
        answer = super().play(action)
        if answer["result"] == "played":
            self.game = self.game.play(action)
            for bot in self.bots.values():
                bot.observe(action)
            answer["board"] = self.board()
        return answer

    def computer(self) -> dict[str, Any]:
        """The next computer move, if a computer player is to act now."""
        seat = acting_seat(self.state)
        if seat is None or seat == self.seat:
            return {"result": "wait", "board": self.board()}
        action = self.bots[seat].choose(view(self.state, seat), self.rngs[seat])
        before = self.state
        step = advance(before, action)  # a bot's choice is one of the legal actions
        self.state = step.state
        self.game = self.game.play(action)
        self.steps.append(_Step(before, action))
        self.last = _cards_used(action, before) if not isinstance(action, Take | Done) else ()
        for bot in self.bots.values():
            bot.observe(action)
        return {"result": "played", "action": _words(action, self.names),
                "events": self._events(step), "board": self.board()}

    def undo(self) -> dict[str, Any]:
        return {"result": "refused", "action": "undo", "rule": None, "rule_title": "",
                "reason": "a game against the computer cannot take moves back"}

    def reset(self) -> dict[str, Any]:
        return self.undo()

    def other(self, op: str, data: Mapping[str, Any]) -> dict[str, Any]:
        if op == "computer":
            return self.computer()
        if op == "save":
            return {"result": "saved", "text": persist.dumps(self.game),
                    "seat": self.seat, "opponent": self.opponent}
        if op == "review":
            budget = data.get("budget_ms", 200)
            if isinstance(budget, bool) or not isinstance(budget, int | float) or budget < 0:
                raise RequestError(f"'budget_ms' must be a number of milliseconds, not "
                                   f"{budget!r}")
            return self.review(budget / 1000)
        return super().other(op, data)

    def review(self, budget: float) -> dict[str, Any]:
        """The coach on the reader's moves, run for about ``budget`` seconds (at least one
        decision): its progress, ``{"result": "reviewing", "done": ..., "total": ...}``,
        until it is finished; then the review (:func:`review_answer`). ``"checking"`` is
        true once every decision is weighed and the likeliest marks are weighed again.
        Asked again after that, the review starts again (and comes out the same)."""
        if self.reviewing is None:
            self.reviewing = _review_steps(self.game, self.seat, self.seed)
        end = time.perf_counter() + budget
        while True:
            try:
                done, total = next(self.reviewing)
            except StopIteration as finished:
                self.reviewing = None
                return review_answer(finished.value, self.names)
            if time.perf_counter() >= end:
                return {"result": "reviewing", "done": min(done, total), "total": total,
                        "checking": done >= total}
