"""Where the lockstep games are played: one by one in the run's engine, or ahead by workers
(local processes or a Dask cluster, :class:`~durak_spec.core.jobs.Workers`), each with an
engine of its own, and handed to the run in the order of their seeds.

A game's course depends only on its seed (:func:`game_rng`) and the engine's answers, so
for an engine whose answers depend only on the requests of the game, the run is the same
whatever the number of workers: grouping, shrinking and stopping stay in the run, which
takes the games in order as if it had played them.

On an interrupt (Ctrl-C) a worker's part returns the games it finished (the game in play is
dropped), and :meth:`Games.interrupted` hands the run every finished game it has not
taken, so that the report holds them all (:class:`~durak_spec.core.jobs.Stop`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from durak_spec.conformance.lockstep.configurations import Configuration
from durak_spec.conformance.lockstep.differences import Found
from durak_spec.conformance.lockstep.games import play_game
from durak_spec.conformance.lockstep.planning import game_style
from durak_spec.conformance.lockstep.record import Record
from durak_spec.conformance.lockstep.shrinking import recover
from durak_spec.core.jobs import Stop, Sweep, Workers, parts
from durak_spec.engine import deal
from durak_spec.protocol import Engine

Played = tuple[Record, list[Found], bool, str]
"""A game as :func:`~durak_spec.conformance.lockstep.games.play_game` returns it."""

SMALLEST: Final = 25
"""The fewest games sent to a local worker at once (about two seconds with the reference):
a run of fewer than twice as many is played in this process, since starting workers
costs more than it saves."""
LARGEST: Final = 200
"""The most games sent to a worker at once, so that progress shows and the work spreads."""


def game_rng(seed: int, configuration: Configuration, game: int) -> random.Random:
    """The random draws of game ``game`` of a configuration in the run of ``seed``."""
    # A string seed is hashed with SHA-512: the same on every run and every machine.
    rules = json.dumps(configuration.rules.to_dict(), sort_keys=True)
    return random.Random(f"durak-spec lockstep/{seed}/{rules}/{game}")


def play_one(engine: Engine, configuration: Configuration, seed: int, index: int, *,
             max_actions: int, probe_rate: float, resync: bool) -> Played:
    """Deal and play game ``index`` of ``configuration`` in ``engine`` and the reference."""
    rng = game_rng(seed, configuration, index)
    deck_seed = rng.randrange(2**31)
    record = Record(configuration.rules, deal(configuration.rules, deck_seed), deck_seed, (),
                    configuration.profile)
    return play_game(engine, record, rng, max_actions=max_actions, probe_rate=probe_rate,
                     resync=resync, style=game_style(index, configuration.rules.players))


@dataclass(frozen=True, slots=True)
class _Part:
    """A worker's job: consecutive games, and how to make its engine."""

    engines: Callable[[], Engine]
    games: tuple[tuple[Configuration, int], ...]
    seed: int
    max_actions: int
    probe_rate: float
    stop: Stop


def _play_part(part: _Part) -> tuple[list[tuple[Played, bool]], bool]:
    """Play a part's games in an engine of its own; each with whether the engine still
    runs after it (restarted after a failure where it can be; the part ends where not).
    Told to stop (the run was interrupted), the part returns the games it finished, and
    ``True``: it was interrupted."""
    if part.stop.requested():  # a part that starts after the run was interrupted
        return [], True
    engine = part.engines()  # before listening: an engine is made whole or not at all
    played: list[tuple[Played, bool]] = []
    interrupted = False
    try:
        with part.stop.listening() as listening:
            try:
                resync = engine.capabilities().load
                for configuration, index in part.games:
                    if part.stop.requested():
                        break
                    game = play_one(engine, configuration, part.seed, index,
                                    max_actions=part.max_actions, probe_rate=part.probe_rate,
                                    resync=resync)
                    alive = True
                    if any(f.failure is not None for f in game[1]) and \
                            not getattr(engine, "running", True):
                        alive = recover(engine)
                    played.append((game, alive))
                    if not alive:
                        break
            except KeyboardInterrupt:
                if not listening:  # the run's own interrupt, in its own process
                    raise
                interrupted = True
        return played, interrupted or part.stop.requested()
    finally:
        engine.close()


class Games:
    """The games of a run, asked for in order: ``games(configuration, index)`` is the
    game played and whether the engine that played it still runs (always, when the run's
    own engine plays: the run restarts it itself). Call :meth:`close` at the end.

    With ``jobs`` 1 and no ``scheduler`` every game is played when asked, in ``engine``.
    Otherwise the workers play them all ahead, each part in an engine from ``engines`` (a
    callable that pickles, such as a class or a :func:`functools.partial`), and a game
    the run does not ask for (it stopped early) is dropped.
    """

    def __init__(self, engine: Engine, chosen: Sequence[Configuration], games: int,
                 seed: int, *, max_actions: int, probe_rate: float, resync: bool,
                 jobs: int = 1, scheduler: str | None = None,
                 engines: Callable[[], Engine] | None = None) -> None:
        self._engine = engine
        self._seed = seed
        self._max_actions = max_actions
        self._probe_rate = probe_rate
        self._resync = resync
        self._workers = Workers(jobs, scheduler)
        self._stream: Iterator[tuple[tuple[int, int], tuple[Played, bool]]] | None = None
        self._sweep: Sweep[tuple[list[tuple[Played, bool]], bool]] | None = None
        self._keys: list[tuple[int, int]] = []
        self._cut: list[range] = []
        self._last: tuple[int, int] | None = None  # the last game taken from the stream
        self._positions = {id(c): p for p, c in enumerate(chosen)}
        total = len(chosen) * games
        if self._workers.local or (scheduler is None and total < 2 * SMALLEST):
            return
        if engines is None:
            raise ValueError("games spread over workers need engines=, a callable that "
                             "makes the engine in each worker")
        self._workers.__enter__()
        keys = self._keys = [(p, i) for p in range(len(chosen)) for i in range(games)]
        cut = self._cut = parts(total, self._workers.slots, SMALLEST, LARGEST)
        self._stop = self._workers.stop()
        items = [_Part(engines, tuple((chosen[p], i) for p, i in keys[r.start:r.stop]), seed,
                       max_actions, probe_rate, self._stop) for r in cut]
        self._sweep = self._workers.sweep(_play_part, items)
        self._stream = self._taken(self._sweep)

    def __call__(self, configuration: Configuration, index: int) -> tuple[Played, bool]:
        if self._stream is None:
            return play_one(self._engine, configuration, self._seed, index,
                            max_actions=self._max_actions, probe_rate=self._probe_rate,
                            resync=self._resync), True
        wanted = (self._positions[id(configuration)], index)
        for key, game in self._stream:  # games the run skipped are dropped
            self._last = key
            if key == wanted:
                return game
        raise RuntimeError(f"game {index} of {configuration.label} was not played")

    def _taken(self, sweep: Sweep[tuple[list[tuple[Played, bool]], bool]]) -> Iterator[
            tuple[tuple[int, int], tuple[Played, bool]]]:
        """The games of the parts in order; a part a worker was interrupted in (a Ctrl-C
        that reached the workers first) interrupts the run where its games end."""
        for r, (played, interrupted) in zip(self._cut, sweep, strict=True):
            yield from zip(self._keys[r.start:r.stop], played, strict=False)
            if interrupted and len(played) < len(r):
                raise KeyboardInterrupt

    def interrupted(self) -> list[tuple[tuple[int, int], tuple[Played, bool]]]:
        """After an interrupt: the workers are told to stop, and every game they finished
        that the run has not taken is handed back, keyed (configuration's position, game
        index), in that order; none when the run plays its games itself."""
        if self._sweep is None:
            return []
        rest = []
        for r, part in zip(self._cut, self._sweep.interrupted(self._stop), strict=True):
            played = [] if part is None else part[0]
            for key, game in zip(self._keys[r.start:r.stop], played, strict=False):
                if self._last is None or key > self._last:
                    rest.append((key, game))
        return rest

    def close(self, interrupted: bool = False) -> None:
        """Stop the workers (games not yet taken are cancelled); ``interrupted``: at once,
        the parts in play not waited for."""
        self._stream = None
        if interrupted:
            stop = KeyboardInterrupt()
            self._workers.__exit__(KeyboardInterrupt, stop, None)
        else:
            self._workers.__exit__(None, None, None)
