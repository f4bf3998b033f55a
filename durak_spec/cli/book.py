"""``durak-spec book [--out DIR]``: build the rules website from the installed package."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from durak_spec.book.build import MARKER, build_book, out_problem
from durak_spec.book.site import BookError
from durak_spec.cli.args import CommandError, Subparsers

__all__ = ["add_parser"]


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "book", help="build the rules website (every example played while it builds)",
        description="Build the rules website from the installed package into a folder of "
                    "HTML pages; needs the book extra (pip install 'durak-spec[book]').",
        epilog="exit status: 0 if the book was built; 1 if it did not build; 2 for bad "
               "options, among them an --out that is not a new folder, an empty one or "
               f"one an earlier build made (it carries a {MARKER} file): a folder of "
               "other files, a symbolic link, a file or a device is refused before "
               "anything is built, and nothing is deleted; 130 when interrupted, 143 when "
               "stopped with SIGTERM (Jupyter Book and its kernel are stopped too).")
    parser.add_argument("--out", default="durak-book", metavar="DIR",
                        help="the folder to write the site to (default: ./durak-book); "
                             "replaced whole only if an earlier build made it")
    parser.add_argument("--features", default=None, metavar="DIR",
                        help="show these feature files instead of the package's")
    parser.add_argument("--engine", default=None, metavar="DIR",
                        help="serve the reference engine packed in DIR (python "
                             "book/web/pack.py DIR in a clone of the project), for the "
                             "pictures' Try it buttons and the game page")
    parser.set_defaults(handler=_run)


EXIT_TERMINATED = 128 + signal.SIGTERM


class _Terminated(Exception):
    """SIGTERM (``kill PID``) arrived during the build."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def _run(args: argparse.Namespace) -> int:
    """The build, with SIGTERM turned into an orderly stop: Jupyter Book and its kernel are
    stopped and the scratch folder removed (by default the signal would end this process
    at once and leave them running)."""
    if threading.current_thread() is not threading.main_thread():
        return _build(args)
    before = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _build(args)
    except _Terminated:
        print(f"durak-spec book: stopped (SIGTERM); {args.out} is as it was unless the "
              "site was already being put in place", file=sys.stderr, flush=True)
        return EXIT_TERMINATED
    finally:
        signal.signal(signal.SIGTERM, before)


def _build(args: argparse.Namespace) -> int:
    out = Path(args.out).absolute()  # not resolved: a symbolic link is refused, not followed
    problem = out_problem(out)
    if problem is not None:
        raise CommandError(problem)
    features = Path(args.features) if args.features else None
    if features is not None and not features.is_dir():
        raise CommandError(f"{features} is not a directory of feature files")

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    engine = Path(args.engine) if args.engine else None
    try:
        index = build_book(out, features=features, engine=engine, say=say)
    except BookError as error:
        raise CommandError(str(error), status=1) from None
    print(f"the rules book is in {out} (open {index})")
    return 0
