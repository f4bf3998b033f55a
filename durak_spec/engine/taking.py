"""Taking the cards: TAKE-1, CLAR-4.

Instead of beating, the defender may take, whether unable or unwilling to beat (TAKE-1:
A, C). The specification decides when: a take is announced while some attack card is
still uncovered, and from then on the defender does nothing more in the bout (CLAR-4).
The attackers may still add cards after the announcement, within the limit (TAKE-3: A,
B; the bout protocol of :mod:`durak_spec.engine.turns`), and when the bout ends the
defender takes every card on the table (TAKE-2) and does not attack next (TAKE-4, see
:mod:`durak_spec.engine.bout_end`).
"""

from __future__ import annotations

from durak_spec.engine.breach import Breach
from durak_spec.engine.tables import TAKES
from durak_spec.model.actions import Action, Take, Transfer
from durak_spec.model.events import Event
from durak_spec.model.state import GameState, replace

__all__ = ["take", "take_breach", "takes"]


def take_breach(state: GameState, action: Action | None = None) -> Breach | None:
    """TAKE-1, CLAR-4: only the defender takes, while an attack card is uncovered, and
    after announcing it makes no other move in the bout.

    With ``action`` (a take, or another move of the defender): whether it may be made.
    Without: whether the position's announced take is one that could be made.
    """
    if action is None:
        if state.taking and _all_covered(state):
            return Breach("CLAR-4", "a take is announced but every attack card is covered")
        return None
    if isinstance(action, Take):
        if action.player != state.defender:
            return Breach("TAKE-1", f"only the defender P{state.defender} can take")
        if state.taking:
            return Breach("CLAR-4", "the defender has already announced a take")
        for pair in state.table:  # a plain loop: the listing asks this whenever the
            if pair.cover is None:  # defender moves
                return None
        return Breach("CLAR-4", "every attack card is covered: there is nothing to take")
    if state.taking and action.player == state.defender:
        move = "transfer" if isinstance(action, Transfer) else "cover"
        return Breach("CLAR-4", f"the defender has announced a take and cannot {move} now")
    return None


def _all_covered(state: GameState) -> bool:
    for pair in state.table:  # noqa: SIM110 - a plain loop: this runs for every position
        if pair.cover is None:
            return False
    return True


def take(state: GameState, action: Take, events: list[Event]) -> GameState:
    """The state after the defender announces a take: the cards are taken when the bout
    ends (TAKE-2)."""
    return replace(state, taking=True)


def takes(state: GameState) -> list[Action]:
    """The defender's take, if they may announce one now."""
    action = TAKES[state.defender]
    return [action] if take_breach(state, action) is None else []
