"""``durak-spec tips``: put the sources' tips to the test with seeded games (the
experiments are :mod:`durak_spec.play.tipsim`)."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import TextIO

from durak_spec.core.cliargs import CommandError, Subparsers, positive_count
from durak_spec.core.outfiles import OutputFile
from durak_spec.play.tipsim import (
    Design,
    Experiment,
    experiments,
    format_table,
    plot,
    run_experiments,
)

__all__ = ["add_parser", "run"]


class _Reporter:
    """Progress on a stream: a line that updates in place on a terminal, else one line per
    tenth of an experiment."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.seen: list[str] = []
        self.start = time.perf_counter()
        self.tty = stream.isatty()
        self.last: tuple[str, int] = ("", -1)

    def __call__(self, experiment: Experiment, done: int, games: int) -> None:
        if experiment.id not in self.seen:
            self.seen.append(experiment.id)
        tenth = 10 * done // games
        elapsed = time.perf_counter() - self.start
        line = (f"{experiment.id} (experiment {len(self.seen)} of {self.total}): "
                f"{done}/{games} games, {elapsed:.0f} s")
        if self.tty:
            finished = done == games and len(self.seen) == self.total
            self.stream.write("\r" + line.ljust(72) + ("\n" if finished else ""))
        elif (experiment.id, tenth) != self.last:
            self.stream.write(line + "\n")
            self.last = (experiment.id, tenth)
        self.stream.flush()


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec tips``."""
    parser = subparsers.add_parser(
        "tips", help="put the sources' tips to the test with seeded games",
        description="Put the sources' tips to the test: seeded games between a player who "
                    "follows each tip and one who does not. Shows progress on standard "
                    "error and prints the table of results; --svg also draws the chart.")
    parser.add_argument("--games", metavar="N", type=positive_count, default=600,
                        help="games per tip, rounded up to whole deals (default 600)")
    parser.add_argument("--design", choices=[d.value for d in Design],
                        default=Design.LEAVE_ONE_OUT.value,
                        help="leave-one-out: all tips against all but one (default); "
                             "alone: only the tip against no tips")
    parser.add_argument("--tips", metavar="TIP,...", default=None,
                        help="comma-separated tips to test (default: all), e.g. TIP-1,TIP-5")
    parser.add_argument("--workers", metavar="W", type=positive_count, default=1,
                        help="processes to run experiments in (default 1)")
    parser.add_argument("--svg", metavar="FILE", default=None,
                        help="also write the chart to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec tips``."""
    tips = None if args.tips is None else [t.strip() for t in args.tips.split(",") if t.strip()]
    try:
        chosen = experiments(args.design, tips)
    except ValueError as error:
        raise CommandError(f"--tips: {error}") from None
    with contextlib.ExitStack() as stack:  # the chart's file is opened before the games
        chart = (None if args.svg is None
                 else stack.enter_context(OutputFile(args.svg, "--svg")))
        reporter = None if args.quiet else _Reporter(sys.stderr, len(chosen))
        evidence = run_experiments(args.games, progress=reporter, design=args.design,
                                   tips=tips, workers=args.workers)
        print(format_table(evidence), flush=True)  # first: it is out if the chart fails
        if chart is not None:
            chart.write(plot(evidence))
    return 0
