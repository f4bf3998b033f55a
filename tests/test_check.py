"""``durak-spec check`` and the scenario runner: the reference passes, wrong engines are caught.

The expected numbers of scenarios are counted here from the feature files with pytest-bdd's
parser, independently of the runner. Two deliberately wrong engines are wrappers built only
from the engine's public functions: one forgets that a cover must beat (BEAT-1/3/5), one
forgets the transfer capacity check (TRANSFER-3).

Runtime: about 40 s wall (17 s CPU) on this 2-core machine while it was busy (load 5); most
of it is two runs of the whole specification against the reference, in-process (7-10 s)
and through ``python -m durak_spec.serve`` (7-16 s, the round trips suffer most from the
load); the rest are filtered runs of about 1 s each.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from durak_spec.cli import main
from durak_spec.conformance.checker import check_engine
from durak_spec.core.cards import Card
from durak_spec.core.cliargs import CommandError
from durak_spec.core.errors import IllegalAction
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.engine import apply, check, is_legal, legal_actions, new_game, validate_state
from durak_spec.model.actions import Action, Cover, Transfer
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Pair
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    Engine,
    ReferenceEngine,
    Rejected,
    Report,
    Verdict,
)
from durak_spec.spec.runner import features_dir, run

CLOSING = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) errored, (\d+) skipped$")
PYTHON = shlex.quote(sys.executable)
SERVE = f"{PYTHON} -m durak_spec.serve"


# -- what the feature files hold, counted without the runner ---------------------------------------


@dataclass(frozen=True)
class Row:
    """One scenario as pytest-bdd runs it (one row of an outline) and its tags."""

    feature: str
    name: str
    tags: frozenset[str]


def spec_rows() -> list[Row]:
    from durak_spec.spec.gherkin import read_specification

    return [Row(example.path.name, template.name, frozenset(example.tags))
            for feature in read_specification(features_dir()).features
            for template in feature.scenarios() for example in template.examples]


def closing_counts(text: str) -> tuple[int, int, int, int]:
    last = text.rstrip("\n").splitlines()[-1]
    match = CLOSING.match(last)
    assert match, f"the report does not end with the counts line: {last!r}"
    passed, failed, errored, skipped = (int(g) for g in match.groups())
    return passed, failed, errored, skipped


@dataclass
class Cli:
    code: int
    out: str
    err: str


def cli(*argv: str) -> Cli:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", *argv])
    return Cli(code, out.getvalue(), err.getvalue())


def checked(factory: Callable[[], Engine], rules: Sequence[str],
            json_path: Path | None = None, junit_path: Path | None = None) -> Cli:
    out, err = io.StringIO(), io.StringIO()
    code = check_engine(factory, rules=rules, out=out, err=err,
                        json_path=str(json_path) if json_path else None,
                        junit_path=str(junit_path) if junit_path else None)
    return Cli(code, out.getvalue(), err.getvalue())


def rule_block(report: str, rule: str) -> str:
    """The lines of the report under one rule's header, the header included."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{rule}  "))
    end = next((i for i in range(start + 1, len(lines))
                if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


# -- deliberately wrong engines, from public functions only ----------------------------------------


class _Wrapper:
    """An engine holding its own state, playing by the reference's public functions."""

    name = "wrapper"

    def __init__(self) -> None:
        self.state: GameState | None = None

    def capabilities(self) -> Capabilities:
        return replace(ReferenceEngine().capabilities(), name=self.name)

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self.state = new_game(rules, deck=deck, seed=seed)
        return Report.of(self.state)

    def load(self, state: GameState) -> Report:
        self.state = validate_state(state)
        return Report.of(self.state)

    def now(self) -> GameState:
        assert self.state is not None
        return self.state

    def extra(self) -> list[Action]:
        """The illegal actions this engine wrongly allows."""
        return []

    def wrongly(self, action: Action) -> GameState:
        raise NotImplementedError

    def legal_actions(self) -> tuple[Action, ...]:
        return legal_actions(self.now()) + tuple(self.extra())

    def apply(self, action: Action) -> Verdict:
        if action in self.extra():
            self.state = self.wrongly(action)
            return Accepted()
        try:
            check(self.now(), action)
        except IllegalAction as error:
            return Rejected(error.reason, error.rule)
        self.state = apply(self.now(), action)
        return Accepted()

    def report(self) -> Report:
        return Report.of(self.now())

    def close(self) -> None:
        self.state = None


class LaxCoverEngine(_Wrapper):
    """Forgets the ranks: any card of the attacked suit, or any trump, covers."""

    name = "lax cover"

    def extra(self) -> list[Action]:
        state = self.now()
        if not state.table or state.taking:
            return []
        out: list[Action] = []
        for pair in state.table:
            if pair.cover is not None:
                continue
            for card in state.hands[state.defender]:
                cover = Cover(state.defender, pair.attack, card)
                if card.suit in (pair.attack.suit, state.trump) and not is_legal(state, cover):
                    out.append(cover)
        return out

    def wrongly(self, action: Action) -> GameState:
        assert isinstance(action, Cover)
        state = self.now()
        seat = action.player
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action.card)
        known = list(state.known)
        known[seat] = known[seat] - {action.card}
        table = tuple(Pair(p.attack, action.card) if p.attack == action.attack else p
                      for p in state.table)
        return state._replace(hands=tuple(hands), table=table, passed=frozenset(),
                              known=tuple(known))


class ForgetfulTransferEngine(_Wrapper):
    """Forgets the transfer capacity check: the next defender may hold too few cards."""

    name = "forgetful transfer"

    def extra(self) -> list[Action]:
        state = self.now()
        out: list[Action] = []
        for card in state.hands[state.defender] if state.table else ():
            transfer = Transfer(state.defender, card)
            try:
                check(state, transfer)
            except IllegalAction as error:
                if error.rule == "TRANSFER-3":
                    out.append(transfer)
        return out

    def wrongly(self, action: Action) -> GameState:
        assert isinstance(action, Transfer)
        state = self.now()
        seat, players = action.player, len(state.hands)
        out = {s for group in state.finished for s in group}
        target = next(s for s in ((seat + k) % players for k in range(1, players))
                      if s not in out)
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action.card)
        known = list(state.known)
        known[seat] = known[seat] - {action.card}
        return state._replace(hands=tuple(hands), table=(*state.table, Pair(action.card)),
                              attacker=seat, defender=target, passed=frozenset(),
                              joined=state.joined if seat in state.joined
                              else (*state.joined, seat), known=tuple(known))


class TransferOnlyEngine(ReferenceEngine):
    """Claims the classic transfer game only (no free combination of axes)."""

    def capabilities(self) -> Capabilities:
        return Capabilities(name="transfer only", profiles=("classic-transfer",), load=True)


class NoLoadEngine(ReferenceEngine):
    """Cannot start from a described position: only dealt games can be checked."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="no load", load=False)


# -- the reference, in-process, with every report --------------------------------------------------


@dataclass
class FullRun:
    cli: Cli
    json: dict[str, Any]
    junit: ET.Element


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> FullRun:
    where = tmp_path_factory.mktemp("check")
    result = cli("--json", str(where / "report.json"), "--junit-xml",
                 str(where / "report.xml"))
    document = json.loads((where / "report.json").read_text(encoding="utf-8"))
    return FullRun(result, document, ET.parse(where / "report.xml").getroot())


def test_the_reference_passes_every_scenario_in_process(reference: FullRun) -> None:
    rows = spec_rows()
    failing = [f"{s['feature']}:{s['line']} {s['outcome']}: {s['message']}"
               for s in reference.json["scenarios"]
               if s["outcome"] != "passed"]
    assert not failing, "\n".join(failing)
    assert closing_counts(reference.cli.out) == (len(rows), 0, 0, 0)
    assert reference.cli.out.rstrip("\n").splitlines()[-1] == \
        f"{len(rows)} passed, 0 failed, 0 errored, 0 skipped"
    assert reference.cli.code == 0


def test_the_report_is_grouped_by_rule_id_in_index_order(reference: FullRun) -> None:
    index = load_rule_index()
    tagged = {t for row in spec_rows() for t in row.tags if t in index}
    headers = [line.split("  ")[0] for line in reference.cli.out.splitlines()
               if line and not line.startswith(" ") and "  " in line and
               line.split("  ")[0] in index]
    assert set(headers) == tagged
    order = list(index)
    assert headers == sorted(headers, key=order.index)
    for rule in ("BEAT-3", "DEAL-1"):
        if rule in tagged:
            assert f"{rule}  {index[rule].title}: " in reference.cli.out


def test_json_and_junit_reports_agree_with_the_counts(reference: FullRun) -> None:
    document = reference.json
    passed, failed, errored, skipped = closing_counts(reference.cli.out)
    assert document["format"] == "durak-spec/check-report"
    assert document["counts"] == {"passed": passed, "failed": failed, "errored": errored,
                                  "skipped": skipped}
    scenarios = document["scenarios"]
    assert isinstance(scenarios, list) and len(scenarios) == passed + failed + errored + skipped
    assert {s["outcome"] for s in scenarios} <= {"passed", "failed", "errored", "skipped"}
    assert document["summary"] == reference.cli.out.rstrip("\n").splitlines()[-1]
    root = reference.junit
    assert root.tag == "testsuites"
    assert (int(root.get("tests", -1)), int(root.get("failures", -1)),
            int(root.get("errors", -1)), int(root.get("skipped", -1))) == \
        (len(scenarios), failed, errored, skipped)
    cases = root.findall("testsuite/testcase")
    assert len(cases) == len(scenarios)
    assert len(root.findall("testsuite/testcase/failure")) == failed
    assert len(root.findall("testsuite/testcase/error")) == errored
    suites = {suite.get("name") for suite in root.findall("testsuite")}
    assert suites == {row.feature for row in spec_rows()}
    rules = {p.get("value") for p in root.iter("property") if p.get("name") == "rule"}
    assert rules == {r for s in scenarios for r in s["rules"]}


def test_progress_goes_to_stderr_and_the_report_to_stdout(reference: FullRun) -> None:
    total = len(spec_rows())
    assert f"checked {total}/{total} scenarios" in reference.cli.err
    assert "passed," not in reference.cli.err
    assert reference.cli.out.startswith("Checked durak-spec reference against ")


# -- wrong engines are caught ----------------------------------------------------------------------

BEATING = ("BEAT-1", "BEAT-2", "BEAT-3", "BEAT-4", "BEAT-5")


def test_an_engine_whose_covers_need_not_beat_is_caught_by_the_beat_rules(
        tmp_path: Path) -> None:
    result = checked(LaxCoverEngine, BEATING, tmp_path / "r.json", tmp_path / "r.xml")
    assert result.code == 1
    passed, failed, errored, _ = closing_counts(result.out)
    assert failed > 0 and errored == 0 and passed > 0
    for rule in ("BEAT-3", "BEAT-5"):
        block = rule_block(result.out, rule)
        assert "failed" in block.splitlines()[0]
        # Cited by example number, with the file and line after it.
        assert re.search(r"  FAILED BEAT-\d+\.\d+[a-z]? \(03_beating\.feature:\d+\)", block)
    block = rule_block(result.out, "BEAT-5")
    assert re.search(r'engine: .*"cover (\S+) with (\S+)" was accepted, but the rules forbid '
                     r"it \(BEAT-5\)", block), block
    assert "BEAT-5 says: " in block
    assert "step:   Then it is rejected" in block
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert document["engine"]["name"] == "lax cover"
    assert document["counts"]["failed"] == failed
    bad = [s for s in document["scenarios"] if s["outcome"] == "failed"]
    assert all(set(s["rules"]) & set(BEATING) and s["step"] and s["message"] for s in bad)
    junit = ET.parse(tmp_path / "r.xml").getroot()
    assert int(junit.get("failures", -1)) == failed == len(junit.findall(".//failure"))
    assert all((f.text or "").startswith("step: ") and "cover" in (f.text or "")
               for f in junit.iter("failure"))
    # a scenario that only uses covers that do beat still passes
    assert "BEAT-2" in result.out and "passed" in rule_block(result.out, "BEAT-2").splitlines()[0]


def test_an_engine_that_forgets_the_transfer_capacity_is_caught_by_transfer_3() -> None:
    rows = [r for r in spec_rows() if "TRANSFER-3" in r.tags]
    if not rows:
        pytest.skip("no scenario is tagged TRANSFER-3 yet")
    result = checked(ForgetfulTransferEngine, ["TRANSFER-3"])
    assert result.code == 1
    passed, failed, errored, skipped = closing_counts(result.out)
    assert passed + failed + errored + skipped == len(rows)
    assert failed > 0 and passed > 0 and errored == 0
    block = rule_block(result.out, "TRANSFER-3")
    assert re.search(r"FAILED TRANSFER-\d+\.\d+[a-z]? \(08_transfer\.feature:\d+\)", block)
    assert "TRANSFER-3 says: " in block
    assert re.search(r'engine: .*"transfer \S+" was accepted, but the rules forbid it '
                     r"\(TRANSFER-3\)", block), block


def test_an_engine_that_claims_one_profile_gets_skips_with_reasons() -> None:
    rows = [r for r in spec_rows() if r.tags & {"BEAT-3", "TRANSFER-3"}]
    result = checked(TransferOnlyEngine, ["BEAT-3", "TRANSFER-3"])
    passed, failed, errored, skipped = closing_counts(result.out)
    assert result.code == 0
    assert (failed, errored) == (0, 0)
    assert passed + skipped == len(rows)
    # BEAT-3's examples do not depend on the transfer switch (durak_spec/data/
    # dependencies.json): they are played under the engine's own rules, not skipped.
    assert "skipped" not in rule_block(result.out, "BEAT-3").splitlines()[0]
    if any("TRANSFER-3" in r.tags for r in rows):
        assert "skipped" not in rule_block(result.out, "TRANSFER-3").splitlines()[0]


def test_an_engine_without_load_is_checked_on_dealt_games_only() -> None:
    result = run(NoLoadEngine, rules=["DEAL-4", "BEAT-1"])
    skipped = result.with_outcome("skipped")
    assert skipped and result.ok
    assert all("no load cannot start from a described position" in (s.skip_reason or "")
               for s in skipped)
    assert {r for s in result.with_outcome("passed") for r in s.rule_ids} >= {"DEAL-4"}


def test_an_engine_that_raises_is_reported_as_errored() -> None:
    class Broken(ReferenceEngine):
        def legal_actions(self) -> tuple[Action, ...]:
            raise ZeroDivisionError("the move generator broke")

    result = run(Broken, rules=["BEAT-1"])
    errored = result.with_outcome("errored")
    assert errored and not result.ok
    assert all("ZeroDivisionError: the move generator broke" in (s.message or "")
               and s.step is not None for s in errored)


# -- filters ---------------------------------------------------------------------------------------


def test_rule_filter_runs_exactly_that_rules_scenarios() -> None:
    result = cli("--rule", "BEAT-3", "--json", "-")
    document = json.loads(result.out)
    scenarios = document["scenarios"]
    assert len(scenarios) == sum("BEAT-3" in r.tags for r in spec_rows()) > 0
    assert all("BEAT-3" in s["rules"] for s in scenarios)
    assert result.code == 0
    # with --json -, the text report goes to stderr
    assert closing_counts(result.err) == (len(scenarios), 0, 0, 0)


def test_tag_and_profile_filters() -> None:
    rows = spec_rows()
    by_tag = run(tags=["@example"])
    assert len(by_tag.scenarios) == sum("example" in r.tags for r in rows) > 0
    assert all("example" in s.tags for s in by_tag.scenarios)
    by_keyword = run(keyword="OUTRANKS")
    assert by_keyword.scenarios
    assert all("outranks" in s.name for s in by_keyword.scenarios)
    rules = ["TRANSFER-3", "BEAT-3", "ORDER-2", "DEAL-3"]
    by_profile = run(rules=rules, profiles=["classic-transfer"])
    assert by_profile.scenarios
    assert {s.profile for s in by_profile.scenarios} == {"classic-transfer"}
    assert len(by_profile.scenarios) + by_profile.deselected == len(rows)
    assert len(by_profile.scenarios) < sum(bool(r.tags & set(rules)) for r in rows)


def test_unknown_filters_and_bad_options_are_usage_errors() -> None:
    result = cli("--rule", "BEAT-33")
    assert result.code == 2 and "did you mean BEAT-3" in result.err
    assert "Traceback" not in result.err
    assert cli("--profile", "classic").code == 2
    assert cli("--tag", "exampel").code == 2
    assert cli("--timeout", "1").code == 2
    assert cli("--start-timeout", "1").code == 2  # no --engine: the reference in-process
    assert cli("--random", "1", "--timeout", "1").code == 2
    assert cli("--engine", SERVE, "--start-timeout", "0").code == 2
    assert cli("--engine", SERVE, "--timeout", "-1").code == 2
    assert cli("--engine", "").code == 2
    with pytest.raises(CommandError, match="no scenario"):
        check_engine(keyword="no scenario is named like this", out=io.StringIO(),
                     err=io.StringIO())


def test_help_explains_the_protocol_and_names_the_book_page() -> None:
    result = cli("--help")
    assert result.code == 0
    text = " ".join(result.out.split())
    for word in ("hello", "start", "legal", "apply", "state", "JSON", "--engine",
                 "Checking your engine", "book/implementers.md", "protocol.schema.json"):
        assert word in text


# -- the runner as a Python API --------------------------------------------------------------------


def test_the_runner_traces_each_step_and_prints_nothing(
        capfd: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the runner does not depend on the working directory
    result = run(rules=["BEAT-4"], trace=True)
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("", "")
    assert result.scenarios and result.ok
    for scenario in result.scenarios:
        assert scenario.trace and all(step.passed for step in scenario.trace)
        assert scenario.trace[0].keyword == "Given"
        assert scenario.trace[-1].report is not None
        moves = [step for step in scenario.trace if step.move is not None]
        for step in moves:
            assert step.verdict is not None and step.keyword in ("When", "And")


def test_a_broken_feature_file_errors_on_its_own(tmp_path: Path) -> None:
    shutil.copy(features_dir() / "03_beating.feature", tmp_path / "03_beating.feature")
    (tmp_path / "99_broken.feature").write_text("This is not Gherkin.\nFeature: broken\n",
                                                encoding="utf-8")
    result = run(features=tmp_path)
    broken = [s for s in result.scenarios if s.feature == "99_broken.feature"]
    assert len(broken) == 1 and broken[0].outcome == "errored"
    assert broken[0].message
    good = [s for s in result.scenarios if s.feature == "03_beating.feature"]
    assert good and all(s.outcome == "passed" for s in good)


def test_outline_rows_are_reported_by_their_own_line() -> None:
    result = run(rules=["DEAL-2"])
    rows = [s for s in result.scenarios if "outranks" in s.name]
    if len(rows) < 2:
        pytest.skip("DEAL-2 has no scenario outline")
    assert len({s.line for s in rows}) == len(rows)
    text = (result.features / rows[0].feature).read_text(encoding="utf-8").splitlines()
    for row in rows:
        assert text[row.line - 1].strip().startswith("|")


# -- through the wire protocol ---------------------------------------------------------------------


def test_the_reference_passes_as_a_subprocess(reference: FullRun) -> None:
    result = cli("--engine", SERVE)
    assert result.code == 0, result.out[-3000:]
    assert closing_counts(result.out) == closing_counts(reference.cli.out)
    assert "(command: " in result.out.splitlines()[0]


_CRASHING = textwrap.dedent("""\
    import json, os, sys, time
    from durak_spec.protocol import ReferenceEngine
    from durak_spec.protocol.serve import Server

    MODE = sys.argv[1]
    server = Server(ReferenceEngine())
    for line in sys.stdin:
        request = json.loads(line)
        action = request.get("action") or {}
        if request.get("cmd") == "apply" and action.get("type") == "cover" \\
                and action.get("card") in ("9♣", "9C"):
            sys.stdout.write('{"id": 99, "half a line')
            sys.stdout.flush()
            if MODE == "crash":
                os._exit(3)
            time.sleep(60)
        reply = server.handle(line)
        if reply is not None:
            sys.stdout.write(reply + "\\n")
            sys.stdout.flush()
    """)


@pytest.mark.parametrize("mode", ["crash", "hang"])
def test_a_failing_subprocess_errors_that_scenario_and_is_restarted(
        tmp_path: Path, mode: str) -> None:
    script = tmp_path / "engine.py"
    script.write_text(_CRASHING, encoding="utf-8")
    # Half a second for an answer the reference gives in a millisecond; each process's
    # first answer, after Python starts and imports the package, may take far longer.
    result = cli("--engine", f"{PYTHON} {shlex.quote(str(script))} {mode}", "--rule", "BEAT-1",
                 "--timeout", "0.5", "--start-timeout", "20", "--json", str(tmp_path / "r.json"))
    assert result.code == 4, result.err  # an engine failure, not a rule failure
    scenarios = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["scenarios"]
    errored = [i for i, s in enumerate(scenarios) if s["outcome"] == "errored"]
    assert errored, result.out
    for i in errored:
        message = scenarios[i]["message"]
        assert ("engine crashed" if mode == "crash" else "engine timeout") in message
        assert '{"id": 99, "half a line' in message
    # the engine was started again: a scenario after the failure passed
    assert any(s["outcome"] == "passed" for s in scenarios[errored[0] + 1:]), result.out
    assert re.search(r"ERRORED [A-Z]+-\d+\.\d+[a-z]? \(03_beating\.feature:\d+\)", result.out)
    assert f"started again {len(errored)} time" in result.err


def test_an_engine_that_fails_the_handshake_is_reported(tmp_path: Path) -> None:
    result = cli("--engine", f"{PYTHON} -c \"print('hello?')\"")
    assert result.code == 4
    assert "handshake" in result.err and "hello?" in result.err


# -- differential modes: --random (lockstep) and --perft -------------------------------------------


def test_random_lockstep_against_the_reference_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    from durak_spec.cli import main

    assert main(["check", "--random", "1", "--seed", "5", "--profile", "classic-transfer"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^5 agreed, 0 diverged, 0 failed, 0 skipped", out, re.M), out


def test_perft_of_the_reference_matches_the_stored_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    from durak_spec.cli import main

    assert main(["check", "--perft", "--max-depth", "3"]) == 0
    assert re.search(r"positions: \d+ ok, 0 failed", capsys.readouterr().out)


def test_random_and_perft_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    from durak_spec.cli import main

    assert main(["check", "--random", "1", "--perft"]) == 2
    assert "choose one of --random and --perft" in capsys.readouterr().err


# -- hostile engines and report files (issue 12 items 1, 6, 7 and the CLI findings) ---------

_HANGS_ON_THE_FIFTH = textwrap.dedent("""\
    import sys, time
    from durak_spec.protocol import ReferenceEngine
    from durak_spec.protocol.serve import Server

    server = Server(ReferenceEngine())
    for number, line in enumerate(sys.stdin, 1):
        if number >= 5:
            time.sleep(3600)
        reply = server.handle(line)
        if reply is not None:
            sys.stdout.write(reply + "\\n")
            sys.stdout.flush()
    """)


def test_an_engine_that_hangs_is_given_up_on_after_three_time_outs(tmp_path: Path) -> None:
    # It hangs on the fifth request of each process: short scenarios pass in between.
    script = tmp_path / "engine.py"
    script.write_text(_HANGS_ON_THE_FIFTH, encoding="utf-8")
    result = cli("--engine", f"{PYTHON} {shlex.quote(str(script))}", "--timeout", "0.5",
                 "--start-timeout", "20", "--json", str(tmp_path / "r.json"))
    assert result.code == 4
    scenarios = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["scenarios"]
    outcomes = [s["outcome"] for s in scenarios]
    first_skip = outcomes.index("skipped")
    assert outcomes[:first_skip].count("errored") == 3  # three time-outs, then no more waiting
    assert outcomes[first_skip - 1] == "errored"
    assert set(outcomes[first_skip:]) == {"skipped"}
    skipped = [s for s in scenarios if s["outcome"] == "skipped"]
    assert len(skipped) > 300
    assert all("did not answer in time (--timeout 0.5 s, --start-timeout 20 s)"
               in s["skip_reason"] for s in skipped)
    assert "the rest were skipped" in result.err
    assert f"{outcomes.count('errored')} errored" in result.out.splitlines()[-1]


def test_a_lone_surrogate_in_an_engine_name_is_a_failed_handshake(tmp_path: Path) -> None:
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent("""\
        import sys
        for line in sys.stdin:
            sys.stdout.write('{"id": 1, "ok": true, "protocol": 1, "name": "\\\\ud800", '
                             '"version": "", "profiles": [], "players": [2], '
                             '"capabilities": {"load": false}}\\n')
            sys.stdout.flush()
        """), encoding="utf-8")
    result = cli("--engine", f"{PYTHON} {shlex.quote(str(script))}")
    assert result.code == 4
    assert "handshake" in result.err and "lone surrogate" in result.err


def test_an_in_process_engine_with_a_surrogate_name_gets_its_report(tmp_path: Path) -> None:
    class Odd(ReferenceEngine):
        def capabilities(self) -> Capabilities:
            return replace(super().capabilities(), name="odd \ud800 engine")

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    code = check_engine(Odd, rules=["BEAT-1"], out=out, err=io.StringIO(),
                        json_path=str(tmp_path / "r.json"), label="odd \ud800 engine")
    assert code == 0
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["engine"]["name"] == "odd \ud800 engine"


@pytest.mark.parametrize("mode", [["--random", "1", "--profile", "classic-throw-in"],
                                  ["--perft", "--max-depth", "1"], ["--rule", "BEAT-1"]])
@pytest.mark.parametrize("target", ["DIR", "DIR/missing/r.json", "/dev/full"])
def test_report_files_that_cannot_be_written_are_one_line_errors(
        tmp_path: Path, mode: list[str], target: str) -> None:
    if target == "/dev/full" and not Path(target).exists():
        pytest.skip("no /dev/full here")
    path = target.replace("DIR", str(tmp_path))
    result = cli(*mode, "--json", path)
    assert result.code == 2, result.err
    assert result.err.splitlines()[-1].startswith("durak-spec check: error: cannot write ")
    assert "Traceback" not in result.err and result.err.count("error:") == 1
    if target != "/dev/full":  # known before anything runs: the check does not start
        assert result.err.count("\n") == 1, result.err


def test_no_matching_scenario_is_one_line() -> None:
    result = cli("-k", "no scenario is named like this")
    assert result.code == 2
    assert result.out == ""
    assert result.err.splitlines() == [
        "durak-spec check: error: no scenario of the specification matches these filters "
        f"({len(spec_rows())} left out)"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--max-depth", "2"], "--max-depth and --time-budget limit the --perft counts"),
    (["--seed", "3"], "--seed seeds the --random games"),
    (["--perft", "--seed", "3"], "--seed seeds the --random games"),
    (["--random", "1", "--max-depth", "2"], "--max-depth and --time-budget limit the --perft"),
    (["--random", "1", "--rule", "BEAT-1"], "--random and --perft do not run scenarios"),
    (["--random", "1", "--seed", "-1"], "is not a count"),
    (["--tag", "source-b"], "did you mean 'source-B'? (upper and lower case differ)"),
    (["--rule", "beat-3"], "did you mean 'BEAT-3'?"),
])
def test_options_that_would_be_ignored_are_refused(argv: list[str], message: str) -> None:
    result = cli(*argv)
    assert result.code == 2 and message in result.err, result.err
    assert result.err.count("\n") == 1


def test_progress_under_a_profile_says_how_many_were_checked() -> None:
    result = cli("--profile", "classic-transfer", "--rule", "TRANSFER-3", "BEAT-1")
    assert result.code == 0
    last = result.err.strip().splitlines()[-1]
    checked = sum(closing_counts(result.out))
    assert re.fullmatch(rf"looked at (\d+)/\1 scenarios \({checked} checked, \d+ played under "
                        r"other profiles\)", last), last


class _DealsAnyCount:
    """The reference, except that a game of any number of players is dealt (DEAL-3
    forgotten); it records the counts it was asked for."""

    asked: ClassVar[list[int]] = []

    def __init__(self) -> None:
        from durak_spec.protocol import ReferenceEngine

        self.inner = ReferenceEngine()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def start_for(self, players: int, rules: RuleSet, deck: Sequence[Card], seed: int = 0
                  ) -> Any:
        type(self).asked.append(players)
        return self.inner.start(rules, deck, seed)


def test_the_scenarios_ask_the_engine_for_a_game_of_n_players() -> None:
    # "When a game for 7 players is set up" is the engine's verdict, not the checker's own
    # rule set: an engine that deals seven fails DEAL-3, and was asked for 7 and for 1.
    _DealsAnyCount.asked = []
    out = io.StringIO()
    code = check_engine(_DealsAnyCount, rules=["DEAL-3"], out=out, err=io.StringIO())  # type: ignore[arg-type]
    assert code == 1, out.getvalue()
    assert sorted(_DealsAnyCount.asked) == [1, 7]
    assert "2 failed" in out.getvalue() and "DEAL-3" in out.getvalue()
    # the reference refuses both counts itself, naming DEAL-3
    out = io.StringIO()
    assert check_engine(rules=["DEAL-3"], out=out, err=io.StringIO()) == 0, out.getvalue()
