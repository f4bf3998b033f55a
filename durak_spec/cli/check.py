"""``durak-spec check``: the command line of the conformance checker (layer 9).

The checking itself is :func:`durak_spec.conformance.checker.check_engine`, and the
``--random``, ``--perft`` and ``--replay`` runs are the lockstep and perft modules'; this
module parses the options, refuses the combinations that do not apply, and runs them.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

from durak_spec.cli.args import (
    CommandError,
    Subparsers,
    add_jobs_arguments,
    count,
    jobs_of,
    positive_count,
    seconds,
)
from durak_spec.conformance import engine_label
from durak_spec.conformance.checker import (
    BOOK_PAGE,
    DEFAULT_TIMEOUT,
    EXIT_ENGINE,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    check_engine,
    open_report,
)
from durak_spec.conformance.kept_engine import KeptEngine
from durak_spec.core.jobs import ClusterError
from durak_spec.core.jsonio import write_json
from durak_spec.core.outfiles import OutputFile
from durak_spec.core.progressbar import progress_bar
from durak_spec.protocol import Engine, ReferenceEngine
from durak_spec.protocol.subprocess_engine import EngineError, EngineFailure, SubprocessEngine

__all__ = ["add_parser", "feature_files", "option_rows", "run_command"]

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
    "Each request has a time limit (--timeout; the first answer of each engine process, "
    "its start-up included, may have a longer one: --start-timeout). An engine that "
    "crashes, exits, writes something that is not a line of JSON or answers out of protocol "
    "is reported with what it wrote, and started again for the next scenario. Scenarios "
    "under rules the engine does not claim, or needing a capability it lacks, are skipped "
    "with the reason.",
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
    parser.add_argument("--start-timeout", metavar="S", type=seconds, default=None,
                        help="time limit of the first answer of each --engine process, its "
                             "start-up included, in seconds (default: the --timeout), for an "
                             "engine that starts slowly and answers quickly")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list every scenario, passed ones and every skip included")
    parser.add_argument("--random", metavar="N", type=positive_count, default=None,
                        help="instead of the scenarios, play N random games per claimed "
                             "profile and player count in lockstep with the reference and "
                             "report the divergences by cause, each with a shrunk example; "
                             "Ctrl-C stops the run and reports every game finished until "
                             "then, in every worker, with the games played of each "
                             "configuration (exit 130)")
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


def _engines(args: argparse.Namespace) -> Callable[[], SubprocessEngine]:
    """What starts the --engine command, with the time limits of its answers (a partial
    of plain values, which the workers of --jobs and --scheduler receive pickled)."""
    return functools.partial(SubprocessEngine, args.engine, start_timeout=args.start_timeout,
                             timeout=args.timeout if args.timeout is not None
                             else DEFAULT_TIMEOUT)


def run_command(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec check``."""
    if args.engine is None:
        for option, value in (("--timeout", args.timeout),
                              ("--start-timeout", args.start_timeout)):
            if value is not None:
                raise CommandError(f"{option} limits the answers of an --engine command; the "
                                   "reference engine runs in-process")
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
        return check(None)
    try:
        engine = _engines(args)()
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
        report = open_report(stack, args.json_path, "--json")
        return _run_engine(args, report)


def _run_engine(args: argparse.Namespace, report: OutputFile | None) -> int:
    """:func:`_run_differential` once the options are checked and the report file open."""
    from durak_spec.conformance.lockstep import GameProgress, format_lockstep, play_lockstep
    from durak_spec.conformance.perft import check_positions, format_check

    engines: Callable[[], Engine]  # how the workers of --jobs and --scheduler make theirs
    engines = ReferenceEngine if args.engine is None else _engines(args)
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


def option_rows() -> list[list[str]]:
    """The options of ``durak-spec check`` as ``[names, help]`` rows, in the parser's
    order: the book's options table (``durak_spec/data/check_options.json``, written by
    ``python tools/check_options.py``) is this list."""
    parser = argparse.ArgumentParser(prog="durak-spec")
    add_parser(parser.add_subparsers())
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rows = []
    for action in commands.choices["check"]._actions:
        if isinstance(action, argparse._HelpAction) or not action.option_strings:
            continue
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        names = ", ".join(f"{o} {metavar}".strip() for o in action.option_strings)
        rows.append([names, (action.help or "").replace("%%", "%")])
    return rows
