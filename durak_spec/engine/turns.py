"""The bout protocol: who may act now, saying done, and when a bout is settled
(CLAR-3, ATTACK-5, TAKE-3).

The sources say that the attack ends when the attackers pass ("done", "beaten") and that
the bout is a successful defence once every attack card is covered and no one adds more
(ATTACK-5: A, B), that attackers may still add cards after a take is announced (TAKE-3:
A, B), and that several players may throw in (ATTACK-4); none says in which order
several players act. The specification decides (CLAR-3), as at a real table:

* between bouts only the attacker acts: they open the bout (or exchange the trump six
  first, where VAR-1 allows);
* after the opening, the defender and every player allowed to throw in act in any order,
  first come first served;
* an attacker says done only once every attack card is covered or the defender has
  announced a take; a done stands until the defender moves again (a cover, a transfer
  or a take), and until then that player adds nothing;
* a player who has no card they may add is never asked: they need not say done;
* the bout is settled as soon as every attack card is covered (or a take is announced)
  and every attacker who could still add a card has said done.

This module is the one place where the protocol lives: the rule modules say what may be
played (which cards cover, which ranks may be added, who may throw in at all, the
limits); the protocol says who may play it now. A second protocol (a turn-based one, for
instance) is a switch of the rule set read here, and nowhere else.
"""

from __future__ import annotations

from durak_spec.core.cards import Rank
from durak_spec.engine.attack import table_ranks, thrower_breach, throwers
from durak_spec.engine.breach import Breach
from durak_spec.engine.limits import attack_limit
from durak_spec.model.actions import Action, Cover, Done, Take, ThrowIn, Transfer
from durak_spec.model.events import Event
from durak_spec.model.state import GameState

__all__ = [
    "acting_seats",
    "bout_settled",
    "defender_to_move",
    "done",
    "passed_after",
    "pending",
    "protocol_breach",
    "quiet",
]

_NOBODY: frozenset[int] = frozenset()


def defender_to_move(state: GameState) -> bool:
    """Whether the defender has a move now: some attack card is uncovered and no take is
    announced (CLAR-3, CLAR-4)."""
    if state.taking:
        return False
    for pair in state.table:  # noqa: SIM110 - a plain loop: this runs for every position
        if pair.cover is None:
            return True
    return False


def quiet(state: GameState) -> bool:
    """Whether the defender has nothing left to do in the bout in play: every attack card
    is covered, or a take is announced; only then do attackers say done (CLAR-3)."""
    return bool(state.table) and not defender_to_move(state)


def pending(state: GameState, ranks: frozenset[Rank] | None = None) -> tuple[int, ...]:
    """The attackers who may still add a card and have not said done (CLAR-3): seats
    allowed to throw in (ATTACK-4) holding a card of a rank on the table (ATTACK-3,
    ``ranks`` if the caller has them: :func:`table_ranks`), while the bout has room for
    another attack card (LIMIT-*)."""
    table = state.table
    if not table:
        return ()
    if ranks is None:
        ranks = table_ranks(table)
    passed, hands = state.passed, state.hands
    found: list[int] = []
    for seat in throwers(state):
        if seat not in passed:
            for card in hands[seat]:
                if card.rank in ranks:
                    found.append(seat)
                    break
    if not found or len(table) >= attack_limit(state)[0]:
        return ()
    return tuple(found)


def bout_settled(state: GameState) -> bool:
    """ATTACK-5: whether the bout in play is over: nothing is left for the defender to do
    and no attacker may still add a card."""
    return bool(state.table) and not defender_to_move(state) and not pending(state)


def acting_seats(state: GameState) -> tuple[int, ...]:
    """The seats that have a legal action now, in seat order: between bouts the attacker;
    in a bout the defender while they have a move, and every attacker still pending."""
    if state.is_over:
        return ()
    if not state.table:
        return (state.attacker,)
    seats = set(pending(state))
    if defender_to_move(state):
        seats.add(state.defender)
    return tuple(sorted(seats))


def protocol_breach(state: GameState, action: Action | None = None) -> Breach | None:
    """CLAR-3, ATTACK-5: attackers say done once the defender has nothing left to do and
    only while they could add a card; a done stands until the defender's next move; the
    defender never says done.

    With ``action``: whether the protocol lets it be made now (the referee asks about
    every action; this protocol has something to say about throw-ins and dones, the
    kinds of action whose timing it decides). Without: whether the position's record of
    who said done fits the protocol, and its bout is not already over.
    """
    if action is None:
        if any(seat == state.defender for seat in state.passed):
            return Breach("CLAR-3", "only attackers can have said done")
        if state.table and bout_settled(state):
            return Breach("ATTACK-5", "this bout is already over: every attack card is "
                          + ("taken" if state.taking else "covered")
                          + " and no attacker can add a card")
        return None
    seat = action.player
    if isinstance(action, ThrowIn):
        if seat in state.passed:
            return Breach("CLAR-3", f"P{seat} said done; they may add cards again only "
                          "after the defender's next move")
        return None
    if not isinstance(action, Done):
        return None
    if seat == state.defender:
        return Breach("ATTACK-5", "the defender does not say done: they cover, transfer or "
                      "take")
    breach = thrower_breach(state, seat)
    if breach is not None:
        return breach
    if not quiet(state):
        return Breach("CLAR-3", "done is said once every attack card is covered; the "
                      "defender is still to move")
    if seat in state.passed:
        return Breach("CLAR-3", f"P{seat} has already said done")
    if seat not in pending(state):
        return Breach("CLAR-3", f"P{seat} has no card to add and is not asked")
    return None


def passed_after(state: GameState, action: Action) -> frozenset[int]:
    """CLAR-3: who has said done once ``action`` is made: a done adds its player; the
    defender's move (a cover, a transfer, a take) wipes the slate; a card thrown in
    changes nothing."""
    if isinstance(action, Done):
        return state.passed | {action.player}
    if isinstance(action, (Cover, Transfer, Take)):
        return _NOBODY
    return state.passed


def done(state: GameState, action: Done, events: list[Event]) -> GameState:
    """The state after an attacker says done."""
    return state.replace(passed=passed_after(state, action))

