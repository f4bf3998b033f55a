"""What one player sees of a game (layer 4).

A :class:`PlayerView` holds exactly the information the rules make public, plus the
seat's own hand:

* the trump suit, the number of cards in the stock and the face-up trump card while it
  lies under the stock (VIEW-1);
* the table, the size of every hand, the size of the discard pile, and the cards that
  every player knows to be in a hand: cards taken from the table, the face-up trump drawn
  by the last player to draw, trumps shown to transfer (VIEW-2, ``GameState.known``);
* whose turn it is to attack and defend, who opened the bout and who joined its attack
  in which order, the take, who said done, who is out, the result;
* ``playable``: the seat's own legal actions right now (VIEW-3).

It never holds a card of another player's hand that is not publicly known; what the
discard pile holds is not shown either, only its size.

>>> from durak_spec import profile, new_game
>>> state = new_game(profile("classic-throw-in").rules(players=3), seed=1)
>>> mine = view(state, 0)
>>> mine.hand == state.hands[0], mine.hand_sizes
(True, (6, 6, 6))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from durak_spec.core.cards import Card, Suit
from durak_spec.core.errors import DurakError
from durak_spec.engine import legal_actions
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome, Pair, sort_cards

__all__ = ["VIEW_FORMAT", "PlayerView", "view"]

VIEW_FORMAT = "durak-spec/view"
"""The ``format`` of :meth:`PlayerView.to_json` documents (version 1)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a position; see the module docstring for what it holds."""

    seat: int
    """The seat this view belongs to."""
    rules: RuleSet
    hand: tuple[Card, ...]
    """The seat's own cards, in canonical order."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds (VIEW-2)."""
    table: tuple[Pair, ...]
    """The attack cards of the bout in play, with their covers."""
    stock: int
    """How many cards are left in the stock, the face-up trump included (VIEW-1)."""
    trump: Suit
    face_up: Card | None
    """The face-up trump while it lies under the stock (VIEW-1); ``None`` once drawn."""
    discard: int
    """How many cards are out of play."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards in that hand that every player knows (VIEW-2)."""
    shown: tuple[Card, ...]
    """Trumps shown this bout to transfer (TRANSFER-7)."""
    attacker: int
    defender: int
    opener: int
    """The seat that opened the bout in play (or opens the next one)."""
    joined: tuple[int, ...]
    """The seats in the order they joined the bout's attack (DRAW-2, CLAR-8)."""
    bout: int
    """How many bouts have ended."""
    taking: bool
    """Whether the defender has announced a take (TAKE-3)."""
    passed: tuple[int, ...]
    """The attackers who said done since the defender last moved (CLAR-3)."""
    thrower: int | None
    """Under the last-thrower turn order (CLAR-18), the seat that played the last attack
    card (public: everyone saw it laid); ``None`` otherwise."""
    finished: tuple[tuple[int, ...], ...]
    """The seats that are out, grouped by the bout end at which they went out."""
    outcome: Outcome | None
    playable: tuple[Action, ...]
    """The seat's own legal actions now (VIEW-3), in ``legal_actions`` order."""

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def out(self) -> frozenset[int]:
        """The seats that are out of the game."""
        return frozenset(p for group in self.finished for p in group)

    @property
    def to_act(self) -> bool:
        """Whether this seat has anything it may do now."""
        return bool(self.playable)

    def unknown(self, seat: int) -> int:
        """How many cards of ``seat``'s hand this view does not show."""
        if seat == self.seat:
            return 0
        return self.hand_sizes[seat] - len(self.known[seat])

    def to_json(self) -> dict[str, Any]:
        """The view as a JSON-ready dict (``"format": "durak-spec/view"``, version 1).

        Cards are written in the notation (``"10♥"``), the table as
        ``[["7♣", "9♣"], ["8♦", null]]``, actions as :meth:`Action.to_json`.
        """
        outcome = None if self.outcome is None else {
            "finishing_order": [list(group) for group in self.outcome.finishing_order],
            "durak": self.outcome.durak,
        }
        return {
            "format": VIEW_FORMAT,
            "version": 1,
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "table": [[str(p.attack), None if p.cover is None else str(p.cover)]
                      for p in self.table],
            "stock": self.stock,
            "trump": self.trump.symbol,
            "face_up": None if self.face_up is None else str(self.face_up),
            "discard": self.discard,
            "known": [[str(c) for c in cards] for cards in self.known],
            "shown": [str(c) for c in self.shown],
            "attacker": self.attacker,
            "defender": self.defender,
            "opener": self.opener,
            "joined": list(self.joined),
            "bout": self.bout,
            "taking": self.taking,
            "passed": list(self.passed),
            "thrower": self.thrower,
            "finished": [list(group) for group in self.finished],
            "outcome": outcome,
            "playable": [action.to_json() for action in self.playable],
        }


def view(state: GameState, seat: int) -> PlayerView:
    """What the player in ``seat`` sees of ``state`` (VIEW-1, VIEW-2, VIEW-3)."""
    players = len(state.hands)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise DurakError(f"there is no seat {seat!r} in a game of {players} players "
                         f"(seats are 0 to {players - 1})")
    return PlayerView(
        seat=seat,
        rules=state.rules,
        hand=state.hands[seat],
        hand_sizes=tuple(len(hand) for hand in state.hands),
        table=state.table,
        stock=len(state.stock),
        trump=state.trump,
        face_up=state.face_up,
        discard=len(state.discard),
        known=tuple(sort_cards(list(cards)) for cards in state.known),
        shown=sort_cards(list(state.shown)),
        attacker=state.attacker,
        defender=state.defender,
        opener=state.opener,
        joined=state.joined,
        bout=state.bout,
        taking=state.taking,
        passed=tuple(sorted(state.passed)),
        thrower=state.thrower,
        finished=state.finished,
        outcome=state.outcome,
        playable=tuple(a for a in legal_actions(state) if a.player == seat),
    )
