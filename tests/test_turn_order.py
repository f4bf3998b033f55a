"""The bout protocol as a rule-set axis (CLAR-3, CLAR-17, CLAR-18): under the turn-based
protocols exactly one seat acts at a time, the defender answers every attack card before
another is added, and every game still ends in a valid outcome."""

from __future__ import annotations

import random

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec import PROFILES, RuleSet, acting_seats, apply, check, legal_actions, new_game
from durak_spec.core.errors import IllegalAction
from durak_spec.engine.invariants import listing_problems, outcome_problems, position_problems
from durak_spec.engine.turns import to_act
from durak_spec.model.actions import Cover, Take, ThrowIn, Transfer
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.model.rules import TurnOrder

TURN_BASED = (TurnOrder.OPENER_FIRST, TurnOrder.LAST_THROWER)


def _rules(data: st.DataObject) -> RuleSet:
    return RuleSet(
        players=data.draw(st.integers(2, 6), label="players"),
        transfer=data.draw(st.booleans(), label="transfer"),
        multi_card_opening=data.draw(st.booleans(), label="multi"),
        throw_in=data.draw(st.sampled_from(list(ThrowInRule)), label="throw_in"),
        turn_order=data.draw(st.sampled_from(TURN_BASED), label="turn_order"),
    )


@hypothesis.settings(max_examples=40, deadline=None)
@hypothesis.given(st.data())
def test_one_seat_acts_at_a_time_and_the_defender_answers_first(data: st.DataObject) -> None:
    rules = _rules(data)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    state = new_game(rules, seed=rng.randrange(1000))
    for _ in range(2000):
        assert position_problems(state) == ()
        assert listing_problems(state) == ()
        actions = legal_actions(state)
        if not actions:
            break
        seats = {a.player for a in actions}
        assert len(seats) == 1, f"{seats} may act at once:\n{state.describe()}"
        assert acting_seats(state) == tuple(seats)
        if any(p.cover is None for p in state.table) and not state.taking:
            assert seats == {state.defender}
            assert all(isinstance(a, (Cover, Transfer, Take)) for a in actions)
        elif state.table:
            assert seats == {to_act(state)}
        state = apply(state, rng.choice(actions))
    else:
        pytest.fail("the game did not end in 2000 actions")
    assert outcome_problems(state) == ()


@pytest.mark.parametrize("order", TURN_BASED)
def test_a_throw_in_out_of_turn_names_the_protocol(order: TurnOrder) -> None:
    tried = 0
    for seed in range(50):
        state = new_game(RuleSet(players=3, turn_order=order), seed=seed)
        state = apply(state, legal_actions(state)[0])
        rank = state.table[0].attack.rank
        for seat in range(3):
            fitting = [c for c in state.hands[seat] if c.rank == rank]
            if seat == state.defender or not fitting:
                continue
            tried += 1
            with pytest.raises(IllegalAction) as caught:
                check(state, ThrowIn(seat, fitting[0]))
            assert caught.value.rule == ("CLAR-17" if order is TurnOrder.OPENER_FIRST
                                         else "CLAR-18")
            free = state._replace(rules=state.rules.replace(turn_order=TurnOrder.FREE))
            check(free, ThrowIn(seat, fitting[0]))  # the free protocol lets it be added
    assert tried >= 5


def test_free_is_the_default_of_every_profile() -> None:
    assert {p.base.turn_order for p in PROFILES.values()} == {TurnOrder.FREE}
