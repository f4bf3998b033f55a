"""Reports for engine authors (issue 14): the distinct causes first, each with its rule's
one-line text and where to read it, then the detail by rule; rejections without a rule ID
are counted apart."""

from __future__ import annotations

import io
import json
from pathlib import Path

from test_audit import CopyingTakeEngine
from test_rejections import ListsTooMuch, NamesNoRule, WrongRule

from durak_spec.conformance.check_report import causes
from durak_spec.conformance.checker import check_engine
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.spec.runner import run


def _report(factory: object, rules: list[str], json_path: Path | None = None) -> str:
    out = io.StringIO()
    check_engine(factory, rules=rules, out=out, err=io.StringIO(),  # type: ignore[arg-type]
                 json_path=str(json_path) if json_path else None)
    return out.getvalue()


def test_the_causes_lead_with_the_rule_text_and_where_to_read_it(tmp_path: Path) -> None:
    text = _report(CopyingTakeEngine, ["TAKE-3"], tmp_path / "r.json")
    lines = text.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("Causes: ")))
    detail = lines.index(next(line for line in lines if line.startswith("TAKE-3  ")))
    assert head < detail
    assert lines[head].startswith("Causes: 1 distinct, explaining 4 failed")
    assert lines[head + 1] == (f"  1. DEAL-1 {load_rule_index()['DEAL-1'].title}: the engine "
                               "reports a position no game can reach (4 scenarios)")
    assert lines[head + 2] == f"     rule: {load_rule_index()['DEAL-1'].summary}"
    assert lines[head + 3] == "     read: durak-spec rules DEAL-1"
    assert lines[head + 4].startswith("     e.g.  TAKE-3.1 (06_taking.feature:112): ")
    assert lines[head + 5] == "     also: TAKE-3.2, TAKE-3.3, TAKE-3.4"
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert document["causes"] == [{
        "rule": "DEAL-1", "kind": "reports a position no game can reach", "count": 4,
        "examples": ["TAKE-3.1", "TAKE-3.2", "TAKE-3.3", "TAKE-3.4"],
        "read": "durak-spec rules DEAL-1",
        "ways": [{"kind": "reports a position no game can reach", "count": 4}],
        "rules": ["DEAL-1"]}]


def test_a_wrong_rule_id_is_one_cause_under_the_rule_expected() -> None:
    found = causes(run(WrongRule, rules=["BEAT-3", "BEAT-5"]))
    assert found
    assert all(c.kind == "rejects with another rule ID (BEAT-1)" for c in found)
    assert {c.rule for c in found} <= {"BEAT-3", "BEAT-5"}


def test_rejections_without_a_rule_are_counted_apart() -> None:
    text = _report(NamesNoRule, ["BEAT-3"])
    line = next(line for line in text.splitlines() if line.startswith("Rejected, rule not"))
    assert "scenarios passed, but the engine named no rule ID" in line
    assert "Causes:" not in text
    assert "Rejected, rule not named" not in _report(None, ["BEAT-3"])


def test_legal_actions_listed_too_many_are_charged_to_the_rule_they_break() -> None:
    found = causes(run(ListsTooMuch, rules=["BEAT-3"]))
    # named after what the engine did (it lists throw-ins that ATTACK-3 forbids), not
    # after the scenario's rule (BEAT-3) or the step that showed it
    assert [(c.rule, c.kind) for c in found] == [("ATTACK-3", "lists moves the rules forbid")]
    assert "which the rules do not allow (ATTACK-3: " in (found[0].example.message or "")
