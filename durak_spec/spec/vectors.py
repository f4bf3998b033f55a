"""The specification's scenarios as portable test vectors (layer 6).

Every example of the feature files (:mod:`durak_spec.spec.gherkin`, each outline row once)
becomes a :class:`~durak_spec.spec.vector_format.Vector`: its number, title, rule IDs and
sources, its rules, its players and its steps in the closed vocabulary of
:mod:`durak_spec.spec.vector_format`. Nothing is recorded from an engine: each step is
matched to its one definition in the step library, exactly as the scenario runner does,
and

* a ``Given`` step is *run*: its definition describes the position, here on a
  :class:`~durak_spec.spec.vector_steps.Describer` instead of a game, so the vectors
  start from the very position the scenarios load
  (:meth:`~durak_spec.game.positions.Position.build`);
* a ``When`` or ``Then`` step is *translated* by the translator registered for its
  definition (:data:`~durak_spec.spec.vector_steps.TRANSLATORS`, keyed by the
  definition's function name), from the arguments its pattern parsed: the moves become
  ``act`` or ``deal`` items, a ``Then it is rejected by R`` the verdict of the move before
  it, every other ``Then`` an expectation.

A step definition without a translator is a failure of :func:`translate` (a test holds the
translators to the step library); a step the vocabulary cannot say is listed in
:data:`NOT_PORTABLE` with why, and its example is left out of the vectors and listed in the
document's ``not_portable``.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import msgspec

from durak_spec.core.ruleindex import load_rule_index
from durak_spec.core.version import __version__
from durak_spec.model.rules import AXES, PROFILES, Axis, RuleSet
from durak_spec.spec import vector_format as vf
from durak_spec.spec.gherkin import Example, read_specification
from durak_spec.spec.gherkin import Step as ExampleStep
from durak_spec.spec.plugin import StepDefinition, step_definitions
from durak_spec.spec.steps import STEP_MODULES
from durak_spec.spec.vector_steps import (
    NOT_PORTABLE,
    TRANSLATORS,
    Describer,
    NotPortable,
    Translation,
    VectorError,
)

__all__ = [
    "NOT_PORTABLE",
    "PINNED",
    "TRANSLATORS",
    "VectorError",
    "build_document",
    "digest",
    "translate",
    "translate_all",
]


# -- examples ----------------------------------------------------------------------------------


def _definitions() -> list[StepDefinition]:
    for name in STEP_MODULES:
        importlib.import_module(name)
    return step_definitions(*STEP_MODULES)


def _function_name(definition: StepDefinition) -> str:
    return str(getattr(definition.function, "__name__", "?"))


def translate(example: Example, features: Path,
              dependencies: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
              definitions: Sequence[StepDefinition] | None = None
              ) -> vf.Vector | vf.NotPortable:
    """One example as a vector, or why it cannot be one. Raises :class:`VectorError` for a
    step no definition matches or one the position refuses."""
    defs = list(definitions) if definitions is not None else _definitions()
    t = Translation(Describer(example.number))
    for step in example.steps:
        t.text = f"{step.keyword} {step.text}"
        t.game.step = t.text
        definition = next((d for d in defs if d.matches(step.type, step.text)), None)
        if definition is None:
            t.fail("no step definition matches this step")
        arguments = _arguments(definition, step)
        if step.type == "given":
            definition.function(game=t.game, **arguments)
            continue
        translator = TRANSLATORS.get(_function_name(definition))
        if translator is None:
            t.fail(f"the step definition {definition.name} has no vector translator")
        try:
            translator(t, **arguments)
        except NotPortable as why:
            return vf.NotPortable(example=example.number, title=example.name, step=t.text,
                                  reason=str(why))
    if not t.steps:
        t.text = "(end of the scenario)"
        t.begin()
    index = load_rule_index()
    rules = t.rules or t.game.position.rule_set()
    depends = (dependencies or {}).get(example.number, {})
    try:
        feature = example.path.relative_to(features).as_posix()
    except ValueError:
        feature = example.path.name
    return vf.Vector(
        example=example.number, title=example.name, feature=feature, line=example.line,
        rule_ids=list(example.rule_ids),
        sources={rule: list(index[rule].sources) for rule in example.rule_ids},
        rules=rules.to_dict(), depends_on={a: list(v) for a, v in sorted(depends.items())},
        players=list(t.names), steps=t.steps)


def _arguments(definition: StepDefinition, step: ExampleStep) -> dict[str, Any]:
    parsed = definition.parser.parse_arguments(step.text) or {}
    given: dict[str, Any] = {"docstring": step.docstring,
                             "datatable": [list(row) for row in step.table], **parsed}
    names = inspect.signature(definition.function).parameters
    return {name: given[name] for name in names if name in given}


def translate_all(features: Path | None = None,
                  dependencies: Mapping[str, Mapping[str, Sequence[str]]] | None = None
                  ) -> tuple[list[vf.Vector], list[vf.NotPortable]]:
    """Every example of the features (default: the specification's) translated."""
    from durak_spec.spec.runner import features_dir

    directory = features or features_dir()
    spec = read_specification(directory)
    defs = _definitions()
    vectors: list[vf.Vector] = []
    left: list[vf.NotPortable] = []
    for example in spec.examples():
        done = translate(example, directory, dependencies, defs)
        (vectors if isinstance(done, vf.Vector) else left).append(done)  # type: ignore[arg-type]
    return vectors, left


PINNED: Final = MappingProxyType({
    "0.1.0": "134459a0149fe7da4a8a06b870068481f9230c7e806f443826271afc958abb85",
    "0.2.0": "70c5d63127fc6472882075128d6e5348967847ea72f7b3e87bdacfe7321fb346",
    "0.3.0": "138587a82cee1ebea80af5630cdd0b2dd8e7c9a4ce8502594dc2767ede634817",
})
"""Per version of the specification (:data:`durak_spec.core.version.__version__`), the
:func:`digest` of its vectors. A change of an expected outcome changes the digest; a test
then fails until the version is raised and its digest added here: a pinned version of the
suite means the same expectations everywhere."""

_WORDING: Final = ("title", "feature", "line", "text")
"""What a vector says only for readers: its digest leaves them out."""


def digest(vectors: Sequence[vf.Vector]) -> str:
    """SHA-256 of what the vectors expect (their compact JSON without titles, places and
    step texts): a change of it is a change of an expected outcome, which
    :data:`PINNED` ties to a new version of the specification."""

    def meaning(value: object) -> object:
        if isinstance(value, dict):
            return {k: meaning(v) for k, v in value.items() if k not in _WORDING}
        if isinstance(value, list):
            return [meaning(v) for v in value]
        return value

    return hashlib.sha256(msgspec.json.encode(meaning(msgspec.to_builtins(vectors)))
                          ).hexdigest()


def build_document(dependencies: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
                   perft: Mapping[str, Any] | None = None, features: Path | None = None
                   ) -> vf.Document:
    """The whole document: the vectors of every example, the examples left out, and the
    perft tables (given by the caller, who reads them)."""
    vectors, left = translate_all(features, dependencies)
    default = RuleSet()
    axes = {axis.name: vf.AxisValues(
        values=[str(m.value) for m in axis.enum] if axis.enum is not None else ["on", "off"],
        default=Axis.format(getattr(default, axis.name))) for axis in AXES
        if axis.name != "players"}
    profiles = {name: known.base.to_dict() for name, known in PROFILES.items()}
    return vf.Document(format=vf.FORMAT, version=vf.FORMAT_VERSION,
                       specification=__version__, digest=digest(vectors), axes=axes,
                       profiles=profiles, vectors=vectors, not_portable=left,
                       perft=dict(perft or {}))
