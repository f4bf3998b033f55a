"""Benchmark of the reference engine: complete random games, and the cost of each step.

Plays ``--games`` complete games for each of the throw-in (``classic-throw-in``) and
transfer (``classic-transfer``) games with 2, 4 and 6 players. Every move is a seeded
random choice among ``legal_actions`` (game ``k`` uses seed ``k`` for the deal and the
choices), so two runs play the same games. It reports:

* games per second and microseconds per action: whole games, deal included. The games
  are timed in chunks of 10, every chunk ``--rounds`` times in interleaved rounds, and
  each chunk counts with its least time, so that a burst of other work on the machine
  does not count;
* the time of one ``legal_actions`` call in a mid-game position (the first position
  with cards on the table from the middle of game 0 on), the median of many calls. The
  engine keeps nothing between calls (no memo in the state, no cache), so every call
  works the listing out from the rules: the figure is the real cost of a listing, and
  the script checks that the calls return equal, but new, tuples;
* the cost of each step of the same games (``legal_actions`` and ``apply`` on the
  position): median, 99th percentile, maximum, and maximum over median, to show that
  no position costs more than 100 times the median. A position is a value and the
  functions are pure, so every step is timed three times and the least time kept; then
  the 32 slowest steps are timed 25 times more, round after round, until the slowest
  of all is one that was timed again: a preemption or a garbage collection does not
  make a position look expensive.

One process, one thread, ``time.perf_counter``; ``--cpu N`` pins the process to core N.
The process time is measured too: when the wall time exceeds it by more than 20 %,
other work shared the machine and the output says so. Progress goes to stderr; the
result goes to stdout as Markdown tables for the README, or as JSON with ``--json``.

    python benchmarks/bench_engine.py [--games 100] [--rounds 3] [--cpu 0] [--json]
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TypeAlias

from durak_spec import (
    Action,
    GameState,
    RuleSet,
    __version__,
    apply,
    legal_actions,
    new_game,
    profile,
)
from durak_spec.cli.args import positive_count

PROFILES = ("classic-throw-in", "classic-transfer")
PLAYERS = (2, 4, 6)
GAME_NAMES = {"classic-throw-in": "throw-in", "classic-transfer": "transfer"}
RATIO_LIMIT = 100.0
CHUNK = 10  # games timed together for the throughput
STEP_REPEATS = 3  # each step is timed this often on its position; the least time is kept
SLOWEST = 32  # the slowest steps of a row are timed again ...
RETIME_RUNS = 25  # ... this often, and their least time kept ...
RETIME_ROUNDS = 20  # ... until the slowest of all was timed again (at most this many rounds)
LEGAL_BATCHES = 200  # legal_actions timing: batches ...
LEGAL_BATCH_CALLS = 50  # ... of this many calls each
BUSY_WARNING = 1.2  # wall time over CPU time above which the machine was not ours alone


@dataclass
class Row:
    """The figures of one game and number of players."""

    profile: str
    players: int
    games: int
    complete: int
    actions: int
    seconds: float
    busy: float
    games_per_second: float
    us_per_action: float
    legal_actions_us: float
    legal_position: str
    legal_count: int
    steps: int
    step_median_us: float
    step_p99_us: float
    step_max_us: float
    step_max_ratio: float
    slowest_position: str
    slowest_verified: bool


Game: TypeAlias = tuple[bool, list[GameState], list[Action]]


def play(rules: RuleSet, seed: int, max_actions: int) -> Game:
    """Play one game: whether it ended, its positions (the deal first) and its actions."""
    state = new_game(rules, seed=seed)
    choose = random.Random(seed).choice
    positions = [state]
    actions: list[Action] = []
    while not state.is_over and len(actions) < max_actions:
        action = choose(legal_actions(state))
        state = apply(state, action)
        positions.append(state)
        actions.append(action)
    return state.is_over, positions, actions


def least_time(state: GameState, action: Action, runs: int) -> float:
    """The least time of ``runs`` runs of one step: ``legal_actions`` and ``apply``."""
    clock = time.perf_counter
    best = float("inf")
    for _ in range(runs):
        start = clock()
        legal_actions(state)
        apply(state, action)
        best = min(best, clock() - start)
    return best


def throughput(rules: RuleSet, games: int, max_actions: int, rounds: int
               ) -> tuple[int, int, float, float]:
    """Actions, complete games, seconds, and wall over process time of ``games`` games.

    The games are played in chunks, every chunk ``rounds`` times in interleaved rounds;
    each chunk counts with its least time, so a burst of other work on the machine
    during one round does not count.
    """
    chunks = [range(first, min(first + CHUNK, games)) for first in range(0, games, CHUNK)]
    best = [float("inf")] * len(chunks)
    actions = complete = 0
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    for round_ in range(rounds):
        for index, chunk in enumerate(chunks):
            start = time.perf_counter()
            for seed in chunk:
                ended, _, played = play(rules, seed, max_actions)
                if round_ == 0:
                    actions += len(played)
                    complete += ended
            best[index] = min(best[index], time.perf_counter() - start)
    busy = (time.perf_counter() - wall_start) / max(time.process_time() - cpu_start, 1e-9)
    return actions, complete, sum(best), busy


def step_costs(rules: RuleSet, games: int, max_actions: int
               ) -> tuple[list[float], GameState, bool]:
    """The cost of every step of the games; the slowest position; whether it was verified.

    A position is a value and the functions are pure, so every step is timed
    STEP_REPEATS times and the least time kept. Then the SLOWEST slowest steps are
    timed RETIME_RUNS times more, round after round, until the slowest of all is one
    that was timed again: a preemption or a garbage collection does not make a
    position look expensive.
    """
    costs: list[float] = []
    where: list[tuple[int, int]] = []
    for seed in range(games):
        _, positions, actions = play(rules, seed, max_actions)
        for step, action in enumerate(actions):
            costs.append(least_time(positions[step], action, STEP_REPEATS))
            where.append((seed, step))
    retimed: set[int] = set()
    for _ in range(RETIME_ROUNDS):
        if max(range(len(costs)), key=costs.__getitem__) in retimed:
            break
        todo = [i for i in heapq.nlargest(SLOWEST, range(len(costs)), key=costs.__getitem__)
                if i not in retimed]
        replayed: dict[int, Game] = {}
        for i in todo:
            seed, step = where[i]
            if seed not in replayed:
                replayed[seed] = play(rules, seed, max_actions)
            _, positions, actions = replayed[seed]
            costs[i] = min(costs[i], least_time(positions[step], actions[step], RETIME_RUNS))
            retimed.add(i)
    slowest = max(range(len(costs)), key=costs.__getitem__)
    seed, step = where[slowest]
    return costs, play(rules, seed, max_actions)[1][step], slowest in retimed


def median_time(call: Callable[[], object], batches: int, calls: int) -> float:
    """Median seconds of one ``call()``, over ``batches`` batches of ``calls`` calls."""
    clock = time.perf_counter
    samples = []
    for _ in range(batches):
        start = clock()
        for _ in range(calls):
            call()
        samples.append((clock() - start) / calls)
    return statistics.median(samples)


def mid_game(positions: list[GameState]) -> GameState:
    """The first position with cards on the table from the middle of the game on."""
    middle = len(positions) // 2
    for state in positions[middle:]:
        if state.table and not state.is_over:
            return state
    return positions[middle]


def describe(state: GameState) -> str:
    cards = len(state.table)
    return (f"bout {state.bout + 1}, {cards} attack card{'' if cards == 1 else 's'} on the "
            f"table, stock {len(state.stock)}")


def measure(profile_name: str, players: int, games: int, max_actions: int,
            rounds: int) -> Row:
    rules = profile(profile_name).rules(players=players)
    actions, complete, seconds, busy = throughput(rules, games, max_actions, rounds)
    position = mid_game(play(rules, 0, max_actions)[1])
    first, again = legal_actions(position), legal_actions(position)
    if again is first or again != first:
        raise SystemExit("bench_engine.py: legal_actions answered from a cache (or changed "
                         "its answer): its time would not be the time of a listing")
    legal_us = median_time(lambda: legal_actions(position), LEGAL_BATCHES,
                           LEGAL_BATCH_CALLS) * 1e6
    costs, slowest, verified = step_costs(rules, games, max_actions)
    median = statistics.median(costs)
    p99 = statistics.quantiles(costs, n=100)[98] if len(costs) > 1 else costs[0]
    return Row(
        profile=profile_name, players=players, games=games, complete=complete,
        actions=actions, seconds=seconds, busy=busy, games_per_second=games / seconds,
        us_per_action=seconds / actions * 1e6, legal_actions_us=legal_us,
        legal_position=describe(position), legal_count=len(legal_actions(position)),
        steps=len(costs), step_median_us=median * 1e6, step_p99_us=p99 * 1e6,
        step_max_us=max(costs) * 1e6, step_max_ratio=max(costs) / median,
        slowest_position=describe(slowest), slowest_verified=verified,
    )


def pin(cpu: int) -> None:
    """Run on core ``cpu`` only."""
    if not hasattr(os, "sched_setaffinity"):
        raise SystemExit("bench_engine.py: error: --cpu needs an OS that can pin a process")
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as error:
        raise SystemExit(f"bench_engine.py: error: cannot pin to core {cpu}: {error}") from None


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment(games: int, rounds: int, cpu: int | None) -> dict[str, object]:
    return {
        "durak_spec": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": f"{platform.system()} {platform.machine()}",
        "cpu": cpu_model(),
        "pinned_core": cpu,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "games_per_row": games,
        "rounds": rounds,
        "seeds": f"0..{games - 1}",
    }


def markdown(rows: list[Row], env: dict[str, object]) -> str:
    def game(row: Row) -> str:
        return GAME_NAMES.get(row.profile, row.profile)

    core = "one core" if env["pinned_core"] is None else f"pinned to core {env['pinned_core']}"
    lines = [
        f"Reference engine, durak-spec {env['durak_spec']}, {env['python']}, {env['platform']}"
        f" ({env['cpu']}), one thread, {core}; {env['games_per_row']} complete games per row "
        f"(seeds {env['seeds']}), every move a seeded random choice among the legal actions; "
        f"every {CHUNK} games timed {env['rounds']} times, the least time counts.",
        "",
        "| Game | Players | Actions per game | Games/s | µs per action "
        "| `legal_actions` µs (mid-game) |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    lines.extend(
        f"| {game(r)} | {r.players} | {r.actions / r.games:.0f} | {r.games_per_second:,.0f} "
        f"| {r.us_per_action:.1f} | {r.legal_actions_us:.1f} ({r.legal_count} actions) |"
        for r in rows)
    lines += [
        "",
        "Cost of one step (`legal_actions` and `apply` on the position, least of "
        f"{STEP_REPEATS} runs; the slowest timed {RETIME_RUNS} times more until the slowest "
        "of all was one timed again), over every step of the same games:",
        "",
        "| Game | Players | Steps | Median µs | p99 µs | Max µs | Max/median |",
        "|---|--:|--:|--:|--:|--:|--:|",
    ]
    lines.extend(
        f"| {game(r)} | {r.players} | {r.steps:,} | {r.step_median_us:.1f} "
        f"| {r.step_p99_us:.1f} | {r.step_max_us:.1f} | {r.step_max_ratio:.1f}x |"
        for r in rows)
    worst = max(rows, key=lambda r: r.step_max_ratio)
    verdict = "no position costs" if worst.step_max_ratio < RATIO_LIMIT else \
        "SOME POSITION COSTS"
    lines += ["", f"Result: {verdict} more than {RATIO_LIMIT:.0f}x the median step "
              f"(the most: {worst.step_max_ratio:.1f}x, {game(worst)} with {worst.players} "
              f"players, {worst.slowest_position})."]
    if not all(r.slowest_verified for r in rows):
        lines.append(f"Note: after {RETIME_ROUNDS} rounds of timing again, the slowest step "
                     "of some row had still not been timed again; its maximum may be noise.")
    busiest = max(r.busy for r in rows)
    if busiest > BUSY_WARNING:
        lines.append(f"Note: wall time was up to {busiest:.1f}x the CPU time: the machine was "
                     "busy with other work, so games/s and µs per action are pessimistic.")
    incomplete = [r for r in rows if r.complete < r.games]
    if incomplete:
        lines.append("Games stopped by --max-actions: " + ", ".join(
            f"{game(r)} {r.players}p: {r.games - r.complete}" for r in incomplete))
    return "\n".join(lines)



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench_engine.py",
        description="Benchmark the reference engine with complete random games.")
    parser.add_argument("--games", type=positive_count, default=100,
                        help="complete games per game and number of players (default 100)")
    parser.add_argument("--max-actions", type=positive_count, default=100_000,
                        help="stop a game after this many actions (default 100000)")
    parser.add_argument("--rounds", type=positive_count, default=3,
                        help="times every games are timed for games/s; the least counts "
                             "(default 3)")
    parser.add_argument("--cpu", type=int, default=None, metavar="N",
                        help="pin the process to core N (default: not pinned)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)

    if args.cpu is not None:
        pin(args.cpu)
    env = environment(args.games, args.rounds, args.cpu)
    rows: list[Row] = []
    configs = [(name, players) for name in PROFILES for players in PLAYERS]
    try:
        for index, (name, players) in enumerate(configs, 1):
            print(f"[{index}/{len(configs)}] {name}, {players} players: {args.games} games ...",
                  end="", file=sys.stderr, flush=True)
            started = time.perf_counter()
            rows.append(measure(name, players, args.games, args.max_actions, args.rounds))
            print(f" {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    if args.json:
        data = {"environment": env, "ratio_limit": RATIO_LIMIT,
                "rows": [asdict(r) for r in rows],
                "ok": all(r.step_max_ratio < RATIO_LIMIT for r in rows)}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(markdown(rows, env))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
