"""The book extension (layer 7): what the pages of the rules book call to show the rules.

Every rule and every example on the book's pages comes from two places only: the feature
files (``features/*.feature``, the specification in Gherkin) and the rule index
(``durak_spec/data/rule_index.json``). Nothing here states a rule; it reads, runs and
draws.

* :func:`chapter` parses a chapter's feature file(s) with the Gherkin parser, **runs**
  every scenario against the reference engine (through :mod:`durak_spec.spec.runner`) and
  renders each ``Rule:`` with its IDs, its statement (the Rule's description), its sources
  and its examples: the steps, a picture of the position before the first move (the
  acting player's playable cards bright, the rest dimmed, VIEW-3), the engine's verdict on
  each move, and a mark that the example was verified during the build. A scenario that
  fails raises :class:`ExampleFailed`, so the page's cell fails and so does the build.
* :func:`clarifications` and :func:`worked_examples` show every clarification and every
  worked example of the rule index with the scenarios that encode it (run as well).
* :func:`variants_matrix` is every variant axis against every named profile, with the
  origin of each value (a source, or the specification's clarification).
* :func:`rule_index`, :func:`sources_index`, :func:`glossary`, :func:`one_minute`,
  :func:`sample_position`, :func:`protocol_reference`, :func:`protocol_transcript` and
  :func:`verification_summary` fill the other pages.

The module is also a Sphinx extension (the book's ``_config.yml`` loads it): when a build
starts, :func:`setup` runs every scenario once, in a separate process
(``python -m durak_spec.book prepare FILE``), and the pages' kernels take their results
from that run instead of each starting pytest again. A page still raises if any of its
examples failed in that run.

Everything returns :class:`Html`, a ``str`` that Jupyter displays as HTML. The pages are
flat: chapter ``beating`` is ``beating.html``, so links between pages are plain relative
URLs (``beating.html#BEAT-1``). Every rule ID has one primary place (where a ``Rule:`` or
example is tagged with it, else its chapter page) that ID mentions link to.

The feature files are :func:`durak_spec.spec.runner.features_dir` unless the environment
variable ``DURAK_BOOK_FEATURES`` names another directory (the tests build the book from a
temporary copy) or a function is given ``features=``.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import io
import json
import os
import pickle
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

from gherkin.parser import Parser

from durak_spec.core.cards import Card
from durak_spec.core.errors import DurakError
from durak_spec.core.ruleindex import CHAPTERS, SOURCES, RuleEntry, load_rule_index
from durak_spec.core.version import __version__
from durak_spec.engine import apply as apply_action
from durak_spec.engine import legal_actions, new_game
from durak_spec.game.positions import speak_seats
from durak_spec.game.svg import position_svg
from durak_spec.model.actions import Action, Cover, Open, Take
from durak_spec.model.rules import AXES, PROFILES, Axis, RuleSet, profile
from durak_spec.model.state import GameState
from durak_spec.protocol import Engine, ReferenceEngine, Report, Verdict
from durak_spec.spec.runner import RunResult, ScenarioResult, TraceStep, features_dir, run

__all__ = [
    "ENV_FEATURES",
    "PAGE_OF_CHAPTER",
    "BookError",
    "ExampleFailed",
    "Html",
    "chapter",
    "clarifications",
    "command_options",
    "engine_protocol",
    "glossary",
    "main",
    "one_minute",
    "prepare",
    "protocol_reference",
    "protocol_transcript",
    "rule_index",
    "sample_position",
    "setup",
    "sources_index",
    "variants_matrix",
    "verification_summary",
    "worked_examples",
]

ENV_FEATURES = "DURAK_BOOK_FEATURES"
"""Environment variable naming the feature directory the book shows (default: the package's)."""

PAGE_OF_CHAPTER: Mapping[str, str] = {slug: ("worked-examples" if slug == "examples" else slug)
                                      for slug in CHAPTERS}
"""The page (HTML file name without ``.html``) that shows each chapter of the rule index."""

RULE_INDEX_PAGE = "rule-index"
SOURCES_PAGE = "sources"
MATRIX_PAGE = "variants-matrix"
CLARIFICATIONS_PAGE = "clarifications"

_KIND_WORDS = {
    "rule": "rule", "variant": "variant", "clarification": "clarification",
    "example": "worked example", "fact": "fact", "tip": "tip", "glossary": "glossary",
}
_ID = re.compile(r"\b([A-Z]+-[1-9][0-9]*)\b")
_CARD_TEXT = re.compile(r"(?<![\w-])(10|[6-9JQKA])([♣♦♥♠])")


class BookError(DurakError):
    """The book cannot show something: an unknown chapter, an unreadable feature file."""


class ExampleFailed(BookError):
    """An example of the specification did not pass against the reference engine.

    Raised while a page is built, so that the page's cell fails and the build with it.
    ``failures`` lists one line per scenario that did not pass.
    """

    def __init__(self, failures: Sequence[str]) -> None:
        self.failures = tuple(failures)
        count = len(self.failures)
        super().__init__(
            f"{count} example{'s' if count != 1 else ''} of the specification did not pass "
            "against the reference engine:\n  " + "\n  ".join(self.failures))


class Html(str):
    """HTML text; a ``str`` that Jupyter (and so the book) displays as HTML."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


# =============================================================================================
# The feature files, parsed
# =============================================================================================


@dataclass(frozen=True, slots=True)
class _Step:
    keyword: str
    text: str
    line: int
    docstring: str | None = None
    table: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Examples:
    name: str
    tags: tuple[str, ...]
    header: tuple[str, ...]
    rows: tuple[_Row, ...]


@dataclass(frozen=True, slots=True)
class _Scenario:
    path: Path
    line: int
    keyword: str
    name: str
    description: str
    tags: tuple[str, ...]
    """The scenario's own tags, without ``@``."""
    inherited: tuple[str, ...]
    """The tags of its feature and Rule."""
    steps: tuple[_Step, ...]
    examples: tuple[_Examples, ...] = ()

    @property
    def is_outline(self) -> bool:
        return bool(self.examples)

    @property
    def lines(self) -> tuple[int, ...]:
        """The lines the runner reports: the scenario's, or each row's of an outline."""
        if not self.examples:
            return (self.line,)
        return tuple(row.line for block in self.examples for row in block.rows)

    def all_tags(self) -> tuple[str, ...]:
        block_tags = tuple(t for block in self.examples for t in block.tags)
        return self.inherited + self.tags + block_tags

    @property
    def anchor(self) -> str:
        return f"ex-{_slug(self.path.stem)}-{self.line}"

    def text(self) -> str:
        """Everything the scenario says, for finding examples that mention something."""
        parts = [self.name, self.description]
        parts += [s.text for s in self.steps]
        parts += [c for block in self.examples for row in block.rows for c in row.cells]
        return "\n".join(parts)


@dataclass(frozen=True, slots=True)
class _Rule:
    line: int
    name: str
    description: str
    tags: tuple[str, ...]
    scenarios: tuple[_Scenario, ...]
    background: tuple[_Step, ...] = ()


@dataclass(frozen=True, slots=True)
class _Feature:
    path: Path
    name: str
    description: str
    tags: tuple[str, ...]
    rules: tuple[_Rule, ...]
    loose: tuple[_Scenario, ...]
    """Scenarios outside any Rule."""
    background: tuple[_Step, ...] = ()
    chapter: str = ""

    def scenarios(self) -> Iterator[_Scenario]:
        yield from self.loose
        for rule in self.rules:
            yield from rule.scenarios


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _tags(nodes: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    return tuple(str(tag["name"]).lstrip("@") for tag in nodes)


def _steps(nodes: Iterable[Mapping[str, Any]]) -> tuple[_Step, ...]:
    steps: list[_Step] = []
    for node in nodes:
        doc = node.get("docString")
        table = node.get("dataTable")
        rows: tuple[tuple[str, ...], ...] = ()
        if table:
            rows = tuple(tuple(str(c["value"]) for c in row["cells"]) for row in table["rows"])
        steps.append(_Step(keyword=str(node["keyword"]).strip(), text=str(node["text"]),
                           line=int(node["location"]["line"]),
                           docstring=str(doc["content"]) if doc else None, table=rows))
    return tuple(steps)


def _scenario(path: Path, node: Mapping[str, Any], inherited: tuple[str, ...]) -> _Scenario:
    blocks = tuple(
        _Examples(name=str(block.get("name", "")), tags=_tags(block.get("tags", ())),
                  header=tuple(str(c["value"]) for c in block["tableHeader"]["cells"])
                  if block.get("tableHeader") else (),
                  rows=tuple(_Row(int(row["location"]["line"]),
                                  tuple(str(c["value"]) for c in row["cells"]))
                             for row in block.get("tableBody", ())))
        for block in node.get("examples", ()))
    return _Scenario(path=path, line=int(node["location"]["line"]),
                     keyword=str(node["keyword"]).strip(), name=str(node["name"]),
                     description=str(node.get("description", "")),
                     tags=_tags(node.get("tags", ())), inherited=inherited,
                     steps=_steps(node.get("steps", ())), examples=blocks)


def _parse_feature(path: Path) -> _Feature:
    try:
        text = path.read_text(encoding="utf-8")
        document = cast(dict[str, Any], Parser().parse(text))
    except Exception as error:  # the Gherkin parser raises several unrelated types
        raise BookError(f"{path.name} cannot be read as Gherkin: {error}") from error
    node = document.get("feature")
    if not node:
        raise BookError(f"{path.name} holds no Feature")
    feature_tags = _tags(node.get("tags", ()))
    rules: list[_Rule] = []
    loose: list[_Scenario] = []
    background: tuple[_Step, ...] = ()
    for child in node.get("children", ()):
        if "background" in child:
            background = _steps(child["background"].get("steps", ()))
        elif "scenario" in child:
            loose.append(_scenario(path, child["scenario"], feature_tags))
        elif "rule" in child:
            rule = child["rule"]
            rule_tags = _tags(rule.get("tags", ()))
            rule_background: tuple[_Step, ...] = ()
            scenarios: list[_Scenario] = []
            for grandchild in rule.get("children", ()):
                if "background" in grandchild:
                    rule_background = _steps(grandchild["background"].get("steps", ()))
                elif "scenario" in grandchild:
                    scenarios.append(_scenario(path, grandchild["scenario"],
                                               feature_tags + rule_tags))
            rules.append(_Rule(line=int(rule["location"]["line"]), name=str(rule["name"]),
                               description=str(rule.get("description", "")), tags=rule_tags,
                               scenarios=tuple(scenarios), background=rule_background))
    feature = _Feature(path=path, name=str(node["name"]),
                       description=str(node.get("description", "")), tags=feature_tags,
                       rules=tuple(rules), loose=tuple(loose), background=background)
    return _with_chapter(feature)


def _with_chapter(feature: _Feature) -> _Feature:
    """The chapter a feature file belongs to: by its name (``03_beating.feature``), else by
    the chapters of the rule IDs its Rules carry."""
    stem = re.sub(r"^[0-9]+[_-]*", "", feature.path.stem).replace("_", "-").lower()
    if stem in CHAPTERS:
        return _replace_chapter(feature, stem)
    index = load_rule_index()
    votes = Counter(index[t].chapter for rule in feature.rules for t in rule.tags if t in index)
    if votes:
        return _replace_chapter(feature, votes.most_common(1)[0][0])
    raise BookError(
        f"{feature.path.name}: cannot tell which chapter of the book it belongs to; name it "
        f"NN_<chapter>.feature with a chapter of the rule index ({', '.join(CHAPTERS)}) or tag "
        "its Rules with rule IDs")


def _replace_chapter(feature: _Feature, chapter_slug: str) -> _Feature:
    return _Feature(path=feature.path, name=feature.name, description=feature.description,
                    tags=feature.tags, rules=feature.rules, loose=feature.loose,
                    background=feature.background, chapter=chapter_slug)


def _features_directory(features: Path | str | None) -> Path:
    if features is not None:
        chosen = Path(features)
    elif os.environ.get(ENV_FEATURES):
        chosen = Path(os.environ[ENV_FEATURES])
    else:
        chosen = features_dir()
    chosen = chosen.resolve()
    if not chosen.is_dir():
        raise BookError(f"{chosen} is not a directory of feature files")
    return chosen


# =============================================================================================
# The site: where every rule ID and every example is shown
# =============================================================================================


@dataclass(frozen=True)
class _Site:
    directory: Path
    features: tuple[_Feature, ...]
    places: Mapping[str, str]
    """Rule ID -> the URL of its primary place (``beating.html#BEAT-1``)."""
    examples: Mapping[str, tuple[_Scenario, ...]]
    """Rule ID -> the scenarios that carry it (their own, Rule or feature tags)."""
    rules_of: Mapping[str, tuple[_Rule, ...]]
    """Rule ID -> the Rules tagged with it."""
    feature_of: Mapping[Path, _Feature] = field(default_factory=dict)

    def page_of(self, feature: _Feature) -> str:
        return PAGE_OF_CHAPTER[feature.chapter]

    def url_of_scenario(self, scenario: _Scenario) -> str:
        feature = self.feature_of[scenario.path]
        return f"{self.page_of(feature)}.html#{scenario.anchor}"

    def link(self, rule_id: str) -> str:
        return self.places.get(rule_id, f"{RULE_INDEX_PAGE}.html#{rule_id}")


@cache
def _site_cached(directory: Path, stamp: tuple[tuple[str, str], ...]) -> _Site:
    index = load_rule_index()
    features = tuple(_parse_feature(p) for p in sorted(directory.rglob("*.feature")))
    places: dict[str, str] = {}
    scenario_places: dict[str, str] = {}
    examples: dict[str, list[_Scenario]] = {}
    rules_of: dict[str, list[_Rule]] = {}
    feature_of: dict[Path, _Feature] = {}
    for feature in features:
        feature_of[feature.path] = feature
        page = PAGE_OF_CHAPTER[feature.chapter]
        for rule in feature.rules:
            for tag in rule.tags:
                if tag in index:
                    places.setdefault(tag, f"{page}.html#{tag}")
                    rules_of.setdefault(tag, []).append(rule)
        for scenario in feature.scenarios():
            for tag in dict.fromkeys(scenario.all_tags()):
                if tag in index:
                    examples.setdefault(tag, []).append(scenario)
            for tag in scenario.tags:
                if tag in index:
                    scenario_places.setdefault(tag, f"{page}.html#{tag}")
    for rule_id, url in scenario_places.items():
        places.setdefault(rule_id, url)
    for entry in index.entries:
        if entry.kind == "glossary":
            places.setdefault(entry.id, "glossary.html#" + entry.id)
        places.setdefault(entry.id, f"{PAGE_OF_CHAPTER[entry.chapter]}.html#{entry.id}")
    return _Site(directory=directory, features=features, places=places,
                 examples={k: tuple(v) for k, v in examples.items()},
                 rules_of={k: tuple(v) for k, v in rules_of.items()}, feature_of=feature_of)


def _stamp(directory: Path) -> tuple[tuple[str, str], ...]:
    """Each feature file with a digest of its text: a changed file is parsed again."""
    return tuple((str(p), hashlib.sha256(p.read_bytes()).hexdigest())
                 for p in sorted(directory.rglob("*.feature")))


def _site(features: Path | str | None = None) -> _Site:
    directory = _features_directory(features)
    stamp = _stamp(directory)
    shared = _shared()
    if shared is not None and shared.directory == directory and shared.stamp == stamp:
        return shared.site
    return _site_cached(directory, stamp)


# =============================================================================================
# Running scenarios: the runner, with an engine that remembers the positions it played
# =============================================================================================

_MAX_EVENTS = 400


@dataclass(frozen=True, slots=True)
class _Event:
    kind: str
    """``load``, ``start`` or ``apply``."""
    after: GameState
    before: GameState | None = None
    action: Action | None = None
    accepted: bool = True


class _Recorder(ReferenceEngine):
    """The reference engine, remembering every position it was given or reached.

    The runner's trace holds the engine's reports; a picture with the playable cards needs
    the full game state, which only the reference engine has.
    """

    def __init__(self) -> None:
        super().__init__()
        self.events: list[_Event] = []

    def _note(self, event: _Event) -> None:
        if len(self.events) < _MAX_EVENTS:
            self.events.append(event)

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        report = super().start(rules, deck, seed)
        self._note(_Event("start", self.state))
        return report

    def load(self, state: GameState) -> Report:
        report = super().load(state)
        self._note(_Event("load", self.state))
        return report

    def apply(self, action: Action) -> Verdict:
        before = self.state
        verdict = super().apply(action)
        self._note(_Event("apply", self.state, before, action, verdict.ok))
        return verdict


@dataclass(frozen=True, slots=True)
class _Played:
    result: ScenarioResult
    events: tuple[_Event, ...]


@dataclass(frozen=True)
class _Run:
    played: Mapping[tuple[Path, int], _Played]
    result: RunResult
    when: str

    def get(self, scenario: _Scenario, line: int) -> _Played | None:
        return self.played.get((scenario.path.resolve(), line))


def _play(files: Sequence[Path], rules: Iterable[str] = ()) -> _Run:
    """Run the scenarios of ``files`` (those tagged with ``rules``, if given), tracing them.

    While the book is built, every scenario has already been run once, at the start of the
    build (:func:`setup`): the pages take their results from that run.
    """
    shared = _shared()
    if shared is not None and shared.run is not None and \
            {f.resolve() for f in files} <= {f.path.resolve() for f in shared.site.features} \
            and shared.stamp == _stamp(shared.directory):
        return shared.run
    return _run_scenarios(files, rules)


def _run_scenarios(files: Sequence[Path], rules: Iterable[str] = ()) -> _Run:
    created: list[_Recorder] = []
    played: list[_Played] = []

    def factory() -> Engine:
        engine = _Recorder()
        created.append(engine)
        return engine

    def progress(done: int, total: int, result: ScenarioResult | None) -> None:
        # Scenarios run one after the other: the engines made since the last call are
        # this scenario's.
        engines = list(created)
        created.clear()
        if result is not None:
            played.append(_Played(result, tuple(e for en in engines for e in en.events)))

    outcome = run(factory, rules=tuple(rules), trace=True, features=list(files),
                  progress=progress)
    keyed = {((outcome.features / p.result.feature).resolve(), p.result.line): p
             for p in played}
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return _Run(played=keyed, result=outcome, when=when)


def _verify(scenarios: Iterable[_Scenario], outcome: _Run) -> None:
    """Raise :class:`ExampleFailed` unless every scenario (every outline row) passed."""
    failures: list[str] = []
    files: set[Path] = set()
    for scenario in scenarios:
        files.add(scenario.path.resolve())
        for line in scenario.lines:
            played = outcome.get(scenario, line)
            name = played.result.name if played is not None else scenario.name
            where = f"{scenario.path.name}:{line} ({name})"
            if played is None:
                failures.append(f"{where}: was not run")
                continue
            result = played.result
            if result.outcome == "passed":
                continue
            if result.outcome == "skipped":
                failures.append(f"{where}: skipped by the reference engine: {result.skip_reason}")
                continue
            step = f' at step "{result.step}"' if result.step else ""
            failures.append(f"{where}: {result.outcome}{step}: {result.message}")
    if not failures:
        # Anything else the run found broken in these files (a file pytest-bdd cannot read).
        base = outcome.result.features
        failures = [f"{r.where} ({r.name}): {r.outcome}: {r.message}"
                    for r in outcome.result.with_outcome("failed", "errored")
                    if (base / r.feature).resolve() in files]
    if failures:
        raise ExampleFailed(failures)


# -- one run for the whole build ---------------------------------------------------------------

ENV_SHARED = "DURAK_BOOK_SHARED_RUN"
"""Set during a build: the file holding the run of every scenario that the pages show."""


@dataclass(frozen=True)
class _Shared:
    directory: Path
    stamp: tuple[tuple[str, str], ...]
    site: _Site
    run: _Run | None


_SHARED_CACHE: dict[str, _Shared | None] = {}


def _shared() -> _Shared | None:
    """The build's shared run, if this process is one of the build's pages."""
    path = os.environ.get(ENV_SHARED)
    if not path:
        return None
    if path not in _SHARED_CACHE:
        try:
            with open(path, "rb") as stream:
                loaded = pickle.load(stream)  # written by prepare() of this very build
        except (OSError, pickle.UnpicklingError, EOFError):
            loaded = None
        _SHARED_CACHE[path] = loaded if isinstance(loaded, _Shared) else None
    return _SHARED_CACHE[path]


def prepare(target: Path | str, *, features: Path | str | None = None) -> Path:
    """Parse the feature files and run every scenario once, and save both to ``target``
    for the pages of one build (see :func:`setup`). A run that cannot be made at all is
    left to the pages, which then run their own scenarios and report the problem."""
    directory = _features_directory(features)
    stamp = _stamp(directory)
    site = _site_cached(directory, stamp)
    outcome: _Run | None
    try:
        outcome = _run_scenarios([f.path for f in site.features])
    except Exception:  # the pages run their own scenarios and show the error
        outcome = None
    target = Path(target)
    with open(target, "wb") as stream:
        pickle.dump(_Shared(directory, stamp, site, outcome), stream)
    return target


def setup(app: Any) -> dict[str, Any]:
    """The Sphinx extension: run every scenario once when the build starts (in a separate
    process), and let the pages' kernels read the results instead of each running pytest.
    """
    import subprocess
    import sys
    import tempfile

    workdir: list[Path] = []

    def started(app: Any) -> None:
        folder = Path(tempfile.mkdtemp(prefix="durak-book-"))
        workdir.append(folder)
        target = folder / "shared-run.pickle"
        done = subprocess.run([sys.executable, "-m", "durak_spec.book", "prepare", str(target)],
                              capture_output=True, text=True, check=False)
        if done.returncode == 0 and target.is_file():
            os.environ[ENV_SHARED] = str(target)
        else:  # the pages run their own scenarios; say why
            os.environ.pop(ENV_SHARED, None)
            message = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            print(f"durak_spec.book: the shared run failed ({message[0]}); every page runs "
                  "its own scenarios", file=sys.stderr)

    def finished(app: Any, exception: BaseException | None) -> None:
        os.environ.pop(ENV_SHARED, None)
        import shutil

        for folder in workdir:
            shutil.rmtree(folder, ignore_errors=True)

    app.connect("builder-inited", started)
    app.connect("build-finished", finished)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m durak_spec.book prepare FILE``: see :func:`prepare`."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] != "prepare":
        print("usage: python -m durak_spec.book prepare FILE", file=sys.stderr)
        return 2
    prepare(args[1])
    return 0


# =============================================================================================
# HTML helpers
# =============================================================================================


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _inline(text: str, site: _Site | None = None, *, link_ids: bool = True) -> str:
    """Plain text as HTML: cards coloured, `code` as code, rule IDs linked."""
    out = _esc(text)
    out = re.sub(r":[a-z]+:`~?([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"``([^`]+)``", r"<code>\1</code>", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = _CARD_TEXT.sub(lambda m: _card_span(m.group(1), m.group(2)), out)
    out = re.sub(r"&lt;([a-z][\w -]*)&gt;", r'<span class="gherkin-param">&lt;\1&gt;</span>', out)
    if link_ids and site is not None:
        index = load_rule_index()

        def link(match: re.Match[str]) -> str:
            rule_id = match.group(1)
            if rule_id not in index:
                return rule_id
            return (f'<a class="rule-ref" href="{_esc(site.link(rule_id))}" '
                    f'title="{_esc(index[rule_id].title)}">{rule_id}</a>')

        out = _ID.sub(link, out)
    return out


def _card_span(rank: str, suit: str) -> str:
    red = suit in "♥♦"
    return f'<span class="card-text{" red" if red else ""}">{rank}{suit}</span>'


def _paragraphs(text: str, site: _Site | None = None) -> str:
    """A Gherkin description as HTML: paragraphs, lists and indented (preformatted) blocks."""
    body = textwrap.dedent(text.strip("\n"))
    if not body.strip():
        return ""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", body):
        lines = block.splitlines()
        if all(line.startswith((" ", "\t")) for line in lines if line.strip()):
            out.append(f'<pre class="durak-pre">{_esc(textwrap.dedent(block))}</pre>')
        elif all(re.match(r"\s*[-*] ", line) for line in lines if line.strip()) or \
                re.match(r"\s*[-*] ", lines[0]):
            items: list[str] = []
            for line in lines:
                if re.match(r"\s*[-*] ", line):
                    items.append(re.sub(r"^\s*[-*] ", "", line))
                elif items:
                    items[-1] += " " + line.strip()
            out.append("<ul>" + "".join(f"<li>{_inline(i, site)}</li>" for i in items)
                       + "</ul>")
        else:
            joined = " ".join(line.strip() for line in lines)
            out.append(f"<p>{_inline(joined, site)}</p>")
    return "".join(out)


def _source_badges(sources: Iterable[str]) -> str:
    return " ".join(
        f'<a class="durak-badge source" href="{SOURCES_PAGE}.html#source-{s}" '
        f'title="Source {s}: see the sources page">{s}</a>' for s in sources)


def _id_badge(rule_id: str, *, target: str | None = None) -> str:
    entry = load_rule_index()[rule_id]
    href = target or f"{RULE_INDEX_PAGE}.html#{rule_id}"
    return (f'<a class="durak-badge rule-id kind-{entry.kind}" href="{_esc(href)}" '
            f'title="{_esc(entry.title)} ({_KIND_WORDS[entry.kind]})">{rule_id}</a>')


def _kind_badge(kind: str) -> str:
    return f'<span class="durak-badge kind kind-{kind}">{_KIND_WORDS.get(kind, kind)}</span>'


def _origin(entry: RuleEntry, *, label: bool = True) -> str:
    """Where an index entry comes from, in words with links."""
    parts: list[str] = []
    if entry.sources:
        parts.append(("Sources " if label else "") + _source_badges(entry.sources))
    if entry.clarification:
        parts.append(f'<a class="durak-badge clar" href="{CLARIFICATIONS_PAGE}.html#{entry.id}" '
                     'title="the sources are silent or unclear: the specification decides">'
                     "decided by the specification</a>")
    return " · ".join(parts) or "—"


class _Anchors:
    """The element ids of one page, each used once."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def take(self, name: str) -> str:
        """An anchor ``<span id>`` for ``name`` the first time, else nothing."""
        if name in self.used:
            return ""
        self.used.add(name)
        return f'<span class="durak-anchor" id="{_esc(name)}"></span>'


def _verified_mark(run_info: _Run, count: int = 1) -> str:
    what = "verified" if count == 1 else f"all {count} rows verified"
    return (f'<span class="durak-verified" title="Played by the reference engine '
            f'({_esc(run_info.result.engine or "durak-spec reference")}, durak-spec {__version__}) '
            f'while this page was built, {_esc(run_info.when)}">✓ {what} during the build</span>')


# =============================================================================================
# Rendering examples
# =============================================================================================

_ACTOR_STEP = re.compile(r"^(?:only )?(?P<name>[A-Z][a-z]+)(?:'s legal moves| may )")


def _render_step(step: _Step, site: _Site, trace: TraceStep | None,
                 names: Sequence[str]) -> str:
    """One step; with its trace (the step as played), the engine's verdict or a tick."""
    text = step.text if trace is None else trace.text
    kind = step.keyword.lower()
    parts = [f'<li class="step step-{_esc(kind)}"><span class="kw">{_esc(step.keyword)}</span> '
             f"{_inline(text, site)}"]
    if trace is not None and trace.verdict is not None:
        verdict = trace.verdict
        if verdict.ok:
            parts.append(' <span class="verdict accepted">engine: accepted</span>')
        else:
            reason = speak_seats(getattr(verdict, "reason", ""), tuple(names))
            rule = getattr(verdict, "rule", None)
            because = f"{rule}: " if rule else ""
            parts.append(f' <span class="verdict rejected">engine: rejected — '
                         f"{_inline(because + reason, site)}</span>")
    elif trace is not None and trace.passed and step.keyword not in ("Given",) and \
            not _is_given_like(step, trace):
        parts.append(' <span class="tick" title="checked against the engine during the build">'
                     "✓</span>")
    if step.docstring is not None:
        parts.append(f'<pre class="docstring">{_inline(step.docstring, site, link_ids=False)}'
                     "</pre>")
    if step.table:
        parts.append(_table(step.table, site, header=False))
    parts.append("</li>")
    return "".join(parts)


def _is_given_like(step: _Step, trace: TraceStep) -> bool:
    """An ``And`` that continues the Given steps (no game under way yet)."""
    return trace.report is None and step.keyword in ("And", "But")


def _table(rows: Sequence[Sequence[str]], site: _Site | None, *, header: bool) -> str:
    out = ['<div class="durak-scroll"><table class="durak-table">']
    for i, row in enumerate(rows):
        cell = "th" if header and i == 0 else "td"
        out.append("<tr>" + "".join(f"<{cell}>{_inline(c, site)}</{cell}>" for c in row)
                   + "</tr>")
    out.append("</table></div>")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Picture:
    before: GameState | None
    after: GameState | None
    actor: int | None
    tried: tuple[Card, ...]
    played: tuple[Card, ...]
    dealt: bool


def _picture_of(played: _Played) -> _Picture:
    """What to draw for a played scenario: the position before its first move."""
    events = played.events
    first_state = next((e.after for e in events if e.kind in ("load", "start")), None)
    moves = [e for e in events if e.kind == "apply"]
    dealt = any(e.kind == "start" for e in events)
    names = played.result.players
    if moves:
        first = moves[0]
        last_state = moves[-1].after  # not a later re-deal (ORDER-2's seeds, a next game)
        accepted = [e for e in moves if e.accepted]
        last_cards = accepted[-1].action.cards if accepted and accepted[-1].action else ()
        action = first.action
        return _Picture(before=first.before, after=last_state if last_state != first.before
                        else None, actor=action.player if action else None,
                        tried=action.cards if action else (), played=last_cards, dealt=dealt)
    actor: int | None = None
    for step in played.result.trace:
        match = _ACTOR_STEP.match(step.text)
        if match and match.group("name") in names and step.keyword != "Given":
            actor = names.index(match.group("name"))
            break
    return _Picture(before=first_state, after=None, actor=actor, tried=(), played=(),
                    dealt=dealt)


def _figure(state: GameState, names: Sequence[str], caption: str, *,
            playable_for: int | None = None, highlight: Iterable[Card] = ()) -> str:
    svg = position_svg(state, names=list(names) if len(names) == state.players else None,
                       playable_for=playable_for, highlight=tuple(highlight))
    return (f'<figure class="durak-position">{svg}'
            f"<figcaption>{_inline(caption, None, link_ids=False)}</figcaption></figure>")


_SEES = re.compile(r"^(?P<name>[A-Z][a-z]+) sees$")


def _views(played: _Played, limit: int = 2) -> list[str]:
    """For each step "<name> sees" (VIEW-1, VIEW-2): the position as that player sees it at
    that step, found by the engine's report after the step."""
    names = played.result.players
    out: list[str] = []
    for step in played.result.trace:
        match = _SEES.match(step.text)
        if not match or match.group("name") not in names or step.report is None:
            continue
        state = next((e.after for e in reversed(played.events)
                      if Report.of(e.after) == step.report), None)
        if state is None:
            continue
        who = match.group("name")
        seat = names.index(who)
        svg = position_svg(state, seat=seat, names=list(names), show_all=False,
                           playable_for=seat)
        out.append(f'<figure class="durak-position durak-view">{svg}<figcaption>What {who} '
                   f"sees at the step “{_esc(step.text)}”: {who}'s own cards face up, the "
                   "other hands face down except the cards everyone knows.</figcaption>"
                   "</figure>")
        if len(out) >= limit:
            break
    return out


def _pictures(played: _Played, *, after: bool = True) -> str:
    picture = _picture_of(played)
    names = played.result.players
    if picture.before is None:
        return ""

    def name(seat: int | None) -> str:
        if seat is None:
            return ""
        return names[seat] if seat < len(names) else f"P{seat}"

    out: list[str] = []
    who = name(picture.actor)
    if picture.tried:
        caption = (f"The position before {who}'s move. {who}'s playable cards are bright, the "
                   "others dimmed; the card" + ("s" if len(picture.tried) > 1 else "")
                   + f" {who} plays " + ("are" if len(picture.tried) > 1 else "is")
                   + " outlined in blue.")
    elif picture.actor is not None and not picture.dealt:
        caption = (f"The position. {who}'s playable cards are bright, the others dimmed.")
    elif picture.actor is not None:
        caption = (f"The position after the deal. {who}'s playable cards are bright, the "
                   "others dimmed.")
    elif picture.dealt:
        caption = "The position after the deal."
    else:
        caption = "The position."
    out.append(_figure(picture.before, names, caption, playable_for=picture.actor,
                       highlight=picture.tried))
    out.extend(_views(played))
    if picture.after is not None and after:
        result = picture.after.outcome
        suffix = f" {str(result).replace('P', 'seat P')}" if result is not None else ""
        out.append('<details class="durak-after"><summary>Show the position after the last '
                   "move</summary>"
                   + _figure(picture.after, names, "The position after the last move; the "
                             "card last played is outlined in blue." + suffix,
                             highlight=picture.played)
                   + "</details>")
    return "".join(out)


def _render_scenario(scenario: _Scenario, site: _Site, outcome: _Run, anchors: _Anchors,
                     *, background: Sequence[_Step] = (), heading: str = "h3",
                     anchor_prefix: str = "", after: bool = True) -> str:
    index = load_rule_index()
    anchor = anchor_prefix + scenario.anchor
    id_tags = [t for t in scenario.tags if t in index]
    source_tags = [t.removeprefix("source-") for t in scenario.tags if t.startswith("source-")]
    first_line = scenario.lines[0]
    first = outcome.get(scenario, first_line)
    head = [f'<article class="durak-example" id="{_esc(anchor)}">']
    head.extend(anchors.take(t) for t in id_tags)
    badges = " ".join(_id_badge(t) for t in id_tags)
    if source_tags:
        badges += " " + _source_badges(source_tags)
    rows_count = len(scenario.lines)
    head.append(f'<{heading} class="example-title"><a class="durak-permalink" '
                f'href="#{_esc(anchor)}" title="link to this example">{_esc(scenario.keyword)}'
                f":</a> {_inline(scenario.name, site)}</{heading}>")
    head.append(f'<div class="example-meta">{badges} {_verified_mark(outcome, rows_count)}'
                f' <span class="where">{_esc(scenario.path.name)}:{scenario.line}</span></div>')
    for rule_id in id_tags:
        entry = index[rule_id]
        if entry.kind == "example":
            head.append(f'<p class="worked-example"><strong>Worked example {rule_id}</strong> '
                        f"(source {', '.join(entry.sources)}): {_inline(entry.summary, site)}</p>")
    head.append(_paragraphs(scenario.description, site))
    names: Sequence[str] = first.result.players if first is not None else ()
    trace_by_line: dict[int, TraceStep] = {}
    if first is not None and not scenario.is_outline:  # an outline shows its template
        for traced in first.result.trace:
            trace_by_line.setdefault(traced.line, traced)
    steps = [*background, *scenario.steps]
    body = ['<ol class="durak-steps">']
    for step in steps:
        body.append(_render_step(step, site, trace_by_line.get(step.line), names))
    body.append("</ol>")
    if scenario.is_outline:
        body.append(_outline_rows(scenario, site, outcome))
    picture = _pictures(first, after=after) if first is not None else ""
    if picture and scenario.is_outline:
        picture = ('<p class="row-note">As played for the first row of the table:</p>'
                   + picture)
    return "".join(head) + '<div class="example-body">' + "".join(body) + picture + \
        "</div></article>"


def _outline_rows(scenario: _Scenario, site: _Site, outcome: _Run) -> str:
    out: list[str] = []
    for block in scenario.examples:
        title = f"<p class=\"examples-title\">{_esc(block.name)}</p>" if block.name else ""
        rows = [[*block.header, "verified"]]
        for row in block.rows:
            played = outcome.get(scenario, row.line)
            ok = played is not None and played.result.outcome == "passed"
            rows.append([*row.cells, "✓" if ok else "✗"])
        out.append(title + _table(rows, site, header=True))
    return "".join(out)


def _rule_section(rule: _Rule, feature: _Feature, site: _Site, outcome: _Run,
                  anchors: _Anchors) -> str:
    index = load_rule_index()
    ids = [t for t in rule.tags if t in index]
    own = anchors.take(ids[0]) if ids else ""
    section_id = ids[0] if own else f"rule-{_slug(feature.path.stem)}-{rule.line}"
    if not own:
        anchors.used.add(section_id)
    extra = "".join(anchors.take(t) for t in ids[1:])
    out = [f'<section class="durak-rule" id="{_esc(section_id)}">{extra}']
    label = " ".join(ids)
    out.append(f'<h2 class="rule-title"><a class="durak-permalink" href="#{_esc(section_id)}" '
               f'title="link to this rule">{_esc(label)}</a> {_inline(rule.name, site)}</h2>')
    meta: list[str] = []
    for rule_id in ids:
        entry = index[rule_id]
        title = "" if _same_words(entry.title, rule.name) else \
            f'<span class="index-title">{_esc(entry.title)}</span> · '
        meta.append(f'<div class="rule-meta">{_id_badge(rule_id)} {_kind_badge(entry.kind)} '
                    f"{title}{_origin(entry)}</div>")
    out.extend(meta)
    out.append(f'<div class="statement">{_paragraphs(rule.description, site)}</div>')
    count = sum(len(s.lines) for s in rule.scenarios)
    if rule.scenarios:
        out.append(f'<p class="examples-count">{len(rule.scenarios)} example'
                   f"{'s' if len(rule.scenarios) != 1 else ''}"
                   + (f" ({count} runs)" if count != len(rule.scenarios) else "")
                   + ", each played by the reference engine while this page was built:</p>")
    background = (*feature.background, *rule.background)
    for scenario in rule.scenarios:
        out.append(_render_scenario(scenario, site, outcome, anchors, background=background))
    out.append("</section>")
    return "".join(out)


def _same_words(a: str, b: str) -> bool:
    return re.sub(r"\W+", " ", a).strip().lower() == re.sub(r"\W+", " ", b).strip().lower()


def _page_header(title: str, intro: str, outcome: _Run | None, count: int) -> str:
    parts = ['<div class="durak-page">']
    if intro:
        parts.append(f'<div class="feature-intro">{intro}</div>')
    if outcome is not None and count:
        parts.append(f'<p class="durak-summary">✓ All {count} scenario runs on this page were '
                     f"played by the reference engine while the page was built "
                     f"({_esc(outcome.when)}), and passed.</p>")
    return "".join(parts)


def _toc(items: Sequence[tuple[str, str]]) -> str:
    if not items:
        return ""
    links = "".join(f'<li><a href="#{_esc(a)}">{t}</a></li>' for a, t in items)
    return f'<nav class="durak-toc" aria-label="On this page"><ul>{links}</ul></nav>'


# =============================================================================================
# Public: the pages
# =============================================================================================


def chapter(slug: str, *, features: Path | str | None = None) -> Html:
    """A chapter of the rules: its feature file(s), run and rendered, and the rule index's
    remaining entries of the chapter.

    ``slug`` is a chapter of :data:`durak_spec.core.ruleindex.CHAPTERS` (``"beating"``). Raises
    :class:`ExampleFailed` if any scenario does not pass against the reference engine,
    :class:`BookError` for an unknown chapter or an unreadable feature file.
    """
    if slug not in CHAPTERS:
        raise BookError(f"unknown chapter {slug!r}; chapters are {', '.join(CHAPTERS)}")
    site = _site(features)
    index = load_rule_index()
    mine = [f for f in site.features if f.chapter == slug]
    page = PAGE_OF_CHAPTER[slug]
    anchors = _Anchors()
    outcome = _play([f.path for f in mine]) if mine else None
    if outcome is not None:
        _verify((s for f in mine for s in f.scenarios()), outcome)
    sections: list[str] = []
    toc: list[tuple[str, str]] = []
    runs = 0
    intro = ""
    for feature in mine:
        intro += _paragraphs(feature.description, site)
        assert outcome is not None
        for rule in feature.rules:
            ids = [t for t in rule.tags if t in index]
            section = _rule_section(rule, feature, site, outcome, anchors)
            anchor = re.search(r'<section class="durak-rule" id="([^"]+)"', section)
            if anchor:
                toc.append((anchor.group(1), (" ".join(ids) + " " if ids else "")
                            + _inline(rule.name, None, link_ids=False)))
            sections.append(section)
            runs += sum(len(s.lines) for s in rule.scenarios)
        if feature.loose:
            sections.append('<section class="durak-rule"><h2 class="rule-title">More examples'
                            "</h2>")
            for scenario in feature.loose:
                sections.append(_render_scenario(scenario, site, outcome, anchors,
                                                 background=feature.background))
                runs += len(scenario.lines)
            sections.append("</section>")
    rest = [e for e in index.by_chapter(slug) if e.id not in anchors.used]
    if rest:
        sections.append(_more_entries(rest, site, page, anchors, has_features=bool(mine)))
        toc.append(("more-of-this-chapter", "More of this chapter"))
    out = _page_header(CHAPTERS[slug], intro, outcome, runs) + _toc(toc) + "".join(sections)
    return Html(out + "</div>")


def _more_entries(entries: Sequence[RuleEntry], site: _Site, page: str, anchors: _Anchors,
                  *, has_features: bool) -> str:
    out = ['<section class="durak-rule durak-more" id="more-of-this-chapter">',
           '<h2 class="rule-title">More of this chapter</h2>']
    if has_features:
        out.append("<p>These entries of the rule index belong to this chapter; their rules and "
                   "examples are shown where the specification encodes them.</p>")
    else:
        out.append("<p>The examples of this chapter are not written yet: these are its entries "
                   "in the rule index.</p>")
    out.append('<dl class="durak-entries">')
    for entry in entries:
        place = site.link(entry.id)
        here = place.startswith(f"{page}.html#")
        anchor = anchors.take(entry.id) if here else ""
        examples = site.examples.get(entry.id, ())
        where = ""
        if not here:
            where = (f' <a class="where-link" href="{_esc(place)}">shown on '
                     f"{_esc(_page_title(place))}</a>")
        elif not examples and entry.kind != "glossary":
            where = ' <span class="pending">no executable example yet</span>'
        out.append(f"<dt>{anchor}{_id_badge(entry.id)} {_kind_badge(entry.kind)} "
                   f"{_esc(entry.title)}{where}</dt>")
        out.append(f"<dd><p>{_inline(entry.summary, site)}</p>"
                   f'<p class="origin">{_origin(entry)}</p></dd>')
    out.append("</dl></section>")
    return "".join(out)


def _page_title(url: str) -> str:
    page = url.split(".html", 1)[0]
    for slug, name in PAGE_OF_CHAPTER.items():
        if name == page:
            return CHAPTERS[slug]
    return {"rule-index": "Rule index", "sources": "Sources", "glossary": "Glossary",
            "variants-matrix": "Variants matrix"}.get(page, page)


def _entries_with_examples(entries: Sequence[RuleEntry], site: _Site, *, page_intro: str,
                           section_prefix: str, after: bool = True) -> Html:
    """Each entry with its summary and every scenario that carries it, run and rendered."""
    index = load_rule_index()
    wanted = [e for e in entries if site.examples.get(e.id)]
    files = sorted({s.path for e in wanted for s in site.examples[e.id]})
    outcome = _play(files, rules=[e.id for e in wanted]) if files else None
    if outcome is not None:
        _verify((s for e in wanted for s in site.examples[e.id]), outcome)
    anchors = _Anchors()
    runs = 0
    toc: list[tuple[str, str]] = []
    sections: list[str] = []
    for entry in entries:
        scenarios = site.examples.get(entry.id, ())
        toc.append((entry.id, f"{entry.id} {_esc(entry.title)}"))
        out = [f'<section class="durak-rule" id="{entry.id}">']
        anchors.used.add(entry.id)
        out.append(f'<h2 class="rule-title"><a class="durak-permalink" href="#{entry.id}">'
                   f"{entry.id}</a> {_esc(entry.title)}</h2>")
        out.append(f'<div class="rule-meta">{_id_badge(entry.id)} {_kind_badge(entry.kind)} '
                   f"· {_origin(entry)} · chapter "
                   f'<a href="{PAGE_OF_CHAPTER[entry.chapter]}.html">'
                   f"{_esc(CHAPTERS[entry.chapter])}</a></div>")
        out.append(f'<div class="statement"><p>{_inline(entry.summary, site)}</p></div>')
        rules = site.rules_of.get(entry.id, ())
        for rule in rules:
            out.append(f'<p class="rule-pointer">The specification states it as: '
                       f'<a href="{_esc(site.link(entry.id))}">{_inline(rule.name, None)}</a>'
                       "</p>")
        if not scenarios:
            out.append('<p class="pending">No executable example encodes this entry yet.</p>')
        elif outcome is not None:
            for scenario in scenarios:
                out.append(_render_scenario(scenario, site, outcome, anchors, heading="h3",
                                            anchor_prefix=f"{section_prefix}{entry.id}-",
                                            after=after))
                runs += len(scenario.lines)
        out.append("</section>")
        sections.append("".join(out))
    del index
    return Html(_page_header("", page_intro, outcome, runs) + _toc(toc) + "".join(sections)
                + "</div>")


def clarifications(*, features: Path | str | None = None) -> Html:
    """Every clarification of the rule index (where the sources are silent or unclear and
    the specification decides), each with the example scenarios that encode it, run."""
    site = _site(features)
    entries = [e for e in load_rule_index().entries if e.clarification]
    return _entries_with_examples(entries, site, page_intro="", section_prefix="c-",
                                  after=False)


def worked_examples(*, features: Path | str | None = None) -> Html:
    """Every worked example of the sources (``EX-*``) with the scenarios that encode it,
    with the sources' own cards, run."""
    site = _site(features)
    entries = list(load_rule_index().by_chapter("examples")) + \
        [e for e in load_rule_index().entries if e.kind == "example" and e.chapter != "examples"]
    return _entries_with_examples(entries, site, page_intro="", section_prefix="w-")


def rule_index(*, features: Path | str | None = None) -> Html:
    """The whole rule index: every ID with its title, kind, sources, and links to where it is
    shown and to every example that carries it. (Not run: a directory of the book.)"""
    site = _site(features)
    index = load_rule_index()
    out = ['<div class="durak-page durak-wide">']
    for slug, title in CHAPTERS.items():
        entries = index.by_chapter(slug)
        if not entries:
            continue
        page = PAGE_OF_CHAPTER[slug]
        out.append(f'<h2 class="index-chapter" id="chapter-{slug}"><a href="{page}.html">'
                   f"{_esc(title)}</a></h2>")
        out.append('<div class="durak-scroll"><table class="durak-table rule-index">'
                   "<thead><tr><th>ID</th><th>Title</th><th>Kind</th><th>Sources</th>"
                   "<th>Examples</th></tr></thead><tbody>")
        for entry in entries:
            examples = site.examples.get(entry.id, ())
            links = " ".join(
                f'<a class="ex-link" href="{_esc(site.url_of_scenario(s))}" '
                f'title="{_esc(s.name)}">{_esc(s.path.stem)}:{s.line}</a>' for s in examples)
            if not examples:
                links = ('<span class="muted">book only</span>' if entry.kind == "glossary"
                         else '<span class="pending">none yet</span>')
            out.append(
                f'<tr id="{entry.id}"><td><a class="durak-badge rule-id kind-{entry.kind}" '
                f'href="{_esc(site.link(entry.id))}">{entry.id}</a></td>'
                f'<td><a href="{_esc(site.link(entry.id))}">{_esc(entry.title)}</a></td>'
                f"<td>{_KIND_WORDS[entry.kind]}</td><td>{_origin(entry, label=False)}</td>"
                f'<td class="ex-links">{links}</td></tr>')
        out.append("</tbody></table></div>")
    out.append("</div>")
    return Html("".join(out))


# -- sources ---------------------------------------------------------------------------------

_SOURCE_FACTS: Mapping[str, tuple[str, str, str]] = {
    "A": ("German", "A rules page of a Durak website",
          "Both the throw-in game and the transfer game for two to six players: dealing and "
          "trump, beating, throwing in with its limits (five cards in the first bout), "
          "taking, transferring, drawing and the end of the game. It illustrates the rules "
          "with worked examples drawn as cards, explains how its own game screen shows "
          "playable cards, and ends with playing tips and a short glossary."),
    "B": ("German", "The rules of a two-player online Durak",
          "A compact rule summary for two players: openings with several cards of one rank, "
          "the limit by the defender's hand at the start of the bout, transfers (including "
          "sending the attack straight back), the draw order and the judging of the result. "
          "It rules out two common house variants in so many words: no trump exchange and "
          "no special five-card limit in the first bout. A few tips; the rest is about "
          "invitations and saved games, which is not part of the rules."),
    "C": ("Dutch", "A step-by-step Durak tutorial",
          "The throw-in game explained round by round for two players, with worked examples "
          "naming the cards (player 1 attacking with the nine of clubs, hearts as trump), "
          "the attack limit as the smaller of six and the defender's hand, the endgame and "
          "the durak, and strategy tips, including some for games with more players."),
    "D": ("Latvian", "A rules page",
          "Numbered steps for setting up, the card order, the normal game and the transfer "
          "game for two to six players, drawing in the order in which players joined the "
          "attack, and the goal stated as being the first without cards. The limit is the "
          "defender's hand at the start of the turn, and the ace of trumps cannot be beaten."),
}


def sources_index(*, features: Path | str | None = None) -> Html:
    """The four sources: language, scope (in the project's own words), the profiles built from
    each, and every rule ID each one states, linked."""
    site = _site(features)
    index = load_rule_index()
    out = ['<div class="durak-page">']
    for source in SOURCES:
        language, what, scope = _SOURCE_FACTS[source]
        ids = [e for e in index.entries if source in e.sources]
        profiles = [p for p in PROFILES.values()
                    if any(p.origin(a.name).source == source for a in AXES)]
        out.append(f'<section class="durak-source" id="source-{source}">')
        out.append(f'<h2><span class="durak-badge source big">{source}</span> {_esc(what)}</h2>')
        out.append(f'<p class="source-lang"><strong>Language:</strong> {_esc(language)}. '
                   f"<strong>Cited as:</strong> source {source}.</p>")
        out.append(f"<p>{_esc(scope)}</p>")
        if profiles:
            links = ", ".join(f'<a href="{MATRIX_PAGE}.html#profile-{p.name}">'
                              f"<code>{_esc(p.name)}</code></a>" for p in profiles)
            out.append(f"<p><strong>Rule profiles built from it:</strong> {links}.</p>")
        counts = Counter(e.kind for e in ids)
        summary = ", ".join(f"{n} {_KIND_WORDS[k]}{'s' if n != 1 else ''}"
                            for k, n in counts.items())
        out.append(f"<p><strong>What it states</strong> ({summary}):</p>")
        out.append('<ul class="durak-id-list">' + "".join(
            f'<li><a class="durak-badge rule-id kind-{e.kind}" href="{_esc(site.link(e.id))}">'
            f'{e.id}</a> <a href="{_esc(site.link(e.id))}">{_esc(e.title)}</a></li>'
            for e in ids) + "</ul>")
        out.append("</section>")
    out.append("</div>")
    return Html("".join(out))


# -- glossary --------------------------------------------------------------------------------

_GLOSSARY: tuple[tuple[str, str, str, str, str, str], ...] = (
    # English, German (A, B), Dutch (C), Latvian (D), Russian, note
    ("durak (the fool)", "Durak, der Dummkopf", "Durak, de dwaas", "duraks",
     "дурак (durak)", "the player left holding cards, who loses; also the game's name"),
    ("throw-in game (podkidnoy)", "Podkidnoj, Durak mit Nachlegen",
     "— (C teaches only this game)", "parastā spēle (the normal game)",
     "подкидной дурак (podkidnoy durak)", "attackers add cards of ranks on the table"),
    ("transfer game (perevodnoy)", "Perewodnoj, Durak mit Weitergeben", "— (not in C)",
     "pārnesamā spēle", "переводной дурак (perevodnoy durak)",
     "the defender may pass the attack on"),
    ("trump (kozyr)", "Trumpf (Kosyr)", "troef", "trumpis", "козырь (kozyr)",
     "the suit of the face-up card"),
    ("bout, attack", "Angriff", "ronde, aanval", "gājiens, uzbrukums",
     "ход, атака (khod, ataka)", "the opening card(s) and all added, until beaten or taken"),
    ("attacker", "Angreifer", "aanvaller", "uzbrucējs", "атакующий (atakuyushchiy)", ""),
    ("defender", "Verteidiger", "verdediger", "aizstāvis",
     "отбивающийся (otbivayushchiysya)", ""),
    ("beat, cover", "schlagen, decken", "verslaan", "pārsist", "бить, покрыть (bit', pokryt')",
     ""),
    ("throw in", "nachlegen", "extra aanvalskaarten spelen", "pievienot uzbrukuma kārtis",
     "подкидывать (podkidyvat')", "add an attack card"),
    ("take", "aufnehmen, nehmen", "pakken", "paņemt", "взять, «беру» (vzyat', beru)",
     "pick up the whole table"),
    ("transfer", "weitergeben", "—", "pārnest", "переводить (perevodit')",
     "transfer game only"),
    ("done, beaten", "fertig, geschlagen", "—", "—", "«бито» (bito)",
     "what attackers say when they add no more"),
    ("stock", "Stapel", "deck", "vilkšanas kava", "колода, прикуп (koloda, prikup)",
     "the cards left to draw"),
    ("discard pile", "Ablagestapel", "aflegstapel", "atmesto kāršu kaudze",
     "отбой, бито (otboy, bito)", "beaten cards, out of play"),
)


def glossary() -> Html:
    """TERM-1: the game's terms in English, German, Dutch, Latvian and Russian."""
    entry = load_rule_index()["TERM-1"]
    out = ['<div class="durak-page durak-wide">',
           f'<section class="durak-rule" id="{entry.id}">',
           f'<h2 class="rule-title"><a class="durak-permalink" href="#{entry.id}">{entry.id}</a> '
           f"{_esc(entry.title)}</h2>",
           f'<div class="rule-meta">{_id_badge(entry.id)} {_kind_badge(entry.kind)} · '
           f"{_origin(entry)}</div>",
           f'<div class="statement"><p>{_esc(entry.summary)}</p></div>',
           '<div class="durak-scroll"><table class="durak-table glossary">',
           "<thead><tr><th>English</th><th>German <small>(A, B)</small></th>"
           "<th>Dutch <small>(C)</small></th><th>Latvian <small>(D)</small></th>"
           "<th>Russian</th><th>Note</th></tr></thead><tbody>"]
    for english, german, dutch, latvian, russian, note in _GLOSSARY:
        cells = [english, german, dutch, latvian, russian, note]
        out.append("<tr>" + "".join(
            f'<td lang="{lang}">{_esc(c)}</td>'
            for c, lang in zip(cells, ("en", "de", "nl", "lv", "ru", "en"), strict=True))
            + "</tr>")
    out.append("</tbody></table></div></section></div>")
    return Html("".join(out))


# -- variants --------------------------------------------------------------------------------


def _axis_examples(axis: Axis, site: _Site) -> list[_Scenario]:
    """Scenarios that show an axis: in the variants chapter, those that mention it or its
    rule IDs first, then those tagged with its rule IDs."""
    found: list[_Scenario] = []
    mention = re.compile(r"\b(" + "|".join(re.escape(r) for r in axis.rules) + r")\b|"
                         + re.escape(f'"{axis.name}"'))
    for feature in site.features:
        if feature.chapter != "variants":
            continue
        for scenario in feature.scenarios():
            if mention.search(scenario.text()) and scenario not in found:
                found.append(scenario)
    for rule_id in axis.rules:
        for scenario in site.examples.get(rule_id, ()):
            if scenario not in found:
                found.append(scenario)
    return found


def variants_matrix(*, features: Path | str | None = None) -> Html:
    """Every variant axis of the rule set against every named profile, from
    :data:`~durak_spec.model.rules.AXES` and :data:`~durak_spec.model.rules.PROFILES`: each value
    with its
    origin (a source, or the specification's clarification), and per axis links to the rule
    and to examples that show the difference."""
    site = _site(features)
    profiles = list(PROFILES.values())
    out = ['<div class="durak-page durak-wide">',
           '<div class="durak-scroll"><table class="durak-table durak-matrix">',
           '<thead><tr><th scope="col">Axis</th>']
    for p in profiles:
        out.append(f'<th scope="col" id="profile-{p.name}"><a href="#notes-{p.name}" '
                   f'title="{_esc(p.title)}"><code>{_esc(p.name)}</code></a></th>')
    out.append('<th scope="col">Examples</th></tr></thead><tbody>')
    for axis in AXES:
        values = [getattr(p.base, axis.name) for p in profiles]
        common = Counter(Axis.format(v) for v in values).most_common(1)[0][0]
        rules = " ".join(_id_badge(r, target=site.link(r)) for r in axis.rules)
        out.append(f'<tr id="axis-{axis.name}"><th scope="row"><span class="axis-title">'
                   f"{_esc(axis.title)}</span><br><code>{_esc(axis.name)}</code> {rules}</th>")
        first_example = _axis_examples(axis, site)[:1]
        for p, value in zip(profiles, values, strict=True):
            origin = p.origin(axis.name)
            text = Axis.format(value)
            if axis.name == "players":
                text = f"{text} (2–6)"
            differs = Axis.format(value) != common
            mark = (f'<span class="origin src" title="{_esc(origin.note)}">{origin.source}</span>'
                    if origin.source else
                    f'<span class="origin clar" title="{_esc(origin.note)}">spec</span>')
            shown = _esc(text)
            if differs and first_example:
                shown = (f'<a href="{_esc(site.url_of_scenario(first_example[0]))}" '
                         f'title="an example of this difference: {_esc(first_example[0].name)}">'
                         f"{shown}</a>")
            out.append(f'<td class="{"differs" if differs else "same"}">'
                       f'<span class="value">{shown}</span> {mark}</td>')
        examples = _axis_examples(axis, site)[:3]
        links = " ".join(
            f'<a class="ex-link" href="{_esc(site.url_of_scenario(s))}" title="{_esc(s.name)}">'
            f"example {n}</a>" for n, s in enumerate(examples, start=1)) \
            or '<span class="pending">none yet</span>'
        out.append(f'<td class="ex-links">{links}</td></tr>')
    out.append("</tbody></table></div>")
    out.append('<p class="legend"><span class="origin src">A</span> the value is stated by that '
               'source; <span class="origin clar">spec</span> the source is silent and the '
               "specification decides (a clarification); a highlighted cell differs from most "
               "profiles. Hover over a mark, or open the notes below, for the reason.</p>")
    out.append('<h2 id="profile-notes">Notes per profile</h2>')
    for p in profiles:
        out.append(f'<details class="durak-notes" id="notes-{p.name}"><summary>'
                   f"<code>{_esc(p.name)}</code>: {_esc(p.title)}</summary>"
                   f"<p>{_esc(p.description)}</p><ul>")
        for axis in AXES:
            origin = p.origin(axis.name)
            who = f"source {origin.source}" if origin.source else "clarification"
            out.append(f"<li><code>{_esc(axis.name)}</code> = "
                       f"<strong>{_esc(Axis.format(getattr(p.base, axis.name)))}</strong> "
                       f"({who}: {_esc(origin.note)})</li>")
        out.append("</ul></details>")
    out.append("</div>")
    return Html("".join(out))


# -- the first page --------------------------------------------------------------------------

_ONE_MINUTE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The cards", ("DEAL-1", "DEAL-2", "DEAL-4", "DEAL-5", "DEAL-6")),
    ("A bout", ("ORDER-1", "ORDER-3", "ATTACK-1", "BEAT-1", "BEAT-2", "BEAT-3", "ATTACK-3",
                "ATTACK-4", "LIMIT-1", "LIMIT-2")),
    ("How a bout ends", ("DEFEND-1", "ORDER-4", "TAKE-1", "TAKE-2", "ORDER-5", "DRAW-1")),
    ("The end", ("END-1", "END-3", "END-4")),
    ("The transfer game", ("TRANSFER-1", "TRANSFER-3", "TRANSFER-5")),
)


def one_minute(*, features: Path | str | None = None) -> Html:
    """The game in one minute: the headline of each essential rule (from the rule index),
    linked to the rule with its examples."""
    site = _site(features)
    index = load_rule_index()
    out = ['<div class="durak-page durak-one-minute">']
    for title, ids in _ONE_MINUTE:
        out.append(f"<h3>{_esc(title)}</h3><ol>")
        for rule_id in ids:
            entry = index[rule_id]
            out.append(f'<li><a href="{_esc(site.link(rule_id))}">{_esc(entry.title)}</a> '
                       f'<span class="muted">{_id_badge(rule_id)}</span></li>')
        out.append("</ol>")
    out.append("</div>")
    return Html("".join(out))


def sample_position(seed: int = 7, players: int = 3) -> Html:
    """A position of a real game (the classic throw-in game, dealt with ``seed``): the first
    attacker has opened with their lowest card, and the defender's playable cards are bright.
    """
    names = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor")[:players]
    rules = profile("classic-throw-in").rules(players=players)
    for attempt in range(seed, seed + 200):
        state = new_game(rules, seed=attempt)
        opens = [a for a in legal_actions(state) if isinstance(a, Open) and len(a.cards) == 1]
        if not opens:
            continue
        opening = min(opens, key=lambda a: (a.cards[0].suit == state.trump, a.cards[0].rank))
        after = apply_action(state, opening)
        defender = after.defender
        covers = {c for a in legal_actions(after) if isinstance(a, Cover)
                  and a.player == defender for c in a.cards}
        hand = after.hands[defender]
        if covers and len(covers) < len(hand) - 1:
            attacker, card = names[opening.player], opening.cards[0]
            caption = (f"A three-player game of the classic throw-in game (dealt with seed "
                       f"{attempt}). {attacker} has opened with {card}; "
                       f"{names[defender]} defends. Bright cards are the ones "
                       f"{names[defender]} may play now; the gold border marks trumps; the "
                       "face-up trump lies under the stock.")
            return Html(_figure(after, names, caption, playable_for=defender,
                                highlight=(card,)))
    raise BookError("no seed gave a position with both playable and unplayable cards")


# -- checking an engine --------------------------------------------------------------------------


def _schema() -> dict[str, Any]:
    text = resources.files("durak_spec").joinpath("data", "protocol.schema.json") \
        .read_text(encoding="utf-8")
    return cast(dict[str, Any], json.loads(text))


def engine_protocol() -> Html:
    """The methods of :class:`durak_spec.protocol.Engine`, with their signatures and
    docstrings, read from the class itself."""
    import inspect

    from durak_spec.protocol import Capabilities

    out = ['<div class="durak-page"><dl class="durak-api">']
    for name in ("capabilities", "start", "load", "legal_actions", "apply", "report", "close"):
        member = getattr(Engine, name)
        signature = str(inspect.signature(member)).replace("'", "")
        doc = inspect.getdoc(member) or ""
        out.append(f"<dt><code>{_esc(name)}{_esc(signature)}</code></dt>"
                   f"<dd>{_paragraphs(doc, None)}</dd>")
    out.append("</dl>")
    fields = [(f, getattr(Capabilities, "__dataclass_fields__", {})[f].type)
              for f in getattr(Capabilities, "__dataclass_fields__", {})]
    out.append("<p><code>Capabilities</code>, the answer to <code>capabilities()</code>, "
               "holds: " + ", ".join(f"<code>{_esc(n)}</code>" for n, _ in fields) + ". "
               + _inline(inspect.getdoc(Capabilities.supports) or "", None) + "</p></div>")
    return Html("".join(out))


def command_options(command: str = "check") -> Html:
    """The options of a ``durak-spec`` command, read from the command line parser itself."""
    import argparse

    from durak_spec.conformance import checker

    faces = {"check": checker.add_parser}
    if command not in faces:
        raise BookError(f"durak-spec has no command {command!r} that the book describes; "
                        f"it describes {', '.join(faces)}")
    parser = argparse.ArgumentParser(prog="durak-spec")
    faces[command](parser.add_subparsers())
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub = commands.choices[command]
    out = ['<div class="durak-page"><div class="durak-scroll"><table class="durak-table">',
           "<thead><tr><th>option</th><th>what it does</th></tr></thead><tbody>"]
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction) or not action.option_strings:
            continue
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        names = ", ".join(f"{o} {metavar}".strip() for o in action.option_strings)
        text = (action.help or "").replace("%%", "%")
        out.append(f"<tr><td><code>{_esc(names)}</code></td><td>{_inline(text, None)}</td>"
                   "</tr>")
    out.append("</tbody></table></div></div>")
    return Html("".join(out))


def protocol_reference() -> Html:
    """The wire protocol's commands, generated from ``durak_spec/data/protocol.schema.json``:
    each request with its fields and description, and its successful answer."""
    schema = _schema()
    defs = cast(dict[str, Any], schema["$defs"])
    answers = {"hello": "helloResponse", "start": "reportResponse", "load": "reportResponse",
               "legal": "legalResponse", "apply": "acceptedResponse",
               "state": "reportResponse", "quit": "okResponse"}
    out = ['<div class="durak-page">', f"<p>{_esc(schema.get('description', ''))}</p>",
           '<div class="durak-scroll"><table class="durak-table protocol">',
           "<thead><tr><th>cmd</th><th>request fields</th><th>what it does</th>"
           "<th>successful answer</th></tr></thead><tbody>"]
    for name, definition in defs.items():
        if not name.endswith("Request") or "properties" not in definition:
            continue
        cmd = cast(dict[str, Any], definition["properties"]).get("cmd", {}).get("const")
        if not isinstance(cmd, str):
            continue
        required = set(definition.get("required", ()))
        fields = ", ".join(
            f"<code>{_esc(f)}</code>" + ("" if f in required else " (optional)")
            for f in definition["properties"] if f not in ("id", "cmd"))
        answer_name = answers.get(cmd, "")
        answer = defs.get(answer_name, {})
        answer_fields = ", ".join(
            f"<code>{_esc(f)}</code>" for f in answer.get("properties", {}) if f not in ("id",))
        if cmd == "apply":
            rejected = defs.get("rejectedResponse", {}).get("properties", {})
            answer_fields += " — or, for an illegal action, " + ", ".join(
                f"<code>{_esc(f)}</code>" for f in rejected if f != "id")
        out.append(f"<tr><td><code>{_esc(cmd)}</code></td><td>{fields or '—'}</td>"
                   f"<td>{_inline(str(definition.get('description', '')), None)}</td>"
                   f"<td>{answer_fields}</td></tr>")
    out.append("</tbody></table></div>")
    error = defs.get("errorResponse", {})
    out.append(f"<p><strong>Errors.</strong> {_inline(str(error.get('description', '')), None)} "
               "Fields: " + ", ".join(f"<code>{_esc(f)}</code>"
                                      for f in error.get("properties", {})) + ".</p>")
    out.append("</div>")
    return Html("".join(out))


def protocol_transcript() -> Html:
    """A real conversation with the reference engine over the wire protocol, made while the
    page is built: the handshake, a deal, the legal actions, an illegal and a legal move."""
    from durak_spec.protocol.serve import serve
    from durak_spec.protocol.wire import (
        ApplyRequest,
        HelloRequest,
        LegalRequest,
        QuitRequest,
        Request,
        StartRequest,
        encode_request,
    )

    rules = profile("classic-throw-in").rules(players=2)
    state = new_game(rules, seed=3)
    deck = _deck_of(state)
    opens = [a for a in legal_actions(state) if isinstance(a, Open)]
    opening = min(opens, key=lambda a: a.cards[0].rank)
    illegal = Take(player=opening.player)
    requests: list[Request] = [HelloRequest(1), StartRequest(2, rules, deck, 3),
                               LegalRequest(3), ApplyRequest(4, illegal),
                               ApplyRequest(5, opening), QuitRequest(6)]
    lines = [encode_request(r) for r in requests]
    stdout = io.StringIO()
    serve(ReferenceEngine(), io.StringIO("\n".join(lines) + "\n"), stdout)
    answers = stdout.getvalue().splitlines()
    out = ['<div class="durak-transcript"><pre class="durak-pre">']
    for request, answer in zip(lines, answers, strict=False):
        out.append(f'<span class="to">→ {_esc(_shorten(request))}</span>\n')
        out.append(f'<span class="from">← {_esc(_shorten(answer))}</span>\n')
    out.append("</pre></div>")
    return Html("".join(out))


def _shorten(line: str, limit: int = 400) -> str:
    return line if len(line) <= limit else line[:limit] + f"… ({len(line) - limit} more)"


def _deck_of(state: GameState) -> tuple[Card, ...]:
    """The deck order (CLAR-10) that deals ``state``, a freshly dealt game."""
    cards: list[Card] = []
    for hand in state.hands:
        cards.extend(hand)
    cards.extend(state.stock)
    return tuple(cards)


def verification_summary(*, features: Path | str | None = None) -> Html:
    """Every scenario of the specification run against the reference engine while the page is
    built, counted per feature file and per outcome. Raises :class:`ExampleFailed` if any
    scenario does not pass."""
    site = _site(features)
    outcome = _play([f.path for f in site.features])
    _verify((s for f in site.features for s in f.scenarios()), outcome)
    out = ['<div class="durak-page"><div class="durak-scroll"><table class="durak-table">',
           "<thead><tr><th>Feature file</th><th>Chapter</th><th>Scenario runs</th>"
           "<th>Passed</th></tr></thead><tbody>"]
    total = passed = 0
    for feature in site.features:
        runs = [outcome.get(s, line) for s in feature.scenarios() for line in s.lines]
        ok = sum(1 for r in runs if r is not None and r.result.outcome == "passed")
        total += len(runs)
        passed += ok
        page = PAGE_OF_CHAPTER[feature.chapter]
        out.append(f"<tr><td><code>{_esc(feature.path.name)}</code></td>"
                   f'<td><a href="{page}.html">{_esc(CHAPTERS[feature.chapter])}</a></td>'
                   f"<td>{len(runs)}</td><td>{ok} ✓</td></tr>")
    out.append(f"<tr><th>all</th><th></th><th>{total}</th><th>{passed} ✓</th></tr>")
    out.append("</tbody></table></div>")
    out.append(f'<p class="durak-summary">Counted while this page was built ({_esc(outcome.when)})'
               f": {outcome.result.counts} against {_esc(outcome.result.engine)}.</p></div>")
    return Html("".join(out))


if __name__ == "__main__":
    # Run the module's own copy (not this ``__main__`` one), so that what prepare() pickles
    # refers to durak_spec.book, where the pages' kernels find it.
    from durak_spec.book import main as _main

    raise SystemExit(_main())
