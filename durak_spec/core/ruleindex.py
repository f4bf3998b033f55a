"""The rule index: every rule ID of the specification with its title, kind and sources
(layer 1: imports only the errors and the JSON reader).

The index lives in ``durak_spec/data/rule_index.json``.  It holds one entry per ID of the
rules inventory (``DEAL-1`` … ``TERM-1``, in inventory order), followed by the
specification's own clarifications (``CLAR-1`` …).  Features tag the ``Rule:`` or
``Example:`` that encodes an entry with :attr:`RuleEntry.tag` (``@BEAT-2``), and the book
shows every entry chapter by chapter.

>>> index = load_rule_index()
>>> index["BEAT-2"].title
'Any trump beats any card that is not a trump'
>>> rule("BEAT-2").tag
'@BEAT-2'
>>> index["BEAT-2"].sources
('A', 'B', 'C', 'D')
>>> [entry.id for entry in index.by_chapter("beating")][:3]
['BEAT-1', 'BEAT-2', 'BEAT-3']
"""

from __future__ import annotations

import difflib
import functools
import importlib.resources
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from durak_spec.core.errors import InputError
from durak_spec.core.jsonio import JsonError, read_file, read_json

__all__ = [
    "CHAPTERS",
    "CONTINUES",
    "FORMAT",
    "RULE_KINDS",
    "SOURCES",
    "VERSION",
    "RuleEntry",
    "RuleIndex",
    "RuleIndexError",
    "load_rule_index",
    "parse_rule_index",
    "read_rule_index",
    "rule",
]

FORMAT: Final = "durak-spec/rule-index"
"""The value of the ``format`` field of a rule index document."""

VERSION: Final = 1
"""The version of the rule index document format this module reads."""

RULE_KINDS: Final[tuple[str, ...]] = (
    "rule",
    "variant",
    "clarification",
    "example",
    "fact",
    "tip",
    "glossary",
)
"""What an entry is: a rule all speaking sources agree on, a variant point (a switch of
the rule set), a clarification the specification decides, a worked example of a source,
a fact, a tip, or the glossary."""

SOURCES: Final[tuple[str, ...]] = ("A", "B", "C", "D")
"""The short names of the four source documents the entries cite."""

CHAPTERS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "cards-and-deal": "Cards and deal",
        "who-attacks": "Who attacks and who defends",
        "beating": "Beating a card",
        "attacking": "Attacking and throwing in",
        "turns": "Turns within a bout",
        "limits": "Limits on attack cards",
        "taking": "Taking the cards",
        "defence": "Successful defence",
        "transfer": "The transfer game",
        "transfer-limits": "Limits of a transfer",
        "drawing": "Drawing",
        "end-of-game": "End of the game",
        "outcome": "The durak, a draw or a winner",
        "variants": "Variants and rule profiles",
        "views": "What the players see and do",
        "examples": "Worked examples",
        "tips": "Tips for attack and defence",
        "tips-counting": "Tips on counting cards",
        "glossary": "Glossary",
        "clarifications": "Clarifications",
    }
)
"""Chapter slug -> human title, in reading order (iterating yields the slugs)."""

CONTINUES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "turns": "attacking",
        "transfer-limits": "transfer",
        "outcome": "end-of-game",
        "tips-counting": "tips",
    }
)
"""A chapter that has no feature file of its own -> the chapter whose feature file states
its rules. Such a chapter is a page of its own in the book (so that no page grows too
long), showing the Rules of that file that the index puts in it."""

_ID = re.compile(r"[A-Z]+-[1-9]\d*")
_FIELDS: Final[tuple[str, ...]] = (
    "id",
    "chapter",
    "title",
    "kind",
    "sources",
    "clarification",
    "summary",
)
_ORIGIN: Final = "durak_spec/data/rule_index.json"
_MAX_BYTES: Final = 4 * 1024 * 1024


class RuleIndexError(InputError):
    """A rule index document that is malformed; the message names the offending entry."""

    code = "rule-index"


@dataclass(frozen=True)
class RuleEntry:
    """One entry of the rule index.

    ``sources`` are the short names (``A`` … ``D``) of the source documents that state the
    entry, empty for the specification's own clarifications.  ``clarification`` is true
    where the specification decides something the sources leave open.
    """

    id: str
    chapter: str
    title: str
    kind: str
    sources: tuple[str, ...]
    clarification: bool
    summary: str

    @property
    def tag(self) -> str:
        """The Gherkin tag that marks the encoding of this entry (``@BEAT-2``)."""
        return "@" + self.id

    @property
    def chapter_title(self) -> str:
        """The human title of the entry's chapter."""
        return CHAPTERS[self.chapter]

    def __str__(self) -> str:
        return f"{self.id}: {self.title}"


class RuleIndex(Mapping[str, RuleEntry]):
    """The entries of the index by ID, iterating in index order.

    An unknown ID raises :class:`KeyError` naming the closest known IDs.
    """

    __slots__ = ("_by_id", "_entries")

    def __init__(self, entries: tuple[RuleEntry, ...]) -> None:
        by_id: dict[str, RuleEntry] = {}
        for entry in entries:
            if entry.id in by_id:
                raise RuleIndexError(f"duplicate rule id {entry.id!r}")
            by_id[entry.id] = entry
        self._entries = entries
        self._by_id = by_id

    def __getitem__(self, rule_id: str) -> RuleEntry:
        try:
            return self._by_id[rule_id]
        except (KeyError, TypeError):
            raise KeyError(self._unknown_message(rule_id)) from None

    def __contains__(self, rule_id: object) -> bool:
        return isinstance(rule_id, str) and rule_id in self._by_id

    def __iter__(self) -> Iterator[str]:
        return (entry.id for entry in self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<RuleIndex of {len(self)} entries>"

    @property
    def entries(self) -> tuple[RuleEntry, ...]:
        """Every entry, in index order."""
        return self._entries

    def ids(self, kind: str | None = None) -> tuple[str, ...]:
        """The IDs in index order, only those of one kind if ``kind`` is given."""
        if kind is not None and kind not in RULE_KINDS:
            raise RuleIndexError(f"unknown rule kind {kind!r}; expected one of "
                                 f"{_listing(RULE_KINDS)}", code="unknown-kind")
        return tuple(e.id for e in self._entries if kind is None or e.kind == kind)

    def by_chapter(self, chapter: str) -> tuple[RuleEntry, ...]:
        """The entries of one chapter (a slug of :data:`CHAPTERS`), in index order."""
        if chapter not in CHAPTERS:
            raise RuleIndexError(f"unknown chapter {chapter!r}; expected one of "
                                 f"{_listing(CHAPTERS)}", code="unknown-chapter")
        return tuple(e for e in self._entries if e.chapter == chapter)

    def _unknown_message(self, rule_id: object) -> str:
        text = rule_id if isinstance(rule_id, str) else repr(rule_id)
        key = text.strip().lstrip("@").upper()
        if key in self._by_id:
            return f"unknown rule id {text!r}; did you mean {key!r}?"
        close = difflib.get_close_matches(key, list(self._by_id), n=5, cutoff=0.6)
        prefix = key.split("-", 1)[0]
        if not close and prefix:
            close = [i for i in self._by_id if i.split("-", 1)[0] == prefix][:5]
        hint = f"; close matches: {', '.join(close)}" if close else ""
        return f"unknown rule id {text!r}{hint}"


def parse_rule_index(text: str | bytes, *, origin: str = "<string>") -> RuleIndex:
    """A rule index from the text of its JSON document, validated.

    Raises :class:`RuleIndexError` naming ``origin`` and the offending entry when the
    document is not valid JSON, has the wrong format or version, or an entry has a missing
    or unknown field, a malformed or duplicate ID, an unknown kind or chapter, or a source
    that is not one of :data:`SOURCES`.
    """
    try:
        document = read_json(text, what="a rule index", max_bytes=_MAX_BYTES)
    except JsonError as error:
        raise RuleIndexError(f"{origin}: {error}", code=error.code) from None
    if not isinstance(document, dict):
        raise RuleIndexError(f"{origin}: expected a JSON object at the top level")
    if document.get("format") != FORMAT:
        raise RuleIndexError(f"{origin}: format is {document.get('format')!r}, expected {FORMAT!r}")
    if document.get("version") != VERSION:
        raise RuleIndexError(
            f"{origin}: version is {document.get('version')!r}, this reader knows {VERSION}"
        )
    rules = document.get("rules")
    if not isinstance(rules, list):
        raise RuleIndexError(f"{origin}: 'rules' must be a list of entries")
    entries: list[RuleEntry] = []
    seen: dict[str, int] = {}
    for position, raw in enumerate(rules, start=1):
        entry = _parse_entry(raw, f"{origin}: entry {position}")
        if entry.id in seen:
            raise RuleIndexError(
                f"{origin}: entry {position} ({entry.id}): duplicate id, "
                f"already used by entry {seen[entry.id]}"
            )
        seen[entry.id] = position
        entries.append(entry)
    return RuleIndex(tuple(entries))


def read_rule_index(path: str | Path) -> RuleIndex:
    """A rule index read from a JSON file (see :func:`parse_rule_index`)."""
    try:
        data = read_file(path, what="the rule index", max_bytes=_MAX_BYTES)
    except JsonError as error:
        raise RuleIndexError(str(error), code=error.code) from None
    return parse_rule_index(data, origin=str(path))


@functools.cache
def load_rule_index() -> RuleIndex:
    """The rule index shipped with the package (read once, then cached)."""
    resource = importlib.resources.files("durak_spec") / "data" / "rule_index.json"
    return parse_rule_index(resource.read_text(encoding="utf-8"), origin=_ORIGIN)


def rule(rule_id: str) -> RuleEntry:
    """The entry of the packaged index for one ID; :class:`KeyError` if there is none."""
    return load_rule_index()[rule_id]


def _parse_entry(raw: Any, where: str) -> RuleEntry:
    if not isinstance(raw, dict):
        raise RuleIndexError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    rule_id = raw.get("id")
    if isinstance(rule_id, str):
        where = f"{where} ({rule_id})"
    missing = [name for name in _FIELDS if name not in raw]
    if missing:
        raise RuleIndexError(f"{where}: missing field(s) {_listing(missing)}")
    unknown = sorted(set(raw) - set(_FIELDS))
    if unknown:
        raise RuleIndexError(f"{where}: unknown field(s) {_listing(unknown)}")
    if not isinstance(rule_id, str) or not _ID.fullmatch(rule_id):
        raise RuleIndexError(f"{where}: id {rule_id!r} is not of the form 'BEAT-2'")
    chapter = raw["chapter"]
    if chapter not in CHAPTERS:
        raise RuleIndexError(
            f"{where}: unknown chapter {chapter!r}; expected one of {_listing(CHAPTERS)}"
        )
    kind = raw["kind"]
    if kind not in RULE_KINDS:
        raise RuleIndexError(
            f"{where}: unknown kind {kind!r}; expected one of {_listing(RULE_KINDS)}"
        )
    sources = raw["sources"]
    if not isinstance(sources, list):
        raise RuleIndexError(f"{where}: 'sources' must be a list of source letters")
    for source in sources:
        if source not in SOURCES:
            raise RuleIndexError(
                f"{where}: bad source {source!r}; expected one of {_listing(SOURCES)}"
            )
    if len(set(sources)) != len(sources):
        raise RuleIndexError(f"{where}: a source is listed twice in {sources!r}")
    clarification = raw["clarification"]
    if not isinstance(clarification, bool):
        raise RuleIndexError(f"{where}: 'clarification' must be true or false")
    if kind == "clarification" and not clarification:
        raise RuleIndexError(f"{where}: an entry of kind 'clarification' must be flagged so")
    texts: dict[str, str] = {}
    for name in ("title", "summary"):
        value = raw[name]
        if not isinstance(value, str) or not value.strip():
            raise RuleIndexError(f"{where}: {name!r} must be a non-empty string")
        texts[name] = value
    return RuleEntry(
        id=rule_id,
        chapter=chapter,
        title=texts["title"],
        kind=kind,
        sources=tuple(sources),
        clarification=clarification,
        summary=texts["summary"],
    )


def _listing(names: Mapping[str, object] | tuple[str, ...] | list[str]) -> str:
    return ", ".join(repr(name) for name in names)
