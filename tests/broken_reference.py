"""A broken copy of the reference engine, served on the JSON-lines protocol: one rule
function of ``durak_spec.engine`` has its code swapped for a broken version (as
``test_mutations.py`` does in-process), so that lockstep can play it against the unbroken
reference in the checker's process.

    python tests/broken_reference.py RULE [--no-events]

``RULE`` names the break (a key of :data:`BREAKS`; END-2: a player out before the
drawing); ``--no-events`` serves an engine that does not tell the events of a step
(capability ``events`` off), as most engines.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_mutations import _always_clockwise, _taker_attacks
from test_perft_rules import _out_before_drawing

from durak_spec.core.cards import Card
from durak_spec.engine import bout_end, draw, limits
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState
from durak_spec.protocol import Accepted, Capabilities, ReferenceEngine, Verdict
from durak_spec.protocol.serve import serve


def _five_in_every_bout(state: GameState) -> tuple[int, str]:
    # limits.bout_cap with the five-card limit of the first bout in every bout (LIMIT-3).
    if state.rules.first_bout_limit_five:
        return FIRST_BOUT_MAX_ATTACK_CARDS, "LIMIT-3"  # type: ignore[name-defined]  # noqa: F821
    return MAX_ATTACK_CARDS, "LIMIT-1"  # type: ignore[name-defined]  # noqa: F821


def _a_durak_at_a_draw(hands: Any, stock: tuple[Card, ...], out: Any) -> tuple[int, ...]:
    # bout_end.going_out without END-4: when the last players go out together, the last
    # of them is kept in the game, the durak with an empty hand.
    if stock:
        return ()
    gone = tuple([seat for seat in range(len(hands)) if seat not in out and not hands[seat]])
    if gone and len(out) + len(gone) >= len(hands):
        return gone[:-1]
    return gone


BREAKS: dict[str, tuple[Callable[..., object], Callable[..., object]]] = {
    "ORDER-5": (bout_end.next_roles, _taker_attacks),
    "DRAW-2": (draw.draw_order, _always_clockwise),
    "LIMIT-3": (limits.bout_cap, _five_in_every_bout),
    "END-4": (bout_end.going_out, _a_durak_at_a_draw),
    "END-2": (bout_end.end_bout, _out_before_drawing),
}


class Silent(ReferenceEngine):
    """The reference, telling no events (capability ``events`` off)."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), events=False)

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        return Accepted() if isinstance(verdict, Accepted) else verdict


def main() -> int:
    rule, *flags = sys.argv[1:]
    target, broken = BREAKS[rule]
    target.__code__ = broken.__code__  # type: ignore[attr-defined]
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline="\n")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    serve(Silent() if "--no-events" in flags else ReferenceEngine(), stdin, stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
