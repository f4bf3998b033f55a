"""Seeded work spread over local processes or a Dask cluster, its results in order (layer 1).

An experiment of many seeded games (``durak-spec tips``, ``durak-spec check --random``) is
cut into parts of consecutive seeds (:func:`parts`); :class:`Workers` runs a function on
every part, in this process, in local processes or on a Dask cluster, and hands the
results back in the order of the parts. A game depends only on its seed, so results
merged in that order are the same whatever the number of workers.

Local processes are a :class:`concurrent.futures.ProcessPoolExecutor`; a cluster is
reached through Dask distributed (``Client(address).get_executor()``), which is the same
:class:`concurrent.futures.Executor` interface, so one code path serves both. Dask is used
only for a cluster because a process pool starts in a fraction of a second and needs
nothing but the standard library, where a local Dask cluster takes seconds to start and
would make Dask a dependency of every install; it is the optional extra
``durak-spec[cluster]``.

An interrupt (Ctrl-C) keeps what the workers finished: :meth:`Workers.sweep` keeps the
futures of its parts, and :meth:`Sweep.interrupted` tells the parts in play to stop (SIGINT
to each local process, which ignores it between parts; on a cluster, a Dask event each part
reads between items, see :class:`Stop`) and hands back what each part returns then.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from types import FrameType, TracebackType
from typing import Any, Generic, TypeVar

from durak_spec.core.errors import InputError

__all__ = ["CLUSTER_EXTRA", "ClusterError", "Stop", "Sweep", "Workers", "default_jobs",
           "parts"]

CLUSTER_EXTRA = "cluster"
"""The optional extra that installs Dask distributed: ``pip install 'durak-spec[cluster]'``."""

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(InputError):
    """A cluster that cannot be used: Dask distributed is not installed, or the scheduler
    cannot be reached."""

    code = "cluster"


def default_jobs() -> int:
    """How many processes to use by default: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parts(total: int, slots: int, smallest: int, largest: int) -> list[range]:
    """``range(total)`` cut into consecutive ranges for ``slots`` workers.

    About four parts per worker, so that a slow part does not leave the others idle at the
    end, each of ``smallest`` to ``largest`` items (the last may be shorter): a part small
    enough to show progress, large enough to be worth sending to a worker.
    """
    if total < 0 or slots < 1 or not 1 <= smallest <= largest:
        raise ValueError(f"cannot cut {total} items for {slots} workers into parts of "
                         f"{smallest} to {largest}")
    size = min(largest, max(smallest, -(-total // (4 * slots))))
    return [range(start, min(start + size, total)) for start in range(0, total, size)]


def _connect(scheduler: str) -> Any:
    try:  # an optional extra: imported by name, so that mypy needs no stubs for it
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask distributed, which is not installed: "
                           f"pip install 'durak-spec[{CLUSTER_EXTRA}]'") from None
    try:
        return distributed.Client(scheduler, timeout=30)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler!r}: "
                           f"{error}") from None


def _ignore_interrupts() -> None:
    """A local worker process ignores SIGINT between parts (a Ctrl-C at the terminal reaches
    the whole process group); a part listens to it through :meth:`Stop.listening`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _raise_once(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the first interrupt stops the part
    raise KeyboardInterrupt


@dataclass(frozen=True, slots=True)
class Stop:
    """How a part learns that the run was interrupted, sent along with it (it pickles).

    In a local worker process (not ``home``, the process that sent the part) the part
    listens with :meth:`listening`: the first SIGINT raises ``KeyboardInterrupt`` there,
    the part returns what it finished, later ones are ignored. On a cluster the part asks
    :meth:`requested` between items: whether the Dask event ``event`` is set.
    """

    home: int
    event: str | None = None

    @contextlib.contextmanager
    def listening(self) -> Iterator[bool]:
        """Within the block, SIGINT stops the part, in a local worker's main thread; yields
        whether it does (not in ``home``, where an interrupt is the run's own, nor in a
        thread, where no signal arrives)."""
        if os.getpid() == self.home or threading.current_thread() is not \
                threading.main_thread():
            yield False
            return
        before = signal.signal(signal.SIGINT, _raise_once)
        try:
            yield True
        finally:
            signal.signal(signal.SIGINT, before)

    def requested(self) -> bool:
        """Whether the cluster's stop event is set (never, for local processes)."""
        if self.event is None:
            return False
        distributed: Any = importlib.import_module("distributed")
        return bool(distributed.Event(self.event).is_set())


class Workers:
    """Where parts of an experiment run: ``jobs`` local processes (1: this process, no
    other), or the workers of the Dask scheduler at ``scheduler`` (an address such as
    ``tcp://10.0.0.5:8786``). A context manager: the processes or the connection are
    closed at its end.

    ``map(function, items)`` calls ``function`` on every item and yields the results in
    the items' order; the function and items must pickle (a function of a module, frozen
    dataclasses), and on a cluster the same version of durak-spec must be installed on
    every worker.
    """

    def __init__(self, jobs: int = 1, scheduler: str | None = None) -> None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
        if scheduler is not None and not scheduler.strip():
            raise ValueError("the scheduler's address is empty")
        self.jobs = jobs
        self.scheduler = scheduler
        self._client: Any = None
        self._pool: Executor | None = None
        self._futures: list[Future[Any]] = []  # the parts of sweep(), to settle at the end
        self._processes: list[Any] = []  # the pool's processes, once it is shut

    def __enter__(self) -> Workers:
        if self.scheduler is not None and self._client is None:
            self._client = _connect(self.scheduler)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            processes = self._pool_processes(pool)
            if error is None and not self._processes:  # the end of the work
                pool.shutdown(wait=True, cancel_futures=True)
            else:  # interrupted or failed: the parts in play are not waited for
                pool.shutdown(wait=False, cancel_futures=True)
                if self._futures and all(f.done() for f in self._futures):
                    for process in processes:  # an interrupted sweep settled: idle, they
                        process.join(timeout=2.0)  # end as soon as the pool tells them
                # ProcessPoolExecutor has no public way to stop its processes before 3.14
                # (terminate_workers); left alone they play their parts to the end.
                for process in processes:
                    if process.is_alive():
                        process.terminate()
                for process in processes:  # gone when the run reports, not orphaned
                    process.join(timeout=1.0)
                    if process.is_alive():  # a loaded machine: SIGTERM not acted on yet
                        process.kill()
                        process.join()
        self._futures = []
        self._processes = []
        if self._client is not None:
            self._client.close()
            self._client = None

    @property
    def local(self) -> bool:
        """Whether everything runs in this process."""
        return self.jobs == 1 and self.scheduler is None

    @property
    def slots(self) -> int:
        """How many parts run at once: ``jobs``, or the cluster's threads."""
        if self._client is None:
            return self.jobs
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    def map(self, function: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``function`` on every item, the results in the items' order."""
        if self._client is not None:
            executor: Executor = self._client.get_executor(pure=False)
            return _installed(executor.map(function, items))
        if self.jobs == 1 or len(items) < 2:
            return map(function, items)
        if self._pool is None:
            # spawn, not fork: a forked copy of a process with threads can hang
            self._pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(items)),
                                             mp_context=get_context("spawn"))
        return self._pool.map(function, items)

    def stop(self) -> Stop:
        """What a part of :meth:`sweep` is sent to learn of an interrupt."""
        event = None if self._client is None else f"durak-spec stop {uuid.uuid4().hex}"
        return Stop(os.getpid(), event)

    def sweep(self, function: Callable[[T], R], items: Sequence[T]) -> Sweep[R]:
        """``function`` on every item, like :meth:`map`, its futures kept: an interrupted
        run takes what the parts finished with :meth:`Sweep.interrupted`. The items of a
        local run (``jobs`` 1, no scheduler) are played one by one as they are asked for."""
        if self._client is not None:
            executor: Executor = self._client.get_executor(pure=False)
        elif self.jobs == 1:
            return Sweep(self, map(function, items), [])
        else:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(items)),
                                                 mp_context=get_context("spawn"),
                                                 initializer=_ignore_interrupts)
            executor = self._pool
        futures = [executor.submit(function, item) for item in items]
        self._futures.extend(futures)
        return Sweep(self, None, futures)

    def _pool_processes(self, pool: Executor) -> list[Any]:
        """The processes of a local pool (kept once it is shut, when the pool forgets
        them). ProcessPoolExecutor has no public way to reach them before 3.14."""
        live = list(dict(getattr(pool, "_processes", None) or {}).values())
        return live or self._processes

    def _cancel(self) -> None:
        """Cancel the local parts not started; those in play go on (to be told to stop).
        On a cluster nothing is cancelled: a future cancelled there loses a part in play
        too, so every part is left to find the stop event and return at once."""
        if self._pool is not None:
            self._processes = self._pool_processes(self._pool)
            # the pool cancels its own: a future cancelled from outside and then found in
            # a pool broken by a stopped process raises in its thread (Python < 3.12)
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _tell_stop(self, stop: Stop) -> None:
        """Tell the parts in play to stop: SIGINT to each local process, or set the event."""
        if stop.event is not None and self._client is not None:
            distributed: Any = importlib.import_module("distributed")
            distributed.Event(stop.event, client=self._client).set()
        for process in [] if self._pool is None else self._pool_processes(self._pool):
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGINT)


class Sweep(Generic[R]):
    """The results of :meth:`Workers.sweep`: iterate for them in the items' order."""

    def __init__(self, workers: Workers, lazy: Iterator[R] | None,
                 futures: list[Future[R]]) -> None:
        self._workers = workers
        self._lazy = lazy
        self._futures = futures

    def __iter__(self) -> Iterator[R]:
        if self._lazy is not None:
            return self._lazy
        results = (future.result() for future in self._futures)
        return _installed(results) if self._workers.scheduler is not None else results

    def interrupted(self, stop: Stop, grace: float = 2.0) -> list[R | None]:
        """After an interrupt: the local parts not started are cancelled, those in play
        (and on a cluster, all) told to stop (``stop``, as sent with them) and waited for up
        to ``grace`` seconds, then given up; each item's result, ``None`` where it has none
        (cancelled, failed, or still playing after the grace)."""
        self._workers._cancel()
        deadline = time.monotonic() + grace
        while True:
            playing = [f for f in self._futures if not f.done()]
            left = deadline - time.monotonic()
            if not playing or left <= 0:
                break
            # again and again: a part taken from the queue after the first signal hears
            # the next one
            self._workers._tell_stop(stop)
            wait(playing, timeout=min(0.1, left), return_when=FIRST_COMPLETED)
        for future in self._futures:  # still playing after the grace: given up
            future.cancel()
        return [f.result() if f.done() and not f.cancelled() and f.exception() is None
                else None for f in self._futures]


def _installed(results: Iterator[R]) -> Iterator[R]:
    """The results of a cluster, with a worker that lacks durak-spec (or the module of a
    function sent to it) named as such."""
    try:
        yield from results
    except ImportError as error:
        raise ClusterError(f"a worker of the cluster cannot import {error.name or error}: "
                           f"install the same version of durak-spec on every worker") from None
