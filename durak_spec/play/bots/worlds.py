"""Guessing the cards a seat cannot see: full positions consistent with its view
(:func:`sample_world`), for the players that search (determinization)."""

from __future__ import annotations

import random

from durak_spec.core.cards import DECK, Card
from durak_spec.engine import legal_actions
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState
from durak_spec.play.bots.knowledge import Memory, infer


def moves_of(state: GameState, seat: int) -> tuple[Action, ...]:
    """The legal actions of ``seat`` in ``state``, in ``legal_actions`` order (VIEW-3)."""
    return tuple(a for a in legal_actions(state) if a.player == seat)


def sample_world(v: PlayerView, memory: Memory, rng: random.Random) -> GameState | None:
    """A full position consistent with the view, the unseen cards dealt at random."""
    know = infer(v, memory, remember_all=True, remember_trumps=True)
    pool = sorted(know.pool)
    rng.shuffle(pool)
    hands: list[tuple[Card, ...]] = []
    for seat in range(v.players):
        if seat == v.seat:
            hands.append(v.hand)
            continue
        need = v.unknown(seat)
        drawn, pool = pool[:need], pool[need:]
        hands.append(tuple(sorted([*v.known[seat], *drawn])))
    hidden_stock = v.stock - (1 if v.face_up is not None else 0)
    if len(pool) < hidden_stock:
        return None
    stock = pool[:hidden_stock] + ([v.face_up] if v.face_up is not None else [])
    placed = {c for hand in hands for c in hand} | set(stock) | {
        c for p in v.table for c in (p.attack, p.cover) if c is not None}
    discard = tuple(sorted(c for c in DECK if c not in placed))
    if len(discard) != v.discard:
        return None  # memory and counts disagree: give up on this sample
    state = GameState(
        rules=v.rules, hands=tuple(hands), stock=tuple(stock), trump=v.trump, table=v.table,
        discard=discard, attacker=v.attacker, defender=v.defender, opener=v.opener,
        bout=v.bout, taking=v.taking, passed=frozenset(v.passed), joined=v.joined,
        start_hands=tuple(len(h) + (len(v.table) if s == v.defender else 0)
                          for s, h in enumerate(hands)),
        shown=frozenset(v.shown), known=tuple(frozenset(k) for k in v.known),
        finished=v.finished, thrower=v.thrower)
    return state
