"""What differs between the engine and the reference: one :class:`Difference`, a
divergence as one replay met it (:class:`Found`) and as reported (:class:`Divergence`)."""


from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from durak_spec.conformance.lockstep.record import Record
from durak_spec.conformance.lockstep.text import count_text, position_text, rule_title
from durak_spec.protocol.subprocess_engine import EngineFailure

DivergenceKind = Literal["deal", "verdict", "events", "report", "load", "legal actions",
                         "probe", "engine failure", "engine error", "impossible report"]
DIVERGENCE_KINDS: tuple[DivergenceKind, ...] = ("deal", "verdict", "events", "report", "load",
                                                "legal actions", "probe", "engine failure",
                                                "engine error", "impossible report")
"""What diverged: the report after the deal, the verdict on a legal action, what happened
in a step (the events, where the engine tells them), the report after an action, a
position given to the engine (a load: refused naming a rule, or reported otherwise), the
legal actions, an illegal action (probe) the engine accepted or that
changed its state, an engine that broke the protocol, an engine that raised or refused, a
report no game can reach (:mod:`durak_spec.protocol.audit`, checked before the reference
is compared)."""

@dataclass(frozen=True, slots=True)
class Difference:
    """One thing the engine and the reference disagree on, and the rule it touches."""

    field: str
    """What differs: ``verdict``, a report field (``hands[P1]``, ``attacker``, ...), a
    legal action (``legal action P1 transfer 8♥``) or ``engine``."""
    engine: str
    reference: str
    rule: str | None

    def to_json(self) -> dict[str, object]:
        return {"field": self.field, "engine": self.engine, "reference": self.reference,
                "rule": self.rule}

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.field} — engine: {self.engine}; reference: {self.reference}{rule}"


@dataclass(frozen=True, slots=True)
class Found:
    """A divergence as one replay met it: at which step (-1: the deal), what and why."""

    kind: DivergenceKind
    differences: tuple[Difference, ...]
    step: int = -1
    failure: EngineFailure | None = None
    loaded: bool = False
    """Met at the load of the reference's position after the step (a resync), not at the
    step itself."""

    @property
    def rule(self) -> str | None:
        return next((d.rule for d in self.differences if d.rule), None)


@dataclass(frozen=True, slots=True)
class Divergence:
    """A divergence: a shrunk replayable record and what differs.

    ``record`` ends with the step after which the engine and the reference disagreed (no
    steps: they disagreed on the deal, or on the position the record begins from).
    ``rule`` is the rule the first difference touches.
    """

    kind: DivergenceKind
    record: Record
    differences: tuple[Difference, ...]
    rule: str | None
    label: str = ""
    """The configuration, e.g. ``classic-transfer, 3 players``."""
    game: int = 0
    """The game of the configuration (0-based) in which it was found."""
    found_after: int = 0
    """Steps played (probes included) when it was found, before shrinking."""
    shrunk: bool = True
    reproducible: bool = True
    """Whether replaying the record from the start shows it again."""
    note: str = ""

    @property
    def length(self) -> int:
        return len(self.record.steps)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "rule": self.rule, "configuration": self.label,
                "game": self.game, "found_after": self.found_after, "shrunk": self.shrunk,
                "reproducible": self.reproducible, "note": self.note,
                "differences": [d.to_json() for d in self.differences],
                "record": self.record.to_json()}

    def describe(self, indent: str = "  ") -> str:
        """Several lines: the configuration, what differs, the replay and the record."""
        head = f"{self.label}, game {self.game + 1}" if self.label else "divergence"
        rule = " ".join(filter(None, (self.rule, rule_title(self.rule))))
        lines = [f"{head}: {self.kind}" + (f" ({rule})" if rule else "")]
        start = self.record.start
        where = (f"after step {len(self.record.steps)}: {self.record.steps[-1]}"
                 if self.record.steps else "at the deal" if start is None else
                 "at the load of the position")
        lines.append(f"{indent}diverges {where}")
        for difference in self.differences:
            lines.append(f"{indent}  {difference}")
        shrink_note = (f"shrunk from {self.found_after} steps" if self.shrunk and
                       self.found_after != self.length else
                       "already the shortest prefix" if self.shrunk else "not shrunk")
        lines.append(f"{indent}replay: {count_text(len(self.record.steps), 'step')} ({shrink_note}"
                     + ("" if self.reproducible else "; NOT reproduced by a replay") + ")"
                     + (f"; {self.note}" if self.note else ""))
        if start is not None:
            lines.append(f"{indent}  load the reference's position of bout {start.bout + 1}: "
                         f"{position_text(start)}")
        if self.record.past_legal:
            lines.append(f"{indent}  (the replay goes on past the differences of legal "
                         "actions before the last step)")
        for first in range(0, len(self.record.steps), 6):
            lines.append(f"{indent}  " + "; ".join(str(s) for s in
                                                   self.record.steps[first:first + 6]))
        lines.append(f"{indent}record: " + json.dumps(self.record.to_json(),
                                                      ensure_ascii=False))
        return "\n".join(lines)
