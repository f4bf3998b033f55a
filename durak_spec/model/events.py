"""What happens in one step of a game, as values (layer 2).

:func:`durak_spec.engine.advance` returns a :class:`Step`: the state after the action and the
events of the step, in the order they happened. The first event is always the action
played (:class:`Played`); what follows is what the rules did by themselves:

* :class:`Transferred`: the attack passed on, with the new defender (TRANSFER-1);
* :class:`TrumpExchanged`: the six of trumps swapped for the face-up trump (VAR-1);
* :class:`BoutEnded`: the bout beaten off (DEFEND-1) or taken (TAKE-2), with its cards;
* :class:`Drew`: one player's draw from the stock, one event per player in drawing
  order (DRAW-1, DRAW-2);
* :class:`WentOut`: the players who went out together at this bout end (END-1);
* :class:`NextBout`: the roles of the next bout (ORDER-4, ORDER-5, ORDER-6);
* :class:`GameOver`: the end of the game, with its outcome (END-3, END-4).

Every event carries ``rule``: the ID of the rule that decided it, set by the engine
function that decided it (the rule that allows the action played, the rule that settled
the bout, the drawing order, the rule that chose the next attacker, the end of the game).
A checker takes the rule of a difference from these, never from a diff of two states.

Every event is an immutable value (a named tuple, like the cards and the state) with
``to_json()`` (cards in the notation, seats as numbers, a ``"type"`` naming the event)
and a plain ``str()``. The faces (the command
line, the terminal game, bots) read these events instead of working out from two states
what the rules did.

>>> from durak_spec import Card, Rank, Suit
>>> str(Drew(1, (Card(Rank.SIX, Suit.HEARTS), Card(Rank.ACE, Suit.SPADES))))
'P1 draws 2'
>>> Drew(1, (Card(Rank.SIX, Suit.HEARTS),)).to_json()
{'type': 'draw', 'player': 1, 'cards': ['6♥']}
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from durak_spec.core.cards import Card
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState, Outcome

__all__ = [
    "BoutEnded",
    "Drew",
    "Event",
    "GameOver",
    "NextBout",
    "Played",
    "Step",
    "Transferred",
    "TrumpExchanged",
    "WentOut",
    "bout_end_text",
]


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def _rule(rule: str) -> dict[str, str]:
    return {"rule": rule} if rule else {}


def _seats(seats: tuple[int, ...]) -> str:
    return " and ".join(f"P{seat}" for seat in seats)


class Played(NamedTuple):
    """The action a player made; the first event of every step. ``rule`` is the rule that
    allows it (ATTACK-1 for an opening, BEAT-2 for a trump on a plain card ...)."""

    action: Action
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"action"``."""
        return "action"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "action": self.action.to_json(), "text": str(self.action),
                **_rule(self.rule)}

    def __str__(self) -> str:
        return str(self.action)


class Transferred(NamedTuple):
    """``player`` passed the attack on with ``card`` (played, or only shown); ``defender``
    defends now (TRANSFER-1, TRANSFER-7)."""

    player: int
    card: Card
    shown: bool
    defender: int
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"transfer"``."""
        return "transfer"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "player": self.player, "card": str(self.card),
                "shown": self.shown, "defender": self.defender, **_rule(self.rule)}

    def __str__(self) -> str:
        how = "shows" if self.shown else "plays"
        return f"P{self.player} {how} {self.card}: P{self.defender} defends now"


class TrumpExchanged(NamedTuple):
    """``player`` put ``gave`` (the six of trumps) under the stock and took ``took``, the
    face-up trump, which everyone now knows they hold (VAR-1, CLAR-5)."""

    player: int
    gave: Card
    took: Card
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"trump-exchange"``."""
        return "trump-exchange"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "player": self.player, "gave": str(self.gave),
                "took": str(self.took), **_rule(self.rule)}

    def __str__(self) -> str:
        return f"P{self.player} puts {self.gave} under the stock and takes {self.took}"


class BoutEnded(NamedTuple):
    """The bout numbered ``bout`` (from 1) is over: ``taker`` took ``cards`` (TAKE-2), or,
    when ``taker`` is ``None``, they went to the discard pile (DEFEND-1). ``rule`` is the
    rule that settled it: every attacker done or unable to add (ATTACK-5), or the attack
    limit reached (LIMIT-1, LIMIT-2, LIMIT-3, CLAR-13)."""

    bout: int
    taker: int | None
    cards: tuple[Card, ...]
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"bout-ended"``."""
        return "bout-ended"

    @property
    def result(self) -> str:
        return "beaten-off" if self.taker is None else "taken"

    @property
    def fate_rule(self) -> str:
        """The rule that says where the cards went: DEFEND-1 (discarded) or TAKE-2."""
        return "DEFEND-1" if self.taker is None else "TAKE-2"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "bout": self.bout, "result": self.result,
                "taker": self.taker, "cards": [str(c) for c in self.cards],
                **_rule(self.rule)}

    def __str__(self) -> str:
        if self.taker is None:
            return f"Beaten off: {_cards(len(self.cards))} to the discard pile"
        return f"P{self.taker} takes {_cards(len(self.cards))}"


class Drew(NamedTuple):
    """``player`` drew ``cards`` from the stock, in the order drawn (DRAW-1, DRAW-2).
    ``rule`` is the rule of the drawing order that put them there (DRAW-2, or after a
    transfer CLAR-7, in the join order CLAR-8); how many they drew is DRAW-1's."""

    player: int
    cards: tuple[Card, ...]
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"draw"``."""
        return "draw"

    @property
    def amount_rule(self) -> str:
        """The rule of how many cards are drawn: back up to six (DRAW-1)."""
        return "DRAW-1"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "player": self.player, "cards": [str(c) for c in self.cards],
                **_rule(self.rule)}

    def __str__(self) -> str:
        return f"P{self.player} draws {len(self.cards)}"


class WentOut(NamedTuple):
    """``players`` went out together at this bout end, the stock being empty (END-1)."""

    players: tuple[int, ...]
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"out"``."""
        return "out"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "players": list(self.players), **_rule(self.rule)}

    def __str__(self) -> str:
        return f"{_seats(self.players)} {'is' if len(self.players) == 1 else 'are'} out"


class NextBout(NamedTuple):
    """Bout number ``bout`` (from 1) comes next: ``attacker`` opens it against ``defender``
    (ORDER-4, ORDER-5, ORDER-6: ``rule`` names the one that chose the attacker)."""

    bout: int
    attacker: int
    defender: int
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"next-bout"``."""
        return "next-bout"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "bout": self.bout, "attacker": self.attacker,
                "defender": self.defender, **_rule(self.rule)}

    def __str__(self) -> str:
        return f"Bout {self.bout}: P{self.attacker} attacks P{self.defender}"


class GameOver(NamedTuple):
    """The game is over (END-3, END-4, END-5: ``rule``): ``outcome`` names the durak, if
    there is one."""

    outcome: Outcome
    rule: str = ""

    @property
    def type(self) -> str:
        """The event's name in JSON: ``"game-over"``."""
        return "game-over"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "durak": self.outcome.durak,
                "finishing_order": [list(group) for group in self.outcome.finishing_order],
                "text": str(self.outcome), **_rule(self.rule)}

    def __str__(self) -> str:
        return f"Game over: {self.outcome}"


Event = Played | Transferred | TrumpExchanged | BoutEnded | Drew | WentOut | NextBout | GameOver
"""Any event of a step."""

_E = TypeVar("_E", Played, Transferred, TrumpExchanged, BoutEnded, Drew, WentOut, NextBout,
             GameOver)


class Step(NamedTuple):
    """One step of a game: the state after an action, and what happened, in order."""

    state: GameState
    events: tuple[Event, ...]

    def of(self, kind: type[_E]) -> tuple[_E, ...]:
        """The events of one kind, in order (``step.of(Drew)``)."""
        return tuple(event for event in self.events if isinstance(event, kind))

    @property
    def bout_ended(self) -> BoutEnded | None:
        """The end of the bout, if this step ended one."""
        for event in self.events:
            if isinstance(event, BoutEnded):
                return event
        return None

    def to_json(self) -> list[dict[str, object]]:
        """The events as JSON-ready dicts."""
        return [event.to_json() for event in self.events]


def bout_end_text(events: tuple[Event, ...], stock: int) -> str:
    """One line for the end of a bout: the table's fate, the draws, who went out.

    ``stock`` is what is left in the stock after the drawing. Empty when ``events`` hold
    no bout end.

    >>> from durak_spec import Card, Rank, Suit
    >>> seven = Card(Rank.SEVEN, Suit.CLUBS)
    >>> bout_end_text((BoutEnded(3, 1, (seven,)), WentOut((0,))), 0)
    'P1 takes 1 card; P0 is out.'
    """
    parts: list[str] = []
    draws: list[str] = []
    for event in events:
        if isinstance(event, BoutEnded):
            parts.append(str(event))
        elif isinstance(event, Drew):
            draws.append(str(event))
        elif isinstance(event, WentOut):
            if draws:
                parts.append(f"{', '.join(draws)} (stock {stock})")
                draws = []
            parts.append(str(event))
    if draws:
        parts.append(f"{', '.join(draws)} (stock {stock})")
    if not parts:
        return ""
    return "; ".join(parts) + "."
