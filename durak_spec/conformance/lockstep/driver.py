"""One game played in the engine and in the reference side by side: begin, play, probe,
resynchronise, each answer audited and compared."""


from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from durak_spec.conformance.lockstep.attribution import action_rule, load_rule, why_illegal
from durak_spec.conformance.lockstep.compare import compare_events, compare_legal, compare_reports
from durak_spec.conformance.lockstep.differences import Difference, DivergenceKind, Found
from durak_spec.core.cards import Card
from durak_spec.core.errors import DurakError
from durak_spec.engine import advance, legal_actions, new_game
from durak_spec.model.actions import Action
from durak_spec.model.events import Event
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState
from durak_spec.protocol import Accepted, Engine, LoadDeclined, Rejected, Report, Verdict
from durak_spec.protocol.audit import audit
from durak_spec.protocol.subprocess_engine import EngineFailure


class _RefusedLoad(Exception):
    """The engine refused a load naming a rule (the position breaks it, it says)."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(reason)
        self.reason, self.rule = reason, rule


class Broke(Exception):
    """The engine raised, refused a request, or failed; the game cannot go on."""

    def __init__(self, found: Found) -> None:
        super().__init__(found.kind)
        self.found = found


class PairedGame:
    """One game played in the engine and in the reference side by side."""

    def __init__(self, engine: Engine, rules: RuleSet, deck: Sequence[Card], seed: int,
                 origin: GameState | None = None) -> None:
        self.engine = engine
        self.rules = rules
        self.deck = tuple(deck)
        self.seed = seed
        self.origin = origin
        """A position to begin from (loaded into the engine), instead of the deal."""
        self.state = new_game(rules, deck=self.deck, seed=seed) if origin is None else origin
        self.legal = legal_actions(self.state)
        self.last: Action | None = None
        self.probing = False
        self.context_rule: str | None = None
        self._shown_state: GameState | None = None
        self._shown_report: Report | None = None
        self.declined = ""
        """The reason the engine gave when it declined to load the position (LoadDeclined)."""
        self.common: tuple[Action, ...] | None = None
        """Where the legal actions differed in the position now: the reference's that the
        engine lists too (the game goes on with one of them), and those it lists alone."""
        self.extra: frozenset[Action] = frozenset()
        self.events = engine.capabilities().events if hasattr(engine, "capabilities") \
            else False
        """Whether the engine says what happened in a step (capability ``events``): then
        each step is compared event by event."""

    @property
    def context(self) -> str:
        if self.last is None:
            return "the deal"
        return f"probing {self.last}" if self.probing else f"after {self.last}"

    def call(self, what: str, call: Callable[[], Any]) -> Any:
        # A broken engine touches no rule in particular: the rule of the action in play
        # is only named in the text, so that failures group apart from rule divergences.
        try:
            return call()
        except EngineFailure as error:
            raise Broke(Found("engine failure", (Difference(
                "engine", f"failed at {what} ({self._where()}): {error}",
                "an answer in protocol", None),), failure=error)) from None
        except (KeyboardInterrupt, SystemExit, MemoryError, LoadDeclined):
            raise
        except DurakError as error:
            if what == "load" and error.rule:  # the engine disagrees about the position
                raise _RefusedLoad(str(error), error.rule) from None
            raise self._raised(what, error) from None
        except Exception as error:
            raise self._raised(what, error) from None

    def _raised(self, what: str, error: Exception) -> Broke:
        """An engine's exception or error response, reported."""
        return Broke(Found("engine error", (Difference(
            "engine", f"raised at {what} ({self._where()}): {type(error).__name__}: "
            f"{error}", "an answer", None),)))

    def _where(self) -> str:
        return self.context + (f", {self.context_rule}" if self.context_rule else "")

    def _report(self, what: str = "state", call: Callable[[], Any] | None = None) -> Report:
        report = self.call(what, self.engine.report if call is None else call)
        if not isinstance(report, Report):
            raise Broke(Found("engine error", (Difference(
                "engine", f"answered {what} with {type(report).__name__}, not a Report",
                "a Report", None),)))
        return report

    def _audit(self, report: Report, before: Report | None = None,
               verdict: Verdict | None = None, action: Action | None = None) -> Found | None:
        """The engine's report audited on its own (``before``: the position it came from,
        as both agreed on it)."""
        problems = audit(report, self.rules.players, before, verdict, action, self.rules.goal)
        if not problems:
            return None
        return Found("impossible report", tuple(
            Difference("report", p.text, "a position some game can reach", p.rule)
            for p in problems))

    def _legal(self) -> list[Difference]:
        mine = tuple(self.call("legal", self.engine.legal_actions))
        if mine is self.legal:  # the reference's own list (an answer as expected)
            self.common, self.extra = None, frozenset()
            return []
        odd = next((a for a in mine if not isinstance(a, Action)), None)
        if odd is not None:
            raise Broke(Found("engine error", (Difference(
                "engine", f"listed {odd!r} among the legal actions, which is not an Action",
                "actions", None),)))
        differences = compare_legal(mine, self.legal, self.state)
        listed = frozenset(mine) if differences else frozenset()
        self.common = tuple(a for a in self.legal if a in listed) if differences else None
        self.extra = listed.difference(self.legal) if differences else frozenset()
        return differences

    def begin(self) -> Found | None:
        """Begin the game in the engine: the deal, or the position it begins from (an
        engine that declines it raises :class:`~durak_spec.protocol.LoadDeclined`)."""
        if self.origin is None:
            return self.start()
        return self._load(self.origin)

    def _load(self, position: GameState) -> Found | None:
        """Give the engine ``position`` and compare its answer as that position (audited
        on its own first). A load the engine refuses naming a rule is a difference about
        that rule; one it declines raises :class:`~durak_spec.protocol.LoadDeclined`."""
        try:
            report = self._report("load", lambda: self.engine.load(position))
        except _RefusedLoad as refused:
            return Found("load", (Difference(
                "load of the reference's position", f"refuses it: {refused.reason}",
                "a position play reaches", load_rule(refused.rule, position)),))
        impossible = self._audit(report)
        if impossible is not None:
            return impossible
        differences = compare_reports(report, self.shown(position), position)
        if differences:
            return Found("load", tuple(differences))
        differences = self._legal()
        return Found("legal actions", tuple(differences)) if differences else None

    def start(self) -> Found | None:
        report = self._report("start", lambda: self.engine.start(self.rules, self.deck,
                                                                self.seed))
        impossible = self._audit(report)
        if impossible is not None:
            return impossible
        differences = compare_reports(report, Report.of(self.state), self.state,
                                      dealt=True)
        if differences:
            return Found("deal", tuple(differences))
        differences = self._legal()
        return Found("legal actions", tuple(differences)) if differences else None

    def shown(self, state: GameState) -> Report:
        """The reference's report of ``state``, made once per position played."""
        if self._shown_state is not state or self._shown_report is None:
            self._shown_state, self._shown_report = state, Report.of(state)
        return self._shown_report

    def play(self, action: Action, after: After | None = None) -> Found | None:
        """Play ``action`` in both; ``after`` is the reference's position and legal actions
        after it, if already known (:func:`plan_game`)."""
        before = self.state
        self.common, self.extra = None, frozenset()
        self.last, self.probing = action, False
        self.context_rule = action_rule(before, action)
        verdict = self.call("apply", lambda: self.engine.apply(action))
        if after is None:
            step = advance(before, action)
            after = (step.state, legal_actions(step.state), Report.of(step.state), step.events)
        if not isinstance(verdict, Accepted):
            shown = (f"rejects it: {verdict.reason}" + (f" ({verdict.rule})" if verdict.rule
                                                         else "")
                     if isinstance(verdict, Rejected) else f"answers {verdict!r}")
            self.state, self.legal, _, _ = after  # the reference goes on, for a resync
            return Found("verdict", (Difference(f"verdict on {action}", shown, "legal",
                                                 self.context_rule),))
        before_shown = self.shown(before)
        self.state, self.legal, self._shown_report, events = after
        self._shown_state = self.state
        report = self._report()
        impossible = self._audit(report, before_shown, verdict, action)
        told = verdict.events if self.events else None
        differences = [] if told is None else compare_events(told, events, self.state)
        kind: DivergenceKind = "events"
        if not differences:  # the same story (or none told): the positions, then
            kind = "report"
            differences = compare_reports(report, self._shown_report, self.state, events,
                                          before)
        if impossible is not None:  # what is impossible first, then what differs
            return replace(impossible, differences=impossible.differences + tuple(differences))
        if differences:
            return Found(kind, tuple(differences))
        differences = self._legal()
        return Found("legal actions", tuple(differences)) if differences else None

    def resync(self) -> Found | None:
        """Load the reference's position into the engine (after a divergence), and compare
        again: the game goes on from the same position on both sides."""
        self.last, self.probing, self.context_rule = None, False, None
        try:
            return self._load(self.state)
        except LoadDeclined as declined:  # the standard decline: this game ends here
            self.declined = str(declined) or "declined"
            return None

    def probe(self, action: Action) -> Found | None:
        why = why_illegal(self.state, action)
        if why is None:  # not illegal here (a record replayed against changed rules)
            return None
        self.last, self.probing = action, True
        self.context_rule = why.rule
        verdict = self.call("apply", lambda: self.engine.apply(action))
        if not isinstance(verdict, Rejected):
            return Found("probe", (Difference(f"verdict on {action}",
                                               "accepts it" if isinstance(verdict, Accepted)
                                               else f"answers {verdict!r}",
                                               f"illegal: {why.reason}", why.rule),))
        report = self._report()
        differences = compare_reports(report, self.shown(self.state), self.state)
        if differences:
            changed = tuple(Difference(d.field, f"{d.engine} after rejecting {action}",
                                       d.reference, why.rule) for d in differences)
            return Found("probe", changed)
        return None

After = tuple[GameState, tuple[Action, ...], Report, tuple[Event, ...]]
"""The reference after an action: its position, legal actions, report and the events of
the step."""
