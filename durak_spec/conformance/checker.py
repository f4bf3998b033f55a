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
import functools
import importlib
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from durak_spec.conformance import engine_label
from durak_spec.conformance.check_report import format_report, junit_xml, report_json
from durak_spec.conformance.kept_engine import KeptEngine
from durak_spec.core.cliargs import (
    CommandError,
    Subparsers,
    add_jobs_arguments,
    count,
    jobs_of,
    positive_count,
    seconds,
)
from durak_spec.core.jobs import ClusterError
from durak_spec.core.jsonio import write_json
from durak_spec.core.outfiles import OutputFile
from durak_spec.core.progressbar import progress_bar
from durak_spec.protocol import Engine, ReferenceEngine
from durak_spec.protocol.subprocess_engine import EngineError, EngineFailure, SubprocessEngine

if TYPE_CHECKING:  # the runner needs pytest: imported when a check runs, not with the CLI
    from durak_spec.spec.runner import RunResult, ScenarioResult

__all__ = [
    "BOOK_PAGE",
    "EXIT_ENGINE",
    "EXIT_FAILED",
    "EXIT_INTERNAL",
    "EXIT_USAGE",
    "add_parser",
    "check_engine",
    "exit_status",
    "run_command",
]

BOOK_PAGE = 'the chapter "Checking your engine" of the durak-spec book (book/implementers.md)'
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_ENGINE = 4
EXIT_INTERRUPTED = 130
"""An interrupted ``--random`` run (128 + SIGINT), after printing what it found."""
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
    parser.add_argument("--timeout", metavar="S", type=seconds, default=None,
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
    add_jobs_arguments(parser, "--random games")
    parser.add_argument("--progress", action="store_true",
                        help="with --random or --perft, show the progress bar on stderr even "
                             "when it is not a terminal")
    parser.add_argument("--perft", action="store_true",
                        help="instead of the scenarios, compare the engine's perft counts "
                             "(action sequences to depth 1..N from stacked deals and from "
                             "positions in the middle and at the end of games) with the "
                             "reference's, depth by depth: the stored counts, or, where the "
                             "engine does not claim a position's rules, the same kind of "
                             "position under the nearest rules it claims, counted now")
    parser.add_argument("--max-depth", metavar="D", type=positive_count, default=None,
                        help="with --perft, count only to this depth")
    parser.add_argument("--time-budget", metavar="S", type=seconds, default=None,
                        dest="time_budget",
                        help="with --perft, the most seconds spent on one position (no "
                             "deeper count starts once they are spent)")
    parser.add_argument("--replay", metavar="FILE", default=None,
                        help="instead of the scenarios, replay a lockstep record (the JSON "
                             "object after 'record:' in a --random report, or a divergence's "
                             "'record' in its --json) in the engine and the reference, and "
                             "report where they diverge")
    parser.add_argument("--vectors", metavar="FILE", default=None,
                        help="run the test vectors of FILE (written by 'durak-spec vectors', "
                             "perhaps by another version) instead of the scenarios, with the "
                             "same report; --rule and -k choose among them")
    parser.set_defaults(handler=run_command)


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
                            command=args.engine, features=features, vectors=args.vectors)

    if args.vectors is not None and (args.tags or args.profiles or args.features is not None
                                     or args.random is not None or args.perft
                                     or args.replay is not None):
        raise CommandError("--vectors runs a vectors file; --tag, --profile, --features, "
                           "--random, --perft and --replay do not apply to it")
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
    if args.random is None and (args.jobs is not None or args.scheduler is not None):
        raise CommandError("--jobs and --scheduler spread the --random games; add --random N "
                           "or leave them out")
    if args.progress and args.random is None and not args.perft:
        raise CommandError("--progress shows the bar of --random and --perft; add one of them "
                           "or leave it out")
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
    from durak_spec.conformance.lockstep import GameProgress, format_lockstep, play_lockstep
    from durak_spec.conformance.perft import check_positions, format_check

    engines: Callable[[], Engine]  # how the workers of --jobs and --scheduler make theirs
    if args.engine is None:
        engines = ReferenceEngine
    else:
        timeout = args.timeout if args.timeout is not None else DEFAULT_TIMEOUT
        engines = functools.partial(SubprocessEngine, args.engine, timeout=timeout)
    try:
        engine = engines()
    except (ValueError, EngineFailure) as error:
        raise CommandError(f"--engine: {error}") from None
    jobs, scheduler = jobs_of(args)
    bar = progress_bar(None, unit="game" if args.random is not None else "position",
                       shown=False if args.replay is not None else True if args.progress
                       else None)

    diverged = [0]

    def note(done: int, total: int, game: object = None, *_: object) -> None:
        if isinstance(game, GameProgress) and game.divergence is not None:
            diverged[0] += 1
            bar.set_postfix_str(f"{diverged[0]} games diverged", refresh=False)
        bar.total = total
        bar.update(done - bar.n)

    payload: object
    interrupted = False
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
                                    players=args.players or None, progress=note,
                                    jobs=jobs, scheduler=scheduler, engines=engines)
            text, ok = format_lockstep(outcome, verbose=args.verbose), outcome.ok
            broke = any(d.kind in ("engine failure", "engine error")
                        for d in outcome.divergences)
            interrupted = outcome.interrupted
            payload = outcome.to_json()
    except EngineFailure as error:  # before any game: the handshake
        print(f"durak-spec check: the engine failed the handshake: {error}", file=sys.stderr)
        return EXIT_ENGINE
    except ClusterError as error:
        raise CommandError(str(error)) from None
    finally:
        bar.close()
        engine.close()
    if args.json_path == "-":
        sys.stdout.write(write_json(payload, indent=2) + "\n")
    out = sys.stderr if args.json_path == "-" else sys.stdout
    out.write(text.rstrip("\n") + "\n")  # the text report first: it is out if a file fails
    out.flush()
    if report is not None:
        report.write(write_json(payload, indent=2) + "\n")
    if interrupted:
        return EXIT_INTERRUPTED
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
        json_file = _open(stack, json_path, "--json")
        junit_file = _open(stack, junit_path, "--junit-xml")
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
