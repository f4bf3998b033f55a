"""Comparing the engine's answers with the reference's: what happened in a step event by
event (where the engine reports its events), reports field by field (a bout settled on one
side only as one difference) and legal actions as sets."""


from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from durak_spec.conformance.lockstep.attribution import (
    action_rule,
    event_rule,
    field_rule,
    outcome_at,
    position_rule,
    settled_rule,
    turn_difference,
    why_illegal,
)
from durak_spec.conformance.lockstep.differences import Difference
from durak_spec.conformance.lockstep.text import (
    cards_text,
    finished_text,
    seat_text,
    seats_text,
    table_text,
)
from durak_spec.engine import turn_rule
from durak_spec.model.actions import Action
from durak_spec.model.events import BoutEnded, Drew, Event, GameOver, Played, WentOut
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol import Report
from durak_spec.protocol.explain import NOTHING_LISTED, explain_legal

_LEGAL_SHOWN = 8  # legal-action differences listed per divergence

_FIELDS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("table", table_text),
    ("stock", str),
    ("trump", str),
    ("face_up", lambda c: "none" if c is None else str(c)),
    ("discard", str),
    ("attacker", seat_text),
    ("defender", seat_text),
    ("taking", lambda b: "true" if b else "false"),
    ("finished", finished_text),
    ("over", lambda b: "true" if b else "false"),
    ("durak", seat_text),
)


def _norm_groups(value: Sequence[Sequence[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(group) for group in value)


def compare_reports(engine: Report, reference: Report, state: GameState,
                    events: tuple[Event, ...] | None = None,
                    before: GameState | None = None, dealt: bool = False
                    ) -> list[Difference]:
    """The fields of the public report that differ (``known`` only if the engine tells
    it). ``events`` are the reference's events of the step that led to ``state`` from
    ``before``; ``None`` where ``state`` was given to the engine as a position (the deal,
    a load), which is compared as that position. Once the game is over on both sides,
    the roles and ``taking`` are not compared: the rules decide nothing there (the
    protocol's end-of-game convention). ``dealt``: ``state`` is a deal the engine laid
    out from the deck order itself, whose parts are named by the rules of the deal."""
    if engine is reference:  # the reference's own report: an answer as expected
        return []
    if not engine.known and reference.known:  # ``known`` is optional in a report
        reference = replace(reference, known=())
    if engine.over and reference.over:  # no roles once the game is over
        engine = replace(engine, attacker=reference.attacker, defender=reference.defender,
                         taking=reference.taking)
    if engine == reference:
        return []
    if events is not None and before is not None:
        settled = _settled(engine, reference, before, state, events)
        if settled is not None:  # the other fields differ because of it
            return [settled]
    out: list[Difference] = []

    def differ(name: str, label: str, mine: str, theirs: str) -> None:
        rule = position_rule(name, state, dealt) if events is None else \
            field_rule(name, events, state, engine)
        out.append(Difference(label, mine, theirs, rule))

    mine_hands = tuple(tuple(sorted(h)) for h in engine.hands)
    if len(mine_hands) != len(reference.hands):
        differ("hands", "hands", f"has {len(mine_hands)} hands",
               f"has {len(reference.hands)} hands")
    else:
        for seat, (mine, theirs) in enumerate(zip(mine_hands, reference.hands, strict=True)):
            if mine != theirs:
                differ("hands", f"hands[P{seat}]", cards_text(mine), cards_text(theirs))
    for name, show in _FIELDS:
        mine_value: Any = getattr(engine, name)
        theirs_value: Any = getattr(reference, name)
        if name in ("table", "finished"):
            mine_value, theirs_value = _norm_groups(mine_value), _norm_groups(theirs_value)
        if mine_value != theirs_value:
            differ(name, name, show(mine_value), show(theirs_value))
    if engine.known:
        mine_known = tuple(tuple(sorted(k)) for k in engine.known)
        if len(mine_known) != len(reference.known):
            differ("known", "known", f"has {len(mine_known)} entries",
                   f"has {len(reference.known)} entries")
        else:
            for seat, (mine, theirs) in enumerate(zip(mine_known, reference.known,
                                                      strict=True)):
                if mine != theirs:
                    differ("known", f"known[P{seat}]", cards_text(mine), cards_text(theirs))
    return out


def _settled(engine: Report, reference: Report, before: GameState, after: GameState,
             events: tuple[Event, ...]) -> Difference | None:
    """Where one side settles the bout in play and the other does not: that one
    difference, under the rule of the reference's decision (its bout end, or its
    predicate that the bout goes on); the hands, stock and roles that differ follow."""
    if not before.table or engine.over or reference.over:
        return None
    action = next((str(e) for e in events if isinstance(e, Played)), "the step")
    if not engine.table and after.table and after.bout == before.bout:
        # the engine settled the bout; the reference goes on with it
        return Difference("bout", f"settled after {action}",
                          f"goes on: {table_text([(p.attack, p.cover) for p in after.table])}"
                          f" on the table, {len(after.table)} attack cards",
                          settled_rule(after, events))
    if engine.table and not reference.table and after.bout > before.bout:
        # the reference settled the bout; the engine goes on with it
        return Difference("bout", f"goes on: {table_text(engine.table)} on the table",
                          f"settled after {action}", settled_rule(after, events))
    return None


def _plain(event: Event) -> Event:
    """An event without its rule (an engine may name rules otherwise), and an outcome as
    the wire carries it."""
    if isinstance(event, GameOver):
        return GameOver(Outcome(event.outcome.finishing_order, event.outcome.durak))
    return event._replace(rule="")


def compare_events(engine: Sequence[Event], reference: tuple[Event, ...], after: GameState
                   ) -> list[Difference]:
    """What happened in the step on each side, event by event: the first event that
    differs, as one difference under the rule of the reference's decision there (its
    event's rule; where the engine has an event the reference has not, the reference's
    predicate that decided otherwise). Empty if both tell the same story."""
    for index in range(max(len(engine), len(reference))):
        mine = engine[index] if index < len(engine) else None
        theirs = reference[index] if index < len(reference) else None
        if mine is not None and theirs is not None and _plain(mine) == _plain(theirs):
            continue
        if isinstance(mine, (WentOut, GameOver)) and type(mine) is not type(theirs):
            # somebody out, or the game over, where the reference goes on: its rule on the
            # outcome at that point of the step, the cards it still draws in the stock
            rule = outcome_at(reference[index:], after)
        elif theirs is not None:
            # a draw to another player is the order's; fewer or more to the same, the amount's
            amount = isinstance(mine, Drew) and isinstance(theirs, Drew) and \
                mine.player == theirs.player and len(mine.cards) != len(theirs.cards)
            rule = event_rule(theirs, not amount)
        elif isinstance(mine, BoutEnded):
            rule = settled_rule(after, reference)
        else:
            rule = field_rule("table", reference, after, Report.of(after))
        return [Difference(f"event {index + 1} of the step",
                           "nothing more" if mine is None else str(mine),
                           "nothing more" if theirs is None else str(theirs), rule)]
    return []


def compare_legal(engine: Sequence[Action], reference: Sequence[Action],
                   state: GameState) -> list[Difference]:
    """Actions one side lists and the other does not (sets: order and repeats ignored).
    An engine that lists nothing where the rules let somebody do several things is one
    difference, under the rule the scenarios name it by
    (:func:`~durak_spec.protocol.explain.explain_legal`), however many actions that leaves
    out."""
    if engine == reference:  # the same list in the same order
        return []
    mine, theirs = set(engine), set(reference)
    if mine == theirs:
        return []
    nothing = explain_legal(state, ()) if not mine else []
    if nothing and nothing[0].kind == NOTHING_LISTED:
        return [Difference("legal actions", "lists none",
                           f"{len(theirs)} legal, such as {_moves_text(reference)}",
                           nothing[0].rule)]
    out: list[Difference] = []
    seats, asked = {a.player for a in mine}, {a.player for a in theirs}
    if seats != asked and turn_difference(mine, theirs, seats, asked, state):
        # who may act differs: one difference, of turn order
        order = state.rules.turn_order
        out.append(Difference("who may act now", seats_text(seats), seats_text(asked)
                              + f" (turn_order={order.value})",
                              turn_rule(state) or "CLAR-3"))
        mine = {a for a in mine if a.player in asked}
        theirs = {a for a in theirs if a.player in seats}
    for action in sorted(mine - theirs, key=_sort_key):
        why = why_illegal(state, action)
        text = f"illegal: {why.reason}" if why is not None else "not listed"
        out.append(Difference(f"legal action {action}", "lists it", text,
                              why.rule if why is not None else action_rule(state, action)))
    for action in sorted(theirs - mine, key=_sort_key):
        out.append(Difference(f"legal action {action}", "does not list it", "legal",
                              action_rule(state, action)))
    if len(out) > _LEGAL_SHOWN:
        more = len(out) - _LEGAL_SHOWN
        out = [*out[:_LEGAL_SHOWN],
               Difference(f"{more} more legal actions", "differ", "(not shown)", None)]
    return out

def _moves_text(actions: Sequence[Action], most: int = 3) -> str:
    shown = sorted(set(actions), key=_sort_key)
    return ", ".join(str(a) for a in shown[:most]) + (" ..." if len(shown) > most else "")


def _sort_key(action: object) -> tuple[Any, ...]:
    if isinstance(action, Action):
        return (0, *action.sort_key())
    return (1, repr(action))  # pragma: no cover - engines return actions
