"""Run the specification's scenarios against an engine, in-process, and collect the results.

:func:`run` is the Python entry of the conformance checker (``durak-spec check`` prints
what it returns). It reads the feature files once (:mod:`durak_spec.spec.gherkin`, the
reading pytest-bdd uses) and plays each selected example directly: for every step it
calls the one step definition of the step library that matches it, with a fresh
:class:`~durak_spec.spec.steps.GameContext` and engine per example, as pytest-bdd calls
the same functions in the project's own tests (``tests/test_features.py``), where
pytest-bdd stays the binding. No test module is generated and pytest does not run. The
engine comes from a factory that the runner calls once per scenario (the engine is closed
after the scenario); the caller sees :class:`RunResult` and, while the run goes on, its
``progress`` callback.

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
import importlib
import importlib.resources
import inspect
import os
import re
import textwrap
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pytest

from durak_spec.core.errors import InputError
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.positions import DEFAULT_PROFILE
from durak_spec.model.rules import PROFILES, RuleSet
from durak_spec.protocol import Capabilities, Engine, ReferenceEngine, Report, Verdict
from durak_spec.protocol.explain import Difference
from durak_spec.protocol.subprocess_engine import EngineFailure
from durak_spec.spec.diagnosis import diagnose
from durak_spec.spec.gherkin import Example, GherkinError, feature_files, read_specification
from durak_spec.spec.gherkin import Step as ExampleStep
from durak_spec.spec.plugin import KNOWN_TAGS, StepDefinition, claims_of, step_definitions
from durak_spec.spec.steps import STEP_MODULES

if TYPE_CHECKING:
    from durak_spec.spec.context import GameContext

__all__ = [
    "OUTCOMES",
    "Counts",
    "FilterError",
    "Outcome",
    "Progress",
    "RunResult",
    "ScenarioResult",
    "TraceStep",
    "features_dir",
    "run",
]

Outcome = Literal["passed", "failed", "errored", "skipped"]
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "errored", "skipped")

NO_RULE = "(no rule ID)"
"""The group of scenarios that carry no rule ID, in :meth:`RunResult.by_rule`."""

_STEP_MESSAGE = re.compile(r'\AStep "(?P<step>.*?)":\n(?P<message>.*)\Z', re.DOTALL)


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
    named: tuple[str, ...] = ()
    """The moves the scenario expected rejected by a rule that the engine rejected naming
    that rule."""
    diagnosis: Difference | None = None
    """For a failed scenario, what the engine did otherwise than the reference, charged to
    the rule it breaks (:mod:`durak_spec.spec.diagnosis`); ``None`` if nothing but the
    steps tells."""

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
            "diagnosis": None if self.diagnosis is None else {
                "rule": self.diagnosis.rule, "kind": self.diagnosis.kind,
                "detail": self.diagnosis.detail},
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
    if isinstance(packaged, Path) and packaged.is_dir() and feature_files(packaged):
        return packaged
    repository = Path(__file__).resolve().parents[2] / "features"
    if repository.is_dir() and feature_files(repository):
        return repository
    raise FileNotFoundError(f"no feature files: neither {packaged} nor {repository} holds any "
                            ".feature file")



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


# -- the scenario being run ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Meta:
    feature: str
    line: int
    name: str
    tags: frozenset[str]
    rule_ids: tuple[str, ...]
    example: str = ""


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
    game: GameContext | None = None
    current: tuple[str, int] | None = None
    trace: list[TraceStep] = field(default_factory=list)
    step_line: int | None = None
    feature_error: bool = False
    diagnosis: Difference | None = None

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

    def result(self) -> ScenarioResult:
        game = self.game
        profile = players = None
        if game is not None:
            profile = game.position.profile_name or DEFAULT_PROFILE
            players = game.names
        return ScenarioResult(
            feature=self.meta.feature, line=self.meta.line, name=self.meta.name,
            rule_ids=self.meta.rule_ids, tags=tuple(sorted(self.meta.tags)),
            outcome=self.outcome, step=self.step, message=self.message,
            skip_reason=self.skip_reason, profile=profile, players=tuple(players or ()),
            seconds=self.seconds, trace=tuple(self.trace),
            nodeid=f"{self.meta.feature}::{self.meta.example}",
            example=self.meta.example, step_line=self.step_line,
            unnamed=tuple(game.unnamed) if game is not None else (),
            named=tuple(game.named) if game is not None else (),
            feature_error=self.feature_error, diagnosis=self.diagnosis)


def _step_text(step: ExampleStep) -> str:
    return f"{step.keyword} {step.text}"


def _error_text(error: BaseException) -> str:
    if isinstance(error, EngineFailure):
        return str(error)  # already says what the engine did, quoting its line
    text = f"{type(error).__name__}: {error}"
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (raised at {Path(last.filename).name}:{last.lineno} in {last.name})"
    return text


def _message(error: BaseException) -> str:
    return str(getattr(error, "msg", None) or error)


def _snapshot(game: GameContext) -> Report | None:
    """The engine's report, if a game is under way (it changes nothing in the engine)."""
    if not game.started:
        return None
    try:
        return game.engine.report()
    except Exception:  # no game (a refused deal) or a broken engine: nothing to show
        return None


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


_STEP_OUTCOMES = (Exception, pytest.fail.Exception, pytest.skip.Exception)
"""What a step may raise: a failed check (``pytest.fail``, an ``AssertionError``), a skip
(the engine does not claim the rules), or any error of the engine."""


def _definitions() -> list[StepDefinition]:
    """The step library's definitions (importing a step module registers its steps)."""
    for name in STEP_MODULES:
        importlib.import_module(name)
    return step_definitions()


def _read(directory: Path, files: Sequence[Path]
          ) -> tuple[list[Example], list[tuple[Path, str]]]:
    """The examples of the readable files, and each unreadable file with why."""
    try:
        return list(read_specification(list(files)).examples()), []
    except GherkinError:
        pass
    readable: list[Path] = []
    broken: list[tuple[Path, str]] = []
    for path in files:
        try:
            read_specification([path])
        except GherkinError as error:
            broken.append((path, f"{type(error).__name__}: {error}"))
        else:
            readable.append(path)
    examples = list(read_specification(readable).examples()) if readable else []
    return examples, broken


class _Runner:
    """Plays selected examples one by one: the step library's functions, called with a
    fresh engine and :class:`~durak_spec.spec.steps.GameContext` per example, the way
    pytest-bdd calls them in the project's own tests."""

    def __init__(self, factory: Callable[[], Engine], filters: _Filters, trace: bool,
                 adapt: Adapt | None) -> None:
        self.factory = factory
        self.filters = filters
        self.trace = trace
        self.adapt = adapt
        self.definitions = _definitions()
        self.engine = ""

    def play(self, example: Example, meta: _Meta) -> _Pending:
        from durak_spec.spec.context import GameContext

        pending = _Pending(meta)
        started = time.perf_counter()
        try:
            try:
                engine = self.factory()
                if not isinstance(engine, Engine):
                    raise TypeError(f"{engine!r} is not a durak_spec.protocol.Engine")
            except pytest.skip.Exception as skip:  # the factory may decline a scenario
                pending.outcome, pending.skip_reason = "skipped", _message(skip)
                return pending
            except Exception as error:
                pending.fail("errored", None,
                             "while setting up the scenario: " + _error_text(error))
                return pending
            try:
                try:
                    game = GameContext(engine, claims_of(engine))
                except Exception as error:
                    pending.fail("errored", None,
                                 "while setting up the scenario: " + _error_text(error))
                    return pending
                pending.game = game
                if not self.engine:
                    self.engine = engine.capabilities().name
                if self.filters.profiles:
                    game.claims = _restricted(game, game.claims, self.filters.profiles)
                if self.adapt is not None:
                    game.adapt = functools.partial(self.adapt, meta.example,
                                                   engine.capabilities())
                self._steps(example, game, pending)
            finally:
                try:
                    engine.close()
                except Exception as error:
                    pending.fail("errored", None, "after the scenario, closing the engine: "
                                 + _error_text(error))
        finally:
            pending.seconds = time.perf_counter() - started
        profiles = self.filters.profiles
        if profiles and (game.position.profile_name or DEFAULT_PROFILE) not in profiles:
            pending.dropped = True  # a scenario that never asked the engine to claim its rules
        return pending

    def _steps(self, example: Example, game: GameContext, pending: _Pending) -> None:
        for step in example.steps:
            text = _step_text(step)
            pending.current = (text, step.line)
            before = game.verdict
            definition = next((d for d in self.definitions if d.matches(step.type, step.text)),
                              None)
            if definition is None:
                pending.fail("errored", text,
                             f"no step definition matches this step (line {step.line})",
                             feature_error=True)
                return
            game.step = text
            try:
                definition.function(**self._arguments(definition, step, game))
            except _STEP_OUTCOMES as error:
                game.failed = True
                if self._classify(pending, text, error) and self.trace:
                    self._trace(pending, step, before, passed=False, message=_message(error))
                return
            if self.trace:
                self._trace(pending, step, before, passed=True)
        game.step = "(end of the scenario)"
        try:
            game.settle()  # a scenario that ends on a rejected move must say so
        except _STEP_OUTCOMES as error:
            self._classify(pending, pending.current[0] if pending.current else None, error)

    @staticmethod
    def _arguments(definition: StepDefinition, step: ExampleStep,
                   game: GameContext) -> dict[str, object]:
        parsed = definition.parser.parse_arguments(step.text) or {}
        given: dict[str, object] = {
            "game": game, "docstring": step.docstring,
            "datatable": [list(row) for row in step.table], **parsed}
        names = inspect.signature(definition.function).parameters
        return {name: given[name] for name in names if name in given}

    @staticmethod
    def _classify(pending: _Pending, step: str | None, error: BaseException) -> bool:
        """Record what ``error`` makes of the scenario; whether it is a failure of a step
        (not a skip)."""
        if isinstance(error, _NotSelected):
            pending.dropped = True
            return False
        if isinstance(error, pytest.skip.Exception):
            if pending.outcome == "passed":
                pending.outcome = "skipped"
                pending.skip_reason = _message(error)
            return False
        if isinstance(error, pytest.fail.Exception | AssertionError):
            first = pending.outcome not in ("failed", "errored")
            pending.fail("failed", step, _message(error))
            if first and pending.game is not None:
                pending.diagnosis = diagnose(pending.game)
        else:
            pending.fail("errored", step, _error_text(error))
        return True

    def _trace(self, pending: _Pending, step: ExampleStep, before: object, *, passed: bool,
               message: str | None = None) -> None:
        game = pending.game
        report = _snapshot(game) if game is not None else None
        verdict = game.verdict if game is not None else None
        moved = game is not None and verdict is not None and verdict is not before
        if message is not None:
            parsed = _STEP_MESSAGE.match(message)
            message = textwrap.dedent(parsed["message"]).strip() if parsed else message
        pending.trace.append(TraceStep(
            keyword=step.keyword, text=step.text, line=step.line, passed=passed,
            report=report, move=game.move if moved and game is not None else None,
            verdict=verdict if moved else None, message=message))


def run(factory: Callable[[], Engine] | None = None, *, rules: Iterable[str] = (),
        tags: Iterable[str] = (), profiles: Iterable[str] = (), keyword: str | None = None,
        trace: bool = False, features: Path | str | Sequence[Path | str] | None = None,
        progress: Progress | None = None, adapt: Adapt | None = None) -> RunResult:
    """Run the specification's scenarios against engines made by ``factory``.

    ``factory`` is called once per scenario (default: :class:`ReferenceEngine`); the
    engine is closed when the scenario ends. A factory that raises ``pytest.skip``'s
    exception skips the scenario with its reason (the checker does, after an engine has
    timed out too often). ``rules`` and ``tags`` keep the scenarios
    tagged with any of them, ``profiles`` those played under any of them, ``keyword``
    those whose file, line or name contains it (case-insensitive); filters of different
    kinds must all keep a scenario. ``trace`` records the engine's report after every
    step (:attr:`ScenarioResult.trace`). ``features`` is a directory or a list of feature
    files (default: :func:`features_dir`). ``adapt``, given an example's number, the
    engine's capabilities and the rule set its Given steps describe, returns the rule
    set to play it under (the checker plays each scenario under the engine's own values
    of the axes its outcome does not depend on), or a reason to skip it.

    Raises :class:`FilterError` for an unknown rule ID, tag or profile, and
    :class:`KeyboardInterrupt` when interrupted (after closing the scenario's engine).
    """
    filters = _Filters.checked(rules, tags, profiles, keyword)
    directory, files = _resolve_features(features)
    runner = _Runner(factory or ReferenceEngine, filters, trace, adapt)
    started = time.perf_counter()
    examples, broken = _read(directory, files)

    def relative(path: Path) -> str:
        try:
            return path.relative_to(directory).as_posix()
        except ValueError:
            return path.name

    results: list[ScenarioResult] = []
    for path, why in broken:  # a file that cannot be read is reported on its own
        pending = _Pending(_Meta(relative(path), 1, "(the feature file cannot be read)",
                                 frozenset(), (), example=path.name))
        pending.fail("errored", None, why, feature_error=True)
        results.append(pending.result())
    chosen = []
    for example in examples:
        meta = _Meta(relative(example.path), example.line, example.name,
                     frozenset(example.tags), example.rule_ids, example=example.number)
        if filters.keeps(meta):
            chosen.append((example, meta))
    deselected = len(examples) - len(chosen)
    total = len(results) + len(chosen)
    if progress is not None:
        for done, result in enumerate(results, 1):
            progress(done, total, result)
    done = len(results)
    for example, meta in chosen:
        pending = runner.play(example, meta)
        done += 1
        played = None
        if pending.dropped:
            deselected += 1
        else:
            played = pending.result()
            results.append(played)
        if progress is not None:
            progress(done, total, played)
    return RunResult(scenarios=tuple(results), features=directory, engine=runner.engine,
                     seconds=time.perf_counter() - started, deselected=deselected)


def _resolve_features(features: Path | str | Sequence[Path | str] | None
                      ) -> tuple[Path, list[Path]]:
    if features is None:
        directory = features_dir()
        return directory, feature_files(directory)
    if isinstance(features, str | Path):
        directory = Path(features).resolve()
        if not directory.is_dir():
            raise FileNotFoundError(f"{directory} is not a directory of feature files")
        return directory, feature_files(directory)
    files = [Path(f).resolve() for f in features]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"no such feature file: {', '.join(missing)}")
    parents = {f.parent for f in files}
    directory = parents.pop() if len(parents) == 1 else Path(os.path.commonpath(files))
    return directory, files
