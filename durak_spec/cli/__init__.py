"""The ``durak-spec`` command line: a dispatcher over subcommands (the top layer).

Subcommands::

    durak-spec profiles [NAME] [--json]
    durak-spec game [--profile NAME] [--players N] [--seed S] [--set AXIS=VALUE ...]
                    [--max-actions K] [--quiet] [--json]
    durak-spec check [--engine CMD] [--rule ID ...] [--tag T ...] [--profile NAME ...]
                     [--json FILE|-] [--junit-xml FILE] [--timeout S] [--start-timeout S] [-v]
    durak-spec check --random N [--seed S] [--profile NAME ...] [--players N ...]
    durak-spec check --perft [--max-depth D]
    durak-spec play [--profile NAME] [--players N] [--seat S] [--opponent KIND] ...
    durak-spec serve [module:Engine] [--schema]
    durak-spec perft [--check | --list] [FILE ...] [--engine CMD]
    durak-spec tips [--games N] [--tips TIP-1,...] [--svg FILE]
    durak-spec review GAME.json [--seat S ...] [--seed S] [--samples N] [--svg DIR] [--json]
    durak-spec vectors [--out FILE] [--schema]

Adding a subcommand
-------------------
A subcommand lives in its own module as a function ``add_parser(subparsers)`` that adds
its parser and registers the function that runs it::

    def add_parser(subparsers: Subparsers) -> None:
        parser = subparsers.add_parser("check", help="...", description="...")
        parser.add_argument(...)
        parser.set_defaults(handler=run)        # run(args: argparse.Namespace) -> int

and one ``"name = module:function"`` line in :data:`SUBCOMMANDS`. Modules are imported
only when the command line is built, and a command line that names its command imports
that command's module alone (``durak-spec serve`` starts in a third of the time it takes
to import every command, which matters to a checker that restarts an engine); ``--help``
and a missing or unknown command import them all, to list them. (A line without
``name =`` is imported for every command line.)

A handler returns the exit code; for bad input it raises
:class:`~durak_spec.core.cliargs.CommandError` (or lets an error of the package through:
:class:`~durak_spec.core.errors.DurakError`), which the dispatcher prints as one line on
stderr with exit code 2. :func:`~durak_spec.cli.options.add_rules_arguments` and
:func:`~durak_spec.cli.options.rules_from_args` give every subcommand the same
``--profile``/``--players``/``--set`` options.

Standard streams
----------------
A command never ends with a traceback because of its standard streams: output that cannot
be written (a full device, a closed standard output) and a closed standard input end it
with one line on stderr and exit code 74 (:data:`~durak_spec.core.cliargs.EXIT_IO`); a
closed pipe ends it quietly with 141, an interrupt with 130. Diagnostics that cannot be
written to standard error are dropped: the exit code still tells.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TextIO, TypeAlias, cast

from durak_spec.cli.args import EXIT_USAGE, CommandError, StreamError, Subparsers
from durak_spec.core.errors import DurakError
from durak_spec.core.version import __version__

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

PROG = "durak-spec"

Handler: TypeAlias = Callable[[argparse.Namespace], int]

SUBCOMMANDS: tuple[str, ...] = (
    "profiles = durak_spec.cli.profiles:add_parser",
    "rules = durak_spec.cli.rules:add_parser",
    "game = durak_spec.cli.game:add_parser",
    "play = durak_spec.cli.play:add_parser",
    "check = durak_spec.cli.check:add_parser",
    "perft = durak_spec.cli.perft:add_parser",
    "serve = durak_spec.cli.serve:add_parser",
    "tips = durak_spec.cli.tips:add_parser",
    "review = durak_spec.cli.review:add_parser",
    "book = durak_spec.cli.book:add_parser",
    "vectors = durak_spec.cli.vectors:add_parser",
)
"""Every subcommand as ``"name = module:add_parser_function"``, in the order ``--help``
lists them; ``name`` is the command the function adds."""

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


EPILOG = (f"Run '{PROG} COMMAND --help' for the options of a command. Exit status: 0 "
          "when it did its work; 2 for bad options or input; 74 if standard output, standard "
          "input or a report file cannot be used (closed, a full device; the text report is "
          "still printed when only a file fails); 130 when interrupted; 141 when the reader "
          "of its output went away; check and perft add their own (see their --help).")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, raised instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see '{self.prog} --help')", prog=self.prog)


# -- the dispatcher ---------------------------------------------------------------------


def _entries(argv: Sequence[str] | None) -> list[str]:
    """The lines of :data:`SUBCOMMANDS` to import for ``argv``: the named command's (and
    every unnamed one) if ``argv`` starts with a command's name, else all of them."""
    named = {entry.partition("=")[0].strip(): entry for entry in SUBCOMMANDS if "=" in entry}
    first = argv[0] if argv else None
    if first not in named:
        return list(SUBCOMMANDS)
    return [entry for entry in SUBCOMMANDS if "=" not in entry or entry == named[first]]


def _load(entry: str) -> Callable[[Subparsers], None]:
    module_name, _, function = entry.rpartition("=")[2].strip().partition(":")
    add_parser: Callable[[Subparsers], None] = getattr(
        importlib.import_module(module_name), function)
    return add_parser


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every subcommand of :data:`SUBCOMMANDS`, or only the one
    that ``argv`` (the command line to be parsed) names (see :func:`_entries`)."""
    # Typed as the base class so that the subparsers are too; at run time every
    # subparser is a _Parser (argparse makes them of the parent's class).
    parser: argparse.ArgumentParser = _Parser(
        prog=PROG,
        description="The executable rules specification of the card game Durak.",
        epilog=EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for entry in _entries(argv):
        _load(entry)(subparsers)
    parser.set_defaults(commands=tuple(subparsers.choices))
    return parser


def _say_error(prog: str, message: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # no stderr to complain to: the code tells
        sys.stderr.write(f"{prog}: error: {message}\n")
        sys.stderr.flush()


class _Output:
    """Standard output as the commands see it: a write that fails (a full device, a closed
    stream) raises :class:`StreamError` instead of an ``OSError`` from deep inside a
    command. A closed pipe stays a ``BrokenPipeError`` (the reader went away: exit 141)."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _failed(self, error: OSError | None = None) -> StreamError:
        if error is None:
            return StreamError("standard output is closed; nothing can be printed")
        return StreamError(f"cannot write to standard output: {error.strerror or error}")

    def write(self, text: str) -> int:
        if self._stream is None:
            raise self._failed()
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failed(error) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failed(error) from None

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise self._failed()
        return getattr(self._stream, name)


class _Diagnostics:
    """Standard error as the commands see it: what cannot be written is dropped."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with contextlib.suppress(OSError, ValueError):
            return self._stream.write(text)
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _ClosedInput:
    """Standard input when the command was started with it closed: any use is a
    :class:`StreamError`."""

    def _failed(self) -> StreamError:
        return StreamError("standard input is closed; give the command an input "
                           "(</dev/null for none)")

    def __iter__(self) -> _ClosedInput:
        raise self._failed()

    def __getattr__(self, name: str) -> Any:
        raise self._failed()


def _fill_closed_descriptors() -> None:
    """Open the null device on a standard descriptor (0, 1, 2) that was closed, so that no
    file the command opens (a report, an engine's pipe) takes its number."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)


@contextlib.contextmanager
def _guarded_streams() -> Iterator[None]:
    """Run with :class:`_Output`, :class:`_Diagnostics` and (if it was closed)
    :class:`_ClosedInput` as ``sys.stdout``, ``sys.stderr`` and ``sys.stdin``."""
    saved = sys.stdin, sys.stdout, sys.stderr
    if None in saved:
        _fill_closed_descriptors()
    with contextlib.ExitStack() as stack:
        err = saved[2] if saved[2] is not None else stack.enter_context(
            open(os.devnull, "w", encoding="utf-8"))  # a closed stderr: nowhere to say it
        sys.stdout = cast(TextIO, _Output(saved[1]))
        sys.stderr = cast(TextIO, _Diagnostics(err))
        if saved[0] is None:
            sys.stdin = cast(TextIO, _ClosedInput())
        try:
            yield
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved


def _quiet_stdout() -> None:
    """After a broken pipe, send what is still buffered for stdout to nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _safe_output() -> None:
    """Text that cannot be written as the terminal's encoding (a lone surrogate an engine
    named itself with, say) is written as its escape instead of ending the command."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            with contextlib.suppress(AttributeError, ValueError, OSError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    _safe_output()
    with _guarded_streams():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    prog = PROG
    try:
        if argv is None:
            argv = sys.argv[1:]
        parser = build_parser(argv)
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help and --version
            return done.code if isinstance(done.code, int) else 0
        if args.command is None:
            raise CommandError(f"choose a command ({', '.join(args.commands)}); "
                               f"see '{PROG} --help'")
        prog = f"{PROG} {args.command}"
        handler: Handler = args.handler
        status = handler(args)
        sys.stdout.flush()  # here, so that a closed pipe is noticed inside this try
        return status
    except StreamError as error:
        _say_error(error.prog or prog, error.message)
        _quiet_stdout()  # what is still buffered for stdout cannot be written either
        return error.status
    except CommandError as error:
        _say_error(error.prog or prog, error.message)
        return error.status
    except DurakError as error:
        _say_error(prog, str(error))
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
