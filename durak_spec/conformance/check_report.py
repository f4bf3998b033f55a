"""The checker's report of a scenario run: the text grouped by rule ID and by cause, the
JSON document and JUnit XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.positions import speak_seats
from durak_spec.protocol.explain import NOTHING_LISTED, TURN_ORDER, plural

if TYPE_CHECKING:  # the runner needs pytest: imported when a check runs, not with the CLI
    from durak_spec.spec.runner import RunResult, ScenarioResult

__all__ = ["REPORT_FORMAT", "REPORT_VERSION", "Cause", "causes", "format_report", "junit_xml",
           "report_json"]

REPORT_FORMAT = "durak-spec/check-report"
REPORT_VERSION = 1


def _tally(results: Iterable[ScenarioResult]) -> str:
    from durak_spec.spec.runner import OUTCOMES, Counts

    counts = Counts.of(results)
    parts = [f"{getattr(counts, o)} {o}" for o in OUTCOMES if getattr(counts, o)]
    return ", ".join(parts)


def _block(label: str, text: str, indent: int = 6) -> list[str]:
    """``label`` then ``text``, its further lines aligned under its first."""
    lines = text.splitlines() or [""]
    pad = " " * (indent + len(label))
    return [" " * indent + label + lines[0]] + [pad + line for line in lines[1:]]


@dataclass(frozen=True, slots=True)
class Cause:
    """One distinct cause of failures: a rule the engine breaks and what it did, with the
    scenarios it explains (the first of them is the example shown).

    A deviation shows in several ways (a bout ended too soon, a move not listed, a
    rejection naming the rule the engine misreads): they are one cause under the rule,
    each way in :attr:`ways` with its number of scenarios, the most first (``kind`` is
    the first). Differences of turn order are one cause whatever the protocol's rule
    (:attr:`rules` lists them)."""

    rule: str | None
    kind: str
    scenarios: tuple[ScenarioResult, ...]
    ways: tuple[tuple[str, int], ...] = ()
    rules: tuple[str, ...] = ()
    """Every rule of the cause (more than one only for turn order), the most first."""

    @property
    def example(self) -> ScenarioResult:
        return self.scenarios[0]

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "kind": self.kind, "count": len(self.scenarios),
                "examples": [s.example or s.where for s in self.scenarios],
                "read": f"durak-spec rules {self.rule}" if self.rule else None,
                "ways": [{"kind": kind, "count": count} for kind, count in self.ways],
                "rules": list(self.rules)}


_KINDS: tuple[tuple[str, str], ...] = (
    # (a phrase of the step library's failure messages, the kind of cause it shows)
    ("the engine's report is impossible", "reports a position no game can reach"),
    ("was accepted, but the rules forbid it", "accepts a move the rules forbid"),
    ("the engine lists no legal action", "lists no legal action where the rules allow some"),
    ("legal actions in that position are not the rules'",
     "rejects rightly, but lists other legal actions there"),
    ("but it is not among its legal actions", "accepts a move it does not list as legal"),
    ("but lists it among its legal actions", "rejects a move it lists as legal"),
)
_RULE_IN_TEXT = re.compile(r"\(([A-Z]+-[0-9]+)\)")
_RULE_AFTER = re.compile(r"\(([A-Z]+-[0-9]+): ")
_WRONG_RULE = re.compile(r"was rejected by ([A-Z]+-[0-9]+) .*, not by ([A-Z]+-[0-9]+)\Z",
                         re.DOTALL)


def _cause_of(item: ScenarioResult) -> tuple[str | None, str]:
    """The rule and the kind of one failed or errored scenario: what the engine did
    (:attr:`ScenarioResult.diagnosis`, charged to the rule it breaks by the reference's
    own decisions) where the reference saw it, else what the failed step says, under the
    scenario's rule."""
    message = item.message or ""
    rule = item.rule_ids[0] if item.rule_ids else None
    if item.outcome == "errored":
        return None, "fails as a program (crash, time-out, an answer out of protocol, an " \
                     "exception)"
    if _KINDS[0][0] in message:  # the audit names the rule of what no game can reach
        found = _RULE_IN_TEXT.search(message) or _RULE_AFTER.search(message)
        return (found[1] if found else rule), "reports a position no game can reach"
    if item.diagnosis is not None:  # what set the engine apart first, the root
        return item.diagnosis.rule, item.diagnosis.kind
    wrong = _WRONG_RULE.search(message)
    if wrong is not None:
        return wrong[2], f"rejects with another rule ID ({wrong[1]})"
    for phrase, kind in _KINDS:
        if phrase in message:
            if kind.startswith(("reports a position", "rejects rightly")):
                # the audit, or the reference on the action listed too many, names the rule
                found = _RULE_IN_TEXT.search(message) or _RULE_AFTER.search(message)
                rule = found[1] if found else rule
            return rule, kind
    if " was rejected (" in message:
        return rule, "rejects a move the rules allow"
    return rule, "answers otherwise than the rule says"


_PROGRAM = "fails as a program"
_WRONG_KIND = re.compile(r"rejects with another rule ID \(([A-Z]+-[0-9]+)\)\Z")


def causes(result: RunResult) -> list[Cause]:
    """The distinct causes of the failed and errored scenarios, most scenarios first.

    Scenarios are one cause when the engine breaks the same rule in them, however it
    showed; a difference of turn order is one cause whatever the protocol's rule; an
    engine that lists nothing where several actions are allowed is one cause with every
    scenario in which it listed nothing; a
    rejection naming another rule than the rules' joins the cause of the rule the engine
    named, where the reference found the engine breaking that rule elsewhere; a
    difference that breaks another rule too (:attr:`Difference.alternative`) joins that
    rule's cause where the engine breaks it elsewhere and its own rule nowhere."""
    found: list[tuple[ScenarioResult, str | None, str]] = []
    for item in result.scenarios:
        if item.outcome in ("failed", "errored"):
            found.append((item, *_cause_of(item)))
    # An engine that lists nothing where the rules allow several actions lists nothing at
    # all: where it listed nothing and the rules allowed one action only (a take), that is
    # the same cause, not the rule of the one action.
    nothing = next((item.diagnosis.rule for item, _, _ in found if item.diagnosis is not None
                    and item.diagnosis.kind == NOTHING_LISTED), None)
    if nothing is not None:
        found = [(item, nothing, NOTHING_LISTED) if _KINDS[2][0] in (item.message or "")
                 else (item, rule, kind) for item, rule, kind in found]
    # A difference that breaks another rule as well (a take met at five attack cards):
    # that rule's, where the engine breaks that rule in other scenarios and its own in none.
    plain = {rule for item, rule, _ in found
             if item.diagnosis is None or item.diagnosis.alternative is None}
    found = [(item, item.diagnosis.alternative, kind)
             if item.diagnosis is not None and item.diagnosis.alternative in plain
             and rule not in plain else (item, rule, kind) for item, rule, kind in found]
    diagnosed = {rule for item, rule, _ in found if item.diagnosis is not None}
    groups: dict[tuple[str | None, str], list[tuple[ScenarioResult, str | None, str]]] = {}
    for item, rule, kind in found:
        wrong = _WRONG_KIND.match(kind)
        if kind == TURN_ORDER:
            key: tuple[str | None, str] = (None, TURN_ORDER)
        elif wrong is not None and wrong[1] in diagnosed:
            key = (wrong[1], "")
            kind = f"rejects moves naming {wrong[1]} where the rules name another rule"
            rule = wrong[1]
        elif kind.startswith(_PROGRAM) or (item.diagnosis is None and wrong is None \
                and rule not in diagnosed):
            key = (rule, kind)  # what only the steps tell stays apart, by its kind
        else:
            key = (rule, "")
        groups.setdefault(key, []).append((item, rule, kind))
    made = []
    for members in groups.values():
        ways = Counter(kind for _, _, kind in members).most_common()
        rules = tuple(r for r, _ in Counter(r for _, r, _ in members if r).most_common())
        made.append(Cause(rules[0] if rules else None, ways[0][0],
                          tuple(item for item, _, _ in members), tuple(ways), rules))
    return sorted(made, key=lambda c: -len(c.scenarios))


def _causes_text(result: RunResult) -> list[str]:
    index = load_rule_index()
    found = causes(result)
    if not found:
        return []
    lines = [f"Causes: {len(found)} distinct, explaining "
             f"{sum(len(c.scenarios) for c in found)} failed or errored scenarios "
             "(most first; the detail by rule follows)"]
    for number, cause in enumerate(found, start=1):
        rule = cause.rule
        known = rule is not None and rule in index
        title = f"{rule} {index[rule].title}" if rule is not None and known else "the engine"
        if cause.kind == TURN_ORDER:
            title = "Turn order (" + ", ".join(cause.rules) + ")"
        count = cause.ways[0][1] if cause.ways else len(cause.scenarios)
        lines.append(f"  {number}. {title}: the engine {cause.kind} "
                     f"({plural(count, 'scenario')})")
        for kind, number_of in cause.ways[1:]:
            lines.append(f"     and:  the engine {kind} ({plural(number_of, 'scenario')})")
        if rule is not None and known:
            lines.append(f"     rule: {index[rule].summary}")
            lines.append(f"     read: durak-spec rules {rule}")
        first = cause.example
        if first.diagnosis is not None and first.diagnosis.detail:
            detail = speak_seats(first.diagnosis.detail, first.players)
            lines.append(f"     what: {detail}"[:300])
        what = (first.message or "").splitlines()
        lines.append(f"     e.g.  {first.cite}: " + " ".join(w.strip() for w in what[:3])[:300])
        more = [s.example or s.where for s in cause.scenarios[1:8]]
        if more:
            rest = len(cause.scenarios) - 1 - len(more)
            lines.append("     also: " + ", ".join(more) + (f" and {rest} more" if rest else ""))
    lines.append("")
    return lines


def _right_rule(result: RunResult) -> int:
    """The passed scenarios rejected by the right rule: those in which the engine named the
    rule expected, and never left one out (none, for an engine that names no rule)."""
    return sum(s.outcome == "passed" and bool(s.named) and not s.unnamed
               for s in result.scenarios)


def _unnamed_text(result: RunResult) -> list[str]:
    unnamed = [s for s in result.scenarios if s.rule_not_named]
    if not unnamed:
        return []
    first = unnamed[0]
    right = _right_rule(result)
    also = f" (rejected by the right rule: {right} passed)" if right else \
        " (the engine named the right rule in none)"
    return [f"Rejected, rule not named: {plural(len(unnamed), 'scenario')} passed, but the "
            "engine named no rule ID where the scenario names one" + also + ";",
            f"  e.g. {first.cite}: {first.unnamed[0]}", ""]


def _features_label(directory: Path) -> str:
    """Where the scenarios came from, in the report's header: "the specification" for the
    features this package carries, else the folder, relative to the working folder where
    it lies below it (a report reads the same on every machine)."""
    from durak_spec.spec.runner import features_dir

    if directory == features_dir():
        return "the specification"
    try:
        return str(directory.relative_to(Path.cwd()))
    except ValueError:
        return str(directory)


def format_report(result: RunResult, *, engine: str = "", verbose: bool = False) -> str:
    """The text report: the distinct causes of failure first (each with its rule's text
    and where to read it), then per rule ID its scenarios' outcomes, then the closing
    counts line."""
    index = load_rule_index()
    counts = result.counts
    lines = [f"Checked {engine or result.engine or 'the engine'} against "
             f"{counts.total} scenarios of {_features_label(result.features)} "
             f"in {result.seconds:.1f} s"
             + (f" ({result.deselected} left out by the filters)" if result.deselected else ""),
             ""]
    lines.extend(_causes_text(result))
    lines.extend(_unnamed_text(result))
    shown: dict[str, str] = {}
    for rule, results in result.by_rule().items():
        title = index[rule].title if rule in index else "scenarios that carry no rule ID"
        lines.append(f"{rule}  {title}: {_tally(results)}")
        skips: dict[str, int] = {}
        for item in results:
            if item.outcome in ("failed", "errored"):
                lines.extend(_problem(item, rule, shown))
            elif item.outcome == "skipped":
                reason = item.skip_reason or "no reason given"
                if verbose:
                    lines.append(f"  skipped {item.cite}  {item.name}")
                    lines.extend(_block("why: ", reason))
                else:
                    skips[reason] = skips.get(reason, 0) + 1
            elif verbose:
                lines.append(f"  passed  {item.cite}  {item.name}")
        for reason, number in skips.items():
            lines.append(f"  {number} skipped: {reason}")
    if not result.scenarios:
        lines.append("No scenario was checked.")
    lines.extend(["", str(counts)])
    return "\n".join(lines)


def _problem(item: ScenarioResult, rule: str, shown: dict[str, str]) -> list[str]:
    head = f"  {item.outcome.upper()} {item.cite}  {item.name}"
    key = item.nodeid or item.where
    if key in shown:
        return [head + f"  (see {shown[key]} above)"]
    shown[key] = rule
    lines = [head]
    if item.step:
        lines.extend(_block("step:   ", item.step))
    what = "engine: " if item.outcome == "failed" else "error:  "
    lines.extend(_block(what, item.message or "(no message)"))
    entries = load_rule_index()
    says = [f"{r} says: {entries[r].summary}" for r in item.rule_ids if r in entries]
    if says:
        lines.extend(_block("rule:   ", "\n".join(says)))
    return lines


def report_json(result: RunResult, *, engine: str = "", command: str | None = None,
                filters: dict[str, object] | None = None) -> dict[str, object]:
    """The results as one JSON document (``format`` ``durak-spec/check-report``)."""
    from durak_spec.spec.runner import Counts

    index = load_rule_index()
    rules = {}
    for rule, results in result.by_rule().items():
        rules[rule] = {"title": index[rule].title if rule in index else None,
                       "counts": Counts.of(results).to_json()}
    return {
        "format": REPORT_FORMAT, "version": REPORT_VERSION,
        "engine": {"name": engine or result.engine, "command": command},
        "features": str(result.features), "filters": filters or {},
        "seconds": round(result.seconds, 3), "counts": result.counts.to_json(),
        "deselected": result.deselected, "summary": str(result.counts),
        "causes": [cause.to_json() for cause in causes(result)],
        "rule_not_named": sum(s.rule_not_named for s in result.scenarios),
        "rejected_by_the_right_rule": _right_rule(result),
        "rules": rules, "scenarios": [item.to_json() for item in result.scenarios],
    }


def junit_xml(result: RunResult, *, engine: str = "") -> str:
    """The results as JUnit XML: a test suite per feature file, a test case per scenario."""
    from durak_spec.spec.runner import Counts

    counts = result.counts
    root = ET.Element("testsuites", name=f"durak-spec check: {engine or result.engine}",
                      tests=str(counts.total), failures=str(counts.failed),
                      errors=str(counts.errored), skipped=str(counts.skipped),
                      time=f"{result.seconds:.3f}")
    features: dict[str, list[ScenarioResult]] = {}
    for item in result.scenarios:
        features.setdefault(item.feature, []).append(item)
    for feature, items in features.items():
        tally = Counts.of(items)
        suite = ET.SubElement(root, "testsuite", name=feature, tests=str(tally.total),
                              failures=str(tally.failed), errors=str(tally.errored),
                              skipped=str(tally.skipped),
                              time=f"{sum(i.seconds for i in items):.3f}")
        for item in items:
            case = ET.SubElement(suite, "testcase", classname=feature,
                                 name=f"{item.example} {item.name} (line {item.line})".lstrip(),
                                 file=feature,
                                 line=str(item.line), time=f"{item.seconds:.3f}")
            if item.rule_ids:
                properties = ET.SubElement(case, "properties")
                for rule in item.rule_ids:
                    ET.SubElement(properties, "property", name="rule", value=rule)
            if item.outcome in ("failed", "errored"):
                tag = "failure" if item.outcome == "failed" else "error"
                text = "\n".join(filter(None, [f"step: {item.step}" if item.step else None,
                                               item.message]))
                node = ET.SubElement(case, tag, message=(item.message or "").split("\n")[0])
                node.text = text
            elif item.outcome == "skipped":
                ET.SubElement(case, "skipped", message=item.skip_reason or "")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
