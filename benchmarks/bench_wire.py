"""The wire protocol's own cost per request, without the pipe: encoding and decoding.

Plays seeded random games through the server of the reference engine and records every
request line a checker sends (``start``, then ``legal``, ``apply`` and ``state`` for each
action) and every reply line. Then it times, per request:

* the server: ``decode_request`` plus ``encode_reply``, what the server spends besides
  the engine's own work;
* the client: ``encode_request`` plus ``decode_reply``, what the checker spends;
* the client when the answer is the one it expects (lockstep tells the subprocess engine
  the answers it expects, ``SubprocessEngine.expect``): ``encode_request``, then the
  expected answer encoded and compared with the line, which is then not parsed.

    python benchmarks/bench_wire.py [--games 20] [--players 4] [--profile classic-transfer]
                                    [--instructions]

The least of seven runs is reported, in microseconds of CPU time per request (the wall
time of a shared machine varies with what else runs on it). ``--instructions`` (needs
``valgrind``) also counts the machine instructions per request of each side, which no
load changes: each side runs twice more under cachegrind, once timing nothing and once
timing two rounds, and the difference is divided by the requests.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import time
import timeit
from collections.abc import Callable

from durak_spec.engine import deal
from durak_spec.model.rules import profile
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server
from durak_spec.protocol.wire import (
    ApplyRequest,
    Codec,
    LegalReply,
    LegalRequest,
    Request,
    StartRequest,
    StateRequest,
    decode_reply,
    decode_request,
    encode_reply,
    encode_request,
)


def _games(games: int, players: int, name: str) -> list[list[tuple[Request, str]]]:
    """Per game, every request with the server's reply line."""
    rules = profile(name).rules(players=players)
    out = []
    ident = 0
    for game in range(games):
        server = Server(ReferenceEngine())
        rng = random.Random(game)
        ident += 1
        exchanges: list[tuple[Request, str]] = []

        def ask(request: Request, server: Server = server,
                exchanges: list[tuple[Request, str]] = exchanges) -> str:
            reply = server.handle(encode_request(request))
            assert reply is not None
            exchanges.append((request, reply))
            return reply

        ask(StartRequest(ident, rules, deal(rules, game), game))
        while True:
            ident += 1
            legal = decode_reply(ask(LegalRequest(ident)), "legal")
            assert isinstance(legal, LegalReply)
            if not legal.actions:
                break
            ask(ApplyRequest(ident + 1, rng.choice(legal.actions)))
            ask(StateRequest(ident + 2))
            ident += 2
        out.append(exchanges)
    return out


def _best(call: Callable[[], object], repeat: int = 7) -> float:
    # CPU time of this process: on a shared machine, wall time mostly measures the others
    return min(timeit.repeat(call, number=1, repeat=repeat, timer=time.process_time))


def _instructions(args: argparse.Namespace, side: str, requests: int) -> int:
    """Machine instructions per request of ``side`` (cachegrind, two rounds less none)."""

    def count(rounds: int) -> int:
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             "--cachegrind-out-file=/dev/null", sys.executable, __file__,
             "--games", str(args.games), "--players", str(args.players), "--profile",
             args.profile, "--only", side, "--rounds", str(rounds)],
            capture_output=True, text=True, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        if found is None:
            raise SystemExit(f"bench_wire.py: no instruction count from valgrind:\n{run.stderr}")
        return int(found.group(1).replace(",", ""))

    return (count(2) - count(0)) // (2 * requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", default="classic-transfer")
    parser.add_argument("--instructions", action="store_true",
                        help="also count machine instructions per request (valgrind)")
    parser.add_argument("--only", choices=("server", "client", "expecting"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = _games(args.games, args.players, args.profile)
    lines = [[(encode_request(request), reply) for request, reply in game] for game in games]
    count = sum(len(game) for game in games)

    replies = [[decode_reply(reply, request.cmd) for request, reply in game] for game in games]

    def server() -> None:
        for game_lines, game_replies in zip(lines, replies, strict=True):
            codec = Codec()  # as a Server holds one
            for (line, _), reply in zip(game_lines, game_replies, strict=True):
                decode_request(line, codec)
                encode_reply(reply, codec)

    def client() -> None:
        for game in games:
            codec = Codec()  # as a SubprocessEngine holds one
            for request, reply in game:
                encode_request(request, codec)
                decode_reply(reply, request.cmd, codec)

    expected = [[(request, line.encode("utf-8"), answer)
                 for (request, line), answer in zip(game, game_replies, strict=True)]
                for game, game_replies in zip(games, replies, strict=True)]

    def expecting() -> None:
        for game in expected:
            codec = Codec()
            for request, line, answer in game:
                encode_request(request, codec)
                if encode_reply(answer, codec).encode("utf-8") != line:  # pragma: no cover
                    raise SystemExit("bench_wire.py: an answer is not the expected one")

    if args.only is not None:  # one side, counted under valgrind by _instructions
        for _ in range(args.rounds):
            {"server": server, "client": client, "expecting": expecting}[args.only]()
        return
    server_us = _best(server) / count * 1e6
    client_us = _best(client) / count * 1e6
    expecting_us = _best(expecting) / count * 1e6
    print(f"{count} requests of {args.games} games ({args.profile}, {args.players} players)")
    print(f"server: {server_us:.2f} µs per request to decode it and encode the reply")
    print(f"client: {client_us:.2f} µs per request to encode it and decode the reply")
    print(f"client expecting the answer: {expecting_us:.2f} µs per request to encode it and "
          "check the reply is the one expected")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("bench_wire.py: --instructions needs valgrind")
        for side in ("server", "client", "expecting"):
            print(f"{side}: {_instructions(args, side, count) / 1000:.1f} k instructions per "
                  "request")


if __name__ == "__main__":
    main()
