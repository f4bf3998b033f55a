"""The executable specification's machinery: positions, step library and pytest plugin.

* :mod:`durak_spec.game.positions` turns a position described the way players describe
  it (who holds what, what lies on the table, how many cards are left in the stock) into
  a validated :class:`~durak_spec.model.state.GameState`. It is pure and knows no pytest.
* :mod:`durak_spec.spec.steps` holds the Gherkin step definitions, one module per job.
  They talk to an engine only through :class:`durak_spec.protocol.Engine` (by way of the
  scenario's game, :mod:`durak_spec.spec.context`), so the same features check the
  reference implementation and any other engine.
* :mod:`durak_spec.spec.plugin` is the pytest plugin: the ``engine`` and ``game``
  fixtures, a marker for every rule ID and tag, and the checks that keep the feature files
  honest (no ambiguous or undefined step, no unknown tag).

The step vocabulary is listed in ``STEPS.md`` next to this file.
"""
