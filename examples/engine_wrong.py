"""A deliberately wrong Durak engine: it forgets the transfer capacity check (TRANSFER-3).

In the transfer game the defender may pass the attack on to the next player by adding a
card of the attack's rank, but only if that player holds enough cards to face every
attack card then on the table (TRANSFER-3). This engine forgets that check: it lists and
accepts such transfers even when the next player holds too few cards. Everything else is
the reference implementation, and it keeps its own state consistent after a wrong
transfer (the table grows, the roles move on), so the game goes on from there.

It exists to show what the checker reports for a wrong engine (see
``engine_wrong_report.txt`` beside this file)::

    durak-spec check --engine "python examples/engine_wrong.py"
    durak-spec check --engine "python examples/engine_wrong.py" --random 20 \\
        --profile classic-transfer

Run as a script it speaks the JSON-lines protocol on standard input and output (served
by :func:`durak_spec.protocol.serve.serve`; ``engine_reference.py`` shows the protocol by hand).
Imported, :class:`WrongEngine` is an in-process :class:`durak_spec.protocol.Engine`.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence

from durak_spec import Action, Card, GameState, Outcome, RuleSet, Transfer, new_game
from durak_spec.core.errors import IllegalAction
from durak_spec.engine import apply, check, legal_actions, validate_state
from durak_spec.model.state import Pair
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    ReferenceEngine,
    Rejected,
    Report,
    Verdict,
)
from durak_spec.protocol.serve import serve


def _next_in_game(state: GameState, seat: int) -> int:
    out = state.out
    n = len(state.hands)
    for step in range(1, n + 1):
        if (seat + step) % n not in out:
            return (seat + step) % n
    return seat


def forgotten_transfers(state: GameState) -> tuple[Transfer, ...]:
    """The transfers this engine allows although TRANSFER-3 forbids them: the attack could
    be passed on by every other rule, but the next player holds too few cards."""
    rules = state.rules
    table = state.table
    if not rules.transfer or not table or state.taking:
        return ()
    if any(pair.cover is not None for pair in table):
        return ()  # TRANSFER-5 is still checked
    rank = table[0].attack.rank
    if any(pair.attack.rank != rank for pair in table):
        return ()  # TRANSFER-2 is still checked
    count = len(table) + 1
    room = 5 if rules.first_bout_limit_five and state.bout == 0 else 6
    if count > room:
        return ()  # TRANSFER-4 and LIMIT-3 are still checked
    target = _next_in_game(state, state.defender)
    if len(state.hands[target]) >= count:
        return ()  # enough cards: the reference allows these transfers itself
    defender = state.defender
    return tuple(Transfer(defender, card) for card in state.hands[defender]
                 if card.rank == rank)


def _transfer(state: GameState, action: Transfer) -> GameState:
    """Play a transfer the way the rules would, had it been legal."""
    seat = action.player
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != action.card)
    known = list(state.known)
    known[seat] = known[seat] - {action.card}
    return state._replace(
        hands=tuple(hands), table=(*state.table, Pair(action.card)), attacker=seat,
        defender=_next_in_game(state, seat), passed=frozenset(),
        joined=state.joined if seat in state.joined else (*state.joined, seat),
        known=tuple(known))


class WrongEngine:
    """The reference engine, minus the transfer capacity check (TRANSFER-3)."""

    def __init__(self) -> None:
        self._state: GameState | None = None

    @property
    def state(self) -> GameState:
        if self._state is None:
            raise RuntimeError("no game: send start first")
        return self._state

    def capabilities(self) -> Capabilities:
        claims = ReferenceEngine().capabilities()  # every profile, every axis but one:
        # its own transfers go to the next player still in (CLAR-22), never past a player
        # who has just played out their hand (CLAR-23), so it claims only that reading
        axes = {**claims.axes, "transfer_target": ("next-in-game",)}
        return Capabilities(name="engine_wrong (forgets TRANSFER-3)", version="1",
                            profiles=claims.profiles, load=True, axes=axes)

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self._state = new_game(rules, deck=deck, seed=seed)
        return Report.of(self._state)

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        # A later game of a match: who leads depends on the last outcome (ORDER-7).
        self._state = new_game(rules, deck=deck, seed=seed, previous=previous)
        return Report.of(self._state)

    def load(self, state: GameState) -> Report:
        self._state = validate_state(state)
        return Report.of(self._state)

    def legal_actions(self) -> tuple[Action, ...]:
        state = self.state
        return legal_actions(state) + forgotten_transfers(state)

    def apply(self, action: Action) -> Verdict:
        state = self.state
        if isinstance(action, Transfer) and action in forgotten_transfers(state):
            self._state = _transfer(state, action)  # the bug: no TRANSFER-3 check
            return Accepted()
        try:
            check(state, action)
        except IllegalAction as error:
            return Rejected(error.reason, error.rule)
        self._state = apply(state, action)
        return Accepted()

    def report(self) -> Report:
        return Report.of(self.state)

    def close(self) -> None:
        self._state = None


def main() -> int:
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline="\n")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    serve(WrongEngine(), stdin, stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
