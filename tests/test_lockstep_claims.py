"""Lockstep under rule sets an engine claims beyond the named profiles (issue 14), and a
difference in who may act charged to the rule really concerned: turn order only where the
reference refuses the extra seat's actions by the bout protocol (CLAR-3, CLAR-17, CLAR-18)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from helpers import BrokenReference

from durak_spec.conformance.lockstep import configurations, format_lockstep, play_lockstep
from durak_spec.core.cards import Card
from durak_spec.engine import limits
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet, ThrowIn, profile
from durak_spec.protocol import Capabilities, ReferenceEngine, Report


class AttackerThrowsIn(ReferenceEngine):
    """Claims no profile, only an axis value: only the attacker throws in (ATTACK-4)."""

    def capabilities(self) -> Capabilities:
        return Capabilities(name="attacker only", players=(3, 4),
                            axes={"throw_in": ("attacker",)})


class EveryoneThrowsIn(AttackerThrowsIn):
    """Claims throw_in=attacker but lets every player throw in."""

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        return super().start(rules.replace(throw_in=ThrowIn.ALL), deck, seed)


class NeverTakes(ReferenceEngine):
    """Never lists a take (TAKE-1)."""

    def legal_actions(self) -> tuple[Action, ...]:
        return tuple(a for a in super().legal_actions() if a.kind != "take")


def test_an_axis_claim_is_played_under_its_own_values() -> None:
    chosen, _ = configurations(AttackerThrowsIn().capabilities())
    wanted = profile("classic-throw-in").rules(3).replace(throw_in=ThrowIn.ATTACKER)
    assert [c.rules for c in chosen] == [wanted, wanted.replace(players=4)]
    result = play_lockstep(AttackerThrowsIn(), games=5, seed=0)
    assert result.ok and result.games == 10, format_lockstep(result)


def test_an_extra_thrower_is_charged_to_the_throw_in_rule_not_to_turn_order() -> None:
    result = play_lockstep(EveryoneThrowsIn(), games=5, seed=0)
    assert not result.ok
    kinds = {(c.rule, c.kind) for c in result.causes}
    assert ("ATTACK-4", "action extra") in kinds, format_lockstep(result)
    assert not any(kind == "turn order" for _, kind in kinds), format_lockstep(result)


def test_an_engine_that_lists_nobody_misses_the_take_it_is_not_turn_order() -> None:
    result = play_lockstep(NeverTakes(), profile("classic-throw-in").rules(2), games=8,
                           seed=3)
    assert {(c.rule, c.kind) for c in result.causes} == {("TAKE-1", "action missing")}, \
        format_lockstep(result)


def test_impossible_reports_of_one_rule_are_one_cause_whatever_else_differs() -> None:
    # durakgame's duplicated card (DEAL-1) showed with and without a stock that differs
    # (depending on whether a drawing followed); both are the one impossibility.
    from durak_spec.conformance.lockstep import Difference, _cause_key, _Found

    audit = Difference("report", "7♠ is in P0's hand and in P1's hand", "a position some "
                       "game can reach", "DEAL-1")
    hands = Difference("hands[P0]", "6♠ 7♠", "6♠", "DRAW-1")
    stock = Difference("stock", "7", "6", "DRAW-1")
    first = _Found("impossible report", (audit, hands, stock))
    second = _Found("impossible report", (audit, hands))
    assert _cause_key(first) == _cause_key(second)
    other = _Found("impossible report", (replace(audit, rule="LIMIT-1"), hands))
    assert _cause_key(other) != _cause_key(first)


def _five_while_nothing_is_discarded(state: Any) -> tuple[int, str]:
    # dogballs' limit: five attack cards until the first card is discarded
    if state.rules.first_bout_limit_five and not state.discard:
        return 5, "LIMIT-3"
    return 6, "LIMIT-1"


class FiveUntilADiscard(BrokenReference):
    """The reference with the five-card limit kept until the first discard, not the first
    bout only; it cannot load, as dogballs cannot."""

    def capabilities(self) -> Capabilities:
        return Capabilities(name="five until a discard", players=(3, 4),
                            profiles=("classic-throw-in",))

    def __init__(self) -> None:
        super().__init__(limits.bout_cap, _five_while_nothing_is_discarded)


def test_a_bout_the_engine_settles_too_soon_is_charged_to_the_limit_not_to_the_hands() -> None:
    result = play_lockstep(FiveUntilADiscard(), games=40, seed=1)
    assert not result.ok
    causes = {(c.rule, c.kind) for c in result.causes}
    assert ("LIMIT-3", "different result") in causes, format_lockstep(result)
    assert not any(rule == "CLAR-1" for rule, _ in causes), format_lockstep(result)
    bout = next(c for c in result.causes if c.rule == "LIMIT-3" and c.kind == "different result")
    (difference,) = bout.example.differences  # the one difference: the hands follow from it
    assert difference.field == "bout" and difference.engine.startswith("settled after ")
    assert "goes on: " in difference.reference and "5 attack cards" in difference.reference
