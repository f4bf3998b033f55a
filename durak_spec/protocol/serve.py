"""Serve an in-process engine over the wire protocol (layer 5).

:func:`serve` reads requests from a text stream and writes one response per request,
as JSON lines (see :mod:`durak_spec.protocol.wire`), until ``quit`` or the end of the input.
:func:`serve_stdio` does so on the process's standard input and output; the command
``durak-spec serve`` (also ``python -m durak_spec.serve``, :mod:`durak_spec.cli.serve`)
serves the reference engine that way, or any class or factory that makes an
:class:`~durak_spec.protocol.Engine` (``durak-spec serve mypackage.mymodule:MyEngine``), and
``durak-spec serve --schema`` prints the protocol's JSON Schema.

A request the engine cannot serve gets an error response (``"ok": false``) naming the
problem, and the server carries on; an illegal action is not an error but a rejection.
Blank lines are ignored.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import sys
from typing import TextIO

from durak_spec.core.cliargs import StreamError
from durak_spec.core.errors import DurakError, IllegalAction, InvalidState
from durak_spec.protocol import Engine, LoadDeclined
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

__all__ = ["Server", "serve", "serve_stdio"]


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


def serve_stdio(engine: Engine) -> None:
    """Serve ``engine`` on this process's standard input and output (UTF-8, ``\\n``) until
    ``quit`` or the end of the input; a client that goes away ends it quietly."""
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="backslashreplace",
                              newline="\n")
    try:
        serve(engine, stdin, stdout)
        stdout.flush()
    except BrokenPipeError:  # the client went away: nothing left to answer
        _quiet(stdout)
        return
    except OSError as error:  # a full device: no answer can reach the client
        _quiet(stdout)
        raise StreamError(f"cannot write to standard output: {error.strerror or error}") \
            from None
    finally:
        # The wrappers must not close the process's own streams when they go away.
        stdin.detach()
    stdout.detach()


def _quiet(stdout: io.TextIOWrapper) -> None:
    """Drop what is still buffered for a standard output that cannot be written, and no
    second complaint when Python exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        stdout.detach()
