"""What the players hold, and what everyone knows of it: CLAR-1 and VIEW-2.

A player plays only cards from their own hand, each card once (CLAR-1, a clarification
every source takes for granted). Some cards in a hand are known to everyone: cards taken
from the table, the face-up trump drawn last, a trump shown to transfer (VIEW-2: A, C);
when such a card leaves the hand, it is no longer a known card of that hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from durak_spec.core.cards import Card, format_cards
from durak_spec.engine.breach import Breach
from durak_spec.model.state import GameState

__all__ = ["holds_breach", "known_breach", "play_cards"]


def holds_breach(state: GameState, seat: int, cards: Sequence[Card]) -> Breach | None:
    """CLAR-1: ``seat`` plays only cards of their own hand, and names each card once."""
    if len(cards) > 1 and len(set(cards)) != len(cards):
        return Breach("CLAR-1", f"{format_cards(cards)} names a card twice")
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            return Breach("CLAR-1", f"P{seat} does not hold {card}")
    return None


def known_breach(state: GameState) -> Breach | None:
    """VIEW-2: the cards known to be in a hand are in that hand."""
    for seat, known in enumerate(state.known):
        extra = known.difference(state.hands[seat])
        if extra:
            return Breach("VIEW-2", f"P{seat} is said to hold {format_cards(sorted(extra))} "
                          "publicly, but does not")
    return None


def play_cards(state: GameState, seat: int, cards: tuple[Card, ...]
               ) -> tuple[tuple[tuple[Card, ...], ...], tuple[frozenset[Card], ...]]:
    """The hands and the known cards after ``seat`` plays ``cards`` out of their hand."""
    hands = state.hands
    hand = hands[seat]
    if len(cards) == 1:  # the usual case: one card leaves the hand
        where = hand.index(cards[0])
        hand = hand[:where] + hand[where + 1:]
    else:
        hand = tuple([card for card in hand if card not in cards])
    played = list(hands)  # a copy of a list, one place changed: the cheapest new tuple
    played[seat] = hand
    known = state.known
    mine = known[seat]
    if mine and not mine.isdisjoint(cards):
        forgotten = list(known)
        forgotten[seat] = mine.difference(cards)
        known = tuple(forgotten)
    return tuple(played), known
