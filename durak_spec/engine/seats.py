"""Who sits next to whom: ORDER-3, ORDER-6, CLAR-22, CLAR-23.

Seats are numbered clockwise from 0, and "the next player" is the one to the left, seat
+ 1, round the table. The defender is the attacker's next player (ORDER-3: A, C, D), and
players who are out are passed over whenever the next attacker or defender is found
(ORDER-6, a clarification, CLAR-15). A player who plays out their hand during a bout,
the stock being empty, is out when the bout ends (END-1); whether a transfer in that
bout already passes them over is the rule set's ``transfer_target``: no (CLAR-22), or
yes (CLAR-23).
"""

from __future__ import annotations

from collections.abc import Container

from durak_spec.engine.breach import Breach
from durak_spec.model.state import GameState

__all__ = ["next_in_game", "passed_over", "roles_breach", "target_breach",
           "transfer_target_rule"]


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


def transfer_target_rule(state: GameState) -> str:
    """The clarification that says whether a transfer passes over a player who has just
    played out their hand, under the rule set's ``transfer_target`` (CLAR-22, CLAR-23)."""
    if state.rules.transfer_target == "next-with-cards":
        return "CLAR-23"
    return "CLAR-22"


def passed_over(state: GameState) -> frozenset[int]:
    """CLAR-22, CLAR-23: the seats passed over when the attack moves on in the bout in
    play (a transfer, TRANSFER-1): the players out of the game (ORDER-6); under
    ``transfer_target`` next-with-cards, once the stock is empty, also every player but
    the defender who has played out their hand (CLAR-23). While the stock lasts, a
    player without cards draws again and stays in (END-2: B), under either value."""
    out = state.out
    if state.stock or transfer_target_rule(state) == "CLAR-22":
        return out
    hands, defender = state.hands, state.defender
    empty = [seat for seat in range(len(hands))
             if not hands[seat] and seat != defender and seat not in out]
    return out | frozenset(empty) if empty else out


def target_breach(state: GameState, target: int) -> Breach | None:
    """CLAR-23: where a transfer passes over the players who have just played out their
    hands, someone besides the defender must still hold cards to take the attack on
    (``target`` is where :func:`next_in_game` past :func:`passed_over` arrives)."""
    if target != state.defender:
        return None
    return Breach("CLAR-23", "every other player has played out their hand: nobody is left "
                  "to pass the attack to")


def roles_breach(state: GameState) -> Breach | None:
    """ORDER-3, ORDER-6: the attacker, the defender and the opener are still in the game,
    and the defender is the attacker's next player among those still in it (under
    ``transfer_target`` next-with-cards, among those a transfer does not pass over:
    CLAR-23)."""
    out = state.out
    for role, seat in (("attacker", state.attacker), ("defender", state.defender),
                       ("opener", state.opener)):
        if seat in out:
            return Breach("ORDER-6", f"the {role} P{seat} is already out")
    if state.attacker == state.defender:
        return Breach("ORDER-3", f"P{state.attacker} cannot attack themselves")
    expected = next_in_game(state.attacker, len(state.hands), passed_over(state))
    if state.defender != expected:
        return Breach("ORDER-3", f"the defender must be the next player in the game after "
                      f"the attacker P{state.attacker}, that is P{expected}, "
                      f"not P{state.defender}")
    return None
