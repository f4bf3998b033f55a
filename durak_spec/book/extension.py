"""The Sphinx extension of the rules book: directives that put the specification on pages.

Loaded by the book's ``_config.yml`` (``durak_spec.book`` in ``sphinx.config.extensions``).
When the build starts (``builder-inited``) it reads the feature files once (the shared model
of :mod:`durak_spec.spec.gherkin`), plays every example once against the reference engine
(:func:`durak_spec.book.play.play_all`) and runs the Python shown for each example. If any
example did not pass, the build stops right there (exit status 1) with a short report of
every broken example: number, file and line of the failing step, and what the engine did. Everything
else lives in one :class:`BookBuild` object that the directives of this build share: no
module state, no environment variables, nothing pickled between processes.

The directives (MyST: a fenced block ```` ```{durak-chapter} beating ```` ````):

* ``durak-chapter SLUG``: a chapter of the rules. Every ``Rule:`` is a real section (in the
  page's contents and the search index, with an index entry for its ID), whose element id
  is its rule ID; it shows the rule's statement, its clearest example (the first) and the
  others folded under "more examples".
* ``durak-entries clarifications|worked-examples``: every clarification (or worked example
  of the sources) as a section with its summary and links to the examples that encode it.
* ``durak-matrix``, ``durak-profile-notes``, ``durak-rule-index``, ``durak-sources``,
  ``durak-glossary``, ``durak-summary``: the reference pages.
* ``durak-picture NAME`` and ``durak-game``: the pictures of "How to play" and the
  narrated game.
* ``durak-protocol``, ``durak-transcript``, ``durak-engine-api``, ``durak-options CMD``:
  the pages for implementers.

Configuration: ``durak_features`` (a directory of feature files; default: the package's) and
``durak_engine`` (the packed engine of :mod:`durak_spec.book.bundle`; default: the book's
``_pyodide_site`` folder, used when it is there). When the build finishes, the feature files,
the protocol schema and the test vectors with their schema are copied into the site
(``_static/spec/``), with a zip of the feature files, for readers to download, and
``_static/durak-links.json`` says where each
rule ID and example number is, for the links of the live boards.
"""

from __future__ import annotations

import json
import shutil
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes
from sphinx.util import logging

from durak_spec.core.ruleindex import CHAPTERS, load_rule_index
from durak_spec.core.version import __version__
from durak_spec.game.markup import Markup, element, join
from durak_spec.spec.runner import features_dir

from . import pages, render
from .bundle import engine_problem, read_manifest
from .play import Broken, ExampleFailed, Run, broken_examples, check_python, play_all, python_of
from .site import PAGE_OF_CHAPTER, BookError, Site, build_site
from .text import paragraphs, plain_paragraphs

__all__ = ["BookBuild", "setup"]

_log = logging.getLogger(__name__)


@dataclass
class BookBuild:
    """What one build of the book knows: the site and the run of every example."""

    features: Path
    site: Site | None = None
    run: Run | None = None
    seconds: float = 0.0
    broken: tuple[Broken, ...] = ()
    when: str = ""
    engine_bytes: int | None = None
    """The size of the engine served with the site, if it is packed (see :func:`_engine`)."""

    def prepare(self) -> None:
        """Read the features, play every example, check the Python of each."""
        started = time.perf_counter()
        self.site = build_site(self.features)
        total = sum(1 for _ in self.site.spec.examples())
        _log.info(f"durak: playing the {total} examples of {self.features} ...")
        last = [0.0]

        def progress(done: int, count: int) -> None:
            now = time.perf_counter()
            if now - last[0] > 5 or done == count:
                last[0] = now
                _log.info(f"durak: played {done}/{count} examples")

        self.run = play_all(self.site.spec, progress=progress)
        broken = list(broken_examples(self.site.spec, self.run))
        for played in self.run.played.values():
            if not played.passed:
                continue
            code = python_of(played)
            problem = check_python(played, code) if code is not None else None
            if problem is not None:
                example = played.example
                broken.append(Broken(example.number, example.path.name, example.line,
                                     example.name, "its Python", problem))
        self.broken = tuple(broken)
        self.seconds = time.perf_counter() - started
        self.when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        _log.info(f"durak: {total} examples played in {self.seconds:.1f} s, "
                  f"{len(self.broken)} broken")

    def ready(self) -> tuple[Site, Run]:
        if self.site is None or self.run is None:
            raise BookError("the book's examples were not played: is durak_spec.book loaded "
                            "as a Sphinx extension?")
        return self.site, self.run


# -- building nodes -------------------------------------------------------------------------


def _raw(markup: Markup | str) -> nodes.raw:
    return nodes.raw("", str(markup), format="html")


def _section(ident: str, title: Sequence[nodes.Node], *, index_terms: Sequence[str] = (),
             classes: Sequence[str] = ()) -> nodes.section:
    section = nodes.section(ids=[ident], classes=list(classes))
    section += nodes.title("", "", *title)
    if index_terms:
        section += addnodes.index(entries=[("single", term, ident, "main", None)
                                           for term in index_terms])
    return section


def _paragraph_nodes(text: str, names: Sequence[str] = ()) -> list[nodes.Node]:
    return [nodes.paragraph(p, p) for p in plain_paragraphs(text, names)]


class _BookDirective(Directive):
    """A directive of this build (``build`` is set by :func:`setup`)."""

    build: ClassVar[BookBuild]
    optional_arguments = 1
    has_content = False

    def make(self) -> list[nodes.Node]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        try:
            return self.make()
        except BookError as error:
            raise self.error(str(error)) from None


class ChapterDirective(_BookDirective):
    required_arguments = 1
    optional_arguments = 0

    def make(self) -> list[nodes.Node]:
        slug = self.arguments[0]
        if slug not in CHAPTERS:
            raise BookError(f"unknown chapter {slug!r}; chapters are {', '.join(CHAPTERS)}")
        site, run = self.build.ready()
        return chapter_nodes(slug, site, run, self.build.when)


def chapter_nodes(slug: str, site: Site, run: Run, when: str = "") -> list[nodes.Node]:
    """The nodes of one chapter page: intro, one section per Rule, the rest of the index."""
    index = load_rule_index()
    out: list[nodes.Node] = []
    features = site.features_of(slug)
    homes = [f for f in features if site.chapter_of[f.path] == slug]
    count = sum(1 for f in features for r in site.rules_of(slug, f) for _ in r.examples()) \
        + sum(1 for f in homes for s in f.loose for _ in s.examples)
    for feature in homes:
        out.extend(_paragraph_nodes(feature.description))
    if count:
        out.append(_raw(element(
            "p", f"Each of the {count} examples on this page was played by the reference "
            f"engine when the site was built{f' ({when})' if when else ''}; every move shows "
            "the engine's answer. Only the first example of each rule is open: the others "
            "are under “more examples”.", class_="durak-summary")))
    shown: set[str] = set()
    for feature in features:
        for rule in site.rules_of(slug, feature):
            ident = site.section_id(rule)
            shown.update(rule.ids)
            label = " ".join(rule.ids)
            # The rule's one title, from the rule index (a test holds the Rule: line of
            # the feature file to it), as refusals and `durak-spec rules` say it.
            name = index[rule.ids[0]].title if rule.ids else rule.name
            title = [nodes.inline(label, label, classes=["rule-id"]),
                     nodes.Text(" " + name)] if label else [nodes.Text(name)]
            section = _section(ident, title, index_terms=rule.ids, classes=["durak-rule"])
            metas = [render.rule_meta_html(index[r]) for r in rule.ids]
            titles = [element("p", element("strong", r), " in the rule index: ",
                              index[r].title, class_="index-title")
                      for r in rule.ids[1:] if index[r].title != name]
            section += _raw(join([*metas, *titles]))
            statement = paragraphs(rule.description, site.link)
            section += _raw(element("div", statement, class_="durak-statement"))
            examples = list(rule.examples())
            section += _example_index(examples)
            section += _raw(render.examples_block(examples, site, run.played))
            out.append(section)
        if feature.loose and feature in homes:
            section = _section(f"more-{feature.path.stem}", [nodes.Text("More examples")])
            examples = [e for s in feature.loose for e in s.examples]
            section += _example_index(examples)
            section += _raw(join(render.example_html(e, run.played.get(e.number), site)
                                 for e in examples))
            out.append(section)
    rest = [e for e in index.by_chapter(slug) if e.id not in shown]
    if rest:
        out.append(_more_entries(rest, site, PAGE_OF_CHAPTER[slug]))
    return out


def _example_index(examples: Sequence[Any]) -> addnodes.index:
    # "main" entries: the search lists an example found by its number first, at its anchor.
    return addnodes.index(entries=[("single", e.number, e.number, "main", None)
                                   for e in examples])


def _more_entries(entries: Sequence[Any], site: Site, page: str) -> nodes.section:
    section = _section("more-of-this-chapter", [nodes.Text("More of this chapter")],
                       classes=["durak-rule", "durak-more-entries"])
    items: list[Markup] = []
    for entry in entries:
        place = site.link(entry.id) or "#"
        here = place.startswith(f"{page}.html#{entry.id}")
        examples = site.examples_of.get(entry.id, ())
        links: Markup | str = ""
        if not here:
            links = element("a", "see where it is shown", href=place, class_="where-link")
        elif examples:
            links = render.example_links(examples, site)
        elif entry.kind != "glossary":
            links = element("span", "no example yet", class_="muted")
        items.append(element("dt", element("span", entry.id, class_="rule-id"), " ",
                             entry.title, id=entry.id if here else None))
        items.append(element("dd", element("p", entry.summary), render.rule_meta_html(entry),
                             links))
    section += addnodes.index(entries=[("single", e.id, e.id, "main", None) for e in entries
                                       if (site.link(e.id) or "").startswith(f"{page}.html#")])
    section += _raw(element("dl", items, class_="durak-entries"))
    return section


class EntriesDirective(_BookDirective):
    """``durak-entries clarifications`` or ``durak-entries worked-examples``."""

    required_arguments = 1
    optional_arguments = 0

    def make(self) -> list[nodes.Node]:
        site, _ = self.build.ready()
        index = load_rule_index()
        which = self.arguments[0]
        if which == "clarifications":
            entries = [e for e in index.entries if e.clarification]
        elif which == "worked-examples":
            entries = [e for e in index.entries if e.kind == "example"]
        else:
            raise BookError(f"durak-entries shows clarifications or worked-examples, not "
                            f"{which!r}")
        out: list[nodes.Node] = []
        for entry in entries:
            section = _section(entry.id, [nodes.inline(entry.id, entry.id, classes=["rule-id"]),
                                          nodes.Text(" " + entry.title)],
                               index_terms=[entry.id], classes=["durak-rule"])
            examples = site.examples_of.get(entry.id, ())
            chapter = PAGE_OF_CHAPTER[entry.chapter]
            parts: list[object] = [render.rule_meta_html(entry),
                                   element("div", element("p", entry.summary),
                                           class_="durak-statement")]
            rule_place = site.link(entry.id) or ""
            if rule_place and not rule_place.startswith(f"{PAGE_OF_CHAPTER.get(which, which)}"):
                where = ["Stated in ", element("a", CHAPTERS[entry.chapter], href=rule_place)]
            else:
                where = ["Chapter: ", element("a", CHAPTERS[entry.chapter],
                                              href=f"{chapter}.html")]
            pages = {site.example_urls[e.number].split(".html", 1)[0] for e in examples}
            if pages == {chapter}:
                # the examples are where the rule is: the chapter is named once
                parts.append(element("p", *where, f"; the examples that encode it "
                                     f"({len(examples)}): ",
                                     render.example_numbers(examples, site), "."))
            else:
                parts.append(element("p", *where, "."))
                if examples:
                    parts.append(element("p", f"Examples that encode it ({len(examples)}):"))
                    parts.append(render.example_links(examples, site))
                else:
                    parts.append(element("p", "No example encodes it yet.", class_="muted"))
            section += _raw(join(parts))
            out.append(section)
        return out


def _simple(make: Callable[[BookBuild, Sequence[str]], Markup]) -> type[_BookDirective]:
    class Simple(_BookDirective):
        def make(self) -> list[nodes.Node]:
            return [_raw(make(self.build, self.arguments))]

    return Simple


def _summary(build: BookBuild, _: Sequence[str]) -> Markup:
    site, run = build.ready()
    rows = []
    total = passed = 0
    for feature in site.spec.features:
        examples = list(feature.examples())
        ok = sum(1 for e in examples if (p := run.played.get(e.number)) is not None and p.passed)
        total += len(examples)
        passed += ok
        chapters = dict.fromkeys([site.chapter_of[feature.path],
                                  *(site.chapter_of_rule(r) for r in feature.rules)])
        links = join(element("a", CHAPTERS[c], href=f"{PAGE_OF_CHAPTER[c]}.html") if i == 0
                     else join([", ", element("a", CHAPTERS[c],
                                              href=f"{PAGE_OF_CHAPTER[c]}.html")])
                     for i, c in enumerate(chapters))
        rows.append(element("tr", element("td", element(
            "a", feature.path.name, href=f"{render.FEATURES_URL}{feature.path.name}")),
            element("td", links),
            element("td", str(len(examples))), element("td", f"{ok} ✓")))
    rows.append(element("tr", element("th", "all"), element("th", ""), element("th", str(total)),
                        element("th", f"{passed} ✓")))
    return join([element("div", element("table", element("thead", element("tr", [
        element("th", h) for h in ("Feature file", "Chapters", "Examples", "Passed")])),
        element("tbody", rows), class_="durak-table"), class_="durak-scroll"),
        element("p", f"Counted when this page was built ({build.when}), in "
                f"{build.seconds:.0f} s, against {run.result.engine}, durak-spec "
                f"{__version__}.", class_="durak-summary")])


def _game(build: BookBuild, _: Sequence[str]) -> Markup:
    _, bouts = pages.narrated_game()
    out: list[object] = []
    for bout in bouts:
        out.append(element("h3", f"Bout {bout.number}: {bout.title}", id=f"bout-{bout.number}",
                           class_="durak-bout"))
        before, after = bout.moves[:bout.asked_after], bout.moves[bout.asked_after:]
        if before:
            out.append(element("p", " ".join(before)))
        if bout.question is not None:
            out.append(bout.question)
        if after:
            out.append(element("p", "Then: " + " ".join(after) if bout.question else
                               " ".join(after)))
        out.append(element("p", bout.ending, class_="durak-bout-end"))
    return join(out)


_SIMPLE: Mapping[str, Callable[[BookBuild, Sequence[str]], Markup]] = MappingProxyType({
    "durak-matrix": lambda b, _: render.variants_table_html(b.ready()[0]),
    "durak-profile-notes": lambda b, _: render.profile_notes_html(),
    "durak-rule-index": lambda b, _: render.rule_index_html(b.ready()[0]),
    "durak-sources": lambda b, _: render.sources_html(b.ready()[0]),
    "durak-glossary": lambda b, _: render.glossary_html(),
    "durak-summary": _summary,
    "durak-picture": lambda b, args: pages.picture(args[0] if args else ""),
    "durak-game": _game,
    "durak-play": lambda b, _: pages.play_form(b.engine_bytes),
    "durak-protocol": lambda b, _: pages.protocol_reference(),
    "durak-actions": lambda b, _: pages.action_reference(),
    "durak-transcript": lambda b, _: pages.protocol_transcript(),
    "durak-engine-api": lambda b, _: pages.engine_protocol(),
    "durak-options": lambda b, args: pages.command_options(args[0] if args else "check"),
})


# -- the extension ---------------------------------------------------------------------------


def _downloads(build: BookBuild, outdir: Path) -> None:
    target = outdir / "_static" / "spec"
    features = target / "features"
    features.mkdir(parents=True, exist_ok=True)
    files = sorted(build.features.glob("*.feature"))
    for path in files:
        shutil.copyfile(path, features / path.name)
    for name in ("protocol.schema.json", "vectors.json", "vectors.schema.json"):
        shipped = resources.files("durak_spec").joinpath("data", name)
        (target / name).write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    with zipfile.ZipFile(target / "durak-spec-features.zip", "w",
                         compression=zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.write(path, f"features/{path.name}")


def _links(build: BookBuild, outdir: Path) -> None:
    """Where every rule ID and example number is on the site, for the live boards' links."""
    site, _ = build.ready()
    links = {**dict(site.example_urls), **dict(site.places)}
    (outdir / "_static" / "durak-links.json").write_text(
        json.dumps(links, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
        encoding="utf-8")


def _engine(app: Any, config: Any, build: BookBuild) -> None:
    """Serve the packed engine with the site and load the "Try it" script on every page,
    when the engine is packed (``book/_pyodide_site``, see :mod:`durak_spec.book.bundle`);
    without it the site is the same, with pictures only. A stale engine fails the build."""
    configured = str(config.durak_engine or "")
    folder = Path(configured) if configured else Path(app.srcdir) / "_pyodide_site"
    if read_manifest(folder) is None:
        _log.info(f"durak: no packed engine in {folder}: the pictures have no Try it button "
                  "(python book/web/pack.py packs it)")
        return
    problem = engine_problem(folder)
    if problem is not None:
        _log.warning(f"durak: {problem}")
        return
    config.html_extra_path = [*config.html_extra_path, str(folder.resolve())]
    app.add_js_file("durak-try.mjs", type="module")
    manifest = read_manifest(folder) or {}
    build.engine_bytes = int(manifest.get("bytes", 0)) or None
    _log.info(f"durak: the site serves the engine packed in {folder}")


def setup(app: Any) -> dict[str, Any]:
    """Register the directives and the build's events (see the module's docstring)."""
    app.add_config_value("durak_features", "", "env")
    app.add_config_value("durak_engine", "", "env")
    build = BookBuild(features=Path())

    def started(app: Any) -> None:
        configured = str(app.config.durak_features or "")
        build.features = Path(configured).resolve() if configured else features_dir()
        build.prepare()
        if build.broken:
            # Say what is broken, in a few lines per example, and stop the build. Not an
            # exception: jupyter-book prints the traceback of any exception twice, which
            # buries the report; SystemExit passes through it and ends the build with exit
            # status 1 (plain sphinx-build as well).
            _log.error(str(ExampleFailed(build.broken)))
            raise SystemExit(1)

    def finished(app: Any, exception: BaseException | None) -> None:
        if exception is None and getattr(app.builder, "format", "") == "html":
            _downloads(build, Path(app.outdir))
            _links(build, Path(app.outdir))

    app.connect("config-inited", lambda app, config: _engine(app, config, build))
    app.connect("builder-inited", started)
    app.connect("build-finished", finished)
    directives: dict[str, type[_BookDirective]] = {
        "durak-chapter": ChapterDirective, "durak-entries": EntriesDirective,
        **{name: _simple(make) for name, make in _SIMPLE.items()},
    }
    for name, base in directives.items():
        app.add_directive(name, type(base.__name__, (base,), {"build": build}))
    return {"version": __version__, "parallel_read_safe": False, "parallel_write_safe": True}
