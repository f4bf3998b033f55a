"""Comparing the engine's answers with the reference's: reports field by field (a bout
settled on one side only as one difference) and legal actions as sets."""


from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from durak_spec.conformance.lockstep.attribution import (
    action_rule,
    report_rule,
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
from durak_spec.engine import attack_limit, could_add, turn_rule
from durak_spec.model.actions import Action
from durak_spec.model.state import GameState
from durak_spec.protocol import Report

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


def compare_reports(engine: Report, reference: Report, before: GameState | None,
                     action: Action | None, after: GameState) -> list[Difference]:
    """The fields of the public report that differ (``known`` only if the engine tells it)."""
    if engine is reference:  # the reference's own report: an answer as expected
        return []
    if not engine.known and reference.known:  # ``known`` is optional in a report
        reference = replace(reference, known=())
    if engine == reference:
        return []
    settled = _bout_end(engine, reference, before, action, after)
    if settled is not None:  # the other fields differ because of it
        return [settled]
    out: list[Difference] = []

    def differ(name: str, label: str, mine: str, theirs: str) -> None:
        out.append(Difference(label, mine, theirs,
                              report_rule(name, before, action, after, engine)))

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


def _bout_end(engine: Report, reference: Report, before: GameState | None,
              action: Action | None, after: GameState) -> Difference | None:
    """Where one side settles the bout in play after ``action`` and the other does not:
    that one difference, charged to the rule that settles it or lets it go on (the hands,
    stock and roles that differ follow from it)."""
    if before is None or action is None or not before.table or engine.over or reference.over:
        return None
    if not engine.table and after.table and after.bout == before.bout:
        # the engine settled the bout; the rules let it go on
        if not could_add(after):
            rule = "ATTACK-5"  # nobody may add, but the attackers have not said done
        else:
            limit, rule = attack_limit(after)
            if len(after.table) == 5 and after.rules.first_bout_limit_five and limit > 5:
                rule = "LIMIT-3"  # five attack cards are the limit of the first bout only
        return Difference("bout", f"settled after {action}",
                          f"goes on: {table_text([(p.attack, p.cover) for p in after.table])}"
                          f" on the table, {len(after.table)} attack cards", rule)
    if engine.table and not reference.table and after.bout > before.bout:
        # the rules settle the bout; the engine goes on with it
        limit, rule = attack_limit(before)
        table = len(engine.table)
        return Difference("bout", f"goes on: {table_text(engine.table)} on the table",
                          f"settled after {action}",
                          rule if table >= limit else "ATTACK-5")
    return None


def compare_legal(engine: Sequence[Action], reference: Sequence[Action],
                   state: GameState) -> list[Difference]:
    """Actions one side lists and the other does not (sets: order and repeats ignored)."""
    if engine == reference:  # the same list in the same order
        return []
    mine, theirs = set(engine), set(reference)
    if mine == theirs:
        return []
    out: list[Difference] = []
    seats, asked = {a.player for a in mine}, {a.player for a in theirs}
    if seats != asked and turn_difference(mine, seats, asked, state):
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

def _sort_key(action: object) -> tuple[Any, ...]:
    if isinstance(action, Action):
        return (0, *action.sort_key())
    return (1, repr(action))  # pragma: no cover - engines return actions
