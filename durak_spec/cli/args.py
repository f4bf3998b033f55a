"""What every subcommand of the command line shares: option types, ``--jobs`` and the
errors (layer 9).

A face of the package registers its subcommand with ``add_parser(subparsers)``; the types
here check option values, and :class:`~durak_spec.core.cliargs.CommandError` (re-exported
here) is how a handler reports bad input.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

from durak_spec.core.cliargs import EXIT_IO, EXIT_USAGE, CommandError, StreamError
from durak_spec.core.jobs import CLUSTER_EXTRA, default_jobs

__all__ = ["EXIT_IO", "EXIT_USAGE", "CommandError", "StreamError", "Subparsers",
           "add_jobs_arguments", "add_progress_arguments", "count", "jobs_of",
           "positive_count", "progress_shown", "seconds"]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def count(text: str) -> int:
    """An argparse type for a whole number of at least 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (0, 1, 2, ...)")
    return value


def positive_count(text: str) -> int:
    """An argparse type for a whole number of at least 1 (games, depths, ...)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def seconds(text: str) -> float:
    """An argparse type for a positive, finite number of seconds (time limits)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def add_jobs_arguments(parser: argparse.ArgumentParser, games: str = "games") -> None:
    """``--jobs N`` and ``--scheduler ADDRESS``: where the seeded ``games`` are played
    (:class:`~durak_spec.core.jobs.Workers`); read them back with :func:`jobs_of`."""
    parser.add_argument("--jobs", metavar="N", type=positive_count, default=None,
                        help=f"play the {games} in N local processes (default: one per core, "
                             f"{default_jobs()} here; 1: in this process alone); the results "
                             f"are the same for any N")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help=f"play the {games} on the workers of this Dask scheduler (e.g. "
                             f"tcp://10.0.0.5:8786; needs pip install "
                             f"'durak-spec[{CLUSTER_EXTRA}]'), with the same results")


def jobs_of(args: argparse.Namespace) -> tuple[int, str | None]:
    """The local processes and the scheduler address that ``--jobs`` and ``--scheduler``
    ask for; refuses both at once."""
    if args.scheduler is not None:
        if args.jobs is not None:
            raise CommandError("--jobs counts local processes; with --scheduler the "
                               "cluster's workers play: leave out one of them")
        if not args.scheduler.strip():
            raise CommandError("--scheduler: the address is empty")
        return 1, args.scheduler
    return (args.jobs if args.jobs is not None else default_jobs()), None


def add_progress_arguments(parser: argparse.ArgumentParser) -> None:
    """``--progress`` and ``--quiet``: whether a long run shows its progress bar on stderr
    (by default only on a terminal); read them with :func:`progress_shown`."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true",
                       help="show the progress bar on stderr even when it is not a terminal")
    shown.add_argument("--quiet", action="store_true",
                       help="no progress bar (shown by default on a terminal)")


def progress_shown(args: argparse.Namespace) -> bool | None:
    """What :func:`add_progress_arguments` asked for: shown, hidden, or ``None`` (decide by
    whether stderr is a terminal)."""
    return False if args.quiet else True if args.progress else None
