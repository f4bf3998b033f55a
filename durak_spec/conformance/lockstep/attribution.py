"""Which rule a difference touches, taken from the reference's own decisions: the rule
that allows a legal action (:func:`durak_spec.engine.grounds`), the rule the reference
names in refusing an action (:func:`durak_spec.engine.broken_rule`), the rule each event
of its step carries (:mod:`durak_spec.model.events`), and where the engine did something
the reference did not, the reference's predicate that decided otherwise (the bout goes on:
:func:`~durak_spec.engine.turns.settle_rule`; the game goes on:
:func:`~durak_spec.engine.bout_end.outcome_rule`). Nothing here decides a rule: a report
field is only matched with the event of the step that wrote it."""


from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from durak_spec.core.errors import BadAction
from durak_spec.engine import (
    broken_rule,
    deal_rule,
    grounds,
    lead_rule,
    outcome_rule,
    settle_rule,
)
from durak_spec.model.actions import Action
from durak_spec.model.events import (
    BoutEnded,
    Drew,
    Event,
    GameOver,
    NextBout,
    Played,
    Transferred,
    TrumpExchanged,
    WentOut,
)
from durak_spec.model.state import GameState
from durak_spec.protocol import Report

__all__ = ["Why", "action_rule", "event_rule", "field_rule", "load_rule", "position_rule",
           "settled_rule",
           "turn_difference", "why_illegal"]


def action_rule(state: GameState, action: Action) -> str:
    """The rule that makes a legal ``action`` legal (the reference's own grounds): what an
    engine that misses or rejects it gets wrong."""
    return grounds(state, action)


class Why(NamedTuple):
    """Why the reference refuses an action: the rule it breaks (``None`` when it is not an
    action of this game at all, such as a seat the game does not have) and the reason."""

    rule: str | None
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


def why_illegal(state: GameState, action: Action) -> Why | None:
    try:
        found = broken_rule(state, action)
    except BadAction as error:
        return Why(None, error.message)
    return None if found is None else Why(found.rule, found.reason)


def _outcome(state: GameState) -> str:
    """The reference's rule on whether the game at ``state`` is over, and how."""
    return outcome_rule(state.rules.goal, len(state.stock), state.out, len(state.hands),
                        in_bout=bool(state.table))


def outcome_at(rest: Iterable[Event], after: GameState) -> str:
    """The reference's rule on whether the game is over, and how, at a point of a step
    whose events from there on are ``rest`` (``after``: its position after the step): the
    stock then still holds the cards drawn in ``rest``, so a player out before the drawing
    is out while the stock lasts (END-2), whatever the stock holds after it."""
    drawn = sum(len(event.cards) for event in rest if isinstance(event, Drew))
    return outcome_rule(after.rules.goal, len(after.stock) + drawn, after.out,
                        len(after.hands), in_bout=bool(after.table))


# What each report field shows, as the events of a step that write it, the first found
# naming the rule; a bout's end names where its cards went for the cards, and what
# settled it for the table.
_WRITERS: Mapping[str, tuple[type[Event], ...]] = MappingProxyType({
    "table": (BoutEnded, Transferred, Played),
    "hands": (Drew, BoutEnded, TrumpExchanged, Played),
    "stock": (Drew, TrumpExchanged),
    "face_up": (Drew, TrumpExchanged),
    "discard": (BoutEnded,),
    "attacker": (NextBout, GameOver, Transferred),
    "defender": (NextBout, GameOver, Transferred),
    "taking": (BoutEnded, Played),
    "finished": (WentOut, GameOver),
    "over": (GameOver,),
    "durak": (GameOver,),
    "known": (TrumpExchanged, Drew, BoutEnded, Transferred, Played),
})
_CARDS = frozenset({"hands", "discard", "known"})
_OUTCOME = frozenset({"finished", "over", "durak"})


def field_rule(name: str, events: tuple[Event, ...], after: GameState,
               engine: Report) -> str:
    """The rule of a report field ``name`` that differs after a step whose reference
    events are ``events`` (``after``: the reference's position after it): the rule of the
    reference's event that wrote the field; where the reference wrote none, its predicate
    for the outcome (the engine ended the game, or had someone out), else the rule of the
    action played."""
    for kind in _WRITERS.get(name, ()):
        for event in events:
            if isinstance(event, kind):
                if isinstance(event, BoutEnded) and name in _CARDS:
                    return event.fate_rule
                if isinstance(event, Drew) and name == "hands":
                    return event_rule(event, _drawn(engine, after, events))
                return event.rule
    if name in _OUTCOME:
        return outcome_at(events, after)
    played = next((e for e in events if isinstance(e, Played)), None)
    return played.rule if played is not None and played.rule else _outcome(after)


def _drawn(engine: Report, after: GameState, events: tuple[Event, ...]) -> bool:
    """Whether the engine's hands hold the same cards in all as the reference's: then the
    drawing differs in its order (who got which), not in how much was drawn."""
    return sorted(c for h in engine.hands for c in h) == \
        sorted(c for h in after.hands for c in h)


def event_rule(event: Event, same_amount: bool = True) -> str:
    """The rule of one reference event that the engine did otherwise: the event's own;
    a draw's is the order's (DRAW-2, CLAR-7, CLAR-8) where the engine drew as many cards,
    else how many are drawn (DRAW-1)."""
    if isinstance(event, Drew) and not same_amount:
        return event.amount_rule
    return event.rule


def position_rule(name: str, state: GameState, dealt: bool = False) -> str | None:
    """The rule of a report field that differs right after a position was given to the
    engine (a deal or a load): the outcome's predicate for who is out and whether the
    game is over; after a deal, the first attacker's rule (ORDER-1, ORDER-2, from the
    reference's :func:`~durak_spec.engine.dealing.lead_rule`) and, where the engine dealt
    the deck order itself (``dealt``), the rule of the part of the deal that differs
    (:func:`~durak_spec.engine.dealing.deal_rule`: the face-up card and trump, DEAL-5).
    Other fields of a loaded position have no rule: the engine did not take the position
    as given."""
    if name in _OUTCOME:
        return _outcome(state)
    if name == "attacker" and state.bout == 0 and not state.table:
        return lead_rule(state.hands, state.trump)
    return deal_rule(name, len(state.hands)) if dealt else None


def load_rule(named: str, state: GameState) -> str:
    """The rule of a load the engine refuses naming the rule ``named``: where that is a
    rule of the bout's end or of the game's, the reference's decision on the same question
    for this position (what settles its bout, whether the game is over); else the rule
    the engine names."""
    family = named.split("-")[0]
    if state.table and (named in _SETTLING or family == "LIMIT"):
        return settle_rule(state)
    if family == "END":
        return _outcome(state)
    return named


_SETTLING = frozenset({"ATTACK-5", "TAKE-3", "CLAR-3", "CLAR-13"})


def settled_rule(after: GameState, events: tuple[Event, ...]) -> str:
    """The rule of a bout settled on one side only: the rule the reference's end of the
    bout names, or where the reference goes on with it, its predicate that says so."""
    ended = next((e for e in events if isinstance(e, BoutEnded)), None)
    return ended.rule if ended is not None else settle_rule(after)


_TURN_RULES = frozenset({"CLAR-3", "CLAR-16", "CLAR-17", "CLAR-18"})


def turn_difference(mine: Iterable[Action], theirs: Iterable[Action], seats: set[int],
                    asked: set[int], state: GameState) -> bool:
    """Whether a difference in who may act is one of turn order: the engine lets somebody
    act (an engine that lists nobody misses actions, such as a take), the defender the
    reference asks is asked (every protocol lets a defender with a card to answer act),
    and the reference refuses every action of a seat it does not ask by a rule of the bout
    protocol, not by another rule (an attacker-only throw-in, ATTACK-4, is no turn order);
    and no action of a seat the engine does not ask has grounds of its own beyond the
    attack (the sixth card of a later bout, LIMIT-3, is no turn order either)."""
    if not seats or (state.defender in asked and state.defender not in seats):
        return False
    for action in theirs:
        if action.player not in seats and grounds(state, action).startswith("LIMIT-"):
            return False
    for action in mine:
        if action.player not in asked:
            why = why_illegal(state, action)
            if why is None or why.rule not in _TURN_RULES:
                return False
    return True
