"""``durak-spec play``: the terminal game, driven by scripts through stdin and a pty.

Scripts play whole games against the heuristic player; garbage, huge lines, invalid
UTF-8, the end of input and Ctrl-C end nothing badly; illegal moves are explained with
the rule's ID and its page in the rules book; games are saved and resumed; and one game
is played to its end on a real pseudo-terminal by the installed console command.

Runtime: about 5 s (four subprocess starts, two of them on a pseudo-terminal).
"""

from __future__ import annotations

import io
import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import position

from durak_spec import Game, profile
from durak_spec.cli import main
from durak_spec.game import persist
from durak_spec.play.bots import Bot, HeuristicBot
from durak_spec.play.terminal import MAX_LINE, Session, book_pointer

THROW_IN_2 = profile("classic-throw-in").rules(players=2)


def run_script(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               script: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- whole games by script --------------------------------------------------------------------


@pytest.mark.parametrize(("profile_name", "players", "seat"), [
    ("classic-throw-in", 2, 0),
    ("classic-transfer", 3, 1),
    ("source-b-transfer", 2, 1),
])
def test_a_script_that_always_sends_the_first_move_plays_to_the_end(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        profile_name: str, players: int, seat: int) -> None:
    saved = tmp_path / "game.json"
    code, out, err = run_script(monkeypatch, capsys, "1\n" * 1000, "--profile", profile_name,
                                "--players", str(players), "--seat", str(seat),
                                "--seed", "11", "--save-to", str(saved))
    assert (code, err) == (0, "")
    game = persist.load(saved)
    assert game.is_over and game.outcome is not None
    assert f"Game over: {game.outcome}." in out
    mine = [a for a in game.actions if a.player == seat]
    assert out.count("\nYou: ") == len(mine) > 0
    assert out.count(f"P{seat}> ") == len(mine), "one prompt per move, none wasted"
    assert "Traceback" not in out


def test_a_script_can_ask_for_a_hint_before_every_move(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_script(monkeypatch, capsys, "hint\n1\n" * 500, "--seed", "5")
    assert code == 0
    assert "Game over:" in out
    hints = re.findall(r"The heuristic player would play (\d+)\. (.+)", out)
    assert hints and out.count("P0> hint") == len(hints)


def test_the_board_shows_everything_a_player_may_see(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 1 of a three-player game with seed 2: the screen before P1's first move.
    code, out, _ = run_script(monkeypatch, capsys, "", "--players", "3", "--seat", "1",
                              "--seed", "2")
    assert code == 0
    game = Game.new(profile("classic-throw-in").rules(players=3), seed=2)
    state = game.state
    assert f"Trump {state.trump.symbol} | face-up {state.face_up} under the stock, stock 18 " \
           "| discard 0" in out
    assert "Your hand: " in out and "Your moves:\n  1. " in out
    assert "Table: " in out
    assert re.search(r"  P\d: \d cards", out)
    hand_line = next(line for line in out.splitlines() if line.startswith("Your hand: "))
    assert "[" in hand_line, "playable cards are marked"
    assert "\x1b[" not in out, "no colour when the output is not a terminal"


# -- bad input ------------------------------------------------------------------------------


def test_garbage_invalid_utf8_huge_lines_and_eof_end_nothing_badly() -> None:
    garbage = b"".join([
        b"\xff\xfe\xfd not utf-8\n", b"\x00\x01\x02\x1b[31m\n", b"x" * (MAX_LINE * 30) + b"\n",
        b"cover\n", b"open\n", b"throw in\n", b"save\n", b"99999999999999999999999\n",
        b"-1\n", b"0\n", b"P5 take\n", b"   \n", "\U0001f0a1 \u2663\u2663\n".encode(),
        b"transfer 8\xe2\x99\xa5\n", b"7C 9C 10C 6C\n", b"10\n", b"#0\n", b"help me\n",
        b"x" * (MAX_LINE + 1),  # no newline: the input ends inside a huge line
    ])
    done = subprocess.run([sys.executable, "-m", "durak_spec", "play", "--seed", "3"],
                          input=garbage, capture_output=True, timeout=60)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err
    assert err == ""
    assert out.count("longer than 4096 characters") == 2
    assert "End of input: the game stops (it is not over)." in out
    assert "Not understood" in out and "There is no move" in out
    assert out.count("P0> ") >= 18


def test_an_ascii_terminal_gets_ascii_cards() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "durak_spec", "play", "--seed", "3"],
                          input=b"hint\n", capture_output=True, timeout=60, env=env)
    out = done.stdout.decode("ascii")
    assert done.returncode == 0 and done.stderr == b""
    assert re.search(r"Trump [CDHS] \| face-up (10|[6-9JQKA])[CDHS]", out)


def _session(game: Game, seat: int, lines: list[str]) -> tuple[Session, io.StringIO]:
    feed: Iterator[str] = iter(lines)
    out = io.StringIO()
    bots: dict[int, Bot] = {s: HeuristicBot() for s in range(game.rules.players) if s != seat}
    session = Session(game, seat, bots, seed=1, read_line=lambda: next(feed, None), out=out,
                      echo=True)
    return session, out


def test_illegal_moves_are_explained_with_the_rule_and_the_book_page() -> None:
    state = position(THROW_IN_2, trump="♥", hands={0: "9♠ K♦", 1: "6♣ 8♦ 6♥ J♣ Q♠"},
                     table="7♣ 7♥", stock=6)
    session, out = _session(Game.replay(state, []), 1, [
        "cover 7♣ with 6♣", "cover 7♣ with 8♦", "cover 7♥ with 6♥", "transfer 6♣",
        "throw 6♣", "cover 7♣ with A♠", "6♣", "7♣ 8♦", "open 6♣"])
    assert session.run() == 0
    text = out.getvalue()
    expected = [("BEAT-5", "Beating a card"), ("BEAT-3", "Beating a card"),
                ("TRANSFER-8", "Limits of a transfer"), ("ATTACK-4", "Attacking and throwing in"),
                ("CLAR-1", "Attacking and throwing in"), ("ATTACK-1", "Attacking and throwing in")]
    for rule, chapter in expected:  # a command that works wherever the package is installed
        assert re.search(rf"Rule {rule} \([^)]+\)\.\n  Read it with 'durak-spec rules {rule}' "
                         rf"\(chapter {re.escape(chapter)} of the rules book\)\.", text), rule
    assert ".html" not in text
    assert text.count("Not allowed: ") == 9
    assert "Not allowed: 6♣ does not beat 7♣: a card of the same suit must be higher." in text
    assert "You:" not in text, "no illegal move was played"


def test_card_shortcuts_play_the_one_move_they_mean() -> None:
    state = position(THROW_IN_2, trump="♥", hands={0: "9♠ K♦", 1: "6♣ 8♦ 6♥ J♣ Q♠"},
                     table="7♣ 7♥", stock=6)
    session, out = _session(Game.replay(state, []), 1, ["J♣", "quit"])
    assert session.run() == 0
    assert "You: cover 7♣ with J♣" in out.getvalue()
    session, out = _session(Game.replay(state, []), 1, ["7h 8D", "7C JC", "quit"])
    session.run()
    text = out.getvalue()
    assert "Rule BEAT-3" in text and "You: cover 7♣ with J♣" in text


def test_a_card_with_several_moves_asks_which() -> None:
    rules = profile("classic-transfer").rules(players=3)
    state = position(rules, trump="♥", hands={0: "9♠ K♦", 1: "6♥ 10♣ 6♠", 2: "Q♠ A♠ 7♠"},
                     table="6♣", stock=6)
    session, out = _session(Game.replay(state, []), 1, ["6H", "quit"])
    session.run()
    assert "6♥ can make several moves: 1. cover 6♣ with 6♥; 3. transfer 6♥. Type the " \
        "number or the whole move." in " ".join(out.getvalue().split())  # lines are wrapped


def test_ctrl_c_stops_cleanly_and_saves(tmp_path: Path) -> None:
    def interrupt() -> str:
        raise KeyboardInterrupt

    game = Game.new(THROW_IN_2, seed=6)
    saved = tmp_path / "stopped.json"
    session = Session(game, 0, {1: HeuristicBot()}, seed=6, read_line=interrupt,
                      out=io.StringIO(), save_to=saved)
    assert session.run() == 130
    assert persist.load(saved).initial == game.initial


def test_book_pointer_derives_the_chapter_from_the_rule_index() -> None:
    assert book_pointer("LIMIT-2") == \
        "'durak-spec rules LIMIT-2' (chapter Limits on attack cards of the rules book)"
    assert book_pointer("TIP-2") == \
        "'durak-spec rules TIP-2' (chapter Tips for attack and defence of the rules book)"
    assert book_pointer("NOPE-1") == "'durak-spec rules NOPE-1'"


# -- save and resume ---------------------------------------------------------------------------


def test_save_then_resume_to_the_end(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    code, out, _ = run_script(monkeypatch, capsys, f"1\n1\nsave {first}\nquit\n",
                              "--seed", "9")
    assert code == 0
    assert f"Saved to {first}" in out and "You quit the game." in out
    saved = persist.load(first)
    assert sum(1 for a in saved.actions if a.player == 0) == 2
    final = tmp_path / "final.json"
    code, out, _ = run_script(monkeypatch, capsys, "1\n" * 1000, "--load", str(first),
                              "--save-to", str(final))
    assert code == 0
    assert out.startswith("Resuming: 2 players")
    assert "Game over:" in out
    finished = persist.load(final)
    assert finished.is_over
    assert finished.actions[:len(saved.actions)] == saved.actions
    assert finished.initial == saved.initial


def test_save_to_keeps_the_game_when_input_ends(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    target = tmp_path / "auto.json"
    code, out, _ = run_script(monkeypatch, capsys, "1\n", "--seed", "9", "--save-to",
                              str(target))
    assert code == 0
    assert f"The game is saved in {target}" in out
    assert any(a.player == 0 for a in persist.load(target).actions)


def test_save_to_an_unwritable_place_is_reported(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    code, out, _ = run_script(monkeypatch, capsys, f"save {tmp_path}/no/such/dir/g.json\n",
                              "--seed", "9")
    assert code == 0
    assert "Could not save to" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--seat", "2"], "--seat must be a seat of the 2 players, 0 to 1, not 2"),
    (["--load", "/nonexistent/game.json"], "cannot read /nonexistent/game.json"),
    (["--load", "GAME", "--players", "3"], "--load resumes a saved game under its own rules"),
    (["--load", "BAD"], "is not a saved game that can be resumed"),
    (["--opponent", "genius"], "invalid choice: 'genius'"),
    (["--players", "7"], "DEAL-3"),
])
def test_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         argv: list[str], message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "durak-spec/game", "version": 1}', encoding="utf-8")
    game = tmp_path / "game.json"
    persist.save(Game.new(THROW_IN_2, seed=1), game)
    argv = [str(bad) if a == "BAD" else str(game) if a == "GAME" else a for a in argv]
    code = main(["play", *argv])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1


# -- a real terminal -----------------------------------------------------------------------------


def _drive_pty(argv: list[str], env: dict[str, str], answer: bytes, limit: int
               ) -> tuple[int, bytes]:
    """Run ``argv`` on a pseudo-terminal, answering every prompt with ``answer``."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True)
    os.close(slave)
    output = b""
    answers = 0
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the program ended and closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
                if output.endswith(b"P0> ") and answers < limit:
                    os.write(master, answer)
                    answers += 1
            elif proc.poll() is not None:
                break
        else:
            pytest.fail("the game on the pseudo-terminal did not end in time")
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    return proc.returncode, output


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_whole_game_on_a_pseudo_terminal_with_the_console_command() -> None:
    command = shutil.which("durak-spec")
    if command is None:
        pytest.skip("the durak-spec console command is not installed")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm"
    code, output = _drive_pty([command, "play", "--seed", "21"], env, b"1\n", limit=500)
    text = output.decode("utf-8", errors="replace")
    assert code == 0, text[-2000:]
    assert "Game over:" in text
    assert "\x1b[1m[" in text, "playable cards are bold on a colour terminal"
    assert "Traceback" not in text
    env["NO_COLOR"] = "1"
    code, output = _drive_pty([command, "play", "--seed", "21"], env, b"quit\n", limit=1)
    assert code == 0 and b"You quit the game." in output
    assert b"\x1b[" not in output


# -- the terminal game as a new user tries it (issue 12) ------------------------------------------


def test_show_with_a_card_is_a_move_and_is_explained_where_the_rules_forbid_it() -> None:
    state = position(THROW_IN_2, trump="♥", hands={0: "9♠ K♦", 1: "6♣ 8♦ 6♥ J♣ Q♠"},
                     table="7♣", stock=6)
    session, out = _session(Game.replay(state, []), 1, ["show 7♥", "show", "quit"])
    session.run()
    text = out.getvalue()
    assert "Rule TRANSFER-8" in text  # the throw-in game has no transfer at all
    assert text.count("-- P0 attacks, you defend --") == 2  # 'show' alone redraws the board


def test_the_trump_exchange_says_which_cards_swap_and_help_names_it() -> None:
    rules = THROW_IN_2.replace(trump_exchange=True)
    state = position(rules, trump="♠", hands={0: "6♠ 9♦ K♦", 1: "7♣ 8♦"}, stock=8,
                     face_up="A♠")
    session, out = _session(Game.replay(state, []), 0, ["help", "quit"])
    session.run()
    text = out.getvalue()
    assert re.search(r"\d+\. exchange 6♠ for the face-up A♠", text), text
    assert "exchange           swap the six of trumps for the face-up trump" in text


def test_options_a_loaded_game_would_ignore_are_refused(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    persist.save(Game.new(THROW_IN_2, seed=1), game)
    for extra in (["--profile", "source-c"], ["--seed", "4"], ["--set", "transfer=on"]):
        assert main(["play", "--load", str(game), *extra]) == 2
        err = capsys.readouterr().err
        assert "leave out " + extra[0] in err and err.count("\n") == 1


def test_a_save_file_that_cannot_be_written_is_refused_before_the_game(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for target in (tmp_path / "missing" / "x.json", tmp_path):
        assert main(["play", "--save-to", str(target), "--seed", "1"]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""  # the game did not start
        assert captured.err.startswith("durak-spec play: error: --save-to: cannot save to ")


def test_the_start_says_who_attacks_first_and_why_and_what_is_known() -> None:
    session, out = _session(Game.new(profile("classic-throw-in").rules(players=6), seed=5), 0,
                            ["quit"])
    session.run()
    text = out.getvalue()
    assert "the 5 others are heuristic players" in text
    assert re.search(r"P\d attacks first: P\d holds the lowest trump, 6. \(ORDER-1\)\.", text)
    assert re.search(r"Every card is dealt; the last one, \S+, was turned face up to show the "
                     r"trump, so everyone knows P5 holds it\.", text)
    two, out2 = _session(Game.new(THROW_IN_2, seed=5), 0, ["quit"])
    two.run()
    assert "the other is a heuristic player." in out2.getvalue()


def test_lines_stay_within_80_columns_and_never_break_a_card() -> None:
    state = position(THROW_IN_2, trump="♥",
                     hands={1: "6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦ 6♠ 9♥",
                            0: "7♥"}, table="8♥", stock=0)
    session, out = _session(Game.replay(state, []), 1, ["board", "quit"])
    session.run()
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    hand = [line for line in lines if line.startswith(("Your hand: ", "           "))]
    assert len(hand) >= 2
    cards = " ".join(hand).replace("Your hand:", "").split()
    assert all(re.fullmatch(r"\[?(?:[6-9]|10|[JQKA])[♣♦♥♠]\]?", card) for card in cards), cards


def test_one_card_and_the_player_in_the_second_person() -> None:
    state = position(THROW_IN_2, trump="♥", hands={0: "9♠", 1: "6♣ 8♦"}, table="7♣", stock=0)
    session, out = _session(Game.replay(state, []), 1, ["quit"])
    session.run()
    text = out.getvalue()
    assert "  P0: 1 card\n" in text and "1 cards" not in text
    assert "-- P0 attacks, you defend --" in text and "P1 (you) defends" not in text
