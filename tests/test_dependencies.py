"""Scenario dependencies (issue 14): which axes each example's outcome depends on, shipped
in durak_spec/data/dependencies.json, recomputed here for a deterministic sample, and the
checker running every example an engine's claim supports under the engine's own rules."""

from __future__ import annotations

import dataclasses

import pytest

from durak_spec.conformance.dependencies import (
    compute,
    load_dependencies,
    parse,
    playing_rules,
    variants,
)
from durak_spec.model.rules import TurnOrder, profile
from durak_spec.protocol import Capabilities, ReferenceEngine
from durak_spec.spec.gherkin import read_specification
from durak_spec.spec.runner import features_dir, run

SAMPLE = "05_limits"
"""The examples recomputed in the suite: one chapter under every value of every axis (the
whole specification takes minutes: ``python tools/dependencies_fixture.py``)."""


def test_the_shipped_file_names_every_example_and_only_known_axes() -> None:
    shipped = load_dependencies()
    numbers = {e.number for e in read_specification(features_dir()).examples()}
    assert numbers == set(shipped)
    known = dict(variants())
    for axes in shipped.values():
        assert set(axes) <= set(known)
    with pytest.raises(ValueError):
        parse({"format": "durak-spec/dependencies", "version": 1,
               "examples": {"X-1.1": {"no_such_axis": ["on"]}}})


def test_a_sample_recomputed_on_the_reference_matches_the_shipped_file() -> None:
    found = compute(keyword=SAMPLE)
    shipped = load_dependencies()
    assert found, "the sample holds no example"
    for number, axes in found.items():
        assert {a: tuple(v) for a, v in axes.items()} == dict(shipped[number]), number
    assert len(found) >= 20
    # The sample is not trivial: the limits depend on the five-card switch; the two
    # wordings of LIMIT-2 allow the same actions in every reachable position (issue 13),
    # so no example depends on which one is played.
    assert any("first_bout_limit_five" in axes for axes in found.values())
    assert not any("limit_reading" in axes for axes in found.values())


class _Claims(ReferenceEngine):
    """The reference engine claiming less than it plays."""

    def __init__(self, capabilities: Capabilities) -> None:
        super().__init__()
        self._claimed = capabilities

    def capabilities(self) -> Capabilities:
        return self._claimed


def _outcomes(capabilities: Capabilities, adapt: bool) -> dict[str, int]:
    result = run(lambda: _Claims(capabilities), adapt=playing_rules() if adapt else None)
    for scenario in result.scenarios:  # every example it skips says why
        if adapt and scenario.outcome == "skipped":
            reason = scenario.skip_reason or ""
            assert "depends on" in reason or "does not play" in reason or \
                "cannot start" in reason, reason
    counts: dict[str, int] = {}
    for scenario in result.scenarios:
        counts[scenario.outcome] = counts.get(scenario.outcome, 0) + 1
    assert not counts.get("failed") and not counts.get("errored"), [
        (s.example, s.message) for s in result.scenarios if s.outcome in ("failed", "errored")]
    return counts


def test_an_engine_claiming_one_profile_runs_every_example_that_does_not_depend_on_the_rest(
        ) -> None:
    one = Capabilities(name="classic only", profiles=("classic-throw-in",), load=True)
    before = _outcomes(one, adapt=False)
    after = _outcomes(one, adapt=True)
    assert after["passed"] > before["passed"] + 50


def test_a_turn_based_engine_is_checked_under_its_own_protocol() -> None:
    turns = dataclasses.replace(ReferenceEngine().capabilities(), name="last thrower",
                                turn_orders=("last-thrower",),
                                axes={**Capabilities.every_axis(),
                                      "turn_order": ("last-thrower",)})
    counts = _outcomes(turns, adapt=True)
    assert counts["passed"] > 250
    rules = profile("classic-throw-in").rules(players=3)
    adapt = playing_rules()
    number = next(n for n, axes in load_dependencies().items() if not axes)
    chosen = adapt(number, turns, rules)
    assert not isinstance(chosen, str) and chosen.turn_order is TurnOrder.LAST_THROWER
    depends = next(n for n, axes in load_dependencies().items()
                   if "last-thrower" in axes.get("turn_order", ()))
    reason = adapt(depends, turns, rules)
    assert isinstance(reason, str) and "turn_order=last-thrower" in reason
