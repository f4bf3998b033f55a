"""The ``durak-spec`` command line: subcommands, their output, and errors as a CLI user expects.

Runtime: about 1 s of tests (one subprocess start, the rest in-process) plus pytest start-up.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

import pytest

from durak_spec import (
    AXES,
    PROFILES,
    DrawOrder,
    GameState,
    RuleSet,
    __version__,
    apply,
    cli,
    new_game,
    parse_action,
    parse_cards,
    profile,
)
from durak_spec.cli import args as cliargs
from durak_spec.cli import game as game_command
from durak_spec.cli import main
from durak_spec.model.rules import Axis
from durak_spec.model.rules import ThrowIn as ThrowInRule

ACTION_LINE = re.compile(r"^P\d+ ")
BEATEN = re.compile(r"^  Beaten off: (\d+) cards? to the discard pile")
TAKEN = re.compile(r"^  P(\d+) takes (\d+) cards?")
DRAW = re.compile(r"P(\d+) draws (\d+)")
OUT = re.compile(r"(P\d+(?: and P\d+)*) (?:is|are) out\.$")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- the dispatcher -------------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"durak-spec {__version__}"


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "profiles" in out and "game" in out


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "choose a command (profiles, rules, game" in err


def add_hello_parser(subparsers: cliargs.Subparsers) -> None:
    parser = subparsers.add_parser("hello", help="say hello")
    parser.add_argument("--fail", action="store_true")
    parser.set_defaults(handler=_hello)


def _hello(args: argparse.Namespace) -> int:
    if args.fail:
        raise cliargs.CommandError("hello failed")
    print("hello")
    return 0


def test_a_module_adds_a_subcommand_through_the_registry(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "SUBCOMMANDS", (*cli.SUBCOMMANDS, f"{__name__}:add_hello_parser"))
    assert run(capsys, "hello") == (0, "hello\n", "")
    assert "say hello" in run(capsys, "--help")[1]
    assert run(capsys, "hello", "--fail") == (2, "", "durak-spec hello: error: hello failed\n")


def test_ctrl_c_exits_130_quietly(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(state: GameState) -> tuple[()]:
        raise KeyboardInterrupt

    monkeypatch.setattr(game_command, "legal_actions", interrupted)
    code, _, err = run(capsys, "game", "--seed", "1")
    assert code == 130
    assert err == ""


# -- errors ---------------------------------------------------------------------------------

ERRORS = [
    (["game", "--profile", "nope"], "unknown profile 'nope'"),
    (["profiles", "nope"], "unknown profile 'nope'"),
    (["game", "--players", "7"], "DEAL-3"),
    (["game", "--players", "1"], "DEAL-3"),
    (["game", "--players", "four"], "argument --players"),
    (["game", "--set", "transfer"], "is not AXIS=VALUE"),
    (["game", "--set", "=on"], "is not AXIS=VALUE"),
    (["game", "--set", "colour=red"], "unknown rule-set axis 'colour'"),
    (["game", "--set", "throw_in=everyone"], "'everyone' is not a value of throw_in"),
    (["game", "--set", "transfer=maybe"], "transfer must be true or false"),
    (["game", "--set", "players=3"], "--players"),
    (["game", "--set", "transfer_by_showing_trump=on"], "TRANSFER-7"),
    (["game", "--max-actions", "-3"], "argument --max-actions"),
    (["game", "--seed", "x"], "argument --seed"),
    (["game", "--bogus"], "unrecognized arguments: --bogus"),
    (["bogus"], "invalid choice: 'bogus'"),
]


@pytest.mark.parametrize(("argv", "message"), ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_bad_input_is_one_line_on_stderr_with_exit_code_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("durak-spec")
    assert ": error: " in err
    assert message in err
    assert "Traceback" not in err


# -- profiles -------------------------------------------------------------------------------


def test_profiles_shows_every_value_and_marks_the_clarifications(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "profiles")
    assert code == 0
    blocks = {block.split(":", 1)[0]: block for block in out.split("\n\n")[1:]}
    assert list(blocks) == list(PROFILES)
    for name, block in blocks.items():
        chosen = PROFILES[name]
        tokens = dict(token.split("=") for token in block.split("\n", 1)[1].split())
        assert set(tokens) == {axis.name for axis in AXES}
        for axis in AXES:
            value = tokens[axis.name]
            assert value.endswith("*") == chosen.origin(axis.name).is_clarification, (name, axis)
            assert value.rstrip("*") == Axis.format(getattr(chosen.base, axis.name))


def test_profiles_name_gives_each_axis_its_origin_note(
        capsys: pytest.CaptureFixture[str]) -> None:
    chosen = profile("source-d")
    code, out, _ = run(capsys, "profiles", "source-d")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("source-d: ")
    for axis in AXES:
        row = next(line for line in lines if line.startswith(axis.name + " "))
        origin = chosen.origin(axis.name)
        assert row.endswith(origin.note)
        label = "clarification" if origin.is_clarification else f"source {origin.source}"
        assert label in row
        assert all(rule_id in row for rule_id in axis.rules)


def test_profiles_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "profiles", "--json")
    assert code == 0
    data = json.loads(out)
    assert [p["name"] for p in data["profiles"]] == list(PROFILES)
    for entry in data["profiles"]:
        chosen = PROFILES[entry["name"]]
        assert entry["rules"] == chosen.base.to_dict()
        for axis in entry["axes"]:
            origin = chosen.origin(axis["axis"])
            assert axis["source"] == origin.source
            assert axis["clarification"] == origin.is_clarification
            assert axis["value"] == entry["rules"][axis["axis"]]
    code, out, _ = run(capsys, "profiles", "source-b", "--json")
    assert code == 0
    assert json.loads(out) == next(p for p in data["profiles"] if p["name"] == "source-b")


# -- game -----------------------------------------------------------------------------------


def replay(out: str, rules: RuleSet, seed: int) -> tuple[GameState, list[str]]:
    """Replay the printed moves from the seeded deal; check the printed deal and bout ends."""
    state = new_game(rules, seed=seed)
    lines = out.splitlines()
    for seat, hand in enumerate(state.hands):
        printed = next(line for line in lines if line.startswith(f"  P{seat}  "))
        assert parse_cards(printed.split(None, 1)[1]) == hand
    start_stock = len(state.stock)
    discarded = drawn = 0
    went_out: list[str] = []
    moves = []
    for line in lines:
        if ACTION_LINE.match(line):
            action = parse_action(line)
            before = state
            state = apply(state, action)  # raises IllegalAction if the CLI printed a bad move
            moves.append(line)
            if state.bout > before.bout:
                assert state.table == ()
        elif (beaten := BEATEN.match(line)) or TAKEN.match(line):
            if beaten:
                discarded += int(beaten.group(1))
            drawn += sum(int(count) for _, count in DRAW.findall(line))
            if out_match := OUT.search(line):
                went_out.extend(out_match.group(1).split(" and "))
    assert discarded == len(state.discard)
    if state.is_over:
        assert drawn == start_stock
        assert went_out == [f"P{p}" for group in state.finished for p in group]
    return state, moves


GAMES = [("classic-throw-in", 2, 3), ("classic-transfer", 4, 3), ("classic-transfer", 6, 11),
         ("source-b-transfer", 2, 5), ("source-d", 5, 8)]


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_game_moves_replay_to_the_printed_outcome(
        capsys: pytest.CaptureFixture[str], name: str, players: int, seed: int) -> None:
    code, out, err = run(capsys, "game", "--profile", name, "--players", str(players),
                         "--seed", str(seed))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"Game: {name}, {players} players, seed {seed}"
    assert re.search(r"P\d attacks first: .*\((ORDER-1|ORDER-2)\)", out)
    state, moves = replay(out, profile(name).rules(players=players), seed)
    assert state.outcome is not None
    assert lines[-1] == (f"Outcome: {state.outcome} after {len(moves)} actions "
                         f"in {state.bout} bouts")
    assert sum(line.startswith("Bout ") for line in lines) == state.bout


def test_game_is_reproducible_and_the_seed_matters(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "game", "--seed", "3", "--players", "3")
    assert first[0] == 0
    assert run(capsys, "game", "--seed", "3", "--players", "3") == first
    assert run(capsys, "game", "--seed", "4", "--players", "3")[1] != first[1]


def test_game_without_a_seed_prints_the_seed_it_used(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "game", "--max-actions", "3")
    assert code == 0
    header = re.match(r"Game: classic-throw-in, 2 players, seed (\d+)$", out.splitlines()[0])
    assert header is not None
    seed = int(header.group(1))
    assert run(capsys, "game", "--max-actions", "3", "--seed", str(seed))[1] == out


def test_game_quiet_prints_only_the_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    _, full, _ = run(capsys, "game", "--seed", "7", "--players", "4")
    code, out, _ = run(capsys, "game", "--seed", "7", "--players", "4", "--quiet")
    assert code == 0
    assert out.splitlines() == [full.splitlines()[-1]]
    assert out.startswith("Outcome: ")


def test_game_max_actions_stops_early(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "game", "--seed", "2", "--max-actions", "5")
    assert code == 0
    assert sum(bool(ACTION_LINE.match(line)) for line in out.splitlines()) == 5
    assert out.splitlines()[-1].startswith("Stopped after 5 actions")
    state, _ = replay(out, profile("classic-throw-in").rules(), 2)
    assert not state.is_over
    code, out, _ = run(capsys, "game", "--seed", "2", "--max-actions", "0")
    assert not any(ACTION_LINE.match(line) for line in out.splitlines())


def test_game_set_changes_the_rules_played(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["game", "--seed", "9", "--players", "4", "--set", "throw-in=attacker",
            "--set", "draw_order=join-order"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.splitlines()[0].endswith("with throw_in=attacker draw_order=join-order")
    rules = profile("classic-throw-in").rules(players=4).replace(
        throw_in=ThrowInRule.ATTACKER, draw_order=DrawOrder.JOIN_ORDER)
    state, _ = replay(out, rules, 9)
    assert state.is_over
    code, out, _ = run(capsys, *argv, "--json")
    assert json.loads(out)["rules"]["throw_in"] == "attacker"


def test_game_json_matches_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["game", "--profile", "classic-transfer", "--players", "4", "--seed", "3"]
    _, text, _ = run(capsys, *argv)
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    data = json.loads(out)
    actions = [e for e in data["events"] if e["type"] == "action"]
    assert [e["text"] for e in actions] == [ln for ln in text.splitlines() if ACTION_LINE.match(ln)]
    assert data["actions"] == len(actions)
    ends = [e for e in data["events"] if e["type"] == "bout-end"]
    assert len(ends) == data["bouts"]
    state, _ = replay(text, profile("classic-transfer").rules(players=4), 3)
    assert state.outcome is not None
    assert data["outcome"]["durak"] == state.outcome.durak
    assert data["deal"]["hands"] == [[str(c) for c in h] for h in new_game(
        profile("classic-transfer").rules(players=4), seed=3).hands]
    assert sum(len(d["cards"]) for e in ends for d in e["draws"]) == 36 - 24
    code, out, _ = run(capsys, *argv, "--json", "--quiet")
    assert set(json.loads(out)) == set(data) - {"deal", "events"}


# -- the installed entry point ----------------------------------------------------------------


def test_python_dash_m_runs_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    argv = ["game", "--profile", "classic-transfer", "--players", "3", "--seed", "5"]
    done = subprocess.run([sys.executable, "-m", "durak_spec", *argv], capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == run(capsys, *argv)[1]
    bad = subprocess.run([sys.executable, "-m", "durak_spec", "game", "--players", "9"],
                         capture_output=True, text=True, encoding="utf-8", env=env, timeout=60,
                         check=False)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.splitlines() == [
        "durak-spec game: error: Durak is played by 2 to 6 players (DEAL-3); "
        "9 players are not a game"]


def test_game_quiet_without_a_seed_still_prints_the_seed(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    code, out, _ = run(capsys, "game", "--quiet")
    assert code == 0
    found = re.fullmatch(r"Outcome: .+ \(seed (\d+)\)\n", out)
    assert found is not None, out
    again = run(capsys, "game", "--quiet", "--seed", found.group(1))[1]
    assert out.startswith(again.rstrip("\n"))


@pytest.mark.parametrize("command", [["game"], ["play"], ["review", "game.json"]])
def test_negative_seeds_are_refused(capsys: pytest.CaptureFixture[str], command: list[str]
                                    ) -> None:
    code, _, err = run(capsys, *command, "--seed", "-5")
    assert code == 2 and "'-5' is not a count" in err


def test_serve_answers_on_its_streams_and_exits_cleanly() -> None:
    lines = '{"id": 1, "cmd": "hello"}\n{"id": 2, "cmd": "legal"}\n{"id": 3, "cmd": "quit"}\n'
    for command in (["-m", "durak_spec", "serve"], ["-m", "durak_spec.serve"]):
        done = subprocess.run([sys.executable, *command], input=lines, capture_output=True,
                              text=True, encoding="utf-8", timeout=60, check=False)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        assert [r["id"] for r in replies] == [1, 2, 3]
        assert replies[0]["name"] == "durak-spec reference"
        assert replies[1] == {"id": 2, "ok": False,
                              "error": "no game yet: send start or load first (in Python: "
                                       "call start() or load())"}


def test_a_command_line_that_names_its_command_imports_that_command_alone() -> None:
    # durak-spec serve is restarted by checkers: it must not import pytest or the book
    probe = ("import sys; from durak_spec import cli; parser = cli.build_parser({argv!r}); "
             "print(sorted(parser._subparsers._group_actions[0].choices), "
             "'pytest' in sys.modules, 'durak_spec.book.render' in sys.modules)")
    def run_probe(argv: list[str]) -> str:
        done = subprocess.run([sys.executable, "-c", probe.format(argv=argv)],
                              capture_output=True, text=True, check=True)
        return done.stdout.strip()
    assert run_probe(["serve", "--schema"]) == "['serve'] False False"
    listed = run_probe(["--help"])
    assert listed.startswith("['book', 'check', 'game', 'perft', 'play', 'profiles', "
                             "'review', 'rules', 'serve', 'tips', 'vectors']")
    assert run_probe(["nonsense"]).startswith("['book', 'check',")
