"""The engine keeps no state between calls, so games played in parallel threads never see
each other's actions (issue 12, item 9).

The engine once kept the last answer of ``legal_actions`` in module globals, which
``apply`` trusted without checking and the next call could hand to another game. Here
three threads play three different games with a thread switch forced as often as the
interpreter allows, and one thread plays them interleaved call by call; every answer must
equal the answer of the same game played alone. (Under CPython's global interpreter lock
a switch cannot fall between two bytecodes without a call, which is where the old race
lay; that no engine module keeps mutable state at all is checked by
``tests/test_layers.py``.)
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator

import pytest

from durak_spec import Action, GameState, apply, legal_actions, new_game, profile
from durak_spec.engine import advance

GAMES = (("classic-transfer", 4, 3), ("classic-throw-in", 2, 8), ("source-d-transfer", 6, 5))
ROUNDS = 4


Trail = list[tuple[GameState, tuple[Action, ...], int]]


def alone(name: str, players: int, seed: int) -> Trail:
    """Every position of a seeded random game, its legal actions and the index of the one
    played, played in one thread."""
    state = new_game(profile(name).rules(players=players), seed=seed)
    rng = random.Random(seed)
    trail: Trail = []
    while True:
        actions = legal_actions(state)
        chosen = rng.randrange(len(actions)) if actions else -1
        trail.append((state, actions, chosen))
        if not actions:
            return trail
        state = apply(state, actions[chosen])


@pytest.fixture
def switch_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@pytest.mark.usefixtures("switch_often")
def test_games_in_parallel_threads_never_see_each_others_actions() -> None:
    expected = [alone(*game) for game in GAMES]
    failures: list[str] = []

    def replay(index: int) -> None:
        trail = expected[index]
        for _ in range(ROUNDS):
            state = trail[0][0]
            for step, (position, actions, chosen) in enumerate(trail):
                if state != position:
                    failures.append(f"game {index}, step {step}: another position")
                    return
                listed = legal_actions(state)
                if listed != actions:
                    failures.append(f"game {index}, step {step}: listed {listed}, "
                                    f"alone {actions}")
                    return
                if not listed:
                    break
                state = advance(state, listed[chosen]).state

    threads = [threading.Thread(target=replay, args=(i,)) for i in range(len(GAMES))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, "\n".join(failures)
    assert all(len(trail) > 50 for trail in expected)


def test_games_played_call_by_call_in_turn_do_not_mix() -> None:
    expected = [alone(*game) for game in GAMES]
    states = [trail[0][0] for trail in expected]
    longest = max(len(trail) for trail in expected)
    for step in range(longest):
        listings = [legal_actions(state) for state in states]  # all games asked first ...
        for index, trail in enumerate(expected):  # ... then each one played
            if step >= len(trail):
                continue
            position, actions, chosen = trail[step]
            assert states[index] == position and listings[index] == actions, (index, step)
            if actions:
                states[index] = advance(states[index], listings[index][chosen]).state
