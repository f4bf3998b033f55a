"""Suits, ranks, cards and the card notation (layer 1: imports only the errors).

A card is written rank then suit: ``7♣``, ``10♥``, ``Q♠``, ``A♦``.  The same cards can be
typed with ASCII letters for the suit (``7C``, ``10H``, ``QS``, ``AD``) and ``T`` for ten
(``TH``).  :func:`parse_card` accepts every one of these spellings, case-insensitive;
``str(card)`` always prints the suit-symbol form, and parsing what was printed gives the
same card back.

There are 36 cards (DEAL-1), ranked 6 < 7 < 8 < 9 < 10 < J < Q < K < A (DEAL-2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum
from types import MappingProxyType
from typing import Final, NamedTuple

from durak_spec.core.errors import NotationError

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class CardError(NotationError):
    """A card string that is not a card of the 36-card Durak deck (code ``"card"``)."""

    code = "card"


class Suit(IntEnum):
    """The four suits. The order (clubs, diamonds, hearts, spades) only sorts hands."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]

    @property
    def label(self) -> str:
        """The English name, lower case and plural ("clubs")."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its symbol, letter or English name (``♣``, ``C``, ``clubs``)."""
        key = text.strip().lower()
        suit = _SUIT_BY_TEXT.get(key)
        if suit is None:
            raise CardError(
                f"{_quoted(text)} is not a suit: write ♣ ♦ ♥ ♠, C D H S, or "
                "clubs/diamonds/hearts/spades"
            )
        return suit

    def __str__(self) -> str:
        return self.symbol


class Rank(IntEnum):
    """The nine ranks, valued so that a higher value is a higher card (DEAL-2)."""

    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A rank from its symbol (``6``..``10``, ``J``, ``Q``, ``K``, ``A``, also ``T``)."""
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise CardError(
                f"{_quoted(text)} is not a rank of the Durak deck: ranks are 6 7 8 9 10 J Q K A "
                "(DEAL-1); 2 to 5 are not in the deck"
            )
        return rank

    def __str__(self) -> str:
        return self.symbol


_SUIT_SYMBOLS: Final = MappingProxyType(
    {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"})
_SUIT_LETTERS: Final = MappingProxyType(
    {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"})
_SUIT_BY_TEXT: Final = MappingProxyType({
    **{_SUIT_SYMBOLS[suit]: suit for suit in Suit},
    **{_SUIT_LETTERS[suit].lower(): suit for suit in Suit},
    **{suit.name.lower(): suit for suit in Suit},
    # The white (outline) suit symbols are common in typed text too.
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
})

_RANK_SYMBOLS: Final = MappingProxyType({
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
})
_RANK_BY_TEXT: Final = MappingProxyType(
    {**{symbol: rank for rank, symbol in _RANK_SYMBOLS.items()}, "T": Rank.TEN})


class Card(NamedTuple):
    """One card: a rank and a suit. Immutable, hashable, and compared by value.

    Cards sort by rank, then suit. ``str(card)`` is the notation (``"10♥"``);
    ``repr(card)`` is ``Card('10♥')``-like text that can be pasted back via
    :meth:`Card.parse`.
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @property
    def ascii(self) -> str:
        """The card with an ASCII suit letter (``10H``), for files and terminals."""
        return f"{self.rank.symbol}{self.suit.letter}"

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


# Every card of the deck in a fixed order: suit by suit, each from six to ace.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_CARD_BY_KEY: Final = MappingProxyType({(c.rank, c.suit): c for c in DECK})

_CARD_PATTERN = re.compile(r"(10|[6-9TJQKA]|[2-5]|1[1-9]?|[0-9]+)[ \t]?(.*)", re.IGNORECASE)
"""A rank in ASCII digits or letters, at most one space or tab, then the suit."""

_QUOTED_LIMIT = 40


def _quoted(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`_QUOTED_LIMIT` characters."""
    if len(text) <= _QUOTED_LIMIT:
        return repr(text)
    return f"{text[:_QUOTED_LIMIT]!r}… ({len(text) - _QUOTED_LIMIT} more characters)"


def parse_card(text: str) -> Card:
    """Parse one card in any accepted spelling (``7♣``, ``7C``, ``10H``, ``TH``, ``qs``).

    Space around the card is ignored, and one space between rank and suit is allowed
    (``7 ♣``); other white space, line breaks and non-ASCII digits are not. Raises
    :class:`CardError` that says what was wrong with the text.
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be written as text like '7♣' or '7C', not "
                        f"{_quoted(repr(text))}")
    stripped = text.strip(" \t")
    if not stripped:
        raise CardError("empty card: write a rank and a suit, like '7♣' or '7C'")
    match = _CARD_PATTERN.fullmatch(stripped) if stripped.isprintable() else None
    if match is None:
        raise CardError(
            f"{_quoted(text)} is not a card: write a rank (6-10, J, Q, K, A) then a suit "
            "(♣ ♦ ♥ ♠ or C D H S), like '7♣' or '10H'"
        )
    rank_text, suit_text = match.group(1), match.group(2)
    if not suit_text:
        raise CardError(
            f"{_quoted(text)} has no suit: add one of ♣ ♦ ♥ ♠ (or C D H S), like '{rank_text}♣'"
        )
    if len(rank_text) > 2:
        raise CardError(f"{_quoted(text)} is not a card: {_quoted(rank_text)} is not a rank "
                        "of the Durak deck: ranks are 6 7 8 9 10 J Q K A (DEAL-1)")
    rank = Rank.parse(rank_text)
    suit = _SUIT_BY_TEXT.get(suit_text.lower())
    if suit is None:
        raise CardError(f"{_quoted(text)}: {_quoted(suit_text)} is not a suit; write ♣ ♦ ♥ ♠ "
                        "or C D H S")
    return _CARD_BY_KEY[(rank, suit)]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards separated by spaces or commas (``"7♣ 9♣"``, ``"7C,9C"``).

    An iterable of card strings is accepted as well. An empty text gives no cards.
    """
    parts = [p for p in re.split(r"[\s,;]+", text) if p] if isinstance(text, str) else list(text)
    return tuple(parse_card(p) for p in parts)


def format_cards(cards: Iterable[Card]) -> str:
    """The notation of several cards, separated by spaces."""
    return " ".join(str(c) for c in cards)
