"""GameState.replace: the engine's typed keyword builder changes exactly the fields named."""

from __future__ import annotations

import random

import pytest

from durak_spec import apply, legal_actions, new_game, profile
from durak_spec.model.state import GameState


def _positions() -> list[GameState]:
    rules = profile("classic-transfer").rules(players=4)
    state = new_game(rules, seed=3)
    choose = random.Random(3).choice
    found = [state]
    while not state.is_over:
        state = apply(state, choose(legal_actions(state)))
        found.append(state)
    return found


POSITIONS = _positions()


@pytest.mark.parametrize("field", GameState._fields)
def test_replace_changes_only_the_named_field(field: str) -> None:
    for state, other in zip(POSITIONS, POSITIONS[7:], strict=False):
        value = getattr(other, field)
        changed = state.replace(**{field: value})
        assert changed == state._replace(**{field: value})
        assert type(changed) is GameState
        for name in GameState._fields:
            expected = value if name == field else getattr(state, name)
            assert getattr(changed, name) == expected, (field, name)


def test_replace_with_nothing_is_the_same_state() -> None:
    for state in POSITIONS:
        assert state.replace() == state


def test_replace_keeps_falsy_values() -> None:
    state = next(s for s in POSITIONS if s.attacker and s.bout and s.table)
    changed = state.replace(attacker=0, bout=0, taking=False, table=(), passed=frozenset())
    assert (changed.attacker, changed.bout, changed.taking, changed.table, changed.passed) == (
        0, 0, False, (), frozenset())
