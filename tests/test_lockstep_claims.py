"""Lockstep under rule sets an engine claims beyond the named profiles (issue 14), and a
difference in who may act charged to the rule really concerned: turn order only where the
reference refuses the extra seat's actions by the bout protocol (CLAR-3, CLAR-17, CLAR-18)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import hypothesis
from helpers import BrokenReference
from hypothesis import strategies as st

from durak_spec.conformance.lockstep import (
    Configuration,
    configurations,
    format_lockstep,
    play_lockstep,
)
from durak_spec.core.cards import Card
from durak_spec.engine import limits
from durak_spec.model.actions import Action
from durak_spec.model.rules import (
    AXES,
    Axis,
    DrawOrder,
    LimitReading,
    RuleSet,
    RuleSetError,
    ThrowIn,
    TurnOrder,
    profile,
)
from durak_spec.protocol import Capabilities, ReferenceEngine, Report
from durak_spec.protocol.claims import claimed_values


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
    from durak_spec.conformance.lockstep.differences import Difference, Found
    from durak_spec.conformance.lockstep.results import cause_key

    audit = Difference("report", "7♠ is in P0's hand and in P1's hand", "a position some "
                       "game can reach", "DEAL-1")
    hands = Difference("hands[P0]", "6♠ 7♠", "6♠", "DRAW-1")
    stock = Difference("stock", "7", "6", "DRAW-1")
    first = Found("impossible report", (audit, hands, stock))
    second = Found("impossible report", (audit, hands))
    assert cause_key(first) == cause_key(second)
    other = Found("impossible report", (replace(audit, rule="LIMIT-1"), hands))
    assert cause_key(other) != cause_key(first)


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
    # one deviation, one cause: the sixth card it does not list and the bout it settles
    # too soon are both LIMIT-3 (the reference's grounds and its settling rule)
    (cause,) = result.causes
    assert cause.rule == "LIMIT-3", format_lockstep(result)
    assert set(cause.kinds) == {"action missing", "different result"}



# -- every claimed value of every axis is played ------------------------------------------------


class TwoByTwo(ReferenceEngine):
    """Claims no profile, and two values of two axes: both draw orders (DRAW-2) and both
    wordings of the limit (LIMIT-2), at four players (where the draw orders differ)."""

    def capabilities(self) -> Capabilities:
        return Capabilities(name="two by two", players=(4,), load=True,
                            axes={"draw_order": ("attacker-first", "join-order"),
                                  "limit_reading": ("current-hand", "start-hand")})


class DrawsAttackerFirstAlways(TwoByTwo):
    """Claims both draw orders but always draws attacker first: wrong only under
    draw_order=join-order, the value that is not the classic game's."""

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        return super().start(rules.replace(draw_order=DrawOrder.ATTACKER_FIRST), deck, seed)


class ClassicAndJoinOrder(ReferenceEngine):
    """Claims a whole profile and, beyond it, both draw orders."""

    def capabilities(self) -> Capabilities:
        return Capabilities(name="classic and join order", players=(2, 4), load=True,
                            profiles=("classic-throw-in",),
                            axes={"draw_order": ("attacker-first", "join-order")})


def _played_values(chosen: Sequence[Any]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for configuration in chosen:
        for axis in AXES:
            out.setdefault(axis.name, set()).add(Axis.format(getattr(configuration.rules,
                                                                     axis.name)))
    return out


def test_every_claimed_value_of_every_axis_is_played_by_a_small_covering_set() -> None:
    chosen, _ = configurations(TwoByTwo().capabilities())
    classic = profile("classic-throw-in").rules(4)
    # the classic game is a profile the claim covers (as before), then one rule set with
    # the values it does not play
    assert [c.rules for c in chosen] == [
        classic, classic.replace(limit_reading=LimitReading.START_HAND,
                                 draw_order=DrawOrder.JOIN_ORDER)]
    assert chosen[0].label == "classic-throw-in (= source-a), 4 players"
    assert chosen[1].covers == ("limit_reading=start-hand", "draw_order=join-order")
    assert chosen[1].label == ("claimed rules (limit_reading=start-hand, "
                               "draw_order=join-order), 4 players")
    played = _played_values(chosen)
    assert played["draw_order"] == {"attacker-first", "join-order"}
    assert played["limit_reading"] == {"current-hand", "start-hand"}
    result = play_lockstep(TwoByTwo(), games=3, seed=0)
    assert result.ok and result.games == 6, format_lockstep(result)


def test_a_copy_wrong_only_under_the_non_default_value_is_caught() -> None:
    result = play_lockstep(DrawsAttackerFirstAlways(), games=6, seed=0)
    assert not result.ok
    # the reference's draws carry the rule of their order: the join order's (CLAR-8)
    assert {c.rule for c in result.causes} == {"CLAR-8"}, format_lockstep(result)
    (cause,) = result.causes
    assert cause.configurations == (
        "claimed rules (limit_reading=start-hand, draw_order=join-order), 4 players",)
    assert cause.example.record.rules.draw_order is DrawOrder.JOIN_ORDER


def test_values_beyond_a_claimed_profile_are_played_too() -> None:
    chosen, _ = configurations(ClassicAndJoinOrder().capabilities())
    labels = [c.label for c in chosen]
    assert labels == ["classic-throw-in (= source-a), 2 players",
                      "classic-throw-in (= source-a), 4 players",
                      "claimed rules (draw_order=join-order), 2 players",
                      "claimed rules (draw_order=join-order), 4 players"], labels
    assert [c.rules for c in chosen[2:]] == [
        profile("classic-throw-in").rules(n).replace(draw_order=DrawOrder.JOIN_ORDER)
        for n in (2, 4)]


def test_an_engine_claiming_one_profile_plays_just_that() -> None:
    one = Capabilities(name="one", profiles=("source-c",), players=(3, 5))
    chosen, _ = configurations(one)
    assert [(c.profile, c.rules, c.covers) for c in chosen] == [
        ("source-c", profile("source-c").rules(3), ()),
        ("source-c", profile("source-c").rules(5), ())]


def test_the_reference_plays_every_value_with_two_rule_sets_beyond_its_profiles() -> None:
    engine = ReferenceEngine()
    chosen, skipped = configurations(engine.capabilities())
    assert not skipped
    for players in range(2, 7):
        here = [c for c in chosen if c.rules.players == players]
        assert _played_values(here) == {
            axis: set(values) for axis, values in Capabilities.every_axis().items()
        } | {"players": {str(players)}}
        assert sum(bool(c.covers) for c in here) == 2  # the profiles play the rest


_AXIS_VALUES = Capabilities.every_axis()


def _every_claimed_rule_set(capabilities: Capabilities, players: int) -> list[RuleSet]:
    """By brute force: every rule set for ``players`` that the engine claims (the product
    of its axes' values, and its profiles)."""
    claimed = claimed_values(capabilities)
    found = [profile(name).rules(players).replace(turn_order=TurnOrder(order))
             for name in capabilities.profiles for order in claimed["turn_order"]]
    for values in itertools.product(*claimed.values()):
        try:
            found.append(RuleSet(players=players, **{
                axis: next(a for a in AXES if a.name == axis).convert(value)
                for axis, value in zip(claimed, values, strict=True)}))
        except RuleSetError:
            continue
    return [r for r in found if capabilities.supports(r) is None]


@hypothesis.settings(max_examples=60, deadline=None)
@hypothesis.given(st.lists(st.sampled_from(sorted(_AXIS_VALUES)), min_size=1, max_size=4,
                           unique=True).flatmap(
    lambda axes: st.fixed_dictionaries({
        name: st.lists(st.sampled_from(_AXIS_VALUES[name]), min_size=1, unique=True)
        .map(tuple) for name in axes})),
    st.sampled_from([(), ("classic-throw-in",), ("source-d",)]),
    st.integers(min_value=2, max_value=6))
def test_a_covering_set_plays_every_claimed_value_a_claimed_rule_set_can_play(
        axes: dict[str, tuple[str, ...]], profiles: tuple[str, ...], players: int) -> None:
    capabilities = Capabilities(name="any", profiles=profiles, players=(players,),
                                axes=axes)
    chosen, _ = configurations(capabilities)
    assert all(capabilities.supports(c.rules) is None for c in chosen)
    assert len({c.rules for c in chosen}) == len(chosen)
    played = _played_values(chosen)
    playable = _played_values([Configuration("", r) for r in
                               _every_claimed_rule_set(capabilities, players)])
    assert played == playable, [c.label for c in chosen]
    claimed = claimed_values(capabilities)
    widest = max(len(values) for values in claimed.values())
    assert sum(bool(c.covers) for c in chosen) <= widest + 1
