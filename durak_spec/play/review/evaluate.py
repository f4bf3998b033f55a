"""How the coach judges a move (layer 7): an :class:`Evaluator` estimates, for each
candidate action of the seat to move, that seat's chance of not being the durak after it,
from what the seat can know only (its :class:`~durak_spec.game.view.PlayerView` and its
:class:`~durak_spec.play.bots.knowledge.Memory` of the cards played so far).

:class:`SamplingEvaluator` is the default: determinized Monte Carlo, the method of
:class:`~durak_spec.play.bots.SearchBot`. It deals the cards the seat cannot see at
random into the hidden hands and the stock, keeps the deals that give the seat the moves
it has (``samples`` of them), plays every candidate out in each deal with heuristic
players, and counts the games the seat did not lose. Every candidate is played out in
the same deals with the same playout randomness (common random numbers), so that a
difference between two candidates is the moves' doing, not the dealing's.

:class:`IsmctsEvaluator` asks the strongest computer player instead: one information-set
Monte Carlo tree search (:class:`~durak_spec.play.bots.IsmctsBot`) from the mover's view,
each candidate's estimate being the mean result of the playouts through it. Any other
player plugs in by being an :class:`Evaluator`: anything with a ``name`` and an
``estimate`` method of the same signature.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from durak_spec.engine import apply
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState
from durak_spec.play.bots.ismcts import IsmctsBot
from durak_spec.play.bots.knowledge import Memory
from durak_spec.play.bots.search import heuristic_playout
from durak_spec.play.bots.worlds import moves_of, sample_world

__all__ = ["DEFAULT_PLAYOUTS", "DEFAULT_SAMPLES", "Evaluator", "IsmctsEvaluator",
           "SamplingEvaluator"]

DEFAULT_SAMPLES = 16
"""Deals sampled per decision by default (``durak-spec review --samples``)."""

DEFAULT_PLAYOUTS = 800
"""Tree search iterations per decision by default (``durak-spec review --playouts``)."""


@runtime_checkable
class Evaluator(Protocol):
    """Estimates the mover's chance of not being the durak after each candidate action."""

    @property
    def name(self) -> str:
        """A short name for reports (``"sampling"``)."""
        ...

    def estimate(self, seen: PlayerView, memory: Memory, candidates: Sequence[Action],
                 rng: random.Random) -> tuple[float, ...] | None:
        """For each of ``candidates`` (actions of ``seen.playable``), the chance, 0 to 1,
        that ``seen.seat`` is not the durak if it plays that action now; ``None`` when no
        estimate can be made. Uses ``seen``, ``memory`` and ``rng`` only, so the same
        view, memory and seed give the same numbers whatever the hidden cards are."""
        ...


class SamplingEvaluator:
    """Determinized Monte Carlo with heuristic playouts (see the module docstring).

    ``samples`` deals are played out per candidate; a playout that has not ended after
    ``horizon`` actions is scored by hand sizes, as :class:`SearchBot` does. At most
    ``tries`` deals are drawn to find ``samples`` that give the seat its moves.
    """

    def __init__(self, samples: int = DEFAULT_SAMPLES, *, horizon: int = 400,
                 tries: int | None = None) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.samples = samples
        self.horizon = horizon
        self.tries = tries if tries is not None else 3 * samples
        self.name = "sampling"

    def __repr__(self) -> str:
        return f"SamplingEvaluator(samples={self.samples}, horizon={self.horizon})"

    def estimate(self, seen: PlayerView, memory: Memory, candidates: Sequence[Action],
                 rng: random.Random) -> tuple[float, ...] | None:
        worlds: list[GameState] = []
        for _ in range(self.tries):
            if len(worlds) == self.samples:
                break
            world = sample_world(seen, memory, rng)
            # A deal consistent with the view gives the seat the same moves (CLAR-17).
            if world is not None and moves_of(world, seen.seat) == seen.playable:
                worlds.append(world)
        if not worlds:
            return None
        seeds = [rng.randrange(2**32) for _ in worlds]
        kept: list[float] = []
        for action in candidates:
            total = 0.0
            for world, seed in zip(worlds, seeds, strict=True):
                total += 1.0 - heuristic_playout(apply(world, action), seen.seat,
                                                random.Random(seed), self.horizon)
            kept.append(total / len(worlds))
        return tuple(kept)



class IsmctsEvaluator:
    """The tree search player's own estimate (see the module docstring).

    For a decision it runs one search of ``playouts`` iterations from the mover's view and
    memory, over every move the mover has, and reads each candidate's mean result (the
    share of the playouts through that move in which the mover was not the durak). A
    search spends its playouts on the moves that look best, so a poor move's estimate
    rests on fewer playouts than a good one's; the coach's second pass weighs the marked
    moves again in fresh searches. ``None`` when the search could try a candidate in no
    deal consistent with the view.
    """

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, *, exploration: float = 0.7) -> None:
        if isinstance(playouts, bool) or playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts!r}")
        self.playouts = playouts
        self.exploration = exploration
        self.name = "ismcts"

    def __repr__(self) -> str:
        return f"IsmctsEvaluator(playouts={self.playouts})"

    def estimate(self, seen: PlayerView, memory: Memory, candidates: Sequence[Action],
                 rng: random.Random) -> tuple[float, ...] | None:
        searcher = IsmctsBot(playouts=self.playouts, search_from_stock=None,
                             exploration=self.exploration)
        searcher.memory.seen.update(memory.seen)
        searcher.memory.bout = memory.bout
        searcher.choose(seen, rng)
        stats = searcher.last_search
        if stats is None:
            return None
        means = {action: mean for action, _visits, mean in stats.visits}
        if any(action not in means for action in candidates):
            return None
        return tuple(means[action] for action in candidates)
