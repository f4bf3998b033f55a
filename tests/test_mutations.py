"""The specification catches a broken rule: mutate one rule of the reference implementation
and the scenarios of that rule fail, while the unbroken engine passes them.

Each mutation replaces one function of durak_spec.engine for the duration of the test (the
reference engine, the step library and the runner all run in this process).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from durak_spec import engine
from durak_spec.core.cards import Card, Suit
from durak_spec.model.state import GameState
from durak_spec.spec.runner import run


def _ignore_trumps(card: Card, attack: Card, trump: Suit) -> bool:
    # Broken BEAT-2/3: only a higher card of the same suit beats; trumps are nothing special.
    return card.suit == attack.suit and card.rank > attack.rank


def _no_capacity_check(original: Callable[[GameState], list[engine.Action]]
                       ) -> Callable[[GameState], list[engine.Action]]:
    # Broken TRANSFER-3: a transfer is offered whatever the next player holds.
    def transfers(state: GameState) -> list[engine.Action]:
        target = engine._new_defender_for_transfer(state)
        padded = state._replace(hands=tuple(h if seat != target else h + (h[0],) * 6
                                            for seat, h in enumerate(state.hands)))
        return original(padded) if padded.hands[target] else original(state)
    return transfers


@pytest.mark.parametrize(("rule", "patch"), [
    ("BEAT-2", lambda mp: mp.setattr(engine, "beats", _ignore_trumps)),
    ("EX-7", lambda mp: mp.setattr(engine, "beats", _ignore_trumps)),
    ("TRANSFER-3", lambda mp: mp.setattr(engine, "_transfers",
                                         _no_capacity_check(engine._transfers))),
])
def test_a_broken_rule_fails_its_scenarios(rule: str, patch: Callable[[pytest.MonkeyPatch], None],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(rules=[rule]).ok, f"the reference must pass {rule} before it is broken"
    patch(monkeypatch)
    broken = run(rules=[rule])
    failed = broken.with_outcome("failed", "errored")
    assert failed, f"breaking {rule} in the engine made none of its scenarios fail"
    assert all(rule in result.rule_ids for result in failed)
