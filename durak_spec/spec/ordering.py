"""The moves of a scenario, in the order a turn-based bout protocol asks for them.

A scenario written for the free bout protocol (CLAR-3) lists its moves as they happen at
a real table: Gleb throws in, Vera throws in, then Boris covers both. Under a turn-based
protocol (``opener-first``, CLAR-17; ``last-thrower``, CLAR-18) one seat acts at a time:
the defender answers each card before anybody adds another, and the attackers are asked
one after the other. The same moves can still be made, only in another order, and with
the attackers asked before a thrower passing first. So that the same Gherkin runs under
every protocol, the step library keeps the moves of consecutive ``When`` steps in a
queue and plays them as the protocol asks for them (:func:`next_move`):

* the first queued move is played as soon as the protocol lets its player act, and also
  whenever it breaks a rule other than the turn (the scenario expects that rejection);
* while the defender is to move, a thrower's card waits for the defender's next queued
  answer (the defender answers first; their answer also ends the thrower's done);
* while another attacker is asked, that attacker says done (their own queued done, or one
  the protocol asks for: at the free table they would simply not act), as long as the
  asking then comes round to the waiting thrower.

A move that cannot be brought into turn so waits for the next ``When`` step; before any
other step the queue is played out in the order written, so a move the protocol refuses
is judged as written. Who may act is the reference's decision
(:func:`~durak_spec.engine.turns.to_act`); the engine under test is then judged on the
moves so ordered. Scenarios that name their bout protocol take their moves literally.
"""

from __future__ import annotations

from collections.abc import Sequence

from durak_spec.engine import apply, broken_rule, defender_to_move, to_act, turn_rule
from durak_spec.model.actions import Action, Cover, Done, Take, ThrowIn, Transfer
from durak_spec.model.state import GameState

__all__ = ["next_move"]

_ANSWERS = (Cover, Take, Transfer)
"""The defender's moves: they answer the attack cards (and wipe the attackers' dones)."""


def next_move(state: GameState, queue: Sequence[Action]) -> int | Done | None:
    """What to play next of ``queue`` in ``state`` (the reference's position): the index
    of the queued move to play, a done that the protocol asks of an attacker before the
    first queued move's turn comes, or ``None`` when the first queued move must wait for
    moves not queued yet. Under the free protocol (CLAR-3) always the first move."""
    if not queue:
        return None
    head = queue[0]
    rule = turn_rule(state)
    if rule is None:
        return 0
    try:
        breach = broken_rule(state, head)
    except ValueError:  # not an action of this game: the engine judges it as written
        return 0
    if breach is None:
        return 0
    # out of turn, or a thrower whose done stands until the defender's next move
    waiting = breach.rule == rule or (isinstance(head, ThrowIn) and head.player in state.passed)
    if not waiting:
        return 0
    if defender_to_move(state):
        for index, move in enumerate(queue[1:], 1):
            if move.player == state.defender and isinstance(move, _ANSWERS) and \
                    broken_rule(state, move) is None:
                return index
        return None
    return _pass_to(state, head, queue)


def _pass_to(state: GameState, head: Action, queue: Sequence[Action]) -> int | Done | None:
    """The first done that brings the asking round to ``head``'s player, if the attackers
    asked before them saying done does (their own queued done, where there is one)."""
    first: int | Done | None = None
    current = state
    for _ in range(len(state.hands)):
        asked = to_act(current)
        if asked is None:
            return None
        if asked == head.player:
            return first if broken_rule(current, head) is None else None
        done = Done(asked)
        if broken_rule(current, done) is not None:
            return None
        if first is None:
            first = queue.index(done) if done in queue else done
        current = apply(current, done)
    return None
