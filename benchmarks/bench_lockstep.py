"""Lockstep through a subprocess: two-player games per second against ``durak-spec serve``,
with one round trip per action (capability ``step``) and with three (apply, state,
legal), as an engine that does not declare it is asked.

    python benchmarks/bench_lockstep.py [--games 200] [--players 2] [--rounds 3]

Reports the best of the rounds (wall time; the machine is shared), and the requests per
action.
"""

from __future__ import annotations

import argparse
import dataclasses
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


def measure(kind: type[SubprocessEngine], games: int, players: int) -> tuple[float, float]:
    command = [sys.executable, "-m", "durak_spec", "serve"]
    with kind(command, timeout=30) as engine:
        engine.capabilities()
        before = engine.stats.requests
        started = time.perf_counter()
        result = play_lockstep(engine, [profile("classic-throw-in").rules(players=players)],
                               games=games, seed=1)
        seconds = time.perf_counter() - started
        requests = engine.stats.requests - before
    assert result.ok
    return games / seconds, requests / max(result.actions, 1)


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
              f"({args.games} games of {args.players} players, best of {args.rounds})")


if __name__ == "__main__":
    main()
