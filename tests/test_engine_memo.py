"""The memo of a state's legal actions (issue 9: "any cache explicit and safe under
threads"): it never changes a result.

``legal_actions`` keeps its listing in the state (``GameState._legal``), and ``advance``
does not ask the rules again about an action taken from that listing (the very object).
Here: a step from a listed state equals the step from the same position built anew from
its fields, with an equal action built anew; an action not listed is still checked and
refused by the same rule; the memo is not part of the state's value (equality, hashing,
pickling, copying, saving); a bout is settled exactly when nobody may act in it, which is
how ``advance`` now asks ATTACK-5; and threads listing one state agree.
"""

from __future__ import annotations

import copy
import pickle
import random
import threading

import hypothesis
import hypothesis.strategies as st
import pytest

from durak_spec import (
    Action,
    GameState,
    IllegalAction,
    apply,
    check,
    legal_actions,
    new_game,
    profile,
)
from durak_spec.engine import advance, broken_rule
from durak_spec.engine.referee import _EFFECTS
from durak_spec.engine.turns import bout_settled, record
from durak_spec.game import persist

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
    """The same position, built again from its fields: a state without a memo."""
    fresh = GameState(*state)
    assert fresh._legal is None
    return fresh


def rebuilt(action: Action) -> Action:
    """An equal action that is not the listed object."""
    again = copy.copy(action)
    assert again == action and again is not action
    return again


@SETTINGS
@hypothesis.given(GAMES)
def test_a_listed_state_steps_as_a_state_built_anew(game: tuple[str, int, int]) -> None:
    for state, action in positions(*game):
        assert state._legal is not None  # listed by positions()
        listed = advance(state, action)  # from the listing: not checked again
        fresh = advance(anew(state), rebuilt(action))  # no memo: every rule asked
        assert listed == fresh
        assert listed.state._legal == fresh.state._legal
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
            expected = broken_rule(anew(state), action)
            assert expected is not None
            with pytest.raises(IllegalAction) as raised:
                advance(state, action)
            assert raised.value.rule == expected.rule
            refused += 1
    assert refused


@SETTINGS
@hypothesis.given(GAMES)
def test_a_bout_is_settled_exactly_when_nobody_may_act(game: tuple[str, int, int]) -> None:
    settled = 0
    for state, action in positions(*game):
        # The position advance asks about: the action's own change made, the bout not yet
        # ended (the rule module's effect and the protocol's record, as in advance).
        middle = record(state, action, _EFFECTS[type(action)](state, action, []))
        if middle.table:
            assert bout_settled(middle) == (not legal_actions(anew(middle)))
            settled += bout_settled(middle)
    assert settled, "some bout of the game ends"


def test_the_memo_is_not_part_of_the_value() -> None:
    (state, action), *_ = positions("classic-transfer", 4, 5)
    after = advance(state, action).state
    listed = legal_actions(after)
    assert after._legal is listed and legal_actions(after) is listed  # made once
    fresh = anew(after)
    assert fresh == after and hash(fresh) == hash(after) and repr(fresh) == repr(after)
    assert tuple(fresh) == tuple(after)
    for again in (pickle.loads(pickle.dumps(after)), copy.copy(after), copy.deepcopy(after),
                  after._replace(), after.replace()):
        assert again == after and type(again) is GameState
        assert again._legal is None, "a copy starts without a memo"
        assert legal_actions(again) == listed
    assert persist.state_from_json(persist.state_to_json(after)) == after


def _list_together(state: GameState) -> list[tuple[Action, ...]]:
    """What two threads get who list ``state`` at the same moment."""
    answers: list[tuple[Action, ...]] = []
    start = threading.Barrier(2)

    def ask() -> None:
        start.wait()
        answers.append(legal_actions(state))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_threads_listing_one_state_agree() -> None:
    for state, _ in positions("source-d-transfer", 6, 11)[::5]:
        fresh = anew(state)
        expected = legal_actions(anew(state))
        answers = _list_together(fresh)
        assert answers == [expected, expected]
        assert fresh._legal in answers
        for action in expected:  # either listing kept, its actions pass without a check
            check(fresh, action)
            assert advance(fresh, action) == advance(anew(fresh), action)


def test_an_engine_that_loads_a_position_keeps_an_object_of_its_own() -> None:
    """The memo belongs to one object: the reference engine loads an equal state of its
    own, so its listing (patched code in a broken copy, say) never fills the caller's."""
    from durak_spec.protocol import ReferenceEngine

    state = new_game(profile("classic-throw-in").rules(players=2), seed=3)
    engine = ReferenceEngine()
    engine.load(state)
    assert engine.legal_actions() == legal_actions(new_game(state.rules, seed=3))
    assert engine.state == state and engine.state is not state
    assert state._legal is None
