"""Probes: seeded near misses, actions the reference rejects, that the engine must reject
without changing its state."""


from __future__ import annotations

import random
from collections.abc import Sequence

from durak_spec.core.cards import DECK
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
)
from durak_spec.model.state import GameState

_PROBE_TRIES = 8


def _near_miss(state: GameState, rng: random.Random) -> Action:
    """A seeded action of a player still in that is often, but not always, illegal now: a
    card played out of turn or of the wrong rank, a cover that does not beat, a card the
    player does not hold, a transfer the rules forbid, a take or a done out of turn."""
    rules = state.rules
    seat = rng.choice(state.in_game())
    hand = state.hands[seat]
    kind = rng.randrange(8)
    if kind == 0:
        return Take(seat)
    if kind == 1:
        return Done(seat)
    if kind == 2 and rules.trump_exchange:
        return ExchangeTrump(seat)
    if kind in (3, 4) and state.table:
        attack = rng.choice(state.table).attack
        card = rng.choice(hand) if hand and kind == 3 else rng.choice(DECK)
        return Cover(seat, attack, card)
    card = rng.choice(hand) if hand and kind != 5 else rng.choice(DECK)
    if kind == 6 and rules.transfer:
        return Transfer(seat, card, show=rules.transfer_by_showing_trump and rng.random() < 0.3)
    if kind == 7 or not state.table:
        return Open(seat, (card,))
    return ThrowIn(seat, card)


def pick_probe(state: GameState, legal: Sequence[Action], rng: random.Random
                ) -> Action | None:
    """A seeded near miss that the reference rejects (``None`` if every try was legal)."""
    for _ in range(_PROBE_TRIES):
        action = _near_miss(state, rng)
        if action not in legal:
            return action
    return None
