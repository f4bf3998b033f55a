"""Serve an in-process engine over the wire protocol (layer 6).

:func:`serve` reads requests from a text stream and writes one response per request,
as JSON lines (see :mod:`durak_spec.protocol.wire`), until ``quit`` or the end of the input.
``durak-spec serve`` (also ``python -m durak_spec.serve``) serves the reference engine on
standard input and output; ``durak-spec serve mypackage.mymodule:MyEngine`` serves any
class or factory that makes an :class:`~durak_spec.protocol.Engine`, and
``durak-spec serve --schema`` prints the protocol's JSON Schema.

A request the engine cannot serve gets an error response (``"ok": false``) naming the
problem, and the server carries on; an illegal action is not an error but a rejection.
Blank lines are ignored.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from durak_spec.core.cliargs import CommandError, Subparsers
from durak_spec.core.errors import DurakError, IllegalAction, InvalidState
from durak_spec.protocol import Engine, LoadDeclined, ReferenceEngine
from durak_spec.protocol.wire import (
    MAX_LINE,
    ApplyRequest,
    ErrorReply,
    HelloReply,
    HelloRequest,
    LegalReply,
    LegalRequest,
    LoadRequest,
    OkReply,
    ProtocolError,
    Reply,
    ReportReply,
    Request,
    StartRequest,
    StateRequest,
    VerdictReply,
    decode_request,
    encode_reply,
)

__all__ = ["Server", "add_parser", "main", "run", "serve"]


class Server:
    """Answers request lines for one engine; ``finished`` turns true after ``quit``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.finished = False

    def respond(self, request: Request) -> Reply:
        """The engine's reply to one decoded request (errors become :class:`ErrorReply`)."""
        try:
            return self._dispatch(request)
        except (IllegalAction, InvalidState) as error:
            return ErrorReply(request.id, error.reason, error.rule)
        except LoadDeclined as error:
            return ErrorReply(request.id, error.message, declined=True)
        except DurakError as error:
            return ErrorReply(request.id, str(error))
        except Exception as error:  # an engine bug must not bring the server down
            return ErrorReply(request.id, f"{type(error).__name__}: {error}")

    def _dispatch(self, request: Request) -> Reply:
        engine = self.engine
        if isinstance(request, LegalRequest):
            return LegalReply(request.id, tuple(engine.legal_actions()))
        if isinstance(request, ApplyRequest):
            verdict = engine.apply(request.action)
            if request.then and verdict.ok:  # one round trip: the position after it
                return VerdictReply(request.id, verdict, engine.report(),
                                    tuple(engine.legal_actions()))
            return VerdictReply(request.id, verdict)
        if isinstance(request, StateRequest):
            return ReportReply(request.id, engine.report())
        if isinstance(request, StartRequest):
            later = getattr(engine, "start_later", None)
            if request.previous is not None and later is not None:  # ORDER-7
                return ReportReply(request.id, later(request.rules, request.deck,
                                                     request.seed, request.previous))
            return ReportReply(request.id, engine.start(request.rules, request.deck,
                                                        request.seed))
        if isinstance(request, LoadRequest):
            if not engine.capabilities().load:
                return ErrorReply(request.id, "this engine cannot load positions "
                                  "(it does not declare the load capability)")
            return ReportReply(request.id, engine.load(request.state))
        if isinstance(request, HelloRequest):  # the server answers apply with then itself
            return HelloReply(request.id, dataclasses.replace(engine.capabilities(),
                                                              step=True))
        self.finished = True
        return OkReply(request.id)

    def handle(self, line: str) -> str | None:
        """The response line (without newline) to one request line; ``None`` for a blank line."""
        if not line.strip():
            return None
        try:
            request = decode_request(line)
        except ProtocolError as error:
            if error.rule is not None:  # well formed, but against the rules (load)
                return encode_reply(ErrorReply(error.message_id, error.reason, error.rule))
            return encode_reply(ErrorReply(error.message_id, str(error)))
        reply = self.respond(request)
        try:
            return encode_reply(reply)
        except Exception as error:  # the engine returned values that are not protocol values
            return encode_reply(ErrorReply(request.id, f"the engine's answer cannot be sent: "
                                           f"{type(error).__name__}: {error}"))


def serve(engine: Engine, stdin: TextIO, stdout: TextIO) -> None:
    """Serve ``engine`` on the streams until ``quit`` or the end of ``stdin``; then close it.

    A line longer than :data:`~durak_spec.protocol.wire.MAX_LINE` characters is not read
    into memory: its rest is skipped and it gets an error reply.
    """
    server = Server(engine)
    try:
        while True:
            line = stdin.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith("\n"):
                while True:  # skip the rest of the line, a piece at a time
                    rest = stdin.readline(MAX_LINE)
                    if not rest or rest.endswith("\n"):
                        break
                reply: str | None = encode_reply(ErrorReply(
                    None, f"the line is longer than {MAX_LINE} characters; it is not read"))
            else:
                reply = server.handle(line)
            if reply is None:
                continue
            stdout.write(reply + "\n")
            stdout.flush()
            if server.finished:
                break
    finally:
        engine.close()


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
        description=_DESCRIPTION)
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
    engine = _factory(args.engine)() if args.engine else ReferenceEngine()
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="backslashreplace",
                              newline="\n")
    try:
        serve(engine, stdin, stdout)
    except BrokenPipeError:  # the client went away: nothing left to answer
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second complaint when Python exits
        return 0
    # The wrappers must not close the process's own streams when they go away.
    stdout.flush()
    stdout.detach()
    stdin.detach()
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


if __name__ == "__main__":
    raise SystemExit(main())
