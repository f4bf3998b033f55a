"""What a run found: per configuration, per cause (rule and kind of difference), and in
all."""


from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from durak_spec.conformance.lockstep.configurations import Configuration
from durak_spec.conformance.lockstep.differences import Divergence, Found
from durak_spec.conformance.lockstep.text import count_text, rule_title

RESULT_FORMAT = "durak-spec/lockstep-report"

@dataclass(frozen=True, slots=True)
class GameProgress:
    """What the progress callback hears after each game."""

    configuration: str
    game: int
    actions: int
    divergence: Divergence | None


@dataclass(frozen=True, slots=True)
class ConfigResult:
    """The games of one configuration."""

    configuration: Configuration
    games: int
    actions: int
    probes: int
    unfinished: int
    """Games cut at ``max_actions`` before they ended."""
    divergence: Divergence | None = None
    """The configuration's first divergence."""
    stopped: str = ""
    """Why the configuration's games stopped early (an engine that could not restart)."""
    found: int = 0
    """How many divergences its games met (each game goes on after one where the engine
    can load the reference's position, else the next game starts)."""
    declined: int = 0
    """How many of its games ended at a divergence because the engine declined to load
    the reference's position (the next game started)."""

    @property
    def label(self) -> str:
        return self.configuration.label

    @property
    def outcome(self) -> Literal["agreed", "diverged", "failed", "stopped"]:
        """``stopped``: its games stopped early (interrupted, the engine lost, the run's
        divergences spent) before any diverged, so it did not agree."""
        if self.divergence is None:
            return "stopped" if self.stopped else "agreed"
        return "failed" if self.divergence.kind == "engine failure" else "diverged"

    @property
    def unplayed(self) -> bool:
        """Stopped before any of its games was played (the run was interrupted, or had
        stopped, before it)."""
        return self.outcome == "stopped" and self.games == 0

    def to_json(self) -> dict[str, object]:
        return {"configuration": self.label, "profile": self.configuration.profile,
                "aliases": list(self.configuration.aliases),
                "covers": list(self.configuration.covers),
                "rules": self.configuration.rules.to_dict(), "games": self.games,
                "actions": self.actions, "probes": self.probes, "unfinished": self.unfinished,
                "outcome": self.outcome, "stopped": self.stopped or None,
                "divergences": self.found, "loads_declined": self.declined,
                "divergence": None if self.divergence is None else self.divergence.to_json()}


CauseKind = Literal["turn order", "action missing", "action extra", "different result",
                    "engine failure", "engine error"]
CAUSE_KINDS: tuple[CauseKind, ...] = ("turn order", "action missing", "action extra",
                                      "different result", "engine failure", "engine error")
"""How a cause shows: another seat may act (turn order, reported once, as the bout
protocol's rule); an action the reference allows that the engine does not list or
rejects; an action the engine lists or accepts that the reference forbids; another
position after the same action (or a rejected action that changed something); an engine
that broke the protocol, or raised or refused a request."""


def cause_of(found: Found | Divergence) -> tuple[str | None, CauseKind]:
    """The cause of a divergence: the rule really concerned and the kind of difference."""
    kind = found.kind
    if kind == "engine failure" or kind == "engine error":
        return None, kind
    first = found.differences[0] if found.differences else None
    if first is not None and first.field == "who may act now":
        return first.rule, "turn order"
    if kind == "legal actions":
        extra = first is not None and first.engine == "lists it"
        return found.rule, "action extra" if extra else "action missing"
    if kind == "verdict":
        return found.rule, "action missing"
    if kind == "probe" and first is not None and first.engine == "accepts it":
        return found.rule, "action extra"
    return found.rule, "different result"


def cause_key(found: Found) -> tuple[Any, ...]:
    """What makes two divergences one cause: the rule (the reference's decision, so one
    deviation of the engine is one cause whatever step, event or report field shows it)
    and the kind of difference. An impossible report is one cause per rule it breaks (the
    audit's), whatever else its position shows. A different result that names no rule (a
    position the engine did not take as given) is one cause per set of report fields."""
    rule, kind = cause_of(found)
    if found.kind == "impossible report":
        return (found.kind, rule)
    if kind == "different result" and rule is None:
        fields = sorted({d.field.split("[")[0] for d in found.differences})
        return (kind, *fields)
    if rule is None or kind == "turn order":
        return (rule, kind)
    return ("rule", rule)  # missing actions and different results of one rule: one cause


@dataclass(frozen=True, slots=True)
class Cause:
    """Divergences that share a cause (rule and kind), counted, with one example (shrunk
    and replayable: from the deal where it was its game's first divergence, else from a
    position loaded into an engine that can load, or from the deal past the differences
    of legal actions before it)."""

    rule: str | None
    kind: CauseKind
    count: int
    example: Divergence
    configurations: tuple[str, ...]
    kinds: tuple[CauseKind, ...] = ()
    """How its divergences showed, the example's first (one deviation may show as a
    missing action in one position and as another result in the next)."""

    @property
    def heading(self) -> str:
        rule = " ".join(filter(None, (self.rule, rule_title(self.rule)))) or "no rule"
        where = f"{len(self.configurations)} configuration" \
            f"{'s' if len(self.configurations) != 1 else ''}"
        shown = ", ".join(self.kinds or (self.kind,))
        return f"{rule}: {shown}, {count_text(self.count, 'divergence')} in {where}"

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "kind": self.kind, "kinds": list(self.kinds or (self.kind,)),
                "count": self.count,
                "configurations": list(self.configurations),
                "example": self.example.to_json()}


@dataclass(frozen=True, slots=True)
class LockstepResult:
    """Everything :func:`play_lockstep` found."""

    engine: str
    seed: int
    games_per_configuration: int
    results: tuple[ConfigResult, ...]
    skipped: tuple[tuple[str, str], ...]
    seconds: float
    causes: tuple[Cause, ...] = ()
    """The divergences grouped by cause, the most frequent first."""
    interrupted: bool = False
    """Whether the run was interrupted (SIGINT): what it found until then."""

    @property
    def games(self) -> int:
        return sum(r.games for r in self.results)

    @property
    def actions(self) -> int:
        return sum(r.actions for r in self.results)

    @property
    def divergences(self) -> tuple[Divergence, ...]:
        """One example per cause (see :attr:`causes`)."""
        if self.causes:
            return tuple(c.example for c in self.causes)
        return tuple(r.divergence for r in self.results if r.divergence is not None)

    @property
    def ok(self) -> bool:
        """No divergence, no engine failure, no configuration stopped early, and the run
        not interrupted."""
        return not self.divergences and not any(r.stopped for r in self.results) and \
            not self.interrupted

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        """The closing line: ``N agreed, N diverged, N failed, N skipped`` (configurations;
        ``N stopped early`` before the skipped where some stopped before any diverged, and
        ``N not played`` where some stopped before their first game)."""
        counts = {"agreed": 0, "diverged": 0, "failed": 0, "stopped": 0, "unplayed": 0}
        for result in self.results:
            counts["unplayed" if result.unplayed else result.outcome] += 1
        stopped = f"{counts['stopped']} stopped early, " if counts["stopped"] else ""
        if counts["unplayed"]:
            stopped += f"{counts['unplayed']} not played, "
        return (f"{counts['agreed']} agreed, {counts['diverged']} diverged, "
                f"{counts['failed']} failed, {stopped}{len(self.skipped)} skipped "
                f"(configurations; {count_text(self.games, 'game')}, "
                f"{count_text(self.actions, 'action')}, "
                f"{self.seconds:.1f} s)" + ("; INTERRUPTED: what was found until then"
                                            if self.interrupted else ""))

    def to_json(self) -> dict[str, object]:
        return {"format": RESULT_FORMAT, "version": 1, "engine": self.engine,
                "seed": self.seed, "games_per_configuration": self.games_per_configuration,
                "seconds": round(self.seconds, 3), "games": self.games,
                "actions": self.actions, "ok": self.ok, "interrupted": self.interrupted,
                "summary": self.summary(),
                "causes": [c.to_json() for c in self.causes],
                "configurations": [r.to_json() for r in self.results],
                "skipped": [{"configuration": label, "reason": reason}
                            for label, reason in self.skipped]}
