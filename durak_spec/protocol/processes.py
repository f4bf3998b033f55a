"""An engine's process: started in a session of its own with a mark in its environment,
read and written without blocking, and ended with its whole process tree (layer 5).

:class:`EngineProcess` is one running child with its selector and buffers;
:func:`kill_tree` ends the child, its process group, its descendants and every process
that inherited its mark, so that a child that detached with ``setsid`` (even after a
double fork) goes too. :class:`~durak_spec.protocol.subprocess_engine.SubprocessEngine`
speaks the protocol over it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import selectors
import signal
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence

__all__ = ["EngineProcess", "exit_text", "kill_tree", "last_lines", "select_one",
           "signal_name", "terminate"]

_CHUNK = 1 << 16
_STDERR_LIMIT = 1 << 16
_MARK_PREFIX = "DURAK_SPEC_ENGINE_"
_KILL_ROUNDS = 20  # scans of the process table while an engine's tree is killed


def last_lines(text: str, lines: int = 3, limit: int = 300) -> str:
    tail = " | ".join([t for t in text.strip().splitlines() if t.strip()][-lines:])
    return tail if len(tail) <= limit else "…" + tail[-limit:]


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def exit_text(code: int) -> str:
    return f"killed by {signal_name(-code)}" if code < 0 else f"exit status {code}"


def process_tree(root: int, mark: bytes) -> set[int]:
    """The processes that ``root`` started, as far as ``/proc`` shows them: its descendants
    by parent id, and every process whose environment holds ``mark`` (``NAME=``): a child
    that left the process group with ``setsid`` and whose parent is gone is found so.
    Empty where there is no ``/proc``."""
    me = os.getpid()
    parents: dict[int, int] = {}
    found: set[int] = set()
    try:
        entries = [entry.name for entry in os.scandir("/proc") if entry.name.isdigit()]
    except OSError:
        return found
    for name in entries:
        pid = int(name)
        if pid == me:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
            parents[pid] = int(fields[1])
            with open(f"/proc/{name}/environ", "rb") as environ:
                if mark in b"\0" + environ.read():
                    found.add(pid)
        except (OSError, ValueError, IndexError):  # gone, not ours, or unreadable
            continue
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    found.discard(me)
    return found


def kill_tree(proc: subprocess.Popen[bytes], mark: str) -> None:
    """Kill the engine ``proc`` with its whole tree: its process group, its descendants
    and every process that inherited the environment variable ``mark`` (set for this
    engine alone): children that detached with ``setsid`` and whose parent exited
    included. Only a process that both cleared its environment and left the engine's tree
    escapes. Descendants by parent id are looked for only while ``proc`` is not reaped
    (afterwards its id may belong to another process)."""
    needle = b"\0" + mark.encode() + b"="
    killed: set[int] = set()
    for _ in range(_KILL_ROUNDS):
        root = proc.pid if proc.returncode is None else -1
        found = process_tree(root, needle) - killed  # scanned while the engine runs: its children
        # the group: while a member lives, no new process can take its id
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for other in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(other, signal.SIGKILL)
        killed |= found
        if not found:
            return


def terminate(proc: subprocess.Popen[bytes], selector: selectors.BaseSelector,
               mark: str) -> None:
    """Kill the child's whole process tree, reap the child, release its pipes."""
    kill_tree(proc, mark)
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


class EngineProcess:
    """One running child with its selector and buffers."""

    def __init__(self, command: Sequence[str], cwd: str | None,
                 env: Mapping[str, str] | None) -> None:
        self.mark = _MARK_PREFIX + secrets.token_hex(8)  # inherited by all it starts
        environment = dict(os.environ if env is None else env)
        environment[self.mark] = "1"
        self.proc = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, bufsize=0, start_new_session=True, cwd=cwd,
            env=environment,
        )
        self.selector = selectors.DefaultSelector()
        self.finalizer = weakref.finalize(self, terminate, self.proc, self.selector,
                                          self.mark)
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
        """Kill the engine's whole process tree (see :func:`kill_tree`)."""
        kill_tree(self.proc, self.mark)

    def read_out(self) -> bool:
        """Read what the engine has written to its output; ``False`` once it closed it."""
        try:
            chunk = os.read(self.fd_out, _CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            return False
        self.out += chunk
        return True

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
                ready = select_one(self.fd_err, deadline - time.monotonic())
            except (OSError, ValueError):
                return
            if not ready:
                return
            self.read_err()


def select_one(fd: int, timeout: float) -> bool:
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        return bool(selector.select(max(timeout, 0.0)))
