"""The rule index: complete against the rules inventory, typed, and strict when loading."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.gherkin_parser import get_gherkin_document

from durak_spec.core.ruleindex import (
    CHAPTERS,
    CONTINUES,
    RULE_KINDS,
    SOURCES,
    RuleEntry,
    RuleIndex,
    RuleIndexError,
    load_rule_index,
    parse_rule_index,
    read_rule_index,
    rule,
)

INVENTORY = Path(__file__).resolve().parents[2] / "shared" / "rules-inventory.md"
FEATURES = Path(__file__).resolve().parents[1] / "features"
INVENTORY_ID = re.compile(r"\*\*([A-Z]+-\d+)\*\*")
INVENTORY_LINE = re.compile(
    r"^- \*\*(?P<id>[A-Z]+-\d+)\*\*\s*"
    r"(?:(?P<kind>rule|variant|clarification|example|fact|tip)\s*)?— (?P<text>.*)$"
)
needs_inventory = pytest.mark.skipif(
    not INVENTORY.is_file(), reason=f"the rules inventory is not present at {INVENTORY}"
)

CLAR_CHAPTERS = {
    "CLAR-1": "attacking",
    "CLAR-2": "outcome",
    "CLAR-3": "turns",
    "CLAR-4": "taking",
    "CLAR-5": "variants",
    "CLAR-6": "transfer",
    "CLAR-7": "drawing",
    "CLAR-8": "drawing",
    "CLAR-9": "outcome",
    "CLAR-10": "cards-and-deal",
    "CLAR-11": "who-attacks",
    "CLAR-12": "turns",
    "CLAR-13": "end-of-game",
    "CLAR-14": "transfer",
    "CLAR-15": "who-attacks",
    "CLAR-16": "turns",
    "CLAR-17": "turns",
    "CLAR-18": "turns",
    "CLAR-19": "drawing",
    "CLAR-20": "taking",
    "CLAR-21": "taking",
    "CLAR-22": "transfer-limits",
    "CLAR-23": "transfer-limits",
}
EXAMPLE_CHAPTERS = {
    "EX-1": "beating",
    "EX-2": "beating",
    "EX-3": "attacking",
    "EX-4": "transfer",
    "EX-5": "beating",
    "EX-6": "beating",
    "EX-7": "beating",
    "EX-8": "outcome",
    "EX-9": "attacking",
}
# The sources' languages, for the glossary line that names languages instead of letters.
LANGUAGE_SOURCES = {"German": "AB", "Dutch": "C", "Latvian": "D"}


# ---------------------------------------------------------------- the inventory


def inventory_ids() -> list[str]:
    return INVENTORY_ID.findall(INVENTORY.read_text(encoding="utf-8"))


def inventory_lines() -> dict[str, tuple[str, str]]:
    """ID -> (kind, sentence) for every item line of the inventory."""
    lines: dict[str, tuple[str, str]] = {}
    for line in INVENTORY.read_text(encoding="utf-8").splitlines():
        match = INVENTORY_LINE.match(line)
        if match:
            lines[match["id"]] = (match["kind"] or "glossary", match["text"])
    return lines


def inventory_sources(text: str) -> tuple[str, ...]:
    """The source letters an inventory sentence cites, in A-D order.

    Letters stand alone ("A B D", "(A, D)", "C's tip"); the "A" closing the rank order
    "K < A" is the ace, not a source.  "implied by ..." means every source; the glossary
    names the sources by language.
    """
    if "implied by" in text:
        return SOURCES
    letters = set(re.findall(r"(?<!< )\b([A-D])\b", text))
    for language, sources in LANGUAGE_SOURCES.items():
        if language in text:
            letters.update(sources)
    return tuple(sorted(letters))


def words(text: str) -> list[str]:
    return re.findall(r"[\w♣♦♥♠']+", text.lower())


def longest_shared_run(a: str, b: str) -> int:
    """The length of the longest run of consecutive words that both texts contain."""
    wa, wb = words(a), words(b)
    matcher = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    return max((block.size for block in matcher.get_matching_blocks()), default=0)


COPY_RATIO = 0.85
"""Two texts this similar, letter by letter, say the same thing in the same words."""
COPY_RUN = 8
"""This many words in a row, shared by two texts, are a copied phrase."""


def without_sources(text: str) -> str:
    """An inventory sentence without its source letters ("... drawn last. A B C D").

    The "A" closing the rank order "K < A" is the ace and stays.
    """
    return re.sub(r"(?<!< )\b[A-D]\b(?!')", " ", text)


def sentences(text: str) -> list[str]:
    """The sentences and clauses of a text, split at . ; : and line ends."""
    return [s.strip() for s in re.split(r"[.;:]\s+|\n\s*\n", text) if len(words(s)) >= 4]


def runs_of(text: str) -> set[tuple[str, ...]]:
    """Every run of :data:`COPY_RUN` consecutive words of a text."""
    found = words(text)
    return {tuple(found[i:i + COPY_RUN]) for i in range(len(found) - COPY_RUN + 1)}


def copied(value: str, text: str) -> str | None:
    """Why ``value`` reads as a copy of ``text``, or ``None`` if it does not.

    A copy shares a run of :data:`COPY_RUN` words with it, or has the same words, or is
    (as a whole, or in one of its sentences) at least :data:`COPY_RATIO` similar to it.
    """
    text = without_sources(text)
    if words(value) == words(text):
        return "the same words"
    if runs_of(value) & runs_of(text):
        return f"{longest_shared_run(value, text)} words in a row"
    matcher = difflib.SequenceMatcher(None, b=text.lower(), autojunk=False)
    for part in [value, *sentences(value)]:
        matcher.set_seq1(part.lower())
        if (matcher.real_quick_ratio() >= COPY_RATIO and matcher.quick_ratio() >= COPY_RATIO
                and matcher.ratio() >= COPY_RATIO):
            return f"ratio {matcher.ratio():.2f} for {part!r}"
    return None


def feature_rules() -> list[tuple[str, tuple[str, ...], str, str]]:
    """Every Rule of the feature files: (where, its rule IDs, title, description)."""
    index = load_rule_index()
    found = []
    for path in sorted(FEATURES.glob("*.feature")):
        feature = get_gherkin_document(str(path)).feature
        assert feature is not None, path
        for child in feature.children:
            rule = child.rule
            if rule is None:
                continue
            ids = tuple(t.name.lstrip("@") for t in rule.tags if t.name.lstrip("@") in index)
            found.append((f"{path.name}:{rule.location.line}", ids, rule.name,
                          rule.description or ""))
    return found


@needs_inventory
def test_index_holds_exactly_the_inventory_ids_then_the_clarifications() -> None:
    expected = inventory_ids() + [f"CLAR-{n}" for n in range(1, len(CLAR_CHAPTERS) + 1)]
    assert len(set(expected)) == len(expected)
    assert list(load_rule_index()) == expected


@needs_inventory
def test_every_inventory_line_is_parsed() -> None:
    assert sorted(inventory_lines()) == sorted(inventory_ids())


@needs_inventory
def test_kinds_and_sources_agree_with_the_inventory() -> None:
    index = load_rule_index()
    wrong = [
        f"{rule_id}: index has {index[rule_id].kind} {index[rule_id].sources}, "
        f"inventory says {kind} {inventory_sources(text)}"
        for rule_id, (kind, text) in inventory_lines().items()
        if (index[rule_id].kind, index[rule_id].sources) != (kind, inventory_sources(text))
    ]
    assert not wrong, "\n".join(wrong)


@needs_inventory
def test_clarification_flag_follows_the_inventory() -> None:
    # Clarification kind, or a line that asks the specification to decide something.
    index = load_rule_index()
    for rule_id, (kind, text) in inventory_lines().items():
        expected = kind == "clarification" or "the spec must" in text.lower()
        assert index[rule_id].clarification is expected, rule_id


@needs_inventory
def test_summaries_and_titles_are_not_copies_of_the_inventory() -> None:
    # Every entry against every inventory sentence, not only its own rule's.
    lines = inventory_lines()
    copies = []
    for entry in load_rule_index().values():
        for rule_id, (_, text) in lines.items():
            for field, value in (("summary", entry.summary), ("title", entry.title)):
                why = copied(value, text)
                if why:
                    copies.append(f"{entry.id} {field} copies {rule_id}: {why}")
    assert not copies, "\n".join(copies)


@needs_inventory
def test_feature_rules_are_not_copies_of_the_inventory() -> None:
    # The inventory's sentences are a working summary, not text for the project: a Rule's
    # title and description say it in the specification's own words. Each is compared
    # with every inventory sentence, not only its own rule's.
    lines = inventory_lines()
    copies = []
    for where, ids, title, description in feature_rules():
        for rule_id, (_, text) in lines.items():
            for field, value in (("title", title), ("description", description)):
                why = copied(value, text)
                if why:
                    copies.append(f"{where} ({', '.join(ids)}) {field} copies {rule_id}: {why}")
    assert not copies, "\n".join(copies)


@needs_inventory
def test_the_copy_check_flags_passages_the_features_once_had() -> None:
    # Old wordings of this project that followed the inventory (or a source through it)
    # too closely; the check must keep catching their like.
    lines = inventory_lines()
    old_title = "The player holding the lowest trump makes the first attack"
    assert copied(old_title, lines["ORDER-1"][1]) == "the same words"
    old_title = "Everyone sees the table and every hand's size, and the cards a defender took"
    assert copied(old_title, lines["VIEW-2"][1]) == "8 words in a row"
    old_sentence = ("The attack may be passed on only to a player who holds at least as many "
                    "cards as there will then be attack cards on the table.")
    assert copied(old_sentence, lines["TRANSFER-3"][1]) is not None
    assert copied("Nothing covers the ace of trumps", lines["BEAT-4"][1]) is None


# ---------------------------------------------------------------- the packaged index


def test_clarification_entries() -> None:
    index = load_rule_index()
    for rule_id, chapter in CLAR_CHAPTERS.items():
        entry = index[rule_id]
        assert entry.kind == "clarification"
        assert entry.sources == ()
        assert entry.clarification is True
        assert entry.chapter == chapter
    assert index.ids()[-len(CLAR_CHAPTERS):] == tuple(CLAR_CHAPTERS)


def test_chapters_of_examples_and_flagged_decisions() -> None:
    index = load_rule_index()
    for rule_id, chapter in EXAMPLE_CHAPTERS.items():
        assert index[rule_id].chapter == chapter, rule_id
    assert index["ATTACK-4"].clarification
    assert index["LIMIT-2"].clarification
    assert index["TERM-1"].kind == "glossary"
    assert index["TERM-1"].chapter == "glossary"
    assert index["BEAT-5"].sources == ("A", "B", "C", "D")


def test_chapters_in_reading_order() -> None:
    assert tuple(CHAPTERS) == (
        "cards-and-deal",
        "who-attacks",
        "beating",
        "attacking",
        "turns",
        "limits",
        "taking",
        "defence",
        "transfer",
        "transfer-limits",
        "drawing",
        "end-of-game",
        "outcome",
        "variants",
        "views",
        "examples",
        "tips",
        "tips-counting",
        "glossary",
        "clarifications",
    )
    assert all(title and title[0].isupper() for title in CHAPTERS.values())
    assert set(RULE_KINDS) == {
        "rule",
        "variant",
        "clarification",
        "example",
        "fact",
        "tip",
        "glossary",
    }


def test_entries_are_well_formed() -> None:
    for entry in load_rule_index().values():
        assert entry.chapter in CHAPTERS
        assert entry.kind in RULE_KINDS
        assert set(entry.sources) <= set(SOURCES)
        assert list(entry.sources) == sorted(entry.sources), entry.id
        assert entry.title == entry.title.strip() and not entry.title.endswith(".")
        assert entry.summary.endswith("."), entry.id
        assert "implied by" not in entry.summary, entry.id
        if entry.kind == "clarification":
            assert entry.clarification, entry.id


def test_mapping_behaviour() -> None:
    index = load_rule_index()
    assert index is load_rule_index()  # cached
    assert isinstance(index, RuleIndex)
    assert len(index) == len(list(index)) == len(index.entries)
    assert "BEAT-2" in index
    assert "BEAT-99" not in index
    not_an_id: object = 42
    assert not_an_id not in index
    entry = index["BEAT-2"]
    assert isinstance(entry, RuleEntry)
    assert entry.tag == "@BEAT-2"
    assert entry.title == "Any trump beats any card that is not a trump"
    assert entry.chapter_title == CHAPTERS["beating"]
    assert rule("BEAT-2") is entry
    assert index.get("NOPE-1") is None
    assert list(index.keys())[:2] == ["DEAL-1", "DEAL-2"]


def test_by_chapter_and_ids() -> None:
    index = load_rule_index()
    beating = index.by_chapter("beating")
    assert [e.id for e in beating] == [
        "BEAT-1",
        "BEAT-2",
        "BEAT-3",
        "BEAT-4",
        "BEAT-5",
        "BEAT-6",
        "EX-1",
        "EX-2",
        "EX-5",
        "EX-6",
        "EX-7",
    ]
    assert index.by_chapter("examples") == ()
    assert sum(len(index.by_chapter(c)) for c in CHAPTERS) == len(index)
    assert index.ids("tip") == tuple(f"TIP-{n}" for n in range(1, 12))
    assert index.ids() == tuple(index)
    with pytest.raises(ValueError, match="unknown rule kind 'rules'"):
        index.ids("rules")
    with pytest.raises(ValueError, match="unknown chapter 'beat'"):
        index.by_chapter("beat")


@pytest.mark.parametrize(
    ("asked", "suggested"),
    [
        ("BEAT-22", "BEAT-2"),
        ("TRANSFR-3", "TRANSFER-3"),
        ("beat-2", "BEAT-2"),
        ("CLAR-24", "CLAR-23"),
    ],
)
def test_unknown_id_suggests_close_ids(asked: str, suggested: str) -> None:
    with pytest.raises(KeyError) as caught:
        load_rule_index()[asked]
    message = str(caught.value)
    assert f"unknown rule id {asked!r}" in message
    assert suggested in message
    with pytest.raises(KeyError, match=re.escape(suggested)):
        rule(asked)


def test_unknown_id_without_near_match() -> None:
    with pytest.raises(KeyError, match="unknown rule id 'ZZZZZ'"):
        rule("ZZZZZ")


# ---------------------------------------------------------------- loader errors


def packaged_document() -> dict[str, Any]:
    path = Path(__file__).resolve().parents[1] / "durak_spec" / "data" / "rule_index.json"
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def test_parse_and_read_give_the_packaged_index(tmp_path: Path) -> None:
    document = packaged_document()
    text = json.dumps(document)
    parsed = parse_rule_index(text)
    assert parsed.entries == load_rule_index().entries
    path = tmp_path / "index.json"
    path.write_text(text, encoding="utf-8")
    assert read_rule_index(path).entries == parsed.entries


def _set(position: int, field: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        document["rules"][position][field] = value

    return change


def _duplicate(document: dict[str, Any]) -> None:
    document["rules"][2]["id"] = document["rules"][0]["id"]


def _drop_summary(document: dict[str, Any]) -> None:
    del document["rules"][1]["summary"]


def _add_field(document: dict[str, Any]) -> None:
    document["rules"][1]["colour"] = "red"


def _wrong_format(document: dict[str, Any]) -> None:
    document["format"] = "something-else"


def _wrong_version(document: dict[str, Any]) -> None:
    document["version"] = 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(1, "kind", "rulez"), r"entry 2 \(DEAL-2\): unknown kind 'rulez'"),
        (_duplicate, r"entry 3 \(DEAL-1\): duplicate id, already used by entry 1"),
        (_set(3, "sources", ["A", "E"]), r"entry 4 \(DEAL-4\): bad source 'E'"),
        (_set(3, "sources", ["A", "A"]), r"entry 4 \(DEAL-4\): a source is listed twice"),
        (_set(0, "chapter", "dealing"), r"entry 1 \(DEAL-1\): unknown chapter 'dealing'"),
        (_set(0, "id", "deal one"), r"entry 1 \(deal one\): id 'deal one' is not of the form"),
        (_set(0, "clarification", "yes"), r"entry 1 \(DEAL-1\): 'clarification' must be"),
        (_set(7, "clarification", False), r"entry 8 \(DEAL-8\): .*kind 'clarification'"),
        (_set(0, "title", ""), r"entry 1 \(DEAL-1\): 'title' must be a non-empty string"),
        (_drop_summary, r"entry 2 \(DEAL-2\): missing field\(s\) 'summary'"),
        (_add_field, r"entry 2 \(DEAL-2\): unknown field\(s\) 'colour'"),
        (_wrong_format, r"format is 'something-else'"),
        (_wrong_version, r"version is 2"),
    ],
)
def test_broken_index_is_rejected_with_a_clear_message(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    document = packaged_document()
    change(document)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(RuleIndexError, match=message) as caught:
        read_rule_index(path)
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_invalid_json_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "durak-spec/rule-index", "rules": [', encoding="utf-8")
    with pytest.raises(RuleIndexError, match="is not JSON"):
        read_rule_index(path)
    with pytest.raises(RuleIndexError, match="top level"):
        parse_rule_index("[]")
    with pytest.raises(RuleIndexError, match="'rules' must be a list"):
        parse_rule_index('{"format": "durak-spec/rule-index", "version": 1, "rules": {}}')
    with pytest.raises(RuleIndexError, match=r"entry 1: expected a JSON object, got str"):
        parse_rule_index('{"format": "durak-spec/rule-index", "version": 1, "rules": ["x"]}')


def test_each_rule_has_one_title_in_the_features_the_index_the_cli_and_refusals() -> None:
    """A rule is named once: the ``Rule:`` line of its feature file (the section heading of
    the book) is its title in the rule index, which refusals, ``durak-spec rules`` and the
    checker's reports print."""
    from durak_spec.cli import main
    from durak_spec.core.errors import IllegalAction
    from durak_spec.play.web import _rule_answer

    index = load_rule_index()
    differ = [f"{where}: {rule_id} is {index[rule_id].title!r} in the index, {title!r} there"
              for where, ids, title, _ in feature_rules() for rule_id in ids
              if index[rule_id].title != title]
    assert not differ, "\n".join(differ)
    assert _rule_answer(IllegalAction("BEAT-5", "no"), ("Anna",))["rule_title"] \
        == index["BEAT-5"].title
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["rules", "BEAT-5"])
    assert index["BEAT-5"].title in out.getvalue()


def test_every_rule_is_stated_in_the_chapter_the_index_lists_it_under() -> None:
    from durak_spec.spec.gherkin import read_specification

    index = load_rule_index()
    # A chapter of CONTINUES has no feature file: its rules are stated in the file of the
    # chapter it continues (the book shows them on a page of their own).
    elsewhere = [f"{rule.where}: {rule_id} is in {feature.chapter_stem}, the index lists it "
                 f"under {index[rule_id].chapter}"
                 for feature, rule in read_specification(FEATURES).rules()
                 for rule_id in rule.ids
                 if CONTINUES.get(index[rule_id].chapter, index[rule_id].chapter)
                 != feature.chapter_stem]
    assert not elsewhere, "\n".join(elsewhere)
