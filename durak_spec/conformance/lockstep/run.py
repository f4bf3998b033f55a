"""The whole run: every configuration, its seeded games, the divergences grouped by cause."""


from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from durak_spec.conformance import engine_label
from durak_spec.conformance.lockstep.configurations import Configuration, configurations
from durak_spec.conformance.lockstep.differences import Divergence
from durak_spec.conformance.lockstep.games import DEFAULT_MAX_ACTIONS, DEFAULT_PROBE_RATE
from durak_spec.conformance.lockstep.results import (
    Cause,
    ConfigResult,
    GameProgress,
    LockstepResult,
    cause_key,
    cause_of,
)
from durak_spec.conformance.lockstep.shrinking import first_divergence, later_divergence, recover
from durak_spec.conformance.lockstep.spread import Games, Played
from durak_spec.model.rules import RuleSet
from durak_spec.protocol import Engine


def play_lockstep(engine: Engine, rules: RuleSet | Iterable[RuleSet] | None = None, *,
                  games: int, seed: int, max_actions: int = DEFAULT_MAX_ACTIONS,
                  profiles: Iterable[str] | None = None, players: Iterable[int] | None = None,
                  probe_rate: float = DEFAULT_PROBE_RATE, shrink_records: bool = True,
                  max_divergences: int | None = None,
                  progress: Callable[[int, int, GameProgress], None] | None = None,
                  jobs: int = 1, scheduler: str | None = None,
                  engines: Callable[[], Engine] | None = None) -> LockstepResult:
    """Play ``games`` random games per configuration in lockstep with the reference.

    The configurations are the profiles the engine claims at every player count it
    supports (:func:`configurations`; ``rules``, ``profiles`` and ``players`` narrow them).
    Every game is played whatever diverges: after a divergence the reference's position
    is loaded into the engine where it declares ``load`` and the game goes on, else the
    next game starts. Divergences are grouped by cause (:func:`cause_of`: the rule and
    the kind of difference), each counted, with one example, shrunk (``shrink_records``;
    one met after another in its game is replayed from the reference's position loaded
    into the engine where it can load, else from the deal past the differences of legal
    actions before it); ``max_divergences`` stops the whole run
    after that many. ``max_actions`` cuts a game that runs longer (counted as unfinished);
    ``probe_rate`` is the share of steps that also try an illegal action. ``progress`` is
    called after every game with (games done, games planned, :class:`GameProgress`).

    With ``jobs`` above 1, or a Dask ``scheduler`` address, the games are played ahead by
    that many local processes or by the cluster's workers, each with an engine that
    ``engines`` makes (a callable that pickles), and taken in the order of their seeds
    (:class:`~durak_spec.conformance.lockstep.spread.Games`): the result is the same as
    in one process for an engine whose answers depend only on the game's requests. A run of
    fewer than :data:`~durak_spec.conformance.lockstep.spread.SMALLEST` games twice over
    is played here all the same.

    An engine failure during the handshake raises
    :class:`~durak_spec.protocol.subprocess_engine.EngineFailure`.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a count (0, 1, ...), not {games!r}")
    if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 1:
        raise ValueError(f"max_actions must be a positive count, not {max_actions!r}")
    if not 0.0 <= probe_rate <= 1.0:
        raise ValueError(f"probe_rate must lie between 0 and 1, not {probe_rate!r}")
    started = time.perf_counter()
    capabilities = engine.capabilities()
    chosen, skipped = configurations(capabilities, profiles=profiles, players=players,
                                     rules=rules)
    tally = _Tally(engine, chosen, games, capabilities.load, shrink_records, max_divergences,
                   progress)
    interrupted = False
    play = Games(engine, chosen, games, seed, max_actions=max_actions, probe_rate=probe_rate,
                 resync=capabilities.load, jobs=jobs, scheduler=scheduler, engines=engines)
    try:
        for position, configuration in enumerate(chosen):
            if tally.stops():
                tally.skip(position)
                continue
            for index in range(games):
                game = play(configuration, index)
                tally.hand = (position, index, game)  # counted by add, or after an interrupt
                if not tally.add(position, index, game):
                    break
    except KeyboardInterrupt:
        # what was found until then is reported: the game in hand (taken, not yet counted)
        # and every game the workers finished, each counted as it would have been, its
        # example as found (shrinking it would keep the run from stopping at once)
        interrupted = True
        rest = play.interrupted()
        if tally.hand is not None:
            rest.insert(0, ((tally.hand[0], tally.hand[1]), tally.hand[2]))
        for (position, index), game in rest:
            if not tally.stops():
                tally.add(position, index, game, shrink=False)
    finally:
        play.close(interrupted)
    results = [tally.result(position, interrupted) for position in range(len(chosen))]
    name = engine_label(capabilities.name, capabilities.version)
    grouped = sorted((Cause(*cause_of(example), count, example, tuple(labels), tuple(kinds))
                      for (count, example, labels, kinds) in tally.causes.values()),
                     key=lambda c: -c.count)
    return LockstepResult(name, seed, games, tuple(results), tuple(skipped),
                          time.perf_counter() - started, tuple(grouped), interrupted)


_AS_FOUND = "not shrunk: the run was interrupted before it was"


class _Tally:
    """The counts of a run as its games are taken, in the order of their seeds: per
    configuration (its counts, its first divergence, why it stopped early), the causes,
    and whether the run goes on."""

    def __init__(self, engine: Engine, chosen: list[Configuration], games: int,
                 can_load: bool, shrink_records: bool, max_divergences: int | None,
                 progress: Callable[[int, int, GameProgress], None] | None) -> None:
        self.engine = engine
        self.chosen = chosen
        self.games = games
        self.can_load = can_load
        self.shrink_records = shrink_records
        self.max_divergences = max_divergences
        self.progress = progress
        self.total = games * len(chosen)
        self.done = 0
        self.diverged = 0
        self.alive = True
        # played, actions, probes, unfinished, found, declined
        self.counts = [[0, 0, 0, 0, 0, 0] for _ in chosen]
        self.first: list[Divergence | None] = [None for _ in chosen]
        self.stopped: list[str | None] = [None for _ in chosen]
        self.causes: dict[tuple[Any, ...], list[Any]] = {}  # count, example, labels, kinds
        self.hand: tuple[int, int, tuple[Played, bool]] | None = None

    def stops(self) -> bool:
        """Whether the run stops here: the engine lost, or the divergences spent."""
        return not self.alive or (self.max_divergences is not None and
                                  self.diverged >= self.max_divergences)

    def skip(self, position: int) -> None:
        self.stopped[position] = "the engine could not be restarted" if not self.alive \
            else f"the run stopped after {self.diverged} divergences"
        self.done += self.games

    def add(self, position: int, index: int, game: tuple[Played, bool], *,
            shrink: bool = True) -> bool:
        """Count game ``index`` of a configuration; whether its configuration goes on.
        ``shrink``: each new cause's example is shrunk (else kept as found, with no request
        to the engine)."""
        configuration = self.chosen[position]
        (record, founds, cut, refused), running = game
        first = self.first[position]
        # the examples first (shrinking may be interrupted), then the counts all at once
        examples: dict[int, Divergence] = {}
        new: set[tuple[Any, ...]] = set()
        for at, found in enumerate(founds):
            key = cause_key(found)
            if key in self.causes or key in new:
                if first is not None:
                    continue
            else:
                new.add(key)
            if not shrink:
                later = at > 0
                examples[at] = Divergence(
                    found.kind, record.prefix(found.step + 1), found.differences, found.rule,
                    configuration.label, index, found.step + 1, shrunk=False,
                    reproducible=not later, note=_AS_FOUND)
            elif at == 0:
                # a new cause's example is shrunk: once per cause, not per game; a
                # configuration's first divergence of a known cause is kept as found
                examples[at] = first_divergence(self.engine, configuration, index, record,
                                                found, self.shrink_records and key in new)
            else:
                examples[at] = later_divergence(
                    self.engine, configuration, index, record, found, founds[at - 1],
                    self.shrink_records and key in new, self.can_load)
            first = first or examples[at]
        latest: Divergence | None = None
        for at, found in enumerate(founds):
            latest = examples.get(at, latest)
            key = cause_key(found)
            known = self.causes.get(key)
            if known is None:
                known = self.causes[key] = [0, examples[at], [], []]
            known[0] += 1
            shown = cause_of(found)[1]
            if shown not in known[3]:
                known[3].append(shown)
            if configuration.label not in known[2]:
                known[2].append(configuration.label)
        self.first[position] = first
        counts = self.counts[position]
        counts[0] += 1
        counts[1] += len(record.actions)
        counts[2] += len(record.steps) - len(record.actions)
        counts[3] += cut
        counts[4] += len(founds)
        counts[5] += bool(refused)
        self.diverged += len(founds)
        self.done += 1
        self.hand = None
        if shrink and any(f.failure is not None for f in founds) and \
                not getattr(self.engine, "running", True):
            self.alive = recover(self.engine)
        self.alive = self.alive and running  # a worker's engine could not be restarted
        if shrink and self.progress is not None:
            self.progress(self.done, self.total, GameProgress(configuration.label, index,
                                                              len(record.actions), latest))
        if self.stops():  # the configuration's divergence tells why
            self.done += self.games - index - 1
            return False
        return True

    def result(self, position: int, interrupted: bool) -> ConfigResult:
        """The configuration's result; where an interrupt left it short, how many of its
        games were played."""
        counts = self.counts[position]
        played, actions, probes, unfinished, found, declined = counts
        stopped = self.stopped[position] or ""
        if interrupted and not stopped and played < self.games:
            stopped = f"the run was interrupted ({played} of {self.games} games played)"
        return ConfigResult(self.chosen[position], played, actions, probes, unfinished,
                            self.first[position], stopped=stopped, found=found,
                            declined=declined)
