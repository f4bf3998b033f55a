"""One engine protocol (layer 5): how the specification talks to any Durak engine.

The feature steps, the conformance checker and the lockstep comparisons speak to an
engine only through :class:`Engine`. The reference implementation satisfies it
(:class:`ReferenceEngine`); so can a subprocess speaking JSON lines, or a user's own
Python engine.

An engine plays one game at a time: ``start`` (from a rule set and a deck order) or
``load`` (a position, if the engine declares the ``load`` capability) begins it;
``legal_actions`` and ``apply`` play it; ``report`` tells what lies where.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from durak_spec.core.cards import Card, Suit
from durak_spec.core.errors import BadAction, IllegalAction, InputError
from durak_spec.core.version import __version__
from durak_spec.engine import advance, check_reachable, legal_actions, new_game
from durak_spec.model.actions import Action
from durak_spec.model.events import Event
from durak_spec.model.rules import PROFILES, RuleSet, TurnOrder
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol.claims import PROTOCOL_VERSION, Capabilities

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
]

@dataclass(frozen=True, slots=True)
class Accepted:
    """The engine accepted the action. ``events`` is what happened in the step, in
    order, each with the rule that decided it (:mod:`durak_spec.model.events`), where the
    engine reports it (capability ``events``); ``None`` where it does not. The events do
    not count in comparing two verdicts: an accepted action is an accepted action."""

    events: tuple[Event, ...] | None = field(default=None, compare=False)
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




@runtime_checkable
class Engine(Protocol):
    """A Durak engine as the specification sees it."""

    def capabilities(self) -> Capabilities: ...

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        """Begin a game: ``deck`` in dealing and drawing order (CLAR-10).

        An engine refuses a deck or rule set it cannot play by raising ``ValueError``
        (with a ``.rule`` attribute naming the rule, where it knows one).

        Two optional methods beside it begin a game too: ``start_later`` (a later game of
        a match, knowing the last one's outcome, ORDER-7) and ``start_for`` (a game of a
        number of players no rule set may hold, to see it refused, DEAL-3); the wire's
        ``start`` carries both (``previous``, ``rules.players``).
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
        """Play ``action`` if legal; a rejected action changes nothing. An engine with the
        capability ``events`` says what happened in :attr:`Accepted.events`."""
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
                            turn_orders=tuple(str(m.value) for m in TurnOrder), events=True)

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

    def start_for(self, players: int, rules: RuleSet, deck: Sequence[Card],
                  seed: int = 0) -> Report:
        """Begin a game of ``players`` players under ``rules`` otherwise: an optional
        method beside ``start`` for a count no rule set may hold (the wire's ``start``
        carries it as ``rules.players``); such a count is refused naming DEAL-3."""
        return self.start(rules.with_players(players), deck, seed)

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
        return Accepted(step.events)

    def report(self) -> Report:
        return Report.of(self.state)

    def close(self) -> None:
        self._state = None
        self.last_events = ()
