"""The single-card actions of every seat, built once: values, not rules.

``legal_actions`` hands out these shared, immutable action objects instead of building
new ones for every position (an action is a frozen value, so sharing one is safe).
``OPENS[seat][card]`` is ``Open(seat, (card,))``, ``COVERS[seat][attack][card]`` is
``Cover(seat, attack, card)``, and so on for every seat of a six-player game. The pairs
of the table are shared the same way: ``UNCOVERED[card]`` is ``Pair(card)``,
``COVERED[attack][card]`` is ``Pair(attack, card)`` (a lookup costs an eighth of building
a named tuple). ``OTHERS[players][seat]`` is every seat of a game of ``players`` but
``seat``, in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from durak_spec.core.cards import DECK, Card
from durak_spec.model.actions import Cover, Done, ExchangeTrump, Open, Take, ThrowIn, Transfer
from durak_spec.model.rules import MAX_PLAYERS, MIN_PLAYERS
from durak_spec.model.state import Pair

__all__ = ["COVERED", "COVERS", "DONES", "EXCHANGES", "OPENS", "OTHERS", "SHOWS", "TAKES",
           "THROWS", "TRANSFERS", "UNCOVERED"]

_SEATS = range(MAX_PLAYERS)

OPENS: tuple[Mapping[Card, Open], ...] = tuple(
    MappingProxyType({card: Open(seat, (card,)) for card in DECK}) for seat in _SEATS)
THROWS: tuple[Mapping[Card, ThrowIn], ...] = tuple(
    MappingProxyType({card: ThrowIn(seat, card) for card in DECK}) for seat in _SEATS)
COVERS: tuple[Mapping[Card, Mapping[Card, Cover]], ...] = tuple(
    MappingProxyType({attack: MappingProxyType({card: Cover(seat, attack, card) for card in DECK})
                      for attack in DECK})
    for seat in _SEATS)
TRANSFERS: tuple[Mapping[Card, Transfer], ...] = tuple(
    MappingProxyType({card: Transfer(seat, card) for card in DECK}) for seat in _SEATS)
SHOWS: tuple[Mapping[Card, Transfer], ...] = tuple(
    MappingProxyType({card: Transfer(seat, card, show=True) for card in DECK}) for seat in _SEATS)
TAKES: tuple[Take, ...] = tuple(Take(seat) for seat in _SEATS)
DONES: tuple[Done, ...] = tuple(Done(seat) for seat in _SEATS)
EXCHANGES: tuple[ExchangeTrump, ...] = tuple(ExchangeTrump(seat) for seat in _SEATS)
UNCOVERED: Mapping[Card, Pair] = MappingProxyType({card: Pair(card) for card in DECK})
COVERED: Mapping[Card, Mapping[Card, Pair]] = MappingProxyType({
    attack: MappingProxyType({card: Pair(attack, card) for card in DECK}) for attack in DECK})
OTHERS: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType({
    players: tuple(tuple(other for other in range(players) if other != seat)
                   for seat in range(players))
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)})
