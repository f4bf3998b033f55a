"""The sources' tips (TIP-1 … TIP-11) as switches of the heuristic player, and how the
player puts each into play (:data:`TIP_NOTES`, for the book's tips chapter)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class Tip(StrEnum):
    """The sources' tips (rule index TIP-1 … TIP-11) as switches of :class:`HeuristicBot`."""

    LOW_CARDS_FIRST = "TIP-1"
    SAVE_TRUMPS = "TIP-2"
    COUNT_TRUMPS = "TIP-3"
    KEEP_PAIRS = "TIP-4"
    WATCH_STOCK = "TIP-5"
    UNBEATABLE_ENDGAME = "TIP-6"
    REMEMBER_CARDS = "TIP-7"
    CHECK_TRANSFER_TARGET = "TIP-8"
    THROW_IN_TOGETHER = "TIP-9"
    WATCH_TABLE_RANKS = "TIP-10"
    MIND_HAND_SIZE = "TIP-11"

    @classmethod
    def parse(cls, value: Tip | str) -> Tip:
        """A tip from its member, its rule ID (``"TIP-2"``) or its member name."""
        if isinstance(value, Tip):
            return value
        if isinstance(value, str):
            key = value.strip().upper()
            for tip in cls:
                if key in (tip.value, tip.name):
                    return tip
        raise ValueError(f"{value!r} is not a tip; tips are {', '.join(t.value for t in cls)}")


ALL_TIPS: frozenset[Tip] = frozenset(Tip)
"""Every tip: the default of :class:`HeuristicBot`."""

TIP_NOTES: Mapping[Tip, str] = MappingProxyType({
    Tip.LOW_CARDS_FIRST:
        "Cards are scored by strength (rank, and trumps above every other suit); the bot "
        "opens, throws in and covers with the lowest-scoring card that does the job. "
        "Without the tip it scores cards at random, so it plays high and low alike.",
    Tip.SAVE_TRUMPS:
        "While the stock holds at least `big_stock` cards, a defender who could cover only "
        "by spending a trump of rank ten or higher takes a cheap table instead (at most four "
        "non-trump cards no higher than a ten), and attackers open and throw in no trump.",
    Tip.COUNT_TRUMPS:
        "The bot remembers the trumps played (its trump memory feeds what it infers about "
        "other hands) and counts the trumps its opponents can still hold; when it holds at "
        "least as many as all of them together it does not take to save a trump (TIP-2).",
    Tip.KEEP_PAIRS:
        "Opening with a rank the bot holds twice or more is preferred (a card of the "
        "opening's rank always fits a later throw-in, and in the transfer game a transfer), "
        "and covering with a card that breaks a pair costs extra.",
    Tip.WATCH_STOCK:
        "Near the end of the stock the bot works out the draw (attacker first, defender "
        "last, each up to six) and, as a thrower, adds a card or stops so that the face-up "
        "trump comes to it rather than to another player.",
    Tip.UNBEATABLE_ENDGAME:
        "With the stock empty, the attacker opens and throws in with non-trump cards that no "
        "card the defender can hold beats (by the cards known and remembered), ahead of low "
        "cards; a trump nothing beats is kept, since a take would hand it to the defender.",
    Tip.REMEMBER_CARDS:
        "The bot remembers every card it has seen on the table; what is neither in its hand, "
        "on the table, in a hand known to all nor remembered as played can be in a hidden "
        "hand. Without it (and without TIP-3) every card it cannot see counts as possible.",
    Tip.CHECK_TRANSFER_TARGET:
        "Before transferring the bot looks at the next defender's hand: with the stock empty "
        "and that player holding at most two cards more than the attack would bring, it does "
        "not transfer (they could beat everything and go out); with two players left it "
        "never does so. Without the tip it transfers whenever that is cheaper than covering.",
    Tip.THROW_IN_TOGETHER:
        "Players other than the attacker join in and throw in like the attacker; everyone "
        "adds higher cards when the defender has at most two cards left. Without the tip "
        "only the attacker throws in.",
    Tip.WATCH_TABLE_RANKS:
        "As defender the bot prefers covers whose rank is already on the table, and avoids "
        "covers that open a new rank the throwers are known or likely to hold.",
    Tip.MIND_HAND_SIZE:
        "A take chosen to save a trump (TIP-2) is given up when it would leave the bot with "
        "more than `max_hand_after_take` cards (eight by default): past that size the "
        "trump is spent rather than the hand swollen. Without the tip the bot takes a cheap "
        "table whatever its hand holds already.",
})
"""How :class:`HeuristicBot` puts each tip into play (for the book's tips chapter)."""
