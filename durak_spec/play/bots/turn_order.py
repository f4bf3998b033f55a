"""Who acts when: the table protocol of the simulations and the terminal game.

Between bouts the attacker opens; during a bout the defender acts first whenever they have
a move, then the players who may throw in, from the attacker clockwise.
"""

from __future__ import annotations

from durak_spec.engine import legal_actions
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState


def acting_seat(state: GameState) -> int | None:
    """The seat that acts next under the simulations' table protocol, ``None`` at the end.

    Between bouts the attacker; in a bout the defender while they have a move, then the
    throwers from the attacker clockwise (see the module docstring).
    """
    turn = acting_moves(state)
    return None if turn is None else turn[0]


def acting_moves(state: GameState) -> tuple[int, tuple[Action, ...]] | None:
    """The seat that acts next (as :func:`acting_seat`) and its legal actions, in
    ``legal_actions`` order; ``None`` at the end. One listing for both, for simulations
    that need the two at every step."""
    actions = legal_actions(state)
    if not actions:
        return None
    seats = {a.player for a in actions}
    seat = actions[0].player
    if state.table and state.defender in seats:
        seat = state.defender
    else:
        n = len(state.hands)
        for step in range(n):
            candidate = (state.attacker + step) % n
            if candidate in seats:
                seat = candidate
                break
    if len(seats) == 1:
        return seat, actions
    return seat, tuple(a for a in actions if a.player == seat)
