"""The step library: Gherkin steps that speak the way Durak players speak.

``Given`` steps describe a position (or a deal), ``When`` steps make moves, ``Then`` steps
check what the engine says. Every step talks to the engine only through
:class:`durak_spec.protocol.Engine`; the ``game`` fixture (a
:class:`~durak_spec.spec.context.GameContext`) holds
the scenario's names, rules and the verdict of the last move.

How a scenario runs:

* The ``Given`` steps build up a :class:`~durak_spec.game.positions.Position`. The first
  ``When`` or ``Then`` step builds it into a game state and loads it into the engine, or
  a ``When ... dealt ...`` step starts a game from a deck order.
* If the engine does not claim the scenario's rules, or cannot load a position, the
  scenario is skipped with the reason (a conformance checker reports it as such).
* Every move is cross-checked: an accepted move must be among the engine's legal
  actions, a rejected one must not be, and a rejected move must leave the position as it
  was. A rejected move must be followed by ``Then it is rejected ...``; otherwise the next
  step (or the end of the scenario) fails and shows the engine's reason.
* A mistyped card, an unknown player or an impossible position fails the step with a
  message that quotes the step.

The vocabulary, with one example per step, is in ``STEPS.md``; every step function's
docstring carries its examples on lines that start with ``Example:``.

The steps are grouped by job, one module each (:data:`STEP_MODULES`, which the pytest
plugin :mod:`durak_spec.spec.plugin` registers): :mod:`~durak_spec.spec.steps.given`,
:mod:`~durak_spec.spec.steps.when`, and the ``Then`` steps on moves, on the position, on
how bouts and games end, and on what the players see. Their shared patterns are in
:mod:`~durak_spec.spec.steps.vocabulary`; the scenario's game is
:mod:`durak_spec.spec.context`. Importing this package defines no step: pytest-bdd binds a
step to the module that defines it, and pytest loads each module of :data:`STEP_MODULES`
as a plugin. A step text must match exactly one definition across all of them (pytest-bdd
would pick one of several silently; ``plugin.ambiguous_steps`` finds such a step).
"""

from __future__ import annotations

__all__ = ["STEP_MODULES"]

STEP_MODULES: tuple[str, ...] = (
    "durak_spec.spec.steps.given",
    "durak_spec.spec.steps.when",
    "durak_spec.spec.steps.then_moves",
    "durak_spec.spec.steps.then_position",
    "durak_spec.spec.steps.then_outcome",
    "durak_spec.spec.steps.then_views",
)
"""The modules that define steps, each registered with pytest as a plugin."""
