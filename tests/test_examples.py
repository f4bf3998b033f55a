"""Every teaching example in examples/ runs, exits 0 and still prints what it teaches.

Each script runs as a subprocess with ``sys.executable`` (as a learner would run it), with
the temporary folder pointed into pytest's ``tmp_path`` so that no picture lands anywhere
else. The checks recompute what they can (the lowest trump of the printed hands, the
replayed game) and compare the sources' worked examples with the cards the sources name.
The engine_* files are protocol servers, tested by the checker's own tests, and are skipped
here. Runtime: about 5 s (one process per script run, ~0.4 s each).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from durak_spec import Game, parse_action, parse_card, parse_cards, profile

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.py") if not p.name.startswith("engine_"))
RULE_ID = re.compile(r"\b[A-Z]+-\d+\b")


def run(name: str, tmp_path: Path, *args: str, code: int = 0) -> str:
    """Run one example; check its exit code and that it printed no traceback."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert done.returncode == code, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


def find(pattern: str, text: str) -> re.Match[str]:
    """The first match of ``pattern`` in an example's output (failing the test if none)."""
    match = re.search(pattern, text, re.M)
    assert match is not None, f"no line matches {pattern!r} in:\n{text}"
    return match


def test_the_examples_are_found_and_indexed() -> None:
    index = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert len(SCRIPTS) >= 7
    for script in SCRIPTS:
        assert f"`{script.name}`" in index, f"examples/README.md does not list {script.name}"


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_example_shape(script: Path) -> None:
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env python3\n")
    docstring = text.split('"""')[1]
    assert RULE_ID.search(docstring), f"{script.name}'s docstring names no rule ID"
    assert "def main(argv: list[str] | None = None) -> int:" in text
    assert text.rstrip().endswith('if __name__ == "__main__":\n    raise SystemExit(main())')


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_example_output_is_deterministic(script: Path, tmp_path: Path) -> None:
    assert run(script.name, tmp_path) == run(script.name, tmp_path)


def test_01_deal_and_first_attacker(tmp_path: Path) -> None:
    out = run("01_deal_and_first_attacker.py", tmp_path, "--out", str(tmp_path / "deal.svg"))
    deal = out.split("== Nobody")[0]
    hands = {int(s): parse_cards(cards) for s, cards in re.findall(r"P(\d): (.+?) +trumps", deal)}
    assert len(hands) == 4
    trump = parse_card(find(r"Face-up card: (\S+),", out)[1]).suit
    seat, card = find(r"P(\d) attacks first: P\1 holds the lowest trump, (\S+) \(ORDER-1\)",
                      out).groups()
    lowest = min((c.rank, s) for s, h in hands.items() for c in h if c.suit == trump)
    assert (parse_card(card).rank, int(seat)) == lowest
    assert f"P{(int(seat) + 1) % 4} defends" in out
    chance = re.findall(r"seed \d+: nobody holds a trump, so chance picked (P\d) \(ORDER-2\)", out)
    assert set(chance) == {"P0", "P1"}
    assert "nobody holds a trump, so the first seat attacks (ORDER-2)" in out
    assert (tmp_path / "deal.svg").read_text(encoding="utf-8").lstrip().startswith("<")
    six = run("01_deal_and_first_attacker.py", tmp_path, "--players", "6")
    assert "(DEAL-8)" in six
    assert (tmp_path / "durak-spec-examples" / "01_deal.svg").is_file()  # the default place
    bad = run("01_deal_and_first_attacker.py", tmp_path, "--players", "7", code=2)
    assert bad == ""


def test_02_beat_or_not(tmp_path: Path) -> None:
    out = run("02_beat_or_not.py", tmp_path)
    find(r"EX-1 +trump ♦: +6♦ beats +K♠", out)
    assert len(re.findall(r"EX-7 +trump ♥: +6♥ beats +A[♣♦♠]", out)) == 3
    find(r"BEAT-3 +trump ♥: +7♥ NO, not 9♥", out)
    assert "cards that beat A♥: none at all" in out
    beats = find(r"legal beats: (.+?);", out)[1]
    assert set(parse_cards(beats)) == set(parse_cards("10♣ J♣ Q♣ K♣ A♣ 7♥ Q♥"))  # EX-5
    assert "P1 cover 9♣ with 8♣: rejected by BEAT-5" in out
    assert "P1 cover 9♣ with 9♦: rejected by BEAT-5" in out
    assert "P1 cover 9♣ with K♣: accepted; the bout is over" in out
    assert "P1 cover 9♥ with 7♥: rejected by BEAT-3" in out
    assert "P1 cover A♥ with K♥: rejected by BEAT-4" in out


def test_03_throw_in_sevens_and_nines(tmp_path: Path) -> None:
    out = run("03_throw_in_sevens_and_nines.py", tmp_path)
    before, after = out.split("P2 throw 9♦: accepted")
    find(r"P0 Anna \(attacker\): +throw 7♥, throw 9♠, done\n", before)
    find(r"P2 Vera \(may throw in\): +throw 7♠, throw 9♦, done\n", before)
    find(r"P1 Boris \(defender\): +nothing to do now\n", before)
    assert "P0 throw 8♣: rejected by ATTACK-3" in before
    assert "P2 throw 10♥: rejected by ATTACK-3" in before
    assert "the table shows 7♣/9♣  9♦" in after
    find(r"P1 Boris \(defender\): +take\n", after)
    assert "done" not in after  # nobody says done while 9♦ is uncovered (CLAR-3)


def test_04_transfer_the_eights(tmp_path: Path) -> None:
    out = run("04_transfer_the_eights.py", tmp_path, "--out", str(tmp_path / "t.svg"))
    assert "P1 may: transfer 8♥, take" in out
    assert "the table shows 8♠  8♥; now P1 attacks P2" in out
    assert "P2 cover 8♠ with 10♠: the bout goes on" in out
    assert "P2 cover 8♥ with Q♥: beaten off; P2 attacks P0 next (ORDER-4)" in out
    short = out.split("Vera holds only 10♠")[1]
    assert "transfer" not in short.split("\n")[1]  # no longer among P1's moves
    assert "P1 transfer 8♥: rejected by TRANSFER-3" in short
    assert "rejected by TRANSFER-8" in short
    assert "8♠" in (tmp_path / "t.svg").read_text(encoding="utf-8")


def test_05_replay_saved_game(tmp_path: Path) -> None:
    out = run("05_replay_saved_game.py", tmp_path)
    count = int(find(r"Saved a game of (\d+) actions", out)[1])
    moves = re.findall(r"^ +\d+\. (P\d .+)$", out, re.M)
    assert len(moves) == count > 10
    # The printed moves are the game: replayed from the same deal they reach the result.
    game = Game.new(profile("classic-throw-in").rules(players=2), seed=24)
    game = game.play_all(parse_action(move) for move in moves)
    assert game.is_over
    assert f"Result: {game.outcome}" in out
    assert "Tampered file refused: history[0]" in out
    assert "rule: CLAR-1" in out


def test_06_four_players_several_attackers(tmp_path: Path) -> None:
    out = run("06_four_players_several_attackers.py", tmp_path)
    classic, source_d = out.split("== source-d")
    assert "P0 open 7♣" in classic
    find(r"P0 open 7♣ .* may act now: P1 cover/take, P3 throw\n", classic)
    find(r"P1 cover 9♠ with J♠ .* may act now: P0 throw/done, P3 throw/done\n",
                     classic)
    assert "drawing order: P0 A♦, P2 A♠, P3 K♥, P1 J♣ 10♣ 9♦" in classic  # attacker-first
    assert "drawing order: P0 A♦, P3 A♠, P2 K♥, P1 J♣ 10♣ 9♦" in source_d  # join-order
    assert out.count("next: P1 attacks P2 (ORDER-4)") == 2
    picture = tmp_path / "durak-spec-examples" / "06_four_players.svg"
    assert "9♠" in picture.read_text(encoding="utf-8")


def test_07_what_may_each_player_do(tmp_path: Path) -> None:
    out = run("07_what_may_each_player_do.py", tmp_path, "--save", "pos.json")
    first = out.split("== After")[0]
    assert "transfer 8♥  -- pass the attack on to the next player (TRANSFER-1)" in first
    assert "take  -- take every card on the table (TAKE-1)" in first
    assert "done" not in first
    assert out.split("== After")[1].count("done  -- ") == 2  # Anna and Vera, once beaten
    # The saved position loads back and shows the same views.
    loaded = run("07_what_may_each_player_do.py", tmp_path, "--position", "pos.json")
    assert loaded.strip() == first.split("position saved to pos.json\n")[1].strip()
    (tmp_path / "bad.json").write_text('{"format": "durak-spec/state"}', encoding="utf-8")
    bad = run("07_what_may_each_player_do.py", tmp_path, "--position", "bad.json", code=2)
    assert bad.startswith("cannot load bad.json: ")


def test_08_positions_by_hand(tmp_path: Path) -> None:
    out = run("08_positions_by_hand.py", tmp_path)
    assert "legal now: P0 throw 7♦, P0 throw 9♠" in out  # EX-3: sevens and nines
    refusals = re.findall(r"refused, ([A-Z]+-\d+):", out)
    assert refusals == ["DRAW-1", "DEFEND-1", "ATTACK-3", "ATTACK-3", "DEFEND-1", "DEAL-4",
                        "DRAW-1"]
    assert "built (unexpected)" not in out
