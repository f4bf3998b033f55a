"""Planning a game on the reference alone (so that an engine can be sent requests ahead),
the calls the plan expects, and bringing the random draws and the engine back to a step
of the plan."""


from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from durak_spec.conformance.lockstep.attribution import why_illegal
from durak_spec.conformance.lockstep.driver import After, PairedGame
from durak_spec.conformance.lockstep.probes import pick_probe
from durak_spec.conformance.lockstep.record import Step
from durak_spec.engine import advance, legal_actions
from durak_spec.model.actions import Action, Done, Take
from durak_spec.model.state import GameState
from durak_spec.protocol import Report
from durak_spec.protocol.subprocess_engine import Expected


class Planned(NamedTuple):
    step: Step
    after: After | None
    """For an action, the reference's position and legal actions after it."""
    asked: bool = True
    """For a probe, whether the engine is asked it (``PairedGame.probe``: only if illegal)."""
    shown: Report | None = None
    """The reference's report of the position after the step (for a probe: before it)."""


KEEN = 0.9
"""Once the stock is empty, how often a game goes on with an action other than a take or
a done, where there is one: so that random games often reach the end the rules decide
(who goes out when, a draw), which uniform choices almost never reach (a draw: none in
300 random games of each player count; about one in a hundred this way)."""


def choose(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The random action a lockstep game plays next among ``legal``: uniform while the
    stock lasts; after it, keen to play cards out (:data:`KEEN`). Not a rule: how the
    games explore."""
    if not state.stock:
        keen = [action for action in legal if not isinstance(action, (Take, Done))]
        if keen and rng.random() < KEEN:
            return rng.choice(keen)
    return rng.choice(legal)


def plan_game(game: PairedGame, rng: random.Random, *, max_actions: int, probe_rate: float
          ) -> tuple[list[Planned], bool]:
    """The steps of one random game, chosen on the reference alone (the engine's answers
    never change its course); and whether the game is cut at ``max_actions``."""
    state, legal = game.state, game.legal
    shown = game.shown(state)
    plan: list[Planned] = []
    played = 0
    while legal:
        if played >= max_actions:
            return plan, True
        if probe_rate > 0 and rng.random() < probe_rate:
            probe = pick_probe(state, legal, rng)
            if probe is not None:
                plan.append(Planned(Step(probe, probe=True), None,
                                     why_illegal(state, probe) is not None, shown))
        action = choose(state, legal, rng)
        played += 1
        step = advance(state, action)
        state = step.state
        legal = legal_actions(state)
        shown = Report.of(state)
        plan.append(Planned(Step(action), (state, legal, shown, step.events), shown=shown))
    return plan, False


def expected_calls(plan: Sequence[Planned]) -> list[Expected]:
    """The engine's calls that play ``plan`` if the engine agrees all along: a probe is
    rejected, then its report asked; an action is accepted, its report and legal actions
    asked."""
    calls: list[Expected] = []
    for step, after, asked, shown in plan:
        if after is not None:
            legal = after[1]
            calls += (Expected("apply", step.action, report=shown, actions=legal,
                               events=after[3]),
                      Expected("report", report=shown), Expected("legal", actions=legal))
        elif asked:
            calls += (Expected("apply", step.action, accepted=False),
                      Expected("report", report=shown))
    return calls

def redraw(rng: random.Random, draws: Any, first: tuple[GameState, tuple[Action, ...]],
            played: Sequence[Planned], probe_rate: float) -> None:
    """Set ``rng`` to where one-step-at-a-time play would have it after the ``played``
    steps of a plan: from its state ``draws`` before the plan, the same draws again (the
    positions are the plan's, so no rule is asked again)."""
    rng.setstate(draws)
    state, legal = first
    for _, after, _, _ in played:
        if after is None:  # a probe: drawn with the action that follows it
            continue
        if probe_rate > 0 and rng.random() < probe_rate:
            pick_probe(state, legal, rng)
        choose(state, legal, rng)
        state, legal = after[0], after[1]


def restore(game: PairedGame, played: Sequence[Planned], loaded: tuple[GameState, int] | None
             ) -> None:
    """Bring the engine back to its position after the ``played`` steps of a plan, undoing
    the requests it was sent ahead: its game begun again as it was (the start, or the last
    load) and the steps it was asked since asked again, their answers already compared."""
    engine = game.engine
    if loaded is None:
        game.call("start", lambda: engine.start(game.rules, game.deck, game.seed))
        since = played
    else:
        state, before = loaded
        game.call("load", lambda: engine.load(state))
        since = played[before:]
    for step, _, asked, _ in since:
        if asked:
            action = step.action
            game.call("apply", lambda: engine.apply(action))  # noqa: B023 - called at once
