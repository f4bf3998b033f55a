"""The immutable game state (layer 2).

A :class:`GameState` is a frozen value built by keyword: every field is immutable, equal
states compare equal, and a new state is made by :meth:`GameState.replace`. It holds everything the
rules need and nothing else; the history of a game lives in :class:`durak_spec.game.history.Game`.

Seats are numbered 0..n-1 clockwise; "to the left" and "next" mean seat + 1.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final, NamedTuple, TypedDict, Unpack

from durak_spec.core.cards import Card, Suit, format_cards
from durak_spec.model.rules import RuleSet

__all__ = ["STATE_FIELDS", "GameState", "Outcome", "Pair", "StateChanges", "add_cards", "card_key",
           "replace", "sort_cards"]


class Pair(NamedTuple):
    """One attack card on the table and the card covering it (``None`` while uncovered)."""

    attack: Card
    cover: Card | None = None

    def __str__(self) -> str:
        return f"{self.attack}/{self.cover}" if self.cover is not None else str(self.attack)


class Outcome(NamedTuple):
    """The end of a game: who finished when, and who is the durak.

    ``finishing_order`` lists groups of seats in the order they went out; players who went
    out at the same bout end share a group. ``durak`` is the one player left holding
    cards, or ``None`` when there is no such player: a draw (END-4, CLAR-9), or a race
    (``goal`` first-out-wins, END-5) won while several players still hold cards, who are
    then listed in ``holding``.
    """

    finishing_order: tuple[tuple[int, ...], ...]
    durak: int | None
    holding: tuple[int, ...] = ()
    """When a race (END-5) is won while several players still hold cards, those seats,
    in seat order; empty otherwise (a durak or a draw)."""

    @classmethod
    def of(cls, finished: tuple[tuple[int, ...], ...], rest: tuple[int, ...]) -> Outcome:
        """The outcome of a game that ended with the seats ``rest`` still holding cards."""
        if len(rest) == 1:
            return cls(finished, rest[0])
        return cls(finished, None, rest)

    @property
    def is_draw(self) -> bool:
        """Nobody holds cards at the end: everyone went out (END-4, CLAR-9)."""
        return self.durak is None and not self.holding

    @property
    def first_out(self) -> tuple[int, ...]:
        """The seats of the first players to get rid of their cards (END-5)."""
        return self.finishing_order[0] if self.finishing_order else ()

    def __str__(self) -> str:
        order = ", ".join("=".join(f"P{p}" for p in group) for group in self.finishing_order)
        if self.durak is not None:
            result = f"P{self.durak} is the durak"
        elif self.holding:
            winners = " and ".join(f"P{p}" for p in self.first_out)
            result = f"{winners} went out first and {'wins' if len(self.first_out) == 1 else 'win'}"
        else:
            result = "draw"
        return f"{result} (out in order: {order})"


def card_key(card: Card) -> tuple[int, int]:
    """Canonical order of cards in hands and piles: by rank, then suit (``Card``'s order)."""
    return (card.rank, card.suit)


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Cards in canonical order (rank, then suit: ``6♣ 6♥ 7♦ 9♣ K♠``)."""
    return tuple(sorted(cards))


def add_cards(cards: tuple[Card, ...], added: Iterable[Card]) -> tuple[Card, ...]:
    """``cards``, in canonical order, with ``added`` put in their places: the same as
    ``sort_cards((*cards, *added))``, with fewer comparisons of cards when a few cards
    join many (a bout's cards joining the discard pile).

    >>> from durak_spec.core.cards import parse_card as c
    >>> add_cards((c("6♣"), c("9♣"), c("K♠")), (c("7♦"), c("6♥")))
    (Card.parse('6♣'), Card.parse('6♥'), Card.parse('7♦'), Card.parse('9♣'), Card.parse('K♠'))
    """
    merged = list(cards)
    for card in added:
        insort(merged, card)
    return tuple(merged)


_NOBODY: frozenset[int] = frozenset()


class StateChanges(TypedDict, total=False):
    """The fields of a :class:`GameState` that :meth:`GameState.replace` may change, each
    with its type (``tests/test_state_replace.py`` holds them to the state's fields)."""

    rules: RuleSet
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    trump: Suit
    table: tuple[Pair, ...]
    discard: tuple[Card, ...]
    attacker: int
    defender: int
    opener: int
    bout: int
    taking: bool
    passed: frozenset[int]
    joined: tuple[int, ...]
    start_hands: tuple[int, ...]
    shown: frozenset[Card]
    known: tuple[frozenset[Card], ...]
    finished: tuple[tuple[int, ...], ...]
    thrower: int | None


class GameState(NamedTuple):
    """Everything the rules need to know about a game at one moment: a frozen value, built
    by keyword, equal to any state with equal fields (and hashable as such).

    Fields:
      rules: the rule set in force.
      hands: each seat's cards, in canonical order.
      stock: the cards still to draw, in drawing order; while there are fewer than six
        players its last card is the face-up trump (DEAL-6).
      trump: the trump suit (DEAL-5).
      table: the attack cards of the bout in play, each with its cover.
      discard: the cards out of play (DEFEND-1), in canonical order.
      attacker: the seat that attacks the defender now (after a transfer, the transferer).
      defender: the seat that defends now.
      opener: the seat that opened the bout in play (or will open the next one).
      bout: how many bouts have ended (0 during the first bout, LIMIT-3).
      taking: the defender has announced a take (TAKE-3).
      passed: the attackers who said "done" since the defender last moved (CLAR-3).
      joined: the seats in the order they joined the bout's attack (DRAW-2, CLAR-8).
      start_hands: every seat's hand size when the bout in play started; the defender's
        entry is their hand when they became the defender, at the opening or at a
        transfer (LIMIT-2).
      shown: trumps shown this bout to transfer (TRANSFER-7, CLAR-6).
      known: for each seat, the cards in its hand that every player knows (VIEW-2).
      finished: the seats that are out, in groups by the bout end at which they went out.
      thrower: under the bout protocol ``last-thrower`` (CLAR-18), the seat that played
        the bout's last attack card; ``None`` between bouts and under other protocols.

    A state is a named tuple of these fields and nothing else (no ``__dict__``: nothing
    can be kept beside the value). Build one by keyword, and a changed one with
    :func:`replace` or :meth:`replace`. Why a named tuple rather than a frozen dataclass:
    the engine builds a state at every step, and a frozen dataclass of 18 fields costs
    about five times as much to build (its constructor sets each field with a call of
    ``object.__setattr__``); a library's C-built struct would not run in the website's
    Pyodide engine, which has the standard library only.
    """

    rules: RuleSet
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    trump: Suit
    table: tuple[Pair, ...] = ()
    discard: tuple[Card, ...] = ()
    attacker: int = 0
    defender: int = 1
    opener: int = 0
    bout: int = 0
    taking: bool = False
    passed: frozenset[int] = frozenset()
    joined: tuple[int, ...] = ()
    start_hands: tuple[int, ...] = ()
    shown: frozenset[Card] = frozenset()
    known: tuple[frozenset[Card], ...] = ()
    finished: tuple[tuple[int, ...], ...] = ()
    thrower: int | None = None

    def replace(self, **changes: Unpack[StateChanges]) -> GameState:
        """This state with the fields given by keyword changed, the others kept: the same
        as the module's :func:`replace` (``replace(state, ...)``), which the engine calls."""
        return replace(self, **changes)

    # -- derived facts -------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def face_up(self) -> Card | None:
        """The face-up trump card while it still lies under the stock."""
        if self.stock and self.rules.players < 6:
            return self.stock[-1]
        return None

    @property
    def out(self) -> frozenset[int]:
        """The seats that are out of the game."""
        if not self.finished:
            return _NOBODY
        return frozenset([p for group in self.finished for p in group])

    def in_game(self) -> tuple[int, ...]:
        """The seats still playing, in seat order."""
        if not self.finished:
            return tuple(range(len(self.hands)))
        out = self.out
        return tuple(p for p in range(len(self.hands)) if p not in out)

    @property
    def is_over(self) -> bool:
        """At most one player holds cards (END-3, END-4), or, in a race, someone is out
        (END-5)."""
        if not self.finished:
            return False
        if self.rules.goal == "first-out-wins":
            return True
        return len(self.hands) - sum(map(len, self.finished)) <= 1

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game has ended, else ``None``."""
        if not self.is_over:
            return None
        return Outcome.of(self.finished, self.in_game())

    @property
    def attack_cards(self) -> tuple[Card, ...]:
        return tuple(p.attack for p in self.table)

    @property
    def uncovered(self) -> tuple[Card, ...]:
        return tuple(p.attack for p in self.table if p.cover is None)

    def table_cards(self) -> tuple[Card, ...]:
        cards: list[Card] = []
        for pair in self.table:
            cards.append(pair.attack)
            if pair.cover is not None:
                cards.append(pair.cover)
        return tuple(cards)

    def describe(self) -> str:
        """A compact multi-line text picture of the position."""
        lines = [f"trump {self.trump.symbol}"
                 + (f" (face-up {self.face_up})" if self.face_up else "")
                 + f", stock {len(self.stock)}, discard {len(self.discard)}, bout {self.bout + 1}"]
        out = self.out
        for seat, hand in enumerate(self.hands):
            role = ("attacker" if seat == self.attacker else
                    "defender" if seat == self.defender else
                    "out" if seat in out else "")
            lines.append(f"P{seat}{' (' + role + ')' if role else ''}: {format_cards(hand)}")
        if self.table:
            lines.append("table: " + "  ".join(str(p) for p in self.table)
                         + ("  [taking]" if self.taking else ""))
        return "\n".join(lines)


STATE_FIELDS: Final[tuple[str, ...]] = GameState._fields
"""The names of a state's fields, in their order."""

_PLACES: Final[Mapping[str, int]] = MappingProxyType(
    {name: place for place, name in enumerate(STATE_FIELDS)})


def replace(state: GameState, /, **changes: Unpack[StateChanges]) -> GameState:
    """``state`` with the fields given by keyword changed, the others kept (each field by
    name, with its type, as mypy checks through :class:`StateChanges`).

    The engine builds a state at every step through this function; it changes only the
    fields named (``_replace``, the named tuple's own, asks every field of the 18), and
    is called directly, not as the method, which would pack the keywords once more."""
    fields: list[object] = list(state)
    try:
        for name, value in changes.items():
            fields[_PLACES[name]] = value
    except KeyError:
        raise TypeError(f"a game state has no field {name!r}") from None
    return GameState._make(fields)
