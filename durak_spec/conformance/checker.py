"""``durak-spec check``: the conformance checker (layer 7).

It runs the specification's scenarios (:mod:`durak_spec.spec.runner`) against an engine
and prints a report grouped by rule ID. With no ``--engine`` it checks the built-in
reference engine in this process; with ``--engine "CMD"`` it starts CMD once as a
:class:`~durak_spec.protocol.subprocess_engine.SubprocessEngine` speaking the JSON-lines protocol
of :mod:`durak_spec.protocol.wire`, keeps it for every scenario, and starts it again after a
failure (a crash, an exit, malformed or oversized output, an answer out of protocol, a
request over the time limit), which the report shows as an error of that scenario.

:func:`check_engine` is the same checker for an engine written in Python: give it a
factory and it returns the exit code. The report ends with the line
``N passed, N failed, N errored, N skipped``. The exit codes (the same in every mode):

* 0: nothing failed (skips allowed);
* 1 (:data:`EXIT_FAILED`): the engine broke a rule: a scenario failed, a lockstep game
  diverged, a perft count differs, or a report is impossible; also a scenario of a
  user's ``--features`` file that errored because of the file (a step no definition
  matches);
* 2 (:data:`EXIT_USAGE`): bad options, the checker did not run;
* 3 (:data:`EXIT_INTERNAL`): the checker itself could not run (pytest missing, ...);
* 4 (:data:`EXIT_ENGINE`): the engine failed as a program: it failed the handshake,
  crashed, timed out, answered out of protocol or raised (an errored scenario, a lockstep
  engine failure, a perft position that could not be counted). It wins over 1: what an
  engine that breaks the protocol gets right or wrong is not yet known.

This module decides no rule: the scenarios state the rules, the engine answers, and the
report quotes both.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from durak_spec.conformance.check_report import format_report, junit_xml, report_json
from durak_spec.core.cliargs import CommandError
from durak_spec.core.jsonio import write_json
from durak_spec.core.outfiles import OutputFile
from durak_spec.protocol import Engine

if TYPE_CHECKING:  # the runner needs pytest: imported when a check runs, not with the CLI
    from durak_spec.spec.runner import RunResult, ScenarioResult

__all__ = [
    "BOOK_PAGE",
    "DEFAULT_TIMEOUT",
    "EXIT_ENGINE",
    "EXIT_FAILED",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "check_engine",
    "exit_status",
    "open_report",
]

BOOK_PAGE = 'the chapter "Checking your engine" of the durak-spec book (book/implementers.md)'
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_ENGINE = 4
EXIT_INTERRUPTED = 130
"""An interrupted ``--random`` run (128 + SIGINT), after printing what it found."""
DEFAULT_TIMEOUT = 5.0

def open_report(stack: contextlib.ExitStack, path: str | None, option: str) -> OutputFile | None:
    """The report file ``path`` (not ``-``), opened before the run and closed by ``stack``."""
    if path is None or path == "-":
        return None
    return stack.enter_context(OutputFile(path, option))


# -- the Python entry ------------------------------------------------------------------------------


def check_engine(factory: Callable[[], Engine] | None = None, *, rules: Iterable[str] = (),
                 tags: Iterable[str] = (), profiles: Iterable[str] = (),
                 keyword: str | None = None, json_path: str | None = None,
                 junit_path: str | None = None, verbose: bool = False,
                 label: str | None = None, command: str | None = None,
                 out: TextIO | None = None, err: TextIO | None = None,
                 features: Sequence[Path] | None = None, vectors: str | None = None
                 ) -> int:
    """Check the engines that ``factory`` makes (default: the reference engine) and print
    the report; return the exit code (0 all passed or skipped, 1 a rule failure, 4 an
    engine failure: see the module's docstring).

    ``factory`` is called once per scenario. ``features`` are feature files to run
    instead of the specification's (``--features``); ``vectors`` a vectors file to run
    instead of the scenarios (``--vectors``). Bad filters raise
    :class:`~durak_spec.core.cliargs.CommandError`, and so does a report file
    (``json_path``, ``junit_path``) that cannot be written, before anything runs; the
    files are written after the text report, and a write that fails then (a full disk)
    raises :class:`~durak_spec.core.cliargs.StreamError`.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    rules, tags, profiles = tuple(rules), tuple(tags), tuple(profiles)
    try:
        importlib.import_module("durak_spec.spec.runner")  # it needs pytest and pytest-bdd
    except ImportError as error:
        raise CommandError(f"durak-spec check needs pytest and pytest-bdd ({error}); install "
                           "them with: pip install 'pytest>=9' 'pytest-bdd==9.0.1'",
                           status=EXIT_INTERNAL) from None
    with contextlib.ExitStack() as stack:  # the report files are opened before the run
        json_file = open_report(stack, json_path, "--json")
        junit_file = open_report(stack, junit_path, "--junit-xml")
        return _check(factory, rules=rules, tags=tags, profiles=profiles, keyword=keyword,
                      json_path=json_path, json_file=json_file, junit_file=junit_file,
                      verbose=verbose, label=label, command=command, out=out, err=err,
                      features=features, vectors=vectors)


def _check(factory: Callable[[], Engine] | None, *, rules: tuple[str, ...],
           tags: tuple[str, ...], profiles: tuple[str, ...], keyword: str | None,
           json_path: str | None, json_file: OutputFile | None,
           junit_file: OutputFile | None, verbose: bool, label: str | None,
           command: str | None, out: TextIO, err: TextIO,
           features: Sequence[Path] | None, vectors: str | None = None) -> int:
    """:func:`check_engine` once its report files are open."""
    from durak_spec.conformance.dependencies import playing_rules
    from durak_spec.conformance.vectors import read_vectors, run_vectors
    from durak_spec.spec.runner import FilterError, run

    progress = _Progress(err)
    try:  # every scenario the engine's claim supports, under its own rule values
        if vectors is not None:
            result = run_vectors(read_vectors(vectors), factory, rules=rules, keyword=keyword,
                                 progress=progress, source=vectors)
        else:
            result = run(factory, rules=rules, tags=tags, profiles=profiles, keyword=keyword,
                         progress=progress, adapt=playing_rules(),
                         features=None if features is None else list(features))
    except FilterError as error:
        raise CommandError(str(error)) from None
    except FileNotFoundError as error:
        raise CommandError(f"the checker could not run: {error}",
                           status=EXIT_INTERNAL) from None
    finally:
        progress.finish()
    if not result.scenarios:
        raise CommandError(("no scenario of the specification matches these filters"
                            if features is None and vectors is None else
                            "no vector of the file matches the filters"
                            if vectors is not None else
                            "no scenario of these feature files matches the filters")
                           + (f" ({result.deselected} left out)" if result.deselected else ""))
    engine = label or result.engine or "the engine"
    filters: dict[str, object] = {
        "rules": sorted(set(rules)), "tags": sorted(set(tags)),
        "profiles": sorted(set(profiles)), "keyword": keyword,
    }
    if json_path == "-":
        out.write(write_json(report_json(result, engine=engine, command=command,
                                         filters=filters), indent=2) + "\n")
        out = err
    # the text report first: it reaches the terminal even if a report file fails
    out.write(format_report(result, engine=engine, verbose=verbose) + "\n")
    out.flush()
    if json_file is not None:
        json_file.write(write_json(report_json(result, engine=engine, command=command,
                                               filters=filters), indent=2) + "\n")
    if junit_file is not None:
        junit_file.write(junit_xml(result, engine=engine))
    return exit_status(result)


def exit_status(result: RunResult) -> int:
    """The exit code of a scenario run: 4 if any scenario errored because of the engine
    (it failed as a program), else 1 if any failed (a rule) or errored because of its
    feature file (a step of a user's ``--features`` file that no definition matches), else 0."""
    bad = result.with_outcome("failed", "errored")
    if any(s.outcome == "errored" and not s.feature_error for s in bad):
        return EXIT_ENGINE
    return EXIT_FAILED if bad else 0


class _Progress:
    """A counter on standard error: rewritten in place on a terminal, a line every tenth
    of the run otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.bad = 0
        self.kept = 0
        self.shown = False
        self.step = 0

    def __call__(self, done: int, total: int, result: ScenarioResult | None) -> None:
        if result is not None:
            self.kept += 1
            if result.outcome in ("failed", "errored"):
                self.bad += 1
        trouble = f", {self.bad} failed or errored" if self.bad else ""
        # A profile filter knows a scenario's profile only once it runs: say how many of
        # the scenarios looked at were checked, so the count is not taken for the total.
        left = done - self.kept
        kept = f" ({self.kept} checked, {left} played under other profiles)" if left else ""
        if self.tty:
            self.stream.write(f"\r\033[Kscenario {done}/{total}{kept}{trouble}")
            self.shown = True
        else:
            self.step = self.step or max(1, total // 10)
            if done % self.step and done != total:
                return
            verb = "looked at" if left else "checked"
            self.stream.write(f"{verb} {done}/{total} scenarios{kept}{trouble}\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
