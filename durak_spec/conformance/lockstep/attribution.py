"""Which rule a difference touches: the rule that makes a legal action legal, why the
reference refuses an action, the rule of a report field that differs, and whether a
difference in who may act is one of turn order. The reference decides every rule."""


from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from durak_spec.core.errors import BadAction
from durak_spec.engine import beating_rule, broken_rule
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
)
from durak_spec.model.rules import HAND_SIZE, MAX_PLAYERS
from durak_spec.model.state import GameState
from durak_spec.protocol import Report


def action_rule(state: GameState, action: Action) -> str:
    """The rule that makes a legal ``action`` legal: what an engine that misses or rejects
    it gets wrong."""
    if isinstance(action, Open):
        return "ATTACK-2" if len(action.played) > 1 else "ATTACK-1"
    if isinstance(action, ThrowIn):
        return "ATTACK-3" if action.player == state.attacker else "ATTACK-4"
    if isinstance(action, Cover):
        return beating_rule(action.card, action.attack, state.trump)
    if isinstance(action, Transfer):
        return "TRANSFER-7" if action.show else "TRANSFER-1"
    if isinstance(action, Take):
        return "TAKE-1"
    if isinstance(action, Done):
        return "ATTACK-5"
    if isinstance(action, ExchangeTrump):
        return "VAR-1"
    return "CLAR-3"  # pragma: no cover - every action kind is named above


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


def report_rule(name: str, before: GameState | None, action: Action | None,
                 after: GameState, engine: Report) -> str:
    """The rule a report field that differs touches, from what the last action did."""
    players = after.rules.players
    if name == "trump":
        return "DEAL-8" if players == MAX_PLAYERS else "DEAL-5"
    if before is None or action is None:  # the deal
        if name == "hands":
            return "DEAL-4" if any(len(h) != HAND_SIZE for h in engine.hands) else "CLAR-10"
        if name in ("stock", "face_up"):
            return "DEAL-8" if players == MAX_PLAYERS else "DEAL-6"
        if name == "attacker":
            return "ORDER-1" if any(c.suit == after.trump for h in after.hands for c in h) \
                else "ORDER-2"
        return {"defender": "ORDER-3", "known": "VIEW-2"}.get(name, "CLAR-10")
    if isinstance(action, ExchangeTrump):
        return "VIEW-2" if name == "known" else "CLAR-5"
    if name == "known":
        return "TRANSFER-7" if isinstance(action, Transfer) and action.show else "VIEW-2"
    ended = after.bout > before.bout
    taken = before.taking or isinstance(action, Take)
    if name in ("finished", "over", "durak"):
        if not ended:
            return "END-6"
        if name == "finished":
            return "END-1"
        outcome = after.outcome
        return "END-4" if outcome is not None and outcome.durak is None else "END-3"
    if not ended:
        if name == "table":
            return "ATTACK-5" if not engine.table else action_rule(before, action)
        if name == "hands":
            return "CLAR-1"
        if name in ("attacker", "defender"):
            return "TRANSFER-1" if isinstance(action, Transfer) else "ORDER-3"
        if name == "taking":
            return "TAKE-1" if isinstance(action, Take) else "CLAR-4"
        if name == "discard":
            return "DEFEND-1"
        return "DRAW-1"  # stock, face_up: nothing is drawn before the bout ends
    if name == "table":
        return "ATTACK-5"
    if name == "discard":
        return "TAKE-2" if taken else "DEFEND-1"
    if name == "hands":
        if before.stock:
            same = sorted(c for h in engine.hands for c in h) == \
                sorted(c for h in after.hands for c in h)
            return "DRAW-2" if same else "DRAW-1"
        return "TAKE-2" if taken else "DEFEND-1"
    if name == "stock":
        return "DRAW-1"
    if name == "face_up":
        return "DRAW-5"
    someone_out = len(after.finished) > len(before.finished)
    if name == "attacker":
        return "ORDER-5" if taken else "ORDER-6" if someone_out else "ORDER-4"
    if name == "defender":
        return "ORDER-6" if someone_out else "ORDER-3"
    return "TAKE-2"  # taking

_TURN_RULES = frozenset({"CLAR-3", "CLAR-16", "CLAR-17", "CLAR-18"})


def turn_difference(mine: Iterable[Action], seats: set[int], asked: set[int],
                     state: GameState) -> bool:
    """Whether a difference in who may act is one of turn order: the engine lets somebody
    act (an engine that lists nobody misses actions, such as a take), the defender the
    reference asks is asked (every protocol lets a defender with a card to answer act),
    and the reference refuses every action of a seat it does not ask by a rule of the bout
    protocol, not by another rule (an attacker-only throw-in, ATTACK-4, is no turn order)."""
    if not seats or (state.defender in asked and state.defender not in seats):
        return False
    for action in mine:
        if action.player not in asked:
            why = why_illegal(state, action)
            if why is None or why.rule not in _TURN_RULES:
                return False
    return True
