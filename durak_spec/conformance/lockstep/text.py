"""How lockstep writes cards, tables, seats, counts and positions in its reports."""


from __future__ import annotations

from collections.abc import Iterable, Sequence

from durak_spec.core.cards import Card, format_cards
from durak_spec.model.state import GameState


def seat_text(value: int | None) -> str:
    return "none" if value is None else f"P{value}"

def table_text(table: Sequence[tuple[Card, Card | None]]) -> str:
    return " ".join(str(a) if c is None else f"{a}/{c}" for a, c in table) or "(empty)"

def finished_text(finished: Sequence[Sequence[int]]) -> str:
    return ", ".join("=".join(f"P{p}" for p in group) for group in finished) or "(nobody)"

def cards_text(cards: Iterable[Card]) -> str:
    return format_cards(cards) or "(none)"

def seats_text(seats: Iterable[int]) -> str:
    listed = ", ".join(f"P{seat}" for seat in sorted(seats))
    return listed or "nobody"

def count_text(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"

def position_text(state: GameState) -> str:
    """A position in one line: the hands, the table, the stock and the roles."""
    hands = "; ".join(f"P{seat} {cards_text(hand)}" for seat, hand in enumerate(state.hands))
    table = table_text([(p.attack, p.cover) for p in state.table])
    return (f"{hands}; table {table}; stock {len(state.stock)}, trump {state.trump.symbol}; "
            f"P{state.attacker} attacks P{state.defender}")

def rule_title(rule: str | None) -> str:
    if rule is None:
        return ""
    try:
        from durak_spec.core.ruleindex import load_rule_index

        index = load_rule_index()
    except (OSError, ValueError):  # pragma: no cover - the index ships with the package
        return ""
    return index[rule].title if rule in index else ""
