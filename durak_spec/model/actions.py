"""The actions players know, and their notation (layer 2).

Every action names the seat of the player who makes it (0-based). In text an action is
written ``P<seat> <move>``; the moves are:

======================  =========================================================
``open 7♣``              open a bout (``open 7♣ 7♦`` opens with several of a rank)
``throw 9♦``             throw in (add) an attack card
``cover 7♣ with 9♣``     cover the attack card 7♣ with 9♣ (``cover 7♣ 9♣`` too)
``transfer 8♥``          transfer the attack by playing 8♥ (transfer game)
``show 8♦``              transfer by showing the trump 8♦ (where the rules allow)
``take``                 the defender takes the table
``done``                 an attacker has nothing more to add ("beaten" too)
``exchange``             swap the six of trumps for the face-up trump (VAR-1)
======================  =========================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType
from typing import ClassVar, Final

from durak_spec.core.cards import Card, CardError, format_cards, parse_card
from durak_spec.core.errors import NotationError

__all__ = [
    "Action",
    "Cover",
    "Done",
    "ExchangeTrump",
    "Open",
    "Take",
    "ThrowIn",
    "Transfer",
    "action_from_json",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions: the acting player's seat."""

    player: int
    kind: ClassVar[str] = ""
    order: ClassVar[int] = 0

    @property
    def move(self) -> str:
        """The move without the player, e.g. ``"cover 7♣ with 9♣"``."""
        return self.kind

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this action puts on the table or shows (empty for take/done)."""
        return ()

    def sort_key(self) -> tuple[int, int, tuple[Card, ...]]:
        """The stable order of legal actions: seat, kind, then cards in canonical order."""
        return (self.player, self.order, self.cards)

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "type": self.kind}

    def __str__(self) -> str:
        return f"P{self.player} {self.move}"


@dataclass(frozen=True, slots=True)
class Open(Action):
    """Open a bout with one card, or several cards of one rank where allowed (ATTACK-1/2)."""

    played: tuple[Card, ...]
    kind: ClassVar[str] = "open"
    order: ClassVar[int] = 0

    def __post_init__(self) -> None:
        # The cards of an opening form a set: keep them in canonical order, so that
        # equal openings are equal actions whatever order they were written in.
        played = self.played
        if type(played) is not tuple or (len(played) > 1 and any(
                a > b for a, b in pairwise(played))):
            object.__setattr__(self, "played", tuple(sorted(played)))

    @property
    def move(self) -> str:
        return f"open {format_cards(self.played)}"

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.played

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "type": self.kind, "cards": [str(c) for c in self.played]}


@dataclass(frozen=True, slots=True)
class ThrowIn(Action):
    """Add an attack card of a rank already on the table (ATTACK-3)."""

    card: Card
    kind: ClassVar[str] = "throw"
    order: ClassVar[int] = 1

    @property
    def move(self) -> str:
        return f"throw {self.card}"

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card,)

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "type": self.kind, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Cover(Action):
    """Cover (beat) the attack card ``attack`` with ``card`` (BEAT-*)."""

    attack: Card
    card: Card
    kind: ClassVar[str] = "cover"
    order: ClassVar[int] = 2

    @property
    def move(self) -> str:
        return f"cover {self.attack} with {self.card}"

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card,)

    def sort_key(self) -> tuple[int, int, tuple[Card, ...]]:
        return (self.player, self.order, (self.attack, self.card))

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "type": self.kind, "attack": str(self.attack),
                "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Transfer(Action):
    """Pass the attack on with a card of its rank, or by showing a trump (TRANSFER-*)."""

    card: Card
    show: bool = False
    kind: ClassVar[str] = "transfer"
    order: ClassVar[int] = 3

    @property
    def move(self) -> str:
        return f"{'show' if self.show else 'transfer'} {self.card}"

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card,)

    def sort_key(self) -> tuple[int, int, tuple[Card, ...]]:
        return (self.player, self.order + (1 if self.show else 0), (self.card,))

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "type": "show" if self.show else self.kind,
                "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Take(Action):
    """The defender takes every card on the table (TAKE-1/2)."""

    kind: ClassVar[str] = "take"
    order: ClassVar[int] = 5


@dataclass(frozen=True, slots=True)
class Done(Action):
    """An attacker adds nothing more ("done" / "beaten", ATTACK-5)."""

    kind: ClassVar[str] = "done"
    order: ClassVar[int] = 6


@dataclass(frozen=True, slots=True)
class ExchangeTrump(Action):
    """Swap the six of trumps for the face-up trump under the stock (VAR-1)."""

    kind: ClassVar[str] = "exchange"
    order: ClassVar[int] = 7


_PLAYER = re.compile(r"(?:P(?P<p>[0-9]+)[ \t]*:?|(?P<q>[0-9]+)[ \t]*:)[ \t]*(?P<rest>.*)",
                     re.IGNORECASE | re.DOTALL)
"""The seat prefix: ``P1``, ``p1:``, ``1:`` (ASCII digits only)."""
_MAX_SEAT_DIGITS = 3
_ALIASES: Final = MappingProxyType({
    "open": "open", "attack": "open", "lead": "open",
    "throw": "throw", "throw-in": "throw", "add": "throw",
    "cover": "cover", "beat": "cover",
    "transfer": "transfer", "pass-on": "transfer",
    "show": "show",
    "take": "take", "pick-up": "take",
    "done": "done", "beaten": "done", "pass": "done",
    "exchange": "exchange", "swap": "exchange",
})


def _card(text: str, where: str | Callable[[], str]) -> Card:
    """A card of an action; ``where`` (or what it returns) says which action, on error."""
    try:
        return parse_card(text)
    except CardError as error:
        context = where if isinstance(where, str) else where()
        raise NotationError(f"{context}: {error}", code="card") from None


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more)"


def parse_action(text: str, player: int | None = None) -> Action:
    """Parse an action in the notation (``"P1 cover 7♣ with 9♣"``, ``"take"``).

    ``player`` supplies the seat when the text has no ``P<n>`` prefix; a prefix that
    disagrees with ``player`` is an error.
    """
    if not isinstance(text, str):
        raise NotationError(f"an action must be text like 'P0 open 7♣', not {_cut(repr(text))}")
    shown = repr(_cut(text))
    rest = text.strip()
    match = _PLAYER.fullmatch(rest)
    if match and (match.group("p") or match.group("q")):
        digits = match.group("p") or match.group("q")
        if len(digits) > _MAX_SEAT_DIGITS:
            raise NotationError(f"{shown}: P{_cut(digits, 10)} is not a seat; seats are P0 "
                                "to P5", code="no-such-player")
        seat = int(digits)
        if player is not None and seat != player:
            raise NotationError(f"{shown} names player P{seat}, but it is P{player}'s action")
        player = seat
        rest = match.group("rest")
    if player is None:
        raise NotationError(f"{shown} does not say which player acts: write it like 'P0 take'")
    words = rest.replace(",", " ").split()
    if not words:
        raise NotationError(f"{shown} has no move: write open, throw, cover, transfer, "
                            "show, take, done or exchange")
    verb = words[0].lower()
    args = words[1:]
    if verb == "throw" and args and args[0].lower() == "in":
        args = args[1:]
    if verb == "pick" and args and args[0].lower() == "up":
        verb, args = "pick-up", args[1:]
    kind = _ALIASES.get(verb)
    if kind is None:
        raise NotationError(f"{_cut(verb)!r} is not a move; moves are open, throw, cover, "
                            "transfer, show, take, done, exchange")
    if kind == "open":
        if not args:
            raise NotationError(f"{shown}: open needs at least one card, like 'open 7♣'")
        return Open(player, tuple(_card(a, shown) for a in args))
    if kind in ("throw", "transfer", "show"):
        if len(args) != 1:
            raise NotationError(f"{shown}: {kind} needs exactly one card, like '{kind} 9♦'")
        card = _card(args[0], shown)
        if kind == "throw":
            return ThrowIn(player, card)
        return Transfer(player, card, show=kind == "show")
    if kind == "cover":
        cards = [a for a in args if a.lower() not in ("with", "by")]
        if len(cards) != 2:
            raise NotationError(f"{shown}: cover names the attack card and the covering card, "
                                "like 'cover 7♣ with 9♣'")
        return Cover(player, _card(cards[0], shown), _card(cards[1], shown))
    if args:
        raise NotationError(f"{shown}: {kind} takes no cards")
    if kind == "take":
        return Take(player)
    if kind == "done":
        return Done(player)
    return ExchangeTrump(player)


def action_from_json(data: Mapping[str, object]) -> Action:
    """The inverse of :meth:`Action.to_json`, with clear errors for malformed data.

    An error quotes the action, cut short; the quote is made only when something is
    wrong, so reading an action costs time linear in its size.
    """
    if not isinstance(data, Mapping):
        raise NotationError(f"an action must be a JSON object, not {_cut(repr(data))}")

    def context() -> str:
        return f"action {_cut(repr(dict(data)), 120)}"

    player = data.get("player")
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        raise NotationError(f"{context()}: 'player' must be a seat number (0, 1, ...)")
    kind = data.get("type")

    def card(key: str) -> Card:
        value = data.get(key)
        if not isinstance(value, str):
            raise NotationError(f"{context()}: {key!r} must be a card like '7♣'")
        return _card(value, context)

    if kind == "open":
        cards = data.get("cards")
        if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
            raise NotationError(f"{context()}: 'cards' must be a list of cards")
        return Open(player, tuple(_card(c, context) for c in cards))
    if kind == "throw":
        return ThrowIn(player, card("card"))
    if kind == "cover":
        return Cover(player, card("attack"), card("card"))
    if kind in ("transfer", "show"):
        return Transfer(player, card("card"), show=kind == "show")
    if kind == "take":
        return Take(player)
    if kind == "done":
        return Done(player)
    if kind == "exchange":
        return ExchangeTrump(player)
    raise NotationError(f"{context()}: unknown type {_cut(repr(kind))}; types are open, "
                        "throw, cover, transfer, show, take, done, exchange")
