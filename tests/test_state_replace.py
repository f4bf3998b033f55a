"""GameState: a frozen value built by keyword, holding the game's fields and nothing else;
``replace`` changes exactly the fields named."""

from __future__ import annotations

import copy
import pickle
import random
import typing

import pytest

from durak_spec import apply, legal_actions, new_game, profile
from durak_spec.model.state import STATE_FIELDS, GameState, StateChanges, replace


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


def _fields(state: GameState) -> dict[str, object]:
    return {name: getattr(state, name) for name in STATE_FIELDS}


@pytest.mark.parametrize("field", STATE_FIELDS)
def test_replace_changes_only_the_named_field(field: str) -> None:
    for state, other in zip(POSITIONS, POSITIONS[7:], strict=False):
        value = getattr(other, field)
        changed = state.replace(**{field: value})
        assert replace(state, **{field: value}) == changed
        assert changed == GameState(**{**_fields(state), field: value})
        assert type(changed) is GameState
        for name in STATE_FIELDS:
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


def test_replace_sets_and_clears_the_last_thrower() -> None:
    state = POSITIONS[0]
    assert state.thrower is None
    assert state.replace(thrower=2).thrower == 2
    assert state.replace(thrower=2).replace(thrower=None).thrower is None
    assert state.replace(thrower=2).replace(bout=5).thrower == 2  # kept unless named


def test_replace_names_only_fields_and_only_by_keyword() -> None:
    state = POSITIONS[0]
    with pytest.raises(TypeError, match="colour"):
        state.replace(colour=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        state.replace(state.rules)  # type: ignore[arg-type, call-arg]
    with pytest.raises(TypeError, match="colour"):
        replace(state, colour=1)  # type: ignore[call-arg]


def test_the_typed_changes_are_the_fields() -> None:
    # replace is checked by mypy through StateChanges: the same names with the same types.
    assert tuple(StateChanges.__annotations__) == STATE_FIELDS
    assert typing.get_type_hints(StateChanges) == {
        name: kind for name, kind in typing.get_type_hints(GameState).items()
        if name in STATE_FIELDS}


def test_a_state_is_built_by_keyword() -> None:
    state = POSITIONS[5]
    assert GameState(**_fields(state)) == state  # type: ignore[arg-type]


def test_a_state_is_frozen_and_holds_its_fields_only() -> None:
    state = POSITIONS[5]
    with pytest.raises(AttributeError):
        state.bout = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.memo = ()  # type: ignore[attr-defined]
    assert not hasattr(state, "__dict__")


def test_a_state_is_a_value() -> None:
    for state in POSITIONS[::9]:
        again = GameState(**_fields(state))  # type: ignore[arg-type]
        assert again == state and hash(again) == hash(state) and repr(again) == repr(state)
        for copied in (pickle.loads(pickle.dumps(state)), copy.copy(state),
                       copy.deepcopy(state)):
            assert copied == state and type(copied) is GameState
            assert legal_actions(copied) == legal_actions(state)
    assert len(set(POSITIONS)) == len({repr(s) for s in POSITIONS})
    assert POSITIONS[0] != POSITIONS[1]
