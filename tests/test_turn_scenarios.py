"""Turn-based engines are checked on the whole specification (issue 24, item 5).

Every real engine plays one seat at a time (CLAR-17, CLAR-18), so the scenarios must not
be written for the free bout protocol (CLAR-3) alone: the step library plays a
scenario's moves in the order a turn-based protocol asks for them
(:mod:`durak_spec.spec.ordering`), and the checker runs every example whose outcome does
not depend on the protocol (:mod:`durak_spec.conformance.dependencies`). Here the
reference claims every axis but plays one turn-based protocol: it must skip under 5% of
the scenarios for their turn order, run the whole LIMIT chapter, and, broken so that it
has no six-card limit, fail the suite.
"""

from __future__ import annotations

import dataclasses
from types import FunctionType

import pytest

from durak_spec.conformance.dependencies import playing_rules
from durak_spec.core.cards import Suit
from durak_spec.engine import apply, limits
from durak_spec.game.positions import Position, parse_card_list, parse_one_card, parse_table
from durak_spec.model.actions import Cover, Done, ThrowIn
from durak_spec.model.state import GameState
from durak_spec.protocol import Capabilities, ReferenceEngine
from durak_spec.spec.ordering import next_move
from durak_spec.spec.runner import RunResult, run

TURN_BASED = ("opener-first", "last-thrower")


class _Claims(ReferenceEngine):
    """The reference engine claiming every axis, but one bout protocol only."""

    def __init__(self, order: str) -> None:
        super().__init__()
        self._claimed = dataclasses.replace(
            super().capabilities(), name=f"reference ({order})", turn_orders=(order,),
            axes={**Capabilities.every_axis(), "turn_order": (order,)})

    def capabilities(self) -> Capabilities:
        return self._claimed


def _check(order: str, rules: tuple[str, ...] = ()) -> RunResult:
    return run(lambda: _Claims(order), rules=rules, adapt=playing_rules())


@pytest.mark.parametrize("order", TURN_BASED)
def test_a_turn_based_engine_skips_under_five_percent_and_runs_every_limit(order: str) -> None:
    result = _check(order)
    counts = result.counts
    assert counts.failed == counts.errored == 0, [
        (s.example, s.message) for s in result.with_outcome("failed", "errored")]
    skipped = result.with_outcome("skipped")
    # only what depends on the protocol is left out, and says so
    assert all(f"turn_order={order}" in (s.skip_reason or "") for s in skipped), [
        (s.example, s.skip_reason) for s in skipped]
    assert len(skipped) < 0.05 * counts.total, (len(skipped), [s.example for s in skipped])
    limits_chapter = [s for s in result.scenarios if s.feature == "05_limits.feature"]
    assert len(limits_chapter) >= 25
    assert all(s.outcome == "passed" for s in limits_chapter), [
        (s.example, s.outcome) for s in limits_chapter if s.outcome != "passed"]
    # and they were played under the engine's protocol, not the free one they are written in
    assert any(s.example == "DRAW-2.3a" and s.outcome == "passed" for s in result.scenarios)


def _no_six_card_limit(state: GameState) -> tuple[int, str]:
    # limits.bout_cap without LIMIT-1: after the first bout, any number of attack cards.
    from durak_spec.model.rules import FIRST_BOUT_MAX_ATTACK_CARDS

    if state.rules.first_bout_limit_five and state.bout == 0:
        return FIRST_BOUT_MAX_ATTACK_CARDS, "LIMIT-3"
    return 36, "LIMIT-1"


@pytest.mark.parametrize("order", TURN_BASED)
def test_an_engine_without_the_six_card_limit_fails_under_a_turn_based_protocol(
        order: str, monkeypatch: pytest.MonkeyPatch) -> None:
    target = limits.bout_cap
    assert isinstance(target, FunctionType)
    assert _check(order, ("LIMIT-1", "LIMIT-4")).ok
    monkeypatch.setattr(target, "__code__", _no_six_card_limit.__code__)
    broken = _check(order)
    failed = broken.with_outcome("failed")
    assert failed, "without the six-card limit the scenario suite still passes"
    assert not broken.with_outcome("errored")
    assert {"LIMIT-1", "LIMIT-4"} <= {rule for s in failed for rule in s.rule_ids}
    # the limit's own scenarios were played under the turn-based protocol, not skipped
    played = [s for s in broken.scenarios if {"LIMIT-1", "LIMIT-4"} & set(s.rule_ids)]
    assert played and not any(s.outcome == "skipped" for s in played)


def _bout(order: str) -> GameState:
    """Four players; Anna's seven of clubs lies uncovered; everyone else holds a seven."""
    return (Position().with_players(["Anna", "Boris", "Vera", "Gleb"])
            .with_rule("turn_order", order).with_trump(Suit.HEARTS)
            .with_attack("Anna", "Boris").with_table(parse_table("7♣ uncovered"))
            .with_hand("Anna", parse_card_list("7♦"), 6)
            .with_hand("Boris", parse_card_list("9♣"), 6)
            .with_hand("Vera", parse_card_list("7♠"), 6)
            .with_hand("Gleb", parse_card_list("7♥"), 6).build())


def test_the_moves_are_played_as_a_turn_based_protocol_asks_for_them() -> None:
    gleb, cover = ThrowIn(3, parse_one_card("7♥")), Cover(1, parse_one_card("7♣"),
                                                           parse_one_card("9♣"))
    # under the free protocol the moves are played as written
    assert next_move(_bout("free"), [gleb, cover]) == 0
    state = _bout("opener-first")
    assert next_move(state, [gleb, cover]) == 1  # the defender answers first
    assert next_move(state, [gleb]) is None  # no answer queued yet: Gleb's card waits
    covered = apply(state, cover)
    # Anna, then Vera, are asked before Gleb: they say done (Anna's own queued done, if one waits)
    assert next_move(covered, [gleb]) == Done(0)
    assert next_move(covered, [gleb, Done(0)]) == 1
    passed = apply(apply(covered, Done(0)), Done(2))
    assert next_move(passed, [gleb]) == 0
    # a move another rule refuses is played as written, for the scenario to see refused
    assert next_move(covered, [ThrowIn(3, parse_one_card("8♥"))]) == 0
