"""The checker's exit codes (issue 14): 0 nothing failed, 1 a rule broken, 2 bad options,
3 the checker could not run, 4 the engine failed as a program (and 4 wins over 1)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout, suppress
from dataclasses import replace

from durak_spec.cli import main
from durak_spec.conformance.checker import (
    EXIT_ENGINE,
    EXIT_FAILED,
    EXIT_USAGE,
    check_engine,
    exit_status,
)
from durak_spec.model.actions import Action
from durak_spec.protocol import Capabilities, ReferenceEngine, Rejected, Verdict
from durak_spec.spec.runner import RunResult, ScenarioResult, features_dir


class Raises(ReferenceEngine):
    def legal_actions(self) -> tuple[Action, ...]:
        raise ZeroDivisionError("the move generator broke")


class RejectsCovers(ReferenceEngine):
    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="rejects covers")

    def apply(self, action: Action) -> Verdict:
        if action.kind == "cover":
            return Rejected("no covers today")
        return super().apply(action)


def _code(factory: type[ReferenceEngine], rule: str) -> int:
    return check_engine(factory, rules=[rule], out=io.StringIO(), err=io.StringIO())


def test_each_kind_of_outcome_has_its_exit_code() -> None:
    assert _code(ReferenceEngine, "BEAT-1") == 0
    assert _code(RejectsCovers, "BEAT-1") == EXIT_FAILED == 1
    assert _code(Raises, "BEAT-1") == EXIT_ENGINE == 4
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        assert main(["check", "--rule", "BEAT-33"]) == EXIT_USAGE == 2


def test_an_engine_failure_wins_over_a_rule_failure() -> None:
    def result(*outcomes: str) -> RunResult:
        return RunResult(tuple(ScenarioResult("f.feature", i, "s", (), (), o)  # type: ignore[arg-type]
                               for i, o in enumerate(outcomes)), features_dir())

    assert exit_status(result("passed", "skipped")) == 0
    assert exit_status(result("passed", "failed")) == 1
    assert exit_status(result("failed", "errored")) == 4


def test_the_help_documents_the_exit_codes() -> None:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()), suppress(SystemExit):
        main(["check", "--help"])
    text = " ".join(out.getvalue().split())
    for part in ("0 if nothing failed", "1 if the engine broke a rule", "2 for bad options",
                 "3 if the checker itself could not run", "4 if the engine failed as a program"):
        assert part in text, part
