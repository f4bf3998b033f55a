"""The review of a finished game (layer 7): :func:`review` replays it and, for every
decision of the chosen seats, asks an :class:`~durak_spec.play.review.evaluate.Evaluator`
how likely the mover was to escape being the durak after the move played and after each
alternative, from what the mover could know at that moment only: its view of the
position (:func:`~durak_spec.game.view.view`) and its memory of the cards played so far
(every action is public). The moves whose estimate dropped most are marked: at most
``limit`` of them (five by default), the costliest first, each with a one-line reason and,
where one applies, the tested tip it went against (:func:`~durak_spec.play.review.tips.which_tip`).

Results are deterministic for a seed: the randomness of the decision at history index
``i`` comes from a generator seeded with the review's seed and ``i`` alone, so reviewing
one seat or every seat gives a move the same numbers, and two positions that look the
same to the mover (the same view and memory) get the same numbers whatever the hidden
cards are.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from durak_spec.core.errors import DurakError
from durak_spec.game.history import Game
from durak_spec.game.view import PlayerView, view
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState, Outcome
from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.knowledge import Memory
from durak_spec.play.review.evaluate import Evaluator, SamplingEvaluator
from durak_spec.play.review.tips import TipNote, which_tip

__all__ = ["CONFIRM_FACTOR", "DEFAULT_CONFIRM", "DEFAULT_LIMIT", "DEFAULT_MAX_CANDIDATES",
           "DEFAULT_MIN_DROP", "Candidate", "MoveReview", "Review", "ReviewError", "ReviewSteps",
           "review", "review_move", "review_steps"]

DEFAULT_LIMIT = 5
"""A learner sees at most this many marked moves (issue 23)."""

DEFAULT_MIN_DROP = 0.05
"""A move is marked only when the best alternative's estimate is at least this much
higher (five points): smaller differences are within the sampling's noise."""

DEFAULT_MAX_CANDIDATES = 10
"""At most this many actions are compared per decision: the move played, the heuristic
player's choice and, drawn at random, others."""

DEFAULT_CONFIRM = 3
"""Rounds of fresh deals in which a likely mark is weighed again (see :func:`review`)."""

CONFIRM_FACTOR = 2
"""How many likely marks per mark shown are weighed again."""

Progress = Callable[[int, int], None]
"""Called with (decisions reviewed, decisions to review) as the review goes on."""


class ReviewError(DurakError):
    """A game that cannot be reviewed (not finished, a seat it does not have)."""

    code = "review"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One action the mover could play, with its estimated chance of not being the durak."""

    action: Action
    chance: float


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One reviewed decision: the move played, the best alternative, and the drop."""

    index: int
    """The move's place in the game's history (0 is the first action)."""
    state: GameState = field(repr=False)
    """The position before the move (its hidden parts are for pictures drawn from the
    mover's side only: the estimates never see them)."""
    seen: PlayerView = field(repr=False)
    played: Candidate
    better: Candidate
    """The best candidate (the move played itself when nothing was better)."""
    candidates: tuple[Candidate, ...] = field(repr=False)
    tip: TipNote | None

    @property
    def seat(self) -> int:
        return self.played.action.player

    @property
    def drop(self) -> float:
        """How much the chance of not being the durak fell by the move played."""
        return self.better.chance - self.played.chance

    @property
    def reason(self) -> str:
        """One line: what was played, what was better, by how much, and the tip."""
        line = (f"P{self.seat} played {self.played.action.move} "
                f"({_percent(self.played.chance)} not durak); "
                f"{self.better.action.move} was better ({_percent(self.better.chance)})")
        if self.tip is not None:
            line += f"; {self.tip.id}: {self.tip.why}"
        return line

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "seat": self.seat, "bout": self.seen.bout,
            "stock": self.seen.stock,
            "played": {"action": self.played.action.to_json(), "move": self.played.action.move,
                       "chance": round(self.played.chance, 4)},
            "better": {"action": self.better.action.to_json(), "move": self.better.action.move,
                       "chance": round(self.better.chance, 4)},
            "drop": round(self.drop, 4), "reason": self.reason,
            "tip": None if self.tip is None else self.tip.to_json(),
            "view": self.seen.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one game: every decision weighed and the costliest moves marked."""

    players: int
    seats: tuple[int, ...]
    evaluator: str
    seed: int
    outcome: Outcome
    moves: tuple[MoveReview, ...] = field(repr=False)
    """Every decision with a choice of the reviewed seats, in the order played."""
    marked: tuple[MoveReview, ...]
    """The costliest moves, biggest drop first (at most ``limit``)."""
    skipped: int = 0
    """Decisions the evaluator could make no estimate for."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "durak-spec/review", "version": 1, "players": self.players,
            "seats": list(self.seats),
            "evaluator": self.evaluator, "seed": self.seed,
            "durak": self.outcome.durak, "outcome": str(self.outcome),
            "decisions": len(self.moves), "skipped": self.skipped,
            "marked": [m.to_json() for m in self.marked],
        }


def _percent(chance: float) -> str:
    return f"{round(100 * chance)} %"


def _decision_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"durak-spec/review/{seed}/{index}")


def _candidates(seen: PlayerView, memory: Memory, played: Action, limit: int,
                rng: random.Random) -> list[Action]:
    """The move played, the heuristic player's choice, then others drawn at random."""
    guide = HeuristicBot()
    guide.memory.seen.update(memory.seen)
    guide.memory.bout = memory.bout
    suggestion = guide.choose(seen, random.Random(rng.randrange(2**32)))
    first = [played] + ([suggestion] if suggestion != played else [])
    rest = [a for a in seen.playable if a not in first]
    if len(first) + len(rest) > limit:
        rng.shuffle(rest)
        rest = sorted(rest[:max(0, limit - len(first))], key=seen.playable.index)
    return first + rest


def review_move(seen: PlayerView, memory: Memory, played: Action, *, index: int,
                state: GameState, evaluator: Evaluator, seed: int = 0,
                max_candidates: int = DEFAULT_MAX_CANDIDATES) -> MoveReview | None:
    """Weigh one decision: ``played`` against the other moves of ``seen.playable``.

    ``state`` is kept for pictures only; the estimate sees ``seen`` and ``memory``.
    ``None`` when the evaluator can make no estimate."""
    rng = _decision_rng(seed, index)
    actions = _candidates(seen, memory, played, max_candidates, rng)
    chances = evaluator.estimate(seen, memory, actions, rng)
    if chances is None:
        return None
    scored = tuple(Candidate(a, c) for a, c in zip(actions, chances, strict=True))
    best = max(scored, key=lambda c: c.chance)  # the first of equals: the move played
    tip = None if best.action == played else which_tip(seen, played, best.action)
    return MoveReview(index=index, state=state, seen=seen, played=scored[0], better=best,
                      candidates=scored, tip=tip)


def _confirmed(move: MoveReview, memory: Memory, evaluator: Evaluator, seed: int,
               rounds: int) -> MoveReview:
    """``move`` with the played and the better action weighed again in fresh deals."""
    if move.better.action == move.played.action:
        return move
    pair = [move.played.action, move.better.action]
    played = better = 0.0
    weighed = 0
    for round_ in range(rounds):
        rng = random.Random(f"durak-spec/review/{seed}/{move.index}/confirm/{round_}")
        chances = evaluator.estimate(move.seen, memory, pair, rng)
        if chances is not None:
            played += chances[0]
            better += chances[1]
            weighed += 1
    if weighed == 0:
        return move
    return replace(move, played=Candidate(pair[0], played / weighed),
                   better=Candidate(pair[1], better / weighed))


def _decisions(game: Game, seats: frozenset[int]) -> list[int]:
    return [i for i, (state, action) in enumerate(zip(game.states(), game.actions,
                                                      strict=False))
            if action.player in seats and len(view(state, action.player).playable) > 1]


def review(game: Game, *, seats: Iterable[int] | None = None,
           evaluator: Evaluator | None = None, seed: int = 0, limit: int = DEFAULT_LIMIT,
           min_drop: float = DEFAULT_MIN_DROP, max_candidates: int = DEFAULT_MAX_CANDIDATES,
           confirm: int = DEFAULT_CONFIRM, progress: Progress | None = None) -> Review:
    """Review a finished game for ``seats`` (default: every seat); see the module docstring.

    A first pass weighs every candidate of every decision. A few samples make its
    estimates noisy, and the best of many noisy candidates looks better than it is; so
    the ``CONFIRM_FACTOR * limit`` moves that lost most are weighed again, the move played
    against the better one only, in ``confirm`` rounds of fresh deals, and those numbers
    (unbiased by the choice of the better move) decide the marks (``confirm=0``: the first
    pass decides).

    Raises :class:`ReviewError` for a game that has not ended or a seat it does not have.
    """
    steps = review_steps(game, seats=seats, evaluator=evaluator, seed=seed, limit=limit,
                         min_drop=min_drop, max_candidates=max_candidates, confirm=confirm)
    while True:
        try:
            done, total = next(steps)
        except StopIteration as finished:
            result: Review = finished.value
            return result
        if progress is not None and done <= total:
            progress(done, total)


ReviewSteps = Generator[tuple[int, int], None, Review]
"""A review under way (:func:`review_steps`): each step yields (work done, work to do)."""


def review_steps(game: Game, *, seats: Iterable[int] | None = None,
                 evaluator: Evaluator | None = None, seed: int = 0,
                 limit: int = DEFAULT_LIMIT, min_drop: float = DEFAULT_MIN_DROP,
                 max_candidates: int = DEFAULT_MAX_CANDIDATES,
                 confirm: int = DEFAULT_CONFIRM) -> ReviewSteps:
    """:func:`review` one piece at a time, for a caller that cannot wait for the whole (the
    website's page, which runs it between frames): a generator that yields ``(done,
    total)`` after each decision weighed (``total`` decisions) and then ``(total + n,
    total)`` after the ``n``-th move weighed again, and returns the :class:`Review` (the
    value of its ``StopIteration``). The game and seats are checked at once, before the
    first step (:class:`ReviewError`)."""
    outcome = game.outcome
    if outcome is None:
        raise ReviewError(f"the game is not finished ({len(game.actions)} moves played, "
                          "no durak yet): play it to the end before reviewing it")
    players = game.rules.players
    chosen = tuple(sorted(set(range(players) if seats is None else seats)))
    wrong = [s for s in chosen if not 0 <= s < players]
    if wrong or not chosen:
        raise ReviewError(f"the game has seats 0 to {players - 1}; "
                          f"{', '.join(map(str, wrong)) or 'no seat'} cannot be reviewed")
    return _review_steps(game, chosen, outcome, evaluator or SamplingEvaluator(), seed,
                         limit, min_drop, max_candidates, confirm)


def _review_steps(game: Game, chosen: tuple[int, ...], outcome: Outcome,
                  evaluator: Evaluator, seed: int, limit: int, min_drop: float,
                  max_candidates: int, confirm: int) -> ReviewSteps:
    todo = set(_decisions(game, frozenset(chosen)))
    memory = Memory()
    memory_at: dict[int, Memory] = {}
    moves: list[MoveReview] = []
    skipped = 0
    done = 0
    for index, (state, action) in enumerate(zip(game.states(), game.actions, strict=False)):
        seen = view(state, action.player)
        memory.update(seen)
        if index in todo:
            memory_at[index] = Memory(set(memory.seen), memory.bout)
            move = review_move(seen, memory, action, index=index, state=state,
                               evaluator=evaluator, seed=seed, max_candidates=max_candidates)
            if move is None:
                skipped += 1
            else:
                moves.append(move)
            done += 1
            yield done, len(todo)
        memory.saw(action)
    costly = sorted((m for m in moves if m.drop >= min_drop), key=lambda m: (-m.drop, m.index))
    if confirm > 0:  # weigh the likeliest marks again in fresh deals (see review())
        checked: list[MoveReview] = []
        for move in costly[:CONFIRM_FACTOR * limit]:
            checked.append(_confirmed(move, memory_at[move.index], evaluator, seed, confirm))
            yield done + len(checked), len(todo)
        costly = sorted((m for m in checked if m.drop >= min_drop),
                        key=lambda m: (-m.drop, m.index))
    return Review(players=game.rules.players, seats=chosen, evaluator=evaluator.name, seed=seed,
                  outcome=outcome, moves=tuple(moves), marked=tuple(costly[:limit]),
                  skipped=skipped)
