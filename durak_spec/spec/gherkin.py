"""The feature files, read once into one model that the runner, the plugin and the book share.

The specification's ``.feature`` files are read here and nowhere else: with the same
Gherkin parser pytest-bdd uses (:func:`pytest_bdd.gherkin_parser.get_gherkin_document`),
into frozen values: a :class:`Specification` of :class:`Feature`\\ s, each with its
:class:`Rule`\\ s, each with its :class:`Scenario`\\ s. A scenario is what the file writes
(an ``Example:`` or a ``Scenario Outline:`` with its ``Examples:`` table); an
:class:`Example` is one runnable case: the scenario itself, or one row of an outline with
its placeholders filled in (name, steps, doc strings and tables), exactly as pytest-bdd
runs it.

Example numbers
---------------
Every example has a number that the book shows and the checker, its JSON and JUnit
reports and the command line cite (instead of ``file:line``, which moves with every edit):

* ``BEAT-2.3`` is the third example of the rule BEAT-2: the ID is the first rule ID
  among the tags of the ``Rule:`` the example stands under (its *primary* ID), the
  ordinal counts that Rule's scenarios in the order the file writes them, from 1;
* ``VAR-1.2c`` is the third row (``a``, ``b``, ``c``, ...) of the outline that is the
  second scenario of VAR-1's Rule; an outline with one row gets no letter;
* a scenario outside any Rule counts under its own first rule ID tag, else under the
  feature file's name.

If two Rules share a primary ID, the second continues the first one's count, so numbers
are unique. A number changes only when examples are inserted before it under the same
rule, or an outline row above it is removed; appending an example changes no number.
:meth:`Specification.example` finds an example by number (case-insensitive).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from durak_spec.core.errors import InputError
from durak_spec.core.ruleindex import load_rule_index

__all__ = [
    "Example",
    "Feature",
    "GherkinError",
    "Rule",
    "Scenario",
    "Specification",
    "Step",
    "StepType",
    "feature_files",
    "read_specification",
]

StepType = Literal["given", "when", "then"]

_PLACEHOLDER = re.compile(r"<([^<>]+)>")
_KEYWORD_TYPES: Mapping[str, StepType] = MappingProxyType(
    {"Context": "given", "Action": "when", "Outcome": "then"})


class GherkinError(InputError):
    """A feature file that cannot be read as Gherkin (the message names the file and line)."""

    code = "gherkin"


# -- the values ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One step as the file writes it, or as an outline row fills it in."""

    keyword: str
    """``Given``, ``When``, ``Then``, ``And`` or ``But``."""
    type: StepType
    """What the step is, ``And``/``But`` taking the type of the step before."""
    text: str
    line: int
    docstring: str | None = None
    table: tuple[tuple[str, ...], ...] = ()

    def filled(self, values: Mapping[str, str]) -> Step:
        return Step(self.keyword, self.type, _fill(self.text, values), self.line,
                    None if self.docstring is None else _fill(self.docstring, values),
                    tuple(tuple(_fill(c, values) for c in row) for row in self.table))


@dataclass(frozen=True, slots=True)
class Example:
    """One runnable example: a scenario, or one row of an outline, filled in."""

    number: str
    """``BEAT-2.3`` or ``VAR-1.2c`` (see the module's docstring)."""
    path: Path
    line: int
    """The scenario's line, or the line of its row in the Examples table."""
    scenario_line: int
    row: int | None
    """The row's index among all rows of the outline (from 0); ``None`` for a scenario."""
    name: str
    description: str
    steps: tuple[Step, ...]
    """The background's steps, then the scenario's, placeholders filled in."""
    tags: tuple[str, ...]
    """Every tag in effect, without ``@``: the feature's, the Rule's, the scenario's and
    its Examples table's, in that order, each once."""
    own_tags: tuple[str, ...]
    """The scenario's own tags and its Examples table's."""
    rule_ids: tuple[str, ...]
    """The tags in effect that are rule-index IDs, in rule-index order."""
    values: tuple[tuple[str, str], ...] = ()
    """The row's values by column (empty for a scenario)."""

    @property
    def where(self) -> str:
        """``03_beating.feature:25``: the file and the line of the scenario or row."""
        return f"{self.path.name}:{self.line}"

    @property
    def anchor(self) -> str:
        """The element id of the example in the book: its number."""
        return self.number


@dataclass(frozen=True, slots=True)
class Scenario:
    """An ``Example:``/``Scenario:`` or a ``Scenario Outline:`` as the file writes it."""

    path: Path
    line: int
    keyword: str
    name: str
    description: str
    tags: tuple[str, ...]
    """Its own tags (not its Rule's or feature's, not its Examples tables')."""
    steps: tuple[Step, ...]
    header: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()
    """One example for a scenario, one per row for an outline."""

    @property
    def is_outline(self) -> bool:
        return bool(self.header)


@dataclass(frozen=True, slots=True)
class Rule:
    """A ``Rule:`` with its tags, statement (its description) and scenarios."""

    path: Path
    line: int
    name: str
    description: str
    tags: tuple[str, ...]
    ids: tuple[str, ...]
    """Its tags that are rule-index IDs, in the order written; the first is its primary ID."""
    background: tuple[Step, ...]
    scenarios: tuple[Scenario, ...]

    @property
    def primary(self) -> str | None:
        return self.ids[0] if self.ids else None

    def examples(self) -> Iterator[Example]:
        for scenario in self.scenarios:
            yield from scenario.examples

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature file."""

    path: Path
    name: str
    description: str
    tags: tuple[str, ...]
    background: tuple[Step, ...]
    rules: tuple[Rule, ...]
    loose: tuple[Scenario, ...]
    """Scenarios outside any Rule."""

    def scenarios(self) -> Iterator[Scenario]:
        yield from self.loose
        for rule in self.rules:
            yield from rule.scenarios

    def examples(self) -> Iterator[Example]:
        for scenario in self.scenarios():
            yield from scenario.examples

    @property
    def chapter_stem(self) -> str:
        """The file's name without its number: ``beating`` for ``03_beating.feature``."""
        return re.sub(r"^[0-9]+[_-]*", "", self.path.stem).replace("_", "-").lower()


@dataclass(frozen=True)
class Specification:
    """Every feature file of a directory (or a list of files), read and numbered."""

    directory: Path
    features: tuple[Feature, ...]
    _by_number: Mapping[str, Example] = field(repr=False, default_factory=dict)
    _by_place: Mapping[tuple[Path, int, int | None], Example] = field(repr=False,
                                                                      default_factory=dict)

    def examples(self) -> Iterator[Example]:
        for feature in self.features:
            yield from feature.examples()

    def rules(self) -> Iterator[tuple[Feature, Rule]]:
        for feature in self.features:
            for rule in feature.rules:
                yield feature, rule

    def example(self, number: str) -> Example:
        """The example with this number; :class:`KeyError` names close numbers."""
        found = self._by_number.get(number.strip().upper())
        if found is None:
            import difflib

            close = difflib.get_close_matches(number.strip().upper(), list(self._by_number),
                                              n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise KeyError(f"no example {number!r} in the specification{hint}")
        return found

    def at(self, path: Path | str, scenario_line: int, row: int | None = None) -> Example | None:
        """The example of the scenario at ``scenario_line`` of ``path`` (and row)."""
        return self._by_place.get((Path(path).resolve(), scenario_line, row))


# -- reading -------------------------------------------------------------------------------


def feature_files(directory: Path | str) -> list[Path]:
    """The ``.feature`` files under ``directory``, sorted."""
    return sorted(Path(directory).rglob("*.feature"))


def _fill(text: str, values: Mapping[str, str]) -> str:
    if not values:
        return text
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _tags(nodes: Iterable[object]) -> tuple[str, ...]:
    return tuple(str(getattr(t, "name", "")).lstrip("@") for t in nodes)


def _unique(*groups: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for group in groups for t in group))


def _steps(nodes: Iterable[object]) -> tuple[Step, ...]:
    steps: list[Step] = []
    previous: StepType = "given"
    for node in nodes:
        keyword_type = str(getattr(node, "keyword_type", ""))
        kind = _KEYWORD_TYPES.get(keyword_type, previous)
        previous = kind
        doc = getattr(node, "docstring", None)
        table = getattr(node, "datatable", None)
        rows = tuple(tuple(str(c.value) for c in row.cells) for row in table.rows) \
            if table is not None else ()
        steps.append(Step(keyword=str(getattr(node, "keyword", "")).strip(), type=kind,
                          text=str(getattr(node, "text", "")),
                          line=int(node.location.line),  # type: ignore[attr-defined]
                          docstring=str(doc.content) if doc is not None else None, table=rows))
    return tuple(steps)


def _row_label(index: int, count: int) -> str:
    if count == 1:
        return ""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[index] if index < len(letters) else f"-{index + 1}"


class _Numbers:
    """Hands out example numbers: per primary ID, an ordinal per scenario."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}

    def next(self, key: str) -> str:
        self.count[key] = self.count.get(key, 0) + 1
        return f"{key}.{self.count[key]}"


@dataclass(frozen=True, slots=True)
class _Context:
    path: Path
    inherited: tuple[str, ...]
    background: tuple[Step, ...]
    key: str
    order: Mapping[str, int]


def _scenario(node: object, context: _Context, numbers: _Numbers) -> Scenario:
    own = _tags(getattr(node, "tags", ()))
    steps = _steps(getattr(node, "steps", ()))
    keyword = str(getattr(node, "keyword", "")).strip()
    name = str(getattr(node, "name", ""))
    description = str(getattr(node, "description", "") or "")
    line = int(node.location.line)  # type: ignore[attr-defined]
    ids_here = [t for t in own if t in context.order]
    key = context.key if context.key else (ids_here[0] if ids_here else context.path.stem)
    number = numbers.next(key).upper()
    blocks = list(getattr(node, "examples", ()) or ())
    header: tuple[str, ...] = ()
    rows: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []
    for block in blocks:
        head = block.table_header
        if head is not None and not header:
            header = tuple(str(c.value) for c in head.cells)
        for row in block.table_body or ():
            rows.append((int(row.location.line), tuple(str(c.value) for c in row.cells),
                         _tags(block.tags)))

    def example(row: int | None, at: int, values: Mapping[str, str],
                block_tags: tuple[str, ...], label: str) -> Example:
        tags = _unique(context.inherited, own, block_tags)
        rule_ids = tuple(sorted((t for t in tags if t in context.order),
                                key=context.order.__getitem__))
        return Example(
            number=number + label, path=context.path, line=at, scenario_line=line, row=row,
            name=_fill(name, values), description=_fill(description, values),
            steps=tuple(s.filled(values) for s in (*context.background, *steps)),
            tags=tags, own_tags=_unique(own, block_tags), rule_ids=rule_ids,
            values=tuple(values.items()))

    if blocks:
        made = tuple(example(i, at, dict(zip(header, cells, strict=False)), block_tags,
                             _row_label(i, len(rows)))
                     for i, (at, cells, block_tags) in enumerate(rows))
    else:
        made = (example(None, line, {}, (), ""),)
    return Scenario(path=context.path, line=line, keyword=keyword, name=name,
                    description=description, tags=own, steps=steps,
                    header=header if blocks else (), examples=made)


def _read_feature(path: Path, numbers: _Numbers, order: Mapping[str, int]) -> Feature:
    from pytest_bdd.gherkin_parser import get_gherkin_document

    try:
        document = get_gherkin_document(str(path))
    except OSError as error:
        raise GherkinError(f"{path.name} cannot be read: {error.strerror or error}") from None
    except Exception as error:  # the parser raises its own types, each with file and line
        message = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        raise GherkinError(f"{path.name} cannot be read as Gherkin: {message}") from None
    node = getattr(document, "feature", None)
    if node is None:
        raise GherkinError(f"{path.name} holds no Feature")
    feature_tags = _tags(node.tags)
    background: tuple[Step, ...] = ()
    rules: list[Rule] = []
    loose: list[Scenario] = []
    for child in node.children:
        if child.background is not None:
            background = _steps(child.background.steps)
        elif child.scenario is not None:
            loose.append(_scenario(child.scenario, _Context(path, feature_tags, background, "",
                                                            order), numbers))
        elif child.rule is not None:
            rule = child.rule
            rule_tags = _tags(rule.tags)
            ids = tuple(t for t in rule_tags if t in order)
            rule_background: tuple[Step, ...] = ()
            scenarios: list[Scenario] = []
            key = ids[0] if ids else f"{path.stem}-rule-{rule.location.line}"
            for grandchild in rule.children:
                if grandchild.background is not None:
                    rule_background = _steps(grandchild.background.steps)
                elif grandchild.scenario is not None:
                    context = _Context(path, _unique(feature_tags, rule_tags),
                                       (*background, *rule_background), key, order)
                    scenarios.append(_scenario(grandchild.scenario, context, numbers))
            rules.append(Rule(path=path, line=int(rule.location.line), name=str(rule.name),
                              description=str(rule.description or ""), tags=rule_tags, ids=ids,
                              background=rule_background, scenarios=tuple(scenarios)))
    return Feature(path=path, name=str(node.name), description=str(node.description or ""),
                   tags=feature_tags, background=background, rules=tuple(rules),
                   loose=tuple(loose))


def read_specification(features: Path | str | Sequence[Path | str]) -> Specification:
    """Read a directory of feature files (or a list of files) and number every example.

    Raises :class:`GherkinError` for a file that cannot be read as Gherkin, naming it.
    """
    if isinstance(features, str | Path):
        directory = Path(features).resolve()
        if not directory.is_dir():
            raise GherkinError(f"{directory} is not a directory of feature files")
        files = feature_files(directory)
    else:
        files = [Path(f).resolve() for f in features]
        directory = files[0].parent if files else Path.cwd()
    order = {rule_id: i for i, rule_id in enumerate(load_rule_index())}
    numbers = _Numbers()
    read = tuple(_read_feature(path, numbers, order) for path in files)
    by_number: dict[str, Example] = {}
    by_place: dict[tuple[Path, int, int | None], Example] = {}
    for feature in read:
        for example in feature.examples():
            by_number[example.number.upper()] = example
            by_place[(example.path, example.scenario_line, example.row)] = example
    return Specification(directory=directory, features=read, _by_number=by_number,
                         _by_place=by_place)
