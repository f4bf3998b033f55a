"""Perft-style counts: the stored counts of stacked deals, checked against engines.

The reference reproduces every stored count; a tampered count is detected at its depth; an
engine counted through the protocol (in-process or as a subprocess) gives the same counts,
and a wrong one is caught with the first position whose legal actions differ.

Runtime: about 4 s.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import position

from durak_spec import Action, Cover, apply, legal_actions, new_game, profile
from durak_spec.cli import main
from durak_spec.conformance.perft import (
    PERFT_FORMAT,
    PerftError,
    PerftFileError,
    PerftPosition,
    check_positions,
    dump_positions,
    format_check,
    load_positions,
    locate,
    perft,
    perft_engine,
    position_files,
)
from durak_spec.conformance.perft.games import GAME_POSITIONS
from durak_spec.protocol import Capabilities, ReferenceEngine, Rejected, Verdict
from durak_spec.protocol.subprocess_engine import SubprocessEngine

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "engine_reference.py"
FIXTURES = Path(__file__).resolve().parent.parent / "tools" / "perft_fixtures.py"


def _fixtures() -> Any:
    """The generator of the data files, tools/perft_fixtures.py (not part of the package)."""
    spec = importlib.util.spec_from_file_location("perft_fixtures", FIXTURES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fixtures = _fixtures()
stacked_deck = fixtures.stacked_deck


def main_help(command: str) -> str:
    from durak_spec.cli import build_parser

    parser = build_parser([command])
    sub = next(a for a in parser._actions if a.dest == "command")
    return str(sub.choices[command].format_help())


@pytest.fixture(scope="module")
def positions() -> list[PerftPosition]:
    return load_positions()


def test_the_stored_positions_cover_the_families(positions: list[PerftPosition]) -> None:
    assert len(position_files()) >= 3 and len(positions) >= 12
    kinds = Counter((p.rules.transfer, p.rules.players) for p in positions)
    for transfer in (False, True):
        for players in (2, 3, 4, 6):
            assert kinds[(transfer, players)] >= 1, (transfer, players)
    assert any(p.rules.multi_card_opening for p in positions)
    assert any(p.rules.trump_exchange for p in positions)
    assert all(p.depth >= 4 for p in positions)
    # Every deal is a game start whose legal actions are the count at depth 1.
    for stored in positions:
        assert len(legal_actions(stored.start())) == stored.counts[0]


def test_the_reference_reproduces_every_stored_count(positions: list[PerftPosition]) -> None:
    results = check_positions(None, positions)
    assert [r.position.id for r in results] == [p.id for p in positions]
    failed = [r for r in results if not r.ok]
    assert not failed, format_check(failed)
    assert format_check(results).splitlines()[-1].startswith(
        f"{len(positions)} positions: {len(positions)} ok, 0 failed, 0 skipped")


def test_a_tampered_count_is_detected(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    source = position_files()[0]
    data = json.loads(source.read_text(encoding="utf-8"))
    data["positions"] = data["positions"][:2]
    target = data["positions"][1]
    target["counts"][2] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    results = check_positions(None, load_positions([tampered]))
    bad = [r for r in results if not r.ok]
    assert [r.position.id for r in bad] == [target["id"]]
    assert bad[0].first_mismatch == 3
    assert main(["perft", "--check", str(tampered)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  {target['id']}" in out and "first difference at depth 3" in out
    assert f"ok    {data['positions'][0]['id']}" in out


def test_sequences_stop_at_the_end_of_the_game() -> None:
    # P0 opens with its last card; P1 covers it or takes it. Either way P0 is out with the
    # stock empty, P1 is the durak, and no sequence goes on.
    rules = profile("classic-throw-in").rules(2)
    state = position(rules, hands={0: "7♣", 1: "9♣ 6♦"}, stock=0)
    assert perft(state, 4) == (1, 2, 0, 0)
    with pytest.raises(ValueError, match="depth"):
        perft(state, 0)


def test_an_engine_is_counted_through_the_protocol(positions: list[PerftPosition]) -> None:
    position = next(p for p in positions if p.id == "transfer-3p")
    counts = perft_engine(ReferenceEngine(), position.rules, position.deck, position.seed, 4)
    assert counts == position.counts[:4]


def test_perft_through_a_subprocess_engine(positions: list[PerftPosition]) -> None:
    position = next(p for p in positions if p.id == "throw-in-2p")
    with SubprocessEngine([sys.executable, str(EXAMPLE)], timeout=20.0) as engine:
        counts = perft_engine(engine, position.rules, position.deck, position.seed, 3)
        results = check_positions(engine, [position], max_depth=3)
    assert counts == position.counts[:3]
    assert results[0].ok and results[0].counts == position.counts[:3]


class NoTrumpCovers(ReferenceEngine):
    """Forgets that a trump beats any non-trump (BEAT-2)."""

    def legal_actions(self) -> tuple[Action, ...]:
        state = self.state
        return tuple(a for a in super().legal_actions()
                     if not (isinstance(a, Cover) and a.card.suit == state.trump
                             and a.attack.suit != state.trump))


def test_a_wrong_engine_gets_other_counts_and_the_difference_is_located(
        positions: list[PerftPosition]) -> None:
    position = next(p for p in positions if p.id == "throw-in-2p")
    (result,) = check_positions(NoTrumpCovers(), [position], max_depth=4)
    assert not result.ok and result.first_mismatch is not None
    assert result.located is not None
    path = result.located.path
    assert len(path) == result.first_mismatch - 1
    missing = result.located.reference_only
    assert missing and all(isinstance(a, Cover) and a.card.suit == position.start().trump
                           for a in missing)
    assert not result.located.engine_only
    state = position.start()
    for action in path:
        state = apply(state, action)
    assert set(missing) <= set(legal_actions(state))
    assert "the engine misses P" in format_check([result])
    assert locate(ReferenceEngine(), position, 3) is None


class RejectsTakes(ReferenceEngine):
    """Lists taking but refuses it."""

    def apply(self, action: Action) -> Verdict:
        if action.kind == "take":
            return Rejected("no", None)
        return super().apply(action)


def test_an_engine_that_rejects_what_it_lists_cannot_be_counted(
        positions: list[PerftPosition]) -> None:
    position = positions[0]
    with pytest.raises(PerftError, match="which it listed as legal"):
        perft_engine(RejectsTakes(), position.rules, position.deck, position.seed, 3)
    (result,) = check_positions(RejectsTakes(), [position], max_depth=3)
    assert not result.ok and "which it listed as legal" in result.error


def test_bad_files_are_refused_with_the_place(tmp_path: Path,
                                              positions: list[PerftPosition]) -> None:
    def write(data: object) -> Path:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return path

    good = json.loads(dump_positions(positions[:2]))
    assert good["format"] == PERFT_FORMAT
    assert load_positions([write(good)]) == positions[:2]
    with pytest.raises(PerftFileError, match="format: must be 'durak-spec/perft': this is not a "
                                             "perft file"):
        load_positions([write({**good, "format": "other"})])
    twice = {**good, "positions": [good["positions"][0]] * 2}
    with pytest.raises(PerftFileError, match="used twice"):
        load_positions([write(twice)])
    short = {**good, "positions": [{**good["positions"][0],
                                    "deck": good["positions"][0]["deck"][:-1]}]}
    with pytest.raises(PerftFileError, match=r"positions\[0\].*deck.*DEAL-1"):
        load_positions([write(short)])
    extra = {**good, "positions": [{**good["positions"][0], "depth": 3}]}
    with pytest.raises(PerftFileError, match=r"positions\[0\]\.depth: is not a field"):
        load_positions([write(extra)])
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(PerftFileError, match="not JSON"):
        load_positions([tmp_path / "broken.json"])


def test_generating_is_a_tool_of_the_clone_not_a_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--generate"]) == 2
    assert "python tools/perft_fixtures.py" in capsys.readouterr().err
    assert "--generate" not in main_help("perft")


def test_time_limits_need_an_engine_command(capsys: pytest.CaptureFixture[str]) -> None:
    for option in ("--timeout", "--start-timeout"):
        assert main(["perft", "--check", option, "1"]) == 2
        assert f"{option} limits the answers of an --engine command" in capsys.readouterr().err
    assert main(["perft", "--list", "--start-timeout", "1"]) == 2
    assert "--start-timeout has no effect with --list" in capsys.readouterr().err


def test_stacked_decks_deal_the_given_hands() -> None:
    deck = stacked_deck(3, ("6♥ 7♣ 7♦ 9♠ 9♦ K♣",), "Q♥", seed=4)
    state = new_game(profile("classic-throw-in").rules(3), deck=deck)
    assert [str(c) for c in state.hands[0]] == ["6♥", "7♣", "7♦", "9♦", "9♠", "K♣"]
    assert str(state.stock[-1]) == "Q♥" and sorted(deck) == sorted(set(deck))
    with pytest.raises(ValueError, match="twice"):
        stacked_deck(2, ("6♥ 7♣ 7♦ 9♠ 9♦ K♣", "6♥ 8♣ 8♦ 9♣ 10♦ A♣"))


def test_the_stored_deals_are_the_definitions_of_the_generator(
        positions: list[PerftPosition]) -> None:
    # ``python tools/perft_fixtures.py`` would write the same deals and
    # rules (the counts are checked above); the definitions and the files do not drift apart.
    stored = {p.id: p for p in positions}
    for _, ident, rules, hands, face_up, note in fixtures.DEFINITIONS:
        assert stored[ident].rules == rules
        assert stored[ident].deck == stacked_deck(rules.players, hands, face_up)
        assert stored[ident].note == note and stored[ident].seed == 0
    for ident, rules, _, note in GAME_POSITIONS:
        assert stored[ident].rules == rules and stored[ident].note == note
        assert stored[ident].moves, ident  # a position from within a game
    assert len(fixtures.DEFINITIONS) + len(GAME_POSITIONS) == len(stored)


class TwoPlayersOnly(ReferenceEngine):
    """Claims only the classic throw-in game for two."""

    def capabilities(self) -> Capabilities:
        return Capabilities(name="small", profiles=("classic-throw-in",), players=(2,))


def test_positions_under_rules_the_engine_does_not_claim_are_played_under_its_own(
        positions: list[PerftPosition]) -> None:
    # Two-player positions of other profiles are counted under classic-throw-in (against
    # counts the reference computes now); other player counts are what the claim excludes.
    results = check_positions(TwoPlayersOnly(), positions, max_depth=2)
    counted = {r.position.id: r for r in results if not r.skipped}
    two = [p.id for p in positions if p.rules.players == 2]
    assert sorted(counted) == sorted(two)
    assert all(r.ok for r in results)
    classic = profile("classic-throw-in").rules(2)
    assert all(r.position.rules == classic for r in counted.values())
    as_stored = {i for i, r in counted.items() if not r.claimed}
    assert as_stored == {"throw-in-2p", "big-hand-2p", "last-two-2p"}
    assert counted["transfer-2p"].claimed == "transfer=off"
    assert counted["transfer-2p"].expected == perft(
        new_game(classic, deck=counted["transfer-2p"].position.deck, seed=0), 2)
    skipped = [r for r in results if r.skipped]
    assert len(skipped) == len(positions) - len(two)
    assert all("does not play with" in r.skipped for r in skipped)
    text = format_check(results)
    assert "ok    transfer-2p (classic-throw-in, 2 players), depth 2, under the engine's rules " \
        "(transfer=off; counts from the reference)" in text
    assert text.endswith(f"{len(two)} ok, 0 failed, {len(skipped)} skipped "
                         f"({sum(r.seconds for r in results):.2f} s)")
