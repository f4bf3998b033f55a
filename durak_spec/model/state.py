"""The immutable game state (layer 2).

A :class:`GameState` is a named tuple: every field is immutable, equal states compare
equal, and a new state is made by :meth:`GameState.replace`. It holds everything the
rules need and nothing else; the history of a game lives in :class:`durak_spec.game.history.Game`.

Seats are numbered 0..n-1 clockwise; "to the left" and "next" mean seat + 1.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple

from durak_spec.core.cards import Card, Suit, format_cards
from durak_spec.model.rules import Goal, RuleSet

if TYPE_CHECKING:
    from durak_spec.model.actions import Action

__all__ = ["GameState", "Outcome", "Pair", "add_cards", "card_key", "sort_cards"]


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
_new_tuple = tuple.__new__


class _Fields(NamedTuple):
    # The value of a GameState: its fields, documented on GameState (the one class to use).
    # GameState adds no field, only its methods and the memo.
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


class GameState(_Fields):
    """Everything the rules need to know about a game at one moment.

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

    The memo: a state also remembers the legal actions the engine listed for it
    (:func:`durak_spec.engine.legal_actions`), so that ``advance`` need not check again an
    action taken from that listing, and the listing of a position is made once. It is a
    pure function's result kept beside the value, not part of it: equality, hashing,
    ``repr``, pickling and copying, ``persist`` and the wire see only the fields, and a
    state built again from its fields lists the same actions. Filled on first use; two
    threads listing one state at once both compute the same tuple, and either may be kept.
    """

    # No ``__slots__ = ()`` here, unlike the named tuple of the fields: each state has a
    # ``__dict__`` (allocated when the memo is first filled), and the memo lives there.

    _legal: tuple[Action, ...] | None = None
    """The memo of the legal actions, ``None`` until the engine lists them; only
    :mod:`durak_spec.engine.referee` fills it. Read it through ``legal_actions``."""

    def __getstate__(self) -> None:
        """Pickling and copying keep the value only: the memo is not part of it."""
        return None

    def replace(self, rules: RuleSet | None = None,
                hands: tuple[tuple[Card, ...], ...] | None = None,
                stock: tuple[Card, ...] | None = None, trump: Suit | None = None,
                table: tuple[Pair, ...] | None = None, discard: tuple[Card, ...] | None = None,
                attacker: int | None = None, defender: int | None = None,
                opener: int | None = None, bout: int | None = None,
                taking: bool | None = None, passed: frozenset[int] | None = None,
                joined: tuple[int, ...] | None = None,
                start_hands: tuple[int, ...] | None = None,
                shown: frozenset[Card] | None = None,
                known: tuple[frozenset[Card], ...] | None = None,
                finished: tuple[tuple[int, ...], ...] | None = None,
                thrower: int | Literal["keep"] | None = "keep") -> GameState:
        """This state with the fields given by keyword changed, the others kept.

        The same as :meth:`_replace`, but checked by mypy (each field by name, with its
        type) and about a third as costly, which matters to the engine: it builds a state
        at every step. No field of a state but ``thrower`` is ever ``None``, so ``None``
        means "keep"; ``thrower`` (which may be ``None``) is kept unless given.

        Give the fields by keyword. (They are not keyword-only parameters because CPython
        fills the defaults of those one dictionary look-up each, 17 of them per call, which
        costs more than all the rest of a build; ``tests/test_state_replace.py`` pins that
        each keyword changes its own field, since the tuple below is built positionally,
        in the order of the fields, the one place in the package that does so.)
        """
        # self[:] is a plain tuple, which CPython unpacks four times as fast as a subclass
        (old_rules, old_hands, old_stock, old_trump, old_table, old_discard, old_attacker,
         old_defender, old_opener, old_bout, old_taking, old_passed, old_joined,
         old_start_hands, old_shown, old_known, old_finished, old_thrower) = self[:]
        return _new_tuple(GameState, (
            old_rules if rules is None else rules,
            old_hands if hands is None else hands,
            old_stock if stock is None else stock,
            old_trump if trump is None else trump,
            old_table if table is None else table,
            old_discard if discard is None else discard,
            old_attacker if attacker is None else attacker,
            old_defender if defender is None else defender,
            old_opener if opener is None else opener,
            old_bout if bout is None else bout,
            old_taking if taking is None else taking,
            old_passed if passed is None else passed,
            old_joined if joined is None else joined,
            old_start_hands if start_hands is None else start_hands,
            old_shown if shown is None else shown,
            old_known if known is None else known,
            old_finished if finished is None else finished,
            old_thrower if thrower == "keep" else thrower))

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
        if self.rules.goal is Goal.FIRST_OUT_WINS:
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
