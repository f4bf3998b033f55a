"""What the engine did wrong in a failed scenario, named after the rule it breaks, not
after the scenario that showed it (layer 6).

A scenario fails at a step, but what the engine did wrong may lie earlier (a bout it
ended too soon) or in another rule than the scenario's (an engine that lists nothing
fails every scenario in which somebody plays). :func:`diagnose` looks at the scenario's
game once it failed, in this order, and returns the first difference it finds, charged
to a rule by the reference's own decisions (:mod:`durak_spec.protocol.explain`):

1. a deal or a move after which the engine's report differs from the reference's: the
   rule the reference's step decided it by (a deal whose first attacker differs is the
   opener's rule, and a move forbidden only because of that is no second cause); a
   position loaded whose bout the engine settles at once, by what lets the bout go on;
2. a move the engine accepted and the reference refuses: the reference's rule;
3. where the engine's last move was rejected: its legal actions there against the
   reference's, and a rule ID the engine named for refusing a move the rules allow;
4. its legal actions now against the reference's.

``None`` when none of these differ (the reference was set apart from the engine's game,
or the scenario fails for what the steps alone check): the report then names the
scenario's rule, as before.
"""

from __future__ import annotations

from durak_spec.core.ruleindex import load_rule_index
from durak_spec.engine import turn_rule
from durak_spec.model.actions import Done, ThrowIn
from durak_spec.protocol import Accepted, Rejected
from durak_spec.protocol.explain import TURN_ORDER, Difference, explain_legal, judge_move
from durak_spec.spec.context import GameContext

__all__ = ["diagnose"]


def diagnose(game: GameContext) -> Difference | None:
    """The first difference between the engine and the reference in ``game`` (a
    scenario that failed), or ``None``. It may ask the engine about moves it does not
    list: call it only once the scenario is over."""
    if game.diverged is not None:  # it came first: after a move parts them none is kept
        return game.diverged
    if game.parted is not None:
        return game.parted
    reference = game.reference
    if reference is None or not game.started:
        return None
    index = load_rule_index()
    verdict, action, before = game.answer, game.action, game.before
    try:
        if action is not None and before is not None and reference.state is before:
            # the last move, which the reference did not play: the engine rejected it, or
            # the scenario failed on it before the reference played it
            if isinstance(verdict, Accepted) and isinstance(action, ThrowIn | Done) \
                    and action not in game.legal_before and action in reference.legal_actions():
                # its own verdict allows the card and the count: only who it asks differs
                return Difference(turn_rule(before) or "CLAR-3", TURN_ORDER, "missing",
                                  (action,), f"who acts: it accepts {action}, which it does "
                                  "not list")
            listed = explain_legal(before, game.legal_before)
            if listed:
                return listed[0]
            judged = judge_move(before, action, verdict, game.legal_before)
            if judged is not None or not isinstance(verdict, Rejected):
                return judged  # the engine played a move the reference did not: no more

        found = explain_legal(reference.state, game.engine.legal_actions(),
                              probe=game.engine.apply, known=index)
    except Exception:  # an engine that breaks on the questions: the step's message stands
        return None
    return found[0] if found else None
