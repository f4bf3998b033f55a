"""Beating a card: BEAT-1 .. BEAT-6.

A card is beaten by a higher card of the same suit (BEAT-1: A, B, C, D); any trump beats
any card that is not a trump (BEAT-2: A, B, C, D); a trump is beaten only by a higher
trump (BEAT-3: A, B, C, D), so nothing beats the ace of trumps (BEAT-4: D); a lower card
of the suit, or a card of another suit that is not a trump, never beats (BEAT-5: all four
imply it). Each attack card is covered by exactly one card, and the defender chooses
which uncovered attack card a card covers (BEAT-6: A, B).

:func:`beats` decides; :func:`beating_rule` names the rule that decides a pair of cards,
and :func:`cover_breach` says why a card does not beat another. The listing of covers
(:func:`covers`) reads :data:`BEATERS`, the answers of :func:`beats` for every trump and
pair of cards, worked out once when the module is imported: a table of the rule, not a
second statement of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from durak_spec.core.cards import DECK, Card, Rank, Suit
from durak_spec.engine.breach import Breach
from durak_spec.engine.hands import play_cards
from durak_spec.engine.tables import COVERED, COVERS
from durak_spec.model.actions import Action, Cover
from durak_spec.model.events import Event
from durak_spec.model.state import GameState, replace

__all__ = ["BEATERS", "beating_rule", "beats", "cover", "cover_breach", "cover_place_breach",
           "covers"]


def beats(card: Card, attack: Card, trump: Suit) -> bool:
    """Whether ``card`` beats ``attack`` when ``trump`` is trump (BEAT-1 .. BEAT-5).

    A card of the same suit beats when it is higher (BEAT-1; for trumps BEAT-3, so the
    trump ace falls to nothing, BEAT-4); a card of another suit beats only when it is a
    trump (BEAT-2; else BEAT-5).
    """
    suit = card.suit
    if suit == attack.suit:
        return card.rank > attack.rank
    return suit == trump


BEATERS: Mapping[Suit, Mapping[Card, frozenset[Card]]] = MappingProxyType({
    trump: MappingProxyType({attack: frozenset(card for card in DECK if beats(card, attack, trump))
                             for attack in DECK})
    for trump in Suit})
"""``BEATERS[trump][attack]``: the cards that beat ``attack`` (:func:`beats`), worked out
once for every trump and card; :func:`covers` looks a hand's cards up in it, which costs
a fifth of asking :func:`beats` card by card."""


def beating_rule(card: Card, attack: Card, trump: Suit) -> str:
    """The ID of the rule that decides whether ``card`` beats ``attack`` (BEAT-1 .. BEAT-5).

    BEAT-1 for a higher card of the same plain suit, BEAT-2 for a trump on a plain card,
    BEAT-3 for a trump attacked card (BEAT-4 for the trump ace), BEAT-5 for a lower card
    of the suit or a plain card of another suit. :func:`beats` says whether it beats.

    >>> from durak_spec.core.cards import parse_card as c
    >>> [beating_rule(c(a), c(b), Suit.HEARTS) for a, b in (("9♣", "7♣"), ("6♥", "A♣"),
    ...     ("6♥", "7♥"), ("7♣", "9♣"))]
    ['BEAT-1', 'BEAT-2', 'BEAT-3', 'BEAT-5']
    """
    if attack.suit == trump:
        return "BEAT-4" if attack.rank == Rank.ACE else "BEAT-3"
    if card.suit == trump:
        return "BEAT-2"
    if card.suit == attack.suit and card.rank > attack.rank:
        return "BEAT-1"
    return "BEAT-5"


def cover_breach(card: Card, attack: Card, trump: Suit) -> Breach | None:
    """BEAT-3, BEAT-4, BEAT-5: why ``card`` does not beat ``attack``, if it does not."""
    if beats(card, attack, trump):
        return None
    if attack.suit == trump:
        if attack.rank == Rank.ACE:
            return Breach("BEAT-4", f"{card} does not beat {attack}: the ace of trumps "
                          "cannot be beaten")
        return Breach("BEAT-3", f"{card} does not beat {attack}: a trump is beaten only by a "
                      "higher trump")
    if card.suit == attack.suit:
        return Breach("BEAT-5", f"{card} does not beat {attack}: a card of the same suit "
                      "must be higher")
    return Breach("BEAT-5", f"{card} does not beat {attack}: a card of another suit beats "
                  f"only if it is a trump ({trump.symbol})")


def cover_place_breach(state: GameState, action: Cover) -> Breach | None:
    """BEAT-6: the defender covers, each attack card once, an attack card on the table."""
    if action.player != state.defender:
        return Breach("BEAT-6", f"only the defender P{state.defender} covers attack cards")
    for pair in state.table:
        if pair.attack == action.attack:
            if pair.cover is not None:
                return Breach("BEAT-6", f"{action.attack} is already covered by {pair.cover}; "
                              "each attack card is covered once")
            return None
    return Breach("BEAT-6", f"{action.attack} is not an attack card on the table")


def covers(state: GameState) -> list[Action]:
    """Every cover the defender may play: each card of their hand on each uncovered attack
    card it beats (BEAT-1 .. BEAT-6), by attack card, then covering card."""
    defender = state.defender
    trump = state.trump
    hand = state.hands[defender]
    by_attack = COVERS[defender]
    uncovered: list[Card] = []
    for pair in state.table:  # plain loops: this runs whenever the defender moves
        if pair.cover is None:
            uncovered.append(pair.attack)
    uncovered.sort()
    found: list[Action] = []
    beaters = BEATERS[trump]
    for attack in uncovered:
        options = by_attack[attack]
        beat = beaters[attack]
        for card in hand:
            if card in beat:
                found.append(options[card])
    return found


def cover(state: GameState, action: Cover, events: list[Event]) -> GameState:
    """The state after the defender lays ``action.card`` on ``action.attack``."""
    hands, known = play_cards(state, action.player, (action.card,))
    table = list(state.table)
    attack = action.attack
    for where, (attacked, _) in enumerate(table):  # the pair it covers (BEAT-6)
        if attacked == attack:
            table[where] = COVERED[attack][action.card]
            break
    return replace(state, hands=hands, known=known, table=tuple(table))
