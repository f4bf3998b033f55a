"""Perft through the whole game (issue 14): positions from the middle and the end of games,
counted depth by depth with every report audited, catch the broken copies of the reference
that counting fresh deals missed, and stop at the first differing depth.

Each broken copy is the reference with the code of one rule function swapped (as in
``test_mutations.py``, but only while the engine answers, so the checker's own reference
stays right) or with its reports wrapped; the checks run in-process on the stored
``whole-game`` positions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from helpers import BrokenReference

from durak_spec.conformance.perft import (
    PerftCheck,
    PerftPosition,
    check_positions,
    format_check,
    load_positions,
    perft,
)
from durak_spec.engine import limits, seats, transfer, turns
from durak_spec.engine.breach import Breach
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState
from durak_spec.protocol import Capabilities, ReferenceEngine, Rejected, Report, Verdict

DEPTH = 4


@pytest.fixture(scope="module")
def whole_game() -> list[PerftPosition]:
    return [p for p in load_positions() if p.moves]


def _seven_attack_cards(state: GameState) -> tuple[int, str]:
    return 7, "LIMIT-1"


def _five_all_game(state: GameState) -> tuple[int, str]:
    return (5, "LIMIT-3") if state.rules.first_bout_limit_five else (6, "LIMIT-1")


def _no_capacity_check(state: GameState, count: int) -> Breach | None:
    return None


def _nobody_skipped(seat: int, players: int, out: Any = ()) -> int:
    return (seat + 1) % players


def _done_never_counts(state: GameState, *_: object) -> tuple[int, ...]:
    # turns.pending without CLAR-3's done (any extra parameters of pending are ignored)
    from durak_spec.engine.attack import table_ranks, throwers
    from durak_spec.engine.limits import attack_limit

    if not state.table or len(state.table) >= attack_limit(state)[0]:
        return ()
    ranks = table_ranks(state.table)
    return tuple(seat for seat in throwers(state)
                 if any(card.rank in ranks for card in state.hands[seat]))


BrokenCopy = BrokenReference  # the reference with one rule broken (tests/helpers.py)


class DrawIsALoss(ReferenceEngine):
    """Scores a simultaneous finish as a loss of the last player in the finishing order."""

    def report(self) -> Report:
        report = super().report()
        if report.over and report.durak is None and report.finished:
            *rest, last = report.finished
            loser = last[-1]
            group = tuple(s for s in last if s != loser)
            return replace(report, durak=loser,
                           finished=(*rest, group) if group else tuple(rest))
        return report


class OutWhileTheStockLasts(ReferenceEngine):
    """Counts a player as out the moment their hand is empty, whatever the stock holds."""

    def report(self) -> Report:
        report = super().report()
        out = {s for group in report.finished for s in group}
        empty = tuple(s for s, hand in enumerate(report.hands) if not hand and s not in out)
        if empty and not report.over:
            return replace(report, finished=(*report.finished, empty))
        return report


MUTATIONS: list[tuple[str, Callable[..., object], Callable[..., object]]] = [
    ("a seventh attack card", limits.bout_cap, _seven_attack_cards),
    ("the five-card limit kept all game", limits.bout_cap, _five_all_game),
    ("no transfer capacity check", transfer.capacity_breach, _no_capacity_check),
    ("an out player made defender", seats.next_in_game, _nobody_skipped),
]


def _failures(results: list[PerftCheck]) -> list[PerftCheck]:
    return [r for r in results if not r.ok]


def test_the_whole_game_positions_reach_what_deals_never_do(
        whole_game: list[PerftPosition]) -> None:
    starts = [p.start() for p in whole_game]
    assert len(whole_game) >= 10
    assert any(max(map(len, s.hands)) >= 12 for s in starts)
    assert any(len(s.table) == 6 for s in starts)
    assert any(not s.stock for s in starts)
    assert any(s.finished for s in starts)
    assert any(s.rules.transfer and s.table for s in starts)
    for position, state in zip(whole_game, starts, strict=True):
        assert not state.is_over
        assert perft(state, position.depth) == position.counts, position.id


@pytest.mark.parametrize(("name", "target", "broken"), MUTATIONS,
                         ids=[m[0] for m in MUTATIONS])
def test_a_broken_copy_is_caught_in_the_middle_or_end_of_a_game(
        name: str, target: Any, broken: Any, whole_game: list[PerftPosition]) -> None:
    engine = BrokenCopy(target, broken)
    failures = _failures(check_positions(engine, whole_game, max_depth=DEPTH))
    assert failures, f"{name}: every whole-game count still matched"
    counted = [f for f in failures if f.first_mismatch is not None]
    for failure in counted:  # stopped at the first differing depth, the path named
        assert len(failure.counts) == failure.first_mismatch
        assert failure.located is not None
    # Caught as a rule failure (a count or an impossible report), not only as an error.
    assert counted or any(f.impossible for f in failures), format_check(failures)


@pytest.mark.parametrize("engine", [DrawIsALoss, OutWhileTheStockLasts])
def test_an_impossible_outcome_is_caught_by_the_audit(
        engine: type[ReferenceEngine], whole_game: list[PerftPosition]) -> None:
    results = check_positions(engine(), whole_game, max_depth=6)
    failures = _failures(results)
    assert failures and all(f.impossible for f in failures)
    if engine is DrawIsALoss:
        assert any("(END-4)" in f.error for f in failures), format_check(failures)
    assert "impossible report after" in failures[0].error


def test_the_count_stops_at_the_first_differing_depth_and_keeps_the_budget(
        whole_game: list[PerftPosition]) -> None:
    # Saying done never counts: the attackers are asked again and again (CLAR-3), so the
    # trees explode; depth by depth, the difference shows at once.
    engine = BrokenCopy(turns.pending, _done_never_counts)
    positions = [p for p in whole_game if p.rules.players >= 3][:4]
    results = check_positions(engine, positions, budget=5.0)
    failures = _failures(results)
    assert failures
    for failure in failures:  # no depth was counted past the first that differs
        assert failure.first_mismatch == len(failure.counts) or failure.impossible
    text = format_check(results)
    assert "first difference at depth" in text and "(deeper counts skipped)" in text


def test_a_time_budget_cuts_an_honest_count_without_failing_it(
        whole_game: list[PerftPosition]) -> None:
    position = max(whole_game, key=lambda p: p.depth)
    (result,) = check_positions(ReferenceEngine(), [position], budget=0.01)
    assert result.ok and result.cut.startswith("counted to depth ")
    assert len(result.counts) < position.depth
    assert result.counts == position.counts[:len(result.counts)]
    assert "the time budget of 0.01 s was spent" in format_check([result])


class TurnsOnly(ReferenceEngine):
    """Cannot load, and accepts only the first listed action of the first player listed:
    it cannot follow the reference's order of moves to a position within a game."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="turns only", load=False)

    def legal_actions(self) -> tuple[Action, ...]:
        legal = super().legal_actions()
        return tuple(a for a in legal if a.player == legal[0].player) if legal else ()

    def apply(self, action: Action) -> Verdict:
        if action not in self.legal_actions():
            return Rejected("not your turn")
        return super().apply(action)


def test_a_move_of_the_way_to_a_position_that_the_engine_rejects_is_a_rule_failure(
        whole_game: list[PerftPosition]) -> None:
    # The moves are a game under the rules the engine claims (its bout protocol included),
    # so an engine that rejects one forbids what those rules allow: a failure, not a skip.
    positions = [p for p in whole_game if p.rules.players >= 3][:3]
    results = check_positions(TurnsOnly(), positions, max_depth=2)
    assert all(not r.ok and r.unreached and r.rule_failure for r in results)
    assert all(r.error.startswith("not reached: the engine rejected move ") for r in results)
    assert all("which the rules it claims allow there (CLAR-3: the engine asks another "
               "seat); it lists: " in r.error for r in results)
    assert "      rule: not reached" in format_check(results)
