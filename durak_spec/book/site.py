"""Where everything is on the rules website: pages, rule sections and examples.

A :class:`Site` is built from the specification (:mod:`durak_spec.spec.gherkin`) and the
rule index. Pages are flat (chapter ``beating`` is ``beating.html``); a rule's section
has its ID as element id (``beating.html#BEAT-1``), an example its number
(``beating.html#BEAT-1.2``). Every rule ID has one primary place: the section of the Rule
tagged with it, else its chapter page's list of further entries (worked examples: the
worked-examples page; glossary entries: the glossary).

A feature file has a home chapter (by its name, ``04_attacking.feature``: ``attacking``),
whose page shows its description and its Rules, except the Rules whose first ID the rule
index puts in a chapter that continues the home chapter (``CONTINUES``: ``turns``
continues ``attacking``): those are on that chapter's page. So one feature file can fill
several pages, and every rule sits in the chapter where the index lists it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from durak_spec.core.errors import InputError
from durak_spec.core.ruleindex import CHAPTERS, CONTINUES, load_rule_index
from durak_spec.spec.gherkin import Example, Feature, Rule, Specification, read_specification

__all__ = ["PAGE_OF_CHAPTER", "BookError", "Site", "build_site"]

PAGE_OF_CHAPTER: Mapping[str, str] = MappingProxyType(
    {slug: ("worked-examples" if slug == "examples" else slug) for slug in CHAPTERS})
"""The page (HTML file name without ``.html``) that shows each chapter of the rule index."""

SHARED_PAGES: Mapping[str, str] = MappingProxyType({
    "rule-index": "Rule index", "sources": "Sources", "glossary": "Glossary",
    "variants-matrix": "Variants matrix", "clarifications": "Clarifications",
    "worked-examples": "Worked examples", "implementers": "Check your engine",
    "protocol": "The engine protocol and the test vectors",
})


class BookError(InputError):
    """The book cannot show something: an unknown chapter, an unreadable feature file."""

    code = "book"


@dataclass(frozen=True)
class Site:
    """The specification with the place of every rule and example on the website."""

    spec: Specification
    chapter_of: Mapping[Path, str]
    """Feature file -> its home chapter (slug), whose page shows its description."""
    rule_chapter: Mapping[tuple[Path, int], str]
    """(feature, Rule line) -> the chapter whose page shows the Rule."""
    places: Mapping[str, str]
    """Rule ID -> the URL of its primary place."""
    example_urls: Mapping[str, str]
    """Example number -> its URL."""
    examples_of: Mapping[str, tuple[Example, ...]]
    """Rule ID -> every example that carries it (its own, its Rule's or feature's tags)."""
    section_of: Mapping[tuple[Path, int], str]
    """(feature, Rule line) -> the element id of the Rule's section."""

    def link(self, ident: str) -> str | None:
        """The URL of a rule ID or an example number, if the site shows it."""
        return self.places.get(ident) or self.example_urls.get(ident)

    def features_of(self, chapter: str) -> tuple[Feature, ...]:
        """The feature files with something on the chapter's page: their description (their
        home chapter) or some of their Rules."""
        return tuple(f for f in self.spec.features if self.chapter_of[f.path] == chapter
                     or any(self.chapter_of_rule(r) == chapter for r in f.rules))

    def rules_of(self, chapter: str, feature: Feature) -> tuple[Rule, ...]:
        """The Rules of ``feature`` that the chapter's page shows, in the file's order."""
        return tuple(r for r in feature.rules if self.chapter_of_rule(r) == chapter)

    def chapter_of_rule(self, rule: Rule) -> str:
        return self.rule_chapter[(rule.path, rule.line)]

    def section_id(self, rule: Rule) -> str:
        return self.section_of[(rule.path, rule.line)]


def _chapter(feature: Feature) -> str:
    """By the file's name (``03_beating.feature``), else by its Rules' rule IDs."""
    if feature.chapter_stem in CHAPTERS:
        return feature.chapter_stem
    index = load_rule_index()
    votes: dict[str, int] = {}
    for rule in feature.rules:
        for rule_id in rule.ids:
            votes[index[rule_id].chapter] = votes.get(index[rule_id].chapter, 0) + 1
    if votes:
        return max(votes, key=lambda c: votes[c])
    raise BookError(
        f"{feature.path.name}: cannot tell which chapter of the book it belongs to; name it "
        f"NN_<chapter>.feature with a chapter of the rule index ({', '.join(CHAPTERS)}) or tag "
        "its Rules with rule IDs")


def _rule_chapter(rule: Rule, home: str) -> str:
    """The index chapter of the Rule's first ID if it continues the feature's home chapter
    (:data:`~durak_spec.core.ruleindex.CONTINUES`); else the home chapter."""
    if rule.ids:
        chapter = load_rule_index()[rule.ids[0]].chapter
        if CONTINUES.get(chapter) == home:
            return chapter
    return home


def build_site(features: Path | str | Specification) -> Site:
    """The site for a directory of feature files (or an already read specification)."""
    spec = features if isinstance(features, Specification) else read_specification(features)
    index = load_rule_index()
    chapter_of = {f.path: _chapter(f) for f in spec.features}
    places: dict[str, str] = {}
    example_urls: dict[str, str] = {}
    examples_of: dict[str, list[Example]] = {}
    section_of: dict[tuple[Path, int], str] = {}
    rule_chapter: dict[tuple[Path, int], str] = {}
    taken: set[str] = set()
    for feature in spec.features:
        home = PAGE_OF_CHAPTER[chapter_of[feature.path]]
        for rule in feature.rules:
            chapter = _rule_chapter(rule, chapter_of[feature.path])
            rule_chapter[(rule.path, rule.line)] = chapter
            page = PAGE_OF_CHAPTER[chapter]
            free = [i for i in rule.ids if i not in taken]
            section = free[0] if free else f"rule-{feature.path.stem}-{rule.line}"
            taken.add(section)
            section_of[(rule.path, rule.line)] = section
            for rule_id in rule.ids:
                places.setdefault(rule_id, f"{page}.html#{section}")
            for example in rule.examples():
                example_urls[example.number] = f"{page}.html#{example.number}"
        for example in feature.examples():
            example_urls.setdefault(example.number, f"{home}.html#{example.number}")
            for tag in example.rule_ids:
                examples_of.setdefault(tag, []).append(example)
    for entry in index.entries:
        if entry.kind == "glossary":
            places.setdefault(entry.id, f"glossary.html#{entry.id}")
        places.setdefault(entry.id, f"{PAGE_OF_CHAPTER[entry.chapter]}.html#{entry.id}")
    return Site(spec=spec, chapter_of=MappingProxyType(chapter_of),
                rule_chapter=MappingProxyType(rule_chapter),
                places=MappingProxyType(places), example_urls=MappingProxyType(example_urls),
                examples_of=MappingProxyType({k: tuple(v) for k, v in examples_of.items()}),
                section_of=MappingProxyType(section_of))
