"""``durak-spec tips``: put the sources' tips to the test with seeded games (the
experiments are :mod:`durak_spec.play.tipsim`)."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Sequence

from durak_spec.cli.args import (
    CommandError,
    Subparsers,
    add_jobs_arguments,
    add_progress_arguments,
    jobs_of,
    positive_count,
    progress_shown,
)
from durak_spec.core.jobs import ClusterError
from durak_spec.core.outfiles import OutputFile
from durak_spec.core.progressbar import progress_bar
from durak_spec.play.tipsim import (
    Design,
    Experiment,
    experiments,
    format_table,
    plot,
    run_experiments,
)

__all__ = ["add_parser", "run"]


class _Bar:
    """Progress as a bar on standard error (tqdm): the games played of every experiment."""

    def __init__(self, chosen: Sequence[Experiment], games: int, shown: bool | None) -> None:
        total = sum(-(-games // e.players) * e.players for e in chosen)
        self.bar = progress_bar(total, unit="game", shown=shown)
        self.done: dict[str, int] = {}

    def __call__(self, experiment: Experiment, done: int, games: int) -> None:
        self.bar.set_description(experiment.id, refresh=False)
        self.bar.update(done - self.done.get(experiment.id, 0))
        self.done[experiment.id] = done

    def close(self) -> None:
        self.bar.close()


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec tips``."""
    parser = subparsers.add_parser(
        "tips", help="put the sources' tips to the test with seeded games",
        description="Put the sources' tips to the test: seeded games between a player who "
                    "follows each tip and one who does not. The games are spread over "
                    "every core (--jobs) or a Dask cluster (--scheduler), with the same "
                    "results; a progress bar shows on a terminal. Prints the table of "
                    "results; --svg also draws the chart.")
    parser.add_argument("--games", metavar="N", type=positive_count, default=600,
                        help="games per tip, rounded up to whole deals (default 600)")
    parser.add_argument("--design", choices=[d.value for d in Design],
                        default=Design.LEAVE_ONE_OUT.value,
                        help="leave-one-out: all tips against all but one (default); "
                             "alone: only the tip against no tips")
    parser.add_argument("--tips", metavar="TIP,...", default=None,
                        help="comma-separated tips to test (default: all), e.g. TIP-1,TIP-5")
    add_jobs_arguments(parser)
    parser.add_argument("--svg", metavar="FILE", default=None,
                        help="also write the chart to this file")
    add_progress_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec tips``."""
    tips = None if args.tips is None else [t.strip() for t in args.tips.split(",") if t.strip()]
    try:
        chosen = experiments(args.design, tips)
    except ValueError as error:
        raise CommandError(f"--tips: {error}") from None
    jobs, scheduler = jobs_of(args)
    with contextlib.ExitStack() as stack:  # the chart's file is opened before the games
        chart = (None if args.svg is None
                 else stack.enter_context(OutputFile(args.svg, "--svg")))
        bar = stack.enter_context(contextlib.closing(_Bar(
            chosen, args.games, progress_shown(args))))
        try:
            evidence = run_experiments(args.games, progress=bar, design=args.design,
                                       tips=tips, jobs=jobs, scheduler=scheduler)
        except ClusterError as error:
            raise CommandError(str(error)) from None
        bar.close()
        print(format_table(evidence), flush=True)  # first: it is out if the chart fails
        if chart is not None:
            chart.write(plot(evidence))
    return 0
