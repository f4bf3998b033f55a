"""``durak-spec check --features``: a user's own feature files, run with the step library."""

from __future__ import annotations

import io
import json
import re
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from durak_spec.cli import main

CLOSING = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) errored, (\d+) skipped")

MINE = textwrap.dedent("""\
    Feature: My own rules questions
      Rule: A trump beats a plain card
        Example: Boris beats the ace of clubs with the six of hearts
          Given the players Anna and Boris
          And hearts are trump
          And Anna attacks Boris
          And the table shows A♣ uncovered
          And Boris holds 6♥ and 5 other cards
          When Boris covers A♣ with 6♥
          Then it is accepted

        Example: A wrong expectation of mine fails
          Given the players Anna and Boris
          And hearts are trump
          And Anna attacks Boris
          And the table shows A♣ uncovered
          And Boris holds 6♦ and 5 other cards
          When Boris covers A♣ with 6♦
          Then it is accepted
    """)

UNDEFINED = textwrap.dedent("""\
    Feature: A step the library does not know
      Scenario: Anna sings
        Given the players Anna and Boris
        When Anna sings a song
        Then the game goes on
    """)


def check(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", *argv])
    return code, out.getvalue(), err.getvalue()


def counts(text: str) -> tuple[int, ...]:
    match = CLOSING.match(text.rstrip("\n").splitlines()[-1])
    assert match, text[-500:]
    return tuple(int(g) for g in match.groups())


def test_a_users_feature_file_runs_with_the_step_library(tmp_path: Path) -> None:
    mine = tmp_path / "mine.feature"
    mine.write_text(MINE, encoding="utf-8")
    report = tmp_path / "report.json"
    code, out, _ = check("--features", str(mine), "--json", str(report))
    assert code == 1  # one of my expectations is wrong
    assert counts(out) == (1, 1, 0, 0)
    assert "mine.feature" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    outcomes = sorted(s["outcome"] for s in data["scenarios"])
    assert outcomes == ["failed", "passed"]
    failed = next(s for s in data["scenarios"] if s["outcome"] == "failed")
    assert "BEAT" in json.dumps(failed)  # the engine's rejection names the rule


def test_a_folder_runs_every_feature_file_in_it(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "mine.feature").write_text(MINE, encoding="utf-8")
    (tmp_path / "other.feature").write_text(UNDEFINED, encoding="utf-8")
    code, out, _ = check("--features", str(tmp_path))
    assert code == 1
    # the unknown step is an error of my file, not a crash, and not the engine's failure (4)
    assert counts(out) == (1, 1, 1, 0)
    assert "no step definition matches" in out


def test_filters_apply_to_the_users_files(tmp_path: Path) -> None:
    mine = tmp_path / "mine.feature"
    mine.write_text(MINE, encoding="utf-8")
    code, out, _ = check("--features", str(mine), "-k", "six of hearts")
    assert code == 0
    assert counts(out) == (1, 0, 0, 0)


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d / "missing.feature", "no such file or folder"),
    (lambda d: d, "holds no .feature file"),
    (lambda d: d / "notes.txt", "is not a .feature file"),
])
def test_bad_paths_are_refused_before_anything_runs(
        tmp_path: Path, make: object, message: str) -> None:
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    path = make(tmp_path)  # type: ignore[operator]
    code, _, err = check("--features", str(path))
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_features_do_not_mix_with_random_games(tmp_path: Path) -> None:
    mine = tmp_path / "mine.feature"
    mine.write_text(MINE, encoding="utf-8")
    code, _, err = check("--features", str(mine), "--random", "1")
    assert code == 2
    assert "--features" in err
