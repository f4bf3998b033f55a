"""Who acts when: the table protocol of the simulations and the terminal game.

Between bouts the attacker opens; during a bout the defender acts first whenever they have
a move, then the players who may throw in, from the attacker clockwise.
"""

from __future__ import annotations

from durak_spec.engine import legal_actions
from durak_spec.model.state import GameState


def acting_seat(state: GameState) -> int | None:
    """The seat that acts next under the simulations' table protocol, ``None`` at the end.

    Between bouts the attacker; in a bout the defender while they have a move, then the
    throwers from the attacker clockwise (see the module docstring).
    """
    actions = legal_actions(state)
    if not actions:
        return None
    seats = {a.player for a in actions}
    if state.table and state.defender in seats:
        return state.defender
    n = len(state.hands)
    for step in range(n):
        seat = (state.attacker + step) % n
        if seat in seats:
            return seat
    return actions[0].player  # pragma: no cover - every acting seat is found above
