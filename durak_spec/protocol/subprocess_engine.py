"""An external engine in a child process, spoken to over the wire protocol (layer 5).

:class:`SubprocessEngine` satisfies :class:`durak_spec.protocol.Engine` for any command
that speaks the JSON-lines protocol of :mod:`durak_spec.protocol.wire` on its standard input and
output, in whatever language it is written.

It is built to survive bad engines. Every request has a time limit, and the child is read
through a selector, never with a blocking read, so nothing waits forever. An engine that
crashes, exits, writes a line that is not JSON, writes a line longer than ``max_line``
bytes, answers out of protocol (another id, a missing or unknown field) or does not answer
in time raises :class:`EngineFailure` with a ``kind`` saying which, a ``detail``, and the
offending ``line`` (``str()`` of the error quotes it, cut to 200 characters). The child's
whole process tree is then killed (its process group, its descendants,
and those that left the group with ``setsid``, found by a mark in their environment);
:meth:`SubprocessEngine.restart` starts a fresh one.
An engine that answers a request with an error response (``"ok": false``) is not broken:
that raises :class:`EngineError` (or :class:`~durak_spec.core.errors.InvalidState` when a
``start`` or ``load`` is refused with a rule ID) and the process keeps running.

Standard error is read alongside and kept in a bounded buffer (:attr:`SubprocessEngine.stderr`,
its last lines appear in failure messages). :meth:`SubprocessEngine.close`, the context
manager and a finalizer that also runs at interpreter exit never leave a process behind.

Requests ahead. A caller that knows the calls it will make next, if the engine answers as
it expects (lockstep does: its games follow the reference alone), says so with
:meth:`SubprocessEngine.expect`; the engine then writes those requests before their answers
are needed, up to :data:`WINDOW` at a time, so that the child works while the caller checks
the last answer. Every call still gets the answer to exactly the request it would have sent
on its own, in the same order. An answer line that is byte for byte the answer the caller
expects, as the encoder writes it, is that answer; any other line is read strictly. Since
the engine plays what it is sent, only a call that begins anew (``start``, ``load``,
``close``) may leave the plan: it reads and discards the answers still under way first.

POSIX only (process groups and selectable pipes). Not thread-safe: one caller at a time.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final, Literal, NamedTuple

from durak_spec.core.cards import Card
from durak_spec.core.errors import DurakError, InvalidState
from durak_spec.model.actions import Action
from durak_spec.model.events import Event
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol import (
    PROTOCOL_VERSION,
    Accepted,
    Capabilities,
    LoadDeclined,
    Report,
    Verdict,
)
from durak_spec.protocol.processes import (
    EngineProcess,
    exit_text,
    last_lines,
)
from durak_spec.protocol.wire import (
    ApplyRequest,
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
    encode_reply,
    encode_request,
    quote,
)

__all__ = ["FAILURE_KINDS", "WINDOW", "EngineError", "EngineFailure", "Expected", "FailureKind",
           "RequestStats", "SubprocessEngine"]

FailureKind = Literal["crashed", "exited", "malformed", "oversized", "protocol", "timeout"]
FAILURE_KINDS: tuple[FailureKind, ...] = ("crashed", "exited", "malformed", "oversized",
                                          "protocol", "timeout")

_CHUNK = 1 << 16
_STDERR_LIMIT = 1 << 16
_CLOSE_GRACE = 1.0  # seconds a closing engine has to answer quit and exit
_MARK_PREFIX = "DURAK_SPEC_ENGINE_"
"""The name of the environment variable that marks an engine's processes begins so; the
rest is a token of the one engine process (and a new one for each start)."""
_KILL_ROUNDS = 20  # scans of the process table while an engine's tree is killed
_EXIT_GRACE = 0.5  # seconds an engine that closed its output has to exit
_POLL = 0.25  # how often a waiting request checks that the engine is still alive
WINDOW = 16
"""The most requests written ahead of their answers (:meth:`SubprocessEngine.expect`); more
are written when half of them have been answered."""


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
        last = last_lines(stderr)
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


class Expected(NamedTuple):
    """One call a caller expects to make next (:meth:`SubprocessEngine.expect`): ``apply``
    of ``action``, which it expects the engine to accept or (a probe) to reject, or
    ``report`` or ``legal`` (:meth:`~SubprocessEngine.legal_actions`)."""

    cmd: Literal["apply", "report", "legal"]
    action: Action | None = None
    accepted: bool = True
    report: Report | None = None
    """The report the caller expects: after the accepted action, or asked by ``report``."""
    actions: tuple[Action, ...] | None = None
    """The legal actions the caller expects, in the order of its own engine."""
    events: tuple[Event, ...] | None = None
    """The events of the step the caller expects (an engine with capability ``events``)."""


class _StopIfInterrupted:
    """The guard of :meth:`SubprocessEngine._stopped_if_interrupted` (a class rather than
    a generator: it is entered once per request)."""

    __slots__ = ("engine", "request")

    def __init__(self, engine: SubprocessEngine, request: Request) -> None:
        self.engine, self.request = engine, request

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is not None and not issubclass(kind, EngineFailure):
            self.engine._kill()
            self.engine._stopped = f"it was stopped when {self.request.cmd} was interrupted"
        # (returning None: the exception, if any, goes on)


class _Ahead:
    """A call expected next; ``asks``: whether a request serves it (else the answer of the
    ``apply`` before it brings what it asks, capability ``step``)."""

    __slots__ = ("action", "asks", "call", "cmd", "end", "request")

    def __init__(self, call: Expected, asks: bool) -> None:
        self.call = call
        self.cmd = call.cmd
        self.action = call.action
        self.asks = asks
        self.request: Request | None = None
        """Once written: the request, and how many bytes had been queued for the engine
        with its line (``end``)."""
        self.end = -1


_ACCEPTED: Final = Accepted()
_MISS: Any = object()  # a call that is not the one expected next


class SubprocessEngine:
    """An :class:`~durak_spec.protocol.Engine` played by a child process over JSON lines.

    ``command`` is a shell-style string (split with :func:`shlex.split`, no shell) or an
    argument list. ``timeout`` is the time limit of each request in seconds;
    ``start_timeout``, if given, that of the first answer of each engine process, which
    includes its start-up (an engine that starts slowly and answers quickly: a virtual
    machine, a large program), else the first answer has ``timeout`` too; ``max_line`` the
    longest response line accepted, in bytes. The process starts at once; a command that
    cannot be started raises :class:`EngineFailure` of kind ``"crashed"``.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = 5.0,
                 start_timeout: float | None = None,
                 max_line: int = 1_000_000, cwd: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args or not all(isinstance(a, str) for a in args):
            raise ValueError(f"an engine command must name a program, not {command!r}")
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
        if start_timeout is not None and not start_timeout > 0:
            raise ValueError("start_timeout must be a positive number of seconds, not "
                             f"{start_timeout!r}")
        if max_line < 1:
            raise ValueError(f"max_line must be a positive number of bytes, not {max_line!r}")
        self.command: tuple[str, ...] = tuple(args)
        self.timeout = float(timeout)
        self.start_timeout = None if start_timeout is None else float(start_timeout)
        self._answered = False  # whether the process running has answered yet
        self.max_line = max_line
        self.cwd = cwd
        self.env = env
        self._process: EngineProcess | None = None
        self._stopped = "it has not been started"
        self._capabilities: Capabilities | None = None
        self._next_id = 1
        self._requests = 0
        self._seconds = 0.0
        self._last_stderr = ""
        self._after: tuple[Report, tuple[Action, ...]] | None = None
        """The engine's report and legal actions after its last accepted action, from the
        same answer (capability ``step``), until the next request that may change them."""
        self._plan: list[_Ahead] = []
        """The calls expected next (:meth:`expect`): those before ``_sent`` have their
        requests written, those before ``_head`` have been made."""
        self._head = 0
        self._sent = 0
        self._waiting = 0  # requests written (or queued) whose answers are still to read
        self._step = False  # whether the plan's applies ask for the position after them
        self._unsent = bytearray()  # requests queued for the engine, not yet written
        self._queued = 0  # bytes queued for the engine in all, and written in all
        self._written = 0
        self._writing = False  # whether the selector waits to write to the engine
        self._spawn()

    # -- process management -----------------------------------------------------------

    def _spawn(self) -> None:
        try:
            self._process = EngineProcess(self.command, self.cwd, self.env)
        except OSError as error:
            self._process = None
            self._stopped = "it could not be started"
            raise EngineFailure("crashed", f"cannot start {shlex.join(self.command)}: "
                                f"{error.strerror or error}") from None
        self._capabilities = None
        self._after = None
        self._last_stderr = ""
        self._answered = False
        self._forget_plan()

    def restart(self) -> None:
        """Kill the engine if it runs, and start the command again."""
        self._kill()
        self._spawn()

    def _kill(self) -> None:
        process = self._process
        self._forget_plan()
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
            self._settle("quit")
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

    def _running(self) -> EngineProcess:
        """The engine's process, or the failure of an engine that is not running."""
        process = self._process
        if process is None:
            raise EngineFailure("exited", f"the engine is not running ({self._stopped}); "
                                "call restart()", stderr=self._last_stderr)
        return process

    def _stopped_if_interrupted(self, request: Request) -> _StopIfInterrupted:
        """Kill the engine if waiting for the answer to ``request`` is interrupted (Ctrl-C,
        an error of the caller's): the next answer would be out of step with the requests.
        An engine failure passes through as it is (the engine is already stopped)."""
        return _StopIfInterrupted(self, request)

    def _limit(self) -> float:
        """The time limit of the next answer: ``start_timeout`` for the first answer of
        the process running, if it is given, else ``timeout``."""
        if self._answered or self.start_timeout is None:
            return self.timeout
        return self.start_timeout

    def _call(self, request: Request, timeout: float | None = None) -> Reply:
        process = self._running()
        started = time.perf_counter()
        with self._stopped_if_interrupted(request):
            line = self._exchange(process, request,
                                  (encode_request(request) + "\n").encode("utf-8"),
                                  self._limit() if timeout is None else timeout)
        return self._answer(request, line, started)

    def _answer(self, request: Request, line: bytes, started: float) -> Reply:
        """The answer ``line`` to ``request``, read strictly and checked."""
        try:
            reply = decode_reply(line, request.cmd)
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

    def _exchange(self, process: EngineProcess, request: Request, data: bytes,
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

        def write() -> None:  # the engine can take more of the request
            nonlocal pending
            try:
                pending = pending[os.write(process.fd_in, pending):]
            except BlockingIOError:
                return
            except OSError:
                raise self._ended(process, request, deadline) from None
            if not pending:
                selector.unregister(process.fd_in)

        try:
            return self._await_line(process, request, deadline, timeout, write,
                                    lambda: bool(pending))
        finally:
            if pending and self._process is process:
                selector.unregister(process.fd_in)

    def _await_line(self, process: EngineProcess, request: Request, deadline: float,
                    timeout: float, write: Callable[[], None],
                    unwritten: Callable[[], bool]) -> bytes:
        """Wait until ``deadline`` for the engine's next line, the answer to ``request``:
        read its output and its standard error as they come, and call ``write`` whenever
        it can take more input. An answer while ``unwritten()`` says the request is not all
        written yet is out of protocol; no answer in time, or an engine that ends, is a
        failure of that kind (``timeout``, ``exited``, ``crashed``)."""
        selector = process.selector
        while True:
            line = self._take_line(process, request)
            if line is not None:
                if unwritten():
                    raise self._fail("protocol", f"the engine answered {request.cmd} "
                                     "before it read the whole request", line)
                self._answered = True
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
                    if not process.read_out():
                        raise self._ended(process, request, deadline)
                elif key.data == "err":
                    process.read_err()
                else:
                    write()

    def _take_line(self, process: EngineProcess, request: Request) -> bytes | None:
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

    def _ended(self, process: EngineProcess, request: Request, deadline: float) -> EngineFailure:
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
        return self._fail("crashed", f"the engine died ({exit_text(code)}) instead of "
                          f"answering {request.cmd}", partial)

    # -- requests ahead ---------------------------------------------------------------------

    def expect(self, calls: Sequence[Expected]) -> None:
        """Say which calls come next if the engine answers as expected, so that their
        requests can be written ahead (at most :data:`WINDOW` unanswered at a time).

        The answers are the same as without: each call gets the answer to the request it
        would have sent itself, read strictly. But the engine plays what it is sent, read
        or not: so the only calls that may leave the plan (after an answer that was not
        the expected one) are those that begin anew, ``start`` and ``load`` (and
        :meth:`close`). They first read and discard the answers still under way and forget
        the rest of the plan; an engine that dies or breaks the protocol meanwhile is
        started again, as the new game needs nothing of the old process. Any other call
        off the plan (an ``apply`` of another action, a ``report`` the last answer was
        expected to bring and did not) discards the same way, then raises
        ``RuntimeError``: the engine's position is no longer the caller's.
        """
        self._settle("expect")
        step = self._step = self._capabilities is not None and self._capabilities.step
        plan: list[_Ahead] = []
        brought = False  # whether the last apply's answer brings the report and actions
        for call in calls:
            if call.cmd == "apply":
                plan.append(_Ahead(call, True))
                brought = step and call.accepted
            else:
                plan.append(_Ahead(call, not brought))
        self._plan, self._head, self._sent, self._waiting = plan, 0, 0, 0
        if plan:
            self._fill()

    def _forget_plan(self) -> None:
        if self._writing and self._process is not None:
            self._process.selector.unregister(self._process.fd_in)
        self._writing = False
        self._plan, self._head, self._sent, self._waiting = [], 0, 0, 0
        self._unsent.clear()
        self._queued = self._written = 0

    def _fill(self) -> None:
        """Write more requests of the plan when half of the window has been answered."""
        plan, sent, waiting = self._plan, self._sent, self._waiting
        if waiting > WINDOW // 2:
            return
        while sent < len(plan) and waiting < WINDOW:
            entry = plan[sent]
            if entry.asks:
                ident = self._new_id()
                cmd = entry.cmd
                entry.request = (ApplyRequest(ident, entry.action, self._step)  # type: ignore[arg-type]
                                 if cmd == "apply" else StateRequest(ident) if cmd == "report"
                                 else LegalRequest(ident))
                data = (encode_request(entry.request) + "\n").encode("utf-8")
                self._unsent += data
                self._queued += len(data)
                entry.end = self._queued
                waiting += 1
            sent += 1
        self._sent, self._waiting = sent, waiting
        self._write_some()

    def _write_some(self) -> None:
        process = self._process
        if process is None or not self._unsent:
            return
        try:
            written = os.write(process.fd_in, self._unsent)
        except BlockingIOError:
            written = 0
        except OSError:  # the engine closed its input: its answers will say how it ended
            self._unsent.clear()
            written = 0
        del self._unsent[:written]
        self._written += written
        wanted = bool(self._unsent)
        if wanted != self._writing:
            if wanted:
                process.selector.register(process.fd_in, selectors.EVENT_WRITE, "in")
            else:
                process.selector.unregister(process.fd_in)
            self._writing = wanted

    def _ahead(self, cmd: str, action: Action | None = None, *, local: bool = False) -> Any:
        """The answer to the expected call ``cmd`` (``None`` if it is served ``local``ly,
        from the last step answer), or :data:`_MISS` if it is not the call expected."""
        plan, head = self._plan, self._head
        if head >= len(plan):
            return _MISS
        entry = plan[head]
        if entry.cmd != cmd or entry.asks == local or (
                entry.action is not action and entry.action != action):
            self._settle(cmd)
            return _MISS
        self._head = head + 1
        if not entry.asks:
            return None
        if self._head > self._sent:  # pragma: no cover - _fill writes ahead of the head
            self._fill()
        request = entry.request
        assert request is not None
        started = time.perf_counter()
        line = self._receive(entry)
        self._waiting -= 1
        if self._head >= len(plan):
            self._forget_plan()
        else:
            self._fill()
        expected = self._expected_answer(request.id, entry.call)
        if expected is not None and line == encode_reply(expected).encode("utf-8"):
            self._requests += 1
            self._seconds += time.perf_counter() - started
            return expected
        return self._answer(request, line, started)

    def _expected_answer(self, ident: int, call: Expected) -> Reply | None:
        """The answer the caller expects to the request ``ident`` of ``call``, if it says.

        A line that is byte for byte this answer as :func:`~.wire.encode_reply` writes it
        is this answer: the encoder writes strict I-JSON that :func:`~.wire.decode_reply`
        reads back as the same value (hands and known cards in canonical order, actions in
        the expected order), so the strict reading of such a line is skipped; any other
        line, however close, is read strictly."""
        if call.cmd == "apply":
            if not call.accepted:
                return None
            accepted = _ACCEPTED
            if self._capabilities is not None and self._capabilities.events:
                if call.events is None:
                    return None
                accepted = Accepted(call.events)
            if not self._step:
                return VerdictReply(ident, accepted)
            if call.report is None or call.actions is None:
                return None
            return VerdictReply(ident, accepted, call.report, call.actions)
        if call.cmd == "report":
            return None if call.report is None else ReportReply(ident, call.report)
        return None if call.actions is None else LegalReply(ident, call.actions)

    def _receive(self, entry: _Ahead) -> bytes:
        """The answer line to the written request of ``entry``, within the time limit."""
        request = entry.request
        assert request is not None
        process = self._running()
        limit = self._limit()
        deadline = time.monotonic() + limit
        with self._stopped_if_interrupted(request):
            return self._await_line(process, request, deadline, limit,
                                    self._write_some, lambda: self._written < entry.end)

    def _settle(self, cmd: str) -> None:
        """Before a call that is not the one expected: read and discard the answers still
        under way, and forget the rest of the plan (see :meth:`expect`)."""
        if not self._plan:
            return
        waiting = [entry for entry in self._plan[self._head:self._sent] if entry.asks]
        try:
            for entry in waiting:
                self._receive(entry)
        except EngineFailure:
            if cmd not in ("start", "load", "quit"):
                raise
            if cmd != "quit":  # a new game begins: in a new process, as after a restart
                self._kill()
                self._spawn()
                self.capabilities()
        self._forget_plan()
        if cmd not in ("start", "load", "quit"):
            raise RuntimeError(f"{cmd} is not the call expected next: the engine has been "
                               "sent the requests expected after it; only start, load or "
                               "close may leave the plan")

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
        self._settle("start")
        self._after = None
        reply = self._call(StartRequest(self._new_id(), rules, tuple(deck), seed))
        assert isinstance(reply, ReportReply)
        return reply.report

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        """``start`` for a later game of a match: the request carries the last game's
        outcome (ORDER-7)."""
        self._settle("start")
        self._after = None  # what an earlier step answer said belongs to the last game
        reply = self._call(StartRequest(self._new_id(), rules, tuple(deck), seed, previous))
        assert isinstance(reply, ReportReply)
        return reply.report

    def start_for(self, players: int, rules: RuleSet, deck: Sequence[Card],
                  seed: int = 0) -> Report:
        """``start`` of a game of ``players`` players, a count ``rules`` need not hold:
        the request's ``rules.players`` says it, so the engine refuses a count no game has
        (DEAL-3) the way it refuses any start."""
        self._settle("start")
        self._after = None
        reply = self._call(StartRequest(self._new_id(), rules, tuple(deck), seed,
                                        players=players))
        assert isinstance(reply, ReportReply)
        return reply.report

    def load(self, state: GameState) -> Report:
        self._settle("load")
        self._after = None
        reply = self._call(LoadRequest(self._new_id(), state))
        assert isinstance(reply, ReportReply)
        return reply.report

    def legal_actions(self) -> tuple[Action, ...]:
        if self._plan:
            ahead = self._ahead("legal", local=self._after is not None)
            if ahead is not _MISS and ahead is not None:
                assert isinstance(ahead, LegalReply)
                return ahead.actions
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
        reply = self._ahead("apply", action) if self._plan else _MISS
        if reply is _MISS:
            reply = self._call(ApplyRequest(self._new_id(), action, then))
        assert isinstance(reply, VerdictReply)
        if then and reply.report is not None and reply.actions is not None:
            self._after = (reply.report, reply.actions)
        return reply.verdict

    def report(self) -> Report:
        if self._plan:
            ahead = self._ahead("report", local=self._after is not None)
            if ahead is not _MISS and ahead is not None:
                assert isinstance(ahead, ReportReply)
                return ahead.report
        if self._after is not None:
            return self._after[0]
        reply = self._call(StateRequest(self._new_id()))
        assert isinstance(reply, ReportReply)
        return reply.report

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self._process is not None else "stopped"
        return f"SubprocessEngine({shlex.join(self.command)!r}, {state})"
