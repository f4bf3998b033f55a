"""One engine protocol (layer 6): how the specification talks to any Durak engine.

The feature steps, the conformance checker and the lockstep comparisons speak to an
engine only through :class:`Engine`. The reference implementation satisfies it
(:class:`ReferenceEngine`); so can a subprocess speaking JSON lines, or a user's own
Python engine.

An engine plays one game at a time: ``start`` (from a rule set and a deck order) or
``load`` (a position, if the engine declares the ``load`` capability) begins it;
``legal_actions`` and ``apply`` play it; ``report`` tells what lies where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol, runtime_checkable

from durak_spec.core.cards import Card, Suit
from durak_spec.core.errors import BadAction, IllegalAction, InputError
from durak_spec.core.version import __version__
from durak_spec.engine import advance, check_reachable, legal_actions, new_game
from durak_spec.model.actions import Action
from durak_spec.model.events import Event
from durak_spec.model.rules import AXES, PROFILES, Axis, RuleSet, TurnOrder
from durak_spec.model.state import GameState, Outcome

__all__ = [
    "PROTOCOL_VERSION",
    "Accepted",
    "Capabilities",
    "Engine",
    "LoadDeclined",
    "NoGame",
    "ReferenceEngine",
    "Rejected",
    "Report",
    "Verdict",
    "new_report",
]

PROTOCOL_VERSION = 1


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What an engine says about itself in the handshake."""

    name: str
    version: str = ""
    protocol: int = PROTOCOL_VERSION
    profiles: tuple[str, ...] = ()
    """The named profiles whose rules the engine claims to play."""
    load: bool = False
    """Whether the engine can start from a given position (``Engine.load``)."""
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    axes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per rule-set axis, the values (as in ``RuleSet.to_dict``, booleans as ``"on"`` /
    ``"off"``) the engine plays in any combination, beyond its whole profiles."""
    turn_orders: tuple[str, ...] = ("free",)
    """The bout protocols (values of the axis ``turn_order``: CLAR-3, CLAR-17, CLAR-18)
    the engine plays, its own first; its profiles are claimed under each of them. A
    ``turn_order`` entry of :attr:`axes` says the same and takes precedence."""

    step: bool = False
    """Whether the engine answers ``apply`` with ``then`` by the report and legal actions
    after the action as well (one round trip per action; see :mod:`.wire`)."""

    def plays_turn_order(self, value: str) -> bool:
        """Whether the engine plays the bout protocol ``value``."""
        return value in self.axes.get("turn_order", self.turn_orders)

    def supports(self, rules: RuleSet) -> str | None:
        """``None`` if the engine claims these rules, else the reason it does not."""
        if rules.players not in self.players:
            return f"{self.name} does not play with {rules.players} players"
        order = rules.turn_order.value
        if not self.plays_turn_order(order):
            plays = ", ".join(self.axes.get("turn_order", self.turn_orders))
            return f"{self.name} plays the bout protocol turn_order={plays}, not {order}"
        for name in self.profiles:
            known = PROFILES.get(name)
            if known is not None and \
                    known.rules(players=rules.players).replace(turn_order=rules.turn_order) \
                    == rules:
                return None
        if self.axes:
            for axis in AXES:
                if axis.name == "players" or axis.name == "turn_order":
                    continue
                value = Axis.format(getattr(rules, axis.name))
                # An axis the engine does not list is played at its default value only.
                default = Axis.format(getattr(RuleSet(), axis.name))
                played = self.axes.get(axis.name, (default,))
                if value not in played:
                    return f"{self.name} does not play {axis.name}={value}"
            return None
        return f"{self.name} claims no profile with these rules"

    @staticmethod
    def every_axis() -> dict[str, tuple[str, ...]]:
        """Every value of every axis: what an engine playing any rule set declares."""
        out: dict[str, tuple[str, ...]] = {}
        for axis in AXES:
            if axis.name == "players":
                continue
            if axis.enum is not None:
                out[axis.name] = tuple(str(m.value) for m in axis.enum)
            else:
                out[axis.name] = ("on", "off")
        return out


@dataclass(frozen=True, slots=True)
class Accepted:
    """The engine accepted the action."""

    ok: bool = field(default=True, init=False)


@dataclass(frozen=True, slots=True)
class Rejected:
    """The engine rejected the action; ``rule`` is a rule ID if the engine names one."""

    reason: str
    rule: str | None = None
    ok: bool = field(default=False, init=False)


Verdict = Accepted | Rejected


@dataclass(frozen=True)
class Report:
    """What lies where, as an engine reports it: the facts the specification checks.

    Cards are in canonical order; the table lists attack cards with their covers.
    """

    hands: tuple[tuple[Card, ...], ...]
    table: tuple[tuple[Card, Card | None], ...]
    stock: int
    trump: Suit
    face_up: Card | None
    discard: int
    attacker: int
    defender: int
    taking: bool
    finished: tuple[tuple[int, ...], ...]
    over: bool
    durak: int | None
    known: tuple[tuple[Card, ...], ...] = ()
    """Per seat, the cards in that hand that every player knows (VIEW-2)."""

    @classmethod
    def of(cls, state: GameState) -> Report:
        outcome = state.outcome if state.finished else None  # nobody out: not over
        return cls(
            state.hands,
            state.table,  # the engine's pairs, as the wire reads them (a pair is a tuple)
            len(state.stock),
            state.trump,
            state.face_up,
            len(state.discard),
            state.attacker,
            state.defender,
            state.taking,
            state.finished,
            outcome is not None,
            outcome.durak if outcome is not None else None,
            tuple([tuple(sorted(k)) if k else () for k in state.known]),
        )


new_report: Final = Report
"""The constructor of :class:`Report` under an older name (``protocol/wire.py`` still calls
it so): ``new_report(hands, table, ...)`` is ``Report(hands, table, ...)``."""


@runtime_checkable
class Engine(Protocol):
    """A Durak engine as the specification sees it."""

    def capabilities(self) -> Capabilities: ...

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        """Begin a game: ``deck`` in dealing and drawing order (CLAR-10).

        An engine refuses a deck or rule set it cannot play by raising ``ValueError``
        (with a ``.rule`` attribute naming the rule, where it knows one).
        """
        ...

    def load(self, state: GameState) -> Report:
        """Begin from a position (only if ``capabilities().load``).

        An engine that can load positions but not this one (a position it cannot
        represent) raises :class:`LoadDeclined` with the reason: the checker counts the
        scenario as skipped with that reason, not as an error.
        """
        ...

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of every player who may act now."""
        ...

    def apply(self, action: Action) -> Verdict:
        """Play ``action`` if legal; a rejected action changes nothing."""
        ...

    def report(self) -> Report:
        """The position now."""
        ...

    def close(self) -> None:
        """Release the engine's resources."""
        ...


class LoadDeclined(InputError):
    """An engine's standard answer to a ``load`` of a position it cannot represent (over
    the wire: an error response with ``"declined": true``). Not a verdict on the rules:
    a checker skips what needed the position, giving the reason."""

    code = "load-declined"


class NoGame(InputError):
    """A request that needs a game before any was started or loaded."""

    code = "no-game"


class ReferenceEngine:
    """The built-in engine, through the protocol."""

    def __init__(self) -> None:
        self._state: GameState | None = None
        self.last_events: tuple[Event, ...] = ()
        """What happened in the last step played (``durak_spec.model.events``)."""

    def capabilities(self) -> Capabilities:

        return Capabilities(name="durak-spec reference", version=__version__,
                            profiles=tuple(PROFILES), load=True,
                            axes=Capabilities.every_axis(),
                            turn_orders=tuple(str(m.value) for m in TurnOrder))

    @property
    def state(self) -> GameState:
        if self._state is None:
            raise NoGame("no game yet: send start or load first (in Python: call start() or "
                         "load())")
        return self._state

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        self._state = new_game(rules, deck=deck, seed=seed)
        self.last_events = ()
        return Report.of(self._state)

    def start_later(self, rules: RuleSet, deck: Sequence[Card], seed: int,
                    previous: Outcome) -> Report:
        """Begin a later game of a match, knowing the last one's outcome (ORDER-7): an
        optional method beside ``start`` (the wire's ``start`` carries it as
        ``previous``)."""
        self._state = new_game(rules, deck=deck, seed=seed, previous=previous)
        self.last_events = ()
        return Report.of(self._state)

    def load(self, state: GameState) -> Report:
        # A position play can reach, not just well formed.
        self._state = check_reachable(state)
        self.last_events = ()
        return Report.of(state)

    def legal_actions(self) -> tuple[Action, ...]:
        return legal_actions(self.state)

    def apply(self, action: Action) -> Verdict:
        """Play ``action``; a rule it breaks, or something that is not an action of this
        game (rule ``None``), is a rejection. The events of the step are kept in
        :attr:`last_events`."""
        try:
            step = advance(self.state, action)
        except IllegalAction as error:
            return Rejected(error.reason, error.rule)
        except BadAction as error:
            return Rejected(error.message, None)
        self._state = step.state
        self.last_events = step.events
        return Accepted()

    def report(self) -> Report:
        return Report.of(self.state)

    def close(self) -> None:
        self._state = None
        self.last_events = ()
