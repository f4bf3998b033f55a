"""What a bot can know: how strong a card is, the cards it has seen on the table
(:class:`Memory`), and which cards can lie in a hidden hand (:func:`infer`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from durak_spec.core.cards import DECK, Card, Rank, Suit
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action, Transfer


def strength(card: Card, trump: Suit) -> int:
    """How strong a card is: 0 (six) to 8 (ace), plus 9 for a trump (so 0 … 17)."""
    return int(card.rank) - int(Rank.SIX) + (9 if card.suit == trump else 0)


# -- what a bot can know ----------------------------------------------------------------------


@dataclass(slots=True)
class Memory:
    """Cards a bot has seen on the table in the game so far."""

    seen: set[Card] = field(default_factory=set)
    bout: int = -1

    def update(self, seen_view: PlayerView) -> None:
        if seen_view.bout < self.bout or (seen_view.bout == 0 and not seen_view.table
                                          and seen_view.discard == 0 and self.bout > 0):
            self.seen.clear()  # a new game: the bot was not reset
        self.bout = seen_view.bout
        for pair in seen_view.table:
            self.seen.add(pair.attack)
            if pair.cover is not None:
                self.seen.add(pair.cover)

    def saw(self, action: Action) -> None:
        if isinstance(action, Transfer) and action.show:
            return  # a shown trump stays in its holder's hand (and is known there)
        self.seen.update(action.cards)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the bot may infer: which cards can lie in a hidden part of some hand."""

    pool: frozenset[Card]
    """Cards whose place the bot cannot tell: hidden hands, hidden stock, unremembered discard."""
    known: tuple[frozenset[Card], ...]
    unknown: tuple[int, ...]

    def possible(self, seat: int) -> frozenset[Card]:
        """The cards that seat may hold."""
        if self.unknown[seat] > 0:
            return self.known[seat] | self.pool
        return self.known[seat]


def infer(v: PlayerView, memory: Memory, remember_all: bool,
               remember_trumps: bool) -> Knowledge:
    known = tuple(frozenset(cards) for cards in v.known)
    visible: set[Card] = set(v.hand)
    for pair in v.table:
        visible.add(pair.attack)
        if pair.cover is not None:
            visible.add(pair.cover)
    for cards in known:
        visible.update(cards)
    if v.face_up is not None:
        visible.add(v.face_up)
    if remember_all:
        visible.update(memory.seen)  # seen before and not visible now: discarded
    elif remember_trumps:
        visible.update(c for c in memory.seen if c.suit == v.trump)
    pool = frozenset(c for c in DECK if c not in visible)
    unknown = tuple(v.unknown(seat) for seat in range(v.players))
    return Knowledge(pool, known, unknown)
