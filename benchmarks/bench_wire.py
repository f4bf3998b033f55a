"""The wire protocol's own cost per request, without the pipe: encoding and decoding.

Plays seeded random games through the server of the reference engine and records every
request line a checker sends (``start``, then ``legal``, ``apply`` and ``state`` for each
action) and every reply line. Then it times, per request:

* the server: ``decode_request`` plus ``encode_reply``, what the server spends besides
  the engine's own work;
* the client: ``encode_request`` plus ``decode_reply`` of the answer's bytes, what the
  checker spends;
* the client when the answer is the one it expects (lockstep tells the subprocess engine
  the answers it expects, ``SubprocessEngine.expect``): ``encode_request``, then the
  expected answer encoded and compared with the line, which is then not parsed.

    python benchmarks/bench_wire.py [--games 20] [--players 4] [--profile classic-transfer]
                                    [--instructions] [--baseline COMMIT]

Side by side, the same lines go through the wire of ``--baseline`` (default ``44958f3``,
the hand-written codec with its regular-expression fast paths and text caches, before
the wire's messages were declared as msgspec structs; give any later commit to compare
with it): its ``wire.py`` and ``jsonio.py`` are read from git at run time (``git show``)
and loaded as modules of their own, used only here. Without git or that commit, or when
its wire cannot read today's lines (44958f3 knows no ``events`` in an answer to
``apply``), the column is left out and the reason printed.

The least of seven runs is reported, in microseconds of CPU time per request (the wall
time of a shared machine varies with what else runs on it). ``--instructions`` (needs
``valgrind``) also counts the machine instructions per request of each side, which no
load changes: each side runs twice more under cachegrind, once timing nothing and once
timing two rounds, and the difference is divided by the requests.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from durak_spec.engine import deal
from durak_spec.model.rules import profile
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server
from durak_spec.protocol.wire import (
    ApplyRequest,
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


BASELINE = "44958f3"
"""The last commit of the hand-written codec (fast paths and text caches)."""


def _module(name: str, source: str) -> ModuleType:
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def _baseline_wire(commit: str) -> ModuleType | None:
    """The wire module of ``commit`` over that commit's JSON reader, or ``None``."""
    root = Path(__file__).resolve().parents[1]

    def show(path: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{path}"],
                                  capture_output=True, text=True, check=False)
        except OSError:
            return None
        return done.stdout if done.returncode == 0 else None

    jsonio, wire = show("durak_spec/core/jsonio.py"), show("durak_spec/protocol/wire.py")
    if jsonio is None or wire is None:
        return None
    _module("_baseline_jsonio", jsonio)
    wire = wire.replace("from durak_spec.core.jsonio import", "from _baseline_jsonio import")
    messages = show("durak_spec/protocol/messages.py")  # the structs that wire decoded into
    if messages is not None:
        _module("_baseline_messages", messages)
        wire = wire.replace("from durak_spec.protocol.messages import",
                            "from _baseline_messages import")
    # That wire built reports with new_report, an alias of Report's constructor since gone.
    wire = wire.replace("Report, Verdict, new_report\n", "Report, Verdict\n\nnew_report = Report\n")
    return _module("_baseline_wire", wire)


def _best(call: Callable[[], object], repeat: int = 7) -> float:
    # CPU time of this process: on a shared machine, wall time mostly measures the others
    return min(timeit.repeat(call, number=1, repeat=repeat, timer=time.process_time))


def _instructions(args: argparse.Namespace, side: str, requests: int,
                  baseline: bool = False) -> int:
    """Machine instructions per request of ``side`` (cachegrind, two rounds less none), of
    this wire or (``baseline``) of the baseline's."""

    def count(rounds: int) -> int:
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no",
             "--cachegrind-out-file=/dev/null", sys.executable, __file__,
             "--games", str(args.games), "--players", str(args.players), "--profile",
             args.profile, "--only", side, "--rounds", str(rounds), "--baseline",
             args.baseline, *(["--of-baseline"] if baseline else [])],
            capture_output=True, text=True, check=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        if found is None:
            raise SystemExit(f"bench_wire.py: no instruction count from valgrind:\n{run.stderr}")
        return int(found.group(1).replace(",", ""))

    return (count(2) - count(0)) // (2 * requests)


def _sides(lines: list[list[tuple[str, str]]], replies: list[list[Any]],
           games: list[list[tuple[Any, str]]], encode_request: Callable[..., str],
           decode_request: Callable[..., Any], encode_reply: Callable[..., str],
           decode_reply: Callable[..., Any], codec: Callable[[], Any] | None
           ) -> dict[str, Callable[[], None]]:
    """The three sides timed, for one wire module's functions (``codec``: the baseline's
    Codec, which a server and a client each held; ``None``: the functions take none)."""

    def extra() -> tuple[Any, ...]:
        return () if codec is None else (codec(),)

    def server() -> None:
        for game_lines, game_replies in zip(lines, replies, strict=True):
            more = extra()
            for (line, _), reply in zip(game_lines, game_replies, strict=True):
                decode_request(line, *more)
                encode_reply(reply, *more)

    answers = [[(request, reply.encode("utf-8")) for request, reply in game] for game in games]

    def client() -> None:  # the answers as a SubprocessEngine reads them: bytes
        for game in answers:
            more = extra()
            for request, reply in game:
                encode_request(request, *more)
                decode_reply(reply, request.cmd, *more)

    expected = [[(request, line.encode("utf-8"), answer)
                 for (request, line), answer in zip(game, game_replies, strict=True)]
                for game, game_replies in zip(games, replies, strict=True)]

    def expecting() -> None:
        for game in expected:
            more = extra()
            for request, line, answer in game:
                encode_request(request, *more)
                if encode_reply(answer, *more).encode("utf-8") != line:  # pragma: no cover
                    raise SystemExit("bench_wire.py: an answer is not the expected one")

    return {"server": server, "client": client, "expecting": expecting}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", default="classic-transfer")
    parser.add_argument("--instructions", action="store_true",
                        help="also count machine instructions per request (valgrind)")
    parser.add_argument("--baseline", default=BASELINE,
                        help="the commit of the wire to time beside this one ('none': skip)")
    parser.add_argument("--only", choices=("server", "client", "expecting"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--of-baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = _games(args.games, args.players, args.profile)
    lines = [[(encode_request(request), reply) for request, reply in game] for game in games]
    count = sum(len(game) for game in games)

    replies = [[decode_reply(reply, request.cmd) for request, reply in game] for game in games]
    sides = _sides(lines, replies, games, encode_request, decode_request, encode_reply,
                   decode_reply, None)

    old = None if args.baseline == "none" else _baseline_wire(args.baseline)
    old_sides: dict[str, Callable[[], None]] = {}
    if old is not None:
        try:
            old_games = [[(old.decode_request(line), reply) for line, reply in game]
                         for game in lines]
            old_replies = [[old.decode_reply(reply, request.cmd) for request, reply in game]
                           for game in old_games]
        except old.ProtocolError as error:  # an older protocol: no events in its answers
            print(f"(baseline {args.baseline} cannot read today's lines: {error.reason})")
            old = None
    if old is not None:
        old_sides = _sides(lines, old_replies, old_games, old.encode_request,
                           old.decode_request, old.encode_reply, old.decode_reply,
                           getattr(old, "Codec", None))
    if args.only is not None:  # one side, counted under valgrind by _instructions
        for _ in range(args.rounds):
            (old_sides if args.of_baseline else sides)[args.only]()
        return
    print(f"{count} requests of {args.games} games ({args.profile}, {args.players} players)")
    print("µs per request (CPU time, the least of 7 runs)    msgspec structs"
          + (f"   baseline {args.baseline}" if old is not None else ""))
    for side, what in (("server", "server: decode the request, encode the reply"),
                       ("client", "client: encode the request, decode the reply"),
                       ("expecting", "client expecting the answer: encode, compare")):
        new_us = _best(sides[side]) / count * 1e6
        old_text = f"{_best(old_sides[side]) / count * 1e6:17.2f}" if old is not None else ""
        print(f"{what:<48} {new_us:15.2f}{old_text}")
    if old is None and args.baseline != "none":
        print(f"(no baseline: git show {args.baseline} failed)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("bench_wire.py: --instructions needs valgrind")
        print("k instructions per request (cachegrind)          msgspec structs"
              + (f"   {args.baseline}" if old is not None else ""))
        for side in ("server", "client", "expecting"):
            new_k = _instructions(args, side, count) / 1000
            old_text = (f"{_instructions(args, side, count, baseline=True) / 1000:17.1f}"
                        if old is not None else "")
            print(f"{side:<48} {new_k:15.1f}{old_text}")


if __name__ == "__main__":
    main()
