"""Lockstep through a subprocess: two-player games per second against ``durak-spec serve``,
with one round trip per action (capability ``step``) and with three (apply, state,
legal), as an engine that does not declare it is asked.

    python benchmarks/bench_lockstep.py [--games 200] [--players 2] [--rounds 3]

Reports the best of the rounds (wall time; the machine is shared), the requests per
action, and the CPU time per action of each side in that round: the checker's
(``time.process_time``) and the server's (its user and system time, read from
``/proc/<pid>/stat``; Linux only). The server and the checker run on two cores at once
(the checker writes its requests ahead, ``SubprocessEngine.expect``), so the wall time
per action is about the busier side's CPU time when the machine is otherwise idle.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

from durak_spec.conformance.lockstep import play_lockstep
from durak_spec.model.rules import profile
from durak_spec.protocol import Capabilities
from durak_spec.protocol.subprocess_engine import SubprocessEngine


class _ThreeTrips(SubprocessEngine):
    """The same server, asked as an engine without the step capability is."""

    def capabilities(self) -> Capabilities:
        caps = super().capabilities()
        if caps.step:
            self._capabilities = dataclasses.replace(caps, step=False)
        return super().capabilities()


def _cpu(pid: int | None) -> float:
    """The CPU seconds (user and system) of process ``pid`` so far; 0 where unknown."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(kind: type[SubprocessEngine], games: int, players: int
            ) -> tuple[float, float, float, float]:
    """Games per second, requests per action, and the CPU µs per action of the checker
    and of the server."""
    command = [sys.executable, "-m", "durak_spec", "serve"]
    with kind(command, timeout=30) as engine:
        engine.capabilities()
        before = engine.stats.requests
        server_before = _cpu(engine.pid)
        started, cpu = time.perf_counter(), time.process_time()
        result = play_lockstep(engine, [profile("classic-throw-in").rules(players=players)],
                               games=games, seed=1)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        server = _cpu(engine.pid) - server_before
        requests = engine.stats.requests - before
    assert result.ok
    actions = max(result.actions, 1)
    return games / seconds, requests / actions, cpu / actions * 1e6, server / actions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for label, kind in (("one round trip per action (step)", SubprocessEngine),
                        ("three round trips per action", _ThreeTrips)):
        runs = [measure(kind, args.games, args.players) for _ in range(args.rounds)]
        best = max(runs)
        print(f"{label}: {best[0]:.1f} games/s, {best[1]:.2f} requests per action "
              f"({args.games} games of {args.players} players, best of {args.rounds}); "
              f"CPU per action: checker {best[2]:.0f} µs, server {best[3]:.0f} µs")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
