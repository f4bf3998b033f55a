"""Run the specification's scenarios against an engine, in-process, and collect the results.

:func:`run` is the Python entry of the conformance checker (``durak-spec check`` prints
what it returns). It writes a small test module that calls :func:`pytest_bdd.scenarios`
once per feature file of :func:`features_dir`, runs it with :func:`pytest.main` in this
process, and observes every scenario through pytest and pytest-bdd hooks. The engine
comes from a factory that the runner calls once per scenario (the engine is closed after
the scenario). Nothing of pytest reaches the terminal: its output is captured and kept
only to explain an internal error; the caller sees :class:`RunResult` and, while the run
goes on, its ``progress`` callback.

A scenario comes out as one of four outcomes:

* ``passed``;
* ``failed``: the engine answered, but not as the rule says (a step failed; its message
  says what the engine did and what was expected);
* ``errored``: the engine (or the feature file) broke: it raised, crashed, timed out or
  answered out of protocol, or the step is not defined;
* ``skipped``: the engine does not claim the scenario's rules, or lacks a capability it
  needs (the reason says which).

Filters select scenarios by rule ID, by tag, by keyword (before the run) and by profile
(while the run goes on: a scenario's profile is the one its ``Given`` steps name,
``classic-throw-in`` when they name none). Scenarios a filter leaves out are not results;
:attr:`RunResult.deselected` counts them.

With ``trace=True`` every scenario also records, after each step, the engine's
:class:`~durak_spec.protocol.Report` and the verdict of the move the step made (for the
book, which shows scenarios as they play out). Asking for the report is one more request
per step; a broken engine may break on it, so a checker leaves tracing off.

Example::

    result = run(rules=["BEAT-4"])                  # the reference engine, in-process
    print(result.counts)                            # 2 passed, 0 failed, 0 errored, 0 skipped
    for scenario in result.with_outcome("failed", "errored"):
        print(scenario.where, scenario.step, scenario.message)
"""

from __future__ import annotations

import functools
import importlib.resources
import io
import os
import re
import shutil
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pytest
from pytest_bdd.parser import Feature, Scenario, ScenarioTemplate, Step
from pytest_bdd.scenario import scenario_wrapper_template_registry

from durak_spec.core.errors import InputError
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.positions import DEFAULT_PROFILE
from durak_spec.model.rules import PROFILES, RuleSet
from durak_spec.protocol import Capabilities, Engine, ReferenceEngine, Report, Verdict
from durak_spec.protocol.subprocess_engine import EngineFailure
from durak_spec.spec.gherkin import Example, GherkinError, Specification, read_specification
from durak_spec.spec.plugin import KNOWN_TAGS

if TYPE_CHECKING:
    from durak_spec.spec.context import GameContext

__all__ = [
    "OUTCOMES",
    "Counts",
    "FilterError",
    "Outcome",
    "Progress",
    "RunResult",
    "RunnerError",
    "ScenarioResult",
    "TraceStep",
    "features_dir",
    "run",
]

Outcome = Literal["passed", "failed", "errored", "skipped"]
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "errored", "skipped")

NO_RULE = "(no rule ID)"
"""The group of scenarios that carry no rule ID, in :meth:`RunResult.by_rule`."""

_PLUGIN_NAME = "durak-spec-runner"
_BROKEN_TEST = "test_feature_file_is_readable"
_STEP_MESSAGE = re.compile(r'\AStep "(?P<step>.*?)":\n(?P<message>.*)\Z', re.DOTALL)
_ISOLATED_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")


class RunnerError(RuntimeError):
    """pytest could not run the scenarios at all; ``output`` is what it printed."""

    def __init__(self, message: str, output: str = "") -> None:
        self.output = output
        tail = "\n".join(output.strip().splitlines()[-15:])
        super().__init__(message + (f"\npytest said:\n{textwrap.indent(tail, '  ')}"
                                    if tail else ""))


class FilterError(InputError):
    """A filter names a rule ID, tag or profile that does not exist."""

    code = "filter"


# -- results ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of a traced scenario, with the engine's report after it."""

    keyword: str
    """``Given``, ``When``, ``Then``, ``And`` or ``But``, as the feature writes it."""
    text: str
    line: int
    passed: bool
    report: Report | None
    """The position after the step, ``None`` before the game is under way."""
    move: str | None = None
    """The move this step made (``Boris's move "cover 7♣ with 9♣"``), if it made one."""
    verdict: Verdict | None = None
    """The engine's verdict on that move."""
    message: str | None = None
    """Why the step failed."""


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """What became of one scenario (one row of an outline)."""

    feature: str
    """The feature file, relative to the features directory (``03_beating.feature``)."""
    line: int
    """The line of the scenario, or of its row in the Examples table."""
    name: str
    rule_ids: tuple[str, ...]
    """The scenario's tags that are rule-index IDs, in rule-index order."""
    tags: tuple[str, ...]
    """Every tag in effect: the feature's, the Rule's, the scenario's and its row's."""
    outcome: Outcome
    step: str | None = None
    """The step that failed or errored (``Then it is rejected``), with its keyword."""
    message: str | None = None
    """Why it failed or errored: what the engine did, and what the step expected."""
    skip_reason: str | None = None
    profile: str | None = None
    """The profile the scenario's Given steps chose (``None`` if it never got that far)."""
    players: tuple[str, ...] = ()
    """The players' names by seat (``P0`` is the first)."""
    seconds: float = 0.0
    trace: tuple[TraceStep, ...] = ()
    nodeid: str = ""
    example: str = ""
    """The example's number (``BEAT-3.2``, ``VAR-1.2c``: see :mod:`durak_spec.spec.gherkin`),
    the name by which the book, the reports and the command line cite it."""
    step_line: int | None = None
    """The line of the step that failed or errored, if one did."""
    feature_error: bool = False
    """The scenario errored because of its feature file (a step no definition matches, a
    file the parser refuses), not because of the engine."""
    unnamed: tuple[str, ...] = ()
    """The moves the scenario expected rejected by a rule that the engine rejected without
    naming any rule: such a scenario passes, "rejected, rule not named", which reports
    tell apart from "rejected by the right rule" (a wrong rule fails)."""

    @property
    def rule_not_named(self) -> bool:
        """Passed, but with a rejection that named no rule."""
        return self.outcome == "passed" and bool(self.unnamed)

    @property
    def where(self) -> str:
        """``03_beating.feature:103``: the file and the line of the scenario (or row)."""
        return f"{self.feature}:{self.line}"

    @property
    def cite(self) -> str:
        """How reports name the example: ``BEAT-3.2 (03_beating.feature:103)``."""
        return f"{self.example} ({self.where})" if self.example else self.where

    def to_json(self) -> dict[str, object]:
        """The result as a JSON object (without the trace)."""
        return {
            "example": self.example, "feature": self.feature, "line": self.line,
            "name": self.name, "step_line": self.step_line,
            "rules": list(self.rule_ids), "tags": list(self.tags), "outcome": self.outcome,
            "step": self.step, "message": self.message, "skip_reason": self.skip_reason,
            "profile": self.profile, "players": list(self.players),
            "seconds": round(self.seconds, 6), "rule_not_named": list(self.unnamed),
        }


@dataclass(frozen=True, slots=True)
class Counts:
    """How many scenarios came out each way."""

    passed: int = 0
    failed: int = 0
    errored: int = 0
    skipped: int = 0

    @classmethod
    def of(cls, results: Iterable[ScenarioResult]) -> Counts:
        tally = dict.fromkeys(OUTCOMES, 0)
        for result in results:
            tally[result.outcome] += 1
        return cls(**tally)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.errored + self.skipped

    def __str__(self) -> str:
        return (f"{self.passed} passed, {self.failed} failed, {self.errored} errored, "
                f"{self.skipped} skipped")

    def to_json(self) -> dict[str, int]:
        return {outcome: getattr(self, outcome) for outcome in OUTCOMES}


@dataclass(frozen=True, slots=True)
class RunResult:
    """Every selected scenario's result, in the order of the feature files."""

    scenarios: tuple[ScenarioResult, ...]
    features: Path
    """The features directory the scenarios came from."""
    engine: str = ""
    """The engine's name, as its capabilities give it (empty if it was never asked)."""
    seconds: float = 0.0
    deselected: int = 0
    """Scenarios the filters left out."""

    @property
    def counts(self) -> Counts:
        return Counts.of(self.scenarios)

    @property
    def ok(self) -> bool:
        """No scenario failed or errored."""
        counts = self.counts
        return counts.failed == 0 and counts.errored == 0

    def by_rule(self) -> dict[str, tuple[ScenarioResult, ...]]:
        """The results under each rule ID (a scenario under each of its IDs), in index order;
        scenarios without a rule ID come last, under :data:`NO_RULE`."""
        groups: dict[str, list[ScenarioResult]] = {}
        for result in self.scenarios:
            for rule in result.rule_ids or (NO_RULE,):
                groups.setdefault(rule, []).append(result)
        order = {rule: i for i, rule in enumerate(load_rule_index())}
        return {rule: tuple(groups[rule])
                for rule in sorted(groups, key=lambda r: (order.get(r, len(order)), r))}

    def with_outcome(self, *outcomes: Outcome) -> tuple[ScenarioResult, ...]:
        return tuple(r for r in self.scenarios if r.outcome in outcomes)


Progress = Callable[[int, int, "ScenarioResult | None"], None]
Adapt = Callable[[str, Capabilities, RuleSet], "RuleSet | str"]
"""Given an example's number, the engine's capabilities and the example's rules, the rules
to play it under, or why to skip it."""
"""Called after each selected scenario with (done, total, result); ``result`` is ``None``
for a scenario the profile filter left out. It runs while pytest's output is captured:
write to a stream saved before :func:`run` was called."""


# -- where the features are ------------------------------------------------------------------------


def features_dir() -> Path:
    """The specification's feature files: the package's ``durak_spec/features`` (an installed
    wheel carries them) or else the ``features/`` directory of the source repository."""
    packaged = importlib.resources.files("durak_spec").joinpath("features")
    if isinstance(packaged, Path) and packaged.is_dir() and _feature_files(packaged):
        return packaged
    repository = Path(__file__).resolve().parents[2] / "features"
    if repository.is_dir() and _feature_files(repository):
        return repository
    raise FileNotFoundError(f"no feature files: neither {packaged} nor {repository} holds any "
                            ".feature file")


def _feature_files(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.feature"))


# -- filters ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Filters:
    rules: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    profiles: frozenset[str] = frozenset()
    keyword: str = ""

    @classmethod
    def checked(cls, rules: Iterable[str], tags: Iterable[str], profiles: Iterable[str],
                keyword: str | None) -> _Filters:
        index = load_rule_index()
        rule_ids = frozenset(r.strip() for r in rules)
        for rule in sorted(rule_ids):
            if rule not in index:
                raise FilterError(_unknown("rule ID", rule, list(index)))
        tag_names = frozenset(t.strip().removeprefix("@") for t in tags)
        for tag in sorted(tag_names):
            if tag not in index and tag not in KNOWN_TAGS:
                raise FilterError(_unknown("tag", tag, [*index, *KNOWN_TAGS]))
        profile_names = frozenset(p.strip() for p in profiles)
        for name in sorted(profile_names):
            if name not in PROFILES:
                raise FilterError(_unknown("profile", name, list(PROFILES)))
        return cls(rule_ids, tag_names, profile_names, (keyword or "").strip().lower())

    def keeps(self, meta: _Meta) -> bool:
        if meta.broken:
            return True
        if self.rules and not self.rules & set(meta.rule_ids):
            return False
        if self.tags and not self.tags & meta.tags:
            return False
        return not self.keyword or self.keyword in \
            f"{meta.example} {meta.feature}:{meta.line} {meta.name}".lower()


def _unknown(what: str, name: str, known: Sequence[str]) -> str:
    import difflib

    by_case = {item.casefold(): item for item in known}
    same = by_case.get(name.casefold())
    if same is not None:
        return (f"{name!r} is not a {what} of the specification; did you mean {same!r}? "
                "(upper and lower case differ)")
    close = [by_case[c] for c in
             difflib.get_close_matches(name.casefold(), list(by_case), n=3, cutoff=0.6)]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"{name!r} is not a {what} of the specification{hint}"


class _NotSelected(pytest.skip.Exception):  # type: ignore[name-defined,misc]
    """Raised by the profile filter: the scenario is played under another profile."""


# -- the scenario a test item runs -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Meta:
    feature: str
    line: int
    name: str
    tags: frozenset[str]
    rule_ids: tuple[str, ...]
    broken: bool = False
    example: str = ""


class _Metas:
    """Reads each test item's example from the shared Gherkin model
    (:mod:`durak_spec.spec.gherkin`): its number, file, line, name and tags."""

    def __init__(self, features: Path, files: Sequence[Path]) -> None:
        self.features = features
        try:
            self.specification: Specification | None = read_specification(list(files))
        except GherkinError:  # the broken file is reported as its own item
            self.specification = None
        self.readable: dict[Path, Specification] = {}

    def relative(self, filename: str) -> str:
        try:
            return Path(filename).relative_to(self.features).as_posix()
        except ValueError:
            return Path(filename).name

    def _lookup(self, filename: str, line: int, row: int | None) -> Example | None:
        if self.specification is not None:
            return self.specification.at(filename, line, row)
        path = Path(filename).resolve()
        if path not in self.readable:  # some other file is unreadable: read this one alone
            self.readable[path] = read_specification([path])
        return self.readable[path].at(path, line, row)

    def of(self, item: pytest.Item) -> _Meta | None:
        function = getattr(item, "obj", None)
        callspec = getattr(item, "callspec", None)
        if getattr(item, "originalname", None) == _BROKEN_TEST and callspec is not None:
            path = str(callspec.params["path"])
            return _Meta(self.relative(path), 1, "(the feature file cannot be read)",
                         frozenset(), (), broken=True, example=Path(path).name)
        template: ScenarioTemplate | None = (
            scenario_wrapper_template_registry.get(function) if function is not None else None)
        if template is None:
            return None
        row: int | None = None
        if callspec is not None and "_pytest_bdd_example" in callspec.params:
            row = int(callspec.indices["_pytest_bdd_example"])
        example = self._lookup(template.feature.filename, template.line_number, row)
        if example is None:
            return None
        return _Meta(self.relative(template.feature.filename), example.line, example.name,
                     frozenset(example.tags), example.rule_ids, example=example.number)


# -- the collector plugin --------------------------------------------------------------------------


@dataclass
class _Pending:
    """A scenario while it runs."""

    meta: _Meta
    outcome: Outcome = "passed"
    step: str | None = None
    message: str | None = None
    skip_reason: str | None = None
    dropped: bool = False
    seconds: float = 0.0
    name: str | None = None
    game: GameContext | None = None
    current: tuple[str, int] | None = None
    verdict_before: object = None
    trace: list[TraceStep] = field(default_factory=list)
    step_line: int | None = None
    feature_error: bool = False

    def fail(self, outcome: Outcome, step: str | None, message: str, *,
             feature_error: bool = False) -> None:
        """Keep the first failure of the scenario (``feature_error``: caused by the feature
        file, not the engine)."""
        if self.outcome in ("failed", "errored"):
            return
        self.feature_error = feature_error
        parsed = _STEP_MESSAGE.match(message)
        if parsed is not None:
            step = parsed["step"]
            message = textwrap.dedent(parsed["message"]).strip()
        self.outcome, self.step, self.message = outcome, step, message
        if step is not None and self.current is not None and self.current[0] == step:
            self.step_line = self.current[1]

    def result(self, nodeid: str) -> ScenarioResult:
        game = self.game
        profile = players = None
        if game is not None:
            profile = game.position.profile_name or DEFAULT_PROFILE
            players = game.names
        return ScenarioResult(
            feature=self.meta.feature, line=self.meta.line, name=self.name or self.meta.name,
            rule_ids=self.meta.rule_ids, tags=tuple(sorted(self.meta.tags)),
            outcome=self.outcome, step=self.step, message=self.message,
            skip_reason=self.skip_reason, profile=profile, players=tuple(players or ()),
            seconds=self.seconds, trace=tuple(self.trace), nodeid=nodeid,
            example=self.meta.example, step_line=self.step_line,
            unnamed=tuple(game.unnamed) if game is not None else (),
            feature_error=self.feature_error)


def _step_text(step: Step) -> str:
    return f"{step.keyword.strip()} {step.name}"


def _error_text(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    error = excinfo.value
    if isinstance(error, EngineFailure):
        return str(error)  # already says what the engine did, quoting its line
    text = f"{type(error).__name__}: {error}"
    entry = excinfo.traceback[-1] if excinfo.traceback else None
    if entry is not None:
        text += f" (raised at {Path(str(entry.path)).name}:{entry.lineno + 1} in {entry.name})"
    return text


def _snapshot(game: GameContext) -> Report | None:
    """The engine's report, if a game is under way (it changes nothing in the engine)."""
    if not game.started:
        return None
    try:
        return game.engine.report()
    except Exception:  # no game (a refused deal) or a broken engine: nothing to show
        return None


class _Collector:
    """The pytest plugin object that selects scenarios and records what became of them."""

    def __init__(self, factory: Callable[[], Engine], filters: _Filters, features: Path,
                 files: Sequence[Path], trace: bool, progress: Progress | None,
                 adapt: Adapt | None = None) -> None:
        self.factory = factory
        self.adapt = adapt
        self.filters = filters
        self.metas = _Metas(features, files)
        self.trace = trace
        self.progress = progress
        self.pending: dict[str, _Pending] = {}
        self.results: list[ScenarioResult] = []
        self.deselected = 0
        self.total = 0
        self.done = 0
        self.engine = ""
        self.interrupted = False

    # -- engine and selection ----------------------------------------------------------------

    def pytest_durak_make_engine(self, config: pytest.Config) -> Engine:
        return self.factory()

    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        kept: list[pytest.Item] = []
        left: list[pytest.Item] = []
        for item in items:
            meta = self.metas.of(item)
            if meta is not None and self.filters.keeps(meta):
                kept.append(item)
                self.pending[item.nodeid] = _Pending(meta)
            else:
                left.append(item)
        if left:
            config.hook.pytest_deselected(items=left)
            self.deselected += len(left)
        items[:] = kept
        self.total = len(kept)

    # -- pytest-bdd: the scenario and its steps ----------------------------------------------

    def pytest_bdd_before_scenario(self, request: pytest.FixtureRequest, feature: Feature,
                                   scenario: Scenario) -> None:
        from durak_spec.spec.context import GameContext

        pending = self.pending.get(request.node.nodeid)
        if pending is None:
            return
        pending.name = scenario.name
        game = request.getfixturevalue("game")
        if not isinstance(game, GameContext):
            return
        pending.game = game
        if not self.engine:
            self.engine = game.engine.capabilities().name
        if self.filters.profiles:
            game.claims = _restricted(game, game.claims, self.filters.profiles)
        if self.adapt is not None:
            game.adapt = functools.partial(self.adapt, pending.meta.example,
                                           game.engine.capabilities())

    def pytest_bdd_before_step(self, request: pytest.FixtureRequest, feature: Feature,
                               scenario: Scenario, step: Step,
                               step_func: Callable[..., object]) -> None:
        pending = self.pending.get(request.node.nodeid)
        if pending is not None:
            pending.current = (_step_text(step), step.line_number)
            pending.verdict_before = pending.game.verdict if pending.game else None

    def pytest_bdd_after_step(self, request: pytest.FixtureRequest, feature: Feature,
                              scenario: Scenario, step: Step, step_func: Callable[..., object],
                              step_func_args: dict[str, object]) -> None:
        if self.trace:
            self._trace(request, step, passed=True)

    def pytest_bdd_step_error(self, request: pytest.FixtureRequest, feature: Feature,
                              scenario: Scenario, step: Step, step_func: Callable[..., object],
                              step_func_args: dict[str, object], exception: Exception) -> None:
        pending = self.pending.get(request.node.nodeid)
        if pending is None:
            return
        if isinstance(exception, pytest.skip.Exception):
            return
        pending.step = _step_text(step)
        if self.trace:
            message = getattr(exception, "msg", None) or str(exception)
            self._trace(request, step, passed=False, message=str(message))

    def pytest_bdd_step_func_lookup_error(self, request: pytest.FixtureRequest,
                                          feature: Feature, scenario: Scenario, step: Step,
                                          exception: Exception) -> None:
        pending = self.pending.get(request.node.nodeid)
        if pending is not None:
            pending.fail("errored", _step_text(step),
                         f"no step definition matches this step (line {step.line_number})",
                         feature_error=True)

    def _trace(self, request: pytest.FixtureRequest, step: Step, *, passed: bool,
               message: str | None = None) -> None:
        pending = self.pending.get(request.node.nodeid)
        if pending is None:
            return
        game = pending.game
        report = _snapshot(game) if game is not None else None
        verdict = game.verdict if game is not None else None
        moved = game is not None and verdict is not None and verdict is not pending.verdict_before
        if message is not None:
            parsed = _STEP_MESSAGE.match(message)
            message = textwrap.dedent(parsed["message"]).strip() if parsed else message
        pending.trace.append(TraceStep(
            keyword=step.keyword.strip(), text=step.name, line=step.line_number, passed=passed,
            report=report, move=game.move if moved and game is not None else None,
            verdict=verdict if moved else None, message=message))

    # -- pytest: outcomes --------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item,
                                  call: pytest.CallInfo[None]) -> Iterator[None]:
        report = yield
        pending = self.pending.get(item.nodeid)
        excinfo = call.excinfo
        if pending is not None and excinfo is not None:
            self._classify(pending, call.when, excinfo)
        return report

    def _classify(self, pending: _Pending, when: str,
                  excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        step = pending.step or (pending.current[0] if pending.current else None)
        if excinfo.errisinstance(_NotSelected):
            pending.dropped = True
        elif excinfo.errisinstance(pytest.skip.Exception):
            if pending.outcome == "passed":
                pending.outcome = "skipped"
                pending.skip_reason = str(getattr(excinfo.value, "msg", excinfo.value))
        elif excinfo.errisinstance(KeyboardInterrupt):
            self.interrupted = True
        elif (when == "call" and not pending.meta.broken
              and excinfo.errisinstance((pytest.fail.Exception, AssertionError))):
            message = getattr(excinfo.value, "msg", None) or str(excinfo.value)
            pending.fail("failed", step, str(message))
        elif pending.meta.broken:
            pending.fail("errored", None, str(getattr(excinfo.value, "msg", excinfo.value)),
                         feature_error=True)
        else:
            where = {"setup": "while setting up the scenario: ",
                     "teardown": "after the scenario, closing the engine: "}.get(when, "")
            pending.fail("errored", step if when == "call" else None,
                         where + _error_text(excinfo))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        pending = self.pending.get(report.nodeid)
        if pending is None:
            return
        pending.seconds += report.duration
        if report.when != "teardown":
            return
        del self.pending[report.nodeid]
        self.done += 1
        result = None
        profiles = self.filters.profiles
        if profiles and pending.game is not None and \
                (pending.game.position.profile_name or DEFAULT_PROFILE) not in profiles:
            pending.dropped = True  # a scenario that never asked the engine to claim its rules
        if pending.dropped:
            self.deselected += 1
        else:
            result = pending.result(report.nodeid)
            self.results.append(result)
        if self.progress is not None:
            self.progress(self.done, self.total, result)

    def pytest_keyboard_interrupt(self) -> None:
        self.interrupted = True


def _restricted(game: GameContext, claims: Callable[[RuleSet], str | None],
                profiles: frozenset[str]) -> Callable[[RuleSet], str | None]:
    """The engine's claims, first leaving out scenarios played under other profiles."""

    def claim(rules: RuleSet) -> str | None:
        chosen = game.position.profile_name or DEFAULT_PROFILE
        if chosen not in profiles:
            raise _NotSelected(f"played under {chosen}, not under {', '.join(sorted(profiles))}")
        return claims(rules)

    return claim


# -- running ---------------------------------------------------------------------------------------


_MODULE = '''\
"""Generated by durak_spec.spec.runner: the specification, one scenarios() call per file."""

import pytest
from pytest_bdd import scenarios

FEATURE_FILES = {files!r}
BROKEN = {{}}
for _path in FEATURE_FILES:
    try:
        scenarios(_path)
    except Exception as error:  # a file that cannot be read is reported on its own
        BROKEN[_path] = f"{{type(error).__name__}}: {{error}}"

if BROKEN:
    @pytest.mark.parametrize("path", sorted(BROKEN))
    def {broken}(path):
        pytest.fail(BROKEN[path], pytrace=False)
'''


@contextmanager
def _isolated_environment() -> Iterator[None]:
    """Without the variables that would change how pytest runs (restored afterwards)."""
    saved = {name: os.environ.pop(name) for name in _ISOLATED_ENV if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def run(factory: Callable[[], Engine] | None = None, *, rules: Iterable[str] = (),
        tags: Iterable[str] = (), profiles: Iterable[str] = (), keyword: str | None = None,
        trace: bool = False, features: Path | str | Sequence[Path | str] | None = None,
        progress: Progress | None = None, adapt: Adapt | None = None) -> RunResult:
    """Run the specification's scenarios against engines made by ``factory``.

    ``factory`` is called once per scenario (default: :class:`ReferenceEngine`); the
    engine is closed when the scenario ends. ``rules`` and ``tags`` keep the scenarios
    tagged with any of them, ``profiles`` those played under any of them, ``keyword``
    those whose file, line or name contains it (case-insensitive); filters of different
    kinds must all keep a scenario. ``trace`` records the engine's report after every
    step (:attr:`ScenarioResult.trace`). ``features`` is a directory or a list of feature
    files (default: :func:`features_dir`). ``adapt``, given an example's number, the
    engine's capabilities and the rule set its Given steps describe, returns the rule
    set to play it under (the checker plays each scenario under the engine's own values
    of the axes its outcome does not depend on), or a reason to skip it.

    Raises :class:`FilterError` for an unknown rule ID, tag or profile,
    :class:`RunnerError` if pytest cannot run at all, and :class:`KeyboardInterrupt` when
    interrupted.
    """
    filters = _Filters.checked(rules, tags, profiles, keyword)
    directory, files = _resolve_features(features)
    collector = _Collector(factory or ReferenceEngine, filters, directory, files, trace,
                           progress, adapt)
    workdir = Path(tempfile.mkdtemp(prefix="durak-spec-check-"))
    module_name = f"test_durak_spec_{uuid.uuid4().hex}"
    module = workdir / f"{module_name}.py"
    module.write_text(_MODULE.format(files=[str(f) for f in files], broken=_BROKEN_TEST),
                      encoding="utf-8")
    ini = workdir / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    args = [str(module), "-c", str(ini), "--rootdir", str(workdir), "--confcutdir",
            str(workdir), "--import-mode=importlib", "-q", "--no-header", "--tb=short",
            "--disable-plugin-autoload", "-p", "pytest_bdd.plugin",
            "-p", "durak_spec.spec.plugin", "-p", "no:cacheprovider", "-p", "no:faulthandler",
            "-p", "no:stepwise"]
    output = io.StringIO()
    started = time.perf_counter()
    try:
        with _isolated_environment(), redirect_stdout(output), redirect_stderr(output):
            code = pytest.main(args, plugins=[collector])
    finally:
        sys.modules.pop(module_name, None)
        shutil.rmtree(workdir, ignore_errors=True)
    seconds = time.perf_counter() - started
    if collector.interrupted:
        raise KeyboardInterrupt
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED,
                    pytest.ExitCode.NO_TESTS_COLLECTED):
        raise RunnerError(f"pytest could not run the scenarios (exit code {int(code)})",
                          output.getvalue())
    return RunResult(scenarios=tuple(collector.results), features=directory,
                     engine=collector.engine, seconds=seconds,
                     deselected=collector.deselected)


def _resolve_features(features: Path | str | Sequence[Path | str] | None
                      ) -> tuple[Path, list[Path]]:
    if features is None:
        directory = features_dir()
        return directory, _feature_files(directory)
    if isinstance(features, str | Path):
        directory = Path(features).resolve()
        if not directory.is_dir():
            raise FileNotFoundError(f"{directory} is not a directory of feature files")
        return directory, _feature_files(directory)
    files = [Path(f).resolve() for f in features]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"no such feature file: {', '.join(missing)}")
    parents = {f.parent for f in files}
    directory = parents.pop() if len(parents) == 1 else Path(os.path.commonpath(files))
    return directory, files
