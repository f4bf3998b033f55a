"""``durak-spec play --games N``: a match with a running score, saved and resumed."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from durak_spec.cli import main
from durak_spec.engine.dealing import later_game_attacker
from durak_spec.game import persist
from durak_spec.model.rules import LaterGameLead


def run_script(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               script: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_match_of_three_games_keeps_a_running_score(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    code, out, err = run_script(monkeypatch, capsys, "1\n" * 3000, "--games", "3",
                                "--seed", "3", "--players", "3", "--set",
                                "later_game_lead=right-of-durak", "--save-to", str(path))
    assert code == 0, err
    assert [int(n) for n in re.findall(r"New game (\d) of 3", out)] == [1, 2, 3]
    scores = re.findall(r"Score after game (\d) of 3, times the durak: (.*)\.", out)
    assert [int(n) for n, _ in scores] == [1, 2, 3]
    match = persist.load_match(path)
    assert len(match.games) == 3 and all(game.is_over for game in match.games)
    final = ", ".join(f"P{s}{' (you)' if s == 0 else ''} {n}"
                      for s, n in enumerate(match.durak_counts()))
    assert scores[-1][1] == final
    for index in (1, 2):  # each later game was led as the last durak says (ORDER-7)
        later = later_game_attacker(match.rules, match.games[index - 1].outcome)
        if later is not None:
            assert match.games[index].initial.attacker == later[0]
            assert later[1].replace(" (ORDER-7)", "").replace("P0 was", "you were") in out


def test_a_match_stopped_midway_resumes_from_its_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    # Play the first game through with move 1, then quit early in the second.
    code, out, _ = run_script(monkeypatch, capsys, "1\n" * 3000, "--games", "2", "--seed",
                              "8", "--set", "later_game_lead=left-of-durak",
                              "--save-to", str(path))
    assert code == 0
    full = persist.load_match(path)
    first_moves = sum(1 for a in full.games[0].actions if a.player == 0)
    script = "1\n" * first_moves + "1\n1\nquit\n"
    code, out, _ = run_script(monkeypatch, capsys, script, "--games", "2", "--seed", "8",
                              "--set", "later_game_lead=left-of-durak", "--save-to",
                              str(path))
    stopped = persist.load_match(path)
    assert len(stopped.games) == 2 and not stopped.current.is_over
    assert stopped.games[0] == full.games[0]
    code, out, err = run_script(monkeypatch, capsys, "1\n" * 3000, "--load", str(path),
                                "--save-to", str(path))
    assert code == 0, err
    assert "Resuming 2 of 2" in out
    assert "Score after game 2 of 2" in out
    assert persist.load_match(path).current.is_over


def test_a_saved_single_game_still_loads(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, _, _ = run_script(monkeypatch, capsys, "quit\n", "--seed", "2", "--save-to",
                            str(path))
    assert not persist.load(path).is_over  # a single game is saved as a game
    code, out, err = run_script(monkeypatch, capsys, "quit\n", "--load", str(path),
                                "--games", "2")
    assert code == 0, err
    assert "Resuming 1 of 2" in out


def test_too_few_games_are_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_script(monkeypatch, capsys, "", "--games", "0")
    assert code != 0
    assert "--games must be at least 1" in err


def test_the_lead_switch_is_named_in_every_profile() -> None:
    assert LaterGameLead("left-of-durak") is LaterGameLead.LEFT_OF_DURAK
