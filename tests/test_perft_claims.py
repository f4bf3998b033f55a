"""Perft under the rules an engine claims, not only the named profiles (issue 14).

A stored position whose rules the engine does not claim is counted under the nearest rule
set it does claim (the chooser lockstep uses too), against counts the reference computes at
run time; positions from within a game are reached again under those rules, so a turn-based
engine gets mid- and end-game positions under its own bout protocol (CLAR-17, CLAR-18).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from helpers import BrokenReference

from durak_spec.conformance.perft import (
    PerftCheck,
    PerftPosition,
    check_positions,
    claimed_position,
    format_check,
    load_positions,
    perft,
)
from durak_spec.core.cards import Card
from durak_spec.engine import check_reachable, limits, seats
from durak_spec.model.rules import RuleSet, ThrowIn, TurnOrder, profile
from durak_spec.model.state import GameState
from durak_spec.protocol import Capabilities, LoadDeclined, ReferenceEngine, Report

DEPTH = 3


@pytest.fixture(scope="module")
def stored() -> list[PerftPosition]:
    return load_positions()


def _claim(name: str, **claim: Any) -> Callable[[ReferenceEngine], Capabilities]:
    def capabilities(self: ReferenceEngine) -> Capabilities:
        return Capabilities(name=name, **claim)
    return capabilities


class AttackerThrowsIn(ReferenceEngine):
    """Claims no profile, only axis values: the classic game in which only the attacker
    throws in (ATTACK-4), for three and four players."""

    capabilities = _claim("attacker only", players=(3, 4), axes={"throw_in": ("attacker",)})


class AttackerClaimEveryonePlays(AttackerThrowsIn):
    """Claims throw_in=attacker, but lets every player throw in (plays throw_in=all)."""

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        return super().start(rules.replace(throw_in=ThrowIn.ALL), deck, seed)


class OpenerFirst(ReferenceEngine):
    """A turn-based engine: classic throw-in for 2-4 players, opener-first (CLAR-17),
    without load: every position within a game is reached by replaying its moves."""

    capabilities = _claim("opener first", profiles=("classic-throw-in",), players=(2, 3, 4),
                          turn_orders=("opener-first",))


class SourceC(ReferenceEngine):
    """Claims source C's rules only, for every player count."""

    capabilities = _claim("source C", profiles=("source-c",), players=(2, 3, 4, 5, 6))


class DeclinesEveryLoad(ReferenceEngine):
    """Says it can load, and declines every position with the standard answer."""

    capabilities = _claim("declines", profiles=("classic-throw-in",), players=(2, 3, 4),
                          turn_orders=("last-thrower",), load=True)

    def load(self, state: GameState) -> Report:
        raise LoadDeclined("this engine cannot represent a position in the middle of a game")


class BrokenOpenerFirst(BrokenReference, OpenerFirst):
    """:class:`OpenerFirst` with one function of the reference replaced while it answers."""


def _seven_attack_cards(state: GameState) -> tuple[int, str]:
    return 7, "LIMIT-1"


def _nobody_skipped(seat: int, players: int, out: Any = ()) -> int:
    return (seat + 1) % players


def _counted(results: list[PerftCheck]) -> list[PerftCheck]:
    return [r for r in results if not r.skipped]


def test_a_claim_of_axis_values_gets_every_position_of_its_player_counts(
        stored: list[PerftPosition]) -> None:
    results = check_positions(AttackerThrowsIn(), stored, max_depth=DEPTH)
    counted = _counted(results)
    assert all(r.ok for r in results), format_check(results)
    wanted = profile("classic-throw-in").rules(3).replace(throw_in=ThrowIn.ATTACKER)
    assert {r.position.rules.players for r in counted} == {3, 4}
    assert all(r.position.rules.replace(players=3) == wanted for r in counted)
    assert all("throw_in=attacker" in r.claimed for r in counted)
    # deals and positions from within games, more than the one stored position of its rules
    assert any(r.position.moves for r in counted) and any(not r.position.moves for r in counted)
    assert len(counted) >= 10
    for result in counted:  # the expected counts are the reference's under those rules
        assert result.expected == perft(result.position.start(), len(result.expected))
    for result in results:
        if result.skipped:
            assert any(why in result.skipped for why in (
                "players", "counted already", "no game reaches", "random games reaches")), \
                result.skipped


def test_an_engine_that_breaks_its_claimed_axis_value_is_caught(
        stored: list[PerftPosition]) -> None:
    deals = [p for p in stored if not p.moves and p.rules.players in (3, 4)]
    results = check_positions(AttackerClaimEveryonePlays(), deals, max_depth=DEPTH)
    failures = [r for r in results if not r.ok]
    assert failures, format_check(results)
    for failure in failures:  # the first differing path names the extra throw-ins
        assert failure.located is not None and failure.located.engine_only
        assert all(a.kind == "throw" for a in failure.located.engine_only)
    assert "the engine also lists" in format_check(failures)


def test_a_turn_based_engine_gets_mid_and_end_game_positions_under_its_own_protocol(
        stored: list[PerftPosition]) -> None:
    whole_game = [p for p in stored if p.moves]
    results = check_positions(OpenerFirst(), whole_game, max_depth=DEPTH)
    assert all(r.ok for r in results), format_check(results)
    counted = _counted(results)
    assert len(counted) >= 8
    starts = [r.position.start() for r in counted]
    for result, state in zip(counted, starts, strict=True):
        assert result.position.rules.turn_order is TurnOrder.OPENER_FIRST
        assert "turn_order=opener-first" in result.claimed
        assert check_reachable(state) is state  # a position play reaches under CLAR-17
        assert not state.is_over
    # the kinds the stored positions stand for are reached again under the turn order
    assert any(len(s.table) == 6 for s in starts)
    assert any(max(map(len, s.hands)) >= 12 for s in starts)
    assert any(s.finished for s in starts) and any(not s.stock for s in starts)


@pytest.mark.parametrize(("target", "broken"), [(limits.bout_cap, _seven_attack_cards),
                                                (seats.next_in_game, _nobody_skipped)],
                         ids=["a seventh attack card", "an out player made defender"])
def test_a_broken_turn_based_copy_is_caught_under_its_own_protocol(
        target: Any, broken: Any, stored: list[PerftPosition]) -> None:
    whole_game = [p for p in stored if p.moves]
    results = check_positions(BrokenOpenerFirst(target, broken), whole_game, max_depth=4)
    failures = [r for r in results if not r.ok]
    assert failures, format_check(results)
    assert all(f.claimed for f in failures)
    assert all(f.first_mismatch is not None or f.rule_failure for f in failures)


def test_source_c_is_counted_on_every_stored_deal_it_can_play(
        stored: list[PerftPosition]) -> None:
    results = check_positions(SourceC(), stored, max_depth=DEPTH)
    assert all(r.ok for r in results), format_check(results)
    source_c = profile("source-c")
    counted = _counted(results)
    assert len(counted) >= 12
    assert all(r.position.rules == source_c.rules(r.position.rules.players) for r in counted)


def test_a_declined_load_reaches_the_position_from_the_deal_instead(
        stored: list[PerftPosition]) -> None:
    whole_game = [p for p in stored if p.moves and p.rules.players <= 4][:4]
    results = check_positions(DeclinesEveryLoad(), whole_game, max_depth=DEPTH)
    assert all(r.ok and not r.skipped for r in results), format_check(results)
    assert all(r.position.rules.turn_order is TurnOrder.LAST_THROWER for r in results)


def test_the_reference_is_counted_on_the_stored_counts_unchanged(
        stored: list[PerftPosition]) -> None:
    engine = ReferenceEngine()
    for position in stored:
        assert claimed_position(position, engine.capabilities()) is position


def test_a_position_of_a_file_is_replayed_under_the_claimed_rules_or_skipped(
        stored: list[PerftPosition]) -> None:
    transfer_game = next(p for p in stored if p.moves and p.rules.transfer
                         and any(a.kind == "transfer" for a in p.moves))
    own = replace(transfer_game, id="my-own")  # not one of the generator's kinds
    capabilities = Capabilities(name="no transfers", players=(transfer_game.rules.players,),
                                profiles=("classic-throw-in",))
    reason = claimed_position(own, capabilities)
    assert isinstance(reason, str) and "is not legal" in reason, reason
    assert "transfer=off" in reason
    plain = next(p for p in stored if p.moves and p.rules == profile(
        "classic-throw-in").rules(p.rules.players) and p.rules.players <= 4)
    turns = Capabilities(name="turns", players=(plain.rules.players,),
                         profiles=("classic-throw-in",), turn_orders=("opener-first",))
    adapted = claimed_position(replace(plain, id="my-own"), turns)
    # the reference's free order of moves may or may not be a game under CLAR-17
    if not isinstance(adapted, str):
        assert adapted.moves == plain.moves
        assert adapted.counts == perft(adapted.start(), len(adapted.counts))


def test_the_javascript_turn_based_engine_is_counted_under_its_own_protocol(
        stored: list[PerftPosition]) -> None:
    import shutil
    from pathlib import Path

    from durak_spec.protocol.subprocess_engine import SubprocessEngine

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (tests/test_engine_js.py fails for it under CI)")
    script = Path(__file__).resolve().parents[1] / "examples" / "engine_turns.js"
    with SubprocessEngine([node, str(script)], timeout=10) as engine:
        results = check_positions(engine, stored, max_depth=DEPTH)
    assert all(r.ok for r in results), format_check(results)
    counted = _counted(results)
    assert sum(bool(r.position.moves) for r in counted) >= 8  # mid- and end-game positions
    assert all(r.position.rules.turn_order is TurnOrder.OPENER_FIRST for r in counted)
