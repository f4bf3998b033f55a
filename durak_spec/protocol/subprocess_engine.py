"""An external engine in a child process, spoken to over the wire protocol (layer 6).

:class:`SubprocessEngine` satisfies :class:`durak_spec.protocol.Engine` for any command
that speaks the JSON-lines protocol of :mod:`durak_spec.protocol.wire` on its standard input and
output, in whatever language it is written.

It is built to survive bad engines. Every request has a time limit, and the child is read
through a selector, never with a blocking read, so nothing waits forever. An engine that
crashes, exits, writes a line that is not JSON, writes a line longer than ``max_line``
bytes, answers out of protocol (another id, a missing or unknown field) or does not answer
in time raises :class:`EngineFailure` with a ``kind`` saying which, a ``detail``, and the
offending ``line`` (``str()`` of the error quotes it, cut to 200 characters). The child's
whole process group is then killed; :meth:`SubprocessEngine.restart` starts a fresh one.
An engine that answers a request with an error response (``"ok": false``) is not broken:
that raises :class:`EngineError` (or :class:`~durak_spec.core.errors.InvalidState` when a
``start`` or ``load`` is refused with a rule ID) and the process keeps running.

Standard error is read alongside and kept in a bounded buffer (:attr:`SubprocessEngine.stderr`,
its last lines appear in failure messages). :meth:`SubprocessEngine.close`, the context
manager and a finalizer that also runs at interpreter exit never leave a process behind.

POSIX only (process groups and selectable pipes). Not thread-safe: one caller at a time.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal

from durak_spec.core.cards import Card
from durak_spec.core.errors import DurakError, InvalidState
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol import PROTOCOL_VERSION, Capabilities, LoadDeclined, Report, Verdict
from durak_spec.protocol.wire import (
    ApplyRequest,
    Codec,
    ErrorReply,
    HelloReply,
    HelloRequest,
    LegalReply,
    LegalRequest,
    LoadRequest,
    MalformedMessage,
    ProtocolError,
    QuitRequest,
    Reply,
    ReportReply,
    Request,
    StartRequest,
    StateRequest,
    VerdictReply,
    decode_reply,
    encode_request,
    quote,
)

__all__ = ["FAILURE_KINDS", "EngineError", "EngineFailure", "FailureKind", "RequestStats",
           "SubprocessEngine"]

FailureKind = Literal["crashed", "exited", "malformed", "oversized", "protocol", "timeout"]
FAILURE_KINDS: tuple[FailureKind, ...] = ("crashed", "exited", "malformed", "oversized",
                                          "protocol", "timeout")

_CHUNK = 1 << 16
_STDERR_LIMIT = 1 << 16
_CLOSE_GRACE = 1.0  # seconds a closing engine has to answer quit and exit
_EXIT_GRACE = 0.5  # seconds an engine that closed its output has to exit
_POLL = 0.25  # how often a waiting request checks that the engine is still alive


class EngineFailure(DurakError):
    """The engine broke the protocol or died; its processes have been killed.

    ``kind`` (also the ``code``) is one of :data:`FAILURE_KINDS`; ``line`` is what the
    engine wrote that was wrong (the partial line for a crash or a timeout, ``None`` if
    nothing), ``stderr`` the tail of its standard error. A ``ValueError`` like every error
    of the package (through :class:`~durak_spec.core.errors.DurakError`): the engine's
    output is bad input to the checker.
    """

    def __init__(self, kind: FailureKind, detail: str, *, line: str | None = None,
                 stderr: str = "") -> None:
        self.kind = kind
        self.detail = detail
        self.line = line
        self.stderr = stderr
        message = f"engine {kind}: {detail}"
        if line is not None:
            message += f"; it wrote: {quote(line) if line else '(an empty line)'}"
        last = _last_lines(stderr)
        if last:
            message += f"; its stderr ends: {last}"
        super().__init__(message, code=kind)

    def __reduce__(self) -> Any:
        return (_failure, (self.kind, self.detail, self.line, self.stderr))


def _failure(kind: FailureKind, detail: str, line: str | None, stderr: str) -> EngineFailure:
    return EngineFailure(kind, detail, line=line, stderr=stderr)


class EngineError(DurakError):
    """The engine answered a request with an error response; it is still running.

    A :class:`ValueError` (through :class:`~durak_spec.core.errors.DurakError`), as
    :class:`~durak_spec.protocol.Engine` asks of a refused ``start``; ``rule`` is the rule
    ID the engine named, if any.
    """

    code = "engine-error"

    def __init__(self, cmd: str, error: str, rule: str | None = None) -> None:
        self.cmd = cmd
        self.error = error
        super().__init__(f"the engine refused {cmd}: {error}" + (f" ({rule})" if rule else ""),
                         rule=rule)

    def __reduce__(self) -> Any:
        return (type(self), (self.cmd, self.error, self.rule))


@dataclass(frozen=True, slots=True)
class RequestStats:
    """How many requests were answered, and the wall time spent on them (round trips)."""

    requests: int
    seconds: float

    @property
    def mean_us(self) -> float:
        """Mean microseconds per request (0 before the first)."""
        return self.seconds / self.requests * 1e6 if self.requests else 0.0


def _last_lines(text: str, lines: int = 3, limit: int = 300) -> str:
    tail = " | ".join([t for t in text.strip().splitlines() if t.strip()][-lines:])
    return tail if len(tail) <= limit else "…" + tail[-limit:]


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _exit_text(code: int) -> str:
    return f"killed by {_signal_name(-code)}" if code < 0 else f"exit status {code}"


def _terminate(proc: subprocess.Popen[bytes], selector: selectors.BaseSelector) -> None:
    """Kill the child's whole process group, reap the child, release its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
        proc.kill()
        proc.wait()
    selector.close()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


class _Process:
    """One running child with its selector and buffers."""

    def __init__(self, command: Sequence[str], cwd: str | None,
                 env: Mapping[str, str] | None) -> None:
        self.proc = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, bufsize=0, start_new_session=True, cwd=cwd,
            env=dict(env) if env is not None else None,
        )
        self.selector = selectors.DefaultSelector()
        self.finalizer = weakref.finalize(self, _terminate, self.proc, self.selector)
        try:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            assert self.proc.stderr is not None
            self.fd_in = self.proc.stdin.fileno()
            self.fd_out = self.proc.stdout.fileno()
            self.fd_err = self.proc.stderr.fileno()
            for fd in (self.fd_in, self.fd_out, self.fd_err):
                os.set_blocking(fd, False)
            self.selector.register(self.fd_out, selectors.EVENT_READ, "out")
            self.selector.register(self.fd_err, selectors.EVENT_READ, "err")
        except BaseException:  # pragma: no cover - never leave a child behind
            self.finalizer()
            raise
        self.out = bytearray()
        self.scanned = 0
        self.err = bytearray()
        self.err_open = True

    def kill_group(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def read_err(self) -> None:
        try:
            chunk = os.read(self.fd_err, _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.selector.unregister(self.fd_err)
            self.err_open = False
            return
        self.err += chunk
        if len(self.err) > _STDERR_LIMIT:
            del self.err[:len(self.err) - _STDERR_LIMIT]

    def drain_err(self, seconds: float = 0.2) -> None:
        """Read what is left on stderr (after the child ended), briefly."""
        deadline = time.monotonic() + seconds
        while self.err_open and time.monotonic() < deadline:
            try:
                ready = _select_one(self.fd_err, deadline - time.monotonic())
            except (OSError, ValueError):
                return
            if not ready:
                return
            self.read_err()


def _select_one(fd: int, timeout: float) -> bool:
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        return bool(selector.select(max(timeout, 0.0)))


class SubprocessEngine:
    """An :class:`~durak_spec.protocol.Engine` played by a child process over JSON lines.

    ``command`` is a shell-style string (split with :func:`shlex.split`, no shell) or an
    argument list. ``timeout`` is the time limit of each request in seconds (the first one
    includes the engine's start-up); ``max_line`` the longest response line accepted, in
    bytes. The process starts at once; a command that cannot be started raises
    :class:`EngineFailure` of kind ``"crashed"``.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = 5.0,
                 max_line: int = 1_000_000, cwd: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args or not all(isinstance(a, str) for a in args):
            raise ValueError(f"an engine command must name a program, not {command!r}")
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
        if max_line < 1:
            raise ValueError(f"max_line must be a positive number of bytes, not {max_line!r}")
        self.command: tuple[str, ...] = tuple(args)
        self.timeout = float(timeout)
        self.max_line = max_line
        self.cwd = cwd
        self.env = env
        self._process: _Process | None = None
        self._stopped = "it has not been started"
        self._capabilities: Capabilities | None = None
        self._next_id = 1
        self._requests = 0
        self._seconds = 0.0
        self._last_stderr = ""
        self._codec = Codec()  # this client's memory of the engine's actions
        self._after: tuple[Report, tuple[Action, ...]] | None = None
        """The engine's report and legal actions after its last accepted action, from the
        same answer (capability ``step``), until the next request that may change them."""
        self._spawn()

    # -- process management -----------------------------------------------------------

    def _spawn(self) -> None:
        try:
            self._process = _Process(self.command, self.cwd, self.env)
        except OSError as error:
            self._process = None
            self._stopped = "it could not be started"
            raise EngineFailure("crashed", f"cannot start {shlex.join(self.command)}: "
                                f"{error.strerror or error}") from None
        self._capabilities = None
        self._after = None
        self._last_stderr = ""

    def restart(self) -> None:
        """Kill the engine if it runs, and start the command again."""
        self._kill()
        self._spawn()

    def _kill(self) -> None:
        process = self._process
        if process is not None:
            self._process = None
            process.kill_group()
            process.drain_err()
            process.finalizer()
            self._last_stderr = process.err.decode("utf-8", errors="replace")

    def close(self) -> None:
        """Ask the engine to quit, then make sure its whole process group is gone."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(EngineFailure, EngineError):
            self._call(QuitRequest(self._new_id()), timeout=min(self.timeout, _CLOSE_GRACE))
        process = self._process
        if process is not None:
            try:
                assert process.proc.stdin is not None
                process.proc.stdin.close()  # end of input: a polite engine exits now
            except OSError:
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.proc.wait(timeout=_CLOSE_GRACE)
        self._kill()
        self._stopped = "it was closed"

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    @property
    def running(self) -> bool:
        """Whether the child process is up (as far as this engine knows)."""
        return self._process is not None and self._process.proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The child's process id (also its process group id), ``None`` when stopped."""
        return self._process.proc.pid if self._process is not None else None

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running child, for inspection."""
        return self._process.proc if self._process is not None else None

    @property
    def stderr(self) -> str:
        """The last 64 KiB the engine wrote to standard error."""
        if self._process is None:
            return self._last_stderr
        return self._process.err.decode("utf-8", errors="replace")

    @property
    def stats(self) -> RequestStats:
        return RequestStats(self._requests, self._seconds)

    # -- one request --------------------------------------------------------------------

    def _new_id(self) -> int:
        ident = self._next_id
        self._next_id += 1
        return ident

    def _fail(self, kind: FailureKind, detail: str, line: bytes | None = None) -> EngineFailure:
        """Kill the engine and make the failure to raise."""
        self._kill()
        self._stopped = f"it was stopped after it {kind}" if kind in ("crashed", "exited") \
            else f"it was stopped after a failure ({kind})"
        text = None if line is None else line.decode("utf-8", errors="replace")
        return EngineFailure(kind, detail, line=text, stderr=self._last_stderr)

    def _call(self, request: Request, timeout: float | None = None) -> Reply:
        process = self._process
        if process is None:
            raise EngineFailure("exited", f"the engine is not running ({self._stopped}); "
                                "call restart()", stderr=self._last_stderr)
        started = time.perf_counter()
        try:
            line = self._exchange(process, request,
                                  (encode_request(request, self._codec) + "\n").encode("utf-8"),
                                  self.timeout if timeout is None else timeout)
        except EngineFailure:
            raise
        except BaseException:  # interrupted mid-request: the next answer would be out of step
            self._kill()
            self._stopped = f"it was stopped when {request.cmd} was interrupted"
            raise
        try:
            reply = decode_reply(line, request.cmd, self._codec)
        except MalformedMessage as error:
            raise self._fail("malformed", f"the answer to {request.cmd} is not a JSON "
                             f"object: {error.reason}", line) from None
        except ProtocolError as error:
            where = f"{error.field}: " if error.field else ""
            raise self._fail("protocol", f"the answer to {request.cmd} is out of protocol: "
                             f"{where}{error.reason}", line) from None
        if reply.id != request.id and not (isinstance(reply, ErrorReply) and reply.id is None):
            raise self._fail("protocol", f"the answer to {request.cmd} request {request.id} "
                             f"has id {reply.id}", line)
        self._requests += 1
        self._seconds += time.perf_counter() - started
        if isinstance(reply, ErrorReply):
            if reply.declined:
                raise LoadDeclined(reply.error)
            if reply.rule is not None and isinstance(request, StartRequest | LoadRequest):
                raise InvalidState(reply.rule, reply.error)
            raise EngineError(request.cmd, reply.error, reply.rule)
        return reply

    def _exchange(self, process: _Process, request: Request, data: bytes,
                  timeout: float) -> bytes:
        """Write one request and read one response line, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        pending = memoryview(data)
        try:
            pending = pending[os.write(process.fd_in, pending):]
        except BlockingIOError:
            pass
        except (BrokenPipeError, OSError):
            raise self._ended(process, request, deadline) from None
        selector = process.selector
        if pending:
            selector.register(process.fd_in, selectors.EVENT_WRITE, "in")
        try:
            while True:
                line = self._take_line(process, request)
                if line is not None:
                    if pending:
                        raise self._fail("protocol", f"the engine answered {request.cmd} "
                                         "before it read the whole request", line)
                    return line
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    partial = bytes(process.out) if process.out else None
                    raise self._fail("timeout", f"no answer to {request.cmd} within "
                                     f"{timeout:g} s", partial)
                events = selector.select(min(remaining, _POLL))
                if not events and process.proc.poll() is not None:
                    raise self._ended(process, request, deadline)
                for key, _ in events:
                    if key.data == "out":
                        try:
                            chunk = os.read(process.fd_out, _CHUNK)
                        except BlockingIOError:
                            continue
                        except OSError:
                            chunk = b""
                        if not chunk:
                            raise self._ended(process, request, deadline)
                        process.out += chunk
                    elif key.data == "err":
                        process.read_err()
                    else:
                        try:
                            pending = pending[os.write(process.fd_in, pending):]
                        except BlockingIOError:
                            continue
                        except OSError:
                            raise self._ended(process, request, deadline) from None
                        if not pending:
                            selector.unregister(process.fd_in)
        finally:
            if pending and self._process is process:
                selector.unregister(process.fd_in)

    def _take_line(self, process: _Process, request: Request) -> bytes | None:
        out = process.out
        end = out.find(b"\n", process.scanned)
        if end < 0:
            if len(out) > self.max_line:
                raise self._fail("oversized", f"the answer to {request.cmd} is longer than "
                                 f"{self.max_line} bytes without ending its line",
                                 bytes(out[:4 * 200]))
            process.scanned = len(out)
            return None
        if end > self.max_line:
            raise self._fail("oversized", f"the answer to {request.cmd} is {end} bytes long; "
                             f"at most {self.max_line} are accepted", bytes(out[:4 * 200]))
        line = bytes(out[:end])
        del out[:end + 1]
        process.scanned = 0
        return line

    def _ended(self, process: _Process, request: Request, deadline: float) -> EngineFailure:
        """The engine closed its output or its input: find out how it ended."""
        try:
            code: int | None = process.proc.wait(
                timeout=max(0.0, min(_EXIT_GRACE, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            code = None
        process.drain_err()
        partial = bytes(process.out) if process.out else None
        if code is None:
            return self._fail("exited", f"the engine closed its output while answering "
                              f"{request.cmd}, but did not exit", partial)
        if code == 0:
            return self._fail("exited", f"the engine exited (exit status 0) instead of "
                              f"answering {request.cmd}", partial)
        return self._fail("crashed", f"the engine died ({_exit_text(code)}) instead of "
                          f"answering {request.cmd}", partial)

    # -- the Engine protocol ------------------------------------------------------------

    def capabilities(self) -> Capabilities:
        """The engine's handshake (asked once per process)."""
        if self._capabilities is None:
            reply = self._call(HelloRequest(self._new_id()))
            assert isinstance(reply, HelloReply)
            if reply.capabilities.protocol != PROTOCOL_VERSION:
                raise self._fail("protocol", f"the engine speaks protocol version "
                                 f"{reply.capabilities.protocol}; this checker speaks "
                                 f"version {PROTOCOL_VERSION}")
            self._capabilities = reply.capabilities
        return self._capabilities

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self._after = None
        reply = self._call(StartRequest(self._new_id(), rules, tuple(deck), seed))
        assert isinstance(reply, ReportReply)
        return reply.report

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        """``start`` for a later game of a match: the request carries the last game's
        outcome (ORDER-7)."""
        self._after = None  # what an earlier step answer said belongs to the last game
        reply = self._call(StartRequest(self._new_id(), rules, tuple(deck), seed, previous))
        assert isinstance(reply, ReportReply)
        return reply.report

    def load(self, state: GameState) -> Report:
        self._after = None
        reply = self._call(LoadRequest(self._new_id(), state))
        assert isinstance(reply, ReportReply)
        return reply.report

    def legal_actions(self) -> tuple[Action, ...]:
        if self._after is not None:
            return self._after[1]
        reply = self._call(LegalRequest(self._new_id()))
        assert isinstance(reply, LegalReply)
        return reply.actions

    def apply(self, action: Action) -> Verdict:
        """Play ``action``; with capability ``step``, in one round trip that also brings
        the report and the legal actions after it (kept for :meth:`report` and
        :meth:`legal_actions`). After a rejection both are asked again."""
        self._after = None
        then = self._capabilities is not None and self._capabilities.step
        reply = self._call(ApplyRequest(self._new_id(), action, then))
        assert isinstance(reply, VerdictReply)
        if then and reply.report is not None and reply.actions is not None:
            self._after = (reply.report, reply.actions)
        return reply.verdict

    def report(self) -> Report:
        if self._after is not None:
            return self._after[0]
        reply = self._call(StateRequest(self._new_id()))
        assert isinstance(reply, ReportReply)
        return reply.report

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self._process is not None else "stopped"
        return f"SubprocessEngine({shlex.join(self.command)!r}, {state})"
