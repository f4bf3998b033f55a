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

    python -m durak_spec.conformance.dependencies --write
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.resources
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Final

from durak_spec.core.jsonio import read_json, write_json
from durak_spec.model.rules import AXES, Axis, RuleSet, RuleSetError, TurnOrder
from durak_spec.protocol import Capabilities

__all__ = [
    "FORMAT",
    "VERSION",
    "Dependencies",
    "claimed_rule_sets",
    "claimed_values",
    "compute",
    "covering_rule_sets",
    "load_dependencies",
    "nearest_claimed",
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


def _axis(name: str) -> Axis:
    return next(a for a in AXES if a.name == name)


def _changed(axis: str, value: str, unplayable: dict[str, set[tuple[str, str]]],
             number: str, capabilities: Capabilities, rules: RuleSet) -> RuleSet | str:
    if Axis.format(getattr(rules, axis)) == value:
        return "the example is written with this value"
    change: dict[str, object] = {axis: _axis(axis).convert(value)}
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


def claimed_rule_sets(capabilities: Capabilities, rules: RuleSet) -> list[RuleSet]:
    """The rule sets for ``rules.players`` players that the engine claims, nearest first:
    its profiles under each bout protocol it plays, and ``rules`` with each axis value it
    does not play replaced by ones it does."""
    from durak_spec.model.rules import PROFILES

    orders = capabilities.turn_orders or ("free",)
    found: list[RuleSet] = []
    if capabilities.axes:
        changes: dict[str, object] = {}
        for axis in AXES:
            if axis.name == "players":
                continue
            # an axis the engine does not list is played at its default value only
            # (as Capabilities.supports reads the claim)
            unlisted = orders if axis.name == "turn_order" else \
                (Axis.format(getattr(RuleSet(), axis.name)),)
            plays = capabilities.axes.get(axis.name, unlisted)
            if Axis.format(getattr(rules, axis.name)) not in plays and plays:
                changes[axis.name] = axis.convert(plays[0])
        with contextlib.suppress(RuleSetError):  # a combination no rule set allows
            found.append(rules.replace(**changes))
    for name in capabilities.profiles:
        known = PROFILES.get(name)
        if known is None:
            continue
        for order in orders:
            try:
                found.append(known.rules(players=rules.players).replace(
                    turn_order=TurnOrder(order)))
            except RuleSetError:
                continue
    return sorted(found, key=lambda r: sum(getattr(r, a.name) != getattr(rules, a.name)
                                           for a in AXES))


def claimed_values(capabilities: Capabilities) -> dict[str, tuple[str, ...]]:
    """Per axis but ``players``, the values (as ``Axis.format`` writes them) the engine
    claims to play in any combination: its ``axes`` (an axis it does not list at its
    default value only, as :meth:`Capabilities.supports` reads the claim) and its bout
    protocols. Empty for an engine that declares no axes (it claims whole profiles)."""
    if not capabilities.axes:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for axis in AXES:
        if axis.name == "players":
            continue
        if axis.name == "turn_order":
            out[axis.name] = tuple(capabilities.axes.get("turn_order",
                                                         capabilities.turn_orders))
        else:
            default = Axis.format(getattr(RuleSet(), axis.name))
            out[axis.name] = tuple(capabilities.axes.get(axis.name, (default,)))
    return out


def covering_rule_sets(capabilities: Capabilities, players: int,
                       played: Iterable[RuleSet] = ()
                       ) -> list[tuple[RuleSet, tuple[str, ...]]]:
    """A few rule sets for ``players`` players that the engine claims, in which every
    value it claims of every axis (:func:`claimed_values`) is played at least once beside
    the rule sets ``played`` already; each with the values (``axis=value``) it is the
    first to play. Built greedily, not as the product of the values: the first is the
    claimed rule set nearest to the classic game (where it plays a value not played yet);
    each next one starts from it (or, where the value cannot join it, from the rules the
    axes alone claim) with the first value not yet played (and, where the rules need it,
    one other axis changed with it: showing a trump needs the transfer game,
    TRANSFER-7), and takes every further value not yet played that the rules and
    the claim allow beside those. So the count is about the largest number of values
    still unplayed on one axis, not their product. A value no claimed rule set can play
    is left out. Values played together can hide each other's effect (at four players,
    with only the neighbours throwing in, drawing in the order of joining is drawing from
    the attacker on): each value is played, not each pair of values."""
    from durak_spec.model.rules import PROFILES

    claimed = claimed_values(capabilities)
    if not claimed or players not in capabilities.players:
        return []
    seen = {(a, Axis.format(getattr(r, a))) for r in played for a in claimed}
    wanted = [(a, v) for a, values in claimed.items() for v in values if (a, v) not in seen]

    def value(rules: RuleSet, axis: str) -> str:
        return Axis.format(getattr(rules, axis))

    def claims(rules: RuleSet, changes: Mapping[str, str]) -> RuleSet | None:
        try:
            changed = rules.replace(**{a: _axis(a).convert(v) for a, v in changes.items()})
        except RuleSetError:  # a combination no rule set allows
            return None
        return changed if capabilities.supports(changed) is None else None

    def reach(rules: RuleSet | None, changes: Mapping[str, str]
              ) -> tuple[RuleSet, set[str]] | None:
        """``rules`` changed so, or with one other axis changed as well; the axes set."""
        if rules is None:
            return None
        found = claims(rules, changes)
        if found is not None:
            return found, set(changes)
        for other, values in claimed.items():
            for other_value in values if other not in changes else ():
                found = claims(rules, {**changes, other: other_value})
                if found is not None:
                    return found, {*changes, other}
        return None

    classic = PROFILES["classic-throw-in"].rules(players=players)
    # the rules of the axes alone, nearest to the classic game: where a value cannot join
    # the nearest claimed rule set (a profile claimed beside axes that do not hold its
    # values), it starts from these
    own = reach(classic, {a: values[0] for a, values in claimed.items()
                          if value(classic, a) not in values})
    base = next((r for r in claimed_rule_sets(capabilities, classic)
                 if capabilities.supports(r) is None), None) or (own and own[0])
    if base is None:
        return []
    out: list[tuple[RuleSet, tuple[str, ...]]] = []

    def take(rules: RuleSet) -> None:
        new = [(a, v) for a, v in wanted if value(rules, a) == v]
        out.append((rules, tuple(f"{a}={v}" for a, v in new)))
        wanted[:] = [p for p in wanted if p not in new]

    if any(value(base, a) == v for a, v in wanted):
        take(base)
    while wanted:
        axis, first = wanted[0]
        reached = reach(base, {axis: first}) or reach(own and own[0], {axis: first})
        if reached is None:
            wanted.pop(0)  # no claimed rule set plays it
            continue
        candidate, fixed = reached
        for other, other_value in list(wanted[1:]):
            if other in fixed:
                continue
            changed = claims(candidate, {other: other_value})
            if changed is not None:
                candidate = changed
                fixed.add(other)
        take(candidate)
    return out


def nearest_claimed(capabilities: Capabilities, rules: RuleSet) -> RuleSet | str:
    """``rules`` if the engine claims them, else the claimed rule set for as many players
    that differs from them on the fewest axes (:func:`claimed_rule_sets`), else the
    reason the claim excludes them. Perft and lockstep choose the rules they play this
    way; the scenarios choose through :func:`playing_rules`, which also weighs what an
    example's outcome depends on."""
    reason = capabilities.supports(rules)
    if reason is None:
        return rules
    for candidate in claimed_rule_sets(capabilities, rules):
        if capabilities.supports(candidate) is None:
            return candidate
    return reason


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


def _path() -> Path:
    return Path(__file__).resolve().parents[1] / _RESOURCE


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m durak_spec.conformance.dependencies",
        description="Compute which axes each example's outcome depends on, on the reference.")
    parser.add_argument("--write", action="store_true",
                        help=f"write durak_spec/{_RESOURCE} (else print the document)")
    args = parser.parse_args(argv)
    found = compute(progress=lambda text: print(text, file=sys.stderr, flush=True))
    text = write_json(document(found), indent=1) + "\n"
    if args.write:
        _path().write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    raise SystemExit(main())
