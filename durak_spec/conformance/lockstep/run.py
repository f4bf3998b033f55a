"""The whole run: every configuration, its seeded games, the divergences grouped by cause."""


from __future__ import annotations

import dataclasses
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
from durak_spec.conformance.lockstep.spread import Games
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
    total = games * len(chosen)
    done = 0
    results: list[ConfigResult] = []
    diverged = 0
    alive = True
    resync = capabilities.load
    causes: dict[tuple[Any, ...], list[Any]] = {}  # count, example, labels
    interrupted = False
    open_result: list[Any] = []  # the configuration in play and its counts so far
    play = Games(engine, chosen, games, seed, max_actions=max_actions, probe_rate=probe_rate,
                 resync=resync, jobs=jobs, scheduler=scheduler, engines=engines)
    try:
        for configuration in chosen:
            if not alive or (max_divergences is not None and diverged >= max_divergences):
                why = "the engine could not be restarted" if not alive else \
                    f"the run stopped after {diverged} divergences"
                results.append(ConfigResult(configuration, 0, 0, 0, 0, stopped=why))
                done += games
                continue
            counts = [0, 0, 0, 0, 0, 0]  # played, actions, probes, unfinished, found, declined
            first: list[Divergence | None] = [None]
            open_result[:] = [configuration, counts, first]
            for index in range(games):
                (record, founds, cut, refused), running = play(configuration, index)
                latest: Divergence | None = None
                for position, found in enumerate(founds):
                    key = cause_key(found)
                    known = causes.get(key)
                    if known is None or first[0] is None:
                        # a new cause's example is shrunk: once per cause, not per game;
                        # a configuration's first divergence of a known cause is kept
                        # as found
                        shrunk = shrink_records and known is None
                        if position == 0:
                            latest = first_divergence(engine, configuration, index, record,
                                                      found, shrunk)
                        else:
                            latest = later_divergence(
                                engine, configuration, index, record, found,
                                founds[position - 1], shrunk, capabilities.load)
                        first[0] = first[0] or latest
                    if known is None:
                        known = causes[key] = [0, latest, [], []]
                    known[0] += 1
                    shown = cause_of(found)[1]
                    if shown not in known[3]:
                        known[3].append(shown)
                    if configuration.label not in known[2]:
                        known[2].append(configuration.label)
                counts[0] += 1
                counts[1] += len(record.actions)
                counts[2] += len(record.steps) - len(record.actions)
                counts[3] += cut
                counts[4] += len(founds)
                counts[5] += bool(refused)
                diverged += len(founds)
                if any(f.failure is not None for f in founds) and \
                        not getattr(engine, "running", True):
                    alive = recover(engine)
                alive = alive and running  # a worker's engine could not be restarted
                done += 1
                if progress is not None:
                    progress(done, total, GameProgress(configuration.label, index,
                                                       len(record.actions), latest))
                if not alive or (max_divergences is not None and diverged >= max_divergences):
                    done += games - index - 1
                    break
            results.append(_config_result(configuration, counts, first[0]))
            open_result.clear()
    except KeyboardInterrupt:  # what was found until then is reported
        interrupted = True
        if open_result:
            configuration, counts, first = open_result
            results.append(dataclasses.replace(_config_result(configuration, counts, first[0]),
                                               stopped="the run was interrupted"))
    finally:
        play.close(interrupted)
    name = engine_label(capabilities.name, capabilities.version)
    grouped = sorted((Cause(*cause_of(example), count, example, tuple(labels), tuple(kinds))
                      for (count, example, labels, kinds) in causes.values()),
                     key=lambda c: -c.count)
    return LockstepResult(name, seed, games, tuple(results), tuple(skipped),
                          time.perf_counter() - started, tuple(grouped), interrupted)


def _config_result(configuration: Configuration, counts: list[int],
                   first: Divergence | None) -> ConfigResult:
    played, actions, probes, unfinished, found, declined = counts
    return ConfigResult(configuration, played, actions, probes, unfinished, first,
                        found=found, declined=declined)
