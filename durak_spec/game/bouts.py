"""What happened at the end of a bout, read off the states around it (layer 5)."""

from __future__ import annotations

from dataclasses import dataclass

from durak_spec.core.cards import Card
from durak_spec.model.actions import Action, Transfer
from durak_spec.model.state import GameState

__all__ = ["BoutEnd", "bout_end"]


@dataclass(frozen=True, slots=True)
class BoutEnd:
    """What happened when a bout ended, read off the states before and after it."""

    bout: int
    """The number of the bout that ended, from 1."""
    taker: int | None
    """The defender who took the table, or ``None`` when the table was beaten off."""
    cards: tuple[Card, ...]
    """The cards that were on the table."""
    draws: tuple[tuple[int, tuple[Card, ...]], ...]
    """Who drew which cards, in the order they drew."""
    stock: int
    """Cards left in the stock after drawing."""
    out: tuple[int, ...]
    """The seats that went out at this bout end."""

    def text(self) -> str:
        if self.taker is None:
            parts = [f"Beaten off: {_cards(len(self.cards))} to the discard pile"]
        else:
            parts = [f"P{self.taker} takes {_cards(len(self.cards))}"]
        if self.draws:
            draws = ", ".join(f"P{seat} draws {len(cards)}" for seat, cards in self.draws)
            parts.append(f"{draws} (stock {self.stock})")
        if self.out:
            names = " and ".join(f"P{seat}" for seat in self.out)
            parts.append(f"{names} {'is' if len(self.out) == 1 else 'are'} out")
        return "; ".join(parts) + "."

    def to_json(self) -> dict[str, object]:
        return {
            "type": "bout-end", "bout": self.bout,
            "result": "beaten-off" if self.taker is None else "taken", "taker": self.taker,
            "cards": [str(c) for c in self.cards],
            "draws": [{"player": seat, "cards": [str(c) for c in cards]}
                      for seat, cards in self.draws],
            "stock": self.stock, "out": list(self.out),
        }


def bout_end(before: GameState, action: Action, after: GameState) -> BoutEnd:
    """Describe the bout end that ``action`` caused, from the states around it."""
    shown = isinstance(action, Transfer) and action.show
    table = before.table_cards() + (() if shown else action.cards)
    taken = bool(table) and table[0] not in after.discard
    stock_place = {card: i for i, card in enumerate(before.stock)}
    draws: list[tuple[int, tuple[Card, ...]]] = []
    for seat, hand in enumerate(after.hands):
        new = set(hand).difference(before.hands[seat], table)
        if new:
            draws.append((seat, tuple(sorted(new, key=stock_place.__getitem__))))
    draws.sort(key=lambda draw: stock_place[draw[1][0]])
    out = tuple(seat for group in after.finished[len(before.finished):] for seat in group)
    return BoutEnd(bout=after.bout, taker=before.defender if taken else None, cards=table,
                   draws=tuple(draws), stock=len(after.stock), out=out)


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"
