"""``durak-spec serve`` and ``python -m durak_spec.serve``: an engine over the wire protocol
on standard input and output (the server is :mod:`durak_spec.protocol.serve`)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from durak_spec.cli.args import CommandError, Subparsers
from durak_spec.protocol import Engine, ReferenceEngine
from durak_spec.protocol.serve import serve_stdio

__all__ = ["add_parser", "main", "run"]


def _factory(spec: str) -> Callable[[], Engine]:
    module_name, colon, attr = spec.partition(":")
    if not colon or not module_name or not attr:
        raise CommandError(f"{spec!r}: name the engine as module:ClassOrFactory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise CommandError(f"cannot import {module_name}: {error}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise CommandError(f"{module_name} has no class or factory {attr!r}")
    return factory  # type: ignore[no-any-return]


_ENGINE_METHODS = ("capabilities", "start", "load", "legal_actions", "apply", "report", "close")


def _make_engine(spec: str) -> Engine:
    """The engine that ``module:ClassOrFactory`` makes, called without arguments; a
    :class:`CommandError` if the call fails or what it makes is not an engine."""
    factory = _factory(spec)
    try:
        made = factory()
    except Exception as error:  # the user's code: any failure is a one-line error
        raise CommandError(f"{spec} cannot make an engine: calling it without arguments "
                           f"raised {type(error).__name__}: {error}") from None
    missing = [name for name in _ENGINE_METHODS if not callable(getattr(made, name, None))]
    if missing:
        raise CommandError(f"{spec} made {type(made).__name__!r}, which is not an engine: "
                           f"it has no method {', '.join(missing)} (see the Engine "
                           "protocol, durak_spec.protocol.Engine)")
    return made


_DESCRIPTION = (
    "Serve a Durak engine over the durak-spec wire protocol: JSON lines on standard input "
    "and output, one response per request, until quit or the end of the input. Without "
    "ENGINE it serves the reference engine, so that 'durak-spec check --engine "
    "\"durak-spec serve\"' checks the protocol itself; 'python -m durak_spec.serve' is the "
    "same command. --schema prints the JSON Schema of every message instead.")


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engine", nargs="?", default=None, metavar="ENGINE",
                        help="module:Class of an in-process engine (default: the reference)")
    parser.add_argument("--schema", action="store_true",
                        help="print the protocol's JSON Schema (generated from the message "
                             "types; the package ships it as data/protocol.schema.json)")


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec serve``."""
    parser = subparsers.add_parser(
        "serve", help="serve an engine over the JSON-lines protocol (the reference by default)",
        description=_DESCRIPTION,
        epilog="exit status: 0 after quit or the end of the input; 2 for bad options, among "
               "them an ENGINE that cannot be imported, cannot be made without arguments or "
               "is not an engine; 74 if standard input or output cannot be used (closed, a "
               "full device)")
    _arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec serve``."""
    if args.schema:
        if args.engine is not None:
            raise CommandError("--schema prints the protocol's schema; it serves no ENGINE")
        from durak_spec.protocol.schema import schema_text

        sys.stdout.write(schema_text())
        return 0
    engine = _make_engine(args.engine) if args.engine else ReferenceEngine()
    serve_stdio(engine)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m durak_spec.serve``: the same as ``durak-spec serve``."""
    parser = argparse.ArgumentParser(prog="python -m durak_spec.serve",
                                     description=_DESCRIPTION)
    _arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except CommandError as error:
        print(f"{parser.prog}: error: {error.message}", file=sys.stderr)
        return error.status
