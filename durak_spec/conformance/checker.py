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

import argparse
import contextlib
import importlib
import re
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from durak_spec.conformance import engine_label
from durak_spec.core.cards import Card
from durak_spec.core.cliargs import CommandError, Subparsers, count, positive_count
from durak_spec.core.jsonio import write_json
from durak_spec.core.outfiles import OutputFile
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol import Capabilities, Engine, ReferenceEngine, Report, Verdict
from durak_spec.protocol.subprocess_engine import EngineError, EngineFailure, SubprocessEngine

if TYPE_CHECKING:  # the runner needs pytest: imported when a check runs, not with the CLI
    from durak_spec.spec.runner import RunResult, ScenarioResult

__all__ = [
    "BOOK_PAGE",
    "EXIT_ENGINE",
    "EXIT_FAILED",
    "EXIT_INTERNAL",
    "EXIT_USAGE",
    "REPORT_FORMAT",
    "Cause",
    "KeptEngine",
    "add_parser",
    "causes",
    "check_engine",
    "exit_status",
    "format_report",
    "junit_xml",
    "report_json",
    "run_command",
]

_T = TypeVar("_T")

BOOK_PAGE = 'the chapter "Checking your engine" of the durak-spec book (book/implementers.md)'
REPORT_FORMAT = "durak-spec/check-report"
REPORT_VERSION = 1
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_ENGINE = 4
DEFAULT_TIMEOUT = 5.0

_DESCRIPTION = (
    "Check a Durak engine against the executable specification: every scenario of the "
    "feature files whose rules the engine claims is played against it, and the report "
    "groups the outcomes by rule ID. Without --engine, the built-in reference engine is "
    "checked.",
    "An external engine is a command, in any language, that reads requests from its "
    "standard input and writes one response per request to its standard output, each a "
    "single line of JSON with the request's id. 'hello' is the handshake: the engine "
    "answers with the protocol version, its name, the profiles and rule-set axes it plays, "
    "the player counts, and whether it can 'load' a position (an optional capability). "
    "'start' begins a game from the rules, a deck order and a seed; 'legal' asks for every "
    "legal action of every player who may act; 'apply' plays an action, which the engine "
    "accepts or rejects with a reason and, where it can, a rule ID; 'state' asks for the "
    "hands, table, stock size, trump, discard count, roles and outcome; 'quit' ends it. "
    "Cards and actions are written in the project's notation (7♣, or 7C), for example "
    '{"player": 1, "type": "cover", "attack": "7♣", "card": "9♣"}. The JSON Schema of '
    "every message ships in the package as durak_spec/data/protocol.schema.json; "
    "'durak-spec serve' (also 'python -m durak_spec.serve') serves the reference engine "
    "this way.",
    "Each request has a time limit (--timeout). An engine that crashes, exits, writes "
    "something that is not a line of JSON or answers out of protocol is reported with what "
    "it wrote, and started again for the next scenario. Scenarios under rules the engine "
    "does not claim, or needing a capability it lacks, are skipped with the reason.",
    f"The protocol is described in {BOOK_PAGE}.",
)

_EPILOG = ("exit status: 0 if nothing failed; 1 if the engine broke a rule (a scenario "
           "failed, a lockstep game diverged, a perft count differs, a report is "
           "impossible); 2 for bad options; 3 if the checker itself could not run; 4 if the "
           "engine failed as a program (handshake, crash, time-out, an answer out of "
           "protocol, an exception: errored scenarios), which wins over 1")


# -- the command line ------------------------------------------------------------------------------


def add_parser(subparsers: Subparsers) -> None:
    description = "\n\n".join(textwrap.fill(p, width=88) for p in _DESCRIPTION)
    parser = subparsers.add_parser(
        "check", help="check an engine against the specification, rule by rule",
        description=description, epilog=textwrap.fill(_EPILOG, width=88),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", metavar="CMD", default=None,
                        help="the command of an engine that speaks the protocol, e.g. "
                             "\"durak-spec serve\" (default: the reference engine, "
                             "in-process)")
    parser.add_argument("--rule", metavar="ID", dest="rules", nargs="+", action="extend",
                        default=[], help="only the scenarios of these rule IDs (e.g. BEAT-3)")
    parser.add_argument("--tag", metavar="TAG", dest="tags", nargs="+", action="extend",
                        default=[], help="only the scenarios with one of these tags "
                                         "(e.g. variant, source-B)")
    parser.add_argument("--profile", metavar="NAME", dest="profiles", nargs="+",
                        action="extend", default=[],
                        help="only the scenarios played under these profiles (see "
                             "'durak-spec profiles'; a scenario that names none is played "
                             "under classic-throw-in)")
    parser.add_argument("-k", "--keyword", metavar="TEXT", default=None,
                        help="only the scenarios whose file, line or name contains TEXT")
    parser.add_argument("--features", metavar="PATH", dest="features", nargs="+",
                        action="extend", default=None,
                        help="run these feature files (or every .feature file under these "
                             "folders) instead of the specification's, with the same step "
                             "library (see durak_spec/spec/STEPS.md)")
    parser.add_argument("--json", metavar="FILE", dest="json_path", default=None,
                        help="also write the results as JSON to FILE ('-': standard output, "
                             "and the report goes to standard error)")
    parser.add_argument("--junit-xml", metavar="FILE", dest="junit_path", default=None,
                        help="also write the results as JUnit XML to FILE, for CI")
    parser.add_argument("--timeout", metavar="S", type=_seconds, default=None,
                        help=f"time limit of each request to an --engine, in seconds "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list every scenario, passed ones and every skip included")
    parser.add_argument("--random", metavar="N", type=positive_count, default=None,
                        help="instead of the scenarios, play N random games per claimed "
                             "profile and player count in lockstep with the reference and "
                             "report the divergences by cause, each with a shrunk example")
    parser.add_argument("--seed", metavar="S", type=count, default=None,
                        help="the seed of the --random games (0, 1, ...; default 0)")
    parser.add_argument("--players", metavar="N", dest="players", nargs="+", type=int,
                        action="extend", default=[],
                        help="with --random: only these player counts (default: every count "
                             "the engine claims)")
    parser.add_argument("--perft", action="store_true",
                        help="instead of the scenarios, compare the engine's perft counts "
                             "(action sequences to depth 1..N from stacked deals and from "
                             "positions in the middle and at the end of games) with the "
                             "reference's, depth by depth: the stored counts, or, where the "
                             "engine does not claim a position's rules, the same kind of "
                             "position under the nearest rules it claims, counted now")
    parser.add_argument("--max-depth", metavar="D", type=positive_count, default=None,
                        help="with --perft, count only to this depth")
    parser.add_argument("--time-budget", metavar="S", type=_seconds, default=None,
                        dest="time_budget",
                        help="with --perft, the most seconds spent on one position (no "
                             "deeper count starts once they are spent)")
    parser.add_argument("--replay", metavar="FILE", default=None,
                        help="instead of the scenarios, replay a lockstep record (the JSON "
                             "object after 'record:' in a --random report, or a divergence's "
                             "'record' in its --json) in the engine and the reference, and "
                             "report where they diverge")
    parser.set_defaults(handler=run_command)



def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def _writable(path: str | None, option: str) -> None:
    """Refuse a report file that cannot be written (a folder, a FIFO, a socket, a device,
    a missing folder, a file that cannot be written), before anything runs: it is opened
    once and closed (and removed again if this made it)."""
    if path is None or path == "-":
        return
    OutputFile(path, option).close()


def _open(stack: contextlib.ExitStack, path: str | None, option: str) -> OutputFile | None:
    """The report file ``path`` (not ``-``), opened before the run and closed by ``stack``."""
    if path is None or path == "-":
        return None
    return stack.enter_context(OutputFile(path, option))


def run_command(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec check``."""
    _writable(args.json_path, "--json")
    _writable(args.junit_path, "--junit-xml")
    features = feature_files(args.features) if args.features is not None else None

    def check(factory: Callable[[], Engine] | None, label: str | None = None) -> int:
        return check_engine(factory, rules=args.rules, tags=args.tags, profiles=args.profiles,
                            keyword=args.keyword, json_path=args.json_path,
                            junit_path=args.junit_path, verbose=args.verbose, label=label,
                            command=args.engine, features=features)

    if args.random is None and args.perft is False:
        if args.max_depth is not None or args.time_budget is not None:
            raise CommandError("--max-depth and --time-budget limit the --perft counts; add "
                               "--perft or leave them out")
        if args.seed is not None:
            raise CommandError("--seed seeds the --random games; add --random N or leave it "
                               "out")
        if args.players:
            raise CommandError("--players chooses the --random games' player counts; add "
                               "--random N or leave it out")
    if args.random is not None or args.perft or args.replay is not None:
        return _run_differential(args)
    if args.engine is None:
        if args.timeout is not None:
            raise CommandError("--timeout limits the requests to an --engine command; the "
                               "reference engine runs in-process")
        return check(None)
    timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT
    try:
        engine = SubprocessEngine(args.engine, timeout=timeout)
    except ValueError as error:
        raise CommandError(f"--engine: {error}") from None
    except EngineFailure as error:
        raise CommandError(f"--engine: {error}") from None
    kept = KeptEngine(engine)
    try:
        try:
            capabilities = engine.capabilities()
        except (EngineFailure, EngineError) as error:
            print(f"durak-spec check: the engine failed the handshake: {error}",
                  file=sys.stderr)
            return EXIT_ENGINE
        label = engine_label(capabilities.name, capabilities.version) + \
            f" (command: {args.engine})"
        status = check(kept.fresh, label)
        if kept.restarts:
            print(f"durak-spec check: the engine was started again {kept.restarts} "
                  f"time{'s' if kept.restarts > 1 else ''} after a failure", file=sys.stderr)
        return status
    finally:
        kept.shutdown()


def feature_files(paths: Sequence[str]) -> tuple[Path, ...]:
    """The feature files that ``--features`` names: each a ``.feature`` file, or a folder
    whose ``.feature`` files (at any depth) all run. Raises
    :class:`~durak_spec.core.cliargs.CommandError` for a path that holds none."""
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            inside = sorted(path.rglob("*.feature"))
            if not inside:
                raise CommandError(f"--features: the folder {text} holds no .feature file")
            found.extend(inside)
        elif path.is_file():
            if path.suffix != ".feature":
                raise CommandError(f"--features: {text} is not a .feature file")
            found.append(path)
        else:
            raise CommandError(f"--features: no such file or folder: {text}")
    unique = dict.fromkeys(p.resolve() for p in found)
    return tuple(unique)


def _run_differential(args: argparse.Namespace) -> int:
    """``--random`` (lockstep games) and ``--perft`` (move-path counts) for an engine."""
    if args.random is not None and args.perft:
        raise CommandError("choose one of --random and --perft")
    if args.replay is not None and (args.random is not None or args.perft):
        raise CommandError("--replay replays one record; leave out --random and --perft")
    if args.replay is not None and args.profiles:
        raise CommandError("--profile chooses the --random games' profiles; a --replay "
                           "record names its rules")
    if args.perft and args.seed is not None:
        raise CommandError("--seed seeds the --random games; --perft counts fixed deals")
    if args.random is not None and (args.max_depth is not None
                                    or args.time_budget is not None):
        raise CommandError("--max-depth and --time-budget limit the --perft counts, not the "
                           "--random games")
    if args.perft and args.players:
        raise CommandError("--players chooses the --random games' player counts; --perft "
                           "counts every stored position the engine claims")
    if args.perft and args.profiles:
        raise CommandError("--profile chooses the --random games' profiles; --perft counts "
                           "every stored position the engine claims")
    if args.rules or args.tags or args.keyword or args.features is not None:
        raise CommandError("--rule, --tag, -k and --features choose scenarios; --random and "
                           "--perft do not run scenarios")
    if args.junit_path is not None:
        raise CommandError("--junit-xml reports scenarios; write --random and --perft "
                           "results with --json")
    with contextlib.ExitStack() as stack:
        report = _open(stack, args.json_path, "--json")
        return _run_engine(args, report)


def _run_engine(args: argparse.Namespace, report: OutputFile | None) -> int:
    """:func:`_run_differential` once the options are checked and the report file open."""
    from durak_spec.conformance.lockstep import format_lockstep, play_lockstep
    from durak_spec.conformance.perft import check_positions, format_check

    engine: Engine
    if args.engine is None:
        engine = ReferenceEngine()
    else:
        timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT
        try:
            engine = SubprocessEngine(args.engine, timeout=timeout)
        except (ValueError, EngineFailure) as error:
            raise CommandError(f"--engine: {error}") from None
    tty = sys.stderr.isatty()

    def note(done: int, total: int, *_: object) -> None:
        if tty:
            print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)
        elif done == total or done % max(1, total // 10) == 0:
            print(f"{done}/{total}", file=sys.stderr, flush=True)

    payload: object
    try:
        if args.replay is not None:
            text, ok, broke, payload = _replay_record(engine, args.replay)
        elif args.perft:
            results = check_positions(None if args.engine is None else engine,
                                      max_depth=args.max_depth, progress=note,
                                      budget=args.time_budget)
            text, ok = format_check(results), all(r.ok for r in results)
            broke = any(r.error and not r.rule_failure for r in results)
            payload = [r.to_json() for r in results]
        else:
            outcome = play_lockstep(engine, games=args.random, seed=args.seed or 0,
                                    profiles=args.profiles or None,
                                    players=args.players or None, progress=note)
            text, ok = format_lockstep(outcome, verbose=args.verbose), outcome.ok
            broke = any(d.kind in ("engine failure", "engine error")
                        for d in outcome.divergences)
            payload = outcome.to_json()
    except EngineFailure as error:  # before any game: the handshake
        print(f"durak-spec check: the engine failed the handshake: {error}", file=sys.stderr)
        return EXIT_ENGINE
    finally:
        if tty:
            print(file=sys.stderr)
        engine.close()
    if args.json_path == "-":
        sys.stdout.write(write_json(payload, indent=2) + "\n")
    out = sys.stderr if args.json_path == "-" else sys.stdout
    out.write(text.rstrip("\n") + "\n")  # the text report first: it is out if a file fails
    out.flush()
    if report is not None:
        report.write(write_json(payload, indent=2) + "\n")
    return EXIT_ENGINE if broke else 0 if ok else EXIT_FAILED


def _replay_record(engine: Engine, path: str) -> tuple[str, bool, bool, object]:
    """``--replay FILE``: the report, whether the engine agreed, whether it failed as a
    program, and the JSON payload."""
    from durak_spec.conformance.lockstep import Record, RecordError, replay
    from durak_spec.core.jsonio import JsonError, read_file
    from durak_spec.protocol import LoadDeclined

    try:
        record = Record.loads(read_file(path, what="a lockstep record"))
    except (JsonError, RecordError) as error:
        raise CommandError(f"--replay: {path}: {error}") from None
    begins = "the deal" if record.start is None else "a position loaded into the engine"
    if record.start is not None and not engine.capabilities().load:
        raise CommandError(f"--replay: {path} begins from a position, and the engine "
                           "cannot load one (capability load)")
    try:
        found = replay(engine, record)
    except LoadDeclined as declined:
        raise CommandError(f"--replay: {path} begins from a position the engine declines "
                           f"to load: {declined}") from None
    except RecordError as error:
        raise CommandError(f"--replay: {path}: {error}") from None
    steps = f"{len(record.steps)} step{'' if len(record.steps) == 1 else 's'}"
    if found is None:
        text = f"Replay: the engine agrees with the reference on {steps} from {begins}"
        return text, True, False, {"ok": True, "divergence": None}
    text = f"Replay of {steps} from {begins}: the engine diverges\n" + found.describe()
    broke = found.kind in ("engine failure", "engine error")
    return text, False, broke, {"ok": False, "divergence": found.to_json()}


# -- the Python entry ------------------------------------------------------------------------------


def check_engine(factory: Callable[[], Engine] | None = None, *, rules: Iterable[str] = (),
                 tags: Iterable[str] = (), profiles: Iterable[str] = (),
                 keyword: str | None = None, json_path: str | None = None,
                 junit_path: str | None = None, verbose: bool = False,
                 label: str | None = None, command: str | None = None,
                 out: TextIO | None = None, err: TextIO | None = None,
                 features: Sequence[Path] | None = None) -> int:
    """Check the engines that ``factory`` makes (default: the reference engine) and print
    the report; return the exit code (0 all passed or skipped, 1 a rule failure, 4 an
    engine failure: see the module's docstring).

    ``factory`` is called once per scenario. ``features`` are feature files to run
    instead of the specification's (``--features``). Bad filters raise
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
        json_file = _open(stack, json_path, "--json")
        junit_file = _open(stack, junit_path, "--junit-xml")
        return _check(factory, rules=rules, tags=tags, profiles=profiles, keyword=keyword,
                      json_path=json_path, json_file=json_file, junit_file=junit_file,
                      verbose=verbose, label=label, command=command, out=out, err=err,
                      features=features)


def _check(factory: Callable[[], Engine] | None, *, rules: tuple[str, ...],
           tags: tuple[str, ...], profiles: tuple[str, ...], keyword: str | None,
           json_path: str | None, json_file: OutputFile | None,
           junit_file: OutputFile | None, verbose: bool, label: str | None,
           command: str | None, out: TextIO, err: TextIO,
           features: Sequence[Path] | None) -> int:
    """:func:`check_engine` once its report files are open."""
    from durak_spec.conformance.dependencies import playing_rules
    from durak_spec.spec.runner import FilterError, run

    progress = _Progress(err)
    try:  # every scenario the engine's claim supports, under its own rule values
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
                            if features is None else
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


# -- the subprocess engine, kept from scenario to scenario -----------------------------------------


MAX_TIMEOUTS = 3
"""After this many scenarios that ended in a time-out, the remaining ones are skipped."""


class KeptEngine:
    """One engine process for every scenario: ``close`` after a scenario keeps it running,
    and :meth:`fresh` starts it again if a failure (or its own exit) stopped it.

    An engine that hangs would cost the time limit in every scenario (half an hour for the
    whole specification): after :data:`MAX_TIMEOUTS` scenarios that ended in a time-out,
    :meth:`fresh` skips every remaining scenario with that reason. They need not come in a
    row: an engine that hangs on its fifth request passes the short scenarios in between,
    and a healthy engine never needs the time limit (5 s a request by default).
    """

    def __init__(self, engine: SubprocessEngine, *, max_timeouts: int = MAX_TIMEOUTS,
                 err: TextIO | None = None) -> None:
        self.engine = engine
        self.restarts = 0
        self.timeouts = 0
        self.max_timeouts = max_timeouts
        self.err = err if err is not None else sys.stderr  # the scenarios' runner captures
        self.gave_up = ""
        self.timed_out = False

    def fresh(self) -> KeptEngine:
        """This engine for the next scenario, its process started again if it is not
        running; after too many time-outs, a skip of the scenario."""
        if self.timed_out:  # the previous scenario ended in a time-out
            self.timeouts += 1
        self.timed_out = False
        if self.timeouts >= self.max_timeouts:
            if not self.gave_up:
                self.gave_up = (f"not run: the engine did not answer in time (--timeout "
                                f"{self.engine.timeout:g} s) in {self.timeouts} scenarios, so "
                                "the rest were skipped")
                self.err.write(f"\ndurak-spec check: {self.gave_up}\n")
                self.err.flush()
            import pytest  # the scenario runner takes a skip as the factory's way to say so

            pytest.skip(self.gave_up)
        if not self.engine.running:
            self.restarts += 1
            self.engine.restart()
        return self

    def _answer(self, call: Callable[[], _T]) -> _T:
        try:
            return call()
        except EngineFailure as failure:
            if failure.kind == "timeout":
                self.timed_out = True
            raise

    def capabilities(self) -> Capabilities:
        return self._answer(self.engine.capabilities)

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        return self._answer(lambda: self.engine.start(rules, deck, seed))

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        return self._answer(lambda: self.engine.start_later(rules, deck, seed, previous))

    def load(self, state: GameState) -> Report:
        return self._answer(lambda: self.engine.load(state))

    def legal_actions(self) -> tuple[Action, ...]:
        return self._answer(self.engine.legal_actions)

    def apply(self, action: Action) -> Verdict:
        return self._answer(lambda: self.engine.apply(action))

    def report(self) -> Report:
        return self._answer(self.engine.report)

    def close(self) -> None:
        """The scenario is over; the process stays for the next one."""

    def shutdown(self) -> None:
        """Stop the process for good."""
        self.engine.close()


# -- the report ------------------------------------------------------------------------------------


def _tally(results: Iterable[ScenarioResult]) -> str:
    from durak_spec.spec.runner import OUTCOMES, Counts

    counts = Counts.of(results)
    parts = [f"{getattr(counts, o)} {o}" for o in OUTCOMES if getattr(counts, o)]
    return ", ".join(parts)


def _block(label: str, text: str, indent: int = 6) -> list[str]:
    """``label`` then ``text``, its further lines aligned under its first."""
    lines = text.splitlines() or [""]
    pad = " " * (indent + len(label))
    return [" " * indent + label + lines[0]] + [pad + line for line in lines[1:]]


@dataclass(frozen=True, slots=True)
class Cause:
    """One distinct cause of failures: a rule and what the engine did about it, with the
    scenarios it explains (the first of them is the example shown)."""

    rule: str | None
    kind: str
    scenarios: tuple[ScenarioResult, ...]

    @property
    def example(self) -> ScenarioResult:
        return self.scenarios[0]

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "kind": self.kind, "count": len(self.scenarios),
                "examples": [s.example or s.where for s in self.scenarios],
                "read": f"durak-spec rules {self.rule}" if self.rule else None}


_KINDS: tuple[tuple[str, str], ...] = (
    # (a phrase of the step library's failure messages, the kind of cause it shows)
    ("the engine's report is impossible", "reports a position no game can reach"),
    ("was accepted, but the rules forbid it", "accepts a move the rules forbid"),
    ("the engine lists no legal action", "lists no legal action where the rules allow some"),
    ("legal actions in that position are not the rules'",
     "rejects rightly, but lists other legal actions there"),
    ("but it is not among its legal actions", "accepts a move it does not list as legal"),
    ("but lists it among its legal actions", "rejects a move it lists as legal"),
)
_RULE_IN_TEXT = re.compile(r"\(([A-Z]+-[0-9]+)\)")
_RULE_AFTER = re.compile(r"\(([A-Z]+-[0-9]+): ")
_WRONG_RULE = re.compile(r"was rejected by ([A-Z]+-[0-9]+) .*, not by ([A-Z]+-[0-9]+)\Z",
                         re.DOTALL)


def _cause_of(item: ScenarioResult) -> tuple[str | None, str]:
    """The rule and the kind of one failed or errored scenario."""
    message = item.message or ""
    rule = item.rule_ids[0] if item.rule_ids else None
    if item.outcome == "errored":
        return None, "fails as a program (crash, time-out, an answer out of protocol, an " \
                     "exception)"
    wrong = _WRONG_RULE.search(message)
    if wrong is not None:
        return wrong[2], f"rejects with another rule ID ({wrong[1]})"
    for phrase, kind in _KINDS:
        if phrase in message:
            if kind.startswith(("reports a position", "rejects rightly")):
                # the audit, or the reference on the action listed too many, names the rule
                found = _RULE_IN_TEXT.search(message) or _RULE_AFTER.search(message)
                rule = found[1] if found else rule
            return rule, kind
    if " was rejected (" in message:
        return rule, "rejects a move the rules allow"
    return rule, "answers otherwise than the rule says"


def causes(result: RunResult) -> list[Cause]:
    """The distinct causes of the failed and errored scenarios, most scenarios first."""
    groups: dict[tuple[str | None, str], list[ScenarioResult]] = {}
    for item in result.scenarios:
        if item.outcome in ("failed", "errored"):
            groups.setdefault(_cause_of(item), []).append(item)
    found = [Cause(rule, kind, tuple(items)) for (rule, kind), items in groups.items()]
    return sorted(found, key=lambda c: -len(c.scenarios))


def _causes_text(result: RunResult) -> list[str]:
    index = load_rule_index()
    found = causes(result)
    if not found:
        return []
    lines = [f"Causes: {len(found)} distinct, explaining "
             f"{sum(len(c.scenarios) for c in found)} failed or errored scenarios "
             "(most first; the detail by rule follows)"]
    for number, cause in enumerate(found, start=1):
        rule = cause.rule
        known = rule is not None and rule in index
        title = f"{rule} {index[rule].title}" if rule is not None and known else "the engine"
        count = len(cause.scenarios)
        lines.append(f"  {number}. {title}: the engine {cause.kind} "
                     f"({count} scenario{'s' if count != 1 else ''})")
        if rule is not None and known:
            lines.append(f"     rule: {index[rule].summary}")
            lines.append(f"     read: durak-spec rules {rule}")
        first = cause.example
        what = (first.message or "").splitlines()
        lines.append(f"     e.g.  {first.cite}: " + " ".join(w.strip() for w in what[:3])[:300])
        more = [s.example or s.where for s in cause.scenarios[1:8]]
        if more:
            rest = count - 1 - len(more)
            lines.append("     also: " + ", ".join(more) + (f" and {rest} more" if rest else ""))
    lines.append("")
    return lines


def _unnamed_text(result: RunResult) -> list[str]:
    unnamed = [s for s in result.scenarios if s.rule_not_named]
    if not unnamed:
        return []
    first = unnamed[0]
    return [f"Rejected, rule not named: {len(unnamed)} scenarios passed, but the engine "
            "named no rule ID where the scenario names one (rejected by the right rule: "
            f"{sum(s.outcome == 'passed' for s in result.scenarios) - len(unnamed)} passed);",
            f"  e.g. {first.cite}: {first.unnamed[0]}", ""]


def _features_label(directory: Path) -> str:
    """Where the scenarios came from, in the report's header: "the specification" for the
    features this package carries, else the folder, relative to the working folder where
    it lies below it (a report reads the same on every machine)."""
    from durak_spec.spec.runner import features_dir

    if directory == features_dir():
        return "the specification"
    try:
        return str(directory.relative_to(Path.cwd()))
    except ValueError:
        return str(directory)


def format_report(result: RunResult, *, engine: str = "", verbose: bool = False) -> str:
    """The text report: the distinct causes of failure first (each with its rule's text
    and where to read it), then per rule ID its scenarios' outcomes, then the closing
    counts line."""
    index = load_rule_index()
    counts = result.counts
    lines = [f"Checked {engine or result.engine or 'the engine'} against "
             f"{counts.total} scenarios of {_features_label(result.features)} "
             f"in {result.seconds:.1f} s"
             + (f" ({result.deselected} left out by the filters)" if result.deselected else ""),
             ""]
    lines.extend(_causes_text(result))
    lines.extend(_unnamed_text(result))
    shown: dict[str, str] = {}
    for rule, results in result.by_rule().items():
        title = index[rule].title if rule in index else "scenarios that carry no rule ID"
        lines.append(f"{rule}  {title}: {_tally(results)}")
        skips: dict[str, int] = {}
        for item in results:
            if item.outcome in ("failed", "errored"):
                lines.extend(_problem(item, rule, shown))
            elif item.outcome == "skipped":
                reason = item.skip_reason or "no reason given"
                if verbose:
                    lines.append(f"  skipped {item.cite}  {item.name}")
                    lines.extend(_block("why: ", reason))
                else:
                    skips[reason] = skips.get(reason, 0) + 1
            elif verbose:
                lines.append(f"  passed  {item.cite}  {item.name}")
        for reason, number in skips.items():
            lines.append(f"  {number} skipped: {reason}")
    if not result.scenarios:
        lines.append("No scenario was checked.")
    lines.extend(["", str(counts)])
    return "\n".join(lines)


def _problem(item: ScenarioResult, rule: str, shown: dict[str, str]) -> list[str]:
    head = f"  {item.outcome.upper()} {item.cite}  {item.name}"
    key = item.nodeid or item.where
    if key in shown:
        return [head + f"  (see {shown[key]} above)"]
    shown[key] = rule
    lines = [head]
    if item.step:
        lines.extend(_block("step:   ", item.step))
    what = "engine: " if item.outcome == "failed" else "error:  "
    lines.extend(_block(what, item.message or "(no message)"))
    entries = load_rule_index()
    says = [f"{r} says: {entries[r].summary}" for r in item.rule_ids if r in entries]
    if says:
        lines.extend(_block("rule:   ", "\n".join(says)))
    return lines


def report_json(result: RunResult, *, engine: str = "", command: str | None = None,
                filters: dict[str, object] | None = None) -> dict[str, object]:
    """The results as one JSON document (``format`` ``durak-spec/check-report``)."""
    from durak_spec.spec.runner import Counts

    index = load_rule_index()
    rules = {}
    for rule, results in result.by_rule().items():
        rules[rule] = {"title": index[rule].title if rule in index else None,
                       "counts": Counts.of(results).to_json()}
    return {
        "format": REPORT_FORMAT, "version": REPORT_VERSION,
        "engine": {"name": engine or result.engine, "command": command},
        "features": str(result.features), "filters": filters or {},
        "seconds": round(result.seconds, 3), "counts": result.counts.to_json(),
        "deselected": result.deselected, "summary": str(result.counts),
        "causes": [cause.to_json() for cause in causes(result)],
        "rule_not_named": sum(s.rule_not_named for s in result.scenarios),
        "rules": rules, "scenarios": [item.to_json() for item in result.scenarios],
    }


def junit_xml(result: RunResult, *, engine: str = "") -> str:
    """The results as JUnit XML: a test suite per feature file, a test case per scenario."""
    from durak_spec.spec.runner import Counts

    counts = result.counts
    root = ET.Element("testsuites", name=f"durak-spec check: {engine or result.engine}",
                      tests=str(counts.total), failures=str(counts.failed),
                      errors=str(counts.errored), skipped=str(counts.skipped),
                      time=f"{result.seconds:.3f}")
    features: dict[str, list[ScenarioResult]] = {}
    for item in result.scenarios:
        features.setdefault(item.feature, []).append(item)
    for feature, items in features.items():
        tally = Counts.of(items)
        suite = ET.SubElement(root, "testsuite", name=feature, tests=str(tally.total),
                              failures=str(tally.failed), errors=str(tally.errored),
                              skipped=str(tally.skipped),
                              time=f"{sum(i.seconds for i in items):.3f}")
        for item in items:
            case = ET.SubElement(suite, "testcase", classname=feature,
                                 name=f"{item.example} {item.name} (line {item.line})".lstrip(),
                                 file=feature,
                                 line=str(item.line), time=f"{item.seconds:.3f}")
            if item.rule_ids:
                properties = ET.SubElement(case, "properties")
                for rule in item.rule_ids:
                    ET.SubElement(properties, "property", name="rule", value=rule)
            if item.outcome in ("failed", "errored"):
                tag = "failure" if item.outcome == "failed" else "error"
                text = "\n".join(filter(None, [f"step: {item.step}" if item.step else None,
                                               item.message]))
                node = ET.SubElement(case, tag, message=(item.message or "").split("\n")[0])
                node.text = text
            elif item.outcome == "skipped":
                ET.SubElement(case, "skipped", message=item.skip_reason or "")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"

