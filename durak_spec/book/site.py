"""Where everything is on the rules website: pages, rule sections and examples.

A :class:`Site` is built from the specification (:mod:`durak_spec.spec.gherkin`) and the
rule index. Pages are flat (chapter ``beating`` is ``beating.html``); a rule's section
has its ID as element id (``beating.html#BEAT-1``), an example its number
(``beating.html#BEAT-1.2``). Every rule ID has one primary place: the section of the Rule
tagged with it, else its chapter page's list of further entries (worked examples: the
worked-examples page; glossary entries: the glossary).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from durak_spec.core.errors import InputError
from durak_spec.core.ruleindex import CHAPTERS, load_rule_index
from durak_spec.spec.gherkin import Example, Feature, Rule, Specification, read_specification

__all__ = ["PAGE_OF_CHAPTER", "BookError", "Site", "build_site"]

PAGE_OF_CHAPTER: Mapping[str, str] = MappingProxyType(
    {slug: ("worked-examples" if slug == "examples" else slug) for slug in CHAPTERS})
"""The page (HTML file name without ``.html``) that shows each chapter of the rule index."""

SHARED_PAGES: Mapping[str, str] = MappingProxyType({
    "rule-index": "Rule index", "sources": "Sources", "glossary": "Glossary",
    "variants-matrix": "Variants matrix", "clarifications": "Clarifications",
    "worked-examples": "Worked examples", "implementers": "Check your engine",
})


class BookError(InputError):
    """The book cannot show something: an unknown chapter, an unreadable feature file."""

    code = "book"


@dataclass(frozen=True)
class Site:
    """The specification with the place of every rule and example on the website."""

    spec: Specification
    chapter_of: Mapping[Path, str]
    """Feature file -> the chapter (slug) whose page shows it."""
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
        return tuple(f for f in self.spec.features if self.chapter_of[f.path] == chapter)

    def page_of(self, feature: Feature) -> str:
        return PAGE_OF_CHAPTER[self.chapter_of[feature.path]]

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


def build_site(features: Path | str | Specification) -> Site:
    """The site for a directory of feature files (or an already read specification)."""
    spec = features if isinstance(features, Specification) else read_specification(features)
    index = load_rule_index()
    chapter_of = {f.path: _chapter(f) for f in spec.features}
    places: dict[str, str] = {}
    example_urls: dict[str, str] = {}
    examples_of: dict[str, list[Example]] = {}
    section_of: dict[tuple[Path, int], str] = {}
    taken: set[str] = set()
    for feature in spec.features:
        page = PAGE_OF_CHAPTER[chapter_of[feature.path]]
        for rule in feature.rules:
            free = [i for i in rule.ids if i not in taken]
            section = free[0] if free else f"rule-{feature.path.stem}-{rule.line}"
            taken.add(section)
            section_of[(rule.path, rule.line)] = section
            for rule_id in rule.ids:
                places.setdefault(rule_id, f"{page}.html#{section}")
        for example in feature.examples():
            example_urls[example.number] = f"{page}.html#{example.number}"
            for tag in example.rule_ids:
                examples_of.setdefault(tag, []).append(example)
    for entry in index.entries:
        if entry.kind == "glossary":
            places.setdefault(entry.id, f"glossary.html#{entry.id}")
        places.setdefault(entry.id, f"{PAGE_OF_CHAPTER[entry.chapter]}.html#{entry.id}")
    return Site(spec=spec, chapter_of=MappingProxyType(chapter_of),
                places=MappingProxyType(places), example_urls=MappingProxyType(example_urls),
                examples_of=MappingProxyType({k: tuple(v) for k, v in examples_of.items()}),
                section_of=MappingProxyType(section_of))
