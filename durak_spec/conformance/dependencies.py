"""What each scenario's outcome depends on: the rule-set axes (the bout protocol among
them) under whose other values its example no longer passes on the reference.

As test262's tests declare the features they need, every example of the specification
(keyed by its stable number, ``BEAT-2.3``: :mod:`durak_spec.spec.gherkin`) says which
values of which axes change its outcome. The answer is computed, never written by hand:
:func:`compute` plays every example on the reference engine once as written, then once
per other value of every axis but ``players`` (a scenario names its players), with that
one axis changed (showing a trump to transfer comes with the transfer game,
TRANSFER-7); an example that fails, errors, or cannot be set up under a value depends
on that value. The result ships as ``durak_spec/data/dependencies.json`` and a test
recomputes a deterministic sample of it.

The checker uses it through :func:`playing_rules`: an engine is checked on every example
whose dependencies it supports, under its own values of the other axes. An engine that
claims one profile (or one bout protocol) thus runs every example whose outcome does not
depend on the axes where it differs. The values are found one axis at a time: where the
checker changes several axes of an example at once, it assumes that axes which change
nothing alone change nothing together.

Regenerate the file after changing features or rules::

    python tools/dependencies_fixture.py --write      # in a clone; not part of the wheel
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from durak_spec.core.jsonio import read_json
from durak_spec.model.rules import AXES, Axis, RuleSet, RuleSetError
from durak_spec.protocol import Capabilities
from durak_spec.protocol.claims import axis_named, claimed_rule_sets

__all__ = [
    "FORMAT",
    "VERSION",
    "Dependencies",
    "compute",
    "load_dependencies",
    "playing_rules",
    "variants",
]

FORMAT: Final = "durak-spec/dependencies"
VERSION: Final = 1
_RESOURCE: Final = "data/dependencies.json"

Dependencies = Mapping[str, Mapping[str, tuple[str, ...]]]
"""Example number -> axis -> the values (as ``Axis.format`` writes them: ``on``/``off``,
enum values) under which the example does not pass. An example with no entry in the map
for an axis does not depend on it."""


def variants() -> tuple[tuple[str, str], ...]:
    """Every (axis, value) an example is tried under: all values of all axes but
    ``players``."""
    out: list[tuple[str, str]] = []
    for axis in AXES:
        if axis.name == "players":
            continue
        values = [str(m.value) for m in axis.enum] if axis.enum is not None else ["on", "off"]
        out.extend((axis.name, value) for value in values)
    return tuple(out)


def _changed(axis: str, value: str, unplayable: dict[str, set[tuple[str, str]]],
             number: str, capabilities: Capabilities, rules: RuleSet) -> RuleSet | str:
    if Axis.format(getattr(rules, axis)) == value:
        return "the example is written with this value"
    change: dict[str, object] = {axis: axis_named(axis).convert(value)}
    if axis == "transfer_by_showing_trump" and value == "on":
        change["transfer"] = True  # showing a trump is a way to transfer (TRANSFER-7)
    if axis == "transfer" and value == "off":
        change["transfer_by_showing_trump"] = False
    try:
        return rules.replace(**change)
    except RuleSetError as error:
        unplayable.setdefault(number, set()).add((axis, value))
        return f"the example cannot be played with {axis}={value}: {error}"


def compute(chosen: Iterable[tuple[str, str]] | None = None, *,
            keyword: str | None = None,
            progress: Callable[[str], None] | None = None) -> dict[str, dict[str, list[str]]]:
    """Play the examples on the reference under each (axis, value) of ``chosen`` (default:
    :func:`variants`); return, per example number, per axis, the values under which it
    does not pass. ``keyword`` restricts the examples as ``durak-spec check -k`` does.

    Raises ``RuntimeError`` if an example fails on the reference as written."""
    from durak_spec.spec.runner import run

    baseline = run(keyword=keyword)
    broken = [r.example for r in baseline.scenarios if r.outcome in ("failed", "errored")]
    if broken:
        raise RuntimeError(f"examples fail on the reference as written: {broken[:5]}")
    found: dict[str, dict[str, list[str]]] = {r.example: {} for r in baseline.scenarios}
    for axis, value in (variants() if chosen is None else tuple(chosen)):
        unplayable: dict[str, set[tuple[str, str]]] = {}
        adapt = functools.partial(_changed, axis, value, unplayable)
        result = run(keyword=keyword, adapt=adapt)
        for scenario in result.scenarios:
            if scenario.outcome in ("failed", "errored") or \
                    (axis, value) in unplayable.get(scenario.example, ()):
                found.setdefault(scenario.example, {}).setdefault(axis, []).append(value)
        if progress is not None:
            progress(f"{axis}={value}")
    return found


def document(found: Mapping[str, Mapping[str, Sequence[str]]]) -> dict[str, object]:
    """The JSON document of computed dependencies (examples and values in a stable
    order)."""
    order = {value: i for i, value in enumerate(v for _, v in variants())}
    return {
        "format": FORMAT, "version": VERSION,
        "examples": {number: {axis: sorted(values, key=lambda v: order.get(v, 0))
                              for axis, values in sorted(found[number].items())}
                     for number in sorted(found)},
    }


def parse(data: object) -> Dependencies:
    """The dependencies of a document written by :func:`document`; ``ValueError`` if it
    is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or \
            data.get("version") != VERSION or not isinstance(data.get("examples"), dict):
        raise ValueError(f"not a {FORMAT} document of version {VERSION}")
    known = dict(variants())
    out: dict[str, Mapping[str, tuple[str, ...]]] = {}
    for number, axes in data["examples"].items():
        if not isinstance(axes, dict):
            raise ValueError(f"{number}: the axes must be an object")
        for axis, values in axes.items():
            if axis not in known or not isinstance(values, list) or \
                    not all(isinstance(v, str) for v in values):
                raise ValueError(f"{number}: {axis!r} is not an axis with a list of values")
        out[number] = MappingProxyType({a: tuple(v) for a, v in axes.items()})
    return MappingProxyType(out)


def load_dependencies() -> Dependencies:
    """The shipped dependencies (``durak_spec/data/dependencies.json``), read anew on
    every call (the checker reads them once per run: :func:`playing_rules`)."""
    text = (importlib.resources.files("durak_spec") / _RESOURCE).read_text(encoding="utf-8")
    return parse(read_json(text))


def playing_rules(dependencies: Dependencies | None = None
                  ) -> Callable[[str, Capabilities, RuleSet], RuleSet | str]:
    """The checker's ``adapt`` for :func:`durak_spec.spec.runner.run`: an example whose
    rules the engine claims is played as written; otherwise under the nearest rule set
    the engine claims that differs only on axes (or values) the example's outcome does
    not depend on. An example it cannot be played under is skipped with the axes that
    stand in the way."""
    deps = load_dependencies() if dependencies is None else dependencies

    def adapt(number: str, capabilities: Capabilities, rules: RuleSet) -> RuleSet | str:
        if capabilities.supports(rules) is None:
            return rules
        depends = deps.get(number)
        if depends is None:
            return rules  # not a known example: the claim decides, as before
        blocked: set[str] = set()
        for candidate in claimed_rule_sets(capabilities, rules):
            stands = [f"{a.name}={Axis.format(getattr(candidate, a.name))}" for a in AXES
                      if getattr(candidate, a.name) != getattr(rules, a.name)
                      and (a.name == "players"
                           or Axis.format(getattr(candidate, a.name))
                           in depends.get(a.name, ()))]
            if not stands and capabilities.supports(candidate) is None:
                return candidate
            blocked.update(stands)
        reason = capabilities.supports(rules) or "the engine does not claim these rules"
        if blocked:
            reason += ("; the example's outcome depends on the rules where the engine "
                       "differs (" + ", ".join(sorted(blocked)) + ")")
        return reason

    return adapt
