"""The step vocabulary's patterns (a name, a list of cards, a rule ID, ...) and how the
steps speak of cards when they fail."""

from __future__ import annotations

from collections.abc import Iterable

from pytest_bdd import parsers

from durak_spec.core.cards import Card, format_cards
from durak_spec.model.state import sort_cards
from durak_spec.spec.context import GameContext

__all__ = ["CARD", "CARDS", "NAME", "NAMES", "RULE", "SUIT", "cards_text", "compare", "rx",
           "table_text"]

NAME = r"[A-Z][a-z]+"
NAMES = rf"{NAME}(?:(?:, | and ){NAME})*"
CARD = r"(?:[0-9]+|[TJQKA])[^\s,]*"
CARDS = rf"{CARD}(?:(?:\s*,\s*|\s+and\s+|\s+){CARD})*"
RULE = r"[A-Z]+-[0-9]+"
SUIT = r"clubs|diamonds|hearts|spades"


def rx(pattern: str) -> parsers.re:
    return parsers.re(pattern)


def cards_text(cards: Iterable[Card]) -> str:
    text = format_cards(sort_cards(list(cards)))
    return text or "no cards"


def compare(game: GameContext, what: str, actual: Iterable[Card], expected: Iterable[Card],
             mode: str) -> None:
    """Compare card sets: ``exactly`` these, ``each`` of these, or ``none`` of these."""
    have, want = set(actual), set(expected)
    if mode == "exactly" and have != want:
        game.fail(f"{what} {cards_text(have)}; expected exactly {cards_text(want)} "
                  f"(missing: {cards_text(want - have)}; unexpected: {cards_text(have - want)})")
    if mode == "each" and not want <= have:
        game.fail(f"{what} {cards_text(have)}; expected {cards_text(want - have)} among them")
    if mode == "none" and have & want:
        game.fail(f"{what} {cards_text(have)}; expected none of {cards_text(have & want)}")


def table_text(pairs: Iterable[tuple[Card, Card | None]]) -> str:
    """Table pairs as the steps speak of them: ``7♣ covered by 9♣, 8♦ uncovered``."""
    items = [f"{a} covered by {c}" if c else f"{a} uncovered" for a, c in sorted(
        pairs, key=lambda p: (p[0].rank, p[0].suit))]
    return ", ".join(items) or "nothing"
