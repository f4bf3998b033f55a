"""What an engine claims: its capabilities (the handshake's claim: profiles, player counts,
axis values, bout protocols) and everything worked out from them, in one place.

* :meth:`Capabilities.supports`: whether the engine claims a rule set, and if not why;
* :func:`claimed_values`: per axis, the values it plays in any combination;
* :func:`claimed_rule_sets` and :func:`nearest_claimed`: the claimed rule sets nearest to
  a rule set (perft and lockstep play those where the stored or chosen rules are not
  claimed; the scenario checker weighs them by what an example depends on,
  :func:`durak_spec.conformance.dependencies.playing_rules`);
* :func:`covering_rule_sets`: a few claimed rule sets that play every claimed value;
* :func:`own_protocol`: a rule set under the engine's own bout protocol.

The wire reads a claim from the handshake (:mod:`durak_spec.protocol.wire`); this module
decides what it means.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from durak_spec.model.rules import AXES, PROFILES, Axis, RuleSet, RuleSetError, TurnOrder

__all__ = [
    "PROTOCOL_VERSION",
    "Capabilities",
    "axis_named",
    "claimed_rule_sets",
    "claimed_values",
    "covering_rule_sets",
    "nearest_claimed",
    "own_protocol",
]

PROTOCOL_VERSION = 1


def axis_named(name: str) -> Axis:
    """The rule-set axis called ``name``."""
    return next(a for a in AXES if a.name == name)


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What an engine says about itself in the handshake."""

    name: str
    version: str = ""
    protocol: int = PROTOCOL_VERSION
    profiles: tuple[str, ...] = ()
    """The named profiles whose rules the engine claims to play."""
    load: bool = False
    """Whether the engine can start from a given position (``Engine.load``)."""
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    axes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per rule-set axis, the values (as in ``RuleSet.to_dict``, booleans as ``"on"`` /
    ``"off"``) the engine plays in any combination, beyond its whole profiles."""
    turn_orders: tuple[str, ...] = ("free",)
    """The bout protocols (values of the axis ``turn_order``: CLAR-3, CLAR-17, CLAR-18)
    the engine plays, its own first; its profiles are claimed under each of them. A
    ``turn_order`` entry of :attr:`axes` says the same and takes precedence."""

    step: bool = False
    """Whether the engine answers ``apply`` with ``then`` by the report and legal actions
    after the action as well (one round trip per action; see :mod:`.wire`)."""

    events: bool = False
    """Whether the engine's accepted answers to ``apply`` carry the events of the step,
    each with the rule that decided it (:mod:`durak_spec.model.events`); a checker then
    compares what happened, event by event, instead of the positions alone."""

    def bout_protocols(self) -> tuple[str, ...]:
        """The bout protocols (``turn_order`` values) the engine plays, its own first."""
        return tuple(self.axes.get("turn_order", self.turn_orders))

    def plays_turn_order(self, value: str) -> bool:
        """Whether the engine plays the bout protocol ``value``."""
        return value in self.bout_protocols()

    def supports(self, rules: RuleSet) -> str | None:
        """``None`` if the engine claims these rules, else the reason it does not."""
        if rules.players not in self.players:
            return f"{self.name} does not play with {rules.players} players"
        order = rules.turn_order.value
        if not self.plays_turn_order(order):
            plays = ", ".join(self.bout_protocols())
            return f"{self.name} plays the bout protocol turn_order={plays}, not {order}"
        for name in self.profiles:
            known = PROFILES.get(name)
            if known is not None and \
                    known.rules(players=rules.players).replace(turn_order=rules.turn_order) \
                    == rules:
                return None
        claimed = claimed_values(self)
        if claimed:
            for name, played in claimed.items():
                value = Axis.format(getattr(rules, name))
                if name != "turn_order" and value not in played:
                    return f"{self.name} does not play {name}={value}"
            return None
        return f"{self.name} claims no profile with these rules"

    @staticmethod
    def every_axis() -> dict[str, tuple[str, ...]]:
        """Every value of every axis: what an engine playing any rule set declares."""
        out: dict[str, tuple[str, ...]] = {}
        for axis in AXES:
            if axis.name == "players":
                continue
            if axis.enum is not None:
                out[axis.name] = tuple(str(m.value) for m in axis.enum)
            else:
                out[axis.name] = ("on", "off")
        return out


def claimed_rule_sets(capabilities: Capabilities, rules: RuleSet) -> list[RuleSet]:
    """The rule sets for ``rules.players`` players that the engine claims, nearest first:
    its profiles under each bout protocol it plays, and ``rules`` with each axis value it
    does not play replaced by ones it does."""
    orders = capabilities.turn_orders or ("free",)
    found: list[RuleSet] = []
    if capabilities.axes:
        changes: dict[str, object] = {}
        for name, plays in claimed_values(capabilities).items():
            if Axis.format(getattr(rules, name)) not in plays and plays:
                changes[name] = axis_named(name).convert(plays[0])
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
            out[axis.name] = capabilities.bout_protocols()
        else:
            # an axis the engine does not list is played at its default value only
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
    claimed = claimed_values(capabilities)
    if not claimed or players not in capabilities.players:
        return []
    seen = {(a, Axis.format(getattr(r, a))) for r in played for a in claimed}
    wanted = [(a, v) for a, values in claimed.items() for v in values if (a, v) not in seen]

    def value(rules: RuleSet, axis: str) -> str:
        return Axis.format(getattr(rules, axis))

    def claims(rules: RuleSet, changes: Mapping[str, str]) -> RuleSet | None:
        try:
            changed = rules.replace(**{a: axis_named(a).convert(v) for a, v in changes.items()})
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


def own_protocol(capabilities: Capabilities, rules: RuleSet) -> RuleSet:
    """``rules`` under the engine's own bout protocol, if it does not play theirs."""
    if capabilities.plays_turn_order(rules.turn_order.value):
        return rules
    own = capabilities.bout_protocols()[0]
    return rules.replace(turn_order=TurnOrder(own))
