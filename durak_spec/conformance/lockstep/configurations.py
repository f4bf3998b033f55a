"""Configurations: the rule sets and player counts an engine claims, to be played."""


from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from durak_spec.model.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PROFILES,
    RuleSet,
    RuleSetError,
    TurnOrder,
)
from durak_spec.protocol import Capabilities
from durak_spec.protocol.claims import covering_rule_sets, own_protocol


@dataclass(frozen=True, slots=True)
class Configuration:
    """One rule set to play: a profile at a player count (and the profiles equal to it)."""

    profile: str
    rules: RuleSet
    aliases: tuple[str, ...] = ()
    covers: tuple[str, ...] = ()
    """For a rule set chosen to play the values an engine claims (``"claimed rules"``,
    :func:`~durak_spec.protocol.claims.covering_rule_sets`): the values
    (``axis=value``) that no configuration before it plays."""

    @property
    def label(self) -> str:
        same = f" (= {', '.join(self.aliases)})" if self.aliases else ""
        order = self.rules.turn_order
        turns = f", turn_order={order.value}" if order is not TurnOrder.FREE else ""
        return f"{self.profile}{same}, {self.rules.players} players{turns}"


def configurations(capabilities: Capabilities, *, profiles: Iterable[str] | None = None,
                   players: Iterable[int] | None = None,
                   rules: RuleSet | Iterable[RuleSet] | None = None,
                   ) -> tuple[list[Configuration], list[tuple[str, str]]]:
    """The configurations an engine claims, and those left out with the reason.

    By default every profile of the specification at 2..6 players that
    ``capabilities.supports``, under the engine's own bout protocol (``turn_order``,
    declared in the handshake); ``profiles`` and ``players`` narrow that down, ``rules``
    replaces it by explicit rule sets. Profiles with equal rules at a player count are
    played once (the others are listed as aliases). Where the engine declares the axis
    values it plays (``axes``), a few claimed rule sets are added at each player count
    ("claimed rules") so that every value it claims of every axis, its bout protocols
    among them, is played at least once: a covering set, not the product of the values
    (:func:`~durak_spec.protocol.claims.covering_rule_sets`; where it claims no
    profile at a player count, the first is the claimed rule set nearest to the classic
    game). Each such configuration names the values it is the first to play.
    """
    chosen: list[tuple[str, RuleSet]] = []
    covering: dict[RuleSet, tuple[str, ...]] = {}
    if rules is not None:
        for item in [rules] if isinstance(rules, RuleSet) else list(rules):
            name = next((p.name for p in PROFILES.values()
                         if p.rules(players=item.players) == item), "custom rules")
            chosen.append((name, item))
    else:
        names = list(PROFILES) if profiles is None else list(dict.fromkeys(profiles))
        unknown = [n for n in names if n not in PROFILES]
        if unknown:
            raise RuleSetError(f"unknown profile {unknown[0]!r}; profiles are: "
                               f"{', '.join(PROFILES)}")
        counts = list(range(MIN_PLAYERS, MAX_PLAYERS + 1)) if players is None else \
            sorted(set(players))
        for count in counts:
            if not MIN_PLAYERS <= count <= MAX_PLAYERS:
                raise RuleSetError(f"Durak is played by 2 to 6 players (DEAL-3), not {count}",
                                   rule="DEAL-3")
        chosen = [(name, own_protocol(capabilities, PROFILES[name].rules(players=count)))
                  for name in names for count in counts]
        if profiles is None and capabilities.axes:
            for count in counts:
                here = [r for _, r in chosen if r.players == count
                        and capabilities.supports(r) is None]
                for position, (ruleset, covers) in enumerate(
                        covering_rule_sets(capabilities, count, here)):
                    covering[ruleset] = covers
                    shown = [c for c in covers if not c.startswith("turn_order=")
                             or c == "turn_order=free"]  # the label names a turn order
                    chosen.append(("claimed rules" if (position == 0 and not here) or
                                   not shown else f"claimed rules ({', '.join(shown)})",
                                   ruleset))
    played: dict[RuleSet, Configuration] = {}
    skipped: list[tuple[str, str]] = []
    for name, ruleset in chosen:
        if ruleset in played:
            first = played[ruleset]
            if name != first.profile and name not in first.aliases:
                played[ruleset] = Configuration(first.profile, ruleset, (*first.aliases, name))
            continue
        reason = capabilities.supports(ruleset)
        if reason is not None:
            skipped.append((f"{name}, {ruleset.players} players", reason))
            continue
        played[ruleset] = Configuration(name, ruleset, covers=covering.get(ruleset, ()))
    return list(played.values()), skipped
