"""Lockstep's later divergences (issue 14): a cause first met in a game that had diverged
before is shrunk and replayable like a game's first one. Its record begins from the
reference's position loaded into the engine (``Record.start``) and holds the fewest steps
after it that still diverge the same way; the record's JSON carries the position, read
back strictly. An engine that cannot load has it replayed from the deal, going on past the
differences of legal actions before it, as lockstep did; where no replay shows it again,
the whole game's record is kept, not replayed."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import DoneBeforeOpening

from durak_spec.cli import main
from durak_spec.conformance.lockstep import (
    Divergence,
    LockstepResult,
    Record,
    RecordError,
    format_lockstep,
    play_lockstep,
    replay,
)
from durak_spec.core.cards import Card
from durak_spec.engine import apply, new_game
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet, profile
from durak_spec.model.state import GameState
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    LoadDeclined,
    ReferenceEngine,
    Report,
    Verdict,
)

RULES = profile("classic-throw-in").rules(2)
GAMES = 6
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class TwoBugs(ReferenceEngine):
    """Two wrong reports: one card too many in the discard right after a take in the
    first four bouts (met early in most games; a load of the right position clears it),
    and, once the game is over, nobody named the durak (END-3; met at the end, after the
    first)."""

    def __init__(self) -> None:
        super().__init__()
        self.last = ""
        self.since = 0
        """Actions accepted since the engine's game began (the deal, or a load)."""

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self.last, self.since = "", 0
        return super().start(rules, deck, seed)

    def load(self, state: GameState) -> Report:
        self.last, self.since = "", 0
        return super().load(state)

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        if isinstance(verdict, Accepted):
            self.last, self.since = action.kind, self.since + 1
        return verdict

    def wrong_durak(self) -> bool:
        return True

    def report(self) -> Report:
        report = super().report()
        if self.last == "take" and self.state.bout < 4:
            report = replace(report, discard=report.discard + 1)
        return replace(report, durak=None) if report.over and self.wrong_durak() else report


class LateDurak(TwoBugs):
    """The durak left out only where the engine has played at least three actions since
    its game began: the divergence needs some of the game's history, not only its
    position."""

    def wrong_durak(self) -> bool:
        return self.since >= 3


def _later(result: LockstepResult, rule: str) -> Divergence:
    return next(c.example for c in result.causes if c.rule == rule)


def test_a_later_divergence_is_shrunk_to_a_loaded_position_and_replayable() -> None:
    result = play_lockstep(TwoBugs(), RULES, games=GAMES, seed=3)
    assert {c.rule for c in result.causes} == {"DEAL-1", "END-3"}, format_lockstep(result)
    first = _later(result, "DEAL-1")
    assert first.record.start is None and first.shrunk  # a game's first: from the deal
    later = _later(result, "END-3")
    assert later.found_after > 20  # met late in its game, after the DEAL-1 divergence
    assert later.shrunk and later.reproducible, later.describe()
    start = later.record.start
    assert start is not None and not start.is_over
    # the position right before the divergent step: one step (the last of the game)
    assert len(later.record.steps) == 1
    assert "replayed from the reference's position loaded into the engine" in later.note
    text = later.describe()
    assert f"load the reference's position of bout {start.bout + 1}: P0 " in text
    again = replay(TwoBugs(), later.record)
    assert again is not None and again.differences == later.differences
    assert (again.kind, again.rule) == (later.kind, "END-3")
    assert replay(ReferenceEngine(), later.record) is None


def test_the_record_with_its_start_position_round_trips_through_json() -> None:
    later = _later(play_lockstep(TwoBugs(), RULES, games=GAMES, seed=3), "END-3")
    document = later.record.to_json()
    text = json.dumps(document, ensure_ascii=False)
    assert json.loads(text)["start"]["format"] == "durak-spec/state"
    read = Record.loads(text)
    assert read == later.record and read.start == later.record.start
    assert Record.from_json(json.loads(text)) == later.record
    # the record read back, replayed against the broken engine, diverges the same way
    again = replay(TwoBugs(), read)
    assert again is not None
    assert (again.kind, again.rule, again.differences) == \
        (later.kind, later.rule, later.differences)
    # a record from the deal has no start key at all (its JSON is as before)
    assert "start" not in _later(play_lockstep(TwoBugs(), RULES, games=GAMES, seed=3),
                                 "DEAL-1").record.to_json()


def test_a_divergence_that_needs_history_keeps_the_fewest_steps_after_the_load() -> None:
    result = play_lockstep(LateDurak(), RULES, games=GAMES, seed=3)
    later = _later(result, "END-3")
    assert later.shrunk and later.reproducible, later.describe()
    record = later.record
    assert record.start is not None
    # three actions since the load are needed, and the needless probes were dropped
    assert len(record.steps) == 3 and not any(step.probe for step in record.steps)
    again = replay(LateDurak(), record)
    assert again is not None and again.rule == "END-3"
    # loading the position one step later shows nothing: no shorter record diverges
    later_start = apply(record.start, record.steps[0].action)
    assert replay(LateDurak(), replace(record, steps=record.steps[1:],
                                       start=later_start)) is None


class MissesADoneAndCannotLoad(DoneBeforeOpening, TwoBugs):
    """Lists an extra done before every bout's opening (ATTACK-1: a difference of legal
    actions alone, so the game goes on without a load), cannot load, and has TwoBugs'
    wrong reports."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="cannot load", load=False)

    def report(self) -> Report:
        report = ReferenceEngine.report(self)
        return replace(report, durak=None) if report.over else report


class MissesADoneAndDeclines(MissesADoneAndCannotLoad):
    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="declines", load=True)

    def load(self, state: GameState) -> Report:
        raise LoadDeclined("only deals here")


@pytest.mark.parametrize("engine", [MissesADoneAndCannotLoad, MissesADoneAndDeclines])
def test_an_engine_that_cannot_load_replays_a_later_divergence_from_the_deal(
        engine: type[TwoBugs]) -> None:
    # The divergences before were differences of legal actions alone (any other ends the
    # game of an engine that cannot load): the replay from the deal goes on past them.
    result = play_lockstep(engine(), RULES, games=3, seed=3)
    assert {c.rule for c in result.causes} == {"ATTACK-1", "END-3"}, format_lockstep(result)
    later = _later(result, "END-3")
    assert later.shrunk and later.reproducible, later.describe()
    record = later.record
    assert record.start is None and record.past_legal
    assert not any(step.probe for step in record.steps)  # the needless probes dropped
    assert len(record.steps) < later.found_after
    assert "replayed from the deal, going on past the differences of legal actions" in \
        later.note
    again = replay(engine(), Record.loads(json.dumps(record.to_json(), ensure_ascii=False)))
    assert again is not None and (again.kind, again.rule) == (later.kind, "END-3")
    assert replay(ReferenceEngine(), record) is None
    # without going on past them, the replay stops at the first difference, ATTACK-1
    first = replay(engine(), replace(record, past_legal=False))
    assert first is not None and first.rule == "ATTACK-1"


class WrongInItsFirstGameOnly(MissesADoneAndCannotLoad):
    """Leaves out the durak in the first game it plays only: no replay shows it again."""

    def __init__(self) -> None:
        super().__init__()
        self.games = 0

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self.games += 1
        return super().start(rules, deck, seed)

    def report(self) -> Report:
        report = ReferenceEngine.report(self)
        return replace(report, durak=None) if report.over and self.games == 1 else report


def test_a_later_divergence_no_replay_shows_keeps_the_record_of_the_whole_game() -> None:
    result = play_lockstep(WrongInItsFirstGameOnly(), RULES, games=2, seed=3)
    later = _later(result, "END-3")
    assert not later.shrunk and not later.reproducible
    assert later.record.start is None and not later.record.past_legal
    assert len(later.record.steps) == later.found_after
    assert later.note == (
        "found later in a game that had diverged before (after loading the reference's "
        "position into the engine, or going on where only the legal actions differed); not "
        "replayed on its own: the engine cannot load a position, and a replay from the deal "
        "does not diverge the same way")


def test_bad_start_positions_are_refused_with_the_field() -> None:
    later = _later(play_lockstep(TwoBugs(), RULES, games=GAMES, seed=3), "END-3")
    good = later.record.to_json()
    start = good["start"]
    assert isinstance(start, dict)
    assert Record.from_json({**good, "start": None}).start is None
    assert Record.from_json({**good, "past_legal": False}) == later.record
    with pytest.raises(RecordError, match=r"^past_legal: must be true or false"):
        Record.from_json({**good, "past_legal": "yes"})
    cases: list[tuple[object, str]] = [
        ("a position", r"^start: a saved position must be a JSON object"),
        ({**start, "format": "durak-spec/game"}, r"^start\.format: unknown format"),
        ({**start, "hands": [["7♣", "1♣"], []]}, r"^start\.hands\[0\]\[1\]"),
        ({**start, "extra": 1}, r"^start: .*extra"),
        ({**start, "rules": {**start["rules"], "transfer": True}},
         r"^start\.rules: must be the record's rules; they differ in transfer"),
        # well formed, but no game reaches it
        ({**start, "bout": 0}, r"^start: in the first bout nobody has drawn yet, .*\(DEAL-4\)$"),
        ({**start, "table": []}, r"^start: the game holds 35 cards, not 36; missing: "),
    ]
    for bad, message in cases:
        with pytest.raises(RecordError, match=message):
            Record.from_json({**good, "start": bad})
        with pytest.raises(RecordError, match=message):
            Record.loads(json.dumps({**good, "start": bad}, ensure_ascii=False))


# -- the command line: durak-spec check --replay ---------------------------------------------------


def _wrong_transfer_from_a_position() -> Record:
    """The wrong example engine's TRANSFER-3 divergence as a record that begins from the
    reference's position before its last step (the last step only)."""
    spec = importlib.util.spec_from_file_location("example_engine_wrong", EXAMPLES /
                                                  "engine_wrong.py")
    assert spec is not None and spec.loader is not None
    wrong = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wrong)
    found = play_lockstep(wrong.WrongEngine(), [profile("classic-transfer").rules(3)],
                          games=10, seed=7).divergences[0]
    record = found.record
    state = new_game(record.rules, deck=record.deck, seed=record.seed)
    for action in record.actions[:-1]:
        state = apply(state, action)
    return replace(record, steps=record.steps[-1:], start=state)


def test_the_command_line_replays_a_record_from_a_position(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = _wrong_transfer_from_a_position()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record.to_json(), ensure_ascii=False), encoding="utf-8")
    wrong = f"{sys.executable} {EXAMPLES / 'engine_wrong.py'}"
    out = tmp_path / "replay.json"
    assert main(["check", "--replay", str(path), "--engine", wrong, "--json", str(out)]) == 1
    text = capsys.readouterr().out
    assert text.startswith("Replay of 1 step from a position loaded into the engine: the "
                           "engine diverges")
    assert "(TRANSFER-3 " in text and "load the reference's position of bout" in text
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["ok"] is False and document["divergence"]["rule"] == "TRANSFER-3"
    # the reference agrees with itself on it
    assert main(["check", "--replay", str(path)]) == 0
    assert "the engine agrees with the reference on 1 step from a position" in \
        capsys.readouterr().out
    # a bad record is a usage error naming the field; so is a mode given as well
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record.to_json(), "start": {"format": "durak-spec/state"}}),
                   encoding="utf-8")
    assert main(["check", "--replay", str(bad)]) == 2
    assert "--replay: " in (err := capsys.readouterr().err) and "start" in err
    assert main(["check", "--replay", str(path), "--random", "1"]) == 2
    assert "--replay replays one record" in capsys.readouterr().err
    assert main(["check", "--replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
