"""Who sits next to whom: ORDER-3 and ORDER-6.

Seats are numbered clockwise from 0, and "the next player" is the one to the left, seat
+ 1, round the table. The defender is the attacker's next player (ORDER-3: A, C, D), and
players who are out are passed over whenever the next attacker or defender is found
(ORDER-6, a clarification, CLAR-15).
"""

from __future__ import annotations

from collections.abc import Container

from durak_spec.engine.breach import Breach
from durak_spec.model.state import GameState

__all__ = ["next_in_game", "roles_breach"]


def next_in_game(seat: int, players: int, out: Container[int] = ()) -> int:
    """The next seat to the left of ``seat`` whose player is still in the game (ORDER-3,
    ORDER-6); ``seat`` itself if nobody else is.

    >>> next_in_game(1, 4), next_in_game(3, 4), next_in_game(1, 4, out={2})
    (2, 0, 3)
    """
    for step in range(1, players):
        candidate = (seat + step) % players
        if candidate not in out:
            return candidate
    return seat


def roles_breach(state: GameState) -> Breach | None:
    """ORDER-3, ORDER-6: the attacker, the defender and the opener are still in the game,
    and the defender is the attacker's next player among those still in it."""
    out = state.out
    for role, seat in (("attacker", state.attacker), ("defender", state.defender),
                       ("opener", state.opener)):
        if seat in out:
            return Breach("ORDER-6", f"the {role} P{seat} is already out")
    if state.attacker == state.defender:
        return Breach("ORDER-3", f"P{state.attacker} cannot attack themselves")
    expected = next_in_game(state.attacker, len(state.hands), out)
    if state.defender != expected:
        return Breach("ORDER-3", f"the defender must be the next player in the game after "
                      f"the attacker P{state.attacker}, that is P{expected}, "
                      f"not P{state.defender}")
    return None
