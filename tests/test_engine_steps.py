"""A step of the engine asks the rules every time: ``apply`` checks every action it is
given, listed or not, and ends a bout when nobody may act in it (ATTACK-5).

Here: ``apply`` is ``advance``'s state; an action listed elsewhere but not here is refused
by the rule ``broken_rule`` names; a bout is settled exactly when ``legal_actions`` lists
nothing in it, which is how ``apply`` may ask ATTACK-5 through ``bout_settled``; and the
listing of a state is the same whoever asks, and however often; ``play_listed``, which
skips the check for an action the listing offered, plays it as ``apply`` does.
"""

from __future__ import annotations

import copy
import random

import hypothesis
import hypothesis.strategies as st
import pytest

from durak_spec import (
    Action,
    GameState,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    profile,
)
from durak_spec.engine import advance, broken_rule, play_listed
from durak_spec.engine.referee import _EFFECTS
from durak_spec.engine.turns import bout_settled, record
from durak_spec.model.events import Event
from durak_spec.model.state import STATE_FIELDS

GAMES = st.tuples(st.sampled_from(["classic-throw-in", "classic-transfer", "source-b",
                                   "source-d-transfer"]),
                  st.integers(2, 6), st.integers(0, 10**6))
SETTINGS = hypothesis.settings(max_examples=12, deadline=None, derandomize=True,
                               database=None, print_blob=False)


def positions(name: str, players: int, seed: int) -> list[tuple[GameState, Action]]:
    """Every position of a seeded random game with the action played there."""
    state = new_game(profile(name).rules(players=players), seed=seed)
    choose = random.Random(seed).choice
    played: list[tuple[GameState, Action]] = []
    while not state.is_over:
        action = choose(legal_actions(state))
        played.append((state, action))
        state = apply(state, action)
    return played


def anew(state: GameState) -> GameState:
    """The same position, built again from its fields: another object."""
    fresh = GameState(**{name: getattr(state, name) for name in STATE_FIELDS})
    assert fresh == state and fresh is not state
    return fresh


def rebuilt(action: Action) -> Action:
    """An equal action that is not the listed object."""
    again = copy.copy(action)
    assert again == action and again is not action
    return again


@SETTINGS
@hypothesis.given(GAMES)
def test_a_step_is_the_same_from_equal_objects(game: tuple[str, int, int]) -> None:
    for state, action in positions(*game):
        listed = advance(state, action)
        fresh = advance(anew(state), rebuilt(action))
        assert listed == fresh
        assert legal_actions(listed.state) == legal_actions(fresh.state)
        # apply takes the same steps, without the step's record of events
        assert apply(state, action) == apply(anew(state), rebuilt(action)) == listed.state


@SETTINGS
@hypothesis.given(GAMES)
def test_an_unlisted_action_is_refused_by_the_same_rule(game: tuple[str, int, int]) -> None:
    played = positions(*game)
    # Actions listed in other positions: the shared action objects of the listing
    # (``engine.tables``) included, which must not pass for legal where they are not.
    others = {id(a): a for state, _ in played[::7] for a in legal_actions(state)}
    refused = 0
    for state, _ in played[::3]:
        listing = legal_actions(state)
        for action in others.values():
            if action in listing:
                continue
            expected = broken_rule(state, action)
            assert expected is not None
            with pytest.raises(IllegalAction) as raised:
                advance(state, action)
            assert raised.value.rule == expected.rule
            with pytest.raises(IllegalAction):
                apply(state, action)
            refused += 1
    assert refused


@SETTINGS
@hypothesis.given(GAMES)
def test_a_bout_is_settled_exactly_when_nobody_may_act(game: tuple[str, int, int]) -> None:
    settled = 0
    for state, action in positions(*game):
        # The position apply asks about: the action's own change made, the bout not yet
        # ended (the rule module's effect and the protocol's record, as in apply).
        middle = record(state, action, _EFFECTS[type(action)](state, action, []))
        if middle.table:
            assert bout_settled(middle) == (not legal_actions(middle))
            settled += bout_settled(middle)
    assert settled, "some bout of the game ends"


@SETTINGS
@hypothesis.given(GAMES)
def test_a_listed_action_plays_the_same_unchecked(game: tuple[str, int, int]) -> None:
    # play_listed skips the check that apply makes; for every action the listing offers,
    # the next state is the same, events included.
    for state, _ in positions(*game)[::3]:
        for action in legal_actions(state):
            checked: list[Event] = []
            unchecked: list[Event] = []
            assert play_listed(state, action, unchecked) == apply(state, action, checked)
            assert unchecked == checked


def test_a_listing_is_the_same_however_often_it_is_asked() -> None:
    for state, _ in positions("source-d-transfer", 6, 11)[::5]:
        first = legal_actions(state)
        assert legal_actions(state) == first == legal_actions(anew(state))
