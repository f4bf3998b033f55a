"""The pytest plugin of the executable specification.

Load it with ``pytest_plugins = ["durak_spec.spec.plugin"]`` in a ``conftest.py`` (or
``pytest -p durak_spec.spec.plugin``); it registers the step library
(the modules of :mod:`durak_spec.spec.steps`) with it. It provides:

* the ``engine`` fixture: the reference engine, unless another is injected, either with
  ``--durak-engine MODULE:FACTORY`` (a callable that returns an
  :class:`~durak_spec.protocol.Engine`) or by a plugin implementing the hook
  ``pytest_durak_make_engine(config)``; a ``conftest.py`` may also override the fixture;
* the ``engine_claims`` fixture (which rule sets the engine claims to play; a scenario
  whose rules are not claimed is skipped with the reason) and the ``game`` fixture, the
  scenario's :class:`~durak_spec.spec.context.GameContext`;
* a marker for every rule ID of the rule index and every known tag
  (:data:`KNOWN_TAGS`), so ``pytest -m BEAT-3`` runs exactly the examples of BEAT-3;
* the checks that keep the feature files honest, as functions the test suite calls:
  :func:`ambiguous_steps`, :func:`undefined_steps`, :func:`unknown_tags`,
  :func:`untagged_rule_ids`, :func:`duplicate_scenarios`, :func:`tag_problems`,
  :func:`rule_shape_problems`, :func:`shared_rule_ids`. pytest-bdd resolves a step that
  two definitions match silently, and finds an undefined step only when the scenario
  runs; these checks catch both for every step of every feature (every row of every
  outline) up front.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType

import pytest
from pytest_bdd.parser import Step
from pytest_bdd.parsers import StepParser
from pytest_bdd.steps import step_function_context_registry

from durak_spec.core.ruleindex import SOURCES, load_rule_index
from durak_spec.model.rules import PROFILES
from durak_spec.protocol import Engine, ReferenceEngine
from durak_spec.spec.context import Claims, GameContext
from durak_spec.spec.gherkin import Scenario, Specification, feature_files, read_specification
from durak_spec.spec.steps import STEP_MODULES

__all__ = [
    "KIND_TAGS",
    "KNOWN_TAGS",
    "FeatureStep",
    "StepDefinition",
    "ambiguous_steps",
    "claims_of",
    "duplicate_scenarios",
    "feature_files",
    "feature_steps",
    "make_engine",
    "rule_shape_problems",
    "scenario_tags",
    "shared_rule_ids",
    "step_definitions",
    "step_examples",
    "tag_problems",
    "undefined_steps",
    "unknown_tags",
    "untagged_rule_ids",
]

pytest_plugins = STEP_MODULES  # the step library: every module that defines steps

KIND_TAGS: Mapping[str, str] = MappingProxyType({
    "variant": "a point where the sources differ: a switch of the rule set",
    "clarification": "the sources are silent: the specification decides, and says so",
    "example": "a worked example of a source, with the source's own cards",
    "fact": "a fact about the deck or the game",
    "tip": "a tip for players, shown as the mechanism behind it",
})
"""Tags that say what kind of rule a Rule or Example encodes (the rule index's kinds)."""

KNOWN_TAGS: Mapping[str, str] = MappingProxyType({
    **{f"source-{s}": f"stated by source {s}" for s in SOURCES},
    **KIND_TAGS,
    **{f"profile-{name}": f"played under the profile {name}" for name in PROFILES},
})
"""Every tag a feature may use besides the rule IDs of the rule index."""

MIN_EXAMPLES, MAX_EXAMPLES = 2, 4
"""How many examples (scenarios, an outline counting once) every Rule: has."""


# -- engine injection -------------------------------------------------------------------------


class DurakHookSpecs:
    """Hooks of this plugin."""

    @pytest.hookspec(firstresult=True)
    def pytest_durak_make_engine(self, config: pytest.Config) -> Engine | None:
        """Return the engine the scenarios should check, or ``None`` for the default.

        Called once per scenario; the engine is closed after it.
        """


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(DurakHookSpecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("durak-spec", "Durak specification")
    group.addoption("--durak-engine", metavar="MODULE:FACTORY", default=None,
                    help="check this engine instead of the reference: a callable returning "
                         "a durak_spec.protocol.Engine, e.g. mypkg.engines:make_engine")


def make_engine(config: pytest.Config) -> Engine:
    """The engine for one scenario: from the hook, the option, or the reference engine."""
    made = config.hook.pytest_durak_make_engine(config=config)
    if made is None:
        spec = config.getoption("durak_engine", None)
        made = _load_factory(spec)() if spec else ReferenceEngine()
    if not isinstance(made, Engine):
        raise pytest.UsageError(f"{made!r} is not a durak_spec.protocol.Engine")
    return made


def _load_factory(spec: str) -> Callable[[], object]:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise pytest.UsageError(f"--durak-engine {spec!r}: write MODULE:FACTORY")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise pytest.UsageError(f"--durak-engine {spec!r}: {error}") from None
    if not callable(factory):
        raise pytest.UsageError(f"--durak-engine {spec!r} is not callable")
    return factory  # type: ignore[no-any-return]


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """The engine the scenario checks (closed afterwards)."""
    made = make_engine(request.config)
    yield made
    made.close()


def claims_of(engine: Engine) -> Claims:
    """Whether ``engine`` claims a rule set: a function giving ``None`` if so, else why not.

    The engine answers through its capabilities: whole profiles, or axis values it plays
    in any combination (the reference declares every value of every axis).
    """
    return engine.capabilities().supports


@pytest.fixture
def engine_claims(engine: Engine) -> Claims:
    """Whether the scenario's engine claims a rule set (see :func:`claims_of`)."""
    return claims_of(engine)


@pytest.fixture
def game(engine: Engine, engine_claims: Claims) -> GameContext:
    """The scenario's game: described by Given steps, played by When, checked by Then."""
    return GameContext(engine, engine_claims)


# -- markers and step bookkeeping -------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    for entry in load_rule_index().entries:
        config.addinivalue_line("markers", f"{entry.id}: {entry.title} ({entry.kind})")
    for tag, meaning in KNOWN_TAGS.items():
        config.addinivalue_line("markers", f"{tag}: {meaning}")


_GAME = pytest.StashKey["GameContext"]()


def pytest_bdd_before_step(request: pytest.FixtureRequest, step_func: Callable[..., object],
                           step: Step) -> None:
    """Tell the scenario's game which step runs, so failures can quote it."""
    if getattr(step_func, "__module__", None) not in STEP_MODULES:
        return
    context = request.getfixturevalue("game")
    if isinstance(context, GameContext):
        context.step = f"{step.keyword.strip()} {step.name}"
        request.node.stash[_GAME] = context


def pytest_bdd_step_error(request: pytest.FixtureRequest) -> None:
    context = request.node.stash.get(_GAME, None)
    if context is not None:
        context.failed = True


def pytest_bdd_after_scenario(request: pytest.FixtureRequest) -> None:
    """A scenario that ends on a rejected move must say so with ``Then it is rejected``."""
    context = request.node.stash.get(_GAME, None)
    if context is not None and not context.failed:
        context.step = "(end of the scenario)"
        context.settle()


# -- reading features ------------------------------------------------------------------------
# Every function below reads the feature files through the shared model of
# durak_spec.spec.gherkin, the one reading the runner and the book use as well.


def _specification(paths: Iterable[Path]) -> Specification:
    return read_specification(list(paths))


@dataclass(frozen=True)
class FeatureStep:
    """One step of one example (one row of an outline), as pytest-bdd will run it."""

    path: Path
    line: int
    scenario: str
    type: str
    keyword: str
    text: str
    example: str = ""

    def where(self) -> str:
        number = f"{self.example} " if self.example else ""
        return (f"{number}{self.path.name}:{self.line} ({self.scenario}): {self.keyword} "
                f"{self.text}")


def feature_steps(paths: Iterable[Path]) -> Iterator[FeatureStep]:
    """Every step of every example, rendered for every row of every Examples table."""
    for example in _specification(paths).examples():
        for step in example.steps:
            yield FeatureStep(example.path, step.line, example.name, step.type, step.keyword,
                              step.text, example.number)


@dataclass(frozen=True)
class StepDefinition:
    """A step definition: its type (given/when/then, or any), its parser and function."""

    type: str | None
    parser: StepParser
    function: Callable[..., object]

    @property
    def pattern(self) -> str:
        return self.parser.name

    @property
    def name(self) -> str:
        return f"{self.function.__module__}.{getattr(self.function, '__name__', '?')}"

    def matches(self, step_type: str, text: str) -> bool:
        return (self.type is None or self.type == step_type) and self.parser.is_matching(text)


def step_definitions(*modules: ModuleType | str) -> list[StepDefinition]:
    """The step definitions made in these modules (default: the step library and pytest-bdd)."""
    names = {m if isinstance(m, str) else m.__name__ for m in modules} or {
        *STEP_MODULES, "pytest_bdd.plugin"}
    found = [StepDefinition(c.type, c.parser, c.step_func)
             for c in list(step_function_context_registry.values())
             if getattr(c.step_func, "__module__", None) in names]
    return sorted(found, key=lambda d: (d.name, d.type or "", d.pattern))


_PARAMETER = re.compile(r"<[^<>\s]+>")


def undefined_steps(paths: Iterable[Path], definitions: Sequence[StepDefinition]) -> list[str]:
    """Steps that no definition matches, and outline parameters left unfilled."""
    problems = []
    for step in feature_steps(paths):
        if _PARAMETER.search(step.text):
            problems.append(f"{step.where()}  <- an outline parameter has no Examples column")
        elif not any(d.matches(step.type, step.text) for d in definitions):
            problems.append(f"{step.where()}  <- no step definition matches")
    return problems


def ambiguous_steps(paths: Iterable[Path], definitions: Sequence[StepDefinition]) -> list[str]:
    """Steps that two or more definitions match (pytest-bdd would pick one silently)."""
    problems = []
    for step in feature_steps(paths):
        matching = [d for d in definitions if d.matches(step.type, step.text)]
        if len(matching) > 1:
            names = "; ".join(f"{d.name} /{d.pattern}/" for d in matching)
            problems.append(f"{step.where()}  <- matched by {names}")
    return problems


_EXAMPLE = re.compile(r"^\s*Example:\s*(?P<keyword>Given|When|Then)\s+(?P<text>.+?)\s*$",
                      re.MULTILINE)


def step_examples(definitions: Sequence[StepDefinition]) -> list[tuple[StepDefinition, str, str]]:
    """The ``Example:`` lines of each definition's docstring: (definition, keyword, text)."""
    found = []
    for definition in definitions:
        for match in _EXAMPLE.finditer(definition.function.__doc__ or ""):
            found.append((definition, match["keyword"], match["text"]))
    return found


# -- tags ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tagged:
    """A Rule, or a scenario, with its own tags."""

    path: Path
    line: int
    kind: str
    name: str
    tags: frozenset[str]
    description: str

    def where(self) -> str:
        return f"{self.path.name}:{self.line} {self.kind} '{self.name}'"


def _tagged(paths: Iterable[Path]) -> Iterator[tuple[_Tagged, list[_Tagged]]]:
    """Every Rule with its scenarios (and every scenario outside a Rule, with none)."""
    for feature in _specification(paths).features:
        for scenario in feature.loose:
            yield (_scenario_tagged(scenario), [])
        for rule in feature.rules:
            yield (_Tagged(rule.path, rule.line, "Rule", rule.name, frozenset(rule.tags),
                           rule.description),
                   [_scenario_tagged(s) for s in rule.scenarios])


def _scenario_tagged(scenario: Scenario) -> _Tagged:
    own = set(scenario.tags)
    for example in scenario.examples:
        own |= set(example.own_tags)
    return _Tagged(scenario.path, scenario.line, scenario.keyword, scenario.name,
                   frozenset(own), scenario.description)


def scenario_tags(paths: Iterable[Path]) -> dict[str, frozenset[str]]:
    """Each scenario's effective tags (its own, its Rule's, its feature's, its Examples')."""
    found: dict[str, frozenset[str]] = {}
    for feature in _specification(paths).features:
        for scenario in feature.scenarios():
            tags: set[str] = set()
            for example in scenario.examples:
                tags |= set(example.tags)
            found[f"{scenario.path.name}:{scenario.line} {scenario.name}"] = frozenset(tags)
    return found


def unknown_tags(paths: Iterable[Path]) -> list[str]:
    """Tags that are neither a rule ID of the index nor a known tag."""
    index = load_rule_index()
    problems = []
    for where, tags in scenario_tags(paths).items():
        for tag in sorted(tags):
            if tag not in index and tag not in KNOWN_TAGS:
                close = difflib.get_close_matches(tag, [*index, *KNOWN_TAGS], n=3)
                hint = f"; did you mean {', '.join('@' + c for c in close)}?" if close else ""
                problems.append(f"{where}: unknown tag @{tag}{hint}")
    return problems


def untagged_rule_ids(paths: Iterable[Path]) -> list[str]:
    """Rule-index IDs (the glossary aside) that no scenario is tagged with."""
    index = load_rule_index()
    used = set().union(*scenario_tags(paths).values())
    return [entry.id for entry in index.entries
            if entry.kind != "glossary" and entry.id not in used]


def duplicate_scenarios(paths: Iterable[Path]) -> list[str]:
    """Scenario names used twice in one feature file (pytest-bdd keeps only the last)."""
    problems = []
    for path in paths:
        seen: dict[str, int] = {}
        for rule, scenarios in _tagged([path]):
            for item in scenarios or ([rule] if rule.kind != "Rule" else []):
                if item.name in seen:
                    problems.append(f"{path.name}:{item.line} scenario '{item.name}' has the "
                                    f"name of the scenario at line {seen[item.name]}")
                seen.setdefault(item.name, item.line)
    return problems


def tag_problems(paths: Iterable[Path]) -> list[str]:
    """Tags that disagree with the rule index.

    On a Rule or scenario tagged with rule IDs, the ``@source-*`` tags must be exactly the
    sources the index gives for those IDs, and the kind tags (``@variant``,
    ``@clarification``, ``@example``, ``@fact``, ``@tip``) must name every kind among them
    (an ID flagged as a clarification needs ``@clarification``). Something tagged
    ``@clarification`` must say in its text that the specification decides it.
    """
    index = load_rule_index()
    problems = []
    for rule, scenarios in _tagged(paths):
        for item in [rule, *scenarios]:
            ids = sorted(t for t in item.tags if t in index)
            if ids:
                wanted = {s for i in ids for s in index[i].sources}
                cited = {t.removeprefix("source-") for t in item.tags if t.startswith("source-")}
                if cited != wanted:
                    problems.append(f"{item.where()}: {', '.join(ids)} "
                                    f"{'are' if len(ids) > 1 else 'is'} stated by "
                                    f"{_sources(wanted)}, but the tags cite {_sources(cited)}")
                kinds = {index[i].kind for i in ids} & set(KIND_TAGS)
                kinds |= {"clarification"} if any(index[i].clarification for i in ids) else set()
                for kind in sorted(kinds - item.tags):
                    problems.append(f"{item.where()}: tagged {', '.join(ids)}, so it needs "
                                    f"@{kind}")
            if "clarification" in item.tags and "specification" not in (
                    item.description + rule.description).lower():
                problems.append(f"{item.where()} is a @clarification: its text must say that "
                                "this is the specification's decision")
    return problems


def _sources(sources: Iterable[str]) -> str:
    listed = sorted(sources)
    return ", ".join(listed) if listed else "no source"


def shared_rule_ids(paths: Iterable[Path]) -> list[str]:
    """Rule IDs tagged on more than one Rule or Example: every ID has one home.

    A Rule carries the IDs it states; an Example carries an ID of its own only for a
    worked example of a source (``@EX-3``). Two Rules with the same ID would give the
    rule two sections and make ``-m ID`` and the book's references ambiguous.
    """
    index = load_rule_index()
    homes: dict[str, list[_Tagged]] = {}
    for rule, scenarios in _tagged(paths):
        for item in [rule, *scenarios]:
            for rule_id in sorted(t for t in item.tags if t in index):
                homes.setdefault(rule_id, []).append(item)
    return [f"@{rule_id} is on {len(items)} places: "
            + "; ".join(item.where() for item in items)
            for rule_id, items in homes.items() if len(items) > 1]


def rule_shape_problems(paths: Iterable[Path]) -> list[str]:
    """Rules without a rule ID, or with fewer than two or more than four examples."""
    index = load_rule_index()
    problems = []
    for rule, scenarios in _tagged(paths):
        if rule.kind != "Rule":
            continue
        if not any(t in index for t in rule.tags):
            problems.append(f"{rule.where()} carries no rule ID tag")
        if not MIN_EXAMPLES <= len(scenarios) <= MAX_EXAMPLES:
            problems.append(f"{rule.where()} has {len(scenarios)} examples; a Rule has "
                            f"{MIN_EXAMPLES} to {MAX_EXAMPLES}")
    return problems
