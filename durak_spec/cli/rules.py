"""``durak-spec rules [ID or words]``: a rule with its statement, sources and examples.

Everything comes from the installed package: the rule index and the feature files the
wheel ships. ``durak-spec rules`` lists every rule by chapter; ``durak-spec rules BEAT-3``
prints one rule (its title, kind, sources, statement and every example, steps included);
``durak-spec rules BEAT-3.2`` one example; ``durak-spec rules beaten off`` the rules whose
title, summary or statement holds all those words (one match is printed in full).
Messages of the terminal game that cite a rule point here (``durak-spec rules BEAT-5``).
"""

from __future__ import annotations

import argparse
import difflib
import re
import textwrap
from collections.abc import Iterable, Sequence

from durak_spec.book.render import KIND_WORDS, SOURCE_FACTS
from durak_spec.book.site import PAGE_OF_CHAPTER, Site, build_site
from durak_spec.book.text import plain_paragraphs, speak
from durak_spec.cli.args import CommandError, Subparsers
from durak_spec.core.ruleindex import CHAPTERS, RuleEntry, load_rule_index
from durak_spec.spec.gherkin import Example, Rule
from durak_spec.spec.runner import features_dir

__all__ = ["add_parser", "describe_example", "describe_rule", "find_rules"]

WIDTH = 88
_NUMBER = re.compile(r"^[A-Za-z]+-[0-9]+\.[0-9]+[a-z]?$")


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "rules", help="print a rule with its statement, sources and examples",
        description="Print a rule of the specification (by ID, such as BEAT-3), an example "
                    "(by number, such as BEAT-3.2), or the rules matching some words; "
                    "without arguments, list every rule by chapter.")
    parser.add_argument("query", nargs="*", metavar="ID_OR_WORDS",
                        help="a rule ID, an example number, or words to look for")
    parser.add_argument("--brief", action="store_true",
                        help="for a rule, list its examples by number instead of in full")
    parser.set_defaults(handler=_run)


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [""]


def _rules_with(site: Site, rule_id: str) -> list[Rule]:
    return [rule for _, rule in site.spec.rules() if rule_id in rule.ids]


def describe_example(example: Example, *, indent: str = "") -> list[str]:
    """An example in plain text: number, name, description and steps."""
    lines = [f"{indent}{example.number}  {speak(example.name)}"]
    for paragraph in plain_paragraphs(example.description):
        lines.extend(_wrap(paragraph, indent + "  "))
    for step in example.steps:
        lines.extend(_wrap(f"{step.keyword} {speak(step.text)}", indent + "    "))
        for row in step.table:
            lines.append(indent + "      | " + " | ".join(row) + " |")
    lines.append(f"{indent}  ({example.path.name}, line {example.line})")
    return lines


def _sources(entry: RuleEntry) -> str:
    if not entry.sources:
        return "none (the specification decides)"
    return "; ".join(f"{s}: {SOURCE_FACTS[s].title} ({SOURCE_FACTS[s].gloss})"
                     for s in entry.sources)


def describe_rule(entry: RuleEntry, site: Site, *, brief: bool = False) -> list[str]:
    """A rule in plain text: title, kind, sources, statement, examples."""
    lines = [f"{entry.id}  {entry.title}",
             f"  {KIND_WORDS[entry.kind]} · chapter: {CHAPTERS[entry.chapter]}"
             + (" · a clarification of this specification" if entry.clarification else ""),
             *_wrap(f"Sources: {_sources(entry)}", "  "), ""]
    rules = _rules_with(site, entry.id)
    if rules:
        for rule in rules:
            if rule.name.strip().lower() != entry.title.strip().lower():
                lines.extend(_wrap(speak(rule.name), "  "))
            for paragraph in plain_paragraphs(rule.description):
                lines.extend(_wrap(paragraph, "    "))
    else:
        lines.extend(_wrap(speak(entry.summary), "  "))
    examples = site.examples_of.get(entry.id, ())
    lines.append("")
    if not examples:
        lines.append("  No example of the specification carries this ID.")
    elif brief:
        lines.append(f"  Examples ({len(examples)}):")
        lines.extend(f"    {e.number}  {speak(e.name)}" for e in examples)
    else:
        lines.append(f"  Examples ({len(examples)}):")
        for example in examples:
            lines.append("")
            lines.extend(describe_example(example, indent="  "))
    page = site.link(entry.id) or f"{PAGE_OF_CHAPTER[entry.chapter]}.html"
    lines.extend(["", f"  In the rules book: {page} (build it with 'durak-spec book')."])
    return lines


def find_rules(words: Iterable[str], site: Site) -> list[RuleEntry]:
    """Entries whose title, summary or Rule statement holds every word (case-insensitive)."""
    wanted = [w.lower() for w in words if w.strip()]
    found = []
    for entry in load_rule_index().entries:
        text = " ".join([entry.id, entry.title, entry.summary,
                         *(r.name + " " + r.description for r in _rules_with(site, entry.id))])
        if all(w in text.lower() for w in wanted):
            found.append(entry)
    return found


def _listing(site: Site) -> list[str]:
    index = load_rule_index()
    lines = []
    for slug, title in CHAPTERS.items():
        entries = index.by_chapter(slug)
        if not entries:
            continue
        lines.append(title)
        lines.extend(f"  {e.id:<11} {e.title}" for e in entries)
    lines.append("")
    lines.append("Print one with 'durak-spec rules ID' (an example: 'durak-spec rules BEAT-3.2').")
    return lines


def _run(args: argparse.Namespace) -> int:
    site = build_site(features_dir())
    query: Sequence[str] = args.query
    index = load_rule_index()
    if not query:
        print("\n".join(_listing(site)))
        return 0
    if len(query) == 1 and query[0].upper() in index:
        print("\n".join(describe_rule(index[query[0].upper()], site, brief=args.brief)))
        return 0
    if len(query) == 1 and _NUMBER.match(query[0]):
        try:
            example = site.spec.example(query[0])
        except KeyError as error:
            raise CommandError(str(error.args[0])) from None
        print("\n".join(describe_example(example)))
        return 0
    if len(query) == 1 and re.match(r"^[A-Za-z]+-[0-9]+$", query[0]):
        close = difflib.get_close_matches(query[0].upper(), list(index), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise CommandError(f"no rule {query[0]!r} in the rule index{hint}")
    found = find_rules(query, site)
    if not found:
        raise CommandError(f"no rule mentions {' '.join(query)!r}; 'durak-spec rules' lists "
                           "them all")
    if len(found) == 1:
        print("\n".join(describe_rule(found[0], site, brief=args.brief)))
        return 0
    print(f"{len(found)} rules mention {' '.join(query)!r}:")
    print("\n".join(f"  {e.id:<11} {e.title}" for e in found))
    return 0
