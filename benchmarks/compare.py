"""Compare the engine's speed with an earlier commit, side by side, in one run.

The base commit (``--base REV``, by default ``8599315``, the engine before it was split
into rule modules) is unpacked with ``git archive`` into a temporary directory; the
working tree is the other version. Each version runs in a worker process of its own,
with its own tree first on ``sys.path`` (the worker says which files it imported), and
uses only the public API that both versions have: ``from durak_spec import profile,
new_game, legal_actions, apply``.

For the throw-in and the transfer game (``classic-throw-in``, ``classic-transfer``) with
2, 4 and 6 players it measures:

* games per second of CPU time (the worker's process time, which time spent waiting for
  a busy machine's other work does not count): ``--rounds`` rounds of ``--games``
  complete games (seeds 0 .. games - 1, every move a seeded random choice among the
  legal actions, so both versions play the same games); in every round both versions
  play, in alternating order, to cancel drift of the machine; the ratio new / base is the
  median of the rounds' ratios (one round's ratio ranges from 0.65 to 1.15 for the same
  two trees on a quiet 2-core VM; the median of 15 rounds moves by a few points);
* the cost of one step (``legal_actions`` and ``apply`` on a position) over every step
  of the same games: each step timed three times and the least time kept, then the 32
  slowest timed 25 times more, until the slowest of all is one timed again; the median
  and the maximum, and the maximum over the median;
* with ``--instructions N`` (needs ``valgrind``): the machine instructions per game of
  N games of each row, counted by cachegrind, which no other load of the machine
  changes: the steadiest ratio on a shared machine. Both counts (N games, and none, to
  subtract the start and the imports) run with ``PYTHONHASHSEED=0``, as the workers do:
  with a random seed per run the string hashes differ, and so does the cost of the start,
  by up to 3 % of a two-player game's count for N = 3.

Progress goes to stderr, the result to stdout as Markdown (or JSON with ``--json``). The
goal of issue 9: the new engine keeps at least 80 % of the base's games per second, and
no step costs more than 100 times the median.

    python benchmarks/compare.py [--base 8599315] [--games 100] [--rounds 15]
                                 [--instructions N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROFILES = ("classic-throw-in", "classic-transfer")
PLAYERS = (2, 4, 6)
GAME_NAMES = {"classic-throw-in": "throw-in", "classic-transfer": "transfer"}
RATIO_GOAL = 0.8
STEP_LIMIT = 100.0

# The worker: reads one JSON request per line, answers one JSON line. It knows only the
# public API that every version of the package has.
WORKER = r'''
import heapq, json, random, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import durak_spec
from durak_spec import apply, legal_actions, new_game, profile

def play(rules, seed):
    state = new_game(rules, seed=seed)
    choose = random.Random(seed).choice
    positions, actions = [state], []
    while not state.is_over:
        action = choose(legal_actions(state))
        state = apply(state, action)
        positions.append(state)
        actions.append(action)
    return positions, actions

def games(request):
    rules = profile(request["profile"]).rules(players=request["players"])
    count = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(request["games"]):
        count += len(play(rules, seed)[1])
    return {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
            "actions": count}

def least(state, action, runs):
    clock = time.perf_counter
    best = float("inf")
    for _ in range(runs):
        start = clock()
        legal_actions(state)
        apply(state, action)
        best = min(best, clock() - start)
    return best

def steps(request):
    rules = profile(request["profile"]).rules(players=request["players"])
    played = [play(rules, seed) for seed in range(request["games"])]
    where = [(g, s) for g, (_, actions) in enumerate(played) for s in range(len(actions))]
    costs = [least(played[g][0][s], played[g][1][s], 3) for g, s in where]
    again = set()
    for _ in range(20):
        if max(range(len(costs)), key=costs.__getitem__) in again:
            break
        for i in heapq.nlargest(32, range(len(costs)), key=costs.__getitem__):
            if i not in again:
                g, s = where[i]
                costs[i] = min(costs[i], least(played[g][0][s], played[g][1][s], 25))
                again.add(i)
    median = statistics.median(costs)
    return {"steps": len(costs), "median_us": median * 1e6, "max_us": max(costs) * 1e6}

if len(sys.argv) > 2:  # one batch of games, then stop (for counting instructions)
    games({"profile": sys.argv[2], "players": int(sys.argv[3]), "games": int(sys.argv[4])})
    raise SystemExit
print(json.dumps({"file": durak_spec.__file__}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    answer = games(request) if request["kind"] == "games" else steps(request)
    print(json.dumps(answer), flush=True)
'''


class Worker:
    """One version of the package in a process of its own."""

    def __init__(self, label: str, tree: Path) -> None:
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tree)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        hello = self._read()
        self.file = str(hello["file"])
        if not Path(self.file).resolve().is_relative_to(tree.resolve()):
            raise SystemExit(f"compare.py: the {label} worker imported {self.file}, "
                             f"not the package in {tree}")

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"compare.py: the {self.label} worker stopped")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, **request: object) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


@dataclass
class Row:
    """One game and number of players, both versions."""

    profile: str
    players: int
    base_games_per_second: float
    new_games_per_second: float
    ratio: float
    round_ratios: list[float]
    actions_per_game: float
    base_step_median_us: float
    base_step_max_us: float
    new_step_median_us: float
    new_step_max_us: float
    base_instructions: int | None = None
    new_instructions: int | None = None

    @property
    def new_step_ratio(self) -> float:
        return self.new_step_max_us / self.new_step_median_us

    @property
    def base_step_ratio(self) -> float:
        return self.base_step_max_us / self.base_step_median_us


def unpack(rev: str, into: Path) -> str:
    """The tree of commit ``rev`` in ``into``; returns the commit's short name."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev],
                            check=True, capture_output=True, text=True).stdout.strip()
    archive = into / "base.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit,
                        "durak_spec"], check=True, stdout=out)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return commit


def measure(base: Worker, new: Worker, name: str, players: int, games: int,
            rounds: int) -> Row:
    rates: dict[str, list[float]] = {"base": [], "new": []}
    actions = 0
    for round_ in range(rounds):
        order = (base, new) if round_ % 2 == 0 else (new, base)
        for worker in order:
            answer = worker.ask(kind="games", profile=name, players=players, games=games)
            rates[worker.label].append(games / answer["cpu"])
            actions = answer["actions"]
        print(".", end="", file=sys.stderr, flush=True)
    costs = {worker.label: worker.ask(kind="steps", profile=name, players=players,
                                      games=games) for worker in (new, base)}
    ratios = [n / b for n, b in zip(rates["new"], rates["base"], strict=True)]
    return Row(
        profile=name, players=players,
        base_games_per_second=statistics.median(rates["base"]),
        new_games_per_second=statistics.median(rates["new"]),
        ratio=statistics.median(ratios), round_ratios=ratios,
        actions_per_game=actions / games,
        base_step_median_us=costs["base"]["median_us"], base_step_max_us=costs["base"]["max_us"],
        new_step_median_us=costs["new"]["median_us"], new_step_max_us=costs["new"]["max_us"],
    )


def instructions(tree: Path, name: str, players: int, games: int) -> int | None:
    """Machine instructions per game of ``games`` games, counted by valgrind's cachegrind
    (the start of Python and the imports subtracted); ``None`` without valgrind."""
    if shutil.which("valgrind") is None:
        return None

    def count(batch: int) -> int:
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             "--cachegrind-out-file=/dev/null", sys.executable, "-c", WORKER, str(tree),
             name, str(players), str(batch)], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"})
        found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        if found is None:
            raise SystemExit(f"compare.py: no instruction count from valgrind:\n{run.stderr}")
        return int(found.group(1).replace(",", ""))

    return (count(games) - count(0)) // games


def markdown(rows: list[Row], commit: str, games: int, rounds: int) -> str:
    counted = all(r.base_instructions and r.new_instructions for r in rows)
    lines = [
        f"Base {commit} against the working tree, {games} games per row and round, "
        f"{rounds} rounds, both versions in every round (alternating order); games/s of "
        "CPU time is the median of the rounds, the ratio the median of the rounds' ratios.",
        "",
        "| Game | Players | Actions per game | Base games/s | New games/s | New / base "
        + ("| Instructions/game base | new | Base / new " if counted else "")
        + "| Step median µs (new) | Step max µs (new) | Max/median (new) | Max/median (base) |",
        "|---|--:|--:|--:|--:|--:|" + ("--:|--:|--:|" if counted else "") + "--:|--:|--:|--:|",
    ]
    for r in rows:
        count = (f"| {r.base_instructions / 1e6:.1f} M | {r.new_instructions / 1e6:.1f} M "
                 f"| {r.base_instructions / r.new_instructions:.2f} "
                 if counted and r.base_instructions and r.new_instructions else "")
        lines.append(
            f"| {GAME_NAMES.get(r.profile, r.profile)} | {r.players} | {r.actions_per_game:.0f} "
            f"| {r.base_games_per_second:,.0f} | {r.new_games_per_second:,.0f} | {r.ratio:.2f} "
            + count
            + f"| {r.new_step_median_us:.1f} | {r.new_step_max_us:.1f} "
            f"| {r.new_step_ratio:.1f}x | {r.base_step_ratio:.1f}x |")
    slowest = min(rows, key=lambda r: r.ratio)
    worst = max(rows, key=lambda r: r.new_step_ratio)
    lines += [
        "",
        f"Result: the new engine keeps {slowest.ratio:.0%} of the base's games/s at worst "
        f"({GAME_NAMES.get(slowest.profile)} with {slowest.players} players; goal "
        f"{RATIO_GOAL:.0%}: {'met' if slowest.ratio >= RATIO_GOAL else 'NOT MET'}); its "
        f"slowest step costs {worst.new_step_ratio:.1f}x the median (limit "
        f"{STEP_LIMIT:.0f}x: {'met' if worst.new_step_ratio < STEP_LIMIT else 'NOT MET'}).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="compare.py", description="Compare the engine's speed with an earlier commit.")
    parser.add_argument("--base", default="8599315", metavar="REV",
                        help="the commit to compare with (default 8599315)")
    parser.add_argument("--games", type=int, default=100,
                        help="complete games per row and round (default 100)")
    parser.add_argument("--rounds", type=int, default=15,
                        help="rounds (default 15: the CPU time of a 100-game round of this "
                             "2-core VM moves by up to a third from one round to the next)")
    parser.add_argument("--instructions", type=int, default=0, metavar="N",
                        help="also count the instructions of N games per row with valgrind "
                             "(default 0: do not)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    with tempfile.TemporaryDirectory(prefix="durak-compare-") as scratch:
        commit = unpack(args.base, Path(scratch))
        base = Worker("base", Path(scratch) / "tree")
        new = Worker("new", ROOT)
        print(f"base {commit}: {base.file}\nnew: {new.file}", file=sys.stderr)
        rows = []
        try:
            for name in PROFILES:
                for players in PLAYERS:
                    print(f"{name}, {players} players ", end="", file=sys.stderr, flush=True)
                    started = time.perf_counter()
                    row = measure(base, new, name, players, args.games, args.rounds)
                    if args.instructions:
                        print(" counting", end="", file=sys.stderr, flush=True)
                        row.base_instructions = instructions(Path(scratch) / "tree", name,
                                                             players, args.instructions)
                        row.new_instructions = instructions(ROOT, name, players,
                                                            args.instructions)
                    rows.append(row)
                    print(f" {time.perf_counter() - started:.0f} s", file=sys.stderr)
        finally:
            base.close()
            new.close()
    if args.json:
        print(json.dumps({"base": commit, "games": args.games, "rounds": args.rounds,
                          "rows": [asdict(r) for r in rows]}, indent=2))
    else:
        print(markdown(rows, commit, args.games, args.rounds))
    ok = all(r.ratio >= RATIO_GOAL and r.new_step_ratio < STEP_LIMIT for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
