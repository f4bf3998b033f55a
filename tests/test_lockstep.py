"""Differential play: random games in lockstep between an engine and the reference.

The reference agrees with itself, in-process and through a subprocess (the example engine
``examples/engine_reference.py``). The deliberately wrong example engine, which forgets the
transfer capacity check, is caught: the divergence names TRANSFER-3 and its record is
shrunk to the first point where the wrong transfer appears. Engines with other small bugs
(a lax ``apply``, a wrong discard count) are caught with the rule they touch; harmless
differences (the order of legal actions, a report without ``known``) are not divergences.
An engine that crashes or hangs mid-game is reported and restarted, never waited for.

Runtime: about 10 s (most of it starting engine processes on a busy machine).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from helpers import SLOW_START

from durak_spec import Action, RuleSet, Take, apply, check, legal_actions, new_game, profile
from durak_spec.cli import main
from durak_spec.conformance.lockstep import (
    Divergence,
    GameProgress,
    Record,
    RecordError,
    Step,
    configurations,
    format_lockstep,
    play_lockstep,
    replay,
    shrink,
)
from durak_spec.core.errors import IllegalAction
from durak_spec.engine import deal
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    Engine,
    ReferenceEngine,
    Report,
    Verdict,
)
from durak_spec.protocol.subprocess_engine import SubprocessEngine

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PYTHON = sys.executable


def _load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WRONG = _load_example("engine_wrong")

# One rule set of each family: the classic games, source B's (multi-card openings, only the
# attacker throws in, start-hand limit), source D's (join-order drawing) and the optional
# axes (trump exchange, transfer by showing a trump, neighbours throwing in).
FAMILIES: list[RuleSet] = [
    profile("classic-throw-in").rules(players=3),
    profile("classic-transfer").rules(players=4),
    profile("source-b-transfer").rules(players=2),
    profile("source-d-transfer").rules(players=5),
    profile("classic-transfer").rules(players=6).replace(transfer_by_showing_trump=True),
    profile("source-a").rules(players=3).replace(trump_exchange=True,
                                                  throw_in=ThrowInRule.NEIGHBOURS),
]


# -- the reference agrees with itself --------------------------------------------------------------


def test_the_reference_agrees_with_itself_in_process() -> None:
    seen: list[GameProgress] = []
    result = play_lockstep(ReferenceEngine(), FAMILIES, games=20, seed=2024,
                           progress=lambda done, total, game: seen.append(game))
    assert result.ok, format_lockstep(result)
    assert [r.configuration.rules for r in result.results] == FAMILIES
    assert all(r.games == 20 and r.unfinished == 0 for r in result.results)
    assert result.games == 120 == len(seen)
    assert result.actions > 120 * 50  # whole games were played
    assert all(r.probes > 0 for r in result.results)  # illegal actions were tried
    assert result.summary().startswith("6 agreed, 0 diverged, 0 failed, 0 skipped")


def test_the_example_engine_agrees_through_a_subprocess() -> None:
    command = [PYTHON, str(EXAMPLES / "engine_reference.py")]
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        result = play_lockstep(engine, FAMILIES[1:3], games=2, seed=5)
        assert engine.stats.requests > result.actions * 3  # apply, state and legal each
    assert result.ok, format_lockstep(result)
    assert result.games == 4


def test_the_configurations_are_the_claimed_profiles_at_supported_player_counts() -> None:
    everything, skipped = configurations(ReferenceEngine().capabilities())
    assert not skipped
    # Profiles with equal rules are played once: source A's throw-in game is the classic one.
    classic = next(c for c in everything if c.rules == profile("classic-throw-in").rules(4))
    assert "source-a" in classic.aliases and classic.label.startswith("classic-throw-in (=")
    assert len({c.rules for c in everything}) == len(everything)
    assert {c.rules.players for c in everything} == {2, 3, 4, 5, 6}

    two_only = Capabilities(name="small", profiles=("classic-transfer",), players=(2,))
    chosen, left_out = configurations(two_only)
    assert [(c.profile, c.rules.players) for c in chosen] == [("classic-transfer", 2)]
    assert ("classic-transfer, 3 players", "small does not play with 3 players") in left_out
    assert any(reason == "small claims no profile with these rules" for _, reason in left_out)


# -- the deliberately wrong example engine ---------------------------------------------------------


def _transfer_games(engine: Engine) -> Divergence:
    result = play_lockstep(engine, [profile("classic-transfer").rules(players=3)], games=10,
                           seed=7)
    assert not result.ok
    (divergence,) = result.divergences
    return divergence


def test_the_wrong_engine_is_caught_with_the_rule_it_breaks() -> None:
    divergence = _transfer_games(WRONG.WrongEngine())
    assert divergence.kind == "legal actions"
    assert divergence.rule == "TRANSFER-3"
    assert divergence.differences
    for difference in divergence.differences:  # one per card of the rank the defender holds
        assert difference.field.startswith("legal action P") and " transfer " in difference.field
        assert difference.engine == "lists it" and "too few" in difference.reference
        assert difference.rule == "TRANSFER-3"
    text = divergence.describe()
    assert "TRANSFER-3 The receiver needs a card for every attack card" in text
    assert divergence.record.actions[-1] and "record: {" in text


def test_the_shrunk_record_ends_where_the_wrong_transfer_first_appears() -> None:
    divergence = _transfer_games(WRONG.WrongEngine())
    record = divergence.record
    assert divergence.shrunk and divergence.reproducible
    # Probes the divergence does not need were dropped: only played actions remain.
    assert all(not step.probe for step in record.steps)
    assert len(record.steps) <= divergence.found_after
    # Walk the reference along the record: the engine's extra transfers appear for the first
    # time after exactly the record's last action, so no shorter prefix could diverge.
    state = new_game(record.rules, deck=record.deck, seed=record.seed)
    first = None
    for index, action in enumerate([None, *record.actions]):
        if action is not None:
            state = apply(state, action)
        if WRONG.forgotten_transfers(state) and first is None:
            first = index
    assert first == len(record.steps)
    # And replaying confirms it: the whole record diverges, one action less does not.
    again = replay(WRONG.WrongEngine(), record)
    assert again is not None and again.rule == "TRANSFER-3"
    assert len(again.record.steps) == len(record.steps)
    assert replay(WRONG.WrongEngine(), record.prefix(len(record.steps) - 1)) is None
    # The reference agrees with itself on the same record.
    assert replay(ReferenceEngine(), record) is None


def test_shrink_cuts_the_steps_after_the_divergence_and_the_needless_probes() -> None:
    rules = profile("classic-transfer").rules(players=3)
    raw = play_lockstep(WRONG.WrongEngine(), [rules], games=10, seed=7,
                        shrink_records=False).divergences[0]
    assert not raw.shrunk and any(step.probe for step in raw.record.steps)
    # Play on past the divergence in the reference: the longer record shrinks back.
    state = new_game(rules, deck=raw.record.deck, seed=raw.record.seed)
    for action in raw.record.actions:
        state = apply(state, action)
    longer = list(raw.record.steps)
    while legal_actions(state) and len(longer) < len(raw.record.steps) + 5:
        action = legal_actions(state)[0]
        longer.append(Step(action))
        state = apply(state, action)
    assert len(longer) > len(raw.record.steps)
    record = Record(rules, raw.record.deck, raw.record.seed, tuple(longer))
    shrunk = shrink(WRONG.WrongEngine(), record)
    assert shrunk is not None and shrunk.rule == "TRANSFER-3"
    assert shrunk.record.actions == raw.record.actions
    assert not any(step.probe for step in shrunk.record.steps)
    assert shrunk.record.steps == _transfer_games(WRONG.WrongEngine()).record.steps
    assert shrink(ReferenceEngine(), record) is None


def test_the_record_is_replayable_json_in_action_notation() -> None:
    divergence = _transfer_games(WRONG.WrongEngine())
    document = json.loads(json.dumps(divergence.to_json(), ensure_ascii=False))
    steps = document["record"]["steps"]
    assert all(isinstance(s, str) and s.startswith("P") for s in steps)
    assert document["rule"] == "TRANSFER-3" and document["kind"] == "legal actions"
    record = Record.from_json(document["record"])
    assert record == divergence.record
    again = replay(WRONG.WrongEngine(), record)
    assert again is not None and again.differences == divergence.differences


def test_lockstep_is_deterministic_for_a_seed() -> None:
    first = _transfer_games(WRONG.WrongEngine())
    second = _transfer_games(WRONG.WrongEngine())
    assert first == second
    result = play_lockstep(WRONG.WrongEngine(), [profile("classic-transfer").rules(3)],
                           games=10, seed=8)
    assert result.divergences and result.divergences[0].record.deck != first.record.deck


def test_the_wrong_engine_is_caught_through_a_subprocess() -> None:
    command = [PYTHON, str(EXAMPLES / "engine_wrong.py")]
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        divergence = _transfer_games(engine)
    assert divergence == _transfer_games(WRONG.WrongEngine())


def test_the_throw_in_games_of_the_wrong_engine_agree() -> None:
    result = play_lockstep(WRONG.WrongEngine(), [profile("classic-throw-in").rules(3)],
                           games=5, seed=7)
    assert result.ok


# -- other bugs, and differences that are not bugs -------------------------------------------------


class LaxEngine(ReferenceEngine):
    """Says yes to every action, but plays only the legal ones."""

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        return Accepted() if not verdict.ok else verdict


class CountsDiscardWrong(ReferenceEngine):
    """Reports one card too many on the discard pile once there is one."""

    def report(self) -> Report:
        report = super().report()
        return replace(report, discard=report.discard + 1) if report.discard else report


class Harmless(ReferenceEngine):
    """Lists legal actions backwards and twice, and does not report ``known``."""

    def legal_actions(self) -> tuple[Action, ...]:
        actions = super().legal_actions()
        return tuple(reversed(actions)) + actions

    def report(self) -> Report:
        return replace(super().report(), known=())


def test_an_engine_that_accepts_an_illegal_action_is_caught_by_a_probe() -> None:
    result = play_lockstep(LaxEngine(), [profile("classic-throw-in").rules(2)], games=3,
                           seed=1)
    # Lockstep goes on after each divergence (the engine can load): every illegal action
    # accepted is one divergence, grouped by the rule it breaks, all of kind action extra.
    assert len(result.causes) > 1 and all(c.kind == "action extra" for c in result.causes)
    assert result.results[0].found == sum(c.count for c in result.causes) > len(result.causes)
    assert result.games == 3
    # Every example is shrunk and replayable: a game's first from the deal, a later one
    # from the reference's position loaded into the engine (here one step before it).
    assert all(d.shrunk and d.reproducible for d in result.divergences)
    assert any(d.record.start is not None for d in result.divergences)
    assert all(len(d.record.steps) == 1 for d in result.divergences if d.record.start)
    divergence = next(d for d in result.divergences if d.record.start is None)  # a first
    assert divergence.kind == "probe" and divergence.reproducible
    last = divergence.record.steps[-1]
    assert last.probe and all(not s.probe for s in divergence.record.steps[:-1])
    state = new_game(divergence.record.rules, deck=divergence.record.deck,
                     seed=divergence.record.seed)
    for action in divergence.record.actions:
        state = apply(state, action)
    assert last.action not in legal_actions(state)
    (difference,) = divergence.differences
    assert difference.engine == "accepts it" and difference.reference.startswith("illegal")
    with pytest.raises(IllegalAction) as why:
        check(state, last.action)
    assert divergence.rule == why.value.rule


def test_a_wrong_report_field_names_the_field_and_its_rule() -> None:
    result = play_lockstep(CountsDiscardWrong(), [profile("classic-throw-in").rules(2)],
                           games=3, seed=1)
    # Lockstep keeps going after a divergence: the first of a game is shrunk and replayable
    # from the deal.
    divergence = next(d for d in result.divergences if d.shrunk and d.record.start is None)
    assert all(any(x.field == "discard" for x in d.differences) for d in result.divergences)
    # A 37th card is impossible in any game: the audit says so first, then the field.
    assert divergence.kind == "impossible report" and divergence.rule == "DEAL-1"
    impossible, difference = divergence.differences
    assert "make 37 cards, not 36" in impossible.engine
    assert difference.field == "discard" and difference.rule == "DEFEND-1"
    assert int(difference.engine) == int(difference.reference) + 1
    # The bout that filled the discard pile for the first time ended with the last action.
    state = new_game(divergence.record.rules, deck=divergence.record.deck,
                     seed=divergence.record.seed)
    for action in divergence.record.actions[:-1]:
        state = apply(state, action)
    assert not state.discard and apply(state, divergence.record.actions[-1]).discard


def test_order_repeats_and_a_missing_known_field_are_not_divergences() -> None:
    result = play_lockstep(Harmless(), FAMILIES[:2], games=3, seed=3)
    assert result.ok, format_lockstep(result)


# -- engines that crash or hang --------------------------------------------------------------------


BROKEN = textwrap.dedent("""\
    import io, os, sys, time
    from durak_spec.protocol import ReferenceEngine
    from durak_spec.protocol.serve import Server

    server = Server(ReferenceEngine())
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    applies = 0
    for line in stdin:
        if '"cmd":"apply"' in line:
            applies += 1
            if applies == 30:
                {what}
        reply = server.handle(line)
        if reply is not None:
            sys.stdout.buffer.write((reply + "\\n").encode("utf-8"))
            sys.stdout.flush()
    """)


def _broken_engine(tmp_path: Path, what: str, timeout: float) -> SubprocessEngine:
    script = tmp_path / "broken_engine.py"
    script.write_text(BROKEN.format(what=what), encoding="utf-8")
    return SubprocessEngine([PYTHON, str(script)], timeout=timeout, start_timeout=SLOW_START)


def test_an_engine_that_crashes_mid_game_is_reported_and_restarted(tmp_path: Path) -> None:
    engine = _broken_engine(tmp_path, "os._exit(3)", timeout=SLOW_START)
    first_pid = engine.pid
    try:
        started = time.monotonic()
        result = play_lockstep(engine, FAMILIES[:2], games=3, seed=1, probe_rate=0.0)
        elapsed = time.monotonic() - started
        assert engine.running and engine.pid != first_pid
    finally:
        engine.close()
    assert [r.outcome for r in result.results] == ["failed", "failed"]
    for divergence in result.divergences:
        assert divergence.kind == "engine failure" and divergence.reproducible
        # It died on its 30th apply: the record holds the 30 actions, the last unanswered.
        assert len(divergence.record.steps) == 30
        (difference,) = divergence.differences
        assert "crashed" in difference.engine and "exit status 3" in difference.engine
        assert f"after {divergence.record.steps[-1]}" in difference.engine
    assert "2 failed" in result.summary()
    assert elapsed < 30


def test_an_engine_that_hangs_mid_game_is_reported_without_waiting(tmp_path: Path) -> None:
    engine = _broken_engine(tmp_path, "time.sleep(3600)", timeout=SLOW_START)
    try:
        # Half a second against the hour the engine sleeps, for answers the reference gives
        # in a millisecond; the first answer of every process (the restart's hello after
        # Python starts on a busy machine) keeps SLOW_START.
        engine.timeout = 0.5
        started = time.monotonic()
        result = play_lockstep(engine, FAMILIES[:1], games=3, seed=1, probe_rate=0.0)
        elapsed = time.monotonic() - started
        assert engine.running  # restarted for whatever comes next
    finally:
        engine.close()
    (divergence,) = result.divergences
    assert divergence.kind == "engine failure" and not divergence.shrunk
    assert "timeout" in divergence.differences[0].engine
    assert "time limit" in divergence.note
    assert elapsed < 30  # the engine sleeps for an hour


# -- records and the command line ------------------------------------------------------------------


def test_bad_records_are_refused_with_the_field() -> None:
    good = _transfer_games(WRONG.WrongEngine()).record.to_json()
    with pytest.raises(RecordError, match="format"):
        Record.from_json({**good, "format": "something else"})
    with pytest.raises(RecordError, match=r"steps\[0\]"):
        Record.from_json({**good, "steps": ["P0 fly away"]})
    with pytest.raises(RecordError, match="deck"):
        Record.from_json({**good, "deck": ["7♣", "1♣"]})
    rules = profile("classic-throw-in").rules(2)
    deck = deal(rules, 1)
    state = new_game(rules, deck=deck, seed=1)
    not_a_game = Record(rules, deck, 1, (Step(Take(state.attacker)),))
    with pytest.raises(RecordError, match="not legal in the reference"):
        replay(ReferenceEngine(), not_a_game)


def test_the_command_line_reports_and_exits_non_zero_on_a_divergence(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    command = f"{PYTHON} {EXAMPLES / 'engine_wrong.py'}"
    out = tmp_path / "result.json"
    status = main(["check", "--random", "5", "--engine", command, "--seed", "7",
                   "--profile", "classic-transfer", "--players", "3", "--json", str(out)])
    text = capsys.readouterr().out
    assert status == 1
    assert "1 distinct cause (rule and kind of difference)" in text
    assert "1. TRANSFER-3 The receiver needs a card for every attack card: action extra, " in text
    assert text.rstrip().splitlines()[-1].startswith("0 agreed, 1 diverged, 0 failed")
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["ok"] is False
    assert document["configurations"][0]["divergence"]["rule"] == "TRANSFER-3"
    (cause,) = document["causes"]
    assert cause["rule"] == "TRANSFER-3" and cause["kind"] == "action extra"
    assert cause["count"] == document["configurations"][0]["divergences"] >= 1
    assert main(["check", "--random", "1", "--profile", "source-c", "--players", "2"]) == 0
    assert main(["check", "--random", "1", "--profile", "no-such-profile"]) == 2
    assert main(["check", "--random", "1", "--players", "7"]) == 2
    assert "DEAL-3" in capsys.readouterr().err
