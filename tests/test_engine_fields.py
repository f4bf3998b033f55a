"""The engine's hot path builds states positionally, in the order of GameState's fields.

If a field is added, removed or moved, this test fails first and points at engine._play
and engine._end_bout, which must be updated together with it.
"""

from __future__ import annotations

import random

from durak_spec import apply, legal_actions, new_game, profile
from durak_spec.model.state import GameState

FIELDS = (
    "rules", "hands", "stock", "trump", "table", "discard", "attacker", "defender", "opener",
    "bout", "taking", "passed", "joined", "start_hands", "shown", "known", "finished",
)


def test_the_field_order_the_hot_path_relies_on() -> None:
    assert GameState._fields == FIELDS, (
        "GameState's fields changed: update the positional state building in "
        "durak_spec/engine.py (_play, _end_bout) and FIELDS here")


def test_positional_states_keep_every_field_typed() -> None:
    # Every state the hot path builds has the right type in every field.
    rules = profile("classic-transfer").rules(players=3)
    state = new_game(rules, seed=11)
    rng = random.Random(11)
    kinds = {name: type(getattr(state, name)) for name in FIELDS}
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        for name in FIELDS:
            assert isinstance(getattr(state, name), kinds[name]), name
