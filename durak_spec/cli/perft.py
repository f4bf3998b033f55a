"""``durak-spec perft``: check or list the stored perft counts (the counting is in
:mod:`durak_spec.conformance.perft`).

The data files are regenerated in a clone with ``python tools/perft_fixtures.py``; that
script is not part of the installed package."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from durak_spec.cli.args import CommandError, Subparsers, positive_count, seconds
from durak_spec.conformance.checker import DEFAULT_TIMEOUT
from durak_spec.conformance.perft import check_positions, format_check, label, load_positions
from durak_spec.conformance.perft.check import PerftCheck
from durak_spec.core.cards import format_cards
from durak_spec.protocol import Engine
from durak_spec.protocol.subprocess_engine import EngineFailure


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec perft``."""
    parser = subparsers.add_parser(
        "perft", help="check or list the perft counts of stacked deals",
        description="Perft-style counts of action sequences for stacked deals: check the "
                    "stored counts against the reference or an engine (the default), list "
                    "the stored positions (a clone regenerates the files with "
                    "'python tools/perft_fixtures.py'). "
                    "Positions are deals and positions from the middle and end of games "
                    "(a deal and the moves that reach them); an engine is counted depth by "
                    "depth and stops at the first depth that differs, naming the first path "
                    "whose legal actions differ, and every report is audited. "
                    "Exit status: 0 if every count matches, 1 if not, 2 for bad input.")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="compare the counts of an engine with the stored ones (default)")
    mode.add_argument("--list", action="store_true", help="list the stored positions")
    mode.add_argument("--generate", action="store_true", help=argparse.SUPPRESS)  # moved
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="perft files to check or list (default: the package's)")
    parser.add_argument("--engine", metavar="CMD", default=None,
                        help="the command of an engine speaking the protocol (default: the "
                             "reference implementation, in-process)")
    parser.add_argument("--timeout", metavar="S", type=seconds, default=None,
                        help=f"time limit of each request to --engine, in seconds "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--start-timeout", metavar="S", type=seconds, default=None,
                        help="time limit of the first answer of each --engine process, its "
                             "start-up included, in seconds (default: the --timeout)")
    parser.add_argument("--max-depth", metavar="D", type=positive_count, default=None,
                        help="count no deeper than this (for slow engines)")
    parser.add_argument("--time-budget", metavar="S", type=seconds, default=None,
                        dest="time_budget",
                        help="with --engine: the most seconds spent on one position; no "
                             "deeper count starts once they are spent (reported, not failed)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec perft``."""
    if args.generate:
        raise CommandError("--generate is no longer a command of the package: regenerate the "
                           "perft files in a clone with 'python tools/perft_fixtures.py'")
    checking = {"--engine": args.engine, "--timeout": args.timeout,
                "--start-timeout": args.start_timeout,
                "--max-depth": args.max_depth, "--time-budget": args.time_budget}
    ignored = [name for name, value in checking.items() if value is not None] \
        if args.list else []
    if ignored:
        raise CommandError(f"{', '.join(ignored)} {'has' if len(ignored) == 1 else 'have'} no "
                           f"effect with --list; leave {'it' if len(ignored) == 1 else 'them'} "
                           "out")
    for option, value in (("--timeout", args.timeout), ("--start-timeout", args.start_timeout)):
        if value is not None and args.engine is None:
            raise CommandError(f"{option} limits the answers of an --engine command; the "
                               "reference counts in-process")
    positions = load_positions(args.files or None)
    if args.list:
        for position in positions:
            print(f"{position.id}: {label(position)}, depth {position.depth}: "
                  f"{' '.join(map(str, position.counts))}")
            print(f"  {format_cards(position.deck)}" + (f"\n  {position.note}"
                                                        if position.note else ""))
        return 0
    engine: Engine | None = None
    if args.engine is not None:
        from durak_spec.protocol.subprocess_engine import SubprocessEngine

        try:
            engine = SubprocessEngine(args.engine, timeout=args.timeout or DEFAULT_TIMEOUT,
                                      start_timeout=args.start_timeout)
        except EngineFailure as error:
            raise CommandError(f"--engine: {error}") from None
    progress = _progress(sys.stderr)
    try:
        results = check_positions(engine, positions, max_depth=args.max_depth,
                                  progress=progress, budget=args.time_budget)
    except EngineFailure as error:
        print(f"durak-spec perft: the engine failed: {error}", file=sys.stderr)
        return 1
    finally:
        if engine is not None:
            engine.close()
    print(format_check(results))
    return 0 if all(r.ok for r in results) else 1


def _progress(stream: TextIO) -> Callable[[int, int, PerftCheck], None]:
    tty = bool(getattr(stream, "isatty", lambda: False)())

    def note(done: int, total: int, result: PerftCheck) -> None:
        if tty:
            stream.write(f"\r\033[Kposition {done}/{total} ({result.position.id})"
                         + ("\n" if done == total else ""))
            stream.flush()

    return note


__all__ = ["add_parser", "run"]
