"""A subprocess engine kept from scenario to scenario by the checker, started again after
a failure, and given up after repeated time-outs."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO, TypeVar

from durak_spec.core.cards import Card
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol import Capabilities, Report, Verdict
from durak_spec.protocol.subprocess_engine import EngineFailure, SubprocessEngine

__all__ = ["MAX_TIMEOUTS", "KeptEngine"]

_T = TypeVar("_T")

MAX_TIMEOUTS = 3
"""After this many scenarios that ended in a time-out, the remaining ones are skipped."""


class KeptEngine:
    """One engine process for every scenario: ``close`` after a scenario keeps it running,
    and :meth:`fresh` starts it again if a failure (or its own exit) stopped it.

    An engine that hangs would cost the time limit in every scenario (half an hour for the
    whole specification): after :data:`MAX_TIMEOUTS` scenarios that ended in a time-out,
    :meth:`fresh` skips every remaining scenario with that reason. They need not come in a
    row: an engine that hangs on its fifth request passes the short scenarios in between,
    and a healthy engine never needs the time limit (5 s a request by default).
    """

    def __init__(self, engine: SubprocessEngine, *, max_timeouts: int = MAX_TIMEOUTS,
                 err: TextIO | None = None) -> None:
        self.engine = engine
        self.restarts = 0
        self.timeouts = 0
        self.max_timeouts = max_timeouts
        self.err = err if err is not None else sys.stderr  # the scenarios' runner captures
        self.gave_up = ""
        self.timed_out = False

    def fresh(self) -> KeptEngine:
        """This engine for the next scenario, its process started again if it is not
        running; after too many time-outs, a skip of the scenario."""
        if self.timed_out:  # the previous scenario ended in a time-out
            self.timeouts += 1
        self.timed_out = False
        if self.timeouts >= self.max_timeouts:
            if not self.gave_up:
                limits = f"--timeout {self.engine.timeout:g} s"
                if self.engine.start_timeout is not None:
                    limits += f", --start-timeout {self.engine.start_timeout:g} s"
                self.gave_up = (f"not run: the engine did not answer in time ({limits}) in "
                                f"{self.timeouts} scenarios, so the rest were skipped")
                self.err.write(f"\ndurak-spec check: {self.gave_up}\n")
                self.err.flush()
            import pytest  # the scenario runner takes a skip as the factory's way to say so

            pytest.skip(self.gave_up)
        if not self.engine.running:
            self.restarts += 1
            self.engine.restart()
        return self

    def _answer(self, call: Callable[[], _T]) -> _T:
        try:
            return call()
        except EngineFailure as failure:
            if failure.kind == "timeout":
                self.timed_out = True
            raise

    def capabilities(self) -> Capabilities:
        return self._answer(self.engine.capabilities)

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        return self._answer(lambda: self.engine.start(rules, deck, seed))

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        return self._answer(lambda: self.engine.start_later(rules, deck, seed, previous))

    def start_for(self, players: int, rules: RuleSet, deck: Sequence[Card],
                  seed: int = 0) -> Report:
        return self._answer(lambda: self.engine.start_for(players, rules, deck, seed))

    def load(self, state: GameState) -> Report:
        return self._answer(lambda: self.engine.load(state))

    def legal_actions(self) -> tuple[Action, ...]:
        return self._answer(self.engine.legal_actions)

    def apply(self, action: Action) -> Verdict:
        return self._answer(lambda: self.engine.apply(action))

    def report(self) -> Report:
        return self._answer(self.engine.report)

    def close(self) -> None:
        """The scenario is over; the process stays for the next one."""

    def shutdown(self) -> None:
        """Stop the process for good."""
        self.engine.close()
